//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::process::Command;

/// The `fcauto` binary built for these tests.
pub fn fcauto() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("fcauto").expect("fcauto binary")
}

/// Run `cmd` and return its output, failing the test with its standard error unless it
/// succeeded.
pub fn succeed(cmd: &mut assert_cmd::Command) -> std::process::Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// True when `prog` runs (e.g. fc-solve from Debian's freecell-solver-bin).
pub fn have(prog: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {prog} >/dev/null 2>&1"))
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// In CI (CI=true) a missing reference tool is a failure, elsewhere a skip with a note.
pub fn require(prog: &str) -> bool {
    if have(prog) {
        return true;
    }
    if std::env::var("CI").map(|v| v == "true").unwrap_or(false) {
        panic!("{prog} is required in CI: run scripts/setup-deps.sh");
    }
    eprintln!("note: {prog} not installed; skipping the comparison with it");
    false
}

/// A committed PySolFC screenshot from `tests/fixtures/gui/`.
#[cfg(feature = "gui")]
pub fn fixture_image(name: &str) -> fcauto_automation::gui::image::RgbaImage {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/gui")
        .join(name);
    fcauto_automation::gui::image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgba8()
}

/// Run fcauto with `args`: (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    outcome(fcauto().args(args).output().unwrap())
}

/// Run fcauto with `args` and `stdin` on its standard input: (exit code, stdout, stderr).
pub fn run_in(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    outcome(fcauto().args(args).write_stdin(stdin).output().unwrap())
}

fn outcome(out: std::process::Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Run fcauto with `args`, which must exit 0; its standard output.
pub fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "fcauto {args:?}: {err}");
    out
}
