//! The heuristic search: best-first over canonical positions, each stored packed
//! ([`Pos::pack`], 70 bytes) with its parent and the moves that led to it. It plays every
//! legal move and only safe auto-moves, so an open list that runs dry is a proof too; a full
//! budget hands the verdict to the complete search.

use super::moves::{auto_play, generate};
use super::state::{rank, suit, Pos, M, PACKED};
use super::table::Seen;
use fcauto_deals::game::EmptyFill;
use fcauto_deals::Rules;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How a best-first search ended.
pub(crate) enum End {
    /// Won: every move from the start, auto-moves included.
    Solved(Vec<M>),
    /// The open list ran dry: every reachable position was stored.
    Exhausted,
    /// The budget of stored positions was reached.
    Budget,
}

struct Node {
    parent: u32,
    steps: (u32, u32),
    depth: u32,
}

/// The weights of [`estimate`]'s terms: cards not home, cards lying on a lower card, how deep
/// the next cards lie, filled freecells, empty cascades.
pub(crate) type Weights = [u32; 5];

/// The weights the tries before the complete search use (and the complete search's order):
/// chosen on FreeCell with 2 freecells, deals 1..160 (fewest positions searched).
pub(crate) const WEIGHTS: Weights = [3, 4, 4, 4, 4];

/// How far `p` looks from a win (lower is nearer), with [`WEIGHTS`].
#[inline]
pub(crate) fn estimate(p: &Pos, rules: &Rules) -> u32 {
    estimate_with(p, rules, &WEIGHTS)
}

/// How far `p` looks from a win (lower is nearer) by the weights `w` of: cards not home,
/// cards lying on a lower card (each must move before the lower one goes home), how deep the
/// next card of each suit lies, filled freecells, and empty cascades (worth four times more
/// when any card may fill them).
#[inline]
pub(crate) fn estimate_with(p: &Pos, rules: &Rules, w: &Weights) -> u32 {
    let mut blocked = 0u32;
    let mut depth = 0u32;
    for i in 0..p.ncasc {
        let col = p.col(i);
        let mut low = 14;
        for (k, &c) in col.iter().enumerate() {
            let r = rank(c);
            if r > low {
                blocked += 1;
            }
            low = low.min(r);
            if p.found[suit(c)] + 1 == r {
                depth += (col.len() - 1 - k) as u32;
            }
        }
    }
    let cells = (p.ncells - p.free_cells()) as u32;
    let empty_worth = if rules.empty == EmptyFill::Any { 4 } else { 1 };
    let empty = p.empty_cascades() as u32 * empty_worth;
    let home = p.home() as u32;
    (w[0] * (52 - home) + w[1] * blocked + w[2] * depth + w[3] * cells + 40)
        .saturating_sub(w[4] * empty)
}

/// Search from `start` until a win, a dry open list, or `budget` positions stored;
/// `g_weight` is how much each move made counts against a position (0: the first solution
/// found; more: shorter solutions), `w` the estimate's weights. Returns the end and the
/// positions stored.
pub(crate) fn search(
    start: &Pos,
    rules: &Rules,
    budget: usize,
    g_weight: u32,
    w: &Weights,
) -> (End, usize) {
    let (ncasc, ncells) = (start.ncasc, start.ncells);
    let mut p = start.clone();
    let mut steps: Vec<M> = Vec::new();
    auto_play(&mut p, rules, &mut steps);
    let mut seen = Seen::new();
    seen.insert(p.fingerprint());
    if p.home() == 52 {
        return (End::Solved(steps), 1);
    }
    let mut packed: Vec<u8> = Vec::with_capacity(PACKED * 1024);
    let mut nodes = vec![Node {
        parent: u32::MAX,
        steps: (0, steps.len() as u32),
        depth: 0,
    }];
    p.pack(&mut packed);
    let mut open = BinaryHeap::new();
    open.push(Reverse((estimate_with(&p, rules, w), u32::MAX)));
    let mut moves: Vec<M> = Vec::with_capacity(256);
    while let Some(Reverse((_, key))) = open.pop() {
        let idx = (u32::MAX - key) as usize;
        let mut p = Pos::unpack(&packed[idx * PACKED..(idx + 1) * PACKED], ncasc, ncells);
        moves.clear();
        generate(&p, rules, &mut moves);
        for &m in &moves {
            let from = steps.len();
            p.apply(m);
            steps.push(m);
            auto_play(&mut p, rules, &mut steps);
            if seen.insert(p.fingerprint()) {
                let depth = nodes[idx].depth + 1;
                nodes.push(Node {
                    parent: idx as u32,
                    steps: (from as u32, steps.len() as u32),
                    depth,
                });
                if p.home() == 52 {
                    return (End::Solved(path(&nodes, &steps)), seen.len());
                }
                p.pack(&mut packed);
                let f = estimate_with(&p, rules, w) + g_weight * depth;
                open.push(Reverse((f, u32::MAX - (nodes.len() - 1) as u32)));
                for &s in steps[from..].iter().rev() {
                    p.undo(s);
                }
                if seen.len() >= budget {
                    return (End::Budget, seen.len());
                }
            } else {
                for &s in steps[from..].iter().rev() {
                    p.undo(s);
                }
                steps.truncate(from);
            }
        }
    }
    (End::Exhausted, seen.len())
}

/// The moves from the start to the last node.
fn path(nodes: &[Node], steps: &[M]) -> Vec<M> {
    let mut chain = Vec::new();
    let mut i = nodes.len() - 1;
    loop {
        chain.push(i);
        match nodes[i].parent {
            u32::MAX => break,
            p => i = p as usize,
        }
    }
    chain
        .iter()
        .rev()
        .flat_map(|&i| {
            let (a, b) = nodes[i].steps;
            steps[a as usize..b as usize].iter().copied()
        })
        .collect()
}
