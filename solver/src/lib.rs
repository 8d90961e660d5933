//! FreeCell rules, search, an independent validator and solution formats.
//!
//! - [`moves`]: [`Loc`], [`Move`], [`MoveKind`], the supermove limit.
//! - [`state`], [`movegen`], [`heuristic`], [`search`]: the solver (compact positions,
//!   canonical fingerprints, legal moves with safe auto-play, best-first search).
//! - [`astar`], [`deadlock`]: optimal search (A* with a deadlock-cycle lower bound).
//! - [`validator`]: replays any solution on a [`fcauto_deals::Board`] with its own rule
//!   checks, sharing no code with the search.
//! - [`solution`]: the JSON contract, standard notation and Freecell Solver's text.
//! - [`standard`]: reading standard notation back, with the counts it leaves out.

pub mod astar;
pub mod deadlock;
pub mod heuristic;
pub mod movegen;
pub mod moves;
pub mod search;
pub mod shorten;
pub mod solution;
pub mod standard;
pub mod state;
pub mod validator;

pub use astar::{optimal, Metric};
pub use moves::{single_card_cost, supermove_limit, Loc, Move, MoveKind, PlayedMove};
pub use search::{solve, Limits, Mode, SearchResult, SearchStats, Verdict};
pub use solution::{
    parse_fcs_output, parse_fcs_states, parse_json, FcsVerdict, Solution, SolutionJson,
};
pub use standard::{parse_standard, resolve_counts, ResolveError, StandardParseError};
pub use validator::{validate, StepMove, Validated, ValidationError};

pub(crate) use fcauto_deals::plural;
