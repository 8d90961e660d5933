//! The rules engine as a service: the operations that `fcauto serve` (HTTP + JSON) and
//! `fcauto mcp` (Model Context Protocol) expose, as plain functions with serde types and no
//! transport knowledge (the adapters in `fcauto-server` map [`ErrorKind`] to HTTP statuses
//! and MCP errors, and add the tools' JSON schemas).
//!
//! The contract is (position, move) -> new position: every operation takes the whole
//! position and returns the whole new one, with no state kept between calls, so a retried
//! call is harmless. fcauto is the referee: a move is applied by the independent validator
//! ([`fcauto_solver::validator::apply_checked`]) and an illegal one is refused with the rule
//! it breaks. Every solution returned has passed the validator
//! ([`fcauto_solver::checked::solve_checked`]). Nothing here reads or writes files or runs
//! programs.
//!
//! Positions travel as [`PositionJson`] (`cascades`, `freecells`, `foundations`: the solver's
//! one shape of a position, also the start of `solve --format json`'s document and of `deal
//! --format json`'s) or as the one-line position string
//! ([`fcauto_deals::position`]); [`PositionIn`] takes either, or fc-solve's board text.
//!
//! - positions: [`PositionIn`], [`PositionOut`], [`parse_text`], [`new_game`];
//! - any game of the family: [`Position`] (standard FreeCell's [`fcauto_deals::Board`] or a
//!   [`FamilyPosition`]) with the operations below as its methods, [`new_game_of`] (PySolFC's
//!   deal of a game, any number of freecells); a family position's JSON is
//!   [`FamilyPositionJson`] (the game and its rules added) and its string names the game;
//!   board text, which names no game, is read for a request's game by
//!   [`PositionIn::to_position_of`]; pictures of any game: [`Position::svg`], [`Position::png`];
//! - moves: [`legal_moves`], [`parse_move`], [`apply_move`];
//! - searches: [`solve`], [`hint`] (and [`solve_in`], [`hint_in`] holding a solver permit);
//! - [`verify`]: a solution's verdict;
//! - [`analyze`]: where a game (a start and the moves played) was lost, with the review
//!   (moves to win per step, classes, accuracy);
//! - request fields: [`whole_count`], [`whole_costly`], [`whole_freecells`], [`whole_width`], [`whole_max_states`],
//!   [`picture_width`], [`parse_mode`].

mod analyze;
mod family;
mod family_solve;
mod game;
mod moves;
mod position;
mod request;
mod solve;
mod verify;

#[cfg(test)]
mod tests;

pub use analyze::{
    analyze, analyze_in, analyze_saved_in, saved_game, AnalyzeOptions, AnalyzeOut, SavedGameInfo,
    ANALYZE_TIME_CAP, MAX_ANALYZE_MOVES, MAX_SAVED_GAME_BYTES,
};
pub use family::{
    family_apply, family_legal_moves, family_move_out, parse_family_move, FamilyPosition,
};
pub use family_solve::{family_solve_in, family_verify};
pub use fcauto_solver::JsonMove;
pub use game::{new_game_of, parse_position, AnyOut, AnyPositionOut, Position};
pub use moves::{apply_move, legal_moves, move_out, parse_move, ApplyOut};
pub use position::{
    json_board, new_game, parse_text, position_out, FamilyPositionJson, FamilyPositionOut,
    PositionIn, PositionJson, PositionOut, RulesJson, POSITION_FORMS,
};
pub use request::{
    deal_in, deal_in_opt, mode_named, parse_mode, picture_width, whole_costly, whole_count,
    whole_freecells, whole_max_states, whole_width, DealIn, MODES,
};
pub use solve::{hint, hint_in, solve, solve_in, HintOut, SolveOut};
pub use verify::{verify, VerifyOut};

pub use fcauto_deals::text::short_echoes;

/// Read a request's deal number (serde's `deserialize_with`, shared by `fcauto serve`'s
/// bodies and `fcauto mcp`'s arguments): [`fcauto_deals::msdeal::deserialize_deal`], and
/// for an optional field [`fcauto_deals::msdeal::deserialize_deal_opt`].
pub use fcauto_deals::msdeal::deserialize_deal as deal_number;
/// An optional deal number (see [`deal_number`]).
pub use fcauto_deals::msdeal::deserialize_deal_opt as deal_number_opt;

use std::time::Duration;

/// Most positions one solve may store (`max_states` above it is refused as bad input).
pub const MAX_STATES: usize = 200_000;
/// Longest one solve may run before it answers "unknown".
pub const TIME_CAP: Duration = Duration::from_secs(10);
/// Longest board text or position accepted, bytes.
pub const MAX_BOARD_BYTES: usize = 64 * 1024;
/// Longest solution text accepted by [`verify`], bytes.
pub const MAX_SOLUTION_BYTES: usize = 1024 * 1024;

/// What is wrong with a refused request. `fcauto serve` answers them 400, 413 and 422.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Malformed: a value that is no deal number, move, mode, count, width or budget the
    /// service takes.
    BadInput,
    /// Over a size cap ([`MAX_BOARD_BYTES`], [`MAX_SOLUTION_BYTES`]).
    TooLarge,
    /// Well formed but impossible or not playable: a position that is no FreeCell position,
    /// a solution that is no standard notation or names another start, a failed search.
    Impossible,
}

/// A refused request: what kind of problem, and a message for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// What is wrong, in words.
    pub message: String,
}

impl ServiceError {
    /// Well formed but not a legal or possible request.
    pub fn impossible(message: impl Into<String>) -> ServiceError {
        ServiceError {
            kind: ErrorKind::Impossible,
            message: message.into(),
        }
    }
    /// Malformed.
    pub fn bad_input(message: impl Into<String>) -> ServiceError {
        ServiceError {
            kind: ErrorKind::BadInput,
            message: message.into(),
        }
    }
    /// Over a size cap.
    pub fn too_large(message: impl Into<String>) -> ServiceError {
        ServiceError {
            kind: ErrorKind::TooLarge,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ServiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ServiceError {}
