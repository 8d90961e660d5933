//! One best-first search over its own position table: `short`'s tries and anytime phases.
//! Positions are stored once by canonical fingerprint; a position's [`State`] is kept only
//! once expanded. The open list is a bucket queue over integer priorities.

use super::portfolio::{Params, RESERVE_MAX};
use super::{done, path_to, replay, SearchResult, SearchStats, Verdict};
use crate::heuristic::{
    admissible, column_features, eval_features, eval_features_from, features, ColumnFeatures,
    Features,
};
use crate::movegen::{autoplay, autoplay_after, generate, generate_pruned};
use crate::moves::{Loc, Move};
use crate::shorten::move_cost;
use crate::state::State;
use super::table::FingerprintTable;
use std::cell::RefCell;
use fcauto_deals::Board;

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
pub(super) fn best_first(
    board: &Board,
    p: Params,
    max_states: usize,
    bound: Option<u32>,
    stall: Option<u64>,
) -> SearchResult {
    // The thread's tables, reused from its previous search (no allocation or page faults
    // per try); a nested search (none today) would get fresh ones.
    WORKSPACE.with(|ws| match ws.try_borrow_mut() {
        Ok(mut ws) => {
            let r = search(board, p, max_states, bound, stall, &mut ws);
            ws.trim();
            r
        }
        Err(_) => search(board, p, max_states, bound, stall, &mut Workspace::default()),
    })
}

/// Most positions whose tables a thread keeps between searches (about 4 MiB): a larger
/// search's memory is given back when it ends, so a long-lived process with many threads
/// (`serve`, `mcp`) does not hold the largest search's tables per thread.
const KEEP_POSITIONS: usize = 1 << 14;

/// One thread's search tables, emptied and reused by every search it runs.
#[derive(Default)]
struct Workspace {
    nodes: Vec<Node>,
    closed: FingerprintTable,
    open: OpenList,
    /// The expanded positions' states, indexed by [`Node::slot`].
    states: Vec<State>,
    moves: Vec<Move>,
}

impl Workspace {
    /// Give back the memory of a search larger than [`KEEP_POSITIONS`].
    fn trim(&mut self) {
        if self.nodes.capacity() > KEEP_POSITIONS || self.states.capacity() > KEEP_POSITIONS {
            *self = Workspace::default();
        }
    }
}

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::default();
}

/// [`best_first`] in the tables of `ws`.
fn search(
    board: &Board,
    p: Params,
    max_states: usize,
    bound: Option<u32>,
    stall: Option<u64>,
    ws: &mut Workspace,
) -> SearchResult {
    let mut root = State::from_board(board);
    let mut root_g = 0;
    autoplay(&mut root, |_, _| root_g += 1);
    if root.is_won() {
        return SearchResult {
            verdict: Verdict::Solved(replay(board, &[])),
            stats: SearchStats::default(),
        };
    }
    let anytime = bound.is_some();
    let mut best: Option<(u32, Vec<Move>)> = None;
    let mut limit = bound.unwrap_or(u32::MAX);
    let mut stats = SearchStats::default();
    let Workspace {
        nodes,
        closed,
        open,
        states,
        moves,
    } = ws;
    nodes.clear();
    closed.clear();
    open.clear();
    states.clear();
    moves.clear();
    // Reserve up to the budget up front: pages become resident only when used, and no
    // growth step ever holds an old and a new copy at once (that doubled peak memory).
    let reserve = max_states.min(RESERVE_MAX) + 64;
    nodes.reserve(reserve);
    states.reserve(reserve);
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
                    stats: done(stats, closed.len()),
                };
            }
        }
        moves.clear();
        if p.pruned {
            generate_pruned(parent_state, moves);
        } else {
            generate(parent_state, false, moves);
        }
        // A child differs from this position in the move's cascades and those auto-play
        // took cards from: its fingerprint is updated from this position's cascade hashes.
        let hashes = parent_state.column_hashes();
        // Likewise its evaluation features, when no card went home.
        let parent_features = nodes[idx].features;
        for &m in moves.iter() {
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
                let mut moves_path = path(nodes, idx);
                moves_path.push(m);
                if !anytime {
                    return SearchResult {
                        verdict: Verdict::Solved(replay(board, &moves_path)),
                        stats: done(stats, closed.len()),
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
            if closed.len() >= max_states && !closed.contains(fp) {
                if let Some((_, p)) = best {
                    return SearchResult {
                        verdict: Verdict::Solved(replay(board, &p)),
                        stats: done(stats, closed.len()),
                    };
                }
                return SearchResult {
                    verdict: Verdict::Unknown(format!(
                        "state limit of {} reached",
                        crate::plural(max_states, "position")
                    )),
                    stats: done(stats, closed.len()),
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
            stats: done(stats, closed.len()),
        };
    }
    if anytime {
        return SearchResult {
            verdict: Verdict::Unknown("no shorter solution".into()),
            stats: done(stats, closed.len()),
        };
    }
    if p.pruned {
        return SearchResult {
            verdict: Verdict::Unknown(PRUNED_DRY.into()),
            stats: done(stats, closed.len()),
        };
    }
    SearchResult {
        verdict: Verdict::Unsolvable,
        stats: done(stats, closed.len()),
    }
}

/// The [`Verdict::Unknown`] of a search over [`generate_pruned`]'s moves that ran dry.
pub(super) const PRUNED_DRY: &str = "the reduced move set ran out of positions";

/// No position (end of a bucket's stack).
pub(super) const NONE: u32 = u32::MAX;
/// Added to priorities to index buckets (priorities are small integers, rarely negative).
const PRIO_OFFSET: i64 = 1 << 10;

/// The open list: a bucket queue over integer priorities, lowest first, each bucket a stack
/// threaded through the positions (each position enters the open list once), so that
/// among equal priorities the newest position comes first.
#[derive(Default)]
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
    /// Empty it, keeping its memory.
    fn clear(&mut self) {
        self.head.clear();
        self.next.clear();
        self.min = usize::MAX;
        self.len = 0;
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

/// The player moves from the root to node `idx`.
fn path(nodes: &[Node], idx: usize) -> Vec<Move> {
    path_to(idx, |i| (nodes[i].parent, nodes[i].mv))
}
