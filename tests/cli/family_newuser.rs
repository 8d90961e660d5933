//! Regressions from trying the FreeCell family's commands as a new user (issue 44's report):
//! `msN` is the Microsoft deal wherever `--game` reads a deal or a range (`analyze`, `bench`,
//! `batch run`); a file that names its game is read as that game without `--game` (or the
//! error says to give it); `show --game` refuses another game's position as `solve` does;
//! messages name the right range, say a reason once, and name a place the game lacks;
//! `bench --game freecell` plays Mersenne Twister numbers as PySolFC deals them; and an
//! unsolved family JSON writes `moves_total` null.

use crate::common::{fcauto, ok, run};
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Seahaven Towers deal 5 as a position string naming its game.
fn sea5_pos() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/family/seahaven-5.pos")
}

/// `fcauto ARGS -o DIR/NAME`: the file written.
fn written(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let p = dir.join(name);
    let mut all = args.to_vec();
    all.extend_from_slice(&["-o", s(&p)]);
    let (code, _, err) = run(&all);
    assert!(code == 0 || code == 1, "fcauto {all:?}: {err}");
    p
}

/// `analyze --game G --deal msN` plays the Microsoft deal N (the solution `solve` found for
/// `msN` analyses cleanly), `--game freecell` too.
#[test]
fn analyze_reads_ms_numbers_as_microsoft_deals() {
    let dir = tempfile::tempdir().unwrap();
    for deal in ["ms40001", "ms617"] {
        let sol = written(
            dir.path(),
            &format!("{deal}.txt"),
            &["solve", "--game", "bakers_game", deal, "--mode", "fast"],
        );
        ok(&["verify", "--game", "bakers_game", "--deal", deal, s(&sol)]);
        let out = ok(&["analyze", "--game", "bakers_game", "--deal", deal, s(&sol)]);
        assert!(out.contains("moves analysed"), "{deal}: {out}");
    }
    let sol = written(dir.path(), "f.txt", &["solve", "ms40000", "--mode", "fast"]);
    let out = ok(&[
        "analyze",
        "--game",
        "freecell",
        "--deal",
        "ms40000",
        s(&sol),
    ]);
    assert!(out.contains("moves analysed"), "{out}");
}

/// `bench --game G --range msA..msB` benches the Microsoft deals (the verdicts `solve`
/// gives for each `msN`), says so, and differs from `A..B` (PySolFC's Mersenne Twister
/// deals); a range mixing `msN` with a plain number from 32000 on is refused (exit 2).
#[test]
fn bench_ranges_of_ms_numbers_are_microsoft_deals() {
    let bench = |range: &str| {
        ok(&[
            "bench",
            "--game",
            "bakers_game",
            "--range",
            range,
            "--threads",
            "1",
        ])
    };
    let ms = bench("ms40000..ms40002");
    assert!(ms.contains("deals ms40000..ms40002"), "{ms}");
    for n in 40000..=40002 {
        let deal = format!("ms{n}");
        let (code, _, _) = run(&["solve", "--game", "bakers_game", &deal, "--mode", "fast"]);
        let listed = ms
            .lines()
            .find(|l| l.contains("proven unsolvable"))
            .unwrap()
            .contains(&n.to_string());
        assert_eq!(code == 1, listed, "{deal}: {ms}");
    }
    let mt = bench("40000..40002");
    assert_ne!(
        ms.lines().nth(2),
        mt.lines().nth(2),
        "msN and MT deals agree:\n{ms}\n{mt}"
    );
    let (code, _, err) = run(&["bench", "--game", "bakers_game", "--range", "ms5..40000"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("mixes msN"), "{err}");
    let out = ok(&["bench", "--game", "freecell", "--range", "ms40000..ms40002"]);
    assert!(out.contains("solved and validated: 3"), "{out}");
}

/// `bench --game freecell` over Mersenne Twister numbers plays PySolFC's deals, each as
/// `solve --game freecell N --mode fast` solves it (its board, not Microsoft's deal N);
/// `--vs-fc-solve`, whose range solver deals Microsoft's deals, is a usage problem there.
#[test]
fn bench_plays_mersenne_twister_deals_of_standard_freecell() {
    let out = ok(&[
        "bench",
        "--game",
        "freecell",
        "--range",
        "40000..40002",
        "--json",
        "-",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for row in v["rows"].as_array().unwrap() {
        let n = row["deal"].as_u64().unwrap().to_string();
        let solved = ok(&[
            "solve", "--game", "freecell", &n, "--mode", "fast", "--format", "json",
        ]);
        let solved: serde_json::Value = serde_json::from_str(&solved).unwrap();
        assert_eq!(row["moves_total"], solved["moves_total"], "{n}");
        assert_eq!(row["single_card_moves"], solved["single_card_moves"], "{n}");
    }
    assert_eq!(v["summary"]["numbering"], "pysolfc", "{v}");
    let args = [
        "bench",
        "--game",
        "freecell",
        "--range",
        "40000..40002",
        "--vs-fc-solve",
    ];
    let (code, _, err) = run(&args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(err.contains("Mersenne Twister"), "{args:?}: {err}");
}

/// `solve --game freecell N` from 32000 on names PySolFC's deal in its picture's caption
/// and its replay page's title (they said "the board" and "FreeCell board").
#[test]
fn pictures_of_a_mersenne_twister_deal_name_it() {
    let args = ["solve", "--game", "freecell", "40000", "--mode", "fast"];
    let svg = ok(&[&args[..], &["--format", "svg", "--step", "5"]].concat());
    assert!(
        svg.contains(">freecell deal 40000, after move 5 of "),
        "{svg}"
    );
    let html = ok(&[&args[..], &["--format", "html"]].concat());
    assert!(
        html.contains("<title>freecell deal 40000: solution replay</title>"),
        "{html}"
    );
    let svg = ok(&["solve", "617", "--mode", "fast", "--format", "svg"]);
    assert!(svg.contains(">deal 617, the start (0 of "), "{svg}");
}

/// `bench`'s text gives the single-card moves of every game that has them (Baker's Game's
/// were in its JSON only), and none for a game whose runs move as a unit.
#[test]
fn bench_text_gives_single_card_moves_of_each_game_that_has_them() {
    let out = ok(&["bench", "--game", "bakers_game", "--range", "1..3"]);
    assert!(out.contains("single_card_moves:    mean"), "{out}");
    let out = ok(&["bench", "--game", "relaxed_freecell", "--range", "1..3"]);
    assert!(!out.contains("single_card_moves"), "{out}");
}

/// With `--game`, a deal number out of range names PySolFC's range (to 10^20).
#[test]
fn game_numbers_out_of_range_name_pysolfcs_range() {
    for n in ["-5", "0", "0x10"] {
        let (code, _, err) = run(&["deal", "--game", "bakers_game", n]);
        assert_eq!(code, 2, "{n}: {err}");
        assert!(err.contains("10^20"), "{n}: {err}");
    }
    let (code, _, err) = run(&["solve", "--game", "bakers_game", "1e30"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("PySolFC's largest"), "{err}");
    assert!(!err.contains("2^33-1"), "{err}");
}

/// A family solution JSON of an unsolvable deal writes `moves_total` null, as FreeCell's.
#[test]
fn unsolved_family_json_has_null_moves_total() {
    let out = run(&["solve", "--game", "ko_bakers_game", "5", "--format", "json"]).1;
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_ne!(v["solvable"], true, "{v}");
    assert!(v["moves_total"].is_null(), "{v}");
    let out = run(&["solve", "--game", "bakers_game", "5", "--format", "json"]).1;
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["moves_total"].as_u64().unwrap() as usize,
        v["moves"].as_array().unwrap().len()
    );
}

/// A board that does not fit its game is refused with its reason said once.
#[test]
fn board_refusals_say_their_reason_once() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.board");
    let deck = ok(&["deal", "1"])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    std::fs::write(&one, format!("{deck}\n\n\n\n\n\n\n\n")).unwrap();
    let sea = written(
        dir.path(),
        "sea5.json",
        &[
            "solve",
            "--game",
            "seahaven_towers",
            "5",
            "--mode",
            "fast",
            "--format",
            "json",
        ],
    );
    for (board, reason) in [
        (&one, "too deep"),
        (&sea, "is a solution of seahaven_towers, not of bakers_game"),
    ] {
        let (code, _, err) = run(&["solve", "--game", "bakers_game", "--board", s(board)]);
        assert_ne!(code, 0, "{err}");
        assert_eq!(err.matches(reason).count(), 1, "{err}");
    }
}

/// A move from or to a cascade the game lacks names how many it has, `99` as `9a`.
#[test]
fn moves_on_a_missing_cascade_name_the_cascades() {
    let dir = tempfile::tempdir().unwrap();
    for mv in ["99", "9a"] {
        let f = dir.path().join("m.txt");
        std::fs::write(&f, format!("{mv}\n")).unwrap();
        let (code, out, err) = run(&["verify", "--game", "bakers_game", "--deal", "5", s(&f)]);
        assert_ne!(code, 0, "{mv}: {out}");
        assert!(
            format!("{out}{err}").contains("the game has 8 cascades"),
            "{mv}: {out}{err}"
        );
    }
}

/// `show --game G --board F` with F another game's position is refused, as `solve` does.
#[test]
fn show_refuses_another_games_position() {
    let pos = sea5_pos();
    for cmd in [&["show"][..], &["solve", "--mode", "fast"]] {
        let mut args = cmd.to_vec();
        args.extend_from_slice(&["--game", "relaxed_seahaven_towers", "--board", s(&pos)]);
        let (code, _, err) = run(&args);
        assert_ne!(code, 0, "{args:?}");
        assert!(
            err.contains("is a position of seahaven_towers"),
            "{args:?}: {err}"
        );
    }
    let svg = ok(&["show", "--board", s(&pos)]);
    assert!(svg.contains("<svg"), "{svg}");
}

/// Without `--game`, a position string, a family deal JSON or solution JSON given as the
/// board is read as the game it names; a family JSON's moves are read by `analyze`; where
/// the board comes from standard input, it is read once and played as the game it names.
#[test]
fn files_that_name_their_game_are_read_as_it() {
    let dir = tempfile::tempdir().unwrap();
    let pos = sea5_pos();
    let deal = dir.path().join("d.json");
    std::fs::write(
        &deal,
        ok(&["deal", "--game", "seahaven_towers", "5", "--format", "json"]),
    )
    .unwrap();
    let sea = written(
        dir.path(),
        "sea5.json",
        &[
            "solve",
            "--game",
            "seahaven_towers",
            "5",
            "--mode",
            "fast",
            "--format",
            "json",
        ],
    );
    let moves = written(
        dir.path(),
        "sea5.txt",
        &["solve", "--game", "seahaven_towers", "5", "--mode", "fast"],
    );
    for board in [&pos, &deal, &sea] {
        let (code, _, err) = run(&["solve", "--board", s(board), "--mode", "fast"]);
        assert_eq!(code, 0, "{}: {err}", board.display());
        assert!(err.contains("validated"), "{err}");
        ok(&["analyze", "--board", s(board), s(&moves)]);
    }
    let b5 = written(
        dir.path(),
        "b5.json",
        &[
            "solve",
            "--game",
            "bakers_game",
            "5",
            "--mode",
            "fast",
            "--format",
            "json",
        ],
    );
    let a = ok(&["analyze", "--game", "bakers_game", "--deal", "5", s(&b5)]);
    let own = ok(&["analyze", s(&b5)]);
    assert!(a.contains("moves analysed"), "{a}");
    assert_eq!(
        a.lines().skip(1).collect::<Vec<_>>(),
        own.lines().skip(1).collect::<Vec<_>>()
    );
    let (code, _, err) = run(&["analyze", s(&pos)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--game seahaven_towers"), "{err}");
    let text = std::fs::read(&pos).unwrap();
    let out = fcauto()
        .args(["solve", "--board", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("seahaven_towers board solved"), "{err}");
}

/// `batch run --game G --range msA..msB` stores Microsoft's deals (as `microsoft`
/// numbering, the verdicts `bench` gives for the same range); a run of plain numbers from
/// 32000 on into that database is refused, one below 32000 goes on.
#[cfg(feature = "batch")]
#[test]
fn batch_ranges_of_ms_numbers_are_microsoft_deals() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ms.sqlite");
    let game = ["--game", "bakers_game"];
    let run_range = |range: &str| {
        let mut args = vec![
            "batch",
            "run",
            "--range",
            range,
            "--threads",
            "1",
            "--db",
            s(&db),
        ];
        args.extend_from_slice(&game);
        run(&args)
    };
    let (code, _, err) = run_range("ms40000..ms40002");
    assert_eq!(code, 0, "{err}");
    let r: serde_json::Value =
        serde_json::from_str(&ok(&["batch", "report", s(&db), "--json", "--verify"])).unwrap();
    assert_eq!(r["numbering"], "microsoft", "{r}");
    assert_eq!(r["verification"]["invalid"], 0, "{r}");
    let b: serde_json::Value = serde_json::from_str(&ok(&[
        "bench",
        "--json",
        "-",
        "--game",
        "bakers_game",
        "--range",
        "ms40000..ms40002",
    ]))
    .unwrap();
    assert_eq!(r["verdicts"], b["summary"]["verdicts"], "{r}\n{b}");
    assert_eq!(r["unsolvable"], b["summary"]["unsolvable"], "{r}\n{b}");
    let (code, _, err) = run_range("40003..40004");
    assert_ne!(
        code, 0,
        "plain MT numbers went into a database of msN: {err}"
    );
    let (code, _, err) = run_range("1..2");
    assert_eq!(code, 0, "{err}");
}

/// The API names what was sent: a JSON number past 2^53 is refused without naming the
/// number JSON rounded it to; a game's deal out of range names PySolFC's range; `freecells`
/// alone with a position that names its game reads that game (no `game` was sent).
#[cfg(feature = "serve")]
#[test]
fn the_api_names_what_was_sent() {
    use crate::support::server::{self, agent, call};
    use serde_json::{json, Value};
    let s = server::start();
    let a = agent();
    let post = |path: &str, body: Value| call(&a, "POST", &format!("{}{path}", s.base), Some(body));
    let big: Value =
        serde_json::from_str(r#"{"deal": 99999999999999999999, "game": "bakers_game"}"#).unwrap();
    let (code, v) = post("/api/solve", big);
    assert_eq!(code, 400, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(
        e.contains("as a string") && !e.contains("100000000000000000000"),
        "{e}"
    );
    for body in [
        json!({"deal": "1e30", "game": "bakers_game"}),
        json!({"deal": -3, "game": "45"}),
        json!({"deal": "0x10", "game": "bakers_game"}),
    ] {
        let (code, v) = post("/api/solve", body.clone());
        assert_eq!(code, 400, "{body}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(
            e.contains("10^20") && !e.contains("8589934591"),
            "{body}: {e}"
        );
    }
    let (code, v) = call(&a, "GET", &format!("{}/api/deal/-3?game=45", s.base), None);
    assert_eq!(code, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("10^20"), "{v}");
    let position = "bakers_game: -/-/-/-/-/-/-/- ---- KKKK";
    let (_, v) = post("/api/moves", json!({"position": position, "freecells": 2}));
    let e = v["error"].as_str().unwrap_or_default();
    assert!(!e.contains("`game`"), "{v}");
    let (code, v) = post("/api/moves", json!({"position": position, "freecells": 4}));
    assert_eq!(code, 200, "{v}");
}

/// A bench of Microsoft's deals of another game (`msA..msB`) lists its deals as `msN`, as
/// its header writes the range: the plain number would name PySolFC's deal of that number.
#[test]
fn bench_lists_microsoft_deals_of_a_game_with_ms() {
    let out = ok(&[
        "bench",
        "--game",
        "seahaven_towers",
        "--range",
        "ms32003..ms32004",
    ]);
    assert!(out.contains("deals ms32003..ms32004"), "{out}");
    assert!(
        out.contains("proven unsolvable:    2 [ms32003, ms32004]"),
        "{out}"
    );
    let plain = ok(&[
        "bench",
        "--game",
        "seahaven_towers",
        "--range",
        "32003..32004",
    ]);
    assert!(!plain.contains("[ms"), "{plain}");
}
