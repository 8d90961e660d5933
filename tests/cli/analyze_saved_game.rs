//! PySolFC's saved and held games analysed wherever a game is analysed: `fcauto analyze
//! FILE`, `serve`'s `POST /api/analyze` with `saved_game` (the file's bytes, base64) and
//! MCP's `analyze_game` with `saved_game`; all three read them with
//! `fcauto_engine::input::read_pysol_game`. The fixtures are PySolFC's own files
//! (`tests/fixtures/pysolfc/`: deal 617 held after 10 moves, saved after 23 with the losing
//! move at step 21); statistics.dat, bytes that are no base64, text that is no saved game,
//! a game over the size cap and a start given twice are refused. Saved games of the other
//! games of the family are analysed as their game: `family_analyze.rs`.

use base64::Engine as _;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::support::server::{self, analyze};

fn fixture(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(path)
}

fn b64(path: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(std::fs::read(fixture(path)).unwrap())
}

#[test]
fn serve_analyzes_a_saved_and_a_held_game() {
    let s = server::start();
    let (st, a) = analyze(
        &s.base,
        &json!({"saved_game": b64("pysolfc/saved-617-lost.pso")}),
    );
    assert_eq!(st, 200, "{a}");
    assert_eq!(a["saved_game"]["deal"], 617);
    assert_eq!(a["saved_game"]["held"], false);
    assert_eq!(a["saved_game"]["moves"].as_array().unwrap().len(), 23);
    assert_eq!(a["first_losing_step"], 21);
    assert_eq!(a["moves"][20]["move"], "4c");
    assert_eq!(a["review"]["classes"][20], "losing");
    let (st, a) = analyze(
        &s.base,
        &json!({"saved_game": b64("pysolfc/holdgame-617-winnable.dat"), "mode": "fast"}),
    );
    assert_eq!(st, 200, "{a}");
    assert_eq!(
        (&a["saved_game"]["held"], &a["final"]["verdict"]),
        (&json!(true), &json!("winnable"))
    );
    assert_eq!(a["first_losing_step"], Value::Null);
}

#[test]
fn serve_refuses_what_is_not_a_saved_game() {
    let s = server::start();
    let held = b64("pysolfc/holdgame-617-winnable.dat");
    let cases = [
        (json!({"saved_game": "not base64!"}), 400, "not base64"),
        (
            json!({"saved_game": base64::engine::general_purpose::STANDARD.encode("3a 38 a3")}),
            422,
            "saved_game is not a PySolFC saved or held game",
        ),
        (
            json!({"saved_game": b64("pysolfc/shared-ms617/statistics.dat")}),
            422,
            "PySolFC's statistics",
        ),
        (
            json!({"saved_game": "A".repeat(400_000)}),
            413,
            "at most 262144 bytes",
        ),
        (
            json!({"saved_game": held, "moves": "3a"}),
            400,
            "leave out `moves`",
        ),
        (
            json!({"saved_game": held, "deal": 617}),
            400,
            "leave out `deal`, `position`",
        ),
        (json!({"deal": 617}), 400, "give `moves`"),
    ];
    for (body, status, needle) in cases {
        let (st, a) = analyze(&s.base, &body);
        assert_eq!(st, status, "{a}");
        let e = a["error"].as_str().unwrap();
        assert!(e.contains(needle), "{needle:?} not in {e}");
    }
}

/// One JSON-RPC request to a running `fcauto mcp`, its `result`.
fn request(
    stdin: &mut impl Write,
    lines: &mut impl Iterator<Item = String>,
    id: u64,
    method: &str,
    params: Value,
) -> Value {
    let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    writeln!(stdin, "{msg}").unwrap();
    stdin.flush().unwrap();
    for line in lines {
        let v: Value = serde_json::from_str(&line).unwrap();
        if v["id"] == json!(id) {
            assert!(v.get("error").is_none(), "{method}: {v}");
            return v["result"].clone();
        }
    }
    panic!("no answer to {method}");
}

#[cfg(feature = "mcp")]
#[test]
fn mcp_analyze_game_takes_a_saved_game() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fcauto"))
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok);
    let init = json!({"protocolVersion": "2025-06-18", "capabilities": {},
                      "clientInfo": {"name": "analyze_saved_game test", "version": "1"}});
    request(&mut stdin, &mut lines, 1, "initialize", init);
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    )
    .unwrap();
    let list = request(&mut stdin, &mut lines, 2, "tools/list", json!({}));
    let tool = list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "analyze_game")
        .unwrap()
        .clone();
    let input = &tool["inputSchema"];
    assert!(input["properties"]["saved_game"].is_object(), "{input}");
    let required = input["required"].as_array().cloned().unwrap_or_default();
    assert!(!required.contains(&json!("position")), "{input}");
    assert!(tool["description"].as_str().unwrap().contains("saved_game"));
    let call = |name: &str, args: Value| json!({"name": name, "arguments": args});
    let r = request(
        &mut stdin,
        &mut lines,
        3,
        "tools/call",
        call(
            "analyze_game",
            json!({"saved_game": b64("pysolfc/saved-617-lost.pso")}),
        ),
    );
    assert_ne!(r["isError"], json!(true), "{r}");
    let sc = &r["structuredContent"];
    assert_eq!(
        sc["saved_game"],
        json!({"pysol_id": 8, "deal": 617, "held": false, "moves": 23}),
        "{sc}"
    );
    assert_eq!(sc["lost_at"]["step"], 21, "{sc}");
    let r = request(
        &mut stdin,
        &mut lines,
        5,
        "tools/call",
        call("analyze_game", json!({"moves": "3a"})),
    );
    assert_eq!(r["isError"], json!(true), "{r}");
    assert!(r.to_string().contains("give `position` and `moves`"), "{r}");
    let _ = child.kill();
    let _ = child.wait();
}
