//! `fcauto mcp` as an MCP client sees it: the test starts the server as a child process and
//! speaks JSON-RPC (one JSON message per line) over its stdin and stdout by hand: the
//! handshake, the tool list, a deal solved and then played move by move through
//! `apply_move` until it is won, an illegal move refused, and bad input as a tool error.

use crate::support::mcp::Session;
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

/// A session past the handshake.
fn initialized() -> Session {
    let mut s = Session::spawn();
    handshake(&mut s);
    s
}

/// `initialize` as MCP requires it (revision 2025-06-18), answered by fcauto with tools, then
/// `initialized`.
fn handshake(s: &mut Session) {
    let init = s.handshake("2025-06-18");
    assert_eq!(init["serverInfo"]["name"], "fcauto", "{init}");
    assert!(init["capabilities"]["tools"].is_object(), "{init}");
}

#[test]
fn tools_are_listed_with_input_schemas() {
    let mut s = initialized();
    let list = s.request("tools/list", json!({}));
    let tools = list["tools"].as_array().expect("a tool list");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    for want in [
        "new_game",
        "legal_moves",
        "apply_move",
        "hint",
        "solve",
        "verify",
        "analyze_game",
        "render_game",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    for t in tools {
        assert!(
            t["description"].as_str().is_some_and(|d| d.len() > 20),
            "{t}"
        );
        assert!(t["title"].as_str().is_some_and(|d| d.len() > 3), "{t}");
        // Every tool is a pure function of its arguments.
        assert_eq!(
            t["annotations"],
            json!({"readOnlyHint": true, "destructiveHint": false,
                   "idempotentHint": true, "openWorldHint": false}),
            "{t}"
        );
        assert_eq!(t["inputSchema"]["type"], "object", "{t}");
        // Standard JSON Schema only: no `format` of schemars' own (`uint8`, `int64`).
        let text = t.to_string();
        assert!(!text.contains("\"format\""), "{t}");
    }
    let apply = tools.iter().find(|t| t["name"] == "apply_move").unwrap();
    let props = &apply["inputSchema"]["properties"];
    for arg in ["position", "move", "count", "autoplay"] {
        assert!(props[arg].is_object(), "apply_move has no `{arg}`: {apply}");
    }
    assert!(props["position"]["oneOf"].is_array(), "{apply}");
}

#[test]
fn a_solved_deal_is_played_to_the_win_move_by_move() {
    let mut s = initialized();
    let start = s.structured("new_game", json!({"deal": 617}));
    assert_eq!(start["won"], false);
    let solved = s.structured(
        "solve",
        json!({"position": start["position"], "mode": "fast"}),
    );
    assert_eq!(solved["verdict"], "solved", "{solved}");
    assert!(
        solved.get("moves").is_none(),
        "the move records are for a view: {solved}"
    );
    let standard = solved["standard"].as_str().unwrap().to_string();
    let moves: Vec<&str> = standard.split_whitespace().collect();
    assert!(moves.len() > 20, "{solved}");

    let mut position = start["position"].clone();
    for (i, m) in moves.iter().enumerate() {
        let out = s.structured("apply_move", json!({"position": position, "move": m}));
        assert_eq!(out["legal"], true, "move {i} {m}: {out}");
        assert!(out["move"].is_string(), "{out}");
        assert_eq!(out["won"], i + 1 == moves.len(), "move {i}: {out}");
        assert_ne!(out["position"], position, "move {i} changed nothing");
        position = out["position"].clone();
    }
    assert!(position.as_str().unwrap().ends_with(" KKKK"), "{position}");

    let v = s.structured(
        "verify",
        json!({"position": start["position"], "solution": solved["standard"]}),
    );
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["moves_total"], solved["moves_total"]);
    let hint = s.structured("hint", json!({"position": start["position"]}));
    assert_eq!(hint["next"], moves[0], "{hint}");
    assert_eq!(hint["moves_to_win"], solved["moves_total"], "{hint}");
}

#[test]
fn an_illegal_move_is_refused_and_the_position_kept() {
    let mut s = initialized();
    let start = s.structured("new_game", json!({"deal": 617}));
    for mv in ["ah", "a1"] {
        let out = s.structured(
            "apply_move",
            json!({"position": start["position"], "move": mv}),
        );
        assert_eq!(out["legal"], false, "{mv}: {out}");
        assert!(
            out["broken_rule"].as_str().is_some_and(|r| !r.is_empty()),
            "{out}"
        );
        assert_eq!(out["position"], start["position"]);
    }
    let legal = s.structured("legal_moves", json!({"position": start["position"]}));
    let legal = legal["moves"].as_array().expect("a list of moves");
    assert!(
        legal.iter().any(|m| *m == solved_first(&mut s, &start)),
        "{legal:?}"
    );
    assert!(legal.iter().all(|m| m != "ah"), "{legal:?}");
}

/// The first move of a solution from `start`.
fn solved_first(s: &mut Session, start: &Value) -> Value {
    s.structured("hint", json!({"position": start["position"]}))["next"].clone()
}

#[test]
fn bad_input_is_a_tool_error_with_a_message() {
    let mut s = initialized();
    let start = s.structured("new_game", json!({"deal": 1}));
    let cases = [
        ("legal_moves", json!({"position": "not a position"})),
        ("legal_moves", json!({"position": {"cascades": [["AS"]]}})),
        (
            "apply_move",
            json!({"position": start["position"], "move": "zz"}),
        ),
        ("apply_move", json!({"position": start["position"]})),
        ("new_game", json!({"deal": 0})),
        ("new_game", json!({"deal": "ms0"})),
        ("new_game", json!({"deal": "ms61x"})),
        ("new_game", json!({"deal": -1})),
        (
            "solve",
            json!({"position": start["position"], "mode": "optimal"}),
        ),
        (
            "verify",
            json!({"position": start["position"], "solution": "not moves"}),
        ),
    ];
    for (tool, args) in cases {
        let r = s.call(tool, args.clone());
        assert_eq!(r["isError"], true, "{tool} {args}: {r}");
        let text = r["content"][0]["text"].as_str().unwrap_or_default();
        assert!(text.len() > 10, "{tool} {args}: no message in {r}");
    }
    // The server is still there.
    assert_eq!(s.structured("new_game", json!({"deal": 1})), start);
}

/// A deal number may be given as PySolFC writes it ("ms617"), or as a string of digits,
/// as on the command line: the same start position as the number, and the schema says so.
#[test]
fn new_game_takes_ms_deal_names() {
    let mut s = initialized();
    let by_number = s.structured("new_game", json!({"deal": 617}));
    // `+617` as the schema's pattern allows, and 617.0, an integer to JSON Schema
    // (formerly: both schemas and the server disagreed).
    for deal in [
        json!("ms617"),
        json!("MS617"),
        json!("617"),
        json!("+617"),
        json!(617.0),
    ] {
        assert_eq!(
            s.structured("new_game", json!({"deal": deal})),
            by_number,
            "{deal}"
        );
    }
    let list = s.request("tools/list", json!({}));
    let new_game = list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "new_game")
        .unwrap();
    let deal = &new_game["inputSchema"]["properties"]["deal"];
    assert_eq!(deal["type"], json!(["integer", "string"]), "{deal}");
    assert!(
        deal["description"].as_str().unwrap().contains("ms617"),
        "{deal}"
    );
}

/// `render_game` answers the position and the board as text; the PNG picture only when
/// asked (`picture: true`), in the width asked.
#[test]
fn render_game_answers_a_png_image() {
    let mut s = initialized();
    let start = s.structured("new_game", json!({"deal": 617}));
    let r = s.call("render_game", json!({"position": start["position"]}));
    assert_ne!(r["isError"], json!(true), "{r}");
    assert_eq!(r["structuredContent"], start, "{r}");
    let content = r["content"].as_array().unwrap();
    assert!(content.iter().all(|c| c["type"] == "text"), "{r}");
    assert!(
        content[1]["text"].as_str().unwrap().contains("Freecells:"),
        "{r}"
    );
    let r = s.call(
        "render_game",
        json!({"position": start["position"], "width": 400, "picture": true}),
    );
    assert_ne!(r["isError"], json!(true), "{r}");
    let image = r["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "image")
        .unwrap_or_else(|| panic!("an image: {r}"));
    assert_eq!(image["mimeType"], "image/png", "{r}");
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(image["data"].as_str().expect("base64 data"))
        .expect("valid base64");
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info().expect("a PNG");
    assert_eq!(reader.info().width, 400);
    let bad = s.call("render_game", json!({"position": "no board"}));
    assert_eq!(bad["isError"], true, "{bad}");
}

/// `render_game` refuses a width outside 200..=4096 with a message, as `/api/render` does,
/// instead of drawing another width than asked.
#[test]
fn render_game_refuses_a_width_out_of_bounds() {
    let mut s = initialized();
    let start = s.structured("new_game", json!({"deal": 617}));
    // -1 and a width beyond 32 bits get the same words (formerly: "expected u32").
    for width in [100i64, 199, 4097, -1, 5_000_000_000] {
        let r = s.call(
            "render_game",
            json!({"position": start["position"], "width": width}),
        );
        assert_eq!(r["isError"], true, "width {width}: {r}");
        let text = r["content"][0]["text"].as_str().unwrap_or_default();
        assert!(
            text.contains(&format!("width {width}")) && text.contains("200..=4096"),
            "width {width}: {r}"
        );
    }
}

/// Send `line` as it is and return the next answer, which must be a JSON-RPC 2.0 message.
fn answer_to_line(s: &mut Session, line: &str) -> Value {
    s.send_line(line);
    let msg = s.next_message();
    assert_eq!(msg["jsonrpc"], "2.0", "{line}: {msg}");
    msg
}

/// `fcauto mcp` with `input` as all of its stdin (closed after it), run to its exit.
fn mcp_with_input(input: &str) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fcauto"))
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A client that hangs up before any session began ends the server as a hang-up after one
/// does: exit 0, with its lines answered first (it exited 1, "MCP session did not start").
#[test]
fn a_hang_up_before_initialize_exits_0() {
    for input in [
        "",
        "not json\n",
        "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}\n",
    ] {
        let out = mcp_with_input(input);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{input:?}: {err}");
        let answers = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            answers.lines().count(),
            input.lines().count(),
            "{input:?}: {answers}"
        );
    }
}

/// Before the handshake, a request is told to send `initialize` first, a notification gets
/// no answer, and an `initialize` without the params MCP requires names them (rmcp alone
/// answered all of these with "request _meta is missing ..."); the session then starts.
#[test]
fn the_handshake_is_explained_when_it_goes_wrong() {
    let mut s = Session::spawn();
    let early = answer_to_line(
        &mut s,
        r#"{"jsonrpc": "2.0", "method": "notifications/initialized"}
{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}"#,
    );
    assert_eq!(early["id"], 1, "{early}");
    assert_eq!(early["error"]["code"], -32600, "{early}");
    let msg = early["error"]["message"].as_str().unwrap();
    assert!(msg.contains("tools/list before initialize"), "{msg}");
    for (id, params, missing) in [
        (2, None, "protocolVersion, capabilities, clientInfo"),
        (
            3,
            Some(json!({})),
            "protocolVersion, capabilities, clientInfo",
        ),
        (
            4,
            Some(
                json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "x"}}),
            ),
            "clientInfo",
        ),
    ] {
        let mut req = json!({"jsonrpc": "2.0", "id": id, "method": "initialize"});
        if let Some(p) = params {
            req["params"] = p;
        }
        let a = answer_to_line(&mut s, &req.to_string());
        assert_eq!(a["id"], id, "{a}");
        assert_eq!(a["error"]["code"], -32602, "{a}");
        let msg = a["error"]["message"].as_str().unwrap();
        assert!(
            msg.starts_with("initialize: params must be")
                && msg.ends_with(&format!("missing or malformed: {missing}")),
            "{msg}"
        );
    }
    s.use_ids_from(10);
    handshake(&mut s);
    let tools = s.request("tools/list", json!({}));
    assert!(
        tools["tools"].as_array().is_some_and(|t| !t.is_empty()),
        "{tools}"
    );
}

/// A line that is not JSON gets JSON-RPC's parse error (code -32700, id null), and the
/// session goes on: the next request is answered.
#[test]
fn a_line_that_is_not_json_gets_a_parse_error() {
    let mut s = initialized();
    for junk in ["this is not json", "{\"jsonrpc\": \"2.0\", \"id\": 7,"] {
        let msg = answer_to_line(&mut s, junk);
        assert_eq!(msg["id"], Value::Null, "{msg}");
        assert_eq!(msg["error"]["code"], -32700, "{msg}");
        assert!(
            msg["error"]["message"]
                .as_str()
                .unwrap()
                .contains("Parse error"),
            "{msg}"
        );
    }
    let start = s.structured("new_game", json!({"deal": 1}));
    assert!(start["position"].is_string(), "{start}");
}

/// JSON that is no JSON-RPC 2.0 message gets -32600 with its `id` when it has one (else
/// `id: null`, as JSON-RPC requires), and the session goes on.
#[test]
fn an_invalid_request_is_answered_with_its_id() {
    let mut s = initialized();
    for (junk, id) in [
        (
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":[1]}"#,
            json!(2),
        ),
        (r#"{"jsonrpc":"2.0","id":4}"#, json!(4)),
        (
            r#"{"jsonrpc":"1.0","id":"nine","method":"ping"}"#,
            json!("nine"),
        ),
        (r#"{"jsonrpc":"2.0","id":5,"method":7}"#, json!(5)),
        ("[]", Value::Null),
        ("5", Value::Null),
        (
            r#"{"jsonrpc":"2.0","id":true,"method":"tools/list"}"#,
            Value::Null,
        ),
        (r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, json!(1.5)),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            Value::Null,
        ),
        (
            r#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}"#,
            json!(9223372036854775808u64),
        ),
        (
            r#"{"jsonrpc":"2.0","id":21,"result":{},"error":{"code":1,"message":"m"}}"#,
            json!(21),
        ),
        (
            r#"{"jsonrpc":"2.0","id":22,"method":"ping","result":{}}"#,
            json!(22),
        ),
    ] {
        let msg = answer_to_line(&mut s, junk);
        assert_eq!(msg.get("id"), Some(&id), "{junk}: {msg}");
        assert_eq!(msg["error"]["code"], -32600, "{junk}: {msg}");
    }
    // A key given twice is read as its last value, as a JSON reader takes it (rmcp alone
    // answered it -32600 with no `id`).
    let twice = r#"{"jsonrpc":"2.0","id":22,"method":"tools/list","params":{},"id":23}"#;
    let msg = answer_to_line(&mut s, twice);
    assert_eq!(msg["id"], 23, "{msg}");
    assert!(msg["result"]["tools"].is_array(), "{msg}");
    let start = s.structured("new_game", json!({"deal": 1}));
    assert!(start["position"].is_string(), "{start}");
}

#[test]
fn tools_call_with_arguments_not_an_object_is_invalid_params() {
    let mut s = initialized();
    // `null` too (formerly: rmcp read it as no arguments, a tool error).
    for arguments in [json!([617]), json!("617"), json!(617), Value::Null] {
        let r = s.raw_request(
            "tools/call",
            json!({"name": "new_game", "arguments": arguments}),
        );
        assert_eq!(r["error"]["code"], -32602, "{arguments}: {r}");
        assert!(
            r["error"]["message"]
                .as_str()
                .unwrap()
                .contains("arguments"),
            "{r}"
        );
    }
    // An unknown method, or one of MCP's this server does not offer, is named as such with
    // the methods there are (rmcp's message was the bare method name).
    for method in ["no/such/method", "prompts/list", ""] {
        let r = s.raw_request(method, json!({}));
        assert_eq!(r["error"]["code"], -32601, "{r}");
        let msg = r["error"]["message"].as_str().unwrap();
        assert!(
            msg.starts_with(&format!("Method not found: {method:?} ("))
                && msg.contains("tools/call"),
            "{msg}"
        );
    }
    assert_eq!(s.structured("new_game", json!({"deal": 1}))["won"], false);
}

#[test]
fn max_states_out_of_range_is_refused_and_the_schemas_say_so() {
    let mut s = initialized();
    let list = s.request("tools/list", json!({}));
    let tool = |name: &str| {
        list["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(
        tool("new_game")["inputSchema"]["properties"]["deal"]["minimum"],
        1
    );
    // The other bounded numbers say their bounds too.
    let width = &tool("render_game")["inputSchema"]["properties"]["width"];
    assert_eq!(
        (&width["minimum"], &width["maximum"]),
        (&json!(200), &json!(4096))
    );
    let count = &tool("apply_move")["inputSchema"]["properties"]["count"];
    assert_eq!(
        (&count["minimum"], &count["maximum"]),
        (&json!(1), &json!(13))
    );
    for name in ["solve", "hint"] {
        let t = tool(name);
        assert_eq!(
            t["inputSchema"]["properties"]["max_states"]["minimum"], 1,
            "{t}"
        );
        assert_eq!(
            t["inputSchema"]["properties"]["max_states"]["maximum"], 200_000,
            "{t}"
        );
    }
    let start = s.structured("new_game", json!({"deal": 1}));
    for name in ["solve", "hint"] {
        for (n, said) in [(0, "max_states 0"), (200_001, "max_states 200001")] {
            let r = s.call(
                name,
                json!({"position": start["position"], "max_states": n}),
            );
            assert_eq!(r["isError"], true, "{r}");
            let text = r["content"][0]["text"].as_str().unwrap_or_default();
            assert!(text.contains(said), "{r}");
        }
    }
}

#[test]
fn legal_moves_lists_the_symmetric_moves_too() {
    let mut s = initialized();
    let r = s.structured(
        "legal_moves",
        json!({"position": "JHQHKH/-/-/-/-/-/-/- ---- KKTK"}),
    );
    let got: Vec<&str> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    for want in ["12", "15", "18", "1a", "1b", "1d"] {
        assert!(got.contains(&want), "{want} not in {got:?}");
    }
    for m in got {
        let out = s.structured(
            "apply_move",
            json!({"position": "JHQHKH/-/-/-/-/-/-/- ---- KKTK", "move": m}),
        );
        assert_eq!(out["legal"], true, "{m}: {out}");
    }
}

/// Long arguments never come back whole in an error (formerly: rmcp's "failed to deserialize
/// parameters" quoted a 900 KB argument, and an unknown argument name, in full); an unknown
/// tool is named with the tools there are; a second `initialize` is refused; a count outside
/// 1..13 is a tool error, as over HTTP (it was `legal: false`).
#[test]
fn errors_are_short_and_say_what_there_is() {
    let mut s = initialized();
    let start = s.structured("new_game", json!({"deal": 617}));
    let p = start["position"].clone();
    let huge = "9".repeat(200_000);
    for (tool, args) in [
        ("new_game", json!({"deal": huge})),
        ("solve", json!({"position": p, "mode": "z".repeat(200_000)})),
        ("solve", json!({"position": p, huge.clone(): 1})),
        (
            "apply_move",
            json!({"position": p, "move": "z".repeat(200_000)}),
        ),
    ] {
        let r = s.raw_request("tools/call", json!({"name": tool, "arguments": args}));
        let text = r.to_string();
        assert!(text.len() < 1000, "{tool}: {} bytes", text.len());
        assert!(text.contains("bytes)"), "{tool}: {text}");
    }
    let r = s.raw_request("tools/call", json!({"name": "nope", "arguments": {}}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let msg = r["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("unknown tool `nope`") && msg.contains("render_game"),
        "{msg}"
    );
    let again = s.raw_request(
        "initialize",
        json!({"protocolVersion": "2025-03-26", "capabilities": {},
               "clientInfo": {"name": "t", "version": "1"}}),
    );
    assert_eq!(again["error"]["code"], -32600, "{again}");
    for count in [
        json!(0),
        json!(14),
        json!(300),
        json!(-1),
        json!(1.5),
        json!(1e30),
    ] {
        let r = s.call(
            "apply_move",
            json!({"position": p, "move": "28", "count": count}),
        );
        assert_eq!(r["isError"], true, "count {count}: {r}");
        let text = r["content"][0]["text"].as_str().unwrap_or_default();
        assert!(
            text.contains("give 1..13") || text.contains("count"),
            "{text}"
        );
    }
    // A whole-number field written otherwise is said in the field's own words (serde's
    // "invalid type: floating point" before), as deal numbers are.
    for (tool, args, says) in [
        (
            "apply_move",
            json!({"position": p, "move": "28", "count": 1.5}),
            "count 1.5 is no whole number",
        ),
        (
            "apply_move",
            json!({"position": p, "move": "28", "count": 1e30}),
            "count 1e30 is out of range",
        ),
        (
            "render_game",
            json!({"position": p, "width": 1e4}),
            "width 10000",
        ),
        (
            "solve",
            json!({"position": p, "max_states": 0.5}),
            "max_states 0.5 is no whole number",
        ),
    ] {
        let r = s.call(tool, args.clone());
        let text = r["content"][0]["text"].as_str().unwrap_or_default();
        assert!(text.contains(says), "{tool} {args}: {r}");
    }
    // A won position is answered at once (not queued behind searches).
    let won = json!("-/-/-/-/-/-/-/- ---- KKKK");
    assert_eq!(
        s.structured("hint", json!({"position": won}))["next"],
        Value::Null
    );
    assert_eq!(s.structured("new_game", json!({"deal": 617})), start);
}

/// Whether `v` fits `schema` (the parts of JSON Schema that schemars writes for these
/// answers: `type` (one or a list), `properties`/`required`/`additionalProperties`, `items`,
/// `$ref` into `$defs`, `anyOf`/`oneOf`); the path of the first misfit.
fn fits_schema(v: &Value, schema: &Value, defs: &Value, path: &str) -> Result<(), String> {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r.trim_start_matches("#/$defs/");
        return fits_schema(v, &defs[name], defs, path);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(options) = schema[key].as_array() {
            return match options
                .iter()
                .any(|o| fits_schema(v, o, defs, path).is_ok())
            {
                true => Ok(()),
                false => Err(format!("{path}: {v} fits none of {key}")),
            };
        }
    }
    let kind = match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let allowed: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![kind],
    };
    let ok = allowed.contains(&kind) || (kind == "integer" && allowed.contains(&"number"));
    if !ok {
        return Err(format!(
            "{path}: {v} is {kind}, the schema says {allowed:?}"
        ));
    }
    if let Value::Object(o) = v {
        let props = schema["properties"].as_object();
        for req in schema["required"].as_array().into_iter().flatten() {
            let req = req.as_str().unwrap();
            if !o.contains_key(req) {
                return Err(format!("{path}: `{req}` is required and missing"));
            }
        }
        for (k, val) in o {
            match props.and_then(|p| p.get(k)) {
                Some(s) => fits_schema(val, s, defs, &format!("{path}.{k}"))?,
                None if schema["additionalProperties"] == json!(false) || props.is_some() => {
                    return Err(format!("{path}: `{k}` is not in the schema"))
                }
                None => {}
            }
        }
    }
    if let (Value::Array(items), Some(item)) = (v, schema.get("items")) {
        for (i, x) in items.iter().enumerate() {
            fits_schema(x, item, defs, &format!("{path}[{i}]"))?;
        }
    }
    Ok(())
}

/// Every tool declares an `outputSchema`, and its answers (solved, unsolved, legal,
/// illegal, valid, invalid) fit it.
#[test]
fn tools_declare_output_schemas_their_answers_fit() {
    let mut s = initialized();
    let tools = s.request("tools/list", json!({}))["tools"].clone();
    let schema = |name: &str| {
        tools
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap()["outputSchema"]
            .clone()
    };
    let start = s.structured("new_game", json!({"deal": 617}));
    let p = start["position"].clone();
    let won = json!("-/-/-/-/-/-/-/- ---- KKKK");
    let calls = [
        ("new_game", json!({"deal": 617})),
        ("legal_moves", json!({"position": p})),
        ("apply_move", json!({"position": p, "move": "8a"})),
        ("apply_move", json!({"position": p, "move": "12"})),
        ("hint", json!({"position": p})),
        ("hint", json!({"position": p, "max_states": 1})),
        ("hint", json!({"position": won})),
        ("solve", json!({"position": p})),
        ("solve", json!({"position": p, "max_states": 1})),
        ("verify", json!({"position": p, "solution": "8a 8b"})),
        ("render_game", json!({"position": p})),
        (
            "analyze_game",
            json!({"position": p, "moves": "8a 8b 8c 8d"}),
        ),
    ];
    for (name, args) in calls {
        let sc = schema(name);
        assert_eq!(sc["type"], "object", "{name}: {sc}");
        let answer = s.structured(name, args.clone());
        fits_schema(&answer, &sc, &sc["$defs"], name)
            .unwrap_or_else(|e| panic!("{name} {args}: {e}\n{answer}"));
    }
    let solved = s.structured("solve", json!({"position": p}));
    let verified = s.structured(
        "verify",
        json!({"position": p, "solution": solved["standard"]}),
    );
    assert_eq!(verified["valid"], true);
    fits_schema(
        &verified,
        &schema("verify"),
        &schema("verify")["$defs"],
        "verify",
    )
    .unwrap();
}

/// Deal `n`'s position as the tools take it (`{"cascades": ...}`).
fn dealt(n: u64) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_fcauto"))
        .args(["deal", &n.to_string(), "--format", "json"])
        .output()
        .unwrap();
    let deal: Value = serde_json::from_slice(&out.stdout).unwrap();
    json!({"cascades": deal["cascades"]})
}

/// `fcauto mcp < requests.jsonl`: every request read before stdin ends is answered before the
/// server exits (formerly: those still being worked out were dropped without a word).
#[test]
fn requests_read_before_stdin_ends_are_all_answered() {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "batch", "version": "1"}}});
    let mut input = format!("{init}\n");
    // Twelve of a slow deal: about 6 s of work on two cores, past the few seconds rmcp gives
    // the calls under way once its input ends.
    let slow = dealt(94717719);
    for id in 1..=12 {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "solve", "arguments": {"position": slow, "mode": "short"}}});
        input.push_str(&format!("{call}\n"));
    }
    let out = mcp_with_input(&input);
    assert_eq!(out.status.code(), Some(0));
    let mut ids: Vec<i64> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .inspect(|a| {
            assert!(
                a.get("error").is_none() && a["result"]["isError"] != true,
                "{a}"
            )
        })
        .map(|a| a["id"].as_i64().unwrap())
        .collect();
    ids.sort();
    assert_eq!(ids, (0..=12).collect::<Vec<_>>());
}

/// A request whose id a request still being worked out has is refused (-32600, that id), and
/// the first still gets its answer (formerly: one of the two went unanswered); a ping may
/// come before `initialize` (MCP's lifecycle allows it; it was refused).
#[test]
fn an_id_in_flight_is_refused_and_a_ping_may_come_first() {
    let mut s = Session::spawn();
    let ping = answer_to_line(&mut s, r#"{"jsonrpc":"2.0","id":"early","method":"ping"}"#);
    assert_eq!(
        (ping["id"].clone(), ping["result"].clone()),
        (json!("early"), json!({}))
    );
    handshake(&mut s);
    let solve = json!({"jsonrpc": "2.0", "id": 40, "method": "tools/call", "params": {
        "name": "solve", "arguments": {"position": dealt(94717719), "mode": "short"}}});
    let again = answer_to_line(
        &mut s,
        &format!(
            "{solve}\n{}",
            r#"{"jsonrpc":"2.0","id":40,"method":"ping"}"#
        ),
    );
    assert_eq!(again["id"], 40, "{again}");
    assert_eq!(again["error"]["code"], -32600, "{again}");
    assert!(
        again["error"]["message"]
            .as_str()
            .unwrap()
            .contains("id 40 is in use"),
        "{again}"
    );
    let first: Value = s.next_message();
    assert_eq!(first["id"], 40, "{first}");
    assert!(first["result"]["structuredContent"].is_object(), "{first}");
    // Once answered, the id is free again.
    let ping = answer_to_line(&mut s, r#"{"jsonrpc":"2.0","id":40,"method":"ping"}"#);
    assert_eq!(ping["result"], json!({}), "{ping}");
}

/// Valid JSON with a number past a 64-bit float (`1e400`) is answered with the request's id
/// (-32602), not as "not JSON" with `id: null`; an id whose digits were lost in
/// reading (a whole number past 64 bits) is not echoed altered (it came back `1e+20`).
#[test]
fn a_number_too_large_keeps_the_requests_id() {
    let mut s = initialized();
    let big = answer_to_line(
        &mut s,
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"apply_move","arguments":{"position":"x","move":"a1","count":1e400}}}"#,
    );
    assert_eq!(
        (big["id"].clone(), big["error"]["code"].clone()),
        (json!(7), json!(-32602)),
        "{big}"
    );
    let lost = answer_to_line(
        &mut s,
        r#"{"jsonrpc":"2.0","id":99999999999999999999,"method":"ping"}"#,
    );
    assert_eq!(lost["id"], Value::Null, "{lost}");
    assert_eq!(lost["error"]["code"], -32600, "{lost}");
}

/// `mode` reads as `/api/solve` reads it: `"fast"`, `"short"`, or null (left out); anything
/// else, serde's enum form `{"short": null}` included, is a tool error naming the modes
/// (formerly: null was refused in serde's words and the map taken).
#[test]
fn mode_is_fast_short_or_null() {
    let mut s = initialized();
    let p = s.structured("new_game", json!({"deal": 5}))["position"].clone();
    for mode in [json!("fast"), json!("short"), Value::Null] {
        let r = s.call("solve", json!({"position": p, "mode": mode}));
        assert_ne!(r["isError"], true, "{mode}: {r}");
        assert_eq!(r["structuredContent"]["verdict"], "solved", "{mode}: {r}");
    }
    for mode in [json!({"short": null}), json!("optimal"), json!(1)] {
        let r = s.call("solve", json!({"position": p, "mode": mode}));
        assert_eq!(r["isError"], true, "{mode}: {r}");
        let text = r["content"][0]["text"].as_str().unwrap_or_default();
        assert!(text.contains(r#""fast" or "short""#), "{mode}: {text}");
    }
}

/// A response the client sends before the handshake is ignored and the session starts as
/// usual (formerly: rmcp ended the server on it, exit 1); a response without an id gets
/// -32600 with `id: null` (rmcp's had no `id`); a notification holding `1e400` gets no answer.
#[test]
fn stray_responses_and_notifications_are_not_fatal() {
    let out = mcp_with_input(concat!(
        r#"{"jsonrpc":"2.0","result":{},"id":77}"#,
        "\n",
        r#"{"jsonrpc":"2.0","error":{"code":1,"message":"x"},"id":78}"#,
        "\n",
        r#"{"jsonrpc":"2.0","result":{}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/x","params":{"x":1e400}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        "\n",
    ));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    // By id (null first): ours and rmcp's answers may come in either order.
    let mut answers: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    answers.sort_by_key(|a| a["id"].as_i64().unwrap_or(-1));
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert_eq!(
        (&answers[0]["id"], &answers[0]["error"]["code"]),
        (&Value::Null, &json!(-32600)),
        "{answers:?}"
    );
    assert_eq!(
        (&answers[1]["id"], &answers[1]["result"]),
        (&json!(1), &json!({}))
    );
    assert_eq!(answers[2]["id"], 2);
    assert!(
        answers[2]["result"]["serverInfo"].is_object(),
        "{answers:?}"
    );
}
