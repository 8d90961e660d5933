//! `fcauto stats`: decode PySolFC's statistics.dat (read-only, no code execution) and
//! compare two of them.
//!
//! Output shapes: `--json` prints [`fcauto_automation::pysol::stats::StatsFile`] with a
//! `path` field added (its `trailing_bytes` counts bytes after the pickle, ignored as
//! PySolFC ignores them, and also named in a warning on stderr; each player's all-games
//! totals are its `all_games`, whose `game_id` is `null`); `--diff --json` prints
//! [`fcauto_automation::pysol::stats_diff::StatsDiff`] with `before` and `after` paths (its
//! `warning`, also printed on stderr, says when counts went down: a reset or two profiles);
//! `--options --json` prints the options.cfg summary and the replay problems.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use fcauto_automation::pysol::options::{OptionsFile, OptionsSummary};
use fcauto_automation::pysol::stats::{self, GameStats, ResultStats, StatsFile};
use fcauto_automation::pysol::stats_diff::{self, Delta, StatsDiff};
use fcauto_automation::pysol::{profile, FREECELL_GAME_ID};
use serde::Serialize;

/// Arguments of `fcauto stats`.
#[derive(clap::Args)]
pub struct Args {
    /// statistics.dat, or a profile folder holding one [default: ~/.pysolfc, then ~/.PySolFC]
    pub path: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Only this PySolFC game id (8 = FreeCell).
    #[arg(long, value_name = "ID", value_parser = parse_game_id)]
    pub game_id: Option<i64>,
    /// Only this player (the `[general] player` of options.cfg; `(demo)`: the games the demo
    /// played, which PySolFC records under no player).
    #[arg(long)]
    pub player: Option<String>,
    /// Print what changed from BEFORE to AFTER (files or profile folders; a profile folder
    /// with options.cfg but no statistics.dat yet counts as no games recorded).
    #[arg(long, num_args = 2, value_names = ["BEFORE", "AFTER"], conflicts_with = "path")]
    pub diff: Option<Vec<PathBuf>>,
    /// Show the options.cfg of the profile (or the one beside statistics.dat) instead.
    #[arg(long, conflicts_with_all = ["diff", "game_id", "player"])]
    pub options: bool,
}

/// Run `fcauto stats`; returns the exit code (0), errors give exit 1 via main.
pub fn run(args: Args) -> anyhow::Result<i32> {
    if let Some(pair) = &args.diff {
        return run_diff(&args, &pair[0], &pair[1]);
    }
    let path = match &args.path {
        Some(p) => p.clone(),
        None => default_profile()?,
    };
    if args.options {
        return run_options(&args, &path);
    }
    // A profile with options.cfg and no statistics.dat yet has recorded no games (as for
    // --diff), which is not an error.
    let (file, mut s) = stats::load_or_empty_profile(&path).map_err(|e| {
        let file = stats::resolve_path(&path).unwrap_or(path.clone());
        text_hint(&file, e.into())
    })?;
    warn_trailing(&file, &s);
    filter(&mut s, &args, &file, true)?;
    if args.json {
        #[derive(Serialize)]
        struct Out<'a> {
            path: String,
            #[serde(flatten)]
            stats: &'a StatsFile,
        }
        let out = Out {
            path: file.display().to_string(),
            stats: &s,
        };
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print_stats(&file, &s)?;
    }
    Ok(0)
}

/// `e`, a statistics.dat that could not be read, with a hint when the file is text that
/// starts as a config file does (a `#` comment or a `[section]` line, as PySolFC's
/// options.cfg): statistics.dat is a binary pickle, and `--options` shows options.cfg.
fn text_hint(file: &Path, e: anyhow::Error) -> anyhow::Error {
    if !starts_like_config(file) {
        return e;
    }
    anyhow::anyhow!(
        "{e:#}; this is a text file that looks like a config file such as PySolFC's \
         options.cfg, not statistics.dat (a binary pickle): `fcauto stats --options {}` shows it",
        file.display()
    )
}

/// Say on stderr that bytes after the pickle were ignored (the JSON has `trailing_bytes`).
fn warn_trailing(file: &Path, s: &StatsFile) {
    if s.trailing_bytes > 0 {
        crate::note!(
            "fcauto stats: warning: {}: {} after the pickle's end ignored (PySolFC's unpickler ignores them too)",
            file.display(),
            crate::cmd::plural(s.trailing_bytes, "trailing byte")
        );
    }
}

fn default_profile() -> anyhow::Result<PathBuf> {
    let home = profile::home_dir().context("HOME is not set: give a statistics.dat path")?;
    profile::find_profile_dir(&home).with_context(|| {
        format!(
            "no PySolFC profile folder (.pysolfc or .PySolFC) under {}",
            home.display()
        )
    })
}

/// Apply `--player` and `--game-id`. A player the file does not know is an error (a
/// misspelt name must not read as "no games" or "no changes"), and so, when `need_game`, is
/// a game id with no games recorded (a BEFORE file may lack it: the first game of it).
fn filter(s: &mut StatsFile, args: &Args, file: &Path, need_game: bool) -> anyhow::Result<()> {
    filter_player(s, args, file)?;
    if let Some(id) = args.game_id {
        if need_game {
            check_game_id(s, id, file, args.player.as_deref())?;
        }
        s.retain_game(id);
    }
    Ok(())
}

/// Fail unless `s` records some game of `id` (0: the all-games totals), naming the ids it
/// has; `player` names the player `s` was narrowed to, if any.
fn check_game_id(s: &StatsFile, id: i64, file: &Path, player: Option<&str>) -> anyhow::Result<()> {
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
    let whose = player.map_or(String::new(), |p| format!(" for player {p}"));
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
    bail!("{}: no games of id {id}{whose} ({have})", file.display())
}

/// Keep only `--player`'s entry: a named player, or [`DEMO`] for the demo's games (unless a
/// player has that name). An unknown player is an error listing those the file has.
fn filter_player(s: &mut StatsFile, args: &Args, file: &Path) -> anyhow::Result<()> {
    let Some(p) = &args.player else {
        return Ok(());
    };
    let key = if s.player(Some(p)).is_none() && p == DEMO {
        None
    } else {
        Some(p.as_str())
    };
    if s.player(key).is_none() {
        let known: Vec<String> = s
            .players
            .iter()
            .map(|x| printable(player_name(&x.player)).into_owned())
            .collect();
        anyhow::bail!(
            "{}: no player {p:?} (players: {})",
            file.display(),
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        );
    }
    s.players.retain(|x| x.player.as_deref() == key);
    Ok(())
}

/// How the demo's (and autopilot's) games are named: PySolFC records them under no player.
const DEMO: &str = "(demo)";

fn game_name(id: i64) -> String {
    match id {
        FREECELL_GAME_ID => format!("{id} (FreeCell)"),
        0 => "all games".to_string(),
        _ => id.to_string(),
    }
}

fn player_name(p: &Option<String>) -> &str {
    p.as_deref().unwrap_or(DEMO)
}

/// `text` from the file with its control characters escaped (`\n`, `\u{1b}`), so that a
/// name cannot break a line or drive the terminal (JSON output escapes them anyway).
fn printable(text: &str) -> std::borrow::Cow<'_, str> {
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

fn print_stats(path: &Path, s: &StatsFile) -> anyhow::Result<()> {
    let version = s.version.as_ref().map_or("?".to_string(), |v| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(".")
    });
    if s.version.is_none() && s.saved.is_none() && path.is_dir() {
        outln!(
            "{}: a PySolFC profile with no statistics.dat yet",
            path.display()
        );
    } else {
        outln!(
            "{}: written by PySolFC {version}, saved {}",
            path.display(),
            crate::cmd::plural(s.saved.unwrap_or(0), "time")
        );
    }
    if s.players.is_empty() {
        outln!("  no games recorded");
    }
    for p in &s.players {
        outln!("player {}", printable(player_name(&p.player)));
        for g in p.games.iter().chain(p.all_games.iter()) {
            print_game(g)?;
        }
        if !p.past_games.is_empty() {
            outln!("  past games:");
        }
        for g in &p.past_games {
            outln!(
                "    {}  game {}  {}  {:?}",
                date_utc(&g.date),
                g.game_id.map_or("?".into(), |i| i.to_string()),
                printable(g.game_number.as_deref().unwrap_or("?")),
                g.result
            );
        }
    }
    Ok(())
}

/// A date as the statistics give it (UTC), said so: `2026-11-29 22:28:00 UTC`, or `?`.
fn date_utc(date: &Option<String>) -> String {
    date.as_ref().map_or("?".into(), |d| format!("{d} UTC"))
}

fn print_game(g: &GameStats) -> anyhow::Result<()> {
    outln!(
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
    let line =
        |what: &str, unit: &str, r: &Option<ResultStats>| -> anyhow::Result<()> {
            if let Some(r) = r.as_ref().filter(|r| r.count > 0) {
                outln!(
                "    {what}: best {:.1}{unit}, average {:.1}{unit}, total {:.1}{unit} over {} won",
                r.best, r.average, r.total, r.count
            );
            }
            Ok(())
        };
    line("time", " s", &g.time)?;
    line("moves", "", &g.moves)
}

fn run_diff(args: &Args, before: &Path, after: &Path) -> anyhow::Result<i32> {
    let load = |p: &Path| {
        stats::load_or_empty_profile(p)
            .map_err(|e| text_hint(&stats::resolve_path(p).unwrap_or(p.to_path_buf()), e.into()))
    };
    let (b_path, mut b) = load(before)?;
    let (a_path, mut a) = load(after)?;
    warn_trailing(&b_path, &b);
    warn_trailing(&a_path, &a);
    // The player must be known to the file after the game; before it, the player may not
    // exist yet (their first game), which leaves nothing to compare against.
    filter(&mut a, args, &a_path, true)?;
    if args
        .player
        .as_deref()
        .is_some_and(|p| b.player(Some(p)).is_none())
    {
        b.players.clear();
    } else {
        filter(&mut b, args, &b_path, false)?;
    }
    // `--game-id 0` asks for the all-games totals: their changes are the answer.
    let d = stats_diff::diff_with_totals(&b, &a, args.game_id == Some(0));
    if let Some(w) = &d.warning {
        crate::note!("fcauto stats: warning: {w}");
    }
    if args.json {
        #[derive(Serialize)]
        struct Out<'a> {
            before: String,
            after: String,
            /// Bytes after each file's pickle, ignored (as `stats --json`'s `trailing_bytes`).
            before_trailing_bytes: usize,
            after_trailing_bytes: usize,
            #[serde(flatten)]
            diff: &'a StatsDiff,
        }
        let out = Out {
            before: b_path.display().to_string(),
            after: a_path.display().to_string(),
            before_trailing_bytes: b.trailing_bytes,
            after_trailing_bytes: a.trailing_bytes,
            diff: &d,
        };
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(0);
    }
    if d.is_empty() {
        outln!("no changes");
    }
    let fmt = |name: &str, x: &Delta| format!("{name} {} -> {} ({:+})", x.before, x.after, x.delta);
    for c in &d.changes {
        let game = if c.game_id == 0 {
            "all games".to_string()
        } else {
            format!("game {}", game_name(c.game_id))
        };
        outln!(
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
        outln!(
            "new past game: player {}, {}  game {}  {}  {:?}",
            printable(player_name(&n.player)),
            date_utc(&n.game.date),
            n.game.game_id.map_or("?".into(), |i| i.to_string()),
            printable(n.game.game_number.as_deref().unwrap_or("?")),
            n.game.result
        );
    }
    Ok(0)
}

/// True when `file` is readable text that starts as a config file does (a `#` comment or a
/// `[section]` line, as PySolFC's options.cfg; statistics.dat is a binary pickle).
fn starts_like_config(file: &Path) -> bool {
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
fn looks_like_statistics(file: &Path) -> bool {
    use std::io::Read;
    if !file.is_file() {
        return file.file_name().is_some_and(|n| n == "statistics.dat");
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(file).and_then(|f| f.take(4).read_to_end(&mut head));
    file.file_name().is_some_and(|n| n == "statistics.dat")
        || (read.is_ok() && fcauto_deals::text::looks_like_pickle(&head))
}

/// `--options`: `path` is a profile folder, a statistics.dat (by name, or a pickle) with
/// options.cfg beside it, or else an options file, as options.cfg (whatever its name: one
/// that is not one is read and named for what it is, never taken for a statistics.dat).
fn run_options(args: &Args, path: &Path) -> anyhow::Result<i32> {
    let takes = "--options takes a profile folder, an options.cfg or a statistics.dat";
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            bail!("{} does not exist ({takes})", path.display())
        }
        Err(e) => bail!("cannot read {}: {e}", path.display()),
        // A FIFO or a device would be waited on forever, or read without end.
        Ok(m) if !m.is_dir() && !m.is_file() => {
            bail!("{} is not a file or a folder ({takes})", path.display())
        }
        Ok(_) => {}
    }
    let (cfg, stats_file) = if path.is_dir() {
        (path.join("options.cfg"), path.join("statistics.dat"))
    } else if !path.exists() || looks_like_statistics(path) {
        (path.with_file_name("options.cfg"), path.to_path_buf())
    } else {
        (path.to_path_buf(), path.with_file_name("statistics.dat"))
    };
    // A held or saved game (a pickle, but no statistics) is named for what it is, even with
    // an options.cfg beside it, as it is in a real profile, and so is one named
    // options.cfg in a profile folder (rather than called "not UTF-8 text").
    for file in [path, cfg.as_path()] {
        if file.is_file() && fcauto_automation::pysol::savedgame::read_any(file).is_ok() {
            bail!(
                "{} is a PySolFC saved or held game, not an options file or a statistics.dat ({takes}); `fcauto analyze` reads FreeCell games",
                file.display()
            );
        }
    }
    if !cfg.is_file() {
        let place = if path.is_dir() { "in" } else { "beside" };
        bail!("no options.cfg {place} {} ({takes})", path.display());
    }
    let opts = OptionsFile::load(&cfg)?;
    let mut summary: OptionsSummary = opts.summary();
    if let Some(s) = stats::load_optional(&stats_file).ok().flatten() {
        let player = summary.player.clone();
        summary.last_game_number = s
            .player(player.as_deref())
            .and_then(|p| p.past_games.last())
            .and_then(|g| g.game_number.clone());
    }
    let problems = opts.replay_problems();
    if args.json {
        #[derive(Serialize)]
        struct Out<'a> {
            path: String,
            #[serde(flatten)]
            summary: &'a OptionsSummary,
            replay_problems: &'a [String],
        }
        let out = Out {
            path: cfg.display().to_string(),
            summary: &summary,
            replay_problems: &problems,
        };
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        outln!("{}:", cfg.display());
        let v = serde_json::to_value(&summary)?;
        for (k, val) in v.as_object().into_iter().flatten() {
            outln!("  {k}: {val}");
        }
        outln!(
            "  settings that differ from automated replay: {}",
            problems.len()
        );
        for p in &problems {
            outln!("    {}", printable(p));
        }
    }
    Ok(0)
}

/// `--game-id ID`: PySolFC's game ids are whole numbers, 0 or more (FreeCell is 8).
fn parse_game_id(s: &str) -> std::result::Result<i64, String> {
    s.trim()
        .parse::<i64>()
        .ok()
        .filter(|&id| id >= 0)
        .ok_or_else(|| {
            format!("`{s}` is not a PySolFC game id (a whole number, 0 or more: FreeCell is 8)")
        })
}
