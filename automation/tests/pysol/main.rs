//! The PySolFC file readers on real and hostile files, built as one test binary (one link
//! instead of one per file); run one module with `cargo test -p fcauto-automation --test
//! pysol MODULE::`.

mod pickle_values;
mod pysol_savedgame;
mod pysol_savedgame_family;
mod pysol_savedgame_real;
mod pysol_stats;
