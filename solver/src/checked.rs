//! The one validated solve: a board searched in a mode, and a solution accepted only after the
//! independent [`validator`](crate::validator) has replayed it. Every solution fcauto prints,
//! stores, serves or plays comes from [`solve_checked`] (ARCHITECTURE's invariant 2): the
//! commands, the bench harness, the batch store, the analysis, the service and the GUI's plan.

use fcauto_deals::Board;

use crate::{
    solve, validate, Limits, Mode, SearchStats, Solution, StopReason, ValidationError, Verdict,
};

/// A solved board whose solution the validator accepted. Only [`solve_checked`] makes one
/// (`#[non_exhaustive]`: no other crate can build it by hand), so holding a `Checked` means
/// the moves were replayed by the validator's own rules.
#[non_exhaustive]
pub struct Checked {
    /// The solution.
    pub solution: Solution,
    /// Moves, a sequence move counted as one (the validator's count).
    pub moves_total: usize,
    /// Single-card moves (the validator's count).
    pub single_card_moves: usize,
}

/// The outcome of solving and validating one board.
pub enum Outcome {
    /// Solved and validated.
    Solved(Checked),
    /// Proven unsolvable by a complete search.
    Unsolvable,
    /// Stopped by a limit: which one.
    Unknown(StopReason),
}

/// Why [`solve_checked`] has no outcome.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The board is no legal position (a card twice or missing, a foundation with cards
    /// still on the table, ...): nothing is searched, so that no verdict is given on it.
    #[error("invalid board: {0}")]
    BadBoard(fcauto_deals::BoardError),
    /// The board holds a column longer than the solver's positions can hold.
    #[error("board not supported: {0}")]
    Unsupported(String),
    /// The validator refused the solver's own solution: a solver bug, never shown as a
    /// solution. (Its reason is in the message, not a source: a chain printed whole would
    /// say it twice.)
    #[error("internal error: the validator rejected the solver's solution: {0}")]
    Rejected(ValidationError),
}

impl From<ValidationError> for CheckError {
    fn from(e: ValidationError) -> CheckError {
        CheckError::Rejected(e)
    }
}

/// Solve `board` in `mode` within `max_states` positions (`None`: the mode's default) and
/// validate the solution; `deal` is the deal number the solution names, if any.
///
/// # Errors
/// [`CheckError::BadBoard`] for a board that is no legal position (checked first: a search
/// of one could "prove" it unsolvable), [`CheckError::Unsupported`] for a column too long,
/// [`CheckError::Rejected`] when the validator refuses the solver's solution.
pub fn solve_checked(
    deal: Option<u64>,
    board: &Board,
    mode: Mode,
    max_states: Option<usize>,
) -> Result<(Outcome, SearchStats), CheckError> {
    let limits = Limits {
        max_states: max_states.unwrap_or(mode.default_max_states()),
    };
    board.check().map_err(CheckError::BadBoard)?;
    crate::state::check_capacity(board).map_err(CheckError::Unsupported)?;
    let res = solve(board, mode, limits);
    let out = match res.verdict {
        Verdict::Solved(moves) => {
            let solution = Solution {
                deal,
                board: board.clone(),
                moves,
            };
            let v = validate(board, &solution.step_moves())?;
            Outcome::Solved(Checked {
                solution,
                moves_total: v.moves_total,
                single_card_moves: v.single_card_moves,
            })
        }
        Verdict::Unsolvable => Outcome::Unsolvable,
        Verdict::Unknown(why) => Outcome::Unknown(why),
    };
    Ok((out, res.stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::{ms_deal, Board};

    /// A board that is no legal position is refused before any search: a card twice, no
    /// cards at all (a search of it would "prove" it unsolvable), or all foundations full
    /// with the cards still dealt (the validator would then blame the solver).
    #[test]
    fn an_illegal_board_is_refused_before_searching() {
        let mut twice = ms_deal(1).unwrap();
        twice.cascades[1][0] = twice.cascades[0][0];
        let empty = Board::from_cascades(vec![Vec::new(); 8]);
        let mut full = ms_deal(1).unwrap();
        full.foundations = [13; 4];
        for (name, b) in [("twice", twice), ("empty", empty), ("full", full)] {
            let r = solve_checked(None, &b, Mode::Fast, Some(10_000));
            let refused = matches!(r, Err(CheckError::BadBoard(_)));
            assert!(refused, "{name}: {:?}", r.err());
        }
        let (out, _) = solve_checked(Some(1), &ms_deal(1).unwrap(), Mode::Fast, None).unwrap();
        assert!(matches!(out, Outcome::Solved(_)));
    }
}
