//! The work an analysis did, as `analyze --json` gives it (`work`) and its notes on standard
//! error say it: the searches ([`super::evaluate::Work`]) with the CPU and wall time.

use super::evaluate::Work;
use crate::bench::rusage;
use serde::Serialize;
use std::time::Instant;

/// The work an analysis did, in the JSON (`work`) and on standard error.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct WorkDone {
    /// Positions searched (each counted once).
    pub searches: usize,
    /// Positions found on a winning line already known (no search).
    pub on_known_lines: usize,
    /// Positions after one proved lost, lost too (no search).
    pub after_lost: usize,
    /// Further searches of positions already searched (a retry at a larger budget, or a
    /// `short` search confirming a costly move in `fast` mode).
    pub searched_again: usize,
    /// Positions expanded by all searches.
    pub expanded: u64,
    /// CPU time of the whole analysis (user + system, all threads), seconds.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub cpu_seconds: f64,
    /// Wall time, seconds.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub wall_seconds: f64,
}

impl WorkDone {
    /// The work `work` counts, with the CPU time since `cpu0` (seconds, this process's,
    /// [`rusage::this_process`]) and the wall time since `t0`.
    pub fn new(work: &Work, cpu0: f64, t0: Instant) -> WorkDone {
        WorkDone {
            searches: work.searches,
            on_known_lines: work.on_known_lines,
            after_lost: work.after_lost,
            searched_again: work.searched_again,
            expanded: work.expanded,
            cpu_seconds: rusage::this_process().cpu_s - cpu0,
            wall_seconds: t0.elapsed().as_secs_f64(),
        }
    }
}
