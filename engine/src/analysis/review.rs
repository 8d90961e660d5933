//! The review of a game, what a chess player's game review gives, for FreeCell: the
//! evaluation graph (the shortest known win at each step, FreeCell's counterpart of a
//! chess engine's evaluation), each move's class, and an accuracy figure. Read from the
//! [`Findings`] alone; shared by `analyze --report`'s review page and the service's
//! analysis (`serve`'s `POST /api/analyze`).
//!
//! The classes, from a move's `cost` (how many moves longer the shortest known win got,
//! `1 + after - before`; see [`super::findings::MoveRow`]):
//! - **best**: cost 0, the move keeps the shortest known win (it is on a shortest known line);
//! - **good**: cost 1 up to the costly threshold (`--costly`, default 10) less one;
//! - **costly**: cost at least the threshold;
//! - **losing**: the position before it was winnable, the one after it is proved lost;
//! - no class: a move whose position before or after is not decided, or played once the
//!   game was already lost.
//!
//! Accuracy: the share of the classified moves that are best or good, in percent (one
//! decimal); null when no move is classified.

use super::findings::{Findings, MoveRow};
use serde::Serialize;

/// A move's class (see the module's front page for the definitions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Keeps the shortest known win (cost 0).
    Best,
    /// Makes the shortest known win longer by less than the costly threshold.
    Good,
    /// Makes the shortest known win longer by the costly threshold or more.
    Costly,
    /// Turns a winnable position into a lost one.
    Losing,
}

impl Class {
    /// The class's name, as the JSON and the page write it.
    pub fn word(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Good => "good",
            Class::Costly => "costly",
            Class::Losing => "losing",
        }
    }
}

/// One point of the evaluation graph: the position after `step` moves (0: the start).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Point {
    /// Moves played before it.
    pub step: usize,
    /// `winnable`, `lost` or `unknown`.
    pub verdict: &'static str,
    /// Moves of the shortest known win from it (null unless winnable).
    pub moves_to_win: Option<usize>,
}

/// How many moves each class has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Moves of class best.
    pub best: usize,
    /// Moves of class good.
    pub good: usize,
    /// Moves of class costly.
    pub costly: usize,
    /// Moves of class losing (0 or 1).
    pub losing: usize,
    /// Moves with no class (undecided, or played after the game was lost).
    pub unclassified: usize,
}

/// The review: the graph's points, the classes, their counts, the accuracy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Review {
    /// One point per position, the start first: one more than there are moves.
    pub points: Vec<Point>,
    /// Each move's class (null: none), in game order.
    pub classes: Vec<Option<Class>>,
    /// How many moves each class has.
    pub counts: Counts,
    /// The share of classified moves that are best or good, percent, one decimal (null
    /// when no move is classified).
    pub accuracy: Option<f64>,
    /// The step (1-based) of the losing move, if one is known.
    pub losing_step: Option<usize>,
    /// The cost (moves) from which a move is costly.
    pub costly_threshold: usize,
}

/// The class of the move of `row`, the costly threshold being `threshold` moves.
pub fn classify(row: &MoveRow, threshold: usize) -> Option<Class> {
    if row.mark == Some("losing") {
        return Some(Class::Losing);
    }
    match row.cost? {
        0 => Some(Class::Best),
        c if c >= threshold.max(1) => Some(Class::Costly),
        _ => Some(Class::Good),
    }
}

/// The review of the game `f` tells.
pub fn review(f: &Findings) -> Review {
    let mut points = vec![Point {
        step: 0,
        verdict: f.start_verdict,
        moves_to_win: f.start_moves_to_win,
    }];
    points.extend(f.moves.iter().map(|r| Point {
        step: r.step,
        verdict: r.verdict,
        moves_to_win: r.moves_to_win,
    }));
    let classes: Vec<Option<Class>> = f
        .moves
        .iter()
        .map(|r| classify(r, f.costly_threshold))
        .collect();
    let mut counts = Counts::default();
    for c in &classes {
        *match c {
            Some(Class::Best) => &mut counts.best,
            Some(Class::Good) => &mut counts.good,
            Some(Class::Costly) => &mut counts.costly,
            Some(Class::Losing) => &mut counts.losing,
            None => &mut counts.unclassified,
        } += 1;
    }
    Review {
        points,
        classes,
        counts,
        accuracy: accuracy(&counts),
        losing_step: f.first_losing_step,
        costly_threshold: f.costly_threshold,
    }
}

/// The share of classified moves that are best or good, percent, one decimal.
pub fn accuracy(c: &Counts) -> Option<f64> {
    let classified = c.best + c.good + c.costly + c.losing;
    (classified > 0).then(|| {
        let share = 100.0 * (c.best + c.good) as f64 / classified as f64;
        (share * 10.0).round() / 10.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cost: Option<usize>, mark: Option<&'static str>) -> MoveRow {
        MoveRow {
            step: 1,
            mv: "3a".into(),
            verdict: "winnable",
            moves_to_win: None,
            moves_to_win_before: None,
            change: None,
            cost,
            best_move: None,
            source: "searched".into(),
            limit: None,
            mark,
        }
    }

    #[test]
    fn moves_are_classed_by_their_cost() {
        let cases = [
            (Some(0), None, Some(Class::Best)),
            (Some(1), None, Some(Class::Good)),
            (Some(9), None, Some(Class::Good)),
            (Some(10), Some("costly"), Some(Class::Costly)),
            (None, Some("losing"), Some(Class::Losing)),
            (None, None, None),
        ];
        for (cost, mark, want) in cases {
            assert_eq!(classify(&row(cost, mark), 10), want, "{cost:?} {mark:?}");
        }
    }

    #[test]
    fn accuracy_is_the_share_of_best_and_good_moves() {
        let c = Counts {
            best: 5,
            good: 1,
            costly: 2,
            losing: 1,
            unclassified: 7,
        };
        assert_eq!(accuracy(&c), Some(66.7));
        assert_eq!(accuracy(&Counts::default()), None);
    }
}
