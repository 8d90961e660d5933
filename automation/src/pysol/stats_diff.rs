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
    /// PySolFC game id (8 = FreeCell); 0 for the all-games totals
    /// ([`diff_with_totals`]), written `null` in JSON.
    #[serde(serialize_with = "super::stats::serialize_game_id")]
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

/// A counter that is lower in the second file than in the first. PySolFC's counters only
/// grow while it plays, so this means *Reset statistics*, an older copy given as AFTER, or
/// two different profiles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decrease {
    /// Player name; `None` for demo games.
    pub player: Option<String>,
    /// PySolFC game id; 0 for the all-games aggregate, written `null` in JSON.
    #[serde(serialize_with = "super::stats::serialize_game_id")]
    pub game_id: i64,
    /// Which counter: `played`, `won`, `won_perfect`, `won_not_perfect` or `lost`.
    pub counter: &'static str,
    /// Value in the first file.
    pub before: i64,
    /// Value in the second file.
    pub after: i64,
}

/// Differences between two files: only game ids whose counters changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatsDiff {
    /// Per (player, game id) with any changed counter, sorted by player then game id.
    pub changes: Vec<GameChange>,
    /// Log entries in `after` and not in `before`, in `after`'s order.
    pub new_past_games: Vec<NewPastGame>,
    /// Counters that went down, in `changes` order (empty for a before/after pair of one
    /// profile).
    pub decreases: Vec<Decrease>,
    /// Players whose past-games log in `after` drops games `before` has (PySolFC only
    /// appends to it, except on *Reset statistics*), sorted.
    pub lost_past_games: Vec<Option<String>>,
    /// One sentence when `decreases` or `lost_past_games` is not empty: the files look like
    /// a statistics reset or two different profiles, so the deltas are not games played.
    pub warning: Option<String>,
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

const COUNTERS: [&str; 5] = ["played", "won", "won_perfect", "won_not_perfect", "lost"];

fn counters(g: Option<&GameStats>) -> [i64; 5] {
    g.map_or([0; 5], |g| {
        [g.played, g.won, g.won_perfect, g.won_not_perfect, g.lost]
    })
}

/// The warning sentence for [`StatsDiff::warning`].
fn warning(decreases: &[Decrease], lost_past: &[Option<String>]) -> Option<String> {
    if decreases.is_empty() && lost_past.is_empty() {
        return None;
    }
    let mut what = Vec::new();
    if let Some(d) = decreases.first() {
        let more = match decreases.len() {
            1 => String::new(),
            n => format!(" and {} more", crate::plural(n - 1, "counter")),
        };
        what.push(format!(
            "counts went down ({} of player {} at {}: {} -> {}{more})",
            d.counter,
            d.player.as_deref().unwrap_or("(demo)"),
            if d.game_id == 0 {
                "all games".to_string()
            } else {
                format!("game {}", d.game_id)
            },
            d.before,
            d.after
        ));
    }
    if !lost_past.is_empty() {
        what.push(format!(
            "the past-games log of {} lost entries",
            crate::plural(lost_past.len(), "player")
        ));
    }
    Some(format!(
        "{}: PySolFC only adds to these, so the files look like a statistics reset or two \
         different profiles (or BEFORE and AFTER swapped); the differences are not games played",
        what.join(" and ")
    ))
}

/// Compare `before` with `after`: the games' changes (the all-games totals only count for
/// the warning, as their changes repeat the games'). [`diff_with_totals`] lists theirs too.
pub fn diff(before: &StatsFile, after: &StatsFile) -> StatsDiff {
    diff_with_totals(before, after, false)
}

/// [`diff`], with the all-games totals' changes (game id 0) listed too when `totals`: for a
/// comparison narrowed to them (`stats --diff --game-id 0`).
pub fn diff_with_totals(before: &StatsFile, after: &StatsFile, totals: bool) -> StatsDiff {
    let keys = compared_keys(before, after);
    let (changes, decreases) = counter_changes(before, after, keys, totals);
    let (new_past_games, lost_past_games) = past_game_changes(before, after);
    let warning = warning(&decreases, &lost_past_games);
    StatsDiff {
        changes,
        new_past_games,
        decreases,
        lost_past_games,
        warning,
    }
}

/// The (player, game id) pairs either file has counters for, sorted; game id 0 stands for a
/// player's all-games totals.
fn compared_keys(before: &StatsFile, after: &StatsFile) -> Vec<(Option<String>, i64)> {
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
    for f in [before, after] {
        for p in &f.players {
            if p.all_games.is_some() && !keys.contains(&(p.player.clone(), 0)) {
                keys.push((p.player.clone(), 0));
            }
        }
    }
    keys.sort();
    keys
}

/// Each compared pair's counters before and after: the changed ones (the all-games totals
/// only when `totals`) and every counter that went down.
fn counter_changes(
    before: &StatsFile,
    after: &StatsFile,
    keys: Vec<(Option<String>, i64)>,
    totals: bool,
) -> (Vec<GameChange>, Vec<Decrease>) {
    let all_games = |f: &StatsFile, player: &Option<String>| {
        f.player(player.as_deref())
            .and_then(|p| p.all_games.clone())
    };
    let mut changes = Vec::new();
    let mut decreases = Vec::new();
    for (player, game_id) in keys {
        let (b, a) = if game_id == 0 {
            (
                counters(all_games(before, &player).as_ref()),
                counters(all_games(after, &player).as_ref()),
            )
        } else {
            (
                counters(before.game(player.as_deref(), game_id)),
                counters(after.game(player.as_deref(), game_id)),
            )
        };
        for k in 0..5 {
            if a[k] < b[k] {
                decreases.push(Decrease {
                    player: player.clone(),
                    game_id,
                    counter: COUNTERS[k],
                    before: b[k],
                    after: a[k],
                });
            }
        }
        if game_id == 0 && !totals {
            // The aggregate only counts for the warning; its changes repeat the games'.
            continue;
        }
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
    (changes, decreases)
}

/// The past games (PySolFC's game log) the after file adds per player, and the players
/// whose earlier past games are gone from it (sorted).
fn past_game_changes(
    before: &StatsFile,
    after: &StatsFile,
) -> (Vec<NewPastGame>, Vec<Option<String>>) {
    let mut new_past_games = Vec::new();
    let mut lost_past_games = Vec::new();
    for b in &before.players {
        let now: &[PastGame] = after
            .player(b.player.as_deref())
            .map_or(&[], |a| &a.past_games);
        if b.past_games.iter().any(|g| !now.contains(g)) {
            lost_past_games.push(b.player.clone());
        }
    }
    lost_past_games.sort();
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
    (new_past_games, lost_past_games)
}
