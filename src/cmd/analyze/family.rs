//! `fcauto analyze --game G --deal N MOVES` (and `--freecells N`): a game of the FreeCell
//! family analysed on the command line. The move list is read in the family's standard
//! notation from the deal (`0` the tenth cascade, `i` the eighth freecell); the analysis is
//! [`fcauto_engine::analysis::family`] (every position evaluated by the family search), and
//! the answer, the pictures and the report are written as for standard FreeCell.

use super::{output, write_files, Args, Summary};
use crate::mode::ModeArg;
use anyhow::Result;
use fcauto_engine::analysis::family::{
    evaluate_family, parse_moves, replay_family, FamilyReplay, FamilySettings,
};
use fcauto_engine::analysis::record::Record;
use fcauto_engine::analysis::summary::Document;
use fcauto_engine::analysis::{findings, MAX_MOVES};
use fcauto_solver::family::FamilyMode;
use fcauto_solver::Mode;
use std::time::Instant;

/// Most bytes of a move list read (a game is a few kilobytes).
const MAX_INPUT: usize = 1 << 20;

/// Analyse the family game; exit 0 when analysed, 1 on bad input, 2 on a usage problem (an
/// optimal mode, `--board`, no `--deal`).
pub fn run(args: &Args) -> Result<i32> {
    let (game, rules) = (args.game.game(), args.game.rules());
    let what = crate::cmd::solve_family::title(game, &rules);
    let (mode, solver_mode) = match args.mode {
        ModeArg::Fast => (FamilyMode::Fast, Mode::Fast),
        ModeArg::Short => (FamilyMode::Short, Mode::Short),
        _ => {
            return Ok(crate::cmd::usage_exit(&format!(
                "{what}: the optimal modes are for standard FreeCell only; use --mode fast or short"
            )))
        }
    };
    if args.board.is_some() {
        return Ok(crate::cmd::usage_exit(&format!(
            "{what}: --board is for standard FreeCell only in this build; give the deal with --deal N"
        )));
    }
    let Some(deal) = args.deal else {
        return Ok(crate::cmd::usage_exit(&format!(
            "{what}: give the deal the moves start from with --deal N"
        )));
    };
    let (t0, cpu0) = (Instant::now(), crate::cmd::rusage::this_process().cpu_s);
    let start =
        crate::cmd::solve_family::deal_layout(game, &rules, deal, args.game.game.is_some())?;
    let played = read_and_replay(args, game, &rules, &start)?;
    let settings = FamilySettings {
        mode,
        max_states: args.max_states,
    };
    let bar = super::progress(played.positions.len() as u64);
    let (evals, work) = evaluate_family(&played, settings, || bar.inc(1))?;
    bar.finish_and_clear();
    let found = findings::find(&played, &evals, args.costly);
    let summary = Summary::new(&work, cpu0, t0);
    let doc = Document {
        game: Some(what),
        deal: Some(deal),
        input: "a move list",
        start: played.position_text(0),
        mode: solver_mode,
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
    Ok(0)
}

/// The move list of `args.file` read and replayed from `start` (at most [`MAX_MOVES`]
/// moves); then the output folders are made, so that one that cannot be made stops the run
/// before the analysis.
fn read_and_replay(
    args: &Args,
    game: &'static fcauto_deals::Game,
    rules: &fcauto_deals::Rules,
    start: &fcauto_deals::Layout,
) -> Result<FamilyReplay> {
    let name = crate::cmd::input::name(&args.file, "game file");
    let text = crate::cmd::input::read_text_capped(
        &args.file,
        "game file",
        MAX_INPUT,
        "a game is a few kilobytes",
    )?;
    let moves = parse_moves(&text).map_err(|e| anyhow::anyhow!("{name}: {e:#}"))?;
    anyhow::ensure!(
        moves.len() <= MAX_MOVES,
        "{name}: {} moves: analyze takes games of at most {MAX_MOVES} moves",
        moves.len()
    );
    let played = replay_family(game, rules, start, &moves)?;
    for dir in [&args.pictures, &args.report].into_iter().flatten() {
        crate::cmd::input::create_output_folder(dir)?;
    }
    Ok(played)
}
