//! One best-first search over [`State`]s: `short`'s anytime phases (its fallback when the
//! anytime A* finds nothing shorter). Positions are stored once by canonical fingerprint; a
//! position's [`State`] is kept only once expanded. Its tables ([`super::tables`]: a bucket
//! queue over integer priorities as the open list) are shared with `packed_first.rs`, which runs the first-solution
//! searches (`fast`'s tries, `short`'s rounds) over packed positions and is tested to expand
//! the same positions as this search does without the anytime bound.

use super::portfolio::Params;
use super::tables::{in_thread_tables, reserve, Progress, Reusable, Tables, NONE};
use super::{done, path_to, replay, SearchResult, SearchStats, StopReason, Verdict};
use crate::heuristic::{
    admissible, column_features, eval_features, eval_features_from, features, ColumnFeatures,
    Features,
};
use crate::movegen::{autoplay, autoplay_after, generate, generate_pruned, play};
use crate::moves::{Loc, Move};
use crate::shorten::move_cost;
use crate::state::State;
use fcauto_deals::Board;
use std::cell::RefCell;

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
    in_thread_tables(&WORKSPACE, |ws| {
        search(board, p, max_states, bound, stall, ws)
    })
}

/// One thread's search tables, emptied and reused by every search it runs.
#[derive(Default)]
struct Workspace {
    tables: Tables<Node>,
    /// The expanded positions' states, indexed by [`Node::slot`].
    states: Vec<State>,
}

impl Workspace {
    /// Empty the tables for a new search of `run` and store its `root`, reached with
    /// `root_g` single-card moves of auto-play.
    fn start(&mut self, root: State, root_g: u32, run: &Run) {
        self.tables.start(run.max_states);
        self.states.clear();
        reserve(&mut self.states, run.max_states);
        let t = &mut self.tables;
        t.closed.full.insert(root.fingerprint());
        t.open
            .push(run.priority(eval_features(&root), root_g, 0), 0);
        t.nodes.push(Node {
            slot: 0,
            parent: u32::MAX,
            mv: Move {
                from: Loc::Foundation,
                to: Loc::Foundation,
                count: 0,
            },
            g: root_g,
            features: column_features(&root),
        });
        self.states.push(root);
    }
}

impl Reusable for Workspace {
    fn oversized(&self) -> bool {
        self.tables.oversized() || self.states.len() > super::tables::KEEP_POSITIONS
    }
}

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::default();
}

/// [`best_first`] in the tables of `ws`: the root, then expansions until a verdict.
fn search(
    board: &Board,
    p: Params,
    max_states: usize,
    bound: Option<u32>,
    stall: Option<u64>,
    ws: &mut Workspace,
) -> SearchResult {
    let mut run = Run::new(board, p, max_states, bound);
    let mut root = State::from_board(board);
    let mut root_g = 0;
    autoplay(&mut root, |_, _| root_g += 1);
    if root.is_won() {
        return run.end(Verdict::Solved(replay(board, &[])), 0);
    }
    ws.start(root, root_g, &run);
    let (nodes, open) = (&mut ws.tables.nodes, &mut ws.tables.open);
    let (moves, states) = (&mut ws.tables.moves, &mut ws.states);
    // Whole fingerprints: this search is the reference the packed one is checked against.
    let closed = &mut ws.tables.closed.full;
    let mut progress = Progress::default();
    let child = &mut State::from_board(board);
    // Ties go to the newest position (depth first on plateaus).
    while let Some(idx) = open.pop() {
        run.stats.expanded += 1;
        let parent = remake(nodes, states, idx);
        if let Some(stall) = stall {
            if progress.stalled(parent.home() as u32, run.stats.expanded, stall) {
                return run.end(Verdict::Unknown(StopReason::Stalled(stall)), closed.len());
            }
        }
        moves.clear();
        if p.pruned {
            generate_pruned(parent, moves);
        } else {
            generate(parent, false, moves);
        }
        // A child differs from this position in the move's cascades and those auto-play
        // took cards from: its fingerprint is updated from this position's cascade hashes.
        let hashes = parent.column_hashes();
        // Likewise its evaluation features, when no card went home.
        let parent_features = nodes[idx].features;
        for &m in moves.iter() {
            let (g, changed) = make_child(parent, child, nodes[idx].g, m);
            if child.is_won() {
                if let Some(r) = run.won(nodes, idx, m, g, closed.len()) {
                    return r;
                }
                continue;
            }
            if run.anytime && g + admissible(&features(child)) >= run.limit {
                continue;
            }
            let fp = child.fingerprint_from(&hashes, changed);
            // A new position that would not fit in the budget ends the search.
            if closed.len() >= max_states && !closed.contains(fp) {
                return run.over_budget(closed.len());
            }
            if !closed.insert(fp) {
                continue;
            }
            let (f, features) = eval_features_from(child, &parent_features, changed);
            open.push(run.priority(f, g, fp), nodes.len());
            nodes.push(Node {
                slot: NONE,
                parent: idx as u32,
                mv: m,
                g,
                features,
            });
        }
    }
    run.ran_dry(closed.len())
}

/// Node `idx`'s state, remade from its parent's (expanded, so kept) the first time.
#[inline]
fn remake<'s>(nodes: &mut [Node], states: &'s mut Vec<State>, idx: usize) -> &'s State {
    if nodes[idx].slot == NONE {
        let n = &nodes[idx];
        let mut s = states[nodes[n.parent as usize].slot as usize].clone();
        s.apply(n.mv);
        autoplay_after(&mut s, n.mv, |_, _| {});
        nodes[idx].slot = states.len() as u32;
        states.push(s);
    }
    &states[nodes[idx].slot as usize]
}

/// Make `child` the child of `parent` (reached with `g` single-card moves) by player move
/// `m` and the safe auto-play after it; returns its single-card cost and the cascades it
/// changed (bit i for cascade i).
#[inline(always)]
fn make_child(parent: &State, child: &mut State, g: u32, m: Move) -> (u32, u8) {
    child.clone_from(parent);
    let cost = move_cost(child, m);
    let (changed, homed) = play(child, m);
    (g + cost + homed, changed)
}

/// One search's settings and what it has found so far.
struct Run<'a> {
    board: &'a Board,
    p: Params,
    max_states: usize,
    /// Keep searching after a solution, for shorter ones below `limit`.
    anytime: bool,
    /// Single-card length a solution must beat (anytime mode).
    limit: u32,
    /// The shortest solution found (anytime mode): its length and player moves.
    best: Option<(u32, Vec<Move>)>,
    stats: SearchStats,
}

impl Run<'_> {
    /// A search of `board` with `p` storing at most `max_states` positions; anytime below
    /// `bound` if given.
    fn new(board: &Board, p: Params, max_states: usize, bound: Option<u32>) -> Run<'_> {
        Run {
            board,
            p,
            max_states,
            anytime: bound.is_some(),
            limit: bound.unwrap_or(u32::MAX),
            best: None,
            stats: SearchStats::default(),
        }
    }

    /// The open list's priority of a position: the weighted evaluation of its features
    /// `f`, its path cost `g`, and the configuration's noise drawn from its fingerprint.
    #[inline(always)]
    fn priority(&self, f: Features, g: u32, fp: u128) -> i64 {
        self.p.priority(&f, g, fp)
    }

    /// The result with `verdict`, `stored` positions in the table.
    fn end(&self, verdict: Verdict, stored: usize) -> SearchResult {
        SearchResult {
            verdict,
            stats: done(self.stats, stored),
        }
    }

    /// A won child of node `idx` by `m`, `g` single-card moves from the start: the result
    /// (first solution), or `None` when anytime mode goes on (keeping it if shorter).
    fn won(
        &mut self,
        nodes: &[Node],
        idx: usize,
        m: Move,
        g: u32,
        stored: usize,
    ) -> Option<SearchResult> {
        let mut moves = path(nodes, idx);
        moves.push(m);
        if !self.anytime {
            return Some(self.end(Verdict::Solved(replay(self.board, &moves)), stored));
        }
        if g < self.limit {
            self.limit = g;
            self.best = Some((g, moves));
        }
        None
    }

    /// The budget is full: the best solution found, else `Unknown`.
    fn over_budget(&self, stored: usize) -> SearchResult {
        if let Some((_, moves)) = &self.best {
            return self.end(Verdict::Solved(replay(self.board, moves)), stored);
        }
        let why = StopReason::StateLimit(self.max_states);
        self.end(Verdict::Unknown(why), stored)
    }

    /// The open list ran out: the best solution found; else a proof of unsolvability
    /// for a first-solution search over all moves, `Unknown` otherwise.
    fn ran_dry(&self, stored: usize) -> SearchResult {
        let verdict = if let Some((_, moves)) = &self.best {
            Verdict::Solved(replay(self.board, moves))
        } else if self.anytime {
            Verdict::Unknown(StopReason::NoShorter(None))
        } else if self.p.pruned {
            Verdict::Unknown(StopReason::PrunedDry)
        } else {
            Verdict::Unsolvable
        };
        self.end(verdict, stored)
    }
}

/// The player moves from the root to node `idx`.
fn path(nodes: &[Node], idx: usize) -> Vec<Move> {
    path_to(idx, |i| (nodes[i].parent, nodes[i].mv))
}
