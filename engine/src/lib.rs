//! fcauto's engine: what every front end shares (the `fcauto` commands, `serve`'s page and
//! API, `mcp`'s tools), as plain library functions and types with no command-line, HTTP or
//! MCP knowledge.
//!
//! - `batch` (cargo feature `batch`): the batch results store's layout, checks, shards and
//!   the replay of stored solutions.
//! - [`mod@bench`]: the bench harness: a range of deals solved in parallel and validated, the
//!   per-deal rows, distributions and summary, fc-solve on the same deals, the JSON and CSV
//!   outputs and (cargo feature `plot`) the chart.
//! - [`render`]: the one renderer of positions: SVG, PNG (cargo feature `png`) and the
//!   self-contained replay page.

#[cfg(feature = "batch")]
pub mod batch;
pub mod bench;
pub mod render;
