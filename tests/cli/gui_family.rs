//! End to end: `fcauto play --gui --game G --deal N` wins each game of the FreeCell family
//! that PySolFC draws with its own table (Baker's Game #ms617 on FreeCell's table, FreeCell
//! with 2 free cells #40000, a Mersenne Twister deal, Seahaven Towers #ms1 with 10 cascades
//! and 2 cards in its free cells, Eight Off #ms1 with 8 free cells under the cascades, 4 of
//! them filled) in real PySolFC under the binary's own Xvfb, and checks the evidence
//! bundle: the game's name and id in report.json and deal_seed.json, board.txt as
//! `fcauto deal --game G N` prints it, the screen read card for card (cascades and free
//! cells), the family solver's validated plan played to the end, the caption strip read by
//! plain OCR, and one more win of that game's id in statistics.dat (re-checked with
//! `fcauto stats --diff`). One deal per game keeps the GUI suite's time in bounds; the tests
//! are `#[ignore]`d (they start PySolFC) and `scripts/gui-e2e.sh` runs them.

use std::path::Path;

use assert_cmd::Command;
use fcauto_automation::gui::caption::cascade_label;
use fcauto_deals::{deal_game, Game, PysolNumber};
use serde_json::Value;

use super::gui_e2e::{json, out_dir, stderr, words, ONE_AT_A_TIME};

/// `fcauto play --gui --game G --deal N` with the run's own profile and results folders.
fn play_game(dir: &Path, game: &str, number: &str) -> std::process::Output {
    Command::cargo_bin("fcauto")
        .unwrap()
        .env_remove("DISPLAY")
        .args(["play", "--gui", "--json", "--game", game, "--deal", number])
        .arg("--results")
        .arg(dir.join("results"))
        .arg("--profile")
        .arg(dir.join("profile"))
        .timeout(std::time::Duration::from_secs(900))
        .output()
        .unwrap()
}

/// Win `game` number `number` (PySolFC shows it as `shown`) and check its bundle.
fn wins(name: &str, game: &str, number: &str, shown: &str) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = out_dir(name);
    let out = play_game(&dir, game, number);
    assert!(out.status.success(), "{}", stderr(&out));
    let g = Game::find(game).unwrap();
    let stdout: Value = serde_json::from_slice(&out.stdout).unwrap();
    let report = json(&dir, "report.json");
    assert_eq!(stdout, report);
    check_game_bundle(&dir, g, number, shown, &report);
    check_game_statistics(&dir, g, shown);
    check_game_ocr(&dir, g, number, shown);
}

/// report.json, deal_seed.json, board.txt, board_seen.json, board_match.json and
/// solution.json name the game and agree with PySolFC's deal of it.
fn check_game_bundle(dir: &Path, g: &'static Game, number: &str, shown: &str, report: &Value) {
    assert_eq!(report["game"]["pysol_id"], g.pysol_id);
    assert_eq!(report["game"]["name"], g.name);
    assert_eq!(report["game"]["pysol_name"], g.pysol_name);
    assert_eq!(report["pysolfc_game_number"], shown);
    assert_eq!(report["ms_deal_number"], Value::Null);
    assert_eq!(report["ocr_match_ratio"], 1.0);
    assert_eq!(report["delta_won_after_run"], 1);
    assert_eq!(report["plan_solver"], "fcauto_solver::family");
    assert_eq!(report["moves_executed"], report["moves_total"]);
    let seed = json(dir, "deal_seed.json");
    assert_eq!(seed["pysol_id"], g.pysol_id);
    assert_eq!(seed["pysolfc_game_number"], shown);

    let r = dir.join("results");
    let dealt = Command::cargo_bin("fcauto")
        .unwrap()
        .args(["deal", "--game", g.name, number])
        .output()
        .unwrap();
    assert!(dealt.status.success(), "{}", stderr(&dealt));
    let board = std::fs::read_to_string(r.join("board.txt")).unwrap();
    assert_eq!(board, String::from_utf8_lossy(&dealt.stdout));

    let deal = deal_game(g, PysolNumber::parse(number).unwrap());
    let seen = json(dir, "board_seen.json");
    let cascades: Vec<Vec<String>> = deal
        .cascades
        .iter()
        .map(|c| c.iter().map(ToString::to_string).collect())
        .collect();
    assert_eq!(seen["cascades"], serde_json::json!(cascades));
    let bm = json(dir, "board_match.json");
    assert_eq!(
        (bm["total"].as_u64(), bm["matched"].as_u64()),
        (Some(52), Some(52)),
        "{bm}"
    );
    let sol = json(dir, "solution.json");
    assert_eq!(sol["game"], g.name);
    assert_eq!(sol["moves_total"], report["moves_total"]);
    let pv = json(dir, "play_verify.json");
    assert_eq!(pv["foundation_match"], true);
}

/// One more win of the game's id in pysol_stats.json and in the copies of statistics.dat,
/// re-checked with `fcauto stats --diff --game-id ID`; the new game has PySolFC's number.
fn check_game_statistics(dir: &Path, g: &'static Game, shown: &str) {
    let st = json(dir, "pysol_stats.json");
    assert_eq!(st["game_id"], g.pysol_id);
    assert_eq!(
        st["game_won"].as_i64().unwrap(),
        st["game_won_before"].as_i64().unwrap() + 1
    );
    assert!(st.get("freecell_won").is_none(), "{st}");
    let diff = Command::cargo_bin("fcauto")
        .unwrap()
        .args(["stats", "--diff", "pysol_before", "pysol_after", "--json"])
        .args(["--player", st["player"].as_str().unwrap()])
        .args(["--game-id", &g.pysol_id.to_string()])
        .current_dir(dir.join("results"))
        .output()
        .unwrap();
    assert!(diff.status.success(), "{}", stderr(&diff));
    let d: Value = serde_json::from_slice(&diff.stdout).unwrap();
    let changes = d["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{d}");
    assert_eq!(changes[0]["game_id"], g.pysol_id);
    assert_eq!(changes[0]["won"]["delta"], 1);
    let new_games = d["new_past_games"].as_array().unwrap();
    assert_eq!(new_games.len(), 1, "{d}");
    // PySolFC records a Mersenne Twister number with its 20 digits
    let recorded = new_games[0]["game_number"].as_str().unwrap();
    assert_eq!(recorded.trim_start_matches('0'), shown, "{d}");
}

/// The evidence pictures as any reader reads them (`tesseract FILE -` on the whole
/// picture): the game's id and number, every cascade's line whole (`cascade one: 7D TD
/// ...`) and the free cells of the deal; at the win, the four kings.
fn check_game_ocr(dir: &Path, g: &'static Game, number: &str, shown: &str) {
    let ocr = |name: &str| {
        let o = std::process::Command::new("tesseract")
            .arg(dir.join("results").join(name))
            .arg("-")
            .output()
            .expect("tesseract (scripts/setup-deps.sh --gui installs it)");
        words(&String::from_utf8_lossy(&o.stdout))
    };
    let initial = ocr("view_pysol_initial.png");
    assert!(
        initial.contains(&format!("{shown} (game id {})", g.pysol_id)),
        "{initial}"
    );
    let deal = deal_game(g, PysolNumber::parse(number).unwrap());
    for (i, col) in deal.cascades.iter().enumerate() {
        let cards: Vec<String> = col.iter().map(ToString::to_string).collect();
        let line = format!("{}: {}", cascade_label(i), cards.join(" "));
        assert!(initial.contains(&line), "{line:?} not read in: {initial}");
    }
    let cells: Vec<String> = deal
        .freecells
        .iter()
        .map(|c| c.map_or("empty".into(), |c| c.to_string()))
        .collect();
    let line = format!("freecells: {}", cells.join(" "));
    assert!(initial.contains(&line), "{line:?} not read in: {initial}");
    let won = ocr("view_pysol_won.png");
    assert!(won.contains("foundations: KC KD KH KS"), "{won}");
}

#[test]
#[ignore = "starts PySolFC on a private Xvfb; scripts/gui-e2e.sh runs it"]
fn wins_bakers_game() {
    wins("bakers-ms617", "bakers_game", "617", "ms617");
}

#[test]
#[ignore = "starts PySolFC on a private Xvfb; scripts/gui-e2e.sh runs it"]
fn wins_freecell_with_2_free_cells_by_a_mersenne_twister_number() {
    wins("freecell2-40000", "1900", "40000", "40000");
}

#[test]
#[ignore = "starts PySolFC on a private Xvfb; scripts/gui-e2e.sh runs it"]
fn wins_seahaven_towers() {
    wins("seahaven-ms1", "seahaven_towers", "1", "ms1");
}

#[test]
#[ignore = "starts PySolFC on a private Xvfb; scripts/gui-e2e.sh runs it"]
fn wins_eight_off() {
    wins("eightoff-ms1", "eight_off", "1", "ms1");
}
