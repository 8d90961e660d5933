//! Stage 5a of `analyze`, the answer on standard output: a readable table, or JSON
//! (`--json`) for scripts.

use super::findings::{Findings, MoveRow};
use super::Summary;
use anyhow::Result;
use serde::Serialize;

/// The JSON document `analyze --json` prints: the deal, the start position, the settings,
/// the [`Findings`] (`moves`, `first_losing_step`, `alternative`, `costly`, `final`, ...)
/// and the work done.
#[derive(Serialize)]
pub struct Document<'a> {
    /// The MS deal number, null for a board.
    pub deal: Option<u64>,
    /// What the input was: `move list`, `position` or `pysolfc saved game`.
    pub input: &'static str,
    /// The start position as a one-line position string.
    pub start: String,
    /// The search mode.
    pub mode: fcauto_solver::Mode,
    /// Steps whose card count was open and read as the longest legal run.
    pub guessed_counts: &'a [usize],
    /// What was found.
    #[serde(flatten)]
    pub findings: &'a Findings,
    /// The work done: searches, positions on known lines, positions expanded, CPU seconds.
    pub work: &'a Summary,
}

/// Print the JSON document.
pub fn print_json(doc: &Document) -> Result<()> {
    outln!("{}", serde_json::to_string_pretty(doc)?);
    Ok(())
}

/// Print the table and the findings in words.
pub fn print_table(doc: &Document) -> Result<()> {
    let f = doc.findings;
    let name = doc
        .deal
        .map_or("the board".to_string(), |n| format!("deal {n}"));
    outln!(
        "{name}: {} analysed; the start is {}",
        crate::cmd::plural(f.moves.len(), "move"),
        verdict_words(f.start_verdict, f.start_moves_to_win)
    );
    if !f.moves.is_empty() {
        outln!();
        outln!(
            "{:>5}  {:<6} {:<9} {:>6} {:>5}  {:<6} note",
            "step",
            "move",
            "after",
            "to win",
            "cost",
            "best"
        );
        for r in &f.moves {
            outln!("{}", table_line(r));
        }
        outln!();
        outln!("{TABLE_KEY}");
    }
    outln!();
    for line in conclusions(f) {
        outln!("{line}");
    }
    Ok(())
}

/// What the table's columns say, printed under it: its lengths are the shortest wins the
/// searches found, not proved shortest, and they depend on how much was searched.
pub const TABLE_KEY: &str = "\
to win: moves in the shortest win known after the move: found by the searches, not proved
        shortest (--mode short, or a lower --costly, which searches costly-looking moves
        again in short mode, can find shorter ones)
cost:   how many moves longer that is than the shortest win known before the move
best:   the first move of the shortest win known before the move";

/// One table line.
fn table_line(r: &MoveRow) -> String {
    let dash = || "-".to_string();
    let note = match r.mark {
        Some("losing") => "?? the losing move".to_string(),
        Some("costly") => format!(
            "? {} longer",
            fcauto_deals::plural(r.cost.unwrap_or(0), "move")
        ),
        _ => match &r.limit {
            Some(why) => format!("unknown: {why}"),
            None => String::new(),
        },
    };
    format!(
        "{:>5}  {:<6} {:<9} {:>6} {:>5}  {:<6} {}",
        r.step,
        r.mv,
        r.verdict,
        r.moves_to_win.map_or_else(dash, |n| n.to_string()),
        r.cost.map_or_else(dash, |n| n.to_string()),
        r.best_move.clone().unwrap_or_else(dash),
        note
    )
    .trim_end()
    .to_string()
}

/// `winnable in N moves (shortest known)`, `lost`, `unknown`.
pub fn verdict_words(verdict: &str, moves: Option<usize>) -> String {
    match moves {
        Some(n) if verdict == "winnable" => {
            format!(
                "winnable in {} (shortest known)",
                crate::cmd::plural(n, "move")
            )
        }
        _ => verdict.to_string(),
    }
}

/// The findings in sentences: the losing move and its alternative, the costly moves, the
/// final position and its hint. Shared with report.md.
pub fn conclusions(f: &Findings) -> Vec<String> {
    let mut out = Vec::new();
    match (&f.first_losing_step, &f.losing_between) {
        (Some(s), _) => {
            let r = &f.moves[s - 1];
            out.push(format!("The game was lost at step {s}, {}: the position before it was winnable, after it no win exists (proved by the complete search).", r.mv));
            if let Some(a) = &f.alternative {
                out.push(format!(
                    "Instead, {} keeps it winnable in {}: {}",
                    a.mv,
                    crate::cmd::plural(a.moves_to_win, "move"),
                    a.line.join(" ")
                ));
            }
        }
        (None, Some((a, b))) if f.start_verdict != "winnable" && *a == 1 => out.push(format!(
            "No position before step {b} was shown winnable and the one after step {b} is proved lost: the start may already be lost, or one of the moves at steps 1 to {b} lost it; the searches stopped at their limit (try a larger --max-states)."
        )),
        (None, Some((a, b))) => out.push(format!(
            "The game was lost by one of the moves at steps {a} to {b}: the searches stopped at their limit between the last winnable position and the first one proved lost (try a larger --max-states)."
        )),
        (None, None) if f.start_verdict == "lost" => {
            out.push("The start position itself is lost (proved by the complete search).".into())
        }
        (None, None) if f.final_position.verdict == "winnable" => {
            out.push("No move lost the game.".into())
        }
        (None, None) => out.push(
            "No move was proved to lose the game, but the last positions are undecided (the search stopped at its limit; try a larger --max-states).".into(),
        ),
    }
    if f.costly.is_empty() {
        out.push(format!(
            "No costly moves (none made the shortest known win {} or more moves longer).",
            f.costly_threshold
        ));
    } else {
        let list: Vec<String> = f
            .costly
            .iter()
            .map(|c| {
                format!(
                    "step {} {} (+{}; best {})",
                    c.step, c.mv, c.cost, c.best_move
                )
            })
            .collect();
        out.push(format!(
            "Costly moves (the shortest known win {} or more moves longer): {}.",
            f.costly_threshold,
            list.join(", ")
        ));
    }
    let fin = &f.final_position;
    out.push(match (&fin.hint, fin.moves_to_win) {
        (_, Some(0)) => "The final position is won.".to_string(),
        (Some(h), Some(n)) => format!(
            "The final position is winnable in {}: next {h}; the whole line: {}",
            crate::cmd::plural(n, "move"),
            fin.line.join(" ")
        ),
        _ if fin.verdict == "lost" => "The final position is lost.".to_string(),
        _ => "The final position is undecided (the search stopped at its limit).".to_string(),
    });
    out
}
