//! `fcauto show --board FILE`: draw a board file as a picture.

use crate::cmd::input::{check_not_input, check_output_path, load_board};
use crate::cmd::picture::{self, PictureFormat};
use anyhow::Result;
use std::path::PathBuf;

/// Arguments of `fcauto show`.
#[derive(clap::Args)]
pub struct Args {
    /// A board file: Freecell Solver's board text, a position string, `fcauto deal N
    /// --format json`'s output, or `fcauto solve --format json`'s or another solution that
    /// names its start (fc-solve's `-p -t` output: its first position; `game.txt`'s `# start:`)
    /// (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    pub board: PathBuf,
    /// Picture format [default: the one the --output name's extension names (`.png`,
    /// `.svg`), else svg].
    #[arg(long, value_enum)]
    pub format: Option<PictureFormat>,
    /// Picture width in pixels (200..=4096).
    #[arg(long, value_name = "N", default_value_t = fcauto_engine::render::DEFAULT_WIDTH, value_parser = picture::parse_width)]
    pub width: u32,
    /// Write the picture to FILE instead of standard output (`-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace the --output FILE even when it exists and is not a picture or replay page
    /// fcauto drew (those, which carry its mark, are replaced without it).
    #[arg(long)]
    pub force: bool,
}

/// Draw the board; exit 0, 1 on a bad board file or an unwritable output, 2 for PNG to a
/// terminal or in a build without the `png` feature.
pub fn run(args: Args) -> Result<i32> {
    let format = crate::cmd::input::output_format(
        args.format,
        args.output.as_deref(),
        PictureFormat::by_extension,
        PictureFormat::Svg,
    );
    if let Some(msg) = picture::usage_problem(format, args.output.as_deref()) {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    if let Some(p) = &args.output {
        check_output_path(p)?;
        check_not_input(p, &args.board, "board file being drawn")?;
        crate::cmd::picture::check_replace(p, args.force)?;
    }
    let (deal, board) = load_board(None, Some(&args.board))?;
    let caption = deal.map(|n| format!("deal {n}"));
    let bytes =
        fcauto_engine::output::draw(&board, format.into(), args.width, None, caption.as_deref())?;
    picture::write_output(&bytes, args.output.as_deref())?;
    Ok(0)
}
