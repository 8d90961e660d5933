//! A family game played one move at a time, for a caller that referees a player (the
//! service of `fcauto serve` and `fcauto mcp`): the legal moves of a position, a move
//! applied by the independent validator, the safe auto-moves to the foundations, and each
//! move's card and standard-notation token.
//!
//! The legal moves are the family search's own (`moves`), with the moves it names
//! once for a set of interchangeable places (a card to the first empty freecell, a run to
//! the first empty cascade) listed for each of them, and the moves the search leaves out
//! because they lead to the same position up to the order of places (a freecell's card to
//! another freecell, a whole cascade onto an empty one) listed too, as standard FreeCell's
//! service lists them. Every move is applied by the validator's rule checks, never by the
//! search's.

use super::moves::{auto_play, generate};
use super::notation::{standard_tokens, FamilyMove, Place};
use super::state::{Pos, M};
use super::validator::play_checked;
use super::{place, LayoutError};
use fcauto_deals::{Card, Layout, Rules};

/// Every legal move of `layout` under `rules`, each once per destination (every empty
/// freecell, every empty cascade), those that only move cards between interchangeable
/// places included (`place_changes`): moves to the foundations first, then in order of
/// source (cascades, then freecells), destination and count.
///
/// # Errors
/// The layout does not fit the rules or is not one full deck.
pub fn legal_moves(layout: &Layout, rules: &Rules) -> Result<Vec<FamilyMove>, LayoutError> {
    let p = Pos::from_layout(layout, rules)?;
    let mut found = Vec::new();
    generate(&p, rules, &mut found);
    let empty_cells: Vec<u8> = (0..p.ncells)
        .filter(|&j| layout.freecells[j].is_none())
        .map(|j| j as u8)
        .collect();
    let empty_cascades: Vec<u8> = (0..p.ncasc)
        .filter(|&i| layout.cascades[i].is_empty())
        .map(|i| i as u8)
        .collect();
    let mut out = Vec::with_capacity(found.len() * 2);
    for m in found {
        let m = public(m);
        let others: &[u8] = match m.to {
            Place::Freecell(_) => &empty_cells,
            Place::Cascade(d) if layout.cascades[d as usize].is_empty() => &empty_cascades,
            _ => &[],
        };
        if others.is_empty() {
            out.push(m);
            continue;
        }
        for &k in others {
            let to = match m.to {
                Place::Freecell(_) => Place::Freecell(k),
                _ => Place::Cascade(k),
            };
            if to != m.from {
                out.push(FamilyMove { to, ..m });
            }
        }
    }
    out.extend(place_changes(layout, rules, &empty_cells, &empty_cascades));
    out.sort_by_key(|m| {
        (
            m.to != Place::Foundation,
            order(m.from),
            order(m.to),
            m.count,
        )
    });
    out.dedup();
    Ok(out)
}

/// The legal moves the search leaves out, since the position they lead to is the same up to
/// the order of freecells and cascades: a freecell's card to another empty freecell, and a
/// whole cascade (one card, or a run the rules let move there) to another empty cascade;
/// each checked by the validator.
fn place_changes(
    layout: &Layout,
    rules: &Rules,
    empty_cells: &[u8],
    empty_cascades: &[u8],
) -> Vec<FamilyMove> {
    let cells = (0..layout.freecells.len())
        .filter(|&j| layout.freecells[j].is_some())
        .flat_map(|j| {
            empty_cells
                .iter()
                .map(move |&k| (Place::Freecell(j as u8), Place::Freecell(k), 1))
        });
    let cascades = (0..layout.cascades.len())
        .filter(|&i| !layout.cascades[i].is_empty())
        .flat_map(|i| {
            let n = layout.cascades[i].len() as u8;
            empty_cascades
                .iter()
                .map(move |&d| (Place::Cascade(i as u8), Place::Cascade(d), n))
        });
    cells
        .chain(cascades)
        .map(|(from, to, count)| FamilyMove { from, to, count })
        .filter(|m| m.from != m.to && apply(layout, rules, m).is_ok())
        .collect()
}

/// Listing order of a place: cascades, freecells, the foundations.
fn order(p: Place) -> u8 {
    match p {
        Place::Cascade(i) => i,
        Place::Freecell(j) => 10 + j,
        Place::Foundation => 20,
    }
}

/// `m` played on `layout` under `rules` by the validator's rule checks: the new layout, or
/// the rule the move breaks.
pub fn apply(layout: &Layout, rules: &Rules, m: &FamilyMove) -> Result<Layout, String> {
    let mut next = layout.clone();
    play_checked(&mut next, rules, m)?;
    Ok(next)
}

/// The safe auto-moves to the foundations from `layout` (the family search's rule for the
/// game's build order), in the order they are played.
///
/// # Errors
/// The layout does not fit the rules or is not one full deck.
pub fn safe_auto_moves(layout: &Layout, rules: &Rules) -> Result<Vec<FamilyMove>, LayoutError> {
    let mut p = Pos::from_layout(layout, rules)?;
    let mut log = Vec::new();
    auto_play(&mut p, rules, &mut log);
    Ok(log.into_iter().map(public).collect())
}

/// The card `m` moves from `layout` (the deepest of a run), if its source holds it.
pub fn moved_card(layout: &Layout, m: &FamilyMove) -> Option<Card> {
    match m.from {
        Place::Cascade(i) => {
            let col = layout.cascades.get(i as usize)?;
            col.get(col.len().checked_sub(m.count as usize)?).copied()
        }
        Place::Freecell(j) => *layout.freecells.get(j as usize)?,
        Place::Foundation => None,
    }
}

/// `m`'s standard-notation token played from `layout` (`38v3` where a plain `38` would
/// read as another move); `None` when the move is illegal.
pub fn token(layout: &Layout, rules: &Rules, m: &FamilyMove) -> Option<String> {
    standard_tokens(layout, rules, std::slice::from_ref(m))?.pop()
}

fn public(m: M) -> FamilyMove {
    FamilyMove {
        from: place(m.from),
        to: place(m.to),
        count: m.count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::{deal_game, Game, PysolNumber};

    /// With empty cascades and freecells, the moves that only change places are listed as
    /// standard FreeCell's service lists them: a freecell's card to each other empty
    /// freecell, a one-card cascade to each empty cascade (a whole run only where the rules
    /// let it move).
    #[test]
    fn moves_between_interchangeable_places_are_listed() {
        let read = |text| {
            let (g, layout) = fcauto_deals::position::parse_layout(text).unwrap();
            (layout, g.rules)
        };
        let (layout, rules) = read("bakers_game: KHQHJH/TH/TS/JS/QS/KS/-/- 8H9H8S9S KK77");
        let moves = legal_moves(&layout, &rules).unwrap();
        let has = |from, to, count| moves.contains(&FamilyMove { from, to, count });
        assert!(has(Place::Cascade(2), Place::Cascade(6), 1), "{moves:?}");
        assert!(has(Place::Cascade(5), Place::Cascade(7), 1), "{moves:?}");
        // KH QH JH is a run, but 3 cards are more than the freecells and the other empty
        // cascade carry: (0 + 1) x 2.
        assert!(!has(Place::Cascade(0), Place::Cascade(6), 3), "{moves:?}");
        for m in &moves {
            assert!(apply(&layout, &rules, m).is_ok(), "{m:?}");
        }
        let (layout, rules) = read("bakers_game: KHQCJH/TH/TS/JS/QS/KS/KCQH/8S 8H9H9S- JK77");
        let moves = legal_moves(&layout, &rules).unwrap();
        let has = |from, to| moves.contains(&FamilyMove { from, to, count: 1 });
        for j in 0..3 {
            assert!(
                has(Place::Freecell(j), Place::Freecell(3)),
                "{j}: {moves:?}"
            );
        }
    }

    /// Every listed move is one the validator accepts, each empty freecell gets its own
    /// move, and every single-card move the validator accepts is listed (a freecell's card
    /// to another freecell too).
    #[test]
    fn listed_moves_are_the_validators_legal_moves() {
        for name in ["seahaven_towers", "eight_off", "bakers_game", "forecell"] {
            let g = Game::find(name).unwrap();
            let layout = deal_game(g, PysolNumber::plain(617).unwrap());
            let moves = legal_moves(&layout, &g.rules).unwrap();
            assert!(!moves.is_empty(), "{name}");
            for m in &moves {
                assert!(apply(&layout, &g.rules, m).is_ok(), "{name} {m:?}");
            }
            let places = (0..g.rules.cascades)
                .map(Place::Cascade)
                .chain((0..g.rules.freecells).map(Place::Freecell));
            let places: Vec<Place> = places.chain([Place::Foundation]).collect();
            for &from in &places {
                for &to in &places {
                    let m = FamilyMove { from, to, count: 1 };
                    if apply(&layout, &g.rules, &m).is_ok() {
                        assert!(moves.contains(&m), "{name}: {m:?} missing");
                    }
                }
            }
        }
    }
}
