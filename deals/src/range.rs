//! Ranges of deal numbers (`A..B`, inclusive, `A..=B` too), as `bench --range` and
//! `batch run --range` take them ([`DealRange`], which keeps whether the ends were written
//! `msN`), and the deals known to have no solution with four freecells.

use crate::msdeal::{parse_deal_number, DealError};
use crate::pysol_deal::MT_FROM;

/// Why a range of deals does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RangeError {
    /// No `..` between the two ends.
    #[error("range `{0}` is not A..B")]
    NotARange(String),
    /// One end is no deal number.
    #[error(transparent)]
    Deal(#[from] DealError),
    /// The first deal is after the last.
    #[error("range `{0}` is empty")]
    Empty(String),
    /// With `--game`, one end written `msN` and the other a plain number from 32000 on (a
    /// Mersenne Twister deal): the range names deals of two numberings.
    #[error(
        "range `{0}` mixes msN with a plain number from 32000 on: with --game, msN is the \
         Microsoft deal N and a plain number from 32000 on PySolFC's Mersenne Twister deal; \
         write both ends msN or both plain"
    )]
    Mixed(String),
}

/// A range of deals as written: its ends, and whether each was written `msN`. Without
/// `--game` every number is a Microsoft deal and `ms` changes nothing; with `--game`, `msN`
/// is the Microsoft deal N dealt to the game's layout (PySolFC's `msN`), while a plain number
/// from 32000 on is PySolFC's Mersenne Twister deal ([`DealRange::microsoft_with_game`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealRange {
    /// The first deal.
    pub first: u64,
    /// The last deal (inclusive).
    pub last: u64,
    /// The range as written.
    text: String,
    /// Each end written `msN` (first, last).
    ms: (bool, bool),
}

impl DealRange {
    /// Parse `A..B` (inclusive, `A..=B` too), each end as [`parse_deal_number`] reads it
    /// (`ms5`, ` 12 `), keeping which ends were written `msN`.
    ///
    /// Errors: as [`parse_deal_range`].
    pub fn parse(s: &str) -> Result<DealRange, RangeError> {
        let (first, last) = parse_deal_range(s)?;
        let (a, b) = s.split_once("..").expect("parse_deal_range found `..`");
        let ms = |t: &str| {
            let t = t.trim().trim_start_matches('=').trim_start();
            let t = t.strip_prefix('#').unwrap_or(t);
            t.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("ms"))
        };
        Ok(DealRange {
            first,
            last,
            text: s.to_string(),
            ms: (ms(a), ms(b)),
        })
    }

    /// The first and the last deal.
    pub fn bounds(&self) -> (u64, u64) {
        (self.first, self.last)
    }

    /// With `--game`: true when the range names Microsoft deals (`msA..msB`, or either end
    /// `msN` and the plain one below 32000, where both numberings agree), false for PySolFC's
    /// plain numbers (the Mersenne Twister from 32000 on).
    ///
    /// Errors: [`RangeError::Mixed`] for one end `msN` and the other plain from 32000 on.
    pub fn microsoft_with_game(&self) -> Result<bool, RangeError> {
        let plain_mt = |ms: bool, n: u64| !ms && n >= MT_FROM;
        match self.ms {
            (false, false) => Ok(false),
            (a, b) if plain_mt(a, self.first) || plain_mt(b, self.last) => {
                Err(RangeError::Mixed(self.text.clone()))
            }
            _ => Ok(true),
        }
    }
}

impl std::fmt::Display for DealRange {
    /// The range as written.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// Parse `A..B` (inclusive, `A..=B` too) into its first and last deal numbers, any size;
/// each end as [`parse_deal_number`] reads a deal number (`ms5`, ` 12 `).
///
/// Errors: [`RangeError::NotARange`] without `..`, [`RangeError::Deal`] for an end that is
/// no deal number, [`RangeError::Empty`] when the first deal is after the last.
pub fn parse_deal_range(s: &str) -> Result<(u64, u64), RangeError> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| RangeError::NotARange(s.to_string()))?;
    let a = parse_deal_number(a)?;
    let b = parse_deal_number(b.trim_start_matches('='))?;
    if a > b {
        return Err(RangeError::Empty(s.to_string()));
    }
    Ok((a, b))
}

/// The deals in 1..=1,000,000 that have no solution with 4 freecells: Freecell Pro's list,
/// as published with Freecell Solver (shlomif/freecell-pro-impossible-deals). Freecell Pro's
/// search solved every other deal of that range.
pub const IMPOSSIBLE_DEALS: [u64; 8] = [
    11982, 146692, 186216, 455889, 495505, 512118, 517776, 781948,
];

/// The last deal [`IMPOSSIBLE_DEALS`] covers: beyond it, no deal is known solvable or not.
pub const IMPOSSIBLE_DEALS_UP_TO: u64 = 1_000_000;

/// True for a deal known to have a solution with 4 freecells: up to
/// [`IMPOSSIBLE_DEALS_UP_TO`] and not in [`IMPOSSIBLE_DEALS`].
pub fn known_solvable(deal: u64) -> bool {
    deal <= IMPOSSIBLE_DEALS_UP_TO && !IMPOSSIBLE_DEALS.contains(&deal)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both spellings of an inclusive range, deal numbers as PySolFC writes them, and the
    /// three refusals with their messages.
    #[test]
    fn ranges_parse_and_refuse() {
        assert_eq!(parse_deal_range("1..32000"), Ok((1, 32000)));
        assert_eq!(parse_deal_range("ms5..=ms7"), Ok((5, 7)));
        assert_eq!(parse_deal_range("3..3"), Ok((3, 3)));
        // As PySolFC's window writes game numbers.
        assert_eq!(parse_deal_range("#1..#617"), Ok((1, 617)));
        assert_eq!(parse_deal_number("#ms617"), Ok(617));
        let msg = |s| parse_deal_range(s).unwrap_err().to_string();
        assert_eq!(msg("12"), "range `12` is not A..B");
        assert_eq!(msg("9..2"), "range `9..2` is empty");
        assert_eq!(msg("0..2"), parse_deal_number("0").unwrap_err().to_string());
    }

    /// `msN` ends are kept: with --game they name Microsoft deals, and a range mixing `msN`
    /// with a plain Mersenne Twister number is refused.
    #[test]
    fn ms_ranges_name_microsoft_deals_with_game() {
        let r = |s| DealRange::parse(s).unwrap();
        assert_eq!(r("ms40000..ms40009").bounds(), (40000, 40009));
        assert_eq!(r("ms40000..ms40009").microsoft_with_game(), Ok(true));
        assert_eq!(r("MS5..=ms7").microsoft_with_game(), Ok(true));
        assert_eq!(r("ms5..7").microsoft_with_game(), Ok(true));
        assert_eq!(r("#ms40000..#ms40009").microsoft_with_game(), Ok(true));
        assert_eq!(r("40000..40009").microsoft_with_game(), Ok(false));
        let e = r("ms5..40000").microsoft_with_game().unwrap_err();
        assert!(
            e.to_string().starts_with("range `ms5..40000` mixes msN"),
            "{e}"
        );
        assert!(r("40000..ms40009").microsoft_with_game().is_err());
        assert_eq!(r(" 3 ..ms9").to_string(), " 3 ..ms9");
    }

    /// The impossible deals are not known solvable; their neighbours are, and nothing past
    /// the list's range is.
    #[test]
    fn impossible_deals_are_the_only_unsolvable_ones_known() {
        assert!(IMPOSSIBLE_DEALS.iter().all(|&n| !known_solvable(n)));
        assert!(known_solvable(11981) && known_solvable(1_000_000));
        assert!(!known_solvable(1_000_001));
    }
}
