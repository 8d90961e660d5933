//! The family's independent validator: replays a move list on a [`Layout`] under any
//! [`Rules`], checking each move on its own terms (its source holds the cards, a run is in
//! build order, the sequence limit, the fill rule of empty cascades, freecell and foundation
//! rules), and the win at the end.
//!
//! It shares no code with the family search (`state`, `moves`): it keeps its own copy of the
//! build orders, the fill rule and the sequence limit, written from the rules' text, so that
//! a mistake in the search's move generation cannot pass here unseen.

use super::{FamilyMove, Place};
use fcauto_deals::game::{BuildOrder, EmptyFill, SequenceMove};
use fcauto_deals::{Card, Layout, Rules};

/// Why a move list is not a win.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FamilyValidationError {
    /// Move `step` (1-based) is illegal, for the reason given.
    #[error("move {step} ({notation}): {reason}")]
    Illegal {
        /// 1-based index of the move.
        step: usize,
        /// The move in standard notation.
        notation: String,
        /// What rule it breaks.
        reason: String,
    },
    /// The start is no position: a card twice, a card both on the table and on its
    /// foundation, or a foundation over 13.
    #[error("the start is no position: {0}")]
    BadStart(String),
    /// Every move is legal, but cards are left off the foundations.
    #[error("every move is legal but the game is not won: {home} of 52 cards home")]
    NotWon {
        /// Cards on the foundations at the end.
        home: usize,
    },
}

/// Replay `moves` from `start` under `rules`; the final layout when every move is legal
/// and every card ends home.
pub fn validate_family(
    start: &Layout,
    rules: &Rules,
    moves: &[FamilyMove],
) -> Result<Layout, FamilyValidationError> {
    if let Some(why) = impossible_start(start) {
        return Err(FamilyValidationError::BadStart(why));
    }
    let mut pos = start.clone();
    for (i, m) in moves.iter().enumerate() {
        play(&mut pos, rules, m).map_err(|reason| FamilyValidationError::Illegal {
            step: i + 1,
            notation: m.notation(),
            reason,
        })?;
    }
    if !pos.foundations.iter().all(|&f| f == 13) {
        let home = pos.foundations.iter().map(|&f| f as usize).sum();
        return Err(FamilyValidationError::NotWon { home });
    }
    Ok(pos)
}

/// Why `start` can be no position, if it cannot: a foundation over 13, a card twice, or a
/// card on the table that its foundation holds already. (Cards missing everywhere are
/// allowed: endgames are checked with the cards that matter only, and such a start is never
/// won.)
fn impossible_start(start: &Layout) -> Option<String> {
    if let Some(f) = start.foundations.iter().find(|&&f| f > 13) {
        return Some(format!("a foundation of {f} cards (at most 13)"));
    }
    let mut seen = 0u64;
    let cards = start
        .cascades
        .iter()
        .flatten()
        .chain(start.freecells.iter().flatten());
    for &c in cards {
        let bit = 1u64 << (c.suit().index() * 13 + c.rank().value() as usize - 1);
        if seen & bit != 0 {
            return Some(format!("{c} is there twice"));
        }
        seen |= bit;
        if c.rank().value() <= start.foundations[c.suit().index()] {
            return Some(format!("{c} is on the table and on its foundation"));
        }
    }
    None
}

/// Play one move on `pos`, checking it; the reason when it is illegal.
pub fn play_checked(pos: &mut Layout, rules: &Rules, m: &FamilyMove) -> Result<(), String> {
    play(pos, rules, m)
}

fn play(pos: &mut Layout, rules: &Rules, m: &FamilyMove) -> Result<(), String> {
    if m.count == 0 {
        return Err("moves no card".into());
    }
    // A place the game does not have is named first, whichever end of the move it is
    // (`99` in an 8-cascade game is refused as `9a` is).
    there(pos, m.from)?;
    there(pos, m.to)?;
    if m.from == m.to {
        return Err("moves cards onto themselves".into());
    }
    // The limit counts the empty freecells and cascades before the move: a cascade a run
    // leaves empty cannot carry part of that run.
    let most = match m.to {
        Place::Cascade(d) => pos
            .cascades
            .get(d as usize)
            .map_or(0, |c| most_cards(pos, rules, c.is_empty())),
        _ => 1,
    };
    let cards = take(pos, m)?;
    match m.to {
        Place::Foundation => {
            if cards.len() != 1 {
                return Err("only one card at a time goes to a foundation".into());
            }
            let c = cards[0];
            let s = c.suit().index();
            if pos.foundations[s] + 1 != c.rank().value() {
                return Err(format!(
                    "{c} does not go on its foundation (it holds {})",
                    pos.foundations[s]
                ));
            }
            pos.foundations[s] += 1;
        }
        Place::Freecell(j) => {
            if cards.len() != 1 {
                return Err("a freecell holds one card".into());
            }
            let slot = pos
                .freecells
                .get_mut(j as usize)
                .ok_or_else(|| format!("the game has {} freecells", rules.freecells))?;
            if slot.is_some() {
                return Err(format!("freecell {} is not empty", Place::Freecell(j)));
            }
            *slot = Some(cards[0]);
        }
        Place::Cascade(d) => {
            onto_cascade(pos, rules, d as usize, &cards, most)?;
            pos.cascades[d as usize].extend(cards);
        }
    }
    Ok(())
}

/// `place` when the game has it; else the reason: how many cascades or freecells the game
/// has.
fn there(pos: &Layout, place: Place) -> Result<(), String> {
    match place {
        Place::Cascade(i) if i as usize >= pos.cascades.len() => {
            Err(format!("the game has {} cascades", pos.cascades.len()))
        }
        Place::Freecell(j) if j as usize >= pos.freecells.len() => Err(format!(
            "there is no freecell {}: the game has {}",
            place,
            fcauto_deals::plural(pos.freecells.len(), "freecell")
        )),
        _ => Ok(()),
    }
}

/// Take the moved cards off their source (which must hold them, in build order for a run).
fn take(pos: &mut Layout, m: &FamilyMove) -> Result<Vec<Card>, String> {
    match m.from {
        Place::Foundation => Err("cards never leave the foundations".into()),
        Place::Freecell(j) => {
            if m.count != 1 {
                return Err("a freecell holds one card".into());
            }
            let slot = pos
                .freecells
                .get_mut(j as usize)
                .ok_or_else(|| format!("there is no freecell {}", Place::Freecell(j)))?;
            slot.take()
                .map(|c| vec![c])
                .ok_or_else(|| format!("freecell {} is empty", Place::Freecell(j)))
        }
        Place::Cascade(i) => {
            let n = pos.cascades.len();
            let col = pos
                .cascades
                .get_mut(i as usize)
                .ok_or_else(|| format!("the game has {n} cascades"))?;
            let k = m.count as usize;
            if col.len() < k {
                return Err(format!("cascade {} holds {} cards", m.from, col.len()));
            }
            Ok(col.split_off(col.len() - k))
        }
    }
}

/// Check that `cards` (a run, head first) may go onto cascade `d`.
fn onto_cascade(
    pos: &Layout,
    rules: &Rules,
    d: usize,
    cards: &[Card],
    most: usize,
) -> Result<(), String> {
    let dest = pos
        .cascades
        .get(d)
        .ok_or_else(|| format!("the game has {} cascades", pos.cascades.len()))?;
    for w in cards.windows(2) {
        if !lies_on(rules.build, w[0], w[1]) {
            return Err(format!("{} {} is not a run in build order", w[0], w[1]));
        }
    }
    let head = cards[0];
    match dest.last() {
        Some(&t) if !lies_on(rules.build, t, head) => {
            return Err(format!("{head} does not build on {t}"))
        }
        Some(_) => {}
        None => {
            let ok = match rules.empty {
                EmptyFill::Any => true,
                EmptyFill::Kings => head.rank().value() == 13,
                EmptyFill::None => false,
            };
            if !ok {
                return Err(format!("{head} may not fill an empty cascade in this game"));
            }
        }
    }
    if cards.len() > most {
        return Err(format!(
            "{} cards move at once, the sequence limit is {most}",
            cards.len()
        ));
    }
    Ok(())
}

/// `top` may lie on `below`: one rank lower, and the colour or suit the build order asks.
fn lies_on(build: BuildOrder, below: Card, top: Card) -> bool {
    if below.rank().value() != top.rank().value() + 1 {
        return false;
    }
    match build {
        BuildOrder::AlternateColour => below.suit().is_red() != top.suit().is_red(),
        BuildOrder::Suit => below.suit() == top.suit(),
        BuildOrder::Rank => true,
    }
}

/// The most cards one move may carry between cascades in `pos` (before the move): moved one at a time through the empty freecells, and when any card may fill
/// an empty cascade, doubled by each empty cascade other than the destination.
fn most_cards(pos: &Layout, rules: &Rules, dest_empty: bool) -> usize {
    if rules.sequence == SequenceMove::Unlimited {
        return usize::MAX;
    }
    let free = pos.freecells.iter().filter(|c| c.is_none()).count();
    if rules.empty != EmptyFill::Any {
        return free + 1;
    }
    let empty = pos.cascades.iter().filter(|c| c.is_empty()).count();
    let spare = empty - dest_empty as usize;
    (free + 1) << spare.min(16)
}
