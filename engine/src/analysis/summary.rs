//! The analysis in words and as one document: the [`Document`] (what `analyze --json`
//! prints, and what the report is written from), the table of moves, the conclusions in
//! sentences (shared by the table and report.md), and the note on card counts read as a
//! guess.

use super::findings::{Findings, MoveRow};
use super::replay::Replay;
use fcauto_deals::{plural, PysolNumber};
use serde::Serialize;

/// What an analysis found, as `analyze --json` prints it: the deal, the start position, the
/// settings and the [`Findings`] (`moves`, `first_losing_step`, `alternative`, `costly`,
/// `final`, ...); the command adds the work done (`work`) after them.
#[derive(Serialize)]
pub struct Document<'a> {
    /// The game of the family when it is not standard FreeCell: Freecell Solver's name, with
    /// the freecells when `--freecells` changed them (`seahaven_towers`, `freecell with 2
    /// freecells`); absent for standard FreeCell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The deal, null for a board: for standard FreeCell the Microsoft deal number
    /// ([`standard_deal`]), with `game` PySolFC's number of that game's deal as `fcauto deal
    /// --game G N` takes it (a number, or a string `"msN"` for Microsoft's deal N from 32000
    /// on, which the plain number would name as another deal).
    #[serde(with = "fcauto_solver::family::notation::deal_json")]
    pub deal: Option<PysolNumber>,
    /// What the input was: `move list`, `position` or `pysolfc saved game`.
    pub input: &'static str,
    /// The start position as a one-line position string.
    pub start: String,
    /// The search mode.
    pub mode: fcauto_solver::Mode,
    /// Steps whose card count was open and read as the longest run that keeps the later moves
    /// legal.
    pub guessed_counts: &'a [usize],
    /// What was found.
    #[serde(flatten)]
    pub findings: &'a Findings,
}

/// A standard FreeCell deal number as a [`Document`] carries it: written as the number
/// (`deal 40000`), as standard FreeCell names its Microsoft deals at any size.
pub fn standard_deal(deal: Option<u64>) -> Option<PysolNumber> {
    deal.and_then(|n| PysolNumber::plain(n.into()).ok())
}

/// The table and the findings in words, line by line (empty strings for blank lines), as
/// `analyze` prints them.
pub fn table(doc: &Document) -> Vec<String> {
    let f = doc.findings;
    let name = doc
        .deal
        .map_or("the board".to_string(), |n| format!("deal {n}"));
    let name = match &doc.game {
        Some(g) => format!("{g} {name}"),
        None => name,
    };
    let mut out = vec![format!(
        "{name}: {} analysed; the start is {}",
        plural(f.moves.len(), "move"),
        verdict_words(f.start_verdict, f.start_moves_to_win)
    )];
    if !f.moves.is_empty() {
        out.push(String::new());
        out.push(format!(
            "{:>5}  {:<6} {:<9} {:>6} {:>5}  {:<6} note",
            "step", "move", "after", "to win", "cost", "best"
        ));
        out.extend(f.moves.iter().map(table_line));
        out.push(String::new());
        out.push(table_key(doc.mode).to_string());
    }
    out.push(String::new());
    out.extend(conclusions(f));
    out
}

/// What the table's columns say, printed under it, for an analysis in `mode`: [`TABLE_KEY`],
/// or in the optimal modes [`OPTIMAL_TABLE_KEY`].
pub fn table_key(mode: fcauto_solver::Mode) -> &'static str {
    use fcauto_solver::Mode;
    match mode {
        Mode::Optimal | Mode::OptimalMoves | Mode::OptimalPh => OPTIMAL_TABLE_KEY,
        Mode::Fast | Mode::Short => TABLE_KEY,
    }
}

/// [`TABLE_KEY`] in the optimal modes: each search's line is proved shortest in the mode's
/// count (`optimal` minimises single-card moves, which the table does not show), and a line
/// through the next move played replaces it when it has no more moves.
pub const OPTIMAL_TABLE_KEY: &str = "\
to win: moves in the shortest win known after the move: a search's line is proved to have
        the fewest single-card moves (--mode optimal) or moves (optimal-moves, optimal-ph)
        of any win; the next move played and the line after it replace it when no longer
cost:   how many moves longer that is than the shortest win known before the move
best:   the first move of the shortest win known before the move";

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
        Some("costly") => format!("? {} longer", plural(r.cost.unwrap_or(0), "move")),
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
            format!("winnable in {} (shortest known)", plural(n, "move"))
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
                    plural(a.moves_to_win, "move"),
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
            plural(n, "move"),
            fin.line.join(" ")
        ),
        _ if fin.verdict == "lost" => "The final position is lost.".to_string(),
        _ => "The final position is undecided (the search stopped at its limit).".to_string(),
    });
    out
}

/// The steps whose card count was open with more than one legal reading, each with the move
/// as it was read (`76v2`), and how to choose another count: `None` when no count was
/// guessed.
pub fn guessed_counts_note(played: &Replay) -> Option<String> {
    counts_read_note(&played.guessed_counts, &played.notation)
}

/// The note of [`guessed_counts_note`] for the steps `guessed` (1-based) of moves written
/// `notation` (standard FreeCell's and the family's replays). The run read is the longest
/// that keeps the later moves legal, which may be fewer cards than the longest legal one.
pub fn counts_read_note(guessed: &[usize], notation: &[String]) -> Option<String> {
    let &first = guessed.first()?;
    let read = |k: usize| notation.get(k - 1).map_or("?", String::as_str);
    let steps: Vec<String> = guessed
        .iter()
        .map(|&k| format!("{k} ({})", read(k)))
        .collect();
    let written = format!("{}vN", read(first).get(..2).unwrap_or("38"));
    Some(format!(
        "at step(s) {} a run onto an empty cascade without a count was read as the longest run that keeps the later moves legal (write the count to choose another: {written} for N cards)",
        steps.join(", ")
    ))
}
