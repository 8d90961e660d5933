//! Read and write PySolFC's `options.cfg` (configobj syntax, `pysollib/options.py`).
//!
//! The file is `[section]` headers and `key = value` lines; values are unquoted text,
//! `"quoted"` text, or comma-separated lists (`Standard, back111.gif`, `8,`). PySolFC
//! rewrites the whole file with every key on a clean quit (`Options.save`), so edit it
//! only while PySolFC is not running. [`OptionsFile`] keeps lines, order and comments, and
//! only changes the lines it is told to set. Nested `[[sub]]` sections and triple-quoted
//! multi-line values (PySolFC writes neither) are refused.

use std::path::Path;

use serde::Serialize;

/// Largest options.cfg accepted, in bytes (PySolFC writes about 4 KiB).
pub const MAX_OPTIONS_BYTES: u64 = 1 << 20;

/// Errors reading or parsing options.cfg; one line each.
#[derive(Debug, thiserror::Error)]
pub enum OptionsError {
    /// Reading failed (including "is a directory").
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// Larger than [`MAX_OPTIONS_BYTES`].
    #[error("{path}: {size} bytes is too large for options.cfg (limit {MAX_OPTIONS_BYTES})")]
    TooLarge {
        /// The file.
        path: String,
        /// Its size.
        size: u64,
    },
    /// Not UTF-8 text.
    #[error("{path}: not UTF-8 text ({why})")]
    NotText {
        /// The file.
        path: String,
        /// What it is instead, or where its first bad byte is
        /// ([`fcauto_deals::text::text_of`]).
        why: String,
    },
    /// A line that is not a comment, section or `key = value`.
    #[error("line {line}: {reason}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A file's line that is not a comment, section or `key = value` ([`OptionsFile::load`]).
    #[error("{path}: line {line}: {reason}")]
    FileSyntax {
        /// The file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// No `[general]` section: not PySolFC's options.cfg (an empty file, say).
    #[error("{path}: no [general] section: not PySolFC's options.cfg")]
    NotOptions {
        /// The file.
        path: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Line {
    Other(String),
    Section(String),
    Entry { key: String, value: String },
}

/// A parsed options.cfg that can be edited and written back.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OptionsFile {
    lines: Vec<Line>,
}

impl OptionsFile {
    /// Parse configobj text. Errors: [`OptionsError::Syntax`], including a key given twice in
    /// one section and a section given twice (configobj's `DuplicateError`: PySolFC does not
    /// start with such a file).
    pub fn parse(text: &str) -> Result<OptionsFile, OptionsError> {
        let mut lines = Vec::new();
        // Where each section, and each key of the current one, was first given (1-based).
        let mut sections: Vec<(String, usize)> = Vec::new();
        let mut keys: Vec<(String, usize)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let t = raw.trim();
            let syntax = |reason: &str| OptionsError::Syntax {
                line: i + 1,
                reason: reason.into(),
            };
            if t.is_empty() || t.starts_with('#') {
                lines.push(Line::Other(raw.to_string()));
            } else if t.starts_with("[[") {
                return Err(syntax("nested sections are not supported"));
            } else if let Some(rest) = t.strip_prefix('[') {
                let raw = rest
                    .strip_suffix(']')
                    .ok_or_else(|| syntax("unclosed [section]"))?
                    .trim();
                // configobj reads `["general"]` as `[general]`, and cannot read `[]` (PySolFC
                // then starts from its defaults), so a section with no name is refused.
                let name = unquote(raw);
                if name.trim().is_empty() {
                    return Err(syntax(
                        "a section with no name: PySolFC cannot read this file and starts from \
                         its defaults",
                    ));
                }
                let name = name.trim();
                if let Some((_, first)) = sections.iter().find(|(s, _)| s == name) {
                    return Err(syntax(&format!(
                        "[{name}] again (first on line {first}): PySolFC does not start with a \
                         section given twice"
                    )));
                }
                sections.push((name.to_string(), i + 1));
                keys.clear();
                lines.push(Line::Section(name.to_string()));
            } else if let Some((k, v)) = t.split_once('=') {
                let value = strip_comment(v.trim());
                if value.starts_with("\"\"\"") || value.starts_with("'''") {
                    return Err(syntax("multi-line values are not supported"));
                }
                // `"autodrop" = x` is `autodrop` to configobj.
                let key = unquote(k.trim());
                let key = key.as_str();
                if let Some((_, first)) = keys.iter().find(|(k, _)| k == key) {
                    return Err(syntax(&format!(
                        "`{key}` again (first on line {first}): PySolFC does not start with a \
                         key given twice in a section"
                    )));
                }
                keys.push((key.to_string(), i + 1));
                lines.push(Line::Entry {
                    key: key.to_string(),
                    value: value.to_string(),
                });
            } else {
                return Err(syntax("expected `key = value`, `[section]` or a comment"));
            }
        }
        Ok(OptionsFile { lines })
    }

    /// Read and parse a file of at most [`MAX_OPTIONS_BYTES`].
    pub fn load(path: &Path) -> Result<OptionsFile, OptionsError> {
        use std::io::Read;
        let p = path.display().to_string();
        let io = |source| OptionsError::Io {
            path: p.clone(),
            source,
        };
        let f = std::fs::File::open(path).map_err(io)?;
        let mut buf = Vec::new();
        f.take(MAX_OPTIONS_BYTES + 1)
            .read_to_end(&mut buf)
            .map_err(io)?;
        if buf.len() as u64 > MAX_OPTIONS_BYTES {
            // A large file that is no text (a picture, an archive) is named for what it is.
            if let Some(why) = fcauto_deals::text::opening_not_text(&buf) {
                return Err(OptionsError::NotText { path: p, why });
            }
            let size = std::fs::metadata(path).map_or(buf.len() as u64, |m| m.len());
            return Err(OptionsError::TooLarge { path: p, size });
        }
        let text = fcauto_deals::text::text_of(buf).map_err(|why| OptionsError::NotText {
            path: p.clone(),
            why,
        })?;
        // A byte-order mark (Windows editors write one) is no part of the first line.
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let opts = OptionsFile::parse(text).map_err(|e| match e {
            OptionsError::Syntax { line, reason } => OptionsError::FileSyntax {
                path: p.clone(),
                line,
                reason,
            },
            other => other,
        })?;
        let general = opts
            .lines
            .iter()
            .any(|l| matches!(l, Line::Section(s) if s == "general"));
        if !general {
            return Err(OptionsError::NotOptions { path: p });
        }
        Ok(opts)
    }

    /// The raw value of `key` in `[section]` (quotes kept), if present.
    pub fn get_raw(&self, section: &str, key: &str) -> Option<&str> {
        let mut cur = "";
        for l in &self.lines {
            match l {
                Line::Section(s) => cur = s,
                Line::Entry { key: k, value } if cur == section && k == key => return Some(value),
                _ => {}
            }
        }
        None
    }

    /// The value as text: surrounding quotes removed.
    pub fn get(&self, section: &str, key: &str) -> Option<String> {
        self.get_raw(section, key).map(unquote)
    }

    /// The value as a configobj list (`a, b` → `["a", "b"]`, `8,` → `["8"]`).
    pub fn get_list(&self, section: &str, key: &str) -> Option<Vec<String>> {
        self.get_raw(section, key).map(split_list)
    }

    /// The value as a Python boolean (`True`/`False`/`1`/`0`, any case).
    pub fn get_bool(&self, section: &str, key: &str) -> Option<bool> {
        truth(&self.get(section, key)?)
    }

    /// The value as an integer.
    pub fn get_i64(&self, section: &str, key: &str) -> Option<i64> {
        self.get(section, key)?.trim().parse().ok()
    }

    /// Set `key` in `[section]` to the raw `value` (write quotes yourself if needed),
    /// replacing the existing line or appending to the section (created at the end).
    pub fn set(&mut self, section: &str, key: &str, value: &str) {
        let mut cur = String::new();
        let mut last_in_section = None;
        for (i, l) in self.lines.iter_mut().enumerate() {
            match l {
                Line::Section(s) => cur = s.clone(),
                Line::Entry { key: k, value: v } if cur == section && k == key => {
                    *v = value.to_string();
                    return;
                }
                _ => {}
            }
            if cur == section {
                last_in_section = Some(i);
            }
        }
        let entry = Line::Entry {
            key: key.to_string(),
            value: value.to_string(),
        };
        match last_in_section {
            Some(i) => self.lines.insert(i + 1, entry),
            None => {
                self.lines.push(Line::Section(section.to_string()));
                self.lines.push(entry);
            }
        }
    }

    /// The file as configobj text (one `key = value` per line, `\n` endings).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for l in &self.lines {
            match l {
                Line::Other(s) => out.push_str(s),
                Line::Section(s) => {
                    out.push('[');
                    out.push_str(s);
                    out.push(']');
                }
                Line::Entry { key, value } => {
                    out.push_str(key);
                    out.push_str(" = ");
                    out.push_str(value);
                }
            }
            out.push('\n');
        }
        out
    }

    /// The settings that matter for automated play.
    pub fn summary(&self) -> OptionsSummary {
        let g = |k: &str| self.get("general", k);
        let b = |k: &str| self.get_bool("general", k);
        OptionsSummary {
            unreadable: self.unreadable(),
            player: g("player"),
            last_gameid: self.get_i64("general", "last_gameid"),
            game_holded: self.get_i64("general", "game_holded"),
            last_game_number: None,
            cardset: self
                .get_list("cardsets", "0")
                .and_then(|l| l.into_iter().next()),
            auto_scale: self.get_bool("cardsets", "auto_scale"),
            animations: self.get_i64("general", "animations"),
            autodrop: b("autodrop"),
            mouse_type: g("mouse_type"),
            splashscreen: b("splashscreen"),
            update_player_stats: b("update_player_stats"),
            center_layout: b("center_layout"),
            compact_stacks: b("compact_stacks"),
            confirm: b("confirm"),
            sound: b("sound"),
        }
    }

    /// Settings of a known type (the summary's, and [`REPLAY_SETTINGS`]' booleans and whole
    /// numbers) whose value is not of it, in file order: `section.key = value: not a whole
    /// number` (PySolFC does not read them either). A summary field of such a key is `None`,
    /// as an unset one is: this names the difference.
    pub fn unreadable(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut section = "";
        for l in &self.lines {
            match l {
                Line::Section(s) => section = s,
                Line::Entry { key, value } => {
                    let Some(kind) = value_kind(section, key) else {
                        continue;
                    };
                    let v = unquote(value);
                    let read = match kind {
                        WHOLE => v.trim().parse::<i64>().is_ok(),
                        _ => truth(&v).is_some(),
                    };
                    if !read {
                        out.push(format!("{section}.{key} = {value}: not {kind}"));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Ways this file deviates from [`REPLAY_SETTINGS`] (`section.key: have X, want Y`).
    pub fn replay_problems(&self) -> Vec<String> {
        REPLAY_SETTINGS
            .iter()
            .filter_map(|&(sec, key, want)| {
                let have = self.get_raw(sec, key);
                let same = have.is_some_and(|h| same_setting(sec, key, h, want));
                (!same).then(|| {
                    format!(
                        "{sec}.{key}: have {}, want {want}",
                        have.unwrap_or("(unset)")
                    )
                })
            })
            .collect()
    }
}

/// A boolean setting's (unquoted) value as configobj's `validate` reads it, in any case:
/// `true`/`1`/`yes`/`on`, `false`/`0`/`no`/`off`; `None` for anything else.
fn truth(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// Equal as PySolFC reads them (configobj's `validate`): booleans by truth value (`off` =
/// `0` = `False`), whole numbers and decimals by value (`00` = `0`, `1` = `1.0`), cardset
/// entries by cardset name only (PySolFC adds the back image), the rest as text or list.
fn same_setting(section: &str, key: &str, have: &str, want: &str) -> bool {
    let truth = |v: &str| truth(unquote(v).trim());
    let number = |v: &str| unquote(v).trim().parse::<f64>().ok();
    if unquote(want).parse::<f64>().is_ok() {
        // A number setting (`animations`, `scale_x`): by value.
        return number(have) == number(want);
    }
    if let (Some(h), Some(w)) = (truth(have), truth(want)) {
        return h == w;
    }
    if section == "cardsets"
        && !key.is_empty()
        && key.chars().all(|c| c.is_ascii_digit() || c == '_')
    {
        return split_list(have).first() == split_list(want).first();
    }
    unquote(have) == unquote(want) || split_list(have) == split_list(want)
}

/// The options PySolFC needs for a deterministic automated replay (see the PySolFC 3.2
/// source: `options.py` defaults, `Game.getWinStatus`, `Layout`, `app.py` start-up):
/// `(section, key, raw value)`. Standard cardset at scale 1, no centring or compaction,
/// no animations, no auto-drop (fc-solve prints every foundation move), point-n-click, no
/// splash (its 20 s About dialog starts the demo), no sound, no held game.
pub const REPLAY_SETTINGS: &[(&str, &str, &str)] = &[
    ("general", "confirm", "False"),
    ("general", "update_player_stats", "True"),
    ("general", "autodrop", "False"),
    ("general", "quickplay", "False"),
    ("general", "highlight_piles", "False"),
    ("general", "highlight_cards", "False"),
    ("general", "highlight_samerank", "False"),
    ("general", "stuck_notification", "False"),
    ("general", "animations", "0"),
    ("general", "redeal_animation", "False"),
    ("general", "win_animation", "False"),
    ("general", "flip_animation", "False"),
    ("general", "compact_stacks", "False"),
    ("general", "shadow", "False"),
    ("general", "shade", "False"),
    ("general", "toolbar", "0"),
    ("general", "statusbar", "True"),
    ("general", "last_gameid", "8"),
    ("general", "game_holded", "0"),
    ("general", "wm_maximized", "False"),
    ("general", "wm_fullscreen", "False"),
    ("general", "splashscreen", "False"),
    ("general", "mouse_type", "point-n-click"),
    ("general", "mouse_undo", "False"),
    ("general", "save_games_geometry", "False"),
    ("general", "sound", "False"),
    ("general", "music", "False"),
    ("general", "tabletile_name", "None"),
    ("general", "center_layout", "False"),
    ("cardsets", "0", "Standard, \"\""),
    ("cardsets", "1", "Standard, \"\""),
    ("cardsets", "1_1", "Standard, \"\""),
    ("cardsets", "scale_cards", "False"),
    ("cardsets", "scale_x", "1.0"),
    ("cardsets", "scale_y", "1.0"),
    ("cardsets", "auto_scale", "False"),
    ("cardsets", "spread_stacks", "False"),
    ("cardsets", "resampling", "0"),
];

/// What a whole-number setting must be, in words.
const WHOLE: &str = "a whole number";
/// What a boolean setting must be, in words.
const TRUTH: &str = "true or false";

/// The type of setting `section.key`, in words ([`WHOLE`], [`TRUTH`]): the summary's, else
/// the type of its value in [`REPLAY_SETTINGS`]; `None` for text and lists.
fn value_kind(section: &str, key: &str) -> Option<&'static str> {
    if let Some(&(_, _, kind)) = SUMMARY_TYPES
        .iter()
        .find(|(s, k, _)| *s == section && *k == key)
    {
        return Some(kind);
    }
    let (_, _, want) = REPLAY_SETTINGS
        .iter()
        .find(|(s, k, _)| *s == section && *k == key)?;
    match *want {
        "True" | "False" => Some(TRUTH),
        w if w.parse::<i64>().is_ok() => Some(WHOLE),
        _ => None,
    }
}

/// The summary's keys read as numbers or booleans: section, key, what they must be.
const SUMMARY_TYPES: [(&str, &str, &str); 11] = [
    ("general", "last_gameid", WHOLE),
    ("general", "game_holded", WHOLE),
    ("general", "animations", WHOLE),
    ("cardsets", "auto_scale", TRUTH),
    ("general", "autodrop", TRUTH),
    ("general", "splashscreen", TRUTH),
    ("general", "update_player_stats", TRUTH),
    ("general", "center_layout", TRUTH),
    ("general", "compact_stacks", TRUTH),
    ("general", "confirm", TRUTH),
    ("general", "sound", TRUTH),
];

/// The automation-relevant options of one options.cfg (absent keys, and keys whose value is
/// not of the field's type, are `None`; the latter are listed in `unreadable`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OptionsSummary {
    /// `[general] player`: the key under which statistics are filed.
    pub player: Option<String>,
    /// `[general] last_gameid`: the game started without `--game` (8 = FreeCell).
    pub last_gameid: Option<i64>,
    /// `[general] game_holded`: > 0 resumes holdgame.dat and ignores `--game/--deal`.
    pub game_holded: Option<i64>,
    /// The last game number played: options.cfg does not store it; filled in from the
    /// newest statistics log entry by callers that have one.
    pub last_game_number: Option<String>,
    /// `[cardsets] 0`, first item: the start-up cardset name.
    pub cardset: Option<String>,
    /// `[cardsets] auto_scale`.
    pub auto_scale: Option<bool>,
    /// `[general] animations` (0 none … 5 very slow).
    pub animations: Option<i64>,
    /// `[general] autodrop`.
    pub autodrop: Option<bool>,
    /// `[general] mouse_type`: `drag-n-drop`, `sticky-mouse` or `point-n-click`.
    pub mouse_type: Option<String>,
    /// `[general] splashscreen`.
    pub splashscreen: Option<bool>,
    /// `[general] update_player_stats`.
    pub update_player_stats: Option<bool>,
    /// `[general] center_layout`.
    pub center_layout: Option<bool>,
    /// `[general] compact_stacks`.
    pub compact_stacks: Option<bool>,
    /// `[general] confirm`.
    pub confirm: Option<bool>,
    /// `[general] sound`.
    pub sound: Option<bool>,
    /// Keys that are set but whose value is not of their field's type (`section.key =
    /// value: not a number`), so that their `None` is not taken for "unset".
    pub unreadable: Vec<String>,
}

/// Cut an inline `# comment` outside quotes.
fn strip_comment(v: &str) -> &str {
    let mut quote = None;
    for (i, c) in v.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') => return v[..i].trim_end(),
            _ => {}
        }
    }
    v
}

fn unquote(v: &str) -> String {
    let t = v.trim();
    for q in ['"', '\''] {
        if t.len() >= 2 && t.starts_with(q) && t.ends_with(q) {
            return t[1..t.len() - 1].to_string();
        }
    }
    t.to_string()
}

/// Split a configobj list value; quoted items keep their commas; a trailing comma makes a
/// one-item list.
fn split_list(v: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    for c in v.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                cur.push(c);
            }
            (Some(q), c) if c == q => {
                quote = None;
                cur.push(c);
            }
            (None, ',') => items.push(unquote(&std::mem::take(&mut cur))),
            _ => cur.push(c),
        }
    }
    if !cur.trim().is_empty() {
        items.push(unquote(&cur));
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# -*- coding: utf-8 -*-\n[general]\nplayer = tester\nlast_gameid = 8 # c\nrecent_gameid = 8,\nlanguage = \"\"\n[cardsets]\n0 = Standard, back111.gif\n";

    #[test]
    fn reads_values_lists_and_comments() {
        let o = OptionsFile::parse(SAMPLE).unwrap();
        assert_eq!(o.get("general", "player").as_deref(), Some("tester"));
        assert_eq!(o.get_i64("general", "last_gameid"), Some(8));
        assert_eq!(o.get_list("general", "recent_gameid").unwrap(), vec!["8"]);
        assert_eq!(o.get("general", "language").as_deref(), Some(""));
        assert_eq!(
            o.get_list("cardsets", "0").unwrap(),
            vec!["Standard", "back111.gif"]
        );
        assert_eq!(o.get("cardsets", "player"), None);
    }

    #[test]
    fn set_replaces_or_appends_within_section() {
        let mut o = OptionsFile::parse(SAMPLE).unwrap();
        o.set("general", "player", "robot");
        o.set("general", "autodrop", "False");
        o.set("offsets", "x", "1");
        let again = OptionsFile::parse(&o.to_text()).unwrap();
        assert_eq!(again.get("general", "player").as_deref(), Some("robot"));
        assert_eq!(again.get_bool("general", "autodrop"), Some(false));
        assert_eq!(again.get("offsets", "x").as_deref(), Some("1"));
        assert_eq!(again.get_list("cardsets", "0").unwrap()[0], "Standard");
        let t = o.to_text();
        assert!(
            t.find("autodrop").unwrap() < t.find("[cardsets]").unwrap(),
            "{t}"
        );
    }

    #[test]
    fn rejects_garbage_lines() {
        assert!(matches!(
            OptionsFile::parse("[general]\njust words\n"),
            Err(OptionsError::Syntax { line: 2, .. })
        ));
        assert!(OptionsFile::parse("[general\n").is_err());
        assert!(OptionsFile::parse("[[sub]]\n").is_err());
    }

    /// A key given twice in a section, or a section given twice, is refused as configobj
    /// refuses it (PySolFC then does not start; formerly the first value was listed); the
    /// same key in two sections is fine.
    #[test]
    fn refuses_what_configobj_calls_a_duplicate() {
        let key = OptionsFile::parse("[general]\nanimations = 3\nplayer = x\nanimations = 0\n");
        match key {
            Err(OptionsError::Syntax { line: 4, reason }) => {
                assert!(
                    reason.contains("`animations` again (first on line 2)"),
                    "{reason}"
                )
            }
            other => panic!("{other:?}"),
        }
        let section = OptionsFile::parse("[general]\nplayer = a\n[cardsets]\n[general]\n");
        match section {
            Err(OptionsError::Syntax { line: 4, reason }) => {
                assert!(
                    reason.contains("[general] again (first on line 1)"),
                    "{reason}"
                )
            }
            other => panic!("{other:?}"),
        }
        let o = OptionsFile::parse("[general]\nscale = 1\n[cardsets]\nscale = 2\n").unwrap();
        assert_eq!(o.get("cardsets", "scale").as_deref(), Some("2"));
    }

    /// Values that PySolFC reads as the wanted one are no difference from the replay settings
    /// (formerly: `autodrop = off` was listed as "have off, want False").
    #[test]
    fn replay_settings_compare_as_pysolfc_reads_them() {
        for (key, have, same) in [
            ("autodrop", "off", true),
            ("autodrop", "No", true),
            ("autodrop", "\"false\"", true),
            ("autodrop", "on", false),
            ("autodrop", "yes", false),
            ("update_player_stats", "on", true),
            ("update_player_stats", "1", true),
            ("animations", "00", true),
            ("animations", "0", true),
            ("animations", "off", false),
            ("animations", "2", false),
            ("last_gameid", "08", true),
            ("mouse_type", "point-n-click", true),
            ("mouse_type", "drag-n-drop", false),
        ] {
            assert_eq!(
                same_setting("general", key, have, replay_want(key)),
                same,
                "{key} = {have}"
            );
        }
        assert!(same_setting("cardsets", "scale_x", "1", "1.0"));
        assert!(!same_setting("cardsets", "scale_x", "1.5", "1.0"));
    }

    /// The wanted value of `general.key` in [`REPLAY_SETTINGS`].
    fn replay_want(key: &str) -> &'static str {
        REPLAY_SETTINGS
            .iter()
            .find(|(s, k, _)| *s == "general" && *k == key)
            .map(|t| t.2)
            .unwrap()
    }
}
