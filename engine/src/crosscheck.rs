//! The cross-check (`solve --cross-check`): Freecell Solver (`fc-solve`, run by
//! [`fcauto_automation::fcsolve`]) plays the same board, our validator replays its
//! solution, and the two verdicts are compared: standard FreeCell ([`cross_check`]) and the
//! other games of the family ([`cross_check_family`]). The answer is a [`CrossCheck`]: what
//! each side said, line by line, and whether they agree; the command prints it.

use anyhow::{Context, Result};
use fcauto_automation::fcsolve::{game_flags, ATOMIC_SCAN};
use fcauto_deals::{plural, Board, Game, Layout, Rules};
use fcauto_solver::family::{read_fcs_output, validate_family, FamilyMove, FamilyOutcome};
use fcauto_solver::{parse_fcs_output, validate, FcsVerdict};

/// fc-solve's iteration limit in a cross-check (`-mi`): lg needs a few hundred on most deals
/// and a few thousand on hard ones; without a limit it can run for minutes on the hardest
/// (94717719: more than 100 s), which looks like a hang. About 2-5 s on this machine.
pub const CROSS_CHECK_ITERATIONS: u64 = 2_000_000;

/// fc-solve's iteration limit for its complete atomic scan of a family game: the scans that
/// exhaust a deal take up to a few million positions (2-freecell deals), about 10 s at most.
pub const ATOMIC_ITERATIONS: u64 = 20_000_000;

/// What a cross-check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossCheck {
    /// What each side said, in order (`fcauto: solved, 84 moves`, `fc-solve -l lg: solved,
    /// 97 moves (...); our validator accepts it`).
    pub lines: Vec<String>,
    /// The comparison in words: `AGREE`, `DISAGREE`, `NO CONTRADICTION (...)` or
    /// `INCONCLUSIVE (...)`.
    pub outcome: &'static str,
    /// True when the outcome lets the solve succeed: the sides agree, or only fc-solve
    /// stopped at its limit (or, for standard FreeCell, lg's scan missed a solution of
    /// ours); false for a contradiction or when we stopped at our limit.
    pub agreed: bool,
}

/// Run `fc-solve -p -t -sam -sel -l lg -mi 2000000` on `board` and validate its solution
/// with our validator. `ours` is our move count when we solved it (the solution already
/// validated), `ours_unsolvable` whether we proved it unsolvable. The lines say our verdict,
/// then fc-solve's; not agreed when the verdicts contradict each other (one solution
/// rejected by our validator, or a proof of ours against a valid solution of theirs) or when
/// we stopped at our limit; agreed when they agree, or when only fc-solve gave up (lg is no
/// exhaustive search).
///
/// # Errors
/// fc-solve is missing (install the Debian package `freecell-solver-bin`, e.g. with
/// `scripts/setup-deps.sh`), fails to run, or prints no verdict.
pub fn cross_check(
    board: &Board,
    ours: Option<usize>,
    ours_unsolvable: bool,
) -> Result<CrossCheck> {
    let limit = CROSS_CHECK_ITERATIONS.to_string();
    let raw = run_fc_solve(board, &["-l", "lg", "-mi", &limit])?;
    let (verdict, moves) = parse_fcs_output(&raw).context("reading fc-solve's output")?;
    // No verdict line at all: fc-solve did not run its scan (another program of that name,
    // a broken install). That is a failure to cross-check, not a disagreement.
    ensure_verdict(verdict, &raw)?;
    let ours_text = match (ours, ours_unsolvable) {
        (Some(n), _) => format!("solved, {}", plural(n, "move")),
        (None, true) => "unsolvable (exhaustive)".into(),
        (None, false) => "unknown (limit reached)".into(),
    };
    let (theirs, theirs_valid) = match verdict {
        FcsVerdict::Solved => match validate(board, &moves) {
            Ok(v) => (
                format!(
                    "solved, {} ({} single-card); our validator accepts it",
                    plural(v.moves_total, "move"),
                    v.single_card_moves
                ),
                true,
            ),
            Err(e) => (
                format!(
                    "solved, {}; our validator REJECTS it: {e}",
                    plural(moves.len(), "move")
                ),
                false,
            ),
        },
        FcsVerdict::NotSolved => (
            "found no solution (\"I could not solve this game\")".into(),
            false,
        ),
        FcsVerdict::LimitExceeded => ("stopped at its iteration limit (-mi 2000000)".into(), false),
        FcsVerdict::Unknown => ("printed no verdict".into(), false),
    };
    let (outcome, agreed) = match (ours.is_some(), ours_unsolvable, verdict) {
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
    Ok(CrossCheck {
        lines: vec![
            format!("fcauto: {ours_text}"),
            format!("fc-solve -l lg: {theirs}"),
        ],
        outcome,
        agreed,
    })
}

/// Run fc-solve with `-p -t -sam -sel` plus `extra` on `board`
/// ([`fcauto_automation::fcsolve::run_ok`]); returns its standard output.
///
/// # Errors
/// fc-solve is missing, or fails.
pub fn run_fc_solve(board: &Board, extra: &[&str]) -> Result<String> {
    let mut flags = vec!["-p", "-t", "-sam", "-sel"];
    flags.extend_from_slice(extra);
    Ok(fcauto_automation::fcsolve::run_ok(board, &flags)?)
}

/// Our verdict on a family game, as the cross-check's first line says it (`fcauto: solved,
/// 90 moves`): said before fc-solve runs.
pub fn family_ours(outcome: &FamilyOutcome) -> String {
    let ours_text = match outcome {
        FamilyOutcome::Solved(s) => format!("solved, {}", plural(s.moves.len(), "move")),
        FamilyOutcome::Unsolvable => "unsolvable (exhaustive)".into(),
        FamilyOutcome::Unknown(_) => "unknown (limit reached)".into(),
    };
    format!("fcauto: {ours_text}")
}

/// The cross-check of a game of the family: fc-solve plays the same board with the game's
/// flags ([`game_flags`]: `-g NAME --freecells-num N`), first its default scan (`-mi
/// 2000000`), then, when that finds no solution, its complete atomic scan ([`ATOMIC_SCAN`],
/// `-mi 20000000`), whose "could not solve" is a proof, except in a game whose sequence
/// moves are unlimited (the relaxed games): single-card moves cannot make a run move that
/// the freecells could not carry, so there it is no proof, and it contradicts nothing. A
/// solution of fc-solve is replayed by
/// the family's validator. The lines say what fc-solve's scans said (our verdict is
/// [`family_ours`]); not agreed when the verdicts contradict each other (a solution
/// rejected, a solution against a proof) or when we stopped at our limit; agreed when they
/// agree, or when only fc-solve stopped at its limit.
///
/// # Errors
/// fc-solve is missing or fails to run, or prints no verdict.
pub fn cross_check_family(
    game: &Game,
    rules: &Rules,
    layout: &Layout,
    outcome: &FamilyOutcome,
) -> Result<CrossCheck> {
    let flags = game_flags(game, rules);
    let game_words = flags.join(" ");
    let mut lines = Vec::new();
    let limit = CROSS_CHECK_ITERATIONS.to_string();
    let mut scan = format!("fc-solve {game_words}");
    let (mut verdict, mut moves) = run_family(layout, &flags, &["-sam", "-sel", "-mi", &limit])?;
    if verdict != FcsVerdict::Solved {
        lines.push(format!("{scan}: {verdict}; its complete atomic scan next"));
        let atomic = ATOMIC_ITERATIONS.to_string();
        let mut extra = vec!["-sam", "-mi", &atomic];
        extra.extend_from_slice(&ATOMIC_SCAN);
        scan = format!("fc-solve {game_words} {}", ATOMIC_SCAN.join(" "));
        (verdict, moves) = run_family(layout, &flags, &extra)?;
    }
    let (theirs, theirs_valid) = match verdict {
        FcsVerdict::Solved => match validate_family(layout, rules, &moves) {
            Ok(_) => (
                format!(
                    "solved, {}; our validator accepts it",
                    plural(moves.len(), "move")
                ),
                true,
            ),
            Err(e) => (
                format!(
                    "solved, {}; our validator REJECTS it: {e}",
                    plural(moves.len(), "move")
                ),
                false,
            ),
        },
        FcsVerdict::NotSolved if atomic_proves(rules) => (
            "could not solve it: its complete scan ran dry".into(),
            false,
        ),
        FcsVerdict::NotSolved => (
            "could not solve it: its atomic scan ran dry, which is no proof here (it cannot make the unlimited sequence moves)".into(),
            false,
        ),
        _ => (
            format!("stopped at its iteration limit (-mi {ATOMIC_ITERATIONS})"),
            false,
        ),
    };
    lines.push(format!("{scan}: {theirs}"));
    let (outcome, agreed) = compare_family(outcome, verdict, theirs_valid, rules);
    Ok(CrossCheck {
        lines,
        outcome,
        agreed,
    })
}

/// The comparison of our family `outcome` with fc-solve's last `verdict` (its solution
/// accepted by our validator: `theirs_valid`) under `rules`: the outcome's words and whether
/// the solve may succeed.
fn compare_family(
    outcome: &FamilyOutcome,
    verdict: FcsVerdict,
    theirs_valid: bool,
    rules: &Rules,
) -> (&'static str, bool) {
    match (outcome, verdict) {
        (FamilyOutcome::Unknown(_), _) => ("INCONCLUSIVE (fcauto stopped at its limit)", false),
        (_, FcsVerdict::LimitExceeded) => ("INCONCLUSIVE (fc-solve stopped at its limit)", true),
        (FamilyOutcome::Solved(_), FcsVerdict::Solved) if theirs_valid => ("AGREE", true),
        (FamilyOutcome::Unsolvable, FcsVerdict::NotSolved) if atomic_proves(rules) => {
            ("AGREE", true)
        }
        (_, FcsVerdict::NotSolved) if !atomic_proves(rules) => (
            "NO CONTRADICTION (fc-solve's atomic scan, which is no proof in this game, found no solution)",
            true,
        ),
        _ => ("DISAGREE", false),
    }
}

/// True when fc-solve's complete atomic scan running dry proves a deal of these rules
/// unsolvable: when every sequence move is a string of single-card moves through the
/// freecells and empty cascades (limited sequence moves).
fn atomic_proves(rules: &Rules) -> bool {
    rules.sequence == fcauto_deals::SequenceMove::Limited
}

/// Run fc-solve on `layout`'s board text with the game's `flags` and `extra`; its verdict
/// (an error when it printed none) and moves.
fn run_family(
    layout: &Layout,
    flags: &[String],
    extra: &[&str],
) -> Result<(FcsVerdict, Vec<FamilyMove>)> {
    let mut all: Vec<&str> = flags.iter().map(String::as_str).collect();
    all.extend_from_slice(extra);
    let raw = fcauto_automation::fcsolve::run_text_ok(&layout.board_text(), &all)?;
    let (verdict, moves) = read_fcs_output(&raw).context("reading fc-solve's output")?;
    ensure_verdict(verdict, &raw)?;
    Ok((verdict, moves))
}

/// An error unless fc-solve printed a verdict (`raw`: its output, whose opening the error
/// quotes): without one it did not run its scan (another program of that name, a broken
/// install).
fn ensure_verdict(verdict: FcsVerdict, raw: &str) -> Result<()> {
    anyhow::ensure!(
        verdict != FcsVerdict::Unknown,
        "fc-solve printed no verdict (no \"This game is solveable.\" or \"I could not solve \
         this game.\" line; its output began {:?}): is it Freecell Solver?",
        raw.chars().take(60).collect::<String>()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// fc-solve's atomic scan running dry proves a deal unsolvable under limited sequence
    /// moves (agreeing with our proof, contradicting our solution), and proves nothing in a
    /// relaxed game (unlimited sequence moves): there it contradicts neither.
    #[test]
    fn the_atomic_scan_proves_only_under_limited_sequence_moves() {
        let limited = Game::find("seahaven_towers").unwrap().rules;
        let relaxed = Game::find("relaxed_seahaven_towers").unwrap().rules;
        let proof = FamilyOutcome::Unsolvable;
        let dry = FcsVerdict::NotSolved;
        assert_eq!(
            compare_family(&proof, dry, false, &limited),
            ("AGREE", true)
        );
        let (words, agreed) = compare_family(&proof, dry, false, &relaxed);
        assert!(words.starts_with("NO CONTRADICTION") && agreed, "{words}");
    }
}
