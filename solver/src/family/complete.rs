//! The complete search: a depth-first search over canonical positions with a visited set of
//! 128-bit fingerprints. It plays every legal move (and only safe auto-moves), so when it runs
//! out of positions the layout is proved unsolvable; a full visited set stops it with
//! "unknown".
//!
//! One position is kept and moved forward and back (`Pos::apply`/`undo`); the move lists of
//! the open frames share one buffer, so nothing is allocated per position.

use super::best_first::estimate;
use super::moves::{auto_play, generate};
use super::state::{Pos, M};
use super::table::Seen;
use fcauto_deals::Rules;

/// How a complete search ended.
pub(crate) enum End {
    /// Won: every move from the start, auto-moves included.
    Solved(Vec<M>),
    /// Every reachable position was visited.
    Exhausted,
    /// The visited set reached its limit.
    Limit,
}

/// Positions visited with children ordered by the best-first estimate. Past this the search
/// is an exhaustive proof in all but name (the best-first tries and the ordered part found no
/// solution): children are no longer ordered but checked against the visited set as soon as
/// they are generated, all of a position's children at once ([`keep_new`]), so that their
/// visited-set lookups, each a miss of the processor's caches in a set of gigabytes, overlap.
pub(crate) const ORDERED: usize = 20_000_000;

struct Frame {
    next: usize,
    end: usize,
    /// The log's length before the move that led here: undoing to it restores the parent.
    undo_to: usize,
    /// The moves were checked (and their positions stored) when generated: all are new.
    checked: bool,
}

/// Search from `start` until a win, exhaustion, or `max_states` positions visited. Returns
/// the end and the number of distinct positions visited.
pub(crate) fn dfs(start: &Pos, rules: &Rules, max_states: usize) -> (End, usize) {
    dfs_ordering(start, rules, max_states, ORDERED)
}

/// [`dfs`], ordering children only while fewer than `ordered` positions are visited.
pub(crate) fn dfs_ordering(
    start: &Pos,
    rules: &Rules,
    max_states: usize,
    ordered: usize,
) -> (End, usize) {
    let mut p = start.clone();
    let mut log: Vec<M> = Vec::with_capacity(256);
    auto_play(&mut p, rules, &mut log);
    let mut seen = Seen::with_limit(max_states);
    seen.insert(p.fingerprint());
    if p.home() == 52 {
        return (End::Solved(log), seen.len());
    }
    let mut moves: Vec<M> = Vec::with_capacity(4096);
    let mut ex = Expander {
        rules,
        ordered,
        scratch: Scratch::default(),
    };
    let mut frames = vec![ex.expand(&mut p, &mut seen, &mut moves, &mut log)];
    frames[0].undo_to = log.len();
    while let Some(f) = frames.last_mut() {
        if f.next == f.end {
            let undo_to = f.undo_to;
            frames.pop();
            if let Some(parent) = frames.last() {
                moves.truncate(parent.end);
            }
            unwind(&mut p, &mut log, undo_to);
            continue;
        }
        let (m, checked) = (moves[f.next], f.checked);
        f.next += 1;
        let before = log.len();
        p.apply(m);
        log.push(m);
        auto_play(&mut p, rules, &mut log);
        if !checked && !seen.insert(p.fingerprint()) {
            unwind(&mut p, &mut log, before);
            continue;
        }
        if p.home() == 52 {
            return (End::Solved(log), seen.len());
        }
        if seen.len() >= max_states {
            return (End::Limit, seen.len());
        }
        let mut frame = ex.expand(&mut p, &mut seen, &mut moves, &mut log);
        frame.undo_to = before;
        frames.push(frame);
    }
    (End::Exhausted, seen.len())
}

/// Buffers reused from position to position.
#[derive(Default)]
struct Scratch {
    scored: Vec<(u32, M)>,
    children: Vec<(u128, bool, M)>,
}

/// Makes the frames: the rules, when ordering stops, reused buffers.
struct Expander<'a> {
    rules: &'a Rules,
    ordered: usize,
    scratch: Scratch,
}

impl Expander<'_> {
    /// Generate the moves of `p` onto `moves` and make their frame (its `undo_to` left for
    /// the caller): ordered while the search is small, checked against `seen` past that.
    fn expand(
        &mut self,
        p: &mut Pos,
        seen: &mut Seen,
        moves: &mut Vec<M>,
        log: &mut Vec<M>,
    ) -> Frame {
        let start = moves.len();
        generate(p, self.rules, moves);
        let checked = seen.len() >= self.ordered;
        if checked {
            let children = &mut self.scratch.children;
            keep_new(p, self.rules, seen, moves, start, log, children);
        } else {
            let scored = &mut self.scratch.scored;
            order(p, self.rules, &mut moves[start..], log, scored);
        }
        Frame {
            next: start,
            end: moves.len(),
            undo_to: 0,
            checked,
        }
    }
}

/// Keep of `moves[start..]` (of `p`) only the moves to positions not in `seen`, and store
/// those positions; a move that wins comes first. The children's fingerprints are computed
/// first and their slots read together, so the lookups wait for memory once, not once each.
fn keep_new(
    p: &mut Pos,
    rules: &Rules,
    seen: &mut Seen,
    moves: &mut Vec<M>,
    start: usize,
    log: &mut Vec<M>,
    children: &mut Vec<(u128, bool, M)>,
) {
    children.clear();
    for &m in &moves[start..] {
        let before = log.len();
        p.apply(m);
        log.push(m);
        auto_play(p, rules, log);
        children.push((p.fingerprint(), p.home() == 52, m));
        unwind(p, log, before);
    }
    seen.touch(children.iter().map(|c| c.0));
    moves.truncate(start);
    for &(fp, won, m) in children.iter() {
        if seen.insert(fp) {
            moves.push(m);
            if won {
                let last = moves.len() - 1;
                moves.swap(start, last);
            }
        }
    }
}

/// Sort `moves` (of `p`) so that the child the best-first estimate likes best comes first:
/// the order changes which solution is found and how soon, never which positions are
/// reachable.
fn order(
    p: &mut Pos,
    rules: &Rules,
    moves: &mut [M],
    log: &mut Vec<M>,
    scored: &mut Vec<(u32, M)>,
) {
    scored.clear();
    for &m in moves.iter() {
        let before = log.len();
        p.apply(m);
        log.push(m);
        auto_play(p, rules, log);
        scored.push((estimate(p, rules), m));
        unwind(p, log, before);
    }
    scored.sort_by_key(|&(s, _)| s);
    for (slot, &(_, m)) in moves.iter_mut().zip(scored.iter()) {
        *slot = m;
    }
}

/// Take back moves until the log is `len` long.
fn unwind(p: &mut Pos, log: &mut Vec<M>, len: usize) {
    while log.len() > len {
        let m = log.pop().expect("a move to take back");
        p.undo(m);
    }
}
