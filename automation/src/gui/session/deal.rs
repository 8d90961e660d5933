//! Stage 1 of a new deal, deal: the Microsoft deal's board and its evidence files
//! (deal_seed.json, board.txt, board_verify.json).

use fcauto_deals::{ms_deal, Board};
use serde_json::json;

use super::{DealSource, PlayConfig};
use crate::gui::evidence::Bundle;
use crate::gui::launch;
use crate::gui::GuiError;

/// Stage 1, deal: the MS deal's board, written as board.txt, board_verify.json and
/// deal_seed.json.
pub(super) fn deal(cfg: &PlayConfig, ev: &mut Bundle) -> Result<Board, GuiError> {
    let board =
        ms_deal(cfg.deal).map_err(|e| GuiError::Solver(format!("deal {}: {e}", cfg.deal)))?;
    write_deal(ev, cfg, &board)?;
    Ok(board)
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

/// Stage 1 for a game of the family: PySolFC's layout of game `cfg.game`, number
/// `cfg.number` ([`fcauto_deals::deal_game`]: the Microsoft shuffle below 32000 and for
/// `msN`, the Mersenne Twister from 32000 on), written as board.txt (cascades and the
/// freecells the deal fills), board_verify.json and deal_seed.json (the game's name and id).
pub(super) fn deal_family(
    cfg: &PlayConfig,
    ev: &mut Bundle,
) -> Result<fcauto_deals::Layout, GuiError> {
    let number = cfg
        .number
        .ok_or_else(|| GuiError::Solver("a game of the family needs its number".into()))?;
    let pos = fcauto_deals::deal_game(cfg.game, number);
    let (shuffle, ms) = match number.shuffle() {
        fcauto_deals::Shuffle::Microsoft(n) => ("Microsoft (LCRandom31)", Some(n)),
        fcauto_deals::Shuffle::MersenneTwister(_) => ("Mersenne Twister (MTRandom)", None),
    };
    let (source, source_line) = match &cfg.deal_source {
        DealSource::CommandLine => (
            format!("command line: --game {} --deal {number}", cfg.game.name),
            None,
        ),
        DealSource::File { path, line } => (path.display().to_string(), Some(line.clone())),
    };
    ev.json(
        "deal_seed.json",
        &json!({
            "game": cfg.game.name,
            "pysol_name": cfg.game.pysol_name,
            "pysol_id": cfg.game.pysol_id,
            "pysolfc_game_number": cfg.game_number(),
            "shuffle": shuffle,
            "ms_deal_number": ms,
            "source": source,
            "source_line": source_line,
            "generator": "fcauto_deals::deal_game (PySolFC's deal of the game and number)",
        }),
    )?;
    ev.text("board.txt", &pos.board_text())?;
    let mut all: Vec<String> = pos
        .cascades
        .iter()
        .flatten()
        .chain(pos.freecells.iter().flatten())
        .map(ToString::to_string)
        .collect();
    let total = all.len();
    all.sort();
    all.dedup();
    ev.json(
        "board_verify.json",
        &json!({
            "rows": pos.cascades.len(),
            "freecells": pos.freecells.len(),
            "cards_in_freecells": pos.freecells.iter().flatten().count(),
            "tokens_total": total,
            "is_full_deck": total == 52 && all.len() == 52,
            "row_tokens": pos.cascades.iter().map(Vec::len).collect::<Vec<_>>(),
        }),
    )?;
    Ok(pos)
}
