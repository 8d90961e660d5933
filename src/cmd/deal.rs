//! `fcauto deal N`: print a Microsoft FreeCell deal, as text or as a picture; with
//! `--game G`, the layout PySolFC deals for game G, number N.

use crate::cmd::input::check_output_path;
use crate::cmd::picture::{self, PictureFormat};
use crate::game::GameArgs;
use anyhow::Result;
use fcauto_deals::pysol_deal::deal_with_rules;
use fcauto_deals::{ms_deal, Card, DealError, PysolNumber, MAX_DEAL};
use std::path::PathBuf;

/// Output formats for `fcauto deal`.
#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
pub enum DealFormat {
    /// Freecell Solver's board text: 8 cascade lines, deepest card first (with --game, the
    /// game's cascades, after a Foundations and a Freecells line when the deal fills them).
    Fcs,
    /// `{"deal": N, "cascades": [[cascade 1, deepest first], ...], "freecells": [...],
    /// "foundations": [...]}`: the position object with the deal number; with --game (or
    /// --freecells), `"game"` and `"pysol_id"` first.
    Json,
    /// A picture of the deal, SVG.
    Svg,
    /// A picture of the deal, PNG (binary: use --output or redirect; needs the `png` feature).
    Png,
}

impl DealFormat {
    /// The format a file name's extension (lower case) names, if any.
    fn by_extension(ext: &str) -> Option<DealFormat> {
        match ext {
            "txt" | "board" | "fcs" => Some(DealFormat::Fcs),
            "json" => Some(DealFormat::Json),
            _ => PictureFormat::by_extension(ext).map(|p| match p {
                PictureFormat::Svg => DealFormat::Svg,
                PictureFormat::Png => DealFormat::Png,
            }),
        }
    }
}

/// Arguments of `fcauto deal`.
#[derive(clap::Args)]
pub struct Args {
    /// Deal number, 1..=8589934591 (2^33-1; above 2^31-1 is Freecell Pro's extension), or
    /// `msN`, as PySolFC writes it. With --game, PySolFC's game number: the Microsoft
    /// shuffle below 32000 and for `msN`, the Mersenne Twister from 32000 on (up to 10^20).
    #[arg(value_parser = crate::game::parse_game_number)]
    pub number: PysolNumber,
    #[command(flatten)]
    pub game: GameArgs,
    /// Output format [default: the one the --output name's extension names (`.json`,
    /// `.svg`, `.png`; `.txt` and `.board` are fcs), else fcs].
    #[arg(long, value_enum)]
    pub format: Option<DealFormat>,
    /// svg/png: picture width in pixels (200..=4096; default 720).
    #[arg(long, value_name = "N", value_parser = picture::parse_width)]
    pub width: Option<u32>,
    /// Write to FILE instead of standard output (`-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace the --output FILE even when it exists and is not a picture or replay page
    /// fcauto drew (those, which carry its mark, are replaced without it).
    #[arg(long)]
    pub force: bool,
}

/// A game number in JSON: a number (up to 10^20: JSON has no limit, serde_json reads it
/// into a u128), or the string `"msN"`.
/// The JSON of a deal of `--game G`: the game, the number and the layout.
#[derive(serde::Serialize)]
struct GameDealJson {
    /// The game's Freecell Solver name.
    game: &'static str,
    /// PySolFC's id of the game.
    pysol_id: u32,
    /// The game number as PySolFC writes it: a number, or a string for `msN` and for numbers
    /// beyond 2^64-1 (as a family solution's JSON writes it).
    #[serde(with = "fcauto_solver::family::notation::deal_json")]
    deal: Option<PysolNumber>,
    /// The cascades, each deepest card first.
    cascades: Vec<Vec<Card>>,
    /// One entry per freecell: the card, or null.
    freecells: Vec<Option<Card>>,
    /// Cards on each foundation, clubs, diamonds, hearts, spades.
    foundations: [u8; 4],
}

/// Print the deal; exit 0 (a bad deal number is a usage error from clap, exit 2; so is PNG
/// to a terminal or in a build without the `png` feature).
pub fn run(args: Args) -> Result<i32> {
    let format = crate::cmd::input::output_format(
        args.format,
        args.output.as_deref(),
        DealFormat::by_extension,
        DealFormat::Fcs,
    );
    let picture_format = match format {
        DealFormat::Svg => Some(PictureFormat::Svg),
        DealFormat::Png => Some(PictureFormat::Png),
        DealFormat::Fcs | DealFormat::Json => None,
    };
    if picture_format.is_none() && args.width.is_some() {
        return Ok(crate::cmd::usage_exit("--width needs --format svg or png"));
    }
    if let Some(msg) =
        picture_format.and_then(|f| picture::usage_problem(f, args.output.as_deref()))
    {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    if let Some(p) = &args.output {
        check_output_path(p)?;
        crate::cmd::picture::check_replace(p, args.force)?;
    }
    if args.game.game.is_some() {
        return run_game(&args, args.number, format, picture_format);
    }
    let n = u64::try_from(args.number.value()).unwrap_or(u64::MAX);
    if n > MAX_DEAL {
        // As clap words a value its parser refuses: without --game a number is an MS deal.
        let e = DealError::TooLarge(args.number.to_string());
        crate::note!(
            "error: invalid value '{}' for '<NUMBER>': {e}; PySolFC's larger game numbers \
             need --game\n\nFor more information, try '--help'.",
            args.number
        );
        return Ok(2);
    }
    if !args.game.is_standard() {
        // FreeCell with --freecells other than 4: the Microsoft deal, with that many cells.
        let number = PysolNumber::ms(n)?;
        return run_game(&args, number, format, picture_format);
    }
    let board = ms_deal(n)?;
    let bytes = match (format, picture_format) {
        (_, Some(f)) => fcauto_engine::output::draw(
            &board,
            f.into(),
            args.width.unwrap_or(fcauto_engine::render::DEFAULT_WIDTH),
            None,
            Some(&format!("deal {n}")),
        )?,
        (DealFormat::Json, _) => {
            let json = fcauto_solver::DealJson {
                deal: n,
                position: fcauto_solver::PositionJson::of(&board),
            };
            (serde_json::to_string(&json)? + "\n").into_bytes()
        }
        _ => board.cascades_text().into_bytes(),
    };
    picture::write_output(&bytes, args.output.as_deref())?;
    Ok(0)
}

/// `deal --game G N` (and `deal --freecells N` without --game, `number` then `msN`): the
/// layout PySolFC deals, as board text, JSON or a picture of the game's own cascades and
/// freecells.
fn run_game(
    args: &Args,
    number: PysolNumber,
    format: DealFormat,
    picture: Option<PictureFormat>,
) -> Result<i32> {
    let game = args.game.game();
    let rules = args.game.rules();
    let layout = match deal_with_rules(game, &rules, number) {
        Ok(l) => l,
        Err(e) => return Ok(crate::cmd::usage_exit(&e.to_string())),
    };
    let bytes = match (format, picture) {
        (_, Some(f)) => fcauto_engine::render::family::draw_layout(
            game,
            &rules,
            &layout,
            f.into(),
            args.width.unwrap_or(fcauto_engine::render::DEFAULT_WIDTH),
            None,
            Some(&format!("{} {number}", game.pysol_name)),
        )?,
        (DealFormat::Json, _) => {
            let n = number;
            let json = GameDealJson {
                game: game.name,
                pysol_id: game.pysol_id,
                deal: Some(n),
                cascades: layout.cascades,
                freecells: layout.freecells,
                foundations: layout.foundations,
            };
            (serde_json::to_string(&json)? + "\n").into_bytes()
        }
        _ => layout.board_text().into_bytes(),
    };
    picture::write_output(&bytes, args.output.as_deref())?;
    Ok(0)
}
