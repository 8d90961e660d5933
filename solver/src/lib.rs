//! FreeCell rules, search, an independent validator and solution formats.
//!
//! Three parts, with no import circle between them (the search leans on the rules; the
//! notations on the rules' move types and the validator; the rules on neither):
//! - [`rules`]: [`moves`] ([`Loc`], [`Move`], [`MoveKind`], the supermove limit), [`state`]
//!   (compact positions, canonical fingerprints), [`packed`] (48-byte positions, each cascade
//!   a dealt prefix plus one run, for the first-solution searches), [`movegen`] (legal moves
//!   and auto-play, safe or, for some of `fast`'s tries, greedy, over either), and the counts a
//!   position is evaluated by (`rules::features`).
//! - [`search`]: the modes and their searches: `fast`'s portfolio of best-first tries,
//!   `short`'s rounds and anytime phases, [`heuristic`] evaluation, [`shorten`], and optimal
//!   search ([`astar`] with the [`deadlock`] bound).
//! - [`notation`]: [`position`] (the one JSON shape of a position, [`PositionJson`], and the
//!   deal's JSON), [`solution`] (the JSON contract with the one JSON shape of a move,
//!   [`JsonMove`]; standard notation, Freecell Solver's text), [`standard`] (reading standard
//!   notation back, with the counts it leaves out), [`annotated`] (move lists with an
//!   annotated game's comments, numbers and marks) and [`document`] (the one reader of
//!   solution documents).
//!
//! [`checked`] is the one validated solve: a search, then the validator, before any caller
//! sees a solution.
//!
//! [`family`] solves the other games of the FreeCell family (Baker's Game, Eight Off,
//! Seahaven Towers, ForeCell, the relaxed games, FreeCell with 0..=8 freecells) by a
//! rules-driven search of its own, with its own independent validator and an exact verdict.
//!
//! [`validator`] replays any solution on a [`fcauto_deals::Board`] with its own rule checks,
//! sharing no rule code with the rules or the search (it takes only the location type,
//! [`Loc`], from [`moves`]).

pub mod checked;
pub mod family;
pub mod notation;
pub mod rules;
pub mod search;
pub mod validator;

// The modules under their short paths (`fcauto_solver::state`, `::movegen`, ...).
pub use notation::{annotated, document, position, solution, standard};
pub use rules::{movegen, moves, packed, state};
pub use search::{astar, deadlock, heuristic, shorten};

pub use astar::{optimal, Metric};
pub use checked::{solve_checked, CheckError, Checked, Outcome};
pub use moves::{single_card_cost, supermove_limit, Loc, Move, MoveKind, PlayedMove, RunMove};
pub use position::{DealJson, PositionJson};
pub use search::{
    solve, Limits, Mode, SearchResult, SearchStats, StopReason, Verdict, STOP_REASON_SHAPES,
};
pub use solution::{
    fc_solve_numberings, parse_fcs_output, parse_fcs_states, parse_json, standard_token, FcsKind,
    FcsVerdict, JsonMove, PositionGiven, Solution, SolutionJson,
};
pub use standard::{parse_standard, resolve_counts, ResolveError, StandardParseError};
pub use validator::{validate, StepMove, Validated, ValidationError};

pub(crate) use fcauto_deals::plural;
