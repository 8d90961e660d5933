//! The Microsoft FreeCell deal generator.
//!
//! Algorithm (Microsoft FreeCell, as reproduced by fc-solve's `make-microsoft-freecell-board`,
//! source `gen_ms_boards__rand.h`):
//! - LCG `state = state * 214013 + 2531011 (mod 2^32)`, seeded with the deal number; each draw
//!   is `(state >> 16) & 0x7fff`.
//! - Deck in MS order AC AD AH AS 2C ... KS. For i in 0..52: `j = draw % remaining`; card
//!   `deck[j]` is dealt to cascade `i % 8` (left to right, rows top-down from the deepest card);
//!   `deck[j]` is replaced by the last remaining card.
//! - Freecell Pro's extension (as `make-microsoft-freecell-board` computes it): for
//!   2^31 <= n < 2^32 each draw is OR-ed with `0x8000`; for 2^32 <= n < 2^33 the seed is
//!   `n - 2^32` and each draw is `((state >> 16) & 0xffff) + 1`.

use crate::board::Board;
use crate::card::Card;

/// The largest deal number: 2^33 - 1 (Freecell Pro's range).
pub const MAX_DEAL: u64 = (1 << 33) - 1;

/// A deal number that is not in 1..=2^33-1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// Not a whole decimal number.
    #[error("deal number `{0}` is not a whole number (expected 1..={MAX_DEAL}, or msN as PySolFC writes it)")]
    NotANumber(String),
    /// A whole number in range written with a fraction or an exponent (`617.0`, `6.17e2`):
    /// the text, and the number to write instead.
    #[error("deal number `{0}` is written with a fraction or an exponent: write it as a whole number ({1})")]
    NotWritten(String, u64),
    /// Zero or negative.
    #[error("deal number {0} is out of range: deals start at 1 (expected 1..={MAX_DEAL})")]
    TooSmall(String),
    /// Above 2^33 - 1.
    #[error("deal number {0} is out of range: the largest is {MAX_DEAL} (2^33-1)")]
    TooLarge(String),
}

/// Parse a deal number from text, accepting exactly 1..=2^33-1, written as a number (`617`)
/// or as PySolFC writes MS deal numbers (`ms617`, any case, digits right after `ms`), with
/// or without the `#` PySolFC's window puts in front (`#617`, `#ms617`).
///
/// Errors: [`DealError::NotANumber`] for `abc`, `1.5`, `ms`, empty text;
/// [`DealError::NotWritten`] for a deal number written `617.0` or `6.17e2`;
/// [`DealError::TooSmall`] for `0`, `ms0` and negatives; [`DealError::TooLarge`] above
/// [`MAX_DEAL`].
pub fn parse_deal_number(s: &str) -> Result<u64, DealError> {
    // PySolFC's window writes a game number with a `#` in front (`#617`, `#ms617`).
    let t = s.trim();
    let t = t.strip_prefix('#').unwrap_or(t);
    let digits = match t.get(..2) {
        Some(p) if p.eq_ignore_ascii_case("ms") => &t[2..],
        _ => t.strip_prefix('+').unwrap_or(t),
    };
    if let Some(rest) = t.strip_prefix('-') {
        if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(DealError::TooSmall(t.to_string()));
        }
    }
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        // `617.0` or `6.17e2` is a deal number written otherwise: the message says how to
        // write it, rather than calling it no whole number.
        let decimal = digits.contains(['.', 'e', 'E']) && !digits.starts_with(['+', '-']);
        return Err(match digits.parse::<f64>() {
            Ok(f) if decimal && f.is_finite() && f.fract() == 0.0 => match f {
                f if f < 1.0 => DealError::TooSmall(t.to_string()),
                f if f > MAX_DEAL as f64 => DealError::TooLarge(t.to_string()),
                f => DealError::NotWritten(t.to_string(), f as u64),
            },
            _ => DealError::NotANumber(s.to_string()),
        });
    }
    match digits.parse::<u64>() {
        Ok(0) => Err(DealError::TooSmall(t.to_string())),
        Ok(n) if n <= MAX_DEAL => Ok(n),
        _ => Err(DealError::TooLarge(t.to_string())),
    }
}

/// Read a deal number from JSON (serde's `deserialize_with`; the API's and MCP's bodies,
/// solution JSON, `deal --format json`): a JSON number (`617`), or a string as the command
/// line takes one (`"617"`, or `"ms617"` as PySolFC writes MS deals), read by
/// [`parse_deal_number`]. A number's range is checked where the deal is dealt
/// ([`ms_deal`]), a string's here. A number may be written with a fraction or an exponent
/// when it is whole (`617.0`, `6.17e2`: JSON's value is the same); a string may not.
///
/// Errors: a negative number ([`DealError::TooSmall`]), a string [`parse_deal_number`]
/// refuses, or another JSON type (named with what is expected).
pub fn deserialize_deal<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    d.deserialize_any(DealNumber)
}

/// [`deserialize_deal`] for an optional field (with `#[serde(default)]`): absent or null is
/// `None`.
pub fn deserialize_deal_opt<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<u64>, D::Error> {
    /// `Some` of a deal number, or null.
    struct Opt;
    impl<'de> serde::de::Visitor<'de> for Opt {
        type Value = Option<u64>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            serde::de::Visitor::expecting(&DealNumber, f)?;
            f.write_str(" or null")
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<Option<u64>, E> {
            Ok(None)
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Option<u64>, E> {
            Ok(None)
        }
        fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Option<u64>, D::Error> {
            deserialize_deal(d).map(Some)
        }
    }
    d.deserialize_option(Opt)
}

/// The visitor of [`deserialize_deal`].
struct DealNumber;

impl serde::de::Visitor<'_> for DealNumber {
    type Value = u64;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a deal number: 617, or \"ms617\" as PySolFC writes it")
    }
    fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<u64, E> {
        Ok(n)
    }
    fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<u64, E> {
        u64::try_from(n).map_err(|_| E::custom(DealError::TooSmall(n.to_string())))
    }
    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<u64, E> {
        parse_deal_number(s).map_err(E::custom)
    }
    /// JSON reads a number past 2^64 (or one written `1e3`, `617.0` or `6.5`) as a float:
    /// a whole one in range is that deal (JSON Schema's `integer` counts `617.0` as one, and
    /// the API's other whole-number fields take it too), else it is named as a deal
    /// number out of range or not a whole number.
    fn visit_f64<E: serde::de::Error>(self, f: f64) -> Result<u64, E> {
        let whole = f.is_finite() && f.fract() == 0.0;
        if whole && (1.0..=MAX_DEAL as f64).contains(&f) {
            return Ok(f as u64);
        }
        Err(E::custom(match () {
            _ if !whole => DealError::NotANumber(f.to_string()).to_string(),
            _ if f < 1.0 => DealError::TooSmall(f.to_string()).to_string(),
            // Digits as written up to 20 of them (2^64 is read as a float, which would
            // show as `1.8446744073709552e19`); beyond, the exponent says the size better.
            _ if f > MAX_DEAL as f64 && f < 1e21 => {
                DealError::TooLarge(format!("{f:.0}")).to_string()
            }
            _ => DealError::TooLarge(format!("{f:e}")).to_string(),
        }))
    }
}

/// The MS LCG with Freecell Pro's extended draws.
struct MsRand {
    state: u32,
    deal: u64,
}

impl MsRand {
    fn new(deal: u64) -> MsRand {
        let seed = if deal < (1 << 32) {
            deal
        } else {
            deal - (1 << 32)
        };
        MsRand {
            state: seed as u32,
            deal,
        }
    }

    fn draw(&mut self) -> u32 {
        self.state = self.state.wrapping_mul(214013).wrapping_add(2531011);
        if self.deal < (1 << 31) {
            (self.state >> 16) & 0x7fff
        } else if self.deal < (1 << 32) {
            ((self.state >> 16) & 0x7fff) | 0x8000
        } else {
            ((self.state >> 16) & 0xffff) + 1
        }
    }
}

/// The 52 cards of Microsoft FreeCell deal `n` (1..=2^33-1) in the order they are dealt:
/// card `i` goes to cascade `i % 8` in FreeCell, and PySolFC's other games deal the same
/// sequence onto their own cascades and freecells (its talon gives the cards in this order).
///
/// Errors: [`DealError`] when `n` is 0 or above [`MAX_DEAL`].
pub fn ms_deal_order(n: u64) -> Result<[Card; 52], DealError> {
    if n == 0 {
        return Err(DealError::TooSmall("0".into()));
    }
    if n > MAX_DEAL {
        return Err(DealError::TooLarge(n.to_string()));
    }
    let mut rng = MsRand::new(n);
    let mut deck: Vec<Card> = Card::all().collect();
    let mut order = [deck[0]; 52];
    for slot in order.iter_mut() {
        let left = deck.len() as u32;
        let j = (rng.draw() % left) as usize;
        *slot = deck.swap_remove(j);
    }
    Ok(order)
}

/// The initial board of Microsoft FreeCell deal `n` (1..=2^33-1): 8 cascades, the first four
/// with 7 cards and the rest with 6, each listed from the deepest card to the top card.
///
/// Errors: [`DealError`] when `n` is 0 or above [`MAX_DEAL`].
pub fn ms_deal(n: u64) -> Result<Board, DealError> {
    let order = ms_deal_order(n)?;
    let mut cascades: Vec<Vec<Card>> = (0..8).map(|_| Vec::with_capacity(7)).collect();
    for (i, card) in order.into_iter().enumerate() {
        cascades[i % 8].push(card);
    }
    Ok(Board::from_cascades(cascades))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deal_1_matches_published_layout() {
        let b = ms_deal(1).unwrap();
        let first: Vec<String> = b.cascades[0].iter().map(|c| c.to_string()).collect();
        assert_eq!(first, ["JD", "KD", "2S", "4C", "3S", "6D", "6S"]);
        let last: Vec<String> = b.cascades[7].iter().map(|c| c.to_string()).collect();
        assert_eq!(last, ["5H", "3H", "3C", "7S", "7D", "TC"]);
    }

    #[test]
    fn parse_rejects_out_of_range() {
        assert!(matches!(
            parse_deal_number("0"),
            Err(DealError::TooSmall(_))
        ));
        assert!(matches!(
            parse_deal_number("-5"),
            Err(DealError::TooSmall(_))
        ));
        assert!(matches!(
            parse_deal_number("abc"),
            Err(DealError::NotANumber(_))
        ));
        assert!(matches!(
            parse_deal_number("8589934592"),
            Err(DealError::TooLarge(_))
        ));
        assert!(matches!(
            parse_deal_number("99999999999999999999999"),
            Err(DealError::TooLarge(_))
        ));
        assert_eq!(parse_deal_number("8589934591").unwrap(), MAX_DEAL);
        assert_eq!(parse_deal_number("617").unwrap(), 617);
    }

    /// A deal number written with a fraction or an exponent is told how to write it
    /// (formerly: "`617.0` is not a whole number"); other decimals are no deal number.
    #[test]
    fn a_whole_number_written_otherwise_is_told_how_to_write_it() {
        for (text, n) in [
            ("617.0", 617),
            ("6.17e2", 617),
            ("ms617.0", 617),
            ("1E3", 1000),
        ] {
            assert_eq!(
                parse_deal_number(text),
                Err(DealError::NotWritten(text.to_string(), n))
            );
        }
        for bad in ["1.5", "1e400", "nan", "inf", "+5.0e0x", "ms+5"] {
            assert!(
                matches!(parse_deal_number(bad), Err(DealError::NotANumber(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            parse_deal_number("0.0"),
            Err(DealError::TooSmall(_))
        ));
        assert!(matches!(
            parse_deal_number("9e9"),
            Err(DealError::TooLarge(_))
        ));
        let e = DealError::NotWritten("617.0".into(), 617).to_string();
        assert!(e.contains("write it as a whole number (617)"), "{e}");
    }

    #[test]
    fn parse_accepts_pysolfc_ms_numbers() {
        assert_eq!(parse_deal_number("ms617").unwrap(), 617);
        assert_eq!(parse_deal_number(" MS123456 ").unwrap(), 123456);
        assert_eq!(parse_deal_number("ms8589934591").unwrap(), MAX_DEAL);
        for bad in ["ms", "ms+5", "ms-5", "ms 5", "ms6.5", "msx", "m617", "s617"] {
            assert!(
                matches!(parse_deal_number(bad), Err(DealError::NotANumber(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            parse_deal_number("ms0"),
            Err(DealError::TooSmall(_))
        ));
        assert!(matches!(
            parse_deal_number("ms8589934592"),
            Err(DealError::TooLarge(_))
        ));
    }
}
