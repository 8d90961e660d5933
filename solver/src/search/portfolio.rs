//! The search portfolios as data: best-first configurations (evaluation weights, path
//! weight, noise, move set), `fast`'s list of tries (configuration, budget, stall limit),
//! `short`'s rounds and anytime searches. [`super::solve`] runs them, each try a
//! [`super::best_first`] search.

use crate::heuristic::{Features, Weights};
use crate::movegen::AutoPlay;

/// One best-first configuration: evaluation weights and the weight of the path cost.
#[derive(Clone, Copy, Debug)]
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
}

const fn t(params: Params, budget: usize, stall: u64) -> Try {
    Try {
        params,
        budget,
        stall,
        autoplay: AutoPlay::Safe,
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
/// Chosen by simulated annealing over lists of tries, each scored on recorded runs (up to
/// 50,000 positions) of 46 candidate configurations on deals 1..32000 and 100001..132000 (a
/// try is deterministic, and one with a budget or stall limit is a prefix of the longer
/// run), minimising positions expanded with the mean moves_total held at most 93, then
/// checked on 200001..232000 (2026-12-01: 5.61M positions against 7.27M for the list
/// before, mean moves_total 92.96 against 92.03). The first tries weigh cards out of
/// sequence more than [`FAST_BASE`] does: lines that keep building down in sequence reach
/// a solution in fewer positions (median 73 against 81).
///
/// The first, second and fourth tries auto-play greedily ([`greedy`]: every card that can
/// go home goes), chosen among subsets of the tries by the instructions `fast` executes on
/// deals 1..2000 (1.63 billion against 1.95; greedy for all ten tries: 2.03), and checked on
/// 100001..102000: 1.52 billion instructions against 1.76 (13.5% fewer), 7.9% fewer
/// positions, mean moves_total 90.97 against 92.89. Fewer cards stay on the table, so
/// positions have fewer moves and the first solution comes sooner; the deals greedy
/// auto-play spoils (1941) go on to the safe tries after them.
pub(super) const FAST_TRIES: [Try; 10] = [
    greedy(t(SEQUENCE_3, 20_000, 100)),
    greedy(t(SEQUENCE_6_CELLS_24, 4_000, 200)),
    t(noisy(SEQUENCE_6_CELLS_16, 30, 15), 2_000, 300),
    greedy(t(noisy(SEQUENCE_6_CELLS_16, 15, 14), 2_000, 100)),
    t(noisy(CELLS_12, 15, 7), 10_000, 3_000),
    t(PATH_1, 20_000, 200),
    t(SEQUENCE_8_CELLS_16, 3_000, 300),
    t(noisy(FAST_BASE, 60, 5), 50_000, 0),
    t(FAST_ALT, 2_000, 100),
    t(noisy(SEQUENCE_6_CELLS_16, 15, 14), 50_000, 0),
];
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
/// [`FAST_BASE`] with cards out of sequence weighing 3 (not 2): the first try, which
/// alone solves about 80% of deals, in fewer positions than [`FAST_BASE`] (median 73
/// against 81 run alone).
const SEQUENCE_3: Params = pruned(with_sequence(w(6, 2, 2, 8, -8, 1), 3));
/// Cards out of sequence weighing 6 and occupied freecells 16: keeps building down and
/// the freecells free; lost on other deals than [`SEQUENCE_3`].
const SEQUENCE_6_CELLS_16: Params = pruned(with_sequence(w(6, 2, 2, 16, -8, 1), 6));
/// [`SEQUENCE_6_CELLS_16`] with occupied freecells weighing 24.
const SEQUENCE_6_CELLS_24: Params = pruned(with_sequence(w(6, 2, 2, 24, -8, 1), 6));
/// [`SEQUENCE_6_CELLS_16`] with cards out of sequence weighing 8.
const SEQUENCE_8_CELLS_16: Params = pruned(with_sequence(w(6, 2, 2, 16, -8, 1), 8));
/// [`FAST_ALT`] with the path weighted as in [`FAST_BASE`] (`short`'s third configuration).
const PATH_1: Params = pruned(w(6, 4, 2, 5, -8, 1));
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
const fn noisy(p: Params, amplitude: u32, seed: u64) -> Params {
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
pub(super) const ANYTIME_TAILS: [(usize, usize); 2] = [(0, 100_000), (20, 30_000)];
/// The weight of their bound against the path cost (numerator, denominator): 1.5.
pub(super) const ANYTIME_WEIGHT: (u32, u32) = (3, 2);
/// Best-first anytime phases and budgets (positions) for when the search from the deal finds
/// nothing: the path cost weighted 5, then 4, per single-card move against the evaluation.
pub(super) const FALLBACK: [(Params, usize); 2] = [
    (w(6, 6, 0, 3, -4, 5), 60_000),
    (w(6, 6, 0, 3, -4, 4), 40_000),
];
/// Moves per shortcut tried by the final shortening pass of `short`.
pub(super) const SHORTCUT_DEPTH: usize = 2;
/// Most positions whose storage is reserved up front (a larger search grows its tables).
pub(super) const RESERVE_MAX: usize = 200_000;
/// The budget (positions stored) of [`FAST_LAST`]'s first round, and of `short`'s last
/// round: most deals these do not solve need a configuration other than the first, not
/// more positions; a deal that needs more (94717719 needs about 350k) gets them in a round
/// at the caller's limit.
pub(super) const LAST_BUDGET: usize = 200_000;
/// Budgets (positions stored) of `short`'s rounds, before the caller's limit (or
/// [`LAST_BUDGET`], if lower).
pub(super) const ROUNDS: [usize; 4] = [6_000, 30_000, 100_000, LAST_BUDGET];
