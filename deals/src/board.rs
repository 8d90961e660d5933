//! A FreeCell position and its text in Freecell Solver's board format.
//!
//! Format (as read and written by fc-solve): one line per cascade, cards separated by spaces,
//! the deepest card first and the top (movable) card last; a line may start with `:`. Optional
//! lines `Freecells: 8H - JD` (`-` or nothing for an empty slot; also `FC:`) and
//! `Foundations: H-0 C-2 D-A S-0` (also `Founds:`) may come before or between the cascades.
//! Lines starting with `#` are ignored, and so are blank lines, except that when fewer than 8
//! cascade lines are given, blank lines stand for empty cascades (as fc-solve reads them and
//! as PySolFC's *Export current layout* writes an empty column).

use crate::card::{Card, Rank, Suit};
use std::fmt;

/// Number of cascades in FreeCell.
pub const CASCADES: usize = 8;
/// Number of freecells in FreeCell.
pub const FREECELLS: usize = 4;

/// A FreeCell position: 8 cascades (each deepest card first), 4 freecell slots and, per suit
/// (indexed C, D, H, S), the highest rank on its foundation (0 = empty).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// 8 cascades, each listed from the deepest card to the top card.
    pub cascades: Vec<Vec<Card>>,
    /// 4 freecell slots `a`..`d`.
    pub freecells: [Option<Card>; FREECELLS],
    /// Per suit (C, D, H, S): top rank on the foundation, 0..=13.
    pub foundations: [u8; 4],
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            cascades: self.cascades.clone(),
            freecells: self.freecells,
            foundations: self.foundations,
        }
    }

    /// Copy `source` into this board, reusing its cascades' vectors (no allocation when they
    /// have room): a caller trying move after move on a scratch board allocates once.
    fn clone_from(&mut self, source: &Board) {
        self.cascades.clone_from(&source.cascades);
        self.freecells = source.freecells;
        self.foundations = source.foundations;
    }
}

/// Fewer cascade lines than `want`: read blank lines as empty cascades, as fc-solve does and
/// as PySolFC's *Export current layout* writes an empty column: the first `want`
/// cascade-or-blank lines are the cascades, in order, if they hold every cascade line. Otherwise the cascades are returned unchanged (and the count is an error).
fn with_blank_cascades(
    cascades: Vec<Vec<Card>>,
    order: &[Option<usize>],
    want: usize,
) -> Vec<Vec<Card>> {
    let first: Vec<Option<usize>> = order.iter().copied().take(want).collect();
    let held = first.iter().flatten().count();
    if first.len() < want || held != cascades.len() {
        return cascades;
    }
    let mut cols: Vec<Option<Vec<Card>>> = cascades.into_iter().map(Some).collect();
    first
        .iter()
        .map(|e| e.and_then(|k| cols[k].take()).unwrap_or_default())
        .collect()
}

/// One problem found while parsing board text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardIssue {
    /// 1-based line number, 0 when the problem concerns the board as a whole.
    pub line: usize,
    /// The offending token, if any (cut to a few dozen characters, with a trailing `…`).
    pub token: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for BoardIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, &self.token) {
            (0, Some(t)) => write!(f, "{t}: {}", self.message),
            (0, None) => write!(f, "{}", self.message),
            (l, Some(t)) => write!(f, "line {l}, token `{t}`: {}", self.message),
            (l, None) => write!(f, "line {l}: {}", self.message),
        }
    }
}

/// Every problem found in a board text (never empty). Its message lists the first
/// [`MAX_LISTED_ISSUES`] and counts the rest.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct BoardError {
    /// The problems, in the order found.
    pub issues: Vec<BoardIssue>,
}

/// At most this many problems are listed by [`BoardError`]'s message; the rest are counted.
pub const MAX_LISTED_ISSUES: usize = 10;

/// The longest board text [`Board::parse`] reads, in bytes: a board with every card, the
/// freecell and foundation lines and generous comments is a few hundred bytes.
pub const MAX_BOARD_TEXT: usize = 64 * 1024;

/// A token shown in a message is cut to this many characters (a `…` marks the cut).
const MAX_TOKEN_CHARS: usize = 24;

impl fmt::Display for BoardError {
    /// `invalid board: ` then the first [`MAX_LISTED_ISSUES`] problems separated by `; `,
    /// then `; ... and N more problems` when there are more.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid board: ")?;
        for (i, issue) in self.issues.iter().take(MAX_LISTED_ISSUES).enumerate() {
            if i > 0 {
                write!(f, "; ")?;
            }
            write!(f, "{issue}")?;
        }
        let more = self.issues.len().saturating_sub(MAX_LISTED_ISSUES);
        if more > 0 {
            write!(f, "; ... and {}", crate::plural(more, "more problem"))?;
        }
        Ok(())
    }
}

/// `tok`, cut to [`MAX_TOKEN_CHARS`] characters with a trailing `…` when longer.
fn shown_token(tok: &str) -> String {
    match tok.char_indices().nth(MAX_TOKEN_CHARS) {
        Some((at, _)) => format!("{}…", &tok[..at]),
        None => tok.to_string(),
    }
}

impl Board {
    /// A board with the given cascades, empty freecells and empty foundations.
    pub fn from_cascades(cascades: Vec<Vec<Card>>) -> Board {
        Board {
            cascades,
            freecells: [None; FREECELLS],
            foundations: [0; 4],
        }
    }

    /// Number of cards not yet on a foundation.
    pub fn cards_in_play(&self) -> usize {
        self.cascades.iter().map(Vec::len).sum::<usize>() + self.freecells.iter().flatten().count()
    }

    /// True when all 52 cards are on the foundations.
    pub fn is_won(&self) -> bool {
        self.foundations.iter().all(|&r| r == 13)
    }

    /// Check that the position holds each of the 52 cards exactly once (cascades, freecells
    /// and foundations together) and has 8 cascades. Errors list every problem.
    pub fn check(&self) -> Result<(), BoardError> {
        let issues = check_position(&self.cascades, &self.freecells, &self.foundations, CASCADES);
        if issues.is_empty() {
            Ok(())
        } else {
            Err(BoardError { issues })
        }
    }

    /// Parse Freecell Solver board text (see the module docs). The result holds all 52 cards
    /// exactly once and 8 cascades; otherwise [`BoardError`] lists every problem with its line
    /// and token: unknown token, duplicate card, missing cards, wrong number of cascades, a
    /// card both on a foundation and elsewhere. Text with nothing but blank lines and
    /// comments is one problem, "empty", not 52 missing cards. Text longer than
    /// [`MAX_BOARD_TEXT`] bytes is one problem, "too large", and is not parsed. Tokens in
    /// the problems are cut to a few dozen characters.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let (cascades, cells, foundations) = read_position(text, CASCADES, FREECELLS)?;
        let mut freecells = [None; FREECELLS];
        freecells.copy_from_slice(&cells);
        Ok(Board {
            cascades,
            freecells,
            foundations,
        })
    }

    /// The 8 cascade lines exactly as `make-microsoft-freecell-board -t` prints them: cards
    /// separated by one space, deepest first, `T` for tens, each line ending in `\n`.
    pub fn cascades_text(&self) -> String {
        let mut s = String::with_capacity(52 * 3 + 8);
        for col in &self.cascades {
            let toks: Vec<String> = col.iter().map(Card::to_string).collect();
            s.push_str(&toks.join(" "));
            s.push('\n');
        }
        s
    }

    /// The position as fc-solve prints a state with `-p -t`:
    /// `Foundations: H-0 C-0 D-0 S-0`, `Freecells:` then each slot as a 4-wide field (`  JH`,
    /// four spaces when empty), then each cascade as `:` followed by ` CARD` per card (`: ` when
    /// empty).
    pub fn fcs_state_text(&self) -> String {
        let f = |s: Suit| rank_token(self.foundations[s.index()]);
        let mut out = format!(
            "Foundations: H-{} C-{} D-{} S-{} \nFreecells:",
            f(Suit::Hearts),
            f(Suit::Clubs),
            f(Suit::Diamonds),
            f(Suit::Spades)
        );
        for c in &self.freecells {
            match c {
                Some(c) => out.push_str(&format!(" {:>3}", c.to_string())),
                None => out.push_str("    "),
            }
        }
        out.push('\n');
        for col in &self.cascades {
            out.push(':');
            if col.is_empty() {
                out.push(' ');
            }
            for c in col {
                out.push(' ');
                out.push_str(&c.to_string());
            }
            out.push('\n');
        }
        out
    }
}

/// The problems of a position of a game with `want_cascades` cascades: another cascade
/// count, a foundation over 13, a card found twice (with its places) or missing. Empty when
/// it holds each of the 52 cards exactly once.
pub(crate) fn check_position(
    cascades: &[Vec<Card>],
    freecells: &[Option<Card>],
    foundations: &[u8; 4],
    want_cascades: usize,
) -> Vec<BoardIssue> {
    let mut issues = Vec::new();
    if cascades.len() != want_cascades {
        issues.push(BoardIssue {
            line: 0,
            token: None,
            message: format!(
                "expected {want_cascades} cascades, found {}",
                cascades.len()
            ),
        });
    }
    // Where each card was first found, for the message of a second place (put in words
    // only for that message: a board is checked for every deal solved).
    let mut seen: [Option<Place>; 52] = [None; 52];
    for s in Suit::ALL {
        let r = foundations[s.index()];
        if r > 13 {
            issues.push(BoardIssue {
                line: 0,
                token: None,
                message: format!(
                    "the {} foundation holds {r} cards: at most 13 (A to K)",
                    s.letter()
                ),
            });
        }
    }
    // Which cards a foundation out of range holds cannot be told: counting them as
    // duplicates or missing would only bury the one problem.
    if !issues.is_empty() && foundations.iter().any(|&r| r > 13) {
        return issues;
    }
    for s in Suit::ALL {
        let top = foundations[s.index()].min(13);
        for r in 1..=top {
            seen[Card::new(Rank::new(r).unwrap(), s).id() as usize] =
                Some(Place::Foundation(s, top));
        }
    }
    let cascades = cascades.iter().enumerate().flat_map(|(i, col)| {
        col.iter()
            .enumerate()
            .map(move |(k, &c)| (c, Place::Cascade(i, k)))
    });
    let freecells =
        (freecells.iter().enumerate()).filter_map(|(j, c)| Some(((*c)?, Place::Freecell(j))));
    // Each card found again, with the places it was found at after the first, in order.
    let mut again: Vec<(Card, Vec<Place>)> = Vec::new();
    for (c, here) in cascades.chain(freecells) {
        match &seen[c.id() as usize] {
            Some(_) => match again.iter_mut().find(|(d, _)| *d == c) {
                Some((_, places)) => places.push(here),
                None => again.push((c, vec![here])),
            },
            None => seen[c.id() as usize] = Some(here),
        }
    }
    for (c, places) in again {
        let first = seen[c.id() as usize].expect("seen before it was found again");
        let times = match places.len() + 1 {
            2 => "twice".to_string(),
            n => format!("{n} times"),
        };
        let places: Vec<String> = places.iter().map(|p| p.to_string()).collect();
        issues.push(BoardIssue {
            line: 0,
            token: Some(c.to_string()),
            message: format!("card appears {times}: {}, and {first}", places.join(", ")),
        });
    }
    issues.extend(missing_cards(|c| seen[c.id() as usize].is_some()));
    issues
}

/// A position read from board text: cascades, freecell slots, foundations.
pub(crate) type ReadPosition = (Vec<Vec<Card>>, Vec<Option<Card>>, [u8; 4]);

/// Read Freecell Solver board text (see the module docs) of a game with `cascades` cascades
/// and `freecells` freecell slots: what [`Board::parse`] does for FreeCell's 8 and 4, and
/// [`crate::Layout::parse`] for the other games. The freecell slots returned are exactly
/// `freecells`.
pub(crate) fn read_position(
    text: &str,
    cascades: usize,
    freecells: usize,
) -> Result<ReadPosition, BoardError> {
    if text.len() > MAX_BOARD_TEXT {
        return Err(whole_board_error(format!(
            "the board text is too large ({} bytes; a board is at most {} KiB)",
            text.len(),
            MAX_BOARD_TEXT / 1024
        )));
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text); // a UTF-8 byte-order mark
    if let Some(what) = no_cards(text) {
        // Say so, rather than listing all 52 cards as missing.
        return Err(whole_board_error(format!(
            "{what} (expected {cascades} cascade lines of cards)"
        )));
    }
    let text = match text.contains('\r') {
        true => std::borrow::Cow::Owned(crate::text::unify_line_ends(text.to_string())),
        false => std::borrow::Cow::Borrowed(text),
    };
    let mut reader = BoardReader::new(cascades, freecells);
    for (i, raw) in text.lines().enumerate() {
        reader.line(i + 1, raw);
    }
    reader.finish()
}

/// A problem with the board text as a whole (line 0, no token), the only one reported.
fn whole_board_error(message: String) -> BoardError {
    BoardError {
        issues: vec![BoardIssue {
            line: 0,
            token: None,
            message,
        }],
    }
}

/// `Some(what the text is)` when it has no line other than blank lines and comments.
fn no_cards(text: &str) -> Option<&'static str> {
    if !text
        .lines()
        .all(|l| l.trim().is_empty() || l.trim().starts_with('#'))
    {
        return None;
    }
    Some(if text.trim().is_empty() {
        "the board text is empty"
    } else {
        "the board text has only comments"
    })
}

/// The state of [`Board::parse`] while it reads the text line by line: what has been read
/// and every problem found so far, in the order found.
struct BoardReader {
    issues: Vec<BoardIssue>,
    cascades: Vec<Vec<Card>>,
    /// The line number of each cascade line read.
    cascade_lines: Vec<usize>,
    freecells: Vec<Option<Card>>,
    foundations: [u8; 4],
    /// The cascades and freecells of the game read.
    want_cascades: usize,
    max_freecells: usize,
    /// The line each card was first seen on.
    where_seen: [Option<usize>; 52],
    seen_freecells: bool,
    seen_foundations: bool,
    /// Cascade lines and blank lines in order: a blank line may stand for an empty
    /// cascade, see `with_blank_cascades`.
    order: Vec<Option<usize>>,
}

impl BoardReader {
    fn new(want_cascades: usize, max_freecells: usize) -> BoardReader {
        BoardReader {
            issues: Vec::new(),
            cascades: Vec::new(),
            cascade_lines: Vec::new(),
            freecells: vec![None; max_freecells],
            want_cascades,
            max_freecells,
            foundations: [0u8; 4],
            where_seen: [None; 52],
            seen_freecells: false,
            seen_foundations: false,
            order: Vec::new(),
        }
    }

    /// Record card `c` (token `tok`) as seen on line `line`, or a duplicate if seen before.
    fn note(&mut self, line: usize, c: Card, tok: &str) {
        if let Some(prev) = self.where_seen[c.id() as usize] {
            self.issues.push(BoardIssue {
                line,
                token: Some(shown_token(tok)),
                message: format!("duplicate card {c} (already on line {prev})"),
            });
        } else {
            self.where_seen[c.id() as usize] = Some(line);
        }
    }

    /// Read one line of the text: blank, comment, freecells, foundations or a cascade.
    fn line(&mut self, line_no: usize, raw: &str) {
        let line = raw.trim();
        if line.is_empty() {
            self.order.push(None);
            return;
        }
        if line.starts_with('#') {
            return;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(rest) = strip_any(line, &lower, &["freecells:", "fc:"]) {
            self.freecell_line(line_no, raw, rest);
        } else if let Some(rest) = strip_any(line, &lower, &["foundations:", "founds:"]) {
            self.foundation_line(line_no, rest);
        } else {
            self.cascade_line(line_no, line);
        }
    }

    /// A `Freecells:` line; `rest` is what follows the prefix in the trimmed line.
    fn freecell_line(&mut self, line_no: usize, raw: &str, rest: &str) {
        if std::mem::replace(&mut self.seen_freecells, true) {
            self.issues.push(BoardIssue {
                line: line_no,
                token: None,
                message: "a second Freecells line".into(),
            });
            return;
        }
        let max = self.max_freecells;
        let slots = freecell_slots(raw_rest(raw, "freecells:", "fc:"), rest, max);
        if slots.len() > max {
            self.issues.push(BoardIssue {
                line: line_no,
                token: None,
                message: format!("{} freecell entries, at most {max}", slots.len()),
            });
        }
        for (slot, tok) in slots.iter().enumerate() {
            let Some(tok) = tok else { continue };
            match tok.parse::<Card>() {
                Ok(c) => {
                    self.note(line_no, c, tok);
                    if slot < max {
                        self.freecells[slot] = Some(c);
                    }
                }
                Err(_) => self.issues.push(unknown(line_no, tok)),
            }
        }
    }

    /// A `Foundations:` line; `rest` is what follows the prefix.
    fn foundation_line(&mut self, line_no: usize, rest: &str) {
        if std::mem::replace(&mut self.seen_foundations, true) {
            self.issues.push(BoardIssue {
                line: line_no,
                token: None,
                message: "a second Foundations line".into(),
            });
            return;
        }
        // Each suit's entry as given, to name a second one (whichever comes last
        // would otherwise silently win, and the first's cards would count as seen).
        let mut given: [Option<&str>; 4] = [None; 4];
        for tok in rest.split_whitespace() {
            match parse_foundation(tok) {
                Some((suit, _)) if given[suit.index()].is_some() => {
                    let first = given[suit.index()].unwrap_or_default();
                    self.issues.push(BoardIssue {
                        line: line_no,
                        token: Some(shown_token(tok)),
                        message: format!(
                            "a second entry for suit {} (first given as `{}`): give each \
                             suit's foundation once",
                            suit.letter(),
                            shown_token(first)
                        ),
                    });
                }
                Some((suit, rank)) => {
                    given[suit.index()] = Some(tok);
                    self.foundations[suit.index()] = rank;
                    for r in 1..=rank {
                        let c = Card::new(Rank::new(r).unwrap(), suit);
                        self.note(line_no, c, tok);
                    }
                }
                None => self.issues.push(BoardIssue {
                    line: line_no,
                    token: Some(shown_token(tok)),
                    message: "not a foundation entry (expected e.g. `H-5`, `S-0`, `C-K`)".into(),
                }),
            }
        }
    }

    /// A cascade line (trimmed), deepest card first, maybe starting with `:`.
    fn cascade_line(&mut self, line_no: usize, line: &str) {
        let body = line.strip_prefix(':').unwrap_or(line);
        let mut col = Vec::new();
        for tok in body.split_whitespace() {
            match tok.parse::<Card>() {
                Ok(c) => {
                    self.note(line_no, c, tok);
                    col.push(c);
                }
                Err(_) => self.issues.push(unknown(line_no, tok)),
            }
        }
        self.order.push(Some(self.cascades.len()));
        self.cascades.push(col);
        self.cascade_lines.push(line_no);
    }

    /// After the last line: blank lines as empty cascades when there are fewer than the game
    /// has, the cascade count, the missing cards; the position if no problem was found.
    fn finish(mut self) -> Result<ReadPosition, BoardError> {
        let want = self.want_cascades;
        if self.cascades.len() < want {
            self.cascades = with_blank_cascades(self.cascades, &self.order, want);
        }
        if self.cascades.len() != want {
            let at = self.cascade_lines.get(want).copied().unwrap_or(0);
            self.issues.push(BoardIssue {
                line: at,
                token: None,
                message: format!(
                    "expected {want} cascade lines, found {}",
                    self.cascades.len()
                ),
            });
        }
        let where_seen = self.where_seen;
        self.issues
            .extend(missing_cards(|c| where_seen[c.id() as usize].is_some()));
        if self.issues.is_empty() {
            Ok((self.cascades, self.freecells, self.foundations))
        } else {
            Err(BoardError {
                issues: self.issues,
            })
        }
    }
}

/// The freecell entries of a `Freecells:` line, by slot (`None` = empty). fc-solve prints
/// each slot as a 4-character field (`Freecells:  JH      8D    `, an empty slot blank), so
/// when the text after the colon splits into at most `max` 4-character fields that are each
/// blank or one card, those are the slots; otherwise entries are whitespace-separated with `-` for an
/// empty slot (`Freecells: JH - 8D`).
fn freecell_slots<'a>(raw_rest: &'a str, rest: &'a str, max: usize) -> Vec<Option<&'a str>> {
    let body = raw_rest.trim_end();
    if body.is_ascii() && !body.contains('-') && !body.trim().is_empty() {
        let fields: Vec<&str> = body
            .as_bytes()
            .chunks(4)
            .map(|c| std::str::from_utf8(c).unwrap_or(""))
            .collect();
        let fixed = fields.len() <= max
            && fields.iter().all(|f| {
                let t = f.trim();
                t.is_empty() || (f.starts_with(' ') && t.parse::<Card>().is_ok())
            });
        if fixed {
            return fields
                .iter()
                .map(|f| Some(f.trim()).filter(|t| !t.is_empty()))
                .collect();
        }
    }
    rest.split_whitespace()
        .map(|t| (t != "-").then_some(t))
        .collect()
}

/// What follows a `Freecells:`-style prefix in the untrimmed line.
fn raw_rest<'a>(raw: &'a str, p1: &str, p2: &str) -> &'a str {
    let start = raw.len() - raw.trim_start().len();
    let lower = raw[start..].to_ascii_lowercase();
    let n = if lower.starts_with(p1) {
        p1.len()
    } else if lower.starts_with(p2) {
        p2.len()
    } else {
        0
    };
    raw.get(start + n..).unwrap_or("")
}

fn strip_any<'a>(line: &'a str, lower: &str, prefixes: &[&str]) -> Option<&'a str> {
    prefixes
        .iter()
        .find(|p| lower.starts_with(*p))
        .map(|p| &line[p.len()..])
}

fn unknown(line: usize, tok: &str) -> BoardIssue {
    BoardIssue {
        line,
        token: Some(shown_token(tok)),
        message: "unknown token (expected a card such as `AC`, `TD`, `10H`, `KS`)".into(),
    }
}

fn rank_token(r: u8) -> String {
    if r == 0 {
        "0".into()
    } else {
        Rank::new(r)
            .map(|r| r.letter().to_string())
            .unwrap_or_else(|| "?".into())
    }
}

fn parse_foundation(tok: &str) -> Option<(Suit, u8)> {
    let (s, r) = tok.split_once('-')?;
    let mut sc = s.chars();
    let suit = Suit::from_letter(sc.next()?)?;
    if sc.next().is_some() {
        return None;
    }
    let rank = if r == "0" {
        0
    } else {
        Rank::from_token(r)?.value()
    };
    Some((suit, rank))
}

impl Board {
    /// The position as input for fc-solve: like [`Board::fcs_state_text`] but with `-` for
    /// an empty freecell, so that the slots of the cards after it are kept (fc-solve reads
    /// the line as whitespace-separated entries).
    pub fn fcs_input_text(&self) -> String {
        let cells: Vec<String> = self
            .freecells
            .iter()
            .map(|c| c.map(|c| c.to_string()).unwrap_or_else(|| "-".into()))
            .collect();
        let state = self.fcs_state_text();
        let mut lines: Vec<String> = state.lines().map(String::from).collect();
        lines[1] = format!("Freecells: {}", cells.join(" "));
        lines.join("\n") + "\n"
    }
}

impl fmt::Display for Board {
    /// Same as [`Board::fcs_state_text`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fcs_state_text())
    }
}

/// The issue naming every card of the deck that `present` says is not on the board (none
/// when all 52 are): line 0, as it concerns the whole board.
fn missing_cards(present: impl Fn(Card) -> bool) -> Option<BoardIssue> {
    let missing: Vec<String> = Card::all()
        .filter(|&c| !present(c))
        .map(|c| c.to_string())
        .collect();
    (!missing.is_empty()).then(|| BoardIssue {
        line: 0,
        token: None,
        message: format!("{} card(s) missing: {}", missing.len(), missing.join(" ")),
    })
}

/// Where a card lies on a board, for [`Board::check`]'s message of a card found twice.
#[derive(Clone, Copy)]
enum Place {
    /// On its suit's foundation, which holds up to the given rank.
    Foundation(Suit, u8),
    /// In cascade `.0` (from 0), card `.1` (from 0, the deepest first).
    Cascade(usize, usize),
    /// In freecell `.0` (from 0).
    Freecell(usize),
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Place::Foundation(s, top) => write!(
                f,
                "on the foundation ({}-{})",
                s.letter(),
                Rank::new(top).map_or('?', |r| r.letter())
            ),
            Place::Cascade(i, k) => write!(f, "in cascade {}, card {}", i + 1, k + 1),
            Place::Freecell(j) => write!(f, "in freecell {}", (b'a' + j as u8) as char),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msdeal::ms_deal;

    /// PySolFC 3.2's *Export current layout* of deal 617 mid-game, its first column empty
    /// (written as an empty line): `tests/fixtures/boards/pysolfc-export-617-empty-column.board`.
    const EXPORT_EMPTY_FIRST: &str =
        include_str!("../../tests/fixtures/boards/pysolfc-export-617-empty-column.board");

    #[test]
    fn blank_lines_stand_for_empty_cascades_when_cascades_are_missing() {
        let b = Board::parse(EXPORT_EMPTY_FIRST).unwrap();
        assert!(b.cascades[0].is_empty());
        assert_eq!(b.cascades[1][0].to_string(), "AD");
        assert_eq!(b.cascades[7][0].to_string(), "KS");
        assert_eq!(b.foundations, [5, 0, 4, 2]);
        // Every place of an empty column, and two at once, as an exporter writes them.
        let full = ms_deal(617).unwrap();
        for gone in [vec![0], vec![3], vec![7], vec![2, 5], vec![6, 7]] {
            let mut want = full.clone();
            let mut home = vec![];
            for &g in &gone {
                home.extend(std::mem::take(&mut want.cascades[g]));
            }
            // The removed cards go to the freecells' stand-in: another cascade's bottom.
            want.cascades[if gone.contains(&1) { 4 } else { 1 }].splice(0..0, home);
            let text: String = want
                .cascades
                .iter()
                .map(|c| {
                    c.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                        + "\n"
                })
                .collect();
            assert_eq!(
                Board::parse(&text).unwrap(),
                want,
                "columns {gone:?} empty:\n{text}"
            );
        }
        // With 8 cascade lines, blank lines anywhere are ignored, as before.
        let spaced = format!("\n\n{}\n\n", full.cascades_text().replace('\n', "\n\n"));
        assert_eq!(Board::parse(&spaced).unwrap(), full);
        // Too few lines even so: still an error.
        let seven: String = full
            .cascades_text()
            .lines()
            .take(7)
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(Board::parse(&seven)
            .unwrap_err()
            .to_string()
            .contains("expected 8 cascade lines, found 7"));
    }

    #[test]
    fn parse_round_trips_ms_deal() {
        let b = ms_deal(617).unwrap();
        assert_eq!(Board::parse(&b.cascades_text()).unwrap(), b);
        assert_eq!(Board::parse(&b.fcs_state_text()).unwrap(), b);
    }

    #[test]
    fn parse_reports_duplicate_unknown_and_missing() {
        let mut text = ms_deal(1).unwrap().cascades_text();
        text = text.replacen("JD", "KD", 1).replacen("2D", "ZZ", 1);
        let err = Board::parse(&text).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("duplicate card KD"), "{msg}");
        assert!(msg.contains("token `ZZ`"), "{msg}");
        assert!(
            msg.contains("missing: 2D JD") || msg.contains("missing: JD 2D"),
            "{msg}"
        );
    }

    /// A board made otherwise than from text (a position string, the service's JSON):
    /// `check` names each card found twice.
    #[test]
    fn check_names_a_card_found_twice() {
        let mut b = ms_deal(1).unwrap();
        b.foundations = [0, 0, 1, 0]; // the ace of hearts home, and still in a cascade
        let msg = b.check().unwrap_err().to_string();
        assert!(
            msg.contains(
                "AH: card appears twice: in cascade 7, card 3, and on the foundation (H-A)"
            ),
            "{msg}"
        );
        let mut b = ms_deal(1).unwrap();
        let c = b.cascades[0][2];
        b.cascades[7].push(c);
        b.freecells[1] = Some(c);
        let msg = b.check().unwrap_err().to_string();
        // Three times is one problem that says so (formerly: two, each "twice").
        assert!(
            msg.contains(&format!(
                "{c}: card appears 3 times: in cascade 8, card 7, in freecell b, and in cascade 1, card 3"
            )) && !msg.contains("twice"),
            "{msg}"
        );
        let mut b = ms_deal(1).unwrap();
        b.cascades[7].push(c);
        let msg = b.check().unwrap_err().to_string();
        assert!(
            msg.contains(&format!(
                "{c}: card appears twice: in cascade 8, card 7, and in cascade 1, card 3"
            )),
            "{msg}"
        );
    }

    /// A foundation holding more than 13 cards (from a position's JSON, e.g.
    /// `"foundations": [0,0,14,0]`) is named by suit, alone: which cards it would hold
    /// cannot be told, so no card is then called duplicate or missing.
    #[test]
    fn a_foundation_over_thirteen_is_named_alone() {
        let mut b = ms_deal(617).unwrap();
        b.foundations = [0, 0, 14, 0];
        let err = b.check().unwrap_err();
        assert_eq!(err.issues.len(), 1, "{err}");
        assert!(
            err.to_string()
                .contains("the H foundation holds 14 cards: at most 13 (A to K)"),
            "{err}"
        );
        b.foundations = [20, 0, 0, 255];
        let msg = b.check().unwrap_err().to_string();
        assert!(
            msg.contains("the C foundation holds 20 cards")
                && msg.contains("the S foundation holds 255"),
            "{msg}"
        );
        assert!(!msg.contains("twice") && !msg.contains("missing"), "{msg}");
    }

    #[test]
    fn parse_reports_nine_cascades() {
        let mut lines: Vec<String> = ms_deal(5)
            .unwrap()
            .cascades_text()
            .lines()
            .map(String::from)
            .collect();
        let cut = lines[0].len() - 2;
        let moved = lines[0].split_off(cut);
        lines[0].pop();
        lines.push(moved);
        let err = Board::parse(&lines.join("\n")).unwrap_err();
        assert!(
            err.to_string()
                .contains("expected 8 cascade lines, found 9"),
            "{err}"
        );
    }

    #[test]
    fn foundation_and_cascade_conflict() {
        let text = format!(
            "Foundations: H-0 C-A D-0 S-0\n{}",
            ms_deal(3).unwrap().cascades_text()
        );
        let err = Board::parse(&text).unwrap_err();
        assert!(err.to_string().contains("duplicate card AC"), "{err}");
    }

    #[test]
    fn freecell_slots_survive_both_layouts() {
        let mut b = ms_deal(617).unwrap();
        let c1 = b.cascades[0].pop().unwrap();
        let c3 = b.cascades[1].pop().unwrap();
        b.freecells = [None, Some(c1), None, Some(c3)];
        assert!(b
            .fcs_state_text()
            .contains(&format!("Freecells:      {}      {}\n", c1, c3)));
        assert_eq!(Board::parse(&b.fcs_state_text()).unwrap(), b);
        assert_eq!(Board::parse(&b.fcs_input_text()).unwrap(), b);
    }

    /// A suit given twice on the Foundations line is named, whatever the two ranks, and
    /// neither entry's cards are counted twice (formerly: `H-A H-0` with the ace of hearts
    /// left out was taken as a board of 51 cards).
    #[test]
    fn a_suit_given_twice_on_the_foundations_line_is_named() {
        let deal = ms_deal(617).unwrap();
        let ah = "AH".parse::<Card>().unwrap();
        let mut without_ah = deal.clone();
        for c in without_ah.cascades.iter_mut() {
            c.retain(|&x| x != ah);
        }
        for (entries, board, second) in [
            ("H-A H-0 C-0 D-0 S-0", &without_ah, "H-0"),
            ("H-0 H-A C-0 D-0 S-0", &without_ah, "H-A"),
            ("H-A H-A C-0 D-0 S-0", &without_ah, "H-A"),
            ("H-0 H-0 C-0 D-0 S-0", &deal, "H-0"),
            ("H-K C-0 H-Q D-0 S-0", &deal, "H-Q"),
            ("H-0 C-2 D-0 S-0 C-0", &deal, "C-0"),
        ] {
            let text = format!("Foundations: {entries}\n{}", board.cascades_text());
            let err = Board::parse(&text).unwrap_err();
            let suit = &second[..1];
            let named = err.issues.iter().any(|i| {
                i.line == 1
                    && i.token.as_deref() == Some(second)
                    && i.message
                        .contains(&format!("a second entry for suit {suit}"))
            });
            assert!(named, "{entries}: {err}");
        }
        // The second entry's cards are not counted as seen again.
        let text = format!(
            "Foundations: H-A H-A C-0 D-0 S-0\n{}",
            without_ah.cascades_text()
        );
        let err = Board::parse(&text).unwrap_err();
        assert_eq!(err.issues.len(), 1, "{err}");
    }

    #[test]
    fn bom_and_second_foundations_line() {
        let text = format!("\u{feff}{}", ms_deal(9).unwrap().cascades_text());
        assert!(Board::parse(&text).is_ok());
        let text = format!(
            "Foundations: H-0 C-0 D-0 S-0\n{}Foundations: H-0 C-0 D-0 S-0\n",
            ms_deal(9).unwrap().cascades_text()
        );
        let err = Board::parse(&text).unwrap_err().to_string();
        assert!(
            err.contains("a second Foundations line") && err.len() < 200,
            "{err}"
        );
    }

    #[test]
    fn empty_text_is_reported_as_empty() {
        for text in ["", "  \n\t\n\r\n", "\u{feff}", "# only a comment\n\n"] {
            let err = Board::parse(text).unwrap_err();
            assert_eq!(err.issues.len(), 1, "{text:?}: {err}");
            let msg = err.to_string();
            assert!(msg.contains("the board text"), "{text:?}: {msg}");
            assert!(!msg.contains("missing"), "{text:?}: {msg}");
        }
        assert!(Board::parse("").unwrap_err().to_string().contains("empty"));
    }

    #[test]
    fn garbage_lists_ten_problems_and_counts_the_rest() {
        // 8 lines of 30 bad tokens: 240 unknown tokens plus the 52 missing cards.
        let line = (0..30)
            .map(|i| format!("Q{i}"))
            .collect::<Vec<_>>()
            .join(" ");
        let text = vec![line; 8].join("\n");
        let err = Board::parse(&text).unwrap_err();
        assert_eq!(err.issues.len(), 241, "every problem is kept");
        let msg = err.to_string();
        assert_eq!(
            msg.matches("unknown token").count(),
            MAX_LISTED_ISSUES,
            "{msg}"
        );
        assert!(msg.ends_with("; ... and 231 more problems"), "{msg}");
        assert!(msg.len() < 1200, "{} bytes: {msg}", msg.len());
        // One more than the cap: "1 more problem".
        let eleven = "Q1 Q2 Q3 Q4 Q5 Q6 Q7 Q8 Q9 Q10\n:\n:\n:\n:\n:\n:\n:";
        let msg = Board::parse(eleven).unwrap_err().to_string();
        assert!(msg.ends_with("; ... and 1 more problem"), "{msg}");
    }

    #[test]
    fn a_long_token_is_cut_in_the_message() {
        let text = format!("{}\n", "x".repeat(5000));
        let msg = Board::parse(&text).unwrap_err().to_string();
        assert!(
            msg.contains(&format!("token `{}…`", "x".repeat(24))),
            "{msg}"
        );
        assert!(msg.len() < 600, "{} bytes: {msg}", msg.len());
    }

    #[test]
    fn text_larger_than_any_board_is_refused_unparsed() {
        let mut text = ms_deal(617).unwrap().cascades_text();
        text.push_str(&"# padding\n".repeat(MAX_BOARD_TEXT / 10));
        let err = Board::parse(&text).unwrap_err();
        assert_eq!(err.issues.len(), 1, "{err}");
        assert!(err.to_string().contains("too large"), "{err}");
        // Just under the limit still parses.
        text.truncate(MAX_BOARD_TEXT);
        let text = &text[..text.rfind('\n').unwrap()];
        assert_eq!(Board::parse(text).unwrap(), ms_deal(617).unwrap());
    }

    /// Lines ending in a lone `\r` read as lines, blank ones included, as `\n` and `\r\n`
    /// endings do.
    #[test]
    fn carriage_return_line_ends_read_as_lines() {
        let text = ms_deal(617).unwrap().cascades_text();
        for end in ["\r", "\r\n"] {
            let t = text.replace('\n', end);
            assert_eq!(Board::parse(&t).unwrap(), ms_deal(617).unwrap(), "{end:?}");
        }
        let with_header =
            format!("Foundations: H-0 C-0 D-0 S-0\rFreecells:\r\r{text}").replace('\n', "\r");
        assert_eq!(Board::parse(&with_header).unwrap(), ms_deal(617).unwrap());
        let mut lines: Vec<&str> = text.lines().collect();
        lines[3] = "";
        let err = Board::parse(&lines.join("\r")).unwrap_err().to_string();
        assert!(err.contains("missing"), "{err}");
    }

    #[test]
    fn freecells_and_foundations_parse() {
        let text = "Foundations: H-0 C-A D-0 S-0\nFreecells: 2C - KD\n: 3C\n";
        let err = Board::parse(text).unwrap_err();
        // Only 4 cards; cascade count and missing cards are reported, not the ones given.
        assert!(err
            .to_string()
            .contains("expected 8 cascade lines, found 1"));
        assert!(!err.to_string().contains("duplicate"));
    }
}
