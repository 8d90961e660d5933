//! End to end: `fcauto play --gui --resume` finishes a held FreeCell game in real PySolFC
//! under its own Xvfb + openbox. The held game is the fixture
//! `tests/fixtures/pysolfc/holdgame-617-winnable.dat` (MS deal 617 after 10 moves, made by
//! PySolFC with the mouse and held with Ctrl+X, `scripts/make-pysolfc-fixtures.sh winnable`),
//! put in a stand-in user profile (HOME), which the run must leave byte for byte unchanged.
//! Also the refusals that need no PySolFC: no held game, another game held, a saved game
//! instead of a held one, a held game that can no longer be won (the lost fixture).
//! Needs the packages of `scripts/setup-deps.sh --gui`. The game itself takes a minute and
//! is `#[ignore]`d; `scripts/gui-e2e.sh` runs it (`-- --include-ignored`).

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pysolfc")
}

fn out_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("gui-e2e")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A stand-in user HOME whose `.pysolfc` holds `holdgame` with `options` (fixture names).
fn user_home(dir: &Path, holdgame: &str, options: &str) -> PathBuf {
    let home = dir.join("user-home");
    let p = home.join(".pysolfc");
    std::fs::create_dir_all(&p).unwrap();
    std::fs::copy(fixtures().join(holdgame), p.join("holdgame.dat")).unwrap();
    std::fs::copy(fixtures().join(options), p.join("options.cfg")).unwrap();
    home
}

fn resume(dir: &Path, home: &Path, extra: &[&str]) -> Output {
    Command::cargo_bin("fcauto")
        .unwrap()
        .env_remove("DISPLAY")
        .env("HOME", home)
        .args(["play", "--gui", "--resume", "--json"])
        .args(extra)
        .arg("--results")
        .arg(dir.join("results"))
        .timeout(std::time::Duration::from_secs(900))
        .output()
        .unwrap()
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

/// Every file under `dir` with its length and a hash of its bytes.
fn snapshot(dir: &Path) -> Vec<(PathBuf, usize, u64)> {
    use std::hash::{Hash, Hasher};
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(snapshot(&p));
        } else {
            let bytes = std::fs::read(&p).unwrap();
            let mut h = std::collections::hash_map::DefaultHasher::new();
            bytes.hash(&mut h);
            out.push((p.clone(), bytes.len(), h.finish()));
        }
    }
    out.sort();
    out
}

#[test]
#[ignore = "starts PySolFC on a private Xvfb; scripts/gui-e2e.sh runs it"]
fn resumes_a_held_game_and_wins_it() {
    let dir = out_dir("resume-617");
    let home = user_home(
        &dir,
        "holdgame-617-winnable.dat",
        "holdgame-617-winnable.options.cfg",
    );
    // nothing in the user's HOME is written: not the PySolFC profile, nor (openbox's log)
    // ~/.cache
    let before = snapshot(&home);
    let o = resume(&dir, &home, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(snapshot(&home), before, "the user's HOME was changed");
    let printed: Value = serde_json::from_slice(&o.stdout).unwrap();
    let report = json(&dir, "report.json");
    assert_eq!(printed, report);
    assert_eq!(report["ms_deal_number"], 617);
    assert!(report["moves_executed"].as_u64().unwrap() > 0);
    assert_eq!(report["delta_won_after_run"], 1);
    assert_eq!(report["won_dialog"], "Game won");
    let resumed = &report["resumed"];
    assert!(
        resumed["held_game"]
            .as_str()
            .unwrap()
            .contains("user-home/.pysolfc"),
        "{resumed}"
    );
    // the window showed the held position: what PySolFC's own loader reads from the file
    // (holdgame-617-winnable.position.txt, checked against its dump when it was made)
    let want =
        std::fs::read_to_string(fixtures().join("holdgame-617-winnable.position.txt")).unwrap();
    let want = fcauto_deals::Board::parse(&want).unwrap();
    let seen = json(&dir, "board_seen.json");
    let seen = fcauto_deals::Board::parse(seen["position"].as_str().unwrap()).unwrap();
    assert_eq!(seen, want);
    let r = dir.join("results");
    // The report names the copy it made (formerly: a held game of another name was copied
    // under its own name while the report named holdgame.dat).
    assert_eq!(resumed["held_copy"], "held_game/holdgame.dat", "{resumed}");
    assert_eq!(
        std::fs::read(r.join("held_game/holdgame.dat")).unwrap(),
        std::fs::read(fixtures().join("holdgame-617-winnable.dat")).unwrap()
    );
    for f in [
        "solution.json",
        "fcsolve_raw.log",
        "play_log.csv",
        "play_verify.json",
        "summary.md",
        "view_pysol_initial.png",
        "view_pysol_won.png",
        "pysol_after/statistics.dat",
        "deal_seed.json",
        "board.txt",
    ] {
        assert!(r.join(f).is_file(), "{f} missing");
    }
    let pv = json(&dir, "play_verify.json");
    assert_eq!(pv["foundation_match"], true);
    let st = json(&dir, "pysol_stats.json");
    assert_eq!(st["delta_won_after_run"], 1);
    let diff = Command::cargo_bin("fcauto")
        .unwrap()
        .args(["stats", "--diff", "pysol_before", "pysol_after", "--json"])
        .args(["--player", st["player"].as_str().unwrap(), "--game-id", "8"])
        .current_dir(&r)
        .output()
        .unwrap();
    assert!(diff.status.success(), "{}", stderr(&diff));
    let d: Value = serde_json::from_slice(&diff.stdout).unwrap();
    assert_eq!(d["changes"][0]["won"]["delta"], 1, "{d}");
    assert_eq!(d["new_past_games"][0]["game_number"], "ms617", "{d}");
    let summary = std::fs::read_to_string(r.join("summary.md")).unwrap();
    assert!(summary.contains("Resumed the held game"), "{summary}");
}

#[test]
fn refuses_when_nothing_freecell_is_held() {
    let dir = out_dir("resume-refusals");
    // no profile at all
    let empty = dir.join("empty-home");
    std::fs::create_dir_all(&empty).unwrap();
    let o = resume(&dir, &empty, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("no PySolFC profile"), "{}", stderr(&o));
    // a held game, but options.cfg says none is held (PySolFC would not resume it)
    let home = user_home(&dir, "holdgame-617-lost.dat", "seed-options.cfg");
    let o = resume(&dir, &home, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("game_holded = 0"), "{}", stderr(&o));
    // another game held (Klondike, id 2)
    let opts = home.join(".pysolfc/options.cfg");
    let text = std::fs::read_to_string(&opts).unwrap();
    std::fs::write(&opts, text.replace("game_holded = 0", "game_holded = 2")).unwrap();
    let o = resume(&dir, &home, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("game id 2, not FreeCell"),
        "{}",
        stderr(&o)
    );
    // --held: a held game that can no longer be won (refused by the solve stage, before
    // PySolFC starts), a saved game rather than a held one, another game
    let fx = |n: &str| fixtures().join(n).display().to_string();
    for (file, why) in [
        ("holdgame-617-lost.dat", "no way found to win the held game"),
        ("saved-617-lost.pso", "not a held one"),
        ("saved-klondike.pso", "is not FreeCell"),
    ] {
        let o = resume(&dir, &home, &["--held", &fx(file)]);
        assert_eq!(o.status.code(), Some(1), "{file}: {}", stderr(&o));
        assert!(stderr(&o).contains(why), "{file}: {}", stderr(&o));
        assert!(
            !stderr(&o).contains("display"),
            "{file}: no display started"
        );
    }
    // --held names a missing file; --held without --resume is a usage error
    let o = resume(&dir, &home, &["--held", "/nonexistent/holdgame.dat"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("/nonexistent/holdgame.dat"));
    let o = Command::cargo_bin("fcauto")
        .unwrap()
        .args(["play", "--gui", "--held", "x.dat"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = Command::cargo_bin("fcauto")
        .unwrap()
        .args(["play", "--gui", "--resume", "--deal", "5"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // nothing was started: no evidence beyond the folder
    assert!(!dir.join("results/report.json").exists());
}

/// What is refused before anything starts leaves the results folder as it was: an earlier
/// run's bundle (a file that is no held game, a game whose table `play` does not read), and
/// a file of the user's named like a screenshot is never taken for the bundle's.
#[test]
fn a_refused_run_leaves_an_earlier_bundle_alone() {
    let dir = out_dir("refused-keeps-bundle");
    let results = dir.join("results");
    std::fs::create_dir_all(&results).unwrap();
    // An earlier run's bundle (the folder's mark says nothing was there before it), and a
    // picture the user put there afterwards.
    std::fs::write(results.join(".fcauto-play"), r#"{"kept": []}"#).unwrap();
    std::fs::write(results.join("report.json"), "{}").unwrap();
    std::fs::write(results.join("view_annotated.png"), "mine").unwrap();
    let before = snapshot(&results);
    let home = user_home(&dir, "holdgame-617-lost.dat", "seed-options.cfg");
    let held = fixtures().join("saved-617-lost.pso");
    let o = resume(&dir, &home, &["--held", held.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a held one"), "{}", stderr(&o));
    assert_eq!(snapshot(&results), before);
    let o = Command::cargo_bin("fcauto")
        .unwrap()
        .env_remove("DISPLAY")
        .args([
            "play",
            "--gui",
            "--game",
            "citadel",
            "--deal",
            "2",
            "--results",
        ])
        .arg(&results)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("does not read Citadel's table"),
        "{}",
        stderr(&o)
    );
    assert_eq!(snapshot(&results), before);
}
