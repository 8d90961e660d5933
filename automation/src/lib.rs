/// PySolFC's statistics.dat / options.cfg decoding and automated-play profiles.
pub mod pysol;
