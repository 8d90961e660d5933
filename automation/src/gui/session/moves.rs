//! Stage 5, replay: the plan played with the mouse, move by move, each move waited for on
//! screen; a move that did not land is re-read and re-planned.

use std::time::{Duration, Instant};

use fcauto_deals::Layout as Position;
use fcauto_solver::{Loc, PlayedMove};
use serde_json::json;

use super::confirm::Shown;
use super::game::Game;
use super::{log, PlayConfig, MAX_RECOVERIES, MOUSE_TOOL, OCR_TOOL, SCREENSHOT_STEPS, SCREEN_TOOL};
use crate::gui::evidence::{Bundle, PlayRow};
use crate::gui::fcsolve;
use crate::gui::ocr::moves_counter;
use crate::gui::plan::{self, kind_name};
use crate::gui::recognize::SeenBoard;
use crate::gui::replay::{Outcome, Table};
use crate::gui::screen::crop;
use crate::gui::GuiError;

/// [`replay`]'s output: what was played and seen.
pub(super) struct Played {
    /// The moves executed, in order (re-plans included).
    pub(super) executed: Vec<PlayedMove>,
    /// play_log.csv's rows.
    pub(super) rows: Vec<PlayRow>,
    /// Seconds per executed move.
    pub(super) move_secs: Vec<f64>,
    /// One entry per recovery (play_verify.json).
    pub(super) recoveries: Vec<serde_json::Value>,
    /// Status bar readings at the progress screenshots.
    pub(super) status_checks: Vec<serde_json::Value>,
    /// Most freecells seen in use at once.
    pub(super) max_fc: usize,
}

/// The replay's moving parts: the plan being played and what the screen should show.
struct Cursor {
    plan: Vec<PlayedMove>,
    idx: usize,
    expected: Position,
    seen: SeenBoard,
    origin: (i32, i32),
}

/// Stage 5, replay: one mouse gesture per move, each waited for until the screen shows the
/// expected board; a move that did not land is re-read and re-planned (at most
/// [`MAX_RECOVERIES`] times). Progress screenshots at [`SCREENSHOT_STEPS`].
pub(super) fn replay(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    game: &mut Game,
    board: &Position,
    plan: Vec<PlayedMove>,
    shown: &Shown,
) -> Result<Played, GuiError> {
    let misdrag_step: Option<usize> = std::env::var("FCAUTO_TEST_MISDRAG_STEP")
        .ok()
        .and_then(|s| s.parse().ok());
    let mut misdragged = false;
    let mut cur = Cursor {
        plan,
        idx: 0,
        expected: board.clone(),
        seen: shown.seen.clone(),
        origin: shown.origin,
    };
    let mut out = Played {
        executed: Vec::new(),
        rows: Vec::new(),
        move_secs: Vec::new(),
        recoveries: Vec::new(),
        status_checks: Vec::new(),
        max_fc: 0,
    };
    while cur.idx < cur.plan.len() {
        let step = out.executed.len() + 1;
        let mv = cur.plan[cur.idx];
        let mut after = cur.expected.clone();
        plan::apply_rules(&mut after, &cfg.game.rules, step, &mv)?;
        let misdrag = misdrag_step == Some(step) && !misdragged;
        misdragged |= misdrag;
        ev.channel(step, "mouse", MOUSE_TOOL);
        let t = Instant::now();
        game.table
            .gesture(cur.origin, &cur.expected, &mv, misdrag)?;
        ev.channel(step, "screenshot", SCREEN_TOOL);
        match game.table.wait_for(&cur.expected, &after)? {
            Outcome::Taken(shot, now) => {
                let dt = t.elapsed().as_secs_f64();
                let total = cur.plan.len() - cur.idx + out.executed.len();
                log(
                    cfg,
                    &format!(
                        "step {step}/{total} {} {} ({}) ok in {dt:.2} s",
                        plan::notation(&mv),
                        mv.card,
                        kind_name(&mv)
                    ),
                );
                record_move(
                    ev,
                    game,
                    shown,
                    &mut out,
                    (step, mv, dt),
                    (&shot, &cur.seen, &now),
                )?;
                cur.expected = after;
                cur.seen = now;
                cur.idx += 1;
            }
            Outcome::NotTaken(bad, now) | Outcome::Unexpected(bad, now) => {
                let shot_name = format!("view_recovery_{step}.png");
                ev.png(&shot_name, &crop(&bad, shown.frame))?;
                ev.evidence(step, "screenshot", SCREEN_TOOL, &shot_name);
                recover(cfg, ev, game, &mut cur, &mut out, (step, mv, misdrag), &now)?;
            }
        }
    }
    if !cur.expected.is_won() {
        return Err(GuiError::Replay(
            "the plan ended without a won board".into(),
        ));
    }
    Ok(out)
}

/// A move that landed: its play_log.csv row, its timing, and at [`SCREENSHOT_STEPS`] its
/// screenshot and status bar reading. `shots` = (screenshot, board before, board after).
fn record_move(
    ev: &mut Bundle,
    game: &mut Game,
    shown: &Shown,
    out: &mut Played,
    (step, mv, dt): (usize, PlayedMove, f64),
    (shot, before, now): (&image::RgbaImage, &SeenBoard, &SeenBoard),
) -> Result<(), GuiError> {
    out.move_secs.push(dt);
    out.max_fc = out.max_fc.max(now.freecells.iter().flatten().count());
    let mut shot_name = String::new();
    if SCREENSHOT_STEPS.contains(&step) {
        shot_name = format!("view_play_{step}.png");
        ev.png(&shot_name, &crop(shot, shown.frame))?;
        ev.evidence(step, "screenshot", SCREEN_TOOL, &shot_name);
        ev.channel(step, "ocr", OCR_TOOL);
        let st = game.ocr.read(shot, shown.status_rect)?;
        out.status_checks.push(
            json!({"step": step, "status_text": st.text, "moves_counter": moves_counter(&st.text)}),
        );
    }
    let suit = mv.card.suit().index();
    out.rows.push(PlayRow {
        step,
        from: plan::place_char(mv.mv.from).to_string(),
        to: plan::place_char(mv.mv.to).to_string(),
        card: mv.card.to_string(),
        pre_top: top_token(before, mv.mv.from, suit),
        post_top: top_token(now, mv.mv.to, suit),
        screenshot: shot_name,
    });
    out.executed.push(mv);
    Ok(())
}

/// A move that did not land (`now` is what the screen shows): re-read the board and
/// re-plan from it, or give up after [`MAX_RECOVERIES`].
fn recover(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    game: &Game,
    cur: &mut Cursor,
    out: &mut Played,
    (step, mv, misdrag): (usize, PlayedMove, bool),
    now: &SeenBoard,
) -> Result<(), GuiError> {
    let what = if now.to_layout() == cur.expected {
        "did not take"
    } else {
        "left an unexpected board"
    };
    let named = format!("step {step} {} {} {what}", plan::notation(&mv), mv.card);
    log(
        cfg,
        &format!("{named}: re-reading the board and re-planning"),
    );
    if out.recoveries.len() >= MAX_RECOVERIES {
        return Err(GuiError::Replay(format!(
            "{named}, after {MAX_RECOVERIES} recoveries; giving up"
        )));
    }
    let (_, seen, origin) = reread(&game.table)?;
    cur.origin = origin;
    cur.expected = seen.to_layout();
    cur.plan = if cur.expected.is_won() {
        Vec::new()
    } else if let Some(board) = cfg
        .game
        .rules
        .is_standard()
        .then(|| cur.expected.to_board())
        .flatten()
    {
        let (p, tool, failure) = fcsolve::plan(&board)?;
        ev.channel(step, "solver", tool);
        if let Some(why) = failure {
            log(cfg, &format!("warning: {why}; re-planned with fc-solve"));
        }
        p
    } else {
        ev.channel(step, "solver", super::solve::FAMILY_TOOL);
        super::solve::family_plan(&cur.expected, &cfg.game.rules)?
    };
    cur.idx = 0;
    cur.seen = seen;
    out.recoveries.push(json!({"step": step, "move": plan::notation(&mv), "card": mv.card.to_string(), "observed": what, "misdrag_hook": misdrag, "new_plan_moves": cur.plan.len()}));
    Ok(())
}

/// Re-read the board until it shows 52 readable cards (up to 10 s).
fn reread(table: &Table) -> Result<(image::RgbaImage, SeenBoard, (i32, i32)), GuiError> {
    let t0 = Instant::now();
    loop {
        let (shot, seen, origin) = table.read()?;
        if seen.card_count() == 52 && seen.unreadable.is_empty() {
            return Ok((shot, seen, origin));
        }
        if t0.elapsed() > Duration::from_secs(10) {
            return Err(GuiError::Recognize(format!(
                "board unreadable on re-read ({}, {:?})",
                crate::plural(seen.card_count(), "card"),
                seen.unreadable
            )));
        }
        std::thread::sleep(Duration::from_millis(300));
    }
}

fn top_token(board: &SeenBoard, loc: Loc, suit: usize) -> String {
    let t = match loc {
        Loc::Cascade(c) => board
            .cascades
            .get(c as usize)
            .and_then(|v| v.last())
            .map(|p| p.0.to_string()),
        Loc::Freecell(i) => board
            .freecells
            .get(i as usize)
            .copied()
            .flatten()
            .map(|p| p.0.to_string()),
        Loc::Foundation => {
            crate::gui::recognize::card_of(suit, board.foundations[suit]).map(|c| c.to_string())
        }
    };
    t.unwrap_or_else(|| "-".into())
}
