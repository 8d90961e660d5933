//! Saved and held games of the FreeCell family's other games (Baker's Game, Seahaven
//! Towers, Eight Off, FreeCell with 2 reserves), written by PySolFC 3.2's own code
//! (`tests/fixtures/savedgame-family/make.py`): the game from the file's id, the stacks in
//! that game's order, the start PySolFC dealt and the moves it recorded.

use std::path::{Path, PathBuf};

use fcauto_automation::pysol::savedgame::{self, GameHistory, SavedGameError};
use fcauto_deals::{Game, PysolNumber};
use serde_json::Value as Json;

fn family(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/savedgame-family")
        .join(name)
}

fn json(path: &Path, ext: &str) -> Json {
    let mut p = path.as_os_str().to_owned();
    p.push(ext);
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// (file, PySolFC id, number, moves played, held)
const FILES: &[(&str, u32, &str, usize, bool)] = &[
    ("holdgame-bakers-617-20.dat", 45, "ms617", 20, true),
    ("saved-seahaven-40000-15.pso", 9, "40000", 15, false),
    ("holdgame-seahaven-40000-15.dat", 9, "40000", 15, true),
    ("holdgame-eightoff-617-12.dat", 258, "ms617", 12, true),
    ("holdgame-fc2-ms5-10.dat", 1900, "ms5", 10, true),
];

#[test]
fn every_family_game_reads_with_its_deal_and_moves() {
    for &(name, id, number, played, held) in FILES {
        let path = family(name);
        let e = json(&path, ".expected.json");
        let saved = savedgame::read_any(&path).unwrap();
        assert_eq!(saved.game_id, id, "{name}");
        assert_eq!(
            saved.seed.to_string(),
            e["seed"].as_str().unwrap(),
            "{name}"
        );
        assert_eq!(saved.stacks.len(), e["stacks"].as_array().unwrap().len());
        assert_eq!(saved.held, Some(held), "{name}");
        let GameHistory::Family(h) = saved.game_history(&path).unwrap() else {
            panic!("{name}: not read as a family game");
        };
        let game = Game::by_pysol_id(id).unwrap();
        assert_eq!(h.game, game);
        let n = PysolNumber::parse(number).unwrap();
        assert_eq!(h.number, Some(n), "{name}");
        assert_eq!(h.start, fcauto_deals::deal_game(game, n), "{name}");
        assert_eq!(h.position, saved.layout(&path).unwrap());
        assert_eq!(h.position.cascades.len(), game.rules.cascades as usize);
        assert_eq!(h.position.freecells.len(), game.rules.freecells as usize);
        // The moves are the solution's first ones, as PySolFC recorded them.
        let sol = json(&path, ".solution.json");
        let want: Vec<String> = sol["moves"].as_array().unwrap()[..played]
            .iter()
            .map(|m| {
                let count = m["count"].as_u64().unwrap();
                // The JSON names the tenth cascade "10", standard notation `0`.
                let place = |k: &str| m[k].as_str().unwrap().replace("10", "0");
                let mut t = format!("{}{}", place("from"), place("to"));
                if count > 1 {
                    t.push_str(&format!("v{count:x}"));
                }
                t
            })
            .collect();
        assert_eq!(h.moves, want, "{name}");
    }
}

/// Seahaven Towers' tenth cascade is written `0`, Eight Off's eighth freecell `i`: the
/// stacks PySolFC creates first (Seahaven's reserves) are read as freecells.
#[test]
fn seahaven_and_eight_off_keep_their_cells() {
    let path = family("holdgame-seahaven-40000-15.dat");
    let h = savedgame::read_any(&path)
        .unwrap()
        .game_history(&path)
        .unwrap();
    assert_eq!(h.game().pysol_id, 9);
    let start = h.start_layout();
    assert_eq!(start.cascades.len(), 10);
    assert_eq!(start.freecells.iter().flatten().count(), 2);
    let path = family("holdgame-eightoff-617-12.dat");
    let h = savedgame::read_any(&path)
        .unwrap()
        .game_history(&path)
        .unwrap();
    assert_eq!(h.start_layout().freecells.iter().flatten().count(), 4);
    assert_eq!(h.start_layout().freecells.len(), 8);
}

#[test]
fn freecell_stays_freecell_and_unknown_ids_are_named() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/savedgame-synthetic/holdgame-617-60.dat");
    let h = savedgame::read_any(&path)
        .unwrap()
        .game_history(&path)
        .unwrap();
    assert!(matches!(h, GameHistory::Freecell(ref f) if f.deal == Some(617)));
    assert_eq!(h.moves().len(), 60);
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/savedgame-synthetic/saved-klondike-id2.pso");
    let e = savedgame::read_any(&path)
        .unwrap()
        .game_history(&path)
        .unwrap_err();
    assert!(
        matches!(e, SavedGameError::UnknownGame { game_id: 2, .. }),
        "{e}"
    );
    let msg = e.to_string();
    assert!(
        msg.contains("game id 2 is not FreeCell") && msg.contains("45 Baker's Game"),
        "{msg}"
    );
}

/// A file whose stored stacks do not follow from its history is refused, naming the place.
#[test]
fn a_history_that_misses_the_stored_position_is_refused() {
    let path = family("holdgame-bakers-617-20.dat");
    let mut saved = savedgame::read_any(&path).unwrap();
    saved.move_index -= 1; // the last move's card now stands where no history put it
    let e = saved.game_history(&path).unwrap_err().to_string();
    assert!(e.contains("the move history does not fit the game"), "{e}");
}
