//! `fcauto solve`: solve a deal or a board, validate the solution, print it. Its arguments
//! are [`crate::cmd::solve_args`]'s (shared with [`crate::cmd::solve_family`], the other
//! games of the family).

use crate::cmd::input::{check_not_input, check_output_path, is_stdio, load_board, read_deal_file};
use crate::cmd::plural;
pub use crate::cmd::solve_args::{Args, SolutionFormat};
use crate::mode::ModeArg;
use anyhow::{Context, Result};
use fcauto_deals::Board;
use fcauto_engine::output;
use fcauto_solver::{solve_checked, Outcome, StopReason};
use std::time::Instant;

/// Solve, print, optionally cross-check. Exit 0 when solved (and cross-check agrees), 1
/// otherwise.
pub fn run(mut args: Args) -> Result<i32> {
    args.format = Some(crate::cmd::input::output_format(
        args.format,
        args.output.as_deref(),
        |ext| output::SolutionFormat::by_extension(ext).map(SolutionFormat::from),
        SolutionFormat::Standard,
    ));
    if let Some(msg) =
        picture_usage_problem(&args).or_else(|| crate::cmd::solve_family::deal_too_large(&args))
    {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    check_output(&args)?;
    if let Some(named) = crate::cmd::solve_family::file_game(&args.game, args.board.as_deref()) {
        crate::cmd::solve_family::play_named(&mut args.game, named);
    }
    if !args.game.rules().is_standard() {
        return crate::cmd::solve_family::run(&args);
    }
    let (deal, board, name) = resolve_input(&args)?;
    let solved = solve(&args, deal, &board, &name)?;
    // A deal no Microsoft number names (PySolFC's Mersenne Twister deal) keeps its name in
    // the picture's caption and the page's title.
    // An unsolved deal's picture (its start) is captioned with its name too.
    let mt = crate::cmd::solve_family::mt_board(&args).is_some();
    let unsolved = deal.is_some() && !matches!(solved.outcome, Outcome::Solved(_));
    write_output(
        &args,
        &board,
        &solved,
        (mt || unsolved).then_some(name.as_str()),
    )?;
    if args.cross_check && !cross_check(&board, &solved.outcome)? {
        return Ok(1);
    }
    Ok(solved.code)
}

/// `--cross-check`: fc-solve solves the same board; true when its verdict and ours agree
/// (both are printed).
fn cross_check(board: &Board, outcome: &Outcome) -> Result<bool> {
    let ours = match outcome {
        Outcome::Solved(c) => Some(c.moves_total),
        _ => None,
    };
    let unsolvable = matches!(outcome, Outcome::Unsolvable);
    crate::cmd::crosscheck::cross_check(board, ours, unsolvable)
}

/// Before any work: `--output` may be written (not a folder, not the board or deal file
/// being read, not a file of another kind without `--force`).
fn check_output(args: &Args) -> Result<()> {
    let Some(p) = &args.output else {
        return Ok(());
    };
    check_output_path(p)?;
    if let Some(b) = &args.board {
        check_not_input(p, b, "board file being solved")?;
    }
    if let Some(d) = &args.deal_file {
        check_not_input(p, d, "deal file being solved")?;
    }
    crate::cmd::picture::check_replace(p, args.force)
}

/// The deal number (of the deal, the deal file or the board file, if it names one), the
/// board to solve and its name in messages (`deal 617`, `board`; with `--game freecell`, a
/// Mersenne Twister deal of PySolFC's: `freecell deal 40000`, its board and no number).
fn resolve_input(args: &Args) -> Result<(Option<u64>, Board, String)> {
    if let Some((name, board)) = crate::cmd::solve_family::mt_board(args) {
        return Ok((None, board, name));
    }
    let deal = match &args.deal_file {
        Some(f) => Some(read_deal_file(f)?.deal),
        None => crate::cmd::solve_family::ms_number(args)?,
    };
    let (deal, board) = load_board(deal, args.board.as_deref())?;
    let name = deal
        .map(|n| format!("deal {n}"))
        .unwrap_or_else(|| "board".into());
    Ok((deal, board, name))
}

/// A solve's outcome, the text to write (empty for the drawn formats) and the exit code.
struct Solved {
    outcome: Outcome,
    text: String,
    code: i32,
}

/// Solve and validate the board (`name` in messages), say on stderr how it went, and make
/// the text output.
fn solve(args: &Args, deal: Option<u64>, board: &Board, name: &str) -> Result<Solved> {
    let t0 = Instant::now();
    let (outcome, stats) = solve_checked(deal, board, args.mode.into(), args.max_states)?;
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    let code = match &outcome {
        Outcome::Solved(c) => {
            let proved = match args.mode {
                ModeArg::Optimal => "; the single-card count is proved minimal",
                ModeArg::OptimalMoves => "; the move count is proved minimal",
                ModeArg::OptimalPh => {
                    "; the move count is proved minimal in Paul & Helmert's move model"
                }
                ModeArg::Fast | ModeArg::Short => "",
            };
            crate::note!(
                "fcauto: {name} solved in {ms:.1} ms ({} expanded by all searches, at most {} stored by one): {}, {}; validated{proved}",
                plural(stats.expanded, "position"),
                stats.stored,
                plural(c.moves_total, "move"),
                plural(c.single_card_moves, "single-card move")
            );
            0
        }
        Outcome::Unsolvable => {
            crate::note!(
                "fcauto: {name} is unsolvable: exhaustive search of {} in {ms:.1} ms ({} expanded by all searches)",
                plural(stats.stored, "position"),
                stats.expanded
            );
            1
        }
        Outcome::Unknown(why) => {
            let hint = match why {
                StopReason::StateLimit(_) => " (--max-states N raises it)",
                StopReason::OutOfMemory(_) => " (a smaller --max-states stops before it)",
                _ => "",
            };
            crate::note!("fcauto: {name}: unknown: {why}{hint} ({ms:.1} ms)");
            1
        }
    };
    let text = output::outcome_text(args.format(), deal, board, &outcome)?;
    Ok(Solved {
        outcome,
        text,
        code,
    })
}

/// Write the text, or draw the picture or replay page (named `name` when given), to
/// `--output` or standard output.
fn write_output(args: &Args, board: &Board, solved: &Solved, name: Option<&str>) -> Result<()> {
    if args.format().is_picture() {
        let solution = match &solved.outcome {
            Outcome::Solved(c) => Some(&c.solution),
            _ => None,
        };
        let (step, width) = (args.step, args.width);
        let bytes = output::solution_picture(args.format(), board, solution, step, width, name)?;
        return crate::cmd::picture::write_output(&bytes, args.output.as_deref());
    }
    match args.output.as_deref().filter(|p| !is_stdio(p)) {
        Some(p) => std::fs::write(p, &solved.text)
            .with_context(|| format!("cannot write {}", p.display()))?,
        None => out!("{}", solved.text),
    }
    Ok(())
}

/// A usage problem (exit 2) with the picture options, found before solving: `--step` or
/// `--width` with a text format, `--step` with html, PNG to a terminal or not built.
fn picture_usage_problem(args: &Args) -> Option<String> {
    use crate::cmd::picture::{usage_problem, PictureFormat};
    use output::SolutionFormat as F;
    let f = args.format();
    if !f.is_picture() {
        match (args.step.is_some(), args.width.is_some()) {
            (true, true) => {
                return Some(
                    "--step needs --format svg or png, and --width --format svg, png or html"
                        .into(),
                )
            }
            (true, false) => return Some("--step needs --format svg or png".into()),
            (false, true) => return Some("--width needs --format svg, png or html".into()),
            (false, false) => {}
        }
    }
    if f == F::Html && args.step.is_some() {
        return Some("--step needs --format svg or png (the html page shows every step)".into());
    }
    (f == F::Png)
        .then(|| usage_problem(PictureFormat::Png, args.output.as_deref()))
        .flatten()
}
