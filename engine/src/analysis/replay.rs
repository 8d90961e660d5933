//! Replay the game: every move checked by the independent validator's rules
//! ([`apply_checked`]), the position after each kept, and the card counts standard notation
//! leaves open settled.

use anyhow::Result;
use fcauto_deals::Board;
use fcauto_solver::validator::apply_checked;
use fcauto_solver::{resolve_counts, Loc, Move, PlayedMove, Solution, StepMove};

/// The game replayed.
#[derive(Clone, Debug)]
pub struct Replay {
    /// `positions[k]`: the position after `k` moves (`positions[0]` the start), one more
    /// than there are moves.
    pub positions: Vec<Board>,
    /// The moves as played, each with its count and (deepest) card.
    pub played: Vec<PlayedMove>,
    /// Each move in standard notation (`38v3` where a run onto an empty cascade needs its
    /// count), as `fcauto solve --format standard` writes it.
    pub notation: Vec<String>,
    /// Steps (1-based) whose count was open and had more than one legal reading: the longest
    /// run was taken (as PySolFC moves it).
    pub guessed_counts: Vec<usize>,
}

/// Most rule checks spent on reading open counts (as
/// [`fcauto_solver::standard::RESOLVE_BUDGET`]).
const SETTLE_BUDGET: usize = fcauto_solver::standard::RESOLVE_BUDGET;

/// Replay `moves` from `start`. A move whose count is open takes the one legal count onto a
/// card, or onto an empty cascade the longest legal run that lets every later move be legal
/// (backtracking, as [`resolve_counts`] does for solutions); when the game can end won, the
/// counts are those [`resolve_counts`] finds to reach the win.
///
/// # Errors
/// An illegal move: `the game's move at step K (38) is illegal: <the rule broken>`, for the
/// furthest step any reading of the open counts reaches.
pub fn replay(start: &Board, moves: &[StepMove]) -> Result<Replay> {
    let (mut fixed, mut guessed_counts) = settle_counts(start, moves)?;
    if !guessed_counts.is_empty() {
        if let Ok(resolved) = resolve_counts(start, moves) {
            (fixed, guessed_counts) = (resolved, Vec::new());
        }
    }
    let mut b = start.clone();
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut played = Vec::with_capacity(moves.len());
    positions.push(b.clone());
    for (i, m) in fixed.iter().enumerate() {
        let count = m.count.unwrap_or(1);
        let card = moved_card(&b, m.from, count);
        let before = b.clone();
        apply_checked(&mut b, m).map_err(|reason| illegal(i, m, reason, &before))?;
        played.push(PlayedMove {
            mv: Move {
                from: m.from,
                to: m.to,
                count,
            },
            card: card.expect("a legal move moves a card"),
        });
        positions.push(b.clone());
    }
    let notation = standard_tokens(start, &played);
    Ok(Replay {
        positions,
        played,
        notation,
        guessed_counts,
    })
}

/// The error of move `m` at step `i` (0-based), illegal on `before` for `reason` (or, when
/// `before` is won, for being after the win).
fn illegal(i: usize, m: &StepMove, reason: String, before: &Board) -> anyhow::Error {
    let reason = if before.is_won() && before.cards_in_play() == 0 {
        fcauto_solver::validator::won_before(i)
    } else {
        reason
    };
    anyhow::anyhow!(
        "the game's move at step {} ({}) is illegal: {reason}",
        i + 1,
        m.named()
    )
}

/// A choice point of [`settle_counts`]: the step, the board before it, the other legal
/// counts (the next to try last).
struct Choice {
    step: usize,
    board: Board,
    rest: Vec<u8>,
}

/// Every move with its count: open ones read longest first, backtracking when a later move
/// turns out illegal. Returns the moves and the steps (1-based) where more than one count
/// was legal.
fn settle_counts(start: &Board, moves: &[StepMove]) -> Result<(Vec<StepMove>, Vec<usize>)> {
    let mut choices: Vec<Choice> = Vec::new();
    let mut out: Vec<StepMove> = Vec::with_capacity(moves.len());
    let (mut b, mut i, mut checks) = (start.clone(), 0, 0usize);
    let mut furthest: Option<(usize, anyhow::Error)> = None;
    let mut pick: Option<u8> = None;
    while i < moves.len() {
        let m = moves[i];
        let legal = match pick.take() {
            Some(n) => vec![n],
            None => legal_counts(&b, &m, &mut checks),
        };
        let tried = StepMove {
            count: Some(legal.first().copied().unwrap_or(1)),
            ..m
        };
        let mut next = b.clone();
        match apply_checked(&mut next, &tried) {
            Ok(_) => {
                if legal.len() > 1 {
                    choices.push(Choice {
                        step: i,
                        board: b.clone(),
                        rest: legal[1..].iter().rev().copied().collect(),
                    });
                }
                out.push(tried);
                (b, i) = (next, i + 1);
                continue;
            }
            Err(reason) => {
                if furthest.as_ref().is_none_or(|(f, _)| i > *f) {
                    furthest = Some((i, illegal(i, &m, reason, &b)));
                }
            }
        }
        // Back to the latest choice point with a count left, or give up.
        let fail = |f: Option<(usize, anyhow::Error)>| f.expect("an error was noted").1;
        loop {
            let Some(c) = choices.last_mut() else {
                return Err(fail(furthest));
            };
            if checks >= SETTLE_BUDGET {
                return Err(fail(furthest));
            }
            match c.rest.pop() {
                Some(n) => {
                    (i, b, pick) = (c.step, c.board.clone(), Some(n));
                    if c.rest.is_empty() {
                        choices.pop();
                    }
                    out.truncate(i);
                    break;
                }
                None => {
                    choices.pop();
                }
            }
        }
    }
    let guessed = guessed_steps(start, moves, &out);
    Ok((out, guessed))
}

/// Every legal count for `m` on `b`, longest first (its own count if it has one; none when
/// no count is legal).
fn legal_counts(b: &Board, m: &StepMove, checks: &mut usize) -> Vec<u8> {
    if let Some(n) = m.count {
        return vec![n];
    }
    let Loc::Cascade(c) = m.from else {
        return vec![1];
    };
    let height = b.cascades.get(c as usize).map_or(0, Vec::len);
    (1..=height.min(u8::MAX as usize) as u8)
        .rev()
        .filter(|&n| {
            *checks += 1;
            let mut t = b.clone();
            apply_checked(
                &mut t,
                &StepMove {
                    count: Some(n),
                    ..*m
                },
            )
            .is_ok()
        })
        .collect()
}

/// The steps (1-based) of `moves` whose open count had more than one legal reading,
/// replaying the settled moves `fixed`.
fn guessed_steps(start: &Board, moves: &[StepMove], fixed: &[StepMove]) -> Vec<usize> {
    let mut b = start.clone();
    let mut out = Vec::new();
    let mut checks = 0;
    for (i, (m, f)) in moves.iter().zip(fixed).enumerate() {
        if m.count.is_none() && legal_counts(&b, m, &mut checks).len() > 1 {
            out.push(i + 1);
        }
        let _ = apply_checked(&mut b, f);
    }
    out
}

/// The deepest card `count` cards from `from` would move on `b`, if there are that many.
pub fn moved_card(b: &Board, from: Loc, count: u8) -> Option<fcauto_deals::Card> {
    match from {
        Loc::Cascade(i) => {
            let col = b.cascades.get(i as usize)?;
            col.len()
                .checked_sub(count as usize)
                .and_then(|k| col.get(k))
                .copied()
        }
        Loc::Freecell(j) => *b.freecells.get(j as usize)?,
        Loc::Foundation => None,
    }
}

/// `moves` from `start` as standard-notation tokens, one per move, written by
/// [`Solution::to_standard`] (the one writer of the notation).
pub fn standard_tokens(start: &Board, moves: &[PlayedMove]) -> Vec<String> {
    if moves.is_empty() {
        return Vec::new();
    }
    Solution {
        deal: None,
        board: start.clone(),
        moves: moves.to_vec(),
    }
    .to_standard()
    .split_whitespace()
    .map(str::to_string)
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_solver::parse_standard;

    #[test]
    fn an_illegal_move_is_named_by_step() {
        let b = fcauto_deals::ms_deal(617).unwrap();
        let moves = parse_standard("3a 3b 3c 3d 3h").unwrap();
        let e = replay(&b, &moves).unwrap_err().to_string();
        assert!(e.contains("step 5") || e.contains("step 4"), "{e}");
    }

    #[test]
    fn positions_follow_the_moves() {
        let b = fcauto_deals::ms_deal(617).unwrap();
        let moves = parse_standard("3a 3b").unwrap();
        let r = replay(&b, &moves).unwrap();
        assert_eq!(r.positions.len(), 3);
        assert_eq!(r.notation, ["3a", "3b"]);
        assert!(r.positions[2].freecells[1].is_some());
    }
}
