//! [`analyze`]: where a game was lost, for a page or an agent: a start and the moves played
//! in standard notation, analysed as `fcauto analyze` does ([`crate::analysis`]: every
//! position evaluated, the losing and costly moves found) and answered with the review
//! ([`crate::analysis::review`]: moves to win per step, classes, accuracy).

use super::solve::search_budget;
use super::{ServiceError, MAX_SOLUTION_BYTES};
use crate::analysis::evaluate::{self, Game, Settings, Stopped};
use crate::analysis::findings::{self, Findings};
use crate::analysis::replay::{self, Replay};
use crate::analysis::review::{review, Review};
use fcauto_deals::Board;
use fcauto_solver::{Mode, StepMove};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Most moves a game analysed by the service may have (each position is searched or
/// followed along a known line; `fcauto analyze` takes up to
/// [`crate::analysis::MAX_MOVES`]).
pub const MAX_ANALYZE_MOVES: usize = 500;
/// Longest an analysis may run: then it is stopped (within one search) and refused.
pub const ANALYZE_TIME_CAP: Duration = Duration::from_secs(60);

/// What [`analyze`] answers: the start, the mode, the [`Findings`] (`moves`,
/// `first_losing_step`, `losing_between`, `alternative`, `costly`, `costly_threshold`,
/// `final`, `start_verdict`, `start_moves_to_win`) and the [`Review`] (`review`: `points`,
/// `classes`, `counts`, `accuracy`, `losing_step`).
#[derive(Serialize, Debug, Clone)]
pub struct AnalyzeOut {
    /// The start as a one-line position string.
    pub start: String,
    /// The search mode.
    pub mode: Mode,
    /// Steps whose card count was open and read as the longest legal run.
    pub guessed_counts: Vec<usize>,
    /// What was found.
    #[serde(flatten)]
    pub findings: Findings,
    /// The review: moves to win per step, classes, accuracy.
    pub review: Review,
    /// Positions expanded by all searches.
    pub positions: u64,
}

/// How to analyse: the search mode (`fast` or `short`), the position budget of each search
/// (1..=[`super::MAX_STATES`], default [`super::MAX_STATES`]) and the costly threshold
/// (moves; default [`crate::analysis::DEFAULT_COSTLY`]).
#[derive(Clone, Copy, Debug)]
pub struct AnalyzeOptions {
    /// The search mode.
    pub mode: Mode,
    /// Most positions one search stores.
    pub max_states: Option<usize>,
    /// A move is costly from this many moves on (at least 1).
    pub costly: Option<usize>,
}

/// `analyze`: replay `moves` (standard notation: `3a 38 a3`, one a line or space-separated;
/// an annotated game's comments, move numbers and marks read past) from `b` with the
/// validator, evaluate every position and answer the findings and the review. (MCP's;
/// `serve` holds a solver permit through [`analyze_in`].)
///
/// # Errors
/// Moves text over [`MAX_SOLUTION_BYTES`] or more than [`MAX_ANALYZE_MOVES`] moves (too
/// large); a bad mode, budget or threshold (bad input); text that is no standard notation,
/// an illegal move, or an analysis over [`ANALYZE_TIME_CAP`] (impossible).
pub fn analyze(b: &Board, moves: &str, opts: AnalyzeOptions) -> Result<AnalyzeOut, ServiceError> {
    analyze_in(b, moves, opts, ())
}

/// [`analyze`] holding `slot` (a solver permit) until the analysis ends: past
/// [`ANALYZE_TIME_CAP`] it is told to stop, and `slot` is dropped only when it has.
pub fn analyze_in<S: Send + 'static>(
    b: &Board,
    moves: &str,
    opts: AnalyzeOptions,
    slot: S,
) -> Result<AnalyzeOut, ServiceError> {
    analyze_capped(b, moves, opts, ANALYZE_TIME_CAP, slot)
}

/// [`analyze_in`] with the time cap `cap`.
pub(super) fn analyze_capped<S: Send + 'static>(
    b: &Board,
    moves: &str,
    opts: AnalyzeOptions,
    cap: Duration,
    slot: S,
) -> Result<AnalyzeOut, ServiceError> {
    let settings = Settings {
        mode: opts.mode,
        max_states: Some(search_budget(opts.mode, opts.max_states)?),
    };
    let costly = match opts.costly {
        Some(0) => return Err(ServiceError::bad_input(
            "costly 0: a costly move makes the win at least 1 move longer (give 1 or more, or leave it out for 10)",
        )),
        Some(n) => n,
        None => crate::analysis::DEFAULT_COSTLY,
    };
    let game = replay::replay(b, &read_moves(moves)?)
        .map_err(|e| ServiceError::impossible(format!("{e:#}")))?;
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let go_on = &mut || !stopped.load(Ordering::Relaxed);
        let _ = tx.send(evaluated(&game, settings, costly, go_on).map(|r| (r, game)));
        drop(slot); // only now: the searches are over
    });
    let (found, game) = match rx.recv_timeout(cap) {
        Ok(r) => r?,
        Err(_) => {
            stop.store(true, Ordering::Relaxed);
            return Err(ServiceError::impossible(format!(
                "the analysis did not finish within {} s (a long or hard game: `fcauto analyze` has no time cap)",
                cap.as_secs()
            )));
        }
    };
    let (findings, positions) = found;
    Ok(AnalyzeOut {
        start: fcauto_deals::position::write(b),
        mode: opts.mode,
        guessed_counts: game.guessed_counts,
        review: review(&findings),
        findings,
        positions,
    })
}

/// The moves of `text`: at most [`MAX_SOLUTION_BYTES`], standard notation (annotations read
/// past), at most [`MAX_ANALYZE_MOVES`] moves.
fn read_moves(text: &str) -> Result<Vec<StepMove>, ServiceError> {
    if text.len() > MAX_SOLUTION_BYTES {
        return Err(ServiceError::too_large(format!(
            "a move list is at most {MAX_SOLUTION_BYTES} bytes"
        )));
    }
    let annotated = fcauto_solver::annotated::strip_annotations(text);
    if let Some(problem) = annotated.problem {
        return Err(ServiceError::impossible(format!(
            "not standard notation: {problem}"
        )));
    }
    let moves = fcauto_solver::parse_standard(&annotated.moves)
        .map_err(|e| ServiceError::impossible(format!("not standard notation: {e}")))?;
    if moves.len() > MAX_ANALYZE_MOVES {
        return Err(ServiceError::too_large(format!(
            "a game of {} moves: the service analyses at most {MAX_ANALYZE_MOVES} (`fcauto analyze` takes up to {})",
            moves.len(),
            crate::analysis::MAX_MOVES
        )));
    }
    Ok(moves)
}

/// Every position of `game` evaluated and the costly moves confirmed, read into the
/// [`Findings`]; with the positions expanded.
fn evaluated(
    game: &Replay,
    settings: Settings,
    costly: usize,
    go_on: &mut dyn FnMut() -> bool,
) -> Result<(Findings, u64), ServiceError> {
    let fail = |e: anyhow::Error| {
        if e.is::<Stopped>() {
            ServiceError::impossible("the analysis was stopped at its time cap")
        } else {
            ServiceError::impossible(format!("{e:#}"))
        }
    };
    let (mut evals, mut work) =
        evaluate::evaluate_until(&game.positions, &game.played, settings, go_on).map_err(fail)?;
    let g = Game {
        positions: &game.positions,
        played: &game.played,
    };
    evaluate::confirm_costly_until(&mut evals, g, settings, costly, &mut work, go_on)
        .map_err(fail)?;
    Ok((findings::find(game, &evals, costly), work.expanded))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> AnalyzeOptions {
        AnalyzeOptions {
            mode: Mode::Fast,
            max_states: None,
            costly: None,
        }
    }

    /// An analysis past its time cap is refused in words that say so, and the searches
    /// stop (the slot is given back).
    #[test]
    fn an_analysis_over_its_time_cap_is_refused_and_stopped() {
        let b = fcauto_deals::ms_deal(617).unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        struct Slot(std::sync::mpsc::Sender<()>);
        impl Drop for Slot {
            fn drop(&mut self) {
                let _ = self.0.send(());
            }
        }
        let e = analyze_capped(&b, "4a 46 4b", opts(), Duration::ZERO, Slot(tx)).unwrap_err();
        assert!(e.message.contains("did not finish within 0 s"), "{e}");
        rx.recv_timeout(Duration::from_secs(60))
            .expect("the slot is dropped once the searches stop");
    }

    #[test]
    fn a_short_game_is_reviewed() {
        let b = fcauto_deals::ms_deal(617).unwrap();
        let a = analyze(&b, "4a 46 4b", opts()).unwrap();
        assert_eq!(a.review.points.len(), 4);
        assert_eq!(a.findings.moves.len(), 3);
        assert_eq!(a.review.counts.unclassified, 0);
    }
}
