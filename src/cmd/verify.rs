//! `fcauto verify`: check a solution with the independent validator.

use crate::cmd::input::{self, load_board, read_text_capped};
use crate::cmd::plural;
use anyhow::Result;
use fcauto_engine::input::StartGiven;
use fcauto_engine::verify::{is_usage_problem, verify, Options};
use fcauto_solver::document::{DocError, DocKind, SolutionDoc};
use std::path::PathBuf;

/// Arguments of `fcauto verify`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("input").args(["deal", "board"])))]
pub struct Args {
    /// MS deal number the solution starts from. Neither this nor `--board` is needed when the
    /// solution names its start: a solution JSON's `deal` or `cascades`, fc-solve's `-p -t`
    /// output (its first position), a `# start:` line (`analyze --report`'s `game.txt`).
    #[arg(long, allow_hyphen_values = true, value_parser = fcauto_deals::parse_deal_number)]
    pub deal: Option<u64>,
    /// Board file the solution starts from: Freecell Solver's board text, a position string,
    /// `fcauto deal N --format json`'s output, or `fcauto solve --format json`'s or another solution that
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
    let given = match (args.deal, args.board.as_deref()) {
        (None, None) => None,
        (deal, board) => {
            let from = if deal.is_some() {
                StartGiven::Deal
            } else {
                StartGiven::Board
            };
            Some((load_board(deal, board)?, from))
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
