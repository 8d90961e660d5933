//! Decode PySolFC's `statistics.dat` without executing code.
//!
//! Layout (PySolFC 3.2.0, `pysollib/app_statistics.py`, `app_stat.py`,
//! `app_stat_result.py`; written by `Application.saveStatistics` with
//! `pickle.Pickler(fh, -1)`, i.e. protocol 5 on Python 3.11): one `Statistics` instance
//! whose state dict holds
//!
//! * `version_tuple` `(3, 2, 0)`, `saved` (number of saves);
//! * `games_stats`: `{player: {gameid: GameStat}}`, `gameid` an int or the str `'all'`
//!   (the all-games aggregate); `player` a str, or `None` for demo games;
//! * `GameStat`: `num_total`, `num_won`, `num_perfect`, `num_lost` and the
//!   `GameStatResult`s `time_result` (seconds), `moves_result`, `total_moves_result`,
//!   `score_result`, `score_casino_result`; each result has `min`, `max`, `num`, `total`,
//!   `average` and `top` (up to 10 `mfxutil.Struct(gameid, value, game_number,
//!   game_start_time)`);
//! * `prev_games`: `{player: [(gameid, game_number, status, start_time,
//!   total_elapsed_time, version_tuple, score, casino_score, GAME_VERSION)]}`, status 2
//!   perfect, 1 won, 0 lost;
//! * `all_prev_games`, `session_games`: the same tuples again (not decoded here: see below).
//!
//! PySolFC 2.x (e.g. 2.0 and 2.6.4, on Python 2) keeps the same fields but defines the
//! classes in `pysollib/app.py` (`Statistics`, `GameStat`, `_GameStatResult`) as old-style
//! classes, which Python 2's pickler writes with the `OBJ` opcode (protocol 2); both layouts
//! are accepted.
//!
//! Decoding: [`pickle_guard::decode`] bounds size, depth and expansion, allows only the
//! classes above, and builds the value with every instance as data (its state dict); no
//! code runs. Bytes after the pickle's end are ignored, as Python's unpickler (and so
//! PySolFC) ignores them, and counted in [`StatsFile::trailing_bytes`].

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::pickle_guard::{self, Limits, PickleError, Value};
use super::time_fmt::utc_string;

/// The `(module, class)` pairs a statistics file may name.
pub const ALLOWED_CLASSES: &[(&str, &str)] = &[
    ("pysollib.app_statistics", "Statistics"),
    ("pysollib.app_stat", "GameStat"),
    ("pysollib.app_stat_result", "GameStatResult"),
    ("pysollib.mfxutil", "Struct"),
    ("pysollib.app", "Statistics"),
    ("pysollib.app", "GameStat"),
    ("pysollib.app", "_GameStatResult"),
];

/// Errors from loading a statistics file. Each displays as one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum StatsError {
    /// The path does not exist (PySolFC writes the file only on a clean quit).
    #[error("{0}: no such file (PySolFC writes statistics.dat only when it quits cleanly)")]
    NotFound(PathBuf),
    /// The path is a directory with no `statistics.dat` inside.
    #[error("{0}: is a directory without a statistics.dat")]
    IsDirectory(PathBuf),
    /// The path is neither a file nor a folder (a FIFO would be waited on for ever, a device
    /// read without end).
    #[error("{0}: is not a file (a FIFO, a device or a socket): give statistics.dat or its profile folder")]
    NotAFile(PathBuf),
    /// Reading failed.
    #[error("{path}: {reason}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error (shown in the message, so not chained as a source).
        reason: std::io::Error,
    },
    /// The pickle guard refused the bytes.
    #[error("{path}: {reason}")]
    Pickle {
        /// The file.
        path: PathBuf,
        /// Why (shown in the message, so not chained as a source).
        reason: PickleError,
    },
    /// The pickle decoded but is not shaped like PySolFC's `Statistics`.
    #[error("{path}: not a PySolFC statistics file: {reason}")]
    Layout {
        /// The file.
        path: PathBuf,
        /// What is missing or mistyped.
        reason: String,
    },
}

/// Which PySolFC generation wrote the file, from the class module names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Layout {
    /// `pysollib.app_statistics.Statistics` (PySolFC 3.x).
    #[serde(rename = "pysolfc-3")]
    V3,
    /// `pysollib.app.Statistics` (PySolFC 2.x).
    #[serde(rename = "pysolfc-2")]
    V2,
}

/// Everything decoded from one statistics file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatsFile {
    /// Writer generation.
    pub layout: Layout,
    /// `Statistics.version_tuple`, e.g. `[3, 2, 0]`.
    pub version: Option<Vec<i64>>,
    /// `Statistics.saved`: how many times PySolFC saved this file.
    pub saved: Option<i64>,
    /// One entry per player key of `games_stats` or `prev_games`, sorted by name, demo
    /// (`player: null`) first.
    pub players: Vec<PlayerStats>,
    /// Bytes after the pickle's end, ignored (Python's unpickler ignores them too); 0 for a
    /// file as PySolFC writes it.
    pub trailing_bytes: usize,
}

/// One player's statistics.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerStats {
    /// The `[general] player` name from options.cfg; `None` for demo/autopilot games.
    pub player: Option<String>,
    /// Per game id, ascending.
    pub games: Vec<GameStats>,
    /// The `'all'` aggregate over all games (reported with `game_id` 0, PySolFC's own
    /// "all games" id in `resetStats`), if present.
    pub all_games: Option<GameStats>,
    /// `prev_games`: every finished game in the order played.
    pub past_games: Vec<PastGame>,
}

/// One `GameStat`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameStats {
    /// PySolFC game id (8 = FreeCell); 0 for the all-games aggregate, written `null` in
    /// JSON (see [`serialize_game_id`]).
    #[serde(serialize_with = "serialize_game_id")]
    pub game_id: i64,
    /// `num_total`: games recorded.
    pub played: i64,
    /// `num_won + num_perfect`: what PySolFC's statistics dialog calls "won".
    pub won: i64,
    /// `num_perfect`: wins with no undo, hint, bookmark, highlight or shuffle.
    pub won_perfect: i64,
    /// `num_won`: the other wins.
    pub won_not_perfect: i64,
    /// `num_lost` (includes abandoned games and wins helped by hints or the demo).
    pub lost: i64,
    /// `time_result`: playing time of won games, in seconds.
    pub time: Option<ResultStats>,
    /// `moves_result`: moves of won games (`game.moves.index`).
    pub moves: Option<ResultStats>,
    /// `total_moves_result`: moves including undone ones.
    pub total_moves: Option<ResultStats>,
}

/// One `GameStatResult`: statistics over the won games' values (lower is better).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResultStats {
    /// `num`: values recorded.
    pub count: i64,
    /// `total`: their sum.
    pub total: f64,
    /// `average` (0 while `count` is 0).
    pub average: f64,
    /// `min`: the best value (0 while `count` is 0).
    pub best: f64,
    /// `max`: the worst value.
    pub worst: f64,
    /// `top`: up to 10 best values, best first.
    pub top: Vec<TopEntry>,
}

/// One entry of a `GameStatResult.top` list (`mfxutil.Struct`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TopEntry {
    /// The value (seconds or moves).
    pub value: f64,
    /// Game id, absent in files from before PySolFC 2.0.
    pub game_id: Option<i64>,
    /// Game number without `#`, e.g. `ms617`.
    pub game_number: Option<String>,
    /// Start time as `YYYY-MM-DD HH:MM:SS` UTC.
    pub date: Option<String>,
}

/// Result of one finished game (the log tuple's `status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameResult {
    /// 2
    Perfect,
    /// 1
    Won,
    /// 0
    Lost,
    /// -1 (session log only)
    NotWon,
    /// -2 (session log only)
    Loaded,
    /// Any other value.
    Unknown,
}

impl GameResult {
    fn from_status(s: Option<i64>) -> GameResult {
        match s {
            Some(2) => GameResult::Perfect,
            Some(1) => GameResult::Won,
            Some(0) => GameResult::Lost,
            Some(-1) => GameResult::NotWon,
            Some(-2) => GameResult::Loaded,
            _ => GameResult::Unknown,
        }
    }

    /// Perfect or won.
    pub fn is_win(self) -> bool {
        matches!(self, GameResult::Perfect | GameResult::Won)
    }
}

/// One `prev_games` log tuple.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PastGame {
    /// Game id (8 = FreeCell).
    pub game_id: Option<i64>,
    /// Game number without `#`, e.g. `ms617`.
    pub game_number: Option<String>,
    /// Decoded status.
    pub result: GameResult,
    /// Raw status (2 perfect, 1 won, 0 lost).
    pub status: Option<i64>,
    /// Start time, seconds since the epoch.
    pub start_time: Option<f64>,
    /// Start time as `YYYY-MM-DD HH:MM:SS` UTC.
    pub date: Option<String>,
}

impl StatsFile {
    /// A file with no players (what a profile that never quit cleanly amounts to).
    pub fn empty() -> StatsFile {
        StatsFile {
            layout: Layout::V3,
            version: None,
            saved: None,
            players: Vec::new(),
            trailing_bytes: 0,
        }
    }

    /// The player's entry; `None` selects the demo player.
    pub fn player(&self, name: Option<&str>) -> Option<&PlayerStats> {
        self.players.iter().find(|p| p.player.as_deref() == name)
    }

    /// The player's `GameStat` for `game_id`, if any game of it was recorded.
    pub fn game(&self, player: Option<&str>, game_id: i64) -> Option<&GameStats> {
        self.player(player)?
            .games
            .iter()
            .find(|g| g.game_id == game_id)
    }

    /// Wins (perfect + other) of `player` at `game_id`; 0 when nothing is recorded.
    pub fn won(&self, player: Option<&str>, game_id: i64) -> i64 {
        self.game(player, game_id).map_or(0, |g| g.won)
    }

    /// Wins at `game_id` summed over all named players (demo games excluded).
    pub fn won_by_anyone(&self, game_id: i64) -> i64 {
        self.players
            .iter()
            .filter(|p| p.player.is_some())
            .filter_map(|p| p.games.iter().find(|g| g.game_id == game_id))
            .map(|g| g.won)
            .sum()
    }

    /// Keep only `game_id` (games and past games); the all-games aggregate is dropped,
    /// except for `game_id` 0, its own id, which keeps only the aggregate (and every past
    /// game).
    pub fn retain_game(&mut self, game_id: i64) {
        for p in &mut self.players {
            if game_id == 0 {
                p.games.clear();
                continue;
            }
            p.games.retain(|g| g.game_id == game_id);
            p.past_games.retain(|g| g.game_id == Some(game_id));
            p.all_games = None;
        }
    }
}

/// Write a game id as a JSON number, except PySolFC's all-games id 0 (`resetStats`), which
/// names no game: `null`.
///
/// # Errors
/// The serializer's.
pub fn serialize_game_id<S: serde::Serializer>(id: &i64, s: S) -> Result<S::Ok, S::Error> {
    match *id {
        0 => s.serialize_none(),
        id => s.serialize_i64(id),
    }
}

/// Resolve `path`: a directory means the `statistics.dat` inside it.
pub fn resolve_path(path: &Path) -> Result<PathBuf, StatsError> {
    if path.is_dir() {
        let inner = path.join("statistics.dat");
        if inner.is_file() {
            return Ok(inner);
        }
        return Err(StatsError::IsDirectory(path.to_path_buf()));
    }
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(StatsError::NotFound(path.to_path_buf()))
        }
        Ok(m) if !m.is_file() => Err(StatsError::NotAFile(path.to_path_buf())),
        // Other errors (a loop of links, no permission) are named when the file is opened.
        _ => Ok(path.to_path_buf()),
    }
}

/// Load and decode a statistics file (or a profile folder holding one). Reads at most
/// [`Limits::max_bytes`] + 1 bytes. Errors: [`StatsError`].
pub fn load(path: &Path) -> Result<StatsFile, StatsError> {
    let path = resolve_path(path)?;
    let io = |reason| StatsError::Io {
        path: path.clone(),
        reason,
    };
    let limits = Limits::default();
    let file = std::fs::File::open(&path).map_err(io)?;
    let mut data = Vec::new();
    file.take(limits.max_bytes as u64 + 1)
        .read_to_end(&mut data)
        .map_err(io)?;
    parse_with(&data, &limits, &path)
}

/// Like [`load`], but a missing file gives `Ok(None)` (a profile that never quit cleanly).
pub fn load_optional(path: &Path) -> Result<Option<StatsFile>, StatsError> {
    match load(path) {
        Err(StatsError::NotFound(_)) => Ok(None),
        other => other.map(Some),
    }
}

/// Load one side of a comparison: like [`load`], but a PySolFC profile folder (it holds
/// `options.cfg`) without `statistics.dat` reads as [`StatsFile::empty`] (PySolFC writes the
/// file on its first clean quit, so such a profile has no games recorded; `fcauto play`'s
/// `pysol_before/` is one when the run started from a fresh profile). Returns the file read
/// (the folder itself for an empty profile) and its statistics.
pub fn load_or_empty_profile(path: &Path) -> Result<(PathBuf, StatsFile), StatsError> {
    if path.is_dir() && !path.join("statistics.dat").exists() && path.join("options.cfg").is_file()
    {
        return Ok((path.to_path_buf(), StatsFile::empty()));
    }
    let file = resolve_path(path)?;
    let stats = load(&file)?;
    Ok((file, stats))
}

/// Decode statistics from bytes with the default [`Limits`]; errors name `<bytes>`.
/// Never panics.
pub fn parse(data: &[u8]) -> Result<StatsFile, StatsError> {
    parse_with(data, &Limits::default(), Path::new("<bytes>"))
}

/// Decode statistics from bytes with explicit limits; `origin` names the source in errors.
/// Never panics.
pub fn parse_with(data: &[u8], limits: &Limits, origin: &Path) -> Result<StatsFile, StatsError> {
    let path = || origin.to_path_buf();
    let (value, summary) =
        pickle_guard::decode(data, limits, ALLOWED_CLASSES).map_err(|reason| {
            StatsError::Pickle {
                path: path(),
                reason,
            }
        })?;
    let has = |m: &str| {
        summary
            .classes
            .iter()
            .any(|(cm, cn)| cm == m && cn == "Statistics")
    };
    let layout = if has("pysollib.app_statistics") {
        Layout::V3
    } else if has("pysollib.app") {
        Layout::V2
    } else {
        // A saved or held game given instead is named for what it is.
        let game = super::savedgame::parse(data, origin, false).is_ok();
        return Err(StatsError::Layout {
            path: path(),
            reason: if game {
                "it is a PySolFC saved or held game (a .pso file, holdgame.dat): `fcauto analyze` reads those of FreeCell and its family".into()
            } else {
                "no Statistics object in the pickle".into()
            },
        });
    };
    let mut stats = convert(&value, layout).map_err(|reason| StatsError::Layout {
        path: path(),
        reason,
    })?;
    stats.trailing_bytes = summary.trailing;
    Ok(stats)
}

/// A dict's `(key, value)` pairs: a dict itself, or an instance's state dict.
fn dict_items(v: &Value) -> Option<&[(Value, Value)]> {
    match v {
        Value::Dict(d) => Some(d),
        Value::Object(o) => o.state.iter().rev().find_map(|s| match s {
            Value::Dict(d) => Some(d.as_slice()),
            _ => None,
        }),
        _ => None,
    }
}

fn key_text(k: &Value) -> Option<String> {
    match k {
        Value::None => None,
        Value::Str(_) | Value::Bytes(_) => k.as_text(),
        other => Some(other.to_string()),
    }
}

fn convert(root: &Value, layout: Layout) -> Result<StatsFile, String> {
    if dict_items(root).is_none() {
        return Err("the top-level object has no attribute dict".into());
    }
    let Some(games_stats) = root.get("games_stats").and_then(dict_items) else {
        return Err("games_stats is missing or not a dict".into());
    };
    // PySolFC's Statistics always has these (its constructor sets them): one missing is a
    // damaged file, never shown as 0 or as no past games.
    let prev = match root.get("prev_games") {
        Some(v) => match dict_items(v) {
            Some(d) => Some(d),
            None => return Err("prev_games is not a dict".into()),
        },
        None => return Err("the Statistics object has no prev_games".into()),
    };
    let saved = match root.get("saved") {
        None => return Err("the Statistics object has no saved".into()),
        Some(v) => count_of(v).ok_or_else(|| format!("saved is {v}, not a count"))?,
    };
    let version = match root.get("version_tuple") {
        None => return Err("the Statistics object has no version_tuple".into()),
        Some(v) => v
            .as_seq()
            .and_then(|t| t.iter().map(whole).collect::<Option<Vec<_>>>())
            .ok_or_else(|| format!("version_tuple is {v}, not a version"))?,
    };
    let mut players: BTreeMap<Option<String>, PlayerStats> = BTreeMap::new();
    for (pk, games) in games_stats {
        let name = key_text(pk);
        let Some(games) = dict_items(games) else {
            return Err(format!("games_stats[{pk}] is not a dict"));
        };
        let entry = players
            .entry(name.clone())
            .or_insert_with(|| new_player(name));
        for (gk, gs) in games {
            if dict_items(gs).is_none() {
                return Err(format!("games_stats[{pk}][{gk}] is not a GameStat"));
            }
            let at = format!("games_stats[{pk}][{gk}]");
            match gk {
                Value::Int(id) => entry.games.push(game_stats(*id, gs, &at)?),
                Value::Str(s) if s == "all" => entry.all_games = Some(game_stats(0, gs, &at)?),
                Value::Bytes(s) if s == b"all" => entry.all_games = Some(game_stats(0, gs, &at)?),
                _ => {}
            }
        }
        entry.games.sort_by_key(|g| g.game_id);
        // PySolFC adds each game to the player's `all` totals as it records it.
        if !entry.games.is_empty() && entry.all_games.is_none() {
            return Err(format!("games_stats[{pk}] has games but no 'all' totals"));
        }
    }
    for (pk, log) in prev.into_iter().flatten() {
        let name = key_text(pk);
        let Some(log) = log.as_seq() else {
            return Err(format!("prev_games[{pk}] is not a list"));
        };
        let entry = players
            .entry(name.clone())
            .or_insert_with(|| new_player(name));
        entry.past_games = log
            .iter()
            .enumerate()
            .map(|(i, t)| past_game(t, &format!("prev_games[{pk}][{i}]")))
            .collect::<Result<_, _>>()?;
    }
    Ok(StatsFile {
        layout,
        version: Some(version),
        saved: Some(saved),
        players: players.into_values().collect(),
        trailing_bytes: 0,
    })
}

fn new_player(player: Option<String>) -> PlayerStats {
    PlayerStats {
        player,
        games: Vec::new(),
        all_games: None,
        past_games: Vec::new(),
    }
}

/// One game's `GameStat`: its counters must be there and whole numbers that fit (a counter
/// shown as 0 when it is missing or unreadable would be a made-up figure). `at` names it in
/// errors (`games_stats[None][8]`).
fn game_stats(game_id: i64, d: &Value, at: &str) -> Result<GameStats, String> {
    let num = |k: &str| match d.get(k) {
        None => Err(format!("{at} has no {k}")),
        Some(v) => count_of(v).ok_or_else(|| format!("{at}.{k} is {v}, not a count")),
    };
    // Every PySolFC writes these results: one missing is a damaged file (its line would
    // otherwise be left out without a word); one that is there must be whole.
    let result = |k: &str| match d.get(k) {
        None => Err(format!("{at} has no {k}")),
        Some(r) if dict_items(r).is_some() => result_stats(r, &format!("{at}.{k}")).map(Some),
        Some(r) => Err(format!("{at}.{k} is {r}, not a GameStatResult")),
    };
    let (won_not_perfect, won_perfect) = (num("num_won")?, num("num_perfect")?);
    Ok(GameStats {
        game_id,
        played: num("num_total")?,
        won: won_not_perfect.saturating_add(won_perfect),
        won_perfect,
        won_not_perfect,
        lost: num("num_lost")?,
        time: result("time_result")?,
        moves: result("moves_result")?,
        total_moves: result("total_moves_result")?,
    })
}

/// One `GameStatResult` (`at` names it in errors, `games_stats[None][8].time_result`): its
/// counters and values must be there and numbers (a missing or unreadable one shown as 0 would
/// be a made-up figure); `top` must be a list of entries with a numeric `value`. A top entry's
/// game id, number and start time are optional (files before PySolFC 2.0 lack the id), but
/// when present they must have their type.
fn result_stats(d: &Value, at: &str) -> Result<ResultStats, String> {
    // Seconds and moves: never below 0.
    let number = |v: &Value, at: &str, k: &str| {
        amount(v).ok_or_else(|| format!("{at}.{k} is {v}, not a number of 0 or more"))
    };
    let field = |k: &str| d.get(k).ok_or_else(|| format!("{at} has no {k}"));
    let count = field("num")?;
    let count = count_of(count).ok_or_else(|| format!("{at}.num is {count}, not a count"))?;
    let top = field("top")?;
    let top = top
        .as_seq()
        .ok_or_else(|| format!("{at}.top is {top}, not a list"))?;
    let top = top
        .iter()
        .enumerate()
        .map(|(i, e)| top_entry(e, &format!("{at}.top[{i}]")))
        .collect::<Result<_, _>>()?;
    Ok(ResultStats {
        count,
        total: number(field("total")?, at, "total")?,
        average: number(field("average")?, at, "average")?,
        best: number(field("min")?, at, "min")?,
        worst: number(field("max")?, at, "max")?,
        top,
    })
}

/// One entry of a `GameStatResult.top` list (`at` names it in errors).
fn top_entry(e: &Value, at: &str) -> Result<TopEntry, String> {
    if dict_items(e).is_none() {
        return Err(format!("{at} is {e}, not an entry"));
    }
    // An optional attribute: absent (or None) is None, present of another type an error.
    fn optional<T>(
        e: &Value,
        at: &str,
        k: &str,
        what: &str,
        read: impl Fn(&Value) -> Option<T>,
    ) -> Result<Option<T>, String> {
        match e.get(k) {
            None | Some(Value::None) => Ok(None),
            Some(v) => read(v)
                .map(Some)
                .ok_or_else(|| format!("{at}.{k} is {v}, not {what}")),
        }
    }
    let value = e.get("value").ok_or_else(|| format!("{at} has no value"))?;
    let value =
        amount(value).ok_or_else(|| format!("{at}.value is {value}, not a number of 0 or more"))?;
    let start = optional(e, at, "game_start_time", "a time", Value::as_f64)?;
    Ok(TopEntry {
        value,
        game_id: optional(e, at, "gameid", "a game id", whole)?,
        game_number: optional(e, at, "game_number", "a game number", |v| {
            v.as_text().or_else(|| whole(v).map(|n| n.to_string()))
        })?,
        date: start.and_then(utc_string),
    })
}

/// A whole number (a Python int; not a bool, which Python counts as one).
fn whole(v: &Value) -> Option<i64> {
    match v {
        Value::Int(n) => Some(*n),
        _ => None,
    }
}

/// A count: a whole number, 0 or more.
fn count_of(v: &Value) -> Option<i64> {
    whole(v).filter(|&n| n >= 0)
}

/// An amount of seconds or moves: a finite number (int or float, not a bool), 0 or more.
fn amount(v: &Value) -> Option<f64> {
    match v {
        Value::Bool(_) => None,
        v => v.as_f64().filter(|x| x.is_finite() && *x >= 0.0),
    }
}

/// One `prev_games` log tuple (`at` names it in errors, `prev_games[tester][3]`): at least
/// its game id, game number, status and start time, each of its type (the game number may
/// be None; a record that is not one would otherwise be dropped or shown from 1970).
fn past_game(t: &Value, at: &str) -> Result<PastGame, String> {
    let what = "a game record (game id, game number, status, start time, ...)";
    let fields = t
        .as_seq()
        .filter(|f| f.len() >= 4)
        .ok_or_else(|| format!("{at} is {t}, not {what}"))?;
    let field = |i: usize, name: &str, ok: Option<()>| {
        ok.ok_or_else(|| format!("{at}: its {name} is {}, in {what}", fields[i]))
    };
    let game_id = whole(&fields[0]);
    field(0, "game id", game_id.map(drop))?;
    // PySolFC's game numbers are short (`ms617`, a 20-digit number): a longer one is
    // damage, never printed whole (it may be thousands of characters).
    let game_number = fields[1].as_text().filter(|n| n.chars().count() <= 64);
    field(
        1,
        "game number",
        (game_number.is_some() || fields[1] == Value::None).then_some(()),
    )?;
    // Statuses PySolFC writes: 2 perfect, 1 won, 0 lost, -1 not won, -2 loaded.
    let status = whole(&fields[2]).filter(|s| (-2..=2).contains(s));
    field(2, "status", status.map(drop))?;
    let start_time = match &fields[3] {
        Value::Bool(_) => None,
        v => v.as_f64().filter(|x| x.is_finite() && *x >= 0.0),
    };
    field(3, "start time", start_time.map(drop))?;
    Ok(PastGame {
        game_id,
        game_number,
        result: GameResult::from_status(status),
        status,
        start_time,
        date: start_time.and_then(utc_string),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dict(items: &[(&str, Value)]) -> Value {
        Value::Dict(
            items
                .iter()
                .map(|(k, v)| (Value::Str(k.to_string()), v.clone()))
                .collect(),
        )
    }

    fn result(num: Value, top: Value) -> Value {
        dict(&[
            ("min", Value::Int(3)),
            ("max", Value::Float(9.5)),
            ("top", top),
            ("num", num),
            ("total", Value::Int(12)),
            ("average", Value::Float(6.0)),
        ])
    }

    /// A result's figures are read as they are, and a mistyped one is an error that names it
    /// and shows the value as Python would (2.0, not 2), never a made-up 0.
    #[test]
    fn result_figures_are_read_or_refused() {
        let entry = dict(&[("value", Value::Int(3)), ("gameid", Value::Int(2))]);
        let r = result_stats(
            &result(Value::Int(2), Value::List(vec![entry])),
            "games_stats[None][2].moves_result",
        )
        .unwrap();
        assert_eq!((r.count, r.total, r.best, r.worst), (2, 12.0, 3.0, 9.5));
        assert_eq!(r.top[0].game_id, Some(2));
        let cases = [
            (
                result(Value::Float(2.0), Value::List(vec![])),
                "games_stats[None][2].moves_result.num is 2.0, not a count",
            ),
            (
                result(Value::Int(2), Value::Int(0)),
                "games_stats[None][2].moves_result.top is 0, not a list",
            ),
            (
                result(
                    Value::Int(2),
                    Value::List(vec![dict(&[
                        ("value", Value::Int(3)),
                        ("gameid", Value::Str("x".into())),
                    ])]),
                ),
                "games_stats[None][2].moves_result.top[0].gameid is \"x\", not a game id",
            ),
            (
                result(Value::Int(2), Value::List(vec![dict(&[])])),
                "games_stats[None][2].moves_result.top[0] has no value",
            ),
        ];
        for (value, want) in cases {
            let err = result_stats(&value, "games_stats[None][2].moves_result").unwrap_err();
            assert_eq!(err, want);
        }
        // A negative best and a bool count are errors, not figures shown.
        let mut negative = result(Value::Int(2), Value::List(vec![]));
        if let Value::Dict(items) = &mut negative {
            items[0].1 = Value::Int(-1);
        }
        let err = result_stats(&negative, "r").unwrap_err();
        assert_eq!(err, "r.min is -1, not a number of 0 or more");
        let err = result_stats(&result(Value::Bool(true), Value::List(vec![])), "r").unwrap_err();
        assert_eq!(err, "r.num is True, not a count");
    }

    /// A GameStat's counters are whole numbers (not bools), and its results are all there.
    #[test]
    fn game_stat_counters_and_results_are_required() {
        let full = |skip: &str, total: Value| {
            let mut items = vec![
                ("num_total", total),
                ("num_won", Value::Int(1)),
                ("num_perfect", Value::Int(0)),
                ("num_lost", Value::Int(1)),
            ];
            for k in ["time_result", "moves_result", "total_moves_result"] {
                items.push((k, result(Value::Int(1), Value::List(vec![]))));
            }
            items.retain(|(k, _)| *k != skip);
            dict(&items)
        };
        let g = game_stats(8, &full("", Value::Int(2)), "g").unwrap();
        assert_eq!((g.played, g.won, g.lost), (2, 1, 1));
        let err = game_stats(8, &full("", Value::Bool(true)), "g").unwrap_err();
        assert_eq!(err, "g.num_total is True, not a count");
        let err = game_stats(8, &full("time_result", Value::Int(2)), "g").unwrap_err();
        assert_eq!(err, "g has no time_result");
    }

    /// A `prev_games` record is read field by field; one that is not a record, or a field of
    /// another type, is an error naming it (formerly: such records were dropped, or shifted
    /// and dated 1970).
    #[test]
    fn past_game_records_are_read_or_refused() {
        let record = |fields: Vec<Value>| Value::Tuple(fields);
        let good = vec![
            Value::Int(8),
            Value::Str("ms617".into()),
            Value::Int(1),
            Value::Float(1.7e9),
            Value::Float(0.0),
        ];
        let g = past_game(&record(good.clone()), "p").unwrap();
        assert_eq!(g.game_number.as_deref(), Some("ms617"));
        assert_eq!(g.result, GameResult::Won);
        let mut no_number = good.clone();
        no_number[1] = Value::None;
        assert_eq!(
            past_game(&record(no_number), "p").unwrap().game_number,
            None
        );
        let what = "a game record (game id, game number, status, start time, ...)";
        let mut bool_status = good.clone();
        bool_status[2] = Value::Bool(true);
        let mut text_time = good.clone();
        text_time[3] = Value::Str("noon".into());
        let mut status_7 = good.clone();
        status_7[2] = Value::Int(7);
        let mut before_1970 = good.clone();
        before_1970[3] = Value::Float(-1e300);
        let mut long_number = good.clone();
        long_number[1] = Value::Str("9".repeat(5002));
        for (value, want) in [
            (Value::None, format!("p is None, not {what}")),
            (
                record(good[..3].to_vec()),
                format!("p is (8, \"ms617\", 1), not {what}"),
            ),
            (
                record(bool_status),
                format!("p: its status is True, in {what}"),
            ),
            (
                record(text_time),
                format!("p: its start time is \"noon\", in {what}"),
            ),
            // Each named, not shown as "Unknown", "?", or a 5,049-byte line.
            (record(status_7), format!("p: its status is 7, in {what}")),
            (
                record(long_number),
                format!("p: its game number is \"{}\", in {what}", "9".repeat(60)),
            ),
            (
                record(before_1970),
                format!("p: its start time is -1e300, in {what}"),
            ),
        ] {
            assert_eq!(past_game(&value, "p").unwrap_err(), want);
        }
    }
}
