//! The bench harness: solve a range of deals in parallel, each solution validated
//! ([`fcauto_solver::solve_checked`] for standard FreeCell, the family search and its
//! validator for the other games of the FreeCell family, [`variant`]), tally the per-deal
//! records into distributions, and optionally measure Freecell Solver on the same deals
//! ([`fcsolve`], standard FreeCell). `fcauto bench` is
//! its command line (progress bar, output files, exit code); `batch run` shares its
//! measurements ([`rusage`]) and distributions.
//!
//! - [`solve`]: the parallel solve of a range ([`solve::solve_range`]) and its [`Tally`].
//! - [`variant`]: which game, rules and numbering a run plays ([`Variant`]), shared with
//!   `batch`.
//! - [`summary`]: the run's [`Summary`], the `--repeat` rounds and the fc-solve ratios.
//! - [`text`]: the text summary, as printed.
//! - [`output`]: the `--json` file's pieces and the `--plot-data` CSV ([`output::Curve`]);
//!   [`json_file`]: the `--json` file written as the rows come.
//! - [`fcsolve`]: fc-solve's figures on the same deals.
//! - [`distribution`], [`tidy`], [`rusage`]: counts per value and their percentiles,
//!   figures rounded for JSON and CSV, CPU clocks and peak memory.
//! - `plot` and `plotting` (cargo feature `plot`): the `--plot` chart, and what every PNG
//!   chart shares (font, date, the file's mark).

pub mod distribution;
pub mod fcsolve;
pub mod json_file;
pub mod output;
#[cfg(feature = "plot")]
pub mod plot;
#[cfg(feature = "plot")]
pub mod plotting;
pub mod rusage;
pub mod solve;
pub mod summary;
pub mod text;
pub mod tidy;
pub mod variant;

pub use distribution::{Counted, Distribution, Spread};
pub use fcsolve::FcSolveSummary;
pub use output::{Curve, CurvePoint, Metric};
pub use solve::{solve_range, Job, Progress, Row, Tally};
pub use summary::{Summary, TimingRun, Verdicts};
pub use text::{seconds_text, summary_text};
pub use variant::{family_mode, GameJson, RulesJson, Variant};

/// The deals of `unsolvable` known to be solvable ([`fcauto_deals::known_solvable`]: up to
/// 1,000,000 and not in [`fcauto_deals::IMPOSSIBLE_DEALS`]): a solver bug.
pub fn false_unsolvable(unsolvable: &[u64]) -> Vec<u64> {
    unsolvable
        .iter()
        .copied()
        .filter(|&n| fcauto_deals::known_solvable(n))
        .collect()
}
