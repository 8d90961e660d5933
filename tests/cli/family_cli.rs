//! `fcauto solve --game G` / `--freecells N`: the FreeCell family's games solved by the
//! family search, their exit codes, the optimal modes, and the refusals (bad game, bad count,
//! modes and formats the family search does not offer); their boards (`--board`, and each kind of board that
//! does not fit its game), `--cross-check` against fc-solve, `verify` of their solutions,
//! and PySolFC's game numbers up to 10^20.

use crate::common::{fcauto, require, run};
use std::path::{Path, PathBuf};

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
            &["--game", "relaxed_freecell", "--mode", "optimal", "1"],
            2,
            "use --mode optimal-moves (both optimal modes: freecell,",
        ),
        (
            &["--game", "bakers_game", "--mode", "optimal-ph", "1"],
            2,
            "optimal-ph (Paul & Helmert's move model) is for standard FreeCell only",
        ),
        (
            &["--game", "bakers_game", "--format", "fcs", "1"],
            2,
            "standard, json, svg, png or html",
        ),
        (
            &["--game", "freecell", "--deal-file", "/nonexistent/deal.txt"],
            1,
            "/nonexistent/deal.txt",
        ),
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

/// The optimal modes of the family: the counts proved minimal, never beaten by `short`,
/// the solution as long as the count; at the state limit "unknown", exit 1.
#[test]
fn optimal_modes_prove_the_minimum_for_the_family() {
    let count = |err: &str, what: &str| -> usize {
        let at = err.find(what).unwrap_or_else(|| panic!("{what}: {err}"));
        let head = err[..at].trim_end();
        head[head.rfind(' ').unwrap() + 1..].parse().unwrap()
    };
    for (game, deal) in [("bakers_game", "3"), ("seahaven_towers", "2")] {
        let (code, short, err) = run(&["solve", "--game", game, "--mode", "short", deal]);
        assert_eq!(code, 0, "{err}");
        assert!(!err.contains("proved minimal"), "{err}");
        let short_moves = short.split_whitespace().count();
        let (code, out, err) = run(&["solve", "--game", game, "--mode", "optimal-moves", deal]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("validated; the move count is proved minimal"),
            "{err}"
        );
        let moves = out.split_whitespace().count();
        assert_eq!(count(&err, " moves,"), moves, "{err}");
        assert!(
            moves <= short_moves,
            "{game} {deal}: {moves} > {short_moves}"
        );
        let (code, out, err) = run(&["solve", "--game", game, "--mode", "optimal", deal]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("the single-card count is proved minimal"),
            "{err}"
        );
        let tokens: Vec<&str> = out.split_whitespace().collect();
        assert!(
            tokens.iter().all(|t| !t.contains('v')),
            "single cards only: {out}"
        );
        assert_eq!(count(&err, " single-card moves;"), tokens.len(), "{err}");
        assert!(tokens.len() >= moves, "{game} {deal}");
    }
    // FreeCell with 3 freecells, and a relaxed game in moves; JSON like the other modes.
    let (code, out, err) = run(&[
        "solve",
        "--freecells",
        "3",
        "--mode",
        "optimal",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["freecells"], 3);
    assert_eq!(v["solvable"], true);
    let (code, _, err) = run(&[
        "solve",
        "--game",
        "relaxed_freecell",
        "--mode",
        "optimal-moves",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("; validated; the move count is proved minimal"),
        "{err}"
    );
    assert!(!err.contains("single-card"), "no single-card count: {err}");
    let (code, out, err) = run(&[
        "solve",
        "--game",
        "bakers_game",
        "--mode",
        "optimal",
        "4",
        "--max-states",
        "500",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(out.starts_with("# unknown: state limit of 500 "), "{out}");
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
        out.starts_with("fcauto bench, bakers_game, deals 1..20 (20 deals), mode fast"),
        "{out}"
    );
    assert!(out.contains("unknown (limit):      0 []"), "{out}");
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

/// Run fcauto with `args` and `stdin` (text): (exit code, stdout, stderr).
fn run_in(args: &[&str], stdin: &str) -> (i32, String, String) {
    crate::common::run_in(args, stdin.as_bytes())
}

/// Write `text` to `name` in `dir`; its path as a string.
fn file(dir: &Path, name: &str, text: &str) -> String {
    let p: PathBuf = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// `fcauto deal --game G N`'s board text.
fn deal_text(game: &str, n: &str) -> String {
    let (code, out, err) = run(&["deal", "--game", game, n]);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn board_files_of_family_games_are_solved() {
    let dir = tempfile::tempdir().unwrap();
    for (game, n, first) in [
        ("seahaven_towers", "1", "Freecells: - 2H 6H"),
        ("eight_off", "617", "Freecells: "),
        ("ko_bakers_game", "3", ""),
    ] {
        let text = deal_text(game, n);
        assert!(text.starts_with(first), "{game}: {text}");
        let board = file(dir.path(), &format!("{game}.board"), &text);
        let (code, out, err) = run(&["solve", "--game", game, "--board", &board]);
        assert_eq!(code, 0, "{game}: {err}");
        assert!(err.contains(&format!("{game} board solved")), "{err}");
        assert!(err.contains("validated"), "{err}");
        // The same deal by number gives the same solution.
        let (_, by_number, _) = run(&["solve", "--game", game, n]);
        assert_eq!(out, by_number, "{game}");
        // Standard input, and the start named by the solution's JSON read as a board.
        let (code, piped, err) = run_in(&["solve", "--game", game, "--board", "-"], &text);
        assert_eq!((code, &piped), (0, &out), "{game}: {err}");
    }
}

/// `fcauto deal --game G N --format json`'s output is a board of G too.
#[test]
fn a_deal_json_is_a_board() {
    let (code, json, err) = run(&["deal", "--game", "eight_off", "5", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run_in(&["solve", "--game", "eight_off", "--board", "-"], &json);
    assert_eq!(code, 0, "{err}");
    let (_, by_number, _) = run(&["solve", "--game", "eight_off", "5"]);
    assert_eq!(out, by_number);
    refused_with(
        2,
        "bakers_game",
        &json,
        "is a deal of eight_off, not of bakers_game: give --game eight_off",
    );
}

/// A position string names its game; it is read for --game G.
#[test]
fn a_position_string_of_the_game_is_a_board() {
    let (code, json, err) = run(&["solve", "--game", "9", "5", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let position = v["position"].as_str().unwrap().to_string();
    assert!(position.starts_with("seahaven_towers: "), "{position}");
    let (code, _, err) = run_in(&["solve", "--game", "seahaven", "--board", "-"], &position);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("seahaven_towers board solved"), "{err}");
}

/// A board that does not fit its game: one line naming the fault, exit 1, never a panic.
fn refused(game: &str, board: &str, needle: &str) {
    refused_with(1, game, board, needle);
}

/// `solve --game G --board -` of `board` refused with exit `code` (2: a start of another
/// game than --game's, a usage problem), one line holding `needle`.
fn refused_with(code_wanted: i32, game: &str, board: &str, needle: &str) {
    let (code, out, err) = run_in(&["solve", "--game", game, "--board", "-"], board);
    assert_eq!(code, code_wanted, "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(needle), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_board_with_another_number_of_cascades_is_refused() {
    refused(
        "seahaven_towers",
        &deal_text("freecell", "617"),
        "board file from standard input does not fit seahaven_towers (10 cascades, 4 freecells): invalid board: expected 10 cascade lines, found 8",
    );
}

#[test]
fn a_board_with_more_cards_in_cells_than_cells_is_refused() {
    refused(
        "bakers_game",
        &deal_text("eight_off", "5"),
        "does not fit bakers_game (8 cascades, 4 freecells): invalid board: line 1: 7 freecell entries, at most 4",
    );
    // Seahaven Towers' two dealt cards, in freecells b and c, with two freecells.
    let sea = deal_text("seahaven_towers", "5");
    let (code, _, err) = run_in(
        &[
            "solve",
            "--game",
            "seahaven_towers",
            "--freecells",
            "2",
            "--board",
            "-",
        ],
        &sea,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("3 freecell entries, at most 2"), "{err}");
}

/// A deal that breaks the rules asked for (cards dealt to more freecells than --freecells
/// gives) is a usage problem, in one line.
#[test]
fn a_deal_that_needs_more_freecells_is_refused() {
    for args in [
        &["solve", "--game", "eight_off", "--freecells", "4", "5"][..],
        &[
            "verify",
            "--game",
            "eight_off",
            "--freecells",
            "4",
            "--deal",
            "5",
            "-",
        ],
    ] {
        let (code, out, err) = run_in(args, "1h");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(
            err,
            "fcauto: error: Eight Off deals a card to freecell 7: it needs at least 7 freecells, not 4\n"
        );
    }
}

#[test]
fn a_board_with_cards_missing_is_refused() {
    let text: String = deal_text("bakers_game", "5")
        .lines()
        .take(7)
        .map(|l| format!("{l}\n"))
        .collect();
    let (code, _, err) = run_in(&["solve", "--game", "bakers_game", "--board", "-"], &text);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("expected 8 cascade lines, found 7"), "{err}");
    assert!(err.contains("card(s) missing"), "{err}");
}

#[test]
fn a_board_with_a_duplicated_card_is_refused() {
    let text = deal_text("ko_bakers_game", "617");
    let first = text.split_whitespace().next().unwrap().to_string();
    let second = text.split_whitespace().nth(1).unwrap().to_string();
    let twice = text.replacen(&second, &first, 1);
    refused("ko_bakers_game", &twice, &format!("duplicate card {first}"));
}

#[test]
fn a_position_of_another_game_is_refused() {
    let (_, json, _) = run(&[
        "solve",
        "--game",
        "seahaven_towers",
        "5",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    refused_with(
        2,
        "bakers_game",
        v["position"].as_str().unwrap(),
        "is a position of seahaven_towers, not of bakers_game: give --game seahaven_towers",
    );
}

#[test]
fn cross_check_agrees_on_a_solvable_and_an_impossible_deal() {
    if !require("fc-solve") {
        return;
    }
    let (code, _, err) = run(&["solve", "--game", "bakers_game", "3", "--cross-check"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("fc-solve -g bakers_game --freecells-num 4: solved")
            && err.contains("our validator accepts it")
            && err.trim_end().ends_with("cross-check: AGREE"),
        "{err}"
    );
    // Impossible: proved by our complete search and by fc-solve's complete atomic scan.
    let (code, out, err) = run(&["solve", "--freecells", "2", "1", "--cross-check"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, "# unsolvable\n");
    assert!(
        err.contains("fc-solve -g freecell --freecells-num 2 --method soft-dfs -to 01ABCDE -sel: could not solve it")
            && err.trim_end().ends_with("cross-check: AGREE"),
        "{err}"
    );
    // Ten cascades and cards dealt to freecells.
    let (code, _, err) = run(&["solve", "--game", "seahaven_towers", "1", "--cross-check"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.trim_end().ends_with("cross-check: AGREE"), "{err}");
    // fc-solve's own output of a family game verifies from the board.
    let dir = tempfile::tempdir().unwrap();
    let board = file(dir.path(), "st1.board", &deal_text("seahaven_towers", "1"));
    let out = std::process::Command::new("fc-solve")
        .args(["-g", "seahaven_towers", "-sam", "-sel", &board])
        .output()
        .unwrap();
    let fcs = String::from_utf8_lossy(&out.stdout).into_owned();
    let (code, out, err) = run_in(
        &[
            "verify",
            "--game",
            "seahaven_towers",
            "--board",
            &board,
            "-",
        ],
        &fcs,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("valid: seahaven_towers, "), "{out}");
}

/// Without fc-solve on PATH, the cross-check fails in one line saying how to install it,
/// as standard FreeCell's does.
#[test]
fn cross_check_without_fc_solve_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = fcauto()
        .args(["solve", "--game", "bakers_game", "3", "--cross-check"])
        .env("PATH", dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.contains("cannot run fc-solve") && last.contains("freecell-solver-bin"),
        "{err}"
    );
}

#[test]
fn solutions_round_trip_through_verify() {
    let dir = tempfile::tempdir().unwrap();
    for (game, n) in [
        ("seahaven_towers", "1"),
        ("eight_off", "617"),
        ("bakers_game", "2"),
        ("relaxed_freecell", "3"),
        ("forecell", "7"),
    ] {
        let (code, json, err) = run(&["solve", "--game", game, n, "--format", "json"]);
        assert_eq!(code, 0, "{game}: {err}");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let total = v["moves_total"].as_u64().unwrap();
        let want = format!("valid: {game}, {total} moves; all 52 cards on the foundations\n");
        let json_file = file(dir.path(), &format!("{game}.json"), &json);
        let (code, out, err) = run(&["verify", &json_file]);
        assert_eq!((code, out.as_str()), (0, want.as_str()), "{game}: {err}");
        // Standard notation, from the deal and from the board.
        let (_, text, _) = run(&["solve", "--game", game, n]);
        let text_file = file(dir.path(), &format!("{game}.txt"), &text);
        let (code, out, err) = run(&["verify", "--game", game, "--deal", n, &text_file]);
        assert_eq!((code, out.as_str()), (0, want.as_str()), "{game}: {err}");
        let board = file(dir.path(), &format!("{game}.board"), &deal_text(game, n));
        let (code, out, err) = run(&["verify", "--game", game, "--board", &board, &text_file]);
        assert_eq!((code, out.as_str()), (0, want.as_str()), "{game}: {err}");
        // The JSON with the deal given again agrees.
        let (code, _, err) = run(&["verify", "--game", game, "--deal", n, &json_file]);
        assert_eq!(code, 0, "{game}: {err}");
    }
}

#[test]
fn verify_refusals_name_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let (_, json, _) = run(&["solve", "--game", "bakers_game", "2", "--format", "json"]);
    let json_file = file(dir.path(), "b.json", &json);
    let (_, text, _) = run(&["solve", "--game", "bakers_game", "2"]);
    let text_file = file(dir.path(), "b.txt", &text);
    for (args, code, needle) in [
        (
            vec!["verify", "--game", "eight_off", &json_file],
            2,
            "is a solution of bakers_game, not of eight_off",
        ),
        (
            vec!["verify", "--game", "bakers_game", "--deal", "3", &json_file],
            2,
            "starts from deal 2, not from deal 3",
        ),
        (
            vec!["verify", "--game", "bakers_game", &text_file],
            2,
            "standard notation, which names no start",
        ),
        (
            vec!["verify", "--game", "bakers_game", "--deal", "3", &text_file],
            1,
            "b.txt: move ",
        ),
    ] {
        let (got, out, err) = run(&args);
        assert_eq!(got, code, "{args:?}: {err}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// A tampered solution is rejected with its first illegal step named: a move of the text
/// changed, and a JSON move sent elsewhere.
#[test]
fn a_tampered_solution_names_its_first_illegal_step() {
    let dir = tempfile::tempdir().unwrap();
    let (_, text, _) = run(&["solve", "--game", "seahaven_towers", "1"]);
    let mut tokens: Vec<String> = text.split_whitespace().map(String::from).collect();
    // Move 4 sends its card to the foundation instead.
    let k = tokens.iter().position(|t| !t.ends_with('h')).unwrap();
    let from = tokens[k].chars().next().unwrap();
    tokens[k] = format!("{from}h");
    let bad = file(dir.path(), "bad.txt", &tokens.join(" "));
    let (code, _, err) = run(&["verify", "--game", "seahaven_towers", "--deal", "1", &bad]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!("move {} ({from}h): ", k + 1))
            && err.contains("does not go on its foundation"),
        "{err}"
    );
    let (_, json, _) = run(&["solve", "--game", "eight_off", "617", "--format", "json"]);
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let k = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| m["to"] != "h")
        .unwrap();
    v["moves"][k]["to"] = "h".into();
    // Its notation says the same move (a notation that does not is a claim refused first).
    let from = v["moves"][k]["from"].as_str().unwrap().to_string();
    let from = if from == "10" { "0".to_string() } else { from };
    v["moves"][k]["notation"] = format!("{from}h").into();
    let bad = file(dir.path(), "bad.json", &v.to_string());
    let (code, _, err) = run(&["verify", &bad]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(&format!("move {} (", k + 1)), "{err}");
}

/// PySolFC's game numbers run to 10^20: dealt, solved and verified with --game; without
/// --game a number stays a Microsoft deal, refused above 2^33-1 as before.
#[test]
fn big_game_numbers_work_with_game_only() {
    let dir = tempfile::tempdir().unwrap();
    let big = "100000000000000000000";
    let (code, json, err) = run(&["solve", "--game", "bakers_game", big, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("bakers_game deal {big} solved")),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["deal"], big);
    let json_file = file(dir.path(), "big.json", &json);
    let (code, _, err) = run(&["verify", &json_file]);
    assert_eq!(code, 0, "{err}");
    let (_, text, _) = run(&["solve", "--game", "bakers_game", big]);
    let text_file = file(dir.path(), "big.txt", &text);
    let (code, _, err) = run(&["verify", "--game", "45", "--deal", big, &text_file]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&["solve", "--game", "bakers_game", "12345678901234567890"]);
    assert!(code == 0 || code == 1, "{err}");
    assert!(err.contains("deal 12345678901234567890 "), "{err}");
    for args in [
        &["solve", "12345678901234567890"][..],
        &["solve", "--freecells", "3", "9999999999"],
        &["verify", "--deal", "9999999999", &text_file],
    ] {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains(
                "the largest is 8589934591 (2^33-1); PySolFC's larger game numbers need --game"
            ),
            "{args:?}: {err}"
        );
    }
    let (code, _, err) = run(&["solve", "--game", "bakers_game", "100000000000000000001"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("PySolFC's largest is 100000000000000000000"),
        "{err}"
    );
    // `msN` with --game is the Microsoft deal N, written so in the JSON.
    let (code, json, err) = run(&[
        "solve",
        "--game",
        "freecell",
        "--freecells",
        "3",
        "ms40000",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["deal"], "ms40000");
}

/// A family deal's JSON given as `--board` keeps its deal number (checked against its
/// position), beyond 2^64-1 too; a number whose deal is another position is refused.
#[test]
fn a_family_deal_json_as_board_keeps_its_number() {
    for n in ["617", "18446744073709551616"] {
        let json = crate::common::ok(&["deal", "--game", "bakers_game", n, "--format", "json"]);
        let (code, out, err) = crate::common::run_in(
            &["solve", "--board", "-", "--format", "json"],
            json.as_bytes(),
        );
        assert_eq!(code, 0, "{n}: {err}");
        assert!(
            err.contains(&format!("bakers_game deal {n} ")),
            "{n}: {err}"
        );
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let want = crate::common::ok(&["solve", "--game", "bakers_game", n, "--format", "json"]);
        let want: serde_json::Value = serde_json::from_str(&want).unwrap();
        assert_eq!(v["deal"], want["deal"], "{n}");
    }
    let json = crate::common::ok(&["deal", "--game", "bakers_game", "617", "--format", "json"])
        .replace("\"deal\":617", "\"deal\":618");
    let (code, _, err) = crate::common::run_in(&["solve", "--board", "-"], json.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not those of bakers_game deal 618"), "{err}");
}
