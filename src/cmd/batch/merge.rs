//! `fcauto batch merge OUT IN...`: one database from shards.
//!
//! Stages: [`check_inputs`] (each a finished fcauto batch database, all with the same
//! settings), then [`merge_into`] a new file beside OUT (refusing a deal stored with
//! different verdicts, counting overlaps with equal verdicts, keeping the first row), then
//! [`publish`] it as OUT (never over a file that appeared there meanwhile). On any error
//! the merge leaves no file of its own and the inputs are untouched.

use crate::cmd::plural;
use anyhow::{bail, Context, Result};
use fcauto_engine::batch::schema::Settings;
use fcauto_engine::batch::store::{describe, sidecar, uri_path, Store};
use std::path::{Path, PathBuf};

/// Arguments of `fcauto batch merge`.
#[derive(clap::Args)]
pub struct Args {
    /// The merged database to write (must not exist).
    #[arg(value_name = "OUT.sqlite", value_parser = crate::cmd::input::parse_database_path)]
    pub out: PathBuf,
    /// Databases written by `fcauto batch run` (shards), all with the same mode and rules.
    #[arg(value_name = "IN.sqlite", required = true, value_parser = crate::cmd::input::parse_database_path)]
    pub inputs: Vec<PathBuf>,
    /// Fail (writing nothing) unless the merged rows are exactly the deals of `A..B`: the
    /// check that no shard is missing or unfinished, and none of another range is mixed in.
    #[arg(long, value_name = "A..B", value_parser = fcauto_deals::parse_deal_range)]
    pub expect_range: Option<(u64, u64)>,
}

/// Merge; exit 0 when merged.
pub fn run(args: Args) -> Result<i32> {
    // A symbolic link there, even one leading nowhere, is a file merge must not replace.
    if args.out.symlink_metadata().is_ok() {
        bail!(
            "{} exists: merge writes a new file (to add shards to it, name it as an input and \
             choose a new OUT)",
            args.out.display()
        );
    }
    check_folder(&args.out)?;
    let settings = check_inputs(&args.inputs)?;
    crate::cmd::interrupt::remove_stale_temps(&args.out);
    let tmp = crate::cmd::interrupt::temp_beside(&args.out);
    let written = [
        tmp.clone(),
        sidecar(&tmp, "-journal"),
        sidecar(&tmp, "-wal"),
    ];
    for p in &written {
        crate::cmd::interrupt::remove_on_interrupt(p);
    }
    let merged = merge_into(&args.out, &tmp, &settings, &args.inputs, args.expect_range);
    match merged.and_then(|n| {
        publish(&tmp, &args.out)?;
        Ok(n)
    }) {
        Ok(counts) => {
            for p in &written {
                crate::cmd::interrupt::forget(p);
            }
            crate::note!(
                "fcauto batch merge: {} from {} into {}{}",
                plural(counts.rows, "row"),
                plural(args.inputs.len(), "database"),
                args.out.display(),
                if counts.overlap > 0 {
                    format!(
                        "; {} stored more than once with equal verdicts, kept once (the first input's row)",
                        plural(counts.overlap, "deal")
                    )
                } else {
                    String::new()
                }
            );
            Ok(0)
        }
        Err(e) => {
            for p in &written {
                let _ = std::fs::remove_file(p);
                crate::cmd::interrupt::forget(p);
            }
            Err(e)
        }
    }
}

/// Give the finished temporary file `tmp` the name `out`, never over a file that appeared
/// there during the merge (another program's, or another merge's result): a hard link,
/// which fails if `out` exists, then the temporary name removed. Where the file system
/// has no hard links, a rename after a last check (a window of microseconds, not the
/// merge's minutes).
///
/// Errors: `out` exists (the merged file is removed with the other partial files), or the
/// file system refuses both.
fn publish(tmp: &Path, out: &Path) -> Result<()> {
    let exists = || {
        anyhow::anyhow!(
            "{} appeared while merging: merge writes a new file and does not replace it (the \
             merged rows are discarded; run the merge again with another OUT)",
            out.display()
        )
    };
    match std::fs::hard_link(tmp, out) {
        Ok(()) => {
            let _ = std::fs::remove_file(tmp);
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(exists()),
        Err(_) => {
            if out.symlink_metadata().is_ok() {
                return Err(exists());
            }
            std::fs::rename(tmp, out)
                .with_context(|| format!("cannot rename {} to {}", tmp.display(), out.display()))
        }
    }
}

/// OUT's folder exists (the merge writes a temporary file there, then renames it).
fn check_folder(out: &Path) -> Result<()> {
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => return Ok(()),
    };
    if !dir.is_dir() {
        bail!(
            "cannot write {}: folder {} does not exist",
            out.display(),
            dir.display()
        );
    }
    Ok(())
}

/// Open each input read-only and check that all were written with the same settings.
fn check_inputs(inputs: &[PathBuf]) -> Result<Settings> {
    let mut first: Option<(Settings, &Path)> = None;
    for p in inputs {
        let s = Store::open_read(p)?.settings().clone();
        match &first {
            None => first = Some((s, p)),
            Some((f, fp)) if *f != s => bail!(
                "cannot merge {} ({}) with {} ({})",
                p.display(),
                describe(&s),
                fp.display(),
                describe(f)
            ),
            Some(_) => {}
        }
    }
    Ok(first.expect("clap requires an input").0)
}

/// Rows and overlaps merged.
struct Counts {
    rows: u64,
    overlap: u64,
}

/// Copy every input's rows into a new database at `tmp`.
fn merge_into(
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
        conn.execute_batch(
            "BEGIN; INSERT OR IGNORE INTO main.results \
             (deal, mode, rules, verdict, moves_total, single_card_moves, solution, stopped_by, positions, cpu_ms, version) \
             SELECT deal, mode, rules, verdict, moves_total, single_card_moves, solution, stopped_by, positions, cpu_ms, version \
             FROM src.results; COMMIT; DETACH DATABASE src;",
        )
        .with_context(|| format!("cannot copy the rows of {}", p.display()))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The merged file never replaces a file that appeared at OUT during the merge: that
    /// file keeps its bytes, and the error names it.
    #[test]
    fn publish_never_replaces_a_file_that_appeared() {
        let dir = tempfile::tempdir().unwrap();
        let (tmp, out) = (dir.path().join(".m.partial"), dir.path().join("m.sqlite"));
        std::fs::write(&tmp, b"merged").unwrap();
        std::fs::write(&out, b"my precious data").unwrap();
        let err = publish(&tmp, &out).unwrap_err().to_string();
        assert!(err.contains("appeared while merging"), "{err}");
        assert_eq!(std::fs::read(&out).unwrap(), b"my precious data");
        std::fs::remove_file(&out).unwrap();
        publish(&tmp, &out).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"merged");
        assert!(!tmp.exists());
    }
}
