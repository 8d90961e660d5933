//! The one reader of solution documents: what kind of solution text a file holds (our
//! JSON, standard notation or an annotated move list such as `analyze --report`'s
//! `game.txt`, Freecell Solver's output in each layout fcauto accepts), the start it names
//! (a JSON's board or deal, fc-solve's first printed position, a `# start:` line or a
//! position string before the first move), its moves and the claims it makes beside them
//! (a JSON's counts and verdict, fc-solve's verdict, total and printed positions).
//!
//! It takes text and does no I/O; checking the moves against the rules is the validator's
//! (`fcauto_engine::verify` puts the two together).

use crate::annotated::{strip_annotations, Annotated};
use crate::solution::{
    fcs_output_kind, parse_fcs_output, parse_fcs_states, parse_json, tidy_fcs_output, FcsKind,
    FcsVerdict, SolutionJson, SolutionParseError,
};
use crate::standard::looks_like_standard;
use crate::StepMove;
use fcauto_deals::{Board, DealError};

/// A game's start as a document names it: the MS deal number when known, and the position.
pub type Start = (Option<u64>, Board);

/// The moves a text solution (anything but our JSON) lists, as [`SolutionDoc::text_moves`]
/// reads them: which notation, the moves as written, and the start the text names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextMoves {
    /// No moves: comments alone (`#` lines, an annotated list's `{...}` comments), with the
    /// start a `# start:` line names.
    Nothing {
        /// The start named, if any.
        start: Option<Start>,
    },
    /// Standard notation (fc-solve's `-sn` output and annotated lists included): the moves'
    /// text with the marks, move numbers and comments taken out (for
    /// [`crate::parse_standard`], counts left open), the start a `# start:` line names, and
    /// fc-solve's verdict when its text has one.
    Standard {
        /// The moves' text.
        moves: String,
        /// The start named, if any.
        start: Option<Start>,
        /// fc-solve's verdict line, `Unknown` without one.
        verdict: FcsVerdict,
    },
    /// fc-solve's output: its verdict and its move lines (none for a verdict alone).
    Fcs {
        /// Its verdict.
        verdict: FcsVerdict,
        /// Its moves.
        moves: Vec<StepMove>,
    },
    /// None of these.
    Unrecognised,
}

/// What kind of solution text a document is, in the order the reader tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocKind {
    /// A board (a position) and no moves: given where a solution goes, it is named as such.
    Board,
    /// A JSON object: `fcauto solve --format json`'s solution (or a minimal one).
    Json,
    /// Freecell Solver's output: move lines (`-sam`), or a verdict line without them (a won
    /// board, a deal it did not solve, its `-sn` standard notation).
    Fcs(FcsKind),
    /// Blank lines and `#` comments only (`solve`'s `# unsolvable`, `# already won`).
    Comments,
    /// Anything else: standard notation, an annotated move list (`game.txt`), fc-solve's
    /// positions in its table layout, or text that is none of these.
    MoveList,
}

/// Why a document (or the start it names) cannot be read. Messages name no file: the
/// caller adds its name.
#[derive(Debug, thiserror::Error)]
pub enum DocError {
    /// JSON that is no object (`"a JSON array"`): no solution or board starts so.
    #[error("{0}")]
    NotObject(&'static str),
    /// The solution JSON does not parse.
    #[error(transparent)]
    Json(SolutionParseError),
    /// fc-solve's output does not parse (a move line, a position, its total).
    #[error(transparent)]
    Fcs(SolutionParseError),
    /// fc-solve's first position does not read as a board.
    #[error("fc-solve's first position (from line {line}) is not a board: {error}")]
    FcsStart {
        /// Its first line, 1-based.
        line: usize,
        /// The board parser's words.
        error: String,
    },
    /// An annotated move list's problem (a `# start:` that is no position, a `{` never
    /// closed), with its line.
    #[error("{0}")]
    Annotation(String),
    /// A solution JSON's `cascades` (with its freecells and foundations) are no legal
    /// position.
    #[error("its `cascades` are not a position: {0}")]
    JsonBoard(String),
    /// A solution JSON's `deal` and `cascades` are different positions.
    #[error("its `deal` ({0}) and its `cascades` are different positions")]
    JsonDealBoard(u64),
    /// A solution JSON's `deal` is no deal number.
    #[error("the solution's `deal` {deal} is not a deal number")]
    JsonDeal {
        /// The number given.
        deal: u64,
        /// Why it is none.
        #[source]
        source: DealError,
    },
}

/// A solution document as read: its tidied text and its kind; the start, moves and claims
/// are read from it on demand, so that a caller meets their problems in its own order.
#[derive(Clone, Debug)]
pub struct SolutionDoc {
    text: String,
    kind: DocKind,
    board: Option<Board>,
}

impl SolutionDoc {
    /// Read `text` as a solution document: a JSON that is no object is refused (no solution
    /// starts as an array, a string, `true` or `null` do); anything else gets its kind.
    ///
    /// # Errors
    /// [`DocError::NotObject`].
    pub fn read(text: &str) -> Result<SolutionDoc, DocError> {
        if let Some(kind) = json_not_object(text) {
            return Err(DocError::NotObject(kind));
        }
        Ok(SolutionDoc::new(text))
    }

    /// Read `text` with no refusal: a byte-order mark left out, fc-solve's lines tidied
    /// (`tidy_fcs_output`: tabs and doubled spaces do not hide them), the kind told.
    pub fn new(text: &str) -> SolutionDoc {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        SolutionDoc::tidied(tidy_fcs_output(text.to_string()))
    }

    /// Read a board file's text (which may be a solution naming its start) as
    /// [`SolutionDoc::new`] does, fc-solve's lines tidied before a byte-order mark is left
    /// out (so a first line after the mark is read as written).
    pub fn board_file(text: &str) -> SolutionDoc {
        let text = tidy_fcs_output(text.to_string());
        let text = match text.strip_prefix('\u{feff}') {
            Some(t) => t.to_string(),
            None => text,
        };
        SolutionDoc::tidied(text)
    }

    /// The document of text already tidied, its kind told.
    fn tidied(text: String) -> SolutionDoc {
        let (kind, board) = if let Ok(b) = fcauto_deals::position::parse_any(&text) {
            (DocKind::Board, Some(b))
        } else if looks_like_json(&text) {
            (DocKind::Json, None)
        } else if let Some(k) = fcs_output_kind(&text) {
            (DocKind::Fcs(k), None)
        } else if only_comments(&text) {
            (DocKind::Comments, None)
        } else {
            (DocKind::MoveList, None)
        };
        SolutionDoc { text, kind, board }
    }

    /// The document's text, tidied as [`SolutionDoc::new`] says.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// What kind of document it is.
    pub fn kind(&self) -> DocKind {
        self.kind
    }

    /// What marks the text as fc-solve's output, when it reads as that.
    pub fn fcs_kind(&self) -> Option<FcsKind> {
        match self.kind {
            DocKind::Fcs(k) => Some(k),
            _ => None,
        }
    }

    /// The position of a document that is a board ([`DocKind::Board`]).
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    /// True when the text is blank lines and `#` comments only.
    pub fn only_comments(&self) -> bool {
        only_comments(&self.text)
    }

    /// The solution JSON and its moves.
    ///
    /// # Errors
    /// [`DocError::Json`]: not a solution JSON.
    pub fn json(&self) -> Result<(SolutionJson, Vec<StepMove>), DocError> {
        parse_json(&self.text).map_err(DocError::Json)
    }

    /// True when the JSON has a `solvable` key (null or not): absent, it claims nothing.
    pub fn json_gives_solvable(&self) -> bool {
        serde_json::from_str::<serde_json::Value>(&self.text)
            .is_ok_and(|v| v.get("solvable").is_some())
    }

    /// fc-solve's verdict and move lines, when the text reads as its output (else
    /// `Unknown` and none: a `{...}` comment of an annotated list may quote its lines).
    ///
    /// # Errors
    /// [`DocError::Fcs`]: a move line, its total or a stray line.
    pub fn fcs_moves(&self) -> Result<(FcsVerdict, Vec<StepMove>), DocError> {
        if self.fcs_kind().is_none() {
            return Ok((FcsVerdict::Unknown, Vec::new()));
        }
        parse_fcs_output(&self.text).map_err(DocError::Fcs)
    }

    /// The moves of a text solution, the one reading of them `verify` and `analyze` share:
    /// fc-solve's move lines when the text has them; else, with an annotated game's marks
    /// taken out, nothing (comments alone), standard notation, fc-solve's verdict alone, or
    /// text that is none of these.
    ///
    /// # Errors
    /// [`DocError::Fcs`]: fc-solve's move lines, total or a stray line;
    /// [`DocError::Annotation`]: a comment not closed, move numbers out of count.
    pub fn text_moves(&self) -> Result<TextMoves, DocError> {
        let (verdict, lines) = self.fcs_moves()?;
        if !lines.is_empty() {
            return Ok(TextMoves::Fcs {
                verdict,
                moves: lines,
            });
        }
        let (moves, start) = self.annotated()?;
        if moves.trim().is_empty() {
            return Ok(TextMoves::Nothing { start });
        }
        if looks_like_standard(&self.text) || looks_like_standard(&moves) {
            return Ok(TextMoves::Standard {
                moves,
                start,
                verdict,
            });
        }
        Ok(match self.fcs_kind() {
            Some(_) => TextMoves::Fcs {
                verdict,
                moves: Vec::new(),
            },
            None => TextMoves::Unrecognised,
        })
    }

    /// The positions fc-solve's output prints, each with the number of moves before it.
    ///
    /// # Errors
    /// [`DocError::Fcs`]: a position that does not read.
    pub fn printed_positions(&self) -> Result<Vec<(usize, Board)>, DocError> {
        parse_fcs_states(&self.text).map_err(DocError::Fcs)
    }

    /// The move list with an annotated game's marks taken out, and the start it names on a
    /// `# start:` line (or a position string opening it).
    ///
    /// # Errors
    /// [`DocError::Annotation`].
    pub fn annotated(&self) -> Result<(String, Option<Start>), DocError> {
        annotated(&self.text)
    }

    /// The annotated reading, problem and all ([`strip_annotations`]).
    pub fn annotations(&self) -> Annotated {
        strip_annotations(&self.text)
    }

    /// The verdict of fc-solve's output of a game it did not solve, else `None`.
    pub fn fcs_not_solved(&self) -> Option<FcsVerdict> {
        fcs_not_solved(&self.text)
    }

    /// What `solve`'s standard notation for a deal not solved says: the `unsolvable` or
    /// `unknown: why` of its `# unsolvable` or `# unknown: why`, in a text of comments alone.
    pub fn not_solved_comment(&self) -> Option<&str> {
        if !only_comments(&self.text) {
            return None;
        }
        self.text
            .lines()
            .filter_map(|l| l.trim().strip_prefix('#'))
            .map(str::trim)
            .find(|t| t.starts_with("unsolvable") || t.starts_with("unknown"))
    }

    /// What the text is when it is JSON but no object (`"a JSON array"`), else `None`.
    pub fn not_object(&self) -> Option<&'static str> {
        json_not_object(&self.text)
    }

    /// True when the text has a line of fc-solve's position text (`Foundations:`,
    /// `Freecells:`).
    pub fn has_fcs_position(&self) -> bool {
        has_fcs_position(&self.text)
    }

    /// The line (1-based) of the first `Foundations:` or `Freecells:` line of fc-solve's
    /// text when a `Move` line comes before it: a block cut from the middle of its output.
    pub fn position_after_a_move(&self) -> Option<usize> {
        let mut moved = false;
        for (i, l) in self.text.lines().enumerate() {
            if position_head(l) {
                return moved.then_some(i + 1);
            }
            moved |= move_line(l);
        }
        None
    }

    /// True when the text is a move list in standard notation and could be nothing else:
    /// every token a move, one at least that no card reads as (`38`, `8a`: a broken board's
    /// `4D`, `AH` read as moves too), and no line of board text (`Foundations:`, `: KS`).
    pub fn looks_like_move_list(&self) -> bool {
        let text = &self.text;
        let board_lines =
            has_fcs_position(text) || text.lines().any(|l| l.trim_start().starts_with(':'));
        let moves = strip_annotations(text).moves;
        let not_card = moves
            .split_whitespace()
            .any(|t| t.parse::<fcauto_deals::Card>().is_err());
        !board_lines && not_card && crate::parse_standard(&moves).is_ok_and(|m| !m.is_empty())
    }

    /// The first position of fc-solve's `-p -t` output (`fcauto solve --format fcs`), if it
    /// prints one before its first move: its first block of position lines (`Foundations:`,
    /// `Freecells:`, the `: ` cascade lines), up to a blank line or a move line; or, in
    /// output without `-p -t`, its first position in the table layout ([`parse_fcs_states`]).
    ///
    /// # Errors
    /// That block does not read as a board (named with its first line).
    pub fn fcs_start(&self) -> Result<Option<Start>, DocError> {
        fcs_start(&self.text)
    }

    /// The start the document names itself, if any: a solution JSON's `cascades` or `deal`,
    /// the first position of fc-solve's `-p -t` output, or a move list's `# start:` line.
    ///
    /// # Errors
    /// A solution JSON that is not one, or whose `cascades` are no position or not its `deal`'s;
    /// fc-solve's first position or a `# start:` line that is not a position.
    pub fn own_start(&self) -> Result<Option<Start>, DocError> {
        let text = &self.text;
        if self.kind == DocKind::Json {
            let (sol, _) = self.json()?;
            return Ok(match (solution_start(&sol)?, sol.deal) {
                (Some(start), _) => Some(start),
                (None, Some(n)) => Some((Some(n), json_deal(n)?)),
                (None, None) => None,
            });
        }
        if fcs_output_kind(text).is_some() || has_fcs_position(text) {
            if let Some(start) = fcs_start(text)? {
                return Ok(Some(start));
            }
        }
        Ok(annotated(text)?.1)
    }
}

/// The moves of an annotated list and the start it names.
fn annotated(text: &str) -> Result<(String, Option<Start>), DocError> {
    let a = strip_annotations(text);
    match a.problem {
        Some(problem) => Err(DocError::Annotation(problem)),
        None => Ok((a.moves, a.start)),
    }
}

/// True when every line of `text` is blank or a `#` comment.
fn only_comments(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .all(|l| l.is_empty() || l.starts_with('#'))
}

/// True when `text` is a JSON object: its first character (after spaces and a byte-order
/// mark) is `{`, and the next one `"` or `}`. A move list may start with a `{...}` comment.
fn looks_like_json(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    t.strip_prefix('{')
        .is_some_and(|rest| matches!(rest.trim_start().chars().next(), Some('"' | '}') | None))
}

/// What `text` is when it is JSON but no object (an array, a string, `true`, `null`), in
/// words (`"a JSON array"`): the JSON files fcauto reads are objects, and no board or move
/// text starts as these do, so such a file is named for what it is rather than read as board
/// or move text (a list of solutions is not an annotated move list). `None` for an object
/// and for text that is not JSON (`38`, a number, is a move in standard notation).
fn json_not_object(text: &str) -> Option<&'static str> {
    let t = text.trim_start_matches('\u{feff}').trim();
    if t.starts_with('[') {
        return Some("a JSON array");
    }
    match serde_json::from_str::<serde_json::Value>(t).ok()? {
        serde_json::Value::String(_) => Some("a JSON string"),
        serde_json::Value::Bool(_) => Some("JSON true or false"),
        serde_json::Value::Null => Some("JSON null"),
        _ => None,
    }
}

/// fc-solve's verdict when `text` is its output of a game it did not solve (its verdict
/// `NotSolved` or `LimitExceeded`), else `None`.
fn fcs_not_solved(text: &str) -> Option<FcsVerdict> {
    fcs_output_kind(text)?;
    match parse_fcs_output(text) {
        Ok((v @ (FcsVerdict::NotSolved | FcsVerdict::LimitExceeded), _)) => Some(v),
        _ => None,
    }
}

/// True for a line of fc-solve's position text (`Foundations:`, `Freecells:`).
fn position_head(l: &str) -> bool {
    let l = l.trim_start();
    l.starts_with("Foundations:") || l.starts_with("Freecells:")
}

/// True for one of fc-solve's move lines (`Move a card ...`, `-sn`'s `Move: 8a`).
fn move_line(l: &str) -> bool {
    let l = l.trim_start();
    l.starts_with("Move ") || l.starts_with("Move:")
}

/// True when `text` has a line of fc-solve's position text (`Foundations:`, `Freecells:`).
fn has_fcs_position(text: &str) -> bool {
    text.lines().any(position_head)
}

/// [`SolutionDoc::fcs_start`].
fn fcs_start(text: &str) -> Result<Option<Start>, DocError> {
    let position_line = |l: &str| position_head(l) || l.trim_start().starts_with(':');
    let lines: Vec<&str> = text.lines().collect();
    let Some(first) = lines.iter().position(|l| position_line(l) || move_line(l)) else {
        return table_start(&lines);
    };
    if move_line(lines[first]) {
        return table_start(&lines);
    }
    let block: Vec<&str> = lines[first..]
        .iter()
        .take_while(|l| !l.trim().is_empty() && !move_line(l))
        .copied()
        .collect();
    // Blank lines in front, so that the parser's line numbers are the file's.
    let numbered = "\n".repeat(first) + &block.join("\n");
    let board = fcauto_deals::position::parse_any(&numbered).map_err(|e| DocError::FcsStart {
        line: first + 1,
        error: e.to_string(),
    })?;
    Ok(Some((None, board)))
}

/// Without `-p -t` fc-solve draws its positions in its table layout: the first, printed
/// before any move, is the start. Only the text before the first move is read: a later
/// position's problems are the replay's to name, not the start's.
fn table_start(lines: &[&str]) -> Result<Option<Start>, DocError> {
    let before = lines
        .iter()
        .position(|l| move_line(l))
        .unwrap_or(lines.len());
    let states = parse_fcs_states(&lines[..before].join("\n")).map_err(DocError::Fcs)?;
    Ok(states
        .into_iter()
        .next()
        .filter(|(n, _)| *n == 0)
        .map(|(_, b)| (None, b)))
}

/// The start a solution JSON carries: its position (`cascades`, with its `freecells` and
/// `foundations`, absent ones empty, as older versions left them out) and its `deal`. None
/// without `cascades`.
///
/// # Errors
/// A position that is not a legal one (duplicate or missing cards), a `deal` out of range
/// ([`DocError::JsonDeal`]), or a position that is not its `deal`'s.
pub fn solution_start(sol: &SolutionJson) -> Result<Option<Start>, DocError> {
    if !sol.given.cascades {
        return Ok(None);
    }
    let start = sol.position.board();
    start
        .check()
        .map_err(|e| DocError::JsonBoard(e.to_string()))?;
    if let Some(n) = sol.deal {
        if json_deal(n)? != start {
            return Err(DocError::JsonDealBoard(n));
        }
    }
    Ok(Some((sol.deal, start)))
}

/// The deal a solution JSON's `deal` names, dealt.
///
/// # Errors
/// [`DocError::JsonDeal`]: a number out of range, named as the JSON's field (not as a
/// command-line deal number).
pub fn json_deal(n: u64) -> Result<Board, DocError> {
    fcauto_deals::ms_deal(n).map_err(|source| DocError::JsonDeal { deal: n, source })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind of solution text is told apart by its kind alone.
    #[test]
    fn kinds_of_solution_text() {
        let deal = fcauto_deals::ms_deal(617).unwrap();
        let position = fcauto_deals::position::write(&deal);
        for (text, kind) in [
            ("{\"moves\": []}", DocKind::Json),
            ("\u{feff}{\"deal\": 617, \"moves\": []}", DocKind::Json),
            (position.as_str(), DocKind::Board),
            ("3a 38\n", DocKind::MoveList),
            ("{a comment} 3a\n", DocKind::MoveList),
            ("# unsolvable\n\n", DocKind::Comments),
            (
                "Move a card from stack 3 to freecell 0\n",
                DocKind::Fcs(FcsKind::MoveLines),
            ),
            (
                "Move\ta  card from stack 3 to freecell 0\n",
                DocKind::Fcs(FcsKind::MoveLines),
            ),
            (
                "This game is solveable.\n",
                DocKind::Fcs(FcsKind::VerdictOnly),
            ),
        ] {
            assert_eq!(SolutionDoc::read(text).unwrap().kind(), kind, "{text:?}");
        }
        for (text, what) in [
            ("[1, 2]", "a JSON array"),
            ("\"38\"", "a JSON string"),
            ("true", "JSON true or false"),
            ("null", "JSON null"),
        ] {
            match SolutionDoc::read(text) {
                Err(DocError::NotObject(w)) => assert_eq!(w, what),
                other => panic!("{text:?}: {other:?}"),
            }
            // Read without refusal, it is just text.
            assert_eq!(SolutionDoc::new(text).not_object(), Some(what));
        }
    }

    /// The start a document names: a JSON's deal or board, a `# start:` line, fc-solve's
    /// first printed position; none for a plain move list.
    #[test]
    fn the_start_a_document_names() {
        let deal = fcauto_deals::ms_deal(617).unwrap();
        let position = fcauto_deals::position::write(&deal);
        let own = |text: &str| SolutionDoc::read(text).unwrap().own_start().unwrap();
        assert_eq!(
            own("{\"deal\": 617, \"moves\": []}"),
            Some((Some(617), deal.clone()))
        );
        assert_eq!(
            own(&format!("# start: {position}\n38\n")),
            Some((None, deal.clone()))
        );
        let fcs = format!(
            "{}\n\nMove a card from stack 3 to freecell 0\n",
            deal.fcs_state_text()
        );
        assert_eq!(own(&fcs), Some((None, deal.clone())));
        assert_eq!(own("3a 38\n"), None);
        // A JSON deal that is no deal is named as the JSON's field.
        let e = SolutionDoc::read("{\"deal\": 0, \"moves\": []}")
            .unwrap()
            .own_start()
            .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("the solution's `deal` 0 is not a deal number"),
            "{e}"
        );
    }

    /// What a text of comments says, and fc-solve's word on a game it did not solve.
    #[test]
    fn claims_of_no_solution() {
        let doc = SolutionDoc::read("# deal 5\n# unknown: 100 positions\n").unwrap();
        assert_eq!(doc.not_solved_comment(), Some("unknown: 100 positions"));
        assert_eq!(
            SolutionDoc::read("38 # unsolvable\n")
                .unwrap()
                .not_solved_comment(),
            None
        );
        let doc = SolutionDoc::read("I could not solve this game.\n").unwrap();
        assert_eq!(doc.fcs_not_solved(), Some(FcsVerdict::NotSolved));
        assert_eq!(
            doc.fcs_moves().unwrap(),
            (FcsVerdict::NotSolved, Vec::new())
        );
        // A `{...}` comment quoting fc-solve's line is no fc-solve output.
        let doc = SolutionDoc::read("3a {Move a card from stack 3 to freecell 0}\n").unwrap();
        assert_eq!(doc.fcs_moves().unwrap(), (FcsVerdict::Unknown, Vec::new()));
        assert!(doc.looks_like_move_list());
    }
}
