//! The family's optimal modes: A* over the family search's positions ([`Pos`], the moves of
//! [`generate`], the safe auto-moves of [`auto_play`]) that proves the minimum number of
//! moves of a game of the family, in one of two counts:
//!
//! - [`FamilyMode::Optimal`]: single-card moves. The search plays single cards only (every
//!   atomic move of the game: a cascade's top card or a freecell's card to a foundation, a
//!   freecell or a cascade), so the solution's length is its single-card count, and a
//!   sequence move costs what its single-card realisation costs by construction (with kings
//!   only or nothing filling empty cascades, a run of n carried through the freecells is
//!   2n - 1 moves; with any card, as [`crate::moves::single_card_cost`] counts FreeCell's).
//!   Searching sequence moves with those costs as well would find the same minimum (each is
//!   realised by single-card moves at its cost) and never fewer positions, so they are left
//!   out. Only the limited-sequence games have this count: an unlimited sequence move
//!   carries a run no single-card moves could.
//! - [`FamilyMode::OptimalMoves`]: moves, a sequence move within the game's limit (any run in
//!   the unlimited-sequence games) counted as one. Every game has it.
//!
//! Foundation moves count one each in both, the safe auto-moves included.
//!
//! # Safe auto-moves keep the optimum
//! After each move the search sends home every card `moves::safe_home` calls safe (and
//! counts each). Such a card `c` is in some optimal solution played home at once: take any
//! solution `S` from the position and play `c` home first, then `S` with every move of `c`
//! dropped. No card still out can be put on `c` (suit building: the next lower card of its
//! suit is home; rank alone: the four lower cards are home; alternate colours: the two lower
//! cards of the other colour are home, or, by the rule's second case, each such card `d` and
//! the one card `e` that could lie on it can go home themselves: where `S` would put `d` or
//! `e` on `c` or on `d`, it goes home instead, and its later moves are dropped), so the cards
//! of `S` lie as before with `c` (and those `d`, `e`) taken from the top of their piles: every
//! move of `S` onto a card still finds that card, a run of `S` that held them is shorter
//! (the limit only grows with more empty freecells and cascades), and each dropped card's
//! own foundation move pays for the move that sends it home early. The new solution is no
//! longer than `S` in either count; by induction on the optimum, a search that plays the
//! safe auto-moves at once still reaches it. (The unit tests check it: A* with auto-moves
//! against a breadth-first search over every move without them.)
//!
//! # The lower bound
//! `h` = cards not home, plus in single-card moves each card lying above a lower card of its
//! own suit in the same cascade (a blocked card), or in moves each natural run (cards each
//! built on the one below, under the game's build order) holding a blocked card.
//!
//! Admissible: each card not home needs its own foundation move. A blocked card `x` above a
//! lower card `y` of its suit cannot go home before `y`, nor can `y` leave before `x` has
//! left, so `x` leaves its cascade by a move that is not a foundation move: one per blocked
//! card in single cards (a move carries one card). In moves, one move cannot carry blocked
//! cards of two natural runs out of their cascade: until the upper one leaves, every card
//! between them is still in place (cards leave a cascade from the top), so the lowest card
//! `a` of the upper run still lies on the card `b` it was dealt on, which it does not build
//! on, and a move carries only cards in build order. Moves leaving different cascades are
//! different moves.
//!
//! Consistent as well: a foundation move lowers `h` by exactly one (the card homed is on top
//! and not blocked; taking a top card away changes nothing below it). Any other move changes
//! only the cards it carries (what lies below a card is untouched by moves above it): in
//! single cards one card, so `h` falls by at most one; in moves it carries part of one
//! natural run (the top one: the cards carried are in build order), which clears at most that
//! run, and cards put on a cascade never clear one there. So `h(p) <= cost(p, q) + h(q)` for
//! every move with its auto-moves. The search still opens a position again when a shorter
//! path reaches it, which costs nothing when the bound is consistent.
//!
//! # Memory
//! Each stored position takes an 84-byte node (the [`PACKED`] position, parent, move, cost),
//! a 20-byte slot of the fingerprint index (at most three quarters full, so 27 to 54 bytes),
//! and a 4-byte open-list entry: about 115 to 145 bytes a position, up to about 230 while
//! the node array doubles. [`DEFAULT_OPTIMAL_STATES`] (12 million) is thus about 1.7 GB at
//! most in use; memory refused stops the search with "out of memory", never an abort.

use super::moves::{auto_play, generate};
use super::state::{builds, rank, suit, Pos, M, PACKED};
use super::{FamilyError, FamilyMode, FamilyOutcome, FamilyStats};
use crate::search::astar::{Buckets, G_SLOTS};
use crate::StopReason;
use fcauto_deals::game::{EmptyFill, SequenceMove};
use fcauto_deals::{Layout, Rules, GAMES};

/// Positions the optimal modes store unless told otherwise (as standard FreeCell's optimal
/// modes).
pub const DEFAULT_OPTIMAL_STATES: usize = 12_000_000;

/// What an optimal search minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Metric {
    /// Single-card moves: only single cards are played.
    SingleCard,
    /// Moves, a sequence move counted as one.
    Moves,
}

impl FamilyMode {
    /// The count an optimal mode minimises; `None` for the other modes.
    pub(crate) fn metric(self) -> Option<Metric> {
        match self {
            FamilyMode::Optimal => Some(Metric::SingleCard),
            FamilyMode::OptimalMoves => Some(Metric::Moves),
            _ => None,
        }
    }

    /// Why this mode cannot solve a game with `rules` (one line naming the games that have
    /// it), or `None`. Only [`FamilyMode::Optimal`] is refused, for the unlimited-sequence
    /// games: their runs move as a unit however long, which no single-card moves realise.
    pub fn refusal(self, rules: &Rules) -> Option<String> {
        if self != FamilyMode::Optimal || rules.sequence == SequenceMove::Limited {
            return None;
        }
        let names = |seq: SequenceMove| -> String {
            let n: Vec<&str> = GAMES
                .iter()
                .filter(|g| g.rules.sequence == seq)
                .map(|g| g.name)
                .collect();
            n.join(", ")
        };
        Some(format!(
            "--mode optimal counts single-card moves, which a game whose runs move as a unit however long (unlimited sequence moves) does not have: use --mode optimal-moves (both optimal modes: {}, with any --freecells; optimal-moves only: {})",
            names(SequenceMove::Limited),
            names(SequenceMove::Unlimited)
        ))
    }
}

/// The lower bound an A* uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// Cards not home plus the blocked cards (in moves: the natural runs holding one) that
    /// must leave before a lower card of their suit goes home (see the module docs).
    Blocked,
    /// None: uniform-cost search (to check the bound against).
    #[cfg(test)]
    Zero,
}

/// `bound`'s lower bound of `p` in `metric` under `rules`' build order.
#[inline]
pub(crate) fn lower_bound(p: &Pos, rules: &Rules, metric: Metric, bound: Bound) -> u32 {
    #[cfg(test)]
    if bound == Bound::Zero {
        return 0;
    }
    let _ = bound;
    // Blocked cards, and natural runs (cards each built on the one below) holding one.
    let (mut cards, mut runs) = (0u32, 0u32);
    for i in 0..p.ncasc {
        let col = p.col(i);
        let mut low = [14u8; 4];
        let mut run_blocked = false;
        for (k, &c) in col.iter().enumerate() {
            if k > 0 && !builds(rules.build, col[k - 1], c) {
                runs += u32::from(run_blocked);
                run_blocked = false;
            }
            let (r, s) = (rank(c), suit(c));
            if r > low[s] {
                cards += 1;
                run_blocked = true;
            } else {
                low[s] = r;
            }
        }
        runs += u32::from(run_blocked);
    }
    let left = 52 - p.home() as u32;
    match metric {
        Metric::SingleCard => left + cards,
        Metric::Moves => left + runs,
    }
}

/// Solve `layout` under `rules` with the fewest moves in `metric`, storing at most
/// `max_states` positions ([`DEFAULT_OPTIMAL_STATES`] when `None`). The solution returned
/// has passed [`super::validate_family`]; its length is the proven minimum.
pub(crate) fn solve(
    layout: &Layout,
    rules: &Rules,
    metric: Metric,
    max_states: Option<usize>,
) -> Result<(FamilyOutcome, FamilyStats), FamilyError> {
    let start = Pos::from_layout(layout, rules)?;
    let max = max_states.unwrap_or(DEFAULT_OPTIMAL_STATES).max(1);
    let (end, stored) = astar(&start, rules, metric, max, Bound::Blocked);
    let mut stats = FamilyStats {
        complete: stored,
        ..FamilyStats::default()
    };
    match end {
        End::Solved(ms) => super::checked(layout, rules, &ms, stats),
        End::Exhausted => {
            stats.reachable = stored;
            Ok((FamilyOutcome::Unsolvable, stats))
        }
        End::Stopped(why) => Ok((FamilyOutcome::Unknown(why), stats)),
    }
}

/// How an A* ended.
#[derive(Debug)]
pub(crate) enum End {
    /// Won with the fewest moves: every move from the start, auto-moves included.
    Solved(Vec<M>),
    /// The open list ran dry: every reachable position was stored, none won.
    Exhausted,
    /// The state limit, or memory refused.
    Stopped(StopReason),
}

/// One stored position: where it came from and at what cost.
struct Node {
    pos: [u8; PACKED],
    /// The node this one was reached from (`u32::MAX` for the start).
    parent: u32,
    /// The move chosen there (its auto-moves follow from the position).
    mv: M,
    /// Moves from the start in the metric, auto-moves included.
    g: u16,
    /// A shorter path to the same position was found later: skip this node.
    stale: bool,
}

const NO_MOVE: M = M {
    from: 0,
    to: 0,
    count: 0,
    card: 0,
};

/// A* from `start`: the first won position taken from the open list has the fewest moves.
/// Returns the end and the distinct positions stored.
pub(crate) fn astar(
    start: &Pos,
    rules: &Rules,
    metric: Metric,
    max: usize,
    bound: Bound,
) -> (End, usize) {
    let (ncasc, ncells) = (start.ncasc, start.ncells);
    let mut root = start.clone();
    let mut log: Vec<M> = Vec::with_capacity(64);
    auto_play(&mut root, rules, &mut log);
    if root.home() == 52 {
        return (End::Solved(log), 1);
    }
    let mut t = Tables::new();
    let mut buf = Vec::with_capacity(PACKED);
    let g = log.len() as u32;
    t.index.set(root.fingerprint(), 0);
    t.open
        .push(g + lower_bound(&root, rules, metric, bound), g, 0);
    t.nodes.push(node(&root, &mut buf, u32::MAX, NO_MOVE, g));
    let mut moves: Vec<M> = Vec::with_capacity(128);
    while let Some(idx) = t.open.pop() {
        let n = &t.nodes[idx as usize];
        if n.stale {
            continue;
        }
        let mut p = Pos::unpack(&n.pos, ncasc, ncells);
        if p.home() == 52 {
            return (End::Solved(path(start, rules, &t.nodes, idx)), t.index.len);
        }
        let g0 = n.g as u32;
        moves.clear();
        generate(&p, rules, &mut moves);
        if metric == Metric::SingleCard {
            moves.retain(|m| m.count == 1);
        }
        for &m in &moves {
            log.clear();
            p.apply(m);
            log.push(m);
            auto_play(&mut p, rules, &mut log);
            let g = g0 + log.len() as u32;
            let added = t.add(&p, &mut buf, (idx, m, g), max, |q| {
                lower_bound(q, rules, metric, bound)
            });
            for &s in log.iter().rev() {
                p.undo(s);
            }
            if let Err(why) = added {
                return (End::Stopped(why), t.index.len);
            }
        }
    }
    (End::Exhausted, t.index.len)
}

/// A node for position `p` (packed through `buf`).
fn node(p: &Pos, buf: &mut Vec<u8>, parent: u32, mv: M, g: u32) -> Node {
    buf.clear();
    p.pack(buf);
    let mut pos = [0u8; PACKED];
    pos.copy_from_slice(&buf[..PACKED]);
    Node {
        pos,
        parent,
        mv,
        g: g.min(u16::MAX as u32) as u16,
        stale: false,
    }
}

/// The search's tables: the nodes, the fingerprint index, the open list.
struct Tables {
    nodes: Vec<Node>,
    index: Index,
    open: Buckets<G_SLOTS>,
}

impl Tables {
    fn new() -> Tables {
        Tables {
            nodes: Vec::new(),
            index: Index::new(),
            open: Buckets::new(),
        }
    }

    /// Store `p`, reached from node `parent` by `mv` at cost `g`, unless it was reached as
    /// cheaply before; `h` is its bound. A new position beyond `max`, or memory refused,
    /// stops the search.
    fn add(
        &mut self,
        p: &Pos,
        buf: &mut Vec<u8>,
        (parent, mv, g): (u32, M, u32),
        max: usize,
        h: impl FnOnce(&Pos) -> u32,
    ) -> Result<(), StopReason> {
        let fp = p.fingerprint();
        let old = self.index.get(fp);
        if old.is_some_and(|o| self.nodes[o as usize].g as u32 <= g) {
            return Ok(());
        }
        if old.is_none() && self.index.len >= max {
            return Err(StopReason::StateLimit(max));
        }
        let f = g + h(p);
        let idx = self.nodes.len() as u32;
        let roomy = (self.nodes.len() < self.nodes.capacity()
            || self.nodes.try_reserve(self.nodes.len().max(1024)).is_ok())
            && self.index.room()
            && self.open.room(f, g);
        if !roomy {
            return Err(StopReason::OutOfMemory(self.index.len));
        }
        if let Some(o) = old {
            self.nodes[o as usize].stale = true;
        }
        self.nodes.push(node(p, buf, parent, mv, g));
        self.index.set(fp, idx);
        self.open.push(f, g, idx);
        Ok(())
    }
}

/// The moves from the start to node `idx`: the chosen moves read back through the parents,
/// played again from the start with their auto-moves (which follow from each position).
fn path(start: &Pos, rules: &Rules, nodes: &[Node], idx: u32) -> Vec<M> {
    let mut chosen = Vec::new();
    let mut i = idx;
    while nodes[i as usize].parent != u32::MAX {
        chosen.push(nodes[i as usize].mv);
        i = nodes[i as usize].parent;
    }
    let mut p = start.clone();
    let mut out = Vec::new();
    auto_play(&mut p, rules, &mut out);
    for &m in chosen.iter().rev() {
        p.apply(m);
        out.push(m);
        auto_play(&mut p, rules, &mut out);
    }
    out
}

/// Fingerprint -> newest node: open addressing over whole 128-bit fingerprints (a 16-byte
/// key and a 4-byte node index a slot), at most three quarters full.
struct Index {
    keys: Vec<u128>,
    vals: Vec<u32>,
    len: usize,
    mask: usize,
}

impl Index {
    fn new() -> Index {
        let n = 1 << 12;
        Index {
            keys: vec![0; n],
            vals: vec![0; n],
            len: 0,
            mask: n - 1,
        }
    }

    #[inline]
    fn slot_of(&self, key: u128) -> usize {
        (key as usize ^ (key >> 64) as usize) & self.mask
    }

    /// The node stored for `fp`.
    #[inline]
    fn get(&self, fp: u128) -> Option<u32> {
        let key = fp.max(1);
        let mut i = self.slot_of(key);
        loop {
            match self.keys[i] {
                0 => return None,
                k if k == key => return Some(self.vals[i]),
                _ => i = (i + 1) & self.mask,
            }
        }
    }

    /// Point `fp` at node `idx` (a new key, or a newer node for a stored one).
    #[inline]
    fn set(&mut self, fp: u128, idx: u32) {
        let key = fp.max(1);
        let mut i = self.slot_of(key);
        loop {
            match self.keys[i] {
                0 => {
                    self.keys[i] = key;
                    self.vals[i] = idx;
                    self.len += 1;
                    return;
                }
                k if k == key => {
                    self.vals[i] = idx;
                    return;
                }
                _ => i = (i + 1) & self.mask,
            }
        }
    }

    /// Room for one more key (the table doubled when it would be more than three quarters
    /// full), or false when the memory cannot be had.
    fn room(&mut self) -> bool {
        if (self.len + 1) * 4 <= self.keys.len() * 3 {
            return true;
        }
        let n = self.keys.len() * 2;
        let (mut keys, mut vals) = (Vec::new(), Vec::new());
        if keys.try_reserve_exact(n).is_err() || vals.try_reserve_exact(n).is_err() {
            return false;
        }
        keys.resize(n, 0u128);
        vals.resize(n, 0u32);
        let old_keys = std::mem::replace(&mut self.keys, keys);
        let old_vals = std::mem::replace(&mut self.vals, vals);
        self.mask = n - 1;
        for (k, v) in old_keys.into_iter().zip(old_vals).filter(|&(k, _)| k != 0) {
            let mut i = self.slot_of(k);
            while self.keys[i] != 0 {
                i = (i + 1) & self.mask;
            }
            self.keys[i] = k;
            self.vals[i] = v;
        }
        true
    }
}

/// The single-card moves that realise `moves` from `start` under `rules` (each legal, as
/// [`super::validate_family`] checks): one for each single card, and for a run of n cards
/// between cascades 2n - 1 when only kings or nothing fill empty cascades (the run goes
/// through the freecells), else [`crate::moves::single_card_cost`] for the freecells and
/// empty cascades at hand. `None` for an illegal move, or for an unlimited-sequence game,
/// whose runs have no single-card realisation.
pub fn single_card_count(
    start: &Layout,
    rules: &Rules,
    moves: &[super::FamilyMove],
) -> Option<usize> {
    if rules.sequence == SequenceMove::Unlimited {
        return None;
    }
    let mut now = start.clone();
    let mut total = 0;
    for m in moves {
        total += run_cost(&now, rules, m);
        now = super::play::apply(&now, rules, m).ok()?;
    }
    Some(total)
}

/// The single-card cost of `m` in `l` (before it is played).
fn run_cost(l: &Layout, rules: &Rules, m: &super::FamilyMove) -> usize {
    use super::Place;
    let n = m.count as usize;
    if n <= 1 {
        return 1;
    }
    if rules.empty != EmptyFill::Any {
        return 2 * n - 1;
    }
    let (Place::Cascade(from), Place::Cascade(to)) = (m.from, m.to) else {
        return 2 * n - 1;
    };
    let height = |i: u8| l.cascades.get(i as usize).map_or(0, Vec::len);
    let dest_empty = height(to) == 0;
    let empties = l.cascades.iter().filter(|c| c.is_empty()).count();
    crate::moves::single_card_cost(crate::moves::RunMove {
        cards: n,
        free_cells: l.freecells.iter().filter(|c| c.is_none()).count(),
        empty: empties - usize::from(dest_empty),
        dest_empty,
        source_emptied: height(from) == n,
    })
}

#[cfg(test)]
#[path = "optimal_tests.rs"]
mod tests;
