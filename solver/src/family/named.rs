//! The game a text names itself ([`named_game`]): the one reader every front end asks
//! before it reads a board or a solution, so that a file of another game of the family is
//! played as that game without `--game`, and a `--game` naming another is refused.
//!
//! A text names its game four ways ([`NamedBy`]): fcauto's family solution JSON (`game` and
//! a `freecells` count), a deal's or a position's JSON (`game` and its `freecells` slots), a
//! position string's `name:` prefix (`seahaven_towers: ...`), and a move list's `# start:`
//! line naming its start that way (`analyze --report`'s `game.txt`). Freecell Solver's board
//! text names none (fc-solve reads no comment line in a board).

use super::reading::{read_family_text, FamilyText};
use fcauto_deals::game::MAX_FREECELLS;
use fcauto_deals::{Game, Rules};

/// How a text names its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedBy {
    /// fcauto's family solution JSON: an object with `game` and a `freecells` count.
    SolutionJson,
    /// A deal's or a position's JSON: an object with `game` and its `freecells` slots (or
    /// none).
    PositionJson,
    /// A position string whose first word is a game's name and a colon.
    Position,
    /// A move list's `# start:` line holding such a position string.
    StartLine,
}

impl NamedBy {
    /// True when the text is a solution (its moves follow), not a start alone.
    pub fn is_solution(self) -> bool {
        matches!(self, NamedBy::SolutionJson | NamedBy::StartLine)
    }
}

/// The game a text names, its rules with the freecells the text gives, and how it names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedGame {
    /// The game named.
    pub game: &'static Game,
    /// Its rules with the text's freecells (the game's own when the text gives none or an
    /// impossible number).
    pub rules: Rules,
    /// How the text names it.
    pub by: NamedBy,
}

/// The game `text` names (see the module docs), whatever its rules (standard FreeCell's
/// too: a caller that reads standard FreeCell itself filters with `rules.is_standard()`).
/// A byte-order mark and blank or `#` lines before a position string are read past. `None`
/// for text that names no game (board text, a position string without a name, FreeCell's
/// JSON) or one this fcauto does not know.
pub fn named_game(text: &str) -> Option<NamedGame> {
    let text = text.trim_start_matches('\u{feff}').trim_start();
    if text.starts_with('{') {
        return json_game(text);
    }
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    if let Some(named) = line.and_then(position_game) {
        return Some(named);
    }
    let FamilyText {
        start: Some((Some(game), layout)),
        ..
    } = read_family_text(text).ok()?
    else {
        return None;
    };
    Some(NamedGame {
        game,
        rules: with_cells(game, Some(layout.freecells.len() as u64)),
        by: NamedBy::StartLine,
    })
}

/// A JSON object's `game`, with its `freecells` count (a solution) or slots (a deal).
fn json_game(text: &str) -> Option<NamedGame> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let game = Game::find(v.get("game")?.as_str()?).ok()?;
    let (cells, by) = match v.get("freecells") {
        Some(serde_json::Value::Number(n)) => (n.as_u64(), NamedBy::SolutionJson),
        Some(serde_json::Value::Array(slots)) => (Some(slots.len() as u64), NamedBy::PositionJson),
        _ => (None, NamedBy::PositionJson),
    };
    Some(NamedGame {
        game,
        rules: with_cells(game, cells),
        by,
    })
}

/// A position string's `name:` prefix, with as many freecells as its freecell field has
/// slots (the game's own when the rest does not read).
fn position_game(line: &str) -> Option<NamedGame> {
    let name = line.split_whitespace().next()?.strip_suffix(':')?;
    let game = Game::find(name).ok()?;
    let cells = fcauto_deals::position::parse_layout(line)
        .ok()
        .map(|(_, l)| l.freecells.len() as u64);
    Some(NamedGame {
        game,
        rules: with_cells(game, cells),
        by: NamedBy::Position,
    })
}

/// `game`'s rules with `cells` freecells when that is a number of freecells a game may have.
fn with_cells(game: &'static Game, cells: Option<u64>) -> Rules {
    match cells.and_then(|n| u8::try_from(n).ok()) {
        Some(n) if n as usize <= MAX_FREECELLS => game.rules.with_freecells(n),
        _ => game.rules,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::{deal_game, PysolNumber};

    const SEA5: &str = "seahaven_towers: AH9CKDJC2H/8SKH5H7DTC/2D4D6S5STH/QS2C8DQH6D/4C3CTD8C6H/9H4S7S9D6C/2S3SJDKSQC/3D5D7HQDJS/5CKC8H4H9S/AS3HJHACAD -7CTS- 0000";

    /// Each way a text names its game, with the freecells it gives; text that names none.
    #[test]
    fn texts_name_their_game() {
        let sea = Game::find("seahaven_towers").unwrap();
        assert_eq!(sea.rules.freecells, 4);
        let named = |t: &str| named_game(t).map(|n| (n.game.name, n.rules.freecells, n.by));
        let start_line = format!("# a game\n# start: {SEA5}\n1. 0h 2. 0h\n");
        let two = fcauto_deals::position::write_layout(
            Game::freecell(),
            &fcauto_deals::deal_with_rules(
                Game::freecell(),
                &Rules::FREECELL.with_freecells(2),
                PysolNumber::plain(5).unwrap(),
            )
            .unwrap(),
        );
        let cases = [
            (
                format!("\u{feff}# a comment\n{SEA5}\n"),
                ("seahaven_towers", 4, NamedBy::Position),
            ),
            (
                r#"{"game":"seahaven_towers","deal":5,"freecells":[null,"7C","TS",null,null]}"#
                    .into(),
                ("seahaven_towers", 5, NamedBy::PositionJson),
            ),
            (
                r#"{"game":"bakers_game","freecells":2,"deal":5,"moves":[]}"#.into(),
                ("bakers_game", 2, NamedBy::SolutionJson),
            ),
            (start_line, ("seahaven_towers", 4, NamedBy::StartLine)),
        ];
        for (text, want) in cases {
            assert_eq!(named(&text), Some(want), "{text}");
        }
        // FreeCell with 2 freecells names itself (`freecell: ...`, two slots).
        assert_eq!(
            named(&two),
            Some(("freecell", 2, NamedBy::Position)),
            "{two}"
        );
        let board = deal_game(sea, PysolNumber::plain(5).unwrap()).board_text();
        for none in [
            "KS QS\n",
            "AH9CKDJC2H/8SKH5H7DTC -- 0000",
            r#"{"deal":5,"moves":[]}"#,
            "nosuchgame: x y z",
            "1a 2h",
            board.as_str(),
        ] {
            assert_eq!(named(none), None, "{none}");
        }
    }
}
