//! Freecell Solver's text: its `-p -t` positions in both layouts, its move lines, its
//! verdict and counts read back ([`parse_fcs_output`], [`parse_fcs_states`]), its whitespace
//! tidied, and the freecell numbering its moves use ([`fc_solve_numberings`]).

use crate::moves::Loc;
use crate::solution::SolutionParseError;
use crate::validator::StepMove;
use fcauto_deals::{Board, Card};

/// The boards to replay fc-solve's moves on, in order of preference: `board`, as fc-solve
/// numbers its freecells. fc-solve reads a `Freecells:` line whose empty slots are blanks
/// (its own printed layout) left-aligned: ` JH      4D` becomes slots 0 and 1, while fcauto
/// keeps the columns (slots 0 and 2), and fc-solve's moves use its numbering. So when
/// fc-solve's first printed position is `board` with the freecells in other slots, that is
/// the one board; without printed positions, `board` and then (if different) `board` with
/// its freecells left-aligned, for the caller to take the first the moves are valid on
/// (`verify`, `analyze`). Only freecells are ever renumbered: the rules do not depend on which slot holds a card.
pub fn fc_solve_numberings(board: &Board, states: &[(usize, Board)]) -> Vec<Board> {
    let sorted = |b: &Board| {
        let mut c = b.freecells.to_vec();
        c.sort();
        c
    };
    let relabelled = |b: &Board| {
        b != board
            && b.cascades == board.cascades
            && b.foundations == board.foundations
            && sorted(b) == sorted(board)
    };
    if let Some((0, first)) = states.first() {
        return vec![if relabelled(first) { first } else { board }.clone()];
    }
    let mut left = board.clone();
    for (j, &slot) in fc_solve_slots(board).iter().enumerate() {
        left.freecells[slot as usize] = board.freecells[j];
    }
    if relabelled(&left) {
        vec![board.clone(), left]
    } else {
        vec![board.clone()]
    }
}

/// fc-solve's index of each of `board`'s freecell slots (`slots[j]` for fcauto's slot `j`)
/// as fc-solve reads the board: left-aligned, the cards in their order first, then the
/// empty slots ([`fc_solve_numberings`]). The identity when no empty slot lies before a
/// card.
pub fn fc_solve_slots(board: &Board) -> [u8; fcauto_deals::FREECELLS] {
    let mut slots = [0; fcauto_deals::FREECELLS];
    let mut next = 0;
    for occupied in [true, false] {
        for (j, c) in board.freecells.iter().enumerate() {
            if c.is_some() == occupied {
                slots[j] = next;
                next += 1;
            }
        }
    }
    slots
}

/// The positions fc-solve's `-sam` output prints between its moves: each with the number of
/// move lines before it (0 for the initial position). With `-p -t` a block starts at a
/// `Foundations:` line and takes the `Freecells:` line and the cascade lines (`: ...`) that
/// follow, read with [`Board::parse`]; without them fc-solve draws its table layout
/// (freecells and foundations on one line, the cascades in columns of 4 characters).
/// Output without positions (`-m`) gives none.
///
/// # Errors
/// [`SolutionParseError::BadFcsState`] for a block [`Board::parse`] rejects (a card twice, a
/// card missing, a token that is no card), in either layout.
pub fn parse_fcs_states(text: &str) -> Result<Vec<(usize, Board)>, SolutionParseError> {
    let bad = |line, error| SolutionParseError::BadFcsState { line, error };
    scan_printed_positions(
        text,
        |lines, i, _| {
            table_position(lines, i).map(|(read, end)| (read.map_err(|(l, e)| bad(l, e)), end))
        },
        |lines, block, _| {
            // Blank lines in front, so that the parser's line numbers are the text's.
            let text = "\n".repeat(block.start) + &lines[block.clone()].join("\n");
            Board::parse(&text).map_err(|e| bad(block.start + 1, e.to_string()))
        },
    )
}

/// The scan of fc-solve's `-sam` output shared by the readers of its printed positions (the
/// standard game's [`parse_fcs_states`], the family's in the engine): each position with the
/// number of move lines before it, in order. At each line `table(lines, i, moves)` may read
/// a table-layout position starting there (its result and the line after it); otherwise a
/// `Foundations:` line opens a `-p -t` block (it and the `Freecells:` and `: ` cascade lines
/// after it), which `block(lines, range, moves)` reads. The first error ends the scan.
///
/// # Errors
/// The first error `table` or `block` returns.
#[allow(clippy::type_complexity)]
pub fn scan_printed_positions<T, E>(
    text: &str,
    mut table: impl FnMut(&[&str], usize, usize) -> Option<(Result<T, E>, usize)>,
    mut block: impl FnMut(&[&str], std::ops::Range<usize>, usize) -> Result<T, E>,
) -> Result<Vec<(usize, T)>, E> {
    let lines: Vec<&str> = text.lines().collect();
    let mut positions = Vec::new();
    let mut moves = 0;
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i].trim();
        if l.starts_with("Move ") || l.starts_with("Move:") {
            moves += 1;
        }
        if let Some((read, end)) = table(&lines, i, moves) {
            positions.push((moves, read?));
            i = end;
            continue;
        }
        if !l.starts_with("Foundations:") {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while i < lines.len() && {
            let t = lines[i].trim_start();
            t.starts_with("Freecells:") || t.starts_with(':')
        } {
            i += 1;
        }
        positions.push((moves, block(&lines, start..i, moves)?));
    }
    Ok(positions)
}

/// The foundations of a table-layout position: the last four tokens of its first line, in
/// fc-solve's order (`H-0 C-0 D-0 S-0`), and where they start in `l`.
pub(crate) fn table_foundations(l: &str) -> Option<(usize, &str)> {
    let t = l.trim_end();
    let at = t.rfind("H-")?;
    let tail = &t[at..];
    let ok = tail.split_whitespace().count() == 4
        && tail
            .split_whitespace()
            .zip(["H-", "C-", "D-", "S-"])
            .all(|(w, p)| w.starts_with(p) && w.len() <= 4);
    ok.then_some((at, tail))
}

/// The position fc-solve draws at line `i` of `lines` in its table layout (`-sam` without
/// `-p -t`), and the line after it:
///
/// ```text
///  QH  2S                 H-0 C-0 D-0 S-0      freecells in columns of 4, the foundations
/// --- --- --- ---
///
///  --  --  --  --  --  --  --  --             the cascades' heads
///  7D  AD  5C  3S  5S  8C  2D  AH             a row per depth, a card or blanks per column
/// 10D  7S  QD  AC  6D  8H  AS  KH
/// ```
///
/// `None` unless line `i` ends with the four foundations and the next starts with `---`.
/// The rows end at a blank line. Errors (with the 1-based line): a token that is no card, a
/// row wider than eight columns, or a position that does not hold each card once
/// ([`Board::check`], which names cards by their places).
#[allow(clippy::type_complexity)]
fn table_position(lines: &[&str], i: usize) -> Option<(Result<Board, (usize, String)>, usize)> {
    let (at, found) = table_foundations(lines[i])?;
    if !lines.get(i + 1)?.trim_start().starts_with("---") {
        return None;
    }
    let mut j = i + 2;
    while lines.get(j).is_some_and(|l| l.trim().is_empty()) {
        j += 1;
    }
    if let Some(why) = more_freecells(lines.get(j).copied()) {
        return Some((Err((i + 1, why)), j + 1));
    }
    let is_heads = |l: &str| {
        let w: Vec<&str> = l.split_whitespace().collect();
        !w.is_empty() && w.iter().all(|t| *t == "--")
    };
    let rows_from = j + 1;
    if lines.get(j).is_some_and(|l| is_heads(l)) {
        j += 1;
        while lines.get(j).is_some_and(|l| !l.trim().is_empty()) {
            j += 1;
        }
    }
    let read = || -> Result<Board, (usize, String)> {
        // Column k of line `l` (1-based `at`): a card, or None for blanks.
        let column = |l: &str, k: usize, at: usize| -> Result<Option<Card>, (usize, String)> {
            let t: String = l.chars().skip(4 * k).take(4).collect();
            match t.trim() {
                "" => Ok(None),
                c => c
                    .parse()
                    .map(Some)
                    .map_err(|_| (at, format!("`{c}` is not a card"))),
            }
        };
        let mut b = Board {
            cascades: vec![Vec::new(); 8],
            freecells: [None; 4],
            foundations: [0; 4],
        };
        let head = &lines[i][..at];
        for (k, cell) in b.freecells.iter_mut().enumerate() {
            *cell = column(head, k, i + 1)?;
        }
        if head.chars().count() > 16 && !head.chars().skip(16).all(char::is_whitespace) {
            return Err((i + 1, "more than four freecells".into()));
        }
        for w in found.split_whitespace() {
            let (suit, rank) = w.split_at(2);
            let rank = match rank {
                "0" => 0,
                r => fcauto_deals::Rank::from_token(r)
                    .map(|r| r.value())
                    .ok_or((i + 1, format!("`{w}` is not a foundation")))?,
            };
            let su = fcauto_deals::Suit::from_letter(suit.chars().next().unwrap_or(' '));
            b.foundations[su.map_or(0, |s| s.index())] = rank;
        }
        for (at, row) in lines.iter().enumerate().take(j).skip(rows_from) {
            if !row.chars().skip(32).all(char::is_whitespace) {
                return Err((at + 1, "more than eight cascades".into()));
            }
            for (k, cascade) in b.cascades.iter_mut().enumerate() {
                if let Some(c) = column(row, k, at + 1)? {
                    cascade.push(c);
                }
            }
        }
        b.check().map_err(|e| (i + 1, e.to_string()))?;
        Ok(b)
    };
    Some((read(), j))
}

/// What fc-solve concluded, from its final lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FcsVerdict {
    /// `This game is solveable.`
    Solved,
    /// `I could not solve this game.`
    NotSolved,
    /// `Iterations count exceeded.`
    LimitExceeded,
    /// None of these lines.
    Unknown,
}

impl std::fmt::Display for FcsVerdict {
    /// What fc-solve said, in words: `solved`, `could not solve it`, `iterations count
    /// exceeded`, `no verdict line`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FcsVerdict::Solved => "solved",
            FcsVerdict::NotSolved => "could not solve it",
            FcsVerdict::LimitExceeded => "iterations count exceeded",
            FcsVerdict::Unknown => "no verdict line",
        })
    }
}

/// First words of the sentences fc-solve prints (move lines, verdicts, counts, notices,
/// `-s -i`'s iteration lines), which [`tidy_fcs_output`] writes with single spaces.
const SENTENCE_STARTS: [&str; 13] = [
    "Move",
    "This",
    "I",
    "Iterations",
    "Total",
    "Foundations:",
    "Reading",
    "Please",
    "To",
    "Iteration:",
    "Depth:",
    "Stored-States:",
    "Scan:",
];

/// `text` as fc-solve prints it, whatever whitespace an editor or a paste put in: tabs become
/// spaces to the next stop of 8 columns ([`fcauto_deals::text::expand_tabs`]), and in its
/// sentences (a line whose first word opens one of fc-solve's sentences: `Move a card from
/// stack 3 to freecell 0`, `This game is solveable.`, `Foundations: H-0 ...`) runs of spaces
/// become one, the line trimmed; lines ending in a lone `\r` end in `\n`. Positions' other lines keep their columns (the
/// `Freecells:` line is read by column). The readers of fc-solve's output here
/// ([`parse_fcs_output`], [`parse_fcs_states`], [`fcs_output_kind`]) expect such text (a
/// tab in `Move\ta card ...` hides no move line).
pub(crate) fn tidy_fcs_output(text: String) -> String {
    let text = fcauto_deals::text::expand_tabs(fcauto_deals::text::unify_line_ends(text));
    let untidy = |l: &str| {
        let t = l.trim();
        t.contains("  ")
            && t.split_whitespace()
                .next()
                .is_some_and(|w| SENTENCE_STARTS.contains(&w))
    };
    if !text.lines().any(untidy) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    for piece in text.split_inclusive('\n') {
        let (line, end) = match piece.strip_suffix('\n') {
            Some(l) => match l.strip_suffix('\r') {
                Some(l) => (l, "\r\n"),
                None => (l, "\n"),
            },
            None => (piece, ""),
        };
        if untidy(line) {
            out.push_str(&line.split_whitespace().collect::<Vec<_>>().join(" "));
        } else {
            out.push_str(line);
        }
        out.push_str(end);
    }
    out
}

/// What marks a text as fc-solve's output (`fcs_output_kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FcsKind {
    /// Move lines (`Move a card from stack 3 to freecell 0`): its `-sam` output.
    MoveLines,
    /// A verdict line (`This game is solveable.`) and no move line: a board already won, a
    /// deal it could not solve, or its `-sn` output (standard notation with a verdict).
    VerdictOnly,
}

/// Whether `text` reads as fc-solve's output, and by what, in one pass over its lines:
/// `None` when it has neither a move line nor a verdict line, or has a `{` anywhere
/// (fc-solve writes none, while an annotated move list's `{...}` comment may quote such a
/// line).
pub(crate) fn fcs_output_kind(text: &str) -> Option<FcsKind> {
    const VERDICTS: [&str; 3] = [
        "This game is solveable.",
        "I could not solve this game.",
        "Iterations count exceeded.",
    ];
    if text.contains('{') {
        return None;
    }
    let mut verdict = false;
    for l in text.lines().map(str::trim) {
        if l.starts_with("Move ") {
            return Some(FcsKind::MoveLines);
        }
        verdict |= VERDICTS.contains(&l);
    }
    verdict.then_some(FcsKind::VerdictOnly)
}

/// True when `l` (trimmed, not a move line) is a line fc-solve prints around its moves: blank,
/// a rule of `-`/`=`, its verdict, counts and notices, a position in `-p -t`'s layout
/// (`Foundations:`, `Freecells:`, `: ` cascades) or, when `in_table` (the line lies in a
/// position [`table_position`] reads), in its table layout (rows of upper-case cards, `--`,
/// `H-0`), or `-sn`'s `Move:` lines. Standard-notation moves (`8a`, `38`), words, and rows of
/// cards outside a table position (a board appended after the moves is not skipped as
/// such a row) are not.
fn printed_by_fc_solve(l: &str, in_table: bool) -> bool {
    // Beyond what the standard reader skips ([`crate::standard::is_fc_solve_line`]): `-sn`'s
    // move lines, `-s -i`'s iteration lines, the rest of its counts and its notices.
    const MORE: [&str; 10] = [
        "Move:",
        "Total number of",
        "Iteration:",
        "Depth:",
        "Stored-States:",
        "Scan:",
        "Reading the board",
        "Please refer to the documentation",
        "To cancel this message",
        "http",
    ];
    let table_token = |t: &str| {
        const RANKS: [&str; 15] = [
            "0", "A", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q",
        ];
        let foundation = t.is_ascii()
            && t.len() >= 3
            && t.as_bytes()[1] == b'-'
            && "HCDS".contains(&t[..1])
            && (RANKS.contains(&&t[2..]) || &t[2..] == "K");
        t.chars().all(|c| c == '-')
            || foundation
            || (!t.chars().any(|c| c.is_ascii_lowercase()) && t.parse::<Card>().is_ok())
    };
    l.chars().all(|c| matches!(c, '-' | '=' | ' '))
        || crate::standard::is_fc_solve_line(l)
        || MORE.iter().any(|p| l.starts_with(p))
        || (in_table && l.split_whitespace().all(table_token))
}

/// Per line of `lines`: true when it belongs to a position fc-solve drew in its table layout
/// ([`table_position`], whether or not it reads as a board).
fn table_lines(lines: &[&str]) -> Vec<bool> {
    let mut in_table = vec![false; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        match table_position(lines, i) {
            Some((_, end)) => {
                in_table[i..end].fill(true);
                i = end.max(i + 1);
            }
            None => i += 1,
        }
    }
    in_table
}

/// Read fc-solve's output (`-sam`, with or without `-p -t`): its move lines (0-based
/// indices) and its verdict line.
pub fn parse_fcs_output(text: &str) -> Result<(FcsVerdict, Vec<StepMove>), SolutionParseError> {
    let mut moves = Vec::new();
    let mut verdict = FcsVerdict::Unknown;
    // The `Total number of moves: N` line: its line number, text and N (None: not a number).
    let mut total: Option<(usize, String, Option<usize>)> = None;
    // The first line fc-solve does not print: an error when there are move lines (its `-sn`
    // output, standard notation with a verdict, has none and is read as standard notation).
    let mut stray: Option<(usize, String)> = None;
    let lines: Vec<&str> = text.lines().collect();
    let in_table = table_lines(&lines);
    // `-sn`'s `Move: 8a` lines, and the moves of lines fc-solve's English output does not
    // have (`-m -sn`'s rows of standard notation), for its `Total number of moves:`.
    let (mut sn_moves, mut bare_moves) = (0, 0);
    for (i, line) in lines.iter().enumerate() {
        let l = line.trim();
        match l {
            "This game is solveable." => verdict = FcsVerdict::Solved,
            "I could not solve this game." => verdict = FcsVerdict::NotSolved,
            "Iterations count exceeded." => verdict = FcsVerdict::LimitExceeded,
            _ => {}
        }
        if let Some(n) = l.strip_prefix("Total number of moves:") {
            let text = l.chars().take(80).collect();
            total = Some((i + 1, text, n.trim().parse().ok()));
        }
        if !l.starts_with("Move ") {
            sn_moves += l.starts_with("Move:") as usize;
            if !printed_by_fc_solve(l, in_table[i]) {
                bare_moves += l.split_whitespace().count();
                if stray.is_none() {
                    stray = Some((i + 1, l.chars().take(80).collect::<String>()));
                }
            }
            continue;
        }
        moves.push(fcs_move_line(l, i)?);
    }
    // Output with move lines in English or `-sn`'s `Move:` lines has no line of its own
    // beside them (text added to `-sam -sn`'s output is named, not taken silently); `-m
    // -sn`'s rows are standard notation, read as such.
    if let (Some((line, text)), true) = (stray, !moves.is_empty() || sn_moves > 0) {
        return Err(SolutionParseError::StrayFcsLine { line, text });
    }
    let listed = if !moves.is_empty() {
        moves.len()
    } else if sn_moves > 0 {
        sn_moves
    } else {
        bare_moves
    };
    if let Some((line, text, n)) = total {
        if n != Some(listed) {
            return Err(SolutionParseError::BadMovesTotal { line, text, listed });
        }
    }
    Ok((verdict, moves))
}

/// More freecells than four (fc-solve's `--freecells-num`) print in further rows of four,
/// each underlined: when `line`, after the first row's underline, is such an underline, the
/// error saying to give `--freecells` (the position is of other rules than standard
/// FreeCell's).
fn more_freecells(line: Option<&str>) -> Option<String> {
    let more = line.filter(|l| l.trim_start().starts_with("---"))?;
    let n = 4 + more.split_whitespace().filter(|t| *t == "---").count();
    let at_least = if n == 8 { " or more" } else { "" };
    Some(format!(
        "{n}{at_least} freecells (fc-solve's --freecells-num): give --freecells {n} (standard FreeCell has 4)"
    ))
}

/// One of fc-solve's move lines (`l`, trimmed, on 0-based line `i`) read as a move.
///
/// # Errors
/// [`SolutionParseError::BadFcsLine`]: not a move line fc-solve writes, or a place out of
/// range.
fn fcs_move_line(l: &str, i: usize) -> Result<StepMove, SolutionParseError> {
    let bad = || SolutionParseError::BadFcsLine {
        line: i + 1,
        text: l.chars().take(80).collect(),
    };
    let w: Vec<&str> = l.split_whitespace().collect();
    let num = |s: &str| s.parse::<u8>().map_err(|_| bad());
    let m = match w.as_slice() {
        ["Move", "a", "card", "from", "stack", a, "to", "freecell", b] => StepMove {
            from: Loc::Cascade(num(a)?),
            to: Loc::Freecell(num(b)?),
            count: Some(1),
            card: None,
        },
        ["Move", "a", "card", "from", "freecell", a, "to", "stack", b] => StepMove {
            from: Loc::Freecell(num(a)?),
            to: Loc::Cascade(num(b)?),
            count: Some(1),
            card: None,
        },
        ["Move", "a", "card", "from", "freecell", a, "to", "freecell", b] => StepMove {
            from: Loc::Freecell(num(a)?),
            to: Loc::Freecell(num(b)?),
            count: Some(1),
            card: None,
        },
        ["Move", "a", "card", "from", "stack", a, "to", "the", "foundations"] => StepMove {
            from: Loc::Cascade(num(a)?),
            to: Loc::Foundation,
            count: Some(1),
            card: None,
        },
        ["Move", "a", "card", "from", "freecell", a, "to", "the", "foundations"] => StepMove {
            from: Loc::Freecell(num(a)?),
            to: Loc::Foundation,
            count: Some(1),
            card: None,
        },
        ["Move", n, "cards", "from", "stack", a, "to", "stack", b] => StepMove {
            from: Loc::Cascade(num(a)?),
            to: Loc::Cascade(num(b)?),
            count: Some(num(n)?),
            card: None,
        },
        _ => return Err(bad()),
    };
    let in_range = |loc: Loc| match loc {
        Loc::Cascade(i) => i < 8,
        Loc::Freecell(j) => j < 4,
        Loc::Foundation => true,
    };
    let beyond_four = |loc: Loc| matches!(loc, Loc::Freecell(j) if (4..8).contains(&j));
    if beyond_four(m.from) || beyond_four(m.to) {
        return Err(SolutionParseError::FcsFreecellBeyondFour {
            line: i + 1,
            text: l.chars().take(80).collect(),
        });
    }
    if !in_range(m.from) || !in_range(m.to) {
        return Err(bad());
    }
    Ok(m)
}
