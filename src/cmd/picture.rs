//! Pictures on the command line: `--format svg|png` and `--width` of `deal`, `solve` and
//! `show`, and writing a picture (or any output) to a file or standard output.

use crate::cmd::input::is_stdio;
use anyhow::{Context, Result};
use fcauto_engine::{output, render};
use std::io::{IsTerminal, Write};
use std::path::Path;

/// Picture formats.
#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq, Debug)]
pub enum PictureFormat {
    /// SVG (text).
    Svg,
    /// PNG (binary: write it with --output or redirect it; needs the `png` feature).
    Png,
}

impl PictureFormat {
    /// The format a file name's extension (lower case) names, if any.
    pub fn by_extension(ext: &str) -> Option<PictureFormat> {
        match ext {
            "svg" => Some(PictureFormat::Svg),
            "png" => Some(PictureFormat::Png),
            _ => None,
        }
    }
}

impl From<PictureFormat> for output::PictureFormat {
    fn from(f: PictureFormat) -> Self {
        match f {
            PictureFormat::Svg => output::PictureFormat::Svg,
            PictureFormat::Png => output::PictureFormat::Png,
        }
    }
}

/// Clap parser of `--width`: whole pixels, [`render::MIN_WIDTH`]..=[`render::MAX_WIDTH`].
pub fn parse_width(s: &str) -> Result<u32, String> {
    let range = render::MIN_WIDTH..=render::MAX_WIDTH;
    match s.trim().parse::<u128>() {
        Err(_) => Err(format!("`{s}` is not a whole number of pixels")),
        Ok(w) => u32::try_from(w)
            .ok()
            .filter(|w| range.contains(w))
            .ok_or_else(|| format!("{w} pixels is out of range ({range:?})")),
    }
}

/// Before any work: a usage problem with writing `format` to `output` (`None` or `-`:
/// standard output), as the message to print with exit 2. PNG is refused when this build
/// cannot make it, and when it would go to a terminal (binary bytes would garble it).
pub fn usage_problem(format: PictureFormat, output: Option<&Path>) -> Option<String> {
    if format != PictureFormat::Png {
        return None;
    }
    if !cfg!(feature = "png") {
        return Some(
            "--format png is not in this build: rebuild with `cargo build --release --features png` (or use --format svg)".into(),
        );
    }
    let to_stdout = output.is_none_or(is_stdio);
    (to_stdout && std::io::stdout().is_terminal()).then(|| {
        "PNG is binary and standard output is a terminal: write it to a file with --output FILE.png (or redirect: > FILE.png)".into()
    })
}

/// True when the file `path` is a picture fcauto drew (so a new run may replace it), judged
/// by its own content: an SVG that begins as fcauto's pictures do (`<svg xmlns=...` with the
/// title `FreeCell position, N of 52 cards home`, or another game's title), a PNG with fcauto's `Software` mark
/// ([`fcauto_engine::render::png::is_marked`]), whatever the file's name (`-o d.svg` with `--format
/// png` writes a PNG there). A file that cannot be read is not.
pub fn drawn_by_fcauto(path: &Path) -> bool {
    if starts_as_png(path) {
        return render::png::is_marked(path);
    }
    let head = crate::cmd::input::file_opening(path, 512);
    path.is_file()
        && head.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"")
        && head.contains("<title>")
        && head.contains(" position, ")
        && head.contains(" of 52 cards home</title>")
}

/// True when the file `path` begins with PNG's 8-byte signature.
fn starts_as_png(path: &Path) -> bool {
    use std::io::Read;
    let mut sig = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut sig))
        .is_ok()
        && sig == *b"\x89PNG\r\n\x1a\n"
}

/// True when the file `path` is a picture ([`drawn_by_fcauto`]) or a replay page
/// (`<meta name="generator" content="fcauto">` in its head, [`render::replay_html`]) that
/// fcauto wrote: the outputs that carry fcauto's mark.
pub fn written_by_fcauto(path: &Path) -> bool {
    if drawn_by_fcauto(path) {
        return true;
    }
    let head = crate::cmd::input::file_opening(path, 512);
    path.is_file() && head.starts_with("<!DOCTYPE html>") && head.contains(render::GENERATOR_META)
}

/// `--output FILE` may be written: it does not exist, or fcauto wrote it
/// ([`written_by_fcauto`]: its pictures and replay pages carry its mark), or `force`
/// (`--force`) says to replace it. Standard output (`-`) and devices always may.
///
/// # Errors
/// An existing file of another kind, named, with what to do.
pub fn check_replace(output: &Path, force: bool) -> Result<()> {
    crate::cmd::input::check_replace(
        output,
        force,
        written_by_fcauto,
        "a picture or page fcauto drew",
        "--output",
    )
}

/// Write `bytes` to `output` (`None` or `-`: standard output).
///
/// # Errors
/// The file or standard output cannot be written (the message names which).
pub fn write_output(bytes: &[u8], output: Option<&Path>) -> Result<()> {
    match output.filter(|p| !is_stdio(p)) {
        Some(p) => {
            std::fs::write(p, bytes).with_context(|| format!("cannot write {}", p.display()))
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)
                .and_then(|()| out.flush())
                .map_err(|e| anyhow::anyhow!("cannot write to standard output: {e}"))
        }
    }
}
