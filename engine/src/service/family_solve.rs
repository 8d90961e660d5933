//! Searches and verify for a family position: [`family_solve_in`] through the family search
//! ([`solve_family`]: exact verdicts, every solution validated), capped in positions and time
//! as standard FreeCell's solves are, and [`family_verify`] by the family's validator
//! ([`validate_family`]).

use super::family::{family_move_out, FamilyPosition};
use super::solve::{search_budget, unknown};
use super::{ServiceError, SolveOut, VerifyOut, MAX_SOLUTION_BYTES};
use fcauto_solver::family::play;
use fcauto_solver::family::{solve_family, FamilyMode, FamilyOutcome, FamilySolution, FamilyStats};
use fcauto_solver::Mode;
use std::time::Duration;

/// `solve` of a family position in `mode` (the family search's mode of that name) with at
/// most `max_states` positions and the time cap `cap`, holding `slot` until the search ends
/// (as [`super::solve_in`]). The optimal modes are refused first, as for standard FreeCell
/// (they need gigabytes and minutes: `fcauto solve --game G --mode optimal`). "unsolvable"
/// only when a search over every legal move has visited every reachable position.
pub fn family_solve_capped<S: Send + 'static>(
    p: &FamilyPosition,
    mode: Mode,
    max_states: Option<usize>,
    cap: Duration,
    slot: S,
) -> Result<SolveOut, ServiceError> {
    // The service refuses the optimal modes (search_budget): fast or short is left.
    let states = search_budget(mode, max_states)?;
    let mode = match mode {
        Mode::Short => FamilyMode::Short,
        _ => FamilyMode::Fast,
    };
    let start = p.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let r = solve_family(&start.layout, &start.rules, mode, Some(states));
        let _ = tx.send(r);
        drop(slot); // only now: the search is over
    });
    match rx.recv_timeout(cap) {
        Ok(Ok((out, stats))) => Ok(solve_out(p, out, stats)),
        Ok(Err(e)) => Err(ServiceError::impossible(e.to_string())),
        Err(_) => Ok(unknown(
            format!("unknown: time cap of {} s reached", cap.as_secs_f64()),
            0,
        )),
    }
}

/// `family_solve_capped` with the service's time cap.
pub fn family_solve_in<S: Send + 'static>(
    p: &FamilyPosition,
    mode: Mode,
    max_states: Option<usize>,
    slot: S,
) -> Result<SolveOut, ServiceError> {
    family_solve_capped(p, mode, max_states, super::TIME_CAP, slot)
}

/// The answer of a finished family search.
fn solve_out(p: &FamilyPosition, out: FamilyOutcome, stats: FamilyStats) -> SolveOut {
    let positions = (stats.best_first + stats.complete) as u64;
    match out {
        FamilyOutcome::Solved(s) => solved(p, &s, positions),
        FamilyOutcome::Unsolvable => SolveOut {
            verdict: "unsolvable".into(),
            solvable: Some(false),
            ..unknown(String::new(), positions.max(stats.reachable as u64))
        },
        FamilyOutcome::Unknown(why) => unknown(format!("unknown: {why}"), positions),
    }
}

/// A validated solution's answer: each move in the service's form, played along.
fn solved(p: &FamilyPosition, s: &FamilySolution, positions: u64) -> SolveOut {
    let mut now = p.clone();
    let mut moves = Vec::with_capacity(s.moves.len());
    for m in &s.moves {
        moves.push(family_move_out(&now, m));
        if let Ok(next) = play::apply(&now.layout, &now.rules, m) {
            now.layout = next;
        }
    }
    SolveOut {
        verdict: "solved".into(),
        solvable: Some(true),
        moves_total: Some(s.moves.len()),
        single_card_moves: fcauto_solver::family::single_card_count(&p.layout, &p.rules, &s.moves),
        standard: Some(s.tokens.join(" ")),
        moves,
        positions,
    }
}

/// `verify` of a solution of a family game from `p`, read as the command line's `verify`
/// reads it ([`crate::verify::family::verify_family`]: fcauto's and fc-solve's standard
/// notation, annotated games with their `# start:`, fc-solve's `-sam` output, counts left
/// out found by backtracking). Moves that read but do not win are an answer with
/// `valid: false` and the reason.
///
/// # Errors
/// A solution over [`MAX_SOLUTION_BYTES`] (too large), one that does not read, names
/// another start or game, or has no moves.
pub fn family_verify(p: &FamilyPosition, solution: &str) -> Result<VerifyOut, ServiceError> {
    if solution.len() > MAX_SOLUTION_BYTES {
        return Err(ServiceError::too_large(format!(
            "a solution is at most {MAX_SOLUTION_BYTES} bytes"
        )));
    }
    let start = crate::verify::family::FamilyStart {
        game: p.game,
        rules: p.rules,
        layout: p.layout.clone(),
        deal: None,
    };
    let game = Some((p.game, p.rules));
    match crate::verify::family::verify_family(solution, game, Some(start), "the solution") {
        Ok(r) => Ok(VerifyOut {
            valid: true,
            moves_total: Some(r.moves_total),
            single_card_moves: r.single_card_moves,
            error: None,
        }),
        Err(e) if crate::verify::is_not_a_win(&e) => Ok(VerifyOut {
            valid: false,
            moves_total: None,
            single_card_moves: None,
            error: Some(format!("{e:#}")),
        }),
        Err(e) => Err(ServiceError::impossible(format!("{e:#}"))),
    }
}
