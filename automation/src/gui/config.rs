//! What a `fcauto play --gui` run was asked to do: the deal and where its number came from,
//! the evidence folder, the display and PySolFC profile, the mouse mode, and the held game
//! to finish with `--resume`. The session runs it and the report writes it, so it lives
//! below both.

use std::path::PathBuf;

use fcauto_deals::{Game, PysolNumber};

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
    /// Microsoft deal number (FreeCell's; 0 for a game of `number`).
    pub deal: u64,
    /// `--game`: the game of the FreeCell family played (standard FreeCell without it).
    pub game: &'static Game,
    /// With `--game`: the game number as PySolFC numbers it (`msN`, or a plain number: the
    /// Microsoft shuffle below 32000, the Mersenne Twister from 32000 on). `None`: FreeCell's
    /// Microsoft deal `deal`, as before the family.
    pub number: Option<PysolNumber>,
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

impl PlayConfig {
    /// True when the run plays a game of the family (or FreeCell by a Mersenne Twister
    /// number) with the family's table, solver and rules; false for FreeCell's Microsoft
    /// deals, which keep their own path.
    pub fn is_family(&self) -> bool {
        match self.number {
            None => false,
            Some(n) => {
                !self.game.rules.is_standard()
                    || matches!(n.shuffle(), fcauto_deals::Shuffle::MersenneTwister(_))
            }
        }
    }

    /// The game number PySolFC is started on and shows: `ms617` (PySolFC writes a plain
    /// number below 32000 as the `msN` it deals), or `40000` (a Mersenne Twister deal).
    pub fn game_number(&self) -> String {
        match self.number.map(|n| n.shuffle()) {
            Some(fcauto_deals::Shuffle::MersenneTwister(n)) => n.to_string(),
            Some(fcauto_deals::Shuffle::Microsoft(n)) if self.is_family() => {
                super::launch::game_number(n)
            }
            _ => super::launch::game_number(self.deal),
        }
    }

    /// The game and its number as the evidence pictures' captions name them:
    /// `FreeCell game ms617`, `Baker's Game #ms617 (game id 45)`.
    pub fn title(&self) -> String {
        if self.is_family() {
            format!(
                "{} #{} (game id {})",
                self.game.pysol_name,
                self.game_number(),
                self.game.pysol_id
            )
        } else {
            format!("FreeCell game {}", self.game_number())
        }
    }
}
