//! `fcauto analyze FILE`: where a game was lost, on the command line. The analysis itself is
//! [`fcauto_engine::analysis`]; this module reads the arguments and the game, checks and
//! makes the output folders, shows the progress, prints the answer and writes the files.
//!
//! Stages of [`run`], each a function with its inputs and outputs:
//! 1. [`usage_problem`] and [`check_folders`]: before any work;
//! 2. [`input::read_game`]: the file (move list, position, PySolFC saved game) → [`input::Game`];
//! 3. [`replay_game`]: the moves checked by the validator's rules → [`replay::Replay`];
//! 4. [`evaluate_game`]: every position searched or known, with a progress bar →
//!    [`evaluate::Eval`]s and the work done;
//! 5. [`fcauto_engine::analysis::findings::find`], then [`output::print`] (table or JSON)
//!    and [`write_files`] (`--pictures`, `--report`).
//!
//! `--game G` or `--freecells N` (rules other than standard FreeCell's) analyse a game of
//! the FreeCell family instead: [`family::run`], the same stages through the family search.
//! A PySolFC saved or held game of a family game is analysed as its game, named by the
//! file's id ([`input::Read::Family`], [`family::run_saved`]); `--game`/`--freecells` may
//! only repeat it.

use crate::mode::ModeArg;
use anyhow::Result;
use fcauto_engine::analysis::evaluate::{self, Eval, Settings, Work};
use fcauto_engine::analysis::record::Record;
use fcauto_engine::analysis::summary::Document;
use fcauto_engine::analysis::{best_moves, findings, MAX_MOVES};
use fcauto_solver::Mode;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub(crate) mod family;
mod folders;
pub mod input;
mod output;
mod pictures;
mod report;

/// The replay stage, at the path the move-list reader names it by.
pub use fcauto_engine::analysis::replay;

pub use fcauto_engine::analysis::DEFAULT_COSTLY;

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
    /// The MS deal the move list starts from (`617` or `ms617`); with --game, PySolFC's deal
    /// of that game (as `fcauto deal --game G N` prints it).
    #[arg(long, allow_hyphen_values = true, value_parser = crate::game::parse_game_number, conflicts_with = "board")]
    pub deal: Option<fcauto_deals::PysolNumber>,
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
    /// The game (--game) and its freecells (--freecells): rules other than standard
    /// FreeCell's are analysed by the family search (a move list with --deal; the modes
    /// `solve --game` takes for the game).
    #[command(flatten)]
    pub game: crate::game::GameArgs,
}

/// The work an analysis did, in the JSON (`work`) and on standard error.
pub use fcauto_engine::analysis::work_done::WorkDone;

/// Analyse the game; exit 0 when analysed (won or lost), 1 on bad input, 2 on a usage error
/// (the game and the board both from standard input, or an [`input::UsageProblem`]).
pub fn run(mut args: Args) -> Result<i32> {
    if let Some(msg) = usage_problem(&args) {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    check_folders(&args)?;
    if let Some(msg) = play_named_game(&mut args) {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    // A PySolFC game names its own game: `--game` may only repeat it.
    if (!args.game.is_standard() || family::names_family_game(&args.file))
        && !input::is_pysol_file(&args.file)
    {
        return family::run(&args);
    }
    let (t0, cpu0) = (Instant::now(), crate::cmd::rusage::this_process().cpu_s);
    // The Microsoft deal --deal names; a PySolFC saved game of another game checks --deal
    // against its own start.
    let deal = match microsoft_deal(&args) {
        Err(e) if !input::is_pysol_file(&args.file) => {
            return Ok(crate::cmd::usage_exit(&e.to_string()))
        }
        deal => deal.ok().flatten(),
    };
    let game = match input::read_game(&args.file, deal, args.board.as_deref()) {
        Err(e) if e.is::<input::UsageProblem>() => {
            return Ok(crate::cmd::usage_exit(&e.to_string()))
        }
        read => read?,
    };
    let game = match game {
        input::Read::Family(saved) => return family::run_saved(&args, saved, (t0, cpu0)),
        input::Read::Freecell(_) if deal.is_none() && args.deal.is_some() => {
            let msg = microsoft_deal(&args).err().map(|e| e.to_string());
            return Ok(crate::cmd::usage_exit(&msg.unwrap_or_default()));
        }
        input::Read::Freecell(game) => game,
    };
    if let Some(msg) = family::game_disagrees(&args, fcauto_deals::Game::freecell()) {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    let played = replay_game(&args, &game)?;
    let settings = Settings {
        mode: Mode::from(args.mode),
        max_states: args.max_states,
    };
    let (evals, work) = evaluate_game(&played, settings, args.costly)?;
    let found = findings::find(&played, &evals, args.costly);
    let summary = WorkDone::new(&work, cpu0, t0);
    let doc = Document {
        game: None,
        deal: fcauto_engine::analysis::summary::standard_deal(game.deal),
        input: game.kind.describe(),
        start: fcauto_deals::position::write(&game.start),
        mode: settings.mode,
        guessed_counts: &played.guessed_counts,
        findings: &found,
    };
    output::print(&doc, &summary, args.json)?;
    write_files(&args, &doc, &played, &evals)?;
    output::notes(
        played.positions.len(),
        fcauto_engine::analysis::summary::guessed_counts_note(&played),
        &summary,
    );
    Ok(0)
}

/// Without --game: play the game the --board file, else the game file (a family solution
/// JSON, a `# start:` line), names (either may be standard input, read once). A position of such a game as the game file is no game to analyse: the
/// usage problem saying what to give.
fn play_named_game(args: &mut Args) -> Option<String> {
    let board = crate::cmd::solve_family::file_game(&args.game, args.board.as_deref());
    let file = crate::cmd::solve_family::file_game(&args.game, Some(&args.file));
    let position = board.is_none() && file.is_some_and(|n| !n.by.is_solution());
    if let Some(g) = file.filter(|_| position).map(|n| n.game) {
        let name = crate::cmd::input::name(&args.file, "game file");
        return Some(format!(
            "{name} is a position of {g}: a game of {g} is analysed from its moves, with \
             --game {g} and its start (--deal N, or --board {path})",
            g = g.name,
            path = args.file.display()
        ));
    }
    if let Some(named) = board.or(file) {
        crate::cmd::solve_family::play_named(&mut args.game, named);
    }
    None
}

/// The Microsoft deal `--deal` names for standard FreeCell (with --game freecell, as PySolFC
/// numbers it: `msN`, or a plain number below 32000).
fn microsoft_deal(args: &Args) -> Result<Option<u64>, fcauto_deals::NotMicrosoft> {
    let named = args.game.game.is_some();
    args.deal.map(|n| n.microsoft_deal(named)).transpose()
}

/// A usage problem (exit 2) found before any work: the game and the board both from
/// standard input, or `--pictures` and `--report` naming one folder.
fn usage_problem(args: &Args) -> Option<String> {
    let two = "the game and the board";
    if let Some(msg) = crate::cmd::stdin_twice(&args.file, args.board.as_deref(), two) {
        return Some(msg);
    }
    let (pictures, report) = (args.pictures.as_ref()?, args.report.as_ref()?);
    crate::cmd::input::same_place(pictures, report).then(|| {
        format!(
            "--pictures and --report both name {}: the report bundle holds its own \
             pictures (give --report alone, or two folders)",
            report.display()
        )
    })
}

/// Before any work: the output folders may be written (see [`folders`]).
fn check_folders(args: &Args) -> Result<()> {
    for dir in [&args.pictures, &args.report].into_iter().flatten() {
        folders::check_output_dir(dir, &args.file)?;
    }
    let inputs: Vec<&Path> = std::iter::once(args.file.as_path())
        .chain(args.board.as_deref())
        .collect();
    if let Some(dir) = &args.report {
        folders::check_report_folder(dir, &inputs)?;
    }
    if let Some(dir) = &args.pictures {
        folders::check_pictures_folder(dir, &inputs)?;
    }
    Ok(())
}

/// The game's moves checked ([`replay::replay`]), at most [`MAX_MOVES`] of them; then the
/// output folders are made, once the game has been read and its moves checked, so that one
/// that cannot be made stops the run before the analysis, not after it.
fn replay_game(args: &Args, game: &input::Game) -> Result<replay::Replay> {
    anyhow::ensure!(
        game.moves.len() <= MAX_MOVES,
        "{}: {} moves: analyze takes games of at most {MAX_MOVES} moves (each position is searched; a FreeCell game has a few hundred at most); `fcauto verify` checks a move list of any length",
        args.file.display(),
        game.moves.len()
    );
    let played = replay::replay(&game.start, &game.moves)?;
    for dir in [&args.pictures, &args.report].into_iter().flatten() {
        crate::cmd::input::create_output_folder(dir)?;
    }
    Ok(played)
}

/// Every position of `played` evaluated ([`evaluate::evaluate`], a progress bar ticking
/// once a position), then the costly-looking moves confirmed ([`evaluate::confirm_costly`],
/// `costly` moves the threshold).
fn evaluate_game(
    played: &replay::Replay,
    settings: Settings,
    costly: usize,
) -> Result<(Vec<Eval>, Work)> {
    let bar = progress(played.positions.len() as u64);
    let (mut evals, mut work) =
        evaluate::evaluate(&played.positions, &played.played, settings, || bar.inc(1))?;
    bar.finish_and_clear();
    evaluate::confirm_costly(
        &mut evals,
        &played.positions,
        &played.played,
        settings,
        costly,
        &mut work,
    )?;
    Ok((evals, work))
}

/// `--pictures DIR` and `--report DIR`: the files written, each folder's count noted on
/// standard error.
fn write_files(args: &Args, doc: &Document, played: &dyn Record, evals: &[Eval]) -> Result<()> {
    let best = best_moves(evals);
    if let Some(dir) = &args.pictures {
        crate::cmd::input::create_output_folder(dir)?;
        let f = doc.findings;
        let instead = f.first_losing_step.and_then(|s| best[s - 1]);
        let hint = *best.last().expect("a start");
        let pics =
            fcauto_engine::analysis::pictures::losing_pictures(doc.deal, played, f, instead, hint);
        let files = pictures::write_losing(dir, &pics)?;
        crate::note!(
            "fcauto: {} written to {}",
            crate::cmd::plural(files.len(), "picture"),
            dir.display()
        );
    }
    if let Some(dir) = &args.report {
        let contents = fcauto_engine::analysis::report::contents(doc, played, &best)?;
        let files = report::write(dir, &contents)?;
        crate::note!(
            "fcauto: report of {} written to {}",
            crate::cmd::plural(files.len(), "file"),
            dir.display()
        );
    }
    Ok(())
}

/// A progress bar on standard error, one tick per position; hidden when standard error is
/// not a terminal.
pub(crate) fn progress(len: u64) -> indicatif::ProgressBar {
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
