//! Positions in and out: [`PositionIn`] (JSON, position string or fc-solve board text),
//! [`PositionOut`], and [`new_game`]. The JSON shape is the solver's [`PositionJson`], the one
//! shape of a position (a solution document's start is one too).

use super::family::{parse_family_text, FamilyPosition, FamilyPositionJson};
use super::{Position, ServiceError, MAX_BOARD_BYTES};
use fcauto_deals::{position, Board};
pub use fcauto_solver::PositionJson;
use serde::{Deserialize, Serialize};

/// A position given either way: the JSON shape, or text (a position string or fc-solve's
/// board text). Read by its JSON type, so that an object's own problem (an unknown field, a
/// list of the wrong length, a bad card) is what the error names. An object with a `game`
/// is a family position ([`FamilyPositionJson`]); a position string may name its game.
#[derive(Debug, Clone)]
pub enum PositionIn {
    /// [`PositionJson`].
    Json(PositionJson),
    /// [`FamilyPositionJson`]: a position of any game of the family.
    Family(FamilyPositionJson),
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
            v @ serde_json::Value::Object(_) if v.get("game").is_some() => {
                FamilyPositionJson::deserialize(v)
                    .map(PositionIn::Family)
                    .map_err(|e| D::Error::custom(format!("position object: {e}")))
            }
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

/// A position object's board, checked: the 52 cards exactly once, cascades the solver can
/// hold.
pub fn json_board(j: &PositionJson) -> Result<Board, ServiceError> {
    checked(j.board())
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
    /// The board, checked: a standard FreeCell position (a family position is refused,
    /// named: the operation that asked plays standard FreeCell only).
    pub fn to_board(&self) -> Result<Board, ServiceError> {
        match self.to_position()? {
            Position::Standard(b) => Ok(b),
            Position::Family(p) => Err(ServiceError::impossible(format!(
                "a {} position: this operation plays standard FreeCell (8 cascades, 4 freecells) only",
                super::game::title(&p)
            ))),
        }
    }

    /// The position, checked, of any game: standard FreeCell (four freecells) as a
    /// [`Board`], any other as a [`FamilyPosition`].
    pub fn to_position(&self) -> Result<Position, ServiceError> {
        match self {
            PositionIn::Json(j) => json_board(j).map(Position::Standard),
            PositionIn::Family(j) => FamilyPosition::from_json(j).and_then(Position::of),
            PositionIn::Text(t) => parse_position(t),
        }
    }
}

/// A position string or board text of any game: a string that names its game (`name: ...`)
/// or has another number of freecell slots than four is the family's; any other is read as
/// standard FreeCell's, in its words.
pub fn parse_position(t: &str) -> Result<Position, ServiceError> {
    let named = super::family::names_a_game(t);
    if !named {
        if let Ok(b) = parse_text(t) {
            return Ok(Position::Standard(b));
        }
    }
    match parse_family_text(t) {
        Some(r) => r
            .and_then(|(g, l)| FamilyPosition::new(g, l))
            .and_then(Position::of),
        None => parse_text(t).map(Position::Standard),
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

/// `new_game`: MS deal `n`'s start position (standard FreeCell; [`super::new_game_of`] deals
/// any game).
pub fn new_game(n: u64) -> Result<PositionOut, ServiceError> {
    let b = fcauto_deals::ms_deal(n).map_err(|e| ServiceError::bad_input(e.to_string()))?;
    Ok(position_out(&b))
}
