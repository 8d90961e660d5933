//! Real held and saved games written by PySolFC 3.2.0's GUI under Xvfb (deal 617 played with
//! the mouse, then *Save as* / *Hold and quit*; a Klondike game), against what PySolFC's own
//! loader reads from them (`<name>.expected.json`, `scripts/pysolfc-dump-game.py`).

use std::path::{Path, PathBuf};

use fcauto_automation::pysol::savedgame::{self, AtomicMove, SavedGame, SavedGameError};
use fcauto_deals::Board;
use serde_json::Value as Json;

fn real(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/pysolfc")
        .join(name)
}

fn expected(path: &Path) -> Json {
    let mut p = path.as_os_str().to_owned();
    p.push(".expected.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn atomic(a: &Json) -> AtomicMove {
    let id = |k: &str| a[k].as_u64().map(|n| n as u32);
    match a["class"].as_str().unwrap() {
        "AMoveMove" => AtomicMove::Move {
            ncards: id("ncards").unwrap(),
            from: id("from_stack_id").unwrap(),
            to: id("to_stack_id").unwrap(),
        },
        other => AtomicMove::Other {
            class: other.to_string(),
            stacks: ["stack_id", "from_stack_id", "to_stack_id"]
                .iter()
                .filter_map(|k| id(k))
                .collect(),
        },
    }
}

/// Everything PySolFC's loader reported, compared with the decoded game.
fn assert_matches_loader(name: &str, g: &SavedGame, e: &Json) {
    assert_eq!(g.version, e["version"].as_str().unwrap(), "{name}");
    let vt: Vec<i64> = e["version_tuple"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(g.version_tuple, vt, "{name}");
    assert_eq!(g.bookmark, e["bookmark"].as_i64().unwrap());
    assert_eq!(g.game_version, e["game_version"].as_i64().unwrap());
    assert_eq!(i64::from(g.game_id), e["game_id"].as_i64().unwrap());
    assert_eq!(g.seed.to_string(), e["seed"]["string"].as_str().unwrap());
    assert_eq!(g.talon_round, e["talon_round"].as_i64().unwrap());
    assert_eq!(g.finished, e["finished"].as_bool().unwrap());
    assert_eq!(
        g.trailing_bytes as u64,
        e["trailing_bytes"].as_u64().unwrap()
    );
    assert_eq!(g.held, Some(e["gstats"]["holded"].as_i64().unwrap() == 1));
    let stacks = e["stacks"].as_array().unwrap();
    assert_eq!(g.stacks.len(), stacks.len(), "{name}");
    for (s, want) in g.stacks.iter().zip(stacks) {
        let want: Vec<(u32, bool)> = want["cards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["id"].as_u64().unwrap() as u32,
                    c["face_up"].as_i64().unwrap() == 1,
                )
            })
            .collect();
        let got: Vec<(u32, bool)> = s.iter().map(|c| (c.id, c.face_up)).collect();
        assert_eq!(got, want, "{name}");
    }
    let moves = &e["moves"];
    assert_eq!(g.move_index as i64, moves["index"].as_i64().unwrap());
    let hist: Vec<Vec<AtomicMove>> = moves["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_array().unwrap().iter().map(atomic).collect())
        .collect();
    assert_eq!(g.history, hist, "{name}");
}

#[test]
fn real_freecell_held_and_saved_games_match_pysolfcs_loader() {
    for name in [
        "saved-617-lost.pso",
        "holdgame-617-lost.dat",
        "holdgame-617-winnable.dat",
    ] {
        let path = real(name);
        let e = expected(&path);
        let g = savedgame::read(&path).unwrap();
        assert_matches_loader(name, &g, &e);
        assert_eq!(g.ms_deal, Some(617));
        let h = g.freecell_moves().unwrap();
        let want: Vec<String> = e["freecell_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let n = m["ncards"].as_u64().unwrap();
                let t = m["move"].as_str().unwrap();
                if n > 1 {
                    format!("{t}v{n:x}")
                } else {
                    t.to_string()
                }
            })
            .collect();
        assert_eq!(h.moves, want, "{name}");
        assert_eq!(h.deal, Some(617));
    }
    // The lost game's 23 moves, with the 2-card supermove at step 17.
    let h = savedgame::read(&real("saved-617-lost.pso"))
        .unwrap()
        .freecell_moves()
        .unwrap();
    assert_eq!(h.moves.len(), 23);
    assert_eq!(h.moves[16], "72v2");
    assert_eq!(h.moves[20], "4c");
    // The winnable held game's position is the one the fixture's maker wrote down.
    let h = savedgame::read(&real("holdgame-617-winnable.dat"))
        .unwrap()
        .freecell_moves()
        .unwrap();
    let text = std::fs::read_to_string(real("holdgame-617-winnable.position.txt")).unwrap();
    assert_eq!(h.position, Board::parse(&text).unwrap());
}

#[test]
fn real_klondike_game_is_not_freecell_but_decodes_as_data() {
    let path = real("saved-klondike.pso");
    let e = savedgame::read(&path).unwrap_err();
    assert!(
        matches!(e, SavedGameError::NotFreecell { game_id: 2, .. }),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "{}: PySolFC game id 2 is not FreeCell (id 8); only FreeCell games can be read",
            path.display()
        )
    );
    let g = savedgame::read_any(&path).unwrap();
    assert_matches_loader("saved-klondike.pso", &g, &expected(&path));
    assert_eq!(g.ms_deal, None);
    assert!(matches!(
        g.freecell_moves(),
        Err(SavedGameError::NotFreecell { .. })
    ));
}

#[test]
fn reading_real_files_leaves_them_unchanged() {
    for name in ["holdgame-617-lost.dat", "saved-klondike.pso"] {
        let path = real(name);
        let bytes = std::fs::read(&path).unwrap();
        let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
        let _ = savedgame::read(&path);
        let _ = savedgame::read_any(&path);
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{name}");
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            mtime,
            "{name}"
        );
    }
}
