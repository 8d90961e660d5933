//! One deal solved for a batch database: its [`ResultRow`], the solution validated and
//! written in standard notation on one line. Standard FreeCell is solved by the fast solver
//! ([`solve_checked`]); the other games of the family by the family search
//! ([`solve_family`]: its solutions pass the family's validator, and "unsolvable" is a
//! complete search's proof), in the modes `solve --game` offers for the game (the optimal
//! modes included: [`Variant::family_mode`]).

use super::schema::{ResultRow, Settings};
use crate::bench::rusage::thread_cpu_ms;
use crate::bench::variant::Variant;
use anyhow::{Context, Result};
use fcauto_solver::family::{solve_family, FamilyOutcome};
use fcauto_solver::{solve_checked, Mode, Outcome};

/// Solve and validate deal `deal` under `settings` (its game, in `mode`, within
/// `max_states` positions: the mode's budget when `None`); the row to store, timed by the
/// calling thread's CPU clock.
///
/// # Errors
/// A deal number out of range, a mode the family search does not have, or a solution the
/// validator rejected (a solver bug).
pub fn solve_row(
    deal: u64,
    settings: &Settings,
    mode: Mode,
    max_states: Option<usize>,
) -> Result<ResultRow> {
    let cpu0 = thread_cpu_ms();
    let mut row = ResultRow {
        deal,
        verdict: "unknown",
        moves_total: None,
        single_card_moves: None,
        solution: None,
        stopped_by: None,
        positions: 0,
        cpu_ms: 0.0,
    };
    if settings.variant.is_standard() {
        solve_standard(&mut row, &settings.variant, mode, max_states)?;
    } else {
        solve_in_family(&mut row, &settings.variant, mode, max_states)?;
    }
    row.cpu_ms = thread_cpu_ms() - cpu0;
    Ok(row)
}

/// [`solve_row`] for standard FreeCell: deal `row.deal` of `variant` (Microsoft's, or from
/// 32000 on with PySolFC's numbers the Mersenne Twister's).
fn solve_standard(
    row: &mut ResultRow,
    variant: &Variant,
    mode: Mode,
    max_states: Option<usize>,
) -> Result<()> {
    let deal = row.deal;
    let board = variant.standard_board(deal)?;
    let named = variant.is_microsoft_deal(deal).then_some(deal);
    let (out, stats) =
        solve_checked(named, &board, mode, max_states).with_context(|| format!("deal {deal}"))?;
    row.positions = stats.expanded;
    match out {
        Outcome::Solved(c) => {
            row.verdict = "solved";
            row.moves_total = Some(c.moves_total as u32);
            row.single_card_moves = Some(c.single_card_moves as u32);
            // One line: to_standard's line breaks (ten moves a line) become spaces.
            row.solution = Some(c.solution.to_standard().trim_end().replace('\n', " "));
        }
        Outcome::Unsolvable => row.verdict = "unsolvable",
        Outcome::Unknown(why) => row.stopped_by = Some(why.to_string()),
    }
    Ok(())
}

/// [`solve_row`] for the other games of the family, in any mode the game is solved in
/// ([`Variant::family_mode`], as `solve --game` decides it): positions are those the
/// best-first tries stored and the complete search visited (the A*'s stored positions in
/// the optimal modes); `moves_total` the solution's moves (in `optimal`, which plays single
/// cards only, its single-card count), and no single-card count stored.
fn solve_in_family(
    row: &mut ResultRow,
    variant: &Variant,
    mode: Mode,
    max_states: Option<usize>,
) -> Result<()> {
    let deal = row.deal;
    let mode = variant.family_mode(mode).map_err(anyhow::Error::msg)?;
    let layout = variant
        .layout(deal)
        .with_context(|| format!("deal {deal}"))?;
    let (out, stats) = solve_family(&layout, &variant.rules, mode, max_states)
        .with_context(|| format!("deal {deal}"))?;
    row.positions = (stats.best_first + stats.complete) as u64;
    match out {
        FamilyOutcome::Solved(s) => {
            row.verdict = "solved";
            row.moves_total = Some(s.moves.len() as u32);
            row.solution = Some(s.tokens.join(" "));
        }
        FamilyOutcome::Unsolvable => row.verdict = "unsolvable",
        FamilyOutcome::Unknown(why) => row.stopped_by = Some(why.to_string()),
    }
    Ok(())
}
