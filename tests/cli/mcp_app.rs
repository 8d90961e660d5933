//! `fcauto mcp`'s MCP Apps view as a host finds it: the UI extension in the capabilities,
//! `ui://fcauto/board-v1.html` in `resources/list` and `resources/read` with the MCP Apps
//! MIME type and a CSP that allows no outside domain, and the tools that answer a board
//! (`new_game`, `apply_move`, `render_game`) naming it in their `_meta`; over stdio with the
//! 2025-11-25 handshake and over HTTP in 2026-07-28.

use crate::mcp_app_browser::{rpc, start_http, MIME, VIEW_URI};
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

/// The answers of `fcauto mcp` on stdio to `requests` (after the handshake), by id.
fn stdio_answers(requests: &[(u64, &str, Value)]) -> Vec<Value> {
    let mut lines = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "mcp_app test", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    for (id, method, params) in requests {
        lines.push(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_fcauto"))
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for l in &lines {
        writeln!(stdin, "{l}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let answers: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (0..=requests.len() as u64)
        .map(|id| {
            answers
                .iter()
                .find(|a| a["id"] == json!(id))
                .cloned()
                .unwrap_or_else(|| panic!("no answer {id}: {answers:?}"))
        })
        .collect()
}

/// The resource as listed: the view, its MIME type, a CSP with every list empty.
fn check_listed(list: &Value) {
    let res = list["resources"].as_array().unwrap();
    assert_eq!(res.len(), 1, "{list}");
    let view = &res[0];
    assert_eq!(view["uri"], VIEW_URI, "{view}");
    assert_eq!(view["mimeType"], MIME, "{view}");
    let csp = &view["_meta"]["ui"]["csp"];
    for key in ["connectDomains", "resourceDomains", "frameDomains"] {
        assert_eq!(csp[key], json!([]), "{key}: {view}");
    }
}

/// The resource as read: the one page, self-contained, speaking the bridge.
fn check_read(read: &Value) {
    let c = &read["contents"][0];
    assert_eq!(c["uri"], VIEW_URI, "{read}");
    assert_eq!(c["mimeType"], MIME, "{read}");
    assert_eq!(c["_meta"]["ui"]["csp"]["connectDomains"], json!([]));
    let page = c["text"].as_str().unwrap();
    assert!(page.starts_with("<!doctype html>"), "{}", &page[..40]);
    assert!(
        !page.contains("https://") && !page.contains("src="),
        "loads nothing"
    );
    for method in [
        "ui/initialize",
        "ui/notifications/tool-result",
        "tools/call",
    ] {
        assert!(page.contains(method), "{method}");
    }
}

/// The board tools name the view; the others do not.
fn check_tools(list: &Value) {
    for t in list["tools"].as_array().unwrap() {
        let board =
            ["new_game", "apply_move", "render_game"].contains(&t["name"].as_str().unwrap());
        let meta = &t["_meta"];
        if board {
            assert_eq!(meta["ui"]["resourceUri"], VIEW_URI, "{t}");
            assert_eq!(meta["openai/outputTemplate"], VIEW_URI, "{t}");
        } else {
            assert!(meta.get("ui").is_none(), "{t}");
        }
    }
}

#[test]
fn the_view_is_served_and_linked_from_the_board_tools_on_stdio() {
    let a = stdio_answers(&[
        (1, "resources/list", json!({})),
        (2, "resources/read", json!({"uri": VIEW_URI})),
        (3, "tools/list", json!({})),
        (
            4,
            "resources/read",
            json!({"uri": "ui://fcauto/nothing.html"}),
        ),
    ]);
    let ext = &a[0]["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/ui"];
    assert_eq!(ext["mimeTypes"], json!([MIME]), "{}", a[0]);
    assert!(a[0]["result"]["capabilities"]["resources"].is_object());
    check_listed(&a[1]["result"]);
    check_read(&a[2]["result"]);
    check_tools(&a[3]["result"]);
    assert_eq!(a[4]["error"]["code"], -32002, "{}", a[4]);
    assert!(
        a[4]["error"]["message"]
            .as_str()
            .unwrap()
            .contains(VIEW_URI),
        "{}",
        a[4]
    );
}

#[test]
fn the_view_is_served_and_linked_from_the_board_tools_over_http() {
    let s = start_http();
    let d = rpc(&s.url, "server/discover", json!({}));
    assert_eq!(
        d["capabilities"]["extensions"]["io.modelcontextprotocol/ui"]["mimeTypes"],
        json!([MIME]),
        "{d}"
    );
    check_listed(&rpc(&s.url, "resources/list", json!({})));
    check_read(&rpc(&s.url, "resources/read", json!({"uri": VIEW_URI})));
    check_tools(&rpc(&s.url, "tools/list", json!({})));
}

/// The folder where npm installed `node@22` and `@modelcontextprotocol/inspector` 2.x
/// (`npm install node@22 @modelcontextprotocol/inspector@2`): `$FCAUTO_MCP_INSPECTOR`,
/// default `~/.cache/fcauto/mcp-node`; None when its `mcp-inspector` is not there.
fn inspector_dir() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("FCAUTO_MCP_INSPECTOR")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .map(|h| std::path::PathBuf::from(h).join(".cache/fcauto/mcp-node"))
        })?;
    let bin = dir.join("node_modules/.bin");
    (bin.join("mcp-inspector").exists() && bin.join("node").exists()).then_some(dir)
}

/// The official Inspector CLI (`--app-info`) finds the app on the three board tools, with
/// the view's URI, MIME type and empty CSP, and no app on the others.
#[test]
fn the_inspector_cli_sees_the_app_on_the_board_tools() {
    let Some(dir) = inspector_dir() else {
        eprintln!(
            "SKIPPED mcp_app inspector: `npm install node@22 @modelcontextprotocol/inspector@2` \
             in $FCAUTO_MCP_INSPECTOR (default ~/.cache/fcauto/mcp-node)"
        );
        return;
    };
    let bin = dir.join("node_modules/.bin");
    let out = Command::new(bin.join("node"))
        .arg(bin.join("mcp-inspector"))
        .args(["--cli", "--method", "tools/list", "--app-info"])
        .arg(env!("CARGO_BIN_EXE_fcauto"))
        .arg("mcp")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = text
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 8, "{text}");
    for l in &lines {
        let board =
            ["new_game", "apply_move", "render_game"].contains(&l["toolName"].as_str().unwrap());
        assert_eq!(l["hasApp"], board, "{l}");
        if board {
            assert_eq!(l["resourceUri"], VIEW_URI, "{l}");
            assert_eq!(l["resourceMimeType"], MIME, "{l}");
            assert_eq!(l["csp"]["connectDomains"], json!([]), "{l}");
        }
    }
}
