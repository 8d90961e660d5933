//! End to end: `fcauto play --gui` wins real PySolFC under its own Xvfb + openbox, and the
//! evidence bundle agrees with itself; failure paths (PySolFC missing, wrong deal shown,
//! a move that did not take). Needs the packages of `scripts/setup-deps.sh --gui`.
//! Runs one PySolFC at a time (a lock), each on a display the binary starts itself.
#![cfg(feature = "gui")]

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::Mutex;

use assert_cmd::Command;
use fcauto_automation::gui::{csv, image};
use serde_json::Value;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn out_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("gui-e2e")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn play(dir: &Path, deal: u64, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::cargo_bin("fcauto").unwrap();
    cmd.env_remove("DISPLAY")
        .args(["play", "--gui", "--deal", &deal.to_string(), "--json"])
        .arg("--results")
        .arg(dir.join("results"))
        .arg("--profile")
        .arg(dir.join("profile"))
        .timeout(std::time::Duration::from_secs(900));
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn json(dir: &Path, name: &str) -> Value {
    let p = dir.join("results").join(name);
    serde_json::from_str(
        &std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
    )
    .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every artifact exists, and the figures in them agree with each other.
fn check_bundle(dir: &Path, deal: u64) -> Value {
    let r = dir.join("results");
    let report = json(dir, "report.json");
    assert_eq!(report["ms_deal_number"], deal);
    assert_eq!(json(dir, "deal_seed.json")["ms_deal_number"], deal);

    let board = std::fs::read_to_string(r.join("board.txt")).unwrap();
    let lines: Vec<&str> = board.lines().collect();
    assert_eq!(lines.len(), 8);
    let bv = json(dir, "board_verify.json");
    assert_eq!(bv["rows"], 8);
    assert_eq!(bv["tokens_total"], 52);
    assert_eq!(bv["is_full_deck"], true);
    let row_tokens: Vec<u64> = lines
        .iter()
        .map(|l| l.split_whitespace().count() as u64)
        .collect();
    assert_eq!(bv["row_tokens"], serde_json::json!(row_tokens));

    // what the screen showed is exactly board.txt
    let seen = json(dir, "board_seen.json");
    let seen_lines: Vec<String> = seen["cascades"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            c.as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(seen_lines, lines);
    assert_eq!(
        seen["ocr_confidence_per_card"].as_object().unwrap().len(),
        52
    );
    assert!(seen["ocr_confidence_per_card"]
        .as_object()
        .unwrap()
        .values()
        .all(|v| v.as_f64().unwrap() >= 0.9));
    let bm = json(dir, "board_match.json");
    assert_eq!(
        (bm["total"].as_u64(), bm["matched"].as_u64()),
        (Some(52), Some(52))
    );
    assert!(bm["mismatched"].as_array().unwrap().is_empty());
    assert_eq!(report["ocr_match_ratio"], 1.0);

    let sol = json(dir, "solution.json");
    let moves = sol["moves"].as_array().unwrap();
    assert_eq!(sol["moves_total"].as_u64().unwrap() as usize, moves.len());
    assert_eq!(report["moves_total"], sol["moves_total"]);
    let raw = std::fs::read_to_string(r.join("fcsolve_raw.log")).unwrap();
    assert!(raw.contains("This game is solveable."));

    // play log, verification, histogram agree on the executed moves
    let mut rdr = csv::Reader::from_path(r.join("play_log.csv")).unwrap();
    let headers: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        headers,
        [
            "step",
            "from",
            "to",
            "card",
            "pre_top",
            "post_top",
            "screenshot"
        ]
    );
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    let executed = report["moves_executed"].as_u64().unwrap() as usize;
    assert_eq!(rows.len(), executed);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[0].parse::<usize>().unwrap(), i + 1);
        if &row[2] == "h" || ["a", "b", "c", "d"].contains(&&row[2]) {
            assert_eq!(
                &row[5], &row[3],
                "a card moved home or to a freecell is the destination's top"
            );
        }
    }
    let pv = json(dir, "play_verify.json");
    assert_eq!(pv["steps_executed"].as_u64().unwrap() as usize, executed);
    assert_eq!(pv["foundation_match"], true);
    assert_eq!(pv["observed_foundations"], pv["expected_foundations"]);
    let hist = json(dir, "move_kind_histogram.json");
    assert_eq!(hist["total"].as_u64().unwrap() as usize, executed);
    let kinds = [
        "stack_to_foundation",
        "stack_to_freecell",
        "freecell_to_foundation",
        "stack_to_stack",
        "freecell_to_stack",
    ];
    assert_eq!(
        kinds.iter().map(|k| hist[k].as_u64().unwrap()).sum::<u64>() as usize,
        executed
    );
    // 52 cards reach the foundations, each by one move
    assert_eq!(
        hist["stack_to_foundation"].as_u64().unwrap()
            + hist["freecell_to_foundation"].as_u64().unwrap(),
        52
    );

    // screenshots: listed, present, real PNGs of the window
    let shots: Vec<String> = report["screenshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    for name in [
        "view_pysol_initial.png",
        "view_play_5.png",
        "view_play_10.png",
        "view_play_15.png",
        "view_play_20.png",
        "view_play_25.png",
        "view_pysol_won.png",
    ] {
        assert!(shots.iter().any(|s| s == name), "{name} not listed");
        let img = image::open(r.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            img.width() > 700 && img.height() > 500,
            "{name} is {}x{}",
            img.width(),
            img.height()
        );
    }
    for step in [5, 10, 15, 20, 25] {
        assert_eq!(&rows[step - 1][6], format!("view_play_{step}.png"));
    }

    // statistics: one more FreeCell win
    let st = json(dir, "pysol_stats.json");
    assert_eq!(st["delta_won_after_run"], 1);
    assert_eq!(
        st["freecell_won"].as_i64().unwrap(),
        st["freecell_won_before"].as_i64().unwrap() + 1
    );
    assert!(st["last_won_ts_iso"].as_str().unwrap().ends_with('Z'));
    assert_eq!(report["delta_won_after_run"], 1);
    let opts = json(dir, "pysol_options.json");
    assert_eq!(opts["last_gameid"], 8);
    assert_eq!(opts["fc_game_id_known"], true);
    assert_eq!(opts["last_game_number"], format!("ms{deal}"));

    let ch = json(dir, "channels.json");
    let switches = ch["switches"].as_array().unwrap();
    assert_eq!(
        ch["switch_count"].as_u64().unwrap() as usize,
        switches.len()
    );
    let used: Vec<&str> = report["channels_used"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    for c in [
        "solver",
        "fc-solve",
        "screenshot",
        "ocr",
        "mouse",
        "statistics",
    ] {
        assert!(used.contains(&c), "channel {c} missing");
    }
    let summary = std::fs::read_to_string(r.join("summary.md")).unwrap();
    assert!(summary.lines().count() >= 10);
    report
}

#[test]
fn plays_617_and_then_1941_to_a_win_with_consistent_evidence() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = out_dir("617");
    let o = play(&dir, 617, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let printed: Value = serde_json::from_slice(&o.stdout).unwrap();
    let report = check_bundle(&dir, 617);
    assert_eq!(printed, report);
    assert!(stderr(&o).contains("step 1/"), "a progress line per move");

    // 1941 needs all four freecells; same profile, so the win count goes on from 617's.
    let dir2 = out_dir("1941");
    std::fs::rename(dir.join("profile"), dir2.join("profile")).unwrap();
    let o = play(&dir2, 1941, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    check_bundle(&dir2, 1941);
    assert_eq!(json(&dir2, "pysol_stats.json")["freecell_won_before"], 1);
    assert_eq!(
        json(&dir2, "play_verify.json")["freecells_used_observed"],
        4
    );
}

#[test]
fn a_move_that_did_not_take_is_recovered() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = out_dir("misdrag");
    let o = play(&dir, 617, &[("FCAUTO_TEST_MISDRAG_STEP", "3")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("step 3") && stderr(&o).contains("did not take"));
    let pv = json(&dir, "play_verify.json");
    let rec = pv["recoveries"].as_array().unwrap();
    assert_eq!(rec.len(), 1);
    assert_eq!(rec[0]["step"], 3);
    assert_eq!(rec[0]["observed"], "did not take");
    assert_eq!(json(&dir, "pysol_stats.json")["delta_won_after_run"], 1);
}

#[test]
fn wrong_deal_on_screen_is_refused() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = out_dir("wrongdeal");
    let o = play(&dir, 617, &[("FCAUTO_TEST_PYSOL_DEAL", "618")]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("deal mismatch") && err.contains("refusing to play"),
        "{err}"
    );
    let bm = json(&dir, "board_match.json");
    assert!(bm["matched"].as_u64().unwrap() < 52);
    assert!(!bm["mismatched"].as_array().unwrap().is_empty());
    assert!(
        !dir.join("results/play_log.csv").exists(),
        "no move may be played"
    );
    assert!(!dir.join("profile/home/.pysolfc/statistics.dat").exists());
}

#[test]
fn missing_pysolfc_names_the_setup_script() {
    let dir = out_dir("missing");
    let o = play(&dir, 617, &[("FCAUTO_PYSOLFC", "/nonexistent/pysolfc")]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("PySolFC not found") && err.contains("scripts/setup-deps.sh --gui"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one clear line: {err}");
}
