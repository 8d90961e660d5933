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
}

/// Compute [`Features`] of a position in one pass over the cascades.
#[inline]
pub fn features(s: &State) -> Features {
    let mut f = Features {
        remaining: 52 - s.home() as u32,
        ..Default::default()
    };
    for i in 0..CASCADES {
        let col = s.col(i);
        if col.is_empty() {
            f.empty_cols += 1;
            continue;
        }
        let mut min_rank = u8::MAX;
        let mut min_of_suit = [u8::MAX; 4];
        for (depth, &c) in col.iter().enumerate() {
            let r = rank(c);
            if r > min_rank {
                f.blocked += 1;
            }
            if r > min_of_suit[suit(c) as usize] {
                f.blocked_same_suit += 1;
            }
            min_rank = min_rank.min(r);
            let su = suit(c) as usize;
            min_of_suit[su] = min_of_suit[su].min(r);
            if s.found[su] == r {
                f.next_depth += (col.len() - 1 - depth) as u32;
            }
        }
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
    }
}

/// A lower bound on the single-card moves still needed: one per card not home, plus one per
/// card lying above a lower card of its own suit (it must leave the cascade before that card
/// goes home, and go home later).
#[inline]
pub fn admissible(f: &Features) -> u32 {
    f.remaining + f.blocked_same_suit
}
