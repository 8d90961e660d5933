//! [`verify`]: a solution's verdict from a position, by the one verify
//! ([`crate::verify::verify_standard`]) that the command line's `verify` shares.

use super::{ServiceError, MAX_SOLUTION_BYTES};
use fcauto_deals::Board;

/// What [`verify`] answers: the validator's verdict on a solution (`valid`, `moves_total`,
/// `single_card_moves`, `error`).
pub type VerifyOut = crate::verify::StandardReport;

/// `verify`: replay a solution in standard notation (`solve`'s output; counts of runs may
/// be left out; an annotated game's comments, move numbers and marks read past, as the
/// command line's `verify` reads them) from `b` with the validator. A solution that names
/// its own start (`# start:`, or fc-solve's first printed position) must name `b`.
///
/// # Errors
/// A solution over [`MAX_SOLUTION_BYTES`] (too large), or text that is no standard notation
/// for `b` (impossible); moves that do not win are an answer with `valid: false`.
pub fn verify(b: &Board, solution: &str) -> Result<VerifyOut, ServiceError> {
    if solution.len() > MAX_SOLUTION_BYTES {
        return Err(ServiceError::too_large(format!(
            "a solution is at most {MAX_SOLUTION_BYTES} bytes"
        )));
    }
    crate::verify::verify_standard(b, solution).map_err(|e| ServiceError::impossible(e.0))
}
