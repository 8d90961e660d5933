//! `fcauto solve` and `fcauto verify` end to end, and the solver over deals 1..200.

use crate::common;
use common::{fcauto, require, succeed};
use fcauto_deals::ms_deal;
use fcauto_solver::{solve, validate, Limits, Mode, Solution, Validated, Verdict};

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn solve_617_json_passes_verify() {
    let dir = tempfile::tempdir().unwrap();
    let sol = dir.path().join("617.json");
    fcauto()
        .args(["solve", "617", "--format", "json", "--output"])
        .arg(&sol)
        .assert()
        .success();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).unwrap();
    assert_eq!(v["deal"], 617);
    assert_eq!(v["solvable"], true);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(v["moves_total"].as_u64().unwrap() as usize, moves.len());
    assert_eq!(
        moves.iter().filter(|m| m["to"] == "h").count(),
        52,
        "every foundation move explicit"
    );
    assert!(v["single_card_moves"].as_u64().unwrap() >= moves.len() as u64);
    let first = &moves[0];
    for key in ["step", "kind", "from", "to", "card", "count", "notation"] {
        assert!(!first[key].is_null(), "move field {key}");
    }
    let out = fcauto()
        .args(["verify", "--deal", "617"])
        .arg(&sol)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("valid:"));
}

#[test]
fn verify_names_the_illegal_step() {
    let dir = tempfile::tempdir().unwrap();
    let out = fcauto()
        .args(["solve", "617", "--format", "json"])
        .output()
        .unwrap();
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Send the first non-foundation move's card to the foundation instead: illegal there.
    let idx = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| m["to"] != "h" && m["card"].as_str().unwrap().as_bytes()[0] != b'A')
        .unwrap();
    v["moves"][idx]["to"] = "h".into();
    v["moves"][idx]["count"] = 1.into();
    let p = write(&dir, "bad.json", &v.to_string());
    let out = fcauto()
        .args(["verify", "--deal", "617"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(&format!("step {}", idx + 1)), "{err}");
    assert!(!err.contains("panicked"));
}

/// `fcauto verify --deal 617 FILE`, which must fail with exit 1; its standard error.
fn verify_617_fails(file: &std::path::Path) -> String {
    let out = fcauto()
        .args(["verify", "--deal", "617"])
        .arg(file)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{}: {err}", file.display());
    err
}

/// A move after the win is named as such (the game is already won after step N), not by
/// the rule an empty place breaks, in standard notation and in JSON.
#[test]
fn a_move_after_the_win_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let out = fcauto().args(["solve", "617"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let n = text.split_whitespace().count();
    let out = fcauto()
        .args(["solve", "617", "--format", "json"])
        .output()
        .unwrap();
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = v["moves"].as_array().unwrap().len();
    v["moves"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"from": "1", "to": "a"}));
    v["moves_total"] = serde_json::Value::Null;
    for (p, moves) in [
        (write(&dir, "extra.txt", &format!("{text} 1a\n")), n),
        (write(&dir, "extra.json", &v.to_string()), m),
    ] {
        let err = verify_617_fails(&p);
        let want = format!(
            "step {} (1a): illegal move: the game is already won after step {moves}",
            moves + 1
        );
        assert!(err.contains(&want), "{err}");
    }
}

/// A count or step the JSON gives, 0 included, must be that of its moves; one left out claims
/// nothing.
#[test]
fn verify_checks_an_explicit_zero_count() {
    let dir = tempfile::tempdir().unwrap();
    let out = fcauto()
        .args(["solve", "617", "--format", "json"])
        .output()
        .unwrap();
    let good: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let n = good["moves"].as_array().unwrap().len();
    let run = |name: &str, edit: &dyn Fn(&mut serde_json::Map<String, serde_json::Value>)| {
        let mut v = good.clone();
        edit(v.as_object_mut().unwrap());
        let p = write(&dir, name, &v.to_string());
        let (code, _, err) = verify(&["--deal".as_ref(), "617".as_ref(), p.as_os_str()]);
        (code, err)
    };
    let (code, err) = run("zero.json", &|o| {
        o.insert("moves_total".into(), 0.into());
    });
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!("`moves_total` says 0 but {n} moves are listed")),
        "{err}"
    );
    let (code, err) = run("zero-single.json", &|o| {
        o.insert("single_card_moves".into(), 0.into());
    });
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("`single_card_moves` says 0 but"), "{err}");
    let (code, err) = run("absent.json", &|o| {
        o.remove("moves_total");
        o.remove("single_card_moves");
    });
    assert_eq!(code, Some(0), "{err}");
    // So must a move's `step`, 0 included (formerly: 0 was read as absent).
    let (code, err) = run("step0.json", &|o| {
        for m in o["moves"].as_array_mut().unwrap() {
            m["step"] = 0.into();
        }
    });
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("step 1: `step` says 0"), "{err}");
    let (code, err) = run("no-step.json", &|o| {
        for m in o["moves"].as_array_mut().unwrap() {
            m.as_object_mut().unwrap().remove("step");
        }
    });
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn verify_refuses_a_verdict_that_contradicts_solvable() {
    let dir = tempfile::tempdir().unwrap();
    let out = fcauto()
        .args(["solve", "617", "--format", "json"])
        .output()
        .unwrap();
    let good: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let variant = |solvable: Option<serde_json::Value>, verdict: Option<&str>| {
        let mut v = good.clone();
        let o = v.as_object_mut().unwrap();
        match solvable {
            Some(s) => o.insert("solvable".into(), s),
            None => o.remove("solvable"),
        };
        match verdict {
            Some(s) => o.insert("verdict".into(), s.into()),
            None => o.remove("verdict"),
        };
        v.to_string()
    };
    let null = serde_json::Value::Null;
    for (name, text, needle) in [
        (
            "null-solved.json",
            variant(Some(null.clone()), Some("solved")),
            "`verdict` is \"solved\" but `solvable` is null",
        ),
        (
            "null.json",
            variant(Some(null.clone()), None),
            "not solved (`solvable`: null) but lists",
        ),
        (
            "null-unknown.json",
            variant(Some(null.clone()), Some("unknown: state limit")),
            "not solved (unknown: state limit) but lists",
        ),
        (
            "true-unknown.json",
            variant(Some(true.into()), Some("unknown: state limit")),
            "but `solvable` is true",
        ),
        (
            "true-unsolvable.json",
            variant(Some(true.into()), Some("unsolvable")),
            "but `solvable` is true",
        ),
        (
            "unknown.json",
            variant(None, Some("unknown: state limit")),
            "but lists",
        ),
        (
            "odd-verdict.json",
            variant(Some(true.into()), Some("won")),
            "`verdict` \"won\" is not",
        ),
    ] {
        let p = write(&dir, name, &text);
        let err = verify_617_fails(&p);
        assert!(err.contains(needle), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: one line: {err}");
    }
    // A minimal JSON (no `solvable`, no `verdict`) claims nothing and stays valid.
    let p = write(&dir, "minimal.json", &variant(None, None));
    fcauto()
        .args(["verify", "--deal", "617"])
        .arg(&p)
        .assert()
        .success();
}

#[test]
fn formats_standard_and_fcs() {
    let out = fcauto()
        .args(["solve", "617", "--format", "standard"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let toks: Vec<&str> = text.split_whitespace().collect();
    // Two characters, or a move between cascades with its count (`27v1`, `38v4`): written
    // onto an empty cascade, where a plain move reads as the longest run that may move.
    let counted = |t: &str| {
        let b = t.as_bytes();
        t.len() > 3
            && b[..2].iter().all(|c| (b'1'..=b'8').contains(c))
            && b[2] == b'v'
            && t[3..].chars().all(|c| c.is_ascii_hexdigit())
    };
    assert!(toks.iter().all(|t| t.len() == 2 || counted(t)), "{text}");
    assert_eq!(toks.iter().filter(|t| t.ends_with('h')).count(), 52);

    let out = fcauto()
        .args(["solve", "617", "--format", "fcs"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[lines.len() - 2], "This game is solveable.");
    let n: usize = lines
        .last()
        .unwrap()
        .strip_prefix("Total number of moves: ")
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(n, text.lines().filter(|l| l.starts_with("Move ")).count());
    // Our fcs text is itself readable by verify (fc-solve move lines).
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, "617.fcs", &text);
    fcauto()
        .args(["verify", "--deal", "617"])
        .arg(&p)
        .assert()
        .success();
}

#[test]
fn deal_11982_is_proved_unsolvable() {
    let out = fcauto()
        .args(["solve", "11982", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solvable"], false);
    assert_eq!(v["verdict"], "unsolvable");
    assert!(String::from_utf8_lossy(&out.stderr).contains("exhaustive"));
}

#[test]
fn a_tiny_state_limit_says_unknown_not_unsolvable() {
    let out = fcauto()
        .args(["solve", "617", "--max-states", "50", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["solvable"].is_null(), "unknown is not unsolvable: {v}");
    assert!(v["verdict"].as_str().unwrap().starts_with("unknown"));
    let out = fcauto()
        .args(["solve", "617", "--max-states", "50"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("unknown") && err.contains("state limit"),
        "{err}"
    );
}

/// `fcauto solve --board PATH`: its exit code and standard error.
fn solve_board(path: &std::path::Path) -> (Option<i32>, String) {
    let out = fcauto()
        .args(["solve", "--board"])
        .arg(path)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn bad_boards_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let good = ms_deal(5).unwrap().cascades_text();
    let missing = good.replacen("4D ", "", 1);
    assert_ne!(missing, good);
    let dup = {
        let mut lines: Vec<String> = good.lines().map(String::from).collect();
        lines[0] = lines[0].replacen(&lines[0][..2].to_string(), &lines[1][..2], 1);
        lines.join("\n")
    };
    let nine = format!("{good}\n");
    let nine = {
        let mut lines: Vec<String> = nine
            .lines()
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect();
        let cut = lines[7].len() - 2;
        let last = lines[7].split_off(cut);
        lines[7].pop();
        lines.push(last);
        lines.join("\n")
    };
    for (name, text, needle) in [
        ("51.txt", missing.as_str(), "missing"),
        ("dup.txt", dup.as_str(), "duplicate card"),
        ("nine.txt", nine.as_str(), "found 9"),
        // An empty file is called empty, not 52 missing cards.
        ("empty.txt", "", "board text is empty"),
        ("blank.txt", " \n\n\t\r\n", "board text is empty"),
        // JSON that is no position is named as such; a position object alone is read as a
        // board (here one of one cascade); `deal N --format json`'s with cascades that are
        // not the deal's is refused.
        (
            "other.json",
            "{\"cards\": 52}\n",
            "JSON that is no position",
        ),
        (
            "position.json",
            "{\"board\": [[\"7D\"]]}\n",
            "expected 8 cascades, found 1",
        ),
        (
            "deal.json",
            "{\"deal\": 5, \"board\": [[\"7D\"]]}\n",
            "not those of deal 5",
        ),
    ] {
        let (code, err) = solve_board(&write(&dir, name, text));
        assert_eq!(code, Some(1), "{name}");
        assert!(err.contains(needle), "{name}: {err}");
        let empty = name == "empty.txt" || name == "blank.txt";
        assert!(!empty || !err.contains("missing"), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: one line: {err}");
    }
    // Text that is not UTF-8: where the first bad byte is, or that it looks like UTF-16
    // (formerly: "not UTF-8 text" alone).
    for (name, bytes, needle) in [
        (
            "latin1.txt",
            &b"Foundations: H-0\n# caf\xe9\n"[..],
            "byte 0xE9 at line 2, column 6",
        ),
        ("utf16.txt", &b"\xff\xfeF\x00o\x00"[..], "looks like UTF-16"),
        // UTF-16 of ASCII without a byte-order mark is valid UTF-8, NULs and all
        // (formerly: "invalid board", 55 problems).
        (
            "utf16-no-bom.txt",
            &b"F\x00o\x00u\x00n\x00d\x00a\x00t\x00i\x00o\x00n\x00s\x00:\x00"[..],
            "looks like UTF-16",
        ),
        // A PySolFC game, a picture: named as what they are (formerly: "UTF-16").
        (
            "held.dat",
            &std::fs::read("tests/fixtures/pysolfc/holdgame-617-winnable.dat").unwrap()[..],
            "a Python pickle, as PySolFC's files are: read a saved or held game with `fcauto analyze FILE`",
        ),
        (
            "deal.png",
            &b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x02\xd0\x00\x00\x01\x90\x08\x06"[..],
            "it is a PNG picture, not text",
        ),
        // Larger than any board: still named by kind, not "too large" (a 168 KB
        // PNG).
        (
            "large.png",
            &[&b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"[..], &[7u8; 200_000][..]].concat()[..],
            "it is a PNG picture, not text",
        ),
        (
            "large.dat",
            &[&[1u8, 2, 0, 4][..], &[0xAB; 200_000][..]].concat()[..],
            "it looks like a binary file",
        ),
    ] {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        let (code, err) = solve_board(&p);
        assert_eq!(code, Some(1), "{name}");
        assert!(
            err.contains("not UTF-8 text") && err.contains(needle),
            "{name}: {err}"
        );
    }
    let out = fcauto()
        .args(["solve", "--board", "/nonexistent/board.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = fcauto().args(["solve"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `fcauto deal N --format json` (deal first, as its help says) reads back as a board: the
/// solution names the deal; and `solve --format json`'s output reads back as its start, for
/// solve, show and verify.
#[test]
fn deal_json_reads_back_as_a_board() {
    let dir = tempfile::tempdir().unwrap();
    let json = succeed(fcauto().args(["deal", "617", "--format", "json"])).stdout;
    let json = String::from_utf8(json).unwrap();
    assert!(json.starts_with("{\"deal\":617,\"cascades\":[["), "{json}");
    let p = write(&dir, "617.json", &json);
    let out = succeed(
        fcauto()
            .args(["solve", "--mode", "fast", "--format", "json", "--board"])
            .arg(&p),
    );
    let sol: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(sol["deal"], 617, "{sol}");
    // So does `solve --format json`'s own output: its start, the deal's or a board's with
    // freecells and foundations (formerly: "invalid type: null, expected u64").
    let solved = write(&dir, "sol617.json", &String::from_utf8(out.stdout).unwrap());
    let again = succeed(
        fcauto()
            .args(["solve", "--mode", "fast", "--format", "json", "--board"])
            .arg(&solved),
    );
    let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(
        (&again["deal"], &again["cascades"]),
        (&sol["deal"], &sol["cascades"])
    );
    let board = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/boards/pysolfc-export-617-empty-column.board");
    let first = succeed(
        fcauto()
            .args(["solve", "--format", "json", "--board"])
            .arg(&board),
    );
    let first_json: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    assert!(first_json["freecells"].is_array(), "{first_json}");
    let solved = write(
        &dir,
        "partway.json",
        &String::from_utf8(first.stdout).unwrap(),
    );
    for cmd in [
        &["solve", "--mode", "fast", "--format", "json"][..],
        &["show", "--format", "svg"],
    ] {
        succeed(fcauto().args(cmd).arg("--board").arg(&solved));
    }
    succeed(
        fcauto()
            .args(["verify", "--board"])
            .arg(&solved)
            .arg(&solved),
    );
    // With a UTF-8 byte-order mark too, as any board file (formerly: read as a deal's JSON).
    let bom = write(
        &dir,
        "bom.json",
        &format!("\u{feff}{}", std::fs::read_to_string(&solved).unwrap()),
    );
    for cmd in [
        &["solve", "--mode", "fast", "--format", "json"][..],
        &["show", "--format", "svg"],
    ] {
        succeed(fcauto().args(cmd).arg("--board").arg(&bom));
    }
    succeed(fcauto().args(["verify", "--board"]).arg(&bom).arg(&solved));
}

/// Fails when `text` has a count of 1 with a plural noun (`1 moves`, `(1 positions`).
fn assert_singular_for_one(text: &str) {
    for noun in [
        "moves",
        "single-card moves",
        "positions",
        "threads",
        "deals",
    ] {
        for before in [" ", "(", "\n"] {
            let wrong = format!("{before}1 {noun}");
            assert!(!text.contains(&wrong), "{wrong:?} in {text}");
        }
    }
}

#[test]
fn counts_of_one_are_singular() {
    // Every card home but the king of spades: one move solves it.
    let dir = tempfile::tempdir().unwrap();
    let board = format!("Foundations: H-K C-K D-K S-Q\n: KS\n{}", ":\n".repeat(7));
    let p = write(&dir, "ks.txt", &board);
    let out = fcauto()
        .args(["solve", "--format", "json", "--board"])
        .arg(&p)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{err}");
    assert!(err.contains(": 1 move, 1 single-card move;"), "{err}");
    assert_singular_for_one(&err);
    let sol = write(&dir, "ks.json", &String::from_utf8(out.stdout).unwrap());
    let out = fcauto()
        .args(["verify", "--board"])
        .arg(&p)
        .arg(&sol)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(
        text.starts_with("valid: 1 move, 1 single-card move;"),
        "{text}"
    );
    // A state limit of one position.
    let out = fcauto()
        .args(["solve", "617", "--max-states", "1"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("state limit of 1 position reached"), "{err}");
    assert!(err.contains("--max-states N raises it"), "{err}");
    // No positions at all is a usage error.
    let out = fcauto()
        .args(["solve", "617", "--max-states", "0"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("at least its start"), "{err}");
}

#[test]
fn solve_from_a_board_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, "b.txt", &ms_deal(1941).unwrap().fcs_state_text());
    let out = fcauto()
        .args(["solve", "--board"])
        .arg(&p)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["deal"].is_null());
}

/// Board text whose lines end in a lone `\r` (old Mac OS text) reads as its lines do with
/// `\n`, from a file and from standard input, for standard FreeCell and a family game.
#[test]
fn boards_with_carriage_return_line_ends_solve() {
    let dir = tempfile::tempdir().unwrap();
    let text = ms_deal(617).unwrap().fcs_state_text().replace('\n', "\r");
    let p = write(&dir, "cr.txt", &text);
    let from_file = crate::common::ok(&["solve", "--board", p.to_str().unwrap()]);
    let (code, from_stdin, err) =
        crate::common::run_in(&["solve", "--board", "-"], text.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert_eq!(from_file, from_stdin);
    assert_eq!(from_file, crate::common::ok(&["solve", "617"]));
    let seahaven = crate::common::ok(&["deal", "--game", "seahaven_towers", "5"]);
    let (code, _, err) = crate::common::run_in(
        &["solve", "--game", "seahaven_towers", "--board", "-"],
        seahaven.replace('\n', "\r").as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    // Solutions too: fc-solve's `-p -t` output (its `Freecells:` line read by column) and
    // standard notation.
    let fcs = crate::common::ok(&["solve", "617", "--format", "fcs"]);
    let standard = crate::common::ok(&["solve", "617", "--format", "standard"]);
    let board = write(&dir, "b.txt", &ms_deal(617).unwrap().fcs_state_text());
    let board = board.to_str().unwrap();
    for solution in [fcs, standard] {
        let (code, out, err) = crate::common::run_in(
            &["verify", "--board", board, "-"],
            solution.replace('\n', "\r").as_bytes(),
        );
        assert_eq!(code, 0, "{err}");
        assert!(out.starts_with("valid:"), "{out}");
    }
}

#[test]
fn cross_check_agrees_with_fc_solve() {
    if !require("fc-solve") {
        return;
    }
    let out = fcauto()
        .args(["solve", "617", "--cross-check"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("fc-solve -l lg: solved")
            && err.contains("our validator accepts it")
            && err.contains("AGREE"),
        "{err}"
    );
}

/// PySolFC 3.2's *Export current layout* writes an empty column as an empty line (here the
/// first column, mid-game deal 617): solved, and fc-solve, which reads such boards, agrees.
#[test]
fn pysolfc_export_with_an_empty_column_solves() {
    let board = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/boards/pysolfc-export-617-empty-column.board"
    );
    let mut args = vec!["solve", "--board", board];
    if require("fc-solve") {
        args.push("--cross-check");
    }
    let out = fcauto().args(&args).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{err}");
    assert!(
        !args.contains(&"--cross-check") || err.contains("AGREE"),
        "{err}"
    );
}

/// A one-line position string is read wherever a board file is (`--board`), and gives the
/// same solution as the deal's board text.
#[test]
fn a_position_string_is_a_board() {
    let dir = tempfile::tempdir().unwrap();
    let b = ms_deal(617).unwrap();
    let pos = write(
        &dir,
        "617.pos",
        &format!("{}\n", fcauto_deals::position::write(&b)),
    );
    let fcs = write(&dir, "617.board", &b.to_string());
    let run = |p: &std::path::Path| {
        let out = fcauto()
            .args(["solve", "--mode", "fast", "--board"])
            .arg(p)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    assert_eq!(run(&pos), run(&fcs));
    let bad = write(
        &dir,
        "short.pos",
        "JDKD2S4C3S6D6S/2DKCKS5CTD8S9C ---- 0000\n",
    );
    let (code, err) = solve_board(&bad);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("expected 8 cascades separated by `/`, found 2"),
        "{err}"
    );
}

/// fc-solve's `-l lg` is a meta-move scan: on this mid-game board (all four freecells full)
/// it finds nothing, while our solution validates. That is no contradiction, and no failure.
#[test]
fn cross_check_is_no_failure_when_only_lg_gives_up() {
    if !require("fc-solve") {
        return;
    }
    let out = fcauto()
        .args([
            "solve",
            "--board",
            "tests/fixtures/boards/lg-misses-a-solution.txt",
        ])
        .arg("--cross-check")
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("validated")
            && err.contains("fc-solve -l lg: found no solution")
            && err.contains("NO CONTRADICTION")
            && !err.contains("NotSolved"),
        "{err}"
    );
}

/// An fc-solve that exits at once without reading its input (a version refusing an option)
/// is an error named in one line, exit 1, every time: the board no longer goes down a pipe
/// whose closing ended fcauto by SIGPIPE, with no message (formerly: exit 141, 3 runs in 10).
#[test]
fn cross_check_with_an_fc_solve_that_fails_at_once_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("fc-solve");
    use std::os::unix::fs::PermissionsExt;
    let path = format!(
        "{}:{}",
        dir.path().display(),
        std::env::var("PATH").unwrap()
    );
    // Failing at once, and exiting 0 with no verdict: one line, exit 1, not
    // "DISAGREE".
    for (script, needle, runs) in [
        ("echo 'unknown option' >&2\nexit 1", "unknown option", 10),
        ("echo hello\nexit 0", "fc-solve printed no verdict", 2),
        ("exit 0", "fc-solve printed no verdict", 2),
    ] {
        std::fs::write(&fake, format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        for _ in 0..runs {
            let out = fcauto()
                .args(["solve", "617", "--mode", "fast", "--cross-check"])
                .env("PATH", &path)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{err}");
            let last = err.lines().last().unwrap_or_default();
            assert!(last.contains(needle) && !err.contains("DISAGREE"), "{err}");
        }
    }
}

/// Deal 739671 is one fc-solve's `-l lg` range solver reports unsolved (2026-12-01, over
/// 1..1000000: its scans give up after 45,188 iterations): both our modes solve it, and the
/// validator accepts the solutions.
#[test]
fn a_deal_lg_reports_unsolved_is_solved() {
    for mode in [Mode::Fast, Mode::Short] {
        let (sol, v) = solved_and_validated(739_671, mode, mode.default_max_states());
        assert_eq!(v.moves_total, sol.moves.len(), "{mode:?}");
    }
}

/// Solve MS deal `n` in `mode` (the library, no process), panicking unless it is solved;
/// the solution and what the validator says of it.
fn solved_and_validated(n: u64, mode: Mode, max_states: usize) -> (Solution, Validated) {
    let board = ms_deal(n).unwrap();
    let res = solve(&board, mode, Limits { max_states });
    let Verdict::Solved(moves) = res.verdict else {
        panic!("deal {n} ({mode:?}): {:?}", res.verdict)
    };
    let sol = Solution {
        deal: Some(n),
        board: board.clone(),
        moves,
    };
    let v = validate(&board, &sol.step_moves()).unwrap_or_else(|e| panic!("deal {n}: {e}"));
    (sol, v)
}

#[test]
fn deals_1_to_200_solve_and_validate() {
    let optimum = proved_optima();
    for mode in [Mode::Fast, Mode::Short] {
        for n in 1..=200 {
            let (sol, v) = solved_and_validated(n, mode, mode.default_max_states());
            assert_eq!(v.moves_total, sol.moves.len());
            if let Some(&(opt, _)) = optimum.get(&n) {
                assert!(
                    v.single_card_moves >= opt,
                    "deal {n} ({mode:?}) beats the optimum"
                );
            }
            assert_eq!(
                sol.moves
                    .iter()
                    .filter(|m| m.mv.to == fcauto_solver::Loc::Foundation)
                    .count(),
                52
            );
        }
    }
}

#[test]
fn a_board_too_tall_for_the_solver_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let cards: Vec<String> = fcauto_deals::Card::all().map(|c| c.to_string()).collect();
    let mut lines = vec![cards[..30].join(" ")];
    for i in 0..7 {
        let end = if i == 6 { 52 } else { 33 + i * 3 };
        lines.push(cards[30 + i * 3..end].join(" "));
    }
    let p = write(&dir, "tall.txt", &lines.join("\n"));
    let out = fcauto()
        .args(["solve", "--board"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("could grow to") && !err.contains("panicked"),
        "{err}"
    );
}

/// `moves_total` and `single_card_moves` of `fcauto solve N --mode MODE --format json`.
fn solve_lengths(deal: u64, mode: &str) -> (u64, u64) {
    let out = fcauto()
        .args([
            "solve",
            &deal.to_string(),
            "--mode",
            mode,
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "deal {deal} {mode}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    (
        v["moves_total"].as_u64().unwrap(),
        v["single_card_moves"].as_u64().unwrap(),
    )
}

#[test]
fn optimal_ph_reproduces_paul_and_helmerts_published_lengths() {
    // Paul & Helmert (SoCS 2016), Table 1: optimal lengths of MS deals 1..10 (the quick
    // ones here; `fcauto bench --range 1..10 --mode optimal-ph` does all ten).
    for (deal, published) in [(2u64, 73u64), (3, 70), (6, 75), (7, 76), (9, 81)] {
        assert_eq!(
            solve_lengths(deal, "optimal-ph").0,
            published,
            "deal {deal}"
        );
    }
}

#[test]
fn optimal_modes_are_never_beaten_by_the_other_modes() {
    for deal in [3u64, 7] {
        let (opt_total, opt_single) = solve_lengths(deal, "optimal");
        assert_eq!(opt_total, opt_single, "optimal plays single cards only");
        let (moves_opt, _) = solve_lengths(deal, "optimal-moves");
        let (ph, _) = solve_lengths(deal, "optimal-ph");
        assert!(moves_opt <= ph, "deal {deal}: the usual rules allow more");
        for mode in ["fast", "short"] {
            let (total, single) = solve_lengths(deal, mode);
            assert!(opt_single <= single, "deal {deal} {mode}");
            assert!(moves_opt <= total, "deal {deal} {mode}");
        }
    }
}

/// The proved single-card optima of deals 1..100 (tests/fixtures/optimal): deal -> (optimum,
/// positions the A* expanded).
fn proved_optima() -> std::collections::HashMap<u64, (usize, u64)> {
    let text = include_str!("../fixtures/optimal/single-card-1-100.txt");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<u64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            (f[0], (f[1] as usize, f[2]))
        })
        .collect()
}

#[test]
fn optimal_mode_reproduces_the_recorded_optima() {
    // The quick ones (under 100k positions expanded when recorded).
    let optimum = proved_optima();
    assert_eq!(optimum.len(), 100);
    let mut checked = 0;
    for (&n, &(opt, expanded)) in &optimum {
        if expanded > 100_000 {
            continue;
        }
        let (_, v) = solved_and_validated(n, Mode::Optimal, 2_000_000);
        assert_eq!(v.single_card_moves, opt, "deal {n}");
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} deals checked");
}

#[test]
fn a_closed_output_pipe_ends_quietly() {
    // Like `fcauto solve 617 --format fcs | head -0`: the reader is gone before we write.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_fcauto"))
        .args(["solve", "617", "--format", "fcs"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(!out.status.success());
}

/// `--max-states N` lets a search store N positions: 11982's whole space (61,643 positions)
/// fits in exactly that budget and is proved unsolvable; one less says unknown and names
/// the state limit (in `fast` too, whose reduced move set runs dry first).
#[test]
fn max_states_is_the_number_of_positions_a_search_may_store() {
    for mode in ["fast", "short"] {
        for (max, said) in [
            ("61643", "unsolvable: exhaustive search of 61643"),
            ("61642", "unknown: state limit of 61642 positions"),
        ] {
            let out = fcauto()
                .args(["solve", "11982", "--mode", mode, "--max-states", max])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(said), "{mode} {max}: {err}");
        }
    }
}

/// `--output` naming the board file being solved by any path (another spelling, a
/// symbolic link, a hard link) is refused, and the board stays as it was.
#[test]
fn output_over_the_board_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text = ms_deal(5).unwrap().fcs_input_text();
    let p = write(&dir, "b.txt", &text);
    let soft = dir.path().join("soft.txt");
    std::os::unix::fs::symlink(&p, &soft).unwrap();
    let hard = dir.path().join("hard.txt");
    std::fs::hard_link(&p, &hard).unwrap();
    for other_path in [dir.path().join(".").join("b.txt"), soft, hard] {
        let out = fcauto()
            .args(["solve", "--board"])
            .arg(&p)
            .arg("--output")
            .arg(&other_path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", other_path.display());
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("it is the board file being solved"), "{err}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), text);
    }
}

/// An output path that names a folder (`newdir/`, existing or not, `file/` with `file` a
/// file) is refused before solving, not after, and said as what it is (formerly: `x.svg/`
/// with `x.svg` a file was called a folder).
#[test]
fn output_naming_a_folder_is_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.svg"), "mine").unwrap();
    for (name, want) in [
        (".", "cannot write .: it is a folder (give a file name)"),
        (
            "newdir/",
            "cannot write newdir/: a name ending in / names a folder (give a file name)",
        ),
        (
            "x.svg/",
            "cannot write x.svg/: x.svg is a file, and a name ending in / names a folder",
        ),
    ] {
        let out = fcauto()
            .current_dir(dir.path())
            .args(["solve", "617", "-o", name])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(want), "{name}: {err}");
        assert!(!err.contains("solved"), "refused only after solving: {err}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("x.svg")).unwrap(),
        "mine"
    );
}

/// `fcauto verify` with its arguments; (exit code, stdout, stderr).
fn verify<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (Option<i32>, String, String) {
    let out = fcauto().arg("verify").args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn verify_with_board_checks_the_json_deal_claim() {
    let dir = tempfile::tempdir().unwrap();
    let board = write(&dir, "good617.txt", &ms_deal(617).unwrap().cascades_text());
    let out = fcauto()
        .args(["solve", "617", "--format", "json"])
        .output()
        .unwrap();
    let good: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let run = |name: &str, v: &serde_json::Value| {
        let p = write(&dir, name, &v.to_string());
        verify(&["--board".as_ref(), board.as_os_str(), p.as_os_str()])
    };
    // The true claim, and no claim, verify.
    assert_eq!(run("617.json", &good).0, Some(0));
    let mut no_deal = good.clone();
    no_deal.as_object_mut().unwrap().remove("deal");
    assert_eq!(run("nodeal.json", &no_deal).0, Some(0));
    no_deal["deal"] = serde_json::Value::Null;
    assert_eq!(run("nulldeal.json", &no_deal).0, Some(0));
    // Deal 5's claim on deal 617's board and moves is refused, board in the JSON or not.
    let mut five = good.clone();
    five["deal"] = 5.into();
    // Another start than the one given is a usage problem (exit 2), as in `analyze`.
    let (code, _, err) = run("5.json", &five);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("the solution is for deal 5, but the solution's `cascades` are not deal 5's"),
        "{err}"
    );
    five.as_object_mut().unwrap().remove("cascades");
    let (code, _, err) = run("5-noboard.json", &five);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("the solution is for deal 5, but the board given is not deal 5's"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one line: {err}");
}

/// A board given where the solution goes is named as a board (formerly: its first card was
/// read as a move); a standard move list with one of fc-solve's move lines added, or fc-solve's
/// output with a standard move added, names the stray line (formerly: the other moves were
/// skipped unread, and the result called valid).
#[test]
fn verify_names_a_board_and_a_mixed_solution() {
    let dir = tempfile::tempdir().unwrap();
    let board = write(&dir, "617.txt", &ms_deal(617).unwrap().fcs_input_text());
    for extra in [&["--deal", "617"][..], &[]] {
        let mut args: Vec<&std::ffi::OsStr> = extra.iter().map(|a| a.as_ref()).collect();
        args.push(board.as_os_str());
        let (code, _, err) = verify(&args);
        assert_eq!(code, Some(2), "{extra:?}: {err}");
        assert!(
            err.contains("is a board (a position), not a solution"),
            "{err}"
        );
    }
    let out = fcauto()
        .args(["solve", "617", "--mode", "fast"])
        .output()
        .unwrap();
    let standard = String::from_utf8(out.stdout).unwrap();
    let fc_line = "Move a card from stack 7 to freecell 0\n";
    let out = fcauto()
        .args(["solve", "617", "--mode", "fast", "--format", "fcs"])
        .output()
        .unwrap();
    let fcs = String::from_utf8(out.stdout).unwrap();
    // A `# deal N,` line alone names the start (formerly: "names no start").
    let headed = write(
        &dir,
        "headed.txt",
        &format!("# deal 617, by hand\n{standard}"),
    );
    let (code, out, err) = verify(&[headed.as_os_str()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("valid"), "{out}");
    for (name, text, stray) in [
        ("mixed.txt", format!("{standard}{fc_line}"), "line 1: `"),
        ("added.fcs", format!("{fcs}8a\n"), "`8a`"),
    ] {
        let p = write(&dir, name, &text);
        let (code, _, err) = verify(&["--deal".as_ref(), "617".as_ref(), p.as_os_str()]);
        assert_eq!(code, Some(1), "{name}: {err}");
        assert!(
            err.contains(stray) && err.contains("not part of fc-solve's output"),
            "{name}: {err}"
        );
    }
}

/// A solution JSON whose `deal` is out of range is named with its file and field, as
/// `--deal` gives it (formerly: "deal number 0 is out of range" alone, like a flag's).
#[test]
fn verify_names_a_json_deal_out_of_range() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, "j.json", r#"{"deal": 0, "moves": []}"#);
    let (code, _, err) = verify(&[p.as_os_str()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("j.json") && err.contains("`deal` 0 is not a deal number"),
        "{err}"
    );
}

/// An already-won board in Freecell Solver's format (foundations last, `:` cascades).
const WON: &str = ":\n:\n:\n:\n:\n:\n:\n:\nFoundations: H-K C-K D-K S-K\nFreecells:\n";

#[test]
fn verify_accepts_a_zero_move_fcs_solution_of_a_won_board() {
    let dir = tempfile::tempdir().unwrap();
    let won = write(&dir, "won.txt", WON);
    let out = fcauto()
        .args(["solve", "--board"])
        .arg(&won)
        .args(["--format", "fcs"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let ours = String::from_utf8(out.stdout).unwrap();
    assert!(ours.contains("Total number of moves: 0"), "{ours}");
    // fc-solve 4.x prints no move count for it.
    let theirs = "-=-=-=-=-=-=-=-=-=-=-=-\n\nFoundations: H-K C-K D-K S-K \nFreecells:\n\
                  : \n: \n: \n: \n: \n: \n: \n: \n\n\n====================\n\n\
                  This game is solveable.\nTotal number of states checked is 1.\n\
                  This scan generated 1 states.\n";
    for (name, text) in [("ours.fcs", ours.as_str()), ("theirs.fcs", theirs)] {
        let p = write(&dir, name, text);
        let (code, out, err) = verify(&["--board".as_ref(), won.as_os_str(), p.as_os_str()]);
        assert_eq!(code, Some(0), "{name}: {err}");
        assert!(out.starts_with("valid: 0 moves"), "{name}: {out}");
        // The same text is no solution of a deal still to play (its printed position is
        // another board), nor is it with the position taken out (no moves).
        let (code, _, err) = verify(&["--deal".as_ref(), "617".as_ref(), p.as_os_str()]);
        assert_eq!(code, Some(2), "{name}: {err}");
        assert!(err.contains("starts from another board"), "{name}: {err}");
        let bare: String = text
            .lines()
            .filter(|l| {
                !l.starts_with(':') && !l.starts_with("Foundations") && !l.starts_with("Freecells")
            })
            .map(|l| format!("{l}\n"))
            .collect();
        let p = write(&dir, name, &bare);
        let (code, _, err) = verify(&["--deal".as_ref(), "617".as_ref(), p.as_os_str()]);
        assert_eq!(code, Some(1), "{name}: {err}");
        assert!(err.contains("lists no moves"), "{name}: {err}");
    }
    // `solve`'s text for a won board (no moves) is no solution of a deal still to play,
    // and says why (formerly: "not a recognised solution").
    for text in ["# already won: no moves\n", ""] {
        let p = write(&dir, "no-moves.txt", text);
        let (code, _, err) = verify(&["--deal".as_ref(), "1".as_ref(), p.as_os_str()]);
        assert_eq!(code, Some(1), "{text:?}: {err}");
        assert!(
            err.contains("the solution has no moves, and the deal is not already won"),
            "{text:?}: {err}"
        );
        let (code, out, err) = verify(&["--board".as_ref(), won.as_os_str(), p.as_os_str()]);
        assert_eq!(code, Some(0), "{text:?}: {err}");
        assert!(out.starts_with("valid: 0 moves"), "{text:?}: {out}");
    }
    // So is JSON with no moves (formerly: "says the deal was not solved", which it does
    // not), while for a deal still to play it lists no moves.
    let p = write(&dir, "empty.json", "{\"moves\": []}");
    let (code, out, err) = verify(&["--board".as_ref(), won.as_os_str(), p.as_os_str()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("valid: 0 moves"), "{out}");
    let (code, _, err) = verify(&["--deal".as_ref(), "1".as_ref(), p.as_os_str()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("lists no moves"), "{err}");
    // Text with neither moves nor a verdict is still not a solution.
    let p = write(&dir, "nothing.fcs", "hello\n");
    let (code, _, err) = verify(&["--board".as_ref(), won.as_os_str(), p.as_os_str()]);
    assert_eq!(code, Some(1));
    assert!(err.contains("not a recognised solution"), "{err}");
}

#[test]
fn verify_messages_use_user_words_not_rust_names() {
    let dir = tempfile::tempdir().unwrap();
    let board = write(&dir, "617.txt", &ms_deal(617).unwrap().cascades_text());
    for (name, text, needle) in [
        (
            "not.fcs",
            "I could not solve this game.\n",
            "did not solve the board (could not solve it)",
        ),
        (
            "limit.fcs",
            "Iterations count exceeded.\n",
            "did not solve the board (iterations count exceeded)",
        ),
    ] {
        let p = write(&dir, name, text);
        let (code, _, err) = verify(&["--board".as_ref(), board.as_os_str(), p.as_os_str()]);
        assert_eq!(code, Some(1), "{name}");
        assert!(err.contains(needle), "{name}: {err}");
        let (_, _, err) = verify(&["--deal".as_ref(), "617".as_ref(), p.as_os_str()]);
        assert!(err.contains("did not solve the deal ("), "{name}: {err}");
    }
    // A wrong `kind` is named as the JSON spells it.
    let out = fcauto()
        .args(["solve", "617", "--format", "json"])
        .output()
        .unwrap();
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &mut v["moves"][0];
    let (from, to) = (first["from"].clone(), first["to"].clone());
    let wrong = if first["kind"] == "stack_to_stack" {
        "freecell_to_stack"
    } else {
        "stack_to_stack"
    };
    first["kind"] = wrong.into();
    let p = write(&dir, "kind.json", &v.to_string());
    let (code, _, err) = verify(&["--deal".as_ref(), "617".as_ref(), p.as_os_str()]);
    assert_eq!(code, Some(1));
    let at = format!(
        "step 1: `kind` {wrong} does not match {}{}",
        from.as_str().unwrap(),
        to.as_str().unwrap()
    );
    assert!(err.contains(&at), "{err}");
    assert!(
        !err.contains("StackTo") && !err.contains("FreecellTo"),
        "{err}"
    );
}

#[test]
fn huge_or_garbage_board_files_give_short_errors() {
    let dir = tempfile::tempdir().unwrap();
    // Many bad tokens: the first few are listed, the rest counted.
    let garbage = "zz ".repeat(5000);
    let big = "zz ".repeat(30_000);
    // A file that never ends is refused without reading it all.
    let endless = std::path::Path::new("/dev/zero");
    for (name, text, needle) in [
        ("garbage.txt", garbage.as_str(), "more problems"),
        ("big.txt", big.as_str(), "too large"),
    ] {
        let (code, err) = solve_board(&write(&dir, name, text));
        assert_eq!(code, Some(1), "{name}");
        assert!(err.contains(needle), "{name}: {err}");
        assert!(err.len() < 2000, "{name}: {} bytes: {err}", err.len());
    }
    if endless.exists() {
        let (code, err) = solve_board(endless);
        assert_eq!(code, Some(1));
        // Named by kind (zeros are no text), as any large file that is not text.
        assert!(err.contains("it looks like a binary file"), "{err}");
    }
}

/// Standard notation round trips: `solve`'s default output (with `v<count>` after a run onto
/// an empty cascade), the same without the counts (plain `-sn`: verify finds them), and
/// fc-solve's own `-m -sn` output all pass `verify`; a tampered move is named at its step.
#[test]
fn verify_reads_standard_notation() {
    let dir = tempfile::tempdir().unwrap();
    let verify = |deal: &str, p: &std::path::Path| {
        let (code, out, err) = verify(&["--deal".as_ref(), deal.as_ref(), p.as_os_str()]);
        (code, err + &out)
    };
    for (deal, mode) in [("617", "short"), ("2", "fast")] {
        let out = fcauto()
            .args(["solve", deal, "--mode", mode])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let p = write(&dir, "std.txt", &text);
        let (code, said) = verify(deal, &p);
        assert_eq!(code, Some(0), "deal {deal}: {said}");
        assert!(said.contains("valid: "), "{said}");
        if mode == "fast" {
            assert!(
                text.contains('v'),
                "no run onto an empty cascade in deal 2's fast solution"
            );
            let plain: String = text
                .split_whitespace()
                .map(|t| t.split('v').next().unwrap().to_string() + " ")
                .collect();
            let (code, said) = verify(deal, &write(&dir, "plain.txt", &plain));
            assert_eq!(code, Some(0), "plain: {said}");
        }
        // The first move to a freecell sent to the foundations instead.
        let first_cell = text
            .split_whitespace()
            .position(|t| t.len() == 2 && t.ends_with('a'))
            .unwrap();
        let bad: Vec<String> = text
            .split_whitespace()
            .enumerate()
            .map(|(i, t)| {
                if i == first_cell {
                    format!("{}h", &t[..1])
                } else {
                    t.to_string()
                }
            })
            .collect();
        let (code, said) = verify(deal, &write(&dir, "bad.txt", &bad.join(" ")));
        assert_eq!(code, Some(1), "{said}");
        assert!(
            said.contains(&format!("step {} (", first_cell + 1)),
            "{said}"
        );
    }
    if require("fc-solve") {
        let board = write(&dir, "617.board", &ms_deal(617).unwrap().fcs_input_text());
        let out = std::process::Command::new("fc-solve")
            .args(["-m", "-sn", "-l", "lg"])
            .arg(&board)
            .output()
            .unwrap();
        let fcs = String::from_utf8(out.stdout).unwrap();
        let (code, said) = verify("617", &write(&dir, "fcs-sn.txt", &fcs));
        assert_eq!(code, Some(0), "{said}");
    }
    let (code, said) = verify("617", &write(&dir, "junk.txt", "3a 4b\n5h xx\n"));
    assert_eq!(code, Some(1));
    assert!(said.contains("line 2: `xx`"), "{said}");
}

/// `-` is standard input for `--board` and `verify`'s solution, standard output for
/// `--output` and `bench --json`; board and solution cannot both be `-`.
#[test]
fn dash_is_standard_input_and_output() {
    let run = |args: &[&str], stdin: &str| {
        let out = fcauto().args(args).write_stdin(stdin).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            err,
        )
    };
    let board = ms_deal(617).unwrap().fcs_input_text();
    let solve = ["solve", "--board", "-", "--format", "json", "--output", "-"];
    let (code, json, err) = run(&solve, &board);
    assert_eq!(code, Some(0), "{err}");
    assert!(json.starts_with('{'), "{json}");
    let (code, out, err) = run(&["verify", "--deal", "617", "-"], &json);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("valid: "), "{out}");
    // The wrong deal's solution from standard input is refused (another start: exit 2).
    assert_eq!(run(&["verify", "--deal", "618", "-"], &json).0, Some(2));
    let (code, _, err) = run(&["verify", "--board", "-", "-"], &board);
    assert_eq!(code, Some(2), "a usage error");
    assert!(err.contains("cannot both"), "{err}");
    let (code, out, err) = run(&["bench", "--range", "1..2", "--json", "-"], "");
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["summary"]["solved"], 2, "{v}");
    assert!(err.contains("solved and validated: 2"), "{err}");
    assert!(
        !std::path::Path::new("-").exists(),
        "no file named - was written"
    );
}

/// fc-solve's printed positions are checked against the replay: output for another deal is
/// named as such, a tampered position is found, and a board whose freecell line has blank
/// gaps (which fc-solve reads left-aligned, numbering its moves so) still verifies, and
/// `analyze` reads it with those moves too.
#[test]
fn verify_checks_fc_solve_positions() {
    if !require("fc-solve") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fc_solve = |board: &std::path::Path, args: &[&str]| {
        let out = std::process::Command::new("fc-solve")
            .args(args)
            .args(["-l", "lg"])
            .arg(board)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let verify = |args: &[&str], p: &std::path::Path| {
        let mut all: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        all.push(p.as_os_str());
        let (code, _, err) = verify(&all);
        (code, err)
    };
    let b617 = write(&dir, "617.board", &ms_deal(617).unwrap().fcs_input_text());
    let full = fc_solve(&b617, &["-p", "-t", "-sam"]);
    let p = write(&dir, "617.fcs", &full);
    assert_eq!(verify(&["--deal", "617"], &p).0, Some(0));
    let (code, err) = verify(&["--deal", "618"], &p);
    assert_eq!(code, Some(2));
    assert!(err.contains("starts from another board"), "{err}");
    // Swap two cards of the first cascade in the sixth printed position.
    let mut lines: Vec<String> = full.lines().map(String::from).collect();
    let at = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("Foundations:"))
        .nth(5)
        .unwrap()
        .0;
    let first_cascade = &mut lines[at + 2];
    let cards: Vec<&str> = first_cascade.split_whitespace().collect();
    *first_cascade = format!(": {} {} {}", cards[2], cards[1], cards[3..].join(" "));
    let bad = write(&dir, "bad.fcs", &lines.join("\n"));
    let (code, err) = verify(&["--deal", "617"], &bad);
    assert_eq!(code, Some(1));
    assert!(err.contains("after move 5 is not the one"), "{err}");
    // A card put twice there is named at the file's lines (formerly: they were counted
    // from the position's first line).
    let mut twice: Vec<String> = full.lines().map(String::from).collect();
    let first: Vec<String> = twice[at + 2].split_whitespace().map(String::from).collect();
    let second: Vec<String> = twice[at + 3].split_whitespace().map(String::from).collect();
    twice[at + 2] = format!(": {} {}", second[1], first[2..].join(" "));
    let twice = write(&dir, "twice-pt.fcs", &twice.join("\n"));
    let (code, err) = verify(&["--deal", "617"], &twice);
    assert_eq!(code, Some(1));
    assert!(
        err.contains(&format!(
            "line {}, token `{}`: duplicate card",
            at + 4,
            second[1]
        )) && err.contains(&format!("(already on line {})", at + 3)),
        "{err}"
    );
    // analyze checks fc-solve's text as verify does (formerly: it analysed it).
    let out = fcauto()
        .args(["analyze", "--deal", "617"])
        .arg(&bad)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("after move 5 is not the one"), "{err}");
    // fc-solve's table layout (`-sam` without `-p -t`) is read and checked too (formerly:
    // its positions were never checked, a position holding QH twice passed): its first
    // position is the start, a card twice or two cards swapped in a later one are named, and
    // a board appended after its moves is a line fc-solve does not print (it was skipped as
    // a row of the table).
    let table = fc_solve(&b617, &["-sam"]);
    let p = write(&dir, "617-table.fcs", &table);
    assert_eq!(verify(&["--deal", "617"], &p).0, Some(0));
    assert_eq!(
        verify(&[], &p).0,
        Some(0),
        "its first position is the start"
    );
    let mut lines: Vec<String> = table.lines().map(String::from).collect();
    let heads = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && l.split_whitespace().all(|t| t == "--"))
        .nth(5)
        .unwrap()
        .0;
    let row = lines[heads + 1].clone();
    let (a, b) = (&row[0..4], &row[4..8]);
    lines[heads + 1] = format!("{a}{a}{}", &row[8..]);
    let twice = write(&dir, "twice.fcs", &lines.join("\n"));
    let (code, err) = verify(&["--deal", "617"], &twice);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!("{}: card appears twice", a.trim())) && err.contains("missing"),
        "{err}"
    );
    lines[heads + 1] = format!("{b}{a}{}", &row[8..]);
    let swapped = write(&dir, "swapped.fcs", &lines.join("\n"));
    let (code, err) = verify(&["--deal", "617"], &swapped);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("after move 5 is not the one"), "{err}");
    let appended = format!("{table}\n{}", ms_deal(617).unwrap().cascades_text());
    let appended = write(&dir, "appended.fcs", &appended);
    let (code, err) = verify(&["--deal", "617"], &appended);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("is not part of fc-solve's output"), "{err}");
    // Whitespace an editor or a paste puts in (formerly: a tab hid the move lines): spaces
    // turned into tabs at stops of 8 columns (as `unexpand -a` or an editor does), and a move
    // line typed with a tab and doubled spaces; verify, analyze and a start read from it all
    // read it as fc-solve printed it.
    let unexpand = |line: &str| {
        let chunks: Vec<String> = line
            .as_bytes()
            .chunks(8)
            .map(|c| String::from_utf8(c.to_vec()).unwrap())
            .collect();
        let last = chunks.len().saturating_sub(1);
        chunks
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let kept = c.trim_end_matches(' ');
                if i < last && c.len() == 8 && c.len() - kept.len() >= 2 {
                    format!("{kept}\t")
                } else {
                    c.clone()
                }
            })
            .collect::<String>()
    };
    let tabbed: String = full
        .lines()
        .map(|l| match l.strip_prefix("Move a card from stack 7") {
            Some(rest) => format!("Move\ta  card from stack 7{rest}\n"),
            None => format!("{}\n", unexpand(l)),
        })
        .collect();
    assert!(
        tabbed.contains("Freecells:\t") && tabbed.contains("Move\ta"),
        "{tabbed}"
    );
    let tabbed = write(&dir, "tabbed.fcs", &tabbed);
    for args in [&["--deal", "617"][..], &[]] {
        let (code, err) = verify(args, &tabbed);
        assert_eq!(code, Some(0), "{args:?}: {err}");
    }
    let out = fcauto()
        .args(["analyze", "--json"])
        .arg(&tabbed)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "analyze: {err}");
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let moves = full.lines().filter(|l| l.starts_with("Move ")).count();
    assert_eq!(j["moves"].as_array().unwrap().len(), moves);
    let out = fcauto()
        .args(["solve", "--mode", "fast", "--board"])
        .arg(&tabbed)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // fc-solve's own layout of a position with a gap in the freecells.
    let gap = "Foundations: H-0 C-0 D-0 S-0\nFreecells:  JH      4D\n\
        : 7D TD TH KD 4C 4S JD\n: AD 7S QC 5H QS TS KS\n: 5C QD 3H 9S 9C 2H KC\n\
        : 3S AC 9D 3C 9H 5D 4H\n: 5S 6D 6S 8S 7C JC\n: 8C 8H 8D 7H 6H 6C\n: 2D AS 3D 2C\n\
        : AH KH TC JS 2S QH\n";
    let gap = write(&dir, "gap.board", gap);
    for args in [
        &["-p", "-t", "-sam"][..],
        &["-m"],
        &["-m", "-sn"],
        &["-m", "-snx"],
        &["-p", "-t", "-sam", "-sn"],
        // Positions drawn in columns (no -p -t): only the moves are read.
        &["-sam"],
        &["-sam", "-sn"],
        &["-sam", "-snx"],
        &["-p", "-sam", "-sn"],
    ] {
        let p = write(&dir, "gap.fcs", &fc_solve(&gap, args));
        let (code, err) = verify(&["--board", gap.to_str().unwrap()], &p);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        // `analyze` reads the board and the moves the same way.
        let out = fcauto()
            .args(["analyze", "--json", "--board", gap.to_str().unwrap()])
            .arg(&p)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "analyze {args:?}: {err}");
    }
    // Our own fc-solve text for that start numbers its freecells as fc-solve does
    // (formerly: it kept the gap, so its `freecell 1` named another slot than fc-solve's
    // would): its start is fc-solve's printed start, line for line, and its moves replay
    // from it.
    let out = fcauto()
        .args(["solve", "--format", "fcs", "--board"])
        .arg(&gap)
        .output()
        .unwrap();
    assert!(out.status.success());
    let ours = String::from_utf8(out.stdout).unwrap();
    let start = |t: &str| {
        t.split("====================")
            .next()
            .unwrap()
            .trim()
            .to_string()
    };
    assert_eq!(start(&ours), start(&fc_solve(&gap, &["-p", "-t", "-sam"])));
    assert!(start(&ours).contains("Freecells:  JH  4D"), "{ours}");
    let p = write(&dir, "ours.fcs", &ours);
    assert_eq!(verify(&[], &p), (Some(0), String::new()));
    assert_eq!(verify(&["--board", gap.to_str().unwrap()], &p).0, Some(0));
}

/// A minimal JSON (only `from` and `to`) has the counts of its runs found, as in standard
/// notation; `freecells`/`foundations` claims are checked even without `cascades`.
#[test]
fn minimal_json_counts_are_found_and_board_claims_checked() {
    let dir = tempfile::tempdir().unwrap();
    let out = fcauto()
        .args(["solve", "1", "--mode", "fast", "--format", "json"])
        .output()
        .unwrap();
    let full: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        full["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["count"].as_u64() > Some(1)),
        "no supermove in deal 1's fast solution to test"
    );
    let minimal: Vec<serde_json::Value> = full["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| serde_json::json!({"from": m["from"], "to": m["to"]}))
        .collect();
    let p = write(
        &dir,
        "min.json",
        &serde_json::json!({ "moves": minimal }).to_string(),
    );
    let (code, _, err) = verify(&["--deal".as_ref(), "1".as_ref(), p.as_os_str()]);
    assert_eq!(code, Some(0), "{err}");
    let mut claim = full.clone();
    claim.as_object_mut().unwrap().remove("cascades");
    claim["foundations"] = serde_json::json!([5, 5, 5, 5]);
    let p = write(&dir, "claim.json", &claim.to_string());
    let (code, _, err) = verify(&["--deal".as_ref(), "1".as_ref(), p.as_os_str()]);
    assert_eq!(code, Some(2), "another start than the deal given: {err}");
    assert!(err.contains("freecells/foundations"), "{err}");
}

/// `--deal-file` (the workflow's deal_seed.txt: `MS_DEAL_NUMBER=617`) and PySolFC's `ms617`
/// name the same deal as `617`; bad deal files fail with one line naming file and line.
#[test]
fn deal_files_and_ms_numbers_name_the_deal() {
    let dir = tempfile::tempdir().unwrap();
    let seed = write(
        &dir,
        "deal_seed.txt",
        "\u{feff}# from the workflow\r\n MS_DEAL_NUMBER = 617 \r\n",
    );
    let stdout = |args: &[&str], path: Option<&std::path::Path>, stdin: &str| {
        let mut cmd = fcauto();
        cmd.args(args);
        if let Some(p) = path {
            cmd.arg(p);
        }
        let out = cmd.write_stdin(stdin).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let by_number = stdout(&["solve", "617", "--format", "json"], None, "");
    assert_eq!(
        stdout(
            &["solve", "--format", "json", "--deal-file"],
            Some(&seed),
            ""
        ),
        by_number
    );
    assert_eq!(
        stdout(
            &["solve", "--format", "json", "--deal-file", "-"],
            None,
            "MS_DEAL_NUMBER=ms617\n"
        ),
        by_number
    );
    assert_eq!(
        stdout(&["solve", "ms617", "--format", "json"], None, ""),
        by_number
    );
    assert_eq!(
        stdout(&["deal", "MS617"], None, ""),
        stdout(&["deal", "617"], None, "")
    );
    let sol = write(&dir, "617.json", std::str::from_utf8(&by_number).unwrap());
    stdout(&["verify", "--deal", "ms617"], Some(&sol), "");

    for (text, want) in [
        (
            "MS_DEAL_NUMBER=0\n",
            "bad_seed.txt: line 1: deal number 0 is out of range",
        ),
        (
            "# x\nMS_DEAL=617\n",
            "bad_seed.txt: line 2: unknown key `MS_DEAL`",
        ),
        (
            "617\n",
            "bad_seed.txt: line 1: `617` is not MS_DEAL_NUMBER=<deal number>",
        ),
        ("\n", "bad_seed.txt: no MS_DEAL_NUMBER=<deal number> line"),
    ] {
        let bad = write(&dir, "bad_seed.txt", text);
        let out = fcauto()
            .args(["solve", "--deal-file"])
            .arg(&bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{text:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{text:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    let out = fcauto()
        .args(["solve", "--deal-file", "/nonexistent/deal_seed.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("cannot read deal file /nonexistent/deal_seed.txt"));
    // a deal number and a deal file at once: a usage error
    let out = fcauto()
        .args(["solve", "617", "--deal-file"])
        .arg(&seed)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // the solution is never written over the deal file
    let out = fcauto()
        .args(["solve", "--deal-file"])
        .arg(&seed)
        .arg("--output")
        .arg(&seed)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("it is the deal file being solved"));
    assert!(std::fs::read_to_string(&seed)
        .unwrap()
        .contains("MS_DEAL_NUMBER"));
}

/// `solve`'s standard notation reads back into `verify` in every outcome: an already-won
/// board's empty solution is valid; `# unsolvable` and `# unknown: ...` are named as a
/// deal not solved, not as an unrecognised file.
#[test]
fn verify_reads_back_standard_output_of_every_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let won = write(
        &dir,
        "won.txt",
        "Foundations: H-K C-K D-K S-K\nFreecells:\n\n\n\n\n\n\n\n\n",
    );
    let out = fcauto()
        .args(["solve", "--board"])
        .arg(&won)
        .output()
        .unwrap();
    assert!(out.status.success());
    let sol = dir.path().join("won.sol");
    std::fs::write(&sol, &out.stdout).unwrap();
    let (code, stdout, stderr) = verify(&["--board", won.to_str().unwrap(), sol.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("valid: 0 moves"), "{stdout}");
    for (deal, limit, said) in [
        ("11982", "200000", "unsolvable"),
        ("617", "1", "unknown: state limit"),
    ] {
        let out = fcauto()
            .args(["solve", deal, "--mode", "fast", "--max-states", limit])
            .output()
            .unwrap();
        let sol = dir.path().join(format!("{deal}.sol"));
        std::fs::write(&sol, &out.stdout).unwrap();
        let (code, _, stderr) = verify(&["--deal", deal, sol.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("says the deal was not solved ({said}")),
            "{stderr}"
        );
    }
}

/// `--format json` of a deal not solved gives its counts as null, as `bench --json`, batch,
/// the API and MCP do (a deal not solved has no solution length), and `verify` reads that
/// JSON back as a deal not solved; a solved board with no moves (already won) counts 0; null
/// counts beside moves claim nothing.
#[test]
fn json_counts_are_null_unless_solved() {
    let dir = tempfile::tempdir().unwrap();
    for (deal, limit, said) in [
        ("11982", "200000", "unsolvable"),
        ("617", "1", "unknown: state limit"),
    ] {
        let out = fcauto()
            .args(["solve", deal, "--mode", "fast", "--format", "json"])
            .args(["--max-states", limit])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(v["verdict"].as_str().unwrap().starts_with(said), "{v}");
        for key in ["moves_total", "single_card_moves"] {
            assert!(v[key].is_null(), "{deal}: {key} should be null: {v}");
        }
        assert_eq!(v["moves"], serde_json::json!([]), "{v}");
        let sol = write(&dir, &format!("{deal}.json"), &v.to_string());
        let (code, _, stderr) = verify(&["--deal", deal, sol.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("says the deal was not solved ({said}")),
            "{stderr}"
        );
    }
    let won = write(&dir, "won.txt", WON);
    let out = fcauto()
        .args(["solve", "--format", "json", "--board"])
        .arg(&won)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["moves_total"].clone(), v["single_card_moves"].clone()),
        (0.into(), 0.into()),
        "{v}"
    );
    let out = fcauto()
        .args(["solve", "617", "--mode", "fast", "--format", "json"])
        .output()
        .unwrap();
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["moves_total"] = serde_json::Value::Null;
    v["single_card_moves"] = serde_json::Value::Null;
    let sol = write(&dir, "617-null-counts.json", &v.to_string());
    let (code, stdout, stderr) = verify(&["--deal", "617", sol.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("valid: "), "{stdout}");
}

/// A solution that ends before the win names its file, as every other `verify` error does;
/// a JSON `deal` that is no deal number (0) is named as that, not as another deal.
#[test]
fn verify_names_the_file_and_a_deal_out_of_range() {
    let dir = tempfile::tempdir().unwrap();
    let partial = write(&dir, "partial.txt", "8a 8b\n");
    let (code, _, stderr) = verify(&["--deal", "617", partial.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("solution {}: after 2 moves", partial.display())),
        "{stderr}"
    );
    let out = fcauto()
        .args(["solve", "617", "--mode", "fast", "--format", "json"])
        .output()
        .unwrap();
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for bad in [0u64, 8_589_934_592] {
        v["deal"] = bad.into();
        let sol = write(&dir, "bad-deal.json", &v.to_string());
        let (code, _, stderr) = verify(&["--deal", "617", sol.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("the solution's `deal` {bad} is not a deal number"))
                && stderr.contains("out of range")
                && !stderr.contains("not deal 617"),
            "{stderr}"
        );
    }
}

/// The illegal move an error names is the move as written: a count given (`37v5`, or
/// `"count": 5` in JSON) is kept, not shown as `37`.
#[test]
fn verify_names_the_illegal_move_with_its_count() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("v.txt", "37v5\n"),
        (
            "v.json",
            r#"{"moves": [{"from": "3", "to": "7", "count": 5}]}"#,
        ),
    ] {
        let sol = write(&dir, name, text);
        let (code, _, err) = verify(&["--deal", "1", sol.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{name}: {err}");
        assert!(err.contains("step 1 (37v5): illegal move"), "{name}: {err}");
    }
    // Without a count, or with a count of 1 (how the notation reads a plain move), the
    // move is named `37`, never `37v1`.
    let one = r#"{"moves": [{"from": "3", "to": "7", "count": 1}]}"#;
    for (name, text) in [("plain.txt", "37\n"), ("one.json", one)] {
        let sol = write(&dir, name, text);
        let (code, _, err) = verify(&["--deal", "1", sol.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{name}: {err}");
        assert!(err.contains("step 1 (37): illegal move"), "{name}: {err}");
    }
}

/// Several cards to a freecell or a foundation break the one-card rule, and that is the
/// rule named, whether or not the cards form a run (deal 1's cascade 3 ends 8D 2H, no run).
#[test]
fn several_cards_to_a_freecell_or_home_break_the_one_card_rule() {
    let dir = tempfile::tempdir().unwrap();
    for (name, to, rule) in [
        ("cell.json", "a", "one card at a time goes to a freecell"),
        (
            "home.json",
            "h",
            "one card at a time goes to the foundations",
        ),
    ] {
        let text = format!(r#"{{"moves": [{{"from": "3", "to": "{to}", "count": 2}}]}}"#);
        let sol = write(&dir, name, &text);
        let (code, _, err) = verify(&["--deal", "1", sol.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{name}: {err}");
        assert!(err.contains(rule), "{name}: {err}");
    }
}

/// `#` starts a comment in a move list, as `solve` writes `# unsolvable`: a solution with
/// comments verifies; a file of comments alone that says `# unsolvable` is still named
/// a deal not solved.
#[test]
fn verify_skips_comment_lines_in_standard_notation() {
    let dir = tempfile::tempdir().unwrap();
    let out = fcauto()
        .args(["solve", "617", "--mode", "fast"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let moves = String::from_utf8(out.stdout).unwrap();
    let text = format!("# deal 617, by hand\n{moves}  # the end\n").replacen('\n', " # ten\n", 2);
    let sol = write(&dir, "commented.txt", &text);
    let (code, stdout, stderr) = verify(&["--deal", "617", sol.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("valid: "), "{stdout}");
    let sol = write(&dir, "unsolved.txt", "# deal 11982\n# unsolvable\n");
    let (code, _, stderr) = verify(&["--deal", "11982", sol.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("says the deal was not solved (unsolvable)"),
        "{stderr}"
    );
}

/// `verify`'s JSON refuses unknown fields, naming them, as `fcauto serve`'s bodies do (a
/// misspelt `count` would otherwise be left out without a word).
#[test]
fn verify_refuses_unknown_json_fields_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = fcauto()
        .args(["solve", "617", "--mode", "fast", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let good: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut top = good.clone();
    top["bogus"] = 1.into();
    let mut inner = good.clone();
    inner["moves"][0]["cuont"] = 1.into();
    for (name, v, field) in [("top.json", top, "bogus"), ("move.json", inner, "cuont")] {
        let sol = write(&dir, name, &v.to_string());
        let (code, _, err) = verify(&["--deal", "617", sol.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{name}: {err}");
        assert!(
            err.contains(&format!("unknown field `{field}`")),
            "{name}: {err}"
        );
    }
    let sol = write(&dir, "good.json", &good.to_string());
    let (code, _, err) = verify(&["--deal", "617", sol.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
}

/// A standard error that cannot be written (`2>/dev/full`) costs neither the result nor the
/// exit code: the solution still reaches standard output (exit 0), and bad input still
/// exits 1, never a panic (101). Every message goes through one non-panicking writer.
#[test]
fn a_full_standard_error_costs_neither_output_nor_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("fcauto");
    let run = |args: &[&str]| {
        std::process::Command::new(&bin)
            .args(args)
            .stderr(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open("/dev/full")
                    .unwrap(),
            )
            .output()
            .unwrap()
    };
    let out = run(&["solve", "617", "--mode", "fast", "--format", "standard"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .count()
            > 50
    );
    let bad = write(&dir, "bad.txt", "not a board\n");
    for args in [
        vec!["solve", "--board", bad.to_str().unwrap()],
        vec!["show", "--board", bad.to_str().unwrap()],
        vec!["verify", "--deal", "617", bad.to_str().unwrap()],
        vec!["solve", "11982", "--mode", "fast"],
    ] {
        assert_eq!(run(&args).status.code(), Some(1), "{args:?}");
    }
}

/// `solve --format fcs` ends with `Total number of moves: N`: `verify` holds the text to
/// it, as it holds our JSON to its counts.
#[test]
fn verify_checks_the_fcs_texts_moves_total() {
    let dir = tempfile::tempdir().unwrap();
    let out = succeed(fcauto().args(["solve", "617", "--mode", "fast", "--format", "fcs"]));
    let text = String::from_utf8(out.stdout).unwrap();
    let good = write(&dir, "617.fcs", &text);
    succeed(fcauto().args(["verify", "--deal", "617"]).arg(&good));
    let line = text
        .lines()
        .find(|l| l.starts_with("Total number of moves:"))
        .expect("the total line");
    for claim in ["Total number of moves: 3", "Total number of moves: banana"] {
        let bad = write(&dir, "bad.fcs", &text.replace(line, claim));
        let out = fcauto()
            .args(["verify", "--deal", "617"])
            .arg(&bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{claim}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(claim) && err.contains("move lines"), "{err}");
    }
}

/// The JSON's `notation` and the replay page's moves are the standard notation's tokens,
/// which read back as the same moves: a one-card move onto an empty cascade that could
/// have taken more cards is `18v1` in all three (formerly: `18` in the JSON and the page).
#[test]
fn every_format_writes_the_same_move_tokens() {
    let run = |format: &str| {
        let out = fcauto()
            .args(["solve", "617", "--mode", "fast", "--format", format])
            .output()
            .unwrap();
        assert!(out.status.success(), "{format}");
        String::from_utf8(out.stdout).unwrap()
    };
    let standard: Vec<String> = run("standard")
        .split_whitespace()
        .map(String::from)
        .collect();
    assert!(
        standard.iter().any(|t| t.ends_with("v1")),
        "the case is still there: {standard:?}"
    );
    let json: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    let notation: Vec<String> = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(notation, standard);
    let html = run("html");
    let page: Vec<String> = html
        .split("\"n\":\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect();
    assert_eq!(page, standard);
}

/// An optimal search under a memory limit (`ulimit -v`) that the search outgrows stops with
/// "unknown: out of memory" (exit 1), never the allocator's abort (exit 134, "memory
/// allocation of N bytes failed").
#[test]
fn an_optimal_search_out_of_memory_says_so() {
    let bin = assert_cmd::cargo::cargo_bin("fcauto");
    // 300 MB of address space: the program and its first tables fit, deal 1's A* does not.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -v 300000 && exec "$0" solve 1 --mode optimal --format json"#)
        .arg(&bin)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("unknown: out of memory after storing"),
        "{err}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        json["verdict"]
            .as_str()
            .is_some_and(|v| v.starts_with("unknown: out of memory")),
        "{json}"
    );
}

/// A supermove's single-card count is the fewest single-card moves that realise it: 4 cards
/// with 2 free freecells and an empty cascade take 7, as the same game played card by card
/// shows (formerly: 11, so the game counted 25 where its card-by-card version has 21).
#[test]
fn a_supermove_counts_its_fewest_single_card_moves() {
    let dir = tempfile::tempdir().unwrap();
    let board = write(
        &dir,
        "sm.pos",
        "KS/KHQHJSTH9C/TC/JC/QC/KC9H/TS/- JHQS-- 8K89\n",
    );
    let b = board.to_str().unwrap();
    let count = |moves: &str| {
        let sol = write(&dir, "sol.txt", moves);
        let out = fcauto()
            .args(["verify", "--board", b])
            .arg(&sol)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{moves}");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.split_once("valid: ")
            .map(|(_, t)| t.trim().to_string())
            .unwrap_or(text)
    };
    let tail = "1h 3h 4h 5h 6h 1h 6h 7h 1h ah 1h bh 2h 1h";
    let supermove = count(&format!("21 {tail}"));
    assert!(
        supermove.starts_with("15 moves, 21 single-card moves"),
        "{supermove}"
    );
    let by_card = count(&format!("2c 2d 28 21 81 d1 c1 {tail}"));
    assert!(
        by_card.starts_with("21 moves, 21 single-card moves"),
        "{by_card}"
    );
}

/// A solution that names its start needs no `--deal` or `--board`: fc-solve's `-p -t` text
/// (`solve --format fcs`: its first position), our JSON (its `deal`), `analyze --report`'s
/// `game.txt` (its `# start:` line); a move list that names none is a usage error (2) saying
/// so. Given as `--board`, such a solution gives its start; fc-solve's output without its
/// positions, or a move list, is named in one line (it was one "unknown token" per word);
/// a broken board file still gets its line and token.
#[test]
fn a_solution_that_names_its_start_needs_no_deal() {
    let dir = tempfile::tempdir().unwrap();
    let solved = |format: &str| {
        let out = succeed(fcauto().args(["solve", "617", "--format", format]));
        String::from_utf8(out.stdout).unwrap()
    };
    let fcs = write(&dir, "617.fcs", &solved("fcs"));
    let json = write(&dir, "617.json", &solved("json"));
    let standard = write(&dir, "617.txt", &solved("standard"));
    let report = dir.path().join("report");
    succeed(
        fcauto()
            .arg("analyze")
            .arg(&standard)
            .args(["--deal", "617", "--report"])
            .arg(&report),
    );
    let game = report.join("game.txt");
    for f in [&fcs, &json, &game] {
        let (code, out, err) = verify(&[f]);
        assert_eq!(code, Some(0), "{}: {out}{err}", f.display());
        assert!(out.starts_with("valid: "), "{}: {out}", f.display());
    }
    let (code, _, err) = verify(&[&standard]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("names no start") && err.contains("--deal"),
        "{err}"
    );

    // As --board: the start they hold, the same cards as the deal's own board file (the
    // caption says the deal where the file names it).
    let board = write(&dir, "617.board", &ms_deal(617).unwrap().cascades_text());
    let show = |f: &std::path::Path| fcauto().args(["show", "--board"]).arg(f).output().unwrap();
    let cards = |svg: &[u8]| {
        let svg = String::from_utf8_lossy(svg).into_owned();
        let from = svg.find(r#"<g id="cards">"#).expect("cards");
        let to = svg[from..].find(r#"<g id="hl""#).expect("highlight group") + from;
        svg[from..to].to_string()
    };
    let want = show(&board);
    assert!(want.status.success());
    for f in [&fcs, &game, &json] {
        let got = show(f);
        assert!(got.status.success(), "{}: {:?}", f.display(), got);
        assert_eq!(cards(&got.stdout), cards(&want.stdout), "{}", f.display());
    }
    let positions = |l: &&str| {
        let l = l.trim_start();
        ["Foundations:", "Freecells:", ":", "===="]
            .iter()
            .any(|p| l.starts_with(p))
    };
    let fcs_text = solved("fcs");
    let bare: Vec<&str> = fcs_text.lines().filter(|l| !positions(l)).collect();
    let bare = write(&dir, "617-m.txt", &bare.join("\n"));
    for (f, says) in [
        (&bare, "without its positions"),
        (&standard, "is a move list (standard notation), not a board"),
    ] {
        let out = show(f);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains(says), "{}: {err}", f.display());
        assert!(
            !err.contains("unknown token") && err.lines().count() == 1,
            "{err}"
        );
    }
    // A block cut from the middle of fc-solve's output: a move, then the position after
    // it (formerly: "it holds no board").
    let blocks: Vec<&str> = fcs_text.split("====================").collect();
    let mid = write(&dir, "mid.txt", blocks[3]);
    let err = String::from_utf8_lossy(&show(&mid).stderr).into_owned();
    assert!(
        err.contains("mid.txt is part of Freecell Solver's output: its first position (line 5) is printed after a move")
            && err.contains("remove the `Move` lines")
            && err.lines().count() == 1,
        "{err}"
    );
    let broken = write(
        &dir,
        "broken.board",
        "Foundations: H-0 C-0 D-0 S-0\n: KS QX\n",
    );
    let err = String::from_utf8_lossy(&show(&broken).stderr).into_owned();
    assert!(err.contains("line 2") && err.contains("`QX`"), "{err}");
}

/// Solution files whose own start is missing, doubled, broken or contradicted are named for
/// what is wrong: positions without move lines (`-p -t` without `-sam`), two
/// positions before the first move, a first position that is no board, a first position
/// that is not the one the moves start from, a bad `# start:` line, fc-solve's output of a
/// game it did not solve, an empty file; and a solution over a board's 64 KiB still gives
/// its start to `--board`.
#[test]
fn a_solutions_bad_own_start_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let fcs_of = |deal: &str| {
        let out = succeed(fcauto().args(["solve", deal, "--format", "fcs"]));
        String::from_utf8(out.stdout).unwrap()
    };
    let fcs = fcs_of("617");
    let lines: Vec<&str> = fcs.lines().collect();
    let first_block = |text: &str| -> String {
        text.lines()
            .skip_while(|l| !l.starts_with("Foundations:"))
            .take_while(|l| !l.trim().is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let no_moves: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.starts_with("Move ") && !l.starts_with("Total number of moves"))
        .collect();
    let doubled = fcs.replacen(
        "Foundations:",
        "Foundations: H-0 C-0 D-0 S-0\nFoundations:",
        1,
    );
    let two_starts = format!("{}\n\n{fcs}", first_block(&fcs_of("1")));
    // Deal 1's cascades as the first printed lines, without their Foundations: line, then
    // 617's output.
    let hidden = format!(
        "{}\n\n{fcs}",
        first_block(&fcs_of("1"))
            .lines()
            .filter(|l| l.starts_with(':'))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let game = {
        let standard = String::from_utf8(succeed(fcauto().args(["solve", "617"])).stdout).unwrap();
        let start = "7DTDTHKD4C4SJD/AD7SQC5HQSTSKS/5CQD3H9S9C2HKC/3SAC9D3C9H5D4H/5S6D6S8S7CJC/8C8H8D7H6H6C/2DAS3D4D2CJH/AHKHTC2SQH ---- 0000";
        format!("# start: {start}\n{standard}")
    };
    let unsolved = "-=-=-=-=-=-=-=-=-=-=-=-\n\nI could not solve this game.\n";
    for (name, text, says) in [
        (
            "no-moves.fcs",
            no_moves.join("\n"),
            "positions and no move lines: run fc-solve with -sam",
        ),
        (
            "two-starts.fcs",
            two_starts,
            "prints 2 positions before its first move",
        ),
        (
            "doubled.fcs",
            doubled,
            "first position (from line 3) is not a board",
        ),
        (
            "hidden.fcs",
            hidden,
            "another board than its first printed position",
        ),
        ("game.txt", game, "its `# start:` is not a position"),
        (
            "unsolved.txt",
            unsolved.to_string(),
            "did not solve the game",
        ),
        ("empty.txt", String::new(), "the file is empty"),
    ] {
        let (code, out, err) = verify(&[write(&dir, name, &text)]);
        assert_eq!(code, Some(1), "{name}: {out}{err}");
        assert!(err.contains(says), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
    }
    let show = |f: &std::path::Path| fcauto().args(["show", "--board"]).arg(f).output().unwrap();
    let out = show(&write(&dir, "unsolved.txt", unsolved));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("for a game it did not solve"),
        "{out:?}"
    );
    // A broken board whose every card reads like a move (`4D`: cascade 4 to freecell d) is a
    // broken board, with the parser's errors, never "a move list".
    let movelike =
        "Foundations: H-0 C-0 D-0 S-0\n4D 7C\nAH 2H\n3C 5D\n6H 8C\n2C 3D\n4H 5C\n6D 7H\n8D AC\n";
    let out = show(&write(&dir, "movelike.board", movelike));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("card(s) missing") && !err.contains("move list"),
        "{err}"
    );
    // fc-solve's output cut after its first position is that position (its separators were
    // read as cascades).
    let cut: Vec<&str> = lines
        .iter()
        .copied()
        .take_while(|l| !l.starts_with("Move "))
        .collect();
    let out = show(&write(&dir, "cut.fcs", &cut.join("\n")));
    assert!(out.status.success(), "{out:?}");
    // A bad card in the first position is named with the file's line.
    let at = lines.iter().position(|l| l.starts_with(": ")).unwrap() + 3;
    let mut bad: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    bad[at] = bad[at].replacen(' ', " XX ", 1);
    let (code, _, err) = verify(&[write(&dir, "bad-card.fcs", &bad.join("\n"))]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!("line {}, token `XX`", at + 1)),
        "{err}"
    );
    // Over 64 KiB (blank lines added): still a start for --board.
    let padded = fcs.replace("\n\n", &format!("\n{}\n", " ".repeat(200)));
    assert!(padded.len() > 64 * 1024, "{}", padded.len());
    let out = show(&write(&dir, "padded.fcs", &padded));
    assert!(out.status.success(), "{out:?}");
}

/// A board written by hand in fc-solve's format (a `Foundations:` line first) that does not
/// parse gets the board parser's own words, naming its line and token, not "fc-solve's first
/// position" (formerly: a hand-written board was called fc-solve's output).
#[test]
fn a_broken_hand_written_board_is_not_called_fc_solve_output() {
    let dir = tempfile::tempdir().unwrap();
    let deal = String::from_utf8(succeed(fcauto().args(["deal", "617"])).stdout).unwrap();
    let path = dir.path().join("t.txt");
    std::fs::write(&path, format!("Foundations: H-0 C-A D-0 S-0\n{deal}")).unwrap();
    for cmd in ["solve", "show"] {
        let out = fcauto().args([cmd, "--board"]).arg(&path).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{cmd}: {err}");
        assert!(err.contains("duplicate card AC"), "{cmd}: {err}");
        assert!(!err.contains("fc-solve"), "{cmd}: {err}");
    }
}

/// A deal number past 2^64 in a deal JSON (read by JSON as a float) is quoted with its
/// digits, not as `1.8446744073709552e19`.
#[test]
fn a_huge_json_deal_number_is_quoted_in_digits() {
    let dir = tempfile::tempdir().unwrap();
    let json =
        String::from_utf8(succeed(fcauto().args(["deal", "617", "--format", "json"])).stdout)
            .unwrap();
    let big = json.replacen("\"deal\":617", "\"deal\":18446744073709551616", 1);
    assert_ne!(big, json);
    let path = dir.path().join("big.json");
    std::fs::write(&path, big).unwrap();
    let out = fcauto()
        .args(["solve", "--board"])
        .arg(&path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("deal number 18446744073709551616 is out of range"),
        "{err}"
    );
}

/// JSON that is no object (a list of solutions or deals, a string, `true`, `null`) given as a
/// solution or a board is named as such, not read as move or board text (formerly: a list of
/// solutions got "a `}` that closes no `{` comment"); a lone number stays a move.
#[test]
fn json_that_is_no_object_is_named_for_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let sol = String::from_utf8(succeed(fcauto().args(["solve", "5", "--format", "json"])).stdout)
        .unwrap();
    let deal = String::from_utf8(succeed(fcauto().args(["deal", "5", "--format", "json"])).stdout)
        .unwrap();
    for (text, kind) in [
        (format!("[{}]", sol.trim()), "a JSON array"),
        (format!("  [{}]\n", deal.trim()), "a JSON array"),
        ("[1, 2".to_string(), "a JSON array"),
        ("\"3a a3\"".to_string(), "a JSON string"),
        ("null".to_string(), "JSON null"),
        ("true".to_string(), "JSON true or false"),
    ] {
        let path = dir.path().join("in.json");
        std::fs::write(&path, &text).unwrap();
        let (code, _, err) = verify(&[path.as_os_str()]);
        assert_eq!(code, Some(1), "{text}: {err}");
        assert!(
            err.contains(&format!("is {kind}, not a solution")),
            "{text}: {err}"
        );
        for cmd in ["solve", "show"] {
            let out = fcauto().args([cmd, "--board"]).arg(&path).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{cmd} {text}: {err}");
            assert!(
                err.contains(&format!("is {kind}, not a board")),
                "{cmd} {text}: {err}"
            );
        }
    }
    let path = dir.path().join("one.txt");
    std::fs::write(&path, "38\n").unwrap();
    let (_, _, err) = verify(&[path.as_os_str(), "--deal".as_ref(), "5".as_ref()]);
    assert!(err.contains("step 1 (38)"), "{err}");
}

/// A board file that can be read only once (a FIFO, a pipe such as `/dev/stdin` or the
/// shell's `<(...)`) is read once: `solve` reads it for the game it names, then as that game
/// (the second open found a drained pipe, "the board text is empty", or waited forever on
/// the FIFO).
#[test]
fn a_board_from_a_fifo_or_a_pipe_is_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("board");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) on a NUL-terminated path in our own temporary folder.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let board = crate::common::ok(&["deal", "--game", "bakers_game", "617", "--format", "json"]);
    let writer = {
        let (fifo, board) = (fifo.clone(), board.clone());
        std::thread::spawn(move || std::fs::write(fifo, board).unwrap())
    };
    let args = ["solve", "--board", fifo.to_str().unwrap(), "--mode", "fast"];
    let (code, _, err) = crate::common::run(&args);
    writer.join().unwrap();
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("bakers_game"), "{err}");
    let piped = ["solve", "--board", "/dev/stdin", "--mode", "fast"];
    let (code, _, err) = crate::common::run_in(&piped, board.as_bytes());
    assert_eq!(code, 0, "{err}");
}

/// A solution JSON whose `deal` is out of range (0, 2^33, negative) is refused as such, not
/// as a deal whose position differs from its cascades.
#[test]
fn a_solution_naming_a_deal_out_of_range_says_so() {
    let json = crate::common::ok(&["solve", "617", "--format", "json"]);
    for bad in ["0", "8589934592", "-1", "\"8589934592\""] {
        let text = json.replacen("\"deal\": 617", &format!("\"deal\": {bad}"), 1);
        assert_ne!(text, json);
        let (code, _, err) = crate::common::run_in(&["verify", "-"], text.as_bytes());
        assert_eq!(code, 1, "{bad}: {err}");
        assert!(err.contains("out of range"), "{bad}: {err}");
    }
}

/// A position object alone (the API's shape: no `deal`, or `"deal": null`) is a board: a
/// deal's position solves as that deal does; a field that is no position is named.
#[test]
fn a_position_object_alone_is_a_board() {
    let deal: serde_json::Value =
        serde_json::from_str(&crate::common::ok(&["deal", "617", "--format", "json"])).unwrap();
    let mut alone = deal.clone();
    alone.as_object_mut().unwrap().remove("deal");
    let mut null = deal.clone();
    null["deal"] = serde_json::Value::Null;
    let want = crate::common::ok(&["solve", "617"]);
    for v in [alone, null] {
        let (code, out, err) =
            crate::common::run_in(&["solve", "--board", "-"], v.to_string().as_bytes());
        assert_eq!(code, 0, "{v}: {err}");
        assert_eq!(out, want);
        assert!(err.contains("board solved"), "{err}");
    }
    let won = r#"{"cascades":[[],[],[],[],[],[],[],[]],"foundations":[13,13,13,13]}"#;
    let (code, _, err) = crate::common::run_in(&["solve", "--board", "-"], won.as_bytes());
    assert_eq!(code, 0, "{err}");
    let (code, _, err) =
        crate::common::run_in(&["solve", "--board", "-"], br#"{"cascades":[[]],"x":1}"#);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("unknown field `x`"), "{err}");
}

/// Board text with more than four freecell entries on FreeCell's eight cascades is named as
/// a board of that many freecells (`--freecells N`, FreeCell's rules), and of Eight Off, the
/// game with 8 freecells and rules of its own, as the other reading; with `--freecells N` it
/// solves.
#[test]
fn a_board_of_more_freecells_says_to_give_freecells() {
    let dir = tempfile::tempdir().unwrap();
    let deal = ms_deal(617).unwrap().cascades_text();
    for n in [5usize, 8] {
        let text = format!("Freecells:{}\n{deal}", " -".repeat(n));
        let p = write(&dir, &format!("b{n}.txt"), &text);
        let p = p.to_str().unwrap();
        let (code, _, err) = crate::common::run(&["solve", "--board", p]);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains(&format!("give --freecells {n} (FreeCell's rules), or --game eight_off (Eight Off: 8 freecells, and its own rules)")),
            "{err}"
        );
        let (code, _, err) =
            crate::common::run(&["solve", "--board", p, "--freecells", &n.to_string()]);
        assert_eq!(code, 0, "{err}");
    }
}

/// An unsolvable deal's line gives the positions every search expanded, as a solved deal's
/// does and as `bench` counts them: the same figure in both for the same mode.
#[test]
fn an_unsolvable_deal_counts_its_positions_as_bench_does() {
    let (code, _, err) = crate::common::run(&["solve", "11982", "--mode", "fast"]);
    assert_eq!(code, 1, "{err}");
    let bench = crate::common::ok(&["bench", "--range", "11982..11982", "--json", "-"]);
    let v: serde_json::Value = serde_json::from_str(&bench).unwrap();
    let expanded = &v["rows"][0]["expanded"];
    assert!(
        err.contains(&format!("({expanded} expanded by all searches)")),
        "{err} / bench {expanded}"
    );
}
