//! The search portfolios as data: best-first configurations (evaluation weights, path
//! weight, noise, move set), `fast`'s list of tries (configuration, budget, stall limit),
//! `short`'s rounds and anytime searches. [`super::solve`] runs them, each try a
//! best-first search (`best_first.rs`, `packed_first.rs`).

use crate::heuristic::{Features, Weights};
use crate::movegen::AutoPlay;

/// One best-first configuration: evaluation weights and the weight of the path cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Params {
    pub(super) weights: Weights,
    pub(super) g_weight: i32,
    /// Random tie-breaking: 0..noise is added to each priority (0 = none).
    pub(super) noise: u32,
    /// Seed of that noise.
    pub(super) seed: u64,
    /// Search [`crate::movegen::generate_pruned`]'s reduced move set: faster, but running dry proves
    /// nothing.
    pub(super) pruned: bool,
}

impl Params {
    /// The open list's priority of a position: the weighted evaluation of its features
    /// `f`, its path cost `g` (single-card moves), and the configuration's noise drawn
    /// from its fingerprint `fp`. Lower comes first.
    #[inline(always)]
    pub(super) fn priority(&self, f: &Features, g: u32, fp: u128) -> i64 {
        let noise = if self.noise == 0 {
            0
        } else {
            (crate::state::mix64(fp as u64 ^ self.seed) % self.noise as u64) as i64
        };
        self.weights.eval(f) as i64 + self.g_weight as i64 * g as i64 + noise
    }
}

const fn w(
    remaining: i32,
    blocked: i32,
    next_depth: i32,
    used_cells: i32,
    empty_cols: i32,
    g_weight: i32,
) -> Params {
    Params {
        weights: Weights {
            remaining,
            blocked,
            next_depth,
            used_cells,
            empty_cols,
            out_of_sequence: 0,
        },
        g_weight,
        noise: 0,
        seed: 0,
        pruned: false,
    }
}

/// One try of `fast`'s portfolio: a best-first configuration, the most positions it may
/// store, how many expansions without bringing a card home further it may spend (0 =
/// no such limit), and its auto-play rule. Every try starts from scratch.
#[derive(Clone, Copy, Debug)]
pub(super) struct Try {
    pub(super) params: Params,
    pub(super) budget: usize,
    pub(super) stall: u64,
    /// [`AutoPlay::Greedy`] only over the reduced move set (a try over all moves must be
    /// able to prove): [`greedy`] checks it.
    pub(super) autoplay: AutoPlay,
    /// Unpark after each move ([`crate::movegen::unpark_by`]): only over the reduced move
    /// set, as [`AutoPlay::Greedy`].
    pub(super) unpark: bool,
}

/// A try of `params` storing at most `budget` positions, stopped after `stall` expansions
/// without a card home further (0: never), with safe auto-play, unparking over the reduced
/// move set.
pub(super) const fn t(params: Params, budget: usize, stall: u64) -> Try {
    Try {
        params,
        budget,
        stall,
        autoplay: AutoPlay::Safe,
        unpark: UNPARK && params.pruned,
    }
}

/// `try_` with [`AutoPlay::Greedy`]: every card that can go home goes at once.
const fn greedy(try_: Try) -> Try {
    assert!(
        try_.params.pruned,
        "greedy auto-play proves nothing: reduced moves only"
    );
    Try {
        autoplay: AutoPlay::Greedy,
        ..try_
    }
}

/// `fast`'s tries, in order (those whose budget is above the caller's limit are left
/// out), then [`FAST_LAST`] at [`LAST_BUDGET`] and at the caller's limit, then
/// [`FAST_COMPLETE`]. Runtimes of greedy
/// search are heavy-tailed: many short tries of differently weighted or randomised
/// configurations (which get lost on different deals) cut the tail, longer ones follow.
///
/// Chosen by simulated annealing over lists of tries, each scored on recorded runs (up to
/// 50,000 positions) of candidate configurations, minimising positions expanded (plus 3 per
/// try started) with the mean moves_total held at most 93. A try is deterministic, and one
/// with a budget or stall limit is a prefix of the longer run, so a list's cost follows
/// from the recordings. This list (2026-12-02): 61 candidates (25 with safe auto-play, 36
/// with greedy) recorded on deals 1..32000, 100001..132000 and 200001..232000; checked on
/// 300001..332000, which no choice saw: 4.82M positions against 5.35M for the list before
/// (10% fewer; p90 251 against 293), mean moves_total 92.08 against 91.19. On 1..32000:
/// 4.80M against 5.21M; on 1..1,000,000, 156.2M against 170.9M.
///
/// The annealing made the last try greedy too; it is safe here: over deals 1..1,000,000 the
/// greedy one left 496564 to the rounds at the caller's limit (1,288,349 positions, 1M
/// stored by one search: 97 MiB a thread), which the safe one solves in 11,797.
///
/// Six of the twelve tries auto-play greedily ([`greedy`]: every card that can go home
/// goes): fewer cards stay on the table, so positions have fewer moves and the first
/// solution comes sooner. The deals greedy auto-play spoils (1941) go on to the safe tries
/// between and after them. The first tries weigh cards out of sequence and occupied
/// freecells more than [`FAST_BASE`] does: lines that keep building down in sequence and
/// keep the freecells free reach a solution in fewer positions.
///
/// Every try here unparks ([`UNPARK`]), which the annealing did not know of (it was added
/// after, 2026-12-04): 4.23M positions against 4.80M on 1..32000, 4.03M against 4.82M on
/// 300001..332000, mean moves_total 93.27 against 91.98.
pub(super) const FAST_TRIES: [Try; 12] = [
    greedy(t(SEQUENCE_6_CELLS_16_BLOCKED_3, 20_000, 50)),
    greedy(t(noisy(SEQUENCE_6_CELLS_24, 15, 20), 30_000, 150)),
    t(DEPTH_3, 20_000, 100),
    greedy(t(noisy(SEQUENCE_6_CELLS_24, 30, 21), 30_000, 300)),
    t(noisy(SEQUENCE_6_CELLS_16, 30, 15), 50_000, 300),
    greedy(t(noisy(CELLS_12, 15, 7), 15_000, 2_000)),
    t(noisy(SEQUENCE_6_CELLS_12, 15, 13), 30_000, 500),
    t(noisy(SEQUENCE_4, 30, 12), 3_000, 500),
    t(FAST_ALT, 30_000, 30),
    greedy(t(SEQUENCE_3_DEPTH_3, 20_000, 150)),
    greedy(t(SEQUENCE_8_CELLS_24, 10_000, 150)),
    t(noisy(FAST_BASE, 60, 5), 50_000, 0),
];
/// Whether `fast`'s tries over the reduced move set unpark ([`crate::movegen::unpark_by`]):
/// 12% fewer positions over 1..32000 with all of them unparking, 10% with only the greedy
/// ones (and about the same CPU time as all).
const UNPARK: bool = true;
/// Whether [`FAST_LAST`]'s tries unpark.
pub(super) const LAST_UNPARK: bool = UNPARK;
/// `fast`'s tries at [`LAST_BUDGET`] (or the caller's limit if lower), when [`FAST_TRIES`]
/// found nothing; then again at the caller's limit, if it is higher.
pub(super) const FAST_LAST: [Params; 4] = [FAST_BASE, SEQUENCE_1, FAST_ALT, FAST_SHORT];
/// The reference configuration (the first try until 2026-12-01): first of [`FAST_LAST`],
/// and over all moves [`FAST_COMPLETE`].
pub(super) const FAST_BASE: Params = pruned(with_sequence(w(6, 2, 2, 8, -8, 1), 2));
/// Path weighted twice as much, no sequence count: lost on other deals than [`FAST_BASE`].
pub(super) const FAST_ALT: Params = pruned(w(6, 4, 2, 5, -8, 2));
/// [`FAST_BASE`] with occupied freecells weighing more: a slower start, a shorter tail.
const CELLS_12: Params = pruned(with_sequence(w(6, 2, 2, 12, -8, 1), 2));
/// [`FAST_BASE`] with the next cards' depth weighing 3 (not 2).
const DEPTH_3: Params = pruned(with_sequence(w(6, 2, 3, 8, -8, 1), 2));
/// [`DEPTH_3`] with cards out of sequence weighing 3.
const SEQUENCE_3_DEPTH_3: Params = pruned(with_sequence(w(6, 2, 3, 8, -8, 1), 3));
/// [`FAST_BASE`] with cards out of sequence weighing 4.
const SEQUENCE_4: Params = pruned(with_sequence(w(6, 2, 2, 8, -8, 1), 4));
/// Cards out of sequence weighing 6 and occupied freecells 12.
const SEQUENCE_6_CELLS_12: Params = pruned(with_sequence(w(6, 2, 2, 12, -8, 1), 6));
/// Cards out of sequence weighing 6 and occupied freecells 16: keeps building down and
/// the freecells free.
const SEQUENCE_6_CELLS_16: Params = pruned(with_sequence(w(6, 2, 2, 16, -8, 1), 6));
/// [`SEQUENCE_6_CELLS_16`] with blocked cards weighing 3: the first try, which alone
/// solves about three deals in four.
const SEQUENCE_6_CELLS_16_BLOCKED_3: Params = pruned(with_sequence(w(6, 3, 2, 16, -8, 1), 6));
/// [`SEQUENCE_6_CELLS_16`] with occupied freecells weighing 24.
const SEQUENCE_6_CELLS_24: Params = pruned(with_sequence(w(6, 2, 2, 24, -8, 1), 6));
/// [`SEQUENCE_6_CELLS_24`] with cards out of sequence weighing 8.
const SEQUENCE_8_CELLS_24: Params = pruned(with_sequence(w(6, 2, 2, 24, -8, 1), 8));
/// `short`'s first configuration over the reduced move set.
const FAST_SHORT: Params = pruned(w(6, 4, 2, 3, -4, 2));
/// [`FAST_BASE`] with half the weight on cards out of sequence.
const SEQUENCE_1: Params = pruned(with_sequence(w(6, 2, 2, 8, -8, 1), 1));
/// `fast`'s last resort: [`FAST_BASE`] over all moves (its running dry is a proof).
pub(super) const FAST_COMPLETE: Params = Params {
    pruned: false,
    ..FAST_BASE
};

/// `p` over [`crate::movegen::generate_pruned`]'s reduced move set.
const fn pruned(p: Params) -> Params {
    let mut p = p;
    p.pruned = true;
    p
}

/// `p` with weight `out_of_sequence` per cascade card out of sequence.
const fn with_sequence(p: Params, out_of_sequence: i32) -> Params {
    let mut p = p;
    p.weights.out_of_sequence = out_of_sequence;
    p
}

/// `p` with priority noise 0..`amplitude` drawn from `seed`.
pub(super) const fn noisy(p: Params, amplitude: u32, seed: u64) -> Params {
    Params {
        weights: p.weights,
        g_weight: p.g_weight,
        noise: amplitude,
        seed: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        pruned: p.pruned,
    }
}
/// `short`: configurations that weigh the path length more.
pub(super) const SHORT: [Params; 3] = [
    w(6, 4, 2, 3, -4, 2),
    w(6, 4, 2, 5, -8, 2),
    w(6, 4, 2, 5, -8, 1),
];
/// `short`'s improvement of its first solution: anytime weighted A* (see
/// [`crate::astar::anytime_tail`]) from these points of the best solution so far (percent
/// of its moves: 0 is the deal), each with its budget (positions stored).
///
/// The search from the deal takes most of `short`'s time, and finds shorter solutions
/// until the end of its budget. 75,000 and 25,000 (not 100,000 and 30,000, 2026-12-06),
/// with the rescue search ([`ANYTIME_RESCUE`]): over deals 1..100 a mean of 81.91
/// single-card moves against 81.98, for 20% fewer positions.
pub(super) const ANYTIME_TAILS: [(usize, usize); 2] = [(0, 75_000), (20, 25_000)];
/// The weight of their bound against the path cost (numerator, denominator): 1.5.
pub(super) const ANYTIME_WEIGHT: (u32, u32) = (3, 2);
/// When the search from the deal finds nothing shorter (and does not prove that nothing is):
/// the same search with the bound weighted twice (budget, weight), which reaches deeper
/// positions sooner: on deals 49 and 70, whose first solutions (119 and 123 single-card
/// moves) the search at 1.5 does not improve in 200,000 positions, it finds 99 and 93 in
/// 60,000. Then the phases of [`FALLBACK`].
pub(super) const ANYTIME_RESCUE: (usize, (u32, u32)) = (60_000, (2, 1));
/// Best-first anytime phases and budgets (positions) for when the search from the deal finds
/// nothing: the path cost weighted 5, then 4, per single-card move against the evaluation.
pub(super) const FALLBACK: [(Params, usize); 2] = [
    (w(6, 6, 0, 3, -4, 5), 60_000),
    (w(6, 6, 0, 3, -4, 4), 40_000),
];
/// Moves per shortcut tried by the final shortening pass of `short`.
pub(super) const SHORTCUT_DEPTH: usize = 2;
/// The budget (positions stored) of [`FAST_LAST`]'s first round, and of `short`'s last
/// round: most deals these do not solve need a configuration other than the first, not
/// more positions; a deal that needs more (94717719 needs about 350k) gets them in a round
/// at the caller's limit.
pub(super) const LAST_BUDGET: usize = 200_000;
/// Budgets (positions stored) of `short`'s rounds, before the caller's limit (or
/// [`LAST_BUDGET`], if lower).
pub(super) const ROUNDS: [usize; 4] = [6_000, 30_000, 100_000, LAST_BUDGET];

/// The named configurations above with their names (for re-tuning, `tuning.rs`).
#[cfg(test)]
pub(super) fn named() -> Vec<(&'static str, Params)> {
    vec![
        ("FAST_BASE", FAST_BASE),
        ("FAST_ALT", FAST_ALT),
        ("CELLS_12", CELLS_12),
        ("DEPTH_3", DEPTH_3),
        ("SEQUENCE_3_DEPTH_3", SEQUENCE_3_DEPTH_3),
        ("SEQUENCE_4", SEQUENCE_4),
        ("SEQUENCE_6_CELLS_12", SEQUENCE_6_CELLS_12),
        ("SEQUENCE_6_CELLS_16", SEQUENCE_6_CELLS_16),
        (
            "SEQUENCE_6_CELLS_16_BLOCKED_3",
            SEQUENCE_6_CELLS_16_BLOCKED_3,
        ),
        ("SEQUENCE_6_CELLS_24", SEQUENCE_6_CELLS_24),
        ("SEQUENCE_8_CELLS_24", SEQUENCE_8_CELLS_24),
        ("FAST_SHORT", FAST_SHORT),
        ("SEQUENCE_1", SEQUENCE_1),
    ]
}

/// Noisy copies of the named configurations (configuration, amplitude, seed) that
/// re-tuning records besides today's tries.
#[cfg(test)]
pub(super) fn more_noise() -> Vec<(Params, u32, u64)> {
    vec![
        (SEQUENCE_6_CELLS_16_BLOCKED_3, 15, 31),
        (SEQUENCE_6_CELLS_16, 15, 32),
        (SEQUENCE_6_CELLS_24, 60, 33),
        (SEQUENCE_8_CELLS_24, 30, 34),
        (DEPTH_3, 30, 35),
        (SEQUENCE_3_DEPTH_3, 30, 36),
        (FAST_ALT, 30, 37),
        (CELLS_12, 30, 38),
        (FAST_BASE, 30, 39),
        (SEQUENCE_4, 15, 40),
    ]
}
