//! Stage 2, solve: the plan to play (fcauto's validated solve, or fc-solve's when it fails)
//! and fc-solve's own solution as an independent check.

use fcauto_deals::Board;
use fcauto_solver::PlayedMove;

use super::{log, PlayConfig};
use crate::gui::evidence::Bundle;
use crate::gui::{fcsolve, plan, GuiError};

/// [`solve`]'s output: the plan to play and what produced it.
pub(super) struct Plan {
    /// The moves, from fcauto's solver (or fc-solve's when it failed).
    pub(super) moves: Vec<PlayedMove>,
    /// `channels.json`'s tool for the plan.
    pub(super) tool: &'static str,
    /// Why fcauto's solver failed, when fc-solve's plan is played.
    pub(super) native_failure: Option<String>,
    /// Length of fc-solve's own solution (the independent check); `None` when its `lg` scan
    /// (not complete, and stopped at [`fcsolve::FCSOLVE_MAX_ITERS`]) found none while
    /// fcauto's validated plan is played.
    pub(super) fc_moves: Option<usize>,
}

/// Stage 2, solve: our solver's plan (solution.json) and fc-solve's solution as an
/// independent check (fcsolve_raw.log). `deal` is named in solution.json when `board` is
/// that deal's start (not for a resumed game's position).
pub(super) fn solve(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    board: &Board,
    deal: Option<u64>,
) -> Result<Plan, GuiError> {
    let (moves, tool, native_failure) = fcsolve::plan(board)?;
    ev.channel(0, "solver", tool);
    if let Some(why) = &native_failure {
        log(
            cfg,
            &format!("warning: {why}; playing fc-solve's solution instead"),
        );
    }
    ev.text("solution.json", &plan::solution_json(deal, board, &moves)?)?;
    ev.evidence(0, "solver", tool, "solution.json");
    // fc-solve's solution is a second opinion: its finding none stops nothing when fcauto's
    // plan is its own, validated (deal 94717719, which fcauto solves and fc-solve's lg scan
    // does not, is played).
    let (raw, fc_moves) = match fcsolve::solve_or_output(board) {
        Ok((raw, m)) => (raw, Some(m.len())),
        Err(fcsolve::Unsolved::NoSolution { verdict, output }) if native_failure.is_none() => {
            log(
                cfg,
                &format!("fc-solve found no solution ({verdict}); its lg scan is not complete"),
            );
            (output, None)
        }
        Err(fcsolve::Unsolved::NoSolution { verdict, .. }) => {
            return Err(GuiError::Solver(format!(
                "fc-solve found no solution for this board ({verdict})"
            )))
        }
        Err(fcsolve::Unsolved::Error(e)) => return Err(e),
    };
    ev.text("fcsolve_raw.log", &raw)?;
    ev.evidence(0, "fc-solve", fcsolve::FCSOLVE_TOOL, "fcsolve_raw.log");
    log(
        cfg,
        &format!(
            "deal {}: plan from {tool}: {}; fc-solve: {}",
            cfg.deal,
            crate::plural(moves.len(), "move"),
            fc_moves.map_or("none found".into(), |n| crate::plural(n, "move"))
        ),
    );
    Ok(Plan {
        moves,
        tool,
        native_failure,
        fc_moves,
    })
}

/// `channels.json`'s tool for a plan of the family's solver.
pub(super) const FAMILY_TOOL: &str = "fcauto_solver::family";

/// The family solver's plan from `pos` under `rules` (fast mode: best-first, then the
/// complete search; every solution passed the family's validator), its moves given their
/// cards. Errors: [`GuiError::Solver`] when there is no solution or the search gave up.
pub(super) fn family_plan(
    pos: &fcauto_deals::Layout,
    rules: &fcauto_deals::Rules,
) -> Result<Vec<PlayedMove>, GuiError> {
    use fcauto_solver::family::{solve_family, FamilyMode, FamilyOutcome};
    let (outcome, _) = solve_family(pos, rules, FamilyMode::Fast, None)
        .map_err(|e| GuiError::Solver(e.to_string()))?;
    match outcome {
        FamilyOutcome::Solved(s) => {
            plan::family_played(pos, rules, &s.moves).map_err(GuiError::Solver)
        }
        FamilyOutcome::Unsolvable => Err(GuiError::Solver(
            "the family solver's complete search proves this position unsolvable".into(),
        )),
        FamilyOutcome::Unknown(why) => Err(GuiError::Solver(format!(
            "the family solver gave up: {why:?}"
        ))),
    }
}

/// Stage 2 for a game of the family: the family solver's plan (solution.json in the
/// family's JSON, `fcauto solve --game G --format json`'s shape). fc-solve is not asked: the
/// family's validator is the independent check of every plan.
pub(super) fn solve_family_game(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    pos: &fcauto_deals::Layout,
) -> Result<Plan, GuiError> {
    solve_family_from(cfg, ev, pos, true)
}

/// [`solve_family_game`] from `pos`; solution.json names the game's number as its deal only
/// when `pos` is that deal's start (`dealt`), not for a resumed game's position.
pub(super) fn solve_family_from(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    pos: &fcauto_deals::Layout,
    dealt: bool,
) -> Result<Plan, GuiError> {
    let rules = &cfg.game.rules;
    let moves = family_plan(pos, rules)?;
    ev.channel(0, "solver", FAMILY_TOOL);
    let family: Vec<_> = moves.iter().map(plan::family_move).collect();
    let deal = cfg
        .number
        .filter(|_| dealt)
        .and_then(|n| u64::try_from(n.value()).ok());
    let json = fcauto_solver::family::FamilySolutionJson::new(
        cfg.game.name,
        deal,
        pos,
        rules,
        Some(true),
        &family,
    );
    ev.json("solution.json", &json)?;
    ev.evidence(0, "solver", FAMILY_TOOL, "solution.json");
    log(
        cfg,
        &format!(
            "{}: plan from {FAMILY_TOOL}: {} (validated)",
            cfg.title(),
            crate::plural(moves.len(), "move")
        ),
    );
    Ok(Plan {
        moves,
        tool: FAMILY_TOOL,
        native_failure: None,
        fc_moves: None,
    })
}
