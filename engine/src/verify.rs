//! The one verify, for the command line's `verify` and the service's (HTTP and MCP): a
//! solution document ([`SolutionDoc`]) checked from its start with the independent validator
//! ([`fcauto_solver::validate`]). The start is the one the caller gives (`--deal`/`--board`,
//! or the service's position), which must agree with any the document names
//! ([`StartConflict`] when not), or else the one the document names. Every claim the
//! document makes beside its moves is checked too: a JSON's deal, cascades, verdict and
//! counts, fc-solve's verdict, total and printed positions. The other games of the FreeCell
//! family are verified by [`family`], with their own validator.

use crate::input::{check_fcs_states, Start, StartConflict, StartGiven};
use anyhow::{Context, Result};
use fcauto_deals::Board;
use fcauto_solver::document::{DocKind, SolutionDoc, TextMoves};
use fcauto_solver::{parse_standard, resolve_counts, validate, FcsVerdict, Loc, StepMove};

mod claims;
pub mod family;
mod family_fcs;
mod family_json;

/// A solution that was verified: every move legal, all 52 cards on the foundations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Moves (a supermove counts one).
    pub moves_total: usize,
    /// Single-card moves (a supermove of `n` cards counts `n`'s cost).
    pub single_card_moves: usize,
}

/// A solution given with no start that names none itself: a usage problem (exit 2), as a
/// [`StartConflict`] is.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NoStart(pub String);

/// Moves that do not win from the start, told apart from a text that is no solution: no
/// moves for a board not won, or a text saying the game was not solved. With the validator's
/// [`fcauto_solver::ValidationError`] and [`fcauto_solver::ResolveError`] these are
/// [`is_not_a_win`]: the service answers them as a verdict (`valid: false`).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NotAWin(pub String);

/// True when `e` is a usage problem rather than a bad solution: a [`StartConflict`] or a
/// [`NoStart`].
pub fn is_usage_problem(e: &anyhow::Error) -> bool {
    e.chain()
        .any(|c| c.is::<StartConflict>() || c.is::<NoStart>())
}

/// True when `e` says the moves read but do not win: an illegal move (of standard FreeCell
/// or of a family game), a run no count makes legal, a game not won, or [`NotAWin`].
pub fn is_not_a_win(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.is::<NotAWin>()
            || c.is::<fcauto_solver::ValidationError>()
            || c.is::<fcauto_solver::ResolveError>()
            || c.is::<fcauto_solver::family::FamilyValidationError>()
    })
}

/// Where the callers of [`verify`] differ. The command line takes the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Refuse our JSON, in words that say what to send: the service's `verify` takes a
    /// solution as text (standard notation, an annotated game, fc-solve's output), its
    /// contract and schema say so, and a JSON is refused as such rather than read.
    pub refuse_json: bool,
}

/// Verify `doc` (named `name` in errors: `solution x.json`) from `given` (the deal, board or
/// position the caller gives; `None`: the start the document names). Read as the command
/// line reads a file ([`SolutionDoc::read`]: a byte-order mark left out, fc-solve's lines
/// tidied of tabs and doubled spaces). Standard notation whose start has freecells with a
/// gap is replayed on fcauto's numbering of them, else fc-solve's (left-aligned): the first
/// on which its counts resolve and the game is won.
///
/// The callers differ only in what they pass: the command line its `--deal`/`--board` (or
/// none) and the file's name, with [`Options::default`]; the service its position
/// ([`StartGiven::Position`]) and the name `the solution`, with [`Options::refuse_json`],
/// and it answers an [`is_not_a_win`] error as a verdict (`valid: false`) and any other as
/// a refusal, where the command line exits 1 (2 for [`is_usage_problem`]).
///
/// # Errors
/// The first problem found: no start ([`NoStart`]), a start given that is not the one the
/// document names ([`StartConflict`]), a claim that does not hold, a move that does not
/// read, an illegal move or a game not won (the validator's words, with the step; these
/// and [`NotAWin`] are [`is_not_a_win`]).
pub fn verify(
    doc: &SolutionDoc,
    given: Option<(Start, StartGiven)>,
    name: &str,
    options: Options,
) -> Result<Report> {
    if options.refuse_json && doc.kind() == DocKind::Json {
        anyhow::bail!(
            "the solution is JSON: send standard notation (the `standard` field of a solve's \
             answer, or `solve --format standard`'s output)"
        );
    }
    let own = given.is_none();
    anyhow::ensure!(
        !own || !doc.text().trim().is_empty(),
        "{name}: the file is empty (a solution lists moves)"
    );
    let ((deal, board), start_of) = match given {
        Some(g) => g,
        None => (own_start(doc, name)?, StartGiven::Own),
    };
    let (moves, claimed_single, board) = if doc.kind() == DocKind::Json {
        json_moves(doc, deal, board, name)?
    } else {
        let what = match start_of {
            StartGiven::Position => "position",
            _ if deal.is_some() => "deal",
            _ => "board",
        };
        let (moves, board) = text_moves(doc, &board, start_of, what, name, options)?;
        (moves, None, board)
    };
    let v = validate(&board, &moves).with_context(|| name.to_string())?;
    if let Some(claimed) = claimed_single {
        anyhow::ensure!(
            claimed == v.single_card_moves,
            "{name}: `single_card_moves` says {claimed} but the moves amount to {}",
            v.single_card_moves
        );
    }
    Ok(Report {
        moves_total: v.moves_total,
        single_card_moves: v.single_card_moves,
    })
}

/// The start `doc` names itself; none is a [`NoStart`], or for fc-solve's output of a game
/// it did not solve, a failure naming that (it has no moves to verify).
fn own_start(doc: &SolutionDoc, name: &str) -> Result<Start> {
    let start = doc
        .own_start()
        .map_err(|e| anyhow::Error::new(e).context(name.to_string()))?;
    if let Some(start) = start {
        return Ok(start);
    }
    if let Some(v) = doc.fcs_not_solved() {
        anyhow::bail!(
            "{name}: fc-solve's output says it did not solve the game ({v}): it has no moves to verify"
        );
    }
    Err(NoStart(format!(
        "{name} names no start: give the deal it starts from with --deal N, or the start position with --board FILE"
    ))
    .into())
}

/// A solution JSON's moves (counts a minimal JSON leaves open found as in standard
/// notation), its `single_card_moves` claim and the start, its claims checked
/// ([`claims::check_json_claims`]).
fn json_moves(
    doc: &SolutionDoc,
    deal: Option<u64>,
    board: Board,
    name: &str,
) -> Result<(Vec<StepMove>, Option<usize>, Board)> {
    let (sol, moves) = doc
        .json()
        .map_err(|e| anyhow::Error::new(e).context(name.to_string()))?;
    // `solvable` absent (a minimal JSON) claims nothing; `"solvable": null` claims unknown.
    claims::check_json_claims(&sol, doc.json_gives_solvable(), deal, &board, moves.len())
        .with_context(|| name.to_string())?;
    // A minimal JSON may leave out `count` and `card`: a move between cascades then has
    // its count found as in standard notation.
    let open = |m: &StepMove| {
        m.count.is_none()
            && m.card.is_none()
            && matches!((m.from, m.to), (Loc::Cascade(_), Loc::Cascade(_)))
    };
    let moves = if moves.iter().any(open) {
        resolve_counts(&board, &moves).with_context(|| name.to_string())?
    } else {
        moves
    };
    Ok((moves, sol.single_card_moves, board))
}

/// The moves of a text solution (standard notation, an annotated list, fc-solve's output),
/// read by the one reader ([`SolutionDoc::text_moves`]), and the numbering of `board` they
/// are read on (fc-solve numbers freecells left-aligned), fc-solve's verdict and printed
/// positions checked. `what`: `deal`, `board` or `position`.
fn text_moves(
    doc: &SolutionDoc,
    board: &Board,
    start_of: StartGiven,
    what: &str,
    name: &str,
    options: Options,
) -> Result<(Vec<StepMove>, Board)> {
    let named =
        |e: fcauto_solver::document::DocError| anyhow::Error::new(e).context(name.to_string());
    // `solve`'s standard notation for a deal it did not solve: `# unsolvable` or
    // `# unknown: why` (among other comments, with no moves).
    if let Some(said) = doc.not_solved_comment() {
        return Err(NotAWin(format!(
            "{name}: the solution file says the {what} was not solved ({said})"
        ))
        .into());
    }
    // Move numbers, `{...}` comments and `?`/`!` marks (analyze's `game.txt`) are read
    // past, as `analyze` does; a `{...}` comment may quote an fc-solve line, and only text
    // that reads as fc-solve's output is read for its move lines.
    let listed = doc.text_moves().map_err(named)?;
    // No moves at all (`solve`'s `# already won: no moves`, or comments alone) solves only
    // a won board.
    if matches!(listed, TextMoves::Nothing { .. }) && !board.is_won() {
        return Err(NotAWin(format!(
            "{name}: the solution has no moves, and the {what} is not already won"
        ))
        .into());
    }
    if let TextMoves::Fcs { verdict, .. } | TextMoves::Standard { verdict, .. } = &listed {
        if matches!(verdict, FcsVerdict::NotSolved | FcsVerdict::LimitExceeded) {
            return Err(NotAWin(format!(
                "{name}: fc-solve's output says it did not solve the {what} ({verdict})"
            ))
            .into());
        }
    }
    let states = doc.printed_positions().map_err(named)?;
    let boards = fcauto_solver::fc_solve_numberings(board, &states);
    // Output for another deal is named as such before its moves are read.
    check_fcs_states(&boards[0], &[], &states, start_of).with_context(|| name.to_string())?;
    let (moves, board) = match listed {
        TextMoves::Nothing { start } => standard_moves("", start, &boards, what, name)?,
        TextMoves::Standard { moves, start, .. } => {
            standard_moves(&moves, start, &boards, what, name)?
        }
        TextMoves::Fcs { verdict, moves } => {
            fcs_moves(moves, verdict, &boards, what, name, options)?
        }
        TextMoves::Unrecognised => {
            anyhow::bail!(
                "{name}: not a recognised solution ({})",
                recognised(options)
            )
        }
    };
    check_fcs_states(&board, &moves, &states, start_of).with_context(|| name.to_string())?;
    Ok((moves, board))
}

/// What `verify` reads, for a text that is none of it (our JSON named only where it is
/// read).
fn recognised(options: Options) -> &'static str {
    if options.refuse_json {
        "expected standard notation, or fc-solve output with -m/-sam move lines"
    } else {
        "expected our JSON, standard notation, or fc-solve output with -m/-sam move lines"
    }
}

/// Standard notation: the counts it leaves open are found by replaying with the
/// validator's rules, on the first numbering of the start on which they resolve and win
/// (else the first numbering's, for its error); the result is validated again like any
/// other input. A start the list names must be one of `boards`.
fn standard_moves(
    moves_text: &str,
    own_start: Option<Start>,
    boards: &[Board],
    what: &str,
    name: &str,
) -> Result<(Vec<StepMove>, Board)> {
    if let Some((own_deal, _)) = own_start.filter(|(_, own)| !boards.contains(own)) {
        return Err(StartConflict(format!(
            "{name}: it names its own start ({}), and the {what} given is another",
            own_deal.map_or("a position".to_string(), |n| format!("deal {n}"))
        ))
        .into());
    }
    let plain = parse_standard(moves_text).with_context(|| name.to_string())?;
    let attempts: Vec<_> = boards
        .iter()
        .map(|b| (b, resolve_counts(b, &plain)))
        .collect();
    let (b, resolved) = attempts
        .iter()
        .find(|(b, r)| r.as_ref().is_ok_and(|m| validate(b, m).is_ok()))
        .unwrap_or(&attempts[0]);
    match resolved {
        Ok(m) => Ok((m.clone(), (*b).clone())),
        Err(e) => Err(anyhow::Error::new(e.clone()).context(name.to_string())),
    }
}

/// fc-solve's move lines (or none: only fc-solve's "solved" of an already-won board is a
/// solution without moves), on the first numbering of the start on which they are legal.
fn fcs_moves(
    moves: Vec<StepMove>,
    verdict: FcsVerdict,
    boards: &[Board],
    what: &str,
    name: &str,
    options: Options,
) -> Result<(Vec<StepMove>, Board)> {
    anyhow::ensure!(
        !moves.is_empty() || verdict == FcsVerdict::Solved,
        "{name}: not a recognised solution ({})",
        recognised(options)
    );
    if moves.is_empty() && !boards[0].is_won() {
        return Err(NotAWin(format!(
            "{name}: fc-solve's output says solved but lists no moves, and the {what} is not already won"
        ))
        .into());
    }
    let b = boards
        .iter()
        .find(|b| validate(b, &moves).is_ok())
        .unwrap_or(&boards[0])
        .clone();
    Ok((moves, b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_solver::{solve_checked, Mode, Outcome};

    /// Deal `n` solved, validated, in standard notation and as JSON.
    fn solved(n: u64) -> (Board, String, String, Report) {
        let board = fcauto_deals::ms_deal(n).unwrap();
        let Ok((Outcome::Solved(c), _)) = solve_checked(Some(n), &board, Mode::Fast, None) else {
            panic!("deal {n} not solved");
        };
        let report = Report {
            moves_total: c.moves_total,
            single_card_moves: c.single_card_moves,
        };
        let json = c.solution.to_json_text().unwrap();
        (board, c.solution.to_standard(), json, report)
    }

    fn doc(text: &str) -> SolutionDoc {
        SolutionDoc::read(text).unwrap()
    }

    /// A solution verifies from the start given, or from the one it names; its counts are
    /// the validator's.
    #[test]
    fn a_solution_verifies_from_its_start() {
        let (board, standard, json, report) = solved(617);
        let given = Some(((Some(617), board.clone()), StartGiven::Deal));
        assert_eq!(
            verify(&doc(&standard), given.clone(), "s", Options::default()).unwrap(),
            report
        );
        assert_eq!(
            verify(&doc(&json), given, "s", Options::default()).unwrap(),
            report
        );
        assert_eq!(
            verify(&doc(&json), None, "s", Options::default()).unwrap(),
            report
        );
        let named = format!("# deal 617,\n{standard}");
        assert_eq!(
            verify(&doc(&named), None, "s", Options::default()).unwrap(),
            report
        );
    }

    /// Usage problems: no start at all, or a start given that the solution contradicts.
    #[test]
    fn no_start_and_another_start_are_usage_problems() {
        let (_, standard, json, _) = solved(617);
        let e = verify(&doc(&standard), None, "solution s", Options::default()).unwrap_err();
        assert!(is_usage_problem(&e), "{e:#}");
        assert!(
            format!("{e:#}").starts_with("solution s names no start"),
            "{e:#}"
        );
        let other = fcauto_deals::ms_deal(618).unwrap();
        let given = Some(((Some(618), other), StartGiven::Deal));
        let e = verify(&doc(&json), given, "solution s", Options::default()).unwrap_err();
        assert!(is_usage_problem(&e), "{e:#}");
        assert_eq!(
            format!("{e:#}"),
            "solution s: the solution is for deal 617, not deal 618"
        );
    }

    /// An illegal move is named with its step; a game cut short is not won.
    #[test]
    fn bad_moves_are_named() {
        let (board, standard, _, _) = solved(617);
        let given = || Some(((Some(617), board.clone()), StartGiven::Deal));
        let e = verify(&doc("a1\n"), given(), "s", Options::default()).unwrap_err();
        assert!(!is_usage_problem(&e) && is_not_a_win(&e), "{e:#}");
        assert!(format!("{e:#}").starts_with("s: "), "{e:#}");
        let first: String = standard
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ");
        assert!(verify(&doc(&first), given(), "s", Options::default()).is_err());
    }
}
