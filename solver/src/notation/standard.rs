//! Standard notation: reading `3a a3 3h 38 ah ...` (cascades `1`-`8`, freecells `a`-`d`,
//! `h` the foundations), as fcauto's `--format standard` and fc-solve's `-m -sn`/`-m -snx`
//! print it, and finding the card counts the notation leaves out.
//!
//! A cascade-to-cascade move names no count. Onto a non-empty cascade only one count can be
//! legal (the run's card that fits the destination's top card), but onto an empty cascade
//! any part of the movable run can go. fc-solve's extended notation (`-snx`, described in
//! its USAGE file) then appends `v` and the count in hexadecimal (`38v4`), and so does
//! fcauto's `--format standard`. Without it, [`resolve_counts`] searches for counts that
//! replay to a won board, trying the longest legal run first.

use crate::moves::Loc;
use crate::validator::{apply_checked, stacks_on, StepMove, ValidationError};
use fcauto_deals::Board;

/// Most rule checks [`resolve_counts`] makes for moves without a count (trying each count,
/// and again after backtracking) before giving up: a real solution needs a few hundred. It
/// also bounds the memory, one board kept per open choice. Moves with a known count are not
/// counted.
pub const RESOLVE_BUDGET: usize = 200_000;

/// A standard-notation text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StandardParseError {
    /// A token that is not a move, on a line that is not one of fc-solve's own.
    #[error("line {line}: `{token}` is not a standard-notation move (expected two of 1-8, a-d, h, as in `3a`, optionally `v` and a hexadecimal count of 1 to d (13), as in `38v4`)")]
    BadToken {
        /// 1-based line.
        line: usize,
        /// The text found.
        token: String,
    },
}

/// Read one move token: `<from><to>` or `<from><to>v<hex count>`. `None` if it is not one.
pub fn parse_token(t: &str) -> Option<StepMove> {
    let b = t.as_bytes();
    if b.len() < 2 || !b.is_ascii() {
        return None;
    }
    let from = Loc::parse(&t[0..1])?;
    let to = Loc::parse(&t[1..2])?;
    if from == Loc::Foundation {
        return None;
    }
    let count = match &t[2..] {
        "" => None,
        rest => {
            let hex = rest.strip_prefix(['v', 'V'])?;
            if !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            // A run holds 13 cards at most (`v1`..`vd`): `38v99` (0x99 = 153) is no move,
            // not a move of 153 cards ("cannot move 153" would hide the hexadecimal).
            Some(
                u8::from_str_radix(hex, 16)
                    .ok()
                    .filter(|n| (1..=13).contains(n))?,
            )
        }
    };
    if count.is_some() && !matches!((from, to), (Loc::Cascade(_), Loc::Cascade(_))) {
        return None;
    }
    let count = match (from, to) {
        (Loc::Cascade(_), Loc::Cascade(_)) => count,
        _ => Some(1),
    };
    Some(StepMove {
        from,
        to,
        count,
        card: None,
    })
}

/// True for a line fc-solve prints around its moves (`-=-=-` header, `====` separators,
/// the position blocks of `-p -t`, and its closing sentences): skipped when reading moves.
pub(crate) fn is_fc_solve_line(l: &str) -> bool {
    const STARTS: [&str; 11] = [
        "-=-=",
        "====",
        "Foundations:",
        "Freecells:",
        ":",
        "This game is solveable.",
        "I could not solve this game.",
        "Iterations count exceeded.",
        "Total number of states checked is",
        "This scan generated",
        "Total number of moves:",
    ];
    STARTS.iter().any(|s| l.starts_with(s))
}

/// A line without its comment: `#` starts one, to the end of the line, as `fcauto solve`
/// writes `# unsolvable` and `# unknown: ...` (and a person may note anything).
fn without_comment(l: &str) -> &str {
    l.split_once('#').map_or(l, |(code, _)| code).trim()
}

/// The move part of a line: fc-solve's `-sam -sn` output writes `Move: 7a`.
fn move_part(l: &str) -> &str {
    l.strip_prefix("Move:").unwrap_or(l)
}

/// True for fc-solve's `-sam` output in standard notation (`-sam -sn`, `-sam -snx`): its
/// moves stand on `Move:` lines between `====` separators, and every other line belongs to a
/// printed position. Without `-p -t` those positions are drawn in columns whose card tokens
/// (`2D`, `AH`) read like moves, so only the `Move:` lines may be read.
fn is_sam_output(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim);
    let sam = lines.clone().any(|l| l.starts_with("Move:"));
    sam && lines.any(|l| l.starts_with("===="))
}

/// The lines of `text` that may hold moves (see [`is_sam_output`]), without comments and
/// trimmed, with their 0-based line numbers.
fn move_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let sam = is_sam_output(text);
    text.lines()
        .map(without_comment)
        .enumerate()
        .filter(move |(_, l)| {
            !l.is_empty() && !is_fc_solve_line(l) && (!sam || l.starts_with("Move:"))
        })
}

/// True when `text` reads as standard notation: a line, not one of fc-solve's own, with a
/// move token in it, or a move with a bad count (`37v0`, `38vg`): the rest may still be
/// wrong, and [`parse_standard`] then names the bad token.
pub fn looks_like_standard(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let tokens = || move_lines(text).flat_map(|(_, l)| move_part(l).split_whitespace());
    let any_move = tokens().any(|t| parse_token(t).is_some() || with_bad_count(t));
    // Moves mistyped, and nothing else: `9a` alone is standard notation with `9a` named as
    // the bad token, as in `8a 8b 9a` (not "not a recognised solution").
    any_move || (tokens().next().is_some() && tokens().all(move_shaped))
}

/// A token shaped like a move gone wrong: two places and anything after them (`8a,8b`), or
/// two letters or digits of which one is a place (`9a`, `h0`). Not `hello` or `vv`.
fn move_shaped(t: &str) -> bool {
    let b = t.as_bytes();
    let place = |i: usize| Loc::parse(&t[i..i + 1]).is_some();
    t.is_ascii()
        && b.len() >= 2
        && ((place(0) && place(1))
            || (b.len() == 2 && b.iter().all(u8::is_ascii_alphanumeric) && (place(0) || place(1))))
}

/// Two move characters and a `v`, the count after it not one: `37v0`, `38vg`, `37v`.
fn with_bad_count(t: &str) -> bool {
    t.len() >= 3
        && t.is_ascii()
        && Loc::parse(&t[0..1]).is_some()
        && Loc::parse(&t[1..2]).is_some()
        && t[2..].starts_with(['v', 'V'])
}

/// Read every move of a standard-notation text, in order. Comments (from `#` to the end of
/// the line, as `fcauto solve` writes `# unsolvable`), blank lines and the lines fc-solve
/// prints around its moves (its `-=-=-` header, "This game is solveable.", "This scan
/// generated N states.", the positions of `-p -t`, ...) are skipped, and in `-sam -sn`
/// output every line but the `Move:` lines (the positions, in either layout); every other
/// line must hold only move tokens. A
/// leading byte-order mark is ignored. Cascade-to-cascade moves without a `v` count have
/// `count: None` (see [`resolve_counts`]); every other move has `Some(1)`.
///
/// # Errors
/// [`StandardParseError::BadToken`] for the first token that is not a move.
pub fn parse_standard(text: &str) -> Result<Vec<StepMove>, StandardParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut moves = Vec::new();
    for (i, l) in move_lines(text) {
        for t in move_part(l).split_whitespace() {
            moves.push(parse_token(t).ok_or_else(|| StandardParseError::BadToken {
                line: i + 1,
                token: t.chars().take(40).collect(),
            })?);
        }
    }
    Ok(moves)
}

/// The count `n` for which the deepest of the top `n` cards of cascade `from` is one rank
/// below the top card of cascade `to` and of the other colour (the only count a move onto
/// that card can have), if any.
fn fitting_count(b: &Board, from: u8, to: Loc) -> Option<u8> {
    let Loc::Cascade(t) = to else { return None };
    if t == from {
        return None; // onto itself: the single card's rule says so
    }
    let top = *b.cascades.get(t as usize)?.last()?;
    let col = b.cascades.get(from as usize)?;
    col.iter()
        .rev()
        .position(|&c| stacks_on(top, c))
        .map(|p| (p + 1) as u8)
}

/// Why [`resolve_counts`] found no counts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// No choice of counts makes the solution valid: the validator's error for the furthest
    /// step any choice reached.
    #[error(transparent)]
    Invalid(#[from] ValidationError),
    /// The search for counts stopped at its budget without an answer either way.
    #[error("gave up finding the card counts of the runs moved onto empty cascades after {checks} rule checks (the moves leave too many readings open): write each count after a `v`, as in `38v4`")]
    GaveUp {
        /// Rule checks made.
        checks: usize,
    },
}

/// Give every cascade-to-cascade move without a count (`count: None`) a count such that the
/// whole solution replays legally from `board` to a won board, checked move by move with the
/// independent validator's rules ([`apply_checked`]). Where several counts are legal (a run
/// onto an empty cascade) the longest is tried first, and the search backtracks if that
/// choice fails later; a position already known to fail from the same step is not searched
/// again. At most [`RESOLVE_BUDGET`] rule checks are made for moves without a count.
///
/// # Errors
/// [`ResolveError::Invalid`] when no choice of counts wins: the validator's error for the
/// furthest step any choice reached (an illegal move, or cards left off the foundations).
/// [`ResolveError::GaveUp`] when the budget ran out first.
pub fn resolve_counts(board: &Board, moves: &[StepMove]) -> Result<Vec<StepMove>, ResolveError> {
    board
        .check()
        .map_err(|e| ValidationError::BadBoard(e.to_string()))?;
    let mut r = Resolver {
        moves,
        branches: Vec::new(),
        dead: Default::default(),
        out: Vec::with_capacity(moves.len().min(RESOLVE_BUDGET)),
        b: board.clone(),
        scratch: board.clone(),
        checks: 0,
        furthest: None,
    };
    let mut i = 0;
    loop {
        if r.checks >= RESOLVE_BUDGET {
            return Err(ResolveError::GaveUp { checks: r.checks });
        }
        let ok = if i == moves.len() {
            if r.b.is_won() && r.b.cards_in_play() == 0 {
                return Ok(r.out);
            }
            r.note(ValidationError::NotWon {
                moves: moves.len(),
                remaining: r.b.cards_in_play(),
            });
            false
        } else if r.b.is_won() && r.b.cards_in_play() == 0 {
            let reason = crate::validator::won_before(i);
            r.note(illegal(i, &moves[i], reason));
            false
        } else {
            r.play(i)
        };
        i = if ok { i + 1 } else { r.backtrack()? };
    }
}

/// A choice point of [`resolve_counts`]: the board before move `step`, and the other legal
/// counts left to try (shortest first: the longest is popped next).
struct Branch {
    step: usize,
    board: Board,
    counts: Vec<u8>,
}

/// The state of [`resolve_counts`]'s search for counts.
struct Resolver<'a> {
    /// The moves as written.
    moves: &'a [StepMove],
    /// The choice points with counts left to try, latest last.
    branches: Vec<Branch>,
    /// Choice points (step, board) from which every count was tried and failed.
    dead: std::collections::HashSet<(usize, Board)>,
    /// The moves played so far, each with its count.
    out: Vec<StepMove>,
    /// The board after them.
    b: Board,
    /// Where each count of a move is tried.
    scratch: Board,
    /// Rule checks made.
    checks: usize,
    /// The failure at the furthest step reached.
    furthest: Option<ValidationError>,
}

/// The step a validation error is at (cards left over count one past the last move).
fn step_of(e: &ValidationError) -> usize {
    match e {
        ValidationError::Illegal { step, .. } => *step,
        ValidationError::NotWon { moves, .. } => moves + 1,
        ValidationError::BadBoard(_) => 0,
    }
}

/// Move `i`, `m`, is illegal for `reason`, named as written (`37v5` keeps its count, `37`
/// had none).
fn illegal(i: usize, m: &StepMove, reason: String) -> ValidationError {
    ValidationError::Illegal {
        step: i + 1,
        notation: m.notation(),
        reason,
    }
}

impl Resolver<'_> {
    /// Keep `e` when it is further than the furthest failure so far.
    fn note(&mut self, e: ValidationError) {
        if self
            .furthest
            .as_ref()
            .map(|f| step_of(&e) > step_of(f))
            .unwrap_or(true)
        {
            self.furthest = Some(e);
        }
    }

    /// Play move `i` on the board (a move without a count: its longest legal count, the
    /// others kept as a choice point); false when it cannot be played.
    fn play(&mut self, i: usize) -> bool {
        let m = self.moves[i];
        let (None, Loc::Cascade(c)) = (m.count, m.from) else {
            return match apply_checked(&mut self.b, &m) {
                Ok(_) => {
                    self.out.push(m);
                    true
                }
                Err(reason) => {
                    self.note(illegal(i, &m, reason));
                    false
                }
            };
        };
        let (mut legal, errors) = self.legal_counts(m, c);
        if legal.is_empty() {
            // Name the rule broken by the one count whose run would land on the
            // destination's top card (if any), else by a single card.
            let fitting = fitting_count(&self.b, c, m.to);
            let reason = errors
                .iter()
                .find(|(n, _)| Some(*n) == fitting)
                .or_else(|| errors.iter().find(|(n, _)| *n == 1))
                .map(|(_, e)| e.clone())
                .unwrap_or_else(|| format!("cascade {} is empty", c + 1));
            self.note(illegal(i, &m, reason));
            return false;
        }
        if legal.len() > 1 && self.dead.contains(&(i, self.b.clone())) {
            return false;
        }
        let n = legal.pop().expect("not empty");
        if !legal.is_empty() {
            self.branches.push(Branch {
                step: i,
                board: self.b.clone(),
                counts: legal,
            });
        }
        let m = StepMove {
            count: Some(n),
            ..m
        };
        apply_checked(&mut self.b, &m).expect("checked legal above");
        self.out.push(m);
        true
    }

    /// Every legal count of `m` (from cascade `c`), shortest first (so `pop` takes the
    /// longest), and the rule each other count breaks.
    fn legal_counts(&mut self, m: StepMove, c: u8) -> (Vec<u8>, Vec<(u8, String)>) {
        let height = self.b.cascades.get(c as usize).map_or(0, |col| col.len());
        let mut legal = Vec::new();
        let mut errors = Vec::new();
        // `apply_checked` changes nothing when it refuses a move, so the scratch board is
        // copied again only after a legal count moved its cards.
        let mut moved = true;
        for n in 1..=height.min(u8::MAX as usize) as u8 {
            self.checks += 1;
            if moved {
                self.scratch.clone_from(&self.b);
            }
            let m = StepMove {
                count: Some(n),
                ..m
            };
            match apply_checked(&mut self.scratch, &m) {
                Ok(_) => {
                    legal.push(n);
                    moved = true;
                }
                Err(e) => {
                    errors.push((n, e));
                    moved = false;
                }
            }
        }
        (legal, errors)
    }

    /// Back to the latest choice with a count left to try, that count played: the step to
    /// go on from.
    ///
    /// # Errors
    /// No choice left: the furthest failure.
    fn backtrack(&mut self) -> Result<usize, ResolveError> {
        loop {
            let Some(br) = self.branches.last_mut() else {
                return Err(self.furthest.take().expect("a failure was noted").into());
            };
            let Some(n) = br.counts.pop() else {
                let br = self.branches.pop().expect("last_mut was some");
                self.dead.insert((br.step, br.board));
                continue;
            };
            let i = br.step;
            self.b = br.board.clone();
            self.out.truncate(i);
            let m = StepMove {
                count: Some(n),
                ..self.moves[i]
            };
            self.checks += 1;
            apply_checked(&mut self.b, &m).expect("checked legal before");
            self.out.push(m);
            return Ok(i + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validator::validate;

    #[test]
    fn tokens() {
        let m = parse_token("38").unwrap();
        assert_eq!(
            (m.from, m.to, m.count),
            (Loc::Cascade(2), Loc::Cascade(7), None)
        );
        assert_eq!(parse_token("38va").unwrap().count, Some(10));
        assert_eq!(parse_token("38vD").unwrap().count, Some(13));
        // No run is longer than 13 cards: `v99` (153) is no count.
        for bad in ["38ve", "38v99", "38vff"] {
            assert!(parse_token(bad).is_none(), "{bad}");
        }
        assert_eq!(parse_token("3a").unwrap().count, Some(1));
        assert_eq!(parse_token("ah").unwrap().to, Loc::Foundation);
        for bad in [
            "3", "39", "h3", "3av2", "38v", "38v0", "38x2", "3ae", "é3", "38v+2",
        ] {
            assert!(parse_token(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn lines_with_no_move_are_skipped_but_mixed_lines_are_errors() {
        let text = "-=-=-=-=-=-\n\n3a 38\n4h\nThis game is solveable.\n";
        assert_eq!(parse_standard(text).unwrap().len(), 3);
        // fc-solve's trailer can hold a number that reads as a move ("88").
        let trailer = "3a\nThis scan generated 88 states.\nTotal number of states checked is 64.\n";
        assert_eq!(parse_standard(trailer).unwrap().len(), 1);
        assert!(
            looks_like_standard(trailer)
                && !looks_like_standard("This scan generated 88 states.\n")
        );
        // fc-solve's `-sam -sn` form; a line with a move and a non-move is read as moves.
        assert_eq!(parse_standard("Move: 7a \n\nMove: 7b\n").unwrap().len(), 2);
        // `-sam -sn` without `-p -t`: the positions' columns hold card tokens such as `2D`
        // and `AH` (which read like moves); only the `Move:` lines count.
        let columns = "-=-=-=-=-=-=-=-=-=-=-=-\n\n JH  2C   H-0 C-0 D-0 S-0\n--- --- --- --- \n\n\
            \x20--  --\n 2D  AH \n10D  7S \n\n====================\n\nMove: 7a \n\n\
            \x20JH      H-1 C-0 D-0 S-0\n 2D  AH \n\n====================\n\nMove: 8h\n";
        assert!(looks_like_standard(columns));
        assert_eq!(parse_standard(columns).unwrap().len(), 2);
        // Without `====` separators, a line of cards is not skipped: it is read (and fails).
        assert!(parse_standard("Move: 7a\n 2D  AH  QS\n").is_err());
        assert!(looks_like_standard("39 5a\n") && parse_standard("39 5a\n").is_err());
        // A lone move with a bad count is standard notation with a bad token, named.
        for bad in ["37v0\n", "38vg\n", "37v\n"] {
            assert!(looks_like_standard(bad), "{bad}");
            let e = parse_standard(bad).unwrap_err().to_string();
            assert!(e.contains(bad.trim()), "{e}");
        }
        assert!(!looks_like_standard("hello\n") && !looks_like_standard("vv\n"));
        // Moves mistyped, alone, are standard notation with the first bad token named;
        // prose with such a token among words is not.
        for (bad, token) in [
            ("9a\n", "9a"),
            ("h1\n", "h1"),
            ("8a,8b\n", "8a,8b"),
            ("3a 9z", "9z"),
        ] {
            assert!(looks_like_standard(bad), "{bad}");
            let e = parse_standard(bad).unwrap_err().to_string();
            assert!(e.contains(&format!("`{token}`")), "{e}");
        }
        assert!(!looks_like_standard("it is 9a now\n") && !looks_like_standard("9\n"));
        // A line of non-moves alone is an error, not skipped; a byte-order mark is skipped.
        assert!(parse_standard("3a\n39\n").is_err());
        assert_eq!(parse_standard("\u{feff}3a 4b\n").unwrap().len(), 2);
        // `#` starts a comment (as `solve` writes `# unsolvable`); comments alone are no moves.
        assert_eq!(
            parse_standard("# by hand\n3a 4b # 4h\n  # 38\n")
                .unwrap()
                .len(),
            2
        );
        assert!(!looks_like_standard("# unsolvable\n# 3a\n"));
        assert_eq!(
            parse_standard("3a 38\n4h zz\n"),
            Err(StandardParseError::BadToken {
                line: 2,
                token: "zz".into()
            })
        );
    }

    /// Fast solutions move runs onto empty cascades; with the counts taken away (plain
    /// `-sn`), resolving them must give a solution the validator accepts again.
    #[test]
    fn counts_left_out_are_found_again() {
        let mut ambiguous = 0;
        for deal in 1..=12 {
            let board = fcauto_deals::ms_deal(deal).unwrap();
            let r = crate::solve(
                &board,
                crate::Mode::Fast,
                crate::Limits {
                    max_states: 200_000,
                },
            );
            let crate::Verdict::Solved(moves) = r.verdict else {
                panic!("deal {deal} not solved");
            };
            let sol = crate::Solution {
                deal: Some(deal),
                board: board.clone(),
                moves,
            };
            let stripped: Vec<StepMove> = sol
                .step_moves()
                .into_iter()
                .map(|m| match (m.from, m.to) {
                    (Loc::Cascade(_), Loc::Cascade(_)) => StepMove {
                        count: None,
                        card: None,
                        ..m
                    },
                    _ => StepMove { card: None, ..m },
                })
                .collect();
            // Runs onto empty cascades: the moves plain notation leaves open.
            ambiguous += sol.to_standard().matches('v').count();
            let resolved = resolve_counts(&board, &stripped).unwrap();
            validate(&board, &resolved).unwrap();
            // fcauto's own standard output reads back with its counts.
            let read = parse_standard(&sol.to_standard()).unwrap();
            let exact = resolve_counts(&board, &read).unwrap();
            let want: Vec<u8> = sol.moves.iter().map(|p| p.mv.count).collect();
            let got: Vec<u8> = exact.iter().map(|m| m.count.unwrap()).collect();
            assert_eq!(got, want, "deal {deal}");
        }
        assert!(ambiguous > 0, "no run onto an empty cascade to test");
    }

    /// `12` onto the empty cascade 2 reads as the longest run (6H 5S 4H) first; only the
    /// four of hearts alone lets the next move (`1h`, the five of spades) be legal, so the
    /// search must come back and try the shorter counts.
    #[test]
    fn a_longest_run_that_fails_later_is_taken_back() {
        let board = Board::parse(
            "Foundations: H-3 C-K D-K S-4\n\
             : KH QH JH TH 9H 8H 7H 6H 5S 4H\n:\n: KS QS JS TS 9S 8S 7S 6S\n: 5H\n:\n:\n:\n:\n",
        )
        .unwrap();
        let mut text = String::from("12 1h 2h 4h");
        for _ in 0..8 {
            text.push_str(" 1h 3h");
        }
        let moves = parse_standard(&text).unwrap();
        assert_eq!(moves[0].count, None);
        let resolved = resolve_counts(&board, &moves).unwrap();
        assert_eq!(resolved[0].count, Some(1));
        assert_eq!(validate(&board, &resolved).unwrap().moves_total, 20);
        // With the count written out, a wrong one is the validator's error at step 2.
        let err = resolve_counts(
            &board,
            &parse_standard(&text.replacen("12", "12v3", 1)).unwrap(),
        );
        assert!(
            matches!(
                err,
                Err(ResolveError::Invalid(ValidationError::Illegal {
                    step: 2,
                    ..
                }))
            ),
            "{err:?}"
        );
    }

    /// Four alternating 12-card runs: every move between cascades onto an empty one has up to
    /// 12 readings. Positions that failed once are not searched again, so 30 back-and-forth
    /// pairs after a move whose longest reading fails at the end are settled (not 12^60
    /// tries); a long enough input stops at the budget with its own error.
    #[test]
    fn many_open_readings_are_settled_or_given_up() {
        let board = Board::parse(
            "Foundations: H-A C-A D-A S-A\n\
             : KH QS JH TS 9H 8S 7H 6S 5H 4S 3H 2S\n\
             : KS QH JS TH 9S 8H 7S 6H 5S 4H 3S 2H\n\
             : KD QC JD TC 9D 8C 7D 6C 5D 4C 3D 2C\n\
             : KC QD JC TD 9C 8D 7C 6D 5C 4D 3C 2D\n:\n:\n:\n:\n",
        )
        .unwrap();
        // `1h` (the three of hearts) is legal only if `15` moved the two of spades alone.
        let text = format!("15 {}2h 1h", "36 63 ".repeat(30));
        let moves = parse_standard(&text).unwrap();
        let err = resolve_counts(&board, &moves).unwrap_err();
        assert!(
            matches!(
                err,
                ResolveError::Invalid(ValidationError::NotWon { moves: 63, .. })
            ),
            "{err}"
        );
        let endless = parse_standard(&"15 51 ".repeat(50_000)).unwrap();
        assert!(matches!(
            resolve_counts(&board, &endless),
            Err(ResolveError::GaveUp { .. })
        ));
    }

    /// With no legal count, the error is the one of the run that would land on the
    /// destination's top card (here: over the supermove limit), not of a single card; and
    /// moves with a known count never use up the search budget.
    #[test]
    fn errors_name_the_fitting_run_and_known_counts_are_free() {
        let board = Board::parse(
            "Foundations: H-A C-A D-A S-A\nFreecells: 2S 2H 2C 2D\n\
             : KH QS JH TS 9H 8S\n: KS QH JS TH 9S 8H\n: KD QC JD TC 9D 8C 7D 6C 5D\n\
             : KC QD JC TD 9C 8D\n: 4C 3D\n: 7S 6H 5S 4H 3S\n: 7C 6D 5C 4D 3C\n\
             : 7H 6S 5H 4S 3H\n",
        )
        .unwrap();
        let err = resolve_counts(&board, &parse_standard("83").unwrap()).unwrap_err();
        assert!(err.to_string().contains("supermove limit"), "{err}");
        // A move onto its own cascade is named as such, whatever card lies where.
        for m in ["33", "88"] {
            let err = resolve_counts(&board, &parse_standard(m).unwrap()).unwrap_err();
            assert!(err.to_string().contains("same cascade"), "{m}: {err}");
        }
        let deal1 = fcauto_deals::ms_deal(1).unwrap();
        let text = format!("1a {}", "ab ba ".repeat(RESOLVE_BUDGET));
        let err = resolve_counts(&deal1, &parse_standard(&text).unwrap()).unwrap_err();
        assert!(
            matches!(err, ResolveError::Invalid(ValidationError::NotWon { .. })),
            "{err}"
        );
    }

    #[test]
    fn a_wrong_move_is_named_at_its_step() {
        let board = fcauto_deals::ms_deal(1).unwrap();
        // Deal 1's cascade 1 has the six of spades on top: it cannot go home.
        let err = resolve_counts(&board, &parse_standard("1h").unwrap()).unwrap_err();
        assert!(
            matches!(
                err,
                ResolveError::Invalid(ValidationError::Illegal { step: 1, .. })
            ),
            "{err}"
        );
        let err = resolve_counts(&board, &parse_standard("1a").unwrap()).unwrap_err();
        assert!(
            matches!(
                err,
                ResolveError::Invalid(ValidationError::NotWon { moves: 1, .. })
            ),
            "{err}"
        );
    }
}
