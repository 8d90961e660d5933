//! One `fcauto play --gui` run: deal and solve, start the display and PySolFC, confirm the
//! deal on screen, replay every move with the mouse, prove the win, write the evidence.
//!
//! This file is the sequence of stages; each stage is its own module: `deal` (1, a new
//! deal's board) or `held` (1 and 4 of `play --resume`: the held game read, and its
//! position confirmed on screen), `solve` (2, the plan), `game` (3, PySolFC launched on
//! its profile), `confirm` (4, the dealt board on screen), `moves` (5, the replay),
//! `end` (6 to 9: win, quit, prove, report).

mod confirm;
mod deal;
mod end;
mod game;
mod held;
mod moves;
mod solve;

use serde_json::json;

pub use super::config::{DealSource, PlayConfig};
use super::display::{install_signal_handler, Display};
use super::evidence::Bundle;
use super::launch;
use super::resume::{self, Held};
use super::GuiError;
use confirm::{confirm, confirm_layout, Shown};
use deal::{deal, deal_family};
use end::{prove, quit, report, win, Stages};
use fcauto_deals::Layout;
use game::{launch, Game};
use held::{confirm_held, confirm_held_layout, held_game};
use moves::{replay, Played};
use solve::{solve, solve_family_game, Plan};

/// Most re-reads/re-plans after a move that did not land as expected.
pub const MAX_RECOVERIES: usize = 5;
/// Steps after which `view_play_N.png` is saved.
pub const SCREENSHOT_STEPS: [usize; 5] = [5, 10, 15, 20, 25];

/// `channels.json` tool of the `screenshot` channel: the screen-capture library.
pub const SCREEN_TOOL: &str = "xcap";
/// `channels.json` tool of the `ocr` channel: the OCR engine (through leptess).
pub const OCR_TOOL: &str = "tesseract";
/// `channels.json` tool of the `mouse` channel: the input library.
pub const MOUSE_TOOL: &str = "enigo";
/// `channels.json` tool of the `statistics` channel: the format of PySolFC's statistics.dat
/// (a Python pickle, read by fcauto's guarded decoder).
pub const STATS_TOOL: &str = "pickle";

/// A progress line on stderr (with `progress`).
fn log(cfg: &PlayConfig, msg: &str) {
    if cfg.progress {
        // (Not `eprintln!`: a standard error that cannot be written must not panic.)
        let _ =
            std::io::Write::write_fmt(&mut std::io::stderr(), format_args!("fcauto play: {msg}\n"));
    }
}

/// Run everything, stage by stage (a function each, with its own inputs and output struct,
/// in the stage modules above): `deal`, `solve`, `launch`, `confirm`, `replay`, `win`,
/// `quit`, `prove`, `report`; returns `report.json`'s content. Errors are one-line
/// [`GuiError`]s; the evidence written up to the failure stays in the results directory.
pub fn run(cfg: &PlayConfig) -> Result<serde_json::Value, GuiError> {
    if !cfg.attach && !launch::pysolfc_path().exists() {
        return Err(GuiError::Launch(format!(
            "PySolFC not found at {} (install it with scripts/setup-deps.sh --gui)",
            launch::pysolfc_path().display()
        )));
    }
    // From the start: a signal during the deal or the solve stage ends the run as one during
    // the replay does (fc-solve, started tied to this process, ends with it).
    install_signal_handler();
    // Read before the results folder is touched: a file that is no held game is refused with
    // an earlier run's evidence left as it was.
    let held = match &cfg.resume {
        Some(held) => Some((held, resume::read_held(&held.file)?)),
        None => None,
    };
    let game = held.as_ref().map_or(cfg.game, |(_, read)| read.game);
    super::layout::check_table_read(game).map_err(GuiError::Launch)?;
    let mut ev = Bundle::create(&cfg.results)?;
    if let Some((held, read)) = held {
        return run_resume(cfg, ev, held, read);
    }
    if cfg.is_family() {
        return run_family(cfg, ev);
    }
    let board = deal(cfg, &mut ev)?;
    let plan = solve(cfg, &mut ev, &board, Some(cfg.deal))?;
    let display = start_display(cfg)?;
    let mut game = launch(cfg, &mut ev, &display.name, None)?;
    let shown = confirm(cfg, &mut ev, &mut game, &board)?;
    let position = Layout::from_board(&board, 4);
    let played = replay(
        cfg,
        &mut ev,
        &mut game,
        &position,
        plan.moves.clone(),
        &shown,
    )?;
    finish(cfg, ev, display, game, (&plan, &shown, &played), None)
}

/// A game of the FreeCell family (`--game`): PySolFC's deal of that game and number, the
/// family solver's validated plan, PySolFC started on that game id and number, the table
/// read card for card against the deal (cascades and freecells), replay under the game's
/// rules, and the win proved from that game id's statistics.
fn run_family(cfg: &PlayConfig, mut ev: Bundle) -> Result<serde_json::Value, GuiError> {
    let position = deal_family(cfg, &mut ev)?;
    let plan = solve_family_game(cfg, &mut ev, &position)?;
    let display = start_display(cfg)?;
    let mut game = launch(cfg, &mut ev, &display.name, None)?;
    let shown = confirm_layout(cfg, &mut ev, &mut game, &position)?;
    let played = replay(
        cfg,
        &mut ev,
        &mut game,
        &position,
        plan.moves.clone(),
        &shown,
    )?;
    finish(cfg, ev, display, game, (&plan, &shown, &played), None)
}

/// `play --resume`: play's stages for a held game: the held game read (instead of the deal),
/// solve from its position, launch (PySolFC resumes it), confirm (the screen shows that
/// position card for card), replay, win, quit, prove, report.
fn run_resume(
    cfg: &PlayConfig,
    mut ev: Bundle,
    held: &Held,
    read: resume::HeldRead,
) -> Result<serde_json::Value, GuiError> {
    let read = held_game(&mut ev, held, read)?;
    if read.trailing_bytes > 0 {
        log(
            cfg,
            &format!(
                "warning: held game {}: {} bytes after the pickle's end ignored (PySolFC ignores them too)",
                held.file.display(),
                read.trailing_bytes
            ),
        );
    }
    if read.is_family() {
        return run_resume_family(cfg, ev, held, &read);
    }
    let board = read
        .board()
        .ok_or_else(|| GuiError::Launch("the held game is not standard FreeCell".into()))?;
    // from here on the run is about the held game's deal (when it has an MS number)
    let mut cfg = PlayConfig {
        deal: read.deal.unwrap_or(cfg.deal),
        ..cfg.clone()
    };
    // solved before PySolFC starts: a held game that cannot be won is refused at once
    let plan = solve(&cfg, &mut ev, &board, None).map_err(|e| {
        GuiError::Solver(format!(
            "no way found to win the held game from its position: {e}"
        ))
    })?;
    let display = start_display(&cfg)?;
    let mut game = launch(&cfg, &mut ev, &display.name, Some(held))?;
    let (shown, position, deal) = confirm_held(&cfg, &mut ev, &mut game, held, &read)?;
    cfg.deal = deal.unwrap_or(cfg.deal);
    let cfg = &cfg;
    let played = replay(
        cfg,
        &mut ev,
        &mut game,
        &Layout::from_board(&position, 4),
        plan.moves.clone(),
        &shown,
    )?;
    let resumed = json!({
        "held_game": held.origin,
        "held_copy": format!("held_game/{}", resume::HOLDGAME),
        "deal_from": if read.deal.is_some() { "holdgame.dat" } else if deal.is_some() { "status bar OCR" } else { "unknown" },
        "moves_before_resume": read.moves,
        "cards_home_at_start": position.foundations.iter().map(|&r| r as usize).sum::<usize>(),
        "position_at_start": position.fcs_input_text(),
    });
    finish(
        cfg,
        ev,
        display,
        game,
        (&plan, &shown, &played),
        Some(resumed),
    )
}

/// `play --resume` of a game of the family other than standard FreeCell: the run is about
/// the held game's game and number (PySolFC's title, table layout and statistics of that
/// id), the family solver plans from the held position, the screen must show it card for
/// card, then replay, win, quit and prove as for a new game.
fn run_resume_family(
    cfg: &PlayConfig,
    mut ev: Bundle,
    held: &Held,
    read: &resume::HeldRead,
) -> Result<serde_json::Value, GuiError> {
    let cfg = &PlayConfig {
        deal: 0,
        game: read.game,
        number: read.number,
        ..cfg.clone()
    };
    // solved before PySolFC starts: a held game that cannot be won is refused at once
    let plan = solve::solve_family_from(cfg, &mut ev, &read.position, false).map_err(|e| {
        GuiError::Solver(format!(
            "no way found to win the held game from its position: {e}"
        ))
    })?;
    let display = start_display(cfg)?;
    let mut game = launch(cfg, &mut ev, &display.name, Some(held))?;
    let (shown, position) = confirm_held_layout(cfg, &mut ev, &mut game, held, read)?;
    let played = replay(
        cfg,
        &mut ev,
        &mut game,
        &position,
        plan.moves.clone(),
        &shown,
    )?;
    let resumed = json!({
        "held_game": held.origin,
        "held_copy": format!("held_game/{}", resume::HOLDGAME),
        "game": {"name": read.game.name, "pysol_name": read.game.pysol_name, "pysol_id": read.game.pysol_id},
        "deal_from": "holdgame.dat",
        "pysolfc_game_number": cfg.game_number(),
        "moves_before_resume": read.moves,
        "cards_home_at_start": position.foundations.iter().map(|&r| r as usize).sum::<usize>(),
        "position_at_start": position.board_text(),
    });
    finish(
        cfg,
        ev,
        display,
        game,
        (&plan, &shown, &played),
        Some(resumed),
    )
}

/// Xvfb + openbox (or the display named); the signal handler ([`run`]'s) stops them.
fn start_display(cfg: &PlayConfig) -> Result<Display, GuiError> {
    let display = Display::acquire(cfg.display.as_deref())?;
    let what = if display.is_own() {
        "Xvfb + openbox started"
    } else {
        "existing"
    };
    log(cfg, &format!("display {} ({what})", display.name));
    Ok(display)
}

/// The stages after the replay, shared by `play` and `play --resume`: win, quit, prove,
/// report.
fn finish(
    cfg: &PlayConfig,
    mut ev: Bundle,
    display: Display,
    mut game: Game,
    (plan, shown, played): (&Plan, &Shown, &Played),
    resumed: Option<serde_json::Value>,
) -> Result<serde_json::Value, GuiError> {
    let (ev, game) = (&mut ev, &mut game);
    let won = win(cfg, ev, game, shown, played.executed.len())?;
    let quit_clean = quit(cfg, ev, game, &won, shown, played.executed.len())?;
    let proof = prove(cfg, ev, game, quit_clean, played.executed.len())?;
    report(
        cfg,
        ev,
        display,
        &Stages {
            plan,
            game,
            shown,
            played,
            won: &won,
            proof: &proof,
            quit_clean,
            resumed,
        },
    )
}
