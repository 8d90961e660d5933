//! The other games of the FreeCell family in the service: a position of any game
//! ([`FamilyPosition`]: the game, its rules and a [`Layout`]), its JSON shape
//! ([`FamilyPositionJson`], in `position.rs`: the standard shape with the game and its rules), a new game
//! dealt as PySolFC deals it, the legal moves, a move read in the family's standard notation
//! (`0` the tenth cascade, `e`..`g` and `i` the fifth to eighth freecells) and applied by the
//! family's validator ([`fcauto_solver::family::play`]).

use super::position::{FamilyPositionJson, FamilyPositionOut, RulesJson};
use super::{ApplyOut, ServiceError, MAX_BOARD_BYTES};
use fcauto_deals::game::MAX_FREECELLS;
use fcauto_deals::{position, Game, Layout, PysolNumber, Rules};
use fcauto_solver::family::play;
use fcauto_solver::family::{FamilyMove, Place};
use fcauto_solver::{JsonMove, MoveKind};

/// A position of a game of the family other than standard FreeCell with four freecells
/// (which the service keeps as a [`fcauto_deals::Board`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyPosition {
    /// The game (its name, PySolFC's id and title).
    pub game: &'static Game,
    /// The rules played: the game's, with as many freecells as the layout has slots.
    pub rules: Rules,
    /// The cards.
    pub layout: Layout,
}

impl FamilyPosition {
    /// A checked position of `game` with `layout`'s freecell slots.
    pub fn new(game: &'static Game, layout: Layout) -> Result<FamilyPosition, ServiceError> {
        let rules = game.rules.with_freecells(layout.freecells.len() as u8);
        layout.check(&rules).map_err(|e| {
            ServiceError::impossible(format!("impossible {} position: {e}", game.name))
        })?;
        // The search's own checks (a cascade too deep for it) are the legal moves' too.
        play::legal_moves(&layout, &rules)
            .map_err(|e| ServiceError::impossible(format!("position not supported: {e}")))?;
        Ok(FamilyPosition {
            game,
            rules,
            layout,
        })
    }

    /// The position a JSON object describes, checked.
    pub fn from_json(j: &FamilyPositionJson) -> Result<FamilyPosition, ServiceError> {
        let game = Game::find(&j.game).map_err(|e| ServiceError::impossible(e.to_string()))?;
        let slots = j
            .freecells
            .clone()
            .or_else(|| j.rules.as_ref().map(|r| vec![None; r.freecells as usize]))
            .unwrap_or_else(|| vec![None; game.rules.freecells as usize]);
        if slots.len() > MAX_FREECELLS {
            return Err(ServiceError::impossible(format!(
                "{} freecell slots: a game has at most {MAX_FREECELLS}",
                slots.len()
            )));
        }
        let layout = Layout {
            cascades: j.cascades.clone(),
            freecells: slots,
            foundations: j.foundations,
        };
        let p = FamilyPosition::new(game, layout)?;
        if let Some(r) = &j.rules {
            if *r != RulesJson::of(&p.rules) {
                return Err(ServiceError::impossible(format!(
                    "rules {}: {} with {} plays {}",
                    serde_json::to_string(r).unwrap_or_default(),
                    game.name,
                    fcauto_deals::plural(p.rules.freecells, "freecell"),
                    serde_json::to_string(&RulesJson::of(&p.rules)).unwrap_or_default()
                )));
            }
        }
        Ok(p)
    }

    /// The JSON form.
    pub fn json(&self) -> FamilyPositionJson {
        FamilyPositionJson {
            game: self.game.name.to_string(),
            rules: Some(RulesJson::of(&self.rules)),
            cascades: self.layout.cascades.clone(),
            freecells: Some(self.layout.freecells.clone()),
            foundations: self.layout.foundations,
        }
    }

    /// The output form: JSON, position string, won.
    pub fn out(&self) -> FamilyPositionOut {
        FamilyPositionOut {
            position: self.json(),
            position_string: position::write_layout(self.game, &self.layout),
            won: self.layout.is_won(),
        }
    }

    /// The same game at `layout` (a move's result: checked when the move was).
    fn at(&self, layout: Layout) -> FamilyPosition {
        FamilyPosition {
            layout,
            ..self.clone()
        }
    }
}

/// A position string of any game (`seahaven_towers: ...`, or FreeCell with another number
/// of freecell slots), checked; `None` when `text` is no such string.
pub fn parse_family_text(text: &str) -> Option<Result<(&'static Game, Layout), ServiceError>> {
    if text.len() > MAX_BOARD_BYTES {
        return None;
    }
    let line = position_line(text)?;
    let named = names_a_game(text);
    match position::parse_layout(line) {
        Ok(x) => Some(Ok(x)),
        Err(e) if named => Some(Err(ServiceError::impossible(e.to_string()))),
        Err(_) => None,
    }
}

/// The first line of `text` that is neither blank nor a `#` comment, if it has a `/` (a
/// position string; board text has none).
fn position_line(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .filter(|l| l.contains('/'))
}

/// True when `text` is a position string that names its game (`seahaven_towers: ...`).
pub(super) fn names_a_game(text: &str) -> bool {
    position_line(text)
        .and_then(|l| l.split_whitespace().next())
        .is_some_and(|f| f.ends_with(':'))
}

/// The number of freecells a request asks for: 0..=8, or the game's when left out.
pub fn freecells_asked(game: &Game, freecells: Option<i64>) -> Result<u8, ServiceError> {
    match freecells {
        None => Ok(game.rules.freecells),
        Some(n) if (0..=MAX_FREECELLS as i64).contains(&n) => Ok(n as u8),
        Some(n) => Err(ServiceError::bad_input(format!(
            "freecells {n}: a game has 0..={MAX_FREECELLS} freecells"
        ))),
    }
}

/// PySolFC's deal `number` of `game` with `freecells` freecells (the game's when `None`).
pub fn deal_family(
    game: &'static Game,
    number: PysolNumber,
    freecells: Option<i64>,
) -> Result<(&'static Game, Layout), ServiceError> {
    let rules = game.rules.with_freecells(freecells_asked(game, freecells)?);
    let layout = fcauto_deals::deal_with_rules(game, &rules, number)
        .map_err(|e| ServiceError::bad_input(e.to_string()))?;
    Ok((game, layout))
}

/// The JSON kind of a family move.
fn kind(m: &FamilyMove) -> Option<MoveKind> {
    use Place::*;
    Some(match (m.from, m.to) {
        (Cascade(_), Foundation) => MoveKind::StackToFoundation,
        (Cascade(_), Freecell(_)) => MoveKind::StackToFreecell,
        (Freecell(_), Foundation) => MoveKind::FreecellToFoundation,
        (Cascade(_), Cascade(_)) => MoveKind::StackToStack,
        (Freecell(_), Cascade(_)) => MoveKind::FreecellToStack,
        (Freecell(_), Freecell(_)) => MoveKind::FreecellToFreecell,
        _ => return None,
    })
}

/// A family move played from `p` in the service's move form ([`JsonMove`] without `step`):
/// places as the family's JSON names them (cascades `"1"`..`"10"`, freecells `"a"`..`"g"`,
/// `"i"`), its notation read back as this very move.
pub fn family_move_out(p: &FamilyPosition, m: &FamilyMove) -> JsonMove {
    JsonMove {
        step: None,
        kind: kind(m),
        from: m.from.json_name(),
        to: m.to.json_name(),
        card: play::moved_card(&p.layout, m),
        count: Some(m.count),
        notation: Some(play::token(&p.layout, &p.rules, m).unwrap_or_else(|| m.notation())),
    }
}

/// `legal_moves` of a family position, in the service's move form.
pub fn family_legal_moves(p: &FamilyPosition) -> Result<Vec<JsonMove>, ServiceError> {
    let moves = play::legal_moves(&p.layout, &p.rules)
        .map_err(|e| ServiceError::impossible(format!("position not supported: {e}")))?;
    Ok(moves.iter().map(|m| family_move_out(p, m)).collect())
}

/// A move in the family's standard notation (`38`, `0a`, `ih`, `38v3` or `38` + `count`):
/// its places, and its count when given. Counts outside 1..=13 are bad input, as for
/// standard FreeCell.
pub fn parse_family_move(
    text: &str,
    count: Option<i64>,
) -> Result<(Place, Place, Option<u8>), ServiceError> {
    let count = super::parse_move("38", count)?.count;
    let t = text.trim();
    let bad = || {
        ServiceError::bad_input(format!(
            "`{t}` is not a move in standard notation (e.g. `3a`, `a3`, `3h`, `38`; `0` the \
             tenth cascade, `i` the eighth freecell)"
        ))
    };
    let mut chars = t.chars();
    let (Some(a), Some(b)) = (chars.next(), chars.next()) else {
        return Err(bad());
    };
    let (from, to) = (
        Place::from_char(a).ok_or_else(bad)?,
        Place::from_char(b).ok_or_else(bad)?,
    );
    let rest: String = chars.collect();
    let said = match rest.as_str() {
        "" => None,
        r => {
            let hex = r.strip_prefix(['v', 'V']).ok_or_else(bad)?;
            Some(
                u8::from_str_radix(hex, 16)
                    .ok()
                    .filter(|n| (1..=13).contains(n))
                    .ok_or_else(bad)?,
            )
        }
    };
    match (said, count) {
        (Some(s), Some(g)) if s != g => Err(ServiceError::bad_input(format!(
            "`{t}` moves {} and count says {g}: give one of them, or the same",
            fcauto_deals::plural(s, "card")
        ))),
        (s, g) => Ok((from, to, g.or(s))),
    }
}

/// A move without a count takes, between cascades, the longest run the position allows
/// (onto a card, the one run that builds on it; onto an empty cascade, the longest legal
/// one); elsewhere one card. The validator then judges it.
fn resolve(p: &FamilyPosition, from: Place, to: Place, count: Option<u8>) -> FamilyMove {
    let count = count.unwrap_or_else(|| longest_run(&p.layout, &p.rules, from, to));
    FamilyMove { from, to, count }
}

/// The most cards a legal move from `from` to `to` carries in `layout` (1 when there is
/// none: the validator then names the rule a one-card move breaks).
pub(super) fn longest_run(layout: &Layout, rules: &Rules, from: Place, to: Place) -> u8 {
    play::legal_moves(layout, rules)
        .unwrap_or_default()
        .iter()
        .filter(|m| m.from == from && m.to == to)
        .map(|m| m.count)
        .max()
        .unwrap_or(1)
}

/// `apply_move` for a family position: the move read and, if the validator finds it legal,
/// played, then (with `autoplay`) the safe auto-moves; an illegal move gives `legal: false`,
/// the rule, and the unchanged position.
pub fn family_apply(
    p: &FamilyPosition,
    text: &str,
    count: Option<i64>,
    autoplay: bool,
) -> Result<ApplyOut<FamilyPositionOut>, ServiceError> {
    let (from, to, count) = parse_family_move(text, count)?;
    let m = resolve(p, from, to, count);
    let next = match play::apply(&p.layout, &p.rules, &m) {
        Err(rule) => {
            return Ok(ApplyOut {
                legal: false,
                broken_rule: Some(rule),
                mv: None,
                autoplayed: vec![],
                position: p.out(),
            })
        }
        Ok(layout) => p.at(layout),
    };
    let mv = family_move_out(p, &m);
    let mut now = next;
    let mut autoplayed = vec![];
    if autoplay {
        for a in play::safe_auto_moves(&now.layout, &now.rules).unwrap_or_default() {
            let Ok(layout) = play::apply(&now.layout, &now.rules, &a) else {
                break; // cannot happen: the search's safe moves are legal moves
            };
            autoplayed.push(family_move_out(&now, &a));
            now = now.at(layout);
        }
    }
    Ok(ApplyOut {
        legal: true,
        broken_rule: None,
        mv: Some(mv),
        autoplayed,
        position: now.out(),
    })
}
