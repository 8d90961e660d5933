//! Read the evaluations: per move what it changed, the move that lost the game and a move
//! that would have kept it winnable, the costly moves, and a hint for the final position.
//! Plain data (serde), shared by the table, the JSON and the report.

use super::evaluate::{Eval, Status};
use super::record::Record;
use serde::Serialize;

/// One move of the game analysed.
#[derive(Clone, Debug, Serialize)]
pub struct MoveRow {
    /// 1-based step.
    pub step: usize,
    /// The move in standard notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The verdict after it: `winnable`, `lost` or `unknown`.
    pub verdict: &'static str,
    /// Moves of the shortest win known from the position after it (null unless winnable).
    pub moves_to_win: Option<usize>,
    /// The same before it.
    pub moves_to_win_before: Option<usize>,
    /// The change of the shortest known win, `after - before` (-1 for a move on a shortest
    /// known line; null unless both positions are winnable).
    pub change: Option<i64>,
    /// How much longer the shortest known win got: `1 + after - before`, 0 for a move on a
    /// shortest known line (null unless both positions are winnable).
    pub cost: Option<usize>,
    /// The first move of the shortest known win before it (null unless that was winnable).
    pub best_move: Option<String>,
    /// How the verdict after it is known (`searched`, `line from step K`, ...).
    pub source: String,
    /// The limit that stopped the search, for `unknown`.
    pub limit: Option<String>,
    /// `losing` (the move that lost the game), `costly` (cost at least the threshold), or
    /// null.
    pub mark: Option<&'static str>,
}

/// A move that keeps the game winnable where the losing move was played.
#[derive(Clone, Debug, Serialize)]
pub struct Alternative {
    /// The losing move's step.
    pub step: usize,
    /// The move to play instead.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its winning line from the position before the losing move (it starts with `move`).
    pub line: Vec<String>,
    /// The line's length, moves.
    pub moves_to_win: usize,
}

/// A move that made the shortest known win at least the threshold longer.
#[derive(Clone, Debug, Serialize)]
pub struct Costly {
    /// 1-based step.
    pub step: usize,
    /// The move played.
    #[serde(rename = "move")]
    pub mv: String,
    /// The first move of the shortest win known before it.
    pub best_move: String,
    /// Moves the win got longer.
    pub cost: usize,
}

/// The position the game ends in.
#[derive(Clone, Debug, Serialize)]
pub struct Final {
    /// `winnable`, `lost` or `unknown`.
    pub verdict: &'static str,
    /// All 52 cards are home: the game was won (then `winnable`, with 0 moves to win).
    pub won: bool,
    /// Moves of the shortest known win (null unless winnable).
    pub moves_to_win: Option<usize>,
    /// The next move of that win (null unless winnable and not already won).
    pub hint: Option<String>,
    /// The whole winning line.
    pub line: Vec<String>,
    /// The final position as a one-line position string.
    pub position: String,
}

/// Everything the outputs say.
#[derive(Clone, Debug, Serialize)]
pub struct Findings {
    /// The start position: `winnable`, `lost` or `unknown`.
    pub start_verdict: &'static str,
    /// Moves of the shortest known win from the start.
    pub start_moves_to_win: Option<usize>,
    /// One row per move.
    pub moves: Vec<MoveRow>,
    /// The step (1-based) whose move turned a winnable position into a lost one.
    pub first_losing_step: Option<usize>,
    /// When unknown positions lie between the last winnable one and the first lost one: the
    /// steps (first, last) among which the losing move is.
    pub losing_between: Option<(usize, usize)>,
    /// A move at the losing step that keeps the game winnable, with its line.
    pub alternative: Option<Alternative>,
    /// The moves that cost at least `costly_threshold` moves, in game order.
    pub costly: Vec<Costly>,
    /// The threshold, moves.
    pub costly_threshold: usize,
    /// The final position.
    #[serde(rename = "final")]
    pub final_position: Final,
}

/// Read `evals` (one per position of `game`, any game of the family) with a costly-move
/// threshold of `threshold` moves.
pub fn find(game: &dyn Record, evals: &[Eval], threshold: usize) -> Findings {
    let first_lost = evals.iter().position(|e| e.status == Status::Lost);
    let last_won = evals
        .iter()
        .rposition(|e| matches!(e.status, Status::Winnable(_)));
    // After the evaluation, the positions read winnable..., undecided..., lost...: a win
    // reaches back through the moves played, a loss forward.
    let (first_losing_step, losing_between) = match (last_won, first_lost) {
        (Some(w), Some(l)) if l == w + 1 => (Some(l), None),
        (Some(w), Some(l)) if l > w + 1 => (None, Some((w + 1, l))),
        (None, Some(l)) if l > 0 => (None, Some((1, l))),
        _ => (None, None),
    };
    let mut moves: Vec<MoveRow> = (1..evals.len())
        .map(|step| row(game, evals, step, threshold))
        .collect();
    if let Some(s) = first_losing_step {
        moves[s - 1].mark = Some("losing");
    }
    let costly = moves
        .iter()
        .filter(|r| r.mark == Some("costly"))
        .map(|r| Costly {
            step: r.step,
            mv: r.mv.clone(),
            best_move: r.best_move.clone().unwrap_or_default(),
            cost: r.cost.unwrap_or_default(),
        })
        .collect();
    let alternative = first_losing_step.and_then(|s| {
        let line = evals[s - 1].status.line()?;
        let tokens = game.tokens(s - 1, line);
        Some(Alternative {
            step: s,
            mv: tokens.first()?.clone(),
            moves_to_win: line.len(),
            line: tokens,
        })
    });
    let start = &evals[0].status;
    Findings {
        start_verdict: start.word(),
        start_moves_to_win: start.moves_to_win(),
        moves,
        first_losing_step,
        losing_between,
        alternative,
        costly,
        costly_threshold: threshold,
        final_position: final_position(game, evals.len() - 1, evals.last().expect("a start")),
    }
}

/// The row of move `step` (1-based).
fn row(game: &dyn Record, evals: &[Eval], step: usize, threshold: usize) -> MoveRow {
    let (before, after) = (&evals[step - 1].status, &evals[step].status);
    let cost = match (before.moves_to_win(), after.moves_to_win()) {
        (Some(b), Some(a)) => Some((a + 1).saturating_sub(b)),
        _ => None,
    };
    let best_move = before
        .line()
        .and_then(|l| l.first())
        .and_then(|p| game.tokens(step - 1, &[*p]).pop());
    MoveRow {
        step,
        mv: game.notation()[step - 1].clone(),
        verdict: after.word(),
        moves_to_win: after.moves_to_win(),
        moves_to_win_before: before.moves_to_win(),
        change: before
            .moves_to_win()
            .zip(after.moves_to_win())
            .map(|(b, a)| a as i64 - b as i64),
        cost,
        best_move,
        source: evals[step].source.describe(),
        limit: match after {
            Status::Unknown(why) => Some(why.clone()),
            _ => None,
        },
        mark: cost.filter(|&c| c >= threshold.max(1)).map(|_| "costly"),
    }
}

/// The final position's verdict and hint (the position after `k` moves).
fn final_position(game: &dyn Record, k: usize, eval: &Eval) -> Final {
    let line = eval
        .status
        .line()
        .map(|l| game.tokens(k, l))
        .unwrap_or_default();
    Final {
        verdict: eval.status.word(),
        won: game.is_won(k),
        moves_to_win: eval.status.moves_to_win(),
        hint: line.first().cloned(),
        line,
        position: game.position_text(k),
    }
}
