//! Other programs driven by the tests: a headless chromium, Freecell Solver (`fc-solve`), a
//! live `fcauto serve` and a live `fcauto mcp`.

pub mod browser;
pub mod fcsolve;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod server;
