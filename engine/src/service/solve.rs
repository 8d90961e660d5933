//! Searches: [`solve`] and [`hint`], each capped in positions and time, every solution
//! validated.

use super::{JsonMove, ServiceError, MAX_STATES, TIME_CAP};
use fcauto_deals::Board;
use fcauto_solver::checked::{solve_checked, Outcome};
use fcauto_solver::Mode;
use serde::Serialize;
use std::time::Duration;

/// What [`solve`] answers.
#[derive(Serialize, Debug, Clone)]
pub struct SolveOut {
    /// `solved`, `unsolvable` (proved by the complete search) or `unknown: <limit>`.
    pub verdict: String,
    /// true, false (proved), or null (unknown).
    pub solvable: Option<bool>,
    /// The moves (foundation moves included), validated; empty unless solved.
    pub moves: Vec<JsonMove>,
    /// Moves, a supermove counted once; null unless solved.
    pub moves_total: Option<usize>,
    /// Single-card moves; null unless solved.
    pub single_card_moves: Option<usize>,
    /// The solution in standard notation, one line; null unless solved.
    pub standard: Option<String>,
    /// Positions expanded.
    pub positions: u64,
}

/// `solve`: solve from `b` in `mode` with at most `max_states` positions (1..=[`MAX_STATES`],
/// default [`MAX_STATES`]) and [`TIME_CAP`]; every solution validated. (MCP's; `serve`
/// queues its solves through [`solve_in`].)
pub fn solve(b: &Board, mode: Mode, max_states: Option<usize>) -> Result<SolveOut, ServiceError> {
    solve_in(b, mode, max_states, ())
}

/// [`solve`] holding `slot` (a solver permit) until the search ends: at [`TIME_CAP`] the
/// answer is "unknown" but the search runs on to its position budget, and `slot` is dropped
/// only then, so that a caller counting searches by slots never runs more than it holds.
pub fn solve_in<S: Send + 'static>(
    b: &Board,
    mode: Mode,
    max_states: Option<usize>,
    slot: S,
) -> Result<SolveOut, ServiceError> {
    solve_capped(b, mode, max_states, TIME_CAP, slot)
}

/// The position budget of a solve: `max_states`, 1..=[`MAX_STATES`] ([`MAX_STATES`] when
/// left out); the optimal modes, and a budget out of range, are refused (bad input, not changed,
/// as a picture's width is).
pub(super) fn search_budget(mode: Mode, max_states: Option<usize>) -> Result<usize, ServiceError> {
    if matches!(mode, Mode::Optimal | Mode::OptimalMoves | Mode::OptimalPh) {
        return Err(ServiceError::bad_input(
            "the optimal modes need gigabytes and minutes: use the command line (`fcauto solve --mode optimal`)",
        ));
    }
    match max_states {
        Some(0) => Err(ServiceError::bad_input(format!(
            "max_states 0: a search stores at least its start position (give 1..={MAX_STATES}, or leave it out for {MAX_STATES})"
        ))),
        Some(n) if n > MAX_STATES => Err(ServiceError::bad_input(format!(
            "max_states {n}: a solve here stores at most {MAX_STATES} positions (give 1..={MAX_STATES}, or use the command line, `fcauto solve --max-states`)"
        ))),
        Some(n) => Ok(n),
        None => Ok(MAX_STATES),
    }
}

/// [`solve_in`] with the time cap `cap`.
pub(super) fn solve_capped<S: Send + 'static>(
    b: &Board,
    mode: Mode,
    max_states: Option<usize>,
    cap: Duration,
    slot: S,
) -> Result<SolveOut, ServiceError> {
    let states = search_budget(mode, max_states)?;
    let board = b.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(solve_checked(None, &board, mode, Some(states)));
        drop(slot); // only now: the search is over
    });
    match rx.recv_timeout(cap) {
        Ok(r) => r
            .map(|(out, stats)| solve_out(out, stats.expanded))
            .map_err(|e| ServiceError::impossible(format!("{e:#}"))),
        // The search goes on to its position budget, holding `slot`; its answer is dropped.
        Err(_) => Ok(unknown(
            format!("unknown: time cap of {} s reached", cap.as_secs_f64()),
            0,
        )),
    }
}

/// A [`SolveOut`] without a solution.
pub(super) fn unknown(verdict: String, positions: u64) -> SolveOut {
    SolveOut {
        verdict,
        solvable: None,
        moves: vec![],
        moves_total: None,
        single_card_moves: None,
        standard: None,
        positions,
    }
}

/// The answer of a finished search that expanded `positions`.
fn solve_out(out: Outcome, positions: u64) -> SolveOut {
    match out {
        Outcome::Solved(c) => SolveOut {
            verdict: "solved".into(),
            solvable: Some(true),
            moves: solution_moves(&c.solution),
            moves_total: Some(c.moves_total),
            single_card_moves: Some(c.single_card_moves),
            standard: Some(c.solution.to_standard().trim_end().replace('\n', " ")),
            positions,
        },
        Outcome::Unsolvable => SolveOut {
            verdict: "unsolvable".into(),
            solvable: Some(false),
            ..unknown(String::new(), positions)
        },
        Outcome::Unknown(why) => unknown(format!("unknown: {why}"), positions),
    }
}

/// A solution's moves in output form, each notation as [`fcauto_solver::Solution::tokens`]
/// writes it.
fn solution_moves(solution: &fcauto_solver::Solution) -> Vec<JsonMove> {
    let tokens = solution.tokens();
    solution
        .moves
        .iter()
        .zip(tokens)
        .map(|(&p, notation)| JsonMove {
            notation: Some(notation),
            ..JsonMove::of(p)
        })
        .collect()
}

/// What [`hint`] answers: the next move of a winning line, and the line.
#[derive(Serialize, Debug, Clone)]
pub struct HintOut {
    /// As [`SolveOut::verdict`].
    pub verdict: String,
    /// The move to play now; null unless a win was found (or the position is won).
    pub next: Option<JsonMove>,
    /// The whole winning line from here.
    pub line: Vec<JsonMove>,
}

/// `hint`: solve from here and give the first move. (MCP's, as [`solve`].)
pub fn hint(b: &Board, mode: Mode, max_states: Option<usize>) -> Result<HintOut, ServiceError> {
    hint_in(b, mode, max_states, ())
}

/// [`hint`] holding `slot` until the search ends (as [`solve_in`]).
pub fn hint_in<S: Send + 'static>(
    b: &Board,
    mode: Mode,
    max_states: Option<usize>,
    slot: S,
) -> Result<HintOut, ServiceError> {
    let s = solve_in(b, mode, max_states, slot)?;
    Ok(HintOut {
        verdict: s.verdict,
        next: s.moves.first().cloned(),
        line: s.moves,
    })
}
