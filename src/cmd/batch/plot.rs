//! `batch report --plot DIR` on the command line: the folder checked before any work; the
//! charts themselves are [`fcauto_engine::batch::plot`]'s.

use anyhow::Result;
pub use fcauto_engine::batch::plot::draw;
use fcauto_engine::batch::plot::{drawn_here, PICTURES};
use std::path::Path;

/// Before any work: no picture [`draw`] would write into `dir` may replace a file fcauto
/// did not draw there, nor the database `db`.
///
/// # Errors
/// Such a file, named, with what to do.
pub fn check_folder(dir: &Path, db: &Path) -> Result<()> {
    crate::cmd::input::check_replaceable(dir, PICTURES.map(String::from), &[db], drawn_here)
}
