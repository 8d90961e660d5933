//! `analyze_game`: where a game was lost, by the service's analysis
//! ([`service::analyze_in`], the one `serve`'s `POST /api/analyze` runs): the moves replayed
//! by the validator's rules, every position evaluated (winnable with a validated line, lost
//! by the complete search, or unknown at the budget), the losing move with a move that would
//! have kept the game winnable, the costly moves, the review (moves to win per step,
//! classes, accuracy) and a hint for the final position. The model reads a short summary;
//! the whole answer (the table of moves, the review) goes to a view, in `_meta`.

use super::answers::Split;
use fcauto_deals::Board;
use fcauto_engine::analysis::summary;
use fcauto_engine::service::{self, AnalyzeOptions, AnalyzeOut, Position, ServiceError};
use fcauto_solver::document::SolutionDoc;
use fcauto_solver::Mode;
use serde_json::{json, Map, Value};

/// Analyse the game of `text`'s moves from `start` (of any game: a family game by the
/// family analysis) holding `slot` (a solver permit) until the searches end: the summary for
/// the model, the whole answer for a view. A standard game's annotated `# start:` must be
/// `start`.
pub(super) fn analyze<S: Send + 'static>(
    start: &Position,
    text: &str,
    mode: Mode,
    max_states: Option<usize>,
    slot: S,
) -> Result<Split, ServiceError> {
    if let Position::Standard(start) = start {
        check_start(start, text)?;
    }
    let opts = AnalyzeOptions {
        mode,
        max_states,
        costly: None,
    };
    let out = service::analyze_in(start, text, opts, slot)?;
    Ok(split(&out))
}

/// An annotated game's `# start:`, when it has one, is `start`.
fn check_start(start: &Board, text: &str) -> Result<(), ServiceError> {
    if text.len() <= service::MAX_SOLUTION_BYTES
        && SolutionDoc::new(text)
            .annotations()
            .start
            .is_some_and(|(_, s)| &s != start)
    {
        return Err(ServiceError::bad_input(
            "moves: the game's `# start:` is not the position given",
        ));
    }
    Ok(())
}

/// Analyse a PySolFC saved or held game sent as base64 text ([`service::analyze_saved_in`]:
/// its own start and the moves it recorded) holding `slot` until the searches end.
pub(super) fn analyze_saved<S: Send + 'static>(
    saved_game: &str,
    mode: Mode,
    max_states: Option<usize>,
    slot: S,
) -> Result<Split, ServiceError> {
    let opts = AnalyzeOptions {
        mode,
        max_states,
        costly: None,
    };
    Ok(split(&service::analyze_saved_in(saved_game, opts, slot)?))
}

/// The answer split: for the model the verdicts, the losing move and what to play
/// instead, the costly moves and the final hint, and the conclusions in sentences; for a
/// view the whole answer (`analysis`: the findings with the table of moves, the review).
fn split(out: &AnalyzeOut) -> Split {
    let f = &out.findings;
    let lost_at = f.first_losing_step.map(|s| {
        json!({"step": s, "move": f.moves[s - 1].mv,
               "instead": f.alternative.as_ref().map(|a| &a.mv)})
    });
    let costly: Vec<Value> = f
        .costly
        .iter()
        .map(|c| json!({"step": c.step, "move": c.mv, "cost": c.cost, "best": c.best_move}))
        .collect();
    let fin = &f.final_position;
    let saved_game = out.saved_game.as_ref().map(
        |s| json!({"pysol_id": s.pysol_id, "deal": s.deal, "held": s.held, "moves": s.moves.len()}),
    );
    let model = json!({
        "game": out.game,
        "moves": f.moves.len(),
        "start": f.start_verdict,
        "start_moves_to_win": f.start_moves_to_win,
        "lost_at": lost_at,
        "costly": costly,
        "final": {"verdict": fin.verdict, "won": fin.won,
                  "moves_to_win": fin.moves_to_win, "hint": fin.hint},
        "summary": summary::conclusions(f).iter().map(|c| short_line(c)).collect::<Vec<_>>().join(" "),
        "saved_game": saved_game,
    });
    let mut view = Map::new();
    view.insert(
        "analysis".into(),
        serde_json::to_value(out).unwrap_or_default(),
    );
    Split { model, view }
}

/// Moves of a winning line quoted in the summary; the whole line is in the view.
const LINE_SHOWN: usize = 8;

/// A sentence of the conclusions with the move line it ends with (after its last `: `)
/// cut to its first [`LINE_SHOWN`] moves.
fn short_line(sentence: &str) -> String {
    let Some((words, line)) = sentence.rsplit_once(": ") else {
        return sentence.to_string();
    };
    let moves: Vec<&str> = line.split_whitespace().collect();
    if moves.len() <= LINE_SHOWN || !moves.iter().all(|m| is_move_token(m)) {
        return sentence.to_string();
    }
    format!(
        "{words}: {} ... ({} moves in all)",
        moves[..LINE_SHOWN].join(" "),
        moves.len()
    )
}

/// True for a move in standard notation as the family writes them: two places
/// ([`fcauto_solver::family::Place::from_char`]), and a count (`v3`) or not.
fn is_move_token(t: &str) -> bool {
    let place = |c: u8| fcauto_solver::family::Place::from_char(c as char).is_some();
    match t.as_bytes() {
        [a, b, rest @ ..] => {
            place(*a)
                && place(*b)
                && match rest {
                    [] => true,
                    [b'v', n @ ..] => !n.is_empty() && n.iter().all(u8::is_ascii_digit),
                    _ => false,
                }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a move line is cut: a sentence ending in words keeps them all.
    #[test]
    fn only_move_lines_are_cut() {
        let words = "Move 5 (3a) lost the game: the position before it was winnable, after it no win exists (proved by the complete search).";
        assert_eq!(short_line(words), words);
        let line = "The final position is winnable in 10 moves: next 4h; the whole line: 4h 5h 8h 2h 3h 5h 2h 4h 1h 3h";
        assert!(short_line(line).ends_with("4h 5h 8h 2h 3h 5h 2h 4h ... (10 moves in all)"));
        let family = "whole line: 0a 12v3 ah kb 1h 2h 3h 4h 5h";
        assert!(short_line(family).ends_with("(9 moves in all)"));
    }

    fn analyze(b: &Board, text: &str, max: Option<usize>) -> Result<Split, ServiceError> {
        super::analyze(&Position::Standard(b.clone()), text, Mode::Fast, max, ())
    }

    /// Deal 617 played by its solution is never lost and ends won; a game that puts a
    /// king in a freecell early is read too, and a move list that is not standard
    /// notation is refused in the service's words.
    #[test]
    fn a_won_game_is_never_lost_and_bad_moves_are_refused() {
        let b = fcauto_deals::ms_deal(617).unwrap();
        let solved = service::solve(&b, Mode::Fast, None).unwrap();
        let line = solved.standard.unwrap();
        let won = analyze(&b, &line, None).unwrap();
        let out = won.model;
        assert_eq!(out["start"], "winnable", "{out}");
        assert_eq!(out["lost_at"], Value::Null, "{out}");
        assert_eq!(out["final"]["won"], true, "{out}");
        assert!(
            out["summary"].as_str().unwrap().contains("No move lost"),
            "{out}"
        );
        assert!(won.view["analysis"]["review"].is_object());
        let lost = analyze(&b, "1a 1b 1c 1d", None).unwrap().model;
        assert_eq!(lost["lost_at"]["step"], 3, "{lost}");
        assert!(lost["summary"].as_str().unwrap().len() < 400, "{lost}");
        let e = analyze(&b, "not moves", None).unwrap_err();
        assert!(
            e.message.starts_with("not standard notation:"),
            "{}",
            e.message
        );
        assert!(analyze(&b, "2a", Some(0)).is_err());
    }
}
