//! `fcauto bench` end to end: its summary lines and its JSON.

mod common;
use common::fcauto;

#[test]
fn one_deal_on_one_thread_is_singular() {
    let out = fcauto()
        .args(["bench", "--range", "5..5", "--threads", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(
        text.starts_with("fcauto bench, deals 5..5 (1 deal), mode fast, 1 thread\n"),
        "{text}"
    );
}

#[test]
fn threads_are_capped() {
    // More threads than deals: one per deal.
    let out = fcauto()
        .args(["bench", "--range", "1..3", "--threads", "1000"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("(3 deals), mode fast, 3 threads"), "{text}");
    // An absurd count is a usage error.
    let out = fcauto()
        .args(["bench", "--range", "1..3", "--threads", "100000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("too many (at most 1024)"), "{err}");
}

#[test]
fn a_fc_solve_preset_needs_vs_fc_solve() {
    let out = fcauto()
        .args(["bench", "--range", "1..2", "--fc-solve-preset", "ve"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--vs-fc-solve"), "{err}");
}

#[test]
fn a_bad_range_is_a_usage_error() {
    for (range, needle) in [
        ("5..x", "deal number `x` is not a whole number"),
        ("5-9", "range `5-9` is not A..B"),
        ("9..5", "range `9..5` is empty"),
        ("0..5", "out of range"),
        // Far more deals than one run can keep rows for: refused, not an allocation abort.
        (
            "1..8589934591",
            "has 8589934591 deals; a bench runs at most 10000000",
        ),
    ] {
        let out = fcauto().args(["bench", "--range", range]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{range}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.starts_with(&format!(
                "error: invalid value '{range}' for '--range <RANGE>': "
            )),
            "{range}: {err}"
        );
        assert!(err.contains(needle), "{range}: {err}");
    }
}

/// `fcauto bench ARGS --json FILE`: its exit code and the JSON.
fn bench_json(args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bench.json");
    let out = fcauto()
        .arg("bench")
        .args(args)
        .arg("--json")
        .arg(&p)
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), serde_json::from_str(&text).unwrap())
}

#[test]
fn unsolved_deals_have_null_lengths_in_the_json() {
    // 11982 is proved unsolvable (and known to be, so the run succeeds); 11981 and 11983 are
    // solved.
    let (code, v) = bench_json(&["--range", "11981..11983", "--threads", "1"]);
    assert_eq!(code, Some(0), "{v}");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let mut lengths = Vec::new();
    for r in rows {
        let solved = r["verdict"] == "solved";
        assert_eq!(solved, r["deal"] != 11982, "{r}");
        assert!(r["limit"].is_null(), "{r}");
        for key in ["moves_total", "single_card_moves"] {
            assert_eq!(r[key].is_u64(), solved, "{key}: {r}");
            assert_eq!(r[key].is_null(), !solved, "{key}: {r}");
        }
        if solved {
            lengths.push(r["moves_total"].as_u64().unwrap() as f64);
        }
    }
    // The summary counts the two solved deals only.
    let s = &v["summary"];
    assert_eq!(s["solved"], 2);
    assert_eq!(s["unsolvable"], serde_json::json!([11982]));
    let mean = (lengths[0] + lengths[1]) / 2.0;
    assert_eq!(s["moves_total"]["mean"].as_f64(), Some(mean), "{s}");
    assert_eq!(s["moves_total"]["median"].as_f64(), Some(mean), "{s}");
    assert_eq!(
        s["moves_total"]["max"].as_f64(),
        Some(lengths[0].max(lengths[1])),
        "{s}"
    );

    // Nothing solved (a limit of one position): no lengths anywhere.
    let (code, v) = bench_json(&["--range", "1..2", "--threads", "1", "--max-states", "1"]);
    assert_eq!(code, Some(1), "unknown deals fail the run: {v}");
    for r in v["rows"].as_array().unwrap() {
        assert_eq!(r["verdict"], "unknown", "{r}");
        assert_eq!(r["limit"], "state limit of 1 position reached", "{r}");
        assert!(
            r["moves_total"].is_null() && r["single_card_moves"].is_null(),
            "{r}"
        );
    }
    assert!(v["summary"]["moves_total"].is_null(), "{v}");
    assert!(v["summary"]["single_card_moves"].is_null(), "{v}");
}

/// `--vs-fc-solve` runs fc-solve on the same deals: its solutions pass our validator, both
/// of its CPU times are measured, and the ratios are ours over its.
#[test]
fn vs_fc_solve_measures_fc_solve_on_the_same_deals() {
    if !common::require("fc-solve") {
        return;
    }
    let (code, v) = bench_json(&["--range", "1..30", "--vs-fc-solve"]);
    assert_eq!(code, Some(0), "{v}");
    let s = &v["summary"];
    let fc = &s["fc_solve"];
    assert_eq!(fc["preset"], "lg", "{fc}");
    assert_eq!(fc["solved"], 30, "{fc}");
    assert_eq!(fc["invalid"], serde_json::json!([]), "{fc}");
    let (ours, theirs) = (s["cpu_s"].as_f64().unwrap(), fc["cpu_s"].as_f64().unwrap());
    assert!(
        theirs > 0.0 && fc["per_board_cpu_s"].as_f64().unwrap() > 0.0,
        "{fc}"
    );
    let ratio = s["cpu_ratio_vs_fc_solve"].as_f64().unwrap();
    assert!((ratio - ours / theirs).abs() < 1e-9, "{s}");
    let per_board = fc["per_board_cpu_s"].as_f64().unwrap();
    let ratio = s["cpu_ratio_vs_fc_solve_per_board"].as_f64().unwrap();
    assert!((ratio - ours / per_board).abs() < 1e-9, "{s}");
    // Positions checked by fc-solve over all 30 deals (its progress lines come after every
    // board), more than over the first 29.
    let iters = fc["iterations"].as_u64().unwrap();
    let (_, v29) = bench_json(&["--range", "1..29", "--vs-fc-solve"]);
    assert!(
        iters > v29["summary"]["fc_solve"]["iterations"].as_u64().unwrap(),
        "{fc}"
    );
    let moves = s["moves_ratio_vs_fc_solve"].as_f64().unwrap();
    let want =
        s["moves_total"]["mean"].as_f64().unwrap() / fc["moves_total"]["mean"].as_f64().unwrap();
    assert!((moves - want).abs() < 1e-9, "{s}");
}
