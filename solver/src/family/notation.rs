//! The family's moves and their texts: locations ([`Place`]), moves ([`FamilyMove`]),
//! standard notation for up to 10 cascades and 8 freecells, and the minimal JSON of a family
//! solution ([`FamilySolutionJson`]).
//!
//! Names: cascades `1`..`9`, and `0` for the tenth (Seahaven Towers); freecells `a`..`g` for
//! the first seven and `i` for the eighth (Eight Off), because `h` is the foundation in
//! every game; `h` the foundation. fc-solve numbers freecells 0..7 and cascades 0..9 instead.

use super::validator::play_checked;
use fcauto_deals::{Card, Layout, Rules};
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
    /// freecell).
    pub fn from_char(c: char) -> Option<Place> {
        match c.to_ascii_lowercase() {
            '0' => Some(Place::Cascade(9)),
            d @ '1'..='9' => Some(Place::Cascade(d as u8 - b'1')),
            'h' => Some(Place::Foundation),
            l => CELL_NAMES
                .iter()
                .position(|&n| n == l)
                .map(|j| Place::Freecell(j as u8)),
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
/// the verdict and the moves.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FamilySolutionJson {
    /// The game's name (`bakers_game`).
    pub game: String,
    /// Freecells played (the game's, or `--freecells`).
    pub freecells: u8,
    /// The deal number, when solved from one.
    pub deal: Option<u64>,
    /// true: solved; false: proved unsolvable; null: unknown.
    pub solvable: Option<bool>,
    /// Number of moves.
    pub moves_total: usize,
    /// The moves.
    pub moves: Vec<FamilyJsonMove>,
}

impl FamilySolutionJson {
    /// The JSON of `moves` (a validated solution, or empty) played from `start`.
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
            deal,
            solvable,
            moves_total: moves.len(),
            moves: out,
        }
    }
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
