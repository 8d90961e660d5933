//! One `fcauto play --gui` run: deal and solve, start the display and PySolFC, confirm the
//! deal on screen, replay every move with the mouse, prove the win, write the evidence.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fcauto_deals::{ms_deal, Board};
use serde_json::json;

use super::display::{exited, install_ctrlc_handler, kill_registered, Display};
use super::evidence::{kind_histogram, Bundle, PlayRow};
use super::launch::{self, prepare_profile, Pysol, CARDSET_DIR, PLAYER};
use super::layout::Layout;
use super::mouse::Input;
use super::ocr::{moves_counter, Ocr, OcrText};
use super::plan::{self, kind_name};
use super::recognize::{CardImages, SeenBoard};
use super::replay::{MouseMode, Outcome, Table};
use super::screen::{crop, find_windows, Rect, WinInfo};
use super::verify::{board_match, read_stats, StatsSnapshot};
use super::{fcsolve, GuiError};
use crate::pysol::options::OptionsFile;
use crate::pysol::FREECELL_GAME_ID;
use fcauto_solver::{Loc, PlayedMove};

/// Most re-reads/re-plans after a move that did not land as expected.
pub const MAX_RECOVERIES: usize = 5;
/// Steps after which `view_play_N.png` is saved.
pub const SCREENSHOT_STEPS: [usize; 5] = [5, 10, 15, 20, 25];

/// Where the deal number came from (`source` in deal_seed.json).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealSource {
    /// `--deal N` on the command line (or its default).
    CommandLine,
    /// `--deal-file FILE`: the file as given and the line that named the deal.
    File {
        /// The file.
        path: PathBuf,
        /// Its `MS_DEAL_NUMBER=...` line, trimmed.
        line: String,
    },
}

/// What the user asked for.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// Microsoft deal number.
    pub deal: u64,
    /// Where the number came from.
    pub deal_source: DealSource,
    /// Evidence directory.
    pub results: PathBuf,
    /// `--display :N`.
    pub display: Option<String>,
    /// Profile base directory (PySolFC's HOME is `<dir>/home`); a temporary one if `None`.
    pub profile: Option<PathBuf>,
    /// Leave PySolFC running after the win (statistics then cannot be proven).
    pub keep_open: bool,
    /// Use an already running PySolFC window instead of starting one.
    pub attach: bool,
    /// Drag-n-drop or point-n-click.
    pub mode: MouseMode,
    /// Print a progress line per move on stderr.
    pub progress: bool,
}

struct Guard(Option<u32>);
impl Drop for Guard {
    /// Kill PySolFC if the run ends before it quit cleanly.
    fn drop(&mut self) {
        if let Some(pid) = self.0.take() {
            kill_registered(pid);
        }
    }
}

fn secs(d: Duration) -> f64 {
    (d.as_secs_f64() * 1000.0).round() / 1000.0
}

fn top_token(board: &SeenBoard, loc: Loc, suit: usize) -> String {
    let t = match loc {
        Loc::Cascade(c) => board
            .cascades
            .get(c as usize)
            .and_then(|v| v.last())
            .map(|p| p.0.to_string()),
        Loc::Freecell(i) => board.freecells[i as usize].map(|p| p.0.to_string()),
        Loc::Foundation => {
            super::recognize::card_of(suit, board.foundations[suit]).map(|c| c.to_string())
        }
    };
    t.unwrap_or_else(|| "-".into())
}

fn log(cfg: &PlayConfig, msg: &str) {
    if cfg.progress {
        eprintln!("fcauto play: {msg}");
    }
}

/// Run everything; returns `report.json`'s content. Errors are one-line [`GuiError`]s; the
/// evidence written up to the failure stays in the results directory.
pub fn run(cfg: &PlayConfig) -> Result<serde_json::Value, GuiError> {
    if !cfg.attach && !launch::pysolfc_path().exists() {
        return Err(GuiError::Launch(format!(
            "PySolFC not found at {} (install it with scripts/setup-deps.sh --gui)",
            launch::pysolfc_path().display()
        )));
    }
    let mut ev = Bundle::create(&cfg.results)?;
    let board =
        ms_deal(cfg.deal).map_err(|e| GuiError::Solver(format!("deal {}: {e}", cfg.deal)))?;
    write_deal(&mut ev, cfg, &board)?;

    // Solve: our solver (the plan) and fc-solve (independent second solver, raw log).
    let (plan, plan_tool, native_failure) = fcsolve::plan(&board)?;
    ev.channel(0, "solver", plan_tool);
    if let Some(why) = &native_failure {
        log(
            cfg,
            &format!("warning: {why}; playing fc-solve's solution instead"),
        );
    }
    ev.text(
        "solution.json",
        &plan::solution_json(Some(cfg.deal), &board, &plan)?,
    )?;
    ev.evidence(0, "solver", plan_tool, "solution.json");
    let plan_total = plan.len();
    let (raw, fc_moves) = fcsolve::solve(&board)?;
    ev.text("fcsolve_raw.log", &raw)?;
    ev.evidence(0, "fc-solve", fcsolve::FCSOLVE_TOOL, "fcsolve_raw.log");
    log(
        cfg,
        &format!(
            "deal {}: plan from {plan_tool}: {}; fc-solve: {}",
            cfg.deal,
            crate::plural(plan.len(), "move"),
            crate::plural(fc_moves.len(), "move")
        ),
    );

    install_ctrlc_handler();
    let display = Display::acquire(cfg.display.as_deref())?;
    log(
        cfg,
        &format!(
            "display {} ({})",
            display.name,
            if display.is_own() {
                "Xvfb + openbox started"
            } else {
                "existing"
            }
        ),
    );

    let _tmp;
    let base = match &cfg.profile {
        Some(p) => p.clone(),
        None => {
            let t =
                tempfile::tempdir().map_err(|e| GuiError::Launch(format!("temp profile: {e}")))?;
            let p = t.path().to_path_buf();
            _tmp = t;
            p
        }
    };
    let (pysol, stats_path, options_path) = if cfg.attach {
        let w = launch::wait_window(None, Duration::from_secs(5))?;
        let pid = if w.pid != 0 {
            w.pid
        } else {
            launch::find_pysolfc_on(&display.name).unwrap_or(0)
        };
        let home = launch::proc_env(pid, "HOME")
            .map(PathBuf::from)
            .ok_or_else(|| {
                GuiError::Launch("cannot find the attached PySolFC's process and HOME".into())
            })?;
        let dir = home.join(".pysolfc");
        (
            Pysol { pid, owned: false },
            dir.join("statistics.dat"),
            dir.join("options.cfg"),
        )
    } else {
        let profile = prepare_profile(&base, cfg.mode.option_value())?;
        (
            Pysol {
                pid: 0,
                owned: true,
            },
            profile.statistics_path(),
            profile.options_path(),
        )
    };
    let copies_before = copy_profile(&ev, "pysol_before", &stats_path, &options_path)?;
    let player = if cfg.attach {
        OptionsFile::load(&options_path)
            .ok()
            .and_then(|o| o.get("general", "player"))
            .unwrap_or_else(|| PLAYER.to_string())
    } else {
        PLAYER.to_string()
    };
    let before = read_stats(&stats_path, &player)?;
    ev.channel(0, "statistics", STATS_TOOL);
    if let Some(name) = &copies_before.statistics {
        ev.evidence(0, "statistics", STATS_TOOL, name);
    }

    let t_launch = Instant::now();
    let pysol = if cfg.attach {
        pysol
    } else {
        let shown = std::env::var("FCAUTO_TEST_PYSOL_DEAL")
            .ok()
            .and_then(|d| fcauto_deals::parse_deal_number(&d).ok())
            .unwrap_or(cfg.deal);
        launch::start(&base.join("home"), shown, &ev.path("pysolfc.log"))?
    };
    let mut guard = Guard(pysol.owned.then_some(pysol.pid));
    let win = launch::wait_window(Some(&pysol), Duration::from_secs(120))?;
    let pid = if pysol.pid != 0 { pysol.pid } else { win.pid };

    let cardset = std::path::Path::new(CARDSET_DIR);
    let layout = Layout::from_cardset(cardset).map_err(|e| GuiError::Recognize(e.to_string()))?;
    let images = CardImages::load(cardset)?;
    let mut table = Table {
        client: win.client,
        layout,
        images,
        input: Input::new()?,
        pid,
        mode: cfg.mode,
        move_timeout: Duration::from_secs(60),
    };
    let mut ocr = Ocr::new()?;

    // Wait for the dealt board (52 readable cards), then confirm the deal.
    ev.channel(0, "screenshot", SCREEN_TOOL);
    let t_board_wait = Instant::now();
    let (shot, seen, mut origin) = loop {
        let r = table.read();
        if let Ok((shot, seen, origin)) = &r {
            if seen.card_count() == 52 && seen.unreadable.is_empty() {
                break (shot.clone(), seen.clone(), *origin);
            }
        }
        if t_board_wait.elapsed() > Duration::from_secs(120) {
            return Err(GuiError::Launch(format!(
                "the FreeCell board was not dealt within 120 s ({})",
                match r {
                    Ok((_, s, _)) => format!("{} readable", crate::plural(s.card_count(), "card")),
                    Err(e) => e.to_string(),
                }
            )));
        }
        std::thread::sleep(Duration::from_millis(300));
    };
    let launch_to_board = t_launch.elapsed();
    let frame = frame_of(&win);
    ev.png("view_pysol_initial.png", &crop(&shot, frame))?;
    ev.evidence(0, "screenshot", SCREEN_TOOL, "view_pysol_initial.png");
    ev.channel(0, "ocr", OCR_TOOL);
    let title_ocr = if frame.y < win.client.y {
        ocr.read_title(
            &shot,
            Rect {
                x: frame.x + frame.w / 5,
                y: frame.y,
                w: frame.w * 3 / 5,
                h: win.client.y - frame.y,
            },
        )?
    } else {
        OcrText {
            text: String::new(),
            confidence: 0,
        }
    };
    let status_rect = Rect {
        x: win.client.x,
        y: win.client.y + win.client.h - 26,
        w: win.client.w,
        h: 26,
    };
    let status_ocr = ocr.read(&shot, status_rect)?;
    let confidences: serde_json::Map<String, serde_json::Value> = seen
        .cascades
        .iter()
        .flatten()
        .map(|(c, s)| (c.to_string(), json!((*s as f64 * 1e4).round() / 1e4)))
        .collect();
    ev.json(
        "board_seen.json",
        &json!({
            "cascades": seen.cascades.iter().map(|c| c.iter().map(|p| p.0.to_string()).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "ocr_confidence_per_card": confidences,
            "title_ocr": title_ocr, "status_ocr": status_ocr,
            "title_ocr_has_freecell": title_ocr.text.contains("FreeCell"),
            "status_ocr_has_deal": status_ocr.text.contains(&format!("#{}", launch::game_number(cfg.deal))), "game_origin": origin, "window_client": win.client, "window_frame": frame,
        }),
    )?;
    ev.evidence(0, "ocr", OCR_TOOL, "board_seen.json");
    let bm = board_match(&board, &seen);
    ev.json("board_match.json", &bm)?;
    let want = launch::game_number(cfg.deal);
    let status_number = status_ocr
        .text
        .split_whitespace()
        .find(|w| w.contains("ms"))
        .map(|w| w.trim_start_matches('#').to_string());
    if bm.matched < 52 || bm.total != 52 {
        let list: Vec<String> = bm
            .mismatched
            .iter()
            .take(8)
            .map(|m| {
                format!(
                    "cascade {} card {}: ours {} screen {}",
                    m.row, m.col, m.solver, m.seen
                )
            })
            .collect();
        return Err(GuiError::DealMismatch(format!(
            "only {}/52 cards match deal {} (status bar OCR: {:?}); refusing to play; first differences: {}",
            bm.matched, cfg.deal, status_ocr.text, list.join("; ")
        )));
    }
    // The cards decide; an OCR reading of another number is only reported (OCR can misread).
    if let Some(n) = status_number.as_ref().filter(|n| **n != want) {
        log(
            cfg,
            &format!("warning: status bar OCR reads #{n}, expected #{want} (cards match)"),
        );
    }
    log(
        cfg,
        &format!(
            "board after {:.1} s: 52/52 cards match deal {}; title OCR {:?}, status OCR {:?}",
            launch_to_board.as_secs_f64(),
            cfg.deal,
            title_ocr.text,
            status_ocr.text
        ),
    );

    // Replay.
    let misdrag_step: Option<usize> = std::env::var("FCAUTO_TEST_MISDRAG_STEP")
        .ok()
        .and_then(|s| s.parse().ok());
    let mut misdragged = false;
    let mut plan = plan;
    let mut idx = 0;
    let mut expected = board.clone();
    let mut seen = seen;
    let mut rows: Vec<PlayRow> = Vec::new();
    let mut executed: Vec<PlayedMove> = Vec::new();
    let mut move_secs: Vec<f64> = Vec::new();
    let mut recoveries = Vec::new();
    let mut status_checks = Vec::new();
    let mut max_fc = 0;
    while idx < plan.len() {
        let step = executed.len() + 1;
        let mv = plan[idx];
        let mut after = expected.clone();
        plan::apply(&mut after, step, &mv)?;
        let (from, to) = (mv.mv.from, mv.mv.to);
        let suit = mv.card.suit().index();
        let pre_top = top_token(&seen, from, suit);
        let misdrag = misdrag_step == Some(step) && !misdragged;
        misdragged |= misdrag;
        ev.channel(step, "mouse", MOUSE_TOOL);
        let t = Instant::now();
        table.gesture(origin, &expected, &mv, misdrag)?;
        ev.channel(step, "screenshot", SCREEN_TOOL);
        match table.wait_for(&expected, &after)? {
            Outcome::Taken(shot, now) => {
                let dt = t.elapsed().as_secs_f64();
                move_secs.push(dt);
                max_fc = max_fc.max(now.freecells.iter().flatten().count());
                let mut shot_name = String::new();
                if SCREENSHOT_STEPS.contains(&step) {
                    shot_name = format!("view_play_{step}.png");
                    ev.png(&shot_name, &crop(&shot, frame))?;
                    ev.evidence(step, "screenshot", SCREEN_TOOL, &shot_name);
                    ev.channel(step, "ocr", OCR_TOOL);
                    let st = ocr.read(&shot, status_rect)?;
                    status_checks.push(json!({"step": step, "status_text": st.text, "moves_counter": moves_counter(&st.text)}));
                }
                rows.push(PlayRow {
                    step,
                    from: from.notation(),
                    to: to.notation(),
                    card: mv.card.to_string(),
                    pre_top,
                    post_top: top_token(&now, to, suit),
                    screenshot: shot_name,
                });
                log(
                    cfg,
                    &format!(
                        "step {step}/{} {} {} ({}) ok in {dt:.2} s",
                        plan.len() - idx + executed.len(),
                        mv.mv.notation(),
                        mv.card,
                        kind_name(&mv)
                    ),
                );
                executed.push(mv);
                expected = after;
                seen = now;
                idx += 1;
            }
            Outcome::NotTaken(bad, now) | Outcome::Unexpected(bad, now) => {
                let shot_name = format!("view_recovery_{step}.png");
                ev.png(&shot_name, &crop(&bad, frame))?;
                ev.evidence(step, "screenshot", SCREEN_TOOL, &shot_name);
                let what = if now.to_board() == expected {
                    "did not take"
                } else {
                    "left an unexpected board"
                };
                log(
                    cfg,
                    &format!(
                        "step {step} {} {} {what}: re-reading the board and re-planning",
                        mv.mv.notation(),
                        mv.card
                    ),
                );
                if recoveries.len() >= MAX_RECOVERIES {
                    return Err(GuiError::Replay(format!(
                        "step {step} {} {} {what}, after {MAX_RECOVERIES} recoveries; giving up",
                        mv.mv.notation(),
                        mv.card
                    )));
                }
                let (_, now2, o2) = reread(&table)?;
                origin = o2;
                expected = now2.to_board();
                plan = if expected.is_won() {
                    Vec::new()
                } else {
                    let (p, tool, failure) = fcsolve::plan(&expected)?;
                    ev.channel(step, "solver", tool);
                    if let Some(why) = failure {
                        log(cfg, &format!("warning: {why}; re-planned with fc-solve"));
                    }
                    p
                };
                idx = 0;
                recoveries.push(json!({"step": step, "move": mv.mv.notation(), "card": mv.card.to_string(), "observed": what, "misdrag_hook": misdrag, "new_plan_moves": plan.len()}));
                seen = now2;
            }
        }
    }
    if !expected.is_won() {
        return Err(GuiError::Replay(
            "the plan ended without a won board".into(),
        ));
    }

    // Win: dialog, board, clean quit, statistics.
    let dialog = wait_dialog(Duration::from_secs(30))?;
    let launch_to_win = t_launch.elapsed();
    ev.channel(executed.len(), "screenshot", SCREEN_TOOL);
    let (shot, final_seen, _) = table.read()?;
    let won_rect = union(frame, dialog.as_ref().map(frame_of).unwrap_or(frame));
    ev.png("view_pysol_won.png", &crop(&shot, won_rect))?;
    ev.evidence(
        executed.len(),
        "screenshot",
        SCREEN_TOOL,
        "view_pysol_won.png",
    );
    ev.channel(executed.len(), "ocr", OCR_TOOL);
    let dialog_text = match &dialog {
        Some(d) => ocr.read_block(&shot, d.client)?,
        None => OcrText {
            text: String::new(),
            confidence: 0,
        },
    };
    let final_status = ocr.read(&shot, status_rect)?;
    log(
        cfg,
        &format!(
            "won after {:.1} s; dialog {:?}: {:?}",
            launch_to_win.as_secs_f64(),
            dialog.as_ref().map(|d| d.title.clone()),
            dialog_text.text
        ),
    );

    let mut quit_clean = false;
    if !cfg.keep_open {
        ev.channel(executed.len(), "mouse", MOUSE_TOOL);
        if let Some(d) = &dialog {
            table.input.click((d.client.x + 20, d.client.y + 15))?;
            table.input.escape()?;
            super::display::wait_until(Duration::from_secs(10), || {
                find_windows(&d.title)
                    .map(|w| w.is_empty())
                    .unwrap_or(false)
            });
        }
        table
            .input
            .click((status_rect.x + status_rect.w - 60, status_rect.y + 13))?;
        table.input.ctrl_q()?;
        if pysol.owned {
            quit_clean =
                super::display::wait_until(Duration::from_secs(60), || exited(pysol.pid).is_some());
        } else {
            quit_clean = super::display::wait_until(Duration::from_secs(60), || {
                launch::cpu_ticks(pid).is_none()
            });
        }
        if quit_clean {
            guard.0 = None;
        }
    } else {
        guard.0 = None;
    }
    ev.channel(executed.len(), "statistics", STATS_TOOL);
    let (after, copies_after) = if quit_clean {
        let copies = copy_profile(&ev, "pysol_after", &stats_path, &options_path)?;
        if let Some(name) = &copies.statistics {
            ev.evidence(executed.len(), "statistics", STATS_TOOL, name);
        }
        (read_stats(&stats_path, &player)?, Some(copies))
    } else {
        (before.clone(), None)
    };
    let delta = after.won - before.won;
    write_final(
        &mut ev,
        cfg,
        &FinalFacts {
            plan_total,
            plan_tool,
            native_failure: native_failure.clone(),
            executed: &executed,
            rows: &rows,
            final_seen: &final_seen,
            max_fc,
            player: &player,
            before: &before,
            after: &after,
            delta,
            profile_stats_path: &stats_path,
            copies_before: &copies_before,
            copies_after: copies_after.as_ref(),
            recoveries: &recoveries,
            status_checks: &status_checks,
            match_ratio: bm.matched as f64 / bm.total.max(1) as f64,
            move_secs: &move_secs,
            launch_to_board,
            launch_to_win,
            dialog_title: dialog.as_ref().map(|d| d.title.clone()),
            dialog_text: &dialog_text.text,
            final_status: &final_status.text,
            fc_moves: fc_moves.len(),
            title_ocr: &title_ocr.text,
            status_ocr: &status_ocr.text,
        },
    )
    .and_then(|report| {
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
        } else if !quit_clean {
            drop(display);
            Err(GuiError::Replay(
                "PySolFC did not quit within 60 s after Ctrl+Q; statistics.dat not written".into(),
            ))
        } else if delta != 1 {
            Err(GuiError::Replay(format!(
                "FreeCell wins went {} -> {} (expected +1)",
                before.won, after.won
            )))
        } else {
            Ok(report)
        }
    })
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

fn frame_of(w: &WinInfo) -> Rect {
    w.frame
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

/// `channels.json` tool of the `screenshot` channel: the screen-capture library.
pub const SCREEN_TOOL: &str = "xcap";
/// `channels.json` tool of the `ocr` channel: the OCR engine (through leptess).
pub const OCR_TOOL: &str = "tesseract";
/// `channels.json` tool of the `mouse` channel: the input library.
pub const MOUSE_TOOL: &str = "enigo";
/// `channels.json` tool of the `statistics` channel: the format of PySolFC's statistics.dat
/// (a Python pickle, read by fcauto's guarded decoder).
pub const STATS_TOOL: &str = "pickle";

/// PySolFC's profile files as copied into the bundle (names relative to it; `None`: the
/// file did not exist).
#[derive(Clone, Debug, Default)]
struct ProfileCopies {
    statistics: Option<String>,
    options: Option<String>,
}

/// Copy statistics.dat and options.cfg into `<results>/<sub>/` (they live in a profile that
/// may be deleted when the run ends), so `fcauto stats --diff pysol_before pysol_after`
/// re-checks the proof later.
fn copy_profile(
    ev: &Bundle,
    sub: &str,
    stats: &std::path::Path,
    options: &std::path::Path,
) -> Result<ProfileCopies, GuiError> {
    Ok(ProfileCopies {
        statistics: ev.copy_in(sub, stats)?,
        options: ev.copy_in(sub, options)?,
    })
}

fn write_deal(ev: &mut Bundle, cfg: &PlayConfig, board: &Board) -> Result<(), GuiError> {
    let deal = cfg.deal;
    let text = board.cascades_text();
    let cross = std::process::Command::new("make-microsoft-freecell-board")
        .args(["-t", &deal.to_string()])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim_end() == text.trim_end());
    let (source, source_line) = match &cfg.deal_source {
        DealSource::CommandLine => (format!("command line: --deal {deal}"), None),
        DealSource::File { path, line } => (path.display().to_string(), Some(line.clone())),
    };
    ev.json(
        "deal_seed.json",
        &json!({
            "ms_deal_number": deal,
            "source": source,
            "source_line": source_line,
            "pysolfc_game_number": launch::game_number(deal),
            "generator": "fcauto_deals::ms_deal (Microsoft FreeCell LCG)",
            "cross_check_make_microsoft_freecell_board": cross,
        }),
    )?;
    ev.text("board.txt", &text)?;
    let row_tokens: Vec<usize> = board.cascades.iter().map(Vec::len).collect();
    let mut all: Vec<String> = board
        .cascades
        .iter()
        .flatten()
        .map(ToString::to_string)
        .collect();
    let total = all.len();
    all.sort();
    all.dedup();
    ev.json(
        "board_verify.json",
        &json!({"rows": board.cascades.len(), "tokens_total": total, "is_full_deck": total == 52 && all.len() == 52, "row_tokens": row_tokens}),
    )
}

struct FinalFacts<'a> {
    plan_total: usize,
    plan_tool: &'a str,
    native_failure: Option<String>,
    executed: &'a [PlayedMove],
    rows: &'a [PlayRow],
    final_seen: &'a SeenBoard,
    max_fc: usize,
    player: &'a str,
    before: &'a StatsSnapshot,
    after: &'a StatsSnapshot,
    delta: i64,
    profile_stats_path: &'a std::path::Path,
    copies_before: &'a ProfileCopies,
    copies_after: Option<&'a ProfileCopies>,
    recoveries: &'a [serde_json::Value],
    status_checks: &'a [serde_json::Value],
    match_ratio: f64,
    move_secs: &'a [f64],
    launch_to_board: Duration,
    launch_to_win: Duration,
    dialog_title: Option<String>,
    dialog_text: &'a str,
    final_status: &'a str,
    fc_moves: usize,
    title_ocr: &'a str,
    status_ocr: &'a str,
}

fn write_final(
    ev: &mut Bundle,
    cfg: &PlayConfig,
    f: &FinalFacts,
) -> Result<serde_json::Value, GuiError> {
    ev.play_log(f.rows)?;
    write_play_verify(ev, f)?;
    write_pysol_files(ev, f)?;
    ev.json(
        "move_kind_histogram.json",
        &kind_histogram(f.executed.iter().map(kind_name)),
    )?;
    ev.write_channels()?;
    let report = report(ev, cfg, f);
    ev.json("report.json", &report)?;
    ev.text("summary.md", &summary(cfg, f))?;
    Ok(report)
}

fn write_play_verify(ev: &Bundle, f: &FinalFacts) -> Result<(), GuiError> {
    let suits = ["C", "D", "H", "S"];
    let fmap = |r: [u8; 4]| -> serde_json::Value {
        suits
            .iter()
            .zip(r)
            .map(|(s, v)| (s.to_string(), json!(v)))
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    ev.json(
        "play_verify.json",
        &json!({
            "steps_executed": f.executed.len(),
            "expected_foundations": fmap([13; 4]),
            "observed_foundations": fmap(f.final_seen.foundations),
            "foundation_match": f.final_seen.foundations == [13; 4],
            "freecells_used_observed": f.max_fc,
            "recoveries": f.recoveries,
            "status_bar_checks": f.status_checks,
            "final_status_bar_ocr": f.final_status,
        }),
    )
}

/// pysol_options.json and pysol_stats.json, both about the copies in the bundle.
fn write_pysol_files(ev: &Bundle, f: &FinalFacts) -> Result<(), GuiError> {
    let copies = f.copies_after.unwrap_or(f.copies_before);
    let opts = copies
        .options
        .as_ref()
        .and_then(|name| OptionsFile::load(&ev.path(name)).ok());
    let last_gameid = opts
        .as_ref()
        .and_then(|o| o.get_i64("general", "last_gameid"));
    let number_text = f.after.last_game_number.as_deref();
    ev.json(
        "pysol_options.json",
        &json!({
            "options_path": copies.options,
            "last_gameid": last_gameid,
            "fc_game_id_known": last_gameid == Some(FREECELL_GAME_ID),
            "last_game_number": number_text.and_then(launch::ms_deal_of_game_number),
            "last_game_number_text": number_text,
            "mouse_type": opts.as_ref().and_then(|o| o.get("general", "mouse_type")),
        }),
    )?;
    let after_copy = f.copies_after.and_then(|c| c.statistics.as_deref());
    ev.json(
        "pysol_stats.json",
        &json!({
            "stats_path": after_copy,
            "stats_before_path": f.copies_before.statistics,
            "profile_stats_path": f.profile_stats_path.display().to_string(),
            "player": f.player,
            "recheck": after_copy.map(|_| format!(
                "fcauto stats --diff pysol_before pysol_after --player {} --game-id {FREECELL_GAME_ID}",
                f.player
            )),
            "freecell_played": f.after.played,
            "freecell_won": f.after.won,
            "delta_won_after_run": f.delta,
            "last_won_ts_iso": f.after.last_won_ts_iso,
            "freecell_played_before": f.before.played,
            "freecell_won_before": f.before.won,
            "file_existed_before": f.before.exists,
        }),
    )
}

fn report(ev: &Bundle, cfg: &PlayConfig, f: &FinalFacts) -> serde_json::Value {
    let mean = mean_of(f.move_secs);
    let max = f.move_secs.iter().cloned().fold(0.0, f64::max);
    json!({
        "ms_deal_number": cfg.deal,
        "moves_total": f.plan_total,
        "moves_executed": f.executed.len(),
        "ocr_match_ratio": f.match_ratio,
        "screenshots": ev.screenshots,
        "channels_used": ev.channels_used(),
        "mouse_mode": cfg.mode.option_value(),
        "plan_solver": f.plan_tool,
        "native_solver_failure": f.native_failure,
        "recoveries": f.recoveries.len(),
        "won_dialog": f.dialog_title,
        "delta_won_after_run": f.delta,
        "launch_to_board_s": secs(f.launch_to_board),
        "launch_to_win_s": secs(f.launch_to_win),
        "per_move_mean_s": (mean * 1000.0).round() / 1000.0,
        "per_move_max_s": (max * 1000.0).round() / 1000.0,
    })
}

/// The headings of summary.md: the evidence contract's keywords verbatim, English beside.
pub const SUMMARY_HEADINGS: [&str; 4] = [
    "deal 一致性校验 (deal consistency check)",
    "求解器输出 (solver output)",
    "拖拽执行 (drag execution)",
    "统计取证 (statistics forensics)",
];

fn summary(cfg: &PlayConfig, f: &FinalFacts) -> String {
    let [h_deal, h_solver, h_drag, h_stats] = SUMMARY_HEADINGS;
    format!(
        "# fcauto play --gui: deal {deal}\n\n\
         ## {h_deal}\n\
         - Deal {deal} generated by fcauto_deals::ms_deal; board.txt has 8 rows, 52 distinct cards; PySolFC started with --deal {number}.\n\
         - Screen: {matched:.0}% of the 52 cards recognised against the cardset images match position by position (board_match.json).\n\
         - Title bar OCR: {title:?}; status bar OCR: {status:?}.\n\n\
         ## {h_solver}\n\
         - Plan from {tool}: {plan} (solution.json){nf}; fc-solve, as an independent check: {fc} (fcsolve_raw.log).\n\n\
         ## {h_drag}\n\
         - Mouse mode {mode} via enigo; {exec} executed (play_log.csv), {rec} (re-read + re-plan).\n\
         - Each move waited for the screen to show the expected board and PySolFC to be idle: mean {mean:.2} s, max {max:.2} s per move.\n\
         - Launch to dealt board {lb:.1} s; launch to win {lw:.1} s.\n\
         - Final foundations seen: {found:?} (C, D, H, S); most freecells in use at once: {fc_used}.\n\
         - End dialog \"{dialog}\" (OCR): {dtext:?}.\n\
         - pre_top = top card of the source before the move, post_top = top card of the destination after it, both read from the screen.\n\n\
         ## {h_stats}\n\
         - statistics.dat of player {player}: FreeCell won {b} -> {a} (delta {delta}), played {pb} -> {pa}; last win at {ts}.\n\
         - statistics.dat before the run: {before_copy}; after it: {after_copy}. Re-check in this folder with `fcauto stats --diff pysol_before pysol_after`.\n",
        deal = cfg.deal,
        number = launch::game_number(cfg.deal),
        matched = f.match_ratio * 100.0,
        title = f.title_ocr,
        status = f.status_ocr,
        plan = crate::plural(f.plan_total, "move"),
        tool = f.plan_tool,
        nf = f.native_failure.as_ref().map(|w| format!(" (fcauto solver failed: {w})")).unwrap_or_default(),
        fc = crate::plural(f.fc_moves, "move"),
        mode = cfg.mode.option_value(),
        exec = crate::plural(f.executed.len(), "move"),
        rec = match f.recoveries.len() {
            1 => "1 recovery".to_string(),
            n => format!("{n} recoveries"),
        },
        mean = mean_of(f.move_secs),
        max = f.move_secs.iter().cloned().fold(0.0, f64::max),
        lb = f.launch_to_board.as_secs_f64(),
        lw = f.launch_to_win.as_secs_f64(),
        found = f.final_seen.foundations,
        fc_used = f.max_fc,
        dialog = f.dialog_title.as_deref().unwrap_or("none seen"),
        dtext = f.dialog_text,
        player = f.player,
        b = f.before.won,
        a = f.after.won,
        delta = f.delta,
        pb = f.before.played,
        pa = f.after.played,
        ts = f.after.last_won_ts_iso.as_deref().unwrap_or("-"),
        before_copy = f.copies_before.statistics.as_deref().unwrap_or("none yet (a fresh profile: no games recorded)"),
        after_copy = f.copies_after.and_then(|c| c.statistics.as_deref()).unwrap_or("not written (PySolFC did not quit)"),
    )
}

fn mean_of(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}
