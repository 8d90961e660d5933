//! Position evaluation for the best-first searches: the weights of the position's counts
//! ([`Features`], counted in [`crate::rules::features`]) and the admissible bound the
//! optimal modes use.

pub use crate::rules::features::*;

/// Weights of a linear evaluation `sum(weight * feature)` (lower is better).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
