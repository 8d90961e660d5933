//! Stage 5c of `analyze`, the report bundle (`--report DIR`), what a chess engine's game
//! analysis gives, for FreeCell:
//!
//! | file | content |
//! |---|---|
//! | `moves.txt` | the moves, one a line, standard notation |
//! | `moves.csv` | per move: `step,move,verdict,moves_to_win_before,moves_to_win_after,cost,best_move` |
//! | `losing.json` | the losing move and the costly ones: `step`, `move`, `best_move`, `cost` (moves, or `"lost"`), `position` (before it, a one-line position string) |
//! | `start.svg`, `step-K-losing.svg`, `step-K-costly.svg`, `final.svg` | pictures (and `.png` with the `png` feature): the start, each position before a marked move with that move drawn, the final position with the hint drawn |
//! | `game.txt` | the game annotated: `??` after the losing move, `?` after costly ones, each with a comment naming the better move |
//! | `report.md` | how the game went and why it was lost or won |

use super::findings::Findings;
use super::output::{conclusions, verdict_words, Document};
use super::pictures::{final_caption, game_name, picture};
use super::replay::Replay;
use anyhow::{Context, Result};
use fcauto_solver::PlayedMove;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The text files of the bundle.
const TEXT_FILES: [&str; 5] = [
    "moves.txt",
    "moves.csv",
    "losing.json",
    "game.txt",
    "report.md",
];

/// True for a file name [`write()`] writes: the texts, and the pictures `start`, `final` and
/// `step-NNN-losing`/`step-NNN-costly` as SVG or PNG.
pub fn is_report_file(name: &str) -> bool {
    if TEXT_FILES.contains(&name) {
        return true;
    }
    let Some((stem, "svg" | "png")) = name.rsplit_once('.') else {
        return false;
    };
    if matches!(stem, "start" | "final") {
        return true;
    }
    let step = stem.strip_prefix("step-").and_then(|r| r.split_once('-'));
    step.is_some_and(|(n, mark)| {
        n.len() >= 3 && n.bytes().all(|b| b.is_ascii_digit()) && matches!(mark, "losing" | "costly")
    })
}

/// Before any work: `dir` must be new, empty, or an earlier report (its `report.md` written
/// by `fcauto analyze`, and every picture a report names there drawn by fcauto), whose files
/// [`write()`] replaces; and no input may be one of the files it writes there.
///
/// # Errors
/// A folder holding files and no earlier report, a picture there fcauto did not draw, or an
/// input the report would overwrite.
pub fn check_folder(dir: &Path, inputs: &[&Path]) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(()); // missing: created by `write`, which names any error
    };
    let names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    anyhow::ensure!(
        names.is_empty() || written_by_fcauto(&dir.join("report.md")),
        "cannot write the report into {}: it holds files and no earlier report (a report.md \
         written by fcauto analyze); give a new or empty folder",
        dir.display()
    );
    let canon =
        std::fs::canonicalize(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for input in inputs {
        let Ok(file) = std::fs::canonicalize(input) else {
            continue; // standard input, or missing: reading it names the problem
        };
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
        anyhow::ensure!(
            file.parent() != Some(canon.as_path()) || !is_report_file(name),
            "cannot write the report into {}: it would overwrite {}, an input; give another folder",
            dir.display(),
            input.display()
        );
    }
    // A report's text files are replaced; a link or folder of their name is not fcauto's
    // (writing through a link would overwrite the file it points to).
    for name in names.iter().filter(|n| TEXT_FILES.contains(&n.as_str())) {
        let kind = std::fs::symlink_metadata(dir.join(name)).map(|m| m.file_type());
        anyhow::ensure!(
            kind.is_ok_and(|t| t.is_file()),
            "cannot write the report into {}: it holds {name}, which is not a file (a link or a \
             folder; it would be replaced); give another folder",
            dir.display()
        );
    }
    let pictures = names
        .into_iter()
        .filter(|n| is_report_file(n) && (n.ends_with(".svg") || n.ends_with(".png")));
    super::pictures::check_replaceable(dir, pictures, inputs)
}

/// True when `dir` holds a report `fcauto analyze --report` wrote (its report.md).
pub fn holds_report(dir: &Path) -> bool {
    written_by_fcauto(&dir.join("report.md"))
}

/// True when `path` is a report.md that `fcauto analyze` wrote (its opening says so).
fn written_by_fcauto(path: &Path) -> bool {
    path.is_file()
        && crate::cmd::input::file_opening(path, 2048).contains("Analysed by `fcauto analyze` in `")
}

/// Remove the files an earlier report wrote in `dir` (see [`is_report_file`]), so no picture
/// of an earlier game stays beside the new report; other files are left alone.
fn clear_earlier(dir: &Path) -> Result<()> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        let name = entry.file_name();
        if entry.file_type().is_ok_and(|t| t.is_file()) && name.to_str().is_some_and(is_report_file)
        {
            let path = entry.path();
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot replace {}", path.display()))?;
        }
    }
    Ok(())
}

/// Write the bundle into `dir` (created if missing, not its parents; the files of an earlier
/// report there are replaced). `best[k]`: the first move of the shortest known win from the position after
/// `k` moves, if winnable. Returns the files written.
///
/// # Errors
/// The folder or a file cannot be written.
pub fn write(
    dir: &Path,
    doc: &Document,
    game: &Replay,
    best: &[Option<PlayedMove>],
) -> Result<Vec<PathBuf>> {
    crate::cmd::input::create_output_folder(dir)?;
    clear_earlier(dir)?;
    let f = doc.findings;
    let mut files = vec![
        text_file(dir, "moves.txt", &(game.notation.join("\n") + "\n"))?,
        csv_file(dir, f)?,
        text_file(
            dir,
            "losing.json",
            &(serde_json::to_string_pretty(&losing_json(doc, game))? + "\n"),
        )?,
        text_file(dir, "game.txt", &annotated(doc, game))?,
        text_file(dir, "report.md", &markdown(doc, game))?,
    ];
    let name = game_name(doc.deal);
    let start = format!("{name}, the start");
    files.extend(picture(dir, "start", &game.positions[0], None, &start)?);
    for r in f.moves.iter().filter(|r| r.mark.is_some()) {
        let mark = r.mark.unwrap_or_default();
        let stem = format!("step-{:03}-{mark}", r.step);
        files.extend(picture(
            dir,
            &stem,
            &game.positions[r.step - 1],
            Some(game.played[r.step - 1]),
            &format!("{name}, step {}: {}, {mark} (before it)", r.step, r.mv),
        )?);
    }
    let last = game.positions.len() - 1;
    let caption = final_caption(&name, f);
    files.extend(picture(
        dir,
        "final",
        &game.positions[last],
        best[last],
        &caption,
    )?);
    Ok(files)
}

fn text_file(dir: &Path, name: &str, text: &str) -> Result<PathBuf> {
    let path = dir.join(name);
    crate::cmd::input::write_replacing(&path, text.as_bytes())?;
    Ok(path)
}

/// One row of moves.csv.
#[derive(Serialize)]
struct CsvRow<'a> {
    step: usize,
    #[serde(rename = "move")]
    mv: &'a str,
    verdict: &'a str,
    moves_to_win_before: Option<usize>,
    moves_to_win_after: Option<usize>,
    cost: Option<usize>,
    best_move: Option<&'a str>,
}

fn csv_file(dir: &Path, f: &Findings) -> Result<PathBuf> {
    let path = dir.join("moves.csv");
    let mut w = csv::Writer::from_path(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    for r in &f.moves {
        w.serialize(CsvRow {
            step: r.step,
            mv: &r.mv,
            verdict: r.verdict,
            moves_to_win_before: r.moves_to_win_before,
            moves_to_win_after: r.moves_to_win,
            cost: r.cost,
            best_move: r.best_move.as_deref(),
        })?;
    }
    if f.moves.is_empty() {
        w.write_record([
            "step",
            "move",
            "verdict",
            "moves_to_win_before",
            "moves_to_win_after",
            "cost",
            "best_move",
        ])?;
    }
    w.flush()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// losing.json: `deal`, `first_losing_step`, and `moves`: the losing move and the costly
/// ones in game order.
fn losing_json(doc: &Document, game: &Replay) -> serde_json::Value {
    let f = doc.findings;
    let moves: Vec<serde_json::Value> = f
        .moves
        .iter()
        .filter(|r| r.mark.is_some())
        .map(|r| {
            let cost = match r.mark {
                Some("losing") => serde_json::json!("lost"),
                _ => serde_json::json!(r.cost),
            };
            let best = match r.mark {
                Some("losing") => f.alternative.as_ref().map(|a| a.mv.clone()),
                _ => r.best_move.clone(),
            };
            serde_json::json!({
                "step": r.step,
                "move": r.mv,
                "best_move": best,
                "cost": cost,
                "position": fcauto_deals::position::write(&game.positions[r.step - 1]),
            })
        })
        .collect();
    serde_json::json!({
        "deal": doc.deal,
        "first_losing_step": f.first_losing_step,
        "costly_threshold": f.costly_threshold,
        "moves": moves,
    })
}

/// game.txt: the moves in standard notation, numbered, `??`/`?` and a `{comment}` after the
/// marked ones.
fn annotated(doc: &Document, game: &Replay) -> String {
    let f = doc.findings;
    let mut s = format!(
        "# {}, analysed by fcauto ({} mode); ?? lost the game, ? made the shortest known win {} or more moves longer\n",
        doc.deal.map_or("a board".to_string(), |n| format!("deal {n}")),
        mode_name(doc),
        f.costly_threshold
    );
    s.push_str(&format!("# start: {}\n", doc.start));
    for r in &f.moves {
        let note = match r.mark {
            Some("losing") => match &f.alternative {
                Some(a) => format!(
                    "?? {{lost; {} keeps it winnable in {} moves}}",
                    a.mv, a.moves_to_win
                ),
                None => "?? {lost}".to_string(),
            },
            Some(_) => format!(
                "? {{{} longer; {} wins in {}}}",
                fcauto_deals::plural(r.cost.unwrap_or(0), "move"),
                r.best_move.as_deref().unwrap_or("?"),
                r.moves_to_win_before.unwrap_or(0)
            ),
            None => String::new(),
        };
        s.push_str(&format!(
            "{}. {}{note}\n",
            r.step,
            game.notation[r.step - 1]
        ));
    }
    s
}

fn mode_name(doc: &Document) -> String {
    serde_json::to_value(doc.mode)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// report.md: the course of the game in words, the conclusions, the pictures.
fn markdown(doc: &Document, game: &Replay) -> String {
    let f = doc.findings;
    let name = doc
        .deal
        .map_or("A board".to_string(), |n| format!("Deal {n}"));
    let mut s = format!(
        "# {name}: analysis of a game of {}\n\n",
        crate::cmd::plural(f.moves.len(), "move")
    );
    s.push_str(&format!(
        "Analysed by `fcauto analyze` in `{}` mode. Every winning line below was checked by the independent validator; every \"lost\" comes from the complete search (a search over all legal moves that ran dry), or from being reachable from a position it proved lost.\n\n",
        mode_name(doc)
    ));
    s.push_str("## How the game went\n\n");
    s.push_str(&course(doc));
    s.push_str("\n## Why it was lost or won\n\n");
    for line in conclusions(f) {
        s.push_str(&format!("- {line}\n"));
    }
    s.push_str("\n## Files\n\n- `moves.txt`, `moves.csv`, `losing.json`, `game.txt` (the game annotated)\n");
    s.push_str("- ![start](start.svg) the start\n");
    for r in f.moves.iter().filter(|r| r.mark.is_some()) {
        let stem = format!("step-{:03}-{}", r.step, r.mark.unwrap_or_default());
        s.push_str(&format!(
            "- ![{stem}]({stem}.svg) before step {}, {} drawn\n",
            r.step,
            game.notation[r.step - 1]
        ));
    }
    s.push_str("- ![final](final.svg) the final position\n");
    s
}

/// The course of the game: the start, how the shortest known win changed, where it was lost.
/// Only what the searches decided is told: undecided positions are counted as such.
fn course(doc: &Document) -> String {
    let f = doc.findings;
    let mut s = match f.start_verdict {
        "unknown" => "Whether the start could be won was not decided. ".to_string(),
        "lost" => "The start was lost: no win exists. ".to_string(),
        v => format!("The start was {}. ", verdict_words(v, f.start_moves_to_win)),
    };
    s.push_str(&moves_sentence(f));
    if let Some(k) = f.first_losing_step {
        let before = f.moves[k - 1].moves_to_win_before.unwrap_or(0);
        s.push_str(&format!(
            " At step {k} the game could still be won in {before} moves; the move played there left no win, and the {} after it could not change that.",
            crate::cmd::plural(f.moves.len() - k, "move")
        ));
    }
    s.push('\n');
    s
}

/// How many positions after the moves were winnable, lost and undecided.
fn moves_sentence(f: &Findings) -> String {
    let n = f.moves.len();
    let count = |v: &str| f.moves.iter().filter(|r| r.verdict == v).count();
    let (winnable, lost, unknown) = (count("winnable"), count("lost"), count("unknown"));
    let on_line = f.moves.iter().filter(|r| r.cost == Some(0)).count();
    let followed = format!(
        "{} followed a shortest known win exactly.",
        crate::cmd::plural(on_line, "move")
    );
    if n == 0 {
        return "No moves were played.".to_string();
    }
    if unknown == 0 && f.start_verdict == "winnable" {
        return format!(
            "After {winnable} of the {n} moves the game was still winnable; {followed}"
        );
    }
    let parts: Vec<String> = [
        (winnable, "shown winnable"),
        (lost, "proved lost"),
        (unknown, "undecided"),
    ]
    .iter()
    .filter(|(k, _)| *k > 0)
    .map(|(k, what)| format!("{k} {what}"))
    .collect();
    let mut s = format!(
        "Of the {} after a move, {}.",
        crate::cmd::plural(n, "position"),
        parts.join(", ")
    );
    if on_line > 0 {
        s.push(' ');
        s.push_str(&followed);
    }
    if unknown > 0 || f.start_verdict == "unknown" {
        s.push_str(" Undecided: the search stopped at its limit (`--max-states` raises it).");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::is_report_file;

    #[test]
    fn report_files_are_told_from_others() {
        for name in [
            "report.md",
            "game.txt",
            "start.svg",
            "final.png",
            "step-027-losing.svg",
            "step-1234-costly.png",
        ] {
            assert!(is_report_file(name), "{name}");
        }
        for name in [
            "notes.txt",
            "start.txt",
            "step-27-losing.svg",
            "step-027-lost.svg",
            "losing-before.svg",
            "report.md.bak",
        ] {
            assert!(!is_report_file(name), "{name}");
        }
    }
}
