/// PySolFC GUI replay (screen, OCR, mouse): `fcauto play --gui`.
#[cfg(feature = "gui")]
pub mod gui;

/// PySolFC's statistics.dat / options.cfg decoding and automated-play profiles.
pub mod pysol;

pub(crate) use fcauto_deals::plural;
