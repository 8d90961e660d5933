//! What changed between two decoded statistics files (before/after a replay).

use serde::Serialize;

use super::stats::{GameStats, PastGame, StatsFile};

/// A counter before and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Delta {
    /// Value in the first file (0 if absent there).
    pub before: i64,
    /// Value in the second file (0 if absent there).
    pub after: i64,
    /// `after - before`.
    pub delta: i64,
}

impl Delta {
    fn new(before: i64, after: i64) -> Delta {
        Delta {
            before,
            after,
            delta: after.saturating_sub(before),
        }
    }
}

/// Changed counters of one player at one game id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameChange {
    /// Player name; `None` for demo games.
    pub player: Option<String>,
    /// PySolFC game id (8 = FreeCell).
    pub game_id: i64,
    /// `num_total`.
    pub played: Delta,
    /// `num_won + num_perfect`.
    pub won: Delta,
    /// `num_perfect`.
    pub won_perfect: Delta,
    /// `num_won`.
    pub won_not_perfect: Delta,
    /// `num_lost`.
    pub lost: Delta,
}

/// A `prev_games` entry present only in the second file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NewPastGame {
    /// Player name; `None` for demo games.
    pub player: Option<String>,
    /// The log entry.
    #[serde(flatten)]
    pub game: PastGame,
}

/// Differences between two files: only game ids whose counters changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatsDiff {
    /// Per (player, game id) with any changed counter, sorted by player then game id.
    pub changes: Vec<GameChange>,
    /// Log entries in `after` and not in `before`, in `after`'s order.
    pub new_past_games: Vec<NewPastGame>,
}

impl StatsDiff {
    /// Change in wins (perfect + other) of `player` at `game_id`; 0 if unchanged.
    pub fn won_delta(&self, player: Option<&str>, game_id: i64) -> i64 {
        self.changes
            .iter()
            .find(|c| c.player.as_deref() == player && c.game_id == game_id)
            .map_or(0, |c| c.won.delta)
    }

    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty() && self.new_past_games.is_empty()
    }
}

fn counters(g: Option<&GameStats>) -> [i64; 5] {
    g.map_or([0; 5], |g| {
        [g.played, g.won, g.won_perfect, g.won_not_perfect, g.lost]
    })
}

/// Compare `before` with `after`.
pub fn diff(before: &StatsFile, after: &StatsFile) -> StatsDiff {
    let mut keys: Vec<(Option<String>, i64)> = Vec::new();
    for f in [before, after] {
        for p in &f.players {
            for g in &p.games {
                let k = (p.player.clone(), g.game_id);
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
    }
    keys.sort();
    let mut changes = Vec::new();
    for (player, game_id) in keys {
        let b = counters(before.game(player.as_deref(), game_id));
        let a = counters(after.game(player.as_deref(), game_id));
        if a != b {
            changes.push(GameChange {
                player,
                game_id,
                played: Delta::new(b[0], a[0]),
                won: Delta::new(b[1], a[1]),
                won_perfect: Delta::new(b[2], a[2]),
                won_not_perfect: Delta::new(b[3], a[3]),
                lost: Delta::new(b[4], a[4]),
            });
        }
    }
    let mut new_past_games = Vec::new();
    for p in &after.players {
        let old: &[PastGame] = before
            .player(p.player.as_deref())
            .map_or(&[], |b| &b.past_games);
        let fresh: Vec<&PastGame> = if p.past_games.starts_with(old) {
            p.past_games[old.len()..].iter().collect()
        } else {
            p.past_games.iter().filter(|g| !old.contains(g)).collect()
        };
        new_past_games.extend(fresh.into_iter().map(|g| NewPastGame {
            player: p.player.clone(),
            game: g.clone(),
        }));
    }
    StatsDiff {
        changes,
        new_past_games,
    }
}
