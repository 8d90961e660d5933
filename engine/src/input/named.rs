//! The moves of fcauto's own family solution JSON ([`family_json_moves`]). The game a file
//! names is read by [`fcauto_solver::family::named_game`].

use anyhow::Result;
use fcauto_solver::family::{FamilyMove, FamilySolutionJson};

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
