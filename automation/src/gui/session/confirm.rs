//! Stage 4 of a new deal, confirm: the dealt board read from the screen (what a resumed
//! game's confirm shares: [`capture`], [`board_seen_json`]) and the refusal to play unless
//! all 52 cards match our deal.

use std::time::{Duration, Instant};

use fcauto_deals::Board;
use serde_json::json;

use super::game::Game;
use super::{log, PlayConfig, OCR_TOOL, SCREEN_TOOL};
use crate::gui::caption;
use crate::gui::evidence::Bundle;
use crate::gui::ocr::{Ocr, OcrText};
use crate::gui::recognize::SeenBoard;
use crate::gui::replay::Table;
use crate::gui::screen::{crop, Rect, WinInfo};
use crate::gui::verify::{board_match, layout_match};
use crate::gui::GuiError;

/// [`confirm`]'s output: the deal as PySolFC shows it, and where on screen.
pub(super) struct Shown {
    /// The board read from the screen.
    pub(super) seen: SeenBoard,
    /// The table's origin on screen.
    pub(super) origin: (i32, i32),
    /// The main window's frame.
    pub(super) frame: Rect,
    /// The status bar.
    pub(super) status_rect: Rect,
    /// Title bar OCR.
    pub(super) title_ocr: OcrText,
    /// Status bar OCR.
    pub(super) status_ocr: OcrText,
    /// Share of the 52 positions that match our deal.
    pub(super) match_ratio: f64,
    /// From launch to the dealt board.
    pub(super) launch_to_board: Duration,
    /// The game and its number as the evidence pictures' captions name them.
    pub(super) title: String,
}

/// The first half of stage 4 (confirm), for a new deal and a resumed game alike: wait for
/// a board of 52 readable cards, keep its screenshot (view_pysol_initial.png) and read the
/// title and status bars by OCR. The screenshot carries a caption strip with what
/// recognition read from it, headed `title` (the game and its number). `match_ratio` is left
/// at 0 for the caller to set.
pub(super) fn capture(ev: &mut Bundle, game: &mut Game, title: &str) -> Result<Shown, GuiError> {
    ev.channel(0, "screenshot", SCREEN_TOOL);
    let (shot, seen, origin) = wait_dealt(&game.table)?;
    let launch_to_board = game.t_launch.elapsed();
    let frame = frame_of(&game.win);
    let lines = caption::board_lines(title, &seen);
    let picture = caption::with_caption(&crop(&shot, frame), &lines, &caption::caption_font()?);
    ev.png("view_pysol_initial.png", &picture)?;
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
        title: title.to_string(),
    })
}

/// Stage 4, confirm: wait for the dealt board (52 readable cards), screenshot and OCR it
/// (view_pysol_initial.png, board_seen.json), and refuse to play unless all 52 cards match
/// our deal position by position (board_match.json).
pub(super) fn confirm(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    game: &mut Game,
    board: &Board,
) -> Result<Shown, GuiError> {
    confirm_with(cfg, ev, game, |seen| board_match(board, seen))
}

/// Stage 4 for a game of the family: as [`confirm`], the screen compared with the dealt
/// position's cascades and freecells (Seahaven Towers' two and Eight Off's four cards in
/// freecells at the deal).
pub(super) fn confirm_layout(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    game: &mut Game,
    position: &fcauto_deals::Layout,
) -> Result<Shown, GuiError> {
    confirm_with(cfg, ev, game, |seen| layout_match(position, seen))
}

fn confirm_with(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    game: &mut Game,
    matcher: impl Fn(&SeenBoard) -> crate::gui::verify::BoardMatch,
) -> Result<Shown, GuiError> {
    let want = cfg.game_number();
    let shown = capture(ev, game, &cfg.title())?;
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
    let bm = matcher(&shown.seen);
    ev.json("board_match.json", &bm)?;
    if bm.matched < 52 || bm.total != 52 {
        let what = if cfg.is_family() {
            cfg.title()
        } else {
            format!("deal {}", cfg.deal)
        };
        return Err(mismatch(&what, &bm, &shown.status_ocr.text));
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
            "board after {:.1} s: 52/52 cards match {}; title OCR {:?}, status OCR {:?}",
            shown.launch_to_board.as_secs_f64(),
            if cfg.is_family() {
                cfg.title()
            } else {
                format!("deal {}", cfg.deal)
            },
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
pub(super) fn board_seen_json(
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
fn mismatch(deal: &str, bm: &crate::gui::verify::BoardMatch, status: &str) -> GuiError {
    let list: Vec<String> = bm
        .mismatched
        .iter()
        .take(8)
        .map(|m| match m.row {
            0 => format!("freecell {}: ours {} screen {}", m.col, m.solver, m.seen),
            r => format!(
                "cascade {r} card {}: ours {} screen {}",
                m.col, m.solver, m.seen
            ),
        })
        .collect();
    GuiError::DealMismatch(format!(
        "only {}/52 cards match {deal} (status bar OCR: {status:?}); refusing to play; first differences: {}",
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

pub(super) fn frame_of(w: &WinInfo) -> Rect {
    w.frame
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::launch;
    use crate::gui::resume;
    use fcauto_deals::ms_deal;

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
                freecells: vec![None, Some(fc), None, None],
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
            title: "FreeCell game ms617".into(),
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
