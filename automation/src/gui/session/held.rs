//! The held game of `play --resume`: stage 1, the held game read and copied into the bundle;
//! stage 4, confirm: the screen must show its position card for card.

use fcauto_deals::{Board, Layout};
use serde_json::json;

use super::confirm::{board_seen_json, capture, Shown};
use super::game::Game;
use super::{log, PlayConfig, OCR_TOOL};
use crate::gui::evidence::Bundle;
use crate::gui::launch;
use crate::gui::resume::{self, Held, HeldRead, PositionMatch};
use crate::gui::screen::WinInfo;
use crate::gui::GuiError;

/// Stage 1 of `play --resume`, the held game `read` ([`resume::read_held`]: its deal, moves
/// and position; read before the results folder is touched, so that a file that is no held
/// game of the family is refused before anything starts): copied into the bundle (held_game/holdgame.dat, held_game/held.json); the file itself is
/// only read.
pub(super) fn held_game(
    ev: &mut Bundle,
    held: &Held,
    read: HeldRead,
) -> Result<HeldRead, GuiError> {
    ev.copy_in_as("held_game", &held.file, resume::HOLDGAME)?
        .ok_or_else(|| GuiError::Launch(format!("held game {}: not found", held.file.display())))?;
    ev.json(
        "held_game/held.json",
        &json!({
            "file": held.file.display().to_string(),
            "origin": held.origin,
            "reader": "fcauto_automation::pysol::savedgame",
            "game": {"name": read.game.name, "pysol_name": read.game.pysol_name, "pysol_id": read.game.pysol_id},
            "ms_deal_number": read.deal,
            "pysolfc_game_number": read.number.map(|n| n.to_string()),
            "moves": read.moves,
            "position": match read.board() {
                Some(b) => b.fcs_input_text(),
                None => read.position.board_text(),
            },
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
pub(super) fn confirm_held(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    game: &mut Game,
    held: &Held,
    read: &HeldRead,
) -> Result<(Shown, Board, Option<u64>), GuiError> {
    let title = match read.deal {
        Some(d) => format!("FreeCell game {} (held game)", launch::game_number(d)),
        None => "FreeCell held game".to_string(),
    };
    let shown = capture(ev, game, &title)?;
    let seen = &shown.seen;
    let ocr_deal = resume::deal_in_status(&shown.status_ocr.text);
    let deal = read.deal.or(ocr_deal);
    let position = seen.to_board();
    let held_board = read
        .board()
        .ok_or_else(|| GuiError::Launch("the held game is not standard FreeCell".into()))?;
    let bm = resume::position_match(&held_board, seen);
    write_held_seen(
        ev,
        &shown,
        &game.win,
        (&position.fcs_input_text(), ocr_deal),
        &bm,
    )?;
    let layout = Layout::from_board(&position, 4);
    refuse_unless_held(&layout, &fcauto_deals::Rules::FREECELL, &bm)?;
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

/// board_seen.json (the resumed board as read: cascades, free cells, foundations, the
/// position in fc-solve's board text, the deal number the status bar shows) and
/// board_match.json (the screen against the held game's position).
fn write_held_seen(
    ev: &mut Bundle,
    shown: &Shown,
    win: &WinInfo,
    (position, ocr_deal): (&str, Option<u64>),
    bm: &PositionMatch,
) -> Result<(), GuiError> {
    let seen = &shown.seen;
    let card = |p: &(fcauto_deals::Card, f32)| p.0.to_string();
    let seen_json = board_seen_json(
        shown,
        win,
        json!({
            "freecells": seen.freecells.iter().map(|f| f.as_ref().map(card)).collect::<Vec<_>>(),
            "foundations": {"C": seen.foundations[0], "D": seen.foundations[1], "H": seen.foundations[2], "S": seen.foundations[3]},
            "position": position,
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
    Ok(())
}

/// The refusal to play a resumed position: one that is not a whole deck, one already won,
/// or one not on screen card for card as in the held game (the count and the first
/// differences).
fn refuse_unless_held(
    position: &Layout,
    rules: &fcauto_deals::Rules,
    bm: &PositionMatch,
) -> Result<(), GuiError> {
    position.check(rules).map_err(|e| {
        GuiError::Recognize(format!(
            "the resumed position read from the screen is not a whole deck: {e}"
        ))
    })?;
    if position.is_won() {
        return Err(GuiError::Replay("the held game is already won".into()));
    }
    if bm.matched < bm.total {
        let first: Vec<String> = bm
            .mismatched
            .iter()
            .take(8)
            .map(|x| format!("{}: held {} screen {}", x.place, x.held, x.seen))
            .collect();
        return Err(GuiError::DealMismatch(format!(
            "only {}/52 cards of the held game are where the screen shows them; refusing to play; first differences: {}",
            bm.matched,
            first.join("; ")
        )));
    }
    Ok(())
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

/// Stage 4 of `play --resume` for a game of the family: as [`confirm_held`], the screen
/// compared with the held position's cascades (up to 10), freecells (up to 8) and
/// foundations; the evidence names the game and its number. Returns what was shown and the
/// position read.
pub(super) fn confirm_held_layout(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    game: &mut Game,
    held: &Held,
    read: &HeldRead,
) -> Result<(Shown, Layout), GuiError> {
    let title = format!("{} (held game)", cfg.title());
    let shown = capture(ev, game, &title)?;
    let seen = &shown.seen;
    let position = seen.to_layout();
    let bm = resume::layout_position_match(&read.position, seen);
    let status = shown.status_ocr.text.clone();
    write_held_seen(ev, &shown, &game.win, (&position.board_text(), None), &bm)?;
    refuse_unless_held(&position, &cfg.game.rules, &bm)?;
    ev.json(
        "deal_seed.json",
        &json!({
            "game": cfg.game.name,
            "pysol_name": cfg.game.pysol_name,
            "pysol_id": cfg.game.pysol_id,
            "pysolfc_game_number": cfg.game_number(),
            "source": held.origin,
            "resumed": true,
            "deal_read_from": "holdgame.dat",
            "status_ocr_has_number": status.contains(&cfg.game_number()),
        }),
    )?;
    ev.text("board.txt", &position.board_text())?;
    ev.json(
        "board_verify.json",
        &json!({
            "rows": position.cascades.len(),
            "freecells": position.freecells.len(),
            "cards_in_freecells": position.freecells.iter().flatten().count(),
            "cards_home": position.foundations.iter().map(|&r| r as usize).sum::<usize>(),
            "is_full_deck": position.check(&cfg.game.rules).is_ok(),
            "row_tokens": position.cascades.iter().map(Vec::len).collect::<Vec<_>>(),
        }),
    )?;
    log(
        cfg,
        &format!(
            "resumed board after {:.1} s: {} home, {} in free cells; {} (status bar OCR {:?}); 52/52 cards as in the held game",
            shown.launch_to_board.as_secs_f64(),
            crate::plural(position.foundations.iter().map(|&r| r as usize).sum::<usize>(), "card"),
            position.freecells.iter().flatten().count(),
            cfg.title(),
            status
        ),
    );
    let shown = Shown {
        match_ratio: bm.matched as f64 / bm.total as f64,
        ..shown
    };
    Ok((shown, position))
}
