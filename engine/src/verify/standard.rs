//! Verify for a page or an agent: a solution in standard notation (an annotated game's
//! comments, move numbers and marks read past) from a position given, answered as a verdict
//! rather than a failure when the moves are not a win.

use fcauto_deals::Board;

/// The validator's verdict on a standard-notation solution (serialized as the service's
/// `verify` answer: `valid`, `moves_total`, `single_card_moves`, `error`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StandardReport {
    /// The solution wins from the position, every move legal.
    pub valid: bool,
    /// Moves (supermove = 1), when valid.
    pub moves_total: Option<usize>,
    /// Single-card moves, when valid.
    pub single_card_moves: Option<usize>,
    /// Why not, when invalid (the step and the broken rule).
    pub error: Option<String>,
}

/// Text that is no standard-notation solution for the position given: JSON, a `{` never
/// closed, a token that is no move, a start named that is another position.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NotStandard(pub String);

/// Replay `solution` in standard notation (`solve`'s output; counts of runs may be left
/// out; an annotated game's marks read past, as the command line's `verify` reads them)
/// from `b` with the validator. A start the solution names (`# start:`, or fc-solve's
/// first printed position) must be `b` (in fcauto's or fc-solve's freecell numbering).
///
/// # Errors
/// [`NotStandard`]; moves that do not win are a [`StandardReport`] with `valid: false`.
pub fn verify_standard(b: &Board, solution: &str) -> Result<StandardReport, NotStandard> {
    let refuse = |m: String| NotStandard(m);
    // JSON (`solve --format json`'s output) is no standard notation: said so, rather than
    // read as a `{...}` comment (an empty move list would then "win" a won position).
    if serde_json::from_str::<serde_json::Value>(solution).is_ok_and(|v| v.is_object()) {
        return Err(refuse(
            "the solution is JSON: send standard notation (the `standard` field of a solve's \
             answer, or `solve --format standard`'s output)"
                .to_string(),
        ));
    }
    let annotated = fcauto_solver::annotated::strip_annotations(solution);
    if let Some(problem) = annotated.problem {
        return Err(refuse(format!("not standard notation: {problem}")));
    }
    // The position as fcauto reads it, then (if its freecells have gaps) as fc-solve numbers
    // them: standard notation from fc-solve names its freecells so.
    let boards = fcauto_solver::fc_solve_numberings(b, &[]);
    if let Some((deal, own)) = &annotated.start {
        if !boards.contains(own) {
            return Err(refuse(format!(
                "the solution names its own start ({}), and the position given is another",
                deal.map_or("a position".to_string(), |n| format!("deal {n}"))
            )));
        }
    }
    // A position printed before the first move (fc-solve's `-p -t` block) is a start the
    // solution names too, checked as a `# start:` line is.
    // (The text as sent: a tab or a byte-order mark is not tidied away here.)
    let printed = fcauto_solver::parse_fcs_states(solution)
        .map_err(|e| refuse(format!("not standard notation: {e}")))?;
    if let Some((_, own)) = printed.iter().find(|(before, _)| *before == 0) {
        if !boards.contains(own) {
            return Err(refuse(
                "the solution prints its own start (fc-solve's first position), and the position given is another"
                    .to_string(),
            ));
        }
    }
    let moves = fcauto_solver::parse_standard(&annotated.moves)
        .map_err(|e| refuse(format!("not standard notation: {e}")))?;
    Ok(replay(&boards, &moves))
}

/// The verdict on `moves` from the first numbering of the start on which they are a valid
/// game; else the first numbering's.
fn replay(boards: &[Board], moves: &[fcauto_solver::StepMove]) -> StandardReport {
    let invalid = |e: String| StandardReport {
        valid: false,
        moves_total: None,
        single_card_moves: None,
        error: Some(e),
    };
    let attempts: Vec<_> = boards
        .iter()
        .map(|b| (b, fcauto_solver::resolve_counts(b, moves)))
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
        (_, Err(e)) => return invalid(e.to_string()),
    };
    match fcauto_solver::validate(b, moves) {
        Ok(v) => StandardReport {
            valid: true,
            moves_total: Some(v.moves_total),
            single_card_moves: Some(v.single_card_moves),
            error: None,
        },
        Err(e) => invalid(e.to_string()),
    }
}
