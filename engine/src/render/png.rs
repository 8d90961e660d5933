//! PNG output: the SVG of [`super::svg()`] rasterised by resvg (cargo feature `png`), with
//! the DejaVu Sans font from Debian's `fonts-dejavu-core` (installed by
//! `scripts/setup-deps.sh`).

use super::{Options, View};
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

/// [`png()`] of a position of any game of the family ([`super::svg_view`]).
///
/// # Errors
/// As [`png()`].
pub fn png_view(view: &View, opts: &Options) -> Result<Vec<u8>> {
    rasterise(&super::svg_view(view, opts))
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
    // The table's colour under the whole picture: the drawing keeps its aspect ratio, so a
    // height rounded to whole pixels leaves a fraction of a row above and below it, which
    // was left partly see-through.
    let [r, g, b] = super::svg::TABLE_RGB;
    pixmap.fill(tiny_skia::Color::from_rgba8(r, g, b, 255));
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    encode(&pixmap).context("internal error: cannot encode the PNG")
}

/// The `Software` text of every PNG fcauto draws of a board ([`png()`]): what tells a later
/// run that a picture file is its own to replace ([`is_marked`]).
pub const MARK: &str = "fcauto picture";

/// `pixmap` as PNG bytes (RGBA, 8 bits, colours no longer premultiplied), with the
/// `Software` text [`MARK`].
#[cfg(feature = "png")]
fn encode(pixmap: &resvg::tiny_skia::Pixmap) -> Result<Vec<u8>> {
    let rgba: Vec<u8> = pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect();
    let mut out = Vec::new();
    {
        let mut enc = ::png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
        enc.set_color(::png::ColorType::Rgba);
        enc.set_depth(::png::BitDepth::Eight);
        enc.add_text_chunk("Software".into(), MARK.into())?;
        let mut w = enc.write_header()?;
        w.write_image_data(&rgba)?;
        w.finish()?;
    }
    Ok(out)
}

/// True when the file `path` is a PNG whose `Software` text is [`MARK`]: a board picture
/// fcauto drew. A file that cannot be read or decoded is not (nor is any PNG in a build
/// without the `png` feature, which draws none).
pub fn is_marked(path: &std::path::Path) -> bool {
    #[cfg(feature = "png")]
    {
        has_software_mark(path, MARK)
    }
    #[cfg(not(feature = "png"))]
    {
        let _ = path;
        false
    }
}

/// True when the file `path` is a PNG whose `Software` text is `mark` (the board pictures'
/// [`MARK`], `batch report --plot`'s own). A file that cannot be read or decoded is not.
#[cfg(feature = "marks")]
pub fn has_software_mark(path: &std::path::Path, mark: &str) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let Ok(reader) = ::png::Decoder::new(std::io::BufReader::new(file)).read_info() else {
        return false;
    };
    reader
        .info()
        .uncompressed_latin1_text
        .iter()
        .any(|t| t.keyword == "Software" && t.text == mark)
}

/// Without the `png` feature: an error saying how to build with it.
#[cfg(not(feature = "png"))]
fn rasterise(_svg: &str) -> Result<Vec<u8>> {
    anyhow::bail!(
        "this fcauto was built without PNG support: build it with `cargo build --release --features png` (or use --format svg)"
    )
}
