//! The answer of `analyze`: on standard output a readable table, or JSON (`--json`) for
//! scripts; on standard error the notes (the work done, any card count read as a guess).

use super::WorkDone;
use anyhow::Result;
use fcauto_engine::analysis::review::{review, Review};
use fcauto_engine::analysis::summary::{table, Document};
use serde::Serialize;

/// The JSON document `analyze --json` prints: the [`Document`], the review (`review`: the
/// graph's points, each move's class, the accuracy; as `serve`'s `/api/analyze` answers it)
/// and the work done (`work`: searches, positions on known lines, positions expanded, CPU
/// seconds).
#[derive(Serialize)]
struct Json<'a> {
    #[serde(flatten)]
    doc: &'a Document<'a>,
    review: Review,
    work: &'a WorkDone,
}

/// Print `doc` as the table (`json` false) or the JSON document.
pub fn print(doc: &Document, work: &WorkDone, json: bool) -> Result<()> {
    if json {
        let review = review(doc.findings);
        let json = Json { doc, review, work };
        outln!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        for line in table(doc) {
            outln!("{line}");
        }
    }
    Ok(())
}

/// The work done over `positions` positions, and `guessed` (the note of any count read as
/// a guess), on standard error.
pub fn notes(positions: usize, guessed: Option<String>, s: &WorkDone) {
    if let Some(note) = guessed {
        crate::note!("fcauto: note: {note}");
    }
    let after_lost = match s.after_lost {
        0 => String::new(),
        n => format!(", {n} after a lost one"),
    };
    let again = match s.searched_again {
        0 => String::new(),
        1 => ", 1 search repeated".to_string(),
        n => format!(", {n} searches repeated"),
    };
    crate::note!(
        "fcauto: {} evaluated: {} searched, {} on known winning lines{after_lost}{again}; {} expanded; {:.2} s CPU, {:.2} s wall",
        crate::cmd::plural(positions, "position"),
        s.searches,
        s.on_known_lines,
        crate::cmd::plural(s.expanded as usize, "position"),
        s.cpu_seconds,
        s.wall_seconds
    );
}
