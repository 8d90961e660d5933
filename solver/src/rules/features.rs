//! The counts a position is evaluated by (cards not home, blocked cards, the next cards'
//! depth, freecells used, empty cascades, cards out of sequence), counted from a position
//! whole or updated from the cascades a move changed. What they are worth is the search's
//! to say (`search/heuristic.rs`: weights, and the optimal modes' bound).

use crate::state::{rank, suit, State, EMPTY, FITS_ON};
use fcauto_deals::{CASCADES, FREECELLS};

/// Counts the evaluation is built from.
#[derive(Clone, Copy, Debug, Default)]
pub struct Features {
    /// Cards not on the foundations (0..=52).
    pub remaining: u32,
    /// Cascade cards lying above a lower-ranked card of the same cascade (each must move at
    /// least once more before the lower card can go home).
    pub blocked: u32,
    /// Cascade cards lying above a lower card of the same suit (each needs at least two more
    /// moves: off the cascade, later home). Admissible extra cost.
    pub blocked_same_suit: u32,
    /// Sum over suits of the number of cards above that suit's next needed card.
    pub next_depth: u32,
    /// Occupied freecells.
    pub used_cells: u32,
    /// Empty cascades.
    pub empty_cols: u32,
    /// Cascade cards, other than the deepest, that do not lie on a card they fit (one rank
    /// higher, other colour): each breaks a sequence.
    pub out_of_sequence: u32,
}

/// Compute [`Features`] of a position in one pass over the cascades.
#[inline]
pub fn features(s: &State) -> Features {
    features_with::<true>(s)
}

/// [`features`] without [`Features::blocked_same_suit`] (left 0), which only the
/// admissible bound uses: the evaluation's features, a little cheaper.
#[inline]
pub fn eval_features(s: &State) -> Features {
    features_with::<false>(s)
}

/// The next card each suit needs, one bit per card byte (none for a finished suit).
#[inline(always)]
fn needed_cards(s: &State) -> u64 {
    let mut needed: u64 = 0;
    for (su, &h) in s.found.iter().enumerate() {
        if h < 13 {
            needed |= 1 << (h as u32 * 4 + su as u32);
        }
    }
    needed
}

/// One cascade's share of the evaluation features: blocked, out of sequence, next depth,
/// and (with `SAME_SUIT`) blocked by the same suit.
#[inline(always)]
fn column<const SAME_SUIT: bool>(col: &[u8], needed: u64) -> [u32; 4] {
    if col.is_empty() {
        return [0; 4];
    }
    let top = col.len() as u32 - 1;
    let (mut blocked, mut next_depth, mut same_suit) = (0, 0, 0);
    let mut min_rank = u8::MAX;
    let mut min_of_suit = [u8::MAX; 4];
    let mut below = 63u8; // no card: fits on nothing
    let mut in_sequence = 0;
    for (depth, &c) in col.iter().enumerate() {
        let r = rank(c);
        in_sequence += (FITS_ON[c as usize & 63] >> below) as u32 & 1;
        below = c;
        blocked += (r > min_rank) as u32;
        min_rank = min_rank.min(r);
        if SAME_SUIT {
            let su = suit(c) as usize;
            same_suit += (r > min_of_suit[su]) as u32;
            min_of_suit[su] = min_of_suit[su].min(r);
        }
        if (needed >> (c & 63)) & 1 != 0 {
            next_depth += top - depth as u32;
        }
    }
    [blocked, top - in_sequence, next_depth, same_suit]
}

/// One cascade's [`Features::next_depth`] share: the cards above each suit's next needed
/// card (`needed`, one bit per card byte) lying in it.
#[inline(always)]
fn next_depth(col: &[u8], needed: u64) -> u32 {
    let top = col.len() as u32;
    let mut n = 0;
    for (depth, &c) in col.iter().enumerate() {
        if (needed >> (c & 63)) & 1 != 0 {
            n += top - 1 - depth as u32;
        }
    }
    n
}

/// The features every cascade contributes (blocked, out of sequence, next depth), so that a
/// position that differs from this one in a few cascades can be evaluated from them:
/// [`eval_features_from`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColumnFeatures {
    /// Blocked, out of sequence and next depth, one byte per cascade (byte i of each lane
    /// is cascade i's count: one store to set), so that a feature's total is one
    /// multiplication of the lane read as a word: [`ColumnFeatures::totals`]. Each total
    /// stays below 256 (52 cards, at most 4 × 19 cards above the needed ones), so no byte
    /// carries into the next.
    lanes: [[u8; 8]; 3],
    /// The foundations they were computed for.
    found: [u8; 4],
}

const _: () = assert!(CASCADES <= 8, "one byte lane per cascade in a u64");

impl ColumnFeatures {
    /// Store cascade `i`'s counts `[blocked, out of sequence, next depth]`.
    #[inline(always)]
    fn set(&mut self, i: usize, counts: [u32; 3]) {
        for (lane, c) in self.lanes.iter_mut().zip(counts) {
            lane[i] = c as u8;
        }
    }

    /// The three features' totals over the cascades: each lane's bytes summed by one
    /// multiplication (the sum gathers in the top byte).
    #[inline(always)]
    fn totals(&self) -> [u32; 3] {
        self.lanes
            .map(|l| (u64::from_le_bytes(l).wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32)
    }
}

/// The per-cascade evaluation features of `s`.
pub fn column_features(s: &State) -> ColumnFeatures {
    let needed = needed_cards(s);
    let mut out = ColumnFeatures {
        found: s.found,
        ..Default::default()
    };
    for i in 0..CASCADES {
        let [b, o, n, _] = column::<false>(s.col(i), needed);
        out.set(i, [b, o, n]);
    }
    out
}

/// [`eval_features`] of `s`, and its [`ColumnFeatures`], given those of a position whose
/// cascades equal this one's except those whose bits are set in `changed` (the freecells
/// may differ): only the changed cascades are scanned, all of them when the foundations
/// differ.
#[inline]
pub fn eval_features_from(
    s: &State,
    parent: &ColumnFeatures,
    changed: u8,
) -> (Features, ColumnFeatures) {
    let mut cf = *parent;
    let needed = needed_cards(s);
    if s.found != parent.found {
        // Only the next-depth counts depend on the foundations: recount them alone in the
        // cascades that did not change.
        cf.found = s.found;
        let mut m = !changed;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            cf.lanes[2][i] = next_depth(s.col(i), needed) as u8;
        }
    }
    let mut m = changed;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        let [b, o, n, _] = column::<false>(s.col(i), needed);
        cf.set(i, [b, o, n]);
    }
    let [b, o, n] = cf.totals();
    let f = Features {
        remaining: 52 - s.home() as u32,
        blocked: b,
        blocked_same_suit: 0,
        next_depth: n,
        used_cells: s.cells.iter().filter(|&&c| c != EMPTY).count() as u32,
        empty_cols: s.empty_cols() as u32,
        out_of_sequence: o,
    };
    (f, cf)
}

#[inline(always)]
fn features_with<const SAME_SUIT: bool>(s: &State) -> Features {
    let needed = needed_cards(s);
    let mut f = Features {
        remaining: 52 - s.home() as u32,
        ..Default::default()
    };
    for i in 0..CASCADES {
        let col = s.col(i);
        f.empty_cols += col.is_empty() as u32;
        let [b, o, n, ss] = column::<SAME_SUIT>(col, needed);
        f.blocked += b;
        f.out_of_sequence += o;
        f.next_depth += n;
        f.blocked_same_suit += ss;
    }
    for j in 0..FREECELLS {
        f.used_cells += (s.cells[j] != EMPTY) as u32;
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_features_match_the_full_ones() {
        crate::state::walk_children(|s, child, changed| {
            let (a, cf) = eval_features_from(child, &column_features(s), changed);
            assert_eq!(format!("{a:?}"), format!("{:?}", eval_features(child)));
            assert_eq!(cf, column_features(child));
        });
    }
}
