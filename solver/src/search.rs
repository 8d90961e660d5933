//! The solver's search: weighted best-first search over canonical positions with safe
//! auto-play, used in three modes.
//!
//! - `fast`: greedy on the evaluation, path length barely counted: first solution, quickly.
//! - `short`: path cost (single-card moves) weighted against the evaluation: shorter solutions
//!   for more positions searched.
//! - `optimal`: A* over single-card moves with an admissible bound
//!   ([`crate::heuristic::admissible`]): the first solution popped is a shortest one in
//!   single-card moves (foundation moves included).
//!
//! Every mode keeps a closed set of canonical fingerprints ([`State::fingerprint`]) and
//! generates all legal moves ([`crate::movegen`]); when the open list runs dry the whole
//! reachable space has been searched and the deal is proved unsolvable. A run stopped by
//! its state budget reports [`Verdict::Unknown`].

use crate::heuristic::{admissible, features, Weights};
use crate::movegen::{autoplay, generate};
use crate::moves::{single_card_cost, Loc, Move, PlayedMove};
use crate::state::{FingerprintSet, State};
use fcauto_deals::{Board, Card};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Which trade-off between speed and solution length to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// First solution found, for bulk verdicts.
    Fast,
    /// Short solutions at practical speed.
    #[default]
    Short,
    /// Proven minimum number of single-card moves (A*), within the state budget.
    Optimal,
}

impl Mode {
    /// Default state budget (positions stored) for the mode.
    pub fn default_max_states(self) -> usize {
        match self {
            Mode::Fast => 300_000,
            Mode::Short => 300_000,
            Mode::Optimal => 20_000_000,
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

struct Params {
    weights: Weights,
    g_weight: i32,
    atomic: bool,
}

fn params(mode: Mode) -> Params {
    if let Ok(w) = std::env::var("FCAUTO_TUNE") {
        let v: Vec<i32> = w.split(',').map(|x| x.parse().unwrap()).collect();
        return Params {
            weights: Weights { remaining: v[0], blocked: v[1], next_depth: v[2], used_cells: v[3], empty_cols: v[4] },
            g_weight: v[5],
            atomic: false,
        };
    }
    match mode {
        Mode::Fast => Params {
            weights: Weights {
                remaining: 6,
                blocked: 4,
                next_depth: 2,
                used_cells: 3,
                empty_cols: -4,
            },
            g_weight: 0,
            atomic: false,
        },
        Mode::Short => Params {
            weights: Weights {
                remaining: 6,
                blocked: 4,
                next_depth: 2,
                used_cells: 3,
                empty_cols: -4,
            },
            g_weight: 2,
            atomic: false,
        },
        Mode::Optimal => Params {
            weights: Weights {
                remaining: 0,
                blocked: 0,
                next_depth: 0,
                used_cells: 0,
                empty_cols: 0,
            },
            g_weight: 1,
            atomic: true,
        },
    }
}

/// Solve `board` (which must pass [`Board::check`]) in `mode` within `limits`.
pub fn solve(board: &Board, mode: Mode, limits: Limits) -> SearchResult {
    let p = params(mode);
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
    let mut nodes: Vec<Node> = Vec::with_capacity(4096);
    let mut closed = FingerprintSet::default();
    let mut open: BinaryHeap<Reverse<(i64, u32)>> = BinaryHeap::new();
    closed.insert(root.fingerprint());
    let prio = |s: &State, g: u32| -> i64 {
        let f = features(s);
        if mode == Mode::Optimal {
            (g + admissible(&f)) as i64 * 256 - g as i64 // ties: deeper first
        } else {
            p.weights.eval(&f) as i64 + p.g_weight as i64 * g as i64
        }
    };
    open.push(Reverse((prio(&root, root_g), u32::MAX)));
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
        if mode == Mode::Optimal && nodes[idx].state.is_won() {
            return SearchResult {
                verdict: Verdict::Solved(replay(board, &path(&nodes, idx))),
                stats: done(stats, &closed),
            };
        }
        moves.clear();
        generate(&nodes[idx].state, p.atomic, &mut moves);
        for &m in &moves {
            let mut child = nodes[idx].state.clone();
            let cost = move_cost(&child, m);
            child.apply(m);
            let mut g = nodes[idx].g + cost;
            autoplay(&mut child, |_, _| g += 1);
            if mode != Mode::Optimal && child.is_won() {
                let mut moves_path = path(&nodes, idx);
                moves_path.push(m);
                return SearchResult {
                    verdict: Verdict::Solved(replay(board, &moves_path)),
                    stats: done(stats, &closed),
                };
            }
            if !closed.insert(child.fingerprint()) {
                continue;
            }
            if closed.len() >= limits.max_states {
                return SearchResult {
                    verdict: Verdict::Unknown(format!(
                        "state limit of {} positions reached",
                        limits.max_states
                    )),
                    stats: done(stats, &closed),
                };
            }
            let pr = prio(&child, g);
            open.push(Reverse((pr, u32::MAX - nodes.len() as u32)));
            nodes.push(Node {
                state: child,
                parent: idx as u32,
                mv: m,
                g,
            });
        }
    }
    SearchResult {
        verdict: Verdict::Unsolvable,
        stats: done(stats, &closed),
    }
}

fn done(mut stats: SearchStats, closed: &FingerprintSet) -> SearchStats {
    stats.stored = closed.len() as u64;
    stats
}

/// Single-card moves a move costs in `s` (before it is applied).
#[inline]
fn move_cost(s: &State, m: Move) -> u32 {
    if m.count <= 1 {
        return 1;
    }
    let dest_empty = matches!(m.to, Loc::Cascade(k) if s.len[k as usize] == 0);
    let empty = s.empty_cols() - usize::from(dest_empty);
    single_card_cost(m.count as usize, s.free_cells(), empty) as u32
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
fn replay(board: &Board, player_moves: &[Move]) -> Vec<PlayedMove> {
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
