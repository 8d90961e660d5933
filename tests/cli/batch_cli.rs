//! `fcauto batch` end to end: runs that resume after SIGKILL, shards and their merge, the
//! report, and the databases it refuses (left unchanged). Needs `--features batch`.

use crate::common;
use common::fcauto;
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One stored row, as the tests compare them.
#[derive(Debug, PartialEq)]
struct Row {
    deal: u64,
    verdict: String,
    moves_total: Option<u32>,
    single_card_moves: Option<u32>,
    solution: Option<String>,
    positions: u64,
}

fn rows(db: &Path) -> Vec<Row> {
    let c = Connection::open(db).unwrap();
    let mut st = c
        .prepare("SELECT deal, verdict, moves_total, single_card_moves, solution, positions FROM results ORDER BY deal")
        .unwrap();
    st.query_map([], |r| {
        Ok(Row {
            deal: r.get::<_, i64>(0)? as u64,
            verdict: r.get(1)?,
            moves_total: r.get(2)?,
            single_card_moves: r.get(3)?,
            solution: r.get(4)?,
            positions: r.get::<_, i64>(5)? as u64,
        })
    })
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

fn run_ok(args: &[&str]) -> String {
    let out = fcauto().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "fcauto {args:?}: {err}");
    err
}

/// Exit code and standard error of a run that must fail.
fn run_err(args: &[&str]) -> (i32, String) {
    let out = fcauto().args(args).output().unwrap();
    assert!(!out.status.success(), "fcauto {args:?} succeeded");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn stored_solutions_replay_under_the_validator() {
    let dir = tmp();
    let db = dir.path().join("r.sqlite");
    run_ok(&["batch", "run", "--range", "1..60", "--db", s(&db)]);
    let rows = rows(&db);
    assert_eq!(
        rows.iter().map(|r| r.deal).collect::<Vec<_>>(),
        (1..=60).collect::<Vec<_>>()
    );
    for r in &rows {
        assert_eq!(r.verdict, "solved", "deal {}", r.deal);
        let board = fcauto_deals::ms_deal(r.deal).unwrap();
        let text = r.solution.as_deref().unwrap();
        let moves = fcauto_solver::parse_standard(text).unwrap();
        let moves = fcauto_solver::resolve_counts(&board, &moves).unwrap();
        let v = fcauto_solver::validate(&board, &moves).unwrap();
        assert_eq!(Some(v.moves_total as u32), r.moves_total, "deal {}", r.deal);
        assert_eq!(
            Some(v.single_card_moves as u32),
            r.single_card_moves,
            "deal {}",
            r.deal
        );
        assert!(r.positions > 0);
    }
    // The file is left as one self-contained file: no write-ahead log beside it.
    assert_eq!(files(dir.path()), ["r.sqlite"]);
    // A second run with the same arguments stores nothing new, and leaves nothing beside it.
    let err = run_ok(&["batch", "run", "--range", "1..60", "--db", s(&db)]);
    assert!(
        err.contains("60 already in") && err.contains("stored 0 new rows"),
        "{err}"
    );
    assert_eq!(files(dir.path()), ["r.sqlite"]);
    // report only reads: the file is unchanged and nothing is made beside it.
    let before = bytes(&db);
    run_ok(&["batch", "report", s(&db)]);
    assert_eq!(files(dir.path()), ["r.sqlite"]);
    assert_eq!(bytes(&db), before);
}

/// Names of the files in `dir`, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn killed_run_resumes_without_loss_or_repeat() {
    let dir = tmp();
    let db = dir.path().join("k.sqlite");
    let reference = dir.path().join("ref.sqlite");
    let range = "11900..12400"; // holds 11982, proved unsolvable
    run_ok(&["batch", "run", "--range", range, "--db", s(&reference)]);
    let bin = assert_cmd::cargo::cargo_bin("fcauto");
    // Slowed down so that SIGKILL lands mid-run, after some commits.
    let mut child = Command::new(&bin)
        .args([
            "batch",
            "run",
            "--range",
            range,
            "--db",
            s(&db),
            "--threads",
            "1",
            "--pause-ms",
            "20",
        ])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The run holds the file exclusively; its write-ahead log grows at each commit.
    let wal = dir.path().join("k.sqlite-wal");
    let t0 = Instant::now();
    while !wal.metadata().map(|m| m.len() > 0).unwrap_or(false) {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "nothing committed in 60 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(1200));
    // SIGKILL: no chance to clean up.
    child.kill().unwrap();
    child.wait().unwrap();
    refusals_leave_a_killed_run_unchanged(dir.path(), &db, range);
    let partial = rows(&db);
    assert!(
        !partial.is_empty() && partial.len() < 501,
        "{} rows",
        partial.len()
    );
    let err = run_ok(&["batch", "run", "--range", range, "--db", s(&db)]);
    assert!(
        err.contains(&format!("{} already in", partial.len()))
            && err.contains(&format!("stored {} new rows", 501 - partial.len())),
        "{err}"
    );
    let resumed = rows(&db);
    assert_eq!(resumed.len(), 501);
    assert_eq!(
        resumed,
        rows(&reference),
        "resumed run differs from a single run"
    );
    let unsolvable: Vec<u64> = resumed
        .iter()
        .filter(|r| r.verdict == "unsolvable")
        .map(|r| r.deal)
        .collect();
    assert_eq!(unsolvable, [11982]);
}

/// A finished deal's row is committed within half a second, whatever task it belongs to:
/// a run killed 2.5 s in, each deal taking 300 ms, has stored the deals done by then (a
/// worker that sent its 16 deals' rows together had stored none).
#[test]
fn a_killed_run_keeps_each_finished_deal() {
    let dir = tmp();
    let db = dir.path().join("slow.sqlite");
    let bin = assert_cmd::cargo::cargo_bin("fcauto");
    let mut child = Command::new(&bin)
        .args(["batch", "run", "--range", "1..40", "--threads", "1"])
        .args(["--pause-ms", "300", "--db", s(&db)])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = rows(&db);
    assert!(
        (1..16).contains(&kept.len()),
        "{} rows kept after 2.5 s",
        kept.len()
    );
    assert_eq!(kept[0].deal, 1);
}

/// Ctrl-C, SIGTERM or SIGHUP stop a run cleanly (formerly: the run died at once, a
/// finished row unsaved and the write-ahead log left, so that `report` refused the file):
/// every row received is committed, the database closed (no `-wal` left), the run says how
/// many rows it stored and exits 128 + the signal; `report` reads the file, and the next run
/// goes on from there. Copies of the signal sent at once are one request.
#[test]
fn an_interrupted_run_commits_its_rows_and_closes_the_database() {
    for (sig, code, name) in [
        (libc::SIGINT, 130, "SIGINT"),
        (libc::SIGTERM, 143, "SIGTERM"),
        (libc::SIGHUP, 129, "SIGHUP"),
    ] {
        let dir = tmp();
        let db = dir.path().join("int.sqlite");
        let bin = assert_cmd::cargo::cargo_bin("fcauto");
        let child = Command::new(&bin)
            .args(["batch", "run", "--range", "1..200", "--threads", "1"])
            .args(["--pause-ms", "100", "--db", s(&db)])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        // Twice at once, as `timeout` passes on the Ctrl-C its process group already got
        // (formerly: the copy ended the run at once): one request to stop.
        for _ in 0..2 {
            // SAFETY: kill(2) on our own child's pid.
            assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
        }
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{name}: {err}");
        let kept = rows(&db);
        assert!(
            (3..200).contains(&kept.len()),
            "{name}: {} rows kept",
            kept.len()
        );
        let said = format!("interrupted by {name}");
        assert!(err.contains(&said), "{err}");
        assert!(
            err.contains(&format!("stored {} new rows", kept.len())),
            "{name}: the rows said are the rows stored ({}): {err}",
            kept.len()
        );
        assert!(
            !dir.path().join("int.sqlite-wal").exists(),
            "{name}: the log was left: {:?}",
            files(dir.path())
        );
        let report = fcauto().args(["batch", "report", s(&db)]).output().unwrap();
        let text = String::from_utf8_lossy(&report.stdout).into_owned()
            + &String::from_utf8_lossy(&report.stderr);
        assert!(report.status.success(), "{name}: {text}");
        assert!(text.contains(&format!("rows: {}", kept.len())), "{text}");
        let next = run_ok(&["batch", "run", "--range", "1..200", "--db", s(&db)]);
        assert!(
            next.contains(&format!("{} already in", kept.len())),
            "{next}"
        );
        assert_eq!(rows(&db).len(), 200);
    }
}

/// A database named like an SQLite URI (`file:NAME`) or `:memory:` is the file of that
/// name, where the lock and checks are: the rows are there, a second run resumes it, and
/// report reads it; nothing is written to `NAME`.
#[test]
fn a_database_named_like_a_uri_is_that_file() {
    let dir = tmp();
    for name in ["file:res.sqlite", ":memory:"] {
        let run = |range: &str| {
            let out = fcauto()
                .current_dir(dir.path())
                .args(["batch", "run", "--range", range, "--threads", "1"])
                .args(["--db", name])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            assert!(out.status.success(), "{name} {range}: {err}");
            err
        };
        run("1..5");
        assert_eq!(rows(&dir.path().join(name)).len(), 5, "{name}");
        let err = run("1..8");
        assert!(err.contains("5 already in"), "{name}: {err}");
        let out = fcauto()
            .current_dir(dir.path())
            .args(["batch", "report", name])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && text.contains('8'), "{name}: {text}");
    }
    assert!(!dir.path().join("res.sqlite").exists());
}

/// A killed run's database (the file and its write-ahead log): a run with other settings,
/// `report` and `merge` refuse it, change neither file and make none beside them.
fn refusals_leave_a_killed_run_unchanged(dir: &Path, db: &Path, range: &str) {
    let wal = dir.join("k.sqlite-wal");
    let snapshot = || (files(dir), bytes(db), bytes(&wal));
    let before = snapshot();
    assert!(!before.2.is_empty(), "the killed run left no log");
    let (code, err) = run_err(&[
        "batch",
        "run",
        "--range",
        range,
        "--mode",
        "short",
        "--db",
        s(db),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("mode fast") && err.contains("mode short"),
        "{err}"
    );
    assert!(
        snapshot() == before,
        "a refused run changed the killed run's files"
    );
    for args in [
        vec!["batch", "report", s(db)],
        vec!["batch", "merge", s(&dir.join("m.sqlite")), s(db)],
    ] {
        let (code, err) = run_err(&args);
        assert_eq!(code, 1);
        assert!(
            err.contains("stopped before it finished") && err.contains("fcauto batch run"),
            "{args:?}: {err}"
        );
        assert!(
            snapshot() == before,
            "{args:?} changed the killed run's files"
        );
    }
}

#[test]
fn shards_merge_into_the_single_run() {
    let dir = tmp();
    let whole = dir.path().join("whole.sqlite");
    run_ok(&["batch", "run", "--range", "1..250", "--db", s(&whole)]);
    let shard = |i: u32| dir.path().join(format!("s{i}.sqlite"));
    for i in 1..=3 {
        let spec = format!("{i}/3");
        run_ok(&[
            "batch",
            "run",
            "--range",
            "1..250",
            "--shard",
            &spec,
            "--block",
            "40",
            "--db",
            s(&shard(i)),
        ]);
        // Shard i holds exactly the blocks k with k % 3 == i - 1.
        for r in rows(&shard(i)) {
            assert_eq!(
                ((r.deal - 1) / 40) % 3,
                u64::from(i) - 1,
                "deal {} in shard {i}",
                r.deal
            );
        }
    }
    let out = dir.path().join("merged.sqlite");
    // A shard left out: the completeness check names the missing deals and writes nothing.
    let (code, err) = run_err(&[
        "batch",
        "merge",
        "--expect-range",
        "1..250",
        s(&out),
        s(&shard(1)),
        s(&shard(3)),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("80 deals of 1..250 missing") && err.contains("first: 41, 42"),
        "{err}"
    );
    assert!(!out.exists());
    // Every shard, checked against a smaller range: the deals outside it are named, nothing
    // is written (formerly: merged 2000 rows under a range of 1000).
    let (code, err) = run_err(&[
        "batch",
        "merge",
        "--expect-range",
        "1..200",
        s(&out),
        s(&shard(1)),
        s(&shard(2)),
        s(&shard(3)),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("50 deals outside 1..200 in the inputs (first: 201, 202"),
        "{err}"
    );
    assert!(!out.exists());
    // Shard 1 named twice: its rows overlap with equal verdicts, reported and kept once.
    let err = run_ok(&[
        "batch",
        "merge",
        "--expect-range",
        "1..250",
        s(&out),
        s(&shard(1)),
        s(&shard(2)),
        s(&shard(3)),
        s(&shard(1)),
    ]);
    assert!(
        err.contains("250 rows") && err.contains("kept once"),
        "{err}"
    );
    assert_eq!(rows(&out), rows(&whole));
    // OUT is never overwritten; a symbolic link there, even one leading nowhere, is refused
    // before the merge (formerly: merged, then discarded as "appeared while merging").
    let dangling = dir.path().join("dangling.sqlite");
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("nowhere.sqlite"), &dangling).unwrap();
    for out in [&out, &dangling] {
        if out.symlink_metadata().is_err() {
            continue;
        }
        let (code, err) = run_err(&["batch", "merge", s(out), s(&shard(1))]);
        assert_eq!(code, 1);
        assert!(err.contains("exists: merge writes a new file"), "{err}");
    }
}

#[test]
fn merge_refuses_conflicting_verdicts_and_writes_nothing() {
    let dir = tmp();
    let a = dir.path().join("a.sqlite");
    let b = dir.path().join("b.sqlite");
    run_ok(&["batch", "run", "--range", "20..30", "--db", s(&a)]);
    run_ok(&["batch", "run", "--range", "25..35", "--db", s(&b)]);
    Connection::open(&b)
        .unwrap()
        .execute(
            "UPDATE results SET verdict = 'unknown', solution = NULL, moves_total = NULL, \
             single_card_moves = NULL, stopped_by = 'state limit of 1 position reached' \
             WHERE deal = 27",
            [],
        )
        .unwrap();
    let out = dir.path().join("m.sqlite");
    let (code, err) = run_err(&["batch", "merge", s(&out), s(&a), s(&b)]);
    assert_eq!(code, 1);
    assert!(
        err.contains("deal 27 is unknown") && err.contains("solved"),
        "{err}"
    );
    let left: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(left.len(), 2, "merge left files behind: {left:?}");
}

/// `report --verify` replays every stored solution: all valid after a run (exit 0); a row
/// whose stored length is wrong, or whose solution is illegal or does not win, is named
/// and makes it exit 1; the database is left unchanged.
#[test]
fn report_verify_replays_every_stored_solution() {
    let dir = tmp();
    let db = dir.path().join("v.sqlite");
    run_ok(&["batch", "run", "--range", "1..30", "--db", s(&db)]);
    let out = fcauto()
        .args(["batch", "report", s(&db), "--verify", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let v = &j["verification"];
    assert_eq!(v["checked"], 30, "{v}");
    assert_eq!(v["invalid"], 0, "{v}");
    // Without --verify, no replay.
    let out = fcauto()
        .args(["batch", "report", s(&db), "--json"])
        .output()
        .unwrap();
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(j["verification"].is_null(), "{j}");
    // Three rows spoilt, each still its moves_total moves (what `check.rs` checks on every
    // read): a length, a move, a solution cut short (its last foundation move gone).
    let c = Connection::open(&db).unwrap();
    c.execute_batch(
        "UPDATE results SET single_card_moves = single_card_moves + 1 WHERE deal = 7;
         UPDATE results SET solution = '3a 3a ' || solution, moves_total = moves_total + 2,
           single_card_moves = single_card_moves + 2 WHERE deal = 9;
         UPDATE results SET solution = substr(solution, 1, length(solution) - 3),
           moves_total = moves_total - 1 WHERE deal = 12;",
    )
    .unwrap();
    drop(c);
    let before = bytes(&db);
    let out = fcauto()
        .args(["batch", "report", s(&db), "--verify"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("30 solutions, 3 INVALID"), "{text}");
    // The solved line does not call them validated.
    assert!(
        text.contains("solved:               30 (3 INVALID when replayed now: below)"),
        "{text}"
    );
    assert!(!text.contains("solved and validated"), "{text}");
    assert!(
        text.contains("deal 7: stored lengths")
            && text.contains("deal 9: step 2 (3a): illegal move")
            && text.contains("deal 12: "),
        "{text}"
    );
    assert_eq!(bytes(&db), before, "report changed the database");
}

/// A row that says "unsolvable" of a deal known to be solvable fails every run of its shard,
/// not only the one that stored it: a resumed run, a run with nothing left to do, and
/// `report --verify` (formerly a resubmitted task exited 0 and its merge went ahead).
#[test]
fn a_false_unsolvable_stored_earlier_fails_the_next_run_and_verify() {
    let dir = tmp();
    let db = dir.path().join("u.sqlite");
    run_ok(&["batch", "run", "--range", "1..30", "--db", s(&db)]);
    let c = Connection::open(&db).unwrap();
    c.execute_batch(
        "UPDATE results SET verdict = 'unsolvable', solution = NULL, moves_total = NULL, \
           single_card_moves = NULL WHERE deal = 5;
         DELETE FROM results WHERE deal = 29;",
    )
    .unwrap();
    drop(c);
    let said = "deals stored as unsolvable by an earlier run but known solvable: [5]";
    // Resumed: deal 29 is solved again, and the run still fails.
    let (code, err) = run_err(&["batch", "run", "--range", "1..30", "--db", s(&db)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(said) && err.contains("stored 1 new row"),
        "{err}"
    );
    assert_eq!(rows(&db).len(), 30);
    // Nothing left to do: the same.
    let (code, err) = run_err(&["batch", "run", "--range", "1..30", "--db", s(&db)]);
    assert!(code == 1 && err.contains(said), "{err}");
    // Another shard's rows are not this shard's to answer for.
    run_ok(&[
        "batch",
        "run",
        "--range",
        "1..30",
        "--shard",
        "2/2",
        "--block",
        "10",
        "--db",
        s(&db),
    ]);
    let (code, err) = run_err(&["batch", "report", s(&db), "--verify"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("deals stored as unsolvable but known solvable: [5]"),
        "{err}"
    );
    // A plain report names it and succeeds.
    let out = run_ok(&["batch", "report", s(&db)]);
    assert!(!out.contains("known solvable"), "{out}");
}

/// A resumed run replays the stored solutions before it adds a row: one that is illegal
/// (its lengths kept consistent, so only a replay can tell) is named and the run refused,
/// the file unchanged (formerly: the run took it up silently and `report --verify` was the
/// first to say).
#[test]
fn a_resumed_run_refuses_an_illegal_stored_solution() {
    let dir = tmp();
    let db = dir.path().join("r.sqlite");
    run_ok(&["batch", "run", "--range", "1..20", "--db", s(&db)]);
    let c = Connection::open(&db).unwrap();
    c.execute_batch(
        "UPDATE results SET solution = '3a 3a ' || solution, moves_total = moves_total + 2,
           single_card_moves = single_card_moves + 2 WHERE deal = 9;",
    )
    .unwrap();
    drop(c);
    let before = bytes(&db);
    let (code, err) = run_err(&["batch", "run", "--range", "1..40", "--db", s(&db)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("1 stored solution(s) do not replay; deal 9: step 2 (3a): illegal move")
            && err.contains("delete that row"),
        "{err}"
    );
    assert_eq!(bytes(&db), before, "the refused run changed the database");
    // With the row deleted, the run resumes and solves the deal anew.
    let c = Connection::open(&db).unwrap();
    c.execute_batch("DELETE FROM results WHERE deal = 9;")
        .unwrap();
    drop(c);
    let err = run_ok(&[
        "batch",
        "run",
        "--range",
        "1..40",
        "--db",
        s(&db),
        "--threads",
        "1",
    ]);
    // The replay runs on the run's threads, not every core (it used rayon's global pool).
    assert!(
        err.contains("19 stored solutions replayed with the validator (")
            && err.contains(" on 1 thread)"),
        "{err}"
    );
    let out = fcauto()
        .args(["batch", "report", s(&db), "--verify", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["verification"]["checked"], 40, "{j}");
    assert_eq!(j["verification"]["invalid"], 0, "{j}");
}

/// Bytes of a file, to show a refused run changed nothing.
fn bytes(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

#[test]
fn refused_databases_are_left_unchanged() {
    let dir = tmp();
    let good = dir.path().join("fast.sqlite");
    run_ok(&["batch", "run", "--range", "1..40", "--db", s(&good)]);
    let before = bytes(&good);
    // Written by another mode.
    let (code, err) = run_err(&[
        "batch",
        "run",
        "--range",
        "1..40",
        "--mode",
        "short",
        "--db",
        s(&good),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("mode fast") && err.contains("mode short"),
        "{err}"
    );
    // Another budget is other settings too.
    let (_, err) = run_err(&[
        "batch",
        "run",
        "--range",
        "1..40",
        "--max-states",
        "5000",
        "--db",
        s(&good),
    ]);
    assert!(
        err.contains(&format!(
            "max_states {}",
            fcauto_solver::Mode::Fast.default_max_states()
        )) && err.contains("max_states 5000"),
        "{err}"
    );
    assert_eq!(bytes(&good), before);

    // Not SQLite at all.
    let text = dir.path().join("notes.sqlite");
    std::fs::write(&text, "my notes\n").unwrap();
    let (_, err) = run_err(&["batch", "run", "--range", "1..5", "--db", s(&text)]);
    assert!(err.contains("not an SQLite database"), "{err}");
    assert_eq!(bytes(&text), b"my notes\n");

    // Someone else's SQLite database.
    let foreign = dir.path().join("foreign.sqlite");
    Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE t(x); INSERT INTO t VALUES (1);")
        .unwrap();
    let fb = bytes(&foreign);
    for args in [
        vec!["batch", "run", "--range", "1..5", "--db", s(&foreign)],
        vec!["batch", "report", s(&foreign)],
    ] {
        let (_, err) = run_err(&args);
        assert!(
            err.contains("not an fcauto batch database (tables: t)"),
            "{err}"
        );
    }
    assert_eq!(bytes(&foreign), fb);

    // Damaged: a page overwritten, and a file cut short.
    let damaged = dir.path().join("damaged.sqlite");
    let mut b = before.clone();
    let mid = b.len() / 2;
    b[mid..mid + 2000].fill(0xff);
    std::fs::write(&damaged, &b).unwrap();
    let cut = dir.path().join("cut.sqlite");
    std::fs::write(&cut, &before[..before.len() / 2]).unwrap();
    for (p, content) in [(&damaged, b), (&cut, before[..before.len() / 2].to_vec())] {
        for args in [
            vec!["batch", "run", "--range", "1..50", "--db", s(p)],
            vec!["batch", "report", s(p)],
        ] {
            let (code, err) = run_err(&args);
            assert_eq!(code, 1);
            assert!(err.contains("is damaged"), "{args:?}: {err}");
        }
        assert_eq!(bytes(p), content);
    }

    // A shard spec out of range is a usage error, before any file is made.
    let new = dir.path().join("new.sqlite");
    for spec in ["9/8", "0/8", "1/0", "3"] {
        let (code, _) = run_err(&[
            "batch",
            "run",
            "--range",
            "1..5",
            "--shard",
            spec,
            "--db",
            s(&new),
        ]);
        assert_eq!(code, 2, "{spec}");
    }
    assert!(!new.exists());
}

#[test]
fn report_counts_and_plots() {
    let dir = tmp();
    let db = dir.path().join("r.sqlite");
    run_ok(&["batch", "run", "--range", "11975..11990", "--db", s(&db)]);
    let plots = dir.path().join("plots");
    let out = fcauto()
        .args(["batch", "report", s(&db), "--json", "--plot", s(&plots)])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["rows"], 16);
    assert_eq!(j["solved"], 15);
    assert_eq!(j["unsolvable"], serde_json::json!([11982]));
    assert_eq!(j["unknown"], serde_json::json!([]));
    assert_eq!(j["mode"], "fast");
    assert_eq!(
        j["known_impossible_check"]["known_stored"],
        serde_json::json!([11982])
    );
    assert_eq!(j["moves_total"]["count"], 15);
    let stored = rows(&db);
    let mean = stored
        .iter()
        .filter_map(|r| r.moves_total)
        .map(f64::from)
        .sum::<f64>()
        / 15.0;
    assert!((j["moves_total"]["mean"].as_f64().unwrap() - mean).abs() < 1e-9);
    for name in ["lengths.png", "cpu.png"] {
        let png = bytes(&plots.join(name));
        assert!(
            png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 5000,
            "{name}"
        );
    }
    // Its own pictures a later report replaces; a file of the user's under one of their
    // names it refuses, before any work, and leaves every file as it was.
    run_ok(&["batch", "report", s(&db), "--plot", s(&plots)]);
    let lengths = bytes(&plots.join("lengths.png"));
    std::fs::write(plots.join("cpu.png"), "my own chart notes").unwrap();
    let out = fcauto()
        .args(["batch", "report", s(&db), "--plot", s(&plots)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("it holds cpu.png, which fcauto did not draw (it would be replaced)"),
        "{err}"
    );
    // What to do, including for an unmarked chart an older fcauto drew.
    assert!(
        err.contains("remove it if an fcauto from before 2026-12-02 drew it"),
        "{err}"
    );
    assert_eq!(bytes(&plots.join("cpu.png")), b"my own chart notes");
    assert_eq!(bytes(&plots.join("lengths.png")), lengths);
    // Text report.
    let out = fcauto().args(["batch", "report", s(&db)]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("proved unsolvable:    1 [11982]"), "{text}");
    // Milliseconds have three decimals, the mean as its percentiles; counts two.
    let mean_decimals = |label: &str| {
        let line = text.lines().find(|l| l.contains(label)).unwrap();
        let mean = line
            .split("mean ")
            .nth(1)
            .unwrap()
            .split(',')
            .next()
            .unwrap();
        (mean.split('.').nth(1).map(str::len), line.to_string())
    };
    let (n, line) = mean_decimals("CPU per deal:");
    assert_eq!(n, Some(3), "{line}");
    let (n, line) = mean_decimals("moves_total:");
    assert_eq!(n, Some(2), "{line}");
    // The plot folder is made, not its parents (as for every other output).
    let deep = dir.path().join("no/plots");
    let out = fcauto()
        .args(["batch", "report", s(&db), "--plot", s(&deep)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("does not exist"), "{err}");
    assert!(!dir.path().join("no").exists());
}

#[test]
fn every_shard_of_a_short_range_gets_deals() {
    // 40 deals in 8 shards: blocks of 5 deals by default (not 1000: shards 2..8 empty).
    let dir = tmp();
    let shard = |i: u32| dir.path().join(format!("s{i}.sqlite"));
    for i in 1..=8 {
        let spec = format!("{i}/8");
        run_ok(&[
            "batch",
            "run",
            "--range",
            "1..40",
            "--shard",
            &spec,
            "--db",
            s(&shard(i)),
        ]);
        let deals: Vec<u64> = rows(&shard(i)).iter().map(|r| r.deal).collect();
        let first = u64::from(i) * 5 - 4;
        assert_eq!(deals, (first..first + 5).collect::<Vec<_>>(), "shard {i}");
    }
    let out = dir.path().join("m.sqlite");
    let mut args = vec!["batch", "merge", "--expect-range", "1..40", s(&out)];
    let names: Vec<PathBuf> = (1..=8).map(shard).collect();
    args.extend(names.iter().map(|p| s(p)));
    run_ok(&args);
    assert_eq!(rows(&out).len(), 40);
    // README's Slurm example: 1..32000 in 64 shards, each gets 500 deals.
    let check = |extra: &[&str]| {
        let mut a = vec![
            "batch",
            "run",
            "--range",
            "1..32000",
            "--shard",
            "64/64",
            "--check-args",
            "--db",
            "/dev/null",
        ];
        a.extend(extra);
        fcauto().args(&a).output().unwrap()
    };
    assert!(check(&[]).status.success());
    // An explicit block that leaves shards empty is a usage error naming the fix.
    let out = check(&["--block", "1000"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no deal") && err.contains("--block 500"),
        "{err}"
    );
}

/// `scripts/slurm/submit.sh` with a stub `sbatch` on PATH that logs its arguments (unless
/// `dir/bin/sbatch` is there already: a test's own stub).
fn submit(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let stub = bin.join("sbatch");
    if !stub.exists() {
        std::fs::write(
            &stub,
            format!(
                "#!/bin/sh\necho \"$* BIN=$FCAUTO_BIN\" >> '{}'\necho 4242\n",
                dir.join("sbatch.log").display()
            ),
        )
        .unwrap();
    }
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm/submit.sh");
    let fc = assert_cmd::cargo::cargo_bin("fcauto");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    // Run beside the binary, so that `--fcauto ./fcauto` names it.
    let out = Command::new("bash")
        .arg(script)
        .args(["--fcauto", s(&fc)])
        .args(args)
        .env("PATH", path)
        .current_dir(fc.parent().unwrap())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn submit_checks_extra_flags_before_queueing() {
    let dir = tmp();
    let out = dir.path().join("run");
    let log = dir.path().join("sbatch.log");
    let base = ["--range", "1..32000", "--shards", "64", "--out", s(&out)];
    // `--threads` is the shard script's own: given again, every task would fail.
    for extra in ["--max-states 0", "--bogus-flag", "--threads 2"] {
        let mut a = base.to_vec();
        a.extend(["--extra", extra]);
        let (code, _, err) = submit(dir.path(), &a);
        assert_eq!(code, 2, "--extra {extra}: {err}");
        assert!(err.contains("nothing queued"), "{err}");
        assert!(!log.exists(), "--extra {extra} queued jobs");
    }
    // An index past the shards, an option without its value: refused, nothing queued.
    for more in [&["--tasks", "65"][..], &["--tasks", "3,60-70"], &["--mode"]] {
        let (code, _, err) = submit(dir.path(), &[&base[..], more].concat());
        assert_eq!(code, 2, "{more:?}: {err}");
        assert!(!log.exists(), "{more:?} queued jobs");
    }
    let (code, usage, _) = submit(dir.path(), &["--help"]);
    assert_eq!(code, 0);
    assert!(
        usage.contains("--range") && usage.contains("--extra"),
        "{usage}"
    );
    assert!(!log.exists());
    let mut a = base.to_vec();
    a.extend(["--extra", "--max-states 500000", "--", "--mem-per-cpu=3G"]);
    let (code, said, err) = submit(dir.path(), &a);
    assert_eq!(code, 0, "{err}");
    assert!(said.contains("array job 4242 (tasks 1-64 of 64)"), "{said}");
    let calls = std::fs::read_to_string(&log).unwrap();
    assert_eq!(calls.lines().count(), 2, "{calls}");
    assert!(
        calls.contains("--array=1-64") && calls.contains("--mem-per-cpu=3G"),
        "{calls}"
    );
    // A relative --fcauto is made absolute: the tasks run in OUT/logs.
    let same = ["--extra", "--max-states 500000", "--fcauto", "./fcauto"];
    let (code, _, err) = submit(dir.path(), &[&base[..], &same].concat());
    assert_eq!(code, 0, "{err}");
    let calls = std::fs::read_to_string(&log).unwrap();
    assert!(calls.lines().all(|l| l.contains(" BIN=/")), "{calls}");
}

/// Arguments Slurm would refuse only after the array is queued are refused first: array
/// syntax, a job id; a resubmission into the same folder with other settings (its tasks
/// would fail on them). If the merge cannot be queued, the array is cancelled.
#[test]
fn submit_refuses_what_would_leave_an_array_without_its_merge() {
    let dir = tmp();
    let out = dir.path().join("run");
    let log = dir.path().join("sbatch.log");
    let base = ["--range", "1..32000", "--shards", "64", "--out", s(&out)];
    for more in [
        &["--tasks", "3-1"][..],
        &["--tasks", "1-2-3"],
        &["--tasks", "1,,2"],
        &["--after", "23_x"],
    ] {
        let (code, _, err) = submit(dir.path(), &[&base[..], more].concat());
        assert_eq!(code, 2, "{more:?}: {err}");
        assert!(err.contains("submit.sh: --"), "{more:?}: {err}");
        assert!(!log.exists(), "{more:?} queued jobs");
    }
    // Slurm's throttle is array syntax.
    let (code, said, err) = submit(dir.path(), &[&base[..], &["--tasks", "1-8%2"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(said.contains("tasks 1-8%2 of 64"), "{said}");
    // Another mode into the same folder: refused, naming both.
    let (code, _, err) = submit(dir.path(), &[&base[..], &["--mode", "short"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("other settings") && err.contains("mode=fast") && err.contains("mode=short"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 2);
    // The merge job refused: the array just queued is cancelled.
    let bin = dir.path().join("bin");
    std::fs::write(
        bin.join("sbatch"),
        "#!/bin/sh\ncase \"$*\" in *fcauto-merge.sbatch*) echo 'sbatch: error: Job dependency problem' >&2; exit 1;; esac\necho 4343\n",
    )
    .unwrap();
    std::fs::write(
        bin.join("scancel"),
        format!(
            "#!/bin/sh\necho \"$*\" > '{}'\n",
            dir.path().join("scancel.log").display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("scancel"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let (code, _, err) = submit(
        dir.path(),
        &[&base[..], &["--tasks", "17", "--after", "4242"]].concat(),
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("array job 4343 cancelled"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("scancel.log"))
            .unwrap()
            .trim(),
        "4343"
    );
}

/// `report --plot` of a database with no rows draws nothing: the CPU picture cannot be drawn,
/// and the lengths picture is not left behind alone (the text report is still printed).
#[test]
fn plotting_a_database_with_no_rows_leaves_no_picture() {
    let dir = tmp();
    let db = dir.path().join("e.sqlite");
    run_ok(&["batch", "run", "--range", "1..3", "--db", s(&db)]);
    Connection::open(&db)
        .unwrap()
        .execute("DELETE FROM results", [])
        .unwrap();
    let plots = dir.path().join("plots");
    let out = fcauto()
        .args(["batch", "report", s(&db), "--plot", s(&plots)])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("holds no rows"), "{err}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("rows"),
        "the text report first"
    );
    assert!(files(&plots).is_empty(), "{:?}", files(&plots));
}

#[test]
fn merge_into_a_missing_folder_names_it() {
    let dir = tmp();
    let a = dir.path().join("a.sqlite");
    run_ok(&["batch", "run", "--range", "1..3", "--db", s(&a)]);
    let out = dir.path().join("nodir").join("out.sqlite");
    let (code, err) = run_err(&["batch", "merge", s(&out), s(&a)]);
    assert_eq!(code, 1);
    assert!(
        err.contains("nodir") && err.contains("does not exist") && !err.contains("partial"),
        "{err}"
    );
}

/// A new database in a missing folder is named in the words every other output path uses;
/// `report --plot -` and `-` for a database are usage errors (exit 2) that make no folder or
/// file named `-`.
#[test]
fn missing_db_folder_and_dash_plot_folder_are_refused() {
    let dir = tmp();
    let db = dir.path().join("nodir").join("k.sqlite");
    let (code, err) = run_err(&["batch", "run", "--range", "1..3", "--db", s(&db)]);
    assert_eq!(code, 1);
    let missing = format!(
        "cannot write {}: folder {} does not exist",
        db.display(),
        dir.path().join("nodir").display()
    );
    assert!(err.contains(&missing), "{err}");
    assert!(files(dir.path()).is_empty());
    let a = dir.path().join("a.sqlite");
    run_ok(&["batch", "run", "--range", "1..3", "--db", s(&a)]);
    let out = fcauto()
        .current_dir(dir.path())
        .args(["batch", "report", s(&a), "--plot", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot go to standard output"), "{err}");
    let b = dir.path().join("b.sqlite");
    for args in [
        vec!["batch", "run", "--range", "1..3", "--db", "-"],
        vec!["batch", "merge", "-", s(&a)],
        vec!["batch", "merge", s(&b), "-"],
        vec!["batch", "report", "-"],
    ] {
        let out = fcauto()
            .current_dir(dir.path())
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("a database is a file"), "{args:?}: {err}");
    }
    assert_eq!(files(dir.path()), ["a.sqlite"]);
}

#[test]
fn two_runs_creating_one_database_at_once() {
    // The loser of the race gets one clear line naming the file, never SQLite's schema text.
    let dir = tmp();
    for attempt in 0..5 {
        let db = dir.path().join(format!("race{attempt}.sqlite"));
        let spawn = || {
            Command::new(assert_cmd::cargo::cargo_bin("fcauto"))
                .args(["batch", "run", "--range", "1..20", "--threads", "1"])
                .args(["--pause-ms", "20", "--db", s(&db)])
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (x, y) = (spawn(), spawn());
        let outs = [x.wait_with_output().unwrap(), y.wait_with_output().unwrap()];
        let failed: Vec<String> = outs
            .iter()
            .filter(|o| !o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
            .collect();
        assert!(failed.len() <= 1, "both failed: {failed:?}");
        for err in &failed {
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(
                err.contains(s(&db)) && !err.contains("CREATE TABLE"),
                "{err}"
            );
        }
        assert_eq!(rows(&db).len(), 20);
    }
}

/// A run that finds another run's lock (`flock`, held here by the test) on its file
/// stops at once with one line, whether the file is still empty or has its tables, and
/// leaves it as it was; once the lock is gone, a run goes ahead.
#[test]
fn a_database_being_created_is_refused_at_once() {
    let dir = tmp();
    let fresh = dir.path().join("new.sqlite");
    std::fs::File::create(&fresh).unwrap();
    let made = dir.path().join("made.sqlite");
    run_ok(&["batch", "run", "--range", "1..3", "--db", s(&made)]);
    for db in [&fresh, &made] {
        let held = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(db)
            .unwrap();
        use std::os::fd::AsRawFd;
        // SAFETY: flock on a descriptor `held` owns; the lock goes when `held` is dropped.
        let r = unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        assert_eq!(r, 0, "{}", std::io::Error::last_os_error());
        let before = bytes(db);
        let t = Instant::now();
        let (code, err) = run_err(&["batch", "run", "--range", "1..5", "--db", s(db)]);
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
        assert_eq!(code, 1, "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains(s(db)) && err.contains("in use by another batch run"),
            "{err}"
        );
        assert_eq!(bytes(db), before, "{}", db.display());
        drop(held);
    }
    assert_eq!(files(dir.path()), ["made.sqlite", "new.sqlite"]);
    run_ok(&["batch", "run", "--range", "1..3", "--db", s(&fresh)]);
    assert_eq!(rows(&fresh).len(), 3);
}

/// A report of one deal draws its lengths (formerly: a line through one point drew
/// nothing): the left quarter of lengths.png, away from the legend, holds the series' blue.
#[test]
fn one_deals_lengths_are_drawn() {
    let dir = tmp();
    let db = dir.path().join("one.sqlite");
    let plots = dir.path().join("plots");
    run_ok(&["batch", "run", "--range", "617..617", "--db", s(&db)]);
    run_ok(&["batch", "report", s(&db), "--plot", s(&plots)]);
    let (buf, w, h, px) = pixels(&plots.join("lengths.png"));
    let blue = (0..h)
        .flat_map(|y| (0..w / 4).map(move |x| (y * w + x) * px))
        .filter(|&i| buf[i..i + 3] == [0, 0, 255])
        .count();
    assert!(blue > 10, "{blue} blue pixels");
}

/// A database with no solved deal gets a lengths picture that says so, not empty axes over
/// made-up ranges: nothing is drawn in the left band where an axis and its
/// labels go, and the note is there (dark pixels).
#[test]
fn no_solved_deal_is_said_in_the_lengths_picture() {
    let dir = tmp();
    let db = dir.path().join("none.sqlite");
    let plots = dir.path().join("plots");
    run_ok(&[
        "batch",
        "run",
        "--range",
        "1..5",
        "--max-states",
        "60",
        "--db",
        s(&db),
    ]);
    run_ok(&["batch", "report", s(&db), "--plot", s(&plots)]);
    let (buf, w, h, px) = pixels(&plots.join("lengths.png"));
    let dark = |x0: usize, x1: usize| {
        (0..h)
            .flat_map(|y| (x0..x1).map(move |x| (y * w + x) * px))
            .filter(|&i| buf[i..i + 3].iter().all(|&c| c < 128))
            .count()
    };
    assert_eq!(dark(0, 55), 0, "an axis or its labels drawn");
    assert!(dark(55, w) > 100, "no note drawn");
}

#[test]
fn read_only_database_or_folder_is_named() {
    // As root permissions do not bind: run fcauto as nobody (setpriv), when it can.
    // SAFETY: geteuid has no preconditions.
    let as_nobody = unsafe { libc::geteuid() } == 0;
    if as_nobody && !common::have("setpriv") {
        eprintln!("skipped: root without setpriv");
        return;
    }
    let dir = tmp();
    let db = dir.path().join("ro.sqlite");
    run_ok(&["batch", "run", "--range", "1..3", "--db", s(&db)]);
    use std::os::unix::fs::PermissionsExt;
    let mode =
        |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
    let run_with = |db: &Path, extra: &[&str]| {
        let fc = assert_cmd::cargo::cargo_bin("fcauto");
        let mut args = vec!["batch", "run", "--db", s(db)];
        args.extend_from_slice(extra);
        if as_nobody {
            Command::new("setpriv")
                .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(&fc)
                .args(args)
                .output()
        } else {
            Command::new(&fc).args(args).output()
        }
        .unwrap()
    };
    let run_range = |db: &Path, range: &str| run_with(db, &["--range", range]);
    let run = |db: &Path| {
        let out = run_range(db, "1..5");
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // A run with nothing left to do writes nothing, and says so: exit 0.
    let nothing_to_do = |db: &Path| {
        let out = run_range(db, "1..3");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && err.contains("nothing to do"),
            "{err}"
        );
    };
    // The folder read-only (as nobody: not its owner), the file writable by all.
    mode(dir.path(), 0o755);
    mode(&db, 0o666);
    if !as_nobody {
        mode(dir.path(), 0o555);
    }
    let before = bytes(&db);
    let err = run(&db);
    assert!(err.contains(s(&db)) && err.contains("read-only"), "{err}");
    nothing_to_do(&db);
    // The file read-only.
    mode(dir.path(), if as_nobody { 0o777 } else { 0o755 });
    mode(&db, 0o444);
    let err = run(&db);
    assert!(err.contains(s(&db)) && err.contains("read-only"), "{err}");
    nothing_to_do(&db);
    // Another run's settings are named as the problem, not the permissions.
    let out = run_with(&db, &["--range", "1..3", "--mode", "short"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("holds results of mode fast"),
        "{err}"
    );
    assert_eq!(bytes(&db), before);
    mode(dir.path(), 0o755);
    assert_eq!(files(dir.path()), ["ro.sqlite"]);
}

#[test]
fn progress_rate_has_three_significant_figures() {
    // The bar is drawn only on a terminal: `script` gives the run one.
    if !common::have("script") {
        eprintln!("skipped: no `script` (util-linux)");
        return;
    }
    let dir = tmp();
    let db = dir.path().join("p.sqlite");
    let fc = assert_cmd::cargo::cargo_bin("fcauto");
    let cmd = format!(
        "'{}' batch run --range 1..60 --threads 1 --pause-ms 10 --db '{}'",
        s(&fc),
        s(&db)
    );
    let out = Command::new("script")
        .args(["-qfec", &cmd, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let rates: Vec<&str> = text
        .split("deals, ")
        .skip(1)
        .filter_map(|t| t.split_once("/s, eta").map(|(r, _)| r))
        .collect();
    assert!(!rates.is_empty(), "no progress bar drawn: {text:?}");
    // About three significant figures (`154/s`, `45.6/s`), not indicatif's 3 to 4 decimals.
    for r in rates {
        let digits = r.chars().filter(char::is_ascii_digit).count();
        assert!(
            r.chars().all(|c| c.is_ascii_digit() || c == '.') && (digits <= 3 || !r.contains('.')),
            "rate `{r}`"
        );
    }
}

/// `path` with `suffix` appended to its file name (SQLite's `-wal`, `-journal`).
fn sidecar(p: &Path, suffix: &str) -> PathBuf {
    let mut s = p.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// Two runs on one database: while one runs, a second (the same shard or another) stops at
/// once with one line; the first stores every row and leaves a sound file. (Both used to
/// run, each exiting 0, and rows were lost or the file damaged.)
#[test]
fn a_second_run_on_a_database_in_use_is_refused() {
    let dir = tmp();
    let db = dir.path().join("d.sqlite");
    let first = Command::new(assert_cmd::cargo::cargo_bin("fcauto"))
        .args(["batch", "run", "--range", "1..40", "--threads", "1"])
        .args(["--pause-ms", "50", "--db", s(&db)])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until it is storing rows (its write-ahead log is beside the file).
    let t = Instant::now();
    while std::fs::metadata(sidecar(&db, "-wal")).map_or(true, |m| m.len() == 0) {
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "the first run never wrote"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    for shard in ["1/1", "2/2"] {
        let t = Instant::now();
        let (code, err) = run_err(&[
            "batch",
            "run",
            "--range",
            "1..40",
            "--shard",
            shard,
            "--threads",
            "1",
            "--db",
            s(&db),
        ]);
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
        assert_eq!(code, 1, "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains(s(&db)) && err.contains("in use by another batch run"),
            "{err}"
        );
    }
    let out = first.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(rows(&db).len(), 40);
    let c = Connection::open(&db).unwrap();
    let ok: String = c
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    run_ok(&["batch", "report", s(&db)]);
}

/// A run killed while it created its tables leaves its pages in the file and a hot
/// rollback journal of a transaction begun on an empty file. `report` and `merge` refuse it
/// and leave it as it was; the next run lets SQLite roll it back (the file never held a
/// row) and starts afresh. (Such a file used to be reported as an empty database, and could
/// not be resumed.)
#[test]
fn a_run_killed_while_creating_its_tables_starts_afresh() {
    let dir = tmp();
    let made = dir.path().join("made.sqlite");
    run_ok(&["batch", "run", "--range", "1..3", "--db", s(&made)]);
    let db = dir.path().join("k.sqlite");
    std::fs::copy(&made, &db).unwrap();
    // SQLite's journal header: magic, 0 pages logged, a nonce, the database's size when the
    // transaction began (0 pages), sector size, page size.
    let mut journal = vec![0u8; 512];
    journal[..8].copy_from_slice(&[0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);
    journal[12..16].copy_from_slice(&0x3c7d_6be9u32.to_be_bytes());
    journal[20..24].copy_from_slice(&512u32.to_be_bytes());
    journal[24..28].copy_from_slice(&4096u32.to_be_bytes());
    std::fs::write(sidecar(&db, "-journal"), &journal).unwrap();
    let before = bytes(&db);
    let out = dir.path().join("out.sqlite");
    for args in [
        vec!["batch", "report", s(&db)],
        vec!["batch", "merge", s(&out), s(&made), s(&db)],
    ] {
        let (code, err) = run_err(&args);
        assert_eq!(code, 1, "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains(s(&db)) && err.contains("was being written when its run was stopped"),
            "{err}"
        );
        assert_eq!(bytes(&db), before);
    }
    assert!(!out.exists());
    run_ok(&["batch", "run", "--range", "1..5", "--db", s(&db)]);
    assert_eq!(rows(&db).len(), 5);
    assert!(!sidecar(&db, "-journal").exists());
    // Stopped before the first page was written: an empty file and its journal are named as
    // such, not "not an fcauto batch database", and the next run starts afresh.
    let empty = dir.path().join("e.sqlite");
    std::fs::write(&empty, b"").unwrap();
    std::fs::write(sidecar(&empty, "-journal"), &journal).unwrap();
    let (code, err) = run_err(&["batch", "report", s(&empty)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("was being written when its run was stopped"),
        "{err}"
    );
    run_ok(&["batch", "run", "--range", "1..2", "--db", s(&empty)]);
    assert_eq!(rows(&empty).len(), 2);
}

/// What a merge killed with SIGKILL left beside OUT (its `.OUT.partial-PID` database and
/// log) is removed by the next merge into OUT; the files of a merge whose process still
/// runs, and other files, are kept.
#[test]
fn a_killed_merges_leftovers_are_removed() {
    let dir = tmp();
    let a = dir.path().join("a.sqlite");
    run_ok(&["batch", "run", "--range", "1..3", "--db", s(&a)]);
    let mut gone = Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let stale = [
        format!(".m.sqlite.partial-{dead}"),
        format!(".m.sqlite.partial-{dead}-wal"),
    ];
    let kept = [
        ".m.sqlite.partial-1".to_string(),
        format!(".other.sqlite.partial-{dead}"),
        format!(".m.sqlite.partial-{dead}.txt"),
    ];
    for f in stale.iter().chain(&kept) {
        std::fs::write(dir.path().join(f), b"leftover").unwrap();
    }
    run_ok(&["batch", "merge", s(&dir.path().join("m.sqlite")), s(&a)]);
    let mut want: Vec<String> = kept.to_vec();
    want.extend(["a.sqlite".to_string(), "m.sqlite".to_string()]);
    want.sort();
    assert_eq!(files(dir.path()), want);
}

/// A deal in several inputs counts once in merge's overlap, however many hold it; a run's
/// summary line lists at most 20 deals of a kind; `report --plot` prints the report before
/// it draws, and a picture it cannot write is named in plain words.
#[test]
fn merge_overlap_run_summary_and_plot_errors_in_plain_words() {
    let dir = tmp();
    let a = dir.path().join("a.sqlite");
    // Two workers finish deals out of order; the summary lists them in order.
    let err = run_ok(&[
        "batch",
        "run",
        "--range",
        "1..30",
        "--max-states",
        "1",
        "--threads",
        "2",
        "--db",
        s(&a),
    ]);
    assert!(
        err.contains("unknown 30 [1, 2, 3,") && err.contains("20 and 10 more]"),
        "{err}"
    );
    let m = dir.path().join("m.sqlite");
    let err = run_ok(&["batch", "merge", s(&m), s(&a), s(&a), s(&a)]);
    assert!(err.contains("30 deals stored more than once"), "{err}");
    // A folder where a picture would go is named before any work.
    let pics = dir.path().join("pics");
    std::fs::create_dir_all(pics.join("lengths.png")).unwrap();
    let out = fcauto()
        .args(["batch", "report", s(&m), "--plot", s(&pics)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("it holds lengths.png, which is a folder") && !err.contains("ImageError"),
        "{err}"
    );
}

/// A database holding a row no batch run writes (edited or damaged) is refused by `report`
/// and `merge`, naming the row and what is wrong with it (formerly: deal -5 made the report's
/// range start at 18446744073709551611; a `meta` mode edited over the rows' was reported as
/// the mode).
#[test]
fn rows_no_run_writes_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.sqlite");
    run_ok(&["batch", "run", "--range", "1..6", "--db", s(&good)]);
    for (edit, needle) in [
        (
            "INSERT INTO results SELECT -5, mode, rules, verdict, moves_total, single_card_moves, \
             solution, stopped_by, positions, cpu_ms, version FROM results WHERE deal = 1",
            "the row of deal -5 has no MS deal number",
        ),
        (
            "UPDATE results SET positions = -3 WHERE deal = 2",
            "the row of deal 2 has positions -3, below 0",
        ),
        (
            "UPDATE meta SET value = 'optimal' WHERE key = 'mode'",
            "the row of deal 1 has mode fast, where the database says optimal",
        ),
        (
            "UPDATE results SET solution = NULL WHERE deal = 3",
            "the row of deal 3 has verdict solved but no solution",
        ),
        // Values of another type (formerly: merged as they were, then `report` stopped
        // with rusqlite's "Invalid column type").
        (
            "UPDATE results SET positions = 'abc' WHERE deal = 4",
            "the row of deal 4 has a positions of type text, not integer",
        ),
        (
            "UPDATE results SET moves_total = 98.5 WHERE deal = 2",
            "the row of deal 2 has a moves_total of type real, not integer or null",
        ),
        (
            "UPDATE results SET solution = x'00ff' WHERE deal = 5",
            "the row of deal 5 has a solution of type blob, not text or null",
        ),
        (
            "UPDATE meta SET value = 'other' WHERE key = 'format'",
            "its meta format is `other`, not `fcauto-batch`",
        ),
        // Text that is not UTF-8 (raw conversion errors; `merge` copied it),
        // figures no search reaches (percentiles of 0, "inf CPU hours"), each column named.
        (
            "UPDATE results SET solution = CAST(x'fffe3361' AS TEXT) WHERE deal = 6",
            "the row of deal 6 has a solution holding bytes other than printable ASCII",
        ),
        (
            "UPDATE results SET version = CAST(x'fffe' AS TEXT) WHERE deal = 2",
            "the row of deal 2 has a version holding bytes other than printable ASCII",
        ),
        (
            "UPDATE results SET cpu_ms = 1e14",
            "the row of deal 1 has cpu_ms 100000000000000, more than one deal's search takes",
        ),
        (
            "UPDATE results SET cpu_ms = 1e999 WHERE deal = 3",
            "the row of deal 3 has cpu_ms inf, more than one deal's search takes",
        ),
        (
            "UPDATE results SET cpu_ms = -5 WHERE deal = 3",
            "the row of deal 3 has cpu_ms -5, below 0",
        ),
        (
            "UPDATE results SET moves_total = -3 WHERE deal = 5",
            "the row of deal 5 has moves_total -3: a won game has 52..=10000 moves",
        ),
        (
            "UPDATE results SET single_card_moves = 1 WHERE deal = 5",
            "the row of deal 5 has single_card_moves 1, fewer than its moves_total",
        ),
        (
            "UPDATE results SET solution = '' WHERE deal = 2",
            "the row of deal 2 has a solution `` that is not its moves_total moves",
        ),
        (
            "UPDATE results SET solution = solution || ' 1h' WHERE deal = 2",
            "that is not its moves_total moves, one space apart",
        ),
        (
            "UPDATE results SET stopped_by = 'max_states' WHERE deal = 4",
            "the row of deal 4 has verdict solved with a stopped_by",
        ),
        (
            "UPDATE results SET positions = 9223372036854775807",
            "the row of deal 1 has positions 9223372036854775807, more than any search",
        ),
        (
            "UPDATE meta SET value = x'6661' WHERE key = 'mode'",
            "its meta `mode` is a blob of 2 bytes, not text",
        ),
        (
            "UPDATE meta SET value = '1.5' WHERE key = 'max_states'",
            "its meta `max_states` is `1.5`, not a number of positions, 1..=",
        ),
        ("DROP TABLE meta", "it has no meta table"),
        // A NUL byte (GLOB stops at it), a collation that let `SOLVED` pass,
        // figures and reasons no run writes, a mode no build has, a trigger.
        (
            "UPDATE results SET version = CAST(x'302e312e3000ff' AS TEXT) WHERE deal = 4",
            "the row of deal 4 has a version holding bytes other than printable ASCII",
        ),
        (
            "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, \
             'verdict           TEXT    NOT NULL CHECK', \
             'verdict           TEXT    NOT NULL COLLATE NOCASE CHECK') WHERE name = 'results'; \
             PRAGMA writable_schema = OFF; -- reopen\n UPDATE results SET verdict = 'SOLVED' \
             WHERE deal = 5",
            "the row of deal 5 has verdict SOLVED, which is none of solved",
        ),
        (
            "UPDATE results SET moves_total = 0, single_card_moves = 0 WHERE deal = 2",
            "the row of deal 2 has moves_total 0: a won game has 52..=10000 moves",
        ),
        (
            "UPDATE results SET verdict = 'unknown', moves_total = NULL, single_card_moves = NULL, \
             solution = NULL, stopped_by = 'banana split' WHERE deal = 3",
            "the row of deal 3 has stopped_by banana split, which is no limit a search stops at",
        ),
        (
            "UPDATE meta SET value = 'turbo' WHERE key = 'mode'; UPDATE results SET mode = 'turbo'",
            "its meta `mode` is `turbo`, none of fast, short, optimal",
        ),
        (
            "CREATE TRIGGER t AFTER INSERT ON results BEGIN SELECT RAISE(ABORT, 'boom'); END",
            "it has a trigger no run makes, `t`",
        ),
        // A results table remade without its primary key (formerly: a deal stored twice
        // made the report count 18446744073709551615 missing deals, and `run` stored deals
        // again).
        (
            "ALTER TABLE results RENAME TO r2; CREATE TABLE results(deal INTEGER, mode TEXT, \
             rules TEXT, verdict TEXT, moves_total INTEGER, single_card_moves INTEGER, \
             solution TEXT, stopped_by TEXT, positions INTEGER, cpu_ms REAL, version TEXT); \
             INSERT INTO results SELECT * FROM r2; INSERT INTO results SELECT * FROM r2 \
             WHERE deal = 3; DROP TABLE r2",
            "its results table's column 1 is `deal INTEGER`, not `deal INTEGER PRIMARY KEY`",
        ),
    ] {
        let db = dir.path().join("edited.sqlite");
        std::fs::copy(&good, &db).unwrap();
        // (A schema written through `writable_schema` holds from the next connection on.)
        for part in edit.split("-- reopen\n") {
            Connection::open(&db).unwrap().execute_batch(part).unwrap();
        }
        for args in [
            vec!["batch", "report", s(&db)],
            vec!["batch", "merge", "out.sqlite", s(&db)],
            vec!["batch", "report", "--verify", s(&db)],
        ]
        .into_iter()
        // A run reads the tables and `meta` (rows are for `report` and `merge`).
        .chain(
            needle
                .starts_with("its ")
                .then(|| vec!["batch", "run", "--range", "1..8", "--db", s(&db)]),
        ) {
            let (code, err) = run_err(&args);
            assert_eq!(code, 1, "{edit}");
            assert!(err.contains(needle), "{edit}: {err}");
            assert!(err.contains("the database was edited or damaged"), "{err}");
        }
        std::fs::remove_file(&db).unwrap();
    }
    run_ok(&["batch", "report", s(&good)]);
}

/// A run refuses a database holding a row no run writes (an edited or damaged one), naming
/// the row and what to do, and leaves the file as it was; it was resumed and called complete,
/// and only `report` refused the file.
#[test]
fn a_run_refuses_a_damaged_row_and_leaves_the_file() {
    let dir = tmp();
    let db = dir.path().join("d.sqlite");
    run_ok(&["batch", "run", "--range", "1..30", "--db", s(&db)]);
    let conn = Connection::open(&db).unwrap();
    conn.execute(
        "UPDATE results SET solution = 'zz' || char(1) WHERE deal = 17",
        [],
    )
    .unwrap();
    drop(conn);
    let before = bytes(&db);
    for range in ["1..30", "1..40"] {
        let (code, err) = run_err(&["batch", "run", "--range", range, "--db", s(&db)]);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("the row of deal 17") && err.contains("delete that row"),
            "{err}"
        );
        assert!(!err.contains("shard complete"), "{err}");
        assert_eq!(bytes(&db), before, "the refused run changed the file");
        assert_eq!(files(dir.path()), vec!["d.sqlite".to_string()]);
    }
}

/// The PNG `path`'s pixels: the bytes, width, height and bytes per pixel.
fn pixels(path: &Path) -> (Vec<u8>, usize, usize, usize) {
    let file = std::fs::File::open(path).unwrap();
    let mut reader = png::Decoder::new(file).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut buf).unwrap();
    let px = frame.color_type.samples();
    (buf, frame.width as usize, frame.height as usize, px)
}

/// A run stopped while its log was being copied into the file (formerly: a second SIGTERM
/// during the closing checkpoint) leaves a file that only its log completes: read with the
/// log it is whole, and the next run resumes it (it was called "damaged", from reading the
/// file alone). Made here by writing every page into the log, then spoiling those pages in
/// the file.
#[test]
fn a_file_that_only_its_log_completes_is_resumed() {
    let dir = tmp();
    let db = dir.path().join("w.sqlite");
    let range = "1..40";
    run_ok(&["batch", "run", "--range", "1..20", "--db", s(&db)]);
    let before = rows(&db);
    {
        let c = Connection::open(&db).unwrap();
        c.query_row("PRAGMA journal_mode=WAL", [], |_| Ok(()))
            .unwrap();
        // Each page changed and changed back (an update to the same value writes nothing).
        c.execute_batch(
            "PRAGMA wal_autocheckpoint=0; BEGIN; \
             UPDATE results SET positions = positions + 1; \
             UPDATE results SET positions = positions - 1; \
             UPDATE meta SET value = value || 'x'; \
             UPDATE meta SET value = substr(value, 1, length(value) - 1); COMMIT;",
        )
        .unwrap();
        c.set_db_config(
            rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
            true,
        )
        .unwrap();
    }
    let wal = dir.path().join("w.sqlite-wal");
    assert!(wal.metadata().unwrap().len() > 0, "the log holds the pages");
    // The pages the log holds (its frames: a 24-byte header naming the page, then the page)
    // spoiled in the file, but the first (the file's header): only the log's copies are whole.
    let mut file = std::fs::read(&db).unwrap();
    let size = u16::from_be_bytes([file[16], file[17]]) as usize;
    let log = std::fs::read(&wal).unwrap();
    let mut spoiled = 0;
    for frame in log[32..].chunks_exact(24 + size) {
        let page = u32::from_be_bytes(frame[..4].try_into().unwrap()) as usize;
        if page > 1 && page * size <= file.len() {
            file[(page - 1) * size..page * size].fill(0xA5);
            spoiled += 1;
        }
    }
    assert!(spoiled > 0);
    std::fs::write(&db, &file).unwrap();
    let err = run_ok(&["batch", "run", "--range", range, "--db", s(&db)]);
    assert!(err.contains("20 already in"), "{err}");
    let after = rows(&db);
    assert_eq!(after.len(), 40);
    assert_eq!(after[..20], before[..]);
    run_ok(&["batch", "report", s(&db)]);
}
