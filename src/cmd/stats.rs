//! `fcauto stats`: decode PySolFC's statistics.dat (read-only, no code execution) and
//! compare two of them.
//!
//! Output shapes: `--json` prints [`fcauto_automation::pysol::stats::StatsFile`] with a
//! `path` field added (its `trailing_bytes` counts bytes after the pickle, ignored as
//! PySolFC ignores them, and also named in a warning on stderr; each player's all-games
//! totals are its `all_games`, whose `game_id` is `null`); `--diff --json` prints
//! [`fcauto_automation::pysol::stats_diff::StatsDiff`] with `before` and `after` paths (its
//! `warning`, also printed on stderr, says when counts went down: a reset or two profiles);
//! `--options --json` prints the options.cfg summary and the replay problems. The selection,
//! the texts and the JSON shapes are [`fcauto_automation::pysol::report`]'s.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use fcauto_automation::pysol::options::OptionsFile;
use fcauto_automation::pysol::stats::{self, StatsFile};
use fcauto_automation::pysol::{profile, report};

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
    let (file, mut s) = load(&path)?;
    warn_trailing(&file, &s);
    selection(&args).apply(&mut s, &file, true)?;
    if args.json {
        let out = report::StatsJson {
            path: file.display().to_string(),
            stats: &s,
        };
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        out!("{}", report::stats_text(&file, &s, file.is_dir()));
    }
    Ok(0)
}

/// The `--player` and `--game-id` to report.
fn selection(args: &Args) -> report::Selection<'_> {
    report::Selection {
        player: args.player.as_deref(),
        game_id: args.game_id,
    }
}

/// The statistics of `path` (a file, or a profile folder, which may have none yet), and
/// the file read; a file that cannot be read is named with [`text_hint`]'s hint.
fn load(path: &Path) -> anyhow::Result<(PathBuf, StatsFile)> {
    stats::load_or_empty_profile(path).map_err(|e| {
        let file = stats::resolve_path(path).unwrap_or(path.to_path_buf());
        text_hint(&file, e.into())
    })
}

/// `e`, a statistics.dat that could not be read, with a hint when the file is text that
/// starts as a config file does (a `#` comment or a `[section]` line, as PySolFC's
/// options.cfg): statistics.dat is a binary pickle, and `--options` shows options.cfg.
fn text_hint(file: &Path, e: anyhow::Error) -> anyhow::Error {
    if !report::starts_like_config(file) {
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

fn run_diff(args: &Args, before: &Path, after: &Path) -> anyhow::Result<i32> {
    let (b_path, mut b) = load(before)?;
    let (a_path, mut a) = load(after)?;
    warn_trailing(&b_path, &b);
    warn_trailing(&a_path, &a);
    let d = selection(args).diff((&mut b, &b_path), (&mut a, &a_path))?;
    if let Some(w) = &d.warning {
        crate::note!("fcauto stats: warning: {w}");
    }
    if args.json {
        let out = report::DiffJson {
            before: b_path.display().to_string(),
            after: a_path.display().to_string(),
            before_trailing_bytes: b.trailing_bytes,
            after_trailing_bytes: a.trailing_bytes,
            diff: &d,
        };
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        out!("{}", report::diff_text(&d));
    }
    Ok(0)
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
    let (cfg, stats_file) = report::options_paths(path);
    // A held or saved game (a pickle, but no statistics) is named for what it is, even with
    // an options.cfg beside it, as it is in a real profile, and so is one named options.cfg
    // in a profile folder (which would otherwise be refused as "not UTF-8 text").
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
    let summary = report::options_summary(&opts, &stats_file);
    let problems = opts.replay_problems();
    if args.json {
        let out = report::OptionsJson {
            path: cfg.display().to_string(),
            summary: &summary,
            replay_problems: &problems,
        };
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        out!("{}", report::options_text(&cfg, &summary, &problems)?);
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
