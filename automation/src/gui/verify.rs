//! Checks: the deal on screen against our generated deal, and statistics.dat before/after
//! (decoded with `crate::pysol::stats`).

use std::path::Path;

use fcauto_deals::{Board, Layout as Position};
use serde::Serialize;

use super::recognize::SeenBoard;
use super::GuiError;
use crate::pysol::stats;

/// One position where screen and solver disagree.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Mismatch {
    /// Cascade, 1..=10 (line of board.txt); 0 for the freecells.
    pub row: usize,
    /// Position in the cascade, 1 = deepest (token of that line), or the freecell, 1 = `a`.
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
    board_match_cascades(&expected.cascades, seen)
}

/// Compare a position of any game with the screen: its cascades position by position as
/// [`board_match`] does, then each freecell slot (row 0; a card seen in a slot the position
/// has empty, or none where it has one, is a mismatch). `total` counts the position's cards
/// (52 at a deal, whether in cascades or freecells).
pub fn layout_match(expected: &Position, seen: &SeenBoard) -> BoardMatch {
    let mut m = board_match_cascades(&expected.cascades, seen);
    let slots = expected.freecells.len().max(seen.freecells.len());
    for j in 0..slots {
        let want = expected.freecells.get(j).copied().flatten();
        let have = seen.freecells.get(j).copied().flatten().map(|p| p.0);
        if want.is_some() {
            m.total += 1;
        }
        if want == have {
            m.matched += usize::from(want.is_some());
        } else {
            let text = |c: Option<fcauto_deals::Card>| c.map_or("-".into(), |c| c.to_string());
            m.mismatched.push(Mismatch {
                row: 0,
                col: j + 1,
                solver: text(want),
                seen: text(have),
            });
        }
    }
    m
}

fn board_match_cascades(cascades: &[Vec<fcauto_deals::Card>], seen: &SeenBoard) -> BoardMatch {
    let expected = cascades;
    let mut matched = 0;
    let mut mismatched = Vec::new();
    for (r, col) in expected.iter().enumerate() {
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
    let total = expected.iter().map(Vec::len).sum();
    BoardMatch {
        total,
        matched,
        mismatched,
    }
}

/// One game's figures of one statistics.dat read (FreeCell's, id 8, unless told).
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

/// Read the figures of PySolFC game id `game_id` (FreeCell: 8) for `player` from `path`
/// (absent file = all zero).
pub fn read_stats(path: &Path, player: &str, game_id: u32) -> Result<StatsSnapshot, GuiError> {
    let file =
        stats::load_optional(path).map_err(|e| GuiError::Replay(format!("statistics.dat: {e}")))?;
    let Some(file) = file else {
        return Ok(StatsSnapshot::default());
    };
    let game_id = i64::from(game_id);
    let game = file.game(Some(player), game_id);
    let past = file
        .player(Some(player))
        .map(|p| p.past_games.as_slice())
        .unwrap_or(&[]);
    let mut fc = past.iter().filter(|g| g.game_id == Some(game_id));
    let last_won = fc.clone().rfind(|g| g.result.is_win());
    Ok(StatsSnapshot {
        exists: true,
        played: game.map_or(0, |g| g.played),
        won: file.won(Some(player), game_id),
        last_won_ts_iso: last_won.and_then(|g| g.start_time).and_then(|t| {
            chrono::DateTime::from_timestamp(t.floor() as i64, 0)
                .map(|d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        }),
        last_game_number: fc.next_back().and_then(|g| g.game_number.clone()),
    })
}
