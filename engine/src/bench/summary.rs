//! The run's [`Summary`]: our counts, distributions, times and memory, and with fc-solve
//! measured on the same deals, its figures, the timed rounds of `--repeat` and the ratios.

use super::distribution::{Distribution, Spread};
use super::fcsolve::{self, FcSolveSummary};
use super::rusage::{self, Usage};
use super::solve::{solve_range, Job, Outcomes, Progress, Row, Tally};
use super::variant::{GameJson, Variant};
use anyhow::Result;
use fcauto_deals::plural;
use serde::Serialize;
use std::time::Instant;

/// The run's summary.
#[derive(Serialize)]
pub struct Summary {
    /// First deal.
    pub from: u64,
    /// Last deal (inclusive).
    pub to: u64,
    /// Search mode.
    pub mode: String,
    /// Worker threads.
    pub threads: usize,
    /// The game (`game`: Freecell Solver's name, `pysol_id`, `numbering`: `microsoft` or
    /// `pysolfc`) and its `rules` (cascades, freecells, build order, what fills an empty
    /// cascade, the sequence move).
    #[serde(flatten)]
    pub game: GameJson,
    /// The game as the run played it, for the text.
    #[serde(skip)]
    pub variant: Variant,
    /// How many deals got each verdict.
    pub verdicts: Verdicts,
    /// Deals solved (and validated).
    pub solved: usize,
    /// Deals proved unsolvable by an exhaustive search.
    pub unsolvable: Vec<u64>,
    /// Deals stopped by a limit.
    pub unknown: Vec<u64>,
    /// Moves per solution (supermove = 1), solved deals only; null when none was solved.
    pub moves_total: Option<Spread>,
    /// Single-card moves per solution, solved deals only; null when none was solved.
    pub single_card_moves: Option<Spread>,
    /// Positions expanded, all deals.
    pub expanded: u64,
    /// Positions expanded per deal, all deals: mean, p50, p90, p99, max.
    pub positions: Option<Distribution>,
    /// CPU milliseconds of the worker thread per deal, all deals (percentiles rounded to 3
    /// significant digits).
    pub cpu_ms: Option<Distribution>,
    /// CPU time of the solving (user + system, all threads), seconds.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub cpu_s: f64,
    /// Wall time, seconds.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub wall_s: f64,
    /// Deals per second of wall time.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub deals_per_s: f64,
    /// Peak resident set size of the process, MiB.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub peak_rss_mib: f64,
    /// Peak RSS divided by worker threads, MiB.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub peak_rss_per_thread_mib: f64,
    /// Freecell Solver on the same deals, when asked.
    pub fc_solve: Option<FcSolveSummary>,
    /// With --vs-fc-solve, every timed run in the order run (`--repeat`; each fc-solve's
    /// range solver, then ours): our CPU time and that of fc-solve's range solver. The last
    /// is the run of ours whose rows and `cpu_s` are shown; the first fc-solve run is the one
    /// `fc_solve` shows.
    pub timing_runs: Vec<TimingRun>,
    /// Our CPU time / that of fc-solve's range solver ([`FcSolveSummary::cpu_s`]), over the
    /// sums of [`Summary::timing_runs`].
    #[serde(serialize_with = "crate::bench::tidy::opt")]
    pub cpu_ratio_vs_fc_solve: Option<f64>,
    /// Our CPU time / that of the per-deal fc-solve processes
    /// ([`FcSolveSummary::per_board_cpu_s`]).
    #[serde(serialize_with = "crate::bench::tidy::opt")]
    pub cpu_ratio_vs_fc_solve_per_board: Option<f64>,
    /// Our mean moves_total / fc-solve's.
    #[serde(serialize_with = "crate::bench::tidy::opt")]
    pub moves_ratio_vs_fc_solve: Option<f64>,
}

/// How many deals got each verdict.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdicts {
    /// Solved, and the solution validated.
    pub solved: usize,
    /// Proved unsolvable by a complete search.
    pub impossible: usize,
    /// Stopped by a limit.
    pub unknown: usize,
}

/// One timed run of both programs over the same deals (`bench --vs-fc-solve --repeat`).
#[derive(Serialize, Clone, Copy, Debug)]
pub struct TimingRun {
    /// Our CPU time (user + system, all threads), seconds.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub fcauto_cpu_s: f64,
    /// The CPU time of fc-solve's range solver, seconds.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub fc_solve_cpu_s: f64,
}

/// A range solve with its cost: the tally, the process's CPU time over it (all threads),
/// the wall time, and the process's resource use at its end.
pub struct Timed {
    /// The rows' tally.
    pub tally: Tally,
    /// CPU time (user + system, all threads) over the solve, seconds.
    pub cpu_s: f64,
    /// Wall time, seconds.
    pub wall_s: f64,
    /// The process's usage at the end (its peak RSS).
    pub usage: Usage,
}

/// [`solve_range`], timed by the process's CPU clock and the wall clock.
///
/// # Errors
/// Those of [`solve_range`].
pub fn timed(
    job: &Job,
    progress: &mut dyn Progress,
    sink: &mut dyn FnMut(&Row) -> Result<()>,
) -> Result<Timed> {
    let cpu0 = rusage::this_process().cpu_s;
    let t0 = Instant::now();
    let tally = solve_range(job, progress, sink)?;
    let wall_s = t0.elapsed().as_secs_f64();
    let usage = rusage::this_process();
    Ok(Timed {
        tally,
        cpu_s: usage.cpu_s - cpu0,
        wall_s,
        usage,
    })
}

impl Summary {
    /// What fails a run of standard FreeCell, in words: Microsoft's deals reported
    /// unsolvable that are known solvable (a solver bug), deals left unknown (a limit was reached). The other
    /// games of the family have no list of known verdicts, and a deal left unknown there is
    /// a figure of the run (the family search's complete search can outgrow any budget),
    /// not a failure: none for them.
    pub fn problems(&self) -> Vec<String> {
        if !self.variant.is_standard() {
            return Vec::new();
        }
        let mut problems = Vec::new();
        let false_unsolvable = self.variant.false_unsolvable(&self.unsolvable);
        if !false_unsolvable.is_empty() {
            problems.push(format!(
                "deals reported unsolvable but known solvable: {false_unsolvable:?}"
            ));
        }
        if !self.unknown.is_empty() {
            problems.push(format!(
                "{} unknown (a limit was reached)",
                plural(self.unknown.len(), "deal")
            ));
        }
        problems
    }

    /// The summary of the run `t` of `job`, searched in the mode named `mode`; no fc-solve
    /// figures yet ([`Summary::compare`]).
    pub fn new(job: &Job, mode: &str, t: &Timed) -> Summary {
        let (a, b, tally) = (job.from, job.to, &t.tally);
        Summary {
            from: a,
            to: b,
            mode: mode.to_string(),
            threads: job.threads,
            game: job.variant.json(),
            variant: job.variant,
            verdicts: Verdicts {
                solved: tally.solved,
                impossible: tally.unsolvable.len(),
                unknown: tally.unknown.len(),
            },
            solved: tally.solved,
            unsolvable: tally.unsolvable.clone(),
            unknown: tally.unknown.clone(),
            // Solved deals only: the others have no lengths.
            moves_total: Spread::of(&tally.moves_total),
            single_card_moves: Spread::of(&tally.single_card_moves),
            expanded: tally.expanded,
            positions: tally.positions.distribution(1.0),
            cpu_ms: tally.cpu_ms.distribution(1e-6),
            cpu_s: t.cpu_s,
            wall_s: t.wall_s,
            deals_per_s: (b - a + 1) as f64 / t.wall_s,
            peak_rss_mib: t.usage.max_rss_mib,
            peak_rss_per_thread_mib: t.usage.max_rss_mib / job.threads as f64,
            fc_solve: None,
            timing_runs: Vec::new(),
            cpu_ratio_vs_fc_solve: None,
            cpu_ratio_vs_fc_solve_per_board: None,
            moves_ratio_vs_fc_solve: None,
        }
    }

    /// Add fc-solve's figures `fc`, every timed run (`rounds`, then this one) and the
    /// ratios.
    ///
    /// # Errors
    /// An earlier timed run of ours gave other results than `tally`'s.
    pub fn compare(&mut self, fc: FcSolveSummary, rounds: Rounds, tally: &Tally) -> Result<()> {
        self.timing_runs = rounds.with_last(self.cpu_s, tally)?;
        let (ours, theirs) = self.timing_runs.iter().fold((0.0, 0.0), |(o, t), r| {
            (o + r.fcauto_cpu_s, t + r.fc_solve_cpu_s)
        });
        self.cpu_ratio_vs_fc_solve = Some(ours / theirs);
        self.cpu_ratio_vs_fc_solve_per_board = fc.per_board_cpu_s.map(|t| self.cpu_s / t);
        self.moves_ratio_vs_fc_solve = self
            .moves_total
            .zip(fc.moves_total)
            .map(|(ours, theirs)| ours.mean / theirs.mean);
        self.fc_solve = Some(fc);
        Ok(())
    }
}

/// The `--repeat` rounds before the last, timed, and the CPU time of fc-solve's range
/// solver in the last round.
pub struct Rounds {
    earlier: Vec<(TimingRun, Outcomes)>,
    last_fc_solve_cpu_s: f64,
}

impl Rounds {
    /// Every timed run, the last being ours at `cpu_s` whose rows were kept, `tally`; an
    /// error if an earlier run of ours gave other results.
    pub fn with_last(self, cpu_s: f64, tally: &Tally) -> Result<Vec<TimingRun>> {
        let kept = tally.outcomes();
        for (k, (_, o)) in self.earlier.iter().enumerate() {
            anyhow::ensure!(
                *o == kept,
                "internal error: timed run {} gave other results than the run whose rows were \
                 written ({} solved, {} positions, against {} and {})",
                k + 1,
                o.solved,
                o.expanded,
                kept.solved,
                kept.expanded
            );
        }
        let last = TimingRun {
            fcauto_cpu_s: cpu_s,
            fc_solve_cpu_s: self.last_fc_solve_cpu_s,
        };
        Ok(self
            .earlier
            .into_iter()
            .map(|(r, _)| r)
            .chain([last])
            .collect())
    }
}

/// With `--vs-fc-solve`: fc-solve's figures over `job`'s deals ([`fcsolve::measure`]) by
/// the `programs` given, else the native build's when there is one, else those on PATH
/// (`range_only`: the range solver alone, no solution lengths), and with `repeat` rounds
/// (`--repeat`), the timed rounds before the one whose rows are kept
/// ([`earlier_rounds`]), every fc-solve run among them (a failure in any leaves no rows
/// behind).
///
/// # Errors
/// fc-solve's programs are missing, a run fails, or a later round disagrees with the first.
pub fn measure_fc_solve(
    job: &Job,
    programs: Option<&std::path::Path>,
    range_only: bool,
    preset: &str,
    repeat: u32,
    progress: &mut dyn Progress,
) -> Result<(FcSolveSummary, Rounds)> {
    use fcauto_automation::fcsolve::{check_installed_in, native_build, Programs};
    let programs = match programs {
        Some(dir) => Programs::in_dir(dir),
        None => native_build().unwrap_or_default(),
    };
    check_installed_in(&programs, range_only)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(job.threads)
        .build()?;
    let lengths = (!range_only).then_some(&pool);
    let fc = fcsolve::measure(&programs, job.from, job.to, preset, lengths)?;
    let rounds = earlier_rounds(job, repeat, preset, &fc, progress)?;
    Ok((fc, rounds))
}

/// Rounds 1..N-1 of `--repeat N` (`repeat`), each fc-solve's range solver with `preset`
/// then us, after `fc` (round 1's fc-solve run, the one whose figures the summary shows),
/// and the last round's fc-solve run; our runs here keep no rows. A later run of fc-solve's
/// range solver with other verdicts or iterations than `fc` is an error.
///
/// # Errors
/// A solve's, fc-solve's, or a range-solver run that disagrees with `fc`.
pub fn earlier_rounds(
    job: &Job,
    repeat: u32,
    preset: &str,
    fc: &FcSolveSummary,
    progress: &mut dyn Progress,
) -> Result<Rounds> {
    let (a, b) = (job.from, job.to);
    let mut rounds = Rounds {
        earlier: Vec::new(),
        last_fc_solve_cpu_s: fc.cpu_s,
    };
    for round in 2..=repeat {
        let cpu0 = rusage::this_process().cpu_s;
        let t = solve_range(job, progress, &mut |_| Ok(()))?;
        let run = TimingRun {
            fcauto_cpu_s: rusage::this_process().cpu_s - cpu0,
            fc_solve_cpu_s: rounds.last_fc_solve_cpu_s,
        };
        rounds.earlier.push((run, t.outcomes()));
        let again = fcsolve::measure(&fc.programs, a, b, preset, None)?;
        anyhow::ensure!(
            (&again.range_not_solved, again.iterations) == (&fc.range_not_solved, fc.iterations),
            "fc-solve's range solver gave other results in timed run {round} than in the first \
             ({} iterations, not solved {:?}; first {} and {:?})",
            again.iterations.unwrap_or(0),
            again.range_not_solved,
            fc.iterations.unwrap_or(0),
            fc.range_not_solved
        );
        rounds.last_fc_solve_cpu_s = again.cpu_s;
    }
    Ok(rounds)
}
