//! `fcauto verify`: check a solution with the independent validator.

use crate::cmd::input::{self, load_board, read_board_text, read_text_capped};
use crate::cmd::plural;
use anyhow::Result;
use fcauto_deals::pysol_deal::CellsTooFew;
use fcauto_deals::{DealError, Game, PysolNumber, Shuffle, MAX_DEAL};
use fcauto_engine::input::StartGiven;
use fcauto_engine::verify::family::{self, deal_start, read_board_start, verify_family};
use fcauto_engine::verify::{is_usage_problem, verify, Options};
use fcauto_solver::document::{DocError, DocKind, SolutionDoc};
use std::path::PathBuf;

/// Arguments of `fcauto verify`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("input").args(["deal", "board"])))]
pub struct Args {
    /// MS deal number the solution starts from (with --game, PySolFC's game number, up to
    /// 10^20). Neither this nor `--board` is needed when the solution names its start: a
    /// solution JSON's `deal` or `cascades` (a family game's JSON: its `deal` or
    /// `position`), fc-solve's `-p -t` output (its first position), a `# start:` line
    /// (`analyze --report`'s `game.txt`).
    #[arg(long, allow_hyphen_values = true, value_parser = crate::game::parse_game_number)]
    pub deal: Option<PysolNumber>,
    /// Board file the solution starts from: Freecell Solver's board text, a position string,
    /// a position object (the API's), `fcauto deal N --format json`'s output, or `fcauto solve --format json`'s or another solution that
    /// names its start (fc-solve's `-p -t` output: its first position; `game.txt`'s `# start:`)
    /// (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    pub board: Option<PathBuf>,
    /// The solution: our JSON (`fcauto solve --format json`), standard notation (`--format
    /// standard`, fc-solve's `-m -sn`/`-m -snx`; `#` starts a comment to the end of the line,
    /// as `solve` writes `# unsolvable`; move numbers `12.`, `{...}` comments and `?`/`!`
    /// marks, as in `analyze --report`'s `game.txt`, are read past), or fc-solve's
    /// `-m`/`-sam` output. `-`: standard input.
    pub solution: PathBuf,
    /// The game (--game) and its freecells (--freecells) the solution plays: rules other
    /// than standard FreeCell's are replayed by the family's validator. A family solution
    /// JSON names its game itself.
    #[command(flatten)]
    pub game: crate::game::GameArgs,
}

/// Largest solution text `verify` reads, bytes (fc-solve's `-p -t -sam` output of a long
/// solution is about 150 KiB).
const MAX_SOLUTION_TEXT: usize = 16 << 20;

/// Validate; exit 0 when every move is legal and all cards end home, 1 otherwise (the error
/// names the first illegal step), 2 on a usage problem (among them a `--deal`/`--board` that
/// is not the start the solution names, and a solution that names none given without them).
pub fn run(args: Args) -> Result<i32> {
    match check(args) {
        Err(e) if is_usage_problem(&e) => Ok(crate::cmd::usage_exit(&format!("{e:#}"))),
        r => r,
    }
}

/// [`run`]'s work: the files read, the solution verified by [`verify`] and its counts
/// printed; every error but a usage problem (exit 2) is returned.
fn check(args: Args) -> Result<i32> {
    let two = "the board and the solution";
    if let Some(msg) = crate::cmd::stdin_twice(&args.solution, args.board.as_deref(), two) {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    let text = read_text_capped(
        &args.solution,
        "solution",
        MAX_SOLUTION_TEXT,
        "a solution is a few kilobytes",
    )?;
    let name = input::name(&args.solution, "solution");
    // A board file naming a game of the family (standard input too: it is read once).
    let board_game = args
        .board
        .as_deref()
        .and_then(|p| read_board_text(p).ok())
        .and_then(|t| family::board_game(&t));
    if !args.game.rules().is_standard()
        || family::is_family_json(&text)
        || family::solution_game(&text).is_some()
        || board_game.is_some()
    {
        return check_family(&args, &text, &name, board_game);
    }
    let deal = match ms_number(&args) {
        Ok(deal) => deal,
        Err(msg) => return Ok(crate::cmd::usage_exit(&msg)),
    };
    let doc = match SolutionDoc::read(&text) {
        Ok(doc) => doc,
        Err(DocError::NotObject(kind)) => anyhow::bail!(
            "{name} is {kind}, not a solution: verify reads one solution, as the object `fcauto solve --format json` writes, standard notation or Freecell Solver's output"
        ),
        Err(e) => return Err(e.into()),
    };
    // A board given where the solution goes (its cards are no moves: `7D` would read as
    // `7d`).
    if doc.kind() == DocKind::Board {
        return Ok(crate::cmd::usage_exit(&format!(
            "{name} is a board (a position), not a solution: give it as --board {} and the moves as the solution",
            args.solution.display()
        )));
    }
    // No --deal/--board: the start the solution names itself.
    let given = match (deal, args.board.as_deref(), mt_board(&args)) {
        (_, _, Some(b)) => Some(((None, b), StartGiven::Deal)),
        (None, None, None) => None,
        (deal, board, None) => {
            let from = if deal.is_some() {
                StartGiven::Deal
            } else {
                StartGiven::Board
            };
            Some((load_board(deal, board).map_err(other_game_start)?, from))
        }
    };
    let v = verify(&doc, given, &name, Options::default())?;
    outln!(
        "valid: {}, {}; all 52 cards on the foundations",
        plural(v.moves_total, "move"),
        plural(v.single_card_moves, "single-card move")
    );
    Ok(0)
}

/// A `--board` whose text reads as a board of another game (or of more freecells) is a
/// start of another game than the solution's: a usage problem (exit 2), as verify.md says.
fn other_game_start(e: anyhow::Error) -> anyhow::Error {
    match e.downcast_ref::<fcauto_engine::input::OtherShape>() {
        Some(shape) => fcauto_engine::input::StartConflict(shape.0.clone()).into(),
        None => e,
    }
}

/// `--deal` as the standard verify reads it: a Microsoft deal number. Without --game a
/// number above 2^33-1 is refused as clap refuses a bad value (exit 2); with `--game
/// freecell`, a PySolFC number from 32000 on is its Mersenne Twister deal, whose board
/// ([`mt_board`]) is the start (no Microsoft number).
fn ms_number(args: &Args) -> Result<Option<u64>, String> {
    let Some(given) = args.deal else {
        return Ok(None);
    };
    let named = args.game.game.is_some();
    if named && matches!(given.shuffle(), Shuffle::MersenneTwister(_)) {
        return Ok(None);
    }
    match given.microsoft_deal(named) {
        Ok(n) if n <= MAX_DEAL => Ok(Some(n)),
        _ => Err(format!(
            "invalid value '{given}' for '--deal <DEAL>': {}; PySolFC's larger game numbers \
             need --game",
            DealError::TooLarge(given.to_string())
        )),
    }
}

/// With `--game freecell` (standard rules), `--deal` from 32000 on: the board PySolFC deals
/// for that Mersenne Twister number.
fn mt_board(args: &Args) -> Option<fcauto_deals::Board> {
    let given = args.deal.filter(|_| args.game.game.is_some())?;
    crate::cmd::solve_family::mt_freecell_board(given)
}

/// Verify a solution of another game of the family ([`verify_family`]): the game is
/// --game's (with --freecells), else the one the solution names (a JSON's `game`, a
/// `# start:` line's position), else the one the board file names (`board_game`); a start or solution of another game is refused (exit 2); `--deal` is
/// PySolFC's number of the game (without --game, with --freecells only, a Microsoft deal).
fn check_family(
    args: &Args,
    text: &str,
    name: &str,
    board_game: Option<(&'static Game, fcauto_deals::Rules)>,
) -> Result<i32> {
    // The game played: --game's (with --freecells), else the one the solution names.
    let (game, rules) = match args.game.game {
        None if args.game.freecells.is_none() => family::solution_game(text)
            .or(board_game)
            .unwrap_or_else(|| {
                let g = Game::freecell();
                (g, g.rules)
            }),
        _ => (args.game.game(), args.game.rules()),
    };
    let given = match (args.deal, args.board.as_deref()) {
        (Some(n), _) => {
            // Without --game (--freecells alone), any number is the Microsoft deal of that
            // number, as for standard FreeCell.
            let n = match (args.game.game, ms_number(args)) {
                (None, Ok(Some(m))) => PysolNumber::ms(m)?,
                (None, Err(msg)) => return Ok(crate::cmd::usage_exit(&msg)),
                _ => n,
            };
            match deal_start(game, rules, n) {
                Err(e) if e.is::<CellsTooFew>() => {
                    return Ok(crate::cmd::usage_exit(&e.to_string()))
                }
                r => Some(r?),
            }
        }
        (None, Some(path)) => {
            let board_name = input::name(path, "board file");
            let layout = read_board_start(&read_board_text(path)?, game, &rules, &board_name)?;
            Some(family::FamilyStart {
                game,
                rules,
                layout,
                deal: None,
            })
        }
        (None, None) => None,
    };
    let v = verify_family(text, Some((game, rules)), given, name)?;
    outln!(
        "valid: {}, {}; all 52 cards on the foundations",
        family::title(v.game, &v.rules),
        plural(v.moves_total, "move")
    );
    Ok(0)
}
