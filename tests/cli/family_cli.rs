//! `fcauto solve --game G` / `--freecells N`: the FreeCell family's games solved by the
//! family search, their exit codes, and the refusals (bad game, bad count, modes and formats
//! the family search does not offer).

use crate::common::fcauto;

/// Run fcauto with `args`: (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = fcauto().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn two_freecells_deal_1_is_proved_unsolvable() {
    let (code, out, err) = run(&["solve", "--freecells", "2", "1"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, "# unsolvable\n");
    assert!(err.contains("is unsolvable: exhaustive search of"), "{err}");
}

#[test]
fn bakers_game_solves_to_validated_json() {
    let (code, out, err) = run(&["solve", "--game", "45", "2", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("validated"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["game"], "bakers_game");
    assert_eq!(v["freecells"], 4);
    assert_eq!(v["deal"], 2);
    assert_eq!(v["solvable"], true);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(v["moves_total"].as_u64().unwrap() as usize, moves.len());
    assert_eq!(moves.iter().filter(|m| m["to"] == "h").count(), 52);
    let names: Vec<&str> = [
        "1", "2", "3", "4", "5", "6", "7", "8", "a", "b", "c", "d", "h",
    ]
    .to_vec();
    for m in moves {
        for key in ["from", "to"] {
            assert!(names.contains(&m[key].as_str().unwrap()), "{m}");
        }
        for key in ["step", "card", "count", "notation"] {
            assert!(!m[key].is_null(), "{m}");
        }
    }
}

#[test]
fn family_games_solve_in_standard_notation_in_both_modes() {
    for game in ["bakers_game", "ko_bakers_game", "relaxed_freecell"] {
        for mode in ["fast", "short"] {
            let (code, out, err) = run(&["solve", "--game", game, "--mode", mode, "3"]);
            assert_eq!(code, 0, "{game} {mode}: {err}");
            let tokens: Vec<&str> = out.split_whitespace().collect();
            assert!(
                tokens.iter().filter(|t| t.ends_with('h')).count() == 52,
                "{out}"
            );
            assert!(out.lines().all(|l| l.split(' ').count() <= 10), "{out}");
        }
    }
}

#[test]
fn standard_rules_keep_the_fast_path() {
    let (_, plain, _) = run(&["solve", "617", "--mode", "fast"]);
    let (code, four, _) = run(&["solve", "617", "--mode", "fast", "--freecells", "4"]);
    assert_eq!(code, 0);
    assert_eq!(plain, four);
    let (code, named, _) = run(&["solve", "617", "--mode", "fast", "--game", "freecell"]);
    assert_eq!(code, 0);
    assert_eq!(plain, named);
}

#[test]
fn refusals_are_one_clear_line() {
    let cases: &[(&[&str], i32, &str)] = &[
        (&["--game", "klondike", "1"], 2, "unknown game `klondike`"),
        (&["--freecells", "9", "1"], 2, "--freecells"),
        (
            &["--game", "bakers_game", "--mode", "optimal", "1"],
            2,
            "optimal modes",
        ),
        (
            &["--game", "bakers_game", "--format", "fcs", "1"],
            2,
            "standard, json, svg, png or html",
        ),
        (
            &["--freecells", "3", "--cross-check", "1"],
            2,
            "--cross-check",
        ),
        (&["--game", "bakers_game", "--board", "-"], 2, "--board"),
        (&["--game", "freecell", "40000"], 1, "Mersenne Twister"),
    ];
    for (args, want, text) in cases {
        let mut all = vec!["solve"];
        all.extend_from_slice(args);
        let (code, out, err) = run(&all);
        assert_eq!(code, *want, "{args:?}: {err}");
        assert!(err.contains(text), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}

/// Games that deal cards into freecells, and PySolFC's Mersenne Twister numbers, are dealt as
/// PySolFC deals them and solved, each solution replayed by the family's validator.
#[test]
fn pysolfc_layouts_and_numbers_are_solved() {
    for args in [
        &["solve", "--game", "seahaven_towers", "1"][..],
        &["solve", "--game", "eight_off", "617"],
        &["solve", "--game", "bakers_game", "40000"],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(err.contains("validated"), "{args:?}: {err}");
        assert!(!out.trim().is_empty(), "{args:?}");
    }
}

#[test]
fn a_state_limit_says_unknown() {
    let (code, out, err) = run(&["solve", "--freecells", "2", "1", "--max-states", "1000"]);
    assert_eq!(code, 1, "{err}");
    assert!(out.starts_with("# unknown: state limit of 1000 "), "{out}");
    assert!(err.contains("unknown"), "{err}");
}

#[test]
fn bench_counts_a_family_range() {
    let (code, out, err) = run(&["bench", "--game", "bakers_game", "--range", "1..20"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("bakers_game, deals 1..20 (fast): "),
        "{out}"
    );
    assert!(out.contains("0 unknown"), "{out}");
    let (code, _, err) = run(&[
        "bench",
        "--freecells",
        "2",
        "--range",
        "1..3",
        "--vs-fc-solve",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--vs-fc-solve is for standard FreeCell only"),
        "{err}"
    );
}
