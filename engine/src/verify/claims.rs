//! A solution JSON's claims beside its moves: the start it names, its verdict, its counts
//! and each move's `step`, `kind` and `notation`.

use crate::input::StartConflict;
use anyhow::{Context, Result};
use fcauto_deals::{plural, Board};
use fcauto_solver::{Loc, Move, SolutionJson};

/// The JSON's own claims must agree with the board given, with each other and with its
/// moves: `deal` (with --board, the board must be that deal's initial board), `cascades`,
/// `freecells`/`foundations`, `solvable` and `verdict` (with each other, and saying solved
/// when moves are listed), `moves_total`, and per move `step`, `kind` and `notation`.
/// `solvable_given`: the JSON has a `solvable` key (null or not). `n`: the moves listed.
pub(super) fn check_json_claims(
    sol: &SolutionJson,
    solvable_given: bool,
    deal: Option<u64>,
    board: &Board,
    n: usize,
) -> Result<()> {
    check_start_claims(sol, deal, board)?;
    check_verdict_claims(sol, solvable_given, n)?;
    // No moves and no claim: right for a board already won, else no solution.
    anyhow::ensure!(
        n > 0 || board.foundations == [13; 4],
        "the solution lists no moves"
    );
    // Absent claims nothing; an explicit count, 0 included, must be the moves listed.
    if let Some(total) = sol.moves_total {
        anyhow::ensure!(
            total == n,
            "`moves_total` says {total} but {} listed",
            if n == 1 {
                "1 move is".to_string()
            } else {
                format!("{n} moves are")
            }
        );
    }
    check_move_claims(sol)
}

/// `deal`, `cascades`, `freecells` and `foundations` must name the start given
/// ([`StartConflict`] when not).
fn check_start_claims(sol: &SolutionJson, deal: Option<u64>, board: &Board) -> Result<()> {
    if let Some(a) = sol.deal {
        // A number that is no deal (0, or above 2^33-1) is named as such, not as another deal.
        fcauto_deals::parse_deal_number(&a.to_string())
            .with_context(|| format!("the solution's `deal` {a} is not a deal number"))?;
    }
    let conflict = |msg: String| anyhow::Error::from(StartConflict(msg));
    if let (Some(a), Some(b)) = (sol.deal, deal) {
        if a != b {
            return Err(conflict(format!(
                "the solution is for deal {a}, not deal {b}"
            )));
        }
    }
    // With `cascades`, absent `freecells`/`foundations` claim empty ones (read as empty);
    // without them, only those given claim anything.
    let (given, claimed) = (sol.given, &sol.position);
    if given.cascades && claimed.cascades != board.cascades {
        return Err(conflict(
            "the solution's `cascades` are not the board given (wrong --deal or --board?)".into(),
        ));
    }
    let cells_differ = (given.cascades || given.freecells) && claimed.freecells != board.freecells;
    let founds_differ =
        (given.cascades || given.foundations) && claimed.foundations != board.foundations;
    if cells_differ || founds_differ {
        return Err(conflict(
            "the solution's freecells/foundations are not those of the board given".into(),
        ));
    }
    if let (Some(a), None) = (sol.deal, deal) {
        // With --board, a `deal` claim must hold too: the JSON's board (equal to the board
        // given, checked above), or the board given when the JSON has none, is that deal.
        let initial = fcauto_deals::ms_deal(a)
            .with_context(|| format!("the solution's `deal` {a} is not a deal number"))?;
        let what = if sol.given.cascades {
            "the solution's `cascades` are"
        } else {
            "the board given is"
        };
        if *board != initial {
            return Err(conflict(format!(
                "the solution is for deal {a}, but {what} not deal {a}'s initial board"
            )));
        }
    }
    Ok(())
}

/// `verdict` and `solvable` must agree with each other, and say solved: a file that says
/// the deal was not solved is no solution, and lists no moves.
fn check_verdict_claims(sol: &SolutionJson, solvable_given: bool, n: usize) -> Result<()> {
    // What the file claims: Some(Some(true)) solved, Some(Some(false)) unsolvable,
    // Some(None) unknown, None no claim.
    let by_verdict = match sol.verdict.as_deref() {
        None => None,
        Some("solved") => Some(Some(true)),
        Some("unsolvable") => Some(Some(false)),
        Some(v) if v.starts_with("unknown") => Some(None),
        Some(v) => anyhow::bail!(
            "`verdict` {v:?} is not \"solved\", \"unsolvable\" or \"unknown: <limit>\""
        ),
    };
    let by_solvable = solvable_given.then_some(sol.solvable);
    let json = |s: Option<bool>| s.map_or("null".to_string(), |b| b.to_string());
    if let (Some(v), Some(s)) = (by_verdict, by_solvable) {
        anyhow::ensure!(
            v == s,
            "the solution file contradicts itself: `verdict` is {:?} but `solvable` is {}",
            sol.verdict.as_deref().unwrap_or_default(),
            json(s)
        );
    }
    let claim = by_solvable.or(by_verdict);
    let said = || match &sol.verdict {
        Some(v) => v.clone(),
        None => format!("`solvable`: {}", json(sol.solvable)),
    };
    if let Some(Some(false) | None) = claim {
        anyhow::ensure!(
            n == 0,
            "the solution file contradicts itself: it says the deal was not solved ({}) but lists {}",
            said(),
            plural(n, "move")
        );
        anyhow::bail!(
            "the solution file says the deal was not solved ({})",
            said()
        );
    }
    Ok(())
}

/// Per move, `step` must be its number, `kind` its kind and `notation` its places (and
/// count, when both give one).
fn check_move_claims(sol: &SolutionJson) -> Result<()> {
    for (i, m) in sol.moves.iter().enumerate() {
        let step = i + 1;
        if let Some(said) = m.step {
            anyhow::ensure!(said == step, "step {step}: `step` says {said}");
        }
        let from = Loc::parse(&m.from);
        let to = Loc::parse(&m.to);
        if let (Some(kind), Some(from), Some(to)) = (m.kind, from, to) {
            let count = m.count.unwrap_or(1);
            let actual = Move { from, to, count }.kind();
            anyhow::ensure!(
                actual == Some(kind),
                "step {step}: `kind` {kind} does not match {}{}{}",
                m.from,
                m.to,
                actual.map_or(String::new(), |a| format!(" (a {a} move)"))
            );
        }
        if let Some(nt) = &m.notation {
            // `38`, or with its count (`38v4`, `18v1`: a move onto an empty cascade).
            let token = fcauto_solver::standard::parse_token(nt);
            let places = format!("{}{}", m.from, m.to);
            let agrees = token.is_some_and(|t| {
                nt.get(..2).is_some_and(|p| p.eq_ignore_ascii_case(&places))
                    && (nt.len() == 2 || m.count.is_none() || t.count == m.count)
            });
            anyhow::ensure!(
                agrees,
                "step {step}: `notation` {nt} does not match {}{}{}",
                m.from,
                m.to,
                m.count
                    .map_or(String::new(), |c| format!(" of {c} card(s)"))
            );
        }
    }
    Ok(())
}
