//! The contents of the report bundle (`--report DIR`), what a chess engine's game analysis
//! gives, for FreeCell; the command writes them into the folder:
//!
//! | file | content |
//! |---|---|
//! | `moves.txt` | the moves, one a line, standard notation |
//! | `moves.csv` | per move: `step,move,verdict,moves_to_win_before,moves_to_win_after,cost,best_move` |
//! | `losing.json` | the losing move and the costly ones: `step`, `move`, `best_move`, `cost` (moves, or `"lost"`), `position` (before it, a one-line position string) |
//! | `start.svg`, `step-K-losing.svg`, `step-K-costly.svg`, `final.svg` | pictures (and `.png` with the `png` feature): the start, each position before a marked move with that move drawn, the final position with the hint drawn |
//! | `game.txt` | the game annotated: `??` after the losing move, `?` after costly ones, each with a comment naming the better move |
//! | `report.md` | how the game went and why it was lost or won |
//! | `index.html` | the review page ([`super::review_page`]): the evaluation graph, the classes and accuracy, the game to step through with the analysis alongside |
//!
//! The names of the files ([`TEXT_FILES`], [`is_report_file`]) and report.md's opening
//! ([`REPORT_MARK`]) tell an earlier report's files from others.

use super::findings::Findings;
use super::pictures::{final_caption, Picture};
use super::record::Record;
use super::review_page::{better_line_page, review_html};
use super::summary::{conclusions, verdict_words, Document};
use anyhow::Result;
use fcauto_deals::plural;
use fcauto_solver::family::notation::deal_json;
use fcauto_solver::PlayedMove;
use serde::Serialize;

/// The text files of the bundle, in the order [`contents`] gives them.
pub const TEXT_FILES: [&str; 6] = [
    "moves.txt",
    "moves.csv",
    "losing.json",
    "game.txt",
    "report.md",
    "index.html",
];

/// What report.md's opening holds: a report.md holding it was written by `fcauto analyze`.
pub const REPORT_MARK: &str = "Analysed by `fcauto analyze` in `";

/// True for a file name the bundle has: the texts, the pictures `start`, `final` and
/// `step-NNN-losing`/`step-NNN-costly` as SVG or PNG, and the replay page of the better line
/// `step-NNN-better.html`.
pub fn is_report_file(name: &str) -> bool {
    if TEXT_FILES.contains(&name) {
        return true;
    }
    if let Some(n) = name
        .strip_prefix("step-")
        .and_then(|r| r.strip_suffix("-better.html"))
    {
        return n.len() >= 3 && n.bytes().all(|b| b.is_ascii_digit());
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

/// The bundle: its text files (name and bytes, in [`TEXT_FILES`]' order) and its pictures
/// (the start, the position before each marked move with that move drawn, the final
/// position with its hint drawn).
#[derive(Clone, Debug)]
pub struct Report {
    /// Each text file's name and contents.
    pub texts: Vec<(&'static str, Vec<u8>)>,
    /// Pages beside the review page, name and contents: the replay of the better line at
    /// the losing step (`step-NNN-better.html`), when there is one.
    pub pages: Vec<(String, Vec<u8>)>,
    /// The pictures, in the order they are written.
    pub pictures: Vec<Picture>,
}

/// The bundle of the analysis `doc` of `game`. `best[k]`: the first move of the shortest
/// known win from the position after `k` moves, if winnable.
///
/// # Errors
/// The CSV or JSON writer's (not expected: everything written is plain data).
pub fn contents(doc: &Document, game: &dyn Record, best: &[Option<PlayedMove>]) -> Result<Report> {
    let f = doc.findings;
    let losing = serde_json::to_string_pretty(&losing_json(doc, game))? + "\n";
    let texts = vec![
        (
            "moves.txt",
            (game.notation().join("\n") + "\n").into_bytes(),
        ),
        ("moves.csv", csv_bytes(f)?),
        ("losing.json", losing.into_bytes()),
        ("game.txt", annotated(doc, game).into_bytes()),
        ("report.md", markdown(doc, game).into_bytes()),
        ("index.html", review_html(doc, game, best)?.into_bytes()),
    ];
    Ok(Report {
        texts,
        pages: better_line_page(doc, game)?.into_iter().collect(),
        pictures: pictures(doc, game, best),
    })
}

/// The bundle's pictures: `start`, `step-NNN-losing`/`step-NNN-costly` (before the move,
/// the move drawn), `final` (its hint drawn).
fn pictures(doc: &Document, game: &dyn Record, best: &[Option<PlayedMove>]) -> Vec<Picture> {
    let f = doc.findings;
    let name = game.name(doc.deal);
    let mut out = vec![Picture {
        stem: "start".to_string(),
        position: game.position(0),
        highlight: None,
        caption: format!("{name}, the start"),
    }];
    for r in f.moves.iter().filter(|r| r.mark.is_some()) {
        let mark = r.mark.unwrap_or_default();
        out.push(Picture {
            stem: format!("step-{:03}-{mark}", r.step),
            position: game.position(r.step - 1),
            highlight: Some(game.played()[r.step - 1]),
            caption: format!("{name}, step {}: {}, {mark} (before it)", r.step, r.mv),
        });
    }
    let last = game.played().len();
    out.push(Picture {
        stem: "final".to_string(),
        position: game.position(last),
        highlight: best[last],
        caption: final_caption(&name, f),
    });
    out
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

/// moves.csv: one row per move (the header alone for a game of no moves).
fn csv_bytes(f: &Findings) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
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
    w.into_inner()
        .map_err(|e| anyhow::anyhow!("cannot write moves.csv: {}", e.error()))
}

/// losing.json: `deal`, `first_losing_step`, and `moves`: the losing move and the costly
/// ones in game order.
fn losing_json(doc: &Document, game: &dyn Record) -> serde_json::Value {
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
                "position": game.position_text(r.step - 1),
            })
        })
        .collect();
    serde_json::json!({
        "deal": deal_json::serialize(&doc.deal, serde_json::value::Serializer)
            .unwrap_or_default(),
        "first_losing_step": f.first_losing_step,
        "costly_threshold": f.costly_threshold,
        "moves": moves,
    })
}

/// game.txt: the moves in standard notation, numbered, `??`/`?` and a `{comment}` after the
/// marked ones.
fn annotated(doc: &Document, game: &dyn Record) -> String {
    let f = doc.findings;
    let mut s = format!(
        "# {}, analysed by fcauto ({} mode); ?? lost the game, ? made the shortest known win {} or more moves longer\n",
        game.heading(doc.deal, false),
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
                plural(r.cost.unwrap_or(0), "move"),
                r.best_move.as_deref().unwrap_or("?"),
                r.moves_to_win_before.unwrap_or(0)
            ),
            None => String::new(),
        };
        s.push_str(&format!(
            "{}. {}{note}\n",
            r.step,
            game.notation()[r.step - 1]
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
fn markdown(doc: &Document, game: &dyn Record) -> String {
    let f = doc.findings;
    let name = game.heading(doc.deal, true);
    let mut s = format!(
        "# {name}: analysis of a game of {}\n\n",
        plural(f.moves.len(), "move")
    );
    s.push_str(&format!(
        "{REPORT_MARK}{}` mode. Every winning line below was checked by the independent validator; every \"lost\" comes from the complete search (a search over all legal moves that ran dry), or from being reachable from a position it proved lost.\n\n",
        mode_name(doc)
    ));
    s.push_str("## How the game went\n\n");
    s.push_str(&course(doc));
    s.push_str("\n## Why it was lost or won\n\n");
    for line in conclusions(f) {
        s.push_str(&format!("- {line}\n"));
    }
    s.push_str("\n## Files\n\n- [`index.html`](index.html): the review page (the graph of moves to win, each move's class, the accuracy, the game to step through)\n- `moves.txt`, `moves.csv`, `losing.json`, `game.txt` (the game annotated)\n");
    s.push_str("- ![start](start.svg) the start\n");
    for r in f.moves.iter().filter(|r| r.mark.is_some()) {
        let stem = format!("step-{:03}-{}", r.step, r.mark.unwrap_or_default());
        s.push_str(&format!(
            "- ![{stem}]({stem}.svg) before step {}, {} drawn\n",
            r.step,
            game.notation()[r.step - 1]
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
            plural(f.moves.len() - k, "move")
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
        plural(on_line, "move")
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
        plural(n, "position"),
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
    use super::*;
    use crate::analysis::evaluate::{Eval, Source, Status};
    use crate::analysis::{findings, replay};

    /// A game of no moves from an undecided start: every text file, in [`TEXT_FILES`]'
    /// order, moves.csv its header alone, and the start and final pictures.
    #[test]
    fn a_game_of_no_moves_has_every_file() {
        let start = fcauto_deals::ms_deal(617).unwrap();
        let game = replay::replay(&start, &[]).unwrap();
        let evals = [Eval {
            status: Status::Unknown("the limit".into()),
            source: Source::Search,
        }];
        let found = findings::find(&game, &evals, 10);
        let doc = Document {
            game: None,
            deal: crate::analysis::summary::standard_deal(Some(617)),
            input: "a move list",
            start: fcauto_deals::position::write(&start),
            mode: fcauto_solver::Mode::Fast,
            guessed_counts: &[],
            findings: &found,
        };
        let report = contents(&doc, &game, &[None]).unwrap();
        let names: Vec<&str> = report.texts.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, TEXT_FILES);
        assert_eq!(
            report.texts[1].1,
            b"step,move,verdict,moves_to_win_before,moves_to_win_after,cost,best_move\n"
        );
        let stems: Vec<&str> = report.pictures.iter().map(|p| p.stem.as_str()).collect();
        assert_eq!(stems, ["start", "final"]);
        let md = String::from_utf8(report.texts[4].1.clone()).unwrap();
        assert!(md.contains(REPORT_MARK), "{md}");
    }

    #[test]
    fn report_files_are_told_from_others() {
        for name in [
            "report.md",
            "game.txt",
            "start.svg",
            "final.png",
            "step-027-losing.svg",
            "step-1234-costly.png",
            "step-027-better.html",
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
            "step-27-better.html",
            "step-027-better.htm",
        ] {
            assert!(!is_report_file(name), "{name}");
        }
    }
}
