//! The solver's search: weighted best-first search over canonical positions with safe
//! auto-play, used by the `fast` and `short` modes (the optimal modes are in [`crate::astar`]).
//!
//! - `fast`: greedy on the evaluation, path length barely counted: first solution, quickly.
//! - `short`: path cost (single-card moves) weighted against the evaluation: shorter solutions
//!   for more positions searched; then shortcuts ([`crate::shorten`]) and an optimal tail
//!   ([`crate::astar::optimal_tail`]).
//! - `optimal` / `optimal-moves`: A* ([`crate::astar`]) with an admissible deadlock bound
//!   ([`crate::deadlock`]): a shortest solution in single-card moves, or in moves with a
//!   sequence move counted as one (foundation moves included in both).
//!
//! Every mode keeps a closed set of canonical fingerprints ([`State::fingerprint`]) and
//! generates all legal moves ([`crate::movegen`]); when the open list runs dry the whole
//! reachable space has been searched and the deal is proved unsolvable. A run stopped by
//! its state budget reports [`Verdict::Unknown`].

use crate::heuristic::{admissible, features, Weights};
use crate::movegen::{autoplay, generate};
use crate::moves::{Loc, Move, PlayedMove};
use crate::shorten::{move_cost, shorten_solution};
use crate::state::{FingerprintSet, State};
use fcauto_deals::{Board, Card};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
    /// Positions taken from the open list and expanded.
    pub expanded: u64,
    /// Distinct positions stored.
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

struct Node {
    state: State,
    parent: u32,
    mv: Move,
    g: u32,
}

/// One best-first configuration: evaluation weights and the weight of the path cost.
#[derive(Clone, Copy, Debug)]
struct Params {
    weights: Weights,
    g_weight: i32,
    /// Random tie-breaking: 0..noise is added to each priority (0 = none).
    noise: u32,
    /// Seed of that noise.
    seed: u64,
}

const fn w(
    remaining: i32,
    blocked: i32,
    next_depth: i32,
    used_cells: i32,
    empty_cols: i32,
    g_weight: i32,
) -> Params {
    Params {
        weights: Weights {
            remaining,
            blocked,
            next_depth,
            used_cells,
            empty_cols,
        },
        g_weight,
        noise: 0,
        seed: 0,
    }
}

/// `fast`: one greedy configuration, then copies of it with random tie-breaking noise
/// (different seeds): runtimes of greedy search are heavy-tailed, and independent
/// randomised tries cut the tail.
const FAST: [Params; 5] = [
    FAST_BASE,
    noisy(FAST_BASE, 1),
    noisy(FAST_BASE, 2),
    noisy(FAST_BASE, 3),
    noisy(FAST_BASE, 4),
];
const FAST_BASE: Params = w(6, 4, 2, 5, -8, 1);

/// `p` with priority noise 0..30 drawn from `seed`.
const fn noisy(p: Params, seed: u64) -> Params {
    Params {
        weights: p.weights,
        g_weight: p.g_weight,
        noise: 30,
        seed: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15),
    }
}
/// `short`: configurations that weigh the path length more.
const SHORT: [Params; 3] = [
    w(6, 4, 2, 3, -4, 2),
    w(6, 4, 2, 5, -8, 2),
    w(6, 4, 2, 5, -8, 1),
];
/// `short`'s anytime phases and their budgets (positions): the path cost weighted 5, then 4, per
/// single-card move against the evaluation.
const ANYTIME: [(Params, usize); 2] = [
    (w(6, 6, 0, 3, -4, 5), 105_000),
    (w(6, 6, 0, 3, -4, 4), 70_000),
];
/// `short`'s last step: A* for an optimal tail from these points of the solution (percent of
/// its moves, earliest first), each with this budget (positions); see
/// [`crate::astar::optimal_tail`].
const TAIL_STARTS: [usize; 4] = [0, 20, 40, 60];
const TAIL_BUDGET: usize = 60_000;
/// Moves per shortcut tried by the final shortening pass of `short`.
const SHORTCUT_DEPTH: usize = 2;
/// Most positions whose storage is reserved up front (a larger search grows its tables).
const RESERVE_MAX: usize = 200_000;
/// Budgets (positions stored) of the portfolio's rounds, before the caller's limit.
const ROUNDS: [usize; 4] = [6_000, 30_000, 100_000, 200_000];

/// Solve `board` (which must pass [`Board::check`]) in `mode` within `limits`.
///
/// `fast` and `short` run a portfolio of best-first configurations in rounds of growing
/// budgets (6k, 30k, 100k, 200k positions below `limits.max_states`, then that limit), so a deal one
/// configuration gets lost on is soon tried by another. The optimal modes run one A*.
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
        Mode::Fast => &FAST,
        Mode::Short => &SHORT,
    };
    let mut total = SearchStats::default();
    let mut last = None;
    // The rounds below the caller's limit, then the limit itself.
    let mut budgets: Vec<usize> = ROUNDS
        .iter()
        .copied()
        .filter(|&r| r < limits.max_states)
        .collect();
    budgets.push(limits.max_states);
    for &budget in &budgets {
        for &p in configs {
            let r = best_first(board, p, budget, None);
            total.expanded += r.stats.expanded;
            total.stored = total.stored.max(r.stats.stored);
            if let Verdict::Solved(first) = &r.verdict {
                if mode == Mode::Short {
                    // Anytime phases: keep searching for shorter solutions than the best so
                    // far, pruning by an admissible bound; each phase weighs the path cost
                    // differently and starts from the bound the previous one left.
                    let mut best = first.clone();
                    for &(p, budget) in &ANYTIME {
                        let bound = single_card_length(board, &best);
                        let better =
                            best_first(board, p, budget.min(limits.max_states), Some(bound));
                        total.expanded += better.stats.expanded;
                        if let Verdict::Solved(m) = better.verdict {
                            best = m;
                        }
                    }
                    let shortened = shorten_solution(board, &best, SHORTCUT_DEPTH, 50);
                    let tail = crate::astar::optimal_tail(
                        board,
                        &shortened,
                        &TAIL_STARTS,
                        TAIL_BUDGET.min(limits.max_states),
                    );
                    return SearchResult {
                        verdict: Verdict::Solved(tail),
                        stats: total,
                    };
                }
                return SearchResult {
                    verdict: r.verdict,
                    stats: total,
                };
            }
            if !matches!(r.verdict, Verdict::Unknown(_)) {
                return SearchResult {
                    verdict: r.verdict,
                    stats: total,
                };
            }
            last = Some(r.verdict);
        }
    }
    if mode == Mode::Fast {
        // Last resort at the full budget: the differently weighted `short` configurations.
        for &p in &SHORT {
            let r = best_first(board, p, limits.max_states, None);
            total.expanded += r.stats.expanded;
            total.stored = total.stored.max(r.stats.stored);
            if !matches!(r.verdict, Verdict::Unknown(_)) {
                return SearchResult {
                    verdict: r.verdict,
                    stats: total,
                };
            }
        }
    }
    SearchResult {
        verdict: last.unwrap_or(Verdict::Unknown("no search ran".into())),
        stats: total,
    }
}

/// One greedy/weighted best-first search with `params`. Stops at `max_states` stored
/// positions.
///
/// With `Some(bound)` (anytime mode) it does not stop at the first solution: it keeps the
/// shortest found (in single-card moves), prunes positions whose path cost plus the
/// admissible bound cannot beat it (or `bound`), and returns the best when the budget or
/// the open list runs out (`Unknown` if nothing shorter than `bound` was found).
fn best_first(board: &Board, p: Params, max_states: usize, bound: Option<u32>) -> SearchResult {
    let anytime = bound.is_some();
    let mut best: Option<(u32, Vec<Move>)> = None;
    let mut limit = bound.unwrap_or(u32::MAX);
    let mut root = State::from_board(board);
    let mut stats = SearchStats::default();
    let mut root_g = 0;
    autoplay(&mut root, |_, _| root_g += 1);
    if root.is_won() {
        return SearchResult {
            verdict: Verdict::Solved(replay(board, &[])),
            stats,
        };
    }
    // Reserve the whole budget up front: pages become resident only when used, and no
    // growth step ever holds an old and a new copy at once (that doubled peak memory).
    let reserve = max_states.min(RESERVE_MAX) + 64;
    let mut nodes: Vec<Node> = Vec::with_capacity(reserve);
    let mut closed = FingerprintSet::with_capacity_and_hasher(reserve, Default::default());
    let mut open: BinaryHeap<Reverse<(i64, u32)>> = BinaryHeap::with_capacity(reserve);
    closed.insert(root.fingerprint());
    let prio = |s: &State, g: u32, fp: u128| -> i64 {
        let f = features(s);
        let noise = if p.noise == 0 {
            0
        } else {
            (crate::state::mix64(fp as u64 ^ p.seed) % p.noise as u64) as i64
        };
        p.weights.eval(&f) as i64 + p.g_weight as i64 * g as i64 + noise
    };
    open.push(Reverse((prio(&root, root_g, 0), u32::MAX)));
    nodes.push(Node {
        state: root,
        parent: u32::MAX,
        mv: Move {
            from: Loc::Foundation,
            to: Loc::Foundation,
            count: 0,
        },
        g: root_g,
    });
    let mut moves = Vec::with_capacity(64);
    while let Some(Reverse((_, rev_idx))) = open.pop() {
        // Ties go to the newest position (depth first on plateaus).
        let idx = (u32::MAX - rev_idx) as usize;
        stats.expanded += 1;
        moves.clear();
        generate(&nodes[idx].state, false, &mut moves);
        for &m in &moves {
            let mut child = nodes[idx].state.clone();
            let cost = move_cost(&child, m);
            child.apply(m);
            let mut g = nodes[idx].g + cost;
            autoplay(&mut child, |_, _| g += 1);
            if child.is_won() {
                let mut moves_path = path(&nodes, idx);
                moves_path.push(m);
                if !anytime {
                    return SearchResult {
                        verdict: Verdict::Solved(replay(board, &moves_path)),
                        stats: done(stats, &closed),
                    };
                }
                if g < limit {
                    limit = g;
                    best = Some((g, moves_path));
                }
                continue;
            }
            if anytime && g + admissible(&features(&child)) >= limit {
                continue;
            }
            let fp = child.fingerprint();
            if !closed.insert(fp) {
                continue;
            }
            if closed.len() >= max_states {
                if let Some((_, p)) = best {
                    return SearchResult {
                        verdict: Verdict::Solved(replay(board, &p)),
                        stats: done(stats, &closed),
                    };
                }
                return SearchResult {
                    verdict: Verdict::Unknown(format!(
                        "state limit of {max_states} positions reached"
                    )),
                    stats: done(stats, &closed),
                };
            }
            let pr = prio(&child, g, fp);
            open.push(Reverse((pr, u32::MAX - nodes.len() as u32)));
            nodes.push(Node {
                state: child,
                parent: idx as u32,
                mv: m,
                g,
            });
        }
    }
    if let Some((_, p)) = best {
        return SearchResult {
            verdict: Verdict::Solved(replay(board, &p)),
            stats: done(stats, &closed),
        };
    }
    if anytime {
        return SearchResult {
            verdict: Verdict::Unknown("no shorter solution".into()),
            stats: done(stats, &closed),
        };
    }
    SearchResult {
        verdict: Verdict::Unsolvable,
        stats: done(stats, &closed),
    }
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

pub(crate) fn done(mut stats: SearchStats, closed: &FingerprintSet) -> SearchStats {
    stats.stored = closed.len() as u64;
    stats
}

/// The player moves from the root to node `idx`.
fn path(nodes: &[Node], mut idx: usize) -> Vec<Move> {
    let mut out = Vec::new();
    while nodes[idx].parent != u32::MAX {
        out.push(nodes[idx].mv);
        idx = nodes[idx].parent as usize;
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
