//! `fcauto analyze --game G --deal N MOVES` (and `--freecells N`): a game of the FreeCell
//! family analysed on the command line. The move list is read in the family's standard
//! notation from the deal or a board (`0` the tenth cascade, `i` the eighth freecell); the
//! analysis is [`fcauto_engine::analysis::family_flow`] (every position evaluated by the
//! family search), and the answer, the pictures and the report are written as for standard
//! FreeCell.

use super::input::SavedFamily;
use super::{output, write_files, Args, WorkDone};
use crate::cmd::solve_family::deal_layout;
use anyhow::Result;
use fcauto_deals::PysolNumber;
use fcauto_engine::analysis::family::{parse_moves, TextMove};
use fcauto_engine::analysis::family_flow::{self, Start};
use fcauto_engine::verify::family::{
    board_deal, move_text_start, read_layout, report_deal, solution_game, FamilyStart,
};
use fcauto_engine::verify::{is_usage_problem, NoStart};
use fcauto_solver::Mode;
use std::time::Instant;

/// Most bytes of a move list read (a game is a few kilobytes).
const MAX_INPUT: usize = 1 << 20;

/// Analyse the family game; exit 0 when analysed, 1 on bad input, 2 on a usage problem (a
/// mode `solve --game` refuses for the game, neither `--deal` nor `--board`).
pub fn run(args: &Args) -> Result<i32> {
    let name = crate::cmd::input::name(&args.file, "game file");
    let text = read_text(args)?;
    // The game: --game's (with --freecells), else the one the list's `# start:` names.
    let (game, rules) = match solution_game(&text) {
        Some(named) if args.game.game.is_none() && args.game.freecells.is_none() => named,
        _ => (args.game.game(), args.game.rules()),
    };
    let what = crate::cmd::solve_family::title(game, &rules);
    if let Err(why) = settings(args, game, &rules) {
        return Ok(crate::cmd::usage_exit(&why));
    }
    // The deal: --deal's, else the one a JSON giving the start names (a deal's or a family
    // solution's, as --board or as the game file).
    let mut deal = args.deal;
    let given = match (args.deal, &args.board) {
        (Some(n), _) => Some(deal_layout(game, &rules, n, args.game.game.is_some())?),
        (None, Some(board)) => {
            let (layout, named) = read_board(board, game, &rules)?;
            deal = named;
            Some(layout)
        }
        // fcauto's family solution JSON names its own start.
        (None, None) if fcauto_engine::verify::family::is_family_json(&text) => {
            let layout = read_layout(&text, game, &rules, &name)?;
            deal = board_deal(&text, game, &rules, &layout);
            Some(layout)
        }
        (None, None) => None,
    };
    let deal = deal.map(PysolNumber::shortest);
    let given = given.map(|layout| FamilyStart {
        game,
        rules,
        layout,
        deal: args.deal,
    });
    let (t0, cpu0) = (Instant::now(), crate::cmd::rusage::this_process().cpu_s);
    let moves = read_moves(&text, &name)?;
    // A `# start:` line (`analyze --report`'s game.txt) names the start, as in `verify`; a
    // solution JSON's own start is `given`.
    let start = if fcauto_engine::input::family_json_moves(&text).is_some() {
        given.ok_or_else(|| anyhow::Error::new(NoStart(name.clone())))
    } else {
        move_text_start(&text, (game, rules), given, &name)
    };
    let start = match start {
        Err(e) if e.chain().any(|c| c.is::<NoStart>()) => {
            return Ok(crate::cmd::usage_exit(&format!(
                "{what}: give the start of the moves: --deal N (or --board FILE)"
            )))
        }
        Err(e) if is_usage_problem(&e) => return Ok(crate::cmd::usage_exit(&format!("{e:#}"))),
        r => r?,
    };
    let deal = deal.or_else(|| report_deal(&text, game, &rules, &start.layout));
    analyze(
        args,
        Start {
            game,
            rules,
            deal,
            layout: start.layout,
            input: "a move list",
        },
        &moves,
        (t0, cpu0),
    )?;
    Ok(0)
}

/// True when the move list at `path` (standard input too: it is read once) names a game of
/// the family other than FreeCell: a family solution JSON, or a `# start:` line
/// (`analyze --report`'s game.txt).
pub(crate) fn names_family_game(path: &std::path::Path) -> bool {
    crate::cmd::input::read_board_text(path).is_ok_and(|t| solution_game(&t).is_some())
}

/// Analyse a PySolFC saved or held game of a family game (`saved`: its game from the file's
/// id, its start and the moves PySolFC recorded); exit 2 when `--game`/`--freecells` name
/// another game, `--deal`/`--board` another start, or `--mode` one the game is not solved in.
///
/// # Errors
/// As [`analyze`]; a `--deal` or `--board` that cannot be read.
pub fn run_saved(args: &Args, saved: SavedFamily, clock: (Instant, f64)) -> Result<i32> {
    let SavedFamily { game: g, held } = saved;
    let name = crate::cmd::input::name(&args.file, "game file");
    if let Some(msg) = game_disagrees(args, g.game) {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    if let Err(why) = settings(args, g.game, &g.game.rules) {
        return Ok(crate::cmd::usage_exit(&why));
    }
    let kind = if held {
        "a PySolFC held game"
    } else {
        "a PySolFC saved game"
    };
    let given = match (args.deal, &args.board) {
        (Some(n), _) => Some(("--deal", deal_layout(g.game, &g.game.rules, n, true)?)),
        (None, Some(b)) => Some(("--board", read_board(b, g.game, &g.game.rules)?.0)),
        (None, None) => None,
    };
    if let Some((flag, _)) = given.filter(|(_, l)| *l != g.start) {
        return Ok(crate::cmd::usage_exit(&format!(
            "{name} is {kind} and holds its own start position, and {flag} gives another: leave out {flag}"
        )));
    }
    let start = Start {
        game: g.game,
        rules: g.game.rules,
        deal: g.number.map(PysolNumber::shortest),
        layout: g.start.clone(),
        input: kind,
    };
    analyze(args, start, &g.moves, clock)?;
    Ok(0)
}

/// The usage problem of `--game`/`--freecells` naming another game than `file_game`, the
/// game a PySolFC saved or held game holds ([`family_flow::game_disagrees`]).
pub fn game_disagrees(args: &Args, file_game: &'static fcauto_deals::Game) -> Option<String> {
    let name = crate::cmd::input::name(&args.file, "game file");
    family_flow::game_disagrees(&name, file_game, args.game.game, args.game.freecells)
}

/// Analyse `moves` played from `start` (`clock`: when the run began, wall and CPU seconds)
/// and write the answer, the pictures and the report as `args` asks: the entry for any
/// reader of a family game (a move list, a PySolFC saved game of a family game).
///
/// # Errors
/// More than [`fcauto_engine::analysis::MAX_MOVES`] moves, an illegal move (its step named), an output that cannot
/// be written, a search that fails.
pub fn analyze(args: &Args, start: Start, moves: &[TextMove], clock: (Instant, f64)) -> Result<()> {
    let name = crate::cmd::input::name(&args.file, "game file");
    let played = family_flow::replay(&start, moves, &name)?;
    for dir in [&args.pictures, &args.report].into_iter().flatten() {
        crate::cmd::input::create_output_folder(dir)?;
    }
    let settings = settings(args, start.game, &start.rules).map_err(anyhow::Error::msg)?;
    let bar = super::progress(played.positions.len() as u64);
    let analysis = family_flow::evaluate(played, settings, args.costly, || bar.inc(1))?;
    bar.finish_and_clear();
    let summary = WorkDone::new(&analysis.work, clock.1, clock.0);
    let doc = analysis.document(&start, Mode::from(args.mode));
    output::print(&doc, &summary, args.json)?;
    let played = &analysis.played;
    write_files(args, &doc, played, &analysis.evals)?;
    output::notes(
        played.positions.len(),
        played.guessed_counts_note(),
        &summary,
    );
    Ok(())
}

/// How each position is searched: `--mode` as `solve --game` takes it for the game
/// ([`family_flow::settings`], the engine's one rule), or the one line saying why not (exit
/// 2: `optimal-ph`, `optimal` for an unlimited-sequence game), and `--max-states`.
fn settings(
    args: &Args,
    game: &fcauto_deals::Game,
    rules: &fcauto_deals::Rules,
) -> Result<fcauto_engine::analysis::family::FamilySettings, String> {
    family_flow::settings(game, rules, Mode::from(args.mode), args.max_states)
}

/// The start a board file gives, read for `game` under `rules` by the family's one board
/// reader ([`read_layout`]: board text, a position string, a deal or solution JSON; one line
/// naming what does not fit), and the deal its JSON names when it deals that start
/// ([`board_deal`]).
fn read_board(
    path: &std::path::Path,
    game: &'static fcauto_deals::Game,
    rules: &fcauto_deals::Rules,
) -> Result<(fcauto_deals::Layout, Option<PysolNumber>)> {
    let name = crate::cmd::input::name(path, "board file");
    let text = crate::cmd::input::read_board_text(path)?;
    let layout = read_layout(&text, game, rules, &name)?;
    let deal = board_deal(&text, game, rules, &layout);
    Ok((layout, deal))
}

/// The move list of `args.file`, as text.
fn read_text(args: &Args) -> Result<String> {
    crate::cmd::input::read_text_capped(
        &args.file,
        "game file",
        MAX_INPUT,
        "a game is a few kilobytes",
    )
}

/// The moves of the game file's `text` (named `name`): fcauto's family solution JSON, or a
/// move list in the family's notation; a position is no move list.
fn read_moves(text: &str, name: &str) -> Result<Vec<TextMove>> {
    if let Some(moves) = fcauto_engine::input::family_json_moves(text) {
        let moves = moves.map_err(|e| anyhow::anyhow!("{name}: {e:#}"))?;
        let text_move = |m: fcauto_solver::family::FamilyMove| TextMove {
            from: m.from,
            to: m.to,
            count: Some(m.count),
        };
        return Ok(moves.into_iter().map(text_move).collect());
    }
    if let Some(n) = fcauto_solver::family::named_game(text).filter(|n| !n.by.is_solution()) {
        anyhow::bail!(
            "{name} is a position of {}, not a move list: give the moves as the game file and this position with --board",
            n.game.name
        );
    }
    parse_moves(text).map_err(|e| anyhow::anyhow!("{name}: {e:#}"))
}
