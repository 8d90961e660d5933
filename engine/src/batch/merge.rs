//! Merging shard databases: the inputs checked to have one set of settings
//! ([`check_inputs`]), then every row copied into a new database ([`merge_into`]).
//! `fcauto batch merge` puts the new file in place.

use super::schema::Settings;
use super::store::{describe, uri_path, Store};
use anyhow::{bail, Context, Result};
use fcauto_deals::plural;
use fcauto_deals::pysol_deal::MT_FROM;
use std::path::{Path, PathBuf};

/// Open each input read-only and check that all were written with the same settings: the
/// same mode, budget and game, in the same numbering; or in the other numbering when neither
/// database holds a deal from 32000 on, where Microsoft's and PySolFC's numbers deal the same
/// deals (as `batch run` goes on in either). Each input is checked against every one before
/// it, so the order of the inputs does not decide. Their rows are merged under the first
/// input's rules.
pub fn check_inputs(inputs: &[PathBuf]) -> Result<Settings> {
    let mut seen: Vec<(Settings, &Path, bool)> = Vec::new();
    for p in inputs {
        let store = Store::open_read(p)?;
        let s = store.settings().clone();
        let below_mt: bool = store.conn().query_row(
            "SELECT NOT EXISTS (SELECT 1 FROM results WHERE deal >= ?1)",
            [MT_FROM as i64],
            |r| r.get(0),
        )?;
        let clash = seen
            .iter()
            .find(|(f, _, f_below)| !same_deals(f, &s, *f_below && below_mt));
        if let Some((f, fp, _)) = clash {
            bail!(
                "cannot merge {} ({}) with {} ({})",
                p.display(),
                describe(&s),
                fp.display(),
                describe(f)
            );
        }
        seen.push((s, p, below_mt));
    }
    let (first, _, _) = seen.into_iter().next().expect("clap requires an input");
    Ok(first)
}

/// True when databases of settings `a` and `b` hold results of the same searches of the same
/// deals: equal settings, or (`below_mt`: no deal of either from 32000 on) settings that
/// differ only in the numbering.
fn same_deals(a: &Settings, b: &Settings, below_mt: bool) -> bool {
    a == b
        || (below_mt
            && a.mode == b.mode
            && a.max_states == b.max_states
            && a.variant.agrees_below_mt(&b.variant))
}

/// Rows and overlaps merged.
pub struct Counts {
    /// Rows in the merged database.
    pub rows: u64,
    /// Deals found in more than one input.
    pub overlap: u64,
}

/// Copy every input's rows into a new database at `tmp` (beside `out`, which names it in
/// messages): a deal stored with different verdicts is an error, one with equal verdicts is
/// counted as an overlap and its first row kept; with `expect`, every deal of that range
/// and none outside it must be stored.
///
/// # Errors
/// A conflict, a deal missing or outside `expect`, or SQLite's.
pub fn merge_into(
    out: &Path,
    tmp: &Path,
    settings: &Settings,
    inputs: &[PathBuf],
    expect: Option<(u64, u64)>,
) -> Result<Counts> {
    let store = Store::open_for_run(tmp, settings, &mut |_| ())
        .with_context(|| format!("cannot write the merged database beside {}", out.display()))?;
    let conn = store.conn();
    // The deals found in more than one input (each counted once, however many hold it).
    conn.execute_batch("CREATE TEMP TABLE overlap (deal INTEGER PRIMARY KEY)")?;
    for p in inputs {
        // immutable: checked finished (not in write-ahead-log mode) by check_inputs; read
        // without locks, logs or files made beside it.
        let uri = format!("file:{}?immutable=1", uri_path(p)?);
        conn.execute("ATTACH DATABASE ?1 AS src", [&uri])
            .with_context(|| format!("cannot read {}", p.display()))?;
        let conflict: Option<(i64, String, String)> = conn
            .query_row(
                "SELECT s.deal, s.verdict, m.verdict FROM src.results s \
                 JOIN main.results m ON m.deal = s.deal WHERE s.verdict <> m.verdict LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .map(Some)
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                e => Err(e),
            })?;
        if let Some((deal, theirs, ours)) = conflict {
            bail!(
                "deal {deal} is {theirs} in {} but {ours} in an earlier input: nothing merged",
                p.display()
            );
        }
        conn.execute(
            "INSERT OR IGNORE INTO temp.overlap \
             SELECT s.deal FROM src.results s JOIN main.results m ON m.deal = s.deal",
            [],
        )?;
        // Every row takes the merged database's rules: an input of the other numbering
        // (all its deals below 32000, [`check_inputs`]) has its own words for the same rules.
        let copy = || -> Result<()> {
            conn.execute_batch("BEGIN")?;
            conn.execute(
                "INSERT OR IGNORE INTO main.results \
                 (deal, mode, rules, verdict, moves_total, single_card_moves, solution, stopped_by, positions, cpu_ms, version) \
                 SELECT deal, mode, ?1, verdict, moves_total, single_card_moves, solution, stopped_by, positions, cpu_ms, version \
                 FROM src.results",
                [&settings.rules],
            )?;
            conn.execute_batch("COMMIT")?;
            Ok(())
        };
        copy().with_context(|| format!("cannot copy the rows of {}", p.display()))?;
        conn.execute_batch("DETACH DATABASE src;")?;
    }
    let rows = conn.query_row("SELECT COUNT(*) FROM results", [], |r| r.get::<_, i64>(0))? as u64;
    let overlap = conn.query_row("SELECT COUNT(*) FROM temp.overlap", [], |r| {
        r.get::<_, i64>(0)
    })? as u64;
    if let Some((a, b)) = expect {
        check_complete(&store, a, b)?;
        check_none_outside(conn, a, b)?;
    }
    store.finish()?;
    Ok(Counts { rows, overlap })
}

/// No deal outside `a..=b` is stored; else an error naming the first ones (so that the
/// shards of another range never merge under `--expect-range` without a word).
fn check_none_outside(conn: &rusqlite::Connection, a: u64, b: u64) -> Result<()> {
    let (a, b) = (a as i64, b as i64);
    let outside: i64 = conn.query_row(
        "SELECT COUNT(*) FROM results WHERE deal < ?1 OR deal > ?2",
        [a, b],
        |r| r.get(0),
    )?;
    if outside == 0 {
        return Ok(());
    }
    let mut first = conn
        .prepare("SELECT deal FROM results WHERE deal < ?1 OR deal > ?2 ORDER BY deal LIMIT 10")?;
    let first: Vec<String> = first
        .query_map([a, b], |r| r.get::<_, i64>(0))?
        .map(|d| d.map(|d| d.to_string()))
        .collect::<Result<_, _>>()?;
    bail!(
        "{} outside {a}..{b} in the inputs (first: {}): a shard of another range?; nothing merged",
        plural(outside, "deal"),
        first.join(", ")
    )
}

/// Every deal of `a..=b` is stored; else an error naming the first missing ones.
fn check_complete(store: &Store, a: u64, b: u64) -> Result<()> {
    let mut missing = vec![];
    let mut total = 0u64;
    let mut lo = a;
    while lo <= b {
        let hi = b.min(lo.saturating_add(99_999));
        let stored = store.stored_in(lo, hi)?;
        total += (hi - lo + 1) - stored.len() as u64;
        if missing.len() < 10 {
            let mut it = stored.into_iter().peekable();
            for d in lo..=hi {
                if it.peek() == Some(&d) {
                    it.next();
                } else if missing.len() < 10 {
                    missing.push(d.to_string());
                }
            }
        }
        lo = hi + 1;
    }
    if total > 0 {
        bail!(
            "{} of {a}..{b} missing from the inputs (first: {}): a shard is missing or unfinished; \
             nothing merged",
            plural(total, "deal"),
            missing.join(", ")
        );
    }
    Ok(())
}
