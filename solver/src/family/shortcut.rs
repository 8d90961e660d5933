//! Shortcuts through a found solution: from each position on the path, a move (with its safe
//! auto-moves) that lands on a later position of the path replaces the moves between. The
//! complete search's depth-first paths wander (hundreds of thousands of moves on a hard
//! deal); this cuts them down without searching again.
//!
//! A landing position equals the path's only up to the order of cascades and freecells
//! (the fingerprint counts them as sets), so the rest of the path is renumbered to the
//! places where the cards now are.

use super::moves::{auto_play, generate};
use super::state::{Pos, CELL0, HOME, M};
use fcauto_deals::game::{MAX_CASCADES, MAX_FREECELLS};
use fcauto_deals::Rules;
use std::collections::HashMap;

/// `path` (legal from `start`) with shortcuts taken; it ends in the same position.
pub(crate) fn shortcut(start: &Pos, rules: &Rules, path: &[M]) -> Vec<M> {
    let mut at: HashMap<u128, usize, ahash::RandomState> = HashMap::default();
    let mut q = start.clone();
    at.insert(q.fingerprint(), 0);
    for (k, &m) in path.iter().enumerate() {
        q.apply(m);
        at.insert(q.fingerprint(), k + 1);
    }
    let (mut p, mut q) = (start.clone(), start.clone());
    // The path's place i is now place map[i] (cascades, then freecells).
    let mut map: [u8; HOME as usize + 1] = std::array::from_fn(|i| i as u8);
    let (mut out, mut buf, mut log) = (Vec::new(), Vec::new(), Vec::new());
    let mut i = 0;
    while i < path.len() {
        buf.clear();
        generate(&p, rules, &mut buf);
        let mut best: Option<(usize, Vec<M>)> = None;
        for &m in &buf {
            log.clear();
            p.apply(m);
            log.push(m);
            auto_play(&mut p, rules, &mut log);
            if let Some(&j) = at.get(&p.fingerprint()) {
                if j > i + 1 && best.as_ref().is_none_or(|b| j > b.0) {
                    best = Some((j, log.clone()));
                }
            }
            for &s in log.iter().rev() {
                p.undo(s);
            }
        }
        match best {
            Some((j, ms)) => {
                for m in ms {
                    p.apply(m);
                    out.push(m);
                }
                for &m in &path[i..j] {
                    q.apply(m);
                }
                map = matching(&q, &p);
                i = j;
            }
            None => {
                let m = path[i];
                let moved = M {
                    from: map[m.from as usize],
                    to: map[m.to as usize],
                    ..m
                };
                p.apply(moved);
                q.apply(m);
                out.push(moved);
                i += 1;
            }
        }
    }
    out
}

/// Where each place of `q` is in `p`, an equal position up to the order of cascades and of
/// freecells.
fn matching(q: &Pos, p: &Pos) -> [u8; HOME as usize + 1] {
    let mut map: [u8; HOME as usize + 1] = std::array::from_fn(|i| i as u8);
    let mut used = [false; MAX_CASCADES];
    for (c, slot) in map.iter_mut().enumerate().take(q.ncasc) {
        let d = (0..p.ncasc)
            .find(|&d| !used[d] && p.col(d) == q.col(c))
            .expect("equal positions have equal cascades");
        used[d] = true;
        *slot = d as u8;
    }
    let mut used = [false; MAX_FREECELLS];
    for j in 0..q.ncells {
        let k = (0..p.ncells)
            .find(|&k| !used[k] && p.cells[k] == q.cells[j])
            .expect("equal positions have equal freecells");
        used[k] = true;
        map[CELL0 as usize + j] = CELL0 + k as u8;
    }
    map
}
