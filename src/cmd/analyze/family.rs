//! `fcauto analyze --game G --deal N MOVES` (and `--freecells N`): a game of the FreeCell
//! family analysed on the command line. The move list is read in the family's standard
//! notation from the deal or a board (`0` the tenth cascade, `i` the eighth freecell); the analysis is
//! [`fcauto_engine::analysis::family`] (every position evaluated by the family search), and
//! the answer, the pictures and the report are written as for standard FreeCell.

use super::input::SavedFamily;
use super::{output, write_files, Args, Summary};
use crate::cmd::solve_family::deal_layout;
use crate::mode::ModeArg;
use anyhow::Result;
use fcauto_engine::analysis::family::{
    evaluate_family, parse_moves, replay_family, FamilySettings, TextMove,
};
use fcauto_engine::analysis::record::Record;
use fcauto_engine::analysis::summary::Document;
use fcauto_engine::analysis::{findings, MAX_MOVES};
use fcauto_engine::verify::family::read_layout;
use fcauto_solver::family::FamilyMode;
use fcauto_solver::Mode;
use std::time::Instant;

/// Most bytes of a move list read (a game is a few kilobytes).
const MAX_INPUT: usize = 1 << 20;

/// Analyse the family game; exit 0 when analysed, 1 on bad input, 2 on a usage problem (an
/// optimal mode, neither `--deal` nor `--board`).
pub fn run(args: &Args) -> Result<i32> {
    let (game, rules) = (args.game.game(), args.game.rules());
    let what = crate::cmd::solve_family::title(game, &rules);
    if !matches!(args.mode, ModeArg::Fast | ModeArg::Short) {
        return Ok(crate::cmd::usage_exit(&format!(
            "{what}: the optimal modes are for standard FreeCell only; use --mode fast or short"
        )));
    }
    let (deal, start) = match (args.deal, &args.board) {
        (Some(n), _) => (
            n.plain_deal(),
            deal_layout(game, &rules, n, args.game.game.is_some())?,
        ),
        (None, Some(board)) => (None, read_board(board, game, &rules)?),
        // fcauto's family solution JSON names its own start.
        (None, None) if is_family_json_file(&args.file) => {
            (None, read_board(&args.file, game, &rules)?)
        }
        (None, None) => {
            return Ok(crate::cmd::usage_exit(&format!(
                "{what}: give the start of the moves: --deal N (or --board FILE)"
            )))
        }
    };
    let (t0, cpu0) = (Instant::now(), crate::cmd::rusage::this_process().cpu_s);
    let moves = read_moves(args)?;
    analyze(
        args,
        Start {
            game,
            rules,
            deal,
            layout: start,
            input: "a move list",
        },
        &moves,
        (t0, cpu0),
    )?;
    Ok(0)
}

/// Where a family game starts: the game, the rules played, the deal (if the start is one)
/// and the position.
pub struct Start {
    /// The game.
    pub game: &'static fcauto_deals::Game,
    /// Its rules (with `--freecells` applied).
    pub rules: fcauto_deals::Rules,
    /// The deal number, when the start is a deal.
    pub deal: Option<u64>,
    /// The start position.
    pub layout: fcauto_deals::Layout,
    /// What the game was read from, as the answer names it (`a move list`).
    pub input: &'static str,
}

/// Analyse a PySolFC saved or held game of a family game (`saved`: its game from the file's
/// id, its start and the moves PySolFC recorded); exit 2 when `--game`/`--freecells` name
/// another game, or `--deal`/`--board` another start.
///
/// # Errors
/// As [`analyze`]; a `--deal` or `--board` that cannot be read.
pub fn run_saved(args: &Args, saved: SavedFamily, clock: (Instant, f64)) -> Result<i32> {
    let SavedFamily { game: g, held } = saved;
    let name = crate::cmd::input::name(&args.file, "game file");
    if let Some(msg) = game_disagrees(args, g.game) {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    let kind = if held {
        "a PySolFC held game"
    } else {
        "a PySolFC saved game"
    };
    let given = match (args.deal, &args.board) {
        (Some(n), _) => Some(("--deal", deal_layout(g.game, &g.game.rules, n, true)?)),
        (None, Some(b)) => Some(("--board", read_board(b, g.game, &g.game.rules)?)),
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
        deal: g.deal(),
        layout: g.start.clone(),
        input: kind,
    };
    analyze(args, start, &g.moves, clock)?;
    Ok(0)
}

/// The usage problem of `--game`/`--freecells` naming another game than `file_game`, the
/// game a PySolFC saved or held game holds (by its id): `--game` may repeat the file's game,
/// `--freecells` its number of freecells.
pub fn game_disagrees(args: &Args, file_game: &'static fcauto_deals::Game) -> Option<String> {
    let name = crate::cmd::input::name(&args.file, "game file");
    let holds = format!(
        "{name} is a PySolFC game of {} (PySolFC id {})",
        file_game.pysol_name, file_game.pysol_id
    );
    if let Some(g) = args.game.game.filter(|g| g.pysol_id != file_game.pysol_id) {
        return Some(format!(
            "{holds}, and --game names {} (PySolFC id {}): the file's id says the game; leave out --game",
            g.pysol_name, g.pysol_id
        ));
    }
    let cells = file_game.rules.freecells;
    args.game.freecells.filter(|&n| n != cells).map(|n| {
        format!(
            "{holds}, played with {}, and --freecells asks for {n}: leave out --freecells",
            fcauto_deals::plural(cells, "freecell")
        )
    })
}

/// Analyse `moves` played from `start` (`clock`: when the run began, wall and CPU seconds)
/// and write the answer, the pictures and the report as `args` asks: the entry for any
/// reader of a family game (a move list, a PySolFC saved game of a family game).
///
/// # Errors
/// More than [`MAX_MOVES`] moves, an illegal move (its step named), an output that cannot
/// be written, a search that fails.
pub fn analyze(args: &Args, start: Start, moves: &[TextMove], clock: (Instant, f64)) -> Result<()> {
    let name = crate::cmd::input::name(&args.file, "game file");
    anyhow::ensure!(
        moves.len() <= MAX_MOVES,
        "{name}: {} moves: analyze takes games of at most {MAX_MOVES} moves",
        moves.len()
    );
    let played = replay_family(start.game, &start.rules, &start.layout, moves)?;
    for dir in [&args.pictures, &args.report].into_iter().flatten() {
        crate::cmd::input::create_output_folder(dir)?;
    }
    let settings = FamilySettings {
        mode: match args.mode {
            ModeArg::Short => FamilyMode::Short,
            _ => FamilyMode::Fast,
        },
        max_states: args.max_states,
    };
    let bar = super::progress(played.positions.len() as u64);
    let (evals, work) = evaluate_family(&played, settings, || bar.inc(1))?;
    bar.finish_and_clear();
    let found = findings::find(&played, &evals, args.costly);
    let summary = Summary::new(&work, clock.1, clock.0);
    let doc = Document {
        game: Some(crate::cmd::solve_family::title(start.game, &start.rules)),
        deal: start.deal,
        input: start.input,
        start: played.position_text(0),
        mode: Mode::from(args.mode),
        guessed_counts: &played.guessed_counts,
        findings: &found,
    };
    output::print(&doc, &summary, args.json)?;
    write_files(args, &doc, &played, &evals)?;
    output::notes(
        played.positions.len(),
        played.guessed_counts_note(),
        &summary,
    );
    Ok(())
}

/// The start a board file gives, read for `game` under `rules` by the family's one board
/// reader ([`read_layout`]: board text, a position string, a deal or solution JSON; one line
/// naming what does not fit).
fn read_board(
    path: &std::path::Path,
    game: &'static fcauto_deals::Game,
    rules: &fcauto_deals::Rules,
) -> Result<fcauto_deals::Layout> {
    let name = crate::cmd::input::name(path, "board file");
    let text = crate::cmd::input::read_board_text(path)?;
    read_layout(&text, game, rules, &name)
}

/// A board file of a family game: a position string naming its game (`seahaven_towers:
/// ...`, with as many freecells as it has slots), or else a board of the game and rules
/// `given` (`None`: FreeCell's) as [`read_layout`] reads it. The game, the rules and the
/// position.
///
/// # Errors
/// The file cannot be read, or does not hold a position of the game (every problem named).
pub(crate) fn read_family_board(
    path: &std::path::Path,
    given: Option<(&'static fcauto_deals::Game, &fcauto_deals::Rules)>,
) -> Result<(
    &'static fcauto_deals::Game,
    fcauto_deals::Rules,
    fcauto_deals::Layout,
)> {
    let name = crate::cmd::input::name(path, "board file");
    let text = crate::cmd::input::read_board_text(path)?;
    if names_a_game(&text) {
        let (g, layout) = fcauto_deals::position::parse_layout(text.trim())
            .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        let rules = g.rules.with_freecells(layout.freecells.len() as u8);
        return Ok((g, rules, layout));
    }
    let (game, rules) = given.unwrap_or((
        fcauto_deals::Game::freecell(),
        &fcauto_deals::Rules::FREECELL,
    ));
    Ok((game, *rules, read_layout(&text, game, rules, &name)?))
}

/// True when `text` opens as a position string of a named game: the game's name and a
/// colon (board text may open with `Freecells:` or `Foundations:`, which name no game).
pub(crate) fn names_a_game(text: &str) -> bool {
    text.split_whitespace()
        .next()
        .and_then(|w| w.strip_suffix(':'))
        .is_some_and(|w| fcauto_deals::Game::find(w).is_ok())
}

/// The move list of `args.file`, in the family's standard notation.
fn read_moves(args: &Args) -> Result<Vec<TextMove>> {
    let name = crate::cmd::input::name(&args.file, "game file");
    let text = crate::cmd::input::read_text_capped(
        &args.file,
        "game file",
        MAX_INPUT,
        "a game is a few kilobytes",
    )?;
    if let Some(moves) = fcauto_engine::input::family_json_moves(&text) {
        let moves = moves.map_err(|e| anyhow::anyhow!("{name}: {e:#}"))?;
        let text_move = |m: fcauto_solver::family::FamilyMove| TextMove {
            from: m.from,
            to: m.to,
            count: Some(m.count),
        };
        return Ok(moves.into_iter().map(text_move).collect());
    }
    if let Some((g, _)) = fcauto_engine::input::named_game(&text) {
        anyhow::bail!(
            "{name} is a position of {}, not a move list: give the moves as the game file and this position with --board",
            g.name
        );
    }
    parse_moves(&text).map_err(|e| anyhow::anyhow!("{name}: {e:#}"))
}

/// True when `path` (not standard input, which is read once) holds a family solution JSON.
pub(crate) fn is_family_json_file(path: &std::path::Path) -> bool {
    !crate::cmd::input::is_stdio(path)
        && crate::cmd::input::read_board_text(path)
            .is_ok_and(|t| fcauto_engine::verify::family::is_family_json(&t))
}
