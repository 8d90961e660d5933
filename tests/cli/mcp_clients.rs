//! `fcauto mcp` with a real client: `scripts/mcp-clients.py` plays deal 617 to a win through
//! the tools with the official MCP Python SDK (PyPI `mcp` 2.x), in MCP 2025-11-25 and
//! 2026-07-28, over stdio and Streamable HTTP. The SDK comes from the venv
//! `scripts/setup-deps.sh --mcp` makes (`$FCAUTO_MCP_VENV`, default
//! `~/.cache/fcauto/mcp-venv`), or `$FCAUTO_MCP_PYTHON`, or a `python3` that has it; without
//! it the test says so and passes.

use std::path::PathBuf;
use std::process::Command;

/// A Python that imports `mcp`, or None.
fn python_with_mcp() -> Option<PathBuf> {
    let venv = std::env::var_os("FCAUTO_MCP_VENV")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/fcauto/mcp-venv"))
        });
    let candidates = [
        std::env::var_os("FCAUTO_MCP_PYTHON").map(PathBuf::from),
        venv.map(|v| v.join("bin/python")),
        Some(PathBuf::from("python3")),
    ];
    candidates.into_iter().flatten().find(|py| {
        Command::new(py)
            .args(["-c", "import mcp.client.client"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[test]
fn the_python_sdk_wins_deal_617_in_both_revisions_over_stdio_and_http() {
    let Some(python) = python_with_mcp() else {
        eprintln!(
            "SKIPPED mcp_clients: the MCP Python SDK (PyPI `mcp` 2.x) is not installed: \
             run scripts/setup-deps.sh --mcp"
        );
        return;
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/mcp-clients.py");
    let out = Command::new(&python)
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_fcauto"))
        .output()
        .expect("python runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{} {script}: {:?}\n{said}\n{}",
        python.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("6 passed, 0 failed"), "{said}");
}
