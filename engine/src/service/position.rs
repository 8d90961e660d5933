//! Positions in and out: [`PositionIn`] (JSON, position string or fc-solve board text),
//! [`PositionOut`], and [`new_game`]; a family position's JSON ([`FamilyPositionJson`],
//! [`RulesJson`], [`FamilyPositionOut`]). `PositionIn`'s readers are in `game.rs`. The JSON shape is the solver's [`PositionJson`], the one
//! shape of a position (a solution document's start is one too).

use super::{ServiceError, MAX_BOARD_BYTES};
use fcauto_deals::game::{BuildOrder, EmptyFill, SequenceMove};
use fcauto_deals::Rules;
use fcauto_deals::{position, Board, Card};
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
                .map_err(|e| {
                    // Serde lists standard FreeCell's fields; a family position has two more.
                    let family = match e.to_string().contains("unknown field") {
                        true => " (a position of another game of the family also names its `game`, and may give its `rules`)",
                        false => "",
                    };
                    D::Error::custom(format!("position object: {e}{family}"))
                }),
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

/// A game's rules as JSON: `{"cascades": 10, "freecells": 4, "build": "suit", "empty":
/// "kings", "sequence": "limited"}`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RulesJson {
    /// Cascades, 1..=10.
    pub cascades: u8,
    /// Freecells, 0..=8.
    pub freecells: u8,
    /// `alternate_colour`, `suit` or `rank`.
    pub build: String,
    /// What fills an empty cascade: `any`, `kings` or `none`.
    pub empty: String,
    /// `limited` (by the empty freecells and cascades) or `unlimited`.
    pub sequence: String,
}

impl RulesJson {
    /// The JSON of `r`.
    pub fn of(r: &Rules) -> RulesJson {
        RulesJson {
            cascades: r.cascades,
            freecells: r.freecells,
            build: match r.build {
                BuildOrder::AlternateColour => "alternate_colour",
                BuildOrder::Suit => "suit",
                BuildOrder::Rank => "rank",
            }
            .into(),
            empty: match r.empty {
                EmptyFill::Any => "any",
                EmptyFill::Kings => "kings",
                EmptyFill::None => "none",
            }
            .into(),
            sequence: match r.sequence {
                SequenceMove::Limited => "limited",
                SequenceMove::Unlimited => "unlimited",
            }
            .into(),
        }
    }
}

/// A family position as JSON: `{"game": "seahaven_towers", "rules": {...}, "cascades":
/// [[10 lists of cards]], "freecells": [one slot per freecell, a card or null],
/// "foundations": [C, D, H, S]}`. Read: `game` (a name, PySolFC's title or id) and
/// `cascades` are needed; `freecells` left out is the game's number of empty freecells;
/// `rules`, when given (as written), must be the game's with that many freecells.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct FamilyPositionJson {
    /// The game's name (`bakers_game`).
    pub game: String,
    /// The rules played (written always; read only as a check).
    #[serde(default)]
    pub rules: Option<RulesJson>,
    /// The cascades, each deepest card first.
    pub cascades: Vec<Vec<Card>>,
    /// The freecell slots: a card or null.
    #[serde(default)]
    pub freecells: Option<Vec<Option<Card>>>,
    /// Top rank per suit C, D, H, S, 0..=13.
    #[serde(default)]
    pub foundations: [u8; 4],
}

/// A family position as returned: both forms, and whether it is won (the fields of
/// [`super::PositionOut`]).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct FamilyPositionOut {
    /// The JSON form.
    pub position: FamilyPositionJson,
    /// The one-line position string, naming the game (`bakers_game: ...`).
    pub position_string: String,
    /// All 52 cards are on the foundations.
    pub won: bool,
}
