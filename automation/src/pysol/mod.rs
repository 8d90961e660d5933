//! PySolFC's own files, read without executing anything: `statistics.dat` (a pickle, see
//! [`stats`]), the held game `holdgame.dat` and saved games (a sequence of pickles, see
//! [`savedgame`]), `options.cfg` (configobj text, see [`options`]) and the profile folders
//! that hold them (see [`profile`]).
//!
//! PySolFC's files are read-only to this crate; the only writes go to a separate
//! automated-play profile made by [`profile::AutomationProfile`].

pub mod options;
pub mod pickle_guard;
pub mod profile;
pub mod report;
pub mod savedgame;
pub mod stats;
pub mod stats_diff;
mod time_fmt;

/// PySolFC's game id for FreeCell (`games/freecell.py`, `GameInfo(8, FreeCell, ...)`).
pub const FREECELL_GAME_ID: i64 = 8;
