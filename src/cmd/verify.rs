//! `fcauto verify`: check a solution with the independent validator.

use crate::cmd::input::{self, load_board, read_text_capped};
use crate::cmd::plural;
use anyhow::{Context, Result};
use fcauto_deals::Board;
use fcauto_solver::{
    looks_like_fcs_output, parse_fcs_output, parse_fcs_states, parse_json, parse_standard,
    resolve_counts, standard::looks_like_standard, validate, FcsVerdict, Loc, Move, SolutionJson,
    StepMove,
};
use std::path::PathBuf;

/// Arguments of `fcauto verify`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("input").args(["deal", "board"])))]
pub struct Args {
    /// MS deal number the solution starts from. Neither this nor `--board` is needed when the
    /// solution names its start: a solution JSON's `deal` or `board`, fc-solve's `-p -t`
    /// output (its first position), a `# start:` line (`analyze --report`'s `game.txt`).
    #[arg(long, allow_hyphen_values = true, value_parser = fcauto_deals::parse_deal_number)]
    pub deal: Option<u64>,
    /// Board file the solution starts from: Freecell Solver's board text, a position string,
    /// `fcauto deal N --format json`'s output, or `fcauto solve --format json`'s or another solution that
    /// names its start (fc-solve's `-p -t` output: its first position; `game.txt`'s `# start:`)
    /// (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    pub board: Option<PathBuf>,
    /// The solution: our JSON (`fcauto solve --format json`), standard notation (`--format
    /// standard`, fc-solve's `-m -sn`/`-m -snx`; `#` starts a comment to the end of the line,
    /// as `solve` writes `# unsolvable`; move numbers `12.`, `{...}` comments and `?`/`!`
    /// marks, as in `analyze --report`'s `game.txt`, are read past), or fc-solve's
    /// `-m`/`-sam` output. `-`: standard input.
    pub solution: PathBuf,
}

/// Largest solution text `verify` reads, bytes (fc-solve's `-p -t -sam` output of a long
/// solution is about 150 KiB).
const MAX_SOLUTION_TEXT: usize = 16 << 20;

/// A solution given without `--deal`/`--board` that names no start: fc-solve's output of a
/// game it did not solve is said to be one (exit 1); anything else is a usage problem
/// asking for the start (exit 2).
fn no_start(text: &str, name: &str) -> Result<i32> {
    if let Some(v) = input::fcs_not_solved(text) {
        anyhow::bail!(
            "{name}: fc-solve's output says it did not solve the game ({v}): it has no moves to verify"
        );
    }
    Ok(crate::cmd::usage_exit(&format!(
        "{name} names no start: give the deal it starts from with --deal N, or the start position with --board FILE"
    )))
}

/// Validate; exit 0 when every move is legal and all cards end home, 1 otherwise (the error
/// names the first illegal step), 2 on a usage problem (among them a `--deal`/`--board` that
/// is not the start the solution names: [`input::StartConflict`]).
pub fn run(args: Args) -> Result<i32> {
    match check(args) {
        Err(e) if input::is_start_conflict(&e) => Ok(crate::cmd::usage_exit(&format!("{e:#}"))),
        r => r,
    }
}

/// [`run`]'s work: every error but a usage problem (exit 2) is returned.
fn check(args: Args) -> Result<i32> {
    let two = "the board and the solution";
    if let Some(msg) = crate::cmd::stdin_twice(&args.solution, args.board.as_deref(), two) {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    let text = read_text_capped(
        &args.solution,
        "solution",
        MAX_SOLUTION_TEXT,
        "a solution is a few kilobytes",
    )?;
    // A byte-order mark (some Windows editors write one) is not part of the solution; tabs
    // and doubled spaces do not hide fc-solve's lines.
    let text = match text.strip_prefix('\u{feff}') {
        Some(t) => t.to_string(),
        None => text,
    };
    let text = fcauto_solver::solution::tidy_fcs_output(text);
    let name = input::name(&args.solution, "solution");
    if let Some(kind) = input::json_not_object(&text) {
        anyhow::bail!(
            "{name} is {kind}, not a solution: verify reads one solution, as the object `fcauto solve --format json` writes, standard notation or Freecell Solver's output"
        );
    }
    // A board given where the solution goes (helper-63: its first card was read as a move,
    // `7D` as `7d`, and the second named as no move).
    if fcauto_deals::position::parse_any(&text).is_ok() {
        return Ok(crate::cmd::usage_exit(&format!(
            "{name} is a board (a position), not a solution: give it as --board {} and the moves as the solution",
            args.solution.display()
        )));
    }
    // No --deal/--board: the start the solution names itself (an empty file names none).
    let own = args.deal.is_none() && args.board.is_none();
    anyhow::ensure!(
        !own || !text.trim().is_empty(),
        "{name}: the file is empty (a solution lists moves)"
    );
    let (deal, board) = match (args.deal, args.board.as_deref()) {
        (None, None) => match input::own_start(&text, &name)? {
            Some(start) => start,
            None => return no_start(&text, &name),
        },
        (deal, board) => load_board(deal, board)?,
    };
    let (moves, claimed_single, board) = if input::looks_like_json(&text) {
        let (sol, moves) = parse_json(&text).with_context(|| name.clone())?;
        // `solvable` absent (a minimal JSON) claims nothing; `"solvable": null` claims unknown.
        let solvable_given = serde_json::from_str::<serde_json::Value>(&text)
            .is_ok_and(|v| v.get("solvable").is_some());
        check_json_claims(&sol, solvable_given, deal, &board, moves.len())
            .with_context(|| name.clone())?;
        // A minimal JSON may leave out `count` and `card`: a move between cascades then has
        // its count found as in standard notation.
        let open = |m: &StepMove| {
            m.count.is_none()
                && m.card.is_none()
                && matches!((m.from, m.to), (Loc::Cascade(_), Loc::Cascade(_)))
        };
        let moves = if moves.iter().any(open) {
            resolve_counts(&board, &moves).with_context(|| name.clone())?
        } else {
            moves
        };
        (moves, sol.single_card_moves, board)
    } else {
        let what = if deal.is_some() { "deal" } else { "board" };
        // `solve`'s standard notation for a deal it did not solve: `# unsolvable` or
        // `# unknown: why` (among other comments, with no moves).
        if let Some(said) = not_solved_comment(&text) {
            anyhow::bail!("{name}: the solution file says the {what} was not solved ({said})");
        }
        // No moves at all (`solve`'s `# already won: no moves`) solves only a won board.
        anyhow::ensure!(
            !only_comments(&text) || board.is_won(),
            "{name}: the solution has no moves, and the {what} is not already won"
        );
        // A `{...}` comment (annotated standard notation) may quote an fc-solve line: only
        // text that reads as fc-solve's output is read for its move lines.
        let (verdict, moves) = if looks_like_fcs_output(&text) {
            parse_fcs_output(&text).with_context(|| name.clone())?
        } else {
            (FcsVerdict::Unknown, Vec::new())
        };
        anyhow::ensure!(
            verdict != FcsVerdict::NotSolved && verdict != FcsVerdict::LimitExceeded,
            "{name}: fc-solve's output says it did not solve the {what} ({verdict})"
        );
        let states = parse_fcs_states(&text).with_context(|| name.clone())?;
        let boards = fcauto_solver::fc_solve_numberings(&board, &states);
        // Output for another deal is named as such before its moves are read.
        let start_of = match (own, deal) {
            (true, _) => input::StartGiven::Own,
            (false, Some(_)) => input::StartGiven::Deal,
            (false, None) => input::StartGiven::Board,
        };
        input::check_fcs_states(&boards[0], &[], &states, start_of)
            .with_context(|| name.clone())?;
        // Move numbers, `{...}` comments and `?`/`!` marks (analyze's `game.txt`) are read
        // past, as `analyze` does.
        let annotated = crate::cmd::analyze::input::annotated(&text);
        // (fc-solve's output has move lines, `moves`, and is never read so.)
        let standard = looks_like_standard(&text)
            || annotated
                .as_ref()
                .is_ok_and(|(moves_text, _)| looks_like_standard(moves_text));
        let (moves, board) = if moves.is_empty() && standard {
            // Standard notation: the counts it leaves open are found by replaying with the
            // validator's rules; the result is validated again below like any other input.
            let (moves_text, own_start) = annotated.with_context(|| name.clone())?;
            if let Some((own_deal, _)) = own_start.filter(|(_, own)| !boards.contains(own)) {
                return Err(input::StartConflict(format!(
                    "{name}: it names its own start ({}), and the {what} given is another",
                    own_deal.map_or("a position".to_string(), |n| format!("deal {n}"))
                ))
                .into());
            }
            let plain = parse_standard(&moves_text).with_context(|| name.clone())?;
            let mut first_err = None;
            'read: {
                for b in &boards {
                    match resolve_counts(b, &plain) {
                        Ok(m) => break 'read (m, b.clone()),
                        Err(e) => {
                            first_err.get_or_insert(e);
                        }
                    }
                }
                let e = first_err.expect("at least one board");
                return Err(anyhow::Error::new(e).context(name.clone()));
            }
        } else {
            // No move lines is a solution only when fc-solve says solved (an already-won board).
            let recognised =
                "expected our JSON, standard notation, or fc-solve output with -m/-sam move lines";
            // An empty file is `solve`'s standard notation for an already-won board.
            let empty_won = only_comments(&text) && board.is_won();
            anyhow::ensure!(
                !moves.is_empty() || verdict == FcsVerdict::Solved || empty_won,
                "{name}: not a recognised solution ({recognised})"
            );
            anyhow::ensure!(
                !moves.is_empty() || board.is_won(),
                "{name}: fc-solve's output says solved but lists no moves, and the {what} is not already won"
            );
            let b = boards
                .iter()
                .find(|b| validate(b, &moves).is_ok())
                .unwrap_or(&boards[0])
                .clone();
            (moves, b)
        };
        input::check_fcs_states(&board, &moves, &states, start_of).with_context(|| name.clone())?;
        (moves, None, board)
    };
    let v = validate(&board, &moves).with_context(|| name.clone())?;
    if let Some(claimed) = claimed_single {
        anyhow::ensure!(
            claimed == v.single_card_moves,
            "{name}: `single_card_moves` says {claimed} but the moves amount to {}",
            v.single_card_moves
        );
    }
    outln!(
        "valid: {}, {}; all 52 cards on the foundations",
        plural(v.moves_total, "move"),
        plural(v.single_card_moves, "single-card move")
    );
    Ok(0)
}

/// True when every line of `text` is blank or a `#` comment.
fn only_comments(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .all(|l| l.is_empty() || l.starts_with('#'))
}

/// What a text of comments alone says when it is `solve`'s standard notation for a deal
/// not solved: the `unsolvable` or `unknown: why` of its `# unsolvable` or `# unknown: why`.
fn not_solved_comment(text: &str) -> Option<&str> {
    if !only_comments(text) {
        return None;
    }
    text.lines()
        .filter_map(|l| l.trim().strip_prefix('#'))
        .map(str::trim)
        .find(|t| t.starts_with("unsolvable") || t.starts_with("unknown"))
}

/// The JSON's own claims must agree with the board given, with each other and with its
/// moves: `deal` (with --board, the board must be that deal's initial board), `board`,
/// `freecells`/`foundations`, `solvable` and `verdict` (with each other, and saying solved
/// when moves are listed), `moves_total`, and per move `step`, `kind` and `notation`.
/// `solvable_given`: the JSON has a `solvable` key (null or not).
fn check_json_claims(
    sol: &SolutionJson,
    solvable_given: bool,
    deal: Option<u64>,
    board: &Board,
    n: usize,
) -> Result<()> {
    if let Some(a) = sol.deal {
        // A number that is no deal (0, or above 2^33-1) is named as such, not as another deal.
        fcauto_deals::parse_deal_number(&a.to_string())
            .with_context(|| format!("the solution's `deal` {a} is not a deal number"))?;
    }
    let conflict = |msg: String| anyhow::Error::from(input::StartConflict(msg));
    if let (Some(a), Some(b)) = (sol.deal, deal) {
        if a != b {
            return Err(conflict(format!(
                "the solution is for deal {a}, not deal {b}"
            )));
        }
    }
    if let Some(b) = &sol.board {
        if *b != board.cascades {
            return Err(conflict(
                "the solution's `board` is not the board given (wrong --deal or --board?)".into(),
            ));
        }
    }
    // With a `board`, absent `freecells`/`foundations` claim empty ones; without one, only
    // those given claim anything.
    let with_board = sol.board.is_some();
    let cells = (sol.freecells.clone()).or_else(|| with_board.then(|| vec![None; 4]));
    let founds = sol.foundations.or(with_board.then_some([0; 4]));
    if !(cells.map_or(true, |c| c == board.freecells)
        && founds.map_or(true, |f| f == board.foundations))
    {
        return Err(conflict(
            "the solution's freecells/foundations are not those of the board given".into(),
        ));
    }
    if let (Some(a), None) = (sol.deal, deal) {
        // With --board, a `deal` claim must hold too: the JSON's board (equal to the board
        // given, checked above), or the board given when the JSON has none, is that deal.
        let initial = fcauto_deals::ms_deal(a)
            .with_context(|| format!("the solution's `deal` {a} is not a deal number"))?;
        let what = if sol.board.is_some() {
            "the solution's `board`"
        } else {
            "the board given"
        };
        if *board != initial {
            return Err(conflict(format!(
                "the solution is for deal {a}, but {what} is not deal {a}'s initial board"
            )));
        }
    }
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
    for (i, m) in sol.moves.iter().enumerate() {
        let step = i + 1;
        if let Some(said) = m.step {
            anyhow::ensure!(said == step, "step {step}: `step` says {said}");
        }
        let from = Loc::parse(&m.from);
        let to = Loc::parse(&m.to);
        if let (Some(kind), Some(from), Some(to)) = (m.kind, from, to) {
            let actual = Move {
                from,
                to,
                count: m.count.unwrap_or(1),
            }
            .kind();
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
