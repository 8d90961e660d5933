//! Writing the report bundle (`--report DIR`): its contents
//! ([`fcauto_engine::analysis::report`]) into the folder, an earlier report's files there
//! replaced.

use super::folders::clear_earlier_report;
use anyhow::Result;
use fcauto_engine::analysis::report::Report;
use std::path::{Path, PathBuf};

/// Write `report` into `dir` (created if missing, not its parents; the files of an earlier
/// report there are removed first). Returns the files written.
///
/// # Errors
/// The folder or a file cannot be written.
pub fn write(dir: &Path, report: &Report) -> Result<Vec<PathBuf>> {
    crate::cmd::input::create_output_folder(dir)?;
    clear_earlier_report(dir)?;
    let mut files = Vec::new();
    let pages = report.pages.iter().map(|(n, b)| (n.as_str(), b));
    for (name, bytes) in report.texts.iter().map(|(n, b)| (*n, b)).chain(pages) {
        let path = dir.join(name);
        crate::cmd::input::write_replacing(&path, bytes)?;
        files.push(path);
    }
    files.extend(super::pictures::write(dir, &report.pictures)?);
    Ok(files)
}
