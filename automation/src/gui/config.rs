//! What a `fcauto play --gui` run was asked to do: the deal and where its number came from,
//! the evidence folder, the display and PySolFC profile, the mouse mode, and the held game
//! to finish with `--resume`. The session runs it and the report writes it, so it lives
//! below both.

use std::path::PathBuf;

use super::replay::MouseMode;
use super::resume::Held;

/// Where the deal number came from (`source` in deal_seed.json).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealSource {
    /// `--deal N` on the command line (or its default).
    CommandLine,
    /// `--deal-file FILE`: the file as given and the line that named the deal.
    File {
        /// The file.
        path: PathBuf,
        /// Its `MS_DEAL_NUMBER=...` line, trimmed.
        line: String,
    },
}

/// What the user asked for.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// Microsoft deal number.
    pub deal: u64,
    /// Where the number came from.
    pub deal_source: DealSource,
    /// Evidence directory.
    pub results: PathBuf,
    /// `--display :N`.
    pub display: Option<String>,
    /// Profile base directory (PySolFC's HOME is `<dir>/home`); a temporary one if `None`.
    pub profile: Option<PathBuf>,
    /// Leave PySolFC running after the win (statistics then cannot be proven).
    pub keep_open: bool,
    /// Use an already running PySolFC window instead of starting one.
    pub attach: bool,
    /// Drag-n-drop or point-n-click.
    pub mode: MouseMode,
    /// Print a progress line per move on stderr.
    pub progress: bool,
    /// `--resume`: finish this held game instead of dealing `deal` (then 0, replaced by the
    /// deal number the window shows; 0 stays when it cannot be read).
    pub resume: Option<Held>,
}
