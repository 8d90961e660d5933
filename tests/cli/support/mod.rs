//! Other programs driven by the tests: a headless chromium, Freecell Solver (`fc-solve`) and
//! a live `fcauto serve`.

pub mod browser;
pub mod fcsolve;
pub mod server;
