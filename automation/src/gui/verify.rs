//! Checks: the deal on screen against our generated deal, and statistics.dat before/after
//! (decoded with `crate::pysol::stats`).

use std::path::Path;

use fcauto_deals::Board;
use serde::Serialize;

use super::recognize::SeenBoard;
use super::GuiError;
use crate::pysol::stats;
use crate::pysol::FREECELL_GAME_ID;

/// One position where screen and solver disagree.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Mismatch {
    /// Cascade, 1..=8 (line of board.txt).
    pub row: usize,
    /// Position in the cascade, 1 = deepest (token of that line).
    pub col: usize,
    /// Our card there.
    pub solver: String,
    /// The card read from the screen (`-` = none).
    pub seen: String,
}

/// `board_match.json`.
#[derive(Clone, Debug, Serialize)]
pub struct BoardMatch {
    /// Cards compared (52 for a deal).
    pub total: usize,
    /// Positions that agree.
    pub matched: usize,
    /// Positions that differ.
    pub mismatched: Vec<Mismatch>,
}

/// Compare cascades position by position (extra seen cards count as mismatches too).
pub fn board_match(expected: &Board, seen: &SeenBoard) -> BoardMatch {
    let mut matched = 0;
    let mut mismatched = Vec::new();
    for (r, col) in expected.cascades.iter().enumerate() {
        let got = seen.cascades.get(r).map(Vec::as_slice).unwrap_or(&[]);
        for k in 0..col.len().max(got.len()) {
            let want = col
                .get(k)
                .map(ToString::to_string)
                .unwrap_or_else(|| "-".into());
            let have = got
                .get(k)
                .map(|p| p.0.to_string())
                .unwrap_or_else(|| "-".into());
            if want == have {
                matched += 1;
            } else {
                mismatched.push(Mismatch {
                    row: r + 1,
                    col: k + 1,
                    solver: want,
                    seen: have,
                });
            }
        }
    }
    let total = expected.cascades.iter().map(Vec::len).sum();
    BoardMatch {
        total,
        matched,
        mismatched,
    }
}

/// FreeCell figures of one statistics.dat read.
#[derive(Clone, Debug, Serialize, Default)]
pub struct StatsSnapshot {
    /// Whether the file existed (PySolFC writes it only on a clean quit).
    pub exists: bool,
    /// FreeCell (`games_stats[player][8].num_total`) for the player.
    pub played: i64,
    /// FreeCell wins, perfect included (`num_won + num_perfect`).
    pub won: i64,
    /// Start time (ISO 8601, UTC) of the newest won FreeCell game in `prev_games`.
    pub last_won_ts_iso: Option<String>,
    /// Game number of the newest FreeCell game in `prev_games` (e.g. `ms617`).
    pub last_game_number: Option<String>,
}

/// Read FreeCell's figures for `player` from `path` (absent file = all zero).
pub fn read_stats(path: &Path, player: &str) -> Result<StatsSnapshot, GuiError> {
    let file =
        stats::load_optional(path).map_err(|e| GuiError::Replay(format!("statistics.dat: {e}")))?;
    let Some(file) = file else {
        return Ok(StatsSnapshot::default());
    };
    let game = file.game(Some(player), FREECELL_GAME_ID);
    let past = file
        .player(Some(player))
        .map(|p| p.past_games.as_slice())
        .unwrap_or(&[]);
    let mut fc = past.iter().filter(|g| g.game_id == Some(FREECELL_GAME_ID));
    let last_won = fc.clone().rfind(|g| g.result.is_win());
    Ok(StatsSnapshot {
        exists: true,
        played: game.map_or(0, |g| g.played),
        won: file.won(Some(player), FREECELL_GAME_ID),
        last_won_ts_iso: last_won.and_then(|g| g.start_time).and_then(|t| {
            chrono::DateTime::from_timestamp(t.floor() as i64, 0)
                .map(|d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        }),
        last_game_number: fc.next_back().and_then(|g| g.game_number.clone()),
    })
}
