//! Writing the analysis's pictures ([`fcauto_engine::analysis::pictures`]) into a folder:
//! each as SVG, and PNG too in builds with the `png` feature.

use super::folders::remove_earlier_pictures;
use anyhow::Result;
use fcauto_engine::analysis::pictures::{formats, Picture};
use std::path::{Path, PathBuf};

/// Draw each of `pictures` into `dir` (`stem.svg`, and `.png`), each file replaced whole;
/// returns the files written.
///
/// # Errors
/// A file cannot be written; PNG errors of [`Picture::draw`].
pub fn write(dir: &Path, pictures: &[Picture]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for pic in pictures {
        for &format in formats() {
            let bytes = pic.draw(format)?;
            let path = dir.join(pic.file_name(format));
            crate::cmd::input::write_replacing(&path, &bytes)?;
            out.push(path);
        }
    }
    Ok(out)
}

/// `--pictures DIR`: the pictures of the losing move, or of the final position
/// ([`fcauto_engine::analysis::pictures::losing_pictures`]). The pictures of these names an
/// earlier run left in `dir` are removed first, so none of another game stays beside them;
/// other files are left alone.
///
/// # Errors
/// As [`write()`], or an earlier picture that cannot be removed.
pub fn write_losing(dir: &Path, pictures: &[Picture]) -> Result<Vec<PathBuf>> {
    remove_earlier_pictures(dir)?;
    write(dir, pictures)
}
