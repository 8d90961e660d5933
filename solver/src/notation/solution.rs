//! Solution formats: the JSON contract, standard notation, and Freecell Solver's
//! `-p -t -sam` text; plus readers for our JSON and for fc-solve's move lines.

use super::position::PositionJson;
use crate::moves::{Loc, Move, MoveKind, PlayedMove};
use crate::validator::{apply_checked, stacks_on, validate, StepMove, ValidationError};
use fcauto_deals::{Board, Card};
use serde::{Deserialize, Serialize};

#[cfg(test)]
use super::fcs::table_foundations;
pub use super::fcs::{
    fc_solve_numberings, fc_solve_slots, parse_fcs_output, parse_fcs_states,
    scan_printed_positions, FcsKind, FcsVerdict,
};
pub(crate) use super::fcs::{fcs_output_kind, tidy_fcs_output};

impl SolutionJson {
    /// The JSON's description of a board and a verdict, with no moves (as printed for an
    /// unsolved board): `solvable` is `Some(false)` only for a proof of unsolvability,
    /// `None` for a search stopped by a limit; `verdict` says which. The counts are null:
    /// a deal not solved has no solution length (as in `bench --json` and the service).
    pub fn without_moves(
        deal: Option<u64>,
        board: &Board,
        solvable: Option<bool>,
        verdict: &str,
    ) -> SolutionJson {
        SolutionJson {
            deal,
            position: PositionJson::of(board),
            given: PositionGiven::ALL,
            solvable,
            verdict: Some(verdict.to_string()),
            moves_total: None,
            single_card_moves: None,
            moves: Vec::new(),
        }
    }
}

/// One move as JSON, the one shape of a move: the solution document's `moves` (every field,
/// `step` included) and the service's moves (`legal_moves`, `apply_move`, `solve`, `hint`:
/// every field but `step`). Written by [`JsonMove::played`]. Reading needs only `from` and
/// `to`, and refuses unknown fields (a misspelt `count` would otherwise be left out without
/// a word), as `fcauto serve`'s bodies do.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct JsonMove {
    /// 1-based position in the solution (written always; when read, absent claims
    /// nothing, and any number given, 0 included, must be the move's place).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// The move's kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<MoveKind>,
    /// `"1"`..`"8"` (cascade), `"a"`..`"d"` (freecell slot).
    pub from: String,
    /// `"1"`..`"8"`, `"a"`..`"d"`, or `"h"` (foundation).
    pub to: String,
    /// The card moved; for a multi-card move the deepest card of the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<Card>,
    /// Cards moved (1 unless a supermove).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u8>,
    /// Standard notation (`3a`, `a3`, `3h`, `38`), read back as this very move: with `v` and
    /// the count (`38v1`) where a plain `38`, onto an empty cascade, would move another
    /// number of cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notation: Option<String>,
}

impl JsonMove {
    /// Move `p` played from `board`, every field but `step` set: its notation as
    /// [`standard_token`] writes it (with the count where a plain token would read as
    /// another move).
    pub fn played(board: &Board, p: PlayedMove) -> JsonMove {
        JsonMove {
            notation: Some(standard_token(board, p.mv)),
            ..JsonMove::of(p)
        }
    }

    /// Move `p` with its kind, places, card and count, and neither `step` nor `notation`
    /// (for a caller that has the move's token already: [`Solution::tokens`]).
    pub fn of(p: PlayedMove) -> JsonMove {
        JsonMove {
            step: None,
            kind: p.mv.kind(),
            from: p.mv.from.notation(),
            to: p.mv.to.notation(),
            card: Some(p.card),
            count: Some(p.mv.count),
            notation: None,
        }
    }
}

/// The JSON contract printed by `fcauto solve --format json` and read by `fcauto verify`
/// and the GUI replay: the start as a position object ([`PositionJson`]) with the solution's
/// fields added:
/// `{"deal": 617, "cascades": [[8 cascades, deepest first]], "freecells": [4 slots],
///   "foundations": [4 counts], "solvable": true, "verdict": "solved", "moves_total": N,
///   "single_card_moves": M, "moves": [JsonMove...]}`.
/// `deal` is null for a board given as a file; `moves` is empty and the counts are null
/// unless solved.
/// Read: only `moves` is required; `board` is another name of
/// `cascades` (as older versions wrote it), and absent or null `freecells`/`foundations`
/// are empty; [`SolutionJson::given`] says which of the start's fields the text gave (the
/// claims it makes). Unknown fields are refused, named, as for [`JsonMove`].
#[derive(Clone, Debug, Serialize)]
pub struct SolutionJson {
    /// MS deal number, if the board came from one. Read as
    /// [`fcauto_deals::msdeal::deserialize_deal_opt`] reads it: `617`, `"ms617"` or null.
    pub deal: Option<u64>,
    /// The initial position: `cascades` (deepest card first), `freecells` (`a`..`d`, null
    /// = empty) and `foundations` (cards per suit in C, D, H, S order), written always. As
    /// read, a field not given is empty.
    #[serde(flatten)]
    pub position: PositionJson,
    /// Which of the position's fields the text gave (all, when written by fcauto).
    #[serde(skip)]
    pub given: PositionGiven,
    /// `true` when solved, `false` only when proved unsolvable by an exhaustive search,
    /// `null` when the search stopped at a limit (unknown).
    pub solvable: Option<bool>,
    /// `"solved"`, `"unsolvable"`, or `"unknown: <limit>"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// Number of entries in `moves`; null (`None`) unless solved. Read: absent or null
    /// claims nothing; an explicit count, 0 included, must be the number of moves listed.
    pub moves_total: Option<usize>,
    /// Single-card moves (a k-card supermove counted as its single-card expansion); null
    /// (`None`) unless solved. Read as `moves_total`.
    pub single_card_moves: Option<usize>,
    /// The moves, in order; each must be an object (an array of its fields is refused).
    pub moves: Vec<JsonMove>,
}

/// Which of a solution document's position fields its text gave, not null: the start it
/// claims. A document with `cascades` claims empty freecells and foundations where it
/// gives none; without `cascades`, only the fields given claim anything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PositionGiven {
    /// `cascades` (or `board`) was given.
    pub cascades: bool,
    /// `freecells` was given, not null.
    pub freecells: bool,
    /// `foundations` was given, not null.
    pub foundations: bool,
}

impl PositionGiven {
    /// Every field given, as fcauto writes a solution.
    pub const ALL: PositionGiven = PositionGiven {
        cascades: true,
        freecells: true,
        foundations: true,
    };
}

/// [`SolutionJson`] as read: every field spelled out, since serde's `flatten` would accept
/// any unknown field without a word; the position's fields read by [`PositionJson`]'s own
/// readers, each kept as given.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SolutionRead {
    #[serde(
        default,
        deserialize_with = "fcauto_deals::msdeal::deserialize_deal_opt"
    )]
    deal: Option<u64>,
    #[serde(default, alias = "board")]
    cascades: Option<Vec<Vec<Card>>>,
    #[serde(default, deserialize_with = "super::position::freecells_given")]
    freecells: Option<[Option<Card>; fcauto_deals::FREECELLS]>,
    #[serde(default, deserialize_with = "super::position::foundations_given")]
    foundations: Option<[u8; 4]>,
    #[serde(default)]
    solvable: Option<bool>,
    #[serde(default)]
    verdict: Option<String>,
    #[serde(default)]
    moves_total: Option<usize>,
    #[serde(default)]
    single_card_moves: Option<usize>,
    #[serde(deserialize_with = "move_objects")]
    moves: Vec<JsonMove>,
}

impl<'de> Deserialize<'de> for SolutionJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = SolutionRead::deserialize(d)?;
        let given = PositionGiven {
            cascades: r.cascades.is_some(),
            freecells: r.freecells.is_some(),
            foundations: r.foundations.is_some(),
        };
        Ok(SolutionJson {
            deal: r.deal,
            position: PositionJson {
                cascades: r.cascades.unwrap_or_default(),
                freecells: r.freecells.unwrap_or_default(),
                foundations: r.foundations.unwrap_or_default(),
            },
            given,
            solvable: r.solvable,
            verdict: r.verdict,
            moves_total: r.moves_total,
            single_card_moves: r.single_card_moves,
            moves: r.moves,
        })
    }
}

/// What a move in `moves` must be, for the message when it is something else.
const MOVE_EXPECTED: &str = "a move object, as `fcauto solve --format json` writes it \
    ({\"step\": 1, \"notation\": \"3a\", \"from\": \"3\", \"to\": \"a\", ...})";

/// `moves` read as a list of move objects only: serde's derived reader of [`JsonMove`] also
/// takes an array of its fields in order (`[1, 2]`), whose errors make no sense to the
/// reader ("expected value"); an array is named as one here.
fn move_objects<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<JsonMove>, D::Error> {
    struct Object(JsonMove);
    struct Visitor;
    impl<'de> serde::de::Visitor<'de> for Visitor {
        type Value = JsonMove;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str(MOVE_EXPECTED)
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<JsonMove, A::Error> {
            JsonMove::deserialize(serde::de::value::MapAccessDeserializer::new(map))
        }
    }
    impl<'de> Deserialize<'de> for Object {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Object, D::Error> {
            d.deserialize_map(Visitor).map(Object)
        }
    }
    struct Moves;
    impl<'de> serde::de::Visitor<'de> for Moves {
        type Value = Vec<JsonMove>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of moves")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut moves = Vec::new();
            loop {
                match seq.next_element::<Object>() {
                    Ok(Some(m)) => moves.push(m.0),
                    Ok(None) => return Ok(moves),
                    // Named by its place (a line and column alone are hard to find in a
                    // one-line JSON); the reader adds its own position again.
                    Err(e) => {
                        let e = e.to_string();
                        let why = e.split(" at line ").next().unwrap_or(&e);
                        return Err(serde::de::Error::custom(format!(
                            "move {} (moves[{}]): {why}",
                            moves.len() + 1,
                            moves.len()
                        )));
                    }
                }
            }
        }
    }
    d.deserialize_seq(Moves)
}

/// A solved deal: the initial board and every move (foundation moves included).
#[derive(Clone, Debug)]
pub struct Solution {
    /// MS deal number, if any.
    pub deal: Option<u64>,
    /// Initial position.
    pub board: Board,
    /// Moves from the initial position to the won position.
    pub moves: Vec<PlayedMove>,
}

/// A solution text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolutionParseError {
    /// Not JSON of the expected shape.
    #[error("not a solution JSON: {0}")]
    Json(String),
    /// A move's `from`/`to` is not `1`-`8`, `a`-`d` or `h`.
    #[error("step {step}: bad location `{loc}` (expected 1-8, a-d or h)")]
    BadLoc {
        /// 1-based step.
        step: usize,
        /// The text found.
        loc: String,
    },
    /// An fc-solve position block that is not a valid board.
    #[error("line {line}: fc-solve position: {error}")]
    BadFcsState {
        /// 1-based line of its `Foundations:` line.
        line: usize,
        /// What is wrong with it.
        error: String,
    },
    /// A line in fc-solve's output that fc-solve does not print: another notation's moves,
    /// or text added.
    #[error("line {line}: `{text}` is not part of fc-solve's output (its move lines, positions, verdict and counts): a line added, or moves of another notation mixed in")]
    StrayFcsLine {
        /// 1-based line.
        line: usize,
        /// The line, cut to 80 characters.
        text: String,
    },
    /// An fc-solve move line naming a freecell beyond standard FreeCell's four (fc-solve's
    /// `--freecells-num`): the output of other rules.
    #[error("line {line}: `{text}` names a fifth freecell or later, so the solution is of more than four freecells (fc-solve's --freecells-num): give --freecells N")]
    FcsFreecellBeyondFour {
        /// 1-based line.
        line: usize,
        /// The line.
        text: String,
    },
    /// An fc-solve move line we do not understand.
    #[error("line {line}: unrecognised fc-solve move `{text}`")]
    BadFcsLine {
        /// 1-based line.
        line: usize,
        /// The line.
        text: String,
    },
    /// A `Total number of moves: N` line (as `solve --format fcs` ends its text) whose N is
    /// not a number or not the number of move lines.
    #[error("line {line}: `{text}`, but the text lists {}", fcauto_deals::plural(.listed, "move line"))]
    BadMovesTotal {
        /// 1-based line.
        line: usize,
        /// The line.
        text: String,
        /// Move lines found.
        listed: usize,
    },
}

impl Solution {
    /// Number of moves (a supermove counts as one).
    pub fn moves_total(&self) -> usize {
        self.moves.len()
    }

    /// The moves as validator input.
    pub fn step_moves(&self) -> Vec<StepMove> {
        self.moves
            .iter()
            .map(|p| StepMove {
                from: p.mv.from,
                to: p.mv.to,
                count: Some(p.mv.count),
                card: Some(p.card),
            })
            .collect()
    }

    /// The JSON contract (see [`SolutionJson`]); `single_card_moves` as computed by the
    /// validator.
    pub fn to_json(&self, single_card_moves: usize) -> SolutionJson {
        let moves = self
            .moves
            .iter()
            .zip(self.tokens())
            .enumerate()
            .map(|(i, (&p, token))| JsonMove {
                step: Some(i + 1),
                notation: Some(token),
                ..JsonMove::of(p)
            })
            .collect();
        SolutionJson {
            moves_total: Some(self.moves.len()),
            single_card_moves: Some(single_card_moves),
            moves,
            ..SolutionJson::without_moves(self.deal, &self.board, Some(true), "solved")
        }
    }

    /// The JSON contract as text, the one writer of it: what `fcauto solve --format json`
    /// prints and `fcauto play` writes to solution.json. The moves are validated first and
    /// `single_card_moves` is the validator's count; pretty-printed, ending in a newline.
    ///
    /// # Errors
    /// The validator's [`ValidationError`] when the moves do not win from `board`.
    pub fn to_json_text(&self) -> Result<String, ValidationError> {
        let v = validate(&self.board, &self.step_moves())?;
        let json = serde_json::to_string_pretty(&self.to_json(v.single_card_moves))
            .expect("SolutionJson has only string keys and no floats: it always serialises");
        Ok(json + "\n")
    }

    /// Standard notation, moves separated by spaces, ten to a line: [`Solution::tokens`].
    pub fn to_standard(&self) -> String {
        // One buffer, the tokens written straight into it: this runs for every solution a
        // batch stores.
        let mut s = String::with_capacity(self.moves.len() * 3 + 8);
        let mut k = 0;
        self.each_token(|t| {
            if k > 0 {
                s.push(if k % 10 == 0 { '\n' } else { ' ' });
            }
            s.push_str(t);
            k += 1;
        });
        s.push('\n');
        s
    }

    /// Each move in standard notation, read back as the same move: a move onto an empty
    /// cascade, whose count the notation leaves open (a plain `38` reads as the longest run
    /// that may move), is followed by `v` and the count in hexadecimal (`38v4`, as in
    /// fc-solve's `-snx`) when it carries more than one card, or one card that lies on a card
    /// it fits (`38v1`: the two could have moved). The JSON's `notation` and the replay page
    /// use these too.
    pub fn tokens(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.moves.len());
        self.each_token(|t| out.push(t.to_string()));
        out
    }

    /// Hand each of [`Solution::tokens`] to `f` in turn, from one reused buffer.
    fn each_token(&self, mut f: impl FnMut(&str)) {
        use std::fmt::Write;
        let mut cols = self.board.cascades.clone();
        let mut moving = Vec::with_capacity(13);
        let mut t = String::with_capacity(8);
        for p in &self.moves {
            let m = p.mv;
            t.clear();
            t.push(m.from.notation_char());
            t.push(m.to.notation_char());
            moving.clear();
            let mut on_its_parent = false;
            match m.from {
                Loc::Cascade(i) => {
                    let col = &mut cols[i as usize];
                    let start = col.len().saturating_sub(m.count as usize);
                    on_its_parent = start > 0 && stacks_on(col[start - 1], col[start]);
                    moving.extend(col.drain(start..));
                }
                _ => moving.push(p.card),
            }
            if let Loc::Cascade(i) = m.to {
                let dest = &mut cols[i as usize];
                if count_is_needed(m.count, dest.is_empty(), on_its_parent) {
                    let _ = write!(t, "v{:x}", m.count);
                }
                dest.extend_from_slice(&moving);
            }
            f(&t);
        }
    }

    /// Freecell Solver's `-p -t -sam` layout: each state, then each move line with 0-based
    /// indices (`Move a card from stack 2 to freecell 0`, `Move 3 cards from stack 1 to
    /// stack 4`, `Move a card from freecell 1 to the foundations`), separated by
    /// `====================`; then `This game is solveable.` and `Total number of moves: N`.
    /// Freecells are numbered as fc-solve numbers them on reading the start
    /// ([`fc_solve_slots`]: a start whose `Freecells:` line has gaps is printed left-aligned,
    /// and every state and move follows), so that the text is what fc-solve would print
    /// for this start.
    pub fn to_fcs(&self) -> String {
        let slot = fc_solve_slots(&self.board);
        let state = |b: &Board| {
            let mut shown = b.clone();
            for (j, &c) in b.freecells.iter().enumerate() {
                shown.freecells[slot[j] as usize] = c;
            }
            shown.fcs_state_text()
        };
        let renumber = |l: Loc| match l {
            Loc::Freecell(j) => Loc::Freecell(slot[j as usize]),
            l => l,
        };
        let mut b = self.board.clone();
        let mut out = String::from("-=-=-=-=-=-=-=-=-=-=-=-\n\n");
        out.push_str(&state(&b));
        out.push_str("\n\n====================\n\n");
        for p in &self.moves {
            out.push_str(&fcs_move_text(Move {
                from: renumber(p.mv.from),
                to: renumber(p.mv.to),
                count: p.mv.count,
            }));
            out.push_str("\n\n");
            let _ = apply_checked(
                &mut b,
                &StepMove {
                    from: p.mv.from,
                    to: p.mv.to,
                    count: Some(p.mv.count),
                    card: None,
                },
            );
            out.push_str(&state(&b));
            out.push_str("\n\n====================\n\n");
        }
        out.push_str("This game is solveable.\n");
        out.push_str(&format!("Total number of moves: {}\n", self.moves.len()));
        out
    }
}

/// fc-solve's text for one move (0-based stack and freecell indices).
pub fn fcs_move_text(m: Move) -> String {
    match (m.from, m.to) {
        (Loc::Cascade(i), Loc::Freecell(j)) => {
            format!("Move a card from stack {i} to freecell {j}")
        }
        (Loc::Freecell(j), Loc::Cascade(i)) => {
            format!("Move a card from freecell {j} to stack {i}")
        }
        (Loc::Freecell(i), Loc::Freecell(j)) => {
            format!("Move a card from freecell {i} to freecell {j}")
        }
        (Loc::Cascade(i), Loc::Cascade(k)) => {
            format!("Move {} cards from stack {i} to stack {k}", m.count)
        }
        (Loc::Cascade(i), Loc::Foundation) => {
            format!("Move a card from stack {i} to the foundations")
        }
        (Loc::Freecell(j), Loc::Foundation) => {
            format!("Move a card from freecell {j} to the foundations")
        }
        (Loc::Foundation, _) => "Move a card from the foundations (invalid)".into(),
    }
}

/// Read the moves of a solution JSON ([`SolutionJson`]; only `moves[].from`/`to` are
/// required, `card` and `count` are checked when present).
pub fn parse_json(text: &str) -> Result<(SolutionJson, Vec<StepMove>), SolutionParseError> {
    let sol: SolutionJson = serde_json::from_str(text).map_err(|e| {
        SolutionParseError::Json(position_json(text).unwrap_or_else(|| e.to_string()))
    })?;
    let mut out = Vec::with_capacity(sol.moves.len());
    for (i, m) in sol.moves.iter().enumerate() {
        let loc = |s: &str| {
            Loc::parse(s).ok_or(SolutionParseError::BadLoc {
                step: i + 1,
                loc: s.chars().take(40).collect(),
            })
        };
        out.push(StepMove {
            from: loc(&m.from)?,
            to: loc(&m.to)?,
            count: m.count,
            card: m.card,
        });
    }
    Ok((sol, out))
}

/// What a JSON object with `cascades` (or `board`, or a `deal`) and no `moves` is: a start
/// position (as `fcauto deal --format json` writes one), not a solution; `None` for any
/// other text.
fn position_json(text: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let o = v.as_object()?;
    let start = ["cascades", "board", "deal"]
        .iter()
        .any(|k| o.contains_key(*k));
    (!o.contains_key("moves") && start).then(|| {
        "it holds a start (`deal`, `cascades`) and no `moves`, as `fcauto deal --format json` \
         writes: give it as the start (`--board FILE`) and the solution apart"
            .to_string()
    })
}

/// True when standard notation must carry a move's count (`38v1`): the move lands on an
/// empty cascade (where a plain `38` reads as the longest run that may move) and carries
/// more than one card, or one card lying on a card it fits (so that more could have moved).
fn count_is_needed(count: u8, dest_empty: bool, on_its_parent: bool) -> bool {
    dest_empty && (count > 1 || on_its_parent)
}

/// Move `m`'s token in standard notation, played from `board`, read back as the same move
/// ([`Solution::tokens`]' rule: `38v2` where a plain `38` would move another number of
/// cards). For the service's per-move `notation` (API, MCP).
pub fn standard_token(board: &Board, m: Move) -> String {
    let mut t = format!("{}{}", m.from.notation_char(), m.to.notation_char());
    if let (Loc::Cascade(i), Loc::Cascade(j)) = (m.from, m.to) {
        let (col, dest) = (&board.cascades[i as usize], &board.cascades[j as usize]);
        let start = col.len().saturating_sub(m.count as usize);
        let on_its_parent = start > 0 && stacks_on(col[start - 1], col[start]);
        if count_is_needed(m.count, dest.is_empty(), on_its_parent) {
            t.push_str(&format!("v{:x}", m.count));
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// fc-solve's output is told by its move lines, else by a verdict line alone; a `{`
    /// anywhere (an annotated list quoting such a line) or neither line is not its output.
    #[test]
    fn fc_solve_output_is_told_by_its_lines() {
        let moves = "-=-=-\n\nMove a card from stack 3 to freecell 0\n\nThis game is solveable.\n";
        assert_eq!(fcs_output_kind(moves), Some(FcsKind::MoveLines));
        assert_eq!(
            fcs_output_kind("  Move 3 cards from stack 1 to stack 4"),
            Some(FcsKind::MoveLines)
        );
        assert_eq!(
            fcs_output_kind("3a 4b\nThis game is solveable.\n"),
            Some(FcsKind::VerdictOnly)
        );
        assert_eq!(
            fcs_output_kind("I could not solve this game.\n"),
            Some(FcsKind::VerdictOnly)
        );
        assert_eq!(
            fcs_output_kind("3a {Move a card from stack 3 to freecell 0} 4b"),
            None
        );
        assert_eq!(fcs_output_kind("3a 4b 38\n"), None);
        assert!(fcs_output_kind("3a").is_none());
    }

    /// A move that is not an object (an array of fields, a token, a number) is told what a
    /// move object looks like, named by what it is; a move object still reads, and a bad
    /// field inside one is still named.
    #[test]
    fn a_move_that_is_not_an_object_is_named() {
        for (m, what) in [
            ("[1, 2]", "sequence"),
            ("[\"3\", \"a\"]", "sequence"),
            ("[]", "sequence"),
            ("\"3a\"", "string \"3a\""),
            ("5", "integer `5`"),
            ("null", "null"),
        ] {
            let err = parse_json(&format!(r#"{{"moves": [{m}]}}"#))
                .err()
                .unwrap_or_else(|| panic!("{m} read as a move"))
                .to_string();
            assert!(
                err.contains(&format!(
                    "move 1 (moves[0]): invalid type: {what}, expected a move object"
                )),
                "{m}: {err}"
            );
        }
        let (sol, _) = parse_json(r#"{"moves": [{"from": "3", "to": "a"}]}"#).unwrap();
        assert_eq!(
            (sol.moves[0].from.as_str(), sol.moves[0].to.as_str()),
            ("3", "a")
        );
        let err = parse_json(
            r#"{"moves": [{"from": "3", "to": "a"}, {"from": "3", "to": "a", "cuont": 1}]}"#,
        )
        .err()
        .unwrap()
        .to_string();
        assert!(
            err.contains("move 2 (moves[1]): unknown field `cuont`") && err.contains("column"),
            "{err}"
        );
        let err = parse_json(r#"{"moves": "3a"}"#).err().unwrap().to_string();
        assert!(err.contains("expected a list of moves"), "{err}");
    }

    /// `-sn` output (`Move: 8a` lines, or `-m -sn`'s rows) has its `Total number of moves:`
    /// counted from its own moves, and `-sam -sn` output no line of its own beside them
    /// (a line added is named, a true total taken).
    #[test]
    fn fc_solve_standard_notation_output_is_counted_and_checked() {
        let sam = "-=-=-=-\n\nMove: 8a \n\n====================\n\nMove: 8b \n\n\
                   This game is solveable.\nTotal number of moves: 2\n";
        assert!(parse_fcs_output(sam).is_ok());
        let wrong = sam.replace("moves: 2", "moves: 3");
        assert!(matches!(
            parse_fcs_output(&wrong),
            Err(SolutionParseError::BadMovesTotal { listed: 2, .. })
        ));
        let added = format!("{sam}3a 4b\n");
        assert!(matches!(
            parse_fcs_output(&added),
            Err(SolutionParseError::StrayFcsLine { line: 11, .. })
        ));
        let rows =
            "-=-=-=-\n\n8a 8b 8c \n87 \n\nThis game is solveable.\nTotal number of moves: 4\n";
        assert!(parse_fcs_output(rows).is_ok());
        assert!(parse_fcs_output(&rows.replace("moves: 4", "moves: 0")).is_err());
    }

    /// A table-layout position reads whatever whitespace its foundations line has.
    #[test]
    fn table_foundations_read_past_doubled_spaces() {
        for l in [
            " QH                     H-0 C-0 D-0 S-0",
            " QH                     H-0  C-0 D-0   S-0  ",
        ] {
            let (at, found) = table_foundations(l).unwrap();
            assert_eq!(&l[..at], " QH                     ");
            assert_eq!(found.split_whitespace().count(), 4);
        }
        assert!(table_foundations(" QH  H-0 C-0 D-0").is_none());
    }

    /// fc-solve's sentences are written with single spaces whatever whitespace they came
    /// with; positions keep their columns (tabs expanded to stops of 8), line ends kept.
    #[test]
    fn fc_solve_output_is_tidied() {
        let text = "Move\ta  card from stack 7 to freecell 0\r\n\nFoundations:\tH-0 C-0 D-0 S-0\n\
                    Freecells:\tQH\n: 7D\tTD\nThis game  is solveable.\n38  3a\n";
        assert_eq!(
            tidy_fcs_output(text.into()),
            "Move a card from stack 7 to freecell 0\r\n\nFoundations: H-0 C-0 D-0 S-0\n\
             Freecells:      QH\n: 7D    TD\nThis game is solveable.\n38  3a\n"
        );
        let fcs = text.replace("38  3a\n", "");
        let (verdict, moves) = parse_fcs_output(&tidy_fcs_output(fcs)).unwrap();
        assert_eq!((verdict, moves.len()), (FcsVerdict::Solved, 1));
        // Text already tidy comes back as it was.
        let plain = "Move a card from stack 7 to freecell 0\n: 7D  TD\n";
        assert_eq!(tidy_fcs_output(plain.into()), plain);
    }

    /// A count outside 0..=13, or no whole number, is named by suit.
    #[test]
    fn foundation_counts_out_of_range_are_named_by_suit() {
        for (v, suit) in [
            ("256", "H"),
            ("-1", "H"),
            ("1.5", "H"),
            ("\"K\"", "H"),
            ("14", "H"),
        ] {
            let text = format!(r#"{{"foundations": [0, 0, {v}, 0], "moves": []}}"#);
            let Err(e) = parse_json(&text) else {
                panic!("{v} was read")
            };
            let e = e.to_string();
            assert!(
                e.contains(&format!(
                    "foundations: `{v}` is not the top rank on the {suit} foundation, 0 (none) \
                     to 13 (K)"
                )),
                "{v}: {e}"
            );
        }
        let (sol, _) = parse_json(r#"{"foundations": [1, 2.0, 13, 0], "moves": []}"#).unwrap();
        assert_eq!(sol.position.foundations, [1, 2, 13, 0]);
        assert!(sol.given.foundations);
    }

    /// `foundations` of four counts reads; null claims nothing; another length is named by
    /// field and count.
    #[test]
    fn foundations_of_another_length_are_named() {
        let (sol, _) = parse_json(r#"{"foundations": [1, 2, 3, 4], "moves": []}"#).unwrap();
        assert_eq!(sol.position.foundations, [1, 2, 3, 4]);
        let (sol, _) = parse_json(r#"{"foundations": null, "moves": []}"#).unwrap();
        assert_eq!(
            (sol.position.foundations, sol.given),
            ([0; 4], PositionGiven::default())
        );
        for (list, n) in [("[1, 2, 3, 4, 5]", 5), ("[1, 2, 3]", 3)] {
            let text = format!(r#"{{"foundations": {list}, "moves": []}}"#);
            let err = parse_json(&text).unwrap_err().to_string();
            assert!(
                err.contains("foundations: 4 numbers") && err.contains(&format!("got {n}")),
                "{err}"
            );
        }
    }

    /// A solution writes its start as a position object (`cascades`, `freecells`,
    /// `foundations`, always) and reads it back; a solution written with `board` (as older
    /// versions wrote it) reads the same, and a field unknown to both is named.
    #[test]
    fn a_solution_is_a_position_with_its_fields() {
        let b = fcauto_deals::ms_deal(617).unwrap();
        let json = SolutionJson::without_moves(Some(617), &b, None, "unknown: limit");
        let text = serde_json::to_string(&json).unwrap();
        assert!(
            text.starts_with("{\"deal\":617,\"cascades\":[[")
                && text.contains("\"freecells\":[null,null,null,null],\"foundations\":[0,0,0,0]"),
            "{text}"
        );
        let (back, _) = parse_json(&text).unwrap();
        assert_eq!(
            (back.position.board(), back.given),
            (b.clone(), PositionGiven::ALL)
        );
        let old = serde_json::json!({"deal": 617, "board": b.cascades, "moves": []});
        let (back, _) = parse_json(&old.to_string()).unwrap();
        assert_eq!(back.position.board(), b);
        let given = PositionGiven {
            cascades: true,
            ..PositionGiven::default()
        };
        assert_eq!(back.given, given);
        let err = parse_json(r#"{"moves": [], "cascade": []}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown field `cascade`"), "{err}");
    }

    /// `deal` reads as a number, a string as the command line takes one (`"ms617"`) or
    /// null; another type, a negative or a bad string is named.
    #[test]
    fn a_deal_reads_as_the_command_line_reads_it() {
        // A JSON number's value counts, however written: `617.0` is an integer, as JSON
        // Schema reads it.
        for given in [
            "617",
            r#""ms617""#,
            r#""617""#,
            r#""MS617""#,
            "617.0",
            "6.17e2",
        ] {
            let text = format!(r#"{{"deal": {given}, "moves": []}}"#);
            let (sol, _) = parse_json(&text).unwrap();
            assert_eq!(sol.deal, Some(617), "{given}");
        }
        let (sol, _) = parse_json(r#"{"deal": null, "moves": []}"#).unwrap();
        assert_eq!(sol.deal, None);
        for (given, says) in [
            (r#""ms""#, "not a"),
            ("-3", "out of range"),
            ("6.5", "not a whole number"),
            ("18446744073709551616", "out of range"),
            ("0.0", "out of range"),
            ("1e10", "out of range"),
            (
                r#""617.0""#,
                "deal number `617.0` is written with a fraction",
            ),
            ("[617]", "a deal number: 617"),
        ] {
            let text = format!(r#"{{"deal": {given}, "moves": []}}"#);
            let err = parse_json(&text).unwrap_err().to_string();
            assert!(err.contains(says), "{given}: {err}");
        }
    }

    /// A line fc-solve does not print, among its move lines, is named with its line
    /// (standard moves, words or a move inserted are not skipped unread, and a standard
    /// list with one fc-solve move line keeps its other moves); what it does print
    /// (positions in both layouts, counts, notices) is read past, and output without move
    /// lines (`-sn`'s) is left to the standard reader.
    #[test]
    fn a_line_fc_solve_does_not_print_is_named() {
        let printed = "-=-=-=-=-=-=-=-=-=-=-=-\n\nMove a card from stack 7 to freecell 0\n\n\
            ====================\n\nFoundations: H-0 C-0 D-0 S-0 \nFreecells:  QH\n\
            : 7D TD TH KD 4C 4S JD\n                        H-0 C-0 D-0 S-0\n\
            --- --- --- --- \n --  --  --  --  --  --  --  -- \n 7D  AD  5C  3S  5S  8C  2D  AH \n\
            10D  7S  QD  AC  6D  8H  AS  KH \nIteration: 4\nDepth: 2\nStored-States: 7\nScan: 0\n\
            This scan generated 12 states.\nTotal number of states checked is 9.\n";
        let (_, moves) = parse_fcs_output(printed).unwrap();
        assert_eq!(moves.len(), 1);
        for (added, at) in [
            ("8a 8b 8c\n", 21),
            ("hello there\n", 21),
            ("8h\n", 21),
            ("38\n", 21),
        ] {
            let text = format!("{printed}{added}");
            let err = parse_fcs_output(&text).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("line {at}: `{}`", added.trim()))
                    && err.contains("not part of fc-solve's output"),
                "{added:?}: {err}"
            );
        }
        // A standard list with one fc-solve move line.
        let mixed = "8a 8b 8c\nMove a card from stack 7 to freecell 0\n";
        let err = parse_fcs_output(mixed).unwrap_err().to_string();
        assert!(err.starts_with("line 1: `8a 8b 8c`"), "{err}");
        // `-sn`: standard notation and a verdict, no move line.
        let sn = "-=-=-=-=-=-=-=-=-=-=-=-\n\n8a 8b 8c 87\n\nThis game is solveable.\n";
        assert_eq!(parse_fcs_output(sn).unwrap().1.len(), 0);
    }

    /// A `Total number of moves:` line must be a number equal to the move lines.
    #[test]
    fn a_false_moves_total_line_is_refused() {
        let text = "Move a card from stack 0 to freecell 0\n\nThis game is solveable.\nTotal number of moves: 1\n";
        assert_eq!(parse_fcs_output(text).unwrap().1.len(), 1);
        for claim in ["2", "banana", ""] {
            let edited = text.replace("moves: 1", &format!("moves: {claim}"));
            let err = parse_fcs_output(&edited).unwrap_err().to_string();
            assert!(
                err.contains("line 4") && err.contains("lists 1 move line"),
                "{err}"
            );
        }
    }

    /// A deal's JSON (`fcauto deal --format json`) given where a solution belongs is named as
    /// a start with where it goes (not as "missing field `moves`"); other JSON keeps
    /// serde's message.
    #[test]
    fn a_deal_json_is_named_as_a_start() {
        let deal = r#"{"deal":617,"board":[["7D"],["AD"]]}"#;
        let err = parse_json(deal).expect_err("refused").to_string();
        assert!(
            err.starts_with("not a solution JSON: it holds a start")
                && err.contains("--board FILE"),
            "{err}"
        );
        let err = parse_json(r#"{"deal":617,"moves":[{"from":"9"}]}"#)
            .expect_err("refused")
            .to_string();
        assert!(err.contains("missing field"), "{err}");
    }
}
