//! The solver's search: weighted best-first search over canonical positions with safe
//! auto-play, used by the `fast` and `short` modes (the optimal modes are in [`crate::astar`]).
//!
//! - `fast`: greedy on the evaluation, path length barely counted: first solution, quickly.
//!   Its portfolio searches a reduced move set first ([`crate::movegen::generate_pruned`]:
//!   no moves that split a run), then all moves.
//! - `short`: path cost (single-card moves) weighted against the evaluation: shorter solutions
//!   for more positions searched; then anytime weighted A* ([`crate::astar::anytime`]) from
//!   the deal and from a later point of the solution, and shortcuts ([`crate::shorten`]).
//! - `optimal` / `optimal-moves`: A* ([`crate::astar`]) with an admissible deadlock bound
//!   ([`crate::deadlock`]): a shortest solution in single-card moves, or in moves with a
//!   sequence move counted as one (foundation moves included in both).
//!
//! Every mode keeps a closed set of canonical fingerprints ([`State::fingerprint`]). A
//! search over all legal moves ([`crate::movegen::generate`]) whose open list runs dry has
//! searched the whole reachable space: the deal is proved unsolvable. Only such a search
//! gives that verdict (`fast`'s reduced move set running dry leads to a search over all
//! moves). A run stopped by its state budget reports [`Verdict::Unknown`].

pub mod astar;
pub mod deadlock;
pub mod heuristic;
pub mod shorten;

mod best_first;
mod portfolio;
pub mod table;

use best_first::{best_first, PRUNED_DRY};
use portfolio::*;

use crate::movegen::{autoplay, generate};
use crate::moves::{Loc, Move, PlayedMove};
use crate::shorten::{move_cost, shorten_solution};
use crate::state::State;
use fcauto_deals::{Board, Card};

/// Which trade-off between speed and solution length to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// First solution found, for bulk verdicts.
    Fast,
    /// Short solutions at practical speed.
    #[default]
    Short,
    /// Proven minimum number of single-card moves (A*), within the state budget.
    Optimal,
    /// Proven minimum number of moves, a sequence move counted as one (A*), within the
    /// state budget: Paul & Helmert's count.
    OptimalMoves,
    /// [`Mode::OptimalMoves`] in Paul & Helmert's move model (a sequence move into an empty
    /// cascade carries at most free freecells + 1 cards): reproduces their published lengths.
    OptimalPh,
}

impl Mode {
    /// Default state budget (positions stored) for the mode.
    pub fn default_max_states(self) -> usize {
        match self {
            Mode::Fast => 200_000,
            Mode::Short => 200_000,
            Mode::Optimal | Mode::OptimalMoves | Mode::OptimalPh => 12_000_000,
        }
    }
}

/// Search limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most positions stored before the search gives up with [`Verdict::Unknown`].
    pub max_states: usize,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A solution: every move, foundation moves included, from the initial position.
    Solved(Vec<PlayedMove>),
    /// The whole reachable space was searched: no solution exists.
    Unsolvable,
    /// Stopped by a limit (named) before an answer.
    Unknown(String),
}

/// Work counters.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct SearchStats {
    /// Positions taken from the open list and expanded, summed over every search a mode
    /// runs (portfolio tries, anytime phases).
    pub expanded: u64,
    /// Distinct positions stored: the most any one of those searches stored (the unit of
    /// [`Limits::max_states`]).
    pub stored: u64,
}

/// A search's verdict and counters.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The verdict.
    pub verdict: Verdict,
    /// Work done.
    pub stats: SearchStats,
}

/// Solve `board` (which must pass [`Board::check`]) in `mode` within `limits`.
///
/// `fast` runs a list of best-first tries (`FAST_TRIES` in `portfolio.rs`: a configuration, a
/// budget up to `limits.max_states`, often a limit on expansions without bringing a card home
/// further), each from scratch, so that a deal one configuration gets lost on is soon tried by
/// another; then a few configurations at that limit. They search the reduced move set of
/// [`crate::movegen::generate_pruned`]; if that fails (or runs dry), a
/// last round over all moves at the full budget decides. `short` runs its configurations in
/// rounds of growing budgets (6k, 30k, 100k, 200k positions below `limits.max_states`, then
/// that limit); when they all stop at a limit, it runs `fast` and shortens the solution that
/// finds: `short` never gives up on a deal `fast` solves. The optimal modes run one A*.
pub fn solve(board: &Board, mode: Mode, limits: Limits) -> SearchResult {
    let configs: &[Params] = match mode {
        Mode::Optimal => {
            return crate::astar::optimal(
                board,
                crate::astar::Metric::SingleCard,
                limits.max_states,
            )
        }
        Mode::OptimalMoves => {
            return crate::astar::optimal(board, crate::astar::Metric::Moves, limits.max_states)
        }
        Mode::OptimalPh => {
            return crate::astar::optimal(
                board,
                crate::astar::Metric::MovesPaulHelmert,
                limits.max_states,
            )
        }
        Mode::Fast => return fast(board, limits),
        Mode::Short => &SHORT,
    };
    let mut total = SearchStats::default();
    // The rounds below the caller's limit, then the limit itself.
    let mut budgets: Vec<usize> = ROUNDS
        .iter()
        .copied()
        .filter(|&r| r < limits.max_states)
        .collect();
    budgets.push(limits.max_states);
    'rounds: for &budget in &budgets {
        for &p in configs {
            let r = best_first(board, p, budget, None, None);
            total.expanded += r.stats.expanded;
            total.stored = total.stored.max(r.stats.stored);
            if let Verdict::Solved(first) = &r.verdict {
                let best = shorter(board, first.clone(), limits, &mut total);
                return SearchResult {
                    verdict: Verdict::Solved(best),
                    stats: total,
                };
            }
            if !matches!(r.verdict, Verdict::Unknown(_)) {
                return SearchResult {
                    verdict: r.verdict,
                    stats: total,
                };
            }
            if matches!(&r.verdict, Verdict::Unknown(why) if why == PRUNED_DRY) {
                // Every pruned configuration searches the same (too small) space.
                break 'rounds;
            }
        }
    }
    // `short` never gives up on a deal `fast` solves: a longer solution made shorter beats
    // "unknown".
    let r = fast(board, limits);
    total.expanded += r.stats.expanded;
    total.stored = total.stored.max(r.stats.stored);
    let verdict = match r.verdict {
        Verdict::Solved(first) => Verdict::Solved(shorter(board, first, limits, &mut total)),
        other => other,
    };
    SearchResult {
        verdict,
        stats: total,
    }
}

/// `fast`: the tries of [`FAST_TRIES`] whose budget is within the caller's limit, then those
/// of [`FAST_LAST`] at that limit, until one solves the deal (or, over all moves, runs dry:
/// a proof). Most tries search the reduced move set; when one of those runs dry, every
/// configuration over it would search the same (too small) space, so a last search over all
/// moves at the full budget ([`FAST_COMPLETE`], then the `short` configurations) decides.
fn fast(board: &Board, limits: Limits) -> SearchResult {
    let mut total = SearchStats::default();
    let mut last = None;
    let tries = FAST_TRIES
        .iter()
        .filter(|t| t.budget <= limits.max_states)
        .map(|t| (t.params, t.budget, (t.stall > 0).then_some(t.stall)))
        .chain(FAST_LAST.iter().map(|&p| (p, limits.max_states, None)));
    // Last resort at the full budget, over all moves (so that running dry proves the deal
    // unsolvable): the base configuration, then the `short` configurations.
    let complete = std::iter::once(FAST_COMPLETE)
        .chain(SHORT)
        .map(|p| (p, limits.max_states, None));
    let mut dry = false;
    for (p, budget, stall) in tries.chain(complete) {
        if dry && p.pruned {
            continue;
        }
        let r = best_first(board, p, budget, None, stall);
        total.expanded += r.stats.expanded;
        total.stored = total.stored.max(r.stats.stored);
        if !matches!(r.verdict, Verdict::Unknown(_)) {
            return SearchResult {
                verdict: r.verdict,
                stats: total,
            };
        }
        dry |= p.pruned && matches!(&r.verdict, Verdict::Unknown(why) if why == PRUNED_DRY);
        // The last search's reason is reported: the complete search's limit, not the
        // reduced move set running dry.
        last = Some(r.verdict);
    }
    SearchResult {
        verdict: last.unwrap_or(Verdict::Unknown("no search ran".into())),
        stats: total,
    }
}

/// `short`'s improvement of a first solution: anytime weighted A* searches
/// ([`crate::astar::anytime_tail`]) for shorter solutions, from the deal and then from later
/// points of the best so far (each looking only for something shorter than it), then
/// shortcuts. When the search from the deal finds nothing shorter (its bound can stall far
/// below the solution's length), best-first anytime phases ([`FALLBACK`]) try instead.
/// Adds the work done to `total`.
fn shorter(
    board: &Board,
    first: Vec<PlayedMove>,
    limits: Limits,
    total: &mut SearchStats,
) -> Vec<PlayedMove> {
    let mut best = first;
    for &(pct, budget) in &ANYTIME_TAILS {
        let budget = budget.min(limits.max_states);
        let (better, r) = crate::astar::anytime_tail(board, &best, pct, budget, ANYTIME_WEIGHT);
        add(total, r.stats);
        best = better;
        if pct == 0 && r.best.is_none() && !r.proved {
            best = fallback(board, best, limits, total);
        }
    }
    shorten_solution(board, &best, SHORTCUT_DEPTH, 50)
}

/// The best-first anytime phases of [`FALLBACK`], each pruning by an admissible bound below
/// the best solution so far.
fn fallback(
    board: &Board,
    mut best: Vec<PlayedMove>,
    limits: Limits,
    total: &mut SearchStats,
) -> Vec<PlayedMove> {
    for &(p, budget) in &FALLBACK {
        let bound = single_card_length(board, &best);
        let better = best_first(board, p, budget.min(limits.max_states), Some(bound), None);
        add(total, better.stats);
        if let Verdict::Solved(m) = better.verdict {
            best = m;
        }
    }
    best
}

/// Add a search's counters to `total`.
fn add(total: &mut SearchStats, stats: SearchStats) {
    total.expanded += stats.expanded;
    total.stored = total.stored.max(stats.stored);
}

/// Single-card length of a solution, as the search counts it.
fn single_card_length(board: &Board, moves: &[PlayedMove]) -> u32 {
    let mut s = State::from_board(board);
    let mut g = 0;
    for p in moves {
        g += move_cost(&s, p.mv);
        s.apply(p.mv);
    }
    g
}

/// `stats` with [`SearchStats::stored`] set to the `stored` positions of a search's table.
pub(crate) fn done(mut stats: SearchStats, stored: usize) -> SearchStats {
    stats.stored = stored as u64;
    stats
}

/// The player moves from the root to node `idx` of a search tree whose node `i` links to its
/// parent and the move from it (`link(i)`; the root's parent is `u32::MAX`).
pub(crate) fn path_to(mut idx: usize, link: impl Fn(usize) -> (u32, Move)) -> Vec<Move> {
    let mut out = Vec::new();
    loop {
        let (parent, mv) = link(idx);
        if parent == u32::MAX {
            break;
        }
        out.push(mv);
        idx = parent as usize;
    }
    out.reverse();
    out
}

/// Replay player moves from the initial board, inserting the auto-play foundation moves
/// (as explicit moves) the search made after each one.
pub(crate) fn replay(board: &Board, player_moves: &[Move]) -> Vec<PlayedMove> {
    let mut s = State::from_board(board);
    let mut out = Vec::with_capacity(player_moves.len() + 52);
    let mut record = |m: Move, c: u8| {
        out.push(PlayedMove {
            mv: m,
            card: Card::from_id(c).expect("card byte"),
        })
    };
    autoplay(&mut s, &mut record);
    for &m in player_moves {
        let c = s.moved_card(m).expect("search move has a card");
        s.apply(m);
        record(m, c);
        autoplay(&mut s, &mut record);
    }
    if !s.is_won() {
        // The search only calls this for won positions; finish with any foundation moves
        // anyway so the caller's validator has the final word.
        finish_home(&mut s, &mut record);
    }
    out
}

/// Home cards greedily (any card that can go home) until none can.
fn finish_home(s: &mut State, record: &mut impl FnMut(Move, u8)) {
    loop {
        let mut moves = Vec::new();
        generate(s, true, &mut moves);
        let Some(&m) = moves.iter().find(|m| m.to == Loc::Foundation) else {
            return;
        };
        let c = s.moved_card(m).expect("card");
        s.apply(m);
        record(m, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::ms_deal;

    /// A search over the reduced move set that runs dry is no proof: on the unsolvable deal
    /// 11982 it says unknown, and `fast` then proves the verdict with all moves.
    #[test]
    fn a_dry_pruned_search_is_not_a_proof() {
        let board = ms_deal(11982).unwrap();
        let r = best_first(&board, FAST_BASE, 200_000, None, None);
        assert_eq!(r.verdict, Verdict::Unknown(PRUNED_DRY.into()));
        let full = best_first(&board, FAST_COMPLETE, 200_000, None, None);
        assert_eq!(full.verdict, Verdict::Unsolvable);
        assert!(full.stats.stored > r.stats.stored);
        let fast = solve(
            &board,
            Mode::Fast,
            Limits {
                max_states: 200_000,
            },
        );
        assert_eq!(fast.verdict, Verdict::Unsolvable);
    }
}
