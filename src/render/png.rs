//! PNG output: the SVG of [`super::svg()`] rasterised by resvg (cargo feature `png`), with
//! the DejaVu Sans font from Debian's `fonts-dejavu-core` (installed by
//! `scripts/setup-deps.sh`).

use super::Options;
use anyhow::Result;
use fcauto_deals::Board;

/// The font the PNG's text is drawn with (Debian `fonts-dejavu-core`).
pub const FONT: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
/// Its bold face, used for the card corners when present (the regular face otherwise).
#[cfg(feature = "png")]
const FONT_BOLD: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

/// `board` as PNG bytes, `opts.width` pixels wide (see [`super::svg()`]; RGBA, 8 bits).
///
/// # Errors
/// The program was built without the `png` feature; the font [`FONT`] is missing (the
/// message says which package installs it); the SVG could not be read or the picture not
/// encoded (internal errors).
pub fn png(board: &Board, opts: &Options) -> Result<Vec<u8>> {
    rasterise(&super::svg(board, opts))
}

/// Rasterise an SVG document at its own `width` x `height`.
#[cfg(feature = "png")]
fn rasterise(svg: &str) -> Result<Vec<u8>> {
    use anyhow::Context;
    use resvg::{tiny_skia, usvg};
    let font = std::fs::read(FONT).with_context(|| {
        format!("cannot read the font {FONT} (install Debian's fonts-dejavu-core: scripts/setup-deps.sh)")
    })?;
    let mut opt = usvg::Options {
        font_family: "DejaVu Sans".into(),
        ..usvg::Options::default()
    };
    opt.fontdb_mut().load_font_data(font);
    if let Ok(bold) = std::fs::read(FONT_BOLD) {
        opt.fontdb_mut().load_font_data(bold);
    }
    let tree = usvg::Tree::from_str(svg, &opt).context("internal error: our SVG does not parse")?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .context("internal error: empty picture")?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .context("internal error: cannot encode the PNG")
}

/// Without the `png` feature: an error saying how to build with it.
#[cfg(not(feature = "png"))]
fn rasterise(_svg: &str) -> Result<Vec<u8>> {
    anyhow::bail!(
        "this fcauto was built without PNG support: build it with `cargo build --release --features png` (or use --format svg)"
    )
}
