//! `fcauto mcp` in both revisions of MCP it serves, as the JSON-RPC lines a client sends:
//! 2026-07-28 (stateless: no `initialize`, `server/discover`, the protocol version and the
//! client's capabilities in each request's `_meta`, the removed methods "method not found")
//! and 2025-11-25 (the handshake), each connection in the revision its first request chose.

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

/// The `_meta` every request of the stateless revision carries.
fn envelope(version: &str) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// A request of the stateless revision: `params` with the envelope added.
fn stateless(id: i64, method: &str, mut params: Value) -> Value {
    params["_meta"] = envelope("2026-07-28");
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Send `messages` to one `fcauto mcp` and close its stdin: every answer, by id.
fn answers(messages: &[Value]) -> BTreeMap<i64, Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fcauto"))
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input: String = messages.iter().map(|m| format!("{m}\n")).collect();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|a| (a["id"].as_i64().unwrap(), a))
        .collect()
}

/// The error code of an answer (panics on a result).
fn code(a: &Value) -> i64 {
    a["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("an error: {a}"))
}

/// With no `initialize`: `server/discover` says what the revision requires (the versions,
/// the capabilities, the server's identity); tools are listed and called with the
/// envelope; `ping` and `logging/setLevel` (removed) are method not found; a request
/// without the envelope, or with a version not served, is refused; `initialize` afterwards
/// is an unsupported protocol version naming the versions served without it.
#[test]
fn the_stateless_revision_is_served_without_initialize() {
    let a = answers(&[
        stateless(1, "server/discover", json!({})),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {
            "_meta": envelope("2099-01-01")}}),
        stateless(3, "tools/list", json!({})),
        stateless(
            4,
            "tools/call",
            json!({"name": "new_game", "arguments": {"deal": 617}}),
        ),
        stateless(5, "ping", json!({})),
        stateless(6, "logging/setLevel", json!({"level": "info"})),
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 8, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}}),
        stateless(
            9,
            "tools/call",
            json!({"name": "no_such_tool", "arguments": {}}),
        ),
    ]);
    let discover = &a[&1]["result"];
    let versions = discover["supportedVersions"].as_array().unwrap();
    assert!(versions.contains(&json!("2026-07-28")), "{discover}");
    assert!(versions.contains(&json!("2025-11-25")), "{discover}");
    assert!(discover["capabilities"]["tools"].is_object(), "{discover}");
    assert_eq!(
        discover["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "fcauto"
    );
    assert_eq!(code(&a[&2]), -32022, "{}", a[&2]);
    assert_eq!(a[&3]["result"]["tools"].as_array().unwrap().len(), 8);
    let game = &a[&4]["result"]["structuredContent"];
    assert!(game["position"].is_string(), "{}", a[&4]);
    assert_eq!(code(&a[&5]), -32601);
    assert_eq!(code(&a[&6]), -32601);
    assert_eq!(code(&a[&7]), -32602);
    assert!(a[&7]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("io.modelcontextprotocol/protocolVersion"));
    assert_eq!(code(&a[&8]), -32022);
    assert_eq!(a[&8]["error"]["data"]["supported"], json!(["2026-07-28"]));
    assert_eq!(code(&a[&9]), -32602);
}

/// After `initialize`, requests go without `_meta` and `ping` is answered; a request
/// naming 2026-07-28 in `_meta` is refused (the connection serves the handshake's
/// version); `server/discover` before anything decides nothing.
#[test]
fn the_handshake_revision_is_served_after_initialize() {
    let a = answers(&[
        stateless(1, "server/discover", json!({})),
        json!({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {}}),
        stateless(5, "tools/list", json!({})),
    ]);
    assert!(a[&1]["result"]["supportedVersions"].is_array(), "{}", a[&1]);
    assert_eq!(a[&2]["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(a[&3]["result"], json!({}));
    assert_eq!(a[&4]["result"]["tools"].as_array().unwrap().len(), 8);
    assert_eq!(code(&a[&5]), -32600);
}

/// A request whose `_meta` names 2025-11-25 (a version with the handshake, which names its
/// version once, in `initialize`) is refused with `-32600` before the connection is
/// opened, and on a stateless one; it does not open either revision, so an `initialize`
/// after it opens the handshake.
#[test]
fn a_handshake_version_in_meta_is_refused_and_opens_nothing() {
    let old = |id: i64, method: &str| {
        json!({"jsonrpc": "2.0", "id": id, "method": method,
               "params": {"_meta": envelope("2025-11-25")}})
    };
    let a = answers(&[
        old(1, "tools/list"),
        json!({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}),
    ]);
    assert_eq!(code(&a[&1]), -32600, "{}", a[&1]);
    assert!(a[&1]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("initialize"));
    assert_eq!(
        a[&2]["result"]["protocolVersion"], "2025-11-25",
        "{}",
        a[&2]
    );
    assert_eq!(a[&3]["result"], json!({}));
    let b = answers(&[stateless(1, "tools/list", json!({})), old(2, "tools/list")]);
    assert!(b[&1]["result"]["tools"].is_array(), "{}", b[&1]);
    assert_eq!(code(&b[&2]), -32600, "{}", b[&2]);
}
