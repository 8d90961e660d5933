//! Stage 5b of `analyze`, pictures of positions (`--pictures DIR`, and those of the report
//! bundle), drawn by the one renderer ([`fcauto_engine::render`]): SVG, and PNG too in builds with
//! the `png` feature.

use super::findings::Findings;
use super::replay::Replay;
use crate::cmd::picture::{draw, PictureFormat};
use anyhow::{Context, Result};
use fcauto_deals::Board;
use fcauto_solver::PlayedMove;
use std::path::{Path, PathBuf};

/// The formats written: SVG, and PNG when this build has the `png` feature.
fn formats() -> &'static [(PictureFormat, &'static str)] {
    if cfg!(feature = "png") {
        &[(PictureFormat::Svg, "svg"), (PictureFormat::Png, "png")]
    } else {
        &[(PictureFormat::Svg, "svg")]
    }
}

/// Draw `board` (with `highlight` outlined and an arrow, if any, and `caption` under it) as
/// `dir/stem.svg` (and `.png`); returns the files written.
///
/// # Errors
/// A file cannot be written; PNG errors of [`draw`].
pub fn picture(
    dir: &Path,
    stem: &str,
    board: &Board,
    highlight: Option<PlayedMove>,
    caption: &str,
) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for &(format, ext) in formats() {
        let bytes = draw(
            board,
            format,
            fcauto_engine::render::DEFAULT_WIDTH,
            highlight,
            Some(caption),
        )?;
        let path = dir.join(format!("{stem}.{ext}"));
        crate::cmd::input::write_replacing(&path, &bytes)?;
        out.push(path);
    }
    Ok(out)
}

/// The pictures [`losing_pictures`] may write (each as SVG, and PNG with the `png` feature).
const LOSING_PICTURES: [&str; 4] = ["losing-before", "losing-after", "losing-instead", "final"];

/// `--pictures DIR`: the position before the losing move with that move drawn
/// (`losing-before`), the position after it (`losing-after`), and the position before it
/// with the move that keeps the game winnable drawn (`losing-instead`). A game with no
/// losing move gets its final position (`final`, the hint drawn when there is one). The
/// pictures of these names an earlier run left in `dir` are removed first, so none of
/// another game stays beside them; other files are left alone.
///
/// # Errors
/// As [`picture`], or an earlier picture that cannot be removed.
/// `instead`: the first move of the winning line before the losing move; `hint`: the first
/// move of the final position's winning line.
pub fn losing_pictures(
    dir: &Path,
    deal: Option<u64>,
    game: &Replay,
    f: &Findings,
    instead: Option<PlayedMove>,
    hint: Option<PlayedMove>,
) -> Result<Vec<PathBuf>> {
    remove_earlier(dir)?;
    let name = game_name(deal);
    let mut out = Vec::new();
    match f.first_losing_step {
        Some(s) => {
            let played = game.played[s - 1];
            let mv = &game.notation[s - 1];
            out.extend(picture(
                dir,
                "losing-before",
                &game.positions[s - 1],
                Some(played),
                &format!("{name}, step {s}: {mv}, the losing move (before it)"),
            )?);
            out.extend(picture(
                dir,
                "losing-after",
                &game.positions[s],
                Some(played),
                &format!("{name}, step {s}: {mv}, the losing move (after it: lost)"),
            )?);
            if let (Some(instead), Some(alt)) = (instead, &f.alternative) {
                out.extend(picture(
                    dir,
                    "losing-instead",
                    &game.positions[s - 1],
                    Some(instead),
                    &format!("{name}, step {s}: {} instead keeps it winnable", alt.mv),
                )?);
            }
        }
        None => {
            let last = game.positions.last().expect("a start");
            out.extend(picture(dir, "final", last, hint, &final_caption(&name, f))?);
        }
    }
    Ok(out)
}

/// How a picture's caption names the game: `deal 617`, or `the game` from a board.
pub fn game_name(deal: Option<u64>) -> String {
    deal.map_or("the game".to_string(), |n| format!("deal {n}"))
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

/// Before any work: `dir` holds no report (`--report`'s), and no picture [`losing_pictures`]
/// would write may replace a file fcauto did not draw
/// ([`crate::cmd::picture::drawn_by_fcauto`]), nor an input.
///
/// # Errors
/// Such a file in `dir`, named.
pub fn check_folder(dir: &Path, inputs: &[&Path]) -> Result<()> {
    // A report's folder is the report's: its final picture is one of these (helper-42: a
    // pictures run removed it, and report.md showed a broken picture).
    anyhow::ensure!(
        !super::report::holds_report(dir),
        "cannot write the pictures into {}: it holds a report of fcauto analyze (whose pictures \
         these would replace); give another folder",
        dir.display()
    );
    let names = LOSING_PICTURES
        .iter()
        .flat_map(|stem| ["svg", "png"].map(|ext| format!("{stem}.{ext}")));
    check_replaceable(dir, names, inputs)
}

/// Each of `names` in `dir` is absent, or a picture fcauto drew
/// ([`crate::cmd::picture::drawn_by_fcauto`]) that
/// is no input: [`crate::cmd::input::check_replaceable`].
///
/// # Errors
/// The first that is not, named, with what to do.
pub fn check_replaceable(
    dir: &Path,
    names: impl IntoIterator<Item = String>,
    inputs: &[&Path],
) -> Result<()> {
    crate::cmd::input::check_replaceable(dir, names, inputs, crate::cmd::picture::drawn_by_fcauto)
}

/// Remove the [`LOSING_PICTURES`] an earlier run wrote in `dir`.
fn remove_earlier(dir: &Path) -> Result<()> {
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
