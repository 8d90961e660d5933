//! `fcauto verify` (and `analyze`, POST /api/verify) of the FreeCell family's solutions, for
//! the faults a new user's report found (issue 44): a start of another game than `--game`
//! refused in every way verify gets a start; a family JSON's claims checked as FreeCell's;
//! fc-solve's `-p -t -sam` positions checked and its start compared with the deal given;
//! fc-solve's `-m -sn` and `-sam -sn` output of a family game read (the tenth cascade `10`);
//! annotated games (`analyze --report`'s game.txt: move numbers, `{...}` comments,
//! `# start:`) read back; counts left out found by backtracking. Fixtures:
//! tests/fixtures/family/verify/ (Seahaven Towers deal 5 and Baker's Game deals 5 and 8,
//! solved by fcauto and by fc-solve 5).

use crate::common::{have, run};
use std::path::PathBuf;

/// A fixture's path, as text.
fn fx(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/family/verify")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Run each case: its arguments (`@name` a fixture), the exit code, and words the output
/// (stdout then stderr) must hold.
fn check(cases: &[(&[&str], i32, &[&str])]) {
    for (args, code, words) in cases {
        let args: Vec<String> = args
            .iter()
            .map(|a| a.strip_prefix('@').map_or(a.to_string(), fx))
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (got, out, err) = run(&args);
        let all = format!("{out}{err}");
        assert_eq!(got, *code, "{args:?}: {all}");
        for w in *words {
            assert!(all.contains(w), "{args:?}: no {w:?} in {all}");
        }
        assert!(!all.contains("panicked"), "{args:?}: {all}");
    }
}

/// Write `text` to a file of the test's own and give its path.
fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("fcauto-family-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// Item 1 (and 14's verify part): a start of another game than `--game`, however verify gets
/// it, is refused with exit 2 in one line naming both games, never replayed under the wrong
/// rules.
#[test]
fn newuser_1_a_start_of_another_game_is_refused() {
    let both = &["seahaven_towers", "bakers_game"][..];
    check(&[
        (
            &[
                "verify",
                "--game",
                "streets_and_alleys",
                "--board",
                "@sea5.json",
                "@sea5.txt",
            ],
            2,
            &["seahaven_towers", "streets_and_alleys"],
        ),
        (
            &[
                "verify",
                "--game",
                "bakers_game",
                "--board",
                "@sea5.json",
                "@sea5.txt",
            ],
            2,
            both,
        ),
        (
            &[
                "verify",
                "--game",
                "bakers_game",
                "--board",
                "@sea5.pos",
                "@sea5.txt",
            ],
            2,
            both,
        ),
        (
            &[
                "verify",
                "--game",
                "bakers_game",
                "--board",
                "@sea5.board",
                "@sea5.txt",
            ],
            2,
            both,
        ),
        (
            &[
                "verify",
                "--game",
                "bakers_game",
                "--board",
                "@sea5-deal.json",
                "@sea5.txt",
            ],
            2,
            both,
        ),
        (
            &[
                "verify",
                "--game",
                "eight_off",
                "--board",
                "@sea5.pos",
                "@sea5.txt",
            ],
            2,
            &["eight_off"],
        ),
        (&["verify", "--game", "bakers_game", "@sea5.json"], 2, both),
        (
            &[
                "verify",
                "--game",
                "bakers_game",
                "--deal",
                "5",
                "@sea5.json",
            ],
            2,
            both,
        ),
        (
            &[
                "verify",
                "--game",
                "bakers_game",
                "--deal",
                "5",
                "@sea5-fcs.txt",
            ],
            2,
            both,
        ),
        (
            &["verify", "--game", "bakers_game", "@sea5-fcs.txt"],
            2,
            both,
        ),
        (
            &[
                "verify",
                "--game",
                "bakers_game",
                "--deal",
                "5",
                "@seahaven-5-report.txt",
            ],
            2,
            both,
        ),
        (
            &[
                "verify",
                "--game",
                "freecell",
                "--deal",
                "5",
                "@seahaven-5-report.txt",
            ],
            2,
            &["seahaven_towers"],
        ),
        // The right game verifies.
        (
            &[
                "verify",
                "--game",
                "seahaven_towers",
                "--board",
                "@sea5.json",
                "@sea5.txt",
            ],
            0,
            &["valid: seahaven_towers, 104 moves"],
        ),
        (
            &[
                "verify",
                "--game",
                "seahaven_towers",
                "--board",
                "@sea5.pos",
                "@sea5.txt",
            ],
            0,
            &["valid"],
        ),
        (&["verify", "@sea5.json"], 0, &["valid: seahaven_towers"]),
        // --game freecell (standard FreeCell's rules) with a board of another game.
        (
            &[
                "verify",
                "--game",
                "freecell",
                "--board",
                "@sea5.json",
                "@sea5.txt",
            ],
            2,
            &["seahaven_towers", "freecell"],
        ),
        (
            &[
                "verify",
                "--game",
                "freecell",
                "--board",
                "@sea5.pos",
                "@sea5.txt",
            ],
            2,
            &["seahaven_towers", "freecell"],
        ),
        // Without --game, a board naming its game gives it.
        (
            &["verify", "--board", "@sea5.json", "@sea5.txt"],
            0,
            &["valid: seahaven_towers"],
        ),
        (
            &["verify", "--board", "@sea5.pos", "@sea5.txt"],
            0,
            &["valid: seahaven_towers"],
        ),
        (
            &["verify", "--board", "@sea5-deal.json", "@sea5.txt"],
            0,
            &["valid: seahaven_towers"],
        ),
        // A board file that is a solution naming its start: game.txt, fc-solve's -p -t.
        (
            &[
                "verify",
                "--game",
                "seahaven_towers",
                "--board",
                "@sea5-fcs.txt",
                "@sea5.txt",
            ],
            0,
            &["valid"],
        ),
        (
            &[
                "verify",
                "--game",
                "bakers_game",
                "--board",
                "@sea5-fcs.txt",
                "@sea5.txt",
            ],
            2,
            both,
        ),
        (
            &[
                "verify",
                "--game",
                "bakers_game",
                "--board",
                "@seahaven-5-report.txt",
                "@sea5.txt",
            ],
            2,
            both,
        ),
    ]);
    // Standard FreeCell's JSON under --game of another game (item 14): exit 2, as verify.md
    // says for a --game naming another game than the JSON's.
    let (code, ms5, err) = run(&["solve", "5", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let ms5 = temp("ms5.json", &ms5);
    check(&[(
        &["verify", "--game", "bakers_game", &ms5],
        2,
        &["standard FreeCell", "bakers_game"],
    )]);
}

/// Item 3: a family JSON's claims are checked as FreeCell JSON's are (exit 1 naming the
/// claim); moves given by `from` and `to` alone have their counts found.
#[test]
fn newuser_3_a_family_jsons_claims_are_checked() {
    let b5: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fx("b5.json")).unwrap()).unwrap();
    type Edit = fn(&mut serde_json::Value);
    let cases: [(Edit, &str); 9] = [
        (|v| v["solvable"] = false.into(), "contradicts itself"),
        (
            |v| v["solvable"] = serde_json::Value::Null,
            "contradicts itself",
        ),
        (|v| v["moves"][3]["step"] = 9.into(), "`step` says 9"),
        (|v| v["moves"][3]["notation"] = "2d".into(), "`notation` 2d"),
        (|v| v["moves_total"] = 5.into(), "`moves_total` says 5"),
        (|v| v["bogus"] = 1.into(), "unknown field `bogus`"),
        (
            |v| v["moves"][0]["bogus"] = 1.into(),
            "unknown field `bogus`",
        ),
        (
            |v| v["moves"][4]["card"] = "KS".into(),
            "`card` says it moves KS",
        ),
        (|v| v["moves"][4]["count"] = 2.into(), "move 5"),
    ];
    for (i, (edit, words)) in cases.iter().enumerate() {
        let mut v = b5.clone();
        edit(&mut v);
        let f = temp(&format!("b5-claim-{i}.json"), &v.to_string());
        let (code, out, err) = run(&["verify", &f]);
        assert_eq!(code, 1, "{words}: {out}{err}");
        assert!(err.contains(words), "{words}: {err}");
    }
    check(&[
        (
            &["verify", "@b5.json"],
            0,
            &["valid: bakers_game, 96 moves"],
        ),
        (
            &["verify", "@b5-fromto.json"],
            0,
            &["valid: bakers_game, 96 moves"],
        ),
    ]);
}

/// Item 4: fc-solve's `-p -t -sam` output of a family game: every position it prints is
/// checked against the one its moves lead to, and its first against the deal given.
#[test]
fn newuser_4_fc_solves_printed_positions_are_checked() {
    let fcs = std::fs::read_to_string(fx("sea5-fcs.txt")).unwrap();
    // A position after a move with two cards swapped, and one with six queens of spades.
    let mut lines: Vec<String> = fcs.lines().map(String::from).collect();
    let moved = lines.iter().position(|l| l.starts_with("Move ")).unwrap();
    let at = lines[moved..]
        .iter()
        .position(|l| l.starts_with(": QS 2C 8D QH 6D"))
        .map(|k| k + moved)
        .unwrap();
    let other = lines[at..]
        .iter()
        .position(|l| l.starts_with(": 2S 3S JD KS QC"))
        .map(|k| k + at)
        .unwrap();
    let mut swapped = lines.clone();
    swapped[at] = ": KS 2C 8D QH 6D".into();
    swapped[other] = ": 2S 3S JD QS QC".into();
    lines[at] = ": QS QS QS QS QS QS".into();
    let swapped = temp("sea5-fcs-swapped.txt", &swapped.join("\n"));
    let queens = temp("sea5-fcs-queens.txt", &lines.join("\n"));
    check(&[
        (
            &[
                "verify",
                "--game",
                "seahaven_towers",
                "--deal",
                "5",
                "@sea5-fcs.txt",
            ],
            0,
            &["valid"],
        ),
        (
            &["verify", "--game", "seahaven_towers", "@sea5-fcs.txt"],
            0,
            &["valid"],
        ),
        (
            &[
                "verify",
                "--game",
                "seahaven_towers",
                "--deal",
                "6",
                "@sea5-fcs.txt",
            ],
            2,
            &["starts from another board than the deal given"],
        ),
        (
            &[
                "verify",
                "--game",
                "seahaven_towers",
                "--board",
                "@sea5.pos",
                "@sea5-fcs.txt",
            ],
            0,
            &["valid"],
        ),
        (
            &[
                "verify",
                "--game",
                "seahaven_towers",
                "--deal",
                "5",
                &swapped,
            ],
            1,
            &["is not the one its moves lead to"],
        ),
        (
            &[
                "verify",
                "--game",
                "seahaven_towers",
                "--deal",
                "5",
                &queens,
            ],
            1,
            &["duplicate card QS"],
        ),
    ]);
}

/// Item 5: fc-solve's `-m -sn` and `-sam -sn` output of a family game reads (its `-=-=-`
/// header, verdict lines, `10h` for the tenth cascade, `k` for Eight Off's eighth freecell),
/// in verify and analyze.
#[test]
fn newuser_5_fc_solves_standard_notation_of_a_family_game_reads() {
    check(&[
        (
            &[
                "verify",
                "--game",
                "eight_off",
                "--deal",
                "3",
                "@eo3-sn.txt",
            ],
            0,
            &["valid: eight_off, 95 moves"],
        ),
        (
            &[
                "analyze",
                "--game",
                "eight_off",
                "--deal",
                "3",
                "@eo3-sn.txt",
            ],
            0,
            &["95 moves analysed"],
        ),
        (
            &[
                "verify",
                "--game",
                "bakers_game",
                "--deal",
                "5",
                "@bk5-sn.txt",
            ],
            0,
            &["valid: bakers_game, 123 moves"],
        ),
        (
            &[
                "verify",
                "--game",
                "seahaven_towers",
                "--deal",
                "5",
                "@sea5-sn.txt",
            ],
            0,
            &["valid: seahaven_towers, 106 moves"],
        ),
        (
            &[
                "analyze",
                "--game",
                "bakers_game",
                "--deal",
                "5",
                "@bk5-sn.txt",
            ],
            0,
            &["123 moves analysed"],
        ),
        (
            &[
                "analyze",
                "--game",
                "seahaven_towers",
                "--deal",
                "5",
                "@sea5-sn.txt",
            ],
            0,
            &["106 moves analysed"],
        ),
    ]);
    if !have("fc-solve") {
        return;
    }
    // `-sam -sn`: positions drawn in columns (`10H` reads like a move) between the moves.
    let out = std::process::Command::new("fc-solve")
        .args(["-g", "seahaven_towers", "-sam", "-sn", &fx("sea5.board")])
        .output()
        .unwrap();
    let sam = temp("sea5-sam-sn.txt", &String::from_utf8_lossy(&out.stdout));
    check(&[(
        &["verify", "--game", "seahaven_towers", "--deal", "5", &sam],
        0,
        &["valid: seahaven_towers, 106 moves"],
    )]);
}

/// Items 6 and 16: an annotated game (`analyze --report`'s game.txt) reads back in verify
/// and analyze, its `# start:` honoured; move numbers and `{...}` comments are read past;
/// counts left out are found by backtracking.
#[test]
fn newuser_6_and_16_annotated_games_and_counts_left_out_read() {
    let brace = temp("brace.txt", "2h {x} 2a\n");
    let numbered = temp("numbered.txt", "1. 2h 2. 2a\n");
    check(&[
        (
            &["verify", "@bakers-5-report.txt"],
            0,
            &["valid: bakers_game, 96 moves"],
        ),
        (
            &[
                "verify",
                "--game",
                "bakers_game",
                "--deal",
                "5",
                "@bakers-5-report.txt",
            ],
            0,
            &["valid"],
        ),
        (
            &[
                "verify",
                "--game",
                "bakers_game",
                "--deal",
                "6",
                "@bakers-5-report.txt",
            ],
            2,
            &["names its own start", "--deal 6"],
        ),
        (
            &["analyze", "@seahaven-5-report.txt"],
            0,
            &["2 moves analysed"],
        ),
        (
            &[
                "analyze",
                "--game",
                "seahaven_towers",
                "--deal",
                "6",
                "@seahaven-5-report.txt",
            ],
            2,
            &["names its own start"],
        ),
        (
            &[
                "analyze",
                "--game",
                "bakers_game",
                "--deal",
                "5",
                "@bakers-5-report.txt",
            ],
            0,
            &["96 moves analysed"],
        ),
        // Read past: the two moves play, and the game is not won (not "is no move").
        (
            &["verify", "--game", "bakers_game", "--deal", "5", &brace],
            1,
            &["not won"],
        ),
        (
            &["verify", "--game", "bakers_game", "--deal", "5", &numbered],
            1,
            &["not won"],
        ),
        // Item 16: `58` for `58v3` found by backtracking.
        (
            &["verify", "--game", "bakers_game", "--deal", "8", "@b8.txt"],
            0,
            &["valid: bakers_game, 106 moves"],
        ),
        (
            &["analyze", "--game", "bakers_game", "--deal", "8", "@b8.txt"],
            0,
            &["106 moves analysed"],
        ),
    ]);
}

/// POST /api/verify reads what the command line reads: an annotated game with its
/// `# start:`, fc-solve's `-m -sn` output, counts left out; a `# start:` of another deal is
/// refused.
#[cfg(feature = "serve")]
#[test]
fn newuser_6_api_verify_reads_the_same_texts() {
    use crate::support::server::{self, agent, call};
    use serde_json::json;
    let s = server::start();
    let a = agent();
    let url = format!("{}/api/verify", s.base);
    let read = |f: &str| std::fs::read_to_string(fx(f)).unwrap();
    for (deal, file, total) in [
        (5, "bakers-5-report.txt", 96),
        (5, "bk5-sn.txt", 123),
        (8, "b8.txt", 106),
    ] {
        let body = json!({"deal": deal, "game": "bakers_game", "solution": read(file)});
        let (st, v) = call(&a, "POST", &url, Some(body));
        assert_eq!(st, 200, "{file}: {v}");
        assert_eq!(v["valid"], true, "{file}: {v}");
        assert_eq!(v["moves_total"], total, "{file}: {v}");
    }
    let body = json!({"deal": 6, "game": "bakers_game", "solution": read("bakers-5-report.txt")});
    let (st, v) = call(&a, "POST", &url, Some(body));
    assert_eq!(st, 422, "{v}");
    assert!(v.to_string().contains("names its own start"), "{v}");
}

/// fc-solve's output with more than four freecells (`--freecells-num 6`, in its table
/// layout or with `-p -t`), read without `--freecells`, is refused with the option to give
/// (it said "52 card(s) missing" or "unrecognised fc-solve move"); with it, it verifies.
#[test]
fn fc_solve_output_with_more_than_four_freecells_says_to_give_freecells() {
    if !have("fc-solve") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("617.board");
    std::fs::write(&board, crate::common::ok(&["deal", "617"])).unwrap();
    for (n, layout) in [("6", &[][..]), ("5", &["-p", "-t"][..])] {
        let out = std::process::Command::new("fc-solve")
            .args(["--freecells-num", n, "-sam"])
            .args(layout)
            .arg(&board)
            .output()
            .unwrap();
        let sol = dir.path().join(format!("o{n}.txt"));
        std::fs::write(&sol, &out.stdout).unwrap();
        let sol = sol.to_str().unwrap();
        let (code, _, err) = crate::common::run(&["verify", sol]);
        assert_eq!(code, 1, "{n}: {err}");
        assert!(err.contains("give --freecells"), "{n}: {err}");
        let valid = crate::common::ok(&["verify", "--freecells", n, sol]);
        assert!(
            valid.contains(&format!("valid: freecell with {n} freecells")),
            "{valid}"
        );
    }
}

/// Without --game, `verify --freecells N --deal D` reads D as the Microsoft deal D at every
/// number, as `solve --freecells N D` plays it (from 32000 on too: PySolFC's numbering is
/// --game's); a number past 2^33-1 is a usage error.
#[test]
fn freecells_alone_reads_microsoft_deal_numbers_at_and_past_32000() {
    for deal in ["32000", "40000"] {
        let solution = temp(
            &format!("ms3-{deal}.json"),
            &crate::common::ok(&["solve", "--freecells", "3", deal, "--format", "json"]),
        );
        let (code, out, err) = run(&["verify", "--freecells", "3", "--deal", deal, &solution]);
        assert_eq!(code, 0, "{deal}: {err}");
        assert!(out.starts_with("valid: freecell with 3 freecells"), "{out}");
        let (code, _, err) = run(&["verify", "--game", "freecell", "--freecells", "3"]
            .into_iter()
            .chain(["--deal", deal, &solution])
            .collect::<Vec<_>>());
        // PySolFC's deal of that number is another deal: the solution's start conflicts.
        assert_eq!(code, 2, "{deal}: {err}");
        assert!(err.contains("not from deal"), "{err}");
    }
    let solution = temp(
        "ms3-1.json",
        &crate::common::ok(&["solve", "--freecells", "3", "1", "--format", "json"]),
    );
    let (code, _, err) = run(&[
        "verify",
        "--freecells",
        "3",
        "--deal",
        "8589934592",
        &solution,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("out of range"), "{err}");
}

/// `verify --board` with board text of another game's shape (Seahaven Towers' 10 cascades,
/// or more freecells) for a standard FreeCell solution is a start of another game: exit 2,
/// as verify.md says (`solve --board` calls it bad input, exit 1, with the same hint).
#[test]
fn a_board_of_another_shape_for_a_standard_solution_is_exit_2() {
    let solution = temp(
        "std-617.json",
        &crate::common::ok(&["solve", "617", "--format", "json"]),
    );
    let sea = temp(
        "sea-1.txt",
        &crate::common::ok(&["deal", "--game", "seahaven_towers", "1"]),
    );
    let five = format!(
        "Freecells: - - - - -\n{}",
        crate::common::ok(&["deal", "617"])
    );
    let five = temp("five.txt", &five);
    for (board, hint) in [
        (&sea, "give --game seahaven_towers"),
        (&five, "give --freecells 5"),
    ] {
        let (code, _, err) = run(&["verify", "--board", board, &solution]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(hint), "{err}");
        let (code, _, err) = run(&["solve", "--board", board]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(hint), "{err}");
    }
}

/// A family solution JSON with one field of the wrong type (`freecells` -1 or `"4"`,
/// `game` 45) is named by that field (exit 1), not read as standard FreeCell's JSON
/// ("unknown field `game`", or a start of another game, exit 2).
#[test]
fn a_family_json_with_a_field_of_the_wrong_type_names_it() {
    let json = crate::common::ok(&["solve", "--game", "bakers_game", "2", "--format", "json"]);
    for (from, to, want) in [
        (
            "\"freecells\": 4",
            "\"freecells\": -1",
            "integer `-1`, expected u8",
        ),
        (
            "\"freecells\": 4",
            "\"freecells\": \"4\"",
            "string \"4\", expected u8",
        ),
        (
            "\"game\": \"bakers_game\"",
            "\"game\": 45",
            "integer `45`, expected a string",
        ),
    ] {
        let text = json.replacen(from, to, 1);
        assert_ne!(text, json, "{from}");
        let (code, _, err) = crate::common::run_in(&["verify", "-"], text.as_bytes());
        assert_eq!(code, 1, "{to}: {err}");
        assert!(
            err.contains(want) && !err.contains("unknown field"),
            "{to}: {err}"
        );
    }
}
