//! `fcauto analyze FILE`: where a game was lost. Every position of the game is evaluated
//! (winnable with a validated line, lost by the complete search, or unknown at a named
//! limit); the move that turned a winnable position into a lost one, a move that would have
//! kept it winnable, the costly moves and a hint for the final position are reported.
//!
//! Stages, each a function with its inputs and outputs:
//! 1. [`input::read_game`]: the file (move list, position, PySolFC saved game) → [`input::Game`];
//! 2. [`replay::replay`]: the moves checked by the validator's rules → [`replay::Replay`];
//! 3. [`evaluate::evaluate`]: every position searched or known → [`evaluate::Eval`]s;
//! 4. [`findings::find`]: the losing move, the costly ones, the hint → [`findings::Findings`];
//! 5. outputs: [`output`] (table or JSON), [`pictures`] (`--pictures`), [`report`] (`--report`).

use crate::checked::ModeArg;
use anyhow::Result;
use fcauto_solver::{Mode, PlayedMove};
use serde::Serialize;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub mod evaluate;
pub mod findings;
pub mod input;
pub mod output;
pub mod pictures;
pub mod replay;
pub mod report;

/// Most moves a game analysed may have: every position after a move is searched or
/// followed along a known line, at a cost that grows with the square of the game's length
/// (1,000 moves 2.6 s, 3,000 moves 30 s, 10,000 moves 6 minutes: helper-50; a million took
/// 1.3 GB before any limit, helper-49), and a FreeCell game has a few hundred.
pub const MAX_MOVES: usize = 2_000;

/// Default `--costly`: a move that makes the shortest known win this many moves longer is
/// costly. Fast mode's lines are about 10% longer than the shortest ones (92 against 83
/// moves over deals 1..32000), so smaller differences are mostly the search's noise.
pub const DEFAULT_COSTLY: usize = 10;

/// Parse `--costly`: a number of moves, 1 or more (0 would call every move costly, even one
/// on a shortest line); clap's value parser, so a bad one is a usage error (exit 2).
///
/// # Errors
/// Not a number, or 0.
pub fn parse_costly(s: &str) -> std::result::Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("0 moves: a costly move makes the win at least 1 move longer".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{s}` is not a number of moves")),
    }
}

/// Arguments of `fcauto analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// The game: a move list (standard notation `3a 38 a3 1h`, one a line or space-separated,
    /// `#` starting a comment to the end of the line, `{...}` a comment to its `}`, move
    /// numbers `12.` read past; fc-solve's move lines; or `fcauto solve --format json`) with
    /// --deal or --board (not
    /// needed for `--report`'s game.txt or `solve --format fcs`, which hold the start); a
    /// position alone (fc-solve's board text, PySolFC's *Export current layout*, a position
    /// string); or a PySolFC saved or held game (`holdgame.dat`). `-`: standard input.
    pub file: PathBuf,
    /// The MS deal the move list starts from (`617` or `ms617`).
    #[arg(long, allow_hyphen_values = true, value_parser = fcauto_deals::parse_deal_number, conflicts_with = "board")]
    pub deal: Option<u64>,
    /// The position the move list starts from: a file holding Freecell Solver's board text,
    /// a position string, `fcauto deal N --format json`'s output, or `fcauto solve --format
    /// json`'s or another solution that names its start (fc-solve's `-p -t` output: its first
    /// position; `game.txt`'s `# start:`) (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    pub board: Option<PathBuf>,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Write pictures of the positions before and after the losing move into DIR (made if
    /// missing; the folder it goes in must exist).
    #[arg(long, value_name = "DIR", value_parser = crate::cmd::input::parse_output_folder)]
    pub pictures: Option<PathBuf>,
    /// Write the report bundle into DIR (moves, per-move CSV, losing.json, pictures, the
    /// annotated game, report.md). DIR is made if missing; the folder it goes in must exist.
    #[arg(long, value_name = "DIR", value_parser = crate::cmd::input::parse_output_folder)]
    pub report: Option<PathBuf>,
    /// Search mode for each position.
    #[arg(long, value_enum, default_value = "fast")]
    pub mode: ModeArg,
    /// A move is costly when it makes the shortest known win at least N moves longer (1 or
    /// more).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_COSTLY, value_parser = parse_costly)]
    pub costly: usize,
    /// Most positions one search stores before its verdict is "unknown" (default: the
    /// mode's, as for `solve`).
    #[arg(long, value_name = "N", value_parser = crate::cmd::input::parse_max_states)]
    pub max_states: Option<usize>,
}

/// The work an analysis did, in the JSON (`work`) and on standard error.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Summary {
    /// Positions searched (each counted once).
    pub searches: usize,
    /// Positions found on a winning line already known (no search).
    pub on_known_lines: usize,
    /// Positions after one proved lost, lost too (no search).
    pub after_lost: usize,
    /// Further searches of positions already searched (a retry at a larger budget, or a
    /// `short` search confirming a costly move in `fast` mode).
    pub searched_again: usize,
    /// Positions expanded by all searches.
    pub expanded: u64,
    /// CPU time of the whole analysis (user + system, all threads), seconds.
    #[serde(serialize_with = "crate::cmd::tidy::f64")]
    pub cpu_seconds: f64,
    /// Wall time, seconds.
    #[serde(serialize_with = "crate::cmd::tidy::f64")]
    pub wall_seconds: f64,
}

/// Analyse the game; exit 0 when analysed (won or lost), 1 on bad input, 2 on a usage error
/// (the game and the board both from standard input, or an [`input::UsageProblem`]).
pub fn run(args: Args) -> Result<i32> {
    let two = "the game and the board";
    if let Some(msg) = crate::cmd::stdin_twice(&args.file, args.board.as_deref(), two) {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    if let (Some(pictures), Some(report)) = (&args.pictures, &args.report) {
        if crate::cmd::input::same_place(pictures, report) {
            let msg = format!(
                "--pictures and --report both name {}: the report bundle holds its own \
                 pictures (give --report alone, or two folders)",
                report.display()
            );
            return Ok(crate::cmd::usage_exit(&msg));
        }
    }
    for dir in [&args.pictures, &args.report].into_iter().flatten() {
        check_output_dir(dir, &args.file)?;
    }
    let inputs: Vec<&Path> = std::iter::once(args.file.as_path())
        .chain(args.board.as_deref())
        .collect();
    if let Some(dir) = &args.report {
        report::check_folder(dir, &inputs)?;
    }
    if let Some(dir) = &args.pictures {
        pictures::check_folder(dir, &inputs)?;
    }
    let (t0, cpu0) = (Instant::now(), crate::cmd::rusage::this_process().cpu_s);
    let game = match input::read_game(&args.file, args.deal, args.board.as_deref()) {
        Err(e) if e.is::<input::UsageProblem>() => {
            return Ok(crate::cmd::usage_exit(&e.to_string()))
        }
        read => read?,
    };
    anyhow::ensure!(
        game.moves.len() <= MAX_MOVES,
        "{}: {} moves: analyze takes games of at most {MAX_MOVES} moves (each position is searched; a FreeCell game has a few hundred at most); `fcauto verify` checks a move list of any length",
        args.file.display(),
        game.moves.len()
    );
    let played = replay::replay(&game.start, &game.moves)?;
    // The folders are made now, once the game has been read and its moves checked, so that
    // one that cannot be made stops the run before the analysis, not after it.
    for dir in [&args.pictures, &args.report].into_iter().flatten() {
        crate::cmd::input::create_output_folder(dir)?;
    }
    let settings = evaluate::Settings {
        mode: Mode::from(args.mode),
        max_states: args.max_states,
    };
    let bar = progress(played.positions.len() as u64);
    let (mut evals, mut work) =
        evaluate::evaluate(&played.positions, &played.played, settings, || bar.inc(1))?;
    bar.finish_and_clear();
    evaluate::confirm_costly(
        &mut evals,
        &played.positions,
        &played.played,
        settings,
        args.costly,
        &mut work,
    )?;
    let found = findings::find(&played, &evals, args.costly);
    let summary = Summary {
        searches: work.searches,
        on_known_lines: work.on_known_lines,
        after_lost: work.after_lost,
        searched_again: work.searched_again,
        expanded: work.expanded,
        cpu_seconds: crate::cmd::rusage::this_process().cpu_s - cpu0,
        wall_seconds: t0.elapsed().as_secs_f64(),
    };
    let doc = output::Document {
        deal: game.deal,
        input: game.kind.describe(),
        start: fcauto_deals::position::write(&game.start),
        mode: settings.mode,
        guessed_counts: &played.guessed_counts,
        findings: &found,
        work: &summary,
    };
    if args.json {
        output::print_json(&doc)?;
    } else {
        output::print_table(&doc)?;
    }
    let best: Vec<Option<PlayedMove>> = evals
        .iter()
        .map(|e| e.status.line().and_then(|l| l.first().copied()))
        .collect();
    if let Some(dir) = &args.pictures {
        crate::cmd::input::create_output_folder(dir)?;
        let instead = found.first_losing_step.and_then(|s| best[s - 1]);
        let files = pictures::losing_pictures(
            dir,
            game.deal,
            &played,
            &found,
            instead,
            *best.last().expect("a start"),
        )?;
        crate::note!(
            "fcauto: {} written to {}",
            crate::cmd::plural(files.len(), "picture"),
            dir.display()
        );
    }
    if let Some(dir) = &args.report {
        let files = report::write(dir, &doc, &played, &best)?;
        crate::note!(
            "fcauto: report of {} written to {}",
            crate::cmd::plural(files.len(), "file"),
            dir.display()
        );
    }
    notes(&played, &summary);
    Ok(0)
}

/// The work done and any count read as a guess, on standard error.
fn notes(played: &replay::Replay, s: &Summary) {
    if let Some(&first) = played.guessed_counts.first() {
        // Each step with the move as it was read (`76v2`); the first one's cascades show how
        // to write one card instead.
        let read = |k: usize| played.notation.get(k - 1).map_or("?", String::as_str);
        let steps: Vec<String> = played
            .guessed_counts
            .iter()
            .map(|&k| format!("{k} ({})", read(k)))
            .collect();
        let one = format!("{}v1", read(first).get(..2).unwrap_or("38"));
        crate::note!(
            "fcauto: note: at step(s) {} a run onto an empty cascade without a count was read as the longest legal run (write the count for fewer cards: {one} for one)",
            steps.join(", ")
        );
    }
    let after_lost = match s.after_lost {
        0 => String::new(),
        n => format!(", {n} after a lost one"),
    };
    let again = match s.searched_again {
        0 => String::new(),
        1 => ", 1 search repeated".to_string(),
        n => format!(", {n} searches repeated"),
    };
    crate::note!(
        "fcauto: {} evaluated: {} searched, {} on known winning lines{after_lost}{again}; {} expanded; {:.2} s CPU, {:.2} s wall",
        crate::cmd::plural(played.positions.len(), "position"),
        s.searches,
        s.on_known_lines,
        crate::cmd::plural(s.expanded as usize, "position"),
        s.cpu_seconds,
        s.wall_seconds
    );
}

/// An output folder must not be the input file, nor an existing file, and the folder it
/// goes in must exist (it is made itself, not its parents).
fn check_output_dir(dir: &Path, file: &Path) -> Result<()> {
    crate::cmd::input::check_not_input(dir, file, "game file being analysed")?;
    crate::cmd::input::check_output_folder(dir)
}

/// A progress bar on standard error, one tick per position; hidden when standard error is
/// not a terminal.
fn progress(len: u64) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new(len);
    pb.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} positions, eta {eta}")
            .expect("a valid template"),
    );
    pb
}
