//! `fcauto bench`: solve a range of deals in parallel, validate every solution, summarise,
//! and optionally measure Freecell Solver on the same deals in the same run.

use crate::cmd::fcsolve_bench::{self, FcSolveSummary};
use crate::cmd::input::is_stdio;
use crate::cmd::plural;
use crate::cmd::rusage;
use crate::cmd::solve::{solve_checked, ModeArg, Outcome};
use anyhow::{Context, Result};
use fcauto_deals::ms_deal;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `fcauto bench`.
///
/// Move counts: `moves_total` counts every move once (a supermove of k cards is one move);
/// `single_card_moves` counts a k-card supermove as the single-card moves that realise it
/// (2k-1 through freecells, more when cards must be parked on empty cascades). Both include
/// all 52 foundation moves. fc-solve's solutions are counted the same way, by our validator.
#[derive(clap::Args)]
pub struct Args {
    /// Deals to solve, `A..B` (inclusive), e.g. `1..32000`.
    #[arg(long, default_value = "1..1000", value_parser = parse_range)]
    pub range: (u64, u64),
    /// Worker threads, 0..=1024 (default and 0: all cores); never more than the deals.
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Search mode.
    #[arg(long, value_enum, default_value = "fast")]
    pub mode: ModeArg,
    /// Most positions stored per deal before "unknown" (default: 200000 for fast and short,
    /// 12000000 for the optimal modes).
    #[arg(long)]
    pub max_states: Option<usize>,
    /// Write per-deal rows and the summary as JSON to FILE (`-`: standard output, and the
    /// text summary to standard error).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Also run Freecell Solver on the same deals: `freecell-solver-range-parallel-solve`
    /// for its CPU time, and one `fc-solve` per board for its solution lengths (validated
    /// by our validator). Prints the ratios.
    #[arg(long)]
    pub vs_fc_solve: bool,
    /// fc-solve preset for --vs-fc-solve (`lg` = looking-glass, its fastest; `ve` =
    /// video-editing, its short-solution preset, hundreds of times slower).
    #[arg(long, default_value = "lg", requires = "vs_fc_solve")]
    pub fc_solve_preset: String,
}

/// One deal's result.
#[derive(Serialize, Clone)]
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
    /// Thread time spent on this deal, milliseconds.
    pub ms: f64,
}

/// Mean, median and max of a count.
#[derive(Serialize, Clone, Copy, Debug, Default)]
pub struct Spread {
    /// Arithmetic mean.
    pub mean: f64,
    /// Median.
    pub median: f64,
    /// Maximum.
    pub max: f64,
}

impl Spread {
    /// Spread of `v`; `None` when `v` is empty (nothing solved).
    pub fn of(mut v: Vec<f64>) -> Option<Spread> {
        if v.is_empty() {
            return None;
        }
        v.sort_by(|a, b| a.total_cmp(b));
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        Some(Spread {
            mean: v.iter().sum::<f64>() / n as f64,
            median,
            max: v[n - 1],
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
    /// CPU time of the solving (user + system, all threads), seconds.
    pub cpu_s: f64,
    /// Wall time, seconds.
    pub wall_s: f64,
    /// Peak resident set size of the process, MiB.
    pub peak_rss_mib: f64,
    /// Peak RSS divided by worker threads, MiB.
    pub peak_rss_per_thread_mib: f64,
    /// Freecell Solver on the same deals, when asked.
    pub fc_solve: Option<FcSolveSummary>,
    /// Our CPU time / that of fc-solve's range solver ([`FcSolveSummary::cpu_s`]).
    pub cpu_ratio_vs_fc_solve: Option<f64>,
    /// Our CPU time / that of the per-deal fc-solve processes
    /// ([`FcSolveSummary::per_board_cpu_s`]).
    pub cpu_ratio_vs_fc_solve_per_board: Option<f64>,
    /// Our mean moves_total / fc-solve's.
    pub moves_ratio_vs_fc_solve: Option<f64>,
}

/// Parse `A..B` (inclusive) into deal numbers; clap's value parser for `--range`, so a bad
/// range is a usage error (exit 2) with this message.
pub fn parse_range(s: &str) -> std::result::Result<(u64, u64), String> {
    let (a, b) = parse_deal_range(s)?;
    if b - a + 1 > MAX_BENCH_DEALS {
        return Err(format!(
            "range `{s}` has {} deals; a bench runs at most {MAX_BENCH_DEALS} (split it)",
            b - a + 1
        ));
    }
    Ok((a, b))
}

/// Parse `A..B` (inclusive, `A..=B` too) into deal numbers, any size; clap's value parser
/// for `batch run --range`.
pub fn parse_deal_range(s: &str) -> std::result::Result<(u64, u64), String> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| format!("range `{s}` is not A..B"))?;
    let a = fcauto_deals::parse_deal_number(a).map_err(|e| e.to_string())?;
    let b =
        fcauto_deals::parse_deal_number(b.trim_start_matches('=')).map_err(|e| e.to_string())?;
    if a > b {
        return Err(format!("range `{s}` is empty"));
    }
    Ok((a, b))
}

/// Most deals one `bench` run takes: it keeps a row of results per deal (under 100 bytes).
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

/// The deals in 1..=1,000,000 known to be impossible with 4 freecells (Freecell Pro's list, as
/// published with Freecell Solver; shlomif/freecell-pro-impossible-deals).
pub const KNOWN_IMPOSSIBLE: [u64; 8] = [
    11982, 146692, 186216, 455889, 495505, 512118, 517776, 781948,
];

/// The deals of `unsolvable` that are up to 1,000,000 but not in [`KNOWN_IMPOSSIBLE`]: a
/// solver bug, since Freecell Pro's search found solutions for all the others.
pub fn false_unsolvable(unsolvable: &[u64]) -> Vec<u64> {
    unsolvable
        .iter()
        .copied()
        .filter(|n| *n <= 1_000_000 && !KNOWN_IMPOSSIBLE.contains(n))
        .collect()
}

fn progress(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} deals, {per_sec}, eta {eta}").unwrap(),
    );
    pb
}

/// Run the benchmark; exit 1 if any solution fails validation, any deal is unknown, or a
/// deal up to 1,000,000 outside [`KNOWN_IMPOSSIBLE`] is reported unsolvable.
pub fn run(args: Args) -> Result<i32> {
    if let Some(p) = args.json.as_deref().filter(|p| !is_stdio(p)) {
        crate::cmd::input::check_output_path(p)?;
    }
    let (a, b) = args.range;
    // All cores unless told otherwise, and never more threads than deals.
    let wanted = match args.threads.unwrap_or(0) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let deals = usize::try_from(b - a + 1).unwrap_or(usize::MAX);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(wanted.min(deals).max(1))
        .build()?;
    // fc-solve first, while this process is still small: a child's peak RSS as the kernel
    // reports it includes what it inherited from us at fork time.
    let fc = if args.vs_fc_solve {
        fcsolve_bench::check_installed()?;
        Some(fcsolve_bench::measure(a, b, &args.fc_solve_preset, &pool)?)
    } else {
        None
    };
    let threads = pool.current_num_threads();
    let mode = args.mode.into();
    let pb = progress(b - a + 1);
    let cpu0 = rusage::this_process().cpu_s;
    let t0 = Instant::now();
    let rows: Vec<Result<Row>> = pool.install(|| {
        (a..=b)
            .into_par_iter()
            .map(|n| {
                let t = Instant::now();
                let board = ms_deal(n)?;
                let (out, stats) = solve_checked(Some(n), &board, mode, args.max_states)
                    .with_context(|| format!("deal {n}"))?;
                let ms = t.elapsed().as_secs_f64() * 1000.0;
                pb.inc(1);
                let row = |verdict, lengths: Option<(usize, usize)>, limit| Row {
                    deal: n,
                    verdict,
                    moves_total: lengths.map(|l| l.0),
                    single_card_moves: lengths.map(|l| l.1),
                    limit,
                    expanded: stats.expanded,
                    ms,
                };
                Ok(match out {
                    Outcome::Solved(c) => {
                        row("solved", Some((c.moves_total, c.single_card_moves)), None)
                    }
                    Outcome::Unsolvable => row("unsolvable", None, None),
                    Outcome::Unknown(why) => row("unknown", None, Some(why)),
                })
            })
            .collect()
    });
    pb.finish_and_clear();
    let wall_s = t0.elapsed().as_secs_f64();
    let usage = rusage::this_process();
    let rows: Vec<Row> = rows.into_iter().collect::<Result<_>>()?;
    let pick = |v: &str| {
        rows.iter()
            .filter(|r| r.verdict == v)
            .map(|r| r.deal)
            .collect::<Vec<u64>>()
    };
    let mut summary = Summary {
        from: a,
        to: b,
        mode: clap::ValueEnum::to_possible_value(&args.mode)
            .map(|v| v.get_name().to_string())
            .unwrap_or_default(),
        threads,
        solved: pick("solved").len(),
        unsolvable: pick("unsolvable"),
        unknown: pick("unknown"),
        // Solved deals only: the others have no lengths.
        moves_total: Spread::of(
            rows.iter()
                .filter_map(|r| r.moves_total)
                .map(|m| m as f64)
                .collect(),
        ),
        single_card_moves: Spread::of(
            rows.iter()
                .filter_map(|r| r.single_card_moves)
                .map(|m| m as f64)
                .collect(),
        ),
        expanded: rows.iter().map(|r| r.expanded).sum(),
        cpu_s: usage.cpu_s - cpu0,
        wall_s,
        peak_rss_mib: usage.max_rss_mib,
        peak_rss_per_thread_mib: usage.max_rss_mib / threads as f64,
        fc_solve: None,
        cpu_ratio_vs_fc_solve: None,
        cpu_ratio_vs_fc_solve_per_board: None,
        moves_ratio_vs_fc_solve: None,
    };
    if let Some(fc) = fc {
        summary.cpu_ratio_vs_fc_solve = Some(summary.cpu_s / fc.cpu_s);
        summary.cpu_ratio_vs_fc_solve_per_board = Some(summary.cpu_s / fc.per_board_cpu_s);
        summary.moves_ratio_vs_fc_solve = summary
            .moves_total
            .zip(fc.moves_total)
            .map(|(ours, theirs)| ours.mean / theirs.mean);
        summary.fc_solve = Some(fc);
    }
    let text = summary_text(&summary);
    let json =
        || serde_json::to_string_pretty(&serde_json::json!({"summary": summary, "rows": rows}));
    match &args.json {
        // `--json -`: the JSON on standard output, the text summary on standard error.
        Some(p) if is_stdio(p) => {
            eprint!("{text}");
            outln!("{}", json()?);
        }
        Some(p) => {
            out!("{text}");
            std::fs::write(p, json()?).with_context(|| format!("cannot write {}", p.display()))?;
        }
        None => out!("{text}"),
    }
    let false_unsolvable = false_unsolvable(&summary.unsolvable);
    if !false_unsolvable.is_empty() {
        eprintln!(
            "fcauto bench: deals reported unsolvable but known solvable: {false_unsolvable:?}"
        );
    }
    if !summary.unknown.is_empty() {
        eprintln!(
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
    say!(
        "  CPU time:             {:.2} s ({:.3} ms/deal)",
        s.cpu_s,
        s.cpu_s * 1000.0 / total as f64
    );
    say!("  wall time:            {:.2} s", s.wall_s);
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
            "  CPU time (range solver): {:.2} s ({:.3} ms/deal), peak RSS {:.1} MiB",
            fc.cpu_s,
            fc.cpu_s * 1000.0 / total as f64,
            fc.peak_rss_mib
        );
        say!(
            "  CPU time (one fc-solve process per deal, for the lengths): {:.2} s ({:.3} ms/deal)",
            fc.per_board_cpu_s,
            fc.per_board_cpu_s * 1000.0 / total as f64
        );
        say!("  moves_total:          {}", sp(&fc.moves_total));
        say!("  single_card_moves:    {}", sp(&fc.single_card_moves));
        say!(
            "  fc-solve solutions rejected by our validator: {}",
            fc.invalid.len()
        );
        say!(
            "ratios: CPU fcauto/fc-solve = {:.3} (range solver; {:.3} against the per-deal processes), mean moves fcauto/fc-solve = {:.3}",
            s.cpu_ratio_vs_fc_solve.unwrap_or(f64::NAN),
            s.cpu_ratio_vs_fc_solve_per_board.unwrap_or(f64::NAN),
            s.moves_ratio_vs_fc_solve.unwrap_or(f64::NAN)
        );
    }
    out
}
