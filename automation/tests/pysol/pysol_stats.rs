//! statistics.dat decoding against real PySolFC 3.2.0 files and hostile input.

use std::path::{Path, PathBuf};

use fcauto_automation::pysol::pickle_guard::{self, Limits, PickleError};
use fcauto_automation::pysol::stats::{self, GameResult, Layout, StatsError};
use fcauto_automation::pysol::stats_diff::diff;
use fcauto_automation::pysol::FREECELL_GAME_ID;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/pysolfc")
        .join(rel)
}

fn bytes(rel: &str) -> Vec<u8> {
    std::fs::read(fixture(rel)).unwrap()
}

fn pickle_err(data: &[u8]) -> PickleError {
    match stats::parse(data) {
        Err(StatsError::Pickle { reason, .. }) => reason,
        other => panic!("expected a pickle guard error, got {other:?}"),
    }
}

#[test]
fn shared_win_fixture_has_one_perfect_freecell_win() {
    let s = stats::load(&fixture("shared-ms617/statistics.dat")).unwrap();
    assert_eq!(s.layout, Layout::V3);
    assert_eq!(s.version, Some(vec![3, 2, 0]));
    assert_eq!(s.saved, Some(2));
    let g = s.game(Some("tester"), FREECELL_GAME_ID).unwrap();
    assert_eq!(
        (g.played, g.won, g.won_perfect, g.won_not_perfect, g.lost),
        (2, 1, 1, 0, 1)
    );
    let moves = g.moves.as_ref().unwrap();
    assert_eq!((moves.count, moves.best), (1, 155.0));
    assert_eq!(moves.top[0].game_number.as_deref(), Some("ms617"));
    assert!(g.time.as_ref().unwrap().best > 60.0);
    let p = s.player(Some("tester")).unwrap();
    assert_eq!(p.all_games.as_ref().unwrap().won, 1);
    let results: Vec<_> = p.past_games.iter().map(|g| g.result).collect();
    assert_eq!(results, [GameResult::Lost, GameResult::Perfect]);
    assert!(p
        .past_games
        .iter()
        .all(|g| g.game_number.as_deref() == Some("ms617")));
    assert_eq!(s.won(Some("tester"), FREECELL_GAME_ID), 1);
    assert_eq!(s.won_by_anyone(FREECELL_GAME_ID), 1);
}

#[test]
fn shared_loss_to_win_diff_is_plus_one_won() {
    let before = stats::load(&fixture("shared-ms617/statistics-lost-only.dat")).unwrap();
    let after = stats::load(&fixture("shared-ms617/statistics.dat")).unwrap();
    assert_eq!(before.won(Some("tester"), FREECELL_GAME_ID), 0);
    let d = diff(&before, &after);
    assert_eq!(d.won_delta(Some("tester"), FREECELL_GAME_ID), 1);
    assert_eq!(d.changes.len(), 1);
    assert_eq!(d.changes[0].lost.delta, 0);
    assert_eq!(d.new_past_games.len(), 1);
    assert_eq!(d.new_past_games[0].game.result, GameResult::Perfect);
    assert!(diff(&after, &after).is_empty());
    assert!(d.warning.is_none() && d.decreases.is_empty() && d.lost_past_games.is_empty());
    // swapped: the counts go down, which no run of PySolFC does
    let back = diff(&after, &before);
    assert_eq!(back.won_delta(Some("tester"), FREECELL_GAME_ID), -1);
    let counters: Vec<(&str, i64)> = back
        .decreases
        .iter()
        .map(|x| (x.counter, x.game_id))
        .collect();
    assert!(counters.contains(&("played", 8)) && counters.contains(&("played", 0)));
    assert_eq!(back.lost_past_games, vec![Some("tester".to_string())]);
    let w = back.warning.unwrap();
    assert!(
        w.contains("statistics reset or two different profiles"),
        "{w}"
    );
}

#[test]
fn own_fresh_and_abandoned_fixtures() {
    let fresh = stats::load(&fixture("fresh")).unwrap();
    assert!(fresh.players.is_empty(), "{fresh:?}");
    let ab = stats::load(&fixture("abandoned/statistics.dat")).unwrap();
    let g = ab.game(Some("fixture"), FREECELL_GAME_ID).unwrap();
    assert_eq!((g.played, g.won, g.lost), (1, 0, 1));
    let d = diff(&fresh, &ab);
    assert_eq!(d.won_delta(Some("fixture"), FREECELL_GAME_ID), 0);
    assert_eq!(d.changes[0].lost.delta, 1);
}

#[test]
fn every_truncation_of_a_real_file_is_a_clean_error() {
    let data = bytes("shared-ms617/statistics.dat");
    for n in 0..data.len() {
        assert!(
            stats::parse(&data[..n]).is_err(),
            "prefix of {n} bytes decoded"
        );
    }
    assert!(matches!(
        pickle_err(&data[..100]),
        PickleError::Truncated { .. }
    ));
}

#[test]
fn trailing_bytes_are_ignored_and_counted() {
    // Python's pickle.load (and so PySolFC) stops at STOP and ignores the rest.
    let clean = stats::parse(&bytes("shared-ms617/statistics.dat")).unwrap();
    assert_eq!(clean.trailing_bytes, 0);
    let mut data = bytes("shared-ms617/statistics.dat");
    data.extend_from_slice(b"junk\n\x00\xff");
    let s = stats::parse(&data).unwrap();
    assert_eq!(s.trailing_bytes, 7);
    assert_eq!(s.players, clean.players);
    // a second, complete pickle after the first is ignored the same way
    let mut twice = bytes("shared-ms617/statistics.dat");
    twice.extend(bytes("abandoned/statistics.dat"));
    let s = stats::parse(&twice).unwrap();
    assert_eq!(s.players, clean.players);
    assert_eq!(s.trailing_bytes, bytes("abandoned/statistics.dat").len());
}

/// PySolFC 2.0 on Python 2: protocol 2 with old-style instances (`OBJ`); the figures are
/// what PySolFC 3.2's own loader shows for this file.
#[test]
fn pysolfc_2_0_python2_file_decodes_with_pysolfc_3_2s_figures() {
    let s = stats::load(&fixture("pysolfc-2.0-statistics.dat")).unwrap();
    assert_eq!(s.layout, Layout::V2);
    assert_eq!(s.version, Some(vec![2, 0]));
    assert_eq!(s.trailing_bytes, 0);
    let counts = |id: i64| {
        let g = s.game(Some("anon"), id).unwrap();
        (g.played, g.won_not_perfect, g.won_perfect, g.lost)
    };
    assert_eq!(counts(11003), (28, 8, 3, 17));
    assert_eq!(counts(29), (2, 0, 0, 2));
    assert_eq!(counts(55), (2, 0, 0, 2));
    let p = s.player(Some("anon")).unwrap();
    let all = p.all_games.as_ref().unwrap();
    assert_eq!(
        (all.played, all.won_not_perfect, all.won_perfect, all.lost),
        (32, 8, 3, 21)
    );
    assert_eq!(p.games.len(), 3);
    let m = s.game(Some("anon"), 11003).unwrap().moves.as_ref().unwrap();
    assert!(m.count > 0 && m.top.iter().all(|t| t.game_id == Some(11003)));
}

#[test]
fn loading_leaves_the_file_unchanged() {
    for f in ["pysolfc-2.0-statistics.dat", "shared-ms617/statistics.dat"] {
        let path = fixture(f);
        let before = std::fs::read(&path).unwrap();
        let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
        stats::load(&path).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), before, "{f}");
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            mtime,
            "{f}"
        );
    }
}

#[test]
fn empty_file_directory_and_missing_file() {
    assert_eq!(pickle_err(b""), PickleError::Empty);
    let dir = std::env::temp_dir().join(format!("fcauto-statsdir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    assert!(matches!(stats::load(&dir), Err(StatsError::IsDirectory(_))));
    let empty = dir.join("statistics.dat.empty");
    std::fs::write(&empty, b"").unwrap();
    let e = stats::load(&empty).unwrap_err().to_string();
    assert!(e.contains("empty file"), "{e}");
    let missing = dir.join("nope.dat");
    assert!(matches!(
        stats::load(&missing),
        Err(StatsError::NotFound(_))
    ));
    assert!(stats::load_optional(&missing).unwrap().is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wrong_protocol_and_non_pickles() {
    assert_eq!(pickle_err(b"\x80\x06}."), PickleError::Protocol(6));
    assert!(matches!(
        pickle_err(b"{\"a\": 1}"),
        PickleError::Opcode { opcode: b'{', .. }
    ));
    // A valid pickle that is not a Statistics object.
    assert!(matches!(
        stats::parse(b"\x80\x04}."),
        Err(StatsError::Layout { .. })
    ));
}

#[test]
fn unknown_classes_and_calls_are_refused_before_decoding() {
    // os.system via STACK_GLOBAL (protocol 4)
    let e = pickle_err(b"\x80\x04\x8c\x02os\x8c\x06system\x93)\x81.");
    assert!(
        matches!(e, PickleError::UnknownClass { ref module, .. } if module == "os"),
        "{e:?}"
    );
    // the classic protocol-0 exploit: GLOBAL posix.system + REDUCE
    let e = pickle_err(b"cposix\nsystem\n(S'echo pwned'\ntR.");
    assert!(matches!(e, PickleError::UnknownClass { .. }), "{e:?}");
    // REDUCE of something that is not a class (a memoized string) is refused
    let e = pickle_err(b"\x80\x02X\x01\x00\x00\x00x\x94)R.");
    assert!(
        matches!(e, PickleError::Opcode { opcode: b'R', .. }),
        "{e:?}"
    );
    // an allowed class called with REDUCE is only recorded as data (class + args)
    let (v, _) = pickle_guard::decode(
        b"cpysollib.mfxutil\nStruct\n(K\x01tR.",
        &Limits::default(),
        stats::ALLOWED_CLASSES,
    )
    .unwrap();
    let o = v.as_object().unwrap();
    assert_eq!(
        (o.module.as_str(), o.name.as_str()),
        ("pysollib.mfxutil", "Struct")
    );
    assert_eq!(o.args, vec![pickle_guard::Value::Int(1)]);
    // a renamed class in an otherwise real file
    let data = bytes("shared-ms617/statistics.dat");
    let pos = data.windows(10).position(|w| w == b"Statistics").unwrap();
    let mut evil = data.clone();
    evil[pos..pos + 10].copy_from_slice(b"Subprocess");
    assert!(matches!(
        pickle_err(&evil),
        PickleError::UnknownClass { .. }
    ));
}

#[test]
fn deep_nesting_is_refused() {
    // 100 nested lists on the stack, then appended into each other.
    let mut p = vec![b']'; 100];
    p.extend(vec![b'a'; 99]);
    p.push(b'.');
    assert!(matches!(pickle_err(&p), PickleError::Limit(ref m) if m.contains("nesting")));
    // nesting through memo references keeps the stack small
    let mut p = b"]\x94".to_vec();
    for i in 0..200u32 {
        p.extend_from_slice(b"0]j"); // POP the previous level, new list, LONG_BINGET it
        p.extend_from_slice(&i.to_le_bytes());
        p.extend_from_slice(b"a\x94"); // APPEND, MEMOIZE
    }
    p.push(b'.');
    assert!(matches!(pickle_err(&p), PickleError::Limit(ref m) if m.contains("nesting")));
    // a million open MARKs
    let mut p = vec![b'('; 1_000_000];
    p.push(b'.');
    assert!(matches!(pickle_err(&p), PickleError::Limit(ref m) if m.contains("MARK")));
}

#[test]
fn huge_declared_lengths_are_refused_without_allocating() {
    for p in [
        &b"\x80\x04\x8d\xff\xff\xff\xff\xff\xff\xff\x7f"[..], // BINUNICODE8 2^63-1
        &b"X\xff\xff\xff\xffabc"[..],                         // BINUNICODE 4 GiB
        &b"B\x00\x00\x00\x10abc"[..],                         // BINBYTES 256 MiB
    ] {
        assert!(matches!(pickle_err(p), PickleError::Length { .. }), "{p:?}");
    }
    let limits = Limits {
        max_bytes: 1000,
        ..Limits::default()
    };
    let e = pickle_guard::check(&[b'N'; 2000], &limits, &[]).unwrap_err();
    assert!(matches!(e, PickleError::TooLarge { size: 2000, .. }));
}

#[test]
fn shared_reference_explosion_is_refused() {
    // L0 = [None, None]; L(k+1) = [Lk, Lk]: 2^40 leaves once expanded.
    let mut p = b"]NaNa\x94".to_vec();
    for k in 0..40u8 {
        p.extend_from_slice(&[b'0', b']', b'h', k, b'a', b'h', k, b'a', 0x94]);
    }
    p.push(b'.');
    assert!(matches!(pickle_err(&p), PickleError::Limit(ref m) if m.contains("expanded")));
}

#[test]
fn cycles_and_dup_are_refused() {
    assert!(
        matches!(pickle_err(b"]\x94h\x00a."), PickleError::Limit(ref m) if m.contains("recursive"))
    );
    assert!(matches!(
        pickle_err(b"]2a."),
        PickleError::Opcode { opcode: b'2', .. }
    ));
}

#[test]
fn random_mutations_of_real_files_never_panic() {
    let files = [
        "shared-ms617/statistics.dat",
        "abandoned/statistics.dat",
        "fresh/statistics.dat",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut ok = 0;
    for f in files {
        let data = bytes(f);
        for _ in 0..3000 {
            let mut m = data.clone();
            for _ in 0..1 + next() % 4 {
                let i = (next() as usize) % m.len();
                m[i] = next() as u8;
            }
            if stats::parse(&m).is_ok() {
                ok += 1;
            }
        }
    }
    // some mutations only touch values (e.g. a float), so a few must still decode
    assert!(ok > 0);
}
