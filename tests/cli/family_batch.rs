//! `fcauto bench` and `fcauto batch` with `--game G` / `--freecells N`: the family search over
//! a range on several threads with the same verdicts as on one, the JSON naming the game, its
//! rules and the verdict counts, databases that keep their game (run, resume, merge, report,
//! `--verify` with the family's validator), the refusal of a run with other rules, and a
//! database made before the family still read as standard FreeCell. Needs `--features batch`.

use crate::common::{ok, run};
use rusqlite::Connection;
use serde_json::Value;
use std::path::Path;

/// `bench ... --json -`'s document.
fn bench_json(args: &[&str]) -> Value {
    let mut all = vec!["bench", "--json", "-"];
    all.extend_from_slice(args);
    serde_json::from_str(&ok(&all)).unwrap()
}

/// `batch report DB --json [--verify]`'s document.
fn report(db: &Path, verify: bool) -> Value {
    let mut args = vec!["batch", "report", s(db), "--json"];
    if verify {
        args.push("--verify");
    }
    serde_json::from_str(&ok(&args)).unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Each row's deal, verdict, length and positions: what another run must give again.
fn outcomes(v: &Value) -> Vec<(u64, String, Option<u64>, u64)> {
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["deal"].as_u64().unwrap(),
                r["verdict"].as_str().unwrap().to_string(),
                r["moves_total"].as_u64(),
                r["expanded"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn bench_on_two_threads_gives_the_counts_of_one() {
    let range = ["--game", "seahaven_towers", "--range", "1..20"];
    let one = bench_json(&[&range[..], &["--threads", "1"]].concat());
    let two = bench_json(&[&range[..], &["--threads", "2"]].concat());
    assert_eq!(two["summary"]["threads"], 2);
    for key in ["verdicts", "solved", "unsolvable", "unknown", "expanded"] {
        assert_eq!(one["summary"][key], two["summary"][key], "{key}");
    }
    assert_eq!(outcomes(&one), outcomes(&two));
    let total: u64 = ["solved", "impossible", "unknown"]
        .iter()
        .map(|k| one["summary"]["verdicts"][k].as_u64().unwrap())
        .sum();
    assert_eq!(total, 20);
}

#[test]
fn bench_json_names_the_game_its_rules_and_the_verdicts() {
    let v = bench_json(&["--game", "seahaven_towers", "--range", "1..4"]);
    let s = &v["summary"];
    assert_eq!(s["game"], "seahaven_towers");
    assert_eq!(s["pysol_id"], 9);
    assert_eq!(s["numbering"], "pysolfc");
    let rules = &s["rules"];
    assert_eq!(rules["cascades"], 10);
    assert_eq!(rules["freecells"], 4);
    assert_eq!(rules["build"], "suit");
    assert_eq!(rules["empty_cascade"], "kings");
    assert_eq!(rules["sequence_move"], "limited");
    assert_eq!(s["verdicts"]["solved"], 4, "{s}");
    // A run counts as the single-card moves that realise it.
    let single = v["rows"][0]["single_card_moves"].as_u64().unwrap();
    assert!(v["rows"][0]["moves_total"].as_u64().unwrap() > 0, "{v}");
    assert!(
        single >= v["rows"][0]["moves_total"].as_u64().unwrap(),
        "{v}"
    );

    // FreeCell with two freecells on Microsoft's deals: deal 1 is impossible.
    let v = bench_json(&["--freecells", "2", "--range", "1..3", "--threads", "2"]);
    let s = &v["summary"];
    assert_eq!(s["game"], "freecell");
    assert_eq!(s["numbering"], "microsoft");
    assert_eq!(s["rules"]["freecells"], 2);
    assert_eq!(s["verdicts"]["impossible"], 1, "{s}");
    assert_eq!(s["unsolvable"], serde_json::json!([1]));

    // Standard FreeCell's summary names its game too.
    let v = bench_json(&["--range", "1..2"]);
    assert_eq!(v["summary"]["game"], "freecell");
    assert_eq!(v["summary"]["rules"]["freecells"], 4);
    assert_eq!(v["summary"]["verdicts"]["solved"], 2);
}

/// The optimal modes bench too: every deal proved, a single-card optimum played in single
/// cards, never longer than `short`'s.
#[test]
fn bench_proves_family_optima() {
    let range = [
        "--game",
        "seahaven_towers",
        "--range",
        "1..3",
        "--threads",
        "1",
    ];
    let short = bench_json(&[&range[..], &["--mode", "short"]].concat());
    let moves = bench_json(&[&range[..], &["--mode", "optimal-moves"]].concat());
    let single = bench_json(&[&range[..], &["--mode", "optimal"]].concat());
    assert_eq!(single["summary"]["verdicts"]["solved"], 3, "{single}");
    for k in 0..3 {
        let n = |v: &serde_json::Value, key: &str| v["rows"][k][key].as_u64().unwrap();
        assert_eq!(n(&single, "moves_total"), n(&single, "single_card_moves"));
        assert!(n(&single, "single_card_moves") <= n(&short, "single_card_moves"));
        assert!(n(&single, "single_card_moves") <= n(&moves, "single_card_moves"));
        assert!(n(&moves, "moves_total") <= n(&short, "moves_total"));
        assert!(n(&moves, "moves_total") <= n(&single, "moves_total"));
    }
}

#[test]
fn bench_refuses_what_the_family_search_does_not_offer() {
    for (args, says) in [
        (
            &["--game", "relaxed_freecell", "--mode", "optimal"][..],
            "optimal-moves only: relaxed_freecell, relaxed_seahaven_towers",
        ),
        (
            &["--game", "bakers_game", "--mode", "optimal-ph"][..],
            "optimal-ph (Paul & Helmert's move model) is for standard FreeCell only",
        ),
        (
            &["--freecells", "2", "--vs-fc-solve"],
            "--vs-fc-solve is for standard FreeCell only",
        ),
    ] {
        let mut all = vec!["bench", "--range", "1..3"];
        all.extend_from_slice(args);
        let (code, _, err) = run(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn batch_stores_reports_and_verifies_family_games() {
    let dir = tempfile::tempdir().unwrap();
    for (game, range) in [
        (&["--game", "seahaven_towers"][..], "1..12"),
        (&["--freecells", "2"], "1..8"),
    ] {
        let db = dir.path().join(format!("{}.sqlite", game[1]));
        let mut args = vec!["batch", "run", "--range", range, "--threads", "2"];
        args.extend_from_slice(game);
        args.extend_from_slice(&["--db", s(&db)]);
        ok(&args);
        let r = report(&db, true);
        let b = bench_json(&[game, &["--range", range]].concat());
        let bs = &b["summary"];
        assert_eq!(r["game"], bs["game"], "{r}");
        assert_eq!(r["numbering"], bs["numbering"]);
        assert_eq!(r["game_rules"], bs["rules"]);
        assert_eq!(r["verdicts"], bs["verdicts"], "{game:?}");
        assert_eq!(r["unsolvable"], bs["unsolvable"]);
        assert_eq!(r["verification"]["invalid"], 0, "{r}");
        assert_eq!(
            r["verification"]["checked"], bs["verdicts"]["solved"],
            "{r}"
        );
        let text = ok(&["batch", "report", s(&db)]);
        assert!(
            text.contains(&format!("game {}", game_name(game))),
            "{text}"
        );
    }
}

/// The game's name as the report writes it.
fn game_name(args: &[&str]) -> &'static str {
    match args[0] {
        "--game" => "seahaven_towers",
        _ => "freecell",
    }
}

#[test]
fn a_family_database_resumes_and_merges_with_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite");
    ok(&[
        "batch",
        "run",
        "--game",
        "bakers_game",
        "--range",
        "1..5",
        "--db",
        s(&db),
    ]);
    // No --game: the database's own game is resumed.
    ok(&["batch", "run", "--range", "1..8", "--db", s(&db)]);
    let r = report(&db, false);
    assert_eq!(r["game"], "bakers_game");
    assert_eq!(r["rows"], 8);
    // Two shards of one range merge into the database of one run.
    let parts: Vec<_> = (1..=2)
        .map(|i| {
            let p = dir.path().join(format!("s{i}.sqlite"));
            let shard = format!("{i}/2");
            ok(&[
                "batch",
                "run",
                "--game",
                "bakers_game",
                "--range",
                "1..8",
                "--shard",
                &shard,
                "--block",
                "2",
                "--db",
                s(&p),
            ]);
            p
        })
        .collect();
    let merged = dir.path().join("m.sqlite");
    ok(&[
        "batch",
        "merge",
        s(&merged),
        s(&parts[0]),
        s(&parts[1]),
        "--expect-range",
        "1..8",
    ]);
    let m = report(&merged, true);
    assert_eq!(m["game"], "bakers_game");
    assert_eq!(m["verdicts"], r["verdicts"]);
    assert_eq!(m["verification"]["invalid"], 0);
    // Below 32000 Microsoft's and PySolFC's numbers deal the same deals: a database of
    // `msA..msB` merges with one of `A..B` under the first's numbering, as `batch run` goes
    // on in either; with a deal from 32000 on they are other deals, and are refused.
    let ms = dir.path().join("ms.sqlite");
    let game = ["--game", "bakers_game", "--db", s(&ms)];
    ok(&[&["batch", "run", "--range", "ms9..ms10"][..], &game].concat());
    let both = dir.path().join("both.sqlite");
    let expect = ["--expect-range", "1..10"];
    ok(&[&["batch", "merge", s(&both), s(&db), s(&ms)][..], &expect].concat());
    let m = report(&both, true);
    assert_eq!(
        (m["rows"].as_u64(), m["numbering"].as_str()),
        (Some(10), Some("pysolfc"))
    );
    assert_eq!(m["verification"]["invalid"], 0, "{m}");
    let text = ok(&["batch", "report", s(&both), "--verify"]);
    assert!(!text.contains("INVALID"), "{text}");
    ok(&[&["batch", "run", "--range", "ms32000..ms32000"][..], &game].concat());
    let refused = dir.path().join("refused.sqlite");
    let (code, _, err) = run(&["batch", "merge", s(&refused), s(&db), s(&ms)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cannot merge") && !refused.exists(), "{err}");
    // Every input is checked against every other, whatever their order: a Microsoft-numbered
    // database below 32000 does not merge with a PySolFC-numbered one from 32000 on, even
    // when a third input, checked first, agrees with both.
    let ms2 = dir.path().join("ms2.sqlite");
    ok(&[
        "batch",
        "run",
        "--game",
        "bakers_game",
        "--range",
        "ms11..ms12",
        "--db",
        s(&ms2),
    ]);
    let high = dir.path().join("high.sqlite");
    ok(&[
        "batch",
        "run",
        "--game",
        "bakers_game",
        "--range",
        "32000..32000",
        "--db",
        s(&high),
    ]);
    for order in [[&db, &high, &ms2], [&db, &ms2, &high], [&ms2, &db, &high]] {
        let (code, _, err) =
            run(&[&["batch", "merge", s(&refused)][..], &order.map(|p| s(p))].concat());
        assert_eq!(code, 1, "{order:?}: {err}");
        assert!(err.contains("cannot merge") && !refused.exists(), "{err}");
    }
}

#[test]
fn a_run_with_other_rules_is_refused_and_the_file_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.sqlite");
    ok(&[
        "batch",
        "run",
        "--game",
        "seahaven_towers",
        "--range",
        "1..3",
        "--db",
        s(&db),
    ]);
    let before = std::fs::read(&db).unwrap();
    for other in [
        &["--freecells", "2"][..],
        &["--game", "freecell"],
        &["--game", "seahaven_towers", "--freecells", "5"],
    ] {
        let mut args = vec!["batch", "run", "--range", "1..4", "--db", s(&db)];
        args.extend_from_slice(other);
        let (code, _, err) = run(&args);
        assert_eq!(code, 1, "{other:?}: {err}");
        assert!(
            err.contains("holds results of seahaven_towers (PySolFC's deals)")
                && err.contains("--game seahaven_towers"),
            "{other:?}: {err}"
        );
        assert_eq!(std::fs::read(&db).unwrap(), before, "{other:?}");
    }
    // A standard database refuses a family run, naming its game.
    let std_db = dir.path().join("f.sqlite");
    ok(&["batch", "run", "--range", "1..2", "--db", s(&std_db)]);
    let (code, _, err) = run(&[
        "batch",
        "run",
        "--range",
        "1..2",
        "--game",
        "eight_off",
        "--db",
        s(&std_db),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("holds results of standard FreeCell")
            && err.contains("no --game and no --freecells"),
        "{err}"
    );
    // A mode solve refuses for the game is refused before any file is made (the optimal
    // modes `solve --game` takes are run: tests/cli/family_optimal.rs).
    let none = dir.path().join("none.sqlite");
    let (code, _, err) = run(&[
        "batch",
        "run",
        "--range",
        "1..2",
        "--game",
        "eight_off",
        "--mode",
        "optimal-ph",
        "--db",
        s(&none),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(!none.exists());
}

/// `--game freecell` over a range reaching 32000 plays PySolFC's deals, the Mersenne
/// Twister's from 32000 on, as `solve --game freecell N` does: the database says so, its
/// solutions replay on those deals, and one of Microsoft's deals is refused its rows.
#[test]
fn standard_freecell_with_game_stores_pysolfcs_deals_from_32000_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("mt.sqlite");
    let range = ["--range", "31998..32003", "--game", "freecell"];
    ok(&[&["batch", "run", "--db", s(&db)][..], &range].concat());
    let r = report(&db, true);
    assert_eq!(r["numbering"], "pysolfc", "{r}");
    assert_eq!(r["rules"], "freecell, 4 freecells, pysolfc numbers", "{r}");
    assert_eq!(r["verification"]["invalid"], 0, "{r}");
    assert_eq!(r["verification"]["checked"], 6, "{r}");
    // The rows are bench's over the same deals, and not Microsoft's from 32000 on.
    let b = bench_json(&range);
    assert_eq!(r["verdicts"], b["summary"]["verdicts"], "{r}");
    let ms = bench_json(&["--range", "31998..32003"]);
    assert_eq!(outcomes(&b)[..2], outcomes(&ms)[..2]);
    assert_ne!(outcomes(&b)[2..], outcomes(&ms)[2..]);
    // Its text report has standard FreeCell's lines, as its JSON has their figures.
    let text = ok(&["batch", "report", s(&db)]);
    assert!(text.contains("single_card_moves:"), "{text}");
    assert!(text.contains("known impossible"), "{text}");
    // Resumed without --game, a range written msA..msB reaching 32000 names other deals
    // than the database's: refused, the file left alone.
    let before = std::fs::read(&db).unwrap();
    let (code, _, err) = run(&[
        "batch",
        "run",
        "--range",
        "ms32004..ms32005",
        "--db",
        s(&db),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("names Microsoft's deals"), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), before);
    // So is a merge expecting Microsoft's deals there; the plain range is its deals.
    let out = dir.path().join("merged.sqlite");
    let merge = |range: &str| {
        let args = ["batch", "merge", s(&out), s(&db), "--expect-range", range];
        run(&args)
    };
    let (code, _, err) = merge("ms31998..ms32003");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("names Microsoft's deals") && !out.exists(),
        "{err}"
    );
    let (code, _, err) = merge("31998..32003");
    assert_eq!(code, 0, "{err}");
    // A database of Microsoft's deals keeps them.
    let ms_db = dir.path().join("ms.sqlite");
    ok(&["batch", "run", "--range", "31999..32000", "--db", s(&ms_db)]);
    let (code, _, err) = run(&[&["batch", "run", "--db", s(&ms_db)][..], &range].concat());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("standard FreeCell (PySolFC's deals)"), "{err}");
}

#[test]
fn a_stored_family_solution_that_does_not_win_fails_verify() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("e.sqlite");
    ok(&[
        "batch",
        "run",
        "--game",
        "eight_off",
        "--range",
        "1..3",
        "--db",
        s(&db),
    ]);
    {
        let c = Connection::open(&db).unwrap();
        let sol: String = c
            .query_row("SELECT solution FROM results WHERE deal = 2", [], |r| {
                r.get(0)
            })
            .unwrap();
        // As many moves, each the first one again: the second is illegal.
        let tokens: Vec<&str> = sol.split(' ').collect();
        let bad = vec![tokens[0]; tokens.len()].join(" ");
        c.execute("UPDATE results SET solution = ?1 WHERE deal = 2", [bad])
            .unwrap();
    }
    let (code, out, err) = run(&["batch", "report", s(&db), "--verify"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("1 INVALID") && out.contains("deal 2: move 2"),
        "{out}"
    );
}

#[test]
fn a_database_made_before_the_family_reads_as_standard_freecell() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("old.sqlite");
    ok(&["batch", "run", "--range", "1..4", "--db", s(&db)]);
    // What a database of an fcauto before the family holds: no game in its meta.
    Connection::open(&db)
        .unwrap()
        .execute(
            "DELETE FROM meta WHERE key IN ('game', 'freecells', 'numbering')",
            [],
        )
        .unwrap();
    let r = report(&db, true);
    assert_eq!(r["rules"], "freecell");
    assert_eq!(r["game"], "freecell");
    assert_eq!(r["numbering"], "microsoft");
    assert_eq!(r["game_rules"]["freecells"], 4);
    assert_eq!(r["verification"]["invalid"], 0);
    // It resumes as standard FreeCell, and refuses another game.
    ok(&["batch", "run", "--range", "1..6", "--db", s(&db)]);
    assert_eq!(report(&db, false)["rows"], 6);
    let (code, _, err) = run(&[
        "batch",
        "run",
        "--range",
        "1..6",
        "--freecells",
        "3",
        "--db",
        s(&db),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("holds results of standard FreeCell"), "{err}");
}

#[test]
fn bench_plots_a_family_range() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("b.png");
    let csv = ok(&[
        "bench",
        "--game",
        "bakers_game",
        "--range",
        "1..10",
        "--plot-data",
        "-",
        "--plot",
        s(&png),
    ]);
    assert!(
        csv.starts_with("series,metric,value,deals,share_above\nfcauto,positions,"),
        "{csv}"
    );
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
}

/// Microsoft's deals of a game other than FreeCell are written `msN` by `batch run` and
/// `batch report`, as `bench` writes them: `bakers_game 32001` is PySolFC's Mersenne
/// Twister deal, another one.
#[test]
fn batch_writes_microsoft_deals_of_the_family_as_ms() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bk.sqlite");
    let (code, _, err) = run(&[
        "batch",
        "run",
        "--game",
        "bakers_game",
        "--range",
        "ms31998..ms32001",
        "--db",
        s(&db),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("deals ms31998..ms32001"), "{err}");
    assert!(err.contains("unsolvable 2 [ms31999, ms32001]"), "{err}");
    let text = ok(&["batch", "report", s(&db)]);
    assert!(text.contains("(deals ms31998..ms32001,"), "{text}");
    assert!(text.contains("2 [ms31999, ms32001]"), "{text}");
    let bench = ok(&[
        "bench",
        "--game",
        "bakers_game",
        "--range",
        "ms31998..ms32001",
    ]);
    assert!(bench.contains("ms31999, ms32001"), "{bench}");
}
