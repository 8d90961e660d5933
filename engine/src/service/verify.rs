//! [`verify`]: a solution's verdict from a position.

use super::{ServiceError, MAX_SOLUTION_BYTES};
use fcauto_deals::Board;
use serde::Serialize;

/// What [`verify`] answers: the validator's verdict on a solution.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct VerifyOut {
    /// The solution wins from the position, every move legal.
    pub valid: bool,
    /// Moves (supermove = 1), when valid.
    pub moves_total: Option<usize>,
    /// Single-card moves, when valid.
    pub single_card_moves: Option<usize>,
    /// Why not, when invalid (the step and the broken rule).
    pub error: Option<String>,
}

/// `verify`: replay a solution in standard notation (`solve`'s output; counts of runs may
/// be left out; an annotated game's comments, move numbers and marks read past, as the
/// command line's `verify` reads them: [`fcauto_solver::annotated`]) from `b` with the
/// validator. A solution that names its own start (`# start:`) must name `b`.
pub fn verify(b: &Board, solution: &str) -> Result<VerifyOut, ServiceError> {
    if solution.len() > MAX_SOLUTION_BYTES {
        return Err(ServiceError::too_large(format!(
            "a solution is at most {MAX_SOLUTION_BYTES} bytes"
        )));
    }
    // JSON (`solve --format json`'s output) is no standard notation: said so, rather than
    // read as a `{...}` comment (an empty move list would then "win" a won position).
    if serde_json::from_str::<serde_json::Value>(solution).is_ok_and(|v| v.is_object()) {
        return Err(ServiceError::impossible(
            "the solution is JSON: send standard notation (the `standard` field of a solve's \
             answer, or `solve --format standard`'s output)"
                .to_string(),
        ));
    }
    let annotated = fcauto_solver::annotated::strip_annotations(solution);
    if let Some(problem) = annotated.problem {
        return Err(ServiceError::impossible(format!(
            "not standard notation: {problem}"
        )));
    }
    // The position as fcauto reads it, then (if its freecells have gaps) as fc-solve numbers
    // them: standard notation from fc-solve names its freecells so.
    let boards = fcauto_solver::fc_solve_numberings(b, &[]);
    if let Some((deal, own)) = &annotated.start {
        if !boards.contains(own) {
            return Err(ServiceError::impossible(format!(
                "the solution names its own start ({}), and the position given is another",
                deal.map_or("a position".to_string(), |n| format!("deal {n}"))
            )));
        }
    }
    // A position printed before the first move (fc-solve's `-p -t` block) is a start the
    // solution names too: checked as a `# start:` line is.
    let printed = fcauto_solver::parse_fcs_states(solution)
        .map_err(|e| ServiceError::impossible(format!("not standard notation: {e}")))?;
    if let Some((_, own)) = printed.iter().find(|(before, _)| *before == 0) {
        if !boards.contains(own) {
            return Err(ServiceError::impossible(
                "the solution prints its own start (fc-solve's first position), and the position given is another"
                    .to_string(),
            ));
        }
    }
    let moves = fcauto_solver::parse_standard(&annotated.moves)
        .map_err(|e| ServiceError::impossible(format!("not standard notation: {e}")))?;
    let invalid = |e: String| VerifyOut {
        valid: false,
        moves_total: None,
        single_card_moves: None,
        error: Some(e),
    };
    // The first numbering on which the moves are a valid game; else the first's answer.
    let attempts: Vec<_> = boards
        .iter()
        .map(|b| (b, fcauto_solver::resolve_counts(b, &moves)))
        .collect();
    let chosen = attempts
        .iter()
        .find(|(b, r)| {
            r.as_ref()
                .is_ok_and(|m| fcauto_solver::validate(b, m).is_ok())
        })
        .unwrap_or(&attempts[0]);
    let (b, moves) = match chosen {
        (b, Ok(m)) => (*b, m),
        (_, Err(e)) => return Ok(invalid(e.to_string())),
    };
    Ok(match fcauto_solver::validate(b, moves) {
        Ok(v) => VerifyOut {
            valid: true,
            moves_total: Some(v.moves_total),
            single_card_moves: Some(v.single_card_moves),
            error: None,
        },
        Err(e) => invalid(e.to_string()),
    })
}
