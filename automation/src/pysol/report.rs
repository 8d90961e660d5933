//! What `fcauto stats` tells from PySolFC's files: a decoded statistics.dat narrowed to one
//! player or game id, its text summary, the text of what changed between two of them, the
//! options.cfg summary, and the JSON shapes of all three (each with the paths it read).
//!
//! Text from the files (player names, game numbers, settings) is printed with its control
//! characters escaped ([`printable`]), so that a name cannot break a line or drive the
//! terminal.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::options::{OptionsFile, OptionsSummary};
use super::stats::{self, GameStats, ResultStats, StatsFile};
use super::stats_diff::{Delta, StatsDiff};
use super::FREECELL_GAME_ID;
use fcauto_deals::plural;

/// How the demo's (and autopilot's) games are named: PySolFC records them under no player.
pub const DEMO: &str = "(demo)";

/// A selection a statistics file cannot satisfy.
#[derive(Debug, thiserror::Error)]
pub enum SelectError {
    /// The player is not in the file (a misspelt name must not read as "no games").
    #[error("{}: no player {player:?} (players: {})", file.display(), if known.is_empty() { "none".to_string() } else { known.join(", ") })]
    UnknownPlayer {
        /// The statistics file.
        file: PathBuf,
        /// The player asked for.
        player: String,
        /// The players the file has, [`printable`].
        known: Vec<String>,
    },
    /// No game of this id is recorded (for the player, if one was selected).
    #[error("{}: no games of id {id}{} ({have})", file.display(), player.as_ref().map_or(String::new(), |p| format!(" for player {p}")))]
    NoGames {
        /// The statistics file.
        file: PathBuf,
        /// The game id asked for.
        id: i64,
        /// The player the file was narrowed to, if any.
        player: Option<String>,
        /// The game ids the file records (or that it records none).
        have: String,
    },
}

/// Which part of a statistics file to report: one player (`(demo)`: the demo's games), one
/// game id (0: the all-games totals), or all of it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Selection<'a> {
    /// Only this player's entry.
    pub player: Option<&'a str>,
    /// Only this game id.
    pub game_id: Option<i64>,
}

impl Selection<'_> {
    /// Narrow `s` (read from `file`) to the selection. A player the file does not know is
    /// an error, and so, when `need_game`, is a game id with no games recorded (a BEFORE
    /// file may lack it: the first game of it).
    ///
    /// # Errors
    /// [`SelectError`], naming the players or game ids the file has.
    pub fn apply(
        &self,
        s: &mut StatsFile,
        file: &Path,
        need_game: bool,
    ) -> Result<(), SelectError> {
        self.apply_player(s, file)?;
        if let Some(id) = self.game_id {
            if need_game {
                check_game_id(s, id, file, self.player)?;
            }
            s.retain_game(id);
        }
        Ok(())
    }

    /// Keep only the player's entry: a named player, or [`DEMO`] for the demo's games
    /// (unless a player has that name).
    fn apply_player(&self, s: &mut StatsFile, file: &Path) -> Result<(), SelectError> {
        let Some(p) = self.player else {
            return Ok(());
        };
        let key = if s.player(Some(p)).is_none() && p == DEMO {
            None
        } else {
            Some(p)
        };
        if s.player(key).is_none() {
            return Err(SelectError::UnknownPlayer {
                file: file.to_path_buf(),
                player: p.to_string(),
                known: s
                    .players
                    .iter()
                    .map(|x| printable(player_name(&x.player)).into_owned())
                    .collect(),
            });
        }
        s.players.retain(|x| x.player.as_deref() == key);
        Ok(())
    }

    /// Narrow the files before and after a game, then their differences. The player must
    /// be known to the file after the game; before it, the player may not exist yet (their
    /// first game), which leaves nothing to compare against. `--game-id 0` asks for the
    /// all-games totals: their changes are the answer.
    ///
    /// # Errors
    /// [`SelectError`] of either file.
    pub fn diff(
        &self,
        (before, b_file): (&mut StatsFile, &Path),
        (after, a_file): (&mut StatsFile, &Path),
    ) -> Result<StatsDiff, SelectError> {
        self.apply(after, a_file, true)?;
        if self
            .player
            .is_some_and(|p| before.player(Some(p)).is_none())
        {
            before.players.clear();
        } else {
            self.apply(before, b_file, false)?;
        }
        Ok(super::stats_diff::diff_with_totals(
            before,
            after,
            self.game_id == Some(0),
        ))
    }
}

/// Fail unless `s` records some game of `id` (0: the all-games totals), naming the ids it
/// has; `player` names the player `s` was narrowed to, if any.
fn check_game_id(
    s: &StatsFile,
    id: i64,
    file: &Path,
    player: Option<&str>,
) -> Result<(), SelectError> {
    if id == 0 && s.players.iter().any(|p| p.all_games.is_some()) {
        return Ok(());
    }
    let mut ids: Vec<i64> = s
        .players
        .iter()
        .flat_map(|p| {
            p.games
                .iter()
                .map(|g| g.game_id)
                .chain(p.past_games.iter().filter_map(|g| g.game_id))
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.contains(&id) {
        return Ok(());
    }
    let have = if ids.is_empty() {
        "no games recorded".to_string()
    } else {
        let names: Vec<String> = ids.iter().take(20).map(|&i| game_name(i)).collect();
        let more = ids.len().saturating_sub(20);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        format!("game ids recorded: {}{more}", names.join(", "))
    };
    Err(SelectError::NoGames {
        file: file.to_path_buf(),
        id,
        player: player.map(str::to_string),
        have,
    })
}

/// A game id as the text names it: `8 (FreeCell)`, `all games` for 0, else the number.
pub fn game_name(id: i64) -> String {
    match id {
        FREECELL_GAME_ID => format!("{id} (FreeCell)"),
        0 => "all games".to_string(),
        _ => id.to_string(),
    }
}

/// A player's name, [`DEMO`] for the demo's games (recorded under no player).
pub fn player_name(p: &Option<String>) -> &str {
    p.as_deref().unwrap_or(DEMO)
}

/// `text` from the file with its control characters escaped (`\n`, `\u{1b}`), so that a
/// name cannot break a line or drive the terminal (JSON output escapes them anyway).
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return text.into();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

/// A date as the statistics give it (UTC), said so: `2026-11-29 22:28:00 UTC`, or `?`.
fn date_utc(date: &Option<String>) -> String {
    date.as_ref().map_or("?".into(), |d| format!("{d} UTC"))
}

/// `stats --json`: the statistics with the path they were read from.
#[derive(Serialize)]
pub struct StatsJson<'a> {
    /// The statistics.dat (or profile folder) read.
    pub path: String,
    /// What it records.
    #[serde(flatten)]
    pub stats: &'a StatsFile,
}

/// The text summary of `s`, read from `path`; `profile_folder`: `path` is a profile folder
/// (which, with no version and no saves, has no statistics.dat yet).
pub fn stats_text(path: &Path, s: &StatsFile, profile_folder: bool) -> String {
    let mut t = String::new();
    let version = s.version.as_ref().map_or("?".to_string(), |v| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(".")
    });
    if s.version.is_none() && s.saved.is_none() && profile_folder {
        let _ = writeln!(
            t,
            "{}: a PySolFC profile with no statistics.dat yet",
            path.display()
        );
    } else {
        let _ = writeln!(
            t,
            "{}: written by PySolFC {version}, saved {}",
            path.display(),
            plural(s.saved.unwrap_or(0), "time")
        );
    }
    if s.players.is_empty() {
        t.push_str("  no games recorded\n");
    }
    for p in &s.players {
        let _ = writeln!(t, "player {}", printable(player_name(&p.player)));
        for g in p.games.iter().chain(p.all_games.iter()) {
            game_text(&mut t, g);
        }
        if !p.past_games.is_empty() {
            t.push_str("  past games:\n");
        }
        for g in &p.past_games {
            let _ = writeln!(
                t,
                "    {}  game {}  {}  {:?}",
                date_utc(&g.date),
                g.game_id.map_or("?".into(), |i| i.to_string()),
                printable(g.game_number.as_deref().unwrap_or("?")),
                g.result
            );
        }
    }
    t
}

/// One game id's line, and its time and moves lines when games were won.
fn game_text(t: &mut String, g: &GameStats) {
    let _ = writeln!(
        t,
        "  {}: played {}, won {} (perfect {}, other {}), lost {}",
        if g.game_id == 0 {
            "all games".to_string()
        } else {
            format!("game {}", game_name(g.game_id))
        },
        g.played,
        g.won,
        g.won_perfect,
        g.won_not_perfect,
        g.lost
    );
    let mut line = |what: &str, unit: &str, r: &Option<ResultStats>| {
        if let Some(r) = r.as_ref().filter(|r| r.count > 0) {
            let _ = writeln!(
                t,
                "    {what}: best {:.1}{unit}, average {:.1}{unit}, total {:.1}{unit} over {} won",
                r.best, r.average, r.total, r.count
            );
        }
    };
    line("time", " s", &g.time);
    line("moves", "", &g.moves);
}

/// `stats --diff --json`: the differences with the paths compared.
#[derive(Serialize)]
pub struct DiffJson<'a> {
    /// The statistics before the game.
    pub before: String,
    /// The statistics after it.
    pub after: String,
    /// Bytes after each file's pickle, ignored (as `stats --json`'s `trailing_bytes`).
    pub before_trailing_bytes: usize,
    /// See `before_trailing_bytes`.
    pub after_trailing_bytes: usize,
    /// What changed.
    #[serde(flatten)]
    pub diff: &'a StatsDiff,
}

/// The text of what changed: a line per player and game id, a line per new past game, or
/// `no changes`.
pub fn diff_text(d: &StatsDiff) -> String {
    let mut t = String::new();
    if d.is_empty() {
        t.push_str("no changes\n");
    }
    let fmt = |name: &str, x: &Delta| format!("{name} {} -> {} ({:+})", x.before, x.after, x.delta);
    for c in &d.changes {
        let game = if c.game_id == 0 {
            "all games".to_string()
        } else {
            format!("game {}", game_name(c.game_id))
        };
        let _ = writeln!(
            t,
            "player {}, {game}: {}, {} [perfect {:+}, other {:+}], {}",
            printable(player_name(&c.player)),
            fmt("played", &c.played),
            fmt("won", &c.won),
            c.won_perfect.delta,
            c.won_not_perfect.delta,
            fmt("lost", &c.lost)
        );
    }
    for n in &d.new_past_games {
        let _ = writeln!(
            t,
            "new past game: player {}, {}  game {}  {}  {:?}",
            printable(player_name(&n.player)),
            date_utc(&n.game.date),
            n.game.game_id.map_or("?".into(), |i| i.to_string()),
            printable(n.game.game_number.as_deref().unwrap_or("?")),
            n.game.result
        );
    }
    t
}

/// True when `file` is readable text that starts as a config file does (a `#` comment or a
/// `[section]` line, as PySolFC's options.cfg; statistics.dat is a binary pickle).
pub fn starts_like_config(file: &Path) -> bool {
    use std::io::Read;
    // Only a regular file is opened: a FIFO's open would wait for a writer.
    if !file.is_file() {
        return false;
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(file).and_then(|f| f.take(256).read_to_end(&mut head));
    let text = String::from_utf8_lossy(&head);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    read.is_ok() && (text.starts_with('#') || text.starts_with('['))
}

/// True when `file` is named statistics.dat or starts as a Python pickle does (PySolFC's
/// statistics are one; an options file is text).
pub fn looks_like_statistics(file: &Path) -> bool {
    use std::io::Read;
    if !file.is_file() {
        return file.file_name().is_some_and(|n| n == "statistics.dat");
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(file).and_then(|f| f.take(4).read_to_end(&mut head));
    file.file_name().is_some_and(|n| n == "statistics.dat")
        || (read.is_ok() && fcauto_deals::text::looks_like_pickle(&head))
}

/// The options.cfg and statistics.dat that `path` names: a profile folder holds both; a
/// statistics.dat (by name, or a pickle; or a path that does not exist) has options.cfg
/// beside it; anything else is taken for an options file, with statistics.dat beside it.
pub fn options_paths(path: &Path) -> (PathBuf, PathBuf) {
    if path.is_dir() {
        (path.join("options.cfg"), path.join("statistics.dat"))
    } else if !path.exists() || looks_like_statistics(path) {
        (path.with_file_name("options.cfg"), path.to_path_buf())
    } else {
        (path.to_path_buf(), path.with_file_name("statistics.dat"))
    }
}

/// The summary of `opts`, with the last game number its player played when the
/// statistics.dat `stats_file` can be read (it is optional: a missing or unreadable one
/// leaves the number unknown).
pub fn options_summary(opts: &OptionsFile, stats_file: &Path) -> OptionsSummary {
    let mut summary = opts.summary();
    if let Some(s) = stats::load_optional(stats_file).ok().flatten() {
        let player = summary.player.clone();
        summary.last_game_number = s
            .player(player.as_deref())
            .and_then(|p| p.past_games.last())
            .and_then(|g| g.game_number.clone());
    }
    summary
}

/// `stats --options --json`: the options.cfg summary and the settings that differ from
/// automated replay.
#[derive(Serialize)]
pub struct OptionsJson<'a> {
    /// The options.cfg read.
    pub path: String,
    /// Its summary.
    #[serde(flatten)]
    pub summary: &'a OptionsSummary,
    /// The settings that differ from automated replay.
    pub replay_problems: &'a [String],
}

/// The text of `stats --options`: the summary's fields, one a line, then the settings
/// that differ from automated replay.
///
/// # Errors
/// The summary cannot be turned into JSON values (it always can).
pub fn options_text(
    cfg: &Path,
    summary: &OptionsSummary,
    problems: &[String],
) -> serde_json::Result<String> {
    let mut t = String::new();
    let _ = writeln!(t, "{}:", cfg.display());
    let v = serde_json::to_value(summary)?;
    for (k, val) in v.as_object().into_iter().flatten() {
        // options.cfg does not hold the last game number: say where it comes from.
        let from = match k.as_str() {
            "last_game_number" if !val.is_null() => " (from statistics.dat's newest game)",
            _ => "",
        };
        let _ = writeln!(t, "  {k}: {val}{from}");
    }
    let _ = writeln!(
        t,
        "  settings that differ from automated replay: {}",
        problems.len()
    );
    for p in problems {
        let _ = writeln!(t, "    {}", printable(p));
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pysol::stats::PlayerStats;

    fn with_players(names: &[Option<&str>]) -> StatsFile {
        let mut s = StatsFile::empty();
        s.players = names
            .iter()
            .map(|n| PlayerStats {
                player: n.map(str::to_string),
                games: Vec::new(),
                all_games: None,
                past_games: Vec::new(),
            })
            .collect();
        s
    }

    /// Names from the file cannot break a line or drive the terminal.
    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(printable("Ann"), "Ann");
        assert_eq!(printable("a\nb\u{1b}[2J"), "a\\nb\\u{1b}[2J");
        assert_eq!(game_name(8), "8 (FreeCell)");
        assert_eq!(game_name(0), "all games");
        assert_eq!(game_name(2), "2");
    }

    /// An unknown player is an error naming those the file has; `(demo)` selects the
    /// games recorded under no player.
    #[test]
    fn players_are_selected_by_name_or_as_the_demo() {
        let file = Path::new("statistics.dat");
        let sel = |player| Selection {
            player: Some(player),
            game_id: None,
        };
        let mut s = with_players(&[None, Some("Ann")]);
        let e = sel("Bob").apply(&mut s, file, true).unwrap_err();
        assert_eq!(
            e.to_string(),
            "statistics.dat: no player \"Bob\" (players: (demo), Ann)"
        );
        sel(DEMO).apply(&mut s, file, true).unwrap();
        assert_eq!(s.players.len(), 1);
        assert_eq!(s.players[0].player, None);
        let e = sel("Ann").apply(&mut StatsFile::empty(), file, true);
        assert!(e.unwrap_err().to_string().ends_with("(players: none)"));
    }

    /// A game id with no games recorded is an error when the file must have it.
    #[test]
    fn a_game_id_not_recorded_is_named() {
        let file = Path::new("s.dat");
        let sel = Selection {
            player: Some("Ann"),
            game_id: Some(8),
        };
        let mut s = with_players(&[Some("Ann")]);
        let e = sel.apply(&mut s.clone(), file, true).unwrap_err();
        assert_eq!(
            e.to_string(),
            "s.dat: no games of id 8 for player Ann (no games recorded)"
        );
        sel.apply(&mut s, file, false).unwrap();
    }

    /// The texts of nothing recorded and nothing changed.
    #[test]
    fn empty_reports_say_so() {
        let s = StatsFile::empty();
        assert_eq!(
            stats_text(Path::new("p"), &s, true),
            "p: a PySolFC profile with no statistics.dat yet\n  no games recorded\n"
        );
        assert_eq!(
            stats_text(Path::new("s.dat"), &s, false),
            "s.dat: written by PySolFC ?, saved 0 times\n  no games recorded\n"
        );
        let d = crate::pysol::stats_diff::diff(&s, &s);
        assert_eq!(diff_text(&d), "no changes\n");
    }
}
