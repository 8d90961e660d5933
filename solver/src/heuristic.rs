//! Position evaluation for the best-first searches.

use crate::state::{rank, suit, State, EMPTY};
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

/// For each card byte, a mask of the card bytes it fits on (one rank higher, other colour).
const FITS_ON: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut c = 0;
    while c < 48 {
        let r = c / 4 + 1;
        let (a, b) = if c % 4 == 1 || c % 4 == 2 {
            (0, 3)
        } else {
            (1, 2)
        };
        t[c] = (1 << (r * 4 + a)) | (1 << (r * 4 + b));
        c += 1;
    }
    t
};

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

#[inline(always)]
fn features_with<const SAME_SUIT: bool>(s: &State) -> Features {
    let mut f = Features {
        remaining: 52 - s.home() as u32,
        ..Default::default()
    };
    // The next card each suit needs, one bit per card byte (none for a finished suit).
    let mut needed: u64 = 0;
    for (su, &h) in s.found.iter().enumerate() {
        if h < 13 {
            needed |= 1 << (h as u32 * 4 + su as u32);
        }
    }
    for i in 0..CASCADES {
        let col = s.col(i);
        if col.is_empty() {
            f.empty_cols += 1;
            continue;
        }
        let top = col.len() as u32 - 1;
        let mut min_rank = u8::MAX;
        let mut min_of_suit = [u8::MAX; 4];
        let mut below = 63u8; // no card: fits on nothing
        let mut in_sequence = 0;
        for (depth, &c) in col.iter().enumerate() {
            let r = rank(c);
            in_sequence += (FITS_ON[c as usize & 63] >> below) as u32 & 1;
            below = c;
            f.blocked += (r > min_rank) as u32;
            min_rank = min_rank.min(r);
            if SAME_SUIT {
                let su = suit(c) as usize;
                f.blocked_same_suit += (r > min_of_suit[su]) as u32;
                min_of_suit[su] = min_of_suit[su].min(r);
            }
            if (needed >> (c & 63)) & 1 != 0 {
                f.next_depth += top - depth as u32;
            }
        }
        f.out_of_sequence += top - in_sequence;
    }
    for j in 0..FREECELLS {
        if s.cells[j] != EMPTY {
            f.used_cells += 1;
        }
    }
    f
}

/// Weights of a linear evaluation `sum(weight * feature)` (lower is better).
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// Per card not home.
    pub remaining: i32,
    /// Per blocked cascade card.
    pub blocked: i32,
    /// Per card above the next needed card of a suit.
    pub next_depth: i32,
    /// Per occupied freecell.
    pub used_cells: i32,
    /// Per empty cascade (usually negative: a bonus).
    pub empty_cols: i32,
    /// Per cascade card out of sequence.
    pub out_of_sequence: i32,
}

impl Weights {
    /// Evaluate a position.
    #[inline]
    pub fn eval(&self, f: &Features) -> i32 {
        self.remaining * f.remaining as i32
            + self.blocked * f.blocked as i32
            + self.next_depth * f.next_depth as i32
            + self.used_cells * f.used_cells as i32
            + self.empty_cols * f.empty_cols as i32
            + self.out_of_sequence * f.out_of_sequence as i32
    }
}

/// A lower bound on the single-card moves still needed: one per card not home, plus one per
/// card lying above a lower card of its own suit (it must leave the cascade before that card
/// goes home, and go home later).
#[inline]
pub fn admissible(f: &Features) -> u32 {
    f.remaining + f.blocked_same_suit
}
