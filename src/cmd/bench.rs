//! `fcauto bench`: solve a range of deals in parallel, validate every solution, summarise,
//! and optionally measure Freecell Solver on the same deals in the same run.
//!
//! Stages: check the outputs, [`fcsolve_bench::measure`] (with `--vs-fc-solve`), `solve_all`
//! (workers take blocks of deals in order from a shared counter and send their rows to this
//! thread, which tallies them and streams them to `--json` in deal order), then the summary, the
//! `--plot-data` CSV and the `--plot` picture. Memory does not grow with the range: a row
//! lives until it is written, and the summary keeps counts per distinct value
//! ([`Counted`]).

use crate::checked::{solve_checked, ModeArg, Outcome};
use crate::cmd::distribution::{ms_key, Counted, Distribution};
use crate::cmd::fcsolve_bench::{self, FcSolveSummary};
use crate::cmd::input::is_stdio;
use crate::cmd::plural;
use crate::cmd::rusage;
use anyhow::{Context, Result};
use fcauto_deals::ms_deal;
use fcauto_solver::Mode;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Arguments of `fcauto bench`.
///
/// Move counts: `moves_total` counts every move once (a supermove of k cards is one move);
/// `single_card_moves` counts a k-card supermove as the single-card moves that realise it
/// (2k-1 through freecells, more when cards must be parked on empty cascades). Both include
/// all 52 foundation moves. fc-solve's solutions are counted the same way, by our validator.
#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("plot_outputs").multiple(true).args(["plot", "plot_data"]))]
pub struct Args {
    /// Deals to solve, `A..B` (inclusive), e.g. `1..32000`.
    #[arg(long, default_value = "1..1000", value_parser = parse_range, allow_hyphen_values = true)]
    pub range: (u64, u64),
    /// Worker threads, 0..=1024 (default and 0: all cores); never more than the deals.
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Search mode.
    #[arg(long, value_enum, default_value = "fast")]
    pub mode: ModeArg,
    /// Most positions one search stores before "unknown" (default: 1000000 for fast and
    /// short, 12000000 for the optimal modes).
    #[arg(long, value_parser = crate::cmd::input::parse_max_states)]
    pub max_states: Option<usize>,
    /// Write per-deal rows and the summary as JSON to FILE (`-`: standard output, and the
    /// text summary to standard error). Rows are written as deals finish, in deal order.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Also run Freecell Solver on the same deals: `freecell-solver-range-parallel-solve`
    /// for its CPU time and iterations per deal, and one `fc-solve` per board for its
    /// solution lengths (validated by our validator). Prints the ratios.
    #[arg(long)]
    pub vs_fc_solve: bool,
    /// fc-solve preset for --vs-fc-solve (`lg` = looking-glass, its fastest; `ve` =
    /// video-editing, its short-solution preset, hundreds of times slower).
    /// A name fc-solve's `presetrc` does not list is a usage error (when that file is found).
    #[arg(
        long,
        default_value = "lg",
        requires = "vs_fc_solve",
        value_parser = crate::cmd::fcsolve_bench::parse_preset
    )]
    pub fc_solve_preset: String,
    /// With --vs-fc-solve, run only the range solver (CPU time, iterations, verdicts), not
    /// the per-board `fc-solve` processes for solution lengths: those take most of the time
    /// over a large range (about 45 minutes over 1..1000000). Lengths, the per-board CPU
    /// time and the moves ratio are then null.
    #[arg(long, requires = "vs_fc_solve")]
    pub fc_solve_range_only: bool,
    /// With --vs-fc-solve, time both programs N times (1..=100), alternating: fc-solve's
    /// range solver, then fcauto. The CPU ratio is then over the sums of the N runs, and each
    /// run's times are listed: this kind of machine's speed can wander by a third between
    /// runs a minute apart, so one run's ratio is not to be trusted. fc-solve's figures
    /// (and lengths) come from its first run, fcauto's rows, summary and plot from its last,
    /// after every fc-solve run; a run whose verdicts or positions differ from the others is
    /// an error (both searches are deterministic).
    #[arg(long, value_name = "N", requires = "vs_fc_solve", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub repeat: Option<u32>,
    /// Draw the distribution of per-deal work (see --plot-metric) of fcauto and, with
    /// --vs-fc-solve, of fc-solve as a PNG: the share of deals that needed more than x,
    /// log-log, p50/p90/p99 marked. Needs the cargo feature `plot`.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    /// What --plot and --plot-data show per deal: `positions` (fcauto: positions
    /// expanded; fc-solve: iterations) or `cpu` (milliseconds; fcauto: the solving thread's
    /// CPU time; fc-solve: the range solver's wall-clock time per board, scaled to sum to its
    /// CPU time).
    #[arg(
        long,
        value_enum,
        default_value = "positions",
        requires = "plot_outputs"
    )]
    pub plot_metric: PlotMetric,
    /// Write the data behind --plot as CSV: `series,metric,value,deals,share_above`, one
    /// line per distinct value per program (deals with that value, and the share of deals
    /// with more). Needs no cargo feature. `-`: standard output, and the text summary to
    /// standard error.
    #[arg(long, value_name = "FILE.csv")]
    pub plot_data: Option<PathBuf>,
    /// Replace an existing --json, --plot or --plot-data file even when it is not one a
    /// `bench` run wrote (those are replaced without it).
    #[arg(long)]
    pub force: bool,
}

/// The per-deal quantity of `--plot` and `--plot-data`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlotMetric {
    /// Positions expanded (fc-solve: iterations).
    Positions,
    /// Milliseconds of CPU (fc-solve: the range solver's wall-clock time per board, from its
    /// progress lines, scaled to sum to its CPU time).
    Cpu,
}

/// One deal's result.
#[derive(Serialize, Clone, Debug)]
pub struct Row {
    /// Deal number.
    pub deal: u64,
    /// `solved`, `unsolvable` or `unknown`.
    pub verdict: &'static str,
    /// Moves (supermove = 1); null unless solved.
    pub moves_total: Option<usize>,
    /// Single-card moves; null unless solved.
    pub single_card_moves: Option<usize>,
    /// For `unknown`: the limit that stopped the search (as `solve` words it); null otherwise.
    pub limit: Option<String>,
    /// Positions expanded.
    pub expanded: u64,
    /// Wall-clock time the worker thread spent on this deal, milliseconds.
    #[serde(serialize_with = "crate::cmd::tidy::f64")]
    pub ms: f64,
    /// CPU time (user + system) of the worker thread on this deal, milliseconds: the CPU
    /// time of the block of 32 deals it was solved in, shared out in proportion to wall
    /// time (the thread's CPU clock is read once per block).
    #[serde(serialize_with = "crate::cmd::tidy::f64")]
    pub cpu_ms: f64,
}

/// Mean, median and max of a count.
#[derive(Serialize, Clone, Copy, Debug, Default)]
pub struct Spread {
    /// Arithmetic mean.
    #[serde(serialize_with = "crate::cmd::tidy::f64")]
    pub mean: f64,
    /// Median (the mean of the two middle values when their number is even).
    #[serde(serialize_with = "crate::cmd::tidy::f64")]
    pub median: f64,
    /// Maximum.
    #[serde(serialize_with = "crate::cmd::tidy::f64")]
    pub max: f64,
}

impl Spread {
    /// Spread of the values counted in `c` (keys are the values); `None` when `c` is empty
    /// (nothing solved).
    pub fn of(c: &Counted) -> Option<Spread> {
        if c.is_empty() {
            return None;
        }
        let n = c.len();
        let kth = |k| c.kth(k).unwrap_or_default() as f64;
        let median = if n % 2 == 1 {
            kth(n / 2 + 1)
        } else {
            (kth(n / 2) + kth(n / 2 + 1)) / 2.0
        };
        let d = c.distribution(1.0)?;
        Some(Spread {
            mean: d.mean,
            median,
            max: d.max,
        })
    }
}

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
    #[serde(serialize_with = "crate::cmd::tidy::f64")]
    pub cpu_s: f64,
    /// Wall time, seconds.
    #[serde(serialize_with = "crate::cmd::tidy::f64")]
    pub wall_s: f64,
    /// Deals per second of wall time.
    #[serde(serialize_with = "crate::cmd::tidy::f64")]
    pub deals_per_s: f64,
    /// Peak resident set size of the process, MiB.
    #[serde(serialize_with = "crate::cmd::tidy::f64")]
    pub peak_rss_mib: f64,
    /// Peak RSS divided by worker threads, MiB.
    #[serde(serialize_with = "crate::cmd::tidy::f64")]
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
    #[serde(serialize_with = "crate::cmd::tidy::opt")]
    pub cpu_ratio_vs_fc_solve: Option<f64>,
    /// Our CPU time / that of the per-deal fc-solve processes
    /// ([`FcSolveSummary::per_board_cpu_s`]).
    #[serde(serialize_with = "crate::cmd::tidy::opt")]
    pub cpu_ratio_vs_fc_solve_per_board: Option<f64>,
    /// Our mean moves_total / fc-solve's.
    #[serde(serialize_with = "crate::cmd::tidy::opt")]
    pub moves_ratio_vs_fc_solve: Option<f64>,
}

/// One timed run of both programs over the same deals (`bench --vs-fc-solve --repeat`).
#[derive(Serialize, Clone, Copy, Debug)]
pub struct TimingRun {
    /// Our CPU time (user + system, all threads), seconds.
    #[serde(serialize_with = "crate::cmd::tidy::f64")]
    pub fcauto_cpu_s: f64,
    /// The CPU time of fc-solve's range solver, seconds.
    #[serde(serialize_with = "crate::cmd::tidy::f64")]
    pub fc_solve_cpu_s: f64,
}

/// Parse `A..B` (inclusive) into deal numbers; clap's value parser for `--range`, so a bad
/// range is a usage error (exit 2) with this message.
pub fn parse_range(s: &str) -> std::result::Result<(u64, u64), String> {
    let (a, b) = fcauto_deals::parse_deal_range(s).map_err(|e| e.to_string())?;
    if b - a + 1 > MAX_BENCH_DEALS {
        return Err(format!(
            "range `{s}` has {} deals; a bench runs at most {MAX_BENCH_DEALS} (split it)",
            b - a + 1
        ));
    }
    Ok((a, b))
}

/// Most deals one `bench` run takes (larger ranges belong in `fcauto batch`, which resumes).
pub const MAX_BENCH_DEALS: u64 = 10_000_000;

/// Most worker threads `--threads` accepts.
pub const MAX_THREADS: usize = 1024;

/// Parse `--threads` (0..=[`MAX_THREADS`]); clap's value parser, so a bad count is a usage
/// error.
pub fn parse_threads(s: &str) -> std::result::Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of threads"))?;
    if n > MAX_THREADS {
        return Err(format!("{n} threads is too many (at most {MAX_THREADS})"));
    }
    Ok(n)
}

/// The deals of `unsolvable` known to be solvable ([`fcauto_deals::known_solvable`]: up to
/// 1,000,000 and not in [`fcauto_deals::IMPOSSIBLE_DEALS`]): a solver bug.
pub fn false_unsolvable(unsolvable: &[u64]) -> Vec<u64> {
    unsolvable
        .iter()
        .copied()
        .filter(|&n| fcauto_deals::known_solvable(n))
        .collect()
}

fn progress(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(deals_style());
    pb
}

/// The progress line of a run over deals (`bench`, `batch run`): the bar, deals done, the
/// rate ([`rate`]) and the time left.
pub fn deals_style() -> ProgressStyle {
    ProgressStyle::with_template("{bar:40} {pos}/{len} deals, {rate}, eta {eta}")
        .expect("a valid template")
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate(s.per_sec()));
            },
        )
}

/// A rate of deals per second to three significant figures or so (`1234/s`, `45.6/s`,
/// `3.21/s`): the progress line's, where indicatif's own `{per_sec}` prints four decimals.
pub fn rate(per_sec: f64) -> String {
    let decimals = match per_sec {
        r if !r.is_finite() => return "-/s".into(),
        r if r >= 100.0 => 0,
        r if r >= 10.0 => 1,
        _ => 2,
    };
    format!("{per_sec:.decimals$}/s")
}

/// Run the benchmark; exit 1 if any solution fails validation, any deal is unknown, or a
/// deal up to 1,000,000 outside [`fcauto_deals::IMPOSSIBLE_DEALS`] is reported unsolvable; exit 2 for
/// `--plot` in a build without the `plot` feature.
pub fn run(args: Args) -> Result<i32> {
    if let Some(code) = check_plot_args(&args) {
        return Ok(code);
    }
    for p in [&args.json, &args.plot, &args.plot_data]
        .into_iter()
        .flatten()
        .filter(|p| !is_stdio(p))
    {
        crate::cmd::input::check_output_path(p)?;
    }
    check_outputs_replaceable(&args)?;
    let (a, b) = args.range;
    // All cores unless told otherwise, and never more threads than deals.
    let wanted = match args.threads.unwrap_or(0) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let deals = usize::try_from(b - a + 1).unwrap_or(usize::MAX);
    let threads = wanted.min(deals).max(1);
    // fc-solve first, while this process is still small: a child's peak RSS as the kernel
    // reports it includes what it inherited from us at fork time.
    let fc = if args.vs_fc_solve {
        fcsolve_bench::check_installed(args.fc_solve_range_only)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        let lengths = (!args.fc_solve_range_only).then_some(&pool);
        Some(fcsolve_bench::measure(
            a,
            b,
            &args.fc_solve_preset,
            lengths,
        )?)
    } else {
        None
    };
    // With --repeat, the timed rounds before the one whose rows are kept, every fc-solve run
    // among them: a failure in any leaves no rows behind.
    let rounds = match &fc {
        Some(fc) => Some(earlier_rounds(&args, threads, fc)?),
        None => None,
    };
    let mut sink = RowSink::open(args.json.as_deref())?;
    let cpu0 = rusage::this_process().cpu_s;
    let t0 = Instant::now();
    let tally = solve_all(a, b, threads, args.mode.into(), args.max_states, &mut sink)?;
    let wall_s = t0.elapsed().as_secs_f64();
    let usage = rusage::this_process();
    let mut summary = Summary {
        from: a,
        to: b,
        mode: mode_name(args.mode),
        threads,
        solved: tally.solved,
        unsolvable: tally.unsolvable.clone(),
        unknown: tally.unknown.clone(),
        // Solved deals only: the others have no lengths.
        moves_total: Spread::of(&tally.moves_total),
        single_card_moves: Spread::of(&tally.single_card_moves),
        expanded: tally.expanded,
        positions: tally.positions.distribution(1.0),
        cpu_ms: tally.cpu_ms.distribution(1e-6),
        cpu_s: usage.cpu_s - cpu0,
        wall_s,
        deals_per_s: (b - a + 1) as f64 / wall_s,
        peak_rss_mib: usage.max_rss_mib,
        peak_rss_per_thread_mib: usage.max_rss_mib / threads as f64,
        fc_solve: None,
        timing_runs: Vec::new(),
        cpu_ratio_vs_fc_solve: None,
        cpu_ratio_vs_fc_solve_per_board: None,
        moves_ratio_vs_fc_solve: None,
    };
    if let (Some(fc), Some(rounds)) = (fc, rounds) {
        summary.timing_runs = rounds.with_last(summary.cpu_s, &tally)?;
        let (ours, theirs) = summary.timing_runs.iter().fold((0.0, 0.0), |(o, t), r| {
            (o + r.fcauto_cpu_s, t + r.fc_solve_cpu_s)
        });
        summary.cpu_ratio_vs_fc_solve = Some(ours / theirs);
        summary.cpu_ratio_vs_fc_solve_per_board = fc.per_board_cpu_s.map(|t| summary.cpu_s / t);
        summary.moves_ratio_vs_fc_solve = summary
            .moves_total
            .zip(fc.moves_total)
            .map(|(ours, theirs)| ours.mean / theirs.mean);
        summary.fc_solve = Some(fc);
    }
    let text = summary_text(&summary);
    if sink.is_stdout() || args.plot_data.as_deref().is_some_and(is_stdio) {
        // `--json -` or `--plot-data -`: the data on standard output, the text summary on
        // standard error.
        crate::note_raw!("{text}");
    } else {
        out!("{text}");
    }
    sink.finish(&summary)?;
    let curves = curves(&args, &summary, &tally);
    if let Some(p) = &args.plot_data {
        write_plot_data(p, &curves).with_context(|| format!("cannot write {}", p.display()))?;
    }
    if let Some(p) = &args.plot {
        draw_plot(p, &args, &summary, &curves)?;
    }
    let false_unsolvable = false_unsolvable(&summary.unsolvable);
    if !false_unsolvable.is_empty() {
        crate::note!(
            "fcauto bench: deals reported unsolvable but known solvable: {false_unsolvable:?}"
        );
    }
    if !summary.unknown.is_empty() {
        crate::note!(
            "fcauto bench: {} unknown (a limit was reached)",
            plural(summary.unknown.len(), "deal")
        );
    }
    Ok(
        if summary.unknown.is_empty() && false_unsolvable.is_empty() {
            0
        } else {
            1
        },
    )
}

/// What every timed run of ours must give again (the search is deterministic).
#[derive(PartialEq, Debug)]
struct Outcomes {
    solved: usize,
    unsolvable: Vec<u64>,
    unknown: Vec<u64>,
    expanded: u64,
}

impl Tally {
    fn outcomes(&self) -> Outcomes {
        Outcomes {
            solved: self.solved,
            unsolvable: self.unsolvable.clone(),
            unknown: self.unknown.clone(),
            expanded: self.expanded,
        }
    }
}

/// The `--repeat` rounds before the last, timed, and the CPU time of fc-solve's range
/// solver in the last round.
struct Rounds {
    earlier: Vec<(TimingRun, Outcomes)>,
    last_fc_solve_cpu_s: f64,
}

impl Rounds {
    /// Every timed run, the last being ours at `cpu_s` whose rows were kept, `tally`; an
    /// error if an earlier run of ours gave other results.
    fn with_last(self, cpu_s: f64, tally: &Tally) -> Result<Vec<TimingRun>> {
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

/// Rounds 1..N-1 of `--repeat N`, each fc-solve then us, after `fc` (round 1's fc-solve
/// run, the one whose figures the summary shows), and the last round's fc-solve run; our
/// runs here keep no rows. A later run of fc-solve's range solver with other verdicts or
/// iterations than `fc` is an error.
fn earlier_rounds(args: &Args, threads: usize, fc: &FcSolveSummary) -> Result<Rounds> {
    let (a, b) = args.range;
    let mut rounds = Rounds {
        earlier: Vec::new(),
        last_fc_solve_cpu_s: fc.cpu_s,
    };
    for round in 2..=args.repeat.unwrap_or(1) {
        let cpu0 = rusage::this_process().cpu_s;
        let mut none = RowSink::open(None)?;
        let t = solve_all(a, b, threads, args.mode.into(), args.max_states, &mut none)?;
        let run = TimingRun {
            fcauto_cpu_s: rusage::this_process().cpu_s - cpu0,
            fc_solve_cpu_s: rounds.last_fc_solve_cpu_s,
        };
        rounds.earlier.push((run, t.outcomes()));
        let again = fcsolve_bench::measure(a, b, &args.fc_solve_preset, None)?;
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

/// True when paths `a` and `b` name one file, however spelt (`x.out`, `./x.out`, an
/// absolute path, a link): for files that exist, as the `same-file` crate compares them;
/// otherwise by the canonical path of their folder and their name.
fn one_file(a: &Path, b: &Path) -> bool {
    if let Ok(same) = same_file::is_same_file(a, b) {
        return same;
    }
    let identity = |p: &Path| -> PathBuf {
        let dir = p
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        match (dir.canonicalize(), p.file_name()) {
            (Ok(d), Some(name)) => d.join(name),
            _ => p.to_path_buf(),
        }
    };
    a == b || identity(a) == identity(b)
}

/// Each output file given is absent or one a `bench` run wrote (judged by its opening: the
/// JSON's `{"rows": [`, the CSV's header, the chart's PNG mark), unless `--force`: a file of
/// yours is never replaced (helper-51: all three were, without a word).
///
/// # Errors
/// The first output that is another file, named.
fn check_outputs_replaceable(args: &Args) -> Result<()> {
    use crate::cmd::input::{check_replace, file_opening};
    if let Some(p) = &args.json {
        let ours = |p: &Path| file_opening(p, 16).starts_with(JSON_OPENING);
        check_replace(p, args.force, ours, "a bench run's JSON", "--json")?;
    }
    if let Some(p) = &args.plot_data {
        let ours = |p: &Path| file_opening(p, 64).starts_with(PLOT_DATA_HEADER);
        check_replace(p, args.force, ours, "a bench run's CSV", "--plot-data")?;
    }
    #[cfg(feature = "plot")]
    if let Some(p) = &args.plot {
        let ours = crate::cmd::bench_plot::drawn_here;
        check_replace(p, args.force, ours, "a bench run's chart", "--plot")?;
    }
    Ok(())
}

/// How `--json`'s file opens.
const JSON_OPENING: &str = "{\n  \"rows\": [";
/// `--plot-data`'s header line.
const PLOT_DATA_HEADER: &str = "series,metric,value,deals,share_above\n";

/// The exit code for output arguments that cannot work (after saying why), before any
/// solving: two outputs on one path; for `--plot`, no `plot` feature in this build, `-`, or a
/// name not ending in `.png` (an existing folder is left to [`check_output_path`], which
/// refuses it as it does for every output path).
///
/// [`check_output_path`]: crate::cmd::input::check_output_path
fn check_plot_args(args: &Args) -> Option<i32> {
    // Two outputs on one path: the later would overwrite the earlier without a word.
    let outputs = [&args.json, &args.plot, &args.plot_data];
    for (i, a) in outputs.iter().enumerate() {
        for b in &outputs[i + 1..] {
            if let (Some(a), Some(b)) = (a, b) {
                if !is_stdio(a) && !is_stdio(b) && one_file(a, b) {
                    return Some(crate::cmd::usage_exit(&format!(
                        "two outputs would be written to {}: give each its own file",
                        a.display()
                    )));
                }
                if a == b && is_stdio(a) {
                    return Some(crate::cmd::usage_exit(
                        "two outputs would be written to standard output (`-`): give \
                         all but one a file name",
                    ));
                }
            }
        }
    }
    let p = args.plot.as_deref()?;
    if !cfg!(feature = "plot") {
        return Some(crate::cmd::usage_exit(
            "--plot needs the cargo feature `plot`, which this build left out: \
             rebuild with `cargo build --release --features plot` (--plot-data writes the \
             data as CSV without it)",
        ));
    }
    if is_stdio(p) {
        return Some(crate::cmd::usage_exit(
            "--plot takes a file name for the PNG, not `-`",
        ));
    }
    let png = p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"));
    // A folder is refused like every other output path: by the shared check (exit 1).
    if !png && !p.is_dir() {
        return Some(crate::cmd::usage_exit(&format!(
            "--plot writes a PNG picture: give a file name ending in .png, not {}",
            p.display()
        )));
    }
    None
}

fn mode_name(m: ModeArg) -> String {
    clap::ValueEnum::to_possible_value(&m)
        .map(|v| v.get_name().to_string())
        .unwrap_or_default()
}

/// Solve and validate one deal on the calling thread; its row, timed by the wall clock
/// (`cpu_ms` is left 0: [`solve_block`] shares its block's CPU time out).
fn solve_one(n: u64, mode: Mode, max_states: Option<usize>) -> Result<Row> {
    let t = Instant::now();
    let board = ms_deal(n)?;
    let (out, stats) =
        solve_checked(Some(n), &board, mode, max_states).with_context(|| format!("deal {n}"))?;
    let cpu_ms = 0.0;
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    let row = |verdict, lengths: Option<(usize, usize)>, limit| Row {
        deal: n,
        verdict,
        moves_total: lengths.map(|l| l.0),
        single_card_moves: lengths.map(|l| l.1),
        limit,
        expanded: stats.expanded,
        ms,
        cpu_ms,
    };
    Ok(match out {
        Outcome::Solved(c) => row("solved", Some((c.moves_total, c.single_card_moves)), None),
        Outcome::Unsolvable => row("unsolvable", None, None),
        Outcome::Unknown(why) => row("unknown", None, Some(why.to_string())),
    })
}

/// Solve and validate the deals `deals` on the calling thread ([`solve_one`]), reading the
/// thread's CPU clock only before and after the block: a reading is a system call (on this
/// project's virtual machines about 2 us, 1.4% of `fast`'s time when read once per deal).
/// Each row's `cpu_ms` is its share of the block's CPU time in proportion to its wall time.
fn solve_block(
    deals: std::ops::RangeInclusive<u64>,
    mode: Mode,
    max_states: Option<usize>,
) -> Result<Vec<Row>> {
    let cpu0 = rusage::thread_cpu_ms();
    let mut rows = deals
        .map(|n| solve_one(n, mode, max_states))
        .collect::<Result<Vec<Row>>>()?;
    share_cpu(&mut rows, rusage::thread_cpu_ms() - cpu0);
    Ok(rows)
}

/// Set each row's `cpu_ms` to its share of `cpu_ms` (milliseconds) in proportion to its
/// wall time `ms` (equal shares if no wall time was measured), so that they sum to it.
fn share_cpu(rows: &mut [Row], cpu_ms: f64) {
    let wall: f64 = rows.iter().map(|r| r.ms).sum();
    let n = rows.len() as f64;
    for r in rows.iter_mut() {
        r.cpu_ms = if wall > 0.0 {
            cpu_ms * r.ms / wall
        } else {
            cpu_ms / n
        };
    }
}

/// Deals a worker takes from the counter at a time.
const BLOCK: u64 = 32;

/// How long a worker keeps the rows of the blocks it solved before it sends them at once: one
/// wake-up of the writing thread per batch rather than per block (a wake-up is a system call
/// and, on a virtual machine, an interrupt to another core: per block of 32 deals they cost
/// about 2% of the CPU time of `fast`, per deal more). A block that fails is sent at once.
const SEND_EVERY: Duration = Duration::from_millis(50);

/// Batches of rows the workers may be ahead of the writer before they wait.
const CHANNEL_BATCHES: usize = 64;

/// The rows of one block of deals (from its first deal on), or the error that stopped it.
type Block = (u64, Result<Vec<Row>>);

/// Solve deals `a..=b` on `threads` workers. Each worker takes the next [`BLOCK`] of deals
/// from a shared counter (so deals finish nearly in order and a slow deal holds up no other
/// worker) and sends their rows here every [`SEND_EVERY`]; this thread tallies the rows and hands them to `sink`
/// in deal order. Stops at the first error (a solution the validator rejected).
fn solve_all(
    a: u64,
    b: u64,
    threads: usize,
    mode: Mode,
    max_states: Option<usize>,
    sink: &mut RowSink,
) -> Result<Tally> {
    let next = AtomicU64::new(a);
    let stop = AtomicBool::new(false);
    let pb = progress(b - a + 1);
    let (tx, rx) = mpsc::sync_channel::<Vec<Block>>(CHANNEL_BATCHES);
    let mut tally = Tally::default();
    let res = std::thread::scope(|s| -> Result<()> {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            s.spawn(move || {
                let mut batch: Vec<Block> = Vec::new();
                let mut sent = Instant::now();
                while !stop.load(Ordering::Relaxed) {
                    let first = next.fetch_add(BLOCK, Ordering::Relaxed);
                    if first > b {
                        break;
                    }
                    let last = (first + BLOCK - 1).min(b);
                    let rows = solve_block(first..=last, mode, max_states);
                    let failed = rows.is_err();
                    batch.push((first, rows));
                    if failed || sent.elapsed() >= SEND_EVERY {
                        if tx.send(std::mem::take(&mut batch)).is_err() {
                            return;
                        }
                        sent = Instant::now();
                    }
                }
                if !batch.is_empty() {
                    let _ = tx.send(batch);
                }
            });
        }
        drop(tx);
        // Blocks that arrived before an earlier one: at most about the deals solved while
        // the slowest block under way is solved.
        let mut pending: BTreeMap<u64, Vec<Row>> = BTreeMap::new();
        let mut want = a;
        let mut failed = None;
        for (first, rows) in rx.into_iter().flatten() {
            let rows = match rows {
                Ok(rows) => rows,
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failed.get_or_insert(e);
                    continue;
                }
            };
            if failed.is_some() {
                continue;
            }
            pb.inc(rows.len() as u64);
            pending.insert(first, rows);
            while let Some(rows) = pending.remove(&want) {
                want += rows.len() as u64;
                for row in &rows {
                    tally.add(row);
                    if let Err(e) = sink.write(row) {
                        stop.store(true, Ordering::Relaxed);
                        failed.get_or_insert(e);
                        break;
                    }
                }
            }
        }
        failed.map_or(Ok(()), Err)
    });
    pb.finish_and_clear();
    res?;
    Ok(tally)
}

/// What the summary needs of the rows: counts, and counts per distinct value.
#[derive(Default)]
struct Tally {
    solved: usize,
    unsolvable: Vec<u64>,
    unknown: Vec<u64>,
    expanded: u64,
    moves_total: Counted,
    single_card_moves: Counted,
    positions: Counted,
    /// Keys: nanoseconds to 3 significant digits ([`ms_key`]).
    cpu_ms: Counted,
}

impl Tally {
    fn add(&mut self, r: &Row) {
        match r.verdict {
            "solved" => self.solved += 1,
            "unsolvable" => self.unsolvable.push(r.deal),
            _ => self.unknown.push(r.deal),
        }
        if let Some(m) = r.moves_total {
            self.moves_total.add(m as u64, m as f64);
        }
        if let Some(m) = r.single_card_moves {
            self.single_card_moves.add(m as u64, m as f64);
        }
        self.expanded += r.expanded;
        self.positions.add(r.expanded, r.expanded as f64);
        self.cpu_ms.add(ms_key(r.cpu_ms), r.cpu_ms);
    }
}

/// Where `--json` goes: `{"rows": [...], "summary": {...}}` written as the rows come, or
/// nowhere. A regular file (or a new one) is written under a temporary name beside it and
/// renamed when complete, so a failed or interrupted run leaves no half file; a symbolic
/// link's target is the file replaced (the link stays), with the old file's permissions.
/// Anything else that exists (`/dev/null`, a FIFO, `/dev/fd/N` of a process substitution)
/// is written into, as any program writes to it.
struct RowSink {
    out: Option<Box<dyn Write>>,
    /// The file as the user named it, for messages; none for standard output.
    named: Option<PathBuf>,
    /// (temporary file, the file it replaces when complete).
    rename: Option<(PathBuf, PathBuf)>,
    rows: u64,
}

impl RowSink {
    fn open(json: Option<&Path>) -> Result<RowSink> {
        let (out, named, rename): (Option<Box<dyn Write>>, _, _) = match json {
            None => (None, None, None),
            Some(p) if is_stdio(p) => (
                Some(Box::new(std::io::BufWriter::new(std::io::stdout().lock()))),
                None,
                None,
            ),
            Some(p) => {
                let cannot = || format!("cannot write {}", p.display());
                // Through symbolic links: the file they lead to, if it exists.
                let target = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
                // `/dev/stdout` may lead to the file standard output was sent to: written
                // into, as the rest of standard output is, never replaced.
                let device = p.starts_with("/dev") || p.starts_with("/proc");
                match std::fs::metadata(&target) {
                    Ok(m) if !m.is_file() || device => {
                        let f = std::fs::OpenOptions::new()
                            .write(true)
                            .open(&target)
                            .with_context(cannot)?;
                        let f: Box<dyn Write> = Box::new(std::io::BufWriter::new(f));
                        (Some(f), Some(p.to_path_buf()), None)
                    }
                    old => {
                        crate::cmd::interrupt::remove_stale_temps(&target);
                        let tmp = crate::cmd::interrupt::temp_beside(&target);
                        crate::cmd::interrupt::remove_on_interrupt(&tmp);
                        let f = std::fs::File::create(&tmp).with_context(cannot)?;
                        if let Ok(m) = old {
                            let _ = f.set_permissions(m.permissions());
                        }
                        let f: Box<dyn Write> = Box::new(std::io::BufWriter::new(f));
                        (Some(f), Some(p.to_path_buf()), Some((tmp, target)))
                    }
                }
            }
        };
        let mut sink = RowSink {
            out,
            named,
            rename,
            rows: 0,
        };
        sink.put(JSON_OPENING.as_bytes())?;
        Ok(sink)
    }

    fn is_stdout(&self) -> bool {
        self.out.is_some() && self.named.is_none()
    }

    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        let Some(out) = self.out.as_mut() else {
            return Ok(());
        };
        out.write_all(bytes).map_err(|e| match &self.named {
            Some(p) => anyhow::anyhow!("cannot write {}: {e}", p.display()),
            None => anyhow::anyhow!("cannot write to standard output: {e}"),
        })
    }

    fn write(&mut self, row: &Row) -> Result<()> {
        if self.out.is_none() {
            return Ok(());
        }
        let sep: &[u8] = if self.rows == 0 {
            b"\n    "
        } else {
            b",\n    "
        };
        self.put(sep)?;
        self.put(&serde_json::to_vec(row)?)?;
        self.rows += 1;
        Ok(())
    }

    /// Close the rows, add the summary, and put the file in place.
    fn finish(mut self, summary: &Summary) -> Result<()> {
        if self.out.is_none() {
            return Ok(());
        }
        let summary = serde_json::to_string_pretty(summary)?.replace('\n', "\n  ");
        self.put(format!("\n  ],\n  \"summary\": {summary}\n}}\n").as_bytes())?;
        if let Some(mut out) = self.out.take() {
            out.flush().map_err(|e| match &self.named {
                Some(p) => anyhow::anyhow!("cannot write {}: {e}", p.display()),
                None => anyhow::anyhow!("cannot write to standard output: {e}"),
            })?;
        }
        if let Some((tmp, target)) = self.rename.take() {
            let renamed = std::fs::rename(&tmp, &target);
            if renamed.is_err() {
                let _ = std::fs::remove_file(&tmp);
            }
            crate::cmd::interrupt::forget(&tmp);
            let named = self.named.as_deref().unwrap_or(&target);
            renamed.with_context(|| format!("cannot write {}", named.display()))?;
        }
        Ok(())
    }
}

impl Drop for RowSink {
    /// A run that did not finish leaves no partial file.
    fn drop(&mut self) {
        if let Some((tmp, _)) = self.rename.take() {
            self.out.take();
            let _ = std::fs::remove_file(&tmp);
            crate::cmd::interrupt::forget(&tmp);
        }
    }
}

/// One point of a [`Curve`]: a value of the quantity, how many deals had it, and the share
/// of deals with a larger value.
#[derive(Debug, Clone, Copy)]
pub struct CurvePoint {
    /// The value, in the quantity's units (positions, iterations, milliseconds).
    pub value: f64,
    /// Deals with this value.
    pub deals: u64,
    /// Share of the deals (0..=1) with a larger value.
    pub share_above: f64,
}

/// One program's per-deal quantity as `--plot` draws it and `--plot-data` writes it.
// Without the `plot` feature only --plot-data reads it: the legend's fields go unused.
#[cfg_attr(not(feature = "plot"), allow(dead_code))]
#[derive(Debug, Clone)]
pub struct Curve {
    /// `fcauto` or `fc-solve`.
    pub series: &'static str,
    /// What is counted: `positions`, `iterations`, `cpu_ms`, `range_solver_ms`.
    pub metric: &'static str,
    /// The legend's text.
    pub label: String,
    /// Deals counted.
    pub deals: u64,
    /// One point per distinct value, ascending.
    pub points: Vec<CurvePoint>,
    /// p50, p90, p99, as in the summary.
    pub percentiles: [f64; 3],
}

impl Curve {
    /// The curve of the values in `c` (keys times `scale`); `None` when `c` is empty.
    fn of(
        series: &'static str,
        metric: &'static str,
        name: String,
        c: &Counted,
        scale: f64,
    ) -> Option<Curve> {
        let d = c.distribution(scale)?;
        let n = c.len();
        let mut above = n;
        let points = c
            .counts()
            .map(|(k, deals)| {
                above -= deals;
                CurvePoint {
                    value: k as f64 * scale,
                    deals,
                    share_above: above as f64 / n as f64,
                }
            })
            .collect();
        let g = |x: f64| {
            if scale == 1.0 {
                format!("{x:.0}")
            } else {
                format!("{x:.3}")
            }
        };
        Some(Curve {
            series,
            metric,
            label: format!(
                "{name}: p50 {}, p90 {}, p99 {}, max {}",
                g(d.p50),
                g(d.p90),
                g(d.p99),
                g(d.max)
            ),
            deals: n,
            points,
            percentiles: [d.p50, d.p90, d.p99],
        })
    }
}

/// The curves of `--plot-metric`: fcauto's, then fc-solve's when it ran.
fn curves(args: &Args, s: &Summary, t: &Tally) -> Vec<Curve> {
    let ours = format!("fcauto {}", s.mode);
    let theirs = s
        .fc_solve
        .as_ref()
        .map(|f| (format!("fc-solve -l {}", f.preset), f));
    let mut v = Vec::new();
    match args.plot_metric {
        PlotMetric::Positions => {
            v.extend(Curve::of(
                "fcauto",
                "positions",
                format!("{ours}, positions expanded"),
                &t.positions,
                1.0,
            ));
            if let Some((name, f)) = theirs {
                v.extend(Curve::of(
                    "fc-solve",
                    "iterations",
                    format!("{name}, iterations"),
                    &f.iterations_counted,
                    1.0,
                ));
            }
        }
        PlotMetric::Cpu => {
            v.extend(Curve::of(
                "fcauto",
                "cpu_ms",
                format!("{ours}, thread CPU ms"),
                &t.cpu_ms,
                1e-6,
            ));
            if let Some((name, f)) = theirs {
                v.extend(Curve::of(
                    "fc-solve",
                    "range_solver_ms",
                    format!("{name}, range solver ms"),
                    &f.range_ms_counted,
                    1e-6,
                ));
            }
        }
    }
    v
}

/// `--plot-data`: `series,metric,value,deals,share_above`, one line per point (`-`: to
/// standard output), fractions to 12 significant digits as in the JSON ([`super::tidy`]).
fn write_plot_data(p: &Path, curves: &[Curve]) -> Result<()> {
    let mut text = String::from(PLOT_DATA_HEADER);
    for c in curves {
        for pt in &c.points {
            text.push_str(&format!(
                "{},{},{},{},{}\n",
                c.series,
                c.metric,
                super::tidy::tidy(pt.value),
                pt.deals,
                super::tidy::tidy(pt.share_above)
            ));
        }
    }
    if is_stdio(p) {
        out!("{text}");
    } else {
        std::fs::write(p, text)?;
    }
    Ok(())
}

/// `--plot`: the picture, titled with the range, the mode and today's date.
#[cfg(feature = "plot")]
fn draw_plot(p: &Path, args: &Args, s: &Summary, curves: &[Curve]) -> Result<()> {
    let vs_fc = s.fc_solve.is_some();
    let (what, x_desc) = match (args.plot_metric, vs_fc) {
        (PlotMetric::Positions, true) => (
            "Positions expanded per deal",
            "positions expanded per deal (fc-solve: iterations), log scale",
        ),
        (PlotMetric::Positions, false) => (
            "Positions expanded per deal",
            "positions expanded per deal, log scale",
        ),
        (PlotMetric::Cpu, true) => (
            "CPU time per deal",
            "milliseconds per deal (fcauto: thread CPU; fc-solve: range solver), log scale",
        ),
        (PlotMetric::Cpu, false) => (
            "CPU time per deal",
            "CPU milliseconds per deal (the solving thread), log scale",
        ),
    };
    let vs = s
        .fc_solve
        .as_ref()
        .map_or(String::new(), |f| format!(" vs fc-solve -l {}", f.preset));
    let title = format!(
        "{what}: deals {}..{}, fcauto {}{vs}, {}",
        s.from,
        s.to,
        s.mode,
        crate::cmd::plotting::today_utc()
    );
    crate::cmd::bench_plot::draw(p, &title, x_desc, curves)?;
    crate::note!("fcauto bench: wrote {}", p.display());
    Ok(())
}

#[cfg(not(feature = "plot"))]
fn draw_plot(_: &Path, _: &Args, _: &Summary, _: &[Curve]) -> Result<()> {
    anyhow::bail!("--plot needs the cargo feature `plot`")
}

/// The text summary (as printed), one line per figure.
fn summary_text(s: &Summary) -> String {
    let mut out = String::new();
    macro_rules! say {
        ($($t:tt)*) => {{
            out.push_str(&format!($($t)*));
            out.push('\n');
        }};
    }
    let total = s.to - s.from + 1;
    say!(
        "fcauto bench, deals {}..{} ({}), mode {}, {}",
        s.from,
        s.to,
        plural(total, "deal"),
        s.mode,
        plural(s.threads, "thread")
    );
    say!("  solved and validated: {}", s.solved);
    say!(
        "  proven unsolvable:    {} {:?}",
        s.unsolvable.len(),
        s.unsolvable
    );
    say!(
        "  unknown (limit):      {} {:?}",
        s.unknown.len(),
        s.unknown
    );
    let sp = |x: &Option<Spread>| match x {
        None => "n/a (nothing solved)".to_string(),
        Some(x) => format!(
            "mean {:.2}, median {:.1}, max {:.0} (solved deals)",
            x.mean, x.median, x.max
        ),
    };
    say!("  moves_total:          {}", sp(&s.moves_total));
    say!("  single_card_moves:    {}", sp(&s.single_card_moves));
    say!("  positions expanded:   {}", s.expanded);
    say!("  positions per deal:   {}", dist(&s.positions, 0, ""));
    say!(
        "  CPU per deal:         {} (each deal's solving thread)",
        dist(&s.cpu_ms, 3, " ms")
    );
    say!(
        "  CPU time:             {} ({:.3} ms/deal; the whole process over the run, every thread and the rows kept)",
        crate::cmd::seconds_text(s.cpu_s),
        s.cpu_s * 1000.0 / total as f64
    );
    say!(
        "  wall time:            {} ({:.0} deals/s)",
        crate::cmd::seconds_text(s.wall_s),
        s.deals_per_s
    );
    say!(
        "  peak RSS:             {:.1} MiB ({:.1} MiB per thread)",
        s.peak_rss_mib,
        s.peak_rss_per_thread_mib
    );
    if let Some(fc) = &s.fc_solve {
        say!("fc-solve -l {} on the same deals:", fc.preset);
        say!(
            "  solved: {}, not solved: {} {:?}",
            fc.solved,
            fc.not_solved.len(),
            fc.not_solved
        );
        say!(
            "  CPU time (range solver): {} ({:.3} ms/deal), peak RSS {:.1} MiB",
            crate::cmd::seconds_text(fc.cpu_s),
            fc.cpu_s * 1000.0 / total as f64,
            fc.peak_rss_mib
        );
        match fc.per_board_cpu_s {
            Some(t) => say!(
                "  CPU time (one fc-solve process per deal, for the lengths): {} ({:.3} ms/deal)",
                crate::cmd::seconds_text(t),
                t * 1000.0 / total as f64
            ),
            None => {
                say!("  (no per-deal fc-solve processes, so no lengths: --fc-solve-range-only)")
            }
        }
        say!(
            "  iterations per deal (range solver): {}",
            dist(&fc.iterations_per_deal, 0, "")
        );
        say!(
            "  time per deal (range solver):       {}",
            dist(&fc.range_ms_per_deal, 3, " ms")
        );
        if fc.per_board_cpu_s.is_some() {
            say!("  moves_total:          {}", sp(&fc.moves_total));
            say!("  single_card_moves:    {}", sp(&fc.single_card_moves));
            say!(
                "  fc-solve solutions rejected by our validator: {}",
                fc.invalid.len()
            );
        }
        if s.timing_runs.len() > 1 {
            let runs: Vec<String> = s
                .timing_runs
                .iter()
                .map(|r| {
                    let (o, t) = (r.fcauto_cpu_s, r.fc_solve_cpu_s);
                    format!("{o:.3}/{t:.3} ({:.3})", o / t)
                })
                .collect();
            say!(
                "timed runs, CPU s fcauto/fc-solve range solver (ratio): {}; the CPU ratio below is over their sums",
                runs.join(", ")
            );
        }
        // A ratio without a denominator (no deal solved by both, no time) is `n/a`.
        let ratio = |r: Option<f64>| r.map_or("n/a".to_string(), |r| format!("{r:.3}"));
        say!(
            "ratios: CPU fcauto/fc-solve = {} (range solver; {} against the per-deal processes), mean moves fcauto/fc-solve = {}",
            ratio(s.cpu_ratio_vs_fc_solve),
            ratio(s.cpu_ratio_vs_fc_solve_per_board),
            ratio(s.moves_ratio_vs_fc_solve)
        );
        if !s.unknown.is_empty() {
            // fcauto stopped on these at a limit while fc-solve ran to its end (helper-57:
            // `--max-states 1` gave a CPU ratio of 0.001).
            say!(
                "  (fcauto left {} to a limit: the CPU ratio compares unequal work)",
                plural(s.unknown.len(), "deal")
            );
        }
    }
    out
}

/// `mean M, p50 A, p90 B, p99 C, max D` (`digits` decimals, the mean at least one, each
/// followed by `unit`), or `n/a`.
fn dist(d: &Option<Distribution>, digits: usize, unit: &str) -> String {
    let Some(d) = d else {
        return "n/a".to_string();
    };
    let f = |x: f64, digits: usize| format!("{x:.digits$}{unit}");
    format!(
        "mean {}, p50 {}, p90 {}, p99 {}, max {}",
        f(d.mean, digits.max(1)),
        f(d.p50, digits),
        f(d.p90, digits),
        f(d.p99, digits),
        f(d.max, digits)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(ms: f64) -> Row {
        Row {
            deal: 1,
            verdict: "solved",
            moves_total: None,
            single_card_moves: None,
            limit: None,
            expanded: 0,
            ms,
            cpu_ms: -1.0,
        }
    }

    /// A block's CPU time is shared out by wall time and sums to it; with no wall time
    /// measured, in equal shares.
    #[test]
    fn a_blocks_cpu_time_is_shared_by_wall_time() {
        let mut rows = vec![row(1.0), row(3.0), row(0.0)];
        share_cpu(&mut rows, 8.0);
        let got: Vec<f64> = rows.iter().map(|r| r.cpu_ms).collect();
        assert_eq!(got, [2.0, 6.0, 0.0]);
        let mut rows = vec![row(0.0), row(0.0)];
        share_cpu(&mut rows, 3.0);
        assert!(rows.iter().all(|r| r.cpu_ms == 1.5));
    }

    /// Every row of a solved block gets a CPU time, and they add up to no more than the
    /// thread's clock moved over the block.
    #[test]
    fn a_block_reads_the_cpu_clock_around_its_deals() {
        let before = rusage::thread_cpu_ms();
        let rows = solve_block(1..=3, Mode::Fast, None).unwrap();
        let spent = rusage::thread_cpu_ms() - before;
        assert_eq!(rows.iter().map(|r| r.deal).collect::<Vec<_>>(), [1, 2, 3]);
        assert!(rows.iter().all(|r| r.cpu_ms >= 0.0));
        let sum: f64 = rows.iter().map(|r| r.cpu_ms).sum();
        assert!(sum > 0.0 && sum <= spent + 1e-9, "{sum} of {spent}");
    }
}
