//! The game a file names: a position string's `name:` prefix, a family solution JSON's or a
//! family deal JSON's `game` ([`named_game`]), so that a command given such a file without
//! `--game` reads it as that game, as `show` does; and the moves of fcauto's own family
//! solution JSON ([`family_json_moves`]).

use anyhow::Result;
use fcauto_deals::{Game, Rules};
use fcauto_solver::family::{FamilyMove, FamilySolutionJson};

/// The game `text` names and its rules with the freecells the file gives: a position
/// string whose first word is a game's name and a colon (`seahaven_towers: ...`: as many
/// freecells as its freecell field has slots), or a JSON object with a `game` (a solution's
/// `freecells` count, a deal's `freecells` slots; the game's own when neither reads). `None`
/// for text that names no game (board text, a position string without a name, FreeCell's
/// JSON), or names one this fcauto does not know.
pub fn named_game(text: &str) -> Option<(&'static Game, Rules)> {
    let text = text.trim_start_matches('\u{feff}').trim_start();
    if text.starts_with('{') {
        let v: serde_json::Value = serde_json::from_str(text).ok()?;
        let game = Game::find(v.get("game")?.as_str()?).ok()?;
        let cells = match v.get("freecells") {
            Some(serde_json::Value::Number(n)) => n.as_u64(),
            Some(serde_json::Value::Array(slots)) => Some(slots.len() as u64),
            _ => None,
        };
        return Some((game, with_cells(game, cells)));
    }
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))?;
    let name = line.split_whitespace().next()?.strip_suffix(':')?;
    let game = Game::find(name).ok()?;
    let cells = fcauto_deals::position::parse_layout(line)
        .ok()
        .map(|(_, l)| l.freecells.len() as u64);
    Some((game, with_cells(game, cells)))
}

/// `game`'s rules with `cells` freecells when that is a number of freecells a game may have.
fn with_cells(game: &'static Game, cells: Option<u64>) -> Rules {
    match cells.and_then(|n| u8::try_from(n).ok()) {
        Some(n) if n as usize <= fcauto_deals::game::MAX_FREECELLS => game.rules.with_freecells(n),
        _ => game.rules,
    }
}

/// The moves of fcauto's own family solution JSON (`fcauto solve --game G --format json`),
/// each its `from`, `to` and `count`; `None` when `text` is no family solution JSON.
///
/// # Errors
/// JSON of that shape that does not read as one, or a move that names no place.
pub fn family_json_moves(text: &str) -> Option<Result<Vec<FamilyMove>>> {
    if !crate::verify::family::is_family_json(text) {
        return None;
    }
    let read = || -> Result<Vec<FamilyMove>> {
        let json: FamilySolutionJson = serde_json::from_str(text.trim_start_matches('\u{feff}'))?;
        let moves = json.moves.iter().map(FamilyMove::from_json);
        Ok(moves.collect::<Result<Vec<_>, _>>()?)
    };
    Some(read())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEA5: &str = "seahaven_towers: AH9CKDJC2H/8SKH5H7DTC/2D4D6S5STH/QS2C8DQH6D/4C3CTD8C6H/9H4S7S9D6C/2S3SJDKSQC/3D5D7HQDJS/5CKC8H4H9S/AS3HJHACAD -7CTS- 0000";

    /// A position string, a deal JSON and a solution JSON name their game and freecells;
    /// board text, an unnamed position string and FreeCell's JSON name none.
    #[test]
    fn files_name_their_game() {
        let sea = Game::find("seahaven_towers").unwrap();
        let (g, r) = named_game(&format!("\u{feff}# a comment\n{SEA5}\n")).unwrap();
        assert_eq!((g.name, r), (sea.name, sea.rules));
        let deal = r#"{"game":"seahaven_towers","pysol_id":9,"deal":5,"freecells":[null,"7C","TS",null,null]}"#;
        assert_eq!(named_game(deal).unwrap().1.freecells, 5);
        let sol = r#"{"game":"bakers_game","freecells":2,"deal":5,"moves":[]}"#;
        let (g, r) = named_game(sol).unwrap();
        assert_eq!((g.name, r.freecells), ("bakers_game", 2));
        for none in [
            "KS QS\n",
            "AH9CKDJC2H/8SKH5H7DTC -- 0000",
            r#"{"deal":5,"moves":[]}"#,
            "nosuchgame: x y z",
        ] {
            assert!(named_game(none).is_none(), "{none}");
        }
    }

    /// fcauto's family JSON gives its moves; other text is not read here.
    #[test]
    fn family_json_gives_its_moves() {
        let text = r#"{"game":"bakers_game","freecells":4,"deal":5,"solvable":true,"moves_total":2,
            "moves":[{"step":1,"from":"1","to":"a","card":"2H","count":1,"notation":"1a"},
                     {"step":2,"from":"10","to":"h","card":"AH","count":1,"notation":"0h"}]}"#;
        let moves = family_json_moves(text).unwrap().unwrap();
        let notation: Vec<String> = moves.iter().map(|m| m.notation()).collect();
        assert_eq!(notation, ["1a", "0h"]);
        assert!(family_json_moves("1a 2h").is_none());
    }
}
