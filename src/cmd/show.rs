//! `fcauto show --board FILE` and `fcauto show [--game G] N`: draw a board file, or a deal of
//! any game of the family, as a picture.

use crate::cmd::input::{check_not_input, check_output_path, load_board};
use crate::cmd::picture::{self, PictureFormat};
use crate::game::GameArgs;
use anyhow::Result;
use fcauto_deals::PysolNumber;
use std::path::PathBuf;

/// Arguments of `fcauto show`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["board", "number"])))]
pub struct Args {
    /// A board file: Freecell Solver's board text, a position string, `fcauto deal N
    /// --format json`'s output, or `fcauto solve --format json`'s or another solution that
    /// names its start (fc-solve's `-p -t` output: its first position; `game.txt`'s `# start:`)
    /// (`-`: standard input). Another game's: a file naming it (a position string
    /// `seahaven_towers: ...`, a family deal or solution JSON, `game.txt`), played as that game
    /// without --game; or its board text with --game (and --freecells).
    #[arg(long, value_name = "FILE")]
    pub board: Option<PathBuf>,
    /// A deal number instead of a board file: the Microsoft deal (`617`, `ms617`), or with
    /// --game PySolFC's deal of that game (as `fcauto deal --game G N` prints it).
    #[arg(value_parser = crate::game::parse_game_number, conflicts_with = "board")]
    pub number: Option<PysolNumber>,
    /// The game and its freecells, for a deal number.
    #[command(flatten)]
    pub game: GameArgs,
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

/// Draw the board or the deal; exit 0, 1 on a bad board file or an unwritable output, 2 for
/// PNG to a terminal or in a build without the `png` feature, or a deal number out of range.
/// A board file of another game is a position string naming it, or its board text with
/// `--game`/`--freecells`.
pub fn run(mut args: Args) -> Result<i32> {
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
        if let Some(b) = &args.board {
            check_not_input(p, b, "board file being drawn")?;
        }
        crate::cmd::picture::check_replace(p, args.force)?;
    }
    if let Some(named) = crate::cmd::solve_family::file_game(&args.game, args.board.as_deref()) {
        crate::cmd::solve_family::play_named(&mut args.game, named);
    }
    let bytes = match (&args.board, args.number) {
        (_, Some(n)) => match draw_deal(&args, n, format)? {
            Ok(bytes) => bytes,
            Err(msg) => return Ok(crate::cmd::usage_exit(&msg)),
        },
        (Some(path), None) if !args.game.is_standard() => {
            let (game, rules, layout) = family_board(&args, path)?;
            fcauto_engine::render::family::draw_layout(
                game,
                &rules,
                &layout,
                format.into(),
                args.width,
                None,
                None,
            )?
        }
        (board, None) => {
            let (deal, board) = load_board(None, board.as_deref())?;
            let caption = deal.map(|n| format!("deal {n}"));
            fcauto_engine::output::draw(
                &board,
                format.into(),
                args.width,
                None,
                caption.as_deref(),
            )?
        }
    };
    picture::write_output(&bytes, args.output.as_deref())?;
    Ok(0)
}

/// The game, rules and position of a family board file, read for --game and --freecells
/// (set from the game the file names when neither is given) by the reader `solve`,
/// `verify` and `analyze` use: a start of another game is refused, naming both.
fn family_board(
    args: &Args,
    path: &std::path::Path,
) -> Result<(
    &'static fcauto_deals::Game,
    fcauto_deals::Rules,
    fcauto_deals::Layout,
)> {
    let (game, rules) = (args.game.game(), args.game.rules());
    let name = crate::cmd::input::name(path, "board file");
    let text = crate::cmd::input::read_board_text(path)?;
    let layout = fcauto_engine::verify::family::read_layout(&text, game, &rules, &name)?;
    Ok((game, rules, layout))
}

/// The picture of deal `number` ([`fcauto_engine::render::family::draw_number`]): without
/// --game and --freecells the Microsoft deal, as `deal N --format svg` draws it; otherwise
/// the layout PySolFC deals for the game with its own cascades and freecells.
/// `Err(message)`: a usage problem (the number out of range).
fn draw_deal(
    args: &Args,
    number: PysolNumber,
    format: PictureFormat,
) -> Result<std::result::Result<Vec<u8>, String>> {
    let (game, rules, named) = (
        args.game.game(),
        args.game.rules(),
        args.game.game.is_some(),
    );
    let format = format.into();
    fcauto_engine::render::family::draw_number(game, &rules, named, number, format, args.width)
}
