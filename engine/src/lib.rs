//! fcauto's engine: what every front end shares (the `fcauto` commands, `serve`'s page and
//! API, `mcp`'s tools), as plain library functions and types with no command-line, HTTP or
//! MCP knowledge.
//!
//! - [`analysis`]: where a game was lost (`fcauto analyze`): the game replayed, every
//!   position evaluated, the losing and costly moves found, told as a table, JSON, pictures
//!   and a report bundle;
//! - [`crosscheck`]: `solve --cross-check`: fc-solve on the same board, its solution
//!   replayed by our validator, the two verdicts compared.
//! - [`output`]: what a solve writes: the solution (or the verdict of none) as JSON,
//!   standard notation, fc-solve's text, a picture or the replay page;
//! - `batch` (cargo feature `batch`): the batch results store's layout, checks, shards and
//!   the replay of stored solutions.
//! - [`mod@bench`]: the bench harness: a range of deals solved in parallel and validated, the
//!   per-deal rows, distributions and summary, fc-solve on the same deals, the JSON and CSV
//!   outputs and (cargo feature `plot`) the chart.
//! - [`partial`]: outputs written under a temporary name and renamed over their file when
//!   complete, and those that killed runs left behind.
//! - [`render`]: the one renderer of positions: SVG, PNG (cargo feature `png`) and the
//!   self-contained replay page.
//! - [`input`]: the start a game is checked from: a board file's text read into a position,
//!   and fc-solve's printed positions checked against it.
//! - [`service`]: the stateless rules service (deal, position, legal moves, apply, hint,
//!   solve, verify) that `serve` and `mcp` expose: (position, move) -> new position, every
//!   move refereed by the validator, errors as [`service::ErrorKind`]s.
//! - [`verify`]: the one verify: a solution document checked from its start with the
//!   validator, every claim it makes beside its moves checked too.

pub mod analysis;
#[cfg(feature = "batch")]
pub mod batch;
pub mod bench;
pub mod crosscheck;
pub mod input;
pub mod output;
pub mod partial;
pub mod render;
pub mod service;
pub mod verify;
