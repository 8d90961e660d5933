//! `analyze_game`: where a game was lost, by the engine's analysis
//! ([`fcauto_engine::analysis`], as `fcauto analyze` runs it): the moves replayed by the
//! validator's rules, every position evaluated (winnable with a validated line, lost by the
//! complete search, or unknown at the budget), the losing move with a move that would have
//! kept the game winnable, the costly moves and a hint for the final position. The model
//! reads a short summary; the whole table of moves goes to a view, in `_meta`.

use super::answers::Split;
use fcauto_deals::Board;
use fcauto_engine::analysis::{self, evaluate, findings, replay, summary};
use fcauto_engine::service::{self, ServiceError};
use fcauto_solver::document::SolutionDoc;
use fcauto_solver::{parse_standard, Mode};
use serde_json::{json, Map, Value};

/// The game's moves read from `text`: standard notation, spaces or lines between moves, an
/// annotated game (move numbers, marks, comments, a `# start:` that must be `start`) read
/// as its plain moves, as `verify` reads it.
fn moves(start: &Board, text: &str) -> Result<Vec<fcauto_solver::StepMove>, ServiceError> {
    if text.len() > service::MAX_SOLUTION_BYTES {
        return Err(ServiceError::too_large(format!(
            "a move list is at most {} bytes",
            service::MAX_SOLUTION_BYTES
        )));
    }
    let annotated = SolutionDoc::new(text).annotations();
    if let Some(problem) = annotated.problem {
        return Err(ServiceError::bad_input(format!("moves: {problem}")));
    }
    if annotated.start.as_ref().is_some_and(|(_, s)| s != start) {
        return Err(ServiceError::bad_input(
            "moves: the game's `# start:` is not the position given",
        ));
    }
    let moves = parse_standard(&annotated.moves)
        .map_err(|e| ServiceError::bad_input(format!("moves: {e}")))?;
    if moves.len() > analysis::MAX_MOVES {
        return Err(ServiceError::bad_input(format!(
            "moves: {} moves: a game analysed has at most {} (each position is searched)",
            moves.len(),
            analysis::MAX_MOVES
        )));
    }
    Ok(moves)
}

/// The search budget of each position: 1..=[`service::MAX_STATES`], that when left out.
fn budget(max_states: Option<usize>) -> Result<usize, ServiceError> {
    match max_states.unwrap_or(service::MAX_STATES) {
        n @ 1..=service::MAX_STATES => Ok(n),
        n => Err(ServiceError::bad_input(format!(
            "max_states {n} is out of range: give 1..={} positions",
            service::MAX_STATES
        ))),
    }
}

/// Analyse the game of `text`'s moves from `start`: the summary for the model, the
/// findings (with the table of moves) for a view.
pub(super) fn analyze(
    start: &Board,
    text: &str,
    mode: Mode,
    max_states: Option<usize>,
) -> Result<Split, ServiceError> {
    let settings = evaluate::Settings {
        mode,
        max_states: Some(budget(max_states)?),
    };
    let moves = moves(start, text)?;
    let game =
        replay::replay(start, &moves).map_err(|e| ServiceError::impossible(format!("{e:#}")))?;
    let failed = |e: anyhow::Error| ServiceError::impossible(format!("the analysis failed: {e:#}"));
    let (mut evals, mut work) =
        evaluate::evaluate(&game.positions, &game.played, settings, || {}).map_err(failed)?;
    let threshold = analysis::DEFAULT_COSTLY;
    evaluate::confirm_costly(
        &mut evals,
        &game.positions,
        &game.played,
        settings,
        threshold,
        &mut work,
    )
    .map_err(failed)?;
    let found = findings::find(&game, &evals, threshold);
    Ok(split(&found, game.notation.len()))
}

/// The findings split: for the model the verdicts, the losing move and what to play
/// instead, the costly moves and the final hint, and the conclusions in sentences; for a
/// view the whole findings (`analysis`: the table of moves and the lines).
fn split(f: &findings::Findings, moves: usize) -> Split {
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
    let model = json!({
        "moves": moves,
        "start": f.start_verdict,
        "start_moves_to_win": f.start_moves_to_win,
        "lost_at": lost_at,
        "costly": costly,
        "final": {"verdict": fin.verdict, "won": fin.won,
                  "moves_to_win": fin.moves_to_win, "hint": fin.hint},
        "summary": summary::conclusions(f).iter().map(|c| short_line(c)).collect::<Vec<_>>().join(" "),
    });
    let mut view = Map::new();
    view.insert(
        "analysis".into(),
        serde_json::to_value(f).unwrap_or_default(),
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
    if moves.len() <= LINE_SHOWN {
        return sentence.to_string();
    }
    format!(
        "{words}: {} ... ({} moves in all)",
        moves[..LINE_SHOWN].join(" "),
        moves.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deal 617 played by its solution is never lost and ends won; a game that puts a
    /// king in a freecell early is read too, and a move list that is not standard
    /// notation is bad input.
    #[test]
    fn a_won_game_is_never_lost_and_bad_moves_are_refused() {
        let b = fcauto_deals::ms_deal(617).unwrap();
        let solved = service::solve(&b, Mode::Fast, None).unwrap();
        let line = solved.standard.unwrap();
        let out = analyze(&b, &line, Mode::Fast, None).unwrap().model;
        assert_eq!(out["start"], "winnable", "{out}");
        assert_eq!(out["lost_at"], Value::Null, "{out}");
        assert_eq!(out["final"]["won"], true, "{out}");
        assert!(
            out["summary"].as_str().unwrap().contains("No move lost"),
            "{out}"
        );
        let lost = analyze(&b, "1a 1b 1c 1d", Mode::Fast, None).unwrap().model;
        assert_eq!(lost["lost_at"]["step"], 3, "{lost}");
        assert!(lost["summary"].as_str().unwrap().len() < 400, "{lost}");
        let e = analyze(&b, "not moves", Mode::Fast, None).unwrap_err();
        assert!(e.message.starts_with("moves:"), "{}", e.message);
        assert!(analyze(&b, "2a", Mode::Fast, Some(0)).is_err());
    }
}
