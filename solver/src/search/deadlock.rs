//! Admissible lower bounds for optimal search from deadlock analysis (after Paul & Helmert,
//! "Optimal Solitaire Game Solutions using A* Search and Deadlock Analysis", SoCS 2016).
//!
//! Every card not home needs one foundation move. A cascade card that is never moved
//! anywhere but home leaves its cascade exactly when it goes home, so such cards must go
//! home in an order that both respects the suits (lower ranks first) and lets every card
//! leave before the cards beneath it. Where those two orders form a cycle, one of the
//! cards that lie *above* another card of the cycle must make an extra, non-foundation move
//! (moving a lower card of the cycle instead does not help: it still cannot leave before
//! the cards on top of it).
//!
//! Cycles with one or two suits are found exactly:
//! - a card above a lower card of its own suit must move (a one-card cycle);
//! - cards `x` (above `y`) and `u` (above `v`), where `y` is a lower card of `u`'s suit and
//!   `v` a lower card of `x`'s suit, form a cycle `x ≺ y ≺ u ≺ v ≺ x`: `x` or `u` must move.
//!
//! The extra moves are then at least a minimum hitting set of these cycles (a vertex
//! cover of the two-card cycles once the forced cards are taken out), computed exactly by
//! branch and bound, or bounded below by a greedy matching when that takes too long. Cards in
//! freecells have already moved and take part in no cycle.
//!
//! Two move counts are bounded:
//! - single-card moves: each card in the hitting set costs at least one extra move;
//! - moves with sequence moves counted as one: the cards one move carries come from one
//!   natural run of one cascade (no card between two runs of a cascade can leave before the
//!   card above it), so the hitting set is counted in runs, not cards.
//!
//! Cost: the relations are card masks (bit = card byte) built in two passes over each
//! cascade and one over the cards in rank order, and most vertex covers are settled by the
//! degree-0/1 rules alone. [`Graph`] keeps a position's graph so that each child's bound
//! (`short`'s anytime A*) comes from updating only the moved and homed cards' edges.

use crate::moves::{Loc, Move};
use crate::state::{fits, State};
use fcauto_deals::CASCADES;

/// A lower bound on the moves still needed to win from `s` (foundation moves included):
/// cards not home plus the extra moves forced by deadlock cycles. With `runs`, a sequence
/// move counts one move (the extra moves are counted per natural run); otherwise every
/// single-card move counts one.
///
/// Vertices are card bytes (bit `c` of a mask is card `c`), so no table depends on where
/// the cards lie (see the module docs).
pub fn lower_bound(s: &State, runs: bool) -> u32 {
    let mut cy = Cycles {
        present: 0,
        own: 0,
        need: [0; 64],
        over: [0; 64],
    };
    cy.fill(s);
    let extra = if runs {
        cy.extra_runs(s)
    } else {
        cy.extra_cards()
    };
    (52 - s.home() as u32) + extra
}

/// For each card byte `c` (0..64, those from 52 unused): the cards of its suit ranked
/// above it.
const HIGHER: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut c = 0;
    while c < 52 {
        let mut d = c + 4;
        while d < 52 {
            t[c] |= 1 << d;
            d += 4;
        }
        c += 1;
    }
    t
};

/// The cycle relations of a position's cascade cards, as card masks (bit = card byte;
/// arrays indexed by card byte, meaningful for cascade cards only).
struct Cycles {
    /// Cascade cards.
    present: u64,
    /// Cascade cards above a lower card of their own suit (one-card cycles).
    own: u64,
    /// `need[a]`: cards `x` with a lower card of `x`'s suit beneath `a` (x cannot go home
    /// before `a` leaves its cascade).
    need: [u64; 64],
    /// `over[a]`: the cards above `a` in its cascade.
    over: [u64; 64],
}

impl Cycles {
    /// The relations of `s`'s cascades: one pass up and one down each cascade.
    #[inline(always)]
    fn fill(&mut self, s: &State) {
        for i in 0..CASCADES {
            let col = s.col(i);
            let mut acc = 0u64;
            for &c in col {
                let c = c as usize & 63;
                self.need[c] = acc;
                self.own |= acc & 1 << c;
                acc |= HIGHER[c];
            }
            let mut above = 0u64;
            for &c in col.iter().rev() {
                self.over[c as usize & 63] = above;
                above |= 1 << (c & 63);
            }
            self.present |= above;
        }
    }

    /// Calls `f(a, p)` for each cascade card `a`, lowest card byte (so lowest rank of each
    /// suit) first, with `p` the cards forming a two-card cycle with `a`, and `a` itself
    /// when it is in [`Cycles::own`]. A card `b` is in `p` when `need[a]` holds `b` and
    /// `need[b]` holds `a`: `b` lies above a lower card of `a`'s suit, which the rank order
    /// has collected (per suit) in `lower` by the time `a` comes.
    #[inline(always)]
    fn each_partners(&self, mut f: impl FnMut(usize, u64)) {
        let mut lower = [0u64; 4];
        let mut rest = self.present;
        while rest != 0 {
            let a = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            f(a, self.need[a] & lower[a & 3]);
            lower[a & 3] |= self.over[a];
        }
    }

    /// Extra single-card moves: cards above a lower card of their own suit, plus a minimum
    /// vertex cover of the two-card cycles among the other cards.
    fn extra_cards(&self) -> u32 {
        let forced = self.own;
        let mut adj = [0u64; 64];
        let mut alive = 0u64;
        self.each_partners(|a, p| {
            adj[a] = p & !forced;
            alive |= ((adj[a] != 0) as u64) << a;
        });
        forced.count_ones() + min_vertex_cover(&adj, alive & !forced)
    }

    /// Extra moves with sequence moves counted as one: natural runs holding a card above a
    /// lower card of its suit or two cards of one two-card cycle, plus a minimum vertex cover
    /// of the two-card cycles among the other runs (a run is named by its deepest card).
    fn extra_runs(&self, s: &State) -> u32 {
        let (head, run) = runs_of(s);
        let mut partners = [0u64; 64];
        let mut forced = 0u64;
        self.each_partners(|a, p| {
            partners[a] = p;
            if p & run[a] != 0 {
                forced |= run[a];
            }
        });
        let mut adj = [0u64; 64];
        let mut rest = self.present & !forced;
        while rest != 0 {
            let a = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let mut bs = partners[a] & !forced;
            let ha = head[a] as usize & 63;
            while bs != 0 {
                let b = bs.trailing_zeros() as usize;
                bs &= bs - 1;
                adj[ha] |= 1 << head[b];
            }
        }
        let alive = (0..52).fold(0u64, |m, h| m | ((adj[h] != 0) as u64) << h);
        let heads = (0..52).fold(0u64, |m, c| m | ((head[c] as usize == c) as u64) << c);
        (forced & heads & self.present).count_ones() + min_vertex_cover(&adj, alive)
    }
}

/// The single-card bound's graph of a position, kept so that the bound of a child (one
/// move and its auto-play away) comes from updating it rather than from scratch: only the
/// moved and homed cards' relations change (every other card keeps the cards beneath it).
/// Masks hold card bytes; about 1 KB, plus an undo log.
pub struct Graph {
    /// The cascade cards and their relations (`over` as of the last [`Graph::set`]).
    cy: Cycles,
    /// Cards with at least one edge.
    touched: u64,
    /// Two-card cycles between cascade cards (symmetric; no card is its own neighbour).
    edges: [u64; 64],
    /// Entries changed for a child, with their old values: `k < 64` is `edges[k]`, else
    /// `need[k - 64]`.
    undo: Vec<(u8, u64)>,
}

impl Graph {
    /// The graph of a position without cascade cards (to [`Graph::set`] later).
    pub fn empty() -> Graph {
        Graph {
            cy: Cycles {
                present: 0,
                own: 0,
                need: [0; 64],
                over: [0; 64],
            },
            touched: 0,
            edges: [0; 64],
            undo: Vec::with_capacity(64),
        }
    }

    /// Make this the graph of `s`, from scratch.
    pub fn set(&mut self, s: &State) {
        (self.cy.present, self.cy.own, self.touched) = (0, 0, 0);
        self.cy.fill(s);
        self.edges = [0; 64];
        let (cy, edges, touched) = (&self.cy, &mut self.edges, &mut self.touched);
        cy.each_partners(|a, p| {
            edges[a] = p & !(1 << a);
            *touched |= ((edges[a] != 0) as u64) << a;
        });
    }

    /// [`lower_bound`]`(child, false)`, where `child` is `parent` (whose graph this is)
    /// after player move `m` and auto-play, when that is below `enough`; otherwise a lower
    /// bound of it that is at least `enough` (a search that prunes children whose bound
    /// reaches `enough` prunes the same ones, without the exact vertex cover). The graph is
    /// updated, then restored.
    pub fn child_bound(&mut self, parent: &State, m: Move, child: &State, enough: u32) -> u32 {
        let saved = (self.cy.present, self.cy.own, self.touched);
        let moved: &[u8] = match m.from {
            Loc::Cascade(x) => {
                let col = parent.col(x as usize);
                &col[col.len() - m.count as usize..]
            }
            Loc::Freecell(i) => std::slice::from_ref(&parent.cells[i as usize]),
            Loc::Foundation => &[],
        };
        for &c in moved {
            self.remove(c as usize & 63);
        }
        if let Loc::Cascade(y) = m.to {
            let mut acc = parent.top(y as usize).map_or(0, |t| {
                self.cy.need[t as usize & 63] | HIGHER[t as usize & 63]
            });
            for &c in moved {
                self.add(c as usize & 63, acc);
                acc |= HIGHER[c as usize & 63];
            }
        }
        let mut homed = self.cy.present & home_cards(child);
        while homed != 0 {
            let c = homed.trailing_zeros() as usize;
            homed &= homed - 1;
            self.remove(c);
        }
        let base = (52 - child.home() as u32) + self.cy.own.count_ones();
        let cover = cover_up_to(
            &self.edges,
            self.touched & !self.cy.own,
            enough.saturating_sub(base),
        );
        while let Some((k, old)) = self.undo.pop() {
            match k {
                0..64 => self.edges[k as usize] = old,
                _ => self.cy.need[k as usize - 64] = old,
            }
        }
        (self.cy.present, self.cy.own, self.touched) = saved;
        base + cover
    }

    /// `edges[k] = v`, logged.
    #[inline(always)]
    fn set_edges(&mut self, k: usize, v: u64) {
        self.undo.push((k as u8, self.edges[k]));
        self.edges[k] = v;
    }

    /// Take cascade card `c` out (its cascade's top card: no card's `need` changes).
    #[inline]
    fn remove(&mut self, c: usize) {
        let bit = 1u64 << c;
        let mut nb = self.edges[c];
        if nb != 0 {
            self.set_edges(c, 0);
        }
        while nb != 0 {
            let b = nb.trailing_zeros() as usize;
            nb &= nb - 1;
            self.set_edges(b, self.edges[b] & !bit);
            if self.edges[b] == 0 {
                self.touched &= !(1 << b);
            }
        }
        self.cy.present &= !bit;
        self.cy.own &= !bit;
        self.touched &= !bit;
    }

    /// Put card `c` (out of the cascades) on top of a cascade whose cards make `need` (see
    /// [`Cycles::need`]).
    #[inline]
    fn add(&mut self, c: usize, need: u64) {
        let bit = 1u64 << c;
        self.undo.push((64 + c as u8, self.cy.need[c]));
        self.cy.need[c] = need;
        self.cy.own |= need & bit;
        let mut cand = need & self.cy.present;
        self.cy.present |= bit;
        while cand != 0 {
            let b = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            if self.cy.need[b] & bit != 0 {
                self.set_edges(b, self.edges[b] | bit);
                self.set_edges(c, self.edges[c] | 1 << b);
                self.touched |= bit | 1 << b;
            }
        }
    }
}

/// The cards of `s`'s foundations, as a card mask.
#[inline]
fn home_cards(s: &State) -> u64 {
    (0..4).fold(0u64, |m, t| m | HOME_BELOW[t][s.found[t] as usize & 15])
}

/// `HOME_BELOW[t][f]`: the cards of suit `t` ranked below `f` (0..=13) as a card mask.
const HOME_BELOW: [[u64; 16]; 4] = {
    let mut t = [[0u64; 16]; 4];
    let mut su = 0;
    while su < 4 {
        let mut f = 1;
        while f < 16 {
            t[su][f] = t[su][f - 1] | if f <= 13 { 1 << ((f - 1) * 4 + su) } else { 0 };
            f += 1;
        }
        su += 1;
    }
    t
};

/// For each cascade card: the deepest card of its natural run (the element that names the
/// run), and the run's cards as a mask.
fn runs_of(s: &State) -> ([u8; 64], [u64; 64]) {
    let mut head = [0u8; 64];
    let mut run = [0u64; 64];
    for i in 0..CASCADES {
        let col = s.col(i);
        let mut d = 0;
        while d < col.len() {
            let mut e = d + 1;
            while e < col.len() && fits(col[e - 1], col[e]) {
                e += 1;
            }
            let mask = col[d..e].iter().fold(0u64, |m, &c| m | 1 << c);
            for &c in &col[d..e] {
                (head[c as usize & 63], run[c as usize & 63]) = (col[d], mask);
            }
            d = e;
        }
    }
    (head, run)
}

/// Size of a minimum vertex cover of the graph `adj` restricted to the vertex set `alive`
/// (bit masks), by branch and bound (branch on a vertex of highest degree: it is in the
/// cover, or all its neighbours are; prune with a matching bound). If that takes more than
/// [`VC_CALLS`] steps, a lower bound is returned instead: the vertices [`reduce`] took
/// before branching plus a greedy matching's size in the rest. Most graphs are solved by
/// [`reduce`] alone.
fn min_vertex_cover(adj: &[u64; 64], alive: u64) -> u32 {
    cover_up_to(adj, alive, u32::MAX)
}

/// [`min_vertex_cover`] when it is below `enough`; otherwise a lower bound of it that is
/// at least `enough`: 0 when `enough` is 0, else the vertices [`reduce`] takes plus a greedy
/// matching of the rest when these reach `enough` (before any branching).
fn cover_up_to(adj: &[u64; 64], alive: u64, enough: u32) -> u32 {
    if enough == 0 {
        return 0;
    }
    let (alive, used) = reduce(adj, alive, 0);
    if alive == 0 {
        return used;
    }
    let lb = matching(adj, alive);
    if used + lb >= enough {
        return used + lb;
    }
    let mut best = 2 * lb; // the matched vertices cover every edge
                           // The first step of [`branch`] on this reduced graph: its own `reduce` takes nothing
                           // and its matching bound (`lb`, at least 1) is below `best`, so it goes straight to
                           // the split.
    let mut calls = VC_CALLS - 1;
    split(adj, alive, 0, &mut best, &mut calls);
    used + if calls == 0 { lb } else { best }
}

/// Most branch-and-bound steps per vertex cover.
const VC_CALLS: u32 = 4096;

fn branch(adj: &[u64; 64], alive: u64, used: u32, best: &mut u32, calls: &mut u32) {
    if *calls == 0 {
        return;
    }
    *calls -= 1;
    let (alive, used) = reduce(adj, alive, used);
    if alive == 0 {
        *best = (*best).min(used);
        return;
    }
    if used + matching(adj, alive) >= *best {
        return;
    }
    split(adj, alive, used, best, calls);
}

/// [`branch`]'s split of a reduced graph with edges: a vertex of highest degree is in the
/// cover, or all its neighbours are.
fn split(adj: &[u64; 64], alive: u64, used: u32, best: &mut u32, calls: &mut u32) {
    let mut v = usize::MAX;
    let mut d_max = 0;
    let mut rest = alive;
    while rest != 0 {
        let u = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let d = (adj[u] & alive).count_ones();
        if d > d_max {
            (d_max, v) = (d, u);
        }
    }
    let nb = adj[v] & alive;
    branch(adj, alive & !(1 << v), used + 1, best, calls);
    branch(adj, alive & !nb & !(1 << v), used + d_max, best, calls);
}

/// Drop the vertices of `alive` left without edges, and for a vertex of degree one take
/// its neighbour into the cover (never worse than taking the vertex), until neither
/// applies: the vertices left and `used` plus the vertices taken.
fn reduce(adj: &[u64; 64], alive: u64, used: u32) -> (u64, u32) {
    let (mut alive, mut used) = (alive, used);
    loop {
        let mut rest = alive;
        let mut took = false;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let nb = adj[v] & alive;
            if alive >> v & 1 == 0 || nb.count_ones() > 1 {
                continue;
            }
            alive &= !nb & !(1 << v);
            if nb != 0 {
                used += 1;
                took = true;
            }
        }
        if !took {
            return (alive, used);
        }
    }
}

/// Size of a greedy maximal matching of `adj` restricted to `alive`: a lower bound on any
/// vertex cover, since each matched edge needs its own vertex.
fn matching(adj: &[u64; 64], alive: u64) -> u32 {
    let mut free = alive;
    let mut m = 0;
    let mut rest = alive;
    while rest != 0 {
        let v = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if free >> v & 1 == 0 {
            continue;
        }
        let nb = adj[v] & free & !(1 << v);
        if nb != 0 {
            let u = nb.trailing_zeros();
            free &= !(1 << v) & !(1 << u);
            m += 1;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{fits, rank, suit};
    use fcauto_deals::{ms_deal, Board, Card, CASCADES};

    /// A position from cascade lines (deepest card first), padded to 8 cascades.
    fn state(text: &str) -> State {
        let mut cascades: Vec<Vec<Card>> = text
            .lines()
            .map(|l| {
                l.split_whitespace()
                    .map(|t| t.parse().expect("card"))
                    .collect()
            })
            .collect();
        cascades.resize(8, Vec::new());
        let b = Board::from_cascades(cascades);
        b.check().expect("52 cards");
        State::from_board(&b)
    }

    /// The bound as first written (positions as vertices, tables built per position):
    /// the reference the card-mask version must equal.
    fn reference(s: &State, runs: bool) -> u32 {
        // Per cascade card (in cascade order): its element id (the card, or its run), and the
        // lowest rank of each suit beneath it.
        let mut elem = [0u8; 52];
        let mut card = [0u8; 52];
        let mut below = [[u8::MAX; 4]; 52];
        let mut n = 0usize;
        let mut n_elems = 0u8;
        for i in 0..CASCADES {
            let col = s.col(i);
            let mut min = [u8::MAX; 4];
            for (d, &c) in col.iter().enumerate() {
                if d == 0 || !runs || !fits(col[d - 1], c) {
                    n_elems += 1;
                }
                elem[n] = if runs { n_elems - 1 } else { n as u8 };
                card[n] = c;
                below[n] = min;
                let su = suit(c) as usize;
                min[su] = min[su].min(rank(c));
                n += 1;
            }
        }
        // Position masks (bit k = k-th cascade card): gt[t][r] holds the cards of suit t with
        // rank above r (r = 13 stands for "no card": empty); lt[t][r] the cards with a card of
        // suit t below them ranked under r.
        let mut gt = [[0u64; 14]; 4];
        let mut lt = [[0u64; 14]; 4];
        for k in 0..n {
            let (t, r) = (suit(card[k]) as usize, rank(card[k]) as usize);
            gt[t][r] |= 1 << k; // "rank exactly r" for now
            for (u, &m) in below[k].iter().enumerate() {
                if m != u8::MAX {
                    lt[u][m as usize + 1] |= 1 << k; // "lowest below is m" for now
                }
            }
        }
        for t in 0..4 {
            let mut acc = 0;
            for r in (0..13).rev() {
                let here = gt[t][r];
                gt[t][r] = acc;
                acc |= here;
            }
            gt[t][13] = 0;
            for r in 1..14 {
                lt[t][r] |= lt[t][r - 1];
            }
        }
        // The cards that form a two-card cycle with the card at position a: cards b with a
        // lower card of b's suit below a, and a lower card of a's suit below b.
        let partners = |a: usize| -> u64 {
            let ba = below[a];
            let above_a = gt[0][(ba[0] as usize).min(13)]
                | gt[1][(ba[1] as usize).min(13)]
                | gt[2][(ba[2] as usize).min(13)]
                | gt[3][(ba[3] as usize).min(13)];
            above_a & lt[suit(card[a]) as usize][rank(card[a]) as usize]
        };
        // Forced elements: they hold a card above a lower card of its own suit, or (runs) two
        // cards of one two-card cycle.
        let mut forced: u64 = 0;
        let mut elem_mask = [0u64; 52];
        for k in 0..n {
            elem_mask[elem[k] as usize] |= 1 << k;
        }
        for k in 0..n {
            if below[k][suit(card[k]) as usize] < rank(card[k])
                || (runs && partners(k) & elem_mask[elem[k] as usize] != 0)
            {
                forced |= 1 << elem[k];
            }
        }
        let mut forced_pos = 0u64;
        for (e, &mask) in elem_mask.iter().enumerate().take(n_elems as usize) {
            if forced >> e & 1 == 1 {
                forced_pos |= mask;
            }
        }
        // Two-card cycles between elements not forced.
        let mut adj = [0u64; 52];
        let mut edges = 0usize;
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut rest = all & !forced_pos;
        while rest != 0 {
            let a = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let mut bs = partners(a) & !forced_pos & !((2u64 << a) - 1);
            let ea = elem[a] as usize;
            while bs != 0 {
                let b = bs.trailing_zeros() as usize;
                bs &= bs - 1;
                let eb = elem[b] as usize;
                if adj[ea] >> eb & 1 == 0 {
                    adj[ea] |= 1 << eb;
                    adj[eb] |= 1 << ea;
                    edges += 1;
                }
            }
        }
        let live = !forced & ((1u64 << n_elems) - 1);
        let cover = if edges == 0 {
            0
        } else {
            reference_cover(&adj, live)
        };
        (52 - s.home() as u32) + forced.count_ones() + cover
    }

    /// Size of a minimum vertex cover of the graph `adj` restricted to the vertex set `alive`
    /// (bit masks), by branch and bound (branch on a vertex of highest degree: it is in the
    /// cover, or all its neighbours are; prune with a matching bound). If that takes more than
    /// [`VC_CALLS`] steps, the greedy matching's size is returned instead: still a lower bound.
    fn reference_cover(adj: &[u64; 52], alive: u64) -> u32 {
        let lb = matching(adj, alive);
        if lb == 0 {
            return 0;
        }
        let mut best = 2 * lb; // the matched vertices cover every edge
        let mut calls = VC_CALLS;
        reference_branch(adj, alive, 0, &mut best, &mut calls);
        if calls == 0 {
            lb
        } else {
            best
        }
    }

    /// Most branch-and-bound steps per vertex cover.
    const VC_CALLS: u32 = 4096;

    fn reference_branch(adj: &[u64; 52], alive: u64, used: u32, best: &mut u32, calls: &mut u32) {
        if *calls == 0 {
            return;
        }
        *calls -= 1;
        // A vertex of degree one: taking its neighbour instead is never worse.
        let (mut alive, mut used) = (alive, used);
        loop {
            let mut rest = alive;
            let mut took = false;
            while rest != 0 {
                let v = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let nb = adj[v] & alive;
                if alive >> v & 1 == 1 && nb.count_ones() == 1 {
                    alive &= !nb & !(1 << v);
                    used += 1;
                    took = true;
                }
            }
            if !took {
                break;
            }
        }
        if used + matching(adj, alive) >= *best {
            return;
        }
        let mut v_max = usize::MAX;
        let mut d_max = 0;
        let mut rest = alive;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let d = (adj[v] & alive).count_ones();
            if d > d_max {
                d_max = d;
                v_max = v;
            }
        }
        if d_max == 0 {
            *best = used;
            return;
        }
        let v = v_max;
        let nb = adj[v] & alive;
        reference_branch(adj, alive & !(1 << v), used + 1, best, calls);
        reference_branch(adj, alive & !nb & !(1 << v), used + d_max, best, calls);
    }

    /// Size of a greedy maximal matching of `adj` restricted to `alive`: a lower bound on any
    /// vertex cover, since each matched edge needs its own vertex.
    fn matching(adj: &[u64; 52], alive: u64) -> u32 {
        let mut free = alive;
        let mut m = 0;
        let mut rest = alive;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if free >> v & 1 == 0 {
                continue;
            }
            let nb = adj[v] & free & !(1 << v);
            if nb != 0 {
                let u = nb.trailing_zeros();
                free &= !(1 << v) & !(1 << u);
                m += 1;
            }
        }
        m
    }

    #[test]
    fn counts_one_card_cycles() {
        // 2C lies above AC: one extra move. KH above nothing lower of hearts: none.
        let s = state(
            "AC 2C\nAD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD\nAH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH\n\
             AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS\n3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        );
        // Cascades dealt low-to-high within a suit: every card above its lower neighbour
        // of the same suit, except each bottom card, must move.
        let expected = 52 + 1 + 12 + 12 + 12 + 10;
        assert_eq!(lower_bound(&s, false), expected);
    }

    #[test]
    fn counts_two_suit_cycles() {
        // Cascade 1: 5H above 3C; cascade 2: 6C above 2H. 5H needs 2H (under 6C) home, 6C
        // needs 3C (under 5H) home: one of 5H, 6C must move. Other cards are in order.
        let mut text = String::from("3C 5H\n2H 6C\n");
        text.push_str("KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD\n");
        text.push_str("KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS\n");
        text.push_str("KH QH JH TH 9H 8H 7H 6H 4H 3H AH\n");
        text.push_str("KC QC JC TC 9C 8C 7C 5C 4C 2C AC\n");
        let s = state(&text);
        assert_eq!(lower_bound(&s, false), 52 + 1);
        assert_eq!(lower_bound(&s, true), 52 + 1);
    }

    #[test]
    fn runs_count_once_for_sequence_moves() {
        // 3C lies above AC and 2H above AH... as one natural run (3C then 2H on it), both
        // above lower cards of their own suits: two single-card moves, one sequence move.
        let mut text = String::from("AC AH 3C 2H\n");
        text.push_str("KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD\n");
        text.push_str("KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS\n");
        text.push_str("KH QH JH TH 9H 8H 7H 6H 5H 4H 3H\n");
        text.push_str("KC QC JC TC 9C 8C 7C 6C 5C 4C 2C\n");
        let s = state(&text);
        assert_eq!(lower_bound(&s, false), 52 + 2);
        assert_eq!(lower_bound(&s, true), 52 + 1);
    }

    #[test]
    fn never_below_cards_plus_own_suit_blocks() {
        for n in 1..200u64 {
            let s = State::from_board(&ms_deal(n).expect("deal"));
            let f = crate::heuristic::features(&s);
            let h = lower_bound(&s, false);
            assert!(h >= f.remaining + f.blocked_same_suit, "deal {n}");
            assert!(lower_bound(&s, true) <= h, "deal {n}");
        }
    }

    #[test]
    fn vertex_cover_is_exact_on_small_graphs() {
        // A 5-cycle needs 3 vertices; a star needs 1; a triangle 2.
        let mut adj = [0u64; 64];
        let mut edge = |a: usize, b: usize| {
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        };
        for i in 0..5 {
            edge(i, (i + 1) % 5);
        }
        for i in 11..16 {
            edge(10, i);
        }
        edge(20, 21);
        edge(21, 22);
        edge(22, 20);
        assert_eq!(min_vertex_cover(&adj, u64::MAX >> 12), 3 + 1 + 2);
    }

    #[test]
    fn equals_the_reference_along_random_walks() {
        // Random walks (auto-play after each move) from deals 1..=50, both metrics.
        let mut moves = Vec::new();
        let mut checked = 0;
        for n in 1..=50u64 {
            for walk in 0..4u64 {
                let mut s = State::from_board(&ms_deal(n).expect("deal"));
                for step in 0..120u64 {
                    for runs in [false, true] {
                        assert_eq!(
                            lower_bound(&s, runs),
                            reference(&s, runs),
                            "deal {n} walk {walk} step {step} runs {runs}"
                        );
                    }
                    checked += 1;
                    moves.clear();
                    crate::movegen::generate(&s, false, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let r = crate::state::mix64(n * 1_000_003 + walk * 1009 + step);
                    s.apply(moves[(r % moves.len() as u64) as usize]);
                    crate::movegen::autoplay(&mut s, |_, _| {});
                }
            }
        }
        assert!(checked > 10_000, "{checked} positions");
    }

    #[test]
    fn child_bounds_from_the_parent_graph_equal_the_bound_from_scratch() {
        // Every child (player move, then auto-play) of the positions along random walks
        // from deals 1..=50, over single-card and sequence moves.
        let (mut moves, mut graph) = (Vec::new(), Graph::empty());
        let mut checked = 0;
        for (n, walk) in (1..=50u64).flat_map(|n| (0..4u64).map(move |w| (n, w))) {
            let mut s = State::from_board(&ms_deal(n).expect("deal"));
            crate::movegen::autoplay(&mut s, |_, _| {});
            for step in 0..100u64 {
                graph.set(&s);
                moves.clear();
                crate::movegen::generate(&s, false, &mut moves);
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let mut child = s.clone();
                    child.apply(m);
                    crate::movegen::autoplay(&mut child, |_, _| {});
                    let exact = lower_bound(&child, false);
                    let h = graph.child_bound(&s, m, &child, u32::MAX);
                    assert_eq!(h, exact, "deal {n} step {step} {m:?}");
                    // Asked only whether it reaches `enough`: exact below it, else between.
                    for enough in [exact.saturating_sub(3), exact, exact + 1, exact + 4] {
                        let h = graph.child_bound(&s, m, &child, enough);
                        if exact < enough {
                            assert_eq!(h, exact, "deal {n} step {step} {m:?} {enough}");
                        } else {
                            assert!(h >= enough && h <= exact, "deal {n} step {step} {m:?}");
                        }
                    }
                    checked += 1;
                }
                let r = crate::state::mix64(n * 7919 + walk * 131 + step);
                s.apply(moves[(r % moves.len() as u64) as usize]);
                crate::movegen::autoplay(&mut s, |_, _| {});
            }
        }
        assert!(checked > 30_000, "{checked} children");
    }
}
