//! Freecell Solver (`fc-solve`, package freecell-solver-bin) as an independent second solver.

use fcauto_deals::Board;
use fcauto_solver::{parse_fcs_output, FcsVerdict, PlayedMove};

use super::display::{forget_temp_dir, remove_on_interrupt};
use super::plan::played_moves;
use super::GuiError;
use crate::fcsolve::FcSolveError;

/// Most positions fc-solve checks ([`solve`]'s `-mi`, as `solve --cross-check` gives it): its
/// `lg` scan is not complete, and on the hardest deals (94717719) it would run for minutes
/// before giving up; with this limit it stops after about 10 s.
pub const FCSOLVE_MAX_ITERS: &str = "2000000";

/// Run `fc-solve -p -t -sam -l lg -mi` [`FCSOLVE_MAX_ITERS`] on `board` (its fc-solve state
/// text in a temporary file, by [`crate::fcsolve`]), killed if fcauto ends first (`tied`:
/// an interrupted `play` leaves no fc-solve running, and no board file). Returns fc-solve's full output and its moves, read by the
/// solver's fc-solve reader ([`parse_fcs_output`]) and given their cards by
/// [`played_moves`].
/// Errors: fc-solve missing (names the setup script), unsolved (its output kept in
/// [`Unsolved`]), or unreadable output.
pub fn solve(board: &Board) -> Result<(String, Vec<PlayedMove>), GuiError> {
    solve_or_output(board).map_err(|e| match e {
        Unsolved::Error(e) => e,
        Unsolved::NoSolution { verdict, .. } => GuiError::Solver(format!(
            "fc-solve found no solution for this board ({verdict})"
        )),
    })
}

/// Why [`solve_or_output`] has no moves.
pub enum Unsolved {
    /// fc-solve ran and found none: its verdict and full output.
    NoSolution {
        /// Its verdict (not solved, or stopped by its limit).
        verdict: FcsVerdict,
        /// Its output.
        output: String,
    },
    /// It could not be run or read.
    Error(GuiError),
}

/// [`solve`], keeping fc-solve's output when it finds no solution (for a caller that plays
/// fcauto's validated solution and keeps fc-solve's as a check).
pub fn solve_or_output(board: &Board) -> Result<(String, Vec<PlayedMove>), Unsolved> {
    let fail = |e| Unsolved::Error(e);
    let flags = ["-p", "-t", "-sam", "-l", "lg", "-mi", FCSOLVE_MAX_ITERS];
    let programs = crate::fcsolve::Programs::on_path();
    let mut board_file = None;
    let tie = |command: &mut std::process::Command, file: &std::path::Path| {
        tied(command);
        // An interrupted run removes the board file too (its owner's drop would have).
        remove_on_interrupt(file);
        board_file = Some(file.to_path_buf());
    };
    let out = crate::fcsolve::run_text_prepared(&programs, &board.fcs_input_text(), &flags, tie);
    if let Some(file) = board_file {
        forget_temp_dir(&file);
    }
    let out = out
        .map_err(|e| {
            GuiError::Solver(match e {
                FcSolveError::BoardFile(e) => format!("fc-solve's board file: {e}"),
                FcSolveError::NotRun(e) => {
                    format!("cannot run fc-solve: {e} (install it with scripts/setup-deps.sh)")
                }
                FcSolveError::Wait(e) => format!("fc-solve: {e}"),
                other => format!("fc-solve: {other}"),
            })
        })
        .map_err(fail)?;
    let text = out.stdout;
    let (verdict, steps) = parse_fcs_output(&text)
        .map_err(|e| GuiError::Solver(format!("fc-solve output: {e}")))
        .map_err(fail)?;
    if verdict != FcsVerdict::Solved {
        return Err(Unsolved::NoSolution {
            verdict,
            output: text,
        });
    }
    let moves = played_moves(board, &steps)
        .map_err(|e| GuiError::Solver(format!("fc-solve's solution: {e}")))
        .map_err(fail)?;
    Ok((text, moves))
}

/// Solve `board` with fcauto's own solver (`Mode::Short` within its default state budget)
/// through the one validated solve ([`solve_checked`](fcauto_solver::solve_checked)): its solution is replayed by the
/// validator before it is played.
/// Errors: no solution found, or one the validator rejects.
pub fn solve_native(board: &Board) -> Result<Vec<PlayedMove>, GuiError> {
    use fcauto_solver::{solve_checked, Mode, Outcome};
    let (outcome, _) = solve_checked(None, board, Mode::Short, None)
        .map_err(|e| GuiError::Solver(format!("fcauto solver: {e}")))?;
    match outcome {
        Outcome::Solved(c) => Ok(c.solution.moves),
        Outcome::Unsolvable => Err(GuiError::Solver(NO_SOLUTION.into())),
        Outcome::Unknown(why) => Err(GuiError::Solver(format!("fcauto solver gave up: {why}"))),
    }
}

/// The plan to play: fcauto's own solver ([`solve_native`]); if it fails or panics, fc-solve's
/// solution instead. Returns the moves, the tool that produced them, and the native solver's
/// failure (if any) so callers can report it.
pub fn plan(board: &Board) -> Result<(Vec<PlayedMove>, &'static str, Option<String>), GuiError> {
    let native = std::panic::catch_unwind(|| solve_native(board)).unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(GuiError::Solver(format!("fcauto solver panicked: {msg}")))
    });
    match native {
        Ok(m) => Ok((m, NATIVE_TOOL, None)),
        // A proof: no other solver can do better, and there is nothing to play (fc-solve is
        // not run after it, so the error named is this one, not fc-solve's failure).
        Err(GuiError::Solver(why)) if why == NO_SOLUTION => Err(GuiError::Solver(why)),
        Err(e) => {
            let (_, m) = solve(board)?;
            Ok((m, FCSOLVE_TOOL, Some(e.to_string())))
        }
    }
}

/// [`solve_native`]'s error for a board its complete search proves unsolvable.
const NO_SOLUTION: &str =
    "fcauto's complete search proves this board has no solution: there is nothing to play";

/// Tool name recorded in `channels.json` for fcauto's solver (the program; its library
/// is fcauto-solver).
pub const NATIVE_TOOL: &str = "fcauto";
/// Tool name recorded in `channels.json` for Freecell Solver.
pub const FCSOLVE_TOOL: &str = "fc-solve";

/// Have the kernel kill the command's process (SIGKILL) when the thread that starts it ends
/// (`prctl(PR_SET_PDEATHSIG)`): `play` starts fc-solve on its main thread, which ends only
/// with the process, so fc-solve does not outlive a `play` that a signal ended.
fn tied(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: only prctl(2), which is async-signal-safe, runs between fork and exec.
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
}
