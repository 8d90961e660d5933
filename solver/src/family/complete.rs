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

struct Frame {
    next: usize,
    end: usize,
    /// The log's length before the move that led here: undoing to it restores the parent.
    undo_to: usize,
}

/// Search from `start` until a win, exhaustion, or `max_states` positions visited. Returns
/// the end and the number of distinct positions visited.
pub(crate) fn dfs(start: &Pos, rules: &Rules, max_states: usize) -> (End, usize) {
    let mut p = start.clone();
    let mut log: Vec<M> = Vec::with_capacity(256);
    auto_play(&mut p, rules, &mut log);
    let mut seen = Seen::new();
    seen.insert(p.fingerprint());
    if p.home() == 52 {
        return (End::Solved(log), seen.len());
    }
    let mut moves: Vec<M> = Vec::with_capacity(4096);
    let mut scored: Vec<(u32, M)> = Vec::with_capacity(64);
    generate(&p, rules, &mut moves);
    order(&mut p, rules, &mut moves, &mut log, &mut scored);
    let mut frames = vec![Frame {
        next: 0,
        end: moves.len(),
        undo_to: log.len(),
    }];
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
        let m = moves[f.next];
        f.next += 1;
        let before = log.len();
        p.apply(m);
        log.push(m);
        auto_play(&mut p, rules, &mut log);
        if !seen.insert(p.fingerprint()) {
            unwind(&mut p, &mut log, before);
            continue;
        }
        if p.home() == 52 {
            return (End::Solved(log), seen.len());
        }
        if seen.len() >= max_states {
            return (End::Limit, seen.len());
        }
        let start = moves.len();
        generate(&p, rules, &mut moves);
        order(&mut p, rules, &mut moves[start..], &mut log, &mut scored);
        frames.push(Frame {
            next: start,
            end: moves.len(),
            undo_to: before,
        });
    }
    (End::Exhausted, seen.len())
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
