//! `--cross-check`: run Freecell Solver (`fc-solve`) on the same board and compare: standard
//! FreeCell ([`cross_check`]) and the other games of the family ([`cross_check_family`]).

use crate::cmd::plural;
use anyhow::{Context, Result};
use fcauto_automation::fcsolve::{game_flags, ATOMIC_SCAN};
use fcauto_deals::{Board, Game, Layout, Rules};
use fcauto_solver::family::{read_fcs_output, validate_family, FamilyOutcome};
use fcauto_solver::{parse_fcs_output, validate, FcsVerdict};

/// fc-solve's iteration limit in a cross-check (`-mi`): lg needs a few hundred on most deals
/// and a few thousand on hard ones; without a limit it can run for minutes on the hardest
/// (94717719: more than 100 s), which looks like a hang. About 2-5 s on this machine.
const CROSS_CHECK_ITERATIONS: u64 = 2_000_000;

/// Run `fc-solve -p -t -sam -sel -l lg -mi 2000000` on `board`, validate its solution with our validator,
/// and print both verdicts and lengths. `ours` is our move count when we solved it (the
/// solution already validated), `ours_unsolvable` whether we proved it unsolvable. Returns
/// false when the verdicts contradict each other (one solution rejected by our validator, or
/// a proof of ours against a valid solution of theirs) or when we stopped at our limit;
/// true when they agree, or when only fc-solve gave up (lg is no exhaustive search).
///
/// Errors: fc-solve is missing (install the Debian package `freecell-solver-bin`, e.g. with
/// `scripts/setup-deps.sh`) or fails to run.
pub fn cross_check(board: &Board, ours: Option<usize>, ours_unsolvable: bool) -> Result<bool> {
    let limit = CROSS_CHECK_ITERATIONS.to_string();
    let raw = run_fc_solve(board, &["-l", "lg", "-mi", &limit])?;
    let (verdict, moves) = parse_fcs_output(&raw).context("reading fc-solve's output")?;
    // No verdict line at all: fc-solve did not run its scan (another program of that name,
    // a broken install). That is a failure to cross-check, not a disagreement.
    anyhow::ensure!(
        verdict != FcsVerdict::Unknown,
        "fc-solve printed no verdict (no \"This game is solveable.\" or \"I could not solve \
         this game.\" line; its output began {:?}): is it Freecell Solver?",
        raw.chars().take(60).collect::<String>()
    );
    let ours_text = match (ours, ours_unsolvable) {
        (Some(n), _) => format!("solved, {}", plural(n, "move")),
        (None, true) => "unsolvable (exhaustive)".into(),
        (None, false) => "unknown (limit reached)".into(),
    };
    crate::note!("cross-check: fcauto: {ours_text}");
    let theirs_valid = match verdict {
        FcsVerdict::Solved => match validate(board, &moves) {
            Ok(v) => {
                crate::note!("cross-check: fc-solve -l lg: solved, {} ({} single-card); our validator accepts it", plural(v.moves_total, "move"), v.single_card_moves);
                true
            }
            Err(e) => {
                crate::note!(
                    "cross-check: fc-solve -l lg: solved, {}; our validator REJECTS it: {e}",
                    plural(moves.len(), "move")
                );
                false
            }
        },
        other => {
            let said = match other {
                FcsVerdict::NotSolved => "found no solution (\"I could not solve this game\")",
                FcsVerdict::LimitExceeded => "stopped at its iteration limit (-mi 2000000)",
                _ => "printed no verdict",
            };
            crate::note!("cross-check: fc-solve -l lg: {said}");
            false
        }
    };
    // The outcome, and whether it lets `solve` succeed.
    let (outcome, ok) = match (ours.is_some(), ours_unsolvable, verdict) {
        (true, _, FcsVerdict::Solved) if theirs_valid => ("AGREE", true),
        // fc-solve's lg is a meta-move scan, not an exhaustive search: "could not solve" is
        // its word for "not found", never a proof. A proof of ours agrees with it, and our
        // validated solution shows that the scan missed one: no contradiction either way.
        (false, true, FcsVerdict::NotSolved) => ("AGREE", true),
        (true, _, FcsVerdict::NotSolved) => (
            "NO CONTRADICTION (fcauto's solution is validated; lg's scan, which is no proof, missed one)",
            true,
        ),
        (false, false, _) => ("INCONCLUSIVE (fcauto stopped at its limit)", false),
        (_, _, FcsVerdict::LimitExceeded) => ("INCONCLUSIVE (fc-solve stopped at its limit)", true),
        _ => ("DISAGREE", false),
    };
    crate::note!("cross-check: {outcome}");
    Ok(ok)
}

/// Run fc-solve with `-p -t -sam -sel` plus `extra` on `board`
/// ([`fcauto_automation::fcsolve::run_ok`]); returns its standard output.
pub fn run_fc_solve(board: &Board, extra: &[&str]) -> Result<String> {
    let mut flags = vec!["-p", "-t", "-sam", "-sel"];
    flags.extend_from_slice(extra);
    Ok(fcauto_automation::fcsolve::run_ok(board, &flags)?)
}

/// fc-solve's iteration limit for its complete atomic scan of a family game: the scans that
/// exhaust a deal take up to a few million positions (2-freecell deals), about 10 s at most.
const ATOMIC_ITERATIONS: u64 = 20_000_000;

/// `--cross-check` for a game of the family: fc-solve plays the same board with the game's
/// flags ([`game_flags`]: `-g NAME --freecells-num N`), first its default scan (`-mi
/// 2000000`), then, when that finds no solution, its complete atomic scan ([`ATOMIC_SCAN`],
/// `-mi 20000000`), whose "could not solve" is a proof. A solution of fc-solve is replayed by
/// the family's validator. Returns false when the verdicts contradict each other (a
/// solution rejected, a solution against a proof) or when we stopped at our limit; true when
/// they agree, or when only fc-solve stopped at its limit.
///
/// Errors: fc-solve is missing or fails to run, or prints no verdict.
pub fn cross_check_family(
    game: &Game,
    rules: &Rules,
    layout: &Layout,
    outcome: &FamilyOutcome,
) -> Result<bool> {
    let flags = game_flags(game, rules);
    let game_words = flags.join(" ");
    let ours_text = match outcome {
        FamilyOutcome::Solved(s) => format!("solved, {}", plural(s.moves.len(), "move")),
        FamilyOutcome::Unsolvable => "unsolvable (exhaustive)".into(),
        FamilyOutcome::Unknown(_) => "unknown (limit reached)".into(),
    };
    crate::note!("cross-check: fcauto: {ours_text}");
    let limit = CROSS_CHECK_ITERATIONS.to_string();
    let mut scan = format!("fc-solve {game_words}");
    let (mut verdict, mut moves) = run_family(layout, &flags, &["-sam", "-sel", "-mi", &limit])?;
    if verdict != FcsVerdict::Solved {
        crate::note!("cross-check: {scan}: {verdict}; its complete atomic scan next");
        let atomic = ATOMIC_ITERATIONS.to_string();
        let mut extra = vec!["-sam", "-mi", &atomic];
        extra.extend_from_slice(&ATOMIC_SCAN);
        scan = format!("fc-solve {game_words} {}", ATOMIC_SCAN.join(" "));
        (verdict, moves) = run_family(layout, &flags, &extra)?;
    }
    let theirs_valid = match verdict {
        FcsVerdict::Solved => match validate_family(layout, rules, &moves) {
            Ok(_) => {
                crate::note!(
                    "cross-check: {scan}: solved, {}; our validator accepts it",
                    plural(moves.len(), "move")
                );
                true
            }
            Err(e) => {
                crate::note!(
                    "cross-check: {scan}: solved, {}; our validator REJECTS it: {e}",
                    plural(moves.len(), "move")
                );
                false
            }
        },
        FcsVerdict::NotSolved => {
            crate::note!("cross-check: {scan}: could not solve it: its complete scan ran dry");
            false
        }
        _ => {
            crate::note!(
                "cross-check: {scan}: stopped at its iteration limit (-mi {ATOMIC_ITERATIONS})"
            );
            false
        }
    };
    let (words, ok) = match (outcome, verdict) {
        (FamilyOutcome::Unknown(_), _) => ("INCONCLUSIVE (fcauto stopped at its limit)", false),
        (_, FcsVerdict::LimitExceeded) => ("INCONCLUSIVE (fc-solve stopped at its limit)", true),
        (FamilyOutcome::Solved(_), FcsVerdict::Solved) if theirs_valid => ("AGREE", true),
        (FamilyOutcome::Unsolvable, FcsVerdict::NotSolved) => ("AGREE", true),
        _ => ("DISAGREE", false),
    };
    crate::note!("cross-check: {words}");
    Ok(ok)
}

/// Run fc-solve on `layout`'s board text with the game's `flags` and `extra`; its verdict
/// (an error when it printed none) and moves.
fn run_family(
    layout: &Layout,
    flags: &[String],
    extra: &[&str],
) -> Result<(FcsVerdict, Vec<fcauto_solver::family::FamilyMove>)> {
    let mut all: Vec<&str> = flags.iter().map(String::as_str).collect();
    all.extend_from_slice(extra);
    let raw = fcauto_automation::fcsolve::run_text_ok(&layout.board_text(), &all)?;
    let (verdict, moves) = read_fcs_output(&raw).context("reading fc-solve's output")?;
    anyhow::ensure!(
        verdict != FcsVerdict::Unknown,
        "fc-solve printed no verdict (no \"This game is solveable.\" or \"I could not solve \
         this game.\" line; its output began {:?}): is it Freecell Solver?",
        raw.chars().take(60).collect::<String>()
    );
    Ok((verdict, moves))
}
