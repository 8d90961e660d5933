//! `fcauto bench`: solve a range of deals in parallel, validate every solution, summarise,
//! and optionally measure Freecell Solver on the same deals in the same run.
//!
//! The harness is [`fcauto_engine::bench`]; this module is its command line: the output
//! paths checked first, fc-solve measured (with `--vs-fc-solve`), the range solved with a
//! progress bar and its rows streamed to `--json` in deal order (through a temporary file
//! that an interrupt removes), then the summary, the `--plot-data` CSV, the `--plot`
//! picture and the exit code.

use crate::cmd::input::is_stdio;
use crate::mode::ModeArg;
use anyhow::{Context, Result};
use fcauto_engine::bench::json_file::RowSink;
use fcauto_engine::bench::summary::{self, timed, Rounds};
use fcauto_engine::bench::{
    output, summary_text, Curve, FcSolveSummary, Job, Metric, Progress, Summary, Variant,
};
use fcauto_engine::partial::Cleanup;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Arguments of `fcauto bench`.
///
/// Move counts: `moves_total` counts every move once (a supermove of k cards is one move);
/// `single_card_moves` counts a k-card supermove as the single-card moves that realise it
/// (2k-1 through freecells, more when cards must be parked on empty cascades). Both include
/// all 52 foundation moves. fc-solve's solutions are counted the same way, by our validator.
#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("plot_outputs").multiple(true).args(["plot", "plot_data"]))]
pub struct Args {
    /// Deals to solve, `A..B` (inclusive) within 1..8589934591 (with --game too: PySolFC's
    /// larger numbers are for `deal` and `solve`), e.g. `1..32000`; with --game, `msA..msB`
    /// is Microsoft's deals in the game's layout (PySolFC's `msN`).
    #[arg(long, default_value = "1..1000", value_parser = parse_range, allow_hyphen_values = true)]
    pub range: fcauto_deals::DealRange,
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
        value_parser = parse_preset
    )]
    pub fc_solve_preset: String,
    /// With --vs-fc-solve, run only the range solver (CPU time, iterations, verdicts), not
    /// the per-board `fc-solve` processes for solution lengths: those take most of the time
    /// over a large range (about 45 minutes over 1..1000000). Lengths, the per-board CPU
    /// time and the moves ratio are then null.
    #[arg(long, requires = "vs_fc_solve")]
    pub fc_solve_range_only: bool,
    /// With --vs-fc-solve, the folder holding the `fc-solve` and
    /// `freecell-solver-range-parallel-solve` to time (such as the native build of
    /// scripts/build-fc-solve.sh). Without it: the folder `$FCAUTO_FC_SOLVE_DIR`, else that
    /// script's install folder in the cargo target dir fcauto was built in
    /// (`<target>/fc-solve-native/bin`) when it is there, else Debian's programs on PATH.
    /// The summary names the build timed.
    #[arg(long, value_name = "DIR", requires = "vs_fc_solve", value_parser = parse_fc_solve_bin)]
    pub fc_solve_bin: Option<PathBuf>,
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
    /// The game (--game) and its freecells (--freecells): rules other than standard
    /// FreeCell's are benched with the family search (every mode but optimal-ph, optimal
    /// only for the limited-sequence games; its verdicts are exact: "unsolvable" only after
    /// a complete search).
    #[command(flatten)]
    pub game: crate::game::GameArgs,
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

impl From<PlotMetric> for Metric {
    fn from(m: PlotMetric) -> Metric {
        match m {
            PlotMetric::Positions => Metric::Positions,
            PlotMetric::Cpu => Metric::Cpu,
        }
    }
}

/// Parse `A..B` (inclusive) into deal numbers; clap's value parser for `--range`, so a bad
/// range is a usage error (exit 2) with this message.
pub fn parse_range(s: &str) -> std::result::Result<fcauto_deals::DealRange, String> {
    let range = fcauto_deals::DealRange::parse(s).map_err(|e| e.to_string())?;
    let (a, b) = range.bounds();
    if b - a + 1 > MAX_BENCH_DEALS {
        return Err(format!(
            "range `{s}` has {} deals; a bench runs at most {MAX_BENCH_DEALS} (split it)",
            b - a + 1
        ));
    }
    Ok(range)
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

/// Parse `--fc-solve-preset`: a name fc-solve's `presetrc` lists (checked when that file
/// is found), so that a misspelt one is a usage error (exit 2) naming the choices, before
/// any deal is solved.
pub fn parse_preset(s: &str) -> std::result::Result<String, String> {
    if s.is_empty() || s.starts_with('-') {
        return Err(format!("`{s}` is not a preset name"));
    }
    match fcauto_automation::fcsolve::preset_names() {
        Some(names) if !names.iter().any(|n| n == s) => Err(format!(
            "fc-solve has no preset `{s}` (its presetrc lists: {})",
            names.join(", ")
        )),
        _ => Ok(s.to_string()),
    }
}

/// Parse `--fc-solve-bin`: a folder holding both fc-solve programs, so that a wrong one is
/// a usage error (exit 2) before any deal is solved.
pub fn parse_fc_solve_bin(s: &str) -> std::result::Result<PathBuf, String> {
    let dir = PathBuf::from(s);
    if !dir.is_dir() {
        return Err(format!("{s} is not a folder"));
    }
    let programs = fcauto_automation::fcsolve::Programs::in_dir(&dir);
    fcauto_automation::fcsolve::check_installed_in(&programs, false).map_err(|e| e.to_string())?;
    Ok(dir)
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

/// The progress bar of a range solve: a new one per solve, shown only on a terminal.
#[derive(Default)]
struct Bar(Option<ProgressBar>);

impl Progress for Bar {
    fn start(&mut self, deals: u64) {
        self.0 = Some(progress(deals));
    }
    fn advance(&mut self, deals: u64) {
        if let Some(pb) = &self.0 {
            pb.inc(deals);
        }
    }
    fn finish(&mut self) {
        if let Some(pb) = self.0.take() {
            pb.finish_and_clear();
        }
    }
}

/// Run the benchmark; exit 1 if any solution fails validation, any deal is unknown, or a
/// deal up to 1,000,000 outside [`fcauto_deals::IMPOSSIBLE_DEALS`] is reported unsolvable;
/// exit 2 for `--plot` in a build without the `plot` feature.
pub fn run(args: Args) -> Result<i32> {
    if let Some(msg) =
        range_problem(&args.game, &args.range).or_else(|| family_usage_problem(&args))
    {
        return Ok(crate::cmd::usage_exit(&msg));
    }
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
    let job = job(&args);
    // fc-solve first, while this process is still small: a child's peak RSS as the kernel
    // reports it includes what it inherited from us at fork time.
    let fc = measure_fc_solve(&args, &job)?;
    let cleanup = Cleanup {
        register: crate::cmd::interrupt::remove_on_interrupt,
        forget: crate::cmd::interrupt::forget,
    };
    let mut sink = RowSink::open(args.json.as_deref(), cleanup)?;
    let t = timed(&job, &mut Bar::default(), &mut |row| sink.write(row))?;
    let mut summary = Summary::new(&job, &mode_name(args.mode), &t);
    if let Some((fc, rounds)) = fc {
        summary.compare(fc, rounds, &t.tally)?;
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
    let curves = output::curves(args.plot_metric.into(), &summary, &t.tally);
    if let Some(p) = &args.plot_data {
        write_plot_data(p, &curves).with_context(|| format!("cannot write {}", p.display()))?;
    }
    if let Some(p) = &args.plot {
        draw_plot(p, &args, &summary, &curves)?;
    }
    exit_code(&summary)
}

/// The range solve `args` ask for: all cores unless told otherwise, and never more
/// threads than deals.
fn job(args: &Args) -> Job {
    let (a, b) = args.range.bounds();
    let wanted = match args.threads.unwrap_or(0) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let deals = usize::try_from(b - a + 1).unwrap_or(usize::MAX);
    Job {
        from: a,
        to: b,
        threads: wanted.min(deals).max(1),
        mode: args.mode.into(),
        max_states: args.max_states,
        variant: variant(&args.game, &args.range),
    }
}

/// The game, rules and numbering `--game` and `--freecells` ask for over `range` (with
/// --game, `msA..msB` is Microsoft's deals; a mixed range, refused by [`range_problem`],
/// reads as PySolFC's numbers).
pub fn variant(game: &crate::game::GameArgs, range: &fcauto_deals::DealRange) -> Variant {
    let named = game.game.is_some();
    Variant::for_range(game.game(), game.freecells, named, range)
        .unwrap_or_else(|_| Variant::new(game.game(), game.freecells, named))
}

/// A range that mixes `msN` with a plain Mersenne Twister number under --game (exit 2).
pub fn range_problem(
    game: &crate::game::GameArgs,
    range: &fcauto_deals::DealRange,
) -> Option<String> {
    let named = game.game.is_some();
    Variant::for_range(game.game(), game.freecells, named, range)
        .err()
        .map(|e| e.to_string())
}

/// What the family search does not offer (exit 2): `optimal-ph`, `optimal` for the
/// unlimited-sequence games ([`Variant::family_mode`]), and fc-solve's figures beside
/// ours.
fn family_usage_problem(args: &Args) -> Option<String> {
    let v = variant(&args.game, &args.range);
    if v.is_microsoft_freecell() {
        return None;
    }
    if v.is_standard() {
        // PySolFC's numbers reaching 32000: fc-solve's range solver deals Microsoft's.
        return args.vs_fc_solve.then(|| {
            format!(
                "--vs-fc-solve: deals {}..{} with --game freecell are PySolFC's, from 32000 on Mersenne Twister deals, which fc-solve's range solver does not deal; leave out --game for Microsoft's deals",
                args.range.first, args.range.last
            )
        });
    }
    if let Err(why) = v.family_mode(args.mode.into()) {
        return Some(why);
    }
    if let Some(why) = v.cells_problem() {
        return Some(why);
    }
    args.vs_fc_solve.then(|| {
        format!(
            "{}: --vs-fc-solve is for standard FreeCell only in this build",
            v.title()
        )
    })
}

/// With `--vs-fc-solve`: fc-solve's figures and the earlier `--repeat` rounds
/// ([`measure_fc_solve`](fcauto_engine::bench::summary::measure_fc_solve)).
fn measure_fc_solve(args: &Args, job: &Job) -> Result<Option<(FcSolveSummary, Rounds)>> {
    if !args.vs_fc_solve {
        return Ok(None);
    }
    let (dir, range_only) = (args.fc_solve_bin.as_deref(), args.fc_solve_range_only);
    let (preset, repeat) = (&args.fc_solve_preset, args.repeat.unwrap_or(1));
    let bar = &mut Bar::default();
    let measured = summary::measure_fc_solve(job, dir, range_only, preset, repeat, bar)?;
    Ok(Some(measured))
}

/// Say what went wrong ([`Summary::problems`]), and the exit code: 1 for a deal unknown or
/// a known-solvable deal reported unsolvable, else 0 (always 0 for the other games of the
/// family, which have no list of known verdicts).
fn exit_code(summary: &Summary) -> Result<i32> {
    let problems = summary.problems();
    for p in &problems {
        crate::note!("fcauto bench: {p}");
    }
    Ok(i32::from(!problems.is_empty()))
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
/// yours is never replaced.
///
/// # Errors
/// The first output that is another file, named.
fn check_outputs_replaceable(args: &Args) -> Result<()> {
    use crate::cmd::input::{check_replace, file_opening};
    if let Some(p) = &args.json {
        let ours = |p: &Path| file_opening(p, 16).starts_with(output::JSON_OPENING);
        check_replace(p, args.force, ours, "a bench run's JSON", "--json")?;
    }
    if let Some(p) = &args.plot_data {
        let ours = |p: &Path| file_opening(p, 64).starts_with(output::PLOT_DATA_HEADER);
        check_replace(p, args.force, ours, "a bench run's CSV", "--plot-data")?;
    }
    #[cfg(feature = "plot")]
    if let Some(p) = &args.plot {
        let ours = fcauto_engine::bench::plot::drawn_here;
        check_replace(p, args.force, ours, "a bench run's chart", "--plot")?;
    }
    Ok(())
}

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

/// `--plot-data`: the CSV ([`output::plot_data`]) to its file, or with `-` to standard
/// output.
fn write_plot_data(p: &Path, curves: &[Curve]) -> Result<()> {
    let text = output::plot_data(curves);
    if is_stdio(p) {
        out!("{text}");
    } else {
        std::fs::write(p, text)?;
    }
    Ok(())
}

/// `--plot`: the picture ([`fcauto_engine::bench::plot::chart`]).
#[cfg(feature = "plot")]
fn draw_plot(p: &Path, args: &Args, s: &Summary, curves: &[Curve]) -> Result<()> {
    fcauto_engine::bench::plot::chart(p, args.plot_metric.into(), s, curves)?;
    crate::note!("fcauto bench: wrote {}", p.display());
    Ok(())
}

#[cfg(not(feature = "plot"))]
fn draw_plot(_: &Path, _: &Args, _: &Summary, _: &[Curve]) -> Result<()> {
    anyhow::bail!("--plot needs the cargo feature `plot`")
}
