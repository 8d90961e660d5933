//! `fcauto stats` end to end, on real PySolFC 3.2.0 files.

use assert_cmd::Command;
use predicates::prelude::*;

const F: &str = "tests/fixtures/pysolfc";

fn fcauto() -> Command {
    Command::cargo_bin("fcauto").unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = fcauto()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}

fn freecell<'a>(v: &'a serde_json::Value, player: &str) -> &'a serde_json::Value {
    let p = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["player"] == player)
        .unwrap();
    p["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game_id"] == 8)
        .unwrap()
}

#[test]
fn json_of_the_win_shows_freecell_won() {
    let v = json(&[
        "stats",
        &format!("{F}/shared-ms617/statistics.dat"),
        "--json",
        "--game-id",
        "8",
    ]);
    assert_eq!(v["layout"], "pysolfc-3");
    let g = freecell(&v, "tester");
    assert!(g["won"].as_i64().unwrap() >= 1);
    assert_eq!(g["won_perfect"], 1);
    assert_eq!(g["lost"], 1);
    assert_eq!(g["moves"]["best"], 155.0);
    let past = v["players"][0]["past_games"].as_array().unwrap();
    assert_eq!(past.last().unwrap()["result"], "perfect");
    assert_eq!(past.last().unwrap()["game_number"], "ms617");
}

#[test]
fn diff_before_after_win_is_plus_one() {
    let v = json(&[
        "stats",
        "--diff",
        &format!("{F}/shared-ms617/statistics-lost-only.dat"),
        &format!("{F}/shared-ms617/statistics.dat"),
        "--json",
    ]);
    let c = &v["changes"][0];
    assert_eq!(
        (c["player"].as_str(), c["game_id"].as_i64()),
        (Some("tester"), Some(8))
    );
    assert_eq!(c["won"]["delta"], 1);
    assert_eq!(c["won"]["before"], 0);
    assert_eq!(c["played"]["delta"], 1);
    assert_eq!(c["lost"]["delta"], 0);
    assert_eq!(v["new_past_games"].as_array().unwrap().len(), 1);
    fcauto()
        .args(["stats", "--diff"])
        .arg(format!("{F}/shared-ms617/statistics-lost-only.dat"))
        .arg(format!("{F}/shared-ms617/statistics.dat"))
        .assert()
        .success()
        .stdout(predicate::str::contains("won 0 -> 1 (+1)"));
}

/// `fcauto play` copies a fresh profile's files to pysol_before/: options.cfg, but no
/// statistics.dat yet (PySolFC writes it on its first clean quit). `--diff` reads that folder
/// as no games recorded; a folder that is not a profile stays an error.
#[test]
fn diff_from_a_profile_without_statistics_counts_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let before = dir.path().join("pysol_before");
    std::fs::create_dir(&before).unwrap();
    let after = format!("{F}/won");
    let err = fcauto()
        .args(["stats", "--diff"])
        .arg(&before)
        .arg(&after)
        .assert()
        .code(1)
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8_lossy(&err).contains("is a directory"));
    std::fs::copy(format!("{F}/won/options.cfg"), before.join("options.cfg")).unwrap();
    let b = before.to_str().unwrap();
    let d = json(&[
        "stats",
        "--diff",
        b,
        &after,
        "--json",
        "--player",
        "fixture",
        "--game-id",
        "8",
    ]);
    let whole = json(&[
        "stats",
        &after,
        "--json",
        "--player",
        "fixture",
        "--game-id",
        "8",
    ]);
    let g = freecell(&whole, "fixture");
    let c = &d["changes"][0];
    assert_eq!(d["changes"].as_array().unwrap().len(), 1);
    assert_eq!(
        (c["won"]["before"].as_i64(), c["played"]["before"].as_i64()),
        (Some(0), Some(0))
    );
    assert_eq!(c["won"]["after"], g["won"]);
    assert_eq!(c["played"]["after"], g["played"]);
    assert_eq!(
        d["new_past_games"].as_array().unwrap().len(),
        whole["players"][0]["past_games"].as_array().unwrap().len()
    );
    assert_eq!(d["before"], b);
    // Plain `stats` of that new profile: no games recorded, not an error.
    let out = fcauto().args(["stats"]).arg(&before).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("no statistics.dat yet") && text.contains("no games recorded"),
        "{text}"
    );
}

#[test]
fn abandoned_game_counts_as_a_loss() {
    let v = json(&[
        "stats",
        "--diff",
        &format!("{F}/fresh"),
        &format!("{F}/abandoned"),
        "--json",
    ]);
    let c = &v["changes"][0];
    assert_eq!(
        (c["won"]["delta"].as_i64(), c["lost"]["delta"].as_i64()),
        (Some(0), Some(1))
    );
    fcauto()
        .args(["stats", &format!("{F}/fresh/statistics.dat")])
        .assert()
        .success()
        .stdout(predicate::str::contains("no games recorded"));
}

#[test]
fn own_won_fixture_adds_one_win() {
    // produced by make-fixtures.sh (third session of the same profile as abandoned/)
    let won = format!("{F}/won/statistics.dat");
    let v = json(&["stats", &won, "--json"]);
    assert!(freecell(&v, "fixture")["won"].as_i64().unwrap() >= 1);
    let d = json(&["stats", "--diff", &format!("{F}/abandoned"), &won, "--json"]);
    assert_eq!(d["changes"][0]["won"]["delta"], 1);
    // The text says its dates are UTC, whatever the time zone.
    fcauto()
        .env("TZ", "America/New_York")
        .args(["stats", &won])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "2026-11-29 22:28:00 UTC  game 8  ms617",
        ));
}

#[test]
fn options_summary_of_a_real_profile() {
    let v = json(&["stats", "--options", &format!("{F}/abandoned"), "--json"]);
    assert_eq!(v["player"], "fixture");
    assert_eq!(v["last_gameid"], 8);
    assert_eq!(v["cardset"], "Standard");
    assert_eq!(v["mouse_type"], "point-n-click");
    assert_eq!(v["last_game_number"], "ms617");
    // The text says where that number comes from: options.cfg does not hold it.
    let text = crate::common::ok(&["stats", "--options", &format!("{F}/abandoned")]);
    assert!(
        text.contains("last_game_number: \"ms617\" (from statistics.dat's newest game)"),
        "{text}"
    );
    let problems: Vec<&str> = v["replay_problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(problems, ["cardsets.resampling: have 1, want 0"]);
    // An options file of another name is read as itself (the hint for a config file given
    // as statistics names `--options FILE`), not looked for as options.cfg beside it.
    let dir = tempfile::tempdir().unwrap();
    let mine = dir.path().join("my.cfg");
    std::fs::copy(format!("{F}/abandoned/options.cfg"), &mine).unwrap();
    let m = json(&["stats", "--options", mine.to_str().unwrap(), "--json"]);
    assert_eq!(m["player"], "fixture");
    assert_eq!(m["path"], mine.to_str().unwrap());
    // A byte-order mark before it is read past (formerly: "line 1: expected key = value").
    let bom = dir.path().join("bom.cfg");
    let real = std::fs::read(&mine).unwrap();
    std::fs::write(&bom, [&b"\xef\xbb\xbf"[..], &real].concat()).unwrap();
    let b = json(&["stats", "--options", bom.to_str().unwrap(), "--json"]);
    assert_eq!(b["player"], "fixture");
    // An options file that is not UTF-8 is named by what it is (formerly: "not UTF-8
    // text" alone), even beside an options.cfg that is.
    let real = std::fs::read_to_string(&mine).unwrap();
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(real.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let latin1 = real.replace("player = fixture", "player = Ren\u{e9}");
    let latin1: Vec<u8> = latin1.chars().map(|c| c as u32 as u8).collect();
    let beside = tempfile::tempdir().unwrap();
    std::fs::copy(&mine, beside.path().join("options.cfg")).unwrap();
    for (name, bytes, why) in [
        (
            "utf16.cfg",
            utf16,
            "not UTF-8 text (it looks like UTF-16; save it as UTF-8)",
        ),
        (
            "latin1.cfg",
            latin1,
            "(it looks like Latin-1 or Windows-1252 text: byte 0xE9",
        ),
        // An empty file is no options.cfg (formerly: every setting null, exit 0); a bad
        // line is named after the file, as every error.
        (
            "empty.cfg",
            Vec::new(),
            "empty.cfg: no [general] section: not PySolFC's options.cfg",
        ),
        (
            "bad.cfg",
            b"[general]\nfoo\n".to_vec(),
            "bad.cfg: line 2: expected",
        ),
        // A file of another name that is no statistics.dat is read as the options
        // file given and named for what it is (was: "no options.cfg beside x.txt"); a large
        // one that is no text is named for what it is, one that is text by its true size.
        (
            "x.txt",
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(),
            "x.txt: not UTF-8 text (it is a PNG picture, not text)",
        ),
        (
            "notes.txt",
            b"a shopping list\n".to_vec(),
            "notes.txt: line 1: expected",
        ),
        (
            "big.cfg",
            [&b"\x89PNG\r\n\x1a\n"[..], &vec![7u8; 3 << 20]].concat(),
            "big.cfg: not UTF-8 text (it is a PNG picture, not text)",
        ),
        (
            "long.cfg",
            [&b"[general]\n"[..], &vec![b'#'; 3 << 20]].concat(),
            "long.cfg: 3145738 bytes is too large for options.cfg",
        ),
        (
            "quotes.cfg",
            b"[general]\nplayer = \x93me\x94\n".to_vec(),
            "(it looks like Windows-1252 text (a curly quote, dash or euro sign): byte 0x93",
        ),
    ] {
        let p = beside.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        fcauto()
            .args(["stats", "--options"])
            .arg(&p)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(why));
    }
    // A statistics.dat with no options.cfg beside it says so, naming what it was given.
    let lone = dir.path().join("statistics.dat");
    std::fs::copy(format!("{F}/abandoned/statistics.dat"), &lone).unwrap();
    let out = fcauto()
        .args(["stats", "--options"])
        .arg(&lone)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("no options.cfg beside {}", lone.display())),
        "{err}"
    );
    // A path that does not exist is named so, and a FIFO is refused, never waited on
    // (formerly: "no options.cfg beside", and a hang).
    let fifo = dir.path().join("fifo.cfg");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    for (p, why) in [
        (dir.path().join("nowhere.cfg"), "nowhere.cfg does not exist"),
        (fifo, "fifo.cfg is not a file or a folder"),
    ] {
        fcauto()
            .args(["stats", "--options"])
            .arg(&p)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(1)
            .stderr(predicate::str::contains(why));
    }
    // Nor as statistics (formerly: `stats FIFO` hung).
    fcauto()
        .arg("stats")
        .arg(dir.path().join("fifo.cfg"))
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is not a file (a FIFO"));
    // options.cfg is per profile: a player or game filter does not apply (usage error).
    for (flag, value) in [("--player", "fixture"), ("--game-id", "8")] {
        fcauto()
            .args(["stats", "--options", &format!("{F}/abandoned"), flag, value])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("cannot be used with"));
    }
}

#[test]
fn bad_inputs_fail_with_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.dat");
    std::fs::write(&empty, b"").unwrap();
    let cut = dir.path().join("cut.dat");
    let real = std::fs::read(format!("{F}/shared-ms617/statistics.dat")).unwrap();
    std::fs::write(&cut, &real[..real.len() / 2]).unwrap();
    let evil = dir.path().join("evil.dat");
    std::fs::write(&evil, b"cposix\nsystem\n(S'touch /tmp/pwned'\ntR.").unwrap();
    // A game's counter missing (its key renamed in the pickle): an error naming it, never a
    // made-up 0 (formerly: "played 0, won 1").
    let renamed = dir.path().join("renamed.dat");
    let real_won = std::fs::read(format!("{F}/won/statistics.dat")).unwrap();
    let at = real_won
        .windows(9)
        .position(|w| w == b"num_total")
        .expect("the key");
    let mut bytes = real_won.clone();
    bytes[at + 8] = b'X';
    std::fs::write(&renamed, &bytes).unwrap();
    // The same for a result's figure (the first `average`, time_result's): never a made-up
    // 0 either.
    let no_average = dir.path().join("no-average.dat");
    let at = real_won
        .windows(7)
        .position(|w| w == b"average")
        .expect("the key");
    let mut bytes = real_won.clone();
    bytes[at + 6] = b'X';
    std::fs::write(&no_average, &bytes).unwrap();
    // The file's own counters and sections: `saved` (formerly: "saved 0 times"),
    // `prev_games` and a player's `all` totals (formerly: dropped without a word).
    let mut damaged = Vec::new();
    for (key, at_len, needle) in [
        (&b"saved"[..], 5, "the Statistics object has no saved"),
        (b"prev_games", 10, "the Statistics object has no prev_games"),
        (b"\x8c\x03all", 5, "has games but no 'all' totals"),
    ] {
        let at = real_won
            .windows(key.len())
            .position(|w| w == key)
            .expect("the key");
        let mut bytes = real_won.clone();
        bytes[at + at_len - 1] ^= 1;
        let p = dir.path().join(format!("damaged-{}.dat", damaged.len()));
        std::fs::write(&p, &bytes).unwrap();
        damaged.push((p, needle));
    }
    let cases = [
        (renamed, "has no num_total"),
        (no_average, ".time_result has no average"),
        (empty, "empty file"),
        (cut, "truncated"),
        (
            evil,
            "posix.system is not one of the PySolFC classes allowed here",
        ),
        (dir.path().to_path_buf(), "is a directory"),
        (dir.path().join("missing.dat"), "no such file"),
    ];
    for (path, msg) in cases.into_iter().chain(damaged) {
        let out = fcauto()
            .arg("stats")
            .arg(&path)
            .assert()
            .code(1)
            .get_output()
            .clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(msg), "{}: {err}", path.display());
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn default_path_uses_the_profile_under_home() {
    let home = tempfile::tempdir().unwrap();
    fcauto()
        .env("HOME", home.path())
        .arg("stats")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no PySolFC profile folder"));
    let legacy = home.path().join(".PySolFC");
    std::fs::create_dir(&legacy).unwrap();
    std::fs::copy(
        format!("{F}/abandoned/statistics.dat"),
        legacy.join("statistics.dat"),
    )
    .unwrap();
    let reads_legacy = || {
        fcauto()
            .env("HOME", home.path())
            .args(["stats", "--json"])
            .assert()
            .success()
            .stdout(predicate::str::contains(".PySolFC/statistics.dat"));
    };
    reads_legacy();
    let modern = home.path().join(".pysolfc");
    std::fs::create_dir(&modern).unwrap();
    // An empty .pysolfc (PySolFC never quit cleanly) does not hide .PySolFC's file.
    reads_legacy();
    std::fs::copy(
        format!("{F}/fresh/statistics.dat"),
        modern.join("statistics.dat"),
    )
    .unwrap();
    fcauto()
        .env("HOME", home.path())
        .arg("stats")
        .assert()
        .success()
        .stdout(predicate::str::contains(".pysolfc/statistics.dat"));
}

#[test]
fn game_id_0_shows_the_all_games_totals() {
    let f = format!("{F}/shared-ms617/statistics.dat");
    let v = json(&["stats", &f, "--json", "--game-id", "0"]);
    let p = &v["players"][0];
    assert_eq!(p["player"], "tester");
    assert!(p["games"].as_array().unwrap().is_empty());
    assert!(p["all_games"]["won"].as_i64().unwrap() >= 1, "{p}");
    assert!(p["all_games"]["game_id"].is_null(), "no game has id 0: {p}");
    let text = fcauto()
        .args(["stats", &f, "--game-id", "0"])
        .assert()
        .success();
    let out = String::from_utf8(text.get_output().stdout.clone()).unwrap();
    assert!(out.contains("all games: played"), "{out}");
    // So does `--diff --game-id 0`: the totals' change (formerly: left out, "no changes").
    let (before, after) = (format!("{F}/abandoned"), format!("{F}/won"));
    let diff = |extra: &[&str]| {
        let mut args = vec!["stats", "--diff", before.as_str(), after.as_str()];
        args.extend_from_slice(extra);
        let out = fcauto().args(&args).assert().success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let totals = diff(&["--game-id", "0"]);
    assert!(
        totals.contains("player fixture, all games: played 1 -> 2 (+1), won 0 -> 1 (+1)"),
        "{totals}"
    );
    let v = json(&[
        "stats",
        "--diff",
        &before,
        &after,
        "--game-id",
        "0",
        "--json",
    ]);
    assert!(v["changes"][0]["game_id"].is_null(), "{v}");
    // Without it, the games' changes alone, as before (the totals would repeat them).
    assert!(!diff(&[]).contains("all games"));
}

#[test]
fn an_unknown_player_is_an_error_not_an_empty_result() {
    let f = format!("{F}/shared-ms617/statistics.dat");
    fcauto()
        .args(["stats", &f, "--player", "nobody"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "no player \"nobody\" (players: tester)",
        ));
    fcauto()
        .args(["stats", "--diff", &f, &f, "--player", "nobody"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no player \"nobody\""));
    fcauto()
        .args(["stats", "--diff", &f, &f, "--player", "tester"])
        .assert()
        .success()
        .stdout(predicate::str::contains("no changes"));
}

/// A real PySolFC 2.0 statistics.dat (Python 2, protocol 2, old-style instances written
/// with OBJ): the figures PySolFC 3.2's own loader shows for it.
#[test]
fn pysolfc_2_0_file_reports_pysolfc_3_2s_figures() {
    let v = json(&[
        "stats",
        &format!("{F}/pysolfc-2.0-statistics.dat"),
        "--json",
    ]);
    assert_eq!(v["layout"], "pysolfc-2");
    assert_eq!(v["trailing_bytes"], 0);
    let p = &v["players"][0];
    assert_eq!(p["player"], "anon");
    let counts = |g: &serde_json::Value| {
        (
            g["played"].as_i64().unwrap(),
            g["won_not_perfect"].as_i64().unwrap(),
            g["won_perfect"].as_i64().unwrap(),
            g["lost"].as_i64().unwrap(),
        )
    };
    let games = p["games"].as_array().unwrap();
    let game = |id: i64| games.iter().find(|g| g["game_id"] == id).unwrap();
    assert_eq!(counts(game(11003)), (28, 8, 3, 17));
    assert_eq!(counts(game(29)), (2, 0, 0, 2));
    assert_eq!(counts(game(55)), (2, 0, 0, 2));
    assert_eq!(counts(&p["all_games"]), (32, 8, 3, 21));
    fcauto()
        .args(["stats", &format!("{F}/pysolfc-2.0-statistics.dat")])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "game 11003: played 28, won 11 (perfect 3, other 8), lost 17",
        ))
        .stdout(predicate::str::contains(
            "all games: played 32, won 11 (perfect 3, other 8), lost 21",
        ));
}

#[test]
fn trailing_bytes_are_read_past_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("statistics.dat");
    let mut data = std::fs::read(format!("{F}/shared-ms617/statistics.dat")).unwrap();
    data.extend_from_slice(b"\n\x00garbage");
    std::fs::write(&file, &data).unwrap();
    let out = fcauto()
        .args(["stats", "--json"])
        .arg(&file)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "9 trailing bytes after the pickle's end ignored",
        ))
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["trailing_bytes"], 9);
    assert_eq!(freecell(&v, "tester")["won"], 1);
    // --diff's JSON says it of each file too (formerly: only on stderr).
    let d = json(&[
        "stats",
        "--diff",
        file.to_str().unwrap(),
        &format!("{F}/shared-ms617/statistics.dat"),
        "--json",
    ]);
    assert_eq!(
        (
            d["before_trailing_bytes"].as_u64(),
            d["after_trailing_bytes"].as_u64()
        ),
        (Some(9), Some(0))
    );
    // the file is left as it was
    assert_eq!(std::fs::read(&file).unwrap(), data);
    // a clean file gives no warning
    fcauto()
        .args(["stats", &format!("{F}/shared-ms617/statistics.dat")])
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
}

#[test]
fn diff_with_counts_going_down_says_reset_or_other_profile() {
    // AFTER is the older file: played and won go down.
    let args = [
        "stats".to_string(),
        "--diff".to_string(),
        format!("{F}/shared-ms617/statistics.dat"),
        format!("{F}/shared-ms617/statistics-lost-only.dat"),
    ];
    fcauto()
        .args(&args)
        .assert()
        .success()
        .stderr(predicate::str::contains("counts went down"))
        .stderr(predicate::str::contains(
            "look like a statistics reset or two different profiles",
        ));
    let mut with_json = args.to_vec();
    with_json.push("--json".into());
    let out = fcauto()
        .args(&with_json)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert!(v["warning"].as_str().unwrap().contains("counts went down"));
    let d = v["decreases"].as_array().unwrap();
    assert!(d.iter().any(|x| x["counter"] == "played"
        && x["game_id"] == 8
        && x["before"] == 2
        && x["after"] == 1));
    // the all-games totals went down too: game_id null, as in `all_games`, never 0
    assert!(d
        .iter()
        .any(|x| x["counter"] == "played" && x["game_id"].is_null()));
    assert!(d.iter().all(|x| x["game_id"] != 0), "{d:?}");
    assert_eq!(v["lost_past_games"][0], "tester");
    // two unrelated profiles: the 2.0 file's player vs tester's
    fcauto()
        .args(["stats", "--diff"])
        .arg(format!("{F}/pysolfc-2.0-statistics.dat"))
        .arg(format!("{F}/shared-ms617/statistics.dat"))
        .assert()
        .success()
        .stderr(predicate::str::contains("two different profiles"));
    // the usual before/after pair has no warning
    let out = json(&[
        "stats",
        "--diff",
        &format!("{F}/shared-ms617/statistics-lost-only.dat"),
        &format!("{F}/shared-ms617/statistics.dat"),
        "--json",
    ]);
    assert!(out["warning"].is_null());
    assert_eq!(out["decreases"].as_array().unwrap().len(), 0);
}

#[test]
fn a_game_id_the_file_lacks_is_an_error_naming_the_ids_it_has() {
    fcauto()
        .args(["stats", &format!("{F}/pysolfc-2.0-statistics.dat")])
        .args(["--game-id", "8"])
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(
            "no games of id 8 (game ids recorded: 29, 55, 11003)",
        ));
    fcauto()
        .args(["stats", &format!("{F}/fresh/statistics.dat"), "--json"])
        .args(["--game-id", "8"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "no games of id 8 (no games recorded)",
        ));
    // In --diff only AFTER must have it: BEFORE may predate the first game of it.
    let f = format!("{F}/shared-ms617/statistics.dat");
    fcauto()
        .args(["stats", "--diff", &format!("{F}/fresh/statistics.dat"), &f])
        .args(["--game-id", "8"])
        .assert()
        .success()
        .stdout(predicate::str::contains("played 0 -> 2 (+2)"));
    fcauto()
        .args(["stats", "--diff", &f, &f, "--game-id", "9"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no games of id 9"));
}

/// options.cfg given where statistics.dat is read: the decoder's error, and a hint that the
/// file is a config file which `--options` shows (for `--diff` too); a binary file that is
/// not a pickle gets no such hint.
#[test]
fn a_config_file_read_as_statistics_suggests_options() {
    let cfg = format!("{F}/won/options.cfg");
    let out = fcauto().args(["stats", &cfg]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a pickle opcode"), "{err}");
    assert!(
        err.contains(&format!("`fcauto stats --options {cfg}` shows it")),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let out = fcauto()
        .args(["stats", "--diff", &cfg, &format!("{F}/won")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--options"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("statistics.dat");
    std::fs::write(&bin, [0xffu8, 0, 1, 2]).unwrap();
    let out = fcauto().arg("stats").arg(&bin).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("--options"), "{err}");
}

/// A summary key whose value is set but not of its type reads `null` like an unset one: the
/// summary lists it in `unreadable` with its value, and the replay problems still name it.
#[test]
fn a_setting_of_the_wrong_type_is_named_not_shown_as_unset() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(format!("{F}/abandoned/options.cfg")).unwrap();
    assert!(text.lines().any(|l| l.starts_with("animations = ")));
    let text: String = text
        .lines()
        .map(|l| match l {
            l if l.starts_with("animations = ") => "animations = banana".to_string(),
            l if l.starts_with("sound = ") => "sound = maybe".to_string(),
            l if l.starts_with("win_animation = ") => "win_animation = nah".to_string(),
            l => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(dir.path().join("options.cfg"), &text).unwrap();
    let v = json(&["stats", "--options", dir.path().to_str().unwrap(), "--json"]);
    assert_eq!(v["animations"], serde_json::Value::Null);
    let unreadable: Vec<&str> = v["unreadable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    // In file order, every setting of a known type (the summary's, and the replay
    // settings' booleans and whole numbers).
    let mut want = vec![
        (
            text_pos(&text, "animations = "),
            "general.animations = banana: not a whole number",
        ),
        (
            text_pos(&text, "sound = "),
            "general.sound = maybe: not true or false",
        ),
        (
            text_pos(&text, "win_animation = "),
            "general.win_animation = nah: not true or false",
        ),
    ];
    want.sort();
    let want: Vec<&str> = want.into_iter().map(|(_, w)| w).collect();
    assert_eq!(unreadable, want);
    // The real profile's summary has none.
    let v = json(&["stats", "--options", &format!("{F}/abandoned"), "--json"]);
    assert_eq!(v["unreadable"], serde_json::json!([]));
}

/// Where the line starting with `start` is in `text`.
fn text_pos(text: &str, start: &str) -> usize {
    text.lines()
        .position(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("a line {start}"))
}

/// A held or saved game given to `stats` (or `stats --options`) is named for what it is,
/// with the command that reads it, not "no Statistics object" or "no options.cfg beside".
#[test]
fn a_saved_or_held_game_given_to_stats_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let held = dir.path().join("holdgame.dat");
    std::fs::copy(format!("{F}/holdgame-617-lost.dat"), &held).unwrap();
    let saved = format!("{F}/saved-617-lost.pso");
    for args in [
        vec!["stats", held.to_str().unwrap()],
        vec!["stats", "--options", held.to_str().unwrap()],
        vec!["stats", "--options", &saved],
    ] {
        let out = fcauto().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("is a PySolFC saved or held game") && err.contains("fcauto analyze"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("options.cfg beside"), "{args:?}: {err}");
    }
    // Also with an options.cfg beside it, as in a real profile (formerly: its settings were
    // shown and the held game never named).
    std::fs::copy(
        format!("{F}/abandoned/options.cfg"),
        dir.path().join("options.cfg"),
    )
    .unwrap();
    let out = fcauto()
        .args(["stats", "--options", held.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("is a PySolFC saved or held game"), "{err}");
    // A profile folder whose options.cfg is a saved game names it too (formerly: "not UTF-8
    // text").
    let folder = dir.path().join("profile");
    std::fs::create_dir(&folder).unwrap();
    std::fs::copy(&saved, folder.join("options.cfg")).unwrap();
    let out = fcauto()
        .args(["stats", "--options", folder.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("options.cfg is a PySolFC saved or held game"),
        "{err}"
    );
}

/// The fixture's statistics with the player `tester` replaced by the pickle opcodes `to`
/// (the pickle is one protocol-5 frame, whose length is made to fit).
fn with_player(to: &[u8]) -> Vec<u8> {
    let src = std::fs::read(format!("{F}/shared-ms617/statistics.dat")).unwrap();
    let frame = |d: &[u8]| u64::from_le_bytes(d[3..11].try_into().unwrap());
    assert_eq!(
        (&src[..3], frame(&src)),
        (&b"\x80\x05\x95"[..], src.len() as u64 - 11)
    );
    let from: &[u8] = b"\x8c\x06tester";
    let mut out = Vec::new();
    let mut i = 0;
    while i < src.len() {
        if src[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(src[i]);
            i += 1;
        }
    }
    assert_ne!(out, src, "the fixture names its player `tester`");
    let len = out.len() as u64 - 11;
    out[3..11].copy_from_slice(&len.to_le_bytes());
    out
}

/// PySolFC records the demo's games under no player: `--player '(demo)'` selects them and an
/// unknown player's error lists them (formerly: shown as "(demo)", selectable by no name);
/// control characters in a player's name are escaped in the text output (they broke lines
/// and coloured the terminal).
#[test]
fn the_demo_player_can_be_chosen_and_names_print_safely() {
    let dir = tempfile::tempdir().unwrap();
    let demo = dir.path().join("demo.dat");
    std::fs::write(&demo, with_player(b"N")).unwrap();
    let demo = demo.to_str().unwrap();
    let v = json(&["stats", demo, "--player", "(demo)", "--json"]);
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 1);
    assert!(players[0]["player"].is_null(), "{v}");
    fcauto()
        .args(["stats", demo, "--player", "nobody"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "no player \"nobody\" (players: (demo))",
        ));

    let odd = dir.path().join("odd.dat");
    std::fs::write(&odd, with_player(b"\x8c\x08a\nb\x1b[31m")).unwrap();
    let out = fcauto().arg("stats").arg(&odd).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("player a\\nb\\u{1b}[31m\n"), "{text}");
    assert!(!text.contains('\x1b'), "{text:?}");
    let v = json(&["stats", odd.to_str().unwrap(), "--json"]);
    assert_eq!(v["players"][0]["player"], "a\nb\x1b[31m");
}

/// A loop of links is named as one, as the other commands name it (formerly: "no such
/// file").
#[test]
fn a_loop_of_links_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("l1"), dir.path().join("l2"));
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    fcauto()
        .arg("stats")
        .arg(&a)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("symbolic links"))
        .stderr(predicate::str::contains("no such file").not());
}
