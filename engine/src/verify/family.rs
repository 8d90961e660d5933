//! Verify for the other games of the FreeCell family (`verify --game G`, and a family
//! solution JSON, which names its game): the moves replayed from their start by the family's
//! own validator ([`validate_family`]) under the game's rules.
//!
//! The start is the one the caller gives (a deal of the game, or a board read for it by
//! [`read_layout`]), which must agree with the one a JSON names, or else the one the JSON
//! names (its `position`, or its `deal` dealt as PySolFC deals the game). Standard notation
//! and Freecell Solver's `-sam` output (stacks and freecells numbered from 0) name no start:
//! they need the caller's. Errors are those of the standard verify: a
//! [`StartConflict`] or [`NoStart`] is a usage problem, a move that does not win is
//! [`super::is_not_a_win`].

use super::{NoStart, NotAWin};
use crate::input::StartConflict;
use anyhow::{Context, Result};
use fcauto_deals::position::{looks_like_position, parse_layout};
use fcauto_deals::{deal_with_rules, Game, Layout, PysolNumber, Rules};
use fcauto_solver::family::{
    read_fcs_output, read_standard, validate_family, FamilyMove, FamilySolutionJson,
    FamilyValidationError,
};
use fcauto_solver::FcsVerdict;

/// A start of a family game: the game, the rules played (its freecells changed by
/// `--freecells`), the position, and the deal it was dealt from (if any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyStart {
    /// The game.
    pub game: &'static Game,
    /// Its rules as played.
    pub rules: Rules,
    /// The start position.
    pub layout: Layout,
    /// The deal number, when dealt from one.
    pub deal: Option<PysolNumber>,
}

/// A family solution that was verified: every move legal, all 52 cards on the foundations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyReport {
    /// The game played.
    pub game: &'static Game,
    /// Its rules as played.
    pub rules: Rules,
    /// Moves (a run moved at once counts one).
    pub moves_total: usize,
}

/// The game's name, with the freecells when they are not the game's own.
pub fn title(game: &Game, rules: &Rules) -> String {
    if rules.freecells == game.rules.freecells {
        game.name.to_string()
    } else {
        format!(
            "{} with {}",
            game.name,
            fcauto_deals::plural(rules.freecells, "freecell")
        )
    }
}

/// True when `text` is a family solution JSON: an object naming its `game` and its
/// `freecells` (the standard solution JSON names neither).
pub fn is_family_json(text: &str) -> bool {
    let text = text.trim_start_matches('\u{feff}').trim_start();
    text.starts_with('{')
        && serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| {
            v.get("game").is_some_and(|g| g.is_string())
                && v.get("freecells").is_some_and(|f| f.is_u64())
        })
}

/// The start of deal `number` of `game` under `rules`, as PySolFC deals it.
///
/// # Errors
/// The game deals cards to more freecells than `rules` has.
pub fn deal_start(game: &'static Game, rules: Rules, number: PysolNumber) -> Result<FamilyStart> {
    let layout = deal_with_rules(game, &rules, number)?;
    Ok(FamilyStart {
        game,
        rules,
        layout,
        deal: Some(number),
    })
}

/// Read `text` (named `name` in errors: `board file x.board`) as a position of `game` under
/// `rules`: a position string (with the game's name before a colon, or none for a position
/// of FreeCell's shape), a family solution JSON's start, or Freecell Solver's board text
/// with up to 10 cascades and a partial `Freecells:` line.
///
/// # Errors
/// One line naming what does not fit: a position of another game, another number of
/// cascades, more cards in freecells than the game has freecells, a card that is no card,
/// a duplicated or missing card.
pub fn read_layout(text: &str, game: &'static Game, rules: &Rules, name: &str) -> Result<Layout> {
    let text = text.trim_start_matches('\u{feff}');
    let what = title(game, rules);
    if is_family_json(text) {
        let json: FamilySolutionJson =
            serde_json::from_str(text).with_context(|| format!("{name}: not a family solution"))?;
        let layout = own_start(&json, name)?.map(|s| s.layout);
        return layout.with_context(|| format!("{name} names no start (no deal, no position)"));
    }
    if text.trim_start().starts_with('{') {
        return deal_json_layout(text, game, rules, name);
    }
    if looks_like_position(text) {
        let line = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .unwrap_or_default();
        let (named, layout) = parse_layout(line).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        let prefixed = line.contains(':');
        anyhow::ensure!(
            named.name == game.name || !prefixed,
            "{name} is a position of {}, not of {}: give --game {}",
            named.name,
            game.name,
            named.name
        );
        layout
            .check(rules)
            .map_err(|e| anyhow::anyhow!("{name} does not fit {what}: {e}"))?;
        return Ok(layout);
    }
    Layout::parse(text, rules).map_err(|e| {
        anyhow::anyhow!(
            "{name} does not fit {what} ({} cascades, {}): {e}",
            rules.cascades,
            fcauto_deals::plural(rules.freecells, "freecell")
        )
    })
}

/// The JSON `fcauto deal --game G N --format json` writes, read as a position of `game`.
#[derive(serde::Deserialize)]
struct DealJson {
    game: Option<String>,
    cascades: Vec<Vec<fcauto_deals::Card>>,
    freecells: Vec<Option<fcauto_deals::Card>>,
    #[serde(default)]
    foundations: [u8; 4],
}

/// A deal's JSON (`deal --game G N --format json`) as a position of `game` under `rules`.
fn deal_json_layout(text: &str, game: &'static Game, rules: &Rules, name: &str) -> Result<Layout> {
    let json: DealJson = serde_json::from_str(text).with_context(|| {
        format!(
            "{name}: not a board (a deal's JSON with `cascades`, `freecells`, `foundations`, or \
             a family solution's)"
        )
    })?;
    if let Some(named) = json.game.as_deref() {
        let named = Game::find(named).with_context(|| format!("{name}: its `game`"))?;
        anyhow::ensure!(
            named.name == game.name,
            "{name} is a deal of {}, not of {}: give --game {}",
            named.name,
            game.name,
            named.name
        );
    }
    let layout = Layout {
        cascades: json.cascades,
        freecells: json.freecells,
        foundations: json.foundations,
    };
    layout
        .check(rules)
        .map_err(|e| anyhow::anyhow!("{name} does not fit {}: {e}", title(game, rules)))?;
    Ok(layout)
}

/// The start a family solution JSON names: its `position`, or the deal of its `deal`;
/// both must agree when both are given. `None` when it names neither.
fn own_start(json: &FamilySolutionJson, name: &str) -> Result<Option<FamilyStart>> {
    let game = Game::find(&json.game).with_context(|| format!("{name}: its `game`"))?;
    anyhow::ensure!(
        json.freecells as usize <= fcauto_deals::game::MAX_FREECELLS,
        "{name}: `freecells` is {}, at most {}",
        json.freecells,
        fcauto_deals::game::MAX_FREECELLS
    );
    let rules = game.rules.with_freecells(json.freecells);
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

/// Verify the family solution `text` (named `name` in errors) from `given` (the caller's
/// start; `None`: the one a JSON names).
///
/// # Errors
/// The first problem found: no start ([`NoStart`]), a start given that is not the one the
/// JSON names ([`StartConflict`]), a claim that does not hold (`moves_total`, a move's
/// `card`), a move that does not read, an illegal move or a game not won (the validator's
/// [`FamilyValidationError`], naming the step), no moves ([`NotAWin`]).
pub fn verify_family(text: &str, given: Option<FamilyStart>, name: &str) -> Result<FamilyReport> {
    let text = text.trim_start_matches('\u{feff}');
    if !is_family_json(text) {
        anyhow::ensure!(
            !text.trim_start().starts_with('{'),
            "{name} is JSON but no family solution (it names no `game` and `freecells`): \
             give the JSON `solve --game G --format json` writes, or standard notation"
        );
        let Some(start) = given else {
            return Err(NoStart(format!(
                "{name} is standard notation, which names no start: give --game G with \
                 --deal N or --board FILE"
            ))
            .into());
        };
        if is_fcs_output(text) {
            let (verdict, moves) = read_fcs_output(text).with_context(|| name.to_string())?;
            if moves.is_empty() && verdict != FcsVerdict::Solved {
                return Err(NotAWin(format!(
                    "{name} is fc-solve's output of a game it did not solve ({verdict}): it has \
                     no moves to verify"
                ))
                .into());
            }
            return replay(&start, &moves, name);
        }
        let moves =
            read_standard(text, &start.layout, &start.rules).with_context(|| name.to_string())?;
        return replay(&start, &moves, name);
    }
    let json: FamilySolutionJson = serde_json::from_str(text).with_context(|| {
        format!("{name}: not a family solution (`solve --game G --format json`)")
    })?;
    let start = json_start(given, own_start(&json, name)?, name)?;
    anyhow::ensure!(
        json.moves_total == json.moves.len(),
        "{name}: `moves_total` says {} but it lists {}",
        json.moves_total,
        fcauto_deals::plural(json.moves.len(), "move")
    );
    if json.moves.is_empty() && json.solvable != Some(true) && !start.layout.is_won() {
        let said = match json.solvable {
            Some(false) => "the game unsolvable",
            _ => "no verdict (unknown)",
        };
        return Err(NotAWin(format!("{name} says {said}: it has no moves to verify")).into());
    }
    let moves = json
        .moves
        .iter()
        .map(FamilyMove::from_json)
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| name.to_string())?;
    let report = replay(&start, &moves, name)?;
    // The cards each move says it moves, checked on the replay.
    let replayed = FamilySolutionJson::new(
        start.game.name,
        None,
        &start.layout,
        &start.rules,
        Some(true),
        &moves,
    );
    for (said, real) in json.moves.iter().zip(&replayed.moves) {
        anyhow::ensure!(
            said.card.is_empty() || said.card.eq_ignore_ascii_case(&real.card),
            "{name}: move {} says it moves {} but it moves {}",
            real.step,
            said.card,
            real.card
        );
    }
    Ok(report)
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

/// True when `text` is Freecell Solver's output (`-sam` move lines, `Move a card from stack
/// 3 to freecell 7`, or its verdict) rather than standard notation.
fn is_fcs_output(text: &str) -> bool {
    text.lines().map(str::trim).any(|l| {
        l.starts_with("Move a card from")
            || (l.starts_with("Move ") && l.contains(" cards from "))
            || l == "This game is solveable."
            || l == "I could not solve this game."
    })
}

/// A start given whose game or freecells are not those the JSON names: a usage problem.
fn same_game(given: &FamilyStart, own: &FamilyStart, name: &str) -> Result<()> {
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

/// Replay `moves` from `start` with the family's validator.
fn replay(start: &FamilyStart, moves: &[FamilyMove], name: &str) -> Result<FamilyReport> {
    if moves.is_empty() && !start.layout.is_won() {
        return Err(NotAWin(format!("{name} has no moves, and the game is not won")).into());
    }
    validate_family(&start.layout, &start.rules, moves)
        .map_err(|e: FamilyValidationError| anyhow::Error::new(e).context(name.to_string()))?;
    Ok(FamilyReport {
        game: start.game,
        rules: start.rules,
        moves_total: moves.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_solver::family::{solve_family, FamilyMode, FamilyOutcome, Place};

    fn solved(game: &str, n: u128) -> (FamilyStart, Vec<FamilyMove>, Vec<String>) {
        let game = Game::find(game).unwrap();
        let start = deal_start(game, game.rules, PysolNumber::plain(n).unwrap()).unwrap();
        let (out, _) = solve_family(&start.layout, &start.rules, FamilyMode::Fast, None).unwrap();
        let FamilyOutcome::Solved(s) = out else {
            panic!("{game} {n} not solved")
        };
        (start, s.moves, s.tokens)
    }

    #[test]
    fn json_and_standard_notation_verify() {
        for (game, n) in [
            ("seahaven_towers", 1),
            ("eight_off", 617),
            ("bakers_game", 2),
        ] {
            let (start, moves, tokens) = solved(game, n);
            let json = FamilySolutionJson::new(
                start.game.name,
                Some(n as u64),
                &start.layout,
                &start.rules,
                Some(true),
                &moves,
            );
            let text = serde_json::to_string(&json).unwrap();
            let r = verify_family(&text, None, "s").unwrap();
            assert_eq!(r.moves_total, moves.len());
            let r = verify_family(&tokens.join(" "), Some(start.clone()), "s").unwrap();
            assert_eq!(r.moves_total, moves.len());
            // Counts left out are found again.
            let bare: Vec<&str> = tokens
                .iter()
                .map(|t| t.split('v').next().unwrap())
                .collect();
            let r = verify_family(&bare.join(" "), Some(start), "s");
            assert!(r.is_ok(), "{game}: {r:?}");
        }
    }

    #[test]
    fn fc_solve_output_verifies() {
        let (start, moves, _) = solved("eight_off", 5);
        let lines: Vec<String> = moves
            .iter()
            .map(|m| {
                let at = |p: Place| match p {
                    Place::Cascade(i) => format!("stack {i}"),
                    Place::Freecell(j) => format!("freecell {j}"),
                    Place::Foundation => "the foundations".into(),
                };
                match m.count {
                    1 => format!("Move a card from {} to {}", at(m.from), at(m.to)),
                    n => format!("Move {n} cards from {} to {}", at(m.from), at(m.to)),
                }
            })
            .collect();
        let text = lines.join("\n\n") + "\nThis game is solveable.\n";
        let r = verify_family(&text, Some(start.clone()), "s").unwrap();
        assert_eq!(r.moves_total, moves.len());
        let e = verify_family("I could not solve this game.\n", Some(start), "s").unwrap_err();
        assert!(super::super::is_not_a_win(&e), "{e:#}");
    }

    #[test]
    fn a_tampered_move_is_named_and_no_start_is_a_usage_problem() {
        let (start, _, mut tokens) = solved("bakers_game", 2);
        // The last move (a king home) played first.
        let last = tokens.last().unwrap().clone();
        tokens.insert(0, last);
        let e = verify_family(&tokens.join(" "), Some(start), "s").unwrap_err();
        assert!(super::super::is_not_a_win(&e), "{e:#}");
        assert!(format!("{e:#}").contains("move 1 ("), "{e:#}");
        let e = verify_family("38", None, "s").unwrap_err();
        assert!(super::super::is_usage_problem(&e), "{e:#}");
    }
}
