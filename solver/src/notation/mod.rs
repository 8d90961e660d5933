//! Solution notations, apart from the rules and the search: the JSON contract and Freecell
//! Solver's text ([`solution`]), and standard notation read back with the counts it leaves
//! out ([`standard`]).

pub mod solution;
pub mod standard;
