//! `fcauto mcp --http` on an ephemeral loopback port, with a real HTTP client (ureq): both
//! revisions at `/mcp`, and bad input (a body that is not JSON, one over the cap, an unknown
//! method, a foreign `Host` or `Origin`, a non-loopback address without `--allow-remote`,
//! 50 clients at once) answered clearly with the server still up.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A server on an ephemeral loopback port, stopped when dropped.
struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT/mcp`.
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Server {
    start_with(&[])
}

/// Start `fcauto mcp --http 127.0.0.1:0` with `more` arguments and wait until it listens.
fn start_with(more: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fcauto"))
        .args(["mcp", "--http", "127.0.0.1:0"])
        .args(more)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    err.read_line(&mut line).unwrap();
    std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("{line}"))
        .to_string();
    assert!(url.ends_with("/mcp"), "{line}");
    Server { child, url }
}

/// The `_meta` of a 2026-07-28 request.
fn envelope() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
           "io.modelcontextprotocol/clientCapabilities": {}})
}

/// POST `body` with MCP's headers (and `extra` ones); the status and the body as JSON
/// (null when it is not JSON).
fn post(url: &str, body: &str, extra: &[(&str, &str)]) -> (u16, Value) {
    let mut req = ureq::post(url)
        .set("Content-Type", "application/json")
        .set("Accept", "application/json, text/event-stream");
    for (k, v) in extra {
        req = req.set(k, v);
    }
    let r = match req.send_string(body) {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{e}"),
    };
    let status = r.status();
    let text = r.into_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A 2026-07-28 request, with the headers the revision puts on HTTP.
fn stateless(url: &str, id: i64, method: &str, mut params: Value) -> (u16, Value) {
    params["_meta"] = envelope();
    let name = params["name"].as_str().unwrap_or_default().to_string();
    let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let mut headers = vec![
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
    ];
    if !name.is_empty() {
        headers.push(("Mcp-Name", &name));
    }
    post(url, &msg.to_string(), &headers)
}

#[test]
fn both_revisions_are_served_over_http() {
    let s = start();
    let (status, d) = stateless(&s.url, 1, "server/discover", json!({}));
    assert_eq!(status, 200, "{d}");
    let versions = &d["result"]["supportedVersions"];
    assert!(
        versions.as_array().unwrap().contains(&json!("2026-07-28")),
        "{d}"
    );
    let args = json!({"name": "new_game", "arguments": {"deal": 617}});
    let (status, r) = stateless(&s.url, 2, "tools/call", args);
    assert_eq!(status, 200, "{r}");
    let position = r["result"]["structuredContent"]["position"].clone();
    assert!(position.is_string(), "{r}");

    let init = json!({"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}});
    let (status, r) = post(&s.url, &init.to_string(), &[]);
    assert_eq!(
        (status, &r["result"]["protocolVersion"]),
        (200, &json!("2025-11-25")),
        "{r}"
    );
    let call = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
        "name": "apply_move", "arguments": {"position": position, "move": "ah"}}});
    let (status, r) = post(
        &s.url,
        &call.to_string(),
        &[("MCP-Protocol-Version", "2025-11-25")],
    );
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["result"]["structuredContent"]["legal"], false, "{r}");
}

#[test]
fn bad_requests_get_clear_errors_and_the_server_stays_up() {
    let s = start();
    let (status, r) = post(&s.url, "{\"jsonrpc\":", &[]);
    assert_eq!((status, &r["error"]["code"]), (400, &json!(-32700)), "{r}");
    // JSON that is no JSON-RPC message: -32600 as over stdio, with the id when it reads.
    for body in [
        "{}",
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
        r#"{"id":1,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
    ] {
        let (status, r) = post(&s.url, body, &[]);
        assert_eq!(
            (status, &r["error"]["code"]),
            (400, &json!(-32600)),
            "{body}: {r}"
        );
    }
    let (_, r) = post(&s.url, r#"{"id":7,"method":"ping"}"#, &[]);
    assert_eq!(r["id"], 7, "{r}");
    let big = format!("\"{}\"", "x".repeat(2 << 20));
    let (status, r) = post(&s.url, &big, &[]);
    assert_eq!(status, 413, "{r}");
    // Unknown, and removed in 2026-07-28: 404 with -32601, as the revision says.
    for method in ["no/such_method", "initialize", "ping"] {
        let (status, r) = stateless(&s.url, 1, method, json!({}));
        assert_eq!(
            (status, &r["error"]["code"]),
            (404, &json!(-32601)),
            "{method}: {r}"
        );
        assert_eq!(r["id"], 1, "{method}: {r}");
    }
    // Errors as over stdio: a long input quoted short, an unknown tool named with the tools.
    let huge = json!({"name": "new_game", "arguments": {"deal": "9".repeat(200_000)}});
    let (status, r) = stateless(&s.url, 3, "tools/call", huge);
    assert!(
        r.to_string().len() < 1000,
        "{status}: {} bytes",
        r.to_string().len()
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    let nope = json!({"name": "nope", "arguments": {}});
    let (_, r) = stateless(&s.url, 4, "tools/call", nope);
    let msg = r["error"]["message"].as_str().unwrap_or_default();
    assert!(msg.contains("analyze_game"), "{r}");
    let discover = json!({"jsonrpc": "2.0", "id": 2, "method": "server/discover",
                          "params": {"_meta": envelope()}})
    .to_string();
    let mcp = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "server/discover"),
    ];
    for (k, v, want) in [
        ("Host", "evil.example", 403),
        ("Origin", "http://evil.example", 403),
        ("Origin", "http://localhost:5173", 200),
        ("Origin", "https://localhost", 200),
        ("Origin", "https://127.0.0.1:8443", 200),
        ("Origin", "https://evil.example", 403),
    ] {
        let headers: Vec<(&str, &str)> = mcp.iter().copied().chain([(k, v)]).collect();
        let (status, r) = post(&s.url, &discover, &headers);
        assert_eq!(status, want, "{k}: {v}: {r}");
    }
    let r = ureq::get(&s.url.replace("/mcp", "/elsewhere")).call();
    assert!(matches!(r, Err(ureq::Error::Status(404, _))), "{r:?}");
    // A POST elsewhere (a trailing slash too) gets the same JSON 404, not a panic's 500.
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    for path in ["/mcp/", "/", "/other"] {
        let url = s.url.replace("/mcp", path);
        for body in [ping, "{}"] {
            let (status, r) = post(&url, body, &[]);
            assert_eq!(status, 404, "{path} {body}: {r}");
            assert!(
                r["error"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("MCP is at"),
                "{r}"
            );
        }
    }
    // 50 clients at once, two requests each: all answered.
    let clients: Vec<_> = (0..50)
        .map(|i| {
            let url = s.url.clone();
            std::thread::spawn(move || {
                (0..2)
                    .map(|k| {
                        let args =
                            json!({"name": "new_game", "arguments": {"deal": i * 2 + k + 1}});
                        stateless(&url, i * 2 + k, "tools/call", args).0
                    })
                    .collect::<Vec<u16>>()
            })
        })
        .collect();
    for c in clients {
        assert_eq!(c.join().unwrap(), vec![200, 200]);
    }
    let (status, _) = stateless(&s.url, 9, "server/discover", json!({}));
    assert_eq!(status, 200, "the server is still up");
}

/// `--allow-host NAME` lets requests naming that host in; others stay refused.
#[test]
fn allow_host_names_a_host_to_accept() {
    let s = start_with(&["--allow-host", "freecell.test"]);
    let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                          "params": {"_meta": envelope()}})
    .to_string();
    for (host, want) in [("freecell.test", 200), ("other.test", 403)] {
        let headers = [
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "server/discover"),
            ("Host", host),
        ];
        let (status, r) = post(&s.url, &discover, &headers);
        assert_eq!(status, want, "{host}: {r}");
    }
}

/// A non-loopback address is refused without `--allow-remote` (exit 2, saying so), before
/// anything listens.
#[test]
fn a_non_loopback_address_needs_allow_remote() {
    let out = Command::new(env!("CARGO_BIN_EXE_fcauto"))
        .args(["mcp", "--http", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("--allow-remote"), "{said}");
}

/// Ctrl-C stops `mcp --http` with 130 (128 + SIGINT), as every command stopped by a signal
/// (it exited 0).
#[test]
fn ctrl_c_stops_the_mcp_server_with_130() {
    let mut server = start();
    // SAFETY: kill(2) on our own child's pid, which has not been waited for yet.
    assert_eq!(
        unsafe { libc::kill(server.child.id() as i32, libc::SIGINT) },
        0
    );
    assert_eq!(server.child.wait().unwrap().code(), Some(130));
}

/// An empty `--allow-host` names no host: a usage error (it was taken).
#[test]
fn an_empty_allow_host_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_fcauto"))
        .args(["mcp", "--http", "127.0.0.1:0", "--allow-host", ""])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
