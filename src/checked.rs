//! Solving a board and validating the solution: the one entry every solution printed, stored
//! or served goes through (ARCHITECTURE's invariant 2), below both the subcommands (`cmd`)
//! and the service, which share it.

use anyhow::{Context, Result};
use fcauto_deals::Board;
use fcauto_solver::{solve, validate, Limits, Mode, Solution, Verdict};

/// Search modes (see `fcauto solve --help`).
#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
pub enum ModeArg {
    /// First solution found: fastest.
    Fast,
    /// Short solutions at practical speed.
    Short,
    /// Proven minimum number of single-card moves (A*), within --max-states.
    Optimal,
    /// Proven minimum number of moves with a sequence move counted as one (A*), within
    /// --max-states: how Paul & Helmert count their published optimal lengths.
    OptimalMoves,
    /// optimal-moves in Paul & Helmert's stricter move model (a sequence move into an empty
    /// cascade carries at most free freecells + 1 cards): reproduces their published table.
    OptimalPh,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Fast => Mode::Fast,
            ModeArg::Short => Mode::Short,
            ModeArg::Optimal => Mode::Optimal,
            ModeArg::OptimalMoves => Mode::OptimalMoves,
            ModeArg::OptimalPh => Mode::OptimalPh,
        }
    }
}

/// A solved board, validated.
pub struct Checked {
    /// The solution.
    pub solution: Solution,
    /// Counts from the validator.
    pub moves_total: usize,
    /// Single-card moves from the validator.
    pub single_card_moves: usize,
}

/// Outcome of solving and validating one board.
pub enum Outcome {
    /// Solved and validated.
    Solved(Checked),
    /// Proven unsolvable by an exhaustive search.
    Unsolvable,
    /// Stopped by a limit: which one.
    Unknown(fcauto_solver::StopReason),
}

/// Solve and validate; a solution the validator rejects is an error (a solver bug).
pub fn solve_checked(
    deal: Option<u64>,
    board: &Board,
    mode: Mode,
    max_states: Option<usize>,
) -> Result<(Outcome, fcauto_solver::SearchStats)> {
    let limits = Limits {
        max_states: max_states.unwrap_or(mode.default_max_states()),
    };
    fcauto_solver::state::check_capacity(board)
        .map_err(|e| anyhow::anyhow!("board not supported: {e}"))?;
    let res = solve(board, mode, limits);
    let out = match res.verdict {
        Verdict::Solved(moves) => {
            let solution = Solution {
                deal,
                board: board.clone(),
                moves,
            };
            let v = validate(board, &solution.step_moves())
                .context("internal error: the validator rejected the solver's solution")?;
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
