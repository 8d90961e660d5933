//! [`verify`]: a solution's verdict from a position, by the one verify
//! ([`crate::verify::verify`]) that the command line's `verify` calls too.

use super::{ServiceError, MAX_SOLUTION_BYTES};
use crate::input::StartGiven;
use crate::verify::{is_not_a_win, Options};
use fcauto_deals::Board;
use fcauto_solver::document::{DocError, SolutionDoc};

/// What [`verify`] answers: the validator's verdict on a solution.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
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

/// `verify`: replay a solution (standard notation, `solve`'s output, counts of runs may be
/// left out; an annotated game's comments, move numbers and marks read past; fc-solve's
/// output) from `b` with the command line's verify ([`crate::verify::verify`]), our JSON
/// refused ([`Options::refuse_json`]). A solution that names its own start (`# start:`, or
/// fc-solve's first printed position) must name `b`.
///
/// # Errors
/// A solution over [`MAX_SOLUTION_BYTES`] (too large), or text that is no solution for `b`
/// (impossible: JSON, no notation, another start); moves that read but do not win are an
/// answer with `valid: false` and the reason ([`is_not_a_win`]).
pub fn verify(b: &Board, solution: &str) -> Result<VerifyOut, ServiceError> {
    if solution.len() > MAX_SOLUTION_BYTES {
        return Err(ServiceError::too_large(format!(
            "a solution is at most {MAX_SOLUTION_BYTES} bytes"
        )));
    }
    let doc = SolutionDoc::read(solution).map_err(|e| match e {
        DocError::NotObject(kind) => {
            ServiceError::impossible(format!("the solution is {kind}: send standard notation"))
        }
        e => ServiceError::impossible(e.to_string()),
    })?;
    let given = Some(((None, b.clone()), StartGiven::Position));
    let options = Options { refuse_json: true };
    match crate::verify::verify(&doc, given, "the solution", options) {
        Ok(r) => Ok(VerifyOut {
            valid: true,
            moves_total: Some(r.moves_total),
            single_card_moves: Some(r.single_card_moves),
            error: None,
        }),
        Err(e) if is_not_a_win(&e) => Ok(VerifyOut {
            valid: false,
            moves_total: None,
            single_card_moves: None,
            error: Some(format!("{e:#}")),
        }),
        Err(e) => Err(ServiceError::impossible(format!("{e:#}"))),
    }
}
