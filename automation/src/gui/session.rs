//! One `fcauto play --gui` run: deal and solve, start the display and PySolFC, confirm the
//! deal on screen, replay every move with the mouse, prove the win, write the evidence.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fcauto_deals::{ms_deal, Board};
use serde_json::json;

use super::display::{exited, install_signal_handler, kill_registered, Display};
use super::evidence::{Bundle, PlayRow};
use super::launch::{self, prepare_profile, Pysol, CARDSET_DIR, PLAYER};
use super::layout::Layout;
use super::mouse::Input;
use super::ocr::{moves_counter, Ocr, OcrText};
use super::plan::{self, kind_name};
use super::recognize::{CardImages, SeenBoard};
use super::replay::{MouseMode, Outcome, Table};
use super::report::{write_final, FinalFacts};
use super::resume::{self, Held, HeldRead};
use super::screen::{crop, find_windows, Rect, WinInfo};
use super::verify::{board_match, read_stats, StatsSnapshot};
use super::{fcsolve, GuiError};
use crate::pysol::options::OptionsFile;
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
    /// `--resume`: finish this held game instead of dealing `deal` (then 0, replaced by the
    /// deal number the window shows; 0 stays when it cannot be read).
    pub resume: Option<Held>,
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

/// A progress line on stderr (with `progress`).
fn log(cfg: &PlayConfig, msg: &str) {
    if cfg.progress {
        // (Not `eprintln!`: a standard error that cannot be written must not panic.)
        let _ =
            std::io::Write::write_fmt(&mut std::io::stderr(), format_args!("fcauto play: {msg}\n"));
    }
}

/// Run everything, stage by stage (private functions, each with its own inputs and output
/// struct): `deal`, `solve`, `launch`, `confirm`, `replay`, `win`, `quit`, `prove`,
/// `report`; returns `report.json`'s content. Errors are
/// one-line [`GuiError`]s; the evidence written up to the failure stays in the results
/// directory.
pub fn run(cfg: &PlayConfig) -> Result<serde_json::Value, GuiError> {
    if !cfg.attach && !launch::pysolfc_path().exists() {
        return Err(GuiError::Launch(format!(
            "PySolFC not found at {} (install it with scripts/setup-deps.sh --gui)",
            launch::pysolfc_path().display()
        )));
    }
    let mut ev = Bundle::create(&cfg.results)?;
    if let Some(held) = &cfg.resume {
        return run_resume(cfg, ev, held);
    }
    let board = deal(cfg, &mut ev)?;
    let plan = solve(cfg, &mut ev, &board, Some(cfg.deal))?;
    let display = start_display(cfg)?;
    let mut game = launch(cfg, &mut ev, &display.name, None)?;
    let shown = confirm(cfg, &mut ev, &mut game, &board)?;
    let played = replay(cfg, &mut ev, &mut game, &board, plan.moves.clone(), &shown)?;
    finish(cfg, ev, display, game, (&plan, &shown, &played), None)
}

/// `play --resume`: play's stages for a held game: the held game read (instead of the deal),
/// solve from its position, launch (PySolFC resumes it), confirm (the screen shows that
/// position card for card), replay, win, quit, prove, report.
fn run_resume(
    cfg: &PlayConfig,
    mut ev: Bundle,
    held: &Held,
) -> Result<serde_json::Value, GuiError> {
    let read = held_game(&mut ev, held)?;
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
    // from here on the run is about the held game's deal (when it has an MS number)
    let mut cfg = PlayConfig {
        deal: read.deal.unwrap_or(cfg.deal),
        ..cfg.clone()
    };
    // solved before PySolFC starts: a held game that cannot be won is refused at once
    let plan = solve(&cfg, &mut ev, &read.position, None).map_err(|e| {
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
        &position,
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

/// Xvfb + openbox (or the display named), and the Ctrl-C handler that stops them.
fn start_display(cfg: &PlayConfig) -> Result<Display, GuiError> {
    install_signal_handler();
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
    let proof = prove(ev, game, quit_clean, played.executed.len())?;
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

/// Stage 1, deal: the MS deal's board, written as board.txt, board_verify.json and
/// deal_seed.json.
fn deal(cfg: &PlayConfig, ev: &mut Bundle) -> Result<Board, GuiError> {
    let board =
        ms_deal(cfg.deal).map_err(|e| GuiError::Solver(format!("deal {}: {e}", cfg.deal)))?;
    write_deal(ev, cfg, &board)?;
    Ok(board)
}

/// [`solve`]'s output: the plan to play and what produced it.
struct Plan {
    /// The moves, from fcauto's solver (or fc-solve's when it failed).
    moves: Vec<PlayedMove>,
    /// `channels.json`'s tool for the plan.
    tool: &'static str,
    /// Why fcauto's solver failed, when fc-solve's plan is played.
    native_failure: Option<String>,
    /// Length of fc-solve's own solution (the independent check); `None` when its `lg` scan
    /// (not complete, and stopped at [`fcsolve::FCSOLVE_MAX_ITERS`]) found none while
    /// fcauto's validated plan is played.
    fc_moves: Option<usize>,
}

/// Stage 2, solve: our solver's plan (solution.json) and fc-solve's solution as an
/// independent check (fcsolve_raw.log). `deal` is named in solution.json when `board` is
/// that deal's start (not for a resumed game's position).
fn solve(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    board: &Board,
    deal: Option<u64>,
) -> Result<Plan, GuiError> {
    let (moves, tool, native_failure) = fcsolve::plan(board)?;
    ev.channel(0, "solver", tool);
    if let Some(why) = &native_failure {
        log(
            cfg,
            &format!("warning: {why}; playing fc-solve's solution instead"),
        );
    }
    ev.text("solution.json", &plan::solution_json(deal, board, &moves)?)?;
    ev.evidence(0, "solver", tool, "solution.json");
    // fc-solve's solution is a second opinion: its finding none stops nothing when fcauto's
    // plan is its own, validated (a deal fcauto solves and fc-solve does not, 94717719, is played).
    let (raw, fc_moves) = match fcsolve::solve_or_output(board) {
        Ok((raw, m)) => (raw, Some(m.len())),
        Err(fcsolve::Unsolved::NoSolution { verdict, output }) if native_failure.is_none() => {
            log(
                cfg,
                &format!("fc-solve found no solution ({verdict}); its lg scan is not complete"),
            );
            (output, None)
        }
        Err(fcsolve::Unsolved::NoSolution { verdict, .. }) => {
            return Err(GuiError::Solver(format!(
                "fc-solve found no solution for this board ({verdict})"
            )))
        }
        Err(fcsolve::Unsolved::Error(e)) => return Err(e),
    };
    ev.text("fcsolve_raw.log", &raw)?;
    ev.evidence(0, "fc-solve", fcsolve::FCSOLVE_TOOL, "fcsolve_raw.log");
    log(
        cfg,
        &format!(
            "deal {}: plan from {tool}: {}; fc-solve: {}",
            cfg.deal,
            crate::plural(moves.len(), "move"),
            fc_moves.map_or("none found".into(), |n| crate::plural(n, "move"))
        ),
    );
    Ok(Plan {
        moves,
        tool,
        native_failure,
        fc_moves,
    })
}

/// The PySolFC profile a run reads and proves with.
struct Profile {
    /// Its statistics.dat (may not exist yet).
    stats: PathBuf,
    /// Its options.cfg.
    options: PathBuf,
    /// The player whose statistics count.
    player: String,
    /// The temporary profile folder, deleted when the run ends (`None` with `--profile`).
    _tmp: Option<tempfile::TempDir>,
}

/// [`launch`]'s output: PySolFC running (or attached), its profile, and the table to act on.
struct Game {
    /// The process.
    pysol: Pysol,
    /// Kills PySolFC if the run ends before it quit cleanly.
    guard: Guard,
    /// The profile.
    profile: Profile,
    /// FreeCell's statistics before the run.
    before: StatsSnapshot,
    /// The profile files copied to pysol_before/.
    copies_before: ProfileCopies,
    /// The main window.
    win: WinInfo,
    /// Screen and mouse on the main window.
    table: Table,
    /// The OCR engine.
    ocr: Ocr,
    /// When PySolFC was started.
    t_launch: Instant,
}

/// Stage 3, launch: the profile (a dedicated one, or the attached PySolFC's), its files
/// copied to pysol_before/, the statistics before, then PySolFC started with `msN` (or, with
/// `held`, on that held game, installed in the profile first) and its window found.
fn launch(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    display: &str,
    held: Option<&Held>,
) -> Result<Game, GuiError> {
    let (pysol, profile, home) = open_profile(cfg, display)?;
    if let Some(held) = held {
        let dir = profile
            .options
            .parent()
            .unwrap_or(std::path::Path::new("."));
        resume::install(dir, held)?;
    }
    let copies_before = copy_profile(ev, "pysol_before", &profile.stats, &profile.options)?;
    let before = read_stats(&profile.stats, &profile.player)?;
    ev.channel(0, "statistics", STATS_TOOL);
    if let Some(name) = &copies_before.statistics {
        ev.evidence(0, "statistics", STATS_TOOL, name);
    }
    let t_launch = Instant::now();
    let pysol = match home {
        Some(home) => {
            let shown = std::env::var("FCAUTO_TEST_PYSOL_DEAL")
                .ok()
                .and_then(|d| fcauto_deals::parse_deal_number(&d).ok())
                .unwrap_or(cfg.deal);
            let deal = held.is_none().then_some(shown);
            launch::start(&home, deal, &ev.path("pysolfc.log"))?
        }
        None => pysol,
    };
    let guard = Guard(pysol.owned.then_some(pysol.pid));
    let win = launch::wait_window(Some(&pysol), Duration::from_secs(120)).map_err(|e| {
        match held {
            // PySolFC opens whatever game is held: another game has another window title
            Some(h) => GuiError::Launch(format!(
                "{e}; is the held game ({}) a FreeCell game?",
                h.origin
            )),
            None => e,
        }
    })?;
    let cardset = std::path::Path::new(CARDSET_DIR);
    let table = Table {
        client: win.client,
        layout: Layout::from_cardset(cardset).map_err(|e| GuiError::Recognize(e.to_string()))?,
        images: CardImages::load(cardset)?,
        input: Input::new()?,
        pid: if pysol.pid != 0 { pysol.pid } else { win.pid },
        mode: cfg.mode,
        move_timeout: Duration::from_secs(60),
    };
    Ok(Game {
        pysol,
        guard,
        profile,
        before,
        copies_before,
        win,
        table,
        ocr: Ocr::new()?,
        t_launch,
    })
}

/// The profile to play in: with `--attach` the running PySolFC's own (found by its HOME),
/// else a dedicated one (`--profile DIR` or a temporary folder) whose HOME is returned for
/// starting PySolFC.
fn open_profile(
    cfg: &PlayConfig,
    display: &str,
) -> Result<(Pysol, Profile, Option<PathBuf>), GuiError> {
    if cfg.attach {
        let w = launch::wait_window(None, Duration::from_secs(5))?;
        let pid = if w.pid != 0 {
            w.pid
        } else {
            launch::find_pysolfc_on(display).unwrap_or(0)
        };
        let home = launch::proc_env(pid, "HOME")
            .map(PathBuf::from)
            .ok_or_else(|| {
                GuiError::Launch("cannot find the attached PySolFC's process and HOME".into())
            })?;
        let dir = home.join(".pysolfc");
        let options = dir.join("options.cfg");
        let player = OptionsFile::load(&options)
            .ok()
            .and_then(|o| o.get("general", "player"))
            .unwrap_or_else(|| PLAYER.to_string());
        let profile = Profile {
            stats: dir.join("statistics.dat"),
            options,
            player,
            _tmp: None,
        };
        return Ok((Pysol { pid, owned: false }, profile, None));
    }
    let (base, tmp) = match &cfg.profile {
        Some(p) => (p.clone(), None),
        None => {
            let t =
                tempfile::tempdir().map_err(|e| GuiError::Launch(format!("temp profile: {e}")))?;
            super::display::remove_on_interrupt(t.path());
            (t.path().to_path_buf(), Some(t))
        }
    };
    let p = prepare_profile(&base, cfg.mode.option_value())?;
    let profile = Profile {
        stats: p.statistics_path(),
        options: p.options_path(),
        player: PLAYER.to_string(),
        _tmp: tmp,
    };
    let pysol = Pysol {
        pid: 0,
        owned: true,
    };
    Ok((pysol, profile, Some(base.join("home"))))
}

/// [`confirm`]'s output: the deal as PySolFC shows it, and where on screen.
struct Shown {
    /// The board read from the screen.
    seen: SeenBoard,
    /// The table's origin on screen.
    origin: (i32, i32),
    /// The main window's frame.
    frame: Rect,
    /// The status bar.
    status_rect: Rect,
    /// Title bar OCR.
    title_ocr: OcrText,
    /// Status bar OCR.
    status_ocr: OcrText,
    /// Share of the 52 positions that match our deal.
    match_ratio: f64,
    /// From launch to the dealt board.
    launch_to_board: Duration,
}

/// The first half of stage 4 (confirm), for a new deal and a resumed game alike: wait for
/// a board of 52 readable cards, keep its screenshot (view_pysol_initial.png) and read the
/// title and status bars by OCR. `match_ratio` is left at 0 for the caller to set.
fn capture(ev: &mut Bundle, game: &mut Game) -> Result<Shown, GuiError> {
    ev.channel(0, "screenshot", SCREEN_TOOL);
    let (shot, seen, origin) = wait_dealt(&game.table)?;
    let launch_to_board = game.t_launch.elapsed();
    let frame = frame_of(&game.win);
    ev.png("view_pysol_initial.png", &crop(&shot, frame))?;
    ev.evidence(0, "screenshot", SCREEN_TOOL, "view_pysol_initial.png");
    ev.channel(0, "ocr", OCR_TOOL);
    let (title_ocr, status_rect, status_ocr) = read_bars(&mut game.ocr, &shot, &game.win, frame)?;
    Ok(Shown {
        seen,
        origin,
        frame,
        status_rect,
        title_ocr,
        status_ocr,
        match_ratio: 0.0,
        launch_to_board,
    })
}

/// Stage 4, confirm: wait for the dealt board (52 readable cards), screenshot and OCR it
/// (view_pysol_initial.png, board_seen.json), and refuse to play unless all 52 cards match
/// our deal position by position (board_match.json).
fn confirm(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    game: &mut Game,
    board: &Board,
) -> Result<Shown, GuiError> {
    let shown = capture(ev, game)?;
    let want = launch::game_number(cfg.deal);
    let confidences: serde_json::Map<String, serde_json::Value> = shown
        .seen
        .cascades
        .iter()
        .flatten()
        .map(|(c, s)| (c.to_string(), json!((*s as f64 * 1e4).round() / 1e4)))
        .collect();
    let seen_json = board_seen_json(
        &shown,
        &game.win,
        json!({
            "ocr_confidence_per_card": confidences,
            "status_ocr_has_deal": shown.status_ocr.text.contains(&format!("#{want}")),
        }),
    );
    ev.json("board_seen.json", &seen_json)?;
    ev.evidence(0, "ocr", OCR_TOOL, "board_seen.json");
    let bm = board_match(board, &shown.seen);
    ev.json("board_match.json", &bm)?;
    if bm.matched < 52 || bm.total != 52 {
        return Err(mismatch(cfg.deal, &bm, &shown.status_ocr.text));
    }
    // The cards decide; an OCR reading of another number is only reported (OCR can misread).
    let status_number = shown
        .status_ocr
        .text
        .split_whitespace()
        .find(|w| w.contains("ms"))
        .map(|w| w.trim_start_matches('#').to_string());
    if let Some(n) = status_number.filter(|n| *n != want) {
        log(
            cfg,
            &format!("warning: status bar OCR reads #{n}, expected #{want} (cards match)"),
        );
    }
    log(
        cfg,
        &format!(
            "board after {:.1} s: 52/52 cards match deal {}; title OCR {:?}, status OCR {:?}",
            shown.launch_to_board.as_secs_f64(),
            cfg.deal,
            shown.title_ocr.text,
            shown.status_ocr.text
        ),
    );
    Ok(Shown {
        match_ratio: bm.matched as f64 / bm.total.max(1) as f64,
        ..shown
    })
}

/// board_seen.json: what a new deal's and a resumed game's confirm share (the cascades read
/// from the screen, the title and status bar OCR, where the table and the window are) and
/// the caller's own keys, `extra` (a JSON object).
fn board_seen_json(
    shown: &Shown,
    win: &WinInfo,
    extra: serde_json::Value,
) -> serde_json::Map<String, serde_json::Value> {
    let card = |p: &(fcauto_deals::Card, f32)| p.0.to_string();
    let shared = json!({
        "cascades": shown.seen.cascades.iter().map(|c| c.iter().map(card).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "title_ocr": shown.title_ocr, "status_ocr": shown.status_ocr,
        "title_ocr_has_freecell": shown.title_ocr.text.contains("FreeCell"),
        "game_origin": shown.origin, "window_client": win.client, "window_frame": shown.frame,
    });
    let (serde_json::Value::Object(mut out), serde_json::Value::Object(extra)) = (shared, extra)
    else {
        unreachable!("the shared keys are a JSON object, and so is every caller's `extra`")
    };
    out.extend(extra);
    out
}

/// Stage 1 of `play --resume`, the held game: read it ([`resume::read_held`]: its deal,
/// moves and position; refused before anything starts if it is not a held FreeCell game) and
/// copy it into the bundle (held_game/holdgame.dat, held_game/held.json); the file itself is
/// only read.
fn held_game(ev: &mut Bundle, held: &Held) -> Result<HeldRead, GuiError> {
    let read = resume::read_held(&held.file)?;
    ev.copy_in_as("held_game", &held.file, resume::HOLDGAME)?
        .ok_or_else(|| GuiError::Launch(format!("held game {}: not found", held.file.display())))?;
    ev.json(
        "held_game/held.json",
        &json!({
            "file": held.file.display().to_string(),
            "origin": held.origin,
            "reader": "fcauto_automation::pysol::savedgame",
            "ms_deal_number": read.deal,
            "moves": read.moves,
            "position": read.position.fcs_input_text(),
            "trailing_bytes": read.trailing_bytes,
        }),
    )?;
    Ok(read)
}

/// Stage 4 of `play --resume`, confirm: wait for the resumed board (52 readable cards in
/// cascades, free cells and foundations), screenshot and OCR it (view_pysol_initial.png,
/// board_seen.json), and refuse to play unless the screen shows the held game's position
/// card for card (cascades, free cells, foundations: board_match.json). The deal number is
/// the held game's (the status bar's for a deal without an MS number). Writes the deal files
/// for the position (deal_seed.json, board.txt, board_verify.json). Returns what was shown,
/// the position and the deal number.
fn confirm_held(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    game: &mut Game,
    held: &Held,
    read: &HeldRead,
) -> Result<(Shown, Board, Option<u64>), GuiError> {
    let shown = capture(ev, game)?;
    let seen = &shown.seen;
    let ocr_deal = resume::deal_in_status(&shown.status_ocr.text);
    let deal = read.deal.or(ocr_deal);
    let position = seen.to_board();
    let bm = resume::position_match(&read.position, seen);
    let card = |p: &(fcauto_deals::Card, f32)| p.0.to_string();
    let seen_json = board_seen_json(
        &shown,
        &game.win,
        json!({
            "freecells": seen.freecells.iter().map(|f| f.as_ref().map(card)).collect::<Vec<_>>(),
            "foundations": {"C": seen.foundations[0], "D": seen.foundations[1], "H": seen.foundations[2], "S": seen.foundations[3]},
            "position": position.fcs_input_text(),
            "deal_from_status_ocr": ocr_deal,
        }),
    );
    ev.json("board_seen.json", &seen_json)?;
    ev.evidence(0, "ocr", OCR_TOOL, "board_seen.json");
    ev.json(
        "board_match.json",
        &json!({
            "compared_with": "the held game's position (holdgame.dat, read by fcauto_automation::pysol::savedgame)",
            "total": bm.total,
            "matched": bm.matched,
            "mismatched": bm.mismatched,
        }),
    )?;
    position.check().map_err(|e| {
        GuiError::Recognize(format!(
            "the resumed position read from the screen is not a whole deck: {e}"
        ))
    })?;
    if position.is_won() {
        return Err(GuiError::Replay("the held game is already won".into()));
    }
    if bm.matched < bm.total {
        let m = &bm;
        let first: Vec<String> = m
            .mismatched
            .iter()
            .take(8)
            .map(|x| format!("{}: held {} screen {}", x.place, x.held, x.seen))
            .collect();
        return Err(GuiError::DealMismatch(format!(
            "only {}/52 cards of the held game are where the screen shows them; refusing to play; first differences: {}",
            m.matched,
            first.join("; ")
        )));
    }
    if let (Some(file), Some(screen)) = (read.deal, ocr_deal) {
        if file != screen {
            log(
                cfg,
                &format!("warning: status bar OCR reads #ms{screen}, the held game is ms{file} (cards match)"),
            );
        }
    }
    write_held_position(ev, held, &position, deal, read.deal.is_some())?;
    log(
        cfg,
        &format!(
            "resumed board after {:.1} s: {} home, {} in free cells; deal {} (status bar OCR {:?}){}",
            shown.launch_to_board.as_secs_f64(),
            crate::plural(position.foundations.iter().map(|&r| r as usize).sum::<usize>(), "card"),
            position.freecells.iter().flatten().count(),
            deal.map(|d| d.to_string()).unwrap_or_else(|| "unknown".into()),
            shown.status_ocr.text,
            "; 52/52 cards as in the held game"
        ),
    );
    let shown = Shown {
        match_ratio: bm.matched as f64 / bm.total as f64,
        ..shown
    };
    Ok((shown, position, deal))
}

/// deal_seed.json, board.txt (the position in fc-solve's board text) and board_verify.json
/// of a resumed game.
fn write_held_position(
    ev: &mut Bundle,
    held: &Held,
    position: &Board,
    deal: Option<u64>,
    deal_in_file: bool,
) -> Result<(), GuiError> {
    ev.json(
        "deal_seed.json",
        &json!({
            "ms_deal_number": deal,
            "source": held.origin,
            "pysolfc_game_number": deal.map(launch::game_number),
            "resumed": true,
            "deal_read_from": if deal_in_file { "holdgame.dat" } else { "status bar OCR" },
        }),
    )?;
    ev.text("board.txt", &position.fcs_input_text())?;
    let row_tokens: Vec<usize> = position.cascades.iter().map(Vec::len).collect();
    ev.json(
        "board_verify.json",
        &json!({
            "rows": position.cascades.len(),
            "tokens_total": position.cards_in_play(),
            "cards_home": position.foundations.iter().map(|&r| r as usize).sum::<usize>(),
            "is_full_deck": position.check().is_ok(),
            "row_tokens": row_tokens,
        }),
    )
}

/// OCR of the title bar (empty when the window has no frame above its client area) and of
/// the status bar; returns the title text, the status bar's rectangle and its text.
fn read_bars(
    ocr: &mut Ocr,
    shot: &image::RgbaImage,
    win: &WinInfo,
    frame: Rect,
) -> Result<(OcrText, Rect, OcrText), GuiError> {
    let title_ocr = if frame.y < win.client.y {
        let title_bar = Rect {
            x: frame.x + frame.w / 5,
            y: frame.y,
            w: frame.w * 3 / 5,
            h: win.client.y - frame.y,
        };
        ocr.read_title(shot, title_bar)?
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
    let status_ocr = ocr.read(shot, status_rect)?;
    Ok((title_ocr, status_rect, status_ocr))
}

/// The refusal to play another deal than ours: the count and the first differences.
fn mismatch(deal: u64, bm: &super::verify::BoardMatch, status: &str) -> GuiError {
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
    GuiError::DealMismatch(format!(
        "only {}/52 cards match deal {deal} (status bar OCR: {status:?}); refusing to play; first differences: {}",
        bm.matched,
        list.join("; ")
    ))
}

/// Wait up to 120 s for the dealt board: 52 readable cards.
fn wait_dealt(table: &Table) -> Result<(image::RgbaImage, SeenBoard, (i32, i32)), GuiError> {
    let t0 = Instant::now();
    loop {
        let r = table.read();
        if let Ok((shot, seen, origin)) = &r {
            if seen.card_count() == 52 && seen.unreadable.is_empty() {
                return Ok((shot.clone(), seen.clone(), *origin));
            }
        }
        if t0.elapsed() > Duration::from_secs(120) {
            return Err(GuiError::Launch(format!(
                "the FreeCell board was not dealt within 120 s ({})",
                match r {
                    Ok((_, s, _)) => format!("{} readable", crate::plural(s.card_count(), "card")),
                    Err(e) => e.to_string(),
                }
            )));
        }
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// [`replay`]'s output: what was played and seen.
struct Played {
    /// The moves executed, in order (re-plans included).
    executed: Vec<PlayedMove>,
    /// play_log.csv's rows.
    rows: Vec<PlayRow>,
    /// Seconds per executed move.
    move_secs: Vec<f64>,
    /// One entry per recovery (play_verify.json).
    recoveries: Vec<serde_json::Value>,
    /// Status bar readings at the progress screenshots.
    status_checks: Vec<serde_json::Value>,
    /// Most freecells seen in use at once.
    max_fc: usize,
}

/// The replay's moving parts: the plan being played and what the screen should show.
struct Cursor {
    plan: Vec<PlayedMove>,
    idx: usize,
    expected: Board,
    seen: SeenBoard,
    origin: (i32, i32),
}

/// Stage 5, replay: one mouse gesture per move, each waited for until the screen shows the
/// expected board; a move that did not land is re-read and re-planned (at most
/// [`MAX_RECOVERIES`] times). Progress screenshots at [`SCREENSHOT_STEPS`].
fn replay(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    game: &mut Game,
    board: &Board,
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
        plan::apply(&mut after, step, &mv)?;
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
                        mv.mv.notation(),
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
        from: mv.mv.from.notation(),
        to: mv.mv.to.notation(),
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
    let what = if now.to_board() == cur.expected {
        "did not take"
    } else {
        "left an unexpected board"
    };
    let named = format!("step {step} {} {} {what}", mv.mv.notation(), mv.card);
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
    cur.expected = seen.to_board();
    cur.plan = if cur.expected.is_won() {
        Vec::new()
    } else {
        let (p, tool, failure) = fcsolve::plan(&cur.expected)?;
        ev.channel(step, "solver", tool);
        if let Some(why) = failure {
            log(cfg, &format!("warning: {why}; re-planned with fc-solve"));
        }
        p
    };
    cur.idx = 0;
    cur.seen = seen;
    out.recoveries.push(json!({"step": step, "move": mv.mv.notation(), "card": mv.card.to_string(), "observed": what, "misdrag_hook": misdrag, "new_plan_moves": cur.plan.len()}));
    Ok(())
}

/// [`win`]'s output: the end of the game as PySolFC shows it.
struct Won {
    /// PySolFC's end-of-game dialog, if one appeared.
    dialog: Option<WinInfo>,
    /// The board read at the end.
    final_seen: SeenBoard,
    /// The dialog's text (OCR).
    dialog_text: OcrText,
    /// The status bar at the end (OCR).
    final_status: OcrText,
    /// From launch to the win.
    launch_to_win: Duration,
}

/// Stage 6, win: PySolFC's end dialog, the final screenshot (view_pysol_won.png) and its OCR.
fn win(
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
    ev.png("view_pysol_won.png", &crop(&shot, won_rect))?;
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
fn quit(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    game: &mut Game,
    won: &Won,
    shown: &Shown,
    steps: usize,
) -> Result<bool, GuiError> {
    if cfg.keep_open {
        game.guard.0 = None;
        // PySolFC keeps running on its profile: the folder stays (removed under the running
        // game, quitting it later would record nothing).
        if let Some(t) = game.profile._tmp.take() {
            super::display::forget_temp_dir(t.path());
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
        super::display::wait_until(Duration::from_secs(10), || {
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
        super::display::wait_until(Duration::from_secs(60), || exited(pysol.pid).is_some())
    } else {
        super::display::wait_until(Duration::from_secs(60), || launch::cpu_ticks(pid).is_none())
    };
    if quit_clean {
        game.guard.0 = None;
    }
    Ok(quit_clean)
}

/// [`prove`]'s output: the statistics after the run.
struct Proof {
    /// FreeCell's statistics after (the ones before when PySolFC did not quit).
    after: StatsSnapshot,
    /// The profile files copied to pysol_after/ (`None` when PySolFC did not quit).
    copies_after: Option<ProfileCopies>,
    /// FreeCell wins after minus before.
    delta: i64,
}

/// Stage 8, prove: after a clean quit, copy statistics.dat and options.cfg to pysol_after/
/// and read FreeCell's wins again.
fn prove(ev: &mut Bundle, game: &Game, quit_clean: bool, steps: usize) -> Result<Proof, GuiError> {
    ev.channel(steps, "statistics", STATS_TOOL);
    let p = &game.profile;
    let (after, copies_after) = if quit_clean {
        let copies = copy_profile(ev, "pysol_after", &p.stats, &p.options)?;
        if let Some(name) = &copies.statistics {
            ev.evidence(steps, "statistics", STATS_TOOL, name);
        }
        (read_stats(&p.stats, &p.player)?, Some(copies))
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
struct Stages<'a> {
    plan: &'a Plan,
    game: &'a Game,
    shown: &'a Shown,
    played: &'a Played,
    won: &'a Won,
    proof: &'a Proof,
    quit_clean: bool,
    /// `play --resume`: what was resumed (report.json's `resumed`).
    resumed: Option<serde_json::Value>,
}

/// Stage 9, report: the remaining evidence files and report.json; then the verdict: an
/// error unless PySolFC quit cleanly and FreeCell's wins rose by exactly one (with
/// `--keep-open` the display is left running and nothing is proven).
fn report(
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
            "FreeCell wins went {} -> {} (expected +1)",
            game.before.won, proof.after.won
        )))
    } else {
        Ok(report)
    }
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
pub(super) struct ProfileCopies {
    /// `<sub>/statistics.dat`.
    pub(super) statistics: Option<String>,
    /// `<sub>/options.cfg`.
    pub(super) options: Option<String>,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A board as read from the screen: deal 617 with a card in a freecell and one home.
    fn shown() -> Shown {
        let deal = ms_deal(617).unwrap();
        let mut cascades: Vec<Vec<(fcauto_deals::Card, f32)>> = deal
            .cascades
            .iter()
            .enumerate()
            .map(|(i, c)| {
                c.iter()
                    .enumerate()
                    .map(|(j, &card)| (card, 0.9 + (i * 7 + j) as f32 * 1.234_567e-3))
                    .collect()
            })
            .collect();
        let fc = cascades[0].pop().unwrap();
        let rect = |x, y, w, h| Rect { x, y, w, h };
        Shown {
            seen: SeenBoard {
                cascades,
                freecells: [None, Some(fc), None, None],
                foundations: [0, 1, 0, 0],
                unreadable: vec![],
            },
            origin: (12, 34),
            frame: rect(0, 0, 820, 640),
            status_rect: rect(0, 600, 820, 40),
            title_ocr: OcrText {
                text: "ms617 - FreeCell".into(),
                confidence: 91,
            },
            status_ocr: OcrText {
                text: "Moves: 0 #ms617".into(),
                confidence: 88,
            },
            match_ratio: 0.0,
            launch_to_board: Duration::from_millis(1500),
        }
    }

    fn win() -> WinInfo {
        WinInfo {
            id: 7,
            pid: 99,
            title: "ms617 - FreeCell".into(),
            client: Rect {
                x: 4,
                y: 24,
                w: 812,
                h: 612,
            },
            frame: Rect {
                x: 0,
                y: 0,
                w: 820,
                h: 640,
            },
        }
    }

    /// The text `Bundle::json` writes.
    fn pretty<T: serde::Serialize>(v: &T) -> String {
        serde_json::to_string_pretty(v).unwrap()
    }

    /// `confirm`'s and `confirm_held`'s board_seen.json are byte for byte what each wrote
    /// before they shared [`board_seen_json`] (the literals below are the old code's).
    #[test]
    fn board_seen_json_is_unchanged() {
        let shown = shown();
        let win = &win();
        let Shown {
            seen,
            origin,
            frame,
            title_ocr,
            status_ocr,
            ..
        } = &shown;

        // confirm (a new deal).
        let want = launch::game_number(617);
        let confidences: serde_json::Map<String, serde_json::Value> = seen
            .cascades
            .iter()
            .flatten()
            .map(|(c, s)| (c.to_string(), json!((*s as f64 * 1e4).round() / 1e4)))
            .collect();
        let old = json!({
            "cascades": seen.cascades.iter().map(|c| c.iter().map(|p| p.0.to_string()).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "ocr_confidence_per_card": confidences,
            "title_ocr": title_ocr, "status_ocr": status_ocr,
            "title_ocr_has_freecell": title_ocr.text.contains("FreeCell"),
            "status_ocr_has_deal": status_ocr.text.contains(&format!("#{want}")), "game_origin": origin, "window_client": win.client, "window_frame": frame,
        });
        let new = board_seen_json(
            &shown,
            win,
            json!({
                "ocr_confidence_per_card": confidences,
                "status_ocr_has_deal": shown.status_ocr.text.contains(&format!("#{want}")),
            }),
        );
        assert_eq!(pretty(&new), pretty(&old));

        // confirm_held (a resumed game).
        let position = seen.to_board();
        let ocr_deal = resume::deal_in_status(&status_ocr.text);
        let card = |p: &(fcauto_deals::Card, f32)| p.0.to_string();
        let old = json!({
            "cascades": seen.cascades.iter().map(|c| c.iter().map(card).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "freecells": seen.freecells.iter().map(|f| f.as_ref().map(card)).collect::<Vec<_>>(),
            "foundations": {"C": seen.foundations[0], "D": seen.foundations[1], "H": seen.foundations[2], "S": seen.foundations[3]},
            "position": position.fcs_input_text(),
            "title_ocr": title_ocr, "status_ocr": status_ocr,
            "title_ocr_has_freecell": title_ocr.text.contains("FreeCell"),
            "deal_from_status_ocr": ocr_deal,
            "game_origin": origin, "window_client": win.client, "window_frame": frame,
        });
        let new = board_seen_json(
            &shown,
            win,
            json!({
                "freecells": seen.freecells.iter().map(|f| f.as_ref().map(card)).collect::<Vec<_>>(),
                "foundations": {"C": seen.foundations[0], "D": seen.foundations[1], "H": seen.foundations[2], "S": seen.foundations[3]},
                "position": position.fcs_input_text(),
                "deal_from_status_ocr": ocr_deal,
            }),
        );
        assert_eq!(pretty(&new), pretty(&old));
        assert!(old["deal_from_status_ocr"].is_u64(), "{old}");
    }
}
