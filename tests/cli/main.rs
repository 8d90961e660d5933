//! fcauto's integration tests, built as one test binary (one link of the binary's
//! dependencies instead of one per file). Each module tests one command or part end to end;
//! run one with `cargo test --test cli MODULE::` (e.g. `solve_cli::`). The modules behind a
//! feature are built only with it; the GUI games are `#[ignore]`d (scripts/gui-e2e.sh runs
//! them).

mod common;
mod support;

mod analyze_cli;
mod analyze_review;
#[cfg(feature = "serve")]
mod analyze_saved_game;
#[cfg(feature = "batch")]
mod batch_cli;
mod bench_cli;
mod deals_cli;
mod docs_examples;
mod family_analyze;
#[cfg(feature = "batch")]
mod family_batch;
mod family_cli;
mod family_draw;
mod family_leftovers;
mod family_newuser;
#[cfg(feature = "batch")]
mod family_optimal;
#[cfg(feature = "serve")]
mod family_serve;
mod family_verify;
#[cfg(feature = "gui")]
mod gui_e2e;
#[cfg(feature = "gui")]
mod gui_family;
#[cfg(not(feature = "gui"))]
mod gui_nofeature;
#[cfg(feature = "gui")]
mod gui_ocr;
#[cfg(feature = "gui")]
mod gui_recognize;
#[cfg(feature = "gui")]
mod gui_resume;
#[cfg(feature = "gui")]
mod gui_resume_family;
#[cfg(feature = "gui")]
mod gui_solution;
#[cfg(feature = "mcp")]
mod mcp_app;
#[cfg(feature = "mcp")]
mod mcp_app_browser;
#[cfg(feature = "mcp")]
mod mcp_clients;
#[cfg(feature = "mcp")]
mod mcp_http;
#[cfg(feature = "mcp")]
mod mcp_revisions;
#[cfg(feature = "mcp")]
mod mcp_session;
mod pysol_deals_cli;
mod pysolfc_fixtures;
mod render_cli;
mod replay_browser;
#[cfg(feature = "serve")]
mod serve_analyze;
#[cfg(feature = "serve")]
mod serve_api;
#[cfg(feature = "serve")]
mod serve_browser;
#[cfg(feature = "serve")]
mod serve_family_analyze;
mod solve_cli;
mod stats_cli;
