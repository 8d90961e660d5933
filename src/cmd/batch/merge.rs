//! `fcauto batch merge OUT IN...`: one database from shards.
//!
//! Stages: [`check_inputs`] (each a finished fcauto batch database, all with the same
//! settings), then [`merge_into`] a new file beside OUT (refusing a deal stored with
//! different verdicts, counting overlaps with equal verdicts, keeping the first row), then
//! [`publish`] it as OUT (never over a file that appeared there meanwhile). On any error
//! the merge leaves no file of its own and the inputs are untouched.

use crate::cmd::plural;
use anyhow::{bail, Context, Result};
use fcauto_engine::batch::merge::{check_inputs, merge_into};
use fcauto_engine::batch::store::sidecar;
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
    /// Written `msA..msB`, Microsoft's deals: refused for databases of PySolFC's numbers
    /// reaching 32000, whose deals from there on are the Mersenne Twister's.
    #[arg(long, value_name = "A..B", value_parser = fcauto_deals::DealRange::parse)]
    pub expect_range: Option<fcauto_deals::DealRange>,
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
    // `msA..msB` from 32000 on names other deals than databases of PySolFC's numbers hold.
    let ms_range = |r| {
        let (v, holder) = (&settings.variant, "the databases hold");
        fcauto_engine::batch::game::ms_range_problem("--expect-range", r, v, holder)
    };
    if let Some(why) = args.expect_range.as_ref().and_then(ms_range) {
        return Ok(crate::cmd::usage_exit(&why));
    }
    fcauto_engine::partial::remove_stale_temps(&args.out);
    let tmp = fcauto_engine::partial::temp_beside(&args.out);
    let written = [
        tmp.clone(),
        sidecar(&tmp, "-journal"),
        sidecar(&tmp, "-wal"),
    ];
    for p in &written {
        crate::cmd::interrupt::remove_on_interrupt(p);
    }
    let expect = args
        .expect_range
        .as_ref()
        .map(fcauto_deals::DealRange::bounds);
    let merged = merge_into(&args.out, &tmp, &settings, &args.inputs, expect);
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
