//! Running Freecell Solver (`fc-solve`) from tests, as the independent check of a verdict.

use fcauto_deals::Board;
use std::io::Write;
use std::process::{Command, Stdio};

/// `fc-solve ARGS -` on `board` (its board text on standard input, `FREECELL_SOLVER_QUIET`
/// set); returns its standard output. Panics when fc-solve cannot run (the tests that call
/// it check for it first).
pub fn fc_solve(board: &Board, args: &[&str]) -> String {
    let mut child = Command::new("fc-solve")
        .args(args)
        .arg("-")
        .env("FREECELL_SOLVER_QUIET", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("fc-solve runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(board.fcs_input_text().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}
