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

/// Serde's reader of a request's `freecells`: a whole number however JSON writes it (`2`,
/// `2.0`); the game's reader checks its range (0..=8).
///
/// # Errors
/// A JSON value that is not a number or null, or a number that is not written whole.
pub fn whole_freecells<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    whole(d, "freecells", "0..=8 freecells")
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

/// A deal number as a request gives it: the text written, which a game's deal reads as
/// PySolFC's number ([`super::new_game_of`]: `"ms40000"` is the Microsoft deal 40000,
/// `40000` the Mersenne Twister's, up to 10^20), and the Microsoft deal number a deal
/// without a game is (1..=2^33-1: a larger number is refused there, in today's words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealIn {
    /// The deal as written (`"ms617"`, or the number's digits).
    pub text: String,
    /// The Microsoft deal number, or the words a deal without a game is refused in.
    microsoft: Result<u64, String>,
    /// False for a JSON number past 2^64 (JSON reads it as a float, whose digits are not
    /// exact: PySolFC's numbers that large are given as strings).
    exact: bool,
}

impl DealIn {
    /// The Microsoft FreeCell deal number (a deal without a game).
    ///
    /// # Errors
    /// A number past 2^33-1, in the words [`super::deal_number`] refuses it in (bad input).
    pub fn microsoft(&self) -> Result<u64, ServiceError> {
        self.microsoft.clone().map_err(ServiceError::bad_input)
    }

    /// The deal as a game's deal reads it ([`super::new_game_of`]'s `deal`).
    ///
    /// # Errors
    /// A JSON number past 2^64, which JSON cannot give exactly (bad input, asking for a
    /// string).
    pub fn game_text(&self) -> Result<&str, ServiceError> {
        if self.exact {
            return Ok(&self.text);
        }
        // JSON's reader has already rounded the number: naming it would name another deal.
        Err(ServiceError::bad_input(
            "deal: a JSON number past 2^53 is not exact (JSON readers round it to another \
             number); give PySolFC's game number as a string of its digits \
             (\"12345678901234567890\")",
        ))
    }
}

/// Serde's reader of a request's deal as a [`DealIn`]: what [`super::deal_number`] reads,
/// and a number past 2^33-1 (a string of digits, or a JSON number), which only a game's deal
/// takes (PySolFC's numbers go to 10^20); the game's deal judges it.
///
/// # Errors
/// What [`super::deal_number`] refuses, in its words, except a number too large.
pub fn deal_in<'de, D: serde::Deserializer<'de>>(d: D) -> Result<DealIn, D::Error> {
    use fcauto_deals::{DealError, MAX_DEAL};
    use serde::Deserialize;
    let v = serde_json::Value::deserialize(d)?;
    let read = fcauto_deals::msdeal::deserialize_deal(&v);
    let (text, exact) = match &v {
        serde_json::Value::String(s) => (s.clone(), true),
        serde_json::Value::Number(n) if n.is_u64() || n.is_i64() => (n.to_string(), true),
        // A whole number written `617.0` or `1e3` is read as a float: exact up to 2^53.
        serde_json::Value::Number(n) => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            match f.fract() == 0.0 {
                true => (format!("{f:.0}"), f.abs() <= (1u64 << 53) as f64),
                // `6.5`: refused by the game's reader as no whole number.
                false => (n.to_string(), true),
            }
        }
        _ => (String::new(), true),
    };
    let microsoft = match read {
        Ok(n) if n <= MAX_DEAL => Ok(n),
        Ok(n) => Err(DealError::TooLarge(n.to_string()).to_string()),
        // A string or a number: refused when it is read, in the words of the numbering it
        // is read in (Microsoft's without a game, PySolFC's with one: 1..=10^20).
        Err(e) if v.is_string() || v.is_number() => Err(e.to_string()),
        Err(e) => return Err(serde::de::Error::custom(e.to_string())),
    };
    Ok(DealIn {
        text,
        microsoft,
        exact,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<DealIn, String> {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        deal_in(v).map_err(|e| e.to_string())
    }

    /// A Microsoft deal reads as before; a number past 2^33-1 is kept for a game's deal and
    /// refused without one in today's words; a JSON number past 2^64 asks for a string.
    #[test]
    fn deals_past_2_33_are_kept_for_a_game() {
        let d = read("617").unwrap();
        assert_eq!(
            (d.microsoft().unwrap(), d.game_text().unwrap()),
            (617, "617")
        );
        let d = read("617.0").unwrap();
        assert_eq!(
            (d.microsoft().unwrap(), d.game_text().unwrap()),
            (617, "617")
        );
        assert_eq!(read("\"ms40000\"").unwrap().game_text().unwrap(), "ms40000");
        for big in [
            "\"12345678901234567890\"",
            "12345678901234567890",
            "8589934592",
        ] {
            let d = read(big).unwrap();
            assert_eq!(d.game_text().unwrap(), big.trim_matches('"'));
            let e = d.microsoft().unwrap_err().message;
            assert!(
                e.contains("the largest is 8589934591 (2^33-1)"),
                "{big}: {e}"
            );
        }
        let d = read("99999999999999999999").unwrap();
        let e = d.game_text().unwrap_err().message;
        assert!(e.contains("as a string"), "{e}");
        assert!(
            !e.contains("100000000000000000000"),
            "names a rounded number: {e}"
        );
        assert!(read("true").is_err());
    }

    /// A number or string no deal is kept, and refused where it is read: without a game in
    /// Microsoft's words, with one as PySolFC's game number (1..=10^20).
    #[test]
    fn bad_deals_are_refused_in_the_words_of_their_numbering() {
        for (bad, game_words) in [
            ("-3", "PySolFC's game numbers start at 1"),
            ("6.5", "is not a whole number (expected 1..=10^20"),
            ("\"0x10\"", "is not a whole number (expected 1..=10^20"),
            ("\"1e30\"", "PySolFC's largest is 100000000000000000000"),
            ("\"ms0\"", "deals start at 1"),
        ] {
            let d = read(bad).unwrap();
            assert!(d.microsoft().is_err(), "{bad}");
            let t = d.game_text().unwrap();
            let e = fcauto_deals::PysolNumber::parse(t).unwrap_err().to_string();
            assert!(e.contains(game_words), "{bad}: {e}");
        }
    }
}
