//! Held and saved PySolFC games: decoded history against what Python's own unpickler reads
//! (`<name>.expected.json`, written by the fixture generators), and the errors for other
//! games, versions, truncated and damaged files.

use std::path::{Path, PathBuf};

use fcauto_automation::pysol::savedgame::{self, AtomicMove, SavedGameError, Seed};
use serde_json::Value as Json;

fn synthetic(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/savedgame-synthetic")
        .join(name)
}

fn expected(path: &Path) -> Json {
    let mut p = path.as_os_str().to_owned();
    p.push(".expected.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// Compare everything the expected JSON holds with the decoded game.
fn assert_matches_python(path: &Path) -> savedgame::SavedGame {
    let e = expected(path);
    let g = savedgame::read_any(path).unwrap();
    assert_eq!(g.version, e["version"].as_str().unwrap());
    let vt: Vec<i64> = e["version_tuple"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(g.version_tuple, vt);
    assert_eq!(i64::from(g.game_id), e["game_id"].as_i64().unwrap());
    assert_eq!(g.seed.to_string(), e["seed"].as_str().unwrap());
    assert_eq!(g.finished, e["finished"].as_bool().unwrap());
    assert_eq!(g.move_index as i64, e["moves_index"].as_i64().unwrap());
    assert_eq!(g.held, Some(e["holded"].as_i64().unwrap() == 1));
    let stacks: Vec<Vec<(u32, bool)>> = g
        .stacks
        .iter()
        .map(|s| s.iter().map(|c| (c.id, c.face_up)).collect())
        .collect();
    let want: Vec<Vec<(u32, bool)>> = e["stacks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            s.as_array()
                .unwrap()
                .iter()
                .map(|c| (c[0].as_u64().unwrap() as u32, c[1].as_i64().unwrap() == 1))
                .collect()
        })
        .collect();
    assert_eq!(stacks, want);
    let hist = e["history"].as_array().unwrap();
    assert_eq!(g.history.len(), hist.len());
    for (k, (got, want)) in g.history.iter().zip(hist).enumerate() {
        let want = want.as_array().unwrap();
        assert_eq!(got.len(), want.len(), "entry {k}");
        for (a, w) in got.iter().zip(want) {
            assert_eq!(w[0].as_str().unwrap(), "AMoveMove");
            let w = (
                w[1].as_u64().unwrap() as u32,
                w[2].as_u64().unwrap() as u32,
                w[3].as_u64().unwrap() as u32,
            );
            assert_eq!(
                *a,
                AtomicMove::Move {
                    ncards: w.0,
                    from: w.1,
                    to: w.2
                },
                "entry {k}"
            );
        }
    }
    g
}

#[test]
fn synthetic_saved_game_matches_python_and_converts_to_notation() {
    let path = synthetic("saved-617-40.pso");
    let g = assert_matches_python(&path);
    assert_eq!(g.game_id, 8);
    assert_eq!(g.seed, Seed::Ms(617));
    assert_eq!(g.ms_deal, Some(617));
    assert_eq!(g.move_index, 40);
    assert_eq!(g.history.len(), 42);
    assert_eq!(g.held, Some(false));
    let h = savedgame::read(&path).unwrap().freecell_moves().unwrap();
    assert_eq!(h.deal, Some(617));
    assert_eq!(h.moves.len(), 40);
    // fc-solve's first moves of ms617: stack 7 to freecells 0,1,2, then stack 7 to stack 6.
    assert_eq!(&h.moves[..6], ["8a", "8b", "8c", "87", "a2", "c2"]);
    assert_eq!(
        h.position.cards_in_play()
            + h.position
                .foundations
                .iter()
                .map(|&n| n as usize)
                .sum::<usize>(),
        52
    );
}

#[test]
fn synthetic_held_game_and_won_game() {
    let g = assert_matches_python(&synthetic("holdgame-617-60.dat"));
    assert_eq!(g.held, Some(true));
    let h = g.freecell_moves().unwrap();
    assert_eq!(h.moves.len(), 60);
    let g = assert_matches_python(&synthetic("saved-617-won.pso"));
    assert!(g.finished);
    let h = g.freecell_moves().unwrap();
    assert_eq!(h.moves.len(), 155);
    assert!(h.position.is_won());
    // supermoves carry their count
    assert!(h.moves.iter().any(|m| m.contains('v')), "{:?}", h.moves);
}

#[test]
fn another_game_is_refused_by_read_and_decoded_by_read_any() {
    let path = synthetic("saved-klondike-id2.pso");
    let e = savedgame::read(&path).unwrap_err();
    assert!(
        matches!(e, SavedGameError::NotFreecell { game_id: 2, .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("not FreeCell"), "{e}");
    let g = assert_matches_python(&path);
    assert_eq!(g.ms_deal, None);
    assert!(matches!(
        g.freecell_moves(),
        Err(SavedGameError::NotFreecell { game_id: 2, .. })
    ));
}

/// A FreeCell game of PySolFC's own (Mersenne Twister) deal, its default new game: its random
/// state (a cyclic pickle: the generator's state holds its own bound `seed` method) is passed
/// over unread, and the file decodes as Python reads it. Its moves need a start: not a
/// Microsoft deal's (`freecell_moves` says so), but the stored stacks with the moves taken
/// back, a fresh deal, from which the moves replay to the stored position.
#[test]
fn a_mersenne_twister_game_starts_from_its_moves_taken_back() {
    let fresh = synthetic("saved-freecell-mt-deal.pso");
    assert_matches_python(&fresh);
    let g = savedgame::read(&fresh).unwrap();
    let e = g.freecell_moves().unwrap_err();
    assert!(
        matches!(&e, SavedGameError::NotMsDeal { seed, .. } if seed == "123456789012345678"),
        "{e:?}"
    );
    assert!(e.to_string().contains("not a Microsoft deal number"), "{e}");
    let h = g.freecell_game_of(&fresh).unwrap();
    assert_eq!(h.deal, None);
    assert!(h.moves.is_empty());
    assert_eq!(h.start, h.position);
    let heights: Vec<usize> = h.start.cascades.iter().map(Vec::len).collect();
    assert_eq!(heights, [7, 7, 7, 7, 6, 6, 6, 6]);

    // The same deal 30 moves on: taken back, the same start; replayed, the stored stacks.
    let played = synthetic("saved-freecell-mt-30.pso");
    assert_matches_python(&played);
    let g = savedgame::read(&played).unwrap();
    let h30 = g.freecell_game_of(&played).unwrap();
    assert_eq!(h30.deal, None);
    assert_eq!(h30.start, h.start);
    assert_eq!(h30.moves.len(), 30);
    assert_eq!(h30.position, g.board(&played).unwrap());
    let solution = std::fs::read_to_string(synthetic("mt-deal-fc-solve-m.txt")).unwrap();
    assert!(solution.lines().count() > 30);
}

#[test]
fn every_truncation_is_a_clean_error_naming_the_item() {
    let origin = Path::new("cut.pso");
    // (The Mersenne Twister game's random state is passed over: cut inside it too.)
    for name in ["saved-617-40.pso", "saved-freecell-mt-30.pso"] {
        let data = std::fs::read(synthetic(name)).unwrap();
        for n in 0..data.len() {
            let e = savedgame::parse(&data[..n], origin, true).unwrap_err();
            assert!(
                matches!(
                    e,
                    SavedGameError::Truncated { .. } | SavedGameError::Pickle { .. }
                ),
                "{name} cut at {n}: {e:?}"
            );
        }
    }
    let data = std::fs::read(synthetic("saved-617-40.pso")).unwrap();
    let e = savedgame::parse(&data[..data.len() / 2], origin, true).unwrap_err();
    let msg = e.to_string();
    assert!(msg.starts_with("cut.pso: truncated"), "{msg}");
}

#[test]
fn other_version_not_pysolfc_and_damaged_values() {
    let data = std::fs::read(synthetic("saved-617-40.pso")).unwrap();
    let origin = Path::new("x.pso");
    // another version: PySolFC 2.6.4 (same string length, so the frames stay valid)
    let mut v = data.clone();
    let at = v.windows(5).position(|w| w == b"3.2.0").unwrap();
    v[at..at + 5].copy_from_slice(b"2.6.4");
    // the tuple (3, 2, 0) as BININT1 3, BININT1 2, BININT1 0
    let t = v
        .windows(6)
        .position(|w| w == [b'K', 3, b'K', 2, b'K', 0])
        .unwrap();
    v[t + 1] = 2;
    v[t + 3] = 6;
    v[t + 5] = 4;
    let e = savedgame::parse(&v, origin, true).unwrap_err();
    assert!(
        matches!(e, SavedGameError::UnsupportedVersion { .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("PySolFC 2.6.4"), "{e}");
    // not PySolFC at all: a statistics file
    let stats = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/pysolfc/shared-ms617/statistics.dat"),
    )
    .unwrap();
    let e = savedgame::parse(&stats, origin, true).unwrap_err();
    assert!(
        matches!(
            e,
            SavedGameError::Pickle { .. } | SavedGameError::NotPySolFC { .. }
        ),
        "{e:?}"
    );
    // a renamed class (code) in the history is refused before anything is built
    let mut evil = data.clone();
    let at = evil.windows(9).position(|w| w == b"AMoveMove").unwrap();
    evil[at..at + 9].copy_from_slice(b"AFakeMove");
    let e = savedgame::parse(&evil, origin, true).unwrap_err();
    assert!(
        matches!(
            e,
            SavedGameError::Pickle {
                item: "the move history",
                ..
            }
        ),
        "{e:?}"
    );
    // a history that does not fit the stored position: swap two cards in a cascade
    let g = savedgame::parse(&data, origin, true).unwrap();
    let mut g2 = g.clone();
    let col = (5..13).find(|&s| g2.stacks[s].len() >= 2).unwrap(); // a cascade
    g2.stacks[col].swap(0, 1);
    let e = g2.freecell_moves().unwrap_err();
    assert!(matches!(e, SavedGameError::Inconsistent { .. }), "{e:?}");
    // random byte changes never panic
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..3000 {
        let mut m = data.clone();
        for _ in 0..3 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let i = (seed as usize) % m.len();
            m[i] = (seed >> 32) as u8;
        }
        if let Ok(g) = savedgame::parse(&m, origin, false) {
            let _ = g.freecell_moves();
        }
    }
}

#[test]
fn bytes_after_eof_are_ignored_and_bad_values_are_named() {
    let data = std::fs::read(synthetic("saved-617-40.pso")).unwrap();
    let origin = Path::new("x.pso");
    let mut more = data.clone();
    more.extend_from_slice(b"junk");
    let g = savedgame::parse(&more, origin, true).unwrap();
    assert_eq!(g.trailing_bytes, 4);
    assert_eq!(g.freecell_moves().unwrap().moves.len(), 40);
    // game id 0 (PySolFC's loader: validate(id > 0)); the id is the sixth pickle,
    // PROTO 5, BININT1 8, STOP
    let at = data
        .windows(5)
        .position(|w| w == [0x80, 5, b'K', 8, b'.'])
        .unwrap();
    let mut zero = data.clone();
    zero[at + 3] = 0;
    let e = savedgame::parse(&zero, origin, false).unwrap_err();
    assert!(
        matches!(
            e,
            SavedGameError::Damaged {
                item: "the game id",
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "x.pso: damaged PySolFC game: the game id: 0 is outside 1..=4294967295"
    );
    // "EOF" replaced: FreeCell writes nothing else there
    let at = data.windows(3).rposition(|w| w == b"EOF").unwrap();
    let mut eof = data.clone();
    eof[at..at + 3].copy_from_slice(b"EOX");
    let e = savedgame::parse(&eof, origin, true).unwrap_err();
    assert!(
        e.to_string().contains("where FreeCell writes \"EOF\""),
        "{e}"
    );
}

#[test]
fn reading_leaves_the_file_unchanged() {
    let path = synthetic("holdgame-617-60.dat");
    let before = std::fs::read(&path).unwrap();
    let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
    savedgame::read(&path).unwrap();
    savedgame::read_any(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), mtime);
}

#[test]
fn missing_and_empty_files() {
    let e = savedgame::read(Path::new("/nonexistent/holdgame.dat")).unwrap_err();
    assert!(matches!(e, SavedGameError::NotFound(_)), "{e:?}");
    let e = savedgame::parse(b"", Path::new("e.dat"), true).unwrap_err();
    assert!(matches!(e, SavedGameError::Truncated { .. }), "{e:?}");
}
