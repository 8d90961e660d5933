//! The family's optimal modes everywhere `solve --game G --mode M` has them: `batch run`
//! stores the lengths `solve` proves (and its database keeps game, rules and mode for a
//! resumed run and `report --verify`), `analyze` reports them from the start, and a mode
//! `solve` refuses for a game (`optimal-ph`; `optimal` for the unlimited-sequence games) is
//! refused by all three alike: exit 2, the same one line. Needs `--features batch`.

use crate::common::{ok, run};
use rusqlite::Connection;
use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `solve GAME.. N --mode MODE`: its solution's moves (standard notation, one token a move)
/// and its standard error.
fn solve(game: &[&str], deal: &str, mode: &str) -> (Vec<String>, String) {
    let mut args = vec!["solve"];
    args.extend_from_slice(game);
    args.extend_from_slice(&[deal, "--mode", mode]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{args:?}: {err}");
    (out.split_whitespace().map(str::to_string).collect(), err)
}

/// Each stored row of `db`: deal, mode, verdict, moves_total.
fn rows(db: &Path) -> Vec<(u64, String, String, Option<u64>)> {
    let conn = Connection::open(db).unwrap();
    let mut st = conn
        .prepare("SELECT deal, mode, verdict, moves_total FROM results ORDER BY deal")
        .unwrap();
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// `batch run --mode M` of a family game stores, deal by deal, the length `solve --mode M`
/// proves minimal; the database keeps its game, rules and mode: a run without --game goes
/// on with them, one in another mode is refused, and `report --verify` replays every row.
#[test]
fn batch_stores_the_lengths_solve_proves() {
    let dir = tempfile::tempdir().unwrap();
    for (game, deals, mode) in [
        (&["--game", "bakers_game"][..], 1..=3u64, "optimal"),
        (&["--game", "seahaven_towers"], 1..=2, "optimal-moves"),
        (&["--game", "eight_off"], 2..=2, "optimal"),
        (&["--freecells", "5"], 2..=2, "optimal-moves"),
        (&["--game", "relaxed_freecell"], 2..=2, "optimal-moves"),
    ] {
        let db = dir.path().join(format!("{}-{mode}.sqlite", game[1]));
        let range = format!("{}..{}", deals.start(), deals.end());
        let mut args = vec!["batch", "run", "--range", &range, "--mode", mode];
        args.extend_from_slice(game);
        args.extend_from_slice(&["--db", s(&db)]);
        ok(&args);
        let want: Vec<_> = deals
            .clone()
            .map(|n| {
                let (moves, err) = solve(game, &n.to_string(), mode);
                assert!(err.contains("proved minimal"), "{game:?} {n}: {err}");
                let len = Some(moves.len() as u64);
                (n, mode.to_string(), "solved".to_string(), len)
            })
            .collect();
        assert_eq!(rows(&db), want, "{game:?} {mode}");
        let report: serde_json::Value =
            serde_json::from_str(&ok(&["batch", "report", s(&db), "--json", "--verify"])).unwrap();
        assert_eq!(report["mode"], mode, "{report}");
        assert_eq!(report["verification"]["invalid"], 0, "{report}");
    }
    // Resumed without --game: the database's game and rules, in its mode.
    let db = dir.path().join("bakers_game-optimal.sqlite");
    ok(&[
        "batch",
        "run",
        "--range",
        "1..4",
        "--mode",
        "optimal",
        "--db",
        s(&db),
    ]);
    let (moves, _) = solve(&["--game", "bakers_game"], "4", "optimal");
    assert_eq!(rows(&db)[3].3, Some(moves.len() as u64));
    let (code, _, err) = run(&["batch", "run", "--range", "1..4", "--db", s(&db)]);
    assert_eq!(code, 1, "another mode: {err}");
    assert!(err.contains("holds results of mode optimal"), "{err}");
}

/// `analyze --mode M` of a family game: the start is winnable in the length `solve --mode M`
/// proves (read from solve's own solution in `optimal`, whose moves are single cards; from
/// a `fast` solution, with sequence moves, in `optimal-moves`), and the JSON names the mode.
#[test]
fn analyze_reports_the_length_solve_proves() {
    let dir = tempfile::tempdir().unwrap();
    for (game, deal, mode, from) in [
        (&["--game", "bakers_game"][..], "3", "optimal", "optimal"),
        (&["--game", "seahaven_towers"], "1", "optimal-moves", "fast"),
        (&["--freecells", "5"], "2", "optimal", "optimal"),
        (
            &["--game", "relaxed_freecell"],
            "2",
            "optimal-moves",
            "fast",
        ),
    ] {
        let (best, _) = solve(game, deal, mode);
        let (played, _) = solve(game, deal, from);
        let file = dir.path().join(format!("{}-{deal}-{from}.txt", game[1]));
        std::fs::write(&file, played.join(" ") + "\n").unwrap();
        let mut args = vec!["analyze", "--deal", deal, "--mode", mode, "--json"];
        args.extend_from_slice(game);
        args.push(s(&file));
        let v: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
        assert_eq!(v["mode"], mode, "{args:?}");
        assert_eq!(v["start_verdict"], "winnable", "{args:?}: {v}");
        assert_eq!(v["start_moves_to_win"], best.len(), "{args:?}");
        assert_eq!(v["final"]["won"], true, "{args:?}");
    }
}

/// Where `solve` refuses a mode for a game, `batch run` and `analyze` refuse it with the
/// same one line and exit 2, before any file is made.
#[test]
fn a_mode_solve_refuses_is_refused_alike() {
    let dir = tempfile::tempdir().unwrap();
    let moves = dir.path().join("m.txt");
    std::fs::write(&moves, "7a\n").unwrap();
    let db = dir.path().join("none.sqlite");
    for (game, mode, says) in [
        (
            &["--game", "relaxed_freecell"][..],
            "optimal",
            "relaxed_freecell: --mode optimal counts single-card moves",
        ),
        (
            &["--game", "relaxed_seahaven_towers", "--freecells", "2"],
            "optimal",
            "relaxed_seahaven_towers with 2 freecells: --mode optimal counts single-card moves",
        ),
        (
            &["--game", "bakers_game"],
            "optimal-ph",
            "bakers_game: --mode optimal-ph (Paul & Helmert's move model) is for standard FreeCell only",
        ),
        (
            &["--freecells", "2"],
            "optimal-ph",
            "freecell with 2 freecells: --mode optimal-ph",
        ),
    ] {
        let mut solve = vec!["solve", "1", "--mode", mode];
        let mut batch = vec!["batch", "run", "--range", "1..2", "--mode", mode];
        let mut analyze = vec!["analyze", "--deal", "1", "--mode", mode, s(&moves)];
        for args in [&mut solve, &mut batch, &mut analyze] {
            args.extend_from_slice(game);
        }
        batch.extend_from_slice(&["--db", s(&db)]);
        let (code, _, line) = run(&solve);
        assert_eq!(code, 2, "{solve:?}: {line}");
        assert!(line.contains(says), "{solve:?}: {line}");
        assert_eq!(line.lines().count(), 1, "{solve:?}: {line}");
        for args in [&batch, &analyze] {
            let (code, out, err) = run(args);
            assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
            assert_eq!(err, line, "{args:?}");
        }
        assert!(!db.exists(), "{batch:?}");
    }
}

/// The review page's key says what the analysis's mode proves: in an optimal mode each
/// search's line is proved shortest, in `fast` it is not (as the text table's key says).
#[test]
fn the_review_page_key_follows_the_mode() {
    let dir = tempfile::tempdir().unwrap();
    let (played, _) = solve(&["--game", "bakers_game"], "3", "fast");
    let file = dir.path().join("bakers-3.txt");
    std::fs::write(&file, played.join(" ") + "\n").unwrap();
    for (mode, proved) in [("optimal", true), ("fast", false)] {
        let report = dir.path().join(mode);
        ok(&[
            "analyze",
            "--game",
            "bakers_game",
            "--deal",
            "3",
            "--mode",
            mode,
            s(&file),
            "--report",
            s(&report),
        ]);
        let page = std::fs::read_to_string(report.join("index.html")).unwrap();
        assert_eq!(page.contains("not proved shortest"), !proved, "{mode}");
        assert_eq!(page.contains("each line proved shortest"), proved, "{mode}");
    }
}

/// Fewer freecells than the game deals cards to (Eight Off deals to freecell 7) is a usage
/// problem in `bench` and `batch run` as in `deal` and `solve`: exit 2, one line, no
/// database made.
#[test]
fn too_few_freecells_for_the_deal_is_a_usage_problem_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("eo3.sqlite");
    let game = ["--game", "eight_off", "--freecells", "3"];
    let runs: [Vec<&str>; 4] = [
        [&["deal"][..], &game, &["1"]].concat(),
        [&["solve"][..], &game, &["1"]].concat(),
        [&["bench"][..], &game, &["--range", "1..3"]].concat(),
        [
            &["batch", "run"][..],
            &game,
            &["--range", "1..3", "--db", s(&db)],
        ]
        .concat(),
    ];
    for args in runs {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("needs at least 7 freecells, not 3"),
            "{args:?}: {err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    assert!(!db.exists());
}
