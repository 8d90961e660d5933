//! The output folders of `analyze` (`--pictures DIR`, `--report DIR`): checked before any
//! work, so that no file of the user's is replaced and a run that cannot write stops before
//! the analysis; and the files an earlier run wrote there removed before the new ones are
//! written, so that none of another game stays beside them.

use anyhow::{Context, Result};
use fcauto_engine::analysis::pictures::LOSING_PICTURES;
use fcauto_engine::analysis::report::{is_report_file, REPORT_MARK, TEXT_FILES};
use std::path::Path;

/// An output folder must not be the input file, nor an existing file, and the folder it
/// goes in must exist (it is made itself, not its parents).
pub fn check_output_dir(dir: &Path, file: &Path) -> Result<()> {
    crate::cmd::input::check_not_input(dir, file, "game file being analysed")?;
    crate::cmd::input::check_output_folder(dir)
}

/// Before any work, `--pictures DIR`: `dir` holds no report (`--report`'s), and no picture
/// [`LOSING_PICTURES`] names may replace a file fcauto did not draw
/// ([`crate::cmd::picture::drawn_by_fcauto`]), nor an input.
///
/// # Errors
/// Such a file in `dir`, named.
pub fn check_pictures_folder(dir: &Path, inputs: &[&Path]) -> Result<()> {
    // A report's folder is the report's: its final picture is one of these, and report.md
    // would show a picture of another game, or a broken one.
    anyhow::ensure!(
        !holds_report(dir),
        "cannot write the pictures into {}: it holds a report of fcauto analyze (whose pictures \
         these would replace); give another folder",
        dir.display()
    );
    let names = LOSING_PICTURES
        .iter()
        .flat_map(|stem| ["svg", "png"].map(|ext| format!("{stem}.{ext}")));
    check_replaceable(dir, names, inputs)
}

/// Before any work, `--report DIR`: `dir` must be new, empty, or an earlier report (its
/// `report.md` written by `fcauto analyze`, and every picture a report names there drawn by
/// fcauto), whose files the new report replaces; and no input may be one of the files it
/// writes there.
///
/// # Errors
/// A folder holding files and no earlier report, a picture there fcauto did not draw, or an
/// input the report would overwrite.
pub fn check_report_folder(dir: &Path, inputs: &[&Path]) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(()); // missing: created by the report's writing, which names any error
    };
    let names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    anyhow::ensure!(
        names.is_empty() || holds_report(dir),
        "cannot write the report into {}: it holds files and no earlier report (a report.md \
         written by fcauto analyze); give a new or empty folder",
        dir.display()
    );
    check_inputs_not_in_report(dir, inputs)?;
    // A report's text files are replaced; a link or folder of their name is not fcauto's
    // (writing through a link would overwrite the file it points to).
    for name in names.iter().filter(|n| TEXT_FILES.contains(&n.as_str())) {
        let kind = std::fs::symlink_metadata(dir.join(name)).map(|m| m.file_type());
        anyhow::ensure!(
            kind.is_ok_and(|t| t.is_file()),
            "cannot write the report into {}: it holds {name}, which is not a file (a link or a \
             folder; it would be replaced); give another folder",
            dir.display()
        );
    }
    let pictures = names
        .into_iter()
        .filter(|n| is_report_file(n) && (n.ends_with(".svg") || n.ends_with(".png")));
    check_replaceable(dir, pictures, inputs)
}

/// No input is a file of `dir` that the report writes ([`is_report_file`]).
fn check_inputs_not_in_report(dir: &Path, inputs: &[&Path]) -> Result<()> {
    let canon =
        std::fs::canonicalize(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for input in inputs {
        let Ok(file) = std::fs::canonicalize(input) else {
            continue; // standard input, or missing: reading it names the problem
        };
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
        anyhow::ensure!(
            file.parent() != Some(canon.as_path()) || !is_report_file(name),
            "cannot write the report into {}: it would overwrite {}, an input; give another folder",
            dir.display(),
            input.display()
        );
    }
    Ok(())
}

/// True when `dir` holds a report `fcauto analyze --report` wrote: a report.md whose
/// opening holds [`REPORT_MARK`].
pub fn holds_report(dir: &Path) -> bool {
    let path = dir.join("report.md");
    path.is_file() && crate::cmd::input::file_opening(&path, 2048).contains(REPORT_MARK)
}

/// Each of `names` in `dir` is absent, or a picture fcauto drew
/// ([`crate::cmd::picture::drawn_by_fcauto`]) that is no input:
/// [`crate::cmd::input::check_replaceable`].
///
/// # Errors
/// The first that is not, named, with what to do.
fn check_replaceable(
    dir: &Path,
    names: impl IntoIterator<Item = String>,
    inputs: &[&Path],
) -> Result<()> {
    crate::cmd::input::check_replaceable(dir, names, inputs, crate::cmd::picture::drawn_by_fcauto)
}

/// Remove the [`LOSING_PICTURES`] an earlier run wrote in `dir` (other files are left
/// alone).
///
/// # Errors
/// One that cannot be removed.
pub fn remove_earlier_pictures(dir: &Path) -> Result<()> {
    for stem in LOSING_PICTURES {
        for ext in ["svg", "png"] {
            let path = dir.join(format!("{stem}.{ext}"));
            if path.is_file() {
                std::fs::remove_file(&path)
                    .with_context(|| format!("cannot replace {}", path.display()))?;
            }
        }
    }
    Ok(())
}

/// Remove the files an earlier report wrote in `dir` (see [`is_report_file`]), so no picture
/// of an earlier game stays beside the new report; other files are left alone.
///
/// # Errors
/// The folder cannot be read, or a file removed.
pub fn clear_earlier_report(dir: &Path) -> Result<()> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        let name = entry.file_name();
        if entry.file_type().is_ok_and(|t| t.is_file()) && name.to_str().is_some_and(is_report_file)
        {
            let path = entry.path();
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot replace {}", path.display()))?;
        }
    }
    Ok(())
}
