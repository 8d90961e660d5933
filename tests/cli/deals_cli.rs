//! `fcauto deal`: output identical to fc-solve's `make-microsoft-freecell-board -t`, and to
//! PySolFC's own deal generator (the pysol_cards module).

use crate::common;
use common::{fcauto, require};
use fcauto_deals::ms_deal;
use std::collections::HashMap;
use std::process::Command;

/// `# N` headers, each followed by the 8 lines of deal N.
fn parse_table(text: &str) -> HashMap<u64, String> {
    let mut out = HashMap::new();
    let mut cur: Option<(u64, String)> = None;
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("# ") {
            if let Some((k, v)) = cur.take() {
                out.insert(k, v);
            }
            cur = Some((n.trim().parse().unwrap(), String::new()));
        } else if let Some((_, v)) = cur.as_mut() {
            v.push_str(line);
            v.push('\n');
        }
    }
    if let Some((k, v)) = cur {
        out.insert(k, v);
    }
    out
}

#[test]
fn committed_table_matches_cli_output() {
    let table = parse_table(include_str!("../fixtures/deals/ms-expected.txt"));
    assert!(table.len() >= 15);
    for (n, expected) in &table {
        let out = fcauto().args(["deal", &n.to_string()]).output().unwrap();
        assert!(out.status.success());
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            *expected,
            "deal {n}"
        );
    }
}

#[test]
fn all_deals_1_to_32000_and_large_ones_match_make_microsoft_freecell_board() {
    if !require("make-microsoft-freecell-board") {
        return;
    }
    let mut deals: Vec<u64> = (1..=32000).collect();
    deals.extend([
        32001,
        100_000,
        1_000_000,
        123_456_789,
        (1 << 31) - 1,
        1 << 31,
        (1 << 31) + 12345,
        (1 << 32) - 1,
        1 << 32,
        (1 << 32) + 1,
        6_000_000_000,
        (1 << 33) - 1,
    ]);
    let list: Vec<String> = deals.iter().map(|n| n.to_string()).collect();
    // Shells run the tool for every deal in turn, printing a header per deal.
    let script = "xargs -n 2000 sh -c 'for n; do printf \"# %s\\n\" \"$n\"; make-microsoft-freecell-board -t \"$n\"; done' sh";
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Feed the deal list from a thread so that a full stdout pipe cannot deadlock us.
    let mut stdin = child.stdin.take().unwrap();
    let input = list.join("\n");
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(input.as_bytes()).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success());
    let table = parse_table(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(table.len(), deals.len(), "tool printed every deal");
    let mut bad = Vec::new();
    for n in &deals {
        if ms_deal(*n).unwrap().cascades_text() != table[n] {
            bad.push(*n);
        }
    }
    assert!(
        bad.is_empty(),
        "{} deals differ from make-microsoft-freecell-board, first: {:?}",
        bad.len(),
        &bad[..bad.len().min(20)]
    );
}

#[test]
fn pysolfc_deals_match_for_ms_numbers() {
    // PySolFC deals with pysol_cards (Debian python3-pysol-cards). Its FreeCell game number N
    // (plain, 1..31999) or msN (any N up to 2^33-1) is MS deal N.
    let py = "/usr/bin/python3";
    let probe = Command::new(py).args(["-c", "import pysol_cards"]).status();
    if !probe.map(|s| s.success()).unwrap_or(false) {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("python3-pysol-cards is required in CI: run scripts/setup-deps.sh --gui");
        }
        eprintln!("note: pysol_cards not installed; skipping");
        return;
    }
    let mut deals: Vec<u64> = (1..32000).step_by(37).collect();
    deals.extend([617, 11982, 31999, 32000, 100_000, 1_000_000, (1 << 31) - 1]);
    let code = format!(
        "from pysol_cards.cards import CardRenderer\n\
         from pysol_cards.deal_game import Game\n\
         from pysol_cards.random import RandomBase\n\
         for n in {deals:?}:\n\
         \x20   print('# %d' % n)\n\
         \x20   print(Game('freecell', n, RandomBase.DEALS_MS).calc_layout_string(CardRenderer(True)), end='')\n"
    );
    let out = Command::new(py).args(["-c", &code]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = parse_table(&String::from_utf8(out.stdout).unwrap());
    for n in &deals {
        assert_eq!(ms_deal(*n).unwrap().cascades_text(), table[n], "deal {n}");
    }
}

#[test]
fn json_format_lists_cascades() {
    let out = fcauto()
        .args(["deal", "617", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["deal"], 617);
    assert_eq!(v["cascades"][0][0], "7D");
    assert_eq!(v["cascades"].as_array().unwrap().len(), 8);
    assert_eq!(v["freecells"], serde_json::json!([null, null, null, null]));
    assert_eq!(v["foundations"], serde_json::json!([0, 0, 0, 0]));
}

#[test]
fn bad_deal_numbers_are_clear_errors() {
    for (arg, needle) in [
        ("0", "out of range"),
        ("-5", "out of range"),
        ("abc", "not a whole number"),
        ("8589934592", "largest"),
        ("1.5", "not a whole number"),
    ] {
        // A usage error, reported by clap in its own format.
        let out = fcauto().args(["deal", arg]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "deal {arg}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.starts_with(&format!("error: invalid value '{arg}' for '<NUMBER>': ")),
            "deal {arg}: {err}"
        );
        assert!(err.contains(needle), "deal {arg}: {err}");
        assert!(!err.contains("panicked"));
    }
    // The same for the other commands that take a deal number.
    for args in [
        &["solve", "abc"][..],
        &["solve", "0"],
        &["verify", "--deal", "abc", "x.json"],
        &["play", "--deal", "8589934592"],
    ] {
        let out = fcauto().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains("error: invalid value") && err.contains("deal number"),
            "{args:?}: {err}"
        );
    }
    let out = fcauto().args(["deal"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "missing argument is a usage error"
    );
    // `play` without --gui is one too (it plays nowhere else), as clap's own errors.
    let out = fcauto().args(["play", "--deal", "5"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "play without --gui");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("needs --gui"), "{err}");
}

/// A negative number given to a numeric option is that option's bad value, named by the
/// option's own check, not clap's "unexpected argument '-1'" (which read it as a flag).
#[test]
fn a_negative_number_is_the_options_bad_value() {
    for (args, option, needle) in [
        (
            &["solve", "5", "--max-states", "-5"][..],
            "--max-states",
            "-5",
        ),
        (
            &["bench", "--range", "1..3", "--threads", "-1"],
            "--threads",
            "-1",
        ),
        (
            &[
                "bench",
                "--range",
                "1..3",
                "--vs-fc-solve",
                "--repeat",
                "-1",
            ],
            "--repeat",
            "1..=100",
        ),
        (&["solve", "-3"], "[DEAL]", "out of range"),
        (&["bench", "--range", "-3..5"], "--range", "out of range"),
        // Numbers clap would read itself say what to give (formerly: "invalid digit found
        // in string").
        (
            &["solve", "617", "--format", "svg", "--step", "-1"],
            "--step",
            "not a move number (a whole number, 0 or more)",
        ),
        (
            &["solve", "617", "--max-states", "99999999999999999999"],
            "--max-states",
            "too large for a number of positions",
        ),
        (
            &["stats", "--game-id", "x"],
            "--game-id",
            "not a PySolFC game id",
        ),
        (&["stats", "--game-id", "-1"], "--game-id", "0 or more"),
        (
            &["solve", "5", "--max-states", "-5"],
            "--max-states",
            "a whole number, 1 or more",
        ),
    ] {
        let out = fcauto().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        let value = args[args.len() - 1];
        assert!(
            err.starts_with(&format!("error: invalid value '{value}' for '{option}")),
            "{args:?}: {err}"
        );
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// Output that cannot be written (`> /dev/full`) is a one-line error and exit 1, not a panic
/// (exit 101), for each command that prints to standard output.
#[test]
fn unwritable_standard_output_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("note: no /dev/full here; skipping");
        return;
    };
    let bin = assert_cmd::cargo::cargo_bin("fcauto");
    for args in [
        &["deal", "5"][..],
        &["solve", "5", "--mode", "fast"],
        &["bench", "--range", "1..2", "--json", "-"],
    ] {
        let out = std::process::Command::new(&bin)
            .args(args)
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("cannot write to standard output"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// An unknown option before the deal number is named as unknown (it was taken for the
/// number: `deal --freecells-num 2 1` said "unexpected argument '1'"); a negative number
/// is still the number, refused in its own words.
#[test]
fn an_unknown_option_before_the_number_is_named() {
    for cmd in ["deal", "solve", "show"] {
        let (code, _, err) = crate::common::run(&[cmd, "--freecells-num", "2", "1"]);
        assert_eq!(code, 2, "{cmd}: {err}");
        assert!(
            err.contains("unexpected argument '--freecells-num'"),
            "{cmd}: {err}"
        );
        let (code, _, err) = crate::common::run(&[cmd, "-5"]);
        assert_eq!(code, 2, "{cmd}: {err}");
        assert!(err.contains("deals start at 1"), "{cmd}: {err}");
    }
}
