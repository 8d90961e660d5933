//! `fcauto play`'s solution.json and `fcauto solve --format json` come from one writer: for
//! the same plan the two texts are byte for byte the same (the GUI once kept its own copy of
//! the types and counted single-card moves its own way: 96 against 108 for deal 617).
//! No display needed; fc-solve is (scripts/setup-deps.sh).

use crate::common;
use common::fcauto;

use fcauto_automation::gui::{fcsolve, plan};
use fcauto_deals::ms_deal;

fn solve_json(deal: u64) -> String {
    let out = fcauto()
        .args(["solve", &deal.to_string(), "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn play_writes_the_same_solution_json_as_solve() {
    for deal in [617, 1941, 123456] {
        let board = ms_deal(deal).unwrap();
        let (moves, tool, failure) = fcsolve::plan(&board).unwrap();
        assert_eq!((tool, failure), (fcsolve::NATIVE_TOOL, None), "deal {deal}");
        let ours = plan::solution_json(Some(deal), &board, &moves).unwrap();
        assert_eq!(ours, solve_json(deal), "deal {deal}");
        let v: serde_json::Value = serde_json::from_str(&ours).unwrap();
        // a supermove of k cards counts 2k-1 or more single-card moves
        let supermoves = moves.iter().filter(|m| m.mv.count > 1).count();
        if supermoves > 0 {
            assert!(v["single_card_moves"].as_u64().unwrap() > v["moves_total"].as_u64().unwrap());
        }
    }
}

/// fc-solve's plan (played when our solver fails) written by the same writer passes
/// `fcauto verify`, which checks the JSON's own counts against its replay.
#[test]
fn an_fc_solve_plan_is_written_so_verify_accepts_its_counts() {
    let board = ms_deal(617).unwrap();
    let (_, moves) = fcsolve::solve(&board).unwrap();
    let text = plan::solution_json(Some(617), &board, &moves).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fc.json");
    std::fs::write(&path, &text).unwrap();
    let out = fcauto()
        .args(["verify", "--deal", "617"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // an edited count is caught
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let wrong = text.replace(
        &format!("\"single_card_moves\": {}", v["single_card_moves"]),
        &format!(
            "\"single_card_moves\": {}",
            v["single_card_moves"].as_u64().unwrap() + 1
        ),
    );
    assert_ne!(wrong, text);
    std::fs::write(&path, &wrong).unwrap();
    let out = fcauto()
        .args(["verify", "--deal", "617"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}
