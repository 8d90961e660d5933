//! The FreeCell family's solver: one rules-driven search for every game of
//! [`fcauto_deals::GAMES`] other than standard FreeCell (which keeps its own fast path in
//! [`crate::rules`] and [`crate::search`]), and for FreeCell with another number of
//! freecells.
//!
//! - `state`: the position (fixed arrays sized by `MAX_CASCADES` and `MAX_FREECELLS`), its
//!   canonical fingerprint, its packed form.
//! - `moves`: every atomic move under a [`Rules`], and the safe auto-moves to the foundations.
//! - `complete`: the complete search (depth first over canonical positions): the only one
//!   whose exhaustion is reported as "unsolvable" without a best-first try first.
//! - `best_first`: the heuristic search the `fast` and `short` modes try first, and again
//!   with other weights when the complete search reaches its limit.
//! - `shortcut`: a found solution cut short where a move reaches a later position of it.
//! - `optimal`: the optimal modes' A* (fewest single-card moves, or fewest moves with a
//!   sequence move counted as one), with its admissible bound and its proof that the safe
//!   auto-moves keep the optimum.
//! - [`validator`]: the independent validator every solution passes before it is returned.
//! - [`notation`]: places, moves, standard notation with 10 cascades and 8 freecells, JSON.
//! - [`named`]: the one reader of the game a text names (a family JSON's `game`, a position
//!   string's `name:`, a `# start:` line), for every front end.
//! - [`fcs_table`]: fc-solve's table layout of a position (`-sam` without `-p`), any size.
//! - [`reading`]: the one reader of move texts (fcauto's and fc-solve's standard notation,
//!   annotated games and their `# start:`), and the counts left out found by backtracking.
//! - [`play`]: one move at a time for a referee: legal moves, a move applied by the
//!   validator, the safe auto-moves.

mod best_first;
mod complete;
pub mod fcs_table;
#[cfg(test)]
mod layered;
mod moves;
pub mod named;
pub mod notation;
mod optimal;
pub mod play;
pub mod reading;
mod shortcut;
mod state;
mod table;
pub mod validator;

#[cfg(test)]
mod tests;

pub use named::{named_game, NamedBy, NamedGame};
pub use notation::{
    has_fcs_move_lines, read_fcs_moves, read_fcs_output, standard_tokens, FamilyJsonMove,
    FamilyMove, FamilyReadError, FamilySolutionJson, Place,
};
pub use optimal::{single_card_count, DEFAULT_OPTIMAL_STATES};
pub use reading::{
    read_family_text, read_standard, resolve_family_counts, FamilyText, FamilyTextError, Resolved,
    WrittenMove,
};
pub use state::LayoutError;
pub use validator::{validate_family, FamilyValidationError};

use crate::StopReason;
use best_first::{Weights, WEIGHTS};
use fcauto_deals::{Layout, Rules};
use state::{Pos, CELL0, HOME, M};

/// Positions the complete search may visit unless told otherwise (its visited set takes 8
/// bytes a slot, at most sixteen fifteenths of a slot a position: about 345 MB at this limit;
/// the search path adds its open positions' move lists).
pub const DEFAULT_MAX_STATES: usize = 40_000_000;
/// One best-first try: how much each move made counts against a position, the estimate's
/// weights, positions stored.
type Try = (u32, Weights, usize);
/// `fast`'s best-first tries before the complete search. The first finds most solutions;
/// the second, which prefers shorter paths, finds some the first wanders past (2-freecell
/// deals 267 and 394).
const BEST_FIRST_TRIES: [Try; 2] = [(0, WEIGHTS, 300_000), (3, WEIGHTS, 1_000_000)];
/// `short`'s tries: shorter paths preferred from the start.
const SHORT_TRIES: [Try; 2] = [(2, WEIGHTS, 300_000), (3, WEIGHTS, 1_000_000)];
/// The tries `fast` and `short` make when the complete search reaches its limit, with other
/// weights (the first three: filled freecells and empty cascades count twice as much, buried
/// next cards half as much; the last: cards lying on a lower card count twice as much): each
/// finds solutions of 2-freecell deals whose search space the others wander in (3311 and
/// 31551; 6407; 27738; 16322). Only deals that would be "unknown" pay for them.
const LAST_TRIES: [Try; 4] = [
    (8, [3, 6, 2, 6, 6], 1_000_000),
    (0, [3, 4, 2, 8, 8], 1_000_000),
    (0, [3, 6, 2, 6, 6], 1_000_000),
    (0, [3, 8, 2, 4, 4], 1_000_000),
];

/// How the family solver searches. Every mode's verdict is exact: "unsolvable" only after a
/// search over every legal move has visited every reachable position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FamilyMode {
    /// Best-first for the first solution found, then the complete search, then (when it
    /// reaches its limit) best-first tries with other weights.
    Fast,
    /// Best-first with each move made counting against a position (shorter solutions), then
    /// the complete search, then the same last tries as `Fast`.
    Short,
    /// The complete search alone (depth first).
    Complete,
    /// A* for the fewest single-card moves (only single cards are played; foundation moves,
    /// auto-moves included, count one each): the limited-sequence games only
    /// ([`FamilyMode::refusal`]).
    Optimal,
    /// A* for the fewest moves, a sequence move within the game's limit (any run, in the
    /// unlimited-sequence games) counted as one: every game.
    OptimalMoves,
}

/// A validated solution of a family game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FamilySolution {
    /// The moves, auto-moves to the foundations included.
    pub moves: Vec<FamilyMove>,
    /// Each move in standard notation.
    pub tokens: Vec<String>,
}

/// What the family solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FamilyOutcome {
    /// Solved, and the solution passed [`validate_family`].
    Solved(FamilySolution),
    /// Every reachable position was visited: no solution.
    Unsolvable,
    /// A limit stopped the search.
    Unknown(StopReason),
}

/// How much the searches did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FamilyStats {
    /// Positions the best-first tries stored, all tries together (0 when none ran).
    pub best_first: usize,
    /// Distinct positions the complete search visited, or the optimal modes' A* stored (0
    /// when neither ran).
    pub complete: usize,
    /// When unsolvable: the positions reachable from the start, all visited by the search
    /// that ran dry (0 otherwise).
    pub reachable: usize,
}

/// Why the family solver has no outcome.
#[derive(Debug, thiserror::Error)]
pub enum FamilyError {
    /// The layout does not fit the rules or is not a full deck.
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// The validator refused the search's own solution: a solver bug, never shown as a
    /// solution. (Its reason is in the message, not a source: a chain printed whole would
    /// say it twice.)
    #[error("internal error: the validator rejected the family search's solution: {0}")]
    Rejected(FamilyValidationError),
    /// The mode does not play these rules ([`FamilyMode::refusal`]'s line).
    #[error("{0}")]
    Mode(String),
}

impl From<FamilyValidationError> for FamilyError {
    fn from(e: FamilyValidationError) -> FamilyError {
        FamilyError::Rejected(e)
    }
}

/// Solve `layout` under `rules`; the complete search visits at most `max_states` positions
/// ([`DEFAULT_MAX_STATES`] when `None`; the optimal modes' A* stores at most that many,
/// [`DEFAULT_OPTIMAL_STATES`] when `None`). Every solution returned has passed
/// [`validate_family`].
pub fn solve_family(
    layout: &Layout,
    rules: &Rules,
    mode: FamilyMode,
    max_states: Option<usize>,
) -> Result<(FamilyOutcome, FamilyStats), FamilyError> {
    if let Some(why) = mode.refusal(rules) {
        return Err(FamilyError::Mode(why));
    }
    if let Some(metric) = mode.metric() {
        return optimal::solve(layout, rules, metric, max_states);
    }
    let start = Pos::from_layout(layout, rules)?;
    let max = max_states.unwrap_or(DEFAULT_MAX_STATES).max(1);
    let mut stats = FamilyStats::default();
    let tries: &[Try] = match mode {
        FamilyMode::Fast => &BEST_FIRST_TRIES,
        FamilyMode::Short => &SHORT_TRIES,
        FamilyMode::Complete | FamilyMode::Optimal | FamilyMode::OptimalMoves => &[],
    };
    if let Some(found) = best_first_tries(layout, rules, &start, tries, max, &mut stats)? {
        return Ok((found, stats));
    }
    // `fast` and `short` search completely first as far as the ordered phase goes; at its
    // limit the last tries come before the proof phase, whose depth-first solutions can run
    // to thousands of moves where a best-first try finds a hundred.
    let (first, last): (usize, &[Try]) = match mode {
        FamilyMode::Complete => (max, &[]),
        _ => (max.min(complete::ORDERED), &LAST_TRIES),
    };
    let (end, visited) = complete::dfs(&start, rules, first);
    match settle(layout, rules, &start, (end, visited), &mut stats)? {
        Some(found) => return Ok((found, stats)),
        None => {
            if let Some(found) = best_first_tries(layout, rules, &start, last, max, &mut stats)? {
                return Ok((found, stats));
            }
        }
    }
    if max > first {
        // The proof phase from the start again, its children checked, not ordered.
        let (end, visited) = complete::dfs_ordering(&start, rules, max, 0);
        if let Some(found) = settle(layout, rules, &start, (end, visited), &mut stats)? {
            return Ok((found, stats));
        }
    }
    Ok((FamilyOutcome::Unknown(StopReason::StateLimit(max)), stats))
}

/// The outcome of a complete search that ended with `end` after `visited` positions: a
/// solution (cut short and validated) or a proof; `None` at its limit.
fn settle(
    layout: &Layout,
    rules: &Rules,
    start: &Pos,
    (end, visited): (complete::End, usize),
    stats: &mut FamilyStats,
) -> Result<Option<FamilyOutcome>, FamilyError> {
    stats.complete = visited;
    match end {
        complete::End::Solved(ms) => {
            let ms = shortcut::shortcut(start, rules, &ms);
            checked(layout, rules, &ms, *stats).map(|(found, _)| Some(found))
        }
        complete::End::Exhausted => {
            stats.reachable = visited;
            Ok(Some(FamilyOutcome::Unsolvable))
        }
        complete::End::Limit => Ok(None),
    }
}

/// Run `tries` in turn (each stores at most `max` positions); the first that ends decides:
/// a solution (validated) or an open list run dry (every reachable position stored). `None`
/// when every try ran out of budget.
fn best_first_tries(
    layout: &Layout,
    rules: &Rules,
    start: &Pos,
    tries: &[Try],
    max: usize,
    stats: &mut FamilyStats,
) -> Result<Option<FamilyOutcome>, FamilyError> {
    for (g_weight, weights, budget) in tries {
        let (end, stored) =
            best_first::search(start, rules, (*budget).min(max), *g_weight, weights);
        stats.best_first += stored;
        match end {
            best_first::End::Solved(ms) => {
                let ms = shortcut::shortcut(start, rules, &ms);
                return checked(layout, rules, &ms, *stats).map(|(found, _)| Some(found));
            }
            best_first::End::Exhausted => {
                stats.reachable = stored;
                return Ok(Some(FamilyOutcome::Unsolvable));
            }
            best_first::End::Budget => {}
        }
    }
    Ok(None)
}

/// The search's moves as [`FamilyMove`]s, validated.
fn checked(
    layout: &Layout,
    rules: &Rules,
    ms: &[M],
    stats: FamilyStats,
) -> Result<(FamilyOutcome, FamilyStats), FamilyError> {
    let moves: Vec<FamilyMove> = ms.iter().map(|&m| public(m)).collect();
    validate_family(layout, rules, &moves)?;
    let tokens = standard_tokens(layout, rules, &moves).expect("validated moves replay");
    Ok((
        FamilyOutcome::Solved(FamilySolution { moves, tokens }),
        stats,
    ))
}

fn place(loc: u8) -> Place {
    match loc {
        HOME => Place::Foundation,
        l if l >= CELL0 => Place::Freecell(l - CELL0),
        l => Place::Cascade(l),
    }
}

fn public(m: M) -> FamilyMove {
    FamilyMove {
        from: place(m.from),
        to: place(m.to),
        count: m.count,
    }
}

/// True when `card`, playable onto its foundation in a position whose foundations hold
/// `foundations`, is one the family search's auto-play sends home by itself (no card still
/// off the foundations could need it under `rules`' build order).
pub fn is_safe_home(rules: &Rules, foundations: &[u8; 4], card: fcauto_deals::Card) -> bool {
    moves::safe_home(rules, foundations, card.id())
}
