//! `fcauto batch report FILE`: what a results database holds.
//!
//! Stages: open read-only, [`gather`] the figures with SQL (memory does not grow with the
//! rows: lengths are counted per value, percentiles come from sorted queries), then print
//! them as text or JSON and, with `--plot`, draw them ([`super::plot`]).

use super::db::{Settings, Store};
use crate::cmd::bench::KNOWN_IMPOSSIBLE;
use crate::cmd::plural;
use anyhow::{Context, Result};
use rusqlite::Connection;
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `fcauto batch report`.
#[derive(clap::Args)]
pub struct Args {
    /// A database written by `fcauto batch run` or `batch merge` (opened read-only).
    #[arg(value_name = "FILE.sqlite")]
    pub db: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also draw `lengths.png` (histogram of solution lengths) and `cpu.png` (CPU per deal)
    /// into DIR (created if needed).
    #[arg(long, value_name = "DIR")]
    pub plot: Option<PathBuf>,
}

/// Distribution of one per-deal quantity.
#[derive(Serialize, Debug, Clone, Default)]
pub struct Distribution {
    /// Rows with a value.
    pub count: u64,
    /// Arithmetic mean.
    pub mean: f64,
    /// 50th percentile (the lower median).
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Largest value.
    pub max: f64,
    /// Sum of the values.
    pub sum: f64,
}

/// Everything `report` prints.
#[derive(Serialize, Debug)]
pub struct Report {
    /// The file.
    pub db: String,
    /// Search mode of every row.
    pub mode: String,
    /// Rules of every row.
    pub rules: String,
    /// Positions budget per deal.
    pub max_states: u64,
    /// Rows stored.
    pub rows: u64,
    /// Lowest and highest deal stored (null when empty).
    pub deals: Option<(u64, u64)>,
    /// Deals missing between the lowest and the highest.
    pub gaps: u64,
    /// Rows per verdict.
    pub solved: u64,
    /// Deals proved unsolvable by a complete search.
    pub unsolvable: Vec<u64>,
    /// Deals a limit stopped.
    pub unknown: Vec<u64>,
    /// Freecell Pro's eight impossible deals of 1..1,000,000 that are stored, and whether
    /// every stored deal up to 1,000,000 is unsolvable exactly when it is one of them.
    pub known_impossible_check: KnownCheck,
    /// Moves per solution (supermove = 1), solved deals.
    pub moves_total: Option<Distribution>,
    /// Single-card moves per solution, solved deals.
    pub single_card_moves: Option<Distribution>,
    /// Positions expanded per deal, all deals.
    pub positions: Option<Distribution>,
    /// CPU milliseconds per deal, all deals.
    pub cpu_ms: Option<Distribution>,
    /// fcauto versions that wrote rows.
    pub versions: Vec<String>,
    /// Rows per moves_total value: (moves, deals), ascending.
    pub moves_total_histogram: Vec<(u64, u64)>,
    /// Rows per single_card_moves value: (moves, deals), ascending.
    pub single_card_moves_histogram: Vec<(u64, u64)>,
}

/// The check against Freecell Pro's list of impossible deals.
#[derive(Serialize, Debug)]
pub struct KnownCheck {
    /// Known impossible deals present in the database.
    pub known_stored: Vec<u64>,
    /// Stored deals up to 1,000,000 reported unsolvable but not known impossible.
    pub unexpected_unsolvable: Vec<u64>,
    /// Known impossible deals stored with another verdict.
    pub known_not_unsolvable: Vec<u64>,
}

/// Print the report; exit 0.
pub fn run(args: Args) -> Result<i32> {
    let store = Store::open_read(&args.db)?;
    let report = gather(&store)?;
    if let Some(dir) = &args.plot {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let files = super::plot::draw(store.conn(), &report, dir)?;
        for f in files {
            eprintln!("fcauto batch report: wrote {}", f.display());
        }
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", text(&report));
    }
    Ok(0)
}

/// Collect the figures.
pub fn gather(store: &Store) -> Result<Report> {
    let c = store.conn();
    let Settings { mode, rules, max_states } = store.settings().clone();
    let (rows, lo, hi): (i64, Option<i64>, Option<i64>) = c.query_row(
        "SELECT COUNT(*), MIN(deal), MAX(deal) FROM results",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let deals = lo.zip(hi).map(|(l, h)| (l as u64, h as u64));
    let verdict_deals = |v: &str| -> Result<Vec<u64>> {
        let mut st = c.prepare("SELECT deal FROM results WHERE verdict = ?1 ORDER BY deal")?;
        let v = st
            .query_map([v], |r| r.get::<_, i64>(0))?
            .map(|d| d.map(|d| d as u64))
            .collect::<Result<_, _>>()?;
        Ok(v)
    };
    let unsolvable = verdict_deals("unsolvable")?;
    let unknown = verdict_deals("unknown")?;
    let solved: i64 = c.query_row("SELECT COUNT(*) FROM results WHERE verdict = 'solved'", [], |r| r.get(0))?;
    let versions = c
        .prepare("SELECT DISTINCT version FROM results ORDER BY version")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(Report {
        db: store.path().display().to_string(),
        mode,
        rules,
        max_states,
        rows: rows as u64,
        deals,
        gaps: deals.map_or(0, |(l, h)| (h - l + 1) - rows as u64),
        solved: solved as u64,
        known_impossible_check: known_check(c, &unsolvable)?,
        unsolvable,
        unknown,
        moves_total: distribution(c, "moves_total")?,
        single_card_moves: distribution(c, "single_card_moves")?,
        positions: distribution(c, "positions")?,
        cpu_ms: distribution(c, "cpu_ms")?,
        versions,
        moves_total_histogram: histogram(c, "moves_total")?,
        single_card_moves_histogram: histogram(c, "single_card_moves")?,
    })
}

/// Mean, percentiles and max of a column over its non-null values.
fn distribution(c: &Connection, column: &str) -> Result<Option<Distribution>> {
    let (count, mean, max, sum): (i64, Option<f64>, Option<f64>, Option<f64>) = c.query_row(
        &format!("SELECT COUNT({column}), AVG({column}), MAX({column}), TOTAL({column}) FROM results"),
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?;
    if count == 0 {
        return Ok(None);
    }
    let pct = |p: f64| -> Result<f64> {
        let k = ((count as f64 * p).ceil() as i64 - 1).clamp(0, count - 1);
        Ok(c.query_row(
            &format!(
                "SELECT {column} FROM results WHERE {column} IS NOT NULL ORDER BY {column} LIMIT 1 OFFSET ?1"
            ),
            [k],
            |r| r.get(0),
        )?)
    };
    Ok(Some(Distribution {
        count: count as u64,
        mean: mean.unwrap_or(0.0),
        p50: pct(0.5)?,
        p90: pct(0.9)?,
        p99: pct(0.99)?,
        max: max.unwrap_or(0.0),
        sum: sum.unwrap_or(0.0),
    }))
}

/// (value, rows) of an integer column, ascending.
fn histogram(c: &Connection, column: &str) -> Result<Vec<(u64, u64)>> {
    let mut st = c.prepare(&format!(
        "SELECT {column}, COUNT(*) FROM results WHERE {column} IS NOT NULL GROUP BY {column} ORDER BY {column}"
    ))?;
    let v = st
        .query_map([], |r| Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64)))?
        .collect::<Result<_, _>>()?;
    Ok(v)
}

/// Compare the stored deals up to 1,000,000 with Freecell Pro's list of impossible deals.
fn known_check(c: &Connection, unsolvable: &[u64]) -> Result<KnownCheck> {
    let mut known_stored = vec![];
    let mut known_not_unsolvable = vec![];
    for &d in &KNOWN_IMPOSSIBLE {
        let v: Option<String> = c
            .query_row("SELECT verdict FROM results WHERE deal = ?1", [d as i64], |r| r.get(0))
            .map(Some)
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                e => Err(e),
            })?;
        if let Some(v) = v {
            known_stored.push(d);
            if v != "unsolvable" {
                known_not_unsolvable.push(d);
            }
        }
    }
    Ok(KnownCheck {
        known_stored,
        unexpected_unsolvable: unsolvable
            .iter()
            .copied()
            .filter(|d| *d <= 1_000_000 && !KNOWN_IMPOSSIBLE.contains(d))
            .collect(),
        known_not_unsolvable,
    })
}

/// A list of deals, the first 20 written out.
fn deal_list(v: &[u64]) -> String {
    let shown: Vec<String> = v.iter().take(20).map(u64::to_string).collect();
    let more = if v.len() > 20 { format!(" and {} more", v.len() - 20) } else { String::new() };
    if v.is_empty() {
        "0".into()
    } else {
        format!("{} [{}{more}]", v.len(), shown.join(", "))
    }
}

/// The text report.
pub fn text(r: &Report) -> String {
    let mut out = String::new();
    let mut say = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    say(format!("fcauto batch report: {}", r.db));
    say(format!("  mode {}, rules {}, max_states {}", r.mode, r.rules, r.max_states));
    match r.deals {
        Some((l, h)) => say(format!(
            "  rows: {} (deals {l}..{h}, {} missing in between)",
            r.rows,
            plural(r.gaps, "deal")
        )),
        None => say("  rows: 0".into()),
    }
    say(format!("  solved and validated: {}", r.solved));
    say(format!("  proved unsolvable:    {}", deal_list(&r.unsolvable)));
    say(format!("  unknown (limit):      {}", deal_list(&r.unknown)));
    let k = &r.known_impossible_check;
    say(format!(
        "  known impossible (Freecell Pro, 1..1000000): {} stored, {} of them not unsolvable, {} other deals <= 1000000 unsolvable",
        k.known_stored.len(),
        k.known_not_unsolvable.len(),
        k.unexpected_unsolvable.len()
    ));
    let d = |name: &str, x: &Option<Distribution>, unit: &str| match x {
        None => format!("  {name:<21} n/a"),
        Some(x) => format!(
            "  {name:<21} mean {:.2}, p50 {}, p90 {}, p99 {}, max {}{unit}",
            x.mean,
            num(x.p50),
            num(x.p90),
            num(x.p99),
            num(x.max)
        ),
    };
    say(d("moves_total:", &r.moves_total, ""));
    say(d("single_card_moves:", &r.single_card_moves, ""));
    say(d("positions:", &r.positions, ""));
    say(d("CPU per deal:", &r.cpu_ms, " ms"));
    if let Some(c) = &r.cpu_ms {
        say(format!("  CPU in all:           {:.1} s ({:.3} CPU hours)", c.sum / 1000.0, c.sum / 3.6e6));
    }
    say(format!("  written by fcauto {}", r.versions.join(", ")));
    out
}

/// A number without needless decimals.
fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}
