//! The bench summary as text, one line per figure, as `fcauto bench` prints it.

use super::distribution::{Distribution, Spread};
use super::fcsolve::FcSolveSummary;
use super::summary::Summary;
use fcauto_deals::plural;
use std::fmt::Write as _;

/// A total time of `s` seconds as a summary shows it: `12.34 s` from one second up, else
/// milliseconds to about three significant figures (`520 ms`, `52.0 ms`, `0.520 ms`), so
/// that a short run's total never reads 0 beside a per-deal figure that does not.
pub fn seconds_text(s: f64) -> String {
    let ms = s * 1000.0;
    match ms {
        _ if s >= 1.0 => format!("{s:.2} s"),
        _ if ms >= 100.0 => format!("{ms:.0} ms"),
        _ if ms >= 10.0 => format!("{ms:.1} ms"),
        _ => format!("{ms:.3} ms"),
    }
}

/// Push one line onto a `String`.
macro_rules! say {
    ($out:expr, $($t:tt)*) => {{
        let _ = writeln!($out, $($t)*);
    }};
}

/// The text summary (as printed), one line per figure: ours, then fc-solve's and the
/// ratios when it ran.
pub fn summary_text(s: &Summary) -> String {
    let mut out = String::new();
    ours(&mut out, s);
    if let Some(fc) = &s.fc_solve {
        theirs(&mut out, s.to - s.from + 1, fc);
        ratios(&mut out, s);
    }
    out
}

/// Deals as the summary lists them: all of them for standard FreeCell (`[11982]`); for the
/// other games, where a fifth of the deals can be impossible, the first 20 and how many more;
/// each written as the run's deals are (`ms32003` for Microsoft's deals of another game,
/// whose plain number names PySolFC's deal).
fn deals(s: &Summary, v: &[u64]) -> String {
    let ms = s.variant.deal_prefix();
    let shown = if s.variant.is_standard() || v.len() <= 20 {
        v
    } else {
        &v[..20]
    };
    let names: Vec<String> = shown.iter().map(|n| format!("{ms}{n}")).collect();
    let list = format!("[{}]", names.join(", "));
    match v.len() - shown.len() {
        0 => list,
        more => format!("{list} and {more} more"),
    }
}

/// A spread of solution lengths, or why there is none.
fn spread(x: &Option<Spread>) -> String {
    match x {
        None => "n/a (nothing solved)".to_string(),
        Some(x) => format!(
            "mean {:.2}, median {:.1}, max {:.0} (solved deals)",
            x.mean, x.median, x.max
        ),
    }
}

/// Our lines: the run, verdicts, lengths, work, times and memory.
fn ours(out: &mut String, s: &Summary) {
    let total = s.to - s.from + 1;
    let ms = s.variant.deal_prefix();
    let game = match s.variant.is_microsoft_freecell() {
        true => String::new(),
        false => format!("{}, ", s.variant.title()),
    };
    say!(
        out,
        "fcauto bench, {game}deals {ms}{}..{ms}{} ({}), mode {}, {}",
        s.from,
        s.to,
        plural(total, "deal"),
        s.mode,
        plural(s.threads, "thread")
    );
    say!(out, "  solved and validated: {}", s.solved);
    say!(
        out,
        "  proven unsolvable:    {} {}",
        s.unsolvable.len(),
        deals(s, &s.unsolvable)
    );
    say!(
        out,
        "  unknown (limit):      {} {}",
        s.unknown.len(),
        deals(s, &s.unknown)
    );
    say!(out, "  moves_total:          {}", spread(&s.moves_total));
    // Every game with single-card moves (the unlimited-sequence games have none).
    if s.variant.is_standard() || s.single_card_moves.is_some() {
        say!(
            out,
            "  single_card_moves:    {}",
            spread(&s.single_card_moves)
        );
    }
    say!(out, "  positions expanded:   {}", s.expanded);
    say!(out, "  positions per deal:   {}", dist(&s.positions, 0, ""));
    say!(
        out,
        "  CPU per deal:         {} (each deal's solving thread)",
        dist(&s.cpu_ms, 3, " ms")
    );
    say!(
        out,
        "  CPU time:             {} ({:.3} ms/deal; the whole process over the run, every thread and the rows kept)",
        seconds_text(s.cpu_s),
        s.cpu_s * 1000.0 / total as f64
    );
    say!(
        out,
        "  wall time:            {} ({:.0} deals/s)",
        seconds_text(s.wall_s),
        s.deals_per_s
    );
    say!(
        out,
        "  peak RSS:             {:.1} MiB ({:.1} MiB per thread)",
        s.peak_rss_mib,
        s.peak_rss_per_thread_mib
    );
}

/// fc-solve's lines over `total` deals: verdicts, times, work and, with the per-board runs,
/// lengths.
fn theirs(out: &mut String, total: u64, fc: &FcSolveSummary) {
    say!(
        out,
        "fc-solve -l {} on the same deals ({}: {}):",
        fc.preset,
        fc.build,
        fc.range_solver
    );
    say!(
        out,
        "  solved: {}, not solved: {} {:?}",
        fc.solved,
        fc.not_solved.len(),
        fc.not_solved
    );
    say!(
        out,
        "  CPU time (range solver): {} ({:.3} ms/deal), peak RSS {:.1} MiB",
        seconds_text(fc.cpu_s),
        fc.cpu_s * 1000.0 / total as f64,
        fc.peak_rss_mib
    );
    match fc.per_board_cpu_s {
        Some(t) => say!(
            out,
            "  CPU time (one fc-solve process per deal, for the lengths): {} ({:.3} ms/deal)",
            seconds_text(t),
            t * 1000.0 / total as f64
        ),
        None if !fc.prints_solutions => say!(
            out,
            "  (no per-deal fc-solve processes, so no lengths: this build prints no solutions)"
        ),
        None => {
            say!(
                out,
                "  (no per-deal fc-solve processes, so no lengths: --fc-solve-range-only)"
            )
        }
    }
    say!(
        out,
        "  iterations per deal (range solver): {}",
        dist(&fc.iterations_per_deal, 0, "")
    );
    say!(
        out,
        "  time per deal (range solver):       {}",
        dist(&fc.range_ms_per_deal, 3, " ms")
    );
    if fc.per_board_cpu_s.is_some() {
        say!(out, "  moves_total:          {}", spread(&fc.moves_total));
        say!(
            out,
            "  single_card_moves:    {}",
            spread(&fc.single_card_moves)
        );
        say!(
            out,
            "  fc-solve solutions rejected by our validator: {}",
            fc.invalid.len()
        );
    }
}

/// The timed runs of `--repeat`, the ratios, and a warning when ours stopped at a limit.
fn ratios(out: &mut String, s: &Summary) {
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
            out,
            "timed runs, CPU s fcauto/fc-solve range solver (ratio): {}; the CPU ratio below is over their sums",
            runs.join(", ")
        );
    }
    // A ratio without a denominator (no deal solved by both, no time) is `n/a`.
    let ratio = |r: Option<f64>| r.map_or("n/a".to_string(), |r| format!("{r:.3}"));
    say!(
        out,
        "ratios: CPU fcauto/fc-solve = {} (range solver; {} against the per-deal processes), mean moves fcauto/fc-solve = {}",
        ratio(s.cpu_ratio_vs_fc_solve),
        ratio(s.cpu_ratio_vs_fc_solve_per_board),
        ratio(s.moves_ratio_vs_fc_solve)
    );
    if !s.unknown.is_empty() {
        // fcauto stopped on these at a limit while fc-solve ran to its end: the CPU ratio
        // then compares unequal work (`--max-states 1` gives a ratio near 0).
        say!(
            out,
            "  (fcauto left {} to a limit: the CPU ratio compares unequal work)",
            plural(s.unknown.len(), "deal")
        );
    }
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
