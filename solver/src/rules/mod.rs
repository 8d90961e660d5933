//! The rules of FreeCell as the search plays them: the move type and supermove limit
//! ([`moves`]), the compact position with its canonical fingerprint ([`state`]), the packed
//! position the first-solution searches store ([`packed`]), move generation with auto-play
//! over either ([`movegen`]: safe auto-play, or greedy for the reduced move set of some of
//! `fast`'s tries), and the counts a position is evaluated by ([`features`]). Nothing here
//! imports the search; the independent referee is
//! [`crate::validator`], which shares none of this code.

pub mod features;
pub mod movegen;
pub mod moves;
pub mod packed;
pub mod state;
