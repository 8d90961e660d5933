//! `--cross-check` on the command line: the cross-check itself (fc-solve on the same board,
//! its solution replayed by our validator, the verdicts compared) is
//! [`fcauto_engine::crosscheck`]; this module prints what it found on standard error, one
//! `cross-check: ` line each.

use anyhow::Result;
use fcauto_deals::{Board, Game, Layout, Rules};
use fcauto_engine::crosscheck::{self, CrossCheck};
use fcauto_solver::family::FamilyOutcome;

/// `--cross-check` of standard FreeCell ([`crosscheck::cross_check`]: `ours` is our move
/// count when we solved it, `ours_unsolvable` whether we proved it unsolvable), printed;
/// false when the verdicts contradict each other or we stopped at our limit.
///
/// # Errors
/// fc-solve is missing (install the Debian package `freecell-solver-bin`, e.g. with
/// `scripts/setup-deps.sh`), fails to run, or prints no verdict.
pub fn cross_check(board: &Board, ours: Option<usize>, ours_unsolvable: bool) -> Result<bool> {
    Ok(print(&crosscheck::cross_check(
        board,
        ours,
        ours_unsolvable,
    )?))
}

/// `--cross-check` of a game of the family ([`crosscheck::cross_check_family`]): our
/// verdict printed first, then what fc-solve's scans said and the comparison; false when
/// the verdicts contradict each other or we stopped at our limit.
///
/// # Errors
/// fc-solve is missing or fails to run, or prints no verdict.
pub fn cross_check_family(
    game: &Game,
    rules: &Rules,
    layout: &Layout,
    outcome: &FamilyOutcome,
) -> Result<bool> {
    crate::note!("cross-check: {}", crosscheck::family_ours(outcome));
    Ok(print(&crosscheck::cross_check_family(
        game, rules, layout, outcome,
    )?))
}

/// Print `found`'s lines and its outcome; whether it agreed.
fn print(found: &CrossCheck) -> bool {
    for line in &found.lines {
        crate::note!("cross-check: {line}");
    }
    crate::note!("cross-check: {}", found.outcome);
    found.agreed
}
