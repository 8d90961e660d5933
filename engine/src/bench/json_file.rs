//! `bench --json FILE`: the per-deal rows and the summary written as the rows come, in
//! deal order (`{"rows": [...], "summary": {...}}`, [`super::output`]'s pieces), to
//! standard output, a device, or a file put in place only when complete
//! ([`crate::partial`]).

use super::output;
use super::{Row, Summary};
use crate::partial::{remove_stale_temps, temp_beside, Cleanup};
use anyhow::{Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where `--json` goes: `{"rows": [...], "summary": {...}}` written as the rows come, or
/// nowhere. A regular file (or a new one) is written under a temporary name beside it and
/// renamed when complete, so a failed or interrupted run leaves no half file; a symbolic
/// link's target is the file replaced (the link stays), with the old file's permissions.
/// Anything else that exists (`/dev/null`, a FIFO, `/dev/fd/N` of a process substitution)
/// is written into, as any program writes to it.
pub struct RowSink {
    out: Option<Box<dyn Write>>,
    /// The file as the user named it, for messages; none for standard output.
    named: Option<PathBuf>,
    /// (temporary file, the file it replaces when complete).
    rename: Option<(PathBuf, PathBuf)>,
    rows: u64,
    /// What an interruption removes.
    cleanup: Cleanup,
}

impl RowSink {
    /// The sink of `json` (`None`: nowhere; `-`: standard output), its opening written;
    /// `cleanup` keeps a partial file from outliving an interruption.
    ///
    /// # Errors
    /// The file cannot be opened, made or written (named).
    pub fn open(json: Option<&Path>, cleanup: Cleanup) -> Result<RowSink> {
        let (out, named, rename): (Option<Box<dyn Write>>, _, _) = match json {
            None => (None, None, None),
            Some(p) if p.as_os_str() == "-" => (
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
                        remove_stale_temps(&target);
                        let tmp = temp_beside(&target);
                        (cleanup.register)(&tmp);
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
            cleanup,
        };
        sink.put(output::JSON_OPENING.as_bytes())?;
        Ok(sink)
    }

    /// True when the rows go to standard output (`--json -`).
    pub fn is_stdout(&self) -> bool {
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

    /// Write `row` (the next in deal order).
    ///
    /// # Errors
    /// The output cannot be written (named).
    pub fn write(&mut self, row: &Row) -> Result<()> {
        if self.out.is_none() {
            return Ok(());
        }
        self.put(&output::json_row(row, self.rows == 0)?)?;
        self.rows += 1;
        Ok(())
    }

    /// Close the rows, add the summary, and put the file in place.
    ///
    /// # Errors
    /// The output cannot be written, or the partial file not renamed over it (named).
    pub fn finish(mut self, summary: &Summary) -> Result<()> {
        if self.out.is_none() {
            return Ok(());
        }
        self.put(output::json_closing(summary)?.as_bytes())?;
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
            (self.cleanup.forget)(&tmp);
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
            (self.cleanup.forget)(&tmp);
        }
    }
}
