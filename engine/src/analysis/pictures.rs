//! The pictures of an analysis (`--pictures DIR`, and those of the report bundle): which
//! positions are drawn, with which move drawn and under which caption, each drawn by the one
//! renderer ([`crate::render`]) as SVG, and as PNG too in builds with the `png` feature.

use super::findings::Findings;
use super::record::Record;
use crate::render;
use anyhow::Result;
use fcauto_solver::PlayedMove;

/// A picture format of the analysis's pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// SVG (text, written directly).
    Svg,
    /// PNG (the SVG rasterised; needs the `png` feature).
    Png,
}

impl Format {
    /// The file extension: `svg` or `png`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
        }
    }
}

/// The formats each picture is drawn in: SVG, and PNG when this build has the `png` feature.
pub fn formats() -> &'static [Format] {
    if cfg!(feature = "png") {
        &[Format::Svg, Format::Png]
    } else {
        &[Format::Svg]
    }
}

/// One picture to draw: `position`, with `highlight` outlined and an arrow, if any, and
/// `caption` under it, named `stem` (the file is `stem.svg`, `stem.png`).
#[derive(Clone, Debug)]
pub struct Picture {
    /// The file name without its extension.
    pub stem: String,
    /// The position drawn (of any game of the family).
    pub position: render::Position,
    /// The move drawn on it.
    pub highlight: Option<PlayedMove>,
    /// The line under the picture.
    pub caption: String,
}

impl Picture {
    /// The picture in `format`, [`render::DEFAULT_WIDTH`] pixels wide.
    ///
    /// # Errors
    /// PNG only: see [`render::png()`] (no `png` feature, the font missing).
    pub fn draw(&self, format: Format) -> Result<Vec<u8>> {
        let opts = render::Options {
            width: render::DEFAULT_WIDTH,
            highlight: self.highlight,
            caption: Some(&self.caption),
        };
        let view = self.position.view();
        match format {
            Format::Svg => Ok(render::svg_view(&view, &opts).into_bytes()),
            Format::Png => render::png_view(&view, &opts),
        }
    }

    /// The file name of the picture in `format`: `stem.svg`, `stem.png`.
    pub fn file_name(&self, format: Format) -> String {
        format!("{}.{}", self.stem, format.extension())
    }
}

/// The pictures [`losing_pictures`] may name (each as SVG, and PNG with the `png` feature).
pub const LOSING_PICTURES: [&str; 4] = ["losing-before", "losing-after", "losing-instead", "final"];

/// The pictures of `--pictures DIR`: the position before the losing move with that move
/// drawn (`losing-before`), the position after it (`losing-after`), and the position before
/// it with the move that keeps the game winnable drawn (`losing-instead`). A game with no
/// losing move gets its final position (`final`, the hint drawn when there is one).
/// `instead`: the first move of the winning line before the losing move; `hint`: the first
/// move of the final position's winning line.
pub fn losing_pictures(
    deal: Option<fcauto_deals::PysolNumber>,
    game: &dyn Record,
    f: &Findings,
    instead: Option<PlayedMove>,
    hint: Option<PlayedMove>,
) -> Vec<Picture> {
    let name = game.name(deal);
    let pic = |stem: &str, k: usize, highlight, caption| Picture {
        stem: stem.to_string(),
        position: game.position(k),
        highlight,
        caption,
    };
    let Some(s) = f.first_losing_step else {
        let last = game.played().len();
        return vec![pic("final", last, hint, final_caption(&name, f))];
    };
    let played = game.played()[s - 1];
    let mv = &game.notation()[s - 1];
    let mut out = vec![
        pic(
            "losing-before",
            s - 1,
            Some(played),
            format!("{name}, step {s}: {mv}, the losing move (before it)"),
        ),
        pic(
            "losing-after",
            s,
            Some(played),
            format!("{name}, step {s}: {mv}, the losing move (after it: lost)"),
        ),
    ];
    if let (Some(instead), Some(alt)) = (instead, &f.alternative) {
        out.push(pic(
            "losing-instead",
            s - 1,
            Some(instead),
            format!("{name}, step {s}: {} instead keeps it winnable", alt.mv),
        ));
    }
    out
}

/// The final position's caption: its move count, and its hint when one is drawn.
pub fn final_caption(name: &str, f: &Findings) -> String {
    let n = f.moves.len();
    let p = &f.final_position;
    match &p.hint {
        _ if p.won => format!("{name}, the final position (after move {n}): won"),
        Some(h) => format!("{name}, the final position (after move {n}); hint: {h}"),
        None => format!("{name}, the final position (after move {n}): {}", p.verdict),
    }
}
