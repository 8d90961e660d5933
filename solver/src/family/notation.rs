//! The family's moves and their texts: locations ([`Place`]), moves ([`FamilyMove`]),
//! standard notation for up to 10 cascades and 8 freecells, and the minimal JSON of a family
//! solution ([`FamilySolutionJson`]).
//!
//! Names: cascades `1`..`9`, and `0` for the tenth (Seahaven Towers); freecells `a`..`g` for
//! the first seven and `i` for the eighth (Eight Off), because `h` is the foundation in
//! every game; `h` the foundation. fc-solve numbers freecells 0..7 and cascades 0..9 in its
//! sentences; its standard notation (`-sn`) writes the tenth cascade `10` and the eighth
//! freecell `k`, both read as well.

use super::validator::play_checked;
use fcauto_deals::{Card, Game, Layout, PysolNumber, Rules};
use std::fmt;

/// A location of a family game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// Cascade 0..=9 (written `1`..`9`, `0`).
    Cascade(u8),
    /// Freecell 0..=7 (written `a`..`g`, `i`).
    Freecell(u8),
    /// The foundations (written `h`).
    Foundation,
}

const CELL_NAMES: [char; 8] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'i'];

impl Place {
    /// The character standard notation writes.
    pub fn notation_char(self) -> char {
        match self {
            Place::Cascade(9) => '0',
            Place::Cascade(i) => (b'1' + i.min(8)) as char,
            Place::Freecell(j) => CELL_NAMES[(j as usize).min(7)],
            Place::Foundation => 'h',
        }
    }

    /// The place a standard-notation character names (`0` the tenth cascade, `i` the eighth
    /// freecell, and `k` as fc-solve's `-sn` writes it).
    pub fn from_char(c: char) -> Option<Place> {
        match c.to_ascii_lowercase() {
            '0' => Some(Place::Cascade(9)),
            d @ '1'..='9' => Some(Place::Cascade(d as u8 - b'1')),
            'h' => Some(Place::Foundation),
            'k' => Some(Place::Freecell(7)),
            l => CELL_NAMES
                .iter()
                .position(|&n| n == l)
                .map(|j| Place::Freecell(j as u8)),
        }
    }

    /// The place a JSON name names ([`Place::json_name`]; `"0"` is none).
    pub fn from_json_name(s: &str) -> Option<Place> {
        match s.parse::<u8>() {
            Ok(n @ 1..=10) => Some(Place::Cascade(n - 1)),
            Ok(_) => None,
            Err(_) => {
                let mut cs = s.chars();
                match (cs.next(), cs.next()) {
                    (Some(c), None) => Place::from_char(c),
                    _ => None,
                }
            }
        }
    }

    /// The JSON name: cascades `"1"`..`"10"`, freecells `"a"`..`"g"`, `"i"`, foundation
    /// `"h"`.
    pub fn json_name(self) -> String {
        match self {
            Place::Cascade(i) => (i + 1).to_string(),
            p => p.notation_char().to_string(),
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.notation_char())
    }
}

/// One move of a family game: `count` cards from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FamilyMove {
    /// Where the cards come from.
    pub from: Place,
    /// Where they go.
    pub to: Place,
    /// How many (a run between cascades; otherwise 1).
    pub count: u8,
}

impl FamilyMove {
    /// The move's text without a position: `38`, or `38v3` when it carries several cards.
    pub fn notation(&self) -> String {
        let mut t = format!("{}{}", self.from, self.to);
        if self.count > 1 {
            t.push_str(&format!("v{:x}", self.count));
        }
        t
    }
}

/// Each move's standard-notation token played from `start`: the count is written (`38v3`)
/// only when the move lands on an empty cascade with more than one card, or with one card
/// lying on a card it builds on (where a plain `38` would read as another number of cards).
/// `None` when a move is illegal.
pub fn standard_tokens(start: &Layout, rules: &Rules, moves: &[FamilyMove]) -> Option<Vec<String>> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        let mut t = format!("{}{}", m.from, m.to);
        if let (Place::Cascade(i), Place::Cascade(j)) = (m.from, m.to) {
            let col = &pos.cascades[i as usize];
            let at = col.len().checked_sub(m.count as usize)?;
            let on_parent = at > 0 && rules.builds_on(col[at - 1], col[at]);
            if pos.cascades[j as usize].is_empty() && (m.count > 1 || on_parent) {
                t.push_str(&format!("v{:x}", m.count));
            }
        }
        play_checked(&mut pos, rules, m).ok()?;
        out.push(t);
    }
    Some(out)
}

/// One move in [`FamilySolutionJson`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FamilyJsonMove {
    /// 1-based.
    pub step: usize,
    /// [`Place::json_name`].
    pub from: String,
    /// [`Place::json_name`].
    pub to: String,
    /// The lowest card moved (a run's head), `KH`.
    pub card: String,
    /// Cards moved.
    pub count: u8,
    /// The standard-notation token.
    pub notation: String,
}

/// The JSON of a family game's solve: the game, the freecells played, the deal (if any),
/// the start position, the verdict and the moves. Written as `WrittenSolution`
/// (`moves_total` is null unless solved, as in FreeCell's JSON).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "WrittenSolution")]
pub struct FamilySolutionJson {
    /// The game's name (`bakers_game`).
    pub game: String,
    /// Freecells played (the game's, or `--freecells`).
    pub freecells: u8,
    /// The deal, when solved from one, as PySolFC numbers the game's deals: a number (the
    /// Microsoft shuffle below 32000, the Mersenne Twister from 32000 on), or the string
    /// `"msN"` for Microsoft deal N from 32000 on; a number above 2^64-1 is a string too
    /// (most JSON readers would lose its digits).
    #[serde(default, with = "deal_json")]
    pub deal: Option<PysolNumber>,
    /// The start's position string (`seahaven_towers: ... -KCAS- 0000`,
    /// [`fcauto_deals::position::write_layout`]): the start of a board solved, and of a deal
    /// (which must then deal it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// true: solved; false: proved unsolvable; null: unknown.
    pub solvable: Option<bool>,
    /// Number of moves (written null unless solved; null reads as 0).
    #[serde(deserialize_with = "null_as_zero")]
    pub moves_total: usize,
    /// The moves.
    pub moves: Vec<FamilyJsonMove>,
}

/// [`FamilySolutionJson`] as written: `moves_total` is null when the game is not solved
/// (proved unsolvable or unknown), as FreeCell's solution JSON, the API and MCP write it.
#[derive(serde::Serialize)]
struct WrittenSolution {
    game: String,
    freecells: u8,
    #[serde(with = "deal_json")]
    deal: Option<PysolNumber>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<String>,
    solvable: Option<bool>,
    moves_total: Option<usize>,
    moves: Vec<FamilyJsonMove>,
}

impl From<FamilySolutionJson> for WrittenSolution {
    fn from(j: FamilySolutionJson) -> WrittenSolution {
        WrittenSolution {
            moves_total: (j.solvable == Some(true)).then_some(j.moves_total),
            game: j.game,
            freecells: j.freecells,
            deal: j.deal,
            position: j.position,
            solvable: j.solvable,
            moves: j.moves,
        }
    }
}

/// `moves_total` read: a count, or null (a game not solved) as 0.
fn null_as_zero<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    use serde::Deserialize;
    Ok(Option::<usize>::deserialize(d)?.unwrap_or(0))
}

impl FamilySolutionJson {
    /// The JSON of `moves` (a validated solution, or empty) played from `start`; `deal` is
    /// PySolFC's plain game number (see [`FamilySolutionJson::with_deal`] for `msN`).
    pub fn new(
        game: &str,
        deal: Option<u64>,
        start: &Layout,
        rules: &Rules,
        solvable: Option<bool>,
        moves: &[FamilyMove],
    ) -> FamilySolutionJson {
        let tokens = standard_tokens(start, rules, moves).unwrap_or_default();
        let mut pos = start.clone();
        let mut out = Vec::with_capacity(moves.len());
        for (i, m) in moves.iter().enumerate() {
            let card = moved_card(&pos, m)
                .map(|c| c.to_string())
                .unwrap_or_default();
            let _ = play_checked(&mut pos, rules, m);
            out.push(FamilyJsonMove {
                step: i + 1,
                from: m.from.json_name(),
                to: m.to.json_name(),
                card,
                count: m.count,
                notation: tokens.get(i).cloned().unwrap_or_else(|| m.notation()),
            });
        }
        FamilySolutionJson {
            game: game.to_string(),
            freecells: rules.freecells,
            deal: deal.and_then(|n| PysolNumber::plain(n as u128).ok()),
            position: Game::find(game)
                .ok()
                .map(|g| fcauto_deals::position::write_layout(g, start)),
            solvable,
            moves_total: moves.len(),
            moves: out,
        }
    }
}

impl FamilySolutionJson {
    /// The same with `deal` as the deal number (`msN` for a Microsoft deal from 32000 on).
    pub fn with_deal(mut self, deal: Option<PysolNumber>) -> FamilySolutionJson {
        self.deal = deal;
        self
    }
}

/// [`FamilySolutionJson::deal`] in JSON (for `#[serde(with = ...)]`): a number, or a
/// string for `msN` and for numbers beyond 2^64-1; read from either.
pub mod deal_json {
    use fcauto_deals::PysolNumber;
    use serde::{de, Deserializer, Serializer};

    /// Write the deal: a number, or a string.
    pub fn serialize<S: Serializer>(deal: &Option<PysolNumber>, s: S) -> Result<S::Ok, S::Error> {
        match deal {
            None => s.serialize_none(),
            Some(n) => match u64::try_from(n.value()) {
                Ok(v) if !n.is_ms() => s.serialize_u64(v),
                _ => s.serialize_str(&n.to_string()),
            },
        }
    }

    struct Visit;

    impl<'de> de::Visitor<'de> for Visit {
        type Value = Option<PysolNumber>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a deal number (`617`, `\"ms40000\"`) or null")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            PysolNumber::plain(v as u128).map(Some).map_err(E::custom)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            self.visit_str(&v.to_string())
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Err(E::custom(
                "a deal number is a whole number (write one above 2^64-1 as a string)",
            ))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            PysolNumber::parse(v).map(Some).map_err(E::custom)
        }
    }

    /// Read the deal from a number, a string or null.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<PysolNumber>, D::Error> {
        d.deserialize_option(Visit)
    }
}

/// A move of a family solution read from text that does not read as one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {step} `{token}` is no move: {reason}")]
pub struct FamilyReadError {
    /// 1-based index of the move.
    pub step: usize,
    /// The token as written.
    pub token: String,
    /// What is wrong with it.
    pub reason: String,
}

impl FamilyMove {
    /// The move a [`FamilyJsonMove`] names (its `from`, `to` and `count`; the other fields
    /// are claims the caller may check against the replay).
    pub fn from_json(m: &FamilyJsonMove) -> Result<FamilyMove, FamilyReadError> {
        let bad = |reason: String| FamilyReadError {
            step: m.step,
            token: format!("{}{}", m.from, m.to),
            reason,
        };
        let place = |s: &str| -> Result<Place, FamilyReadError> {
            match s.parse::<u8>() {
                Ok(n @ 1..=10) => Ok(Place::Cascade(n - 1)),
                Ok(_) => Err(bad(format!("cascade `{s}`: cascades are numbered 1 to 10"))),
                Err(_) if s.chars().count() == 1 && s != "0" => {
                    Place::from_char(s.chars().next().unwrap_or('?'))
                        .ok_or_else(|| bad(format!("`{s}` names no place")))
                }
                Err(_) => Err(bad(format!("`{s}` names no place"))),
            }
        };
        Ok(FamilyMove {
            from: place(&m.from)?,
            to: place(&m.to)?,
            count: m.count,
        })
    }
}

/// Freecell Solver's verdict on a family game and its moves ([`read_fcs_moves`]).
///
/// # Errors
/// Those of [`read_fcs_moves`].
pub fn read_fcs_output(
    text: &str,
) -> Result<(crate::FcsVerdict, Vec<FamilyMove>), FamilyReadError> {
    let verdict = text
        .lines()
        .rev()
        .find_map(|l| match l.trim() {
            "This game is solveable." => Some(crate::FcsVerdict::Solved),
            "I could not solve this game." => Some(crate::FcsVerdict::NotSolved),
            "Iterations count exceeded." => Some(crate::FcsVerdict::LimitExceeded),
            _ => None,
        })
        .unwrap_or(crate::FcsVerdict::Unknown);
    Ok((verdict, read_fcs_moves(text)?))
}

/// True when `text` has Freecell Solver's `-sam` move lines (`Move a card from stack 3 to
/// freecell 7`, `Move 3 cards from stack 0 to stack 9`): it is fc-solve's output, to be read
/// by [`read_fcs_moves`], not a move list in standard notation.
pub fn has_fcs_move_lines(text: &str) -> bool {
    text.lines().map(str::trim).any(|l| {
        l.starts_with("Move a card from") || (l.starts_with("Move ") && l.contains(" cards from "))
    })
}

/// The moves of Freecell Solver's output (`-sam` move lines, `Move a card from stack 3 to
/// freecell 7`, `Move 3 cards from stack 0 to stack 9`, `... to the foundations`; stacks and
/// freecells numbered from 0); every other line is passed over.
///
/// # Errors
/// [`FamilyReadError`] for a move line whose places do not read.
pub fn read_fcs_moves(text: &str) -> Result<Vec<FamilyMove>, FamilyReadError> {
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix("Move ") else {
            continue;
        };
        let bad = |reason: &str| FamilyReadError {
            step: out.len() + 1,
            token: line.chars().take(60).collect(),
            reason: reason.into(),
        };
        let (count, rest) = match rest.strip_prefix("a card from ") {
            Some(r) => (1, r),
            None => {
                let (n, r) = rest
                    .split_once(" cards from ")
                    .ok_or_else(|| bad("not a move line"))?;
                (n.parse::<u8>().map_err(|_| bad("no count of cards"))?, r)
            }
        };
        let (from, to) = rest
            .split_once(" to ")
            .ok_or_else(|| bad("no destination"))?;
        let place = |s: &str| -> Option<Place> {
            if s.starts_with("the foundation") {
                return Some(Place::Foundation);
            }
            let (kind, n) = s.split_once(' ')?;
            let n: u8 = n.parse().ok()?;
            match kind {
                "stack" if (n as usize) < fcauto_deals::game::MAX_CASCADES => {
                    Some(Place::Cascade(n))
                }
                "freecell" if (n as usize) < fcauto_deals::game::MAX_FREECELLS => {
                    Some(Place::Freecell(n))
                }
                _ => None,
            }
        };
        out.push(FamilyMove {
            from: place(from).ok_or_else(|| bad("its source is no place"))?,
            to: place(to).ok_or_else(|| bad("its destination is no place"))?,
            count,
        });
    }
    Ok(out)
}

/// The lowest card `m` moves from `pos`.
fn moved_card(pos: &Layout, m: &FamilyMove) -> Option<Card> {
    match m.from {
        Place::Cascade(i) => {
            let col = pos.cascades.get(i as usize)?;
            col.get(col.len().checked_sub(m.count as usize)?).copied()
        }
        Place::Freecell(j) => *pos.freecells.get(j as usize)?,
        Place::Foundation => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deal_is_a_number_or_a_string() {
        let big = PysolNumber::parse("100000000000000000000").unwrap();
        let cases = [
            (Some(PysolNumber::plain(617).unwrap()), "617"),
            (Some(PysolNumber::ms(40000).unwrap()), "\"ms40000\""),
            (Some(big), "\"100000000000000000000\""),
            (None, "null"),
        ];
        for (deal, text) in cases {
            let json = FamilySolutionJson {
                game: "bakers_game".into(),
                freecells: 4,
                deal,
                position: None,
                solvable: None,
                moves_total: 0,
                moves: vec![],
            };
            let written = serde_json::to_string(&json).unwrap();
            assert!(written.contains(&format!("\"deal\":{text}")), "{written}");
            assert!(written.contains("\"moves_total\":null"), "{written}");
            let read: FamilySolutionJson = serde_json::from_str(&written).unwrap();
            assert_eq!(read, json);
        }
        let e = serde_json::from_str::<FamilySolutionJson>(
            r#"{"game":"x","freecells":4,"deal":1e25,"solvable":null,"moves_total":0,"moves":[]}"#,
        );
        assert!(e.is_err());
    }

    #[test]
    fn fc_solve_move_lines_read() {
        let text = "Move a card from stack 9 to the foundations\n\nMove 3 cards from stack 0 to stack 9\nMove a card from freecell 7 to stack 2\nThis game is solveable.\n";
        let (v, moves) = read_fcs_output(text).unwrap();
        assert_eq!(v, crate::FcsVerdict::Solved);
        let names: Vec<String> = moves.iter().map(FamilyMove::notation).collect();
        assert_eq!(names, ["0h", "10v3", "i3"]);
    }
}
