//! Ranges of deal numbers (`A..B`, inclusive, `A..=B` too), as `bench --range` and
//! `batch run --range` take them, and the deals known to have no solution with four
//! freecells.

use crate::msdeal::{parse_deal_number, DealError};

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
        let msg = |s| parse_deal_range(s).unwrap_err().to_string();
        assert_eq!(msg("12"), "range `12` is not A..B");
        assert_eq!(msg("9..2"), "range `9..2` is empty");
        assert_eq!(msg("0..2"), parse_deal_number("0").unwrap_err().to_string());
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
