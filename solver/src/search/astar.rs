//! Optimal search: A* with the admissible deadlock bound of [`crate::deadlock`], bucketed
//! open list and compact 64-byte positions.
//!
//! Two move counts can be minimised ([`Metric`]): single-card moves (every card moved
//! counts, so a sequence of n cards costs what its single-card realisation costs), or
//! moves with a sequence move within the supermove limit counted as one, the count of
//! Paul & Helmert's published optimal lengths (optionally in their stricter move model).
//! Foundation moves, safe auto-play included, count one each in all.
//!
//! Safe auto-play ([`crate::movegen::autoplay`]) after every move does not lose optimality:
//! a card homed by it can never be needed as a base, so any solution from the position
//! before stays a solution after, with the moves of that card dropped.
//!
//! A position reached again by a shorter path is opened again (the deadlock bound is
//! admissible but not always consistent), so the first won position taken from the open
//! list has the minimum count. Memory: up to about 190 bytes per stored position (a 76-byte
//! node: packed position, parent link, move and cost; a fingerprint table slot; an open-list
//! entry; plus nodes of re-opened positions and table slack).

use crate::deadlock::{lower_bound, Graph};
use crate::movegen::{autoplay, generate_with, play};
use crate::moves::{Loc, Move, PlayedMove};
use crate::search::node_table::NodeTable;
use crate::search::{replay, SearchResult, SearchStats, StopReason, Verdict};
use crate::shorten::move_cost;
use crate::state::{FingerprintMap, State, EMPTY, MAX_HEIGHT};
use fcauto_deals::{Board, CASCADES, FREECELLS};
use std::cell::Cell;

/// What optimal search minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Metric {
    /// Single-card moves (foundation moves included): a sequence move costs the moves of
    /// its single-card realisation ([`crate::moves::single_card_cost`]).
    #[default]
    SingleCard,
    /// Moves, a sequence move within the supermove limit counted as one (foundation moves
    /// included): how Paul & Helmert (SoCS 2016) count their optimal lengths.
    Moves,
    /// [`Metric::Moves`] in Paul & Helmert's move model, where a sequence move into an empty
    /// cascade carries at most free freecells + 1 cards. Their published lengths for MS
    /// deals 1..10 are reproduced in this metric; with FreeCell's usual limit deal 1 takes
    /// one move fewer (81, not 82).
    MovesPaulHelmert,
}

/// A position packed into 64 bytes: cascade heights (8), freecells (4), then the cascade
/// cards in cascade order (at most 52; cards home are absent and the foundations follow
/// from the cards present).
#[derive(Clone, Copy)]
struct Packed([u8; 64]);

impl Packed {
    /// Each cascade's whole 20 bytes are copied at its place (a fixed-size copy), the next
    /// cascade overwriting what lies above the top card: those bytes are zero in a
    /// [`State`], so the bytes after the last card are zero as well.
    #[inline]
    fn pack(s: &State) -> Packed {
        let mut p = [0u8; 64 + MAX_HEIGHT];
        p[..CASCADES].copy_from_slice(&s.len);
        p[CASCADES..CASCADES + FREECELLS].copy_from_slice(&s.cells);
        let mut k = CASCADES + FREECELLS;
        for i in 0..CASCADES {
            debug_assert!(s.cols[i][s.len[i] as usize..].iter().all(|&c| c == 0));
            p[k..k + MAX_HEIGHT].copy_from_slice(&s.cols[i]);
            k += s.len[i] as usize;
        }
        Packed(p[..64].try_into().expect("64 bytes"))
    }

    /// Each cascade is read as 20 bytes (a fixed-size copy) with those above its top card
    /// cleared; each suit's foundation holds the suit's cards not on the table.
    #[inline]
    fn unpack(&self) -> State {
        let mut p = [0u8; 64 + MAX_HEIGHT];
        p[..64].copy_from_slice(&self.0);
        let mut s = State {
            cols: [[0; MAX_HEIGHT]; CASCADES],
            len: [0; CASCADES],
            cells: [EMPTY; FREECELLS],
            found: [13; 4],
        };
        s.len.copy_from_slice(&p[..CASCADES]);
        s.cells.copy_from_slice(&p[CASCADES..CASCADES + FREECELLS]);
        let mut k = CASCADES + FREECELLS;
        for i in 0..CASCADES {
            let l = s.len[i] as usize;
            // The 20 bytes as 16 + 4, the bytes from `l` on cleared.
            let lo = u128::from_le_bytes(p[k..k + 16].try_into().expect("16 bytes"));
            let hi = u32::from_le_bytes(p[k + 16..k + 20].try_into().expect("4 bytes"));
            let lo = lo
                & u128::MAX
                    .checked_shr(8 * 16u32.saturating_sub(l as u32))
                    .unwrap_or(0);
            let hi = hi
                & u32::MAX
                    .checked_shr(8 * 20u32.saturating_sub(l as u32))
                    .unwrap_or(0);
            s.cols[i][..16].copy_from_slice(&lo.to_le_bytes());
            s.cols[i][16..].copy_from_slice(&hi.to_le_bytes());
            k += l;
        }
        let on_table = suit_counts(&self.0, k - CASCADES - FREECELLS);
        for (t, f) in s.found.iter_mut().enumerate() {
            *f = 13 - on_table[t] as u8;
        }
        for &c in &s.cells {
            if c != EMPTY {
                s.found[c as usize & 3] -= 1;
            }
        }
        s
    }
}

/// The cascade cards of packed position `p` (`n` of them, from byte 12 on; zero bytes
/// after them) counted by suit, eight bytes at a time: card byte c is of suit c % 4.
#[inline(always)]
fn suit_counts(p: &[u8; 64], n: usize) -> [u32; 4] {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut counts = [0u32; 4];
    for w in 0..7 {
        let word = u64::from_le_bytes(p[8 + 8 * w..16 + 8 * w].try_into().expect("8 bytes"));
        // Bytes 8..12 are the freecells.
        let valid = if w == 0 { ONES << 32 } else { ONES };
        for (t, count) in counts.iter_mut().enumerate() {
            let x = word ^ (t as u64 * ONES);
            *count += (!(x | x >> 1) & valid).count_ones();
        }
    }
    // The zero bytes after the last card read as clubs.
    counts[0] -= (52 - n) as u32;
    counts
}

/// One stored position: where it came from and at what cost.
struct Node {
    pos: Packed,
    parent: u32,
    mv: Move,
    /// Moves from the initial position (in the metric), auto-play included.
    g: u16,
    /// A shorter path to the same position was found later: skip this entry.
    stale: bool,
}

impl Node {
    /// Position `pos`, reached by move `mv` from node `parent` (`u32::MAX` for the root) at
    /// cost `g`.
    #[inline(always)]
    fn new(pos: Packed, parent: u32, mv: Move, g: u32) -> Node {
        Node {
            pos,
            parent,
            mv,
            g: g as u16,
            stale: false,
        }
    }
}

/// Open list: one stack per (f, g) bucket, f = g + bound; smallest f first, and among
/// equal f the largest g (deepest) first (depths from `G - 1` on share the last slot);
/// newest first within a bucket. `G` depth slots per f value. The family's optimal search
/// (`crate::family`) uses it too.
pub(crate) struct Buckets<const G: usize> {
    stacks: Vec<Vec<u32>>,
    cur: usize,
}

/// Depth slots per f value of the optimal searches' open lists (standard FreeCell's and the
/// family's).
pub(crate) const G_SLOTS: usize = 512;

impl<const G: usize> Buckets<G> {
    pub(crate) fn new() -> Self {
        Buckets {
            stacks: Vec::new(),
            cur: usize::MAX,
        }
    }
    fn slot(f: u32, g: u32) -> usize {
        f as usize * G + (G - 1 - (g as usize).min(G - 1))
    }
    pub(crate) fn push(&mut self, f: u32, g: u32, idx: u32) {
        let k = Self::slot(f, g);
        if k >= self.stacks.len() {
            self.stacks.resize_with(k + 1, Vec::new);
        }
        self.stacks[k].push(idx);
        self.cur = self.cur.min(k);
    }
    /// Room for one more entry in bucket (f, g), or false when the memory for it cannot be
    /// had (before [`Buckets::push`], so that a search stops rather than aborts).
    pub(crate) fn room(&mut self, f: u32, g: u32) -> bool {
        let k = Self::slot(f, g);
        match self.stacks.get_mut(k) {
            Some(v) => v.len() < v.capacity() || v.try_reserve(v.len().max(16)).is_ok(),
            None => self.stacks.try_reserve(k + 1 - self.stacks.len()).is_ok(),
        }
    }
    /// Empty every bucket, keeping their memory.
    fn clear(&mut self) {
        self.stacks.iter_mut().for_each(Vec::clear);
        self.cur = usize::MAX;
    }
    pub(crate) fn pop(&mut self) -> Option<u32> {
        self.pop_with_f().map(|(_, i)| i)
    }
    /// The next entry and the f of its bucket.
    fn pop_with_f(&mut self) -> Option<(u32, u32)> {
        while self.cur < self.stacks.len() {
            if let Some(i) = self.stacks[self.cur].pop() {
                return Some(((self.cur / G) as u32, i));
            }
            self.cur += 1;
        }
        None
    }
}

/// Minimum-length solution of `board` in `metric` by A*, storing at most `max_states`
/// positions; [`Verdict::Unknown`] names the limit when it is reached first, and
/// [`Verdict::Unsolvable`] means the whole reachable space was searched.
pub fn optimal(board: &Board, metric: Metric, max_states: usize) -> SearchResult {
    search(board, metric, max_states, Bound::Deadlock, u32::MAX)
}

/// The lower bound an A* uses (the weaker ones are for checking the deadlock bound).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    /// [`lower_bound`].
    Deadlock,
    /// Cards not home, plus (single-card metric) cards above a lower card of their suit.
    #[cfg(test)]
    Simple,
    /// None: uniform-cost search.
    #[cfg(test)]
    Zero,
}

impl Bound {
    /// The bound of position `s` (in sequence moves if `runs`, else single-card moves).
    #[inline(always)]
    fn of(self, s: &State, runs: bool) -> u32 {
        match self {
            Bound::Deadlock => lower_bound(s, runs),
            #[cfg(test)]
            Bound::Simple => {
                let f = crate::heuristic::features(s);
                f.remaining + if runs { 0 } else { f.blocked_same_suit }
            }
            #[cfg(test)]
            Bound::Zero => 0,
        }
    }
}

/// A* with `bound` over `metric`'s moves, storing at most `max_states` positions.
///
/// Positions whose cost plus bound reaches `below` are not stored: the search then looks only
/// for solutions shorter than `below`, and [`Verdict::Unknown`] (not unsolvable) means there
/// is none.
fn search(
    board: &Board,
    metric: Metric,
    max_states: usize,
    bound: Bound,
    below: u32,
) -> SearchResult {
    let runs = metric != Metric::SingleCard;
    let narrow = metric == Metric::MovesPaulHelmert;
    let bound = |s: &State| bound.of(s, runs);
    let mut stats = SearchStats::default();
    let mut root = State::from_board(board);
    let mut root_g = 0u32;
    autoplay(&mut root, |_, _| root_g += 1);
    if root.is_won() {
        return end(Verdict::Solved(replay(board, &[])), stats, 0);
    }
    let mut nodes: Vec<Node> = Vec::new();
    let mut index: FingerprintMap<u32> = FingerprintMap::default();
    let mut open = Buckets::<G_SLOTS>::new();
    index.insert(root.fingerprint(), 0);
    open.push(root_g + bound(&root), root_g, 0);
    nodes.push(Node::new(Packed::pack(&root), u32::MAX, NO_MOVE, root_g));
    let mut moves = Vec::with_capacity(64);
    while let Some(idx) = open.pop() {
        let idx = idx as usize;
        if nodes[idx].stale {
            continue;
        }
        stats.expanded += 1;
        let s = nodes[idx].pos.unpack();
        if s.is_won() {
            let solution = replay(board, &path(&nodes, idx));
            return end(Verdict::Solved(solution), stats, index.len());
        }
        let g0 = nodes[idx].g as u32;
        moves.clear();
        generate_with(&s, !runs, narrow, &mut moves);
        for &m in &moves {
            let mut child = s.clone();
            let mut g = g0 + if runs { 1 } else { move_cost(&child, m) };
            child.apply(m);
            autoplay(&mut child, |_, _| g += 1);
            let fp = child.fingerprint();
            let new_idx = nodes.len() as u32;
            if let Some(&old) = index.get(&fp) {
                if nodes[old as usize].g as u32 <= g {
                    continue;
                }
            }
            let f = g + bound(&child);
            if f >= below {
                continue;
            }
            // The largest tables grow by doubling: memory refused stops the search with
            // "out of memory" (a memory limit, `ulimit -v`), where the allocator would abort.
            if !room(&mut nodes, &mut index) || !open.room(f, g) {
                let why = StopReason::OutOfMemory(index.len());
                return end(Verdict::Unknown(why), stats, index.len());
            }
            match index.get_mut(&fp) {
                Some(old) => {
                    nodes[*old as usize].stale = true;
                    *old = new_idx;
                }
                None => {
                    if index.len() >= max_states {
                        let why = StopReason::StateLimit(max_states);
                        return end(Verdict::Unknown(why), stats, index.len());
                    }
                    index.insert(fp, new_idx);
                }
            }
            open.push(f, g, new_idx);
            nodes.push(Node::new(Packed::pack(&child), idx as u32, m, g));
        }
    }
    end(ran_dry(below), stats, index.len())
}

/// A search's result, with `stored` positions stored.
fn end(verdict: Verdict, mut stats: SearchStats, stored: usize) -> SearchResult {
    stats.stored = stored as u64;
    SearchResult { verdict, stats }
}

/// The verdict of a search below `below` that ran dry: no solution at all when there was no
/// limit (`u32::MAX`), else none shorter than `below`.
fn ran_dry(below: u32) -> Verdict {
    if below == u32::MAX {
        Verdict::Unsolvable
    } else {
        Verdict::Unknown(StopReason::NoShorter(Some(below)))
    }
}

/// What [`anytime`] found: the shortest solution below its limit, if any, and whether the
/// search ran to the end.
pub struct Anytime {
    /// The shortest solution found (written out), if any was shorter than the limit.
    pub best: Option<Vec<PlayedMove>>,
    /// The open list ran dry: nothing shorter than the best found (or the limit) exists.
    pub proved: bool,
    /// Positions stored and expanded.
    pub stats: SearchStats,
}

/// Anytime weighted A* in single-card moves with the deadlock bound h: positions are taken
/// in order of `den * g + num * h` (`num / den` above 1: deeper first, solutions sooner),
/// and each solution found lowers the limit (at first `below`) under which the admissible
/// `g + h` of every position kept must stay. Stops at `budget` stored positions, or when
/// the open list runs dry (then the best found is optimal).
pub fn anytime(board: &Board, below: u32, budget: usize, num: u32, den: u32) -> Anytime {
    let mut root = State::from_board(board);
    let mut root_g = 0u32;
    autoplay(&mut root, |_, _| root_g += 1);
    let (nodes, index, open) = WEIGHTED_TABLES
        .take()
        .unwrap_or_else(|| (Vec::new(), NodeTable::new(), Buckets::new()));
    let mut w = Weighted {
        nodes,
        index,
        open,
        open_len: 0,
        limit: below,
        best: None,
        weights: (num, den),
    };
    w.add(root, root_g, u32::MAX, NO_MOVE);
    let proved = w.run(budget);
    let best = w.best.map(|i| replay(board, &path(&w.nodes, i)));
    let stats = SearchStats {
        expanded: w.expanded(),
        stored: w.index.len() as u64,
    };
    w.nodes.clear();
    w.index.clear();
    w.open.clear();
    WEIGHTED_TABLES.set(Some((w.nodes, w.index, w.open)));
    Anytime {
        best,
        proved,
        stats,
    }
}

const NO_MOVE: Move = Move {
    from: Loc::Foundation,
    to: Loc::Foundation,
    count: 0,
};

/// Depth slots per weighted f value of [`anytime`]'s open list: positions deeper than 255
/// single-card moves share the last slot (newest first), far beyond the length of any
/// solution `short` improves.
const WG_SLOTS: usize = 256;

/// Room for one more position in `nodes` and `index` (each doubled when full), or false
/// when the memory cannot be had.
fn room<V>(nodes: &mut Vec<Node>, index: &mut FingerprintMap<V>) -> bool {
    (nodes.len() < nodes.capacity() || nodes.try_reserve(nodes.len().max(1024)).is_ok())
        && (index.len() < index.capacity() || index.try_reserve(index.len().max(1024)).is_ok())
}

thread_local! {
    /// [`anytime`]'s nodes, index and open list, emptied, kept for the thread's next
    /// search: `short` runs two or three a deal, and memory that is already the thread's
    /// costs no page faults (a tenth of the CPU time when each search allocated its own).
    static WEIGHTED_TABLES: Cell<Option<WeightedTables>> = const { Cell::new(None) };
}

type WeightedTables = (Vec<Node>, NodeTable, Buckets<WG_SLOTS>);

/// [`anytime`]'s tables: nodes, the open list keyed by weighted f (smallest
/// first) then g (deepest first), the limit and the best won node.
struct Weighted {
    nodes: Vec<Node>,
    /// Each position's newest node, its g (kept here too: no node read for a repeat) and
    /// its h.
    index: NodeTable,
    /// Node indices by weighted f `den * g + num * h` (smallest first), then g (deepest
    /// first), then newest first.
    open: Buckets<WG_SLOTS>,
    /// Entries on `open`.
    open_len: usize,
    limit: u32,
    best: Option<usize>,
    weights: (u32, u32),
}

impl Weighted {
    /// Store `s` (fingerprint `fp`, reached with cost `g` from `parent` by `mv`) unless it cannot beat the
    /// limit or was reached as cheaply before; a won position becomes the best. Returns
    /// false when a new position would not fit in `budget`.
    /// The bound h of `s` comes from `bound(s, enough)`, called only when needed: it must be
    /// exact when below `enough` (the bound that prunes `s`), and may be any lower bound of
    /// at least `enough` otherwise.
    fn add_within(
        &mut self,
        s: &State,
        fp: u128,
        (g, parent, mv): (u32, u32, Move),
        budget: usize,
        bound: impl FnOnce(&State, u32) -> u32,
    ) -> bool {
        // Every card not home takes a move at least (a bound below h): a position that
        // cannot beat the limit by that is left before its table look-up.
        if g + (52 - s.home() as u32) >= self.limit {
            return true;
        }
        let slot = self.index.find(fp);
        let old = slot.ok().map(|i| self.index.at(i));
        if old.is_some_and(|(_, og, _)| og as u32 <= g) {
            return true;
        }
        // A position stored before keeps its exact bound (only positions below the limit
        // are stored, and their bound is exact): a reopening needs no bound computed.
        let won = s.is_won();
        let h = match old {
            Some((_, _, oh)) => oh as u32,
            None if won => 0,
            None => bound(s, self.limit - g),
        };
        if g + h >= self.limit {
            return true;
        }
        if old.is_none() && self.index.len() >= budget {
            return false;
        }
        let idx = self.nodes.len() as u32;
        if let Some((o, _, _)) = old {
            self.nodes[o as usize].stale = true;
        }
        match slot {
            Ok(i) => self.index.set(i, idx, g as u16),
            Err(i) => self.index.insert_at(i, fp, idx, (g as u16, h as u16)),
        }
        self.nodes.push(Node {
            pos: Packed::pack(s),
            parent,
            mv,
            g: g as u16,
            stale: false,
        });
        if won {
            (self.limit, self.best) = (g, Some(idx as usize));
        } else {
            let (num, den) = self.weights;
            self.open.push(den * g + num * h, g, idx);
            self.open_len += 1;
        }
        true
    }

    fn add(&mut self, s: State, g: u32, parent: u32, mv: Move) {
        let fp = s.fingerprint();
        self.add_within(&s, fp, (g, parent, mv), usize::MAX, |s, _| {
            lower_bound(s, false)
        });
    }

    /// Expand until the open list runs dry (true) or the budget is reached (false).
    fn run(&mut self, budget: usize) -> bool {
        let mut moves = Vec::with_capacity(64);
        let mut kids: Vec<(State, u128, u32, Move)> = Vec::with_capacity(64);
        let mut graph = Graph::empty();
        let (num, den) = self.weights;
        while let Some((wf, idx)) = self.open.pop_with_f() {
            self.open_len -= 1;
            let n = &self.nodes[idx as usize];
            let g0 = n.g as u32;
            let f = g0 + (wf - den * g0) / num; // g + h
            if n.stale || f >= self.limit {
                continue;
            }
            let s = n.pos.unpack();
            // The graph of `s` is built when a first child needs a bound: about one
            // expansion in ten has every child repeated or past the limit before that.
            let mut graph_of_s = false;
            let hashes = s.column_hashes();
            moves.clear();
            generate_with(&s, true, false, &mut moves);
            // The children first, each fingerprint's slot read ahead, then their look-ups.
            kids.clear();
            for &m in &moves {
                let mut child = s.clone();
                let cost = move_cost(&child, m);
                let (changed, homed) = play(&mut child, m);
                let fp = child.fingerprint_from(&hashes, changed);
                self.index.prefetch(fp);
                kids.push((child, fp, g0 + cost + homed, m));
            }
            for (child, fp, g, m) in &kids {
                let (fp, g, m) = (*fp, *g, *m);
                let bound = |c: &State, enough: u32| {
                    if !graph_of_s {
                        graph.set(&s);
                        graph_of_s = true;
                    }
                    graph.child_bound(&s, m, c, enough)
                };
                if !self.add_within(child, fp, (g, idx, m), budget, bound) {
                    return false;
                }
            }
        }
        true
    }

    /// Positions expanded, approximately: those stored and no longer on the open list.
    fn expanded(&self) -> u64 {
        (self.nodes.len() - self.open_len) as u64
    }
}

/// [`anytime`] from the position `pct` percent of the way into solution `played` (written
/// out), looking for a shorter tail: returns the solution with the best tail found (or
/// `played` itself) and the search's result.
pub fn anytime_tail(
    board: &Board,
    played: &[PlayedMove],
    pct: usize,
    budget: usize,
    (num, den): (u32, u32),
) -> (Vec<PlayedMove>, Anytime) {
    let i = (played.len() * pct.min(100) / 100).min(played.len().saturating_sub(1));
    let mut s = State::from_board(board);
    let mut at = s.clone();
    let mut rest = 0;
    for (k, p) in played.iter().enumerate() {
        if k == i {
            at = s.clone();
        }
        if k >= i {
            rest += move_cost(&s, p.mv);
        }
        s.apply(p.mv);
    }
    let r = anytime(&at.to_board(), rest, budget, num, den);
    let out = match &r.best {
        Some(tail) => played[..i].iter().chain(tail).cloned().collect(),
        None => played.to_vec(),
    };
    (out, r)
}

/// The player moves from the root to node `idx`.
fn path(nodes: &[Node], idx: usize) -> Vec<Move> {
    crate::search::path_to(idx, |i| (nodes[i].parent, nodes[i].mv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::{ms_deal, Card};

    /// Deal `n` with every card below rank `low` (1-based) already home: a small endgame
    /// that keeps the deal's cascade order, so its deadlocks are real.
    fn endgame(n: u64, low: u8) -> Board {
        let mut b = ms_deal(n).expect("deal");
        for col in &mut b.cascades {
            col.retain(|c| c.rank().value() >= low);
        }
        b.foundations = [low - 1; 4];
        b.check().expect("valid endgame");
        b
    }

    fn length(r: &SearchResult, board: &Board, metric: Metric) -> usize {
        let Verdict::Solved(moves) = &r.verdict else {
            panic!("not solved: {:?}", r.verdict);
        };
        let sol = crate::solution::Solution {
            deal: None,
            board: board.clone(),
            moves: moves.clone(),
        };
        let v = crate::validator::validate(board, &sol.step_moves()).expect("valid");
        match metric {
            Metric::SingleCard => v.single_card_moves,
            _ => v.moves_total,
        }
    }

    /// The cards of rank `low` (1-based) and up, shuffled by `seed`: the first `cells` in
    /// freecells, the rest dealt round-robin onto `cols` cascades; lower cards already home.
    fn random_endgame(seed: u64, low: u8, cells: usize, cols: usize) -> Board {
        let mut cards: Vec<Card> = Card::all().filter(|c| c.rank().value() >= low).collect();
        for i in (1..cards.len()).rev() {
            let j = (crate::state::mix64(seed * 1000 + i as u64) % (i as u64 + 1)) as usize;
            cards.swap(i, j);
        }
        let mut cascades = vec![Vec::new(); 8];
        for (i, &c) in cards[cells..].iter().enumerate() {
            cascades[i % cols].push(c);
        }
        let mut b = Board::from_cascades(cascades);
        for (j, &c) in cards[..cells].iter().enumerate() {
            b.freecells[j] = Some(c);
        }
        b.foundations = [low - 1; 4];
        b.check().expect("valid endgame");
        b
    }

    #[test]
    fn a_star_matches_uniform_cost_search_on_endgames() {
        // Uniform-cost search needs no bound, so agreeing with it checks that the deadlock
        // bound never overestimates (an overestimate can make A* return a longer solution).
        let mut boards: Vec<Board> = [1u64, 617].iter().map(|&n| endgame(n, 10)).collect();
        boards.extend((0..10).map(|seed| random_endgame(seed, 11, 2, 4 + seed as usize % 3)));
        for (i, b) in boards.iter().enumerate() {
            for metric in [Metric::SingleCard, Metric::Moves, Metric::MovesPaulHelmert] {
                let a = search(b, metric, 3_000_000, Bound::Deadlock, u32::MAX);
                let u = search(b, metric, 3_000_000, Bound::Zero, u32::MAX);
                assert_eq!(
                    length(&a, b, metric),
                    length(&u, b, metric),
                    "board {i}, {metric:?}"
                );
            }
        }
    }

    #[test]
    fn deadlock_bound_finds_the_same_optimum_as_the_simple_bound() {
        // On whole deals, where the deadlock bound is well above the simple one (cards not
        // home plus cards above a lower card of their suit, plainly admissible).
        for n in [3u64, 7] {
            let b = ms_deal(n).expect("deal");
            let root = State::from_board(&b);
            let f = crate::heuristic::features(&root);
            assert!(lower_bound(&root, false) > f.remaining + f.blocked_same_suit);
            let d = search(&b, Metric::SingleCard, 4_000_000, Bound::Deadlock, u32::MAX);
            let s = search(&b, Metric::SingleCard, 4_000_000, Bound::Simple, u32::MAX);
            assert_eq!(
                length(&d, &b, Metric::SingleCard),
                length(&s, &b, Metric::SingleCard),
                "deal {n}"
            );
        }
    }

    #[test]
    fn bound_never_exceeds_the_remaining_optimal_cost() {
        for n in [2u64, 3, 7] {
            let board = ms_deal(n).expect("deal");
            let r = optimal(&board, Metric::SingleCard, 4_000_000);
            let total = length(&r, &board, Metric::SingleCard) as u32;
            let Verdict::Solved(moves) = r.verdict else {
                unreachable!()
            };
            let mut s = State::from_board(&board);
            let mut g = 0;
            for p in &moves {
                assert!(
                    g + lower_bound(&s, false) <= total,
                    "deal {n} after {g} moves"
                );
                g += move_cost(&s, p.mv);
                s.apply(p.mv);
            }
            assert_eq!(g, total);
        }
    }

    #[test]
    fn anytime_run_to_the_end_is_optimal_and_tails_stay_valid() {
        for (i, b) in (0..4)
            .map(|seed| random_endgame(seed, 10, 2, 5))
            .enumerate()
        {
            let a = search(&b, Metric::SingleCard, 3_000_000, Bound::Deadlock, u32::MAX);
            let best = length(&a, &b, Metric::SingleCard) as u32;
            let r = anytime(&b, u32::MAX, 3_000_000, 3, 2);
            assert!(r.proved, "board {i}");
            let sol = SearchResult {
                verdict: Verdict::Solved(r.best.clone().expect("solved")),
                stats: r.stats,
            };
            assert_eq!(
                length(&sol, &b, Metric::SingleCard) as u32,
                best,
                "board {i}"
            );
            // Nothing shorter than the optimum: nothing found, and proved so.
            let none = anytime(&b, best, 3_000_000, 3, 2);
            assert!(none.best.is_none() && none.proved, "board {i}");
        }
        let board = ms_deal(5).expect("deal");
        let Verdict::Solved(first) = crate::search::solve(
            &board,
            crate::search::Mode::Fast,
            crate::search::Limits {
                max_states: 200_000,
            },
        )
        .verdict
        else {
            panic!("deal 5 not solved");
        };
        let before = first.clone();
        for pct in [0, 40, 100] {
            let (out, _) = anytime_tail(&board, &before, pct, 20_000, (3, 2));
            let as_result = |m: &Vec<PlayedMove>| SearchResult {
                verdict: Verdict::Solved(m.clone()),
                stats: SearchStats::default(),
            };
            let (l0, l1) = (
                length(&as_result(&before), &board, Metric::SingleCard),
                length(&as_result(&out), &board, Metric::SingleCard),
            );
            assert!(l1 <= l0, "from {pct}%: {l1} > {l0}");
        }
    }

    #[test]
    fn packing_round_trips() {
        for n in [1u64, 617, 11982] {
            let mut s = State::from_board(&ms_deal(n).expect("deal"));
            let mut moves = Vec::new();
            for step in 0..30 {
                moves.clear();
                crate::movegen::generate(&s, false, &mut moves);
                let Some(&m) = moves.get(step * 7 % moves.len().max(1)) else {
                    break;
                };
                s.apply(m);
                autoplay(&mut s, |_, _| {});
                let back = Packed::pack(&s).unpack();
                assert_eq!(back, s, "deal {n} step {step}");
            }
        }
    }
}
