//! `fcauto bench` end to end: its summary lines, its JSON (streamed rows, percentiles), the
//! data behind `--plot` and, with the `plot` feature, the picture.

use crate::common;
use common::{fcauto, require, succeed};

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

/// A preset fc-solve does not have is refused before anything runs, with the choices.
#[test]
fn an_unknown_fc_solve_preset_is_a_usage_error() {
    if !require("freecell-solver-range-parallel-solve") {
        return;
    }
    for (preset, needle) in [
        ("nosuch", "fc-solve has no preset `nosuch`"),
        ("-x", "`-x` is not a preset name"),
    ] {
        let out = fcauto()
            .args(["bench", "--range", "1..2", "--vs-fc-solve"])
            .arg(format!("--fc-solve-preset={preset}"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{preset}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(needle), "{err}");
        assert!(out.stdout.is_empty(), "nothing solved");
    }
    let err = fcauto()
        .args([
            "bench",
            "--range",
            "1..2",
            "--vs-fc-solve",
            "--fc-solve-preset",
            "nosuch",
        ])
        .output()
        .unwrap()
        .stderr;
    let err = String::from_utf8(err).unwrap();
    assert!(err.contains("lg") && err.contains("ve"), "{err}");
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

/// Outputs that cannot work are refused before any deal is solved (exit 2, nothing
/// written): two outputs on one path (however spelt), and (with the `plot` feature) a picture name that is
/// not a PNG's.
#[test]
fn outputs_that_cannot_work_are_refused_first() {
    let dir = tempfile::tempdir().unwrap();
    let same = dir.path().join("out.json");
    let same = same.to_str().unwrap();
    let mut cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--json", same, "--plot-data", same],
            "two outputs would be written to",
        ),
        (
            vec!["--json", "-", "--plot-data", "-"],
            "two outputs would be written to standard output",
        ),
        // One file spelt two ways (relative to the working folder, and absolute).
        (
            vec!["--json", "./out.json", "--plot-data", same],
            "two outputs would be written to",
        ),
    ];
    if cfg!(feature = "plot") {
        cases.push((vec!["--plot", "chart.svg"], "ending in .png"));
    }
    for (extra, needle) in cases {
        let out = fcauto()
            .current_dir(dir.path())
            .args(["bench", "--range", "1..2000"])
            .args(&extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(needle), "{extra:?}: {err}");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "{extra:?}"
        );
    }
}

/// A `--json` path through a file, or through a folder that is not there, is refused by
/// name before any deal is solved.
#[test]
fn a_json_path_through_a_file_or_a_missing_folder_is_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("afile"), b"mine").unwrap();
    for (path, needle) in [
        (
            "afile/x.json",
            "cannot write afile/x.json: afile is a file, not a folder",
        ),
        ("afile/sub/x.json", "afile is a file, not a folder"),
        (
            "nodir/x.json",
            "cannot write nodir/x.json: folder nodir does not exist",
        ),
    ] {
        let out = fcauto()
            .current_dir(dir.path())
            .args(["bench", "--range", "1..2000", "--json", path])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{path}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(needle), "{path}: {err}");
    }
    assert_eq!(std::fs::read(dir.path().join("afile")).unwrap(), b"mine");
    // A file that cannot be made (in /proc, even for root) is named before the run, for
    // each output (formerly: --plot-data and --plot failed only after the run).
    if cfg!(target_os = "linux") {
        for option in ["--json", "--plot-data"] {
            let out = fcauto()
                .args(["bench", "--range", "1..2000", option, "/proc/fcauto-x.csv"])
                .output()
                .unwrap();
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(out.status.code(), Some(1), "{option}: {err}");
            assert!(
                err.contains("cannot write /proc/fcauto-x.csv") && !err.contains("solved"),
                "{option}: {err}"
            );
        }
    }
}

/// `--json` through a symbolic link replaces the file it leads to (the link stays) with that
/// file's permissions; into a FIFO it writes, leaving the FIFO (formerly: both were
/// replaced by a new regular file, the link's target left stale, a private file made
/// readable by all).
#[cfg(unix)]
#[test]
fn json_through_a_link_or_into_a_fifo_keeps_them() {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let (real, link) = (dir.path().join("real.json"), dir.path().join("link.json"));
    let bench_into = |p: &std::path::Path| {
        succeed(
            fcauto()
                .args(["bench", "--range", "1..3", "--threads", "1", "--json"])
                .arg(p),
        )
    };
    // An earlier run's JSON (a file of another kind is not replaced: below).
    bench_into(&real);
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink("real.json", &link).unwrap();
    bench_into(&link);
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&real).unwrap()).unwrap();
    assert_eq!(json["rows"].as_array().unwrap().len(), 3);
    let mode = real.metadata().unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("no mkfifo: FIFO case skipped");
        return;
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    bench_into(&fifo);
    let json: serde_json::Value = serde_json::from_str(&reader.join().unwrap()).unwrap();
    assert_eq!(json["rows"].as_array().unwrap().len(), 3);
    assert!(fifo.symlink_metadata().unwrap().file_type().is_fifo());
}

/// The folder of Debian's fc-solve programs: where `PATH` finds the range solver, when that
/// is under `/usr/` and holds `fc-solve` too.
fn debian_bin() -> Option<String> {
    let out = std::process::Command::new("sh")
        .args(["-c", "command -v freecell-solver-range-parallel-solve"])
        .output()
        .ok()?;
    let path = std::fs::canonicalize(String::from_utf8(out.stdout).ok()?.trim()).ok()?;
    let dir = path.parent()?;
    (path.starts_with("/usr/") && dir.join("fc-solve").exists()).then(|| dir.display().to_string())
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
    // Debian's build: it prints its solutions (a native build found next to fcauto's target
    // dir may not, and would be timed by its range solver only).
    let Some(bin) = debian_bin() else {
        return;
    };
    let args = ["--range", "1..30", "--vs-fc-solve", "--fc-solve-bin", &bin];
    let (code, v) = bench_json(&args);
    assert_eq!(code, Some(0), "{v}");
    let s = &v["summary"];
    let fc = &s["fc_solve"];
    assert_eq!(fc["preset"], "lg", "{fc}");
    assert_eq!(fc["solved"], 30, "{fc}");
    assert_eq!(fc["range_not_solved"], serde_json::json!([]), "{fc}");
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
    let (_, v29) = bench_json(&["--range", "1..29", "--vs-fc-solve", "--fc-solve-bin", &bin]);
    assert!(
        iters > v29["summary"]["fc_solve"]["iterations"].as_u64().unwrap(),
        "{fc}"
    );
    // Iterations per deal: the differences of its cumulative count, one per deal.
    let per_deal = &fc["iterations_per_deal"];
    assert_eq!(per_deal["count"], 30, "{fc}");
    assert_eq!(per_deal["sum"].as_f64(), Some(iters as f64), "{fc}");
    assert!(per_deal["p50"].as_f64().unwrap() <= per_deal["p99"].as_f64().unwrap());
    assert_eq!(fc["range_ms_per_deal"]["count"], 30, "{fc}");
    let moves = s["moves_ratio_vs_fc_solve"].as_f64().unwrap();
    let want =
        s["moves_total"]["mean"].as_f64().unwrap() / fc["moves_total"]["mean"].as_f64().unwrap();
    assert!((moves - want).abs() < 1e-9, "{s}");
}

/// `--fc-solve-range-only` runs the range solver alone: its CPU time, iterations and
/// verdicts (11982 is impossible), and no lengths, per-board time or moves ratio.
#[test]
fn fc_solve_range_only_skips_the_per_board_runs() {
    if !common::require("fc-solve") {
        return;
    }
    let args = [
        "--range",
        "11981..11983",
        "--vs-fc-solve",
        "--fc-solve-range-only",
    ];
    let (code, v) = bench_json(&args);
    assert_eq!(code, Some(0), "{v}");
    let s = &v["summary"];
    let fc = &s["fc_solve"];
    assert_eq!(fc["range_not_solved"], serde_json::json!([11982]), "{fc}");
    assert_eq!(fc["not_solved"], serde_json::json!([11982]), "{fc}");
    assert_eq!(fc["solved"], 2, "{fc}");
    assert_eq!(fc["iterations_per_deal"]["count"], 3, "{fc}");
    assert!(fc["per_board_cpu_s"].is_null(), "{fc}");
    assert!(fc["moves_total"].is_null(), "{fc}");
    assert!(s["moves_ratio_vs_fc_solve"].is_null(), "{s}");
    assert!(s["cpu_ratio_vs_fc_solve_per_board"].is_null(), "{s}");
    assert!(s["cpu_ratio_vs_fc_solve"].as_f64().unwrap() > 0.0, "{s}");
    // Every deal solved: the ratio needs no warning. With deals left to a limit, it is said to
    // compare unequal work (formerly: `--max-states 1` gave 0.001 with no word).
    let text = |extra: &[&str]| {
        let out = fcauto()
            .arg("bench")
            .args(args)
            .args(extra)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(!text(&[]).contains("unequal work"));
    let limited = text(&["--max-states", "1"]);
    assert!(
        limited.contains("(fcauto left 3 deals to a limit: the CPU ratio compares unequal work)"),
        "{limited}"
    );
    // Without --vs-fc-solve the flag is refused.
    let out = fcauto()
        .args(["bench", "--range", "1..2", "--fc-solve-range-only"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `--fc-solve-bin DIR` with a folder that lacks the fc-solve programs is a usage error
/// naming the missing program and the build script, before any deal is solved; so is a
/// path that is not a folder, and the flag (with a folder that holds them) without
/// `--vs-fc-solve`.
#[test]
fn fc_solve_bin_without_the_programs_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().to_str().unwrap();
    let missing = dir.path().join("nosuch");
    for (folder, needle) in [
        (empty.to_string(), "fc-solve not found in"),
        (missing.display().to_string(), "is not a folder"),
    ] {
        let out = fcauto()
            .args(["bench", "--range", "1..2", "--vs-fc-solve"])
            .args(["--fc-solve-bin", &folder])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(needle), "{err}");
        assert!(String::from_utf8(out.stdout).unwrap().is_empty());
    }
    // A folder that holds them, without --vs-fc-solve: refused too.
    let Some(bin) = debian_bin() else {
        return;
    };
    let err = fcauto()
        .args(["bench", "--range", "1..2", "--fc-solve-bin", &bin])
        .output()
        .unwrap();
    assert_eq!(err.status.code(), Some(2));
    let err = String::from_utf8(err.stderr).unwrap();
    assert!(err.contains("--vs-fc-solve"), "{err}");
}

/// The summary names the fc-solve build it timed: with Debian's programs (`--fc-solve-bin`
/// the folder `PATH` finds them in), "Debian's" and the range solver's path, in the text and
/// in the JSON.
#[test]
fn the_summary_names_the_fc_solve_build() {
    if !require("freecell-solver-range-parallel-solve") || !require("fc-solve") {
        return;
    }
    let Some(bin) = debian_bin() else {
        return;
    };
    let range_solver = std::path::Path::new(&bin).join("freecell-solver-range-parallel-solve");
    let bin = bin.as_str();
    let args = [
        "--range",
        "1..2",
        "--vs-fc-solve",
        "--fc-solve-range-only",
        "--fc-solve-bin",
        bin,
    ];
    let (code, v) = bench_json(&args);
    assert_eq!(code, Some(0), "{v}");
    let fc = &v["summary"]["fc_solve"];
    assert_eq!(fc["build"], "Debian's", "{fc}");
    assert_eq!(
        fc["range_solver"],
        range_solver.display().to_string(),
        "{fc}"
    );
    let out = fcauto().arg("bench").args(args).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line = format!(
        "fc-solve -l lg on the same deals (Debian's: {}):",
        range_solver.display()
    );
    assert!(text.contains(&line), "{text}");
}

/// `--repeat N` times both programs N times: N timed runs listed, the CPU ratio over their
/// sums, the rows of one run only; it needs --vs-fc-solve and a count of 1..=100.
#[test]
fn repeat_times_both_programs_and_takes_the_ratio_over_the_sums() {
    if !common::require("fc-solve") {
        return;
    }
    let args = [
        "--range",
        "1..20",
        "--vs-fc-solve",
        "--fc-solve-range-only",
        "--repeat",
        "3",
    ];
    let (code, v) = bench_json(&args);
    assert_eq!(code, Some(0), "{v}");
    let s = &v["summary"];
    let runs = s["timing_runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3, "{s}");
    let (mut ours, mut theirs) = (0.0, 0.0);
    for r in runs {
        let (o, t) = (
            r["fcauto_cpu_s"].as_f64().unwrap(),
            r["fc_solve_cpu_s"].as_f64().unwrap(),
        );
        assert!(o > 0.0 && t > 0.0, "{r}");
        (ours, theirs) = (ours + o, theirs + t);
    }
    // fc-solve's figures come from its first run, ours from our last.
    assert_eq!(runs[2]["fcauto_cpu_s"], s["cpu_s"], "{s}");
    assert_eq!(runs[0]["fc_solve_cpu_s"], s["fc_solve"]["cpu_s"], "{s}");
    let ratio = s["cpu_ratio_vs_fc_solve"].as_f64().unwrap();
    assert!((ratio - ours / theirs).abs() < 1e-6, "{s}");
    assert_eq!(v["rows"].as_array().unwrap().len(), 20, "{v}");
    // The text summary lists the runs.
    let out = fcauto()
        .args(["bench", "--threads", "1"])
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("timed runs"))
        .unwrap_or_else(|| panic!("{text}"));
    let listed = line.split_once(": ").unwrap().1.split(';').next().unwrap();
    assert_eq!(listed.split(", ").count(), 3, "{line}");
    // Without --vs-fc-solve, or with a count out of range, a usage error.
    for bad in [
        &["bench", "--range", "1..2", "--repeat", "2"][..],
        &["bench", "--range", "1..2", "--vs-fc-solve", "--repeat", "0"],
        &[
            "bench",
            "--range",
            "1..2",
            "--vs-fc-solve",
            "--repeat",
            "101",
        ],
    ] {
        let out = fcauto().args(bad).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}

/// The k-th smallest of `v` (sorted), k = ceil(n p): the summary's percentile rule.
fn percentile(sorted: &[u64], p: f64) -> f64 {
    let k = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len());
    sorted[k - 1] as f64
}

/// The rows come in deal order; the summary's positions and CPU per deal are those of the
/// rows; `--plot-data` holds one line per distinct value with its deals and the share of
/// deals above it; the text summary prints the same percentiles.
#[test]
fn percentiles_and_plot_data_match_the_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (json, csv) = (dir.path().join("b.json"), dir.path().join("b.csv"));
    let out = fcauto()
        .args(["bench", "--range", "1..150", "--threads", "2", "--json"])
        .arg(&json)
        .arg("--plot-data")
        .arg(&csv)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let rows = v["rows"].as_array().unwrap();
    let deals: Vec<u64> = rows.iter().map(|r| r["deal"].as_u64().unwrap()).collect();
    assert_eq!(deals, (1..=150).collect::<Vec<u64>>());
    let mut expanded: Vec<u64> = rows
        .iter()
        .map(|r| r["expanded"].as_u64().unwrap())
        .collect();
    expanded.sort_unstable();
    let s = &v["summary"];
    let pos = &s["positions"];
    assert_eq!(pos["count"], 150, "{pos}");
    for (key, p) in [("p50", 0.5), ("p90", 0.9), ("p99", 0.99)] {
        assert_eq!(
            pos[key].as_f64(),
            Some(percentile(&expanded, p)),
            "{key}: {pos}"
        );
    }
    let sum: u64 = expanded.iter().sum();
    assert_eq!(pos["max"].as_f64(), Some(*expanded.last().unwrap() as f64));
    assert!((pos["mean"].as_f64().unwrap() - sum as f64 / 150.0).abs() < 1e-9);
    assert_eq!(s["expanded"], sum);
    // CPU per deal: every row's thread CPU time counted; the max is exact.
    let cpu_max = rows
        .iter()
        .map(|r| r["cpu_ms"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert_eq!(s["cpu_ms"]["count"], 150);
    assert_eq!(s["cpu_ms"]["max"].as_f64(), Some(cpu_max));
    assert!(
        text.contains(&format!(
            "  positions per deal:   mean {:.1}, p50 {}, p90 {}, p99 {}, max {}\n",
            sum as f64 / 150.0,
            percentile(&expanded, 0.5),
            percentile(&expanded, 0.9),
            percentile(&expanded, 0.99),
            expanded.last().unwrap()
        )),
        "{text}"
    );
    assert!(text.contains("  CPU per deal:         mean "), "{text}");
    // The two CPU figures say what each counts.
    let line = |start: &str| text.lines().find(|l| l.starts_with(start)).unwrap_or("");
    assert!(
        line("  CPU per deal:").ends_with("(each deal's solving thread)"),
        "{text}"
    );
    assert!(
        line("  CPU time:").contains("the whole process over the run"),
        "{text}"
    );

    // The plot's data: fcauto's positions only (no fc-solve in this run).
    let csv = std::fs::read_to_string(&csv).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("series,metric,value,deals,share_above"));
    let mut seen = 0u64;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(&f[..2], ["fcauto", "positions"], "{line}");
        let value: u64 = f[2].parse().unwrap();
        let n: u64 = f[3].parse().unwrap();
        let above: f64 = f[4].parse().unwrap();
        assert_eq!(
            n,
            expanded.iter().filter(|x| **x == value).count() as u64,
            "{line}"
        );
        let more = expanded.iter().filter(|x| **x > value).count();
        assert!((above - more as f64 / 150.0).abs() < 1e-12, "{line}");
        // Fractions to 12 significant digits, without binary noise (as the JSON).
        let digits = f[4]
            .trim_start_matches("0.")
            .trim_start_matches('0')
            .replace('.', "");
        assert!(digits.len() <= 12, "{line}");
        seen += n;
    }
    assert_eq!(seen, 150);
}

/// `--json -`: the whole document on standard output (rows streamed, summary last), the
/// text summary on standard error; `--plot-metric cpu` data counts every deal's CPU time.
#[test]
fn json_to_standard_output_and_cpu_plot_data() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("cpu.csv");
    let out = fcauto()
        .args([
            "bench",
            "--range",
            "20..29",
            "--threads",
            "2",
            "--json",
            "-",
        ])
        .args(["--plot-metric", "cpu", "--plot-data"])
        .arg(&csv)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rows"].as_array().unwrap().len(), 10);
    assert_eq!(v["summary"]["solved"], 10);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("fcauto bench, deals 20..29"), "{err}");
    let csv = std::fs::read_to_string(&csv).unwrap();
    let deals: u64 = csv
        .lines()
        .skip(1)
        .map(|l| {
            assert!(l.starts_with("fcauto,cpu_ms,"), "{l}");
            l.split(',').nth(3).unwrap().parse::<u64>().unwrap()
        })
        .sum();
    assert_eq!(deals, 10);
}

/// `--plot-data -`: the CSV on standard output (no file named `-`), the text summary on
/// standard error.
#[test]
fn plot_data_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = fcauto()
        .current_dir(dir.path())
        .args(["bench", "--range", "1..5", "--plot-data", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let csv = String::from_utf8(out.stdout).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("series,metric,value,deals,share_above"),
        "{csv}"
    );
    let deals: u64 = lines
        .map(|l| {
            assert!(l.starts_with("fcauto,positions,"), "{l}");
            l.split(',').nth(3).unwrap().parse::<u64>().unwrap()
        })
        .sum();
    assert_eq!(deals, 5);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("fcauto bench, deals 1..5"), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// `--plot-metric` without `--plot` or `--plot-data` would draw nothing: a usage error
/// naming them, before any work (formerly: it was silently ignored).
#[test]
fn plot_metric_needs_a_plot() {
    let out = fcauto()
        .args(["bench", "--range", "1..2", "--plot-metric", "cpu"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--plot <FILE.png>|--plot-data <FILE.csv>"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

/// `--plot FILE.png` with the `plot` feature: a PNG that decodes, of the chart's size.
#[cfg(feature = "plot")]
#[test]
fn plot_writes_a_png() {
    let dir = tempfile::tempdir().unwrap();
    for metric in ["positions", "cpu"] {
        let png = dir.path().join(format!("{metric}.png"));
        let out = fcauto()
            .args([
                "bench",
                "--range",
                "1..40",
                "--plot-metric",
                metric,
                "--plot",
            ])
            .arg(&png)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let decoder = png::Decoder::new(std::fs::File::open(&png).unwrap());
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (1200, 720), "{metric}");
        // Not blank: the curves and text put many colours in it.
        let distinct: std::collections::HashSet<&[u8]> = buf.chunks(3).collect();
        assert!(distinct.len() > 20, "{metric}: {} colours", distinct.len());
        // Marked as fcauto's, as its other pictures (formerly: it was not).
        let software = reader.info().uncompressed_latin1_text.iter();
        let marks: Vec<&str> = software
            .filter(|t| t.keyword == "Software")
            .map(|t| t.text.as_str())
            .collect();
        assert_eq!(marks, ["fcauto bench"], "{metric}");
    }
    // `-` is not a file for a PNG.
    let out = fcauto()
        .args(["bench", "--range", "1..2", "--plot", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `--plot` in a build without the `plot` feature: exit 2 before solving, naming the feature.
#[cfg(not(feature = "plot"))]
#[test]
fn plot_without_the_feature_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("p.png");
    let out = fcauto()
        .args(["bench", "--range", "1..1000000", "--plot"])
        .arg(&png)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("cargo feature `plot`"), "{err}");
    assert!(err.contains("--features plot"), "{err}");
    assert!(!png.exists());
}

/// `bench` over a long range writing `--json out.json` in `dir`, to be stopped by the test.
fn long_json_run(dir: &std::path::Path) -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("fcauto"))
        .current_dir(dir)
        .args(["bench", "--range", "1..1000000", "--threads", "1"])
        .args(["--json", "out.json"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// The names in `dir`, sorted.
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A run stopped by SIGTERM, Ctrl-C (SIGINT) or SIGHUP while writing `--json FILE` removes
/// its hidden temporary file and writes no FILE: the folder is left as it was; it exits
/// 128 + the signal (formerly: 130 for each).
#[test]
fn an_interrupted_json_run_leaves_no_partial_file() {
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        let dir = tempfile::tempdir().unwrap();
        let mut child = long_json_run(dir.path());
        let names = || names_in(dir.path());
        let start = std::time::Instant::now();
        while !names().iter().any(|n| n.starts_with(".out.json.partial-")) {
            assert!(
                start.elapsed().as_secs() < 30,
                "no partial file: {:?}",
                names()
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // SAFETY: kill(2) on the child we started and have not reaped.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(128 + signal), "signal {signal}");
        assert!(names().is_empty(), "signal {signal}: {:?}", names());
    }
}

/// What a `--json FILE` run killed with SIGKILL left (its hidden `.FILE.partial-PID`, which
/// no handler can remove) is removed by the next run writing FILE; a file of a run whose
/// process still runs, and other files, are kept (formerly: a killed run's file stayed,
/// growing 0.75 MB a second while it ran).
#[test]
fn a_killed_json_runs_leftover_is_removed_by_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = long_json_run(dir.path());
    let leftover = dir.path().join(format!(".out.json.partial-{}", child.id()));
    let start = std::time::Instant::now();
    while !leftover.exists() {
        assert!(start.elapsed().as_secs() < 30, "no temporary file");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(leftover.exists(), "SIGKILL leaves it");
    let live = format!(".out.json.partial-{}", std::process::id());
    for f in [
        live.as_str(),
        ".other.json.partial-1",
        ".out.json.partial-x",
    ] {
        std::fs::write(dir.path().join(f), b"kept").unwrap();
    }
    let out = fcauto()
        .current_dir(dir.path())
        .args(["bench", "--range", "1..3", "--json", "out.json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let names = names_in(dir.path());
    let mut want = vec![
        live,
        ".other.json.partial-1".to_string(),
        ".out.json.partial-x".to_string(),
        "out.json".to_string(),
    ];
    want.sort();
    assert_eq!(names, want);
}

/// `--plot` naming a folder is refused as a folder by the shared output-path check (exit 1,
/// as for a missing folder or a `--json` folder), not as a name without `.png` (exit 2).
#[cfg(feature = "plot")]
#[test]
fn a_plot_path_that_is_a_folder_is_refused_like_other_outputs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("charts")).unwrap();
    for (args, needle) in [
        (["--plot", "charts"], "cannot write charts: it is a folder"),
        (["--json", "charts"], "cannot write charts: it is a folder"),
        (
            ["--plot", "nodir/p.png"],
            "cannot write nodir/p.png: folder nodir does not exist",
        ),
    ] {
        let out = fcauto()
            .current_dir(dir.path())
            .args(["bench", "--range", "1..2000"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// The progress line (drawn when standard error is a terminal, here a pseudo-terminal)
/// gives the rate to about three significant figures (`1496/s`, `45.6/s`), not indicatif's
/// four decimals (`1,496.1234/s`).
#[test]
fn the_progress_rate_has_a_sensible_precision() {
    use std::io::Read;
    use std::os::fd::FromRawFd;
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty(3) fills the two descriptors; no name, settings or size are passed.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    if rc != 0 {
        eprintln!("note: no pseudo-terminal here; skipping");
        return;
    }
    // SAFETY: both descriptors were just opened by openpty and are owned here alone.
    let (mut master, slave) = unsafe {
        (
            std::fs::File::from_raw_fd(master),
            std::fs::File::from_raw_fd(slave),
        )
    };
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("fcauto"))
        .args(["bench", "--range", "1..6000", "--threads", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(slave)
        .spawn()
        .unwrap();
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        // Ends with EIO once the child, the last holder of the terminal's other end, exits.
        let _ = master.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    });
    assert!(child.wait().unwrap().success());
    let text = reader.join().unwrap();
    let rates: Vec<&str> = text
        .split(" deals, ")
        .skip(1)
        .filter_map(|rest| rest.split(", eta").next())
        .collect();
    assert!(!rates.is_empty(), "no progress line in {text:?}");
    for r in rates {
        let n = r.strip_suffix("/s").unwrap_or_else(|| panic!("{r:?}"));
        let value: f64 = n.parse().unwrap_or_else(|_| panic!("{r:?}"));
        let decimals = n.split_once('.').map_or(0, |(_, d)| d.len());
        // Three significant figures: none after the point from 100 on (100.0 may be 99.96
        // rounded), at most two below.
        assert!(decimals <= 2, "{r:?}");
        assert!(value <= 100.0 || decimals == 0, "{r:?}");
        assert!(value >= 10.0 || decimals == 2, "{r:?}");
    }
}

/// An existing `--json`, `--plot-data` or `--plot` file is replaced only when a `bench` run
/// wrote it (its JSON opening, CSV header, chart mark), or with `--force`; a file of yours
/// is refused before any solving and left as it was (formerly: all three were replaced).
#[test]
fn an_output_file_of_yours_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    for (option, name) in [
        ("--json", "mine.json"),
        ("--plot-data", "mine.csv"),
        ("--plot", "mine.png"),
    ] {
        if option == "--plot" && !cfg!(feature = "plot") {
            continue;
        }
        std::fs::write(at(name), "my data\n").unwrap();
        let out = fcauto()
            .args(["bench", "--range", "1..3", "--threads", "1", option])
            .arg(at(name))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{option}: {err}");
        assert!(err.contains(name) && err.contains("--force"), "{err}");
        assert!(!err.contains("solved:"), "refused before solving: {err}");
        assert_eq!(std::fs::read_to_string(at(name)).unwrap(), "my data\n");
    }
    // A run's own files are replaced by the next run; --force replaces any.
    let run = |json: &str, force: bool| {
        let mut c = fcauto();
        c.args(["bench", "--range", "1..3", "--threads", "1", "--json"])
            .arg(at(json))
            .arg("--plot-data")
            .arg(at("b.csv"));
        if force {
            c.arg("--force");
        }
        succeed(&mut c);
    };
    run("b.json", false);
    run("b.json", false);
    run("mine.json", true);
    assert!(std::fs::read_to_string(at("mine.json"))
        .unwrap()
        .starts_with("{"));
}
