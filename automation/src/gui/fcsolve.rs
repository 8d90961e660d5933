//! Freecell Solver (`fc-solve`, package freecell-solver-bin) as an independent second solver.

use std::io::Write;
use std::process::{Command, Stdio};

use fcauto_deals::Board;

use super::model::{parse_fcsolve_moves, Move};
use super::GuiError;

/// Run `fc-solve -p -t -sam -l lg` on `board` (its fc-solve state text on stdin).
/// Returns fc-solve's full output and its moves converted to the JSON contract.
/// Errors: fc-solve missing (names the setup script), unsolved, or unparsable output.
pub fn solve(board: &Board) -> Result<(String, Vec<Move>), GuiError> {
    let mut child = Command::new("fc-solve")
        .args(["-p", "-t", "-sam", "-l", "lg"])
        .env("FREECELL_SOLVER_QUIET", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            GuiError::Solver(format!(
                "cannot run fc-solve: {e} (install it with scripts/setup-deps.sh)"
            ))
        })?;
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(board.fcs_input_text().as_bytes())
        .map_err(|e| GuiError::Solver(format!("fc-solve stdin: {e}")))?;
    let out = child
        .wait_with_output()
        .map_err(|e| GuiError::Solver(format!("fc-solve: {e}")))?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if !text.contains("This game is solveable.") {
        return Err(GuiError::Solver(
            "fc-solve found no solution for this board".into(),
        ));
    }
    let moves = parse_fcsolve_moves(&text, board).map_err(|e| GuiError::Solver(e.to_string()))?;
    Ok((text, moves))
}

/// Solve `board` with fcauto's own solver (library call, `Mode::Short`) and return the moves
/// in the JSON contract, each re-checked by [`super::model::apply`].
/// Errors: no solution within the solver's default state budget.
#[cfg(feature = "gui")]
pub fn solve_native(board: &Board) -> Result<Vec<Move>, GuiError> {
    use super::model::{make_move, Loc};
    use fcauto_solver::{Limits, Mode, Verdict};
    let mode = Mode::Short;
    let res = fcauto_solver::solve(
        board,
        mode,
        Limits {
            max_states: mode.default_max_states(),
        },
    );
    let played = match res.verdict {
        Verdict::Solved(p) => p,
        Verdict::Unsolvable => {
            return Err(GuiError::Solver(
                "fcauto solver: this board has no solution".into(),
            ))
        }
        Verdict::Unknown(why) => {
            return Err(GuiError::Solver(format!("fcauto solver gave up: {why}")))
        }
    };
    let conv = |l: fcauto_solver::Loc| match l {
        fcauto_solver::Loc::Cascade(i) => Loc::Cascade(i as usize),
        fcauto_solver::Loc::Freecell(i) => Loc::Freecell(i as usize),
        fcauto_solver::Loc::Foundation => Loc::Foundation,
    };
    let mut b = board.clone();
    played
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let m = make_move(
                &mut b,
                i + 1,
                conv(p.mv.from),
                conv(p.mv.to),
                p.mv.count as usize,
            )
            .map_err(|e| GuiError::Solver(format!("fcauto solver move rejected: {e}")))?;
            if m.card != p.card.to_string() {
                return Err(GuiError::Solver(format!(
                    "step {}: solver says {} but {} moves",
                    i + 1,
                    p.card,
                    m.card
                )));
            }
            Ok(m)
        })
        .collect()
}

/// The plan to play: fcauto's own solver ([`solve_native`]); if it fails or panics, fc-solve's
/// solution instead. Returns the moves, the tool that produced them, and the native solver's
/// failure (if any) so callers can report it.
#[cfg(feature = "gui")]
pub fn plan(board: &Board) -> Result<(Vec<Move>, &'static str, Option<String>), GuiError> {
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
        Err(e) => {
            let (_, m) = solve(board)?;
            Ok((m, FCSOLVE_TOOL, Some(e.to_string())))
        }
    }
}

/// Tool name recorded in `channels.json` for fcauto's solver.
pub const NATIVE_TOOL: &str = "fcauto_solver::solve";
/// Tool name recorded in `channels.json` for Freecell Solver.
pub const FCSOLVE_TOOL: &str = "fc-solve";
