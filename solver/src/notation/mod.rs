//! Solution notations, apart from the rules and the search: the one JSON shape of a position
//! ([`position`]: the service's positions and the deal and solution documents' starts), the
//! JSON contract and Freecell
//! Solver's text ([`solution`]; fc-solve's text is read in a private module whose public
//! items [`solution`] re-exports), standard notation read back with the counts it leaves
//! out ([`standard`]), annotated move lists ([`annotated`]), and the one reader that tells
//! a solution document's kind, the start it names, its moves and its claims ([`document`]).

pub mod annotated;
pub mod document;
pub(crate) mod fcs;
pub mod position;
pub mod solution;
pub mod standard;
