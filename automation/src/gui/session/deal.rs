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
