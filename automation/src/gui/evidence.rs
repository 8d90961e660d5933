//! The evidence bundle written to `--results DIR`: JSON/CSV/text writers, the list of
//! screenshots and the log of switches between evidence channels (`channels.json`).

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::GuiError;

/// PySolFC's profile files as copied into the bundle (names relative to it; `None`: the
/// file did not exist).
#[derive(Clone, Debug, Default)]
pub(super) struct ProfileCopies {
    /// `<sub>/statistics.dat`.
    pub(super) statistics: Option<String>,
    /// `<sub>/options.cfg`.
    pub(super) options: Option<String>,
}

/// One switch between evidence sources, e.g. from the solver to the mouse.
#[derive(Clone, Debug, Serialize)]
pub struct Switch {
    /// Replay step at which it happened (0 before the first move).
    pub step: usize,
    /// The channel: `solver`, `fc-solve`, `screenshot`, `ocr`, `mouse`, `statistics`.
    pub channel: String,
    /// The program or format that produced the evidence: `fcauto`, `fc-solve`, `xcap`,
    /// `tesseract`, `enigo`, `pickle` (PySolFC's statistics.dat).
    pub tool: String,
    /// The bundle file this evidence went to (`view_play_5.png`, `solution.json`, ...), if
    /// one.
    pub file: Option<String>,
}

/// One executed move in `play_log.csv`.
#[derive(Clone, Debug, Serialize)]
pub struct PlayRow {
    /// 1-based step.
    pub step: usize,
    /// Source location token.
    pub from: String,
    /// Destination location token.
    pub to: String,
    /// Moved card (deepest of a run).
    pub card: String,
    /// Top card of the source as seen on screen before the move (`-` if empty).
    pub pre_top: String,
    /// Top card of the destination as seen on screen after the move (`-` if empty).
    pub post_top: String,
    /// Screenshot file written after this step, or empty.
    pub screenshot: String,
}

/// The results directory being filled.
#[derive(Debug)]
pub struct Bundle {
    /// The directory.
    pub dir: PathBuf,
    /// Channel switches so far.
    pub switches: Vec<Switch>,
    /// Screenshot files written so far (names relative to `dir`).
    pub screenshots: Vec<String>,
}

/// The files a bundle holds (besides `view_*.png` screenshots and [`FOLDERS`]).
pub const FILES: [&str; 17] = [
    "board.txt",
    "board_match.json",
    "board_seen.json",
    "board_verify.json",
    "channels.json",
    "deal_seed.json",
    "fcsolve_raw.log",
    "move_kind_histogram.json",
    "play_log.csv",
    "play_verify.json",
    "pysol_options.json",
    "pysol_stats.json",
    "pysolfc.log",
    "report.json",
    "solution.json",
    "summary.md",
    MARKER,
];
/// The folders a bundle holds: PySolFC's files before and after the run, the held game.
pub const FOLDERS: [&str; 3] = ["pysol_before", "pysol_after", "held_game"];
/// The mark of a folder a `play` run wrote its bundle into: JSON `{"kept": [names]}`, the
/// entries that were there before it (the folder's other entries of a bundle's names are
/// that run's, and the next run replaces them).
pub const MARKER: &str = ".fcauto-play";

/// True when `name` (a folder entry) is one a bundle writes: one of [`FILES`] or
/// [`FOLDERS`], or a screenshot (`view_pysol_initial.png`, `view_pysol_won.png`,
/// `view_play_N.png`, `view_recovery_N.png`). Only these names: another `view_*.png` is a
/// file of yours, kept.
pub fn is_bundle_name(name: &str) -> bool {
    let numbered = |prefix: &str| {
        name.strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(".png"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    FILES.contains(&name)
        || FOLDERS.contains(&name)
        || matches!(name, "view_pysol_initial.png" | "view_pysol_won.png")
        || numbered("view_play_")
        || numbered("view_recovery_")
}

/// What an existing `dir` holds, for a run to write its bundle there: the entries to keep
/// (not a bundle's, or there before the earlier run that marked the folder) and those of an
/// earlier run's bundle, which the new run removes. Reads only.
///
/// Errors: `dir` is not a folder, cannot be read, or holds an entry of a bundle's name that
/// no earlier `play` wrote (a file of yours would be replaced).
pub fn survey(dir: &Path) -> Result<(Vec<String>, Vec<String>), GuiError> {
    let name = dir.display();
    let entries = match fs::read_dir(dir) {
        Ok(rd) => rd
            .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| GuiError::Evidence(format!("cannot read {name}: {e}")))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(_) if dir.exists() && !dir.is_dir() => {
            return Err(GuiError::Evidence(format!(
                "--results {name} is a file, not a folder: give a folder for the evidence"
            )))
        }
        Err(e) => return Err(GuiError::Evidence(format!("cannot read {name}: {e}"))),
    };
    let kept_before: Option<Vec<String>> = fs::read_to_string(dir.join(MARKER))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| serde_json::from_value(v["kept"].clone()).ok());
    let (mut keep, mut earlier) = (Vec::new(), Vec::new());
    for e in entries {
        let ours = is_bundle_name(&e)
            && kept_before
                .as_ref()
                .is_some_and(|k| !k.contains(&e) || e == MARKER);
        if ours {
            earlier.push(e);
        } else {
            keep.push(e);
        }
    }
    let mut clash: Vec<&String> = keep.iter().filter(|e| is_bundle_name(e)).collect();
    clash.sort();
    if !clash.is_empty() {
        let list: Vec<&str> = clash.iter().take(5).map(|s| s.as_str()).collect();
        return Err(GuiError::Evidence(format!(
            "--results {name} holds {}{} under the names a bundle writes, and no earlier `play` \
             wrote {}: give a new or empty folder, or move {} away (a bundle from before \
             fcauto marked its folders is removed by hand)",
            list.join(", "),
            if clash.len() > 5 { ", ..." } else { "" },
            if clash.len() == 1 { "it" } else { "them" },
            if clash.len() == 1 { "it" } else { "them" },
        )));
    }
    Ok((keep, earlier))
}

impl Bundle {
    /// Create `dir`, or take an existing one as [`survey`] allows: an earlier run's bundle
    /// there is removed (so that no file of it is read as this run's), the folder's other
    /// entries are kept, and the folder is marked ([`MARKER`]).
    pub fn create(dir: &Path) -> Result<Bundle, GuiError> {
        let (keep, earlier) = survey(dir)?;
        fs::create_dir_all(dir)
            .map_err(|e| GuiError::Evidence(format!("create {}: {e}", dir.display())))?;
        for e in &earlier {
            let p = dir.join(e);
            let gone = if p.is_dir() && !p.is_symlink() {
                fs::remove_dir_all(&p)
            } else {
                fs::remove_file(&p)
            };
            gone.map_err(|err| GuiError::Evidence(format!("remove the earlier run's {e}: {err}")))?;
        }
        let b = Bundle {
            dir: dir.to_path_buf(),
            switches: Vec::new(),
            screenshots: Vec::new(),
        };
        b.json(MARKER, &serde_json::json!({ "kept": keep }))?;
        Ok(b)
    }

    /// Path of a file in the bundle (`name` one of [`is_bundle_name`]'s, or in one of
    /// [`FOLDERS`]).
    pub fn path(&self, name: &str) -> PathBuf {
        debug_assert!(
            is_bundle_name(name.split('/').next().unwrap_or(name)),
            "{name} is not a bundle's name (evidence::FILES)"
        );
        self.dir.join(name)
    }

    /// Record that evidence now comes from `channel` via `tool` (only a change is recorded).
    pub fn channel(&mut self, step: usize, channel: &str, tool: &str) {
        if self
            .switches
            .last()
            .map(|s| s.channel != channel || s.tool != tool)
            .unwrap_or(true)
        {
            self.switches.push(Switch {
                step,
                channel: channel.into(),
                tool: tool.into(),
                file: None,
            });
        }
    }

    /// Record that `channel` via `tool` produced the bundle file `file` at `step`: named on
    /// the current switch when it is that channel and tool at that step and names no file
    /// yet, else as a switch of its own.
    pub fn evidence(&mut self, step: usize, channel: &str, tool: &str, file: &str) {
        match self.switches.last_mut() {
            Some(s)
                if s.step == step && s.channel == channel && s.tool == tool && s.file.is_none() =>
            {
                s.file = Some(file.into())
            }
            _ => self.switches.push(Switch {
                step,
                channel: channel.into(),
                tool: tool.into(),
                file: Some(file.into()),
            }),
        }
    }

    /// Copy `src` into the bundle as `<sub>/<file name>` (read-only on `src`), returning that
    /// name; `Ok(None)` when `src` does not exist (and a copy left there by an earlier run is
    /// removed, so the folder shows what this run found).
    pub fn copy_in(&self, sub: &str, src: &Path) -> Result<Option<String>, GuiError> {
        let Some(file_name) = src.file_name() else {
            return Err(GuiError::Evidence(format!("{}: not a file", src.display())));
        };
        self.copy_in_as(sub, src, &file_name.to_string_lossy())
    }

    /// [`Bundle::copy_in`] under the name `file_name` (a held game of any name is the
    /// bundle's `held_game/holdgame.dat`, the name PySolFC gives it).
    pub fn copy_in_as(
        &self,
        sub: &str,
        src: &Path,
        file_name: &str,
    ) -> Result<Option<String>, GuiError> {
        let name = format!("{sub}/{file_name}");
        if !src.exists() {
            return match fs::remove_file(self.path(&name)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    Err(GuiError::Evidence(format!("remove stale {name}: {e}")))
                }
                _ => Ok(None),
            };
        }
        fs::create_dir_all(self.path(sub))
            .map_err(|e| GuiError::Evidence(format!("create {sub}: {e}")))?;
        fs::copy(src, self.path(&name))
            .map_err(|e| GuiError::Evidence(format!("copy {} to {name}: {e}", src.display())))?;
        Ok(Some(name))
    }

    /// Distinct channels used, in first-use order.
    pub fn channels_used(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for s in &self.switches {
            if !out.contains(&s.channel) {
                out.push(s.channel.clone());
            }
        }
        out
    }

    /// Write `value` as pretty JSON to `name`.
    pub fn json<T: Serialize + ?Sized>(&self, name: &str, value: &T) -> Result<(), GuiError> {
        let text = serde_json::to_string_pretty(value)
            .map_err(|e| GuiError::Evidence(format!("{name}: {e}")))?;
        self.text(name, &(text + "\n"))
    }

    /// Write text to `name`.
    pub fn text(&self, name: &str, text: &str) -> Result<(), GuiError> {
        fs::write(self.path(name), text)
            .map_err(|e| GuiError::Evidence(format!("write {name}: {e}")))
    }

    /// Write `play_log.csv`.
    pub fn play_log(&self, rows: &[PlayRow]) -> Result<(), GuiError> {
        let err = |e: csv::Error| GuiError::Evidence(format!("play_log.csv: {e}"));
        let mut w = csv::Writer::from_path(self.path("play_log.csv")).map_err(err)?;
        for r in rows {
            w.serialize(r).map_err(err)?;
        }
        w.flush()
            .map_err(|e| GuiError::Evidence(format!("play_log.csv: {e}")))
    }

    /// Write `channels.json` ({switches, switch_count}).
    pub fn write_channels(&self) -> Result<(), GuiError> {
        self.json(
            "channels.json",
            &serde_json::json!({ "switches": self.switches, "switch_count": self.switches.len() }),
        )
    }

    /// Save a PNG named `name` and remember it as a screenshot.
    pub fn png(&mut self, name: &str, img: &image::RgbaImage) -> Result<(), GuiError> {
        img.save(self.path(name))
            .map_err(|e| GuiError::Evidence(format!("{name}: {e}")))?;
        if !self.screenshots.iter().any(|s| s == name) {
            self.screenshots.push(name.to_string());
        }
        Ok(())
    }
}

/// Per-kind move counts for `move_kind_histogram.json`.
pub fn kind_histogram<'a>(kinds: impl Iterator<Item = &'a str>) -> serde_json::Value {
    let names = [
        "stack_to_foundation",
        "stack_to_freecell",
        "freecell_to_foundation",
        "stack_to_stack",
        "freecell_to_stack",
    ];
    let mut counts = [0usize; 5];
    let mut total = 0;
    for k in kinds {
        if let Some(i) = names.iter().position(|n| *n == k) {
            counts[i] += 1;
        }
        total += 1;
    }
    let mut m = serde_json::Map::new();
    for (n, c) in names.iter().zip(counts) {
        m.insert(n.to_string(), c.into());
    }
    m.insert("total".into(), total.into());
    serde_json::Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The screenshots' names are the bundle's, other `view_*.png` files are a user's.
    #[test]
    fn only_the_screenshots_names_are_the_bundles() {
        for name in [
            "view_pysol_initial.png",
            "view_pysol_won.png",
            "view_play_25.png",
            "view_recovery_3.png",
            "report.json",
            "held_game",
        ] {
            assert!(is_bundle_name(name), "{name}");
        }
        for name in [
            "view_annotated.png",
            "view_play_.png",
            "view_play_5b.png",
            "view_recovery_3.jpg",
            "notes.txt",
        ] {
            assert!(!is_bundle_name(name), "{name}");
        }
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    /// A results folder takes a bundle when it is new, or holds only files of other names
    /// (kept), or an earlier run's bundle (removed first: no file of it is read as the new
    /// run's); files of yours under a bundle's names are refused before anything is written,
    /// and so is a file given as the folder (a user's report.json, summary.md, screenshot or
    /// pysol_before/options.cfg is never replaced, and a failed run never leaves an earlier
    /// win's report beside its own files).
    #[test]
    fn a_results_folder_keeps_your_files_and_drops_the_last_bundle() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("r");
        // A run: the folder made and marked, a bundle written.
        let b = Bundle::create(&dir).unwrap();
        b.text("report.json", "{}").unwrap();
        b.text("summary.md", "won").unwrap();
        fs::create_dir(dir.join("pysol_before")).unwrap();
        fs::write(dir.join("pysol_before/options.cfg"), "x").unwrap();
        fs::write(dir.join("view_play_5.png"), "png").unwrap();
        // Notes of yours added afterwards are kept by the next run; the bundle is not.
        fs::write(dir.join("notes.txt"), "mine").unwrap();
        Bundle::create(&dir).unwrap();
        assert_eq!(names(&dir), [".fcauto-play", "notes.txt"]);
        let marker = fs::read_to_string(dir.join(MARKER)).unwrap();
        assert!(marker.contains("notes.txt"), "{marker}");

        // A folder of yours: other names kept, a bundle's names refused, nothing written.
        let mine = t.path().join("mine");
        fs::create_dir(&mine).unwrap();
        fs::write(mine.join("notes.txt"), "mine").unwrap();
        Bundle::create(&mine).unwrap();
        fs::remove_file(mine.join(MARKER)).unwrap();
        fs::write(mine.join("report.json"), "{\"mine\": 1}").unwrap();
        fs::create_dir(mine.join("pysol_before")).unwrap();
        let e = Bundle::create(&mine).unwrap_err().to_string();
        assert!(
            e.contains("holds pysol_before, report.json under the names a bundle writes"),
            "{e}"
        );
        assert_eq!(names(&mine), ["notes.txt", "pysol_before", "report.json"]);
        assert_eq!(
            fs::read_to_string(mine.join("report.json")).unwrap(),
            "{\"mine\": 1}"
        );
        // A file where the folder should be.
        let e = Bundle::create(&mine.join("notes.txt"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("is a file, not a folder"), "{e}");
    }

    /// Every name a bundle writes is one of its names (the refusal above depends on it).
    #[test]
    fn bundle_names() {
        for n in FILES.iter().chain(FOLDERS.iter()) {
            assert!(is_bundle_name(n));
        }
        assert!(is_bundle_name("view_recovery_3.png") && is_bundle_name("view_pysol_won.png"));
        assert!(!is_bundle_name("notes.txt") && !is_bundle_name("view_1.jpg"));
    }
}
