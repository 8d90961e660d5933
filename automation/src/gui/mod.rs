//! Replaying a FreeCell solution in the real PySolFC window and proving the win.
//!
//! The whole module is built with the crate's `gui` feature only (which also brings in
//! `fcauto-solver`). Its parts that use no GUI crate: [`plan`] (the solver's moves played,
//! their effect on a board, solution.json), [`layout`] (PySolFC's table geometry),
//! [`evidence`] (the results bundle writers), [`fcsolve`] (the fc-solve reference solver as
//! a subprocess, and `play`'s own validated solve). Those that do: [`display`] (Xvfb/openbox), [`launch`] (PySolFC process and
//! profile), [`screen`] (xcap), [`ocr`] (leptess), [`recognize`] (card matching),
//! [`mouse`] (enigo), [`replay`] (moves on screen), [`verify`] (deal and win checks),
//! [`config`] (what a `fcauto play --gui` run was asked to do), [`session`] (the whole
//! run, stage by stage), [`report`] (its last
//! evidence files), [`resume`] (finding, installing and checking a held game for
//! `play --gui --resume`).

pub mod evidence;
pub mod fcsolve;
pub mod layout;
pub mod plan;

/// The `csv` crate used for `play_log.csv` (for tests and callers).
#[cfg(feature = "gui")]
pub use csv;
/// The `image` crate used for screenshots and card images (for tests and callers).
#[cfg(feature = "gui")]
pub use image;

#[cfg(feature = "gui")]
pub mod caption;
#[cfg(feature = "gui")]
pub mod config;
#[cfg(feature = "gui")]
pub mod display;
#[cfg(feature = "gui")]
pub mod launch;
#[cfg(feature = "gui")]
pub mod mouse;
#[cfg(feature = "gui")]
pub mod ocr;
#[cfg(feature = "gui")]
pub mod recognize;
#[cfg(feature = "gui")]
pub mod replay;
#[cfg(feature = "gui")]
pub mod report;
#[cfg(feature = "gui")]
pub mod resume;
#[cfg(feature = "gui")]
pub mod screen;
#[cfg(feature = "gui")]
pub mod session;
#[cfg(feature = "gui")]
pub mod verify;

/// Errors of the GUI replay, one per stage; each message is one line for the user.
#[derive(Debug, thiserror::Error)]
pub enum GuiError {
    /// Starting or using the X display.
    #[error("display: {0}")]
    Display(String),
    /// Starting PySolFC or finding its window.
    #[error("pysolfc: {0}")]
    Launch(String),
    /// Capturing the screen or querying windows.
    #[error("screen: {0}")]
    Screen(String),
    /// OCR.
    #[error("ocr: {0}")]
    Ocr(String),
    /// Card recognition.
    #[error("recognition: {0}")]
    Recognize(String),
    /// Mouse or keyboard input.
    #[error("input: {0}")]
    Input(String),
    /// The deal on screen is not the one we solved: refuses to play.
    #[error("deal mismatch: {0}")]
    DealMismatch(String),
    /// A solver failed or found no solution.
    #[error("solver: {0}")]
    Solver(String),
    /// Replay could not be completed.
    #[error("replay: {0}")]
    Replay(String),
    /// Writing the evidence bundle.
    #[error("evidence: {0}")]
    Evidence(String),
}

impl GuiError {
    /// A required program could not be started.
    pub fn missing(program: &str, e: &std::io::Error) -> GuiError {
        GuiError::Display(format!(
            "cannot start {program}: {e} (install it with scripts/setup-deps.sh --gui)"
        ))
    }
}
