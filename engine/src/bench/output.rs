//! What `bench` writes besides its text: the pieces of the `--json` file (rows streamed as
//! they come, then the summary), and the per-deal curves that `--plot-data` writes as CSV
//! and `--plot` draws.

use super::distribution::Counted;
use super::solve::{Row, Tally};
use super::summary::Summary;
use super::tidy::tidy;

/// How the `--json` file opens (a later run knows a file of its own by it).
pub const JSON_OPENING: &str = "{\n  \"rows\": [";

/// `row` as the `--json` file holds it, after the opening or the row before it (`first`:
/// the first row).
///
/// # Errors
/// serde_json's.
pub fn json_row(row: &Row, first: bool) -> serde_json::Result<Vec<u8>> {
    let mut out = if first {
        b"\n    ".to_vec()
    } else {
        b",\n    ".to_vec()
    };
    out.extend(serde_json::to_vec(row)?);
    Ok(out)
}

/// The end of the `--json` file after its rows: the summary, indented.
///
/// # Errors
/// serde_json's.
pub fn json_closing(summary: &Summary) -> serde_json::Result<String> {
    let summary = serde_json::to_string_pretty(summary)?.replace('\n', "\n  ");
    Ok(format!("\n  ],\n  \"summary\": {summary}\n}}\n"))
}

/// The header line of the `--plot-data` CSV (a later run knows a file of its own by it).
pub const PLOT_DATA_HEADER: &str = "series,metric,value,deals,share_above\n";

/// The `--plot-data` CSV: `series,metric,value,deals,share_above`, one line per point,
/// fractions to 12 significant digits as in the JSON ([`tidy`]).
pub fn plot_data(curves: &[Curve]) -> String {
    let mut text = String::from(PLOT_DATA_HEADER);
    for c in curves {
        for pt in &c.points {
            text.push_str(&format!(
                "{},{},{},{},{}\n",
                c.series,
                c.metric,
                tidy(pt.value),
                pt.deals,
                tidy(pt.share_above)
            ));
        }
    }
    text
}

/// The per-deal quantity of `--plot` and `--plot-data`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Positions expanded (fc-solve: iterations).
    Positions,
    /// Milliseconds of CPU (fc-solve: the range solver's wall-clock time per board, from its
    /// progress lines, scaled to sum to its CPU time).
    Cpu,
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
    pub fn of(
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

/// The curves of `metric`: fcauto's (from the rows' tally `t`), then fc-solve's when it ran.
pub fn curves(metric: Metric, s: &Summary, t: &Tally) -> Vec<Curve> {
    let ours = format!("fcauto {}", s.mode);
    let theirs = s
        .fc_solve
        .as_ref()
        .map(|f| (format!("fc-solve -l {}", f.preset), f));
    let mut v = Vec::new();
    match metric {
        Metric::Positions => {
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
        Metric::Cpu => {
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
