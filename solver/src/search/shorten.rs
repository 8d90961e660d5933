//! Solution shortening by shortcuts: a breadth-first search of a few moves from each
//! position on a solution's path; when it reaches a later position of the path (up to the
//! order of cascades and freecells) for fewer single-card moves, the detour is cut out and
//! the rest of the solution is relabelled onto the new arrangement. (The same idea as
//! Freecell Solver's `--optimize-solution`, which runs a breadth-first search over the
//! solution's states.)

use crate::movegen::{autoplay, generate, Tableau};
use crate::moves::{single_card_cost, Loc, Move, PlayedMove, RunMove};
use crate::state::{rank, suit, FingerprintMap, State, EMPTY};
use fcauto_deals::Board;
use fcauto_deals::{CASCADES, FREECELLS};

/// Single-card cost of `m` in `s` (before it is applied).
#[inline]
pub fn move_cost(s: &impl Tableau, m: Move) -> u32 {
    if m.count <= 1 {
        return 1;
    }
    let dest_empty = matches!(m.to, Loc::Cascade(k) if s.height(k as usize) == 0);
    let empty = (0..CASCADES).filter(|&i| s.height(i) == 0).count() - usize::from(dest_empty);
    let free = (0..FREECELLS).filter(|&j| s.cell(j) == EMPTY).count();
    let source_emptied =
        matches!(m.from, Loc::Cascade(i) if s.height(i as usize) == m.count as usize);
    single_card_cost(RunMove {
        cards: m.count as usize,
        free_cells: free,
        empty,
        dest_empty,
        source_emptied,
    }) as u32
}

/// Apply a player move and the safe auto-play after it; returns the single-card cost.
fn step(s: &mut State, m: Move) -> u32 {
    let mut g = move_cost(s, m);
    s.apply(m);
    autoplay(s, |_, _| g += 1);
    g
}

/// The positions along `moves` from `root` (auto-play applied after each) and the
/// single-card cost up to each.
fn path_states(root: &State, moves: &[Move]) -> (Vec<State>, Vec<u32>) {
    let mut s = root.clone();
    let mut g = 0;
    autoplay(&mut s, |_, _| g += 1);
    let mut states = vec![s.clone()];
    let mut costs = vec![g];
    for &m in moves {
        g += step(&mut s, m);
        states.push(s.clone());
        costs.push(g);
    }
    (states, costs)
}

/// How cascade `i` / freecell `j` of `from` is named in `to` (same position up to order).
fn relabelling(from: &State, to: &State) -> Option<([u8; CASCADES], [u8; FREECELLS])> {
    let mut cols = [0u8; CASCADES];
    let mut used = [false; CASCADES];
    for (i, col) in cols.iter_mut().enumerate() {
        let k = (0..CASCADES).find(|&k| !used[k] && to.col(k) == from.col(i))?;
        used[k] = true;
        *col = k as u8;
    }
    let mut cells = [0u8; FREECELLS];
    let mut used = [false; FREECELLS];
    for (j, cell) in cells.iter_mut().enumerate() {
        let k = (0..FREECELLS).find(|&k| !used[k] && to.cells[k] == from.cells[j])?;
        used[k] = true;
        *cell = k as u8;
    }
    Some((cols, cells))
}

fn relabel(m: Move, cols: &[u8; CASCADES], cells: &[u8; FREECELLS]) -> Move {
    let f = |l: Loc| match l {
        Loc::Cascade(i) => Loc::Cascade(cols[i as usize]),
        Loc::Freecell(j) => Loc::Freecell(cells[j as usize]),
        Loc::Foundation => Loc::Foundation,
    };
    Move {
        from: f(m.from),
        to: f(m.to),
        count: m.count,
    }
}

/// Shorten a solution (player moves from `root`, auto-play implied) by shortcuts of at most
/// `depth` moves, repeating until none is found or `max_rounds` splices were made. The
/// result reaches a won position too (the caller validates it).
pub fn shorten(root: &State, mut moves: Vec<Move>, depth: usize, max_rounds: usize) -> Vec<Move> {
    let mut buf = Vec::with_capacity(64);
    for _ in 0..max_rounds {
        let (states, costs) = path_states(root, &moves);
        let mut index: FingerprintMap<usize> = FingerprintMap::default();
        for (k, s) in states.iter().enumerate() {
            index.insert(s.fingerprint(), k);
        }
        // Best splice: (gain, i, k, shortcut moves, reached position).
        let mut best: Option<(u32, usize, usize, Vec<Move>, State)> = None;
        for i in 0..states.len().saturating_sub(2) {
            let mut frontier: Vec<(State, u32, Vec<Move>)> =
                vec![(states[i].clone(), 0, Vec::new())];
            for _ in 0..depth {
                let mut next = Vec::new();
                for (s, c, p) in &frontier {
                    buf.clear();
                    generate(s, false, &mut buf);
                    for &m in &buf {
                        let mut t = s.clone();
                        let cost = c + step(&mut t, m);
                        if let Some(&k) = index.get(&t.fingerprint()) {
                            let gain = costs[k].saturating_sub(costs[i]).saturating_sub(cost);
                            if k > i
                                && costs[i] + cost < costs[k]
                                && best.as_ref().map(|b| gain > b.0).unwrap_or(true)
                            {
                                let mut q = p.clone();
                                q.push(m);
                                best = Some((gain, i, k, q, t.clone()));
                            }
                        }
                        let mut q = p.clone();
                        q.push(m);
                        next.push((t, cost, q));
                    }
                }
                frontier = next;
            }
        }
        let Some((_, i, k, cut, reached)) = best else {
            break;
        };
        let Some((cols, cells)) = relabelling(&states[k], &reached) else {
            break;
        };
        let mut out = moves[..i].to_vec();
        out.extend(cut);
        out.extend(moves[k..].iter().map(|&m| relabel(m, &cols, &cells)));
        moves = out;
    }
    moves
}

/// The player moves of a solution written out by a search: its moves replayed with the
/// safe auto-play, less the foundation moves that auto-play has already made. For a
/// solution found with safe auto-play these are the moves before its auto-play; one found
/// with [`crate::movegen::AutoPlay::Greedy`] keeps the foundation moves the safe rule would
/// not have made, as player moves (the positions between player moves are the same).
fn player_moves(root: &State, played: &[PlayedMove]) -> Vec<Move> {
    let mut s = root.clone();
    autoplay(&mut s, |_, _| {});
    let mut out = Vec::new();
    for p in played {
        let c = p.card.id();
        if p.mv.to == Loc::Foundation && s.found[suit(c) as usize] > rank(c) {
            continue;
        }
        out.push(p.mv);
        s.apply(p.mv);
        autoplay(&mut s, |_, _| {});
    }
    out
}

/// [`shorten`] a solution in its written-out form; returns it written out again.
pub fn shorten_solution(
    board: &Board,
    played: &[PlayedMove],
    depth: usize,
    max_rounds: usize,
) -> Vec<PlayedMove> {
    let root = State::from_board(board);
    let moves = shorten(&root, player_moves(&root, played), depth, max_rounds);
    crate::search::replay(board, &moves)
}
