//! A family solution JSON (`solve --game G --format json`) read for `verify`, with every
//! claim it makes beside its moves checked, as the standard verify checks FreeCell's
//! ([`super::claims`]): its start (`game`, `freecells`, `deal`, `position`), `solvable`
//! against the moves listed, `moves_total`, and per move `step`, `notation`, `count` and
//! `card`. A field the JSON does not have (at the top or in a move) is refused by name; a
//! move given by `from` and `to` alone has its count found as in standard notation.

use super::family::{deal_start, replay, title, FamilyReport, FamilyStart};
use super::{NoStart, NotAWin};
use crate::input::StartConflict;
use anyhow::{Context, Result};
use fcauto_deals::position::parse_layout;
use fcauto_deals::{plural, Game, PysolNumber};
use fcauto_solver::family::reading::read_written;
use fcauto_solver::family::{
    resolve_family_counts, FamilyMove, FamilySolutionJson, Place, WrittenMove,
};
use serde::Deserialize;

/// The JSON as read: claims left out claim nothing.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JsonIn {
    game: String,
    freecells: u8,
    #[serde(default, with = "fcauto_solver::family::notation::deal_json")]
    deal: Option<PysolNumber>,
    #[serde(default)]
    position: Option<String>,
    /// Absent: no claim; null: unknown.
    #[serde(default, deserialize_with = "given")]
    solvable: Option<Option<bool>>,
    #[serde(default)]
    moves_total: Option<usize>,
    moves: Vec<MoveIn>,
}

/// One move as read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveIn {
    #[serde(default)]
    step: Option<usize>,
    from: String,
    to: String,
    #[serde(default)]
    card: Option<String>,
    #[serde(default)]
    count: Option<u8>,
    #[serde(default)]
    notation: Option<String>,
}

/// A field given, null or not.
fn given<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<bool>>, D::Error> {
    Option::<bool>::deserialize(d).map(Some)
}

/// Read `text` (named `name`) as a family solution JSON.
pub(super) fn read(text: &str, name: &str) -> Result<JsonIn> {
    serde_json::from_str(text)
        .with_context(|| format!("{name}: not a family solution (`solve --game G --format json`)"))
}

/// The game and rules the JSON names.
pub(super) fn json_rules(
    json: &JsonIn,
    name: &str,
) -> Result<(&'static Game, fcauto_deals::Rules)> {
    let game = Game::find(&json.game).with_context(|| format!("{name}: its `game`"))?;
    anyhow::ensure!(
        json.freecells as usize <= fcauto_deals::game::MAX_FREECELLS,
        "{name}: `freecells` is {}, at most {}",
        json.freecells,
        fcauto_deals::game::MAX_FREECELLS
    );
    Ok((game, game.rules.with_freecells(json.freecells)))
}

/// The start the JSON names: its `position`, or the deal of its `deal`; both must agree
/// when both are given. `None` when it names neither.
pub(super) fn own_start(json: &JsonIn, name: &str) -> Result<Option<FamilyStart>> {
    let (game, rules) = json_rules(json, name)?;
    let dealt = match json.deal {
        Some(n) => Some(deal_start(game, rules, n).with_context(|| name.to_string())?),
        None => None,
    };
    let Some(position) = &json.position else {
        return Ok(dealt);
    };
    let (named, layout) =
        parse_layout(position).map_err(|e| anyhow::anyhow!("{name}: its `position`: {e}"))?;
    anyhow::ensure!(
        named.name == game.name || !position.contains(':'),
        "{name}: its `position` is one of {}, its `game` {}",
        named.name,
        game.name
    );
    layout
        .check(&rules)
        .map_err(|e| anyhow::anyhow!("{name}: its `position` does not fit its game: {e}"))?;
    if let Some(d) = &dealt {
        anyhow::ensure!(
            d.layout == layout,
            "{name}: its `position` is not the deal its `deal` names ({})",
            json.deal.map_or_else(String::new, |n| n.to_string())
        );
    }
    Ok(Some(FamilyStart {
        game,
        rules,
        layout,
        deal: json.deal,
    }))
}

/// Verify the family solution JSON `text` from `given` (`None`: the start it names).
///
/// # Errors
/// As [`super::family::verify_family`]; a claim that does not hold (named).
pub(super) fn verify_json(
    text: &str,
    given: Option<FamilyStart>,
    name: &str,
) -> Result<FamilyReport> {
    let json = read(text, name)?;
    let start = json_start(given, own_start(&json, name)?, name)?;
    check_claims(&json, &start, name)?;
    let written = json
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| written(m, i + 1, name))
        .collect::<Result<Vec<_>>>()?;
    let moves = resolve_family_counts(&start.layout, &start.rules, &written, true).moves;
    let report = replay(&start, &moves, name)?;
    check_cards(&json, &start, &moves, name)?;
    Ok(report)
}

/// `solvable` against the moves listed, `moves_total`, and per move `step`.
fn check_claims(json: &JsonIn, start: &FamilyStart, name: &str) -> Result<()> {
    let n = json.moves.len();
    if let Some(said @ (Some(false) | None)) = json.solvable {
        let said = said.map_or("null".to_string(), |b| b.to_string());
        anyhow::ensure!(
            n == 0,
            "{name}: the solution file contradicts itself: it says the game was not solved \
             (`solvable`: {said}) but lists {}",
            plural(n, "move")
        );
        if !start.layout.is_won() {
            return Err(NotAWin(format!(
                "{name}: the solution file says the game was not solved (`solvable`: {said}): \
                 it has no moves to verify"
            ))
            .into());
        }
    }
    if let Some(total) = json.moves_total {
        anyhow::ensure!(
            total == n,
            "{name}: `moves_total` says {total} but it lists {}",
            plural(n, "move")
        );
    }
    for (i, m) in json.moves.iter().enumerate() {
        if let Some(said) = m.step {
            anyhow::ensure!(said == i + 1, "{name}: step {}: `step` says {said}", i + 1);
        }
    }
    Ok(())
}

/// Move `step` as written: its places, and its count (`count`, else the one its
/// `notation` writes), its `notation` checked against its places and count.
fn written(m: &MoveIn, step: usize, name: &str) -> Result<WrittenMove> {
    let place = |s: &str, what: &str| {
        Place::from_json_name(s).with_context(|| {
            format!("{name}: step {step}: `{what}` \"{s}\" names no place (cascades \"1\" to \"10\", freecells \"a\" to \"g\" and \"i\", \"h\")")
        })
    };
    let (from, to) = (place(&m.from, "from")?, place(&m.to, "to")?);
    anyhow::ensure!(
        m.count != Some(0),
        "{name}: step {step}: `count` 0 moves no card"
    );
    let mut count = m.count;
    if let Some(nt) = &m.notation {
        let said = read_written(nt).ok();
        let agrees = said.is_some_and(|w| {
            w.from == from
                && w.to == to
                && (w.count.is_none() || count.is_none() || w.count == count)
        });
        anyhow::ensure!(
            agrees,
            "{name}: step {step}: `notation` {nt} does not match {}{}{}",
            from,
            to,
            count.map_or(String::new(), |c| format!(
                " of {}",
                plural(c as usize, "card")
            ))
        );
        count = count.or(said.and_then(|w| w.count));
    }
    Ok(WrittenMove { from, to, count })
}

/// Each move's `card` (the lowest card moved) and `notation`'s count, checked on the replay.
fn check_cards(json: &JsonIn, start: &FamilyStart, moves: &[FamilyMove], name: &str) -> Result<()> {
    let replayed = FamilySolutionJson::new(
        start.game.name,
        None,
        &start.layout,
        &start.rules,
        Some(true),
        moves,
    );
    for (said, real) in json.moves.iter().zip(&replayed.moves) {
        let card = said.card.as_deref().unwrap_or_default();
        anyhow::ensure!(
            card.is_empty() || card.eq_ignore_ascii_case(&real.card),
            "{name}: step {}: `card` says it moves {card} but it moves {}",
            real.step,
            real.card
        );
    }
    Ok(())
}

/// The start of a family JSON: the caller's `given`, which must be the game and position
/// the JSON names (`own`) if it names one, or else its own; neither is a [`NoStart`].
fn json_start(
    given: Option<FamilyStart>,
    own: Option<FamilyStart>,
    name: &str,
) -> Result<FamilyStart> {
    match (given, own) {
        (Some(g), Some(o)) => {
            same_game(&g, &o, name)?;
            if g.layout != o.layout {
                return Err(StartConflict(format!(
                    "{name} starts from {}, not from {}",
                    start_words(&o, "its own position"),
                    start_words(&g, "the board given")
                ))
                .into());
            }
            Ok(o)
        }
        (Some(g), None) => Ok(g),
        (None, Some(o)) => Ok(o),
        (None, None) => Err(NoStart(format!(
            "{name} names no start (no `deal`, no `position`): give --deal N or --board FILE"
        ))
        .into()),
    }
}

/// A start given whose game or freecells are not those the JSON names: a usage problem.
pub(super) fn same_game(given: &FamilyStart, own: &FamilyStart, name: &str) -> Result<()> {
    if given.game.name != own.game.name || given.rules != own.rules {
        return Err(StartConflict(format!(
            "{name} is a solution of {}, not of {} (--game, --freecells)",
            title(own.game, &own.rules),
            title(given.game, &given.rules)
        ))
        .into());
    }
    Ok(())
}

/// `deal 617`, or `board` when the start was dealt from no number.
fn start_words(s: &FamilyStart, board: &str) -> String {
    s.deal.map_or_else(|| board.into(), |n| format!("deal {n}"))
}
