//! The plan the replay plays, in fcauto-solver's own types ([`PlayedMove`], [`Solution`]):
//! a move applied to a [`Board`] by the solver's validator, fc-solve's moves given their
//! cards, and `solution.json` written by the solver's one writer
//! ([`Solution::to_json_text`]), so `fcauto play` and `fcauto solve --format json` cannot
//! disagree. No GUI crate is needed here.

use fcauto_deals::{Board, Card, Layout as Position, Rules};
use fcauto_solver::family::validator::play_checked;
use fcauto_solver::family::{FamilyMove, Place};
use fcauto_solver::validator::apply_checked;
use fcauto_solver::{Loc, Move, PlayedMove, Solution, StepMove};

use super::GuiError;

/// The card `m` would move on `board` (the deepest of a run; a missing count is 1), or
/// `None` when its source does not hold that many cards.
pub fn moved_card(board: &Board, m: &StepMove) -> Option<Card> {
    match m.from {
        Loc::Cascade(i) => {
            let col = board.cascades.get(i as usize)?;
            let k = col.len().checked_sub(m.count.unwrap_or(1) as usize)?;
            col.get(k).copied()
        }
        Loc::Freecell(j) => board.freecells.get(j as usize).copied().flatten(),
        Loc::Foundation => None,
    }
}

/// The validator's form of a planned move (count and card both given, so both are checked).
pub fn step_move(m: &PlayedMove) -> StepMove {
    StepMove {
        from: m.mv.from,
        to: m.mv.to,
        count: Some(m.mv.count),
        card: Some(m.card),
    }
}

/// Apply planned move number `step` (1-based, for the message) to `board`, checked by the
/// solver's validator. Errors: [`GuiError::Replay`] naming the broken rule.
pub fn apply(board: &mut Board, step: usize, m: &PlayedMove) -> Result<(), GuiError> {
    apply_checked(board, &step_move(m))
        .map(drop)
        .map_err(|why| {
            GuiError::Replay(format!(
                "step {step} ({}): illegal move: {why}",
                m.mv.notation()
            ))
        })
}

/// The family's place of a location (the same cascade, freecell or foundation).
pub fn place(loc: Loc) -> Place {
    match loc {
        Loc::Cascade(i) => Place::Cascade(i),
        Loc::Freecell(j) => Place::Freecell(j),
        Loc::Foundation => Place::Foundation,
    }
}

/// The location of a family place.
pub fn loc(place: Place) -> Loc {
    match place {
        Place::Cascade(i) => Loc::Cascade(i),
        Place::Freecell(j) => Loc::Freecell(j),
        Place::Foundation => Loc::Foundation,
    }
}

/// A planned move as the family's validator takes it.
pub fn family_move(m: &PlayedMove) -> FamilyMove {
    FamilyMove {
        from: place(m.mv.from),
        to: place(m.mv.to),
        count: m.mv.count,
    }
}

/// A location's character in standard notation for any game of the family (`1`..`9`, `0`
/// for Seahaven Towers' tenth cascade, `a`..`g` and `i` for Eight Off's eighth freecell,
/// `h`): FreeCell's own for FreeCell's places.
pub fn place_char(loc: Loc) -> char {
    place(loc).notation_char()
}

/// A planned move's text: from and to in standard notation (`38`, `0a`, `ih`).
pub fn notation(m: &PlayedMove) -> String {
    format!("{}{}", place_char(m.mv.from), place_char(m.mv.to))
}

/// The card `m` would move on a position of any game (the deepest of a run).
fn moved_card_in(pos: &Position, m: &FamilyMove) -> Option<Card> {
    match m.from {
        Place::Cascade(i) => {
            let col = pos.cascades.get(i as usize)?;
            col.get(col.len().checked_sub(m.count as usize)?).copied()
        }
        Place::Freecell(j) => pos.freecells.get(j as usize).copied().flatten(),
        Place::Foundation => None,
    }
}

/// Apply planned move number `step` to a position of any game under `rules`: standard
/// FreeCell's by [`apply`] (FreeCell's validator and messages), the others by the family's
/// validator, after checking that the move takes the planned card.
pub fn apply_rules(
    pos: &mut Position,
    rules: &Rules,
    step: usize,
    m: &PlayedMove,
) -> Result<(), GuiError> {
    if let Some(mut board) = rules.is_standard().then(|| pos.to_board()).flatten() {
        apply(&mut board, step, m)?;
        *pos = Position::from_board(&board, pos.freecells.len());
        return Ok(());
    }
    let fm = family_move(m);
    let illegal = |why: String| {
        GuiError::Replay(format!(
            "step {step} ({}): illegal move: {why}",
            notation(m)
        ))
    };
    match moved_card_in(pos, &fm) {
        Some(c) if c == m.card => {}
        other => {
            return Err(illegal(format!(
                "it takes {} there, not {}",
                other.map_or("nothing".to_string(), |c| c.to_string()),
                m.card
            )))
        }
    }
    play_checked(pos, rules, &fm).map_err(illegal)
}

/// The family solver's moves given their cards (the deepest card of each run), replayed
/// from `start` under `rules` by the family's validator. Errors: the first illegal move.
pub fn family_played(
    start: &Position,
    rules: &Rules,
    moves: &[FamilyMove],
) -> Result<Vec<PlayedMove>, String> {
    let mut pos = start.clone();
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let card = moved_card_in(&pos, m).ok_or_else(|| {
                format!("step {} ({}): nothing to move there", i + 1, m.notation())
            })?;
            play_checked(&mut pos, rules, m)
                .map_err(|why| format!("step {} ({}): illegal move: {why}", i + 1, m.notation()))?;
            Ok(PlayedMove {
                mv: Move {
                    from: loc(m.from),
                    to: loc(m.to),
                    count: m.count,
                },
                card,
            })
        })
        .collect()
}

/// Give moves that name no card (fc-solve's move lines, as
/// [`fcauto_solver::parse_fcs_output`] reads them) their cards by replaying them from
/// `start`, each checked by the validator. Errors: the first illegal move, named.
pub fn played_moves(start: &Board, steps: &[StepMove]) -> Result<Vec<PlayedMove>, String> {
    let mut board = start.clone();
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let notation = format!("{}{}", s.from.notation(), s.to.notation());
            let card = moved_card(&board, s)
                .ok_or_else(|| format!("step {} ({notation}): nothing to move there", i + 1))?;
            apply_checked(&mut board, s)
                .map_err(|why| format!("step {} ({notation}): illegal move: {why}", i + 1))?;
            Ok(PlayedMove {
                mv: Move {
                    from: s.from,
                    to: s.to,
                    count: s.count.unwrap_or(1),
                },
                card,
            })
        })
        .collect()
}

/// `solution.json`'s text for `plan` from `board`: exactly what `fcauto solve --format json`
/// prints for the same moves ([`Solution::to_json_text`], counts from the validator).
/// Errors: [`GuiError::Solver`] when the plan does not win from `board`.
pub fn solution_json(
    deal: Option<u64>,
    board: &Board,
    plan: &[PlayedMove],
) -> Result<String, GuiError> {
    Solution {
        deal,
        board: board.clone(),
        moves: plan.to_vec(),
    }
    .to_json_text()
    .map_err(|e| GuiError::Solver(format!("the plan does not validate: {e}")))
}

/// The JSON `kind` of a planned move (`other` for a combination FreeCell does not have,
/// which the validator never lets through).
pub fn kind_name(m: &PlayedMove) -> &'static str {
    m.mv.kind().map(|k| k.name()).unwrap_or("other")
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::ms_deal;

    fn step(from: Loc, to: Loc) -> StepMove {
        StepMove {
            from,
            to,
            count: Some(1),
            card: None,
        }
    }

    #[test]
    fn illegal_foundation_move_is_rejected_and_a_legal_one_applies() {
        let mut b = ms_deal(617).unwrap();
        // the top of cascade 1 in deal 617 is JD: not an ace
        let jd: Card = "JD".parse().unwrap();
        let home = PlayedMove {
            mv: Move {
                from: Loc::Cascade(0),
                to: Loc::Foundation,
                count: 1,
            },
            card: jd,
        };
        let e = apply(&mut b.clone(), 1, &home).unwrap_err().to_string();
        assert!(
            e.contains("step 1 (1h)") && e.contains("JD cannot go home"),
            "{e}"
        );
        let to_cell = PlayedMove {
            mv: Move {
                to: Loc::Freecell(2),
                ..home.mv
            },
            card: jd,
        };
        apply(&mut b, 1, &to_cell).unwrap();
        assert_eq!(b.freecells[2], Some(jd));
    }

    #[test]
    fn fcsolve_moves_get_their_cards() {
        let b = ms_deal(617).unwrap();
        let steps = [
            step(Loc::Cascade(6), Loc::Freecell(0)),
            step(Loc::Cascade(6), Loc::Freecell(1)),
            step(Loc::Cascade(6), Loc::Freecell(2)),
        ];
        let moves = played_moves(&b, &steps).unwrap();
        // deal 617: cascade 7 is 2D AS 3D 4D 2C JH
        let got: Vec<(&str, String, String)> = moves
            .iter()
            .map(|m| (kind_name(m), m.mv.notation(), m.card.to_string()))
            .collect();
        assert_eq!(
            got,
            [
                ("stack_to_freecell", "7a".to_string(), "JH".to_string()),
                ("stack_to_freecell", "7b".to_string(), "2C".to_string()),
                ("stack_to_freecell", "7c".to_string(), "4D".to_string()),
            ]
        );
        let e = played_moves(&b, &[step(Loc::Cascade(0), Loc::Foundation)]).unwrap_err();
        assert!(
            e.contains("step 1 (1h)") && e.contains("JD cannot go home"),
            "{e}"
        );
        let e = played_moves(&b, &[step(Loc::Freecell(0), Loc::Cascade(1))]).unwrap_err();
        assert!(e.contains("nothing to move"), "{e}");
    }

    #[test]
    fn fc_solve_solution_for_617_wins_when_applied() {
        let b = ms_deal(617).unwrap();
        let (raw, moves) =
            crate::gui::fcsolve::solve(&b).expect("fc-solve installed (scripts/setup-deps.sh)");
        assert!(raw.contains("This game is solveable."));
        let mut x = b.clone();
        for (i, m) in moves.iter().enumerate() {
            apply(&mut x, i + 1, m).unwrap();
        }
        assert!(x.is_won());
        let text = solution_json(Some(617), &b, &moves).unwrap();
        assert!(text.ends_with("}\n"));
        assert!(solution_json(Some(617), &b, &moves[..moves.len() - 1]).is_err());
    }
}
