//! fcauto's PySolFC side: [`pysol`] reads PySolFC's statistics.dat, options.cfg and held and
//! saved games (through a guarded pickle reader that runs no code) and makes automated-play
//! profiles; [`fcsolve`] runs Freecell Solver (`fc-solve` and its range solver) as a child
//! process; `gui` (cargo feature `gui`) replays solutions in the real PySolFC
//! window by screen, OCR and mouse (`fcauto play --gui`).

// The modules' docs are their own inner docs (an outer doc here would make rustdoc resolve
// their links from this crate's root).
pub mod fcsolve;
#[cfg(feature = "gui")]
pub mod gui;
pub mod pysol;

pub(crate) use fcauto_deals::plural;
