//! `fcauto deal --game G N` against PySolFC's own dealing code: every game of the family at
//! Microsoft and Mersenne Twister numbers, the layout (cascades and freecells) and its board
//! text. The oracle, `tests/pysol_deal_oracle.py`, runs PySolFC 3.2's game classes, random
//! generators, shuffle and `startGame` (Debian's pysolfc, installed by
//! `scripts/setup-deps.sh --gui`).

use crate::common::fcauto;
use fcauto_deals::GAMES;
use serde_json::Value;
use std::process::Command;

/// The system Python, which Debian's pysolfc and python3-pysol-cards install into.
const PYTHON: &str = "/usr/bin/python3";

/// Game numbers: Microsoft deals (below 32000, and `msN`), the first Mersenne Twister
/// numbers, one past 2^31, and 20-digit numbers as PySolFC's random games have (one above
/// 2^64).
const NUMBERS: &[&str] = &[
    "1",
    "617",
    "31999",
    "32000",
    "32001",
    "123456",
    "2147483653",
    "ms40000",
    "12345678901234567890",
    "98765432109876543210",
];

/// True when PySolFC's code can be imported; in CI (CI=true) its absence is a failure.
fn have_pysolfc() -> bool {
    let probe = Command::new(PYTHON)
        .args([
            "-c",
            "import sys; sys.path.insert(0, '/usr/share/games/pysolfc'); \
             import pysollib.pysolrandom",
        ])
        .output();
    if probe.map(|o| o.status.success()).unwrap_or(false) {
        return true;
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("PySolFC (Debian's pysolfc) is required in CI: run scripts/setup-deps.sh --gui");
    }
    eprintln!(
        "note: PySolFC is not installed (pysollib under /usr/share/games/pysolfc): skipping \
         the comparison of `deal --game` with PySolFC's own deals"
    );
    false
}

/// The oracle's layouts for `pairs` (`ID:NUMBER`), one JSON object each, in order.
fn oracle(pairs: &[String]) -> Vec<Value> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pysol_deal_oracle.py");
    let out = Command::new(PYTHON)
        .arg(script)
        .args(pairs)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "oracle failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The board text `deal --game` writes for the oracle's layout: the foundations (when any
/// holds a card, in fc-solve's order H C D S), the freecells up to the last card (when
/// any), then the cascades.
fn expected_text(want: &Value) -> String {
    let counts: Vec<u64> = want["foundations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    let rank = |n: u64| "0A23456789TJQK".chars().nth(n as usize).unwrap();
    let mut text = String::new();
    if counts.iter().any(|&n| n > 0) {
        let [c, d, h, s] = [counts[0], counts[1], counts[2], counts[3]].map(rank);
        text += &format!("Foundations: H-{h} C-{c} D-{d} S-{s}\n");
    }
    let cells: Vec<&str> = want["freecells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap_or("-"))
        .collect();
    if let Some(last) = cells.iter().rposition(|c| *c != "-") {
        text += &format!("Freecells: {}\n", cells[..=last].join(" "));
    }
    for col in want["cascades"].as_array().unwrap() {
        let cards: Vec<&str> = col
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        text += &(cards.join(" ") + "\n");
    }
    text
}

#[test]
fn every_game_deals_as_pysolfc_deals_it() {
    if !have_pysolfc() {
        return;
    }
    let pairs: Vec<(u32, &str)> = GAMES
        .iter()
        .flat_map(|g| NUMBERS.iter().map(move |n| (g.pysol_id, *n)))
        .collect();
    let args: Vec<String> = pairs.iter().map(|(id, n)| format!("{id}:{n}")).collect();
    let wants = oracle(&args);
    assert_eq!(wants.len(), pairs.len());
    let mut mt = 0;
    for ((id, n), want) in pairs.iter().zip(&wants) {
        let id = id.to_string();
        let json = fcauto()
            .args(["deal", "--game", &id, n, "--format", "json"])
            .output()
            .unwrap();
        assert!(json.status.success(), "game {id} deal {n}: {json:?}");
        let got: Value = serde_json::from_slice(&json.stdout).unwrap();
        let what = format!("game {id} deal {n} ({})", want["random"]);
        assert_eq!(got["cascades"], want["cascades"], "{what}");
        assert_eq!(got["freecells"], want["freecells"], "{what}");
        assert_eq!(got["foundations"], want["foundations"], "{what}");
        assert_eq!(got["pysol_id"].to_string(), id, "{what}");
        let text = fcauto().args(["deal", "--game", &id, n]).output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&text.stdout),
            expected_text(want),
            "{what}"
        );
        mt += usize::from(want["random"] == "MTRandom");
    }
    // Each game at the six Mersenne Twister numbers (32000 on, not msN).
    assert_eq!(mt, GAMES.len() * 6);
    // `--freecells` on FreeCell is PySolFC's FreeCell (2 Reserves) and (No Reserve).
    for ((id, n), want) in pairs.iter().zip(&wants) {
        let cells = match id {
            1900 => "2",
            1901 => "0",
            _ => continue,
        };
        let args = [
            "deal",
            "--game",
            "freecell",
            "--freecells",
            cells,
            n,
            "--format",
            "json",
        ];
        let out = fcauto().args(args).output().unwrap();
        let got: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(got["cascades"], want["cascades"], "{args:?}");
        assert_eq!(got["freecells"], want["freecells"], "{args:?}");
    }
}

#[test]
fn without_game_a_number_is_still_the_microsoft_freecell_deal() {
    let plain = fcauto().args(["deal", "32000"]).output().unwrap();
    let ms = fcauto()
        .args(["deal", "--game", "freecell", "ms32000"])
        .output()
        .unwrap();
    assert_eq!(plain.stdout, ms.stdout);
    let mt = fcauto()
        .args(["deal", "--game", "freecell", "32000"])
        .output()
        .unwrap();
    assert_ne!(
        plain.stdout, mt.stdout,
        "PySolFC's 32000 is a Mersenne Twister deal"
    );
    // --freecells alone: the Microsoft deal with that many freecells, whatever its number.
    let two = fcauto()
        .args(["deal", "--freecells", "2", "40000", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&two.stdout).unwrap();
    assert_eq!(v["deal"], "ms40000");
    assert_eq!(v["freecells"], serde_json::json!([null, null]));
    let text = fcauto()
        .args(["deal", "--freecells", "2", "40000"])
        .output()
        .unwrap();
    let ms = fcauto().args(["deal", "40000"]).output().unwrap();
    assert_eq!(text.stdout, ms.stdout);
    let json = fcauto()
        .args(["deal", "617", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(v.get("game").is_none() && v["cascades"].is_array(), "{v}");
}

#[test]
fn what_does_not_fit_the_game_is_one_clear_line() {
    for (args, needle) in [
        (
            &["deal", "--game", "klondike", "5"][..],
            "unknown game `klondike`",
        ),
        (&["deal", "--freecells", "9", "5"], "9 is not in 0..=8"),
        (
            &["deal", "--game", "eight_off", "--freecells", "4", "5"],
            "Eight Off deals a card to freecell 7: it needs at least 7 freecells, not 4",
        ),
        (
            &["deal", "99999999999"],
            "PySolFC's larger game numbers need --game",
        ),
        (
            &["deal", "--game", "9", "100000000000000000001"],
            "PySolFC's largest is 100000000000000000000",
        ),
    ] {
        let out = fcauto().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(
            err.lines().next().map(|l| l.contains(needle)),
            Some(true),
            "{err}"
        );
    }
    // A game of FreeCell's shape is drawn as FreeCell is.
    let out = fcauto()
        .args(["deal", "--game", "forecell", "5", "--format", "svg"])
        .output()
        .unwrap();
    assert!(out.status.success() && out.stdout.starts_with(b"<svg"));
}

/// `deal --game G N --format json` reads back with `--board` for every number and every
/// game of FreeCell's rules: a number beyond 2^64-1 is written as a string (a JSON number
/// that large loses its digits in most readers), and a game of FreeCell's rules but for its
/// freecells given four (`--game 1900 --freecells 4`) reads as standard FreeCell.
#[test]
fn game_deal_json_reads_back_with_board() {
    let cases: [&[&str]; 4] = [
        &["--game", "freecell", "18446744073709551616"],
        &["--game", "freecell", "18446744073709551615"],
        &["--game", "1900", "--freecells", "4", "40000"],
        &[
            "--game",
            "freecell_0_freecells",
            "--freecells",
            "4",
            "ms617",
        ],
    ];
    for args in cases {
        let mut deal = vec!["deal"];
        deal.extend_from_slice(args);
        deal.extend(["--format", "json"]);
        let json = crate::common::ok(&deal);
        let v: Value = serde_json::from_str(&json).unwrap();
        let n = args[args.len() - 1];
        if n.starts_with("18446744073709551616") || n.starts_with("ms") {
            assert_eq!(v["deal"], Value::String(n.into()), "{args:?}");
        } else {
            assert!(v["deal"].is_u64(), "{args:?}: {}", v["deal"]);
        }
        let (code, _, err) = crate::common::run_in(&["solve", "--board", "-"], json.as_bytes());
        assert_eq!(code, 0, "{args:?}: {err}");
    }
    // Another game's id is named plainly (no debug text).
    let json = crate::common::ok(&["deal", "--game", "freecell", "617", "--format", "json"])
        .replace("\"pysol_id\":8", "\"pysol_id\":45");
    let (code, _, err) = crate::common::run_in(&["solve", "--board", "-"], json.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("`pysol_id` 45") && !err.contains("Some("),
        "{err}"
    );
}
