//! A request's fields read in the service's own words: whole numbers however JSON writes
//! them, a picture's width, and a search mode's name.

use super::{ServiceError, MAX_STATES};
use fcauto_solver::Mode;

/// A request's whole-number field (`count`, `width`, `max_states`), named `what`, whose
/// values `range` says (`1..13`): null/absent is `None`, a whole number `Some` however JSON
/// writes it (`3`, `3.0`, `3e0`, `-0`; its range is checked by the field's own reader). A
/// number serde reads as a float that is no whole number (`1.5`) or beyond any field's range
/// (`1e30`, 2^64) is refused here in the field's own words (serde said "invalid type:
/// floating point `1e+30`, expected i64").
///
/// # Errors
/// A JSON value that is not a number or null, or a number that is not written whole.
fn whole<'de, D: serde::Deserializer<'de>>(
    d: D,
    what: &str,
    range: &str,
) -> Result<Option<i64>, D::Error> {
    use serde::Deserialize;
    let Some(n) = Option::<serde_json::Number>::deserialize(d)? else {
        return Ok(None);
    };
    if let Some(v) = n.as_i64() {
        return Ok(Some(v));
    }
    let f = n.as_f64().unwrap_or(f64::NAN);
    let why = match () {
        _ if n.is_u64() => format!("{what} {n} is out of range: give {range}"),
        _ if !(f.is_finite() && f.fract() == 0.0) => {
            format!("{what} {n} is no whole number: give {range}")
        }
        _ if f.abs() > 1e15 => format!("{what} {f:e} is out of range: give {range}"),
        // A whole number however written (`1.0`, `1e3`, `-0`): exact here, so it is that
        // number, and the field's reader checks its range as for any other.
        _ => return Ok(Some(f as i64)),
    };
    Err(serde::de::Error::custom(why))
}

/// Serde's reader of a request's `count`: a whole number however JSON writes it (`3`,
/// `3.0`, `3e0`); [`parse_move`](super::parse_move) checks its range.
///
/// # Errors
/// A JSON value that is not a number or null, or a number that is not written whole.
pub fn whole_count<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    whole(
        d,
        "count",
        "1..13 cards, or leave it out for the longest run that fits",
    )
}

/// Serde's reader of a request's picture `width`: a whole number however JSON writes it;
/// [`picture_width`] checks its range.
///
/// # Errors
/// A JSON value that is not a number or null, or a number that is not written whole.
pub fn whole_width<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    let range = format!(
        "{}..={} pixels",
        crate::render::MIN_WIDTH,
        crate::render::MAX_WIDTH
    );
    whole(d, "width", &range)
}

/// Serde's reader of a request's `max_states`: a whole number however JSON writes it (a
/// negative one is refused here, the solve checks the rest of its range).
///
/// # Errors
/// A JSON value that is not a number or null, a number that is not written whole, or a
/// number below 0.
pub fn whole_max_states<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    let range = format!("1..={MAX_STATES} positions");
    match whole(d, "max_states", &range)? {
        Some(n) if n < 0 => Err(serde::de::Error::custom(format!(
            "max_states {n} is out of range: give {range}"
        ))),
        n => Ok(n.map(|n| n as usize)),
    }
}

/// Serde's reader of a request's `costly` (moves from which a move is costly): a whole
/// number however JSON writes it, 1 or more (0 is refused by the analysis, in its words).
///
/// # Errors
/// A JSON value that is not a number or null, a number that is not written whole, or a
/// number below 0.
pub fn whole_costly<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    let range = "1 or more moves";
    match whole(d, "costly", range)? {
        Some(n) if n < 0 => Err(serde::de::Error::custom(format!(
            "costly {n} is out of range: give {range}"
        ))),
        n => Ok(n.map(|n| n as usize)),
    }
}

/// A picture width asked for (`None`: [`crate::render::DEFAULT_WIDTH`]), checked against
/// the renderer's bounds: a width outside them is bad input, not changed, so what is drawn
/// is what was asked for. Any whole number is read, so that a negative or huge one gets
/// these words, not serde's "expected u32".
pub fn picture_width(width: Option<i64>) -> Result<u32, ServiceError> {
    use crate::render::{DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH};
    let width = width.unwrap_or(DEFAULT_WIDTH.into());
    if !(i64::from(MIN_WIDTH)..=i64::from(MAX_WIDTH)).contains(&width) {
        return Err(ServiceError::bad_input(format!(
            "width {width}: a picture is {MIN_WIDTH}..={MAX_WIDTH} pixels wide"
        )));
    }
    Ok(width as u32)
}

/// The search modes the service runs, by name: `fast` and `short` (the optimal modes need
/// gigabytes and minutes, and are the command line's).
pub const MODES: [(&str, Mode); 2] = [("fast", Mode::Fast), ("short", Mode::Short)];

/// The service's search mode named `name` ([`MODES`]), if it is one.
pub fn mode_named(name: &str) -> Option<Mode> {
    MODES.iter().find(|(n, _)| *n == name).map(|&(_, m)| m)
}

/// A request's `mode`: `fast` when left out, else one of [`MODES`]; another name is bad
/// input.
pub fn parse_mode(name: Option<&str>) -> Result<Mode, ServiceError> {
    let name = name.unwrap_or("fast");
    mode_named(name).ok_or_else(|| {
        ServiceError::bad_input(format!(
            "mode `{name}`: the API solves in `fast` or `short`"
        ))
    })
}

/// A deal number as a request gives it: the number as [`super::deal_number`] reads it (a bad
/// one refused in its words), and the text written, which a game's deal reads as PySolFC's
/// number ([`super::new_game_of`]: `"ms40000"` is the Microsoft deal 40000, `40000` the
/// Mersenne Twister's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealIn {
    /// The deal number (Microsoft numbering).
    pub number: u64,
    /// The deal as written (`"ms617"`, or the number).
    pub text: String,
}

/// Serde's reader of a request's deal as a [`DealIn`].
///
/// # Errors
/// What [`super::deal_number`] refuses, in its words.
pub fn deal_in<'de, D: serde::Deserializer<'de>>(d: D) -> Result<DealIn, D::Error> {
    use serde::Deserialize;
    let v = serde_json::Value::deserialize(d)?;
    let number = fcauto_deals::msdeal::deserialize_deal(&v).map_err(serde::de::Error::custom)?;
    let text = match v {
        serde_json::Value::String(s) => s,
        _ => number.to_string(),
    };
    Ok(DealIn { number, text })
}

/// [`deal_in`] for an optional field (with `#[serde(default)]`): absent or null is `None`.
///
/// # Errors
/// What [`super::deal_number`] refuses, in its words.
pub fn deal_in_opt<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<DealIn>, D::Error> {
    use serde::Deserialize;
    match Option::<serde_json::Value>::deserialize(d)? {
        None => Ok(None),
        Some(v) => deal_in(v).map(Some).map_err(serde::de::Error::custom),
    }
}
