//! End to end: `fcauto play --gui --resume` finishes a held game of the FreeCell family
//! other than standard FreeCell in real PySolFC under the binary's own Xvfb: Baker's Game
//! #ms617 held after 20 moves, Seahaven Towers #40000 (a Mersenne Twister deal, 10
//! cascades) held after 15, Eight Off #ms617 (8 free cells) held after 12 and FreeCell with
//! 2 reserves #ms5 held after 10 (`tests/fixtures/savedgame-family/`, written by PySolFC 3.2's own
//! classes and `pysolDumpGame`, `make.py` there). The game is read from the file's id:
//! PySolFC resumes it on that game's table, the screen must show the held position card for
//! card, the family solver plans from it, and the win is proved by one more win of that
//! game's id in statistics.dat (re-checked with `fcauto stats --diff --game-id ID`). The
//! games are `#[ignore]`d (they start PySolFC); `scripts/gui-e2e.sh` runs them. The refusal
//! of a `--game` that is not the held game's needs no PySolFC.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

use super::gui_e2e::{json, out_dir, stderr, ONE_AT_A_TIME};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/savedgame-family")
        .join(name)
}

/// `fcauto play --gui --resume --held FILE` with the run's own profile and results folders.
fn resume_held(dir: &Path, file: &Path, extra: &[&str]) -> std::process::Output {
    Command::cargo_bin("fcauto")
        .unwrap()
        .env_remove("DISPLAY")
        .args(["play", "--gui", "--resume", "--json", "--held"])
        .arg(file)
        .args(extra)
        .arg("--results")
        .arg(dir.join("results"))
        .arg("--profile")
        .arg(dir.join("profile"))
        .timeout(std::time::Duration::from_secs(900))
        .output()
        .unwrap()
}

/// Resume the held `file` of game `id`, number `shown`, held after `before` moves; check
/// the bundle and the statistics delta of that game's id.
fn resumes(name: &str, file: &str, id: u32, shown: &str, before: usize) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = out_dir(name);
    let o = resume_held(&dir, &fixture(file), &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = json(&dir, "report.json");
    assert_eq!(serde_json::from_slice::<Value>(&o.stdout).unwrap(), report);
    assert_eq!(report["game"]["pysol_id"], id);
    assert_eq!(report["pysolfc_game_number"], shown);
    assert_eq!(report["delta_won_after_run"], 1);
    assert_eq!(report["plan_solver"], "fcauto_solver::family");
    assert_eq!(report["moves_executed"], report["moves_total"]);
    let resumed = &report["resumed"];
    assert_eq!(resumed["game"]["pysol_id"], id, "{resumed}");
    assert_eq!(
        resumed["moves_before_resume"].as_array().map(Vec::len),
        Some(before),
        "{resumed}"
    );
    // The screen showed the held position as fcauto's reader read it from the file.
    let held = json(&dir, "held_game/held.json");
    let seen = json(&dir, "board_seen.json");
    assert_eq!(seen["position"], held["position"], "{seen}");
    let bm = json(&dir, "board_match.json");
    assert_eq!(
        (bm["total"].as_u64(), bm["matched"].as_u64()),
        (Some(52), Some(52)),
        "{bm}"
    );
    let seed = json(&dir, "deal_seed.json");
    assert_eq!(
        (seed["pysol_id"].as_u64(), seed["resumed"].as_bool()),
        (Some(id as u64), Some(true))
    );
    let pv = json(&dir, "play_verify.json");
    assert_eq!(pv["foundation_match"], true);
    let st = json(&dir, "pysol_stats.json");
    assert_eq!(st["game_id"], id);
    let diff = Command::cargo_bin("fcauto")
        .unwrap()
        .args(["stats", "--diff", "pysol_before", "pysol_after", "--json"])
        .args(["--player", st["player"].as_str().unwrap()])
        .args(["--game-id", &id.to_string()])
        .current_dir(dir.join("results"))
        .output()
        .unwrap();
    assert!(diff.status.success(), "{}", stderr(&diff));
    let d: Value = serde_json::from_slice(&diff.stdout).unwrap();
    assert_eq!(d["changes"][0]["game_id"], id, "{d}");
    assert_eq!(d["changes"][0]["won"]["delta"], 1, "{d}");
    let recorded = d["new_past_games"][0]["game_number"].as_str().unwrap();
    assert_eq!(recorded.trim_start_matches('0'), shown, "{d}");
}

#[test]
#[ignore = "starts PySolFC on a private Xvfb; scripts/gui-e2e.sh runs it"]
fn resumes_a_held_bakers_game_and_wins_it() {
    resumes(
        "resume-bakers-ms617",
        "holdgame-bakers-617-20.dat",
        45,
        "ms617",
        20,
    );
}

#[test]
#[ignore = "starts PySolFC on a private Xvfb; scripts/gui-e2e.sh runs it"]
fn resumes_a_held_seahaven_towers_game_and_wins_it() {
    resumes(
        "resume-seahaven-40000",
        "holdgame-seahaven-40000-15.dat",
        9,
        "40000",
        15,
    );
}

#[test]
#[ignore = "starts PySolFC on a private Xvfb; scripts/gui-e2e.sh runs it"]
fn resumes_a_held_eight_off_game_and_wins_it() {
    resumes(
        "resume-eightoff-ms617",
        "holdgame-eightoff-617-12.dat",
        258,
        "ms617",
        12,
    );
}

#[test]
#[ignore = "starts PySolFC on a private Xvfb; scripts/gui-e2e.sh runs it"]
fn resumes_a_held_freecell_with_2_reserves_and_wins_it() {
    resumes(
        "resume-freecell2-ms5",
        "holdgame-fc2-ms5-10.dat",
        1900,
        "ms5",
        10,
    );
}

/// `--resume --game G` asserts the held game's game: another is refused before anything
/// starts, naming both.
#[test]
fn refuses_a_game_that_is_not_the_held_one() {
    let dir = out_dir("resume-family-refusals");
    let file = fixture("holdgame-bakers-617-20.dat");
    let o = resume_held(&dir, &file, &["--game", "seahaven_towers"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("--game seahaven_towers") && e.contains("bakers_game (PySolFC id 45)"),
        "{e}"
    );
    // a saved game of the family is no held game
    let o = resume_held(&dir, &fixture("saved-seahaven-40000-15.pso"), &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a held one"), "{}", stderr(&o));
}
