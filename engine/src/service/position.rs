//! Positions in and out: [`PositionJson`], [`PositionIn`] (JSON, position string or fc-solve
//! board text), [`PositionOut`], and [`new_game`].

use super::{short_echoes, ServiceError, MAX_BOARD_BYTES};
use fcauto_deals::{position, Board, Card};
use serde::{Deserialize, Serialize};

/// A position as JSON: `{"cascades": [[8 lists of cards, deepest first]], "freecells":
/// [4 slots, a card or null], "foundations": [top rank per suit C, D, H, S, 0..13]}`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PositionJson {
    /// 8 cascades, each deepest card first (`"KS"`, `"TD"`, ...).
    pub cascades: Vec<Vec<Card>>,
    /// Freecells `a`..`d`: a card or null. May be left out (or null): all empty. Read:
    /// another number of slots is malformed (bad input), as a wrong `foundations` length is.
    #[serde(default = "no_freecells", deserialize_with = "four_freecells")]
    pub freecells: Vec<Option<Card>>,
    /// Foundations, top rank 0..=13 per suit in the order C, D, H, S. May be left out (or
    /// null): empty.
    #[serde(default = "no_foundations", deserialize_with = "foundations_or_null")]
    pub foundations: [u8; 4],
}

fn no_freecells() -> Vec<Option<Card>> {
    vec![None; 4]
}

fn no_foundations() -> [u8; 4] {
    [0; 4]
}

/// `freecells`: null as left out; a list of four slots, another length named.
fn four_freecells<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Option<Card>>, D::Error> {
    let Some(slots) = Option::<Vec<Option<Card>>>::deserialize(d)? else {
        return Ok(no_freecells());
    };
    if slots.len() != 4 {
        return Err(serde::de::Error::custom(format!(
            "freecells has {} slots; FreeCell has 4 (null for an empty one)",
            slots.len()
        )));
    }
    Ok(slots)
}

/// `foundations`: null as left out; four whole numbers 0..=13, anything else (`-1`, 14,
/// `1.5`) named in the player's words, not serde's "expected u8", and refused alike.
fn foundations_or_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[u8; 4], D::Error> {
    use serde::de::Error;
    let words = "the top rank on each foundation (C, D, H, S), 0 (none) to 13 (K)";
    let ranks = match Option::<serde_json::Value>::deserialize(d)? {
        None => return Ok(no_foundations()),
        Some(serde_json::Value::Array(ranks)) => ranks,
        Some(other) => {
            return Err(D::Error::custom(format!(
                "foundations: a list of 4 numbers, {words}; got {}",
                short_echoes(&other.to_string())
            )))
        }
    };
    if ranks.len() != 4 {
        return Err(D::Error::custom(format!(
            "foundations: 4 numbers, {words}; got {}",
            ranks.len()
        )));
    }
    let mut out = [0u8; 4];
    for (slot, r) in out.iter_mut().zip(&ranks) {
        // A whole number may be written `13.0`, as the API's other whole numbers may.
        *slot = r
            .as_f64()
            .filter(|n| n.fract() == 0.0 && (0.0..=13.0).contains(n))
            .ok_or_else(|| D::Error::custom(format!("foundations: `{r}` is not {words}")))?
            as u8;
    }
    Ok(out)
}

/// A position given either way: the JSON shape, or text (a position string or fc-solve's
/// board text). Read by its JSON type, so that an object's own problem (an unknown field, a
/// list of the wrong length, a bad card) is what the error names.
#[derive(Debug, Clone)]
pub enum PositionIn {
    /// [`PositionJson`].
    Json(PositionJson),
    /// A position string or a board file's text.
    Text(String),
}

/// What a position may be, for errors about one.
pub const POSITION_FORMS: &str = "a position string, fc-solve board text, or \
     {\"cascades\": [...8 lists of cards...], \"freecells\": [...], \"foundations\": [...]}";

impl<'de> Deserialize<'de> for PositionIn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(s) => Ok(PositionIn::Text(s)),
            v @ serde_json::Value::Object(_) => PositionJson::deserialize(v)
                .map(PositionIn::Json)
                .map_err(|e| D::Error::custom(format!("position object: {e}"))),
            _ => Err(D::Error::custom(format!("a position is {POSITION_FORMS}"))),
        }
    }
}

/// A position as returned: both forms, and whether it is won.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct PositionOut {
    /// The JSON form.
    pub position: PositionJson,
    /// The one-line position string.
    pub position_string: String,
    /// All 52 cards are on the foundations.
    pub won: bool,
}

impl PositionJson {
    /// The JSON form of a board.
    pub fn of(b: &Board) -> PositionJson {
        PositionJson {
            cascades: b.cascades.clone(),
            freecells: b.freecells.to_vec(),
            foundations: b.foundations,
        }
    }

    /// The board, checked: 8 cascades, 4 freecells, the 52 cards exactly once.
    pub fn to_board(&self) -> Result<Board, ServiceError> {
        if self.freecells.len() != 4 {
            return Err(ServiceError::impossible(format!(
                "freecells has {} slots; FreeCell has 4 (null for an empty one)",
                self.freecells.len()
            )));
        }
        let mut freecells = [None; 4];
        freecells.copy_from_slice(&self.freecells);
        let b = Board {
            cascades: self.cascades.clone(),
            freecells,
            foundations: self.foundations,
        };
        checked(b)
    }
}

/// Check a board for play: a full deck once, and cascades the solver can hold.
fn checked(b: Board) -> Result<Board, ServiceError> {
    b.check()
        .map_err(|e| ServiceError::impossible(format!("impossible position: {e}")))?;
    fcauto_solver::state::check_capacity(&b)
        .map_err(|e| ServiceError::impossible(format!("position not supported: {e}")))?;
    Ok(b)
}

impl PositionIn {
    /// The board, checked.
    pub fn to_board(&self) -> Result<Board, ServiceError> {
        match self {
            PositionIn::Json(j) => j.to_board(),
            PositionIn::Text(t) => parse_text(t),
        }
    }
}

/// A position string or fc-solve board text.
pub fn parse_text(t: &str) -> Result<Board, ServiceError> {
    if t.len() > MAX_BOARD_BYTES {
        return Err(ServiceError::too_large(format!(
            "a board is at most {MAX_BOARD_BYTES} bytes"
        )));
    }
    let b = position::parse_any(t).map_err(|e| ServiceError::impossible(e.to_string()))?;
    checked(b)
}

/// A board's output form.
pub fn position_out(b: &Board) -> PositionOut {
    PositionOut {
        position: PositionJson::of(b),
        position_string: position::write(b),
        won: b.is_won(),
    }
}

/// `new_game`: MS deal `n`'s start position.
pub fn new_game(n: u64) -> Result<PositionOut, ServiceError> {
    let b = fcauto_deals::ms_deal(n).map_err(|e| ServiceError::bad_input(e.to_string()))?;
    Ok(position_out(&b))
}
