//! The last evidence files of a `fcauto play --gui` run (play_log.csv, play_verify.json,
//! pysol_options.json, pysol_stats.json, move_kind_histogram.json, channels.json,
//! report.json, summary.md), written from the facts the session's stages gathered.

use std::time::Duration;

use fcauto_solver::PlayedMove;
use serde_json::json;

use super::config::PlayConfig;
use super::evidence::{kind_histogram, Bundle, PlayRow, ProfileCopies};
use super::launch;
use super::plan::kind_name;
use super::recognize::SeenBoard;
use super::verify::StatsSnapshot;
use super::GuiError;
use crate::pysol::options::OptionsFile;

/// What the run established, for the final files.
pub(super) struct FinalFacts<'a> {
    pub(super) plan_total: usize,
    pub(super) plan_tool: &'a str,
    pub(super) native_failure: Option<String>,
    pub(super) executed: &'a [PlayedMove],
    pub(super) rows: &'a [PlayRow],
    pub(super) final_seen: &'a SeenBoard,
    pub(super) max_fc: usize,
    pub(super) player: &'a str,
    pub(super) before: &'a StatsSnapshot,
    pub(super) after: &'a StatsSnapshot,
    pub(super) delta: i64,
    pub(super) profile_stats_path: &'a std::path::Path,
    pub(super) copies_before: &'a ProfileCopies,
    pub(super) copies_after: Option<&'a ProfileCopies>,
    pub(super) recoveries: &'a [serde_json::Value],
    pub(super) status_checks: &'a [serde_json::Value],
    pub(super) match_ratio: f64,
    pub(super) move_secs: &'a [f64],
    pub(super) launch_to_board: Duration,
    pub(super) launch_to_win: Duration,
    pub(super) dialog_title: Option<String>,
    pub(super) dialog_text: &'a str,
    pub(super) final_status: &'a str,
    pub(super) fc_moves: Option<usize>,
    pub(super) title_ocr: &'a str,
    pub(super) status_ocr: &'a str,
    /// `play --resume`: the held game resumed (`None` for a new deal).
    pub(super) resumed: Option<&'a serde_json::Value>,
}

/// Write the final files; returns report.json's content.
pub(super) fn write_final(
    ev: &mut Bundle,
    cfg: &PlayConfig,
    f: &FinalFacts,
) -> Result<serde_json::Value, GuiError> {
    ev.play_log(f.rows)?;
    write_play_verify(ev, f)?;
    write_pysol_files(ev, cfg, f)?;
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
fn write_pysol_files(ev: &Bundle, cfg: &PlayConfig, f: &FinalFacts) -> Result<(), GuiError> {
    let id = i64::from(cfg.game.pysol_id);
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
            "fc_game_id_known": last_gameid == Some(id),
            "game_id": id,
            "last_game_number": number_text.and_then(launch::ms_deal_of_game_number).filter(|_| !cfg.is_family()),
            "last_game_number_text": number_text,
            "mouse_type": opts.as_ref().and_then(|o| o.get("general", "mouse_type")),
        }),
    )?;
    let after_copy = f.copies_after.and_then(|c| c.statistics.as_deref());
    let mut stats = json!({
            "stats_path": after_copy,
            "stats_before_path": f.copies_before.statistics,
            "profile_stats_path": f.profile_stats_path.display().to_string(),
            "player": f.player,
            "recheck": after_copy.map(|_| format!(
                "fcauto stats --diff pysol_before pysol_after --player {} --game-id {id}",
                f.player
            )),
            "game_id": id,
            "game": cfg.game.pysol_name,
            "game_played": f.after.played,
            "game_won": f.after.won,
            "game_played_before": f.before.played,
            "game_won_before": f.before.won,
            "freecell_played": f.after.played,
            "freecell_won": f.after.won,
            "delta_won_after_run": f.delta,
            "last_won_ts_iso": f.after.last_won_ts_iso,
            "freecell_played_before": f.before.played,
            "freecell_won_before": f.before.won,
            "file_existed_before": f.before.exists,
    });
    // FreeCell's own keys (as before the family) only for FreeCell's id
    if id != 8 {
        if let Some(o) = stats.as_object_mut() {
            o.retain(|k, _| !k.starts_with("freecell_"));
        }
    }
    ev.json("pysol_stats.json", &stats)
}

fn report(ev: &Bundle, cfg: &PlayConfig, f: &FinalFacts) -> serde_json::Value {
    let mean = mean_of(f.move_secs);
    let max = f.move_secs.iter().cloned().fold(0.0, f64::max);
    json!({
        // 0: a resumed game whose deal number could not be read
        "ms_deal_number": (cfg.deal > 0 && !cfg.is_family()).then_some(cfg.deal),
        "game": {"name": cfg.game.name, "pysol_name": cfg.game.pysol_name, "pysol_id": cfg.game.pysol_id},
        "pysolfc_game_number": (cfg.deal > 0 || cfg.is_family()).then(|| cfg.game_number()),
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
        "resumed": f.resumed,
    })
}

/// The headings of summary.md: the evidence contract's keywords verbatim, English beside.
pub const SUMMARY_HEADINGS: [&str; 4] = [
    "deal 一致性校验 (deal consistency check)",
    "求解器输出 (solver output)",
    "拖拽执行 (drag execution)",
    "统计取证 (statistics forensics)",
];

/// summary.md's first line: where the deal (or the held game) came from.
fn deal_line(cfg: &PlayConfig, f: &FinalFacts) -> String {
    match f.resumed {
        Some(r) => format!(
            "- Resumed the held game ({}) in the run's PySolFC profile (profile_stats_path in pysol_stats.json): deal {} (from {}); the screen showed the held position card for card (board_match.json; {} home: board.txt), which was solved and played.",
            r["held_game"].as_str().unwrap_or("?"),
            cfg.deal,
            r["deal_from"].as_str().unwrap_or("?"),
            crate::plural(r["cards_home_at_start"].as_u64().unwrap_or(0), "card")
        ),
        None if cfg.is_family() => format!(
            "- {} (PySolFC game id {}) number {} dealt by fcauto_deals::deal_game; board.txt has {} rows, 52 distinct cards; PySolFC started with --game \"{}\" --deal {}.",
            cfg.game.pysol_name,
            cfg.game.pysol_id,
            cfg.game_number(),
            cfg.game.rules.cascades,
            cfg.game.pysol_name,
            cfg.game_number()
        ),
        None => format!(
            "- Deal {} generated by fcauto_deals::ms_deal; board.txt has 8 rows, 52 distinct cards; PySolFC started with --deal {}.",
            cfg.deal,
            launch::game_number(cfg.deal)
        ),
    }
}

fn summary(cfg: &PlayConfig, f: &FinalFacts) -> String {
    let [h_deal, h_solver, h_drag, h_stats] = SUMMARY_HEADINGS;
    let deal_line = deal_line(cfg, f);
    let deal = if cfg.is_family() {
        cfg.title()
    } else {
        format!("deal {}", cfg.deal)
    };
    format!(
        "# fcauto play --gui: {deal}\n\n\
         ## {h_deal}\n\
         {deal_line}\n\
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
         - statistics.dat of player {player}: {game} (id {id}) won {b} -> {a} (delta {delta}), played {pb} -> {pa}; the last won game began at {ts} (PySolFC records a game's start).\n\
         - statistics.dat before the run: {before_copy}; after it: {after_copy}. {recheck}\n",
        matched = f.match_ratio * 100.0,
        title = f.title_ocr,
        status = f.status_ocr,
        plan = crate::plural(f.plan_total, "move"),
        tool = f.plan_tool,
        nf = f.native_failure.as_ref().map(|w| format!(" (fcauto solver failed: {w})")).unwrap_or_default(),
        fc = f.fc_moves.map_or("no solution found within its limit".into(), |n| crate::plural(n, "move")),
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
        game = cfg.game.pysol_name,
        id = cfg.game.pysol_id,
        b = f.before.won,
        a = f.after.won,
        delta = f.delta,
        pb = f.before.played,
        pa = f.after.played,
        ts = f.after.last_won_ts_iso.as_deref().unwrap_or("-"),
        before_copy = f.copies_before.statistics.as_deref().unwrap_or("none yet (a fresh profile: no games recorded)"),
        after_copy = f.copies_after.and_then(|c| c.statistics.as_deref()).unwrap_or("not written (PySolFC did not quit)"),
        recheck = match f.copies_after.and_then(|c| c.statistics.as_deref()) {
            Some(_) => "Re-check in this folder with `fcauto stats --diff pysol_before pysol_after`.",
            None => "Nothing to re-check: without statistics.dat after the run the win is not proved.",
        },
    )
}

/// Mean of `xs` (0 when empty).
fn mean_of(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// Seconds rounded to milliseconds.
fn secs(d: Duration) -> f64 {
    (d.as_secs_f64() * 1000.0).round() / 1000.0
}
