//! Solution notations, apart from the rules and the search: the JSON contract and Freecell
//! Solver's text ([`solution`]), standard notation read back with the counts it leaves
//! out ([`standard`]), and annotated move lists ([`annotated`]).

pub mod annotated;
pub mod solution;
pub mod standard;
