//! The solver's search: weighted best-first search over canonical positions with safe
//! auto-play, used by the `fast` and `short` modes (the optimal modes are in [`crate::astar`]).
//!
//! - `fast`: greedy on the evaluation, path length barely counted: first solution, quickly.
//!   Its portfolio searches a reduced move set first ([`crate::movegen::generate_pruned`]:
//!   no moves that split a run), then all moves.
//! - `short`: path cost (single-card moves) weighted against the evaluation: shorter solutions
//!   for more positions searched; then shortcuts ([`crate::shorten`]) and an optimal tail
//!   ([`crate::astar::optimal_tail`]).
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

use crate::heuristic::{
    admissible, column_features, eval_features, eval_features_from, features, ColumnFeatures,
    Features, Weights,
};
use crate::movegen::{autoplay, autoplay_after, generate, generate_pruned};
use crate::moves::{Loc, Move, PlayedMove};
use crate::shorten::{move_cost, shorten_solution};
use crate::state::{FingerprintSet, State};
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

/// A stored position: how it was reached and its features. Its [`State`] is kept only once
/// it is expanded (remade then from its parent's), in `states[slot]`: most stored positions
/// never are.
struct Node {
    parent: u32,
    /// Index of its state in the expanded positions' states, [`NONE`] until expanded.
    slot: u32,
    mv: Move,
    g: u32,
    /// The evaluation features of its cascades (so expanding it need not rescan them).
    features: ColumnFeatures,
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
    /// Search [`generate_pruned`]'s reduced move set: faster, but running dry proves
    /// nothing.
    pruned: bool,
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
            out_of_sequence: 0,
        },
        g_weight,
        noise: 0,
        seed: 0,
        pruned: false,
    }
}

/// `fast`: one greedy configuration, then copies of it with random tie-breaking noise
/// (different seeds) and one other configuration: runtimes of greedy search are
/// heavy-tailed, and independent randomised or differently weighted tries cut the tail.
/// The third try is a differently built configuration (no sequence count, path weighted
/// twice as much): it solves many of the deals the base configuration gets lost on quickly.
const FAST: [Params; 5] = [
    FAST_BASE,
    noisy(FAST_BASE, 1),
    FAST_ALT,
    noisy(FAST_BASE, 2),
    noisy(FAST_BASE, 3),
];
const FAST_BASE: Params = pruned(with_sequence(w(6, 2, 2, 8, -8, 1), 2));
const FAST_ALT: Params = pruned(w(6, 4, 2, 5, -8, 2));
/// `fast`'s last resort: [`FAST_BASE`] over all moves (its running dry is a proof).
const FAST_COMPLETE: Params = Params {
    pruned: false,
    ..FAST_BASE
};

/// `p` over [`generate_pruned`]'s reduced move set.
const fn pruned(p: Params) -> Params {
    let mut p = p;
    p.pruned = true;
    p
}

/// `p` with weight `out_of_sequence` per cascade card out of sequence.
const fn with_sequence(p: Params, out_of_sequence: i32) -> Params {
    let mut p = p;
    p.weights.out_of_sequence = out_of_sequence;
    p
}

/// `p` with priority noise 0..30 drawn from `seed`.
const fn noisy(p: Params, seed: u64) -> Params {
    Params {
        weights: p.weights,
        g_weight: p.g_weight,
        noise: 30,
        seed: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        pruned: p.pruned,
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
/// A first-round try gives up after this many expansions without bringing a card home
/// further than before: lost greedy runs stall, and the next try is cheaper than the rest of
/// the budget.
const STALL: u64 = 500;
/// Budgets (positions stored) of the portfolio's rounds, before the caller's limit.
const ROUNDS: [usize; 4] = [6_000, 30_000, 100_000, 200_000];

/// Solve `board` (which must pass [`Board::check`]) in `mode` within `limits`.
///
/// `fast` and `short` run a portfolio of best-first configurations in rounds of growing
/// budgets (6k, 30k, 100k, 200k positions below `limits.max_states`, then that limit), so a deal one
/// configuration gets lost on is soon tried by another (in `fast`'s first round a try also
/// stops after 500 expansions without bringing a card home further). `fast`'s portfolio
/// searches the reduced move set of [`generate_pruned`]; if that fails (or runs dry), a last
/// round over all moves at the full budget decides. The optimal modes run one A*.
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
    'rounds: for &budget in &budgets {
        for &p in configs {
            // `fast`'s first-round tries also give up when they stall.
            let stall = (mode == Mode::Fast && budget == budgets[0] && budget < limits.max_states)
                .then_some(STALL);
            let r = best_first(board, p, budget, None, stall);
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
                            best_first(board, p, budget.min(limits.max_states), Some(bound), None);
                        total.expanded += better.stats.expanded;
                        total.stored = total.stored.max(better.stats.stored);
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
            let dry = matches!(&r.verdict, Verdict::Unknown(why) if why == PRUNED_DRY);
            last = Some(r.verdict);
            if dry {
                // Every pruned configuration searches the same (too small) space.
                break 'rounds;
            }
        }
    }
    if mode == Mode::Fast {
        // Last resort at the full budget, over all moves (so that running dry proves the
        // deal unsolvable): the base configuration, then the `short` configurations.
        for p in std::iter::once(FAST_COMPLETE).chain(SHORT) {
            let r = best_first(board, p, limits.max_states, None, None);
            total.expanded += r.stats.expanded;
            total.stored = total.stored.max(r.stats.stored);
            if !matches!(r.verdict, Verdict::Unknown(_)) {
                return SearchResult {
                    verdict: r.verdict,
                    stats: total,
                };
            }
            // What stopped the complete search (its limit), not the reduced move set
            // running dry, is the reason to report.
            last = Some(r.verdict);
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
///
/// With `Some(stall)` it also gives up (`Unknown`) after expanding `stall` positions
/// without reaching a position with more cards home than any expanded before.
fn best_first(
    board: &Board,
    p: Params,
    max_states: usize,
    bound: Option<u32>,
    stall: Option<u64>,
) -> SearchResult {
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
    let mut open = OpenList::with_capacity(reserve);
    closed.insert(root.fingerprint());
    let prio = |f: Features, g: u32, fp: u128| -> i64 {
        let noise = if p.noise == 0 {
            0
        } else {
            (crate::state::mix64(fp as u64 ^ p.seed) % p.noise as u64) as i64
        };
        p.weights.eval(&f) as i64 + p.g_weight as i64 * g as i64 + noise
    };
    open.push(prio(eval_features(&root), root_g, 0), 0);
    let root_features = column_features(&root);
    // (Reserved whole like the rest: untouched pages cost nothing, growing would copy.)
    let mut states: Vec<State> = Vec::with_capacity(reserve);
    states.push(root);
    nodes.push(Node {
        slot: 0,
        parent: u32::MAX,
        mv: Move {
            from: Loc::Foundation,
            to: Loc::Foundation,
            count: 0,
        },
        g: root_g,
        features: root_features,
    });
    let mut moves = Vec::with_capacity(64);
    // Most cards home in an expanded position, and when that was first reached.
    let (mut most_home, mut progress_at) = (0, 0);
    // Ties go to the newest position (depth first on plateaus).
    while let Some(idx) = open.pop() {
        stats.expanded += 1;
        if nodes[idx].slot == NONE {
            // Remake the position from its parent's (expanded, so kept).
            let n = &nodes[idx];
            let mut s = states[nodes[n.parent as usize].slot as usize].clone();
            s.apply(n.mv);
            autoplay_after(&mut s, n.mv, |_, _| {});
            nodes[idx].slot = states.len() as u32;
            states.push(s);
        }
        let parent_state = &states[nodes[idx].slot as usize];
        if let Some(stall) = stall {
            let home = parent_state.home();
            if home > most_home {
                (most_home, progress_at) = (home, stats.expanded);
            } else if stats.expanded - progress_at > stall {
                return SearchResult {
                    verdict: Verdict::Unknown(format!(
                        "no card brought home in {stall} expansions"
                    )),
                    stats: done(stats, &closed),
                };
            }
        }
        moves.clear();
        if p.pruned {
            generate_pruned(parent_state, &mut moves);
        } else {
            generate(parent_state, false, &mut moves);
        }
        // A child differs from this position in the move's cascades and those auto-play
        // took cards from: its fingerprint is updated from this position's cascade hashes.
        let hashes = parent_state.column_hashes();
        // Likewise its evaluation features, when no card went home.
        let parent_features = nodes[idx].features;
        for &m in &moves {
            let mut child = parent_state.clone();
            let cost = move_cost(&child, m);
            child.apply(m);
            let mut g = nodes[idx].g + cost;
            let mut changed = 0u8;
            for l in [m.from, m.to] {
                if let Loc::Cascade(i) = l {
                    changed |= 1 << i;
                }
            }
            autoplay_after(&mut child, m, |mv, _| {
                g += 1;
                if let Loc::Cascade(i) = mv.from {
                    changed |= 1 << i;
                }
            });
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
            let fp = child.fingerprint_from(&hashes, changed);
            // A new position that would not fit in the budget ends the search.
            if closed.len() >= max_states && !closed.contains(&fp) {
                if let Some((_, p)) = best {
                    return SearchResult {
                        verdict: Verdict::Solved(replay(board, &p)),
                        stats: done(stats, &closed),
                    };
                }
                return SearchResult {
                    verdict: Verdict::Unknown(format!(
                        "state limit of {} reached",
                        crate::plural(max_states, "position")
                    )),
                    stats: done(stats, &closed),
                };
            }
            if !closed.insert(fp) {
                continue;
            }
            let (f, features) = eval_features_from(&child, &parent_features, changed);
            let pr = prio(f, g, fp);
            open.push(pr, nodes.len());
            nodes.push(Node {
                slot: NONE,
                parent: idx as u32,
                mv: m,
                g,
                features,
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
    if p.pruned {
        return SearchResult {
            verdict: Verdict::Unknown(PRUNED_DRY.into()),
            stats: done(stats, &closed),
        };
    }
    SearchResult {
        verdict: Verdict::Unsolvable,
        stats: done(stats, &closed),
    }
}

/// The [`Verdict::Unknown`] of a search over [`generate_pruned`]'s moves that ran dry.
const PRUNED_DRY: &str = "the reduced move set ran out of positions";

/// No position (end of a bucket's stack).
const NONE: u32 = u32::MAX;
/// Added to priorities to index buckets (priorities are small integers, rarely negative).
const PRIO_OFFSET: i64 = 1 << 10;

/// The open list: a bucket queue over integer priorities, lowest first, each bucket a stack
/// threaded through the positions (each position enters the open list once), so that
/// among equal priorities the newest position comes first.
struct OpenList {
    /// Per bucket: the newest position in it, or [`NONE`].
    head: Vec<u32>,
    /// Per position: the position below it in its bucket, or [`NONE`].
    next: Vec<u32>,
    /// No non-empty bucket lies below this one.
    min: usize,
    len: usize,
}

impl OpenList {
    fn with_capacity(n: usize) -> OpenList {
        OpenList {
            head: Vec::new(),
            next: Vec::with_capacity(n),
            min: usize::MAX,
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, priority: i64, idx: usize) {
        let b = (priority + PRIO_OFFSET).max(0) as usize;
        if b >= self.head.len() {
            self.head.resize(b + 1, NONE);
        }
        if idx >= self.next.len() {
            self.next.resize(idx + 1, NONE);
        }
        self.next[idx] = self.head[b];
        self.head[b] = idx as u32;
        self.min = self.min.min(b);
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        while self.head[self.min] == NONE {
            self.min += 1;
        }
        let idx = self.head[self.min];
        self.head[self.min] = self.next[idx as usize];
        self.len -= 1;
        Some(idx as usize)
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

/// The player moves from the root to node `idx`.
fn path(nodes: &[Node], idx: usize) -> Vec<Move> {
    path_to(idx, |i| (nodes[i].parent, nodes[i].mv))
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
