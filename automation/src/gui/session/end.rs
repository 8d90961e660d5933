//! Stages 6 to 9, the end of the run: the win as PySolFC shows it, the quit (PySolFC writes
//! statistics.dat then), the proof (FreeCell's wins after), and the report with its verdict.

use std::time::{Duration, Instant};

use super::confirm::{frame_of, Shown};
use super::game::{copy_profile, Game};
use super::moves::Played;
use super::solve::Plan;
use super::{log, PlayConfig, MOUSE_TOOL, OCR_TOOL, SCREEN_TOOL, STATS_TOOL};
use crate::gui::caption;
use crate::gui::display::{exited, Display};
use crate::gui::evidence::{Bundle, ProfileCopies};
use crate::gui::launch;
use crate::gui::ocr::OcrText;
use crate::gui::recognize::SeenBoard;
use crate::gui::report::{write_final, FinalFacts};
use crate::gui::screen::{crop, find_windows, Rect, WinInfo};
use crate::gui::verify::{read_stats, StatsSnapshot};
use crate::gui::GuiError;

/// [`win`]'s output: the end of the game as PySolFC shows it.
pub(super) struct Won {
    /// PySolFC's end-of-game dialog, if one appeared.
    pub(super) dialog: Option<WinInfo>,
    /// The board read at the end.
    pub(super) final_seen: SeenBoard,
    /// The dialog's text (OCR).
    pub(super) dialog_text: OcrText,
    /// The status bar at the end (OCR).
    pub(super) final_status: OcrText,
    /// From launch to the win.
    pub(super) launch_to_win: Duration,
}

/// Stage 6, win: PySolFC's end dialog, the final screenshot (view_pysol_won.png) and its OCR.
pub(super) fn win(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    game: &mut Game,
    shown: &Shown,
    steps: usize,
) -> Result<Won, GuiError> {
    let dialog = wait_dialog(Duration::from_secs(30))?;
    let launch_to_win = game.t_launch.elapsed();
    ev.channel(steps, "screenshot", SCREEN_TOOL);
    let (shot, final_seen, _) = game.table.read()?;
    let won_rect = union(
        shown.frame,
        dialog.as_ref().map(frame_of).unwrap_or(shown.frame),
    );
    let lines = caption::won_lines(&format!("{}: won", shown.title), &final_seen);
    let picture = caption::with_caption(&crop(&shot, won_rect), &lines, &caption::caption_font()?);
    ev.png("view_pysol_won.png", &picture)?;
    ev.evidence(steps, "screenshot", SCREEN_TOOL, "view_pysol_won.png");
    ev.channel(steps, "ocr", OCR_TOOL);
    let dialog_text = match &dialog {
        Some(d) => game.ocr.read_block(&shot, d.client)?,
        None => OcrText {
            text: String::new(),
            confidence: 0,
        },
    };
    let final_status = game.ocr.read(&shot, shown.status_rect)?;
    log(
        cfg,
        &format!(
            "won after {:.1} s; {}: {:?}",
            launch_to_win.as_secs_f64(),
            dialog
                .as_ref()
                .map_or("no dialog".to_string(), |d| format!("dialog {:?}", d.title)),
            dialog_text.text
        ),
    );
    Ok(Won {
        dialog,
        final_seen,
        dialog_text,
        final_status,
        launch_to_win,
    })
}

/// Stage 7, quit: close the dialog and quit PySolFC with Ctrl+Q (it writes statistics.dat
/// then); returns whether it quit within 60 s. With `--keep-open` nothing is sent.
pub(super) fn quit(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    game: &mut Game,
    won: &Won,
    shown: &Shown,
    steps: usize,
) -> Result<bool, GuiError> {
    if cfg.keep_open {
        game.guard.0 = None;
        // PySolFC keeps running on its profile: the folder stays, so quitting the game later
        // still records it in that profile's statistics.dat.
        if let Some(t) = game.profile._tmp.take() {
            crate::gui::display::forget_temp_dir(t.path());
            let kept = t.keep();
            log(
                cfg,
                &format!(
                    "PySolFC (process {}) keeps its profile in {}: remove it when done",
                    game.table.pid,
                    kept.display()
                ),
            );
        }
        return Ok(false);
    }
    ev.channel(steps, "mouse", MOUSE_TOOL);
    let input = &mut game.table.input;
    if let Some(d) = &won.dialog {
        input.click((d.client.x + 20, d.client.y + 15))?;
        input.escape()?;
        crate::gui::display::wait_until(Duration::from_secs(10), || {
            find_windows(&d.title)
                .map(|w| w.is_empty())
                .unwrap_or(false)
        });
    }
    let status = shown.status_rect;
    input.click((status.x + status.w - 60, status.y + 13))?;
    input.ctrl_q()?;
    let (pysol, pid) = (&game.pysol, game.table.pid);
    let quit_clean = if pysol.owned {
        crate::gui::display::wait_until(Duration::from_secs(60), || exited(pysol.pid).is_some())
    } else {
        crate::gui::display::wait_until(Duration::from_secs(60), || {
            launch::cpu_ticks(pid).is_none()
        })
    };
    if quit_clean {
        game.guard.0 = None;
    }
    Ok(quit_clean)
}

/// [`prove`]'s output: the statistics after the run.
pub(super) struct Proof {
    /// FreeCell's statistics after (the ones before when PySolFC did not quit).
    pub(super) after: StatsSnapshot,
    /// The profile files copied to pysol_after/ (`None` when PySolFC did not quit).
    pub(super) copies_after: Option<ProfileCopies>,
    /// FreeCell wins after minus before.
    pub(super) delta: i64,
}

/// Stage 8, prove: after a clean quit, copy statistics.dat and options.cfg to pysol_after/
/// and read FreeCell's wins again.
pub(super) fn prove(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    game: &Game,
    quit_clean: bool,
    steps: usize,
) -> Result<Proof, GuiError> {
    ev.channel(steps, "statistics", STATS_TOOL);
    let p = &game.profile;
    let (after, copies_after) = if quit_clean {
        let copies = copy_profile(ev, "pysol_after", &p.stats, &p.options)?;
        if let Some(name) = &copies.statistics {
            ev.evidence(steps, "statistics", STATS_TOOL, name);
        }
        (
            read_stats(&p.stats, &p.player, cfg.game.pysol_id)?,
            Some(copies),
        )
    } else {
        (game.before.clone(), None)
    };
    Ok(Proof {
        delta: after.won - game.before.won,
        after,
        copies_after,
    })
}

/// Every stage's output, for [`report`].
pub(super) struct Stages<'a> {
    pub(super) plan: &'a Plan,
    pub(super) game: &'a Game,
    pub(super) shown: &'a Shown,
    pub(super) played: &'a Played,
    pub(super) won: &'a Won,
    pub(super) proof: &'a Proof,
    pub(super) quit_clean: bool,
    /// `play --resume`: what was resumed (report.json's `resumed`).
    pub(super) resumed: Option<serde_json::Value>,
}

/// Stage 9, report: the remaining evidence files and report.json; then the verdict: an
/// error unless PySolFC quit cleanly and FreeCell's wins rose by exactly one (with
/// `--keep-open` the display is left running and nothing is proven).
pub(super) fn report(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    display: Display,
    s: &Stages,
) -> Result<serde_json::Value, GuiError> {
    let (game, proof) = (s.game, s.proof);
    let facts = FinalFacts {
        plan_total: s.plan.moves.len(),
        plan_tool: s.plan.tool,
        native_failure: s.plan.native_failure.clone(),
        executed: &s.played.executed,
        rows: &s.played.rows,
        final_seen: &s.won.final_seen,
        max_fc: s.played.max_fc,
        player: &game.profile.player,
        before: &game.before,
        after: &proof.after,
        delta: proof.delta,
        profile_stats_path: &game.profile.stats,
        copies_before: &game.copies_before,
        copies_after: proof.copies_after.as_ref(),
        recoveries: &s.played.recoveries,
        status_checks: &s.played.status_checks,
        match_ratio: s.shown.match_ratio,
        move_secs: &s.played.move_secs,
        launch_to_board: s.shown.launch_to_board,
        launch_to_win: s.won.launch_to_win,
        dialog_title: s.won.dialog.as_ref().map(|d| d.title.clone()),
        dialog_text: &s.won.dialog_text.text,
        final_status: &s.won.final_status.text,
        fc_moves: s.plan.fc_moves,
        title_ocr: &s.shown.title_ocr.text,
        status_ocr: &s.shown.status_ocr.text,
        resumed: s.resumed.as_ref(),
    };
    let report = write_final(ev, cfg, &facts)?;
    if cfg.keep_open {
        if display.is_own() {
            log(
                cfg,
                &format!(
                    "PySolFC left open on display {} (Xvfb and openbox keep running)",
                    display.name
                ),
            );
        }
        display.keep_running();
        Ok(report)
    } else if !s.quit_clean {
        Err(GuiError::Replay(
            "PySolFC did not quit within 60 s after Ctrl+Q; statistics.dat not written".into(),
        ))
    } else if proof.delta != 1 {
        Err(GuiError::Replay(format!(
            "{} wins (PySolFC game id {}) went {} -> {} (expected +1)",
            cfg.game.pysol_name, cfg.game.pysol_id, game.before.won, proof.after.won
        )))
    } else {
        Ok(report)
    }
}

fn union(a: Rect, b: Rect) -> Rect {
    let (x0, y0) = (a.x.min(b.x), a.y.min(b.y));
    let (x1, y1) = ((a.x + a.w).max(b.x + b.w), (a.y + a.h).max(b.y + b.h));
    Rect {
        x: x0,
        y: y0,
        w: x1 - x0,
        h: y1 - y0,
    }
}

/// Wait for PySolFC's end-of-game dialog ("Game won", or "Game finished" when it counts as lost).
fn wait_dialog(timeout: Duration) -> Result<Option<WinInfo>, GuiError> {
    let t0 = Instant::now();
    loop {
        for title in ["Game won", "Game finished"] {
            if let Some(w) = find_windows(title)?.into_iter().next() {
                // let it draw its text
                std::thread::sleep(Duration::from_millis(300));
                return Ok(Some(w));
            }
        }
        if t0.elapsed() > timeout {
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}
