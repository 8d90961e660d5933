//! The rules of FreeCell as the search plays them: the move type and supermove limit
//! ([`moves`]), the compact position with its canonical fingerprint ([`state`]), the packed
//! position the first-solution searches store ([`packed`]), and move generation with safe
//! auto-play over either ([`movegen`]). No search here; the independent referee is
//! [`crate::validator`], which shares none of this code.

pub mod movegen;
pub mod moves;
pub mod packed;
pub mod state;
