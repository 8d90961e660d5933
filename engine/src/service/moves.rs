//! Moves: their output form ([`JsonMove`], the solution document's move without its
//! `step`), the legal moves of a position, and a move read and applied by the validator.

use super::{position_out, PositionOut, ServiceError};
use fcauto_deals::{Board, Card};
use fcauto_solver::validator::{apply_checked, stacks_on, StepMove};
use fcauto_solver::{supermove_limit, JsonMove, Loc, Move, PlayedMove};
use serde::Serialize;

/// A played move's output form, `b` the position it is played from: [`JsonMove::played`]
/// (every field but `step`; the notation carries the count where a plain one would read as
/// another move: `38v1`).
pub fn move_out(b: &Board, p: PlayedMove) -> JsonMove {
    JsonMove::played(b, p)
}

/// `legal_moves`: every legal move of a position, each checked by the validator: every
/// source (cascades `1`..`8`, then freecells `a`..`d`) and destination (the foundations `h`,
/// cascades, freecells) whose move [`apply_move`] accepts, a run of cards once per legal
/// size (smallest first). Symmetric moves are all listed (`1a` and `1b` with two empty
/// freecells, a move to each empty cascade, `ab`, a whole cascade onto an empty one).
pub fn legal_moves(b: &Board) -> Vec<JsonMove> {
    let mut moves = Vec::new();
    for from in places().filter(|&l| l != Loc::Foundation) {
        for to in places().filter(|&l| l != from) {
            for count in 1..=max_count(b, from, to) {
                let m = Move { from, to, count };
                let Some(card) = moved_card(b, m) else { break };
                if apply_checked(&mut b.clone(), &step(m, card)).is_ok() {
                    moves.push(move_out(b, PlayedMove { mv: m, card }));
                }
            }
        }
    }
    moves
}

/// Every place in listing order: the foundations, cascades `1`..`8`, freecells `a`..`d`.
fn places() -> impl Iterator<Item = Loc> {
    let cascades = (0..fcauto_deals::CASCADES as u8).map(Loc::Cascade);
    let freecells = (0..fcauto_deals::FREECELLS as u8).map(Loc::Freecell);
    std::iter::once(Loc::Foundation)
        .chain(cascades)
        .chain(freecells)
}

/// The most cards a move from `from` to `to` could take: the top run of a cascade for a
/// cascade-to-cascade move (the validator refuses any longer one), else 1.
fn max_count(b: &Board, from: Loc, to: Loc) -> u8 {
    let (Loc::Cascade(i), Loc::Cascade(_)) = (from, to) else {
        return 1;
    };
    top_run(&b.cascades[i as usize]) as u8
}

/// The length of the run (descending, alternating colours) on top of a cascade; 0 if empty.
fn top_run(col: &[Card]) -> usize {
    let mut run = usize::from(!col.is_empty());
    while run < col.len() && stacks_on(col[col.len() - run - 1], col[col.len() - run]) {
        run += 1;
    }
    run
}

/// The card a move would move (deepest of a run), if the source holds enough cards.
fn moved_card(b: &Board, m: Move) -> Option<Card> {
    crate::analysis::replay::moved_card(b, m.from, m.count)
}

fn step(m: Move, card: Card) -> StepMove {
    StepMove {
        from: m.from,
        to: m.to,
        count: Some(m.count),
        card: Some(card),
    }
}

/// What [`apply_move`] answers (`P`: the position's output form, [`PositionOut`] for
/// standard FreeCell).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ApplyOut<P = PositionOut> {
    /// Whether the move was legal (and so applied).
    pub legal: bool,
    /// The rule it breaks, when illegal.
    pub broken_rule: Option<String>,
    /// The move as applied (its count filled in), when legal.
    #[serde(rename = "move")]
    pub mv: Option<JsonMove>,
    /// The safe auto-moves to the foundations made after it (when asked), in order.
    pub autoplayed: Vec<JsonMove>,
    /// The new position (the unchanged one when illegal).
    #[serde(flatten)]
    pub position: P,
}

/// A move as the client gives it: standard notation, with an optional count for a run
/// (`"38"`, `"38"` + `count: 3`, or fc-solve's `"38v3"`). A count outside 1..=13 (the
/// cards of a run) is bad input, whatever the move, in these words over HTTP and MCP alike
/// (not an illegal move, nor serde's "expected u8").
pub fn parse_move(text: &str, count: Option<i64>) -> Result<StepMove, ServiceError> {
    let count = match count {
        Some(c) if !(1..=13).contains(&c) => {
            return Err(ServiceError::bad_input(format!(
                "count {c} is no number of cards in a run: give 1..13, or leave it out for the \
                 longest run that fits"
            )))
        }
        c => c.map(|c| c as u8),
    };
    let t = text.trim();
    let mut m = fcauto_solver::standard::parse_token(t).ok_or_else(|| {
        ServiceError::bad_input(format!(
            "`{t}` is not a move in standard notation (e.g. `3a`, `a3`, `3h`, `38`)"
        ))
    })?;
    match (m.count, count) {
        (Some(said), Some(given)) if said != given => Err(ServiceError::bad_input(format!(
            "`{t}` moves {} and count says {given}: give one of them, or the same",
            fcauto_deals::plural(said, "card")
        ))),
        (_, Some(given)) => {
            m.count = Some(given);
            Ok(m)
        }
        _ => Ok(m),
    }
}

/// `apply_move`: apply `m` to `b` if legal, then (if `autoplay`) the safe auto-moves.
/// An illegal move gives `legal: false`, the rule, and the unchanged position.
pub fn apply_move(b: &Board, m: StepMove, autoplay: bool) -> ApplyOut {
    let mut next = b.clone();
    let m = resolve_count(b, m);
    match apply_checked(&mut next, &m) {
        Err(rule) => ApplyOut {
            legal: false,
            broken_rule: Some(rule),
            mv: None,
            autoplayed: vec![],
            position: position_out(b),
        },
        Ok(_) => {
            let played = played(b, &m);
            let autoplayed = if autoplay {
                auto_moves(&mut next)
            } else {
                vec![]
            };
            ApplyOut {
                legal: true,
                broken_rule: None,
                mv: played.map(|p| move_out(b, p)),
                autoplayed,
                position: position_out(&next),
            }
        }
    }
}

/// A cascade-to-cascade move without a count takes the longest run that fits the
/// destination (what a player means by `38`): onto a card, the run from the one card that
/// fits it; onto an empty cascade, as much of the top run as the supermove limit allows. The
/// validator then judges the move.
fn resolve_count(b: &Board, m: StepMove) -> StepMove {
    let (Loc::Cascade(i), Loc::Cascade(j), None) = (m.from, m.to, m.count) else {
        return m;
    };
    let (Some(src), Some(dst)) = (b.cascades.get(i as usize), b.cascades.get(j as usize)) else {
        return m;
    };
    let run = top_run(src);
    let count = match dst.last() {
        Some(&top) => (1..=run)
            .find(|&k| stacks_on(top, src[src.len() - k]))
            .unwrap_or(1),
        None => {
            let free = b.freecells.iter().filter(|c| c.is_none()).count();
            let empty = b.cascades.iter().filter(|c| c.is_empty()).count();
            run.min(supermove_limit(free, empty, true)).max(1)
        }
    };
    StepMove {
        count: Some(count as u8),
        ..m
    }
}

/// The played move (count and card filled in) of a legal step.
fn played(b: &Board, m: &StepMove) -> Option<PlayedMove> {
    let count = m.count.unwrap_or(1);
    let mv = Move {
        from: m.from,
        to: m.to,
        count,
    };
    Some(PlayedMove {
        mv,
        card: moved_card(b, mv)?,
    })
}

/// Play the safe auto-moves on `b` (the solver's rule: aces, twos, and cards whose
/// opposite-colour foundations hold their rank minus one), each applied by the validator.
fn auto_moves(b: &mut Board) -> Vec<JsonMove> {
    let mut s = fcauto_solver::state::State::from_board(b);
    let mut found = vec![];
    fcauto_solver::movegen::autoplay(&mut s, |m, c| found.push((m, c)));
    let mut out = vec![];
    for (m, c) in found {
        let card = Card::from_id(c).expect("the solver moves real cards");
        let before = b.clone();
        if apply_checked(b, &step(m, card)).is_err() {
            break; // cannot happen: the validator and the solver agree (property-tested)
        }
        out.push(move_out(&before, PlayedMove { mv: m, card }));
    }
    out
}
