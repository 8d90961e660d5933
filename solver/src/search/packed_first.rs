//! `fast`'s best-first search over packed positions ([`crate::packed`]): the same search as
//! [`super::best_first`]'s first-solution mode (same moves in the same order, same
//! evaluation, same ties), with each stored position kept whole with its evaluation (92
//! bytes), so that nothing is remade or re-evaluated when it is expanded: its children are
//! made by copying 48 bytes, and evaluated from the cascades their move changed.

use super::portfolio::Params;
use super::table::{FingerprintTable, Key};
use super::tables::{in_thread_tables, OpenList, Progress, Tables};
use super::{done, path_to, replay_by, SearchResult, SearchStats, StopReason, Verdict};
use crate::movegen::{
    autoplay_by, generate_model, may_unpark, parents_wanted, unpark_by, AutoPlay, Tableau,
};
use crate::moves::{single_card_cost, Loc, Move, PlayedMove, RunMove};
use crate::packed::{Eval, Origin, Packed, View};
use crate::state::State;
use fcauto_deals::{Board, FREECELLS};
use std::cell::RefCell;
use AutoPlay::{Greedy, Safe};
use StopReason::PrunedDry;
use Verdict::{Unknown, Unsolvable};

/// A stored position: itself, its evaluation, how it was reached, and its single-card cost
/// from the root.
#[derive(Clone, Copy)]
struct Node {
    pos: Packed,
    eval: Eval,
    parent: u32,
    g: u32,
    mv: Move,
}

const _: () = assert!(std::mem::size_of::<Node>() == 92);

/// One first-solution best-first search of `board` with `p`, storing at most `max_states`
/// positions; with `Some(stall)` it gives up (`Unknown`) after expanding `stall` positions
/// without one that has more cards home than any expanded before. Over the reduced move set
/// (`p.pruned`), auto-play is by `rule`; over all moves it is always [`AutoPlay::Safe`], so
/// that such a search running dry proves the deal unsolvable.
pub(super) fn packed_first(
    board: &Board,
    p: Params,
    max_states: usize,
    stall: Option<u64>,
    rule: AutoPlay,
    unpark: bool,
) -> SearchResult {
    let (b, n, s) = (board, max_states, stall);
    in_thread_tables(&TABLES, |ws| match (p.pruned, rule, unpark) {
        (true, AutoPlay::Greedy, true) => search::<true, true, true, u64>(b, p, n, s, ws),
        (true, AutoPlay::Greedy, false) => search::<true, true, false, u64>(b, p, n, s, ws),
        (true, AutoPlay::Safe, true) => search::<true, false, true, u64>(b, p, n, s, ws),
        (true, AutoPlay::Safe, false) => search::<true, false, false, u64>(b, p, n, s, ws),
        (false, _, _) => search::<false, false, false, u128>(b, p, n, s, ws),
    })
}

thread_local! {
    /// This thread's tables, reused by each of its searches.
    static TABLES: RefCell<Tables<Node>> = RefCell::default();
}

/// What a search reports of each position it expands: the positions expanded so far (this
/// one included), the cards home in it and the positions stored.
#[cfg(test)]
pub(super) type Observer = fn(u64, u32, usize);

#[cfg(test)]
thread_local! {
    /// Test builds: called as each position is taken off the open list, when set (re-tuning,
    /// `tuning.rs`, records where stall limits and budgets would stop).
    pub(super) static OBSERVER: std::cell::Cell<Option<Observer>> =
        const { std::cell::Cell::new(None) };
}

/// [`packed_first`] in the tables of `ws`, over the reduced move set if `PRUNE`, with
/// [`AutoPlay::Greedy`] if `GREEDY` (else [`AutoPlay::Safe`]), unparking after each move if
/// `UNPARK` ([`crate::movegen::unpark_by`]), keeping fingerprints as `K` (whole when the
/// search can prove: [`super::table::Closed`]).
fn search<const PRUNE: bool, const GREEDY: bool, const UNPARK: bool, K: Key>(
    board: &Board,
    p: Params,
    max_states: usize,
    stall: Option<u64>,
    ws: &mut Tables<Node>,
) -> SearchResult {
    const {
        assert!(
            PRUNE || (K::WHOLE && !GREEDY && !UNPARK),
            "a search that can prove keeps whole fingerprints, auto-plays safely, unparks not"
        )
    };
    let mut stats = SearchStats::default();
    let rule = if GREEDY { Greedy } else { Safe };
    let (root, root_g) = root_of::<UNPARK>(board, rule);
    if root.is_won() {
        let solution = replay_by(board, &[], rule, UNPARK);
        return end(Verdict::Solved(solution), stats, 0);
    }
    let origin = &Origin::new(&root);
    ws.start(max_states);
    let (nodes, open, moves) = (&mut ws.nodes, &mut ws.open, &mut ws.moves);
    let closed = K::table(&mut ws.closed);
    store_root(&root, root_g, origin, p, closed, open, nodes);
    let mut progress = Progress::default();
    while let Some(idx) = open.pop() {
        stats.expanded += 1;
        let Node {
            pos: parent,
            eval,
            g,
            ..
        } = nodes[idx];
        #[cfg(test)]
        observe(stats.expanded, parent.home(), closed.len());
        if let Some(stall) = stall {
            if progress.stalled(parent.home(), stats.expanded, stall) {
                let why = StopReason::Stalled(stall);
                return end(Unknown(why), stats, closed.len());
            }
        }
        let here = view(&parent, origin);
        moves.clear();
        generate_model::<PRUNE>(&here, false, false, moves);
        let hashes = parent.hashes(K::WHOLE);
        let wanted = if UNPARK { parents_wanted(&here) } else { 0 };
        let costs = Costs::of(&eval);
        for &m in moves.iter() {
            let mut child = parent;
            let cost = costs.of_move(&parent, origin, m);
            let (mut changed, mut homed) = child.play_by(m, origin, rule);
            if UNPARK && may_unpark(&view(&child, origin), wanted, changed, m) {
                let (more, moved) = child.unpark(origin, rule);
                (changed, homed) = (changed | more, homed + moved);
            }
            let g = g + cost + homed;
            if child.is_won() {
                let solution = solution(board, nodes, idx, m, rule, UNPARK);
                return end(Verdict::Solved(solution), stats, closed.len());
            }
            let fp = child.fingerprint_from(&hashes, changed, K::WHOLE);
            // A new position that would not fit in the budget ends the search.
            if closed.len() >= max_states && !closed.contains(fp) {
                let why = StopReason::StateLimit(max_states);
                return end(Unknown(why), stats, closed.len());
            }
            if !closed.insert(fp) {
                continue;
            }
            let e = eval.child(&parent, view(&child, origin), changed);
            open.push(p.priority(&e.features(), g, fp), nodes.len());
            nodes.push(Node::new(child, e, idx as u32, g, m));
        }
    }
    end(ran_dry(PRUNE), stats, closed.len())
}

/// The verdict of a search that ran dry: nothing proved over the reduced move set
/// (`pruned`), the deal unsolvable over all moves.
fn ran_dry(pruned: bool) -> Verdict {
    if pruned {
        Unknown(PrunedDry)
    } else {
        Unsolvable
    }
}

/// A search's result: its verdict, and its statistics with `stored` positions stored.
fn end(verdict: Verdict, stats: SearchStats, stored: usize) -> SearchResult {
    SearchResult {
        verdict,
        stats: done(stats, stored),
    }
}

/// The deal's root position after auto-play by `rule` (and unparking if `UNPARK`), with the
/// single-card moves they made.
fn root_of<const UNPARK: bool>(board: &Board, rule: AutoPlay) -> (State, u32) {
    let mut root = State::from_board(board);
    let mut root_g = 0;
    autoplay_by(&mut root, rule, |_, _| root_g += 1);
    if UNPARK {
        unpark_by(&mut root, rule, |_, _| root_g += 1);
    }
    (root, root_g)
}

/// Store the root `root` (`root_g` single-card moves from the deal) as the first position:
/// in the closed set, on the open list and as node 0.
fn store_root<K: Key>(
    root: &State,
    root_g: u32,
    origin: &Origin,
    p: Params,
    closed: &mut FingerprintTable<K>,
    open: &mut OpenList,
    nodes: &mut Vec<Node>,
) {
    let root = Packed::new(root, origin);
    closed.insert(root.fingerprint());
    let eval = Eval::new(view(&root, origin));
    open.push(p.priority(&eval.features(), root_g, 0), 0);
    nodes.push(Node::new(root, eval, u32::MAX, root_g, Node::NO_MOVE));
}

/// The solution that move `m` from stored position `idx` completes: the moves to it, `m`,
/// and the auto-play (and unparking, if `unpark`) after each, as played moves.
fn solution(
    board: &Board,
    nodes: &[Node],
    idx: usize,
    m: Move,
    rule: AutoPlay,
    unpark: bool,
) -> Vec<PlayedMove> {
    let mut path = path_to(idx, |i| (nodes[i].parent, nodes[i].mv));
    path.push(m);
    replay_by(board, &path, rule, unpark)
}

/// A packed position read through its origin.
#[inline(always)]
fn view<'a>(pos: &'a Packed, origin: &'a Origin) -> View<'a> {
    View { pos, origin }
}

/// Test builds: report an expanded position to the [`OBSERVER`], if one is set.
#[cfg(test)]
fn observe(expanded: u64, home: u32, stored: usize) {
    if let Some(observe) = OBSERVER.get() {
        observe(expanded, home, stored);
    }
}

impl Node {
    /// The move stored with the root (which no move reached).
    const NO_MOVE: Move = Move {
        from: Loc::Foundation,
        to: Loc::Foundation,
        count: 0,
    };

    /// Position `pos` evaluated as `eval`, reached by move `mv` from stored position
    /// `parent` (`u32::MAX` for the root), `g` single-card moves from the deal.
    #[inline(always)]
    fn new(pos: Packed, eval: Eval, parent: u32, g: u32, mv: Move) -> Node {
        Node {
            pos,
            eval,
            parent,
            g,
            mv,
        }
    }
}

/// What the single-card cost of a position's moves depends on, read once per position from
/// its evaluation (as [`crate::shorten::move_cost`] counts it per move).
struct Costs {
    /// Free freecells.
    free: usize,
    /// Empty cascades.
    empty: usize,
}

impl Costs {
    /// The counts of the position evaluated as `eval`.
    #[inline(always)]
    fn of(eval: &Eval) -> Costs {
        let f = eval.features();
        Costs {
            free: FREECELLS - f.used_cells as usize,
            empty: f.empty_cols as usize,
        }
    }

    /// The single-card cost of `m` in `pos` (whose counts these are), before it is applied:
    /// [`crate::shorten::move_cost`].
    #[inline(always)]
    fn of_move(&self, pos: &Packed, origin: &Origin, m: Move) -> u32 {
        if m.count <= 1 {
            return 1;
        }
        let dest_empty = matches!(m.to, Loc::Cascade(k) if pos.cols[k as usize] == 0);
        let source_emptied = match m.from {
            Loc::Cascade(i) => View { pos, origin }.height(i as usize) == m.count as usize,
            _ => false,
        };
        single_card_cost(RunMove {
            cards: m.count as usize,
            free_cells: self.free,
            empty: self.empty - dest_empty as usize,
            dest_empty,
            source_emptied,
        }) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::best_first::best_first;
    use crate::search::portfolio::{FAST_BASE, FAST_COMPLETE};

    /// Without priority noise (the only thing drawn from the fingerprint, whose packed form
    /// differs), the packed search is the same search as the state one: the same positions
    /// expanded, the same solution, the same verdict, on the reduced and the full move set.
    #[test]
    fn same_search_as_the_state_search() {
        for p in [FAST_BASE, FAST_COMPLETE] {
            for deal in 1..=60 {
                let board = fcauto_deals::ms_deal(deal).unwrap();
                let a = best_first(&board, p, 20_000, None, Some(500));
                let b = packed_first(&board, p, 20_000, Some(500), AutoPlay::Safe, false);
                assert_eq!(a.verdict, b.verdict, "deal {deal}");
                assert_eq!(a.stats.expanded, b.stats.expanded, "deal {deal}");
                assert_eq!(a.stats.stored, b.stats.stored, "deal {deal}");
            }
        }
    }

    /// Costs counted once per position give every move the cost `move_cost` gives it.
    #[test]
    fn costs_per_position_are_move_costs() {
        let mut moves = Vec::new();
        for deal in 1..=30 {
            let mut s = State::from_board(&fcauto_deals::ms_deal(deal).unwrap());
            crate::movegen::autoplay(&mut s, |_, _| {});
            let o = Origin::new(&s);
            for step in 0..100usize {
                moves.clear();
                crate::movegen::generate(&s, false, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let pos = Packed::new(&s, &o);
                let costs = Costs::of(&Eval::new(View {
                    pos: &pos,
                    origin: &o,
                }));
                for &m in &moves {
                    let want = crate::shorten::move_cost(&s, m);
                    assert_eq!(
                        costs.of_move(&pos, &o, m),
                        want,
                        "deal {deal} step {step} {m:?}"
                    );
                }
                crate::movegen::play(&mut s, moves[(step * 5 + deal as usize) % moves.len()]);
            }
        }
    }
}
