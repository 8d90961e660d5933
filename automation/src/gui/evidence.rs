//! The evidence bundle written to `--results DIR`: JSON/CSV/text writers, the list of
//! screenshots and the log of switches between evidence channels (`channels.json`).

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::GuiError;

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

impl Bundle {
    /// Create (or reuse) `dir`.
    pub fn create(dir: &Path) -> Result<Bundle, GuiError> {
        fs::create_dir_all(dir)
            .map_err(|e| GuiError::Evidence(format!("create {}: {e}", dir.display())))?;
        Ok(Bundle {
            dir: dir.to_path_buf(),
            switches: Vec::new(),
            screenshots: Vec::new(),
        })
    }

    /// Path of a file in the bundle.
    pub fn path(&self, name: &str) -> PathBuf {
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
        let name = format!("{sub}/{}", file_name.to_string_lossy());
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
