//! `fcauto serve` against a live server on 127.0.0.1 (a real HTTP client, ureq): the JSON
//! API, its refusals, and a bounded load test. Needs `--features serve`.

use crate::support::server;

use serde_json::{json, Value};
use server::{agent, call, start, start_on};
use std::time::{Duration, Instant};

#[test]
fn a_whole_game_through_the_api() {
    let s = start();
    let a = agent();
    let (st, start_pos) = call(&a, "GET", &format!("{}/api/deal/617", s.base), None);
    assert_eq!(st, 200);
    let expected = fcauto_deals::ms_deal(617).unwrap();
    assert_eq!(
        start_pos["position_string"],
        fcauto_deals::position::write(&expected)
    );
    let (st, sol) = call(
        &a,
        "POST",
        &format!("{}/api/solve", s.base),
        Some(json!({"deal": 617, "mode": "fast"})),
    );
    assert_eq!(st, 200, "{sol}");
    assert_eq!(sol["verdict"], "solved");
    let mut pos = start_pos["position"].clone();
    for m in sol["moves"].as_array().unwrap() {
        let (st, legal) = call(
            &a,
            "POST",
            &format!("{}/api/moves", s.base),
            Some(json!({"position": pos})),
        );
        assert_eq!(st, 200);
        assert!(legal["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["notation"] == m["notation"] && l["count"] == m["count"]));
        let (st, r) = call(
            &a,
            "POST",
            &format!("{}/api/apply", s.base),
            Some(json!({"position": pos, "move": m["notation"], "count": m["count"]})),
        );
        assert_eq!(st, 200, "{r}");
        assert_eq!(r["legal"], true);
        pos = r["position"].clone();
    }
    assert_eq!(pos["foundations"], json!([13, 13, 13, 13]));
    // The validator agrees with the solution, and refuses it for another deal.
    let (_, v) = call(
        &a,
        "POST",
        &format!("{}/api/verify", s.base),
        Some(json!({"deal": 617, "solution": sol["standard"]})),
    );
    assert_eq!(
        (v["valid"].clone(), v["moves_total"].clone()),
        (json!(true), sol["moves_total"].clone())
    );
    let (_, v) = call(
        &a,
        "POST",
        &format!("{}/api/verify", s.base),
        Some(json!({"deal": 618, "solution": sol["standard"]})),
    );
    assert_eq!(v["valid"], false);
    assert!(v["error"].as_str().unwrap().contains("step"));
    // A deal may be given as PySolFC writes it, "ms617", or as a string of digits: the same
    // deal as the number.
    for deal in [json!("ms617"), json!("MS617"), json!("617")] {
        let (st, by_name) = call(
            &a,
            "POST",
            &format!("{}/api/solve", s.base),
            Some(json!({"deal": deal, "mode": "fast"})),
        );
        assert_eq!(st, 200, "{deal}: {by_name}");
        assert_eq!(by_name["moves"], sol["moves"], "{deal}");
        let (st, v) = call(
            &a,
            "POST",
            &format!("{}/api/verify", s.base),
            Some(json!({"deal": deal, "solution": sol["standard"]})),
        );
        assert_eq!((st, v["valid"].clone()), (200, json!(true)), "{deal}: {v}");
    }
}

/// The position of deal 1 as `/api/deal/1` gives it.
fn start_position(s: &server::Server, a: &ureq::Agent) -> Value {
    call(a, "GET", &format!("{}/api/deal/1", s.base), None).1
}

/// Each request (method, path, body) is answered `want`, with an error naming `text`, in
/// a short answer.
fn expect_refusals<'t>(
    s: &server::Server,
    a: &ureq::Agent,
    cases: impl IntoIterator<Item = (&'t str, &'t str, Option<Value>, u16, &'t str)>,
) {
    for (method, path, body, want, text) in cases {
        let (st, r) = call(a, method, &format!("{}{path}", s.base), body);
        assert_eq!(st, want, "{method} {path}: {r}");
        assert!(
            r["error"].as_str().unwrap_or("").contains(text),
            "{method} {path}: {r}"
        );
        assert!(r.to_string().len() < 1000, "{method} {path}: a long answer");
    }
}

/// An illegal move is a 422 naming the rule, the position unchanged; the OpenAPI document
/// says so, and what the path's deal and a count may be.
#[test]
fn an_illegal_move_is_a_422_and_the_document_says_so() {
    let s = start();
    let a = agent();
    let start_pos = start_position(&s, &a);
    // An illegal move: 422, the rule, and the position unchanged.
    let (st, r) = call(
        &a,
        "POST",
        &format!("{}/api/apply", s.base),
        Some(json!({"position": start_pos["position_string"], "move": "1h"})),
    );
    assert_eq!(st, 422);
    assert!(
        r["error"].as_str().unwrap().contains("cannot go home"),
        "{r}"
    );
    assert_eq!(r["result"]["legal"], false);
    assert_eq!(r["result"]["position_string"], start_pos["position_string"]);
    // The OpenAPI document says so: the 422's `result`, a `move` that may be null
    // (formerly: it said a plain error, and a move never null).
    let (_, doc) = call(&a, "GET", &format!("{}/api/openapi.json", s.base), None);
    let illegal = &doc["paths"]["/api/apply"]["post"]["responses"]["422"]["$ref"];
    let name = illegal.as_str().unwrap().rsplit('/').next().unwrap();
    let body = &doc["components"]["responses"][name]["content"]["application/json"]["schema"];
    assert_eq!(body["required"], json!(["error", "result"]), "{body}");
    assert_eq!(r["result"]["move"], Value::Null);
    let mv = &doc["components"]["schemas"]["ApplyOut"]["properties"]["move"];
    assert_eq!(mv["nullable"], true, "{mv}");
    // The deal in the path may be PySolFC's name, and the document says so (formerly: it
    // said an integer); a count is 1..13.
    let n = &doc["paths"]["/api/deal/{n}"]["get"]["parameters"][0]["schema"];
    assert_eq!(n["type"], "string", "{n}");
    assert!(n["pattern"].as_str().unwrap().contains("[mM][sS]"), "{n}");
    let (st, ms) = call(&a, "GET", &format!("{}/api/deal/ms617", s.base), None);
    let plain = call(&a, "GET", &format!("{}/api/deal/617", s.base), None).1;
    assert_eq!(
        (st, &ms["position_string"]),
        (200, &plain["position_string"])
    );
    let count = &doc["paths"]["/api/apply"]["post"]["requestBody"]["content"]["application/json"]
        ["schema"]["properties"]["count"];
    assert_eq!(
        (&count["minimum"], &count["maximum"]),
        (&json!(1), &json!(13)),
        "{count}"
    );
}

/// Positions with null, short or malformed freecells and foundations.
#[test]
fn null_short_and_bad_foundations_are_told_apart() {
    let s = start();
    let a = agent();
    let start_pos = start_position(&s, &a);
    // freecells and foundations given as null are left out; three freecells is malformed
    // (400), as three foundations are.
    let mut nulls = start_pos["position"].clone();
    (nulls["freecells"], nulls["foundations"]) = (Value::Null, Value::Null);
    let (st, r) = call(
        &a,
        "POST",
        &format!("{}/api/position", s.base),
        Some(json!({"position": nulls})),
    );
    assert_eq!(st, 200, "{r}");
    // autoplay null is left out (false), as count null is (formerly: 400).
    let body = json!({"position": start_pos["position_string"], "move": "1a", "autoplay": null});
    let (st, r) = call(&a, "POST", &format!("{}/api/apply", s.base), Some(body));
    assert_eq!((st, &r["legal"]), (200, &json!(true)), "{r}");
    for (field, short) in [
        ("freecells", json!([null, null, null])),
        ("foundations", json!([0, 0, 0])),
    ] {
        let mut p = start_pos["position"].clone();
        p[field] = short;
        let (st, r) = call(
            &a,
            "POST",
            &format!("{}/api/position", s.base),
            Some(json!({"position": p})),
        );
        assert_eq!(st, 400, "{field}: {r}");
    }
    // The start position with `foundations` as given, posted to /api/position.
    let with_foundations = |foundations: Value| {
        let mut p = start_pos["position"].clone();
        p["foundations"] = foundations;
        call(
            &a,
            "POST",
            &format!("{}/api/position", s.base),
            Some(json!({"position": p})),
        )
    };
    // A foundation rank outside 0..=13, or no whole number, is one kind of mistake: 400, in
    // the player's words (formerly: `-1` was "expected u8" (400), 14 a 422).
    for rank in [
        json!(-1),
        json!(14),
        json!(300),
        json!(1.5),
        json!("K"),
        json!(-0.5),
    ] {
        let (st, r) = with_foundations(json!([0, rank, 0, 0]));
        let msg = r["error"].as_str().unwrap_or_default();
        assert_eq!(st, 400, "{rank}: {r}");
        assert!(
            msg.contains(&format!("foundations: `{rank}` is not the top rank"))
                && !msg.contains("u8"),
            "{rank}: {msg}"
        );
    }
    // Not a list at all, named as such; a whole rank may be written `13.0`.
    for (foundations, status) in [
        (json!({}), 400),
        (json!("13131313"), 400),
        (json!([0, 1.0, 0, 0]), 200),
    ] {
        let (st, r) = with_foundations(foundations.clone());
        let msg = r["error"].as_str().unwrap_or_default();
        assert!(
            st == status || (status == 200 && st == 422),
            "{foundations}: {st} {r}"
        );
        if status == 400 {
            assert!(
                msg.contains("foundations: a list of 4 numbers"),
                "{foundations}: {msg}"
            );
        }
    }
}

/// Deal numbers in the path, routes and methods refused with a 4xx and a message.
#[test]
fn refusals_are_4xx_with_a_message() {
    let s = start();
    let a = agent();
    expect_refusals(
        &s,
        &a,
        [
            ("GET", "/api/deal/0", None, 400, "out of range"),
            ("GET", "/api/deal/x", None, 400, "not a"),
            (
                "GET",
                "/api/deal/%ff",
                None,
                400,
                "bad deal number in the path",
            ),
            (
                "POST",
                "/api/moves",
                Some(json!({"position": {"cascades": [], "extra": 1}})),
                400,
                "unknown field `extra`",
            ),
            // Serde names standard FreeCell's fields; the answer names the family's two more.
            (
                "POST",
                "/api/moves",
                Some(json!({"position": {"cascades": [], "rules": {}}})),
                400,
                "also names its `game`, and may give its `rules`",
            ),
            ("GET", "/nowhere", None, 404, "no such route"),
            ("POST", "/api/deal/617", None, 405, "method not allowed"),
            ("GET", "/api/solve", None, 405, "method not allowed"),
        ],
    );
}

/// Search settings and deal numbers in a body refused with a 400 and a message.
#[test]
fn bad_search_settings_and_deal_numbers_are_refused() {
    let s = start();
    let a = agent();
    expect_refusals(
        &s,
        &a,
        [
            (
                "POST",
                "/api/solve",
                Some(json!({"deal": 5, "max_states": 0})),
                400,
                "max_states 0",
            ),
            (
                "POST",
                "/api/hint",
                Some(json!({"deal": 5, "max_states": 0})),
                400,
                "max_states 0",
            ),
            (
                "POST",
                "/api/solve",
                Some(json!({"deal": 5, "max_states": 200_001})),
                400,
                "max_states 200001",
            ),
            (
                "POST",
                "/api/hint",
                Some(json!({"deal": 5, "max_states": 200_001})),
                400,
                "max_states 200001",
            ),
            (
                "POST",
                "/api/solve",
                Some(json!({"deal": 5, "bogus": 1})),
                400,
                "unknown field",
            ),
            (
                "POST",
                "/api/solve",
                Some(json!({"deal": 0})),
                400,
                "out of range",
            ),
            (
                "POST",
                "/api/solve",
                Some(json!({"deal": "ms0"})),
                400,
                "out of range",
            ),
            (
                "POST",
                "/api/hint",
                Some(json!({"deal": -3})),
                400,
                "out of range",
            ),
            (
                "POST",
                "/api/verify",
                Some(json!({"deal": "ms61x", "solution": "1a"})),
                400,
                "not a whole number",
            ),
            (
                "POST",
                "/api/solve",
                Some(json!({"deal": 6.5})),
                400,
                "not a whole number",
            ),
            (
                "POST",
                "/api/solve",
                Some(json!({"deal": 5, "position": "x"})),
                400,
                "exactly one",
            ),
            (
                "POST",
                "/api/solve",
                Some(json!({"deal": 5, "mode": "optimal"})),
                400,
                "fast",
            ),
        ],
    );
}

/// Positions, moves and bodies of another shape refused with a 4xx and a message.
#[test]
fn bad_positions_moves_and_body_shapes_are_refused() {
    let s = start();
    let a = agent();
    let start_pos = start_position(&s, &a);
    expect_refusals(
        &s,
        &a,
        [
            (
                "POST",
                "/api/moves",
                Some(json!({"position": {"cascades": [["AS"]]}})),
                422,
                "impossible position",
            ),
            (
                "POST",
                "/api/moves",
                Some(json!({"position": "not a board"})),
                422,
                "invalid board",
            ),
            (
                "POST",
                "/api/apply",
                Some(json!({"position": start_pos["position"], "move": "zz"})),
                400,
                "standard notation",
            ),
            (
                "POST",
                "/api/render",
                Some(json!({"position": start_pos["position"], "width": 5})),
                400,
                "width",
            ),
            // Serde reads a struct from an array too ([1] as {"deal": 1}): every body is an
            // object, anything else is refused.
            (
                "POST",
                "/api/solve",
                Some(json!([1])),
                400,
                "expected a JSON object",
            ),
            (
                "POST",
                "/api/verify",
                Some(json!([1, "3a"])),
                400,
                "expected a JSON object",
            ),
            (
                "POST",
                "/api/moves",
                Some(json!("x")),
                400,
                "expected a JSON object",
            ),
        ],
    );
}

/// Counts, widths and other whole-number fields out of range or not whole: each said in
/// the field's own words.
#[test]
fn whole_number_fields_and_long_inputs_are_refused_in_their_words() {
    let s = start();
    let a = agent();
    let start_pos = start_position(&s, &a);
    expect_refusals(
        &s,
        &a,
        [
            // A count outside 1..13 is one 400 whatever the move (formerly: 0 onto a cascade
            // was a 422 illegal move, 300 serde's "expected u8").
            (
                "POST",
                "/api/apply",
                Some(json!({"position": start_pos["position"], "move": "28", "count": 0})),
                400,
                "count 0 is no number of cards in a run: give 1..13",
            ),
            (
                "POST",
                "/api/apply",
                Some(json!({"position": start_pos["position"], "move": "2a", "count": 300})),
                400,
                "count 300 is no number of cards in a run",
            ),
            (
                "POST",
                "/api/apply",
                Some(json!({"position": start_pos["position"], "move": "28", "count": -2})),
                400,
                "count -2 is no number",
            ),
            // A count that is no whole number, or beyond any count, is said in the count's own
            // words (serde said "invalid type: floating point `1e+30`, expected i64"); a whole
            // one written as JSON allows (`1e3`) is a count like any other.
            (
                "POST",
                "/api/apply",
                Some(json!({"position": start_pos["position"], "move": "28", "count": 1.5})),
                400,
                "count 1.5 is no whole number: give 1..13",
            ),
            (
                "POST",
                "/api/apply",
                Some(json!({"position": start_pos["position"], "move": "28", "count": 1e30})),
                400,
                "count 1e30 is out of range: give 1..13",
            ),
            (
                "POST",
                "/api/apply",
                Some(json!({"position": start_pos["position"], "move": "28", "count": 1e3})),
                400,
                "count 1000 is no number of cards in a run: give 1..13",
            ),
            // The same for every whole-number field; a whole one however written (`3e5`, `-0`)
            // is that number, its range checked as any other's.
            (
                "POST",
                "/api/render",
                Some(json!({"position": start_pos["position"], "width": 720.5})),
                400,
                "width 720.5 is no whole number: give 200..=4096 pixels",
            ),
            (
                "POST",
                "/api/solve",
                Some(json!({"deal": 617, "max_states": 3e5})),
                400,
                "max_states 300000",
            ),
            (
                "POST",
                "/api/hint",
                Some(json!({"deal": 617, "max_states": -1})),
                400,
                "max_states -1 is out of range: give 1..=200000 positions",
            ),
            (
                "POST",
                "/api/apply",
                Some(json!({"position": start_pos["position"], "move": "28", "count": -0.0})),
                400,
                "count 0 is no number of cards in a run",
            ),
            (
                "POST",
                "/api/solve",
                Some(json!({"deal": 617, "freecells": 2.5})),
                400,
                "freecells 2.5 is no whole number: give 0..=8 freecells",
            ),
            (
                "POST",
                "/api/solve",
                Some(json!({"deal": 617, "freecells": 9.0})),
                400,
                "freecells 9: a game has 0..=8 freecells",
            ),
        ],
    );
    // `freecells` written `3.0` is 3, as the other whole-number fields read it.
    let url = format!("{}/api/solve", s.base);
    let (code, v) = call(
        &a,
        "POST",
        &url,
        Some(json!({"deal": 617, "freecells": 3.0})),
    );
    let (_, three) = call(&a, "POST", &url, Some(json!({"deal": 617, "freecells": 3})));
    assert_eq!((code, &v), (200, &three));
}

/// A long input is cut in the message; a start printed before the moves is checked as
/// `# start:` is; a won position's hint needs no search.
#[test]
fn long_inputs_and_printed_starts_are_refused_in_short() {
    let s = start();
    let a = agent();
    let start_pos = start_position(&s, &a);
    expect_refusals(
        &s,
        &a,
        [
            // A long input is cut in the message, quoted or not (formerly: 4 KiB of digits came
            // back whole).
            (
                "POST",
                "/api/solve",
                Some(json!({"deal": "9".repeat(20_000)})),
                400,
                "(20000 bytes)",
            ),
            (
                "POST",
                "/api/render",
                Some(json!({"position": start_pos["position"], "width": -1})),
                400,
                "width -1: a picture is 200..=4096 pixels wide",
            ),
            // A position printed before the moves (fc-solve's -p -t block) is a start the
            // solution names, checked as `# start:` is (formerly: read past, and 200 valid),
            // in the command line's verify's words.
            (
                "POST",
                "/api/verify",
                Some(json!({"deal": 617, "solution": format!(
                    "Foundations: H-0 C-0 D-0 S-0\nFreecells:\n{}\n\n8a",
                    fcauto_deals::ms_deal(1).unwrap().cascades.iter().map(|c| format!(": {}", c.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" "))).collect::<Vec<_>>().join("\n")
                )})),
                422,
                "starts from another board than the position given",
            ),
            // A won position's hint needs no search (not queued behind searches).
            (
                "POST",
                "/api/hint",
                Some(json!({"position": "-/-/-/-/-/-/-/- ---- KKKK"})),
                200,
                "",
            ),
        ],
    );
}

/// Malformed JSON, the wrong content type or coding, a body over the cap; the server is
/// still up after them, and its document names every route.
#[test]
fn malformed_bodies_are_refused_and_the_server_stays_up() {
    let s = start();
    let a = agent();
    // Malformed JSON, the wrong content type, a body over the cap.
    let post = |ct: &str, body: Vec<u8>| match a
        .post(&format!("{}/api/solve", s.base))
        .set("Content-Type", ct)
        .send_bytes(&body)
    {
        Ok(r) => r.status(),
        Err(ureq::Error::Status(c, _)) => c,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(post("application/json", b"{\"deal\": 5".to_vec()), 400);
    assert_eq!(post("text/plain", b"{\"deal\": 5}".to_vec()), 415);
    // A compressed body is a 415 naming its coding (formerly: read as plain JSON).
    let gz = a
        .post(&format!("{}/api/solve", s.base))
        .set("Content-Type", "application/json")
        .set("Content-Encoding", "gzip")
        .send_bytes(b"\x1f\x8b\x08\x00");
    match gz {
        Err(ureq::Error::Status(415, r)) => {
            let text = r.into_string().unwrap();
            assert!(
                text.contains("Content-Encoding `gzip` is not taken"),
                "{text}"
            );
        }
        other => panic!("gzip body: {other:?}"),
    }
    // Over the body cap: 413. A raw request whose upload goes on in a thread while the
    // answer is read, so that the server's early answer (and its closing the connection)
    // cannot fail the client's upload first.
    {
        use std::io::{Read, Write};
        let host = s.base.trim_start_matches("http://").to_string();
        let mut t = std::net::TcpStream::connect(&host).unwrap();
        t.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut w = t.try_clone().unwrap();
        let upload = std::thread::spawn(move || {
            let len = 3 << 20;
            let _ = write!(w, "POST /api/solve HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {len}\r\n\r\n");
            let _ = w.write_all(&vec![b' '; len]);
        });
        let mut head = [0u8; 12];
        t.read_exact(&mut head).unwrap();
        assert_eq!(&head, b"HTTP/1.1 413", "{}", String::from_utf8_lossy(&head));
        drop(t);
        let _ = upload.join();
    }
    // The server is still up, and the OpenAPI document names every route.
    let (st, doc) = call(&a, "GET", &format!("{}/api/openapi.json", s.base), None);
    assert_eq!(st, 200);
    for p in [
        "/api/deal/{n}",
        "/api/position",
        "/api/moves",
        "/api/apply",
        "/api/solve",
        "/api/hint",
        "/api/verify",
        "/api/render",
    ] {
        assert!(
            doc["paths"].get(p).is_some(),
            "{p} missing from the OpenAPI document"
        );
        if let Some(post) = doc["paths"][p].get("post") {
            assert!(post["responses"].get("413").is_some(), "{p}: no 413");
        }
    }
    let (st, page) = call(&a, "GET", &format!("{}/", s.base), None);
    assert_eq!(st, 200);
    assert!(page.as_str().unwrap().contains("/api/solve"));
}

/// `--bind` takes an IP address or a host name with a port; without a port, or with a bad
/// one, it is a usage error (exit 2) that says what to give.
#[test]
fn bind_takes_a_host_name_and_says_what_to_give() {
    let s = start_on("localhost:0");
    let (st, _) = call(&agent(), "GET", &format!("{}/api/deal/1", s.base), None);
    assert_eq!(st, 200);
    let addr: std::net::SocketAddr = s.base.trim_start_matches("http://").parse().unwrap();
    assert!(addr.ip().is_loopback(), "{}", s.base);
    for (bind, said) in [
        ("localhost", "no port"),
        ("127.0.0.1", "no port"),
        ("localhost:http", "`http` is not a port"),
        ("127.0.0.1:70000", "`70000` is not a port"),
        (":8617", "no address"),
    ] {
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("fcauto"))
            .args(["serve", "--bind", bind])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bind}: {err}");
        assert!(
            err.contains(said) && err.contains("such as 127.0.0.1:8617"),
            "{bind}: {err}"
        );
    }
}

/// `max_states` as the OpenAPI document bounds it is what the server does: its maximum is
/// accepted, one more is refused (400) rather than lowered, and so is the minimum's one less.
#[test]
fn max_states_bounds_are_the_documents() {
    let s = start();
    let a = agent();
    let (_, doc) = call(&a, "GET", &format!("{}/api/openapi.json", s.base), None);
    for route in ["/api/solve", "/api/hint"] {
        let spec = &doc["paths"][route]["post"]["requestBody"]["content"]["application/json"]
            ["schema"]["properties"]["max_states"];
        let (min, max) = (
            spec["minimum"].as_u64().unwrap(),
            spec["maximum"].as_u64().unwrap(),
        );
        assert_eq!((min, spec["default"].as_u64()), (1, Some(max)), "{spec}");
        let url = format!("{}{route}", s.base);
        // The deal as a string: spaces around it are allowed, as the document's pattern says
        // (formerly: the pattern refused what the server took).
        let deal = &doc["paths"][route]["post"]["requestBody"]["content"]["application/json"]
            ["schema"]["properties"]["deal"];
        let pattern = deal["oneOf"].as_array().map_or(deal.to_string(), |o| {
            o.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        });
        assert!(
            pattern.contains(r"^\\s*([mM][sS]|\\+)?[0-9]+\\s*$"),
            "{pattern}"
        );
        // `+617` too, which the server takes, and 617 written 617.0, a JSON
        // Schema integer.
        for spaced in [" ms617 ", "\t617", "+617"] {
            let (st, r) = call(
                &a,
                "POST",
                &url,
                Some(json!({"deal": spaced, "max_states": 10})),
            );
            assert_ne!(st, 400, "{route} {spaced:?}: {r}");
        }
        let (st, r) = call(
            &a,
            "POST",
            &url,
            Some(json!({"deal": 5, "max_states": max})),
        );
        assert_eq!(st, 200, "{route} {max}: {r}");
        let (st, r) = call(
            &a,
            "POST",
            &url,
            Some(json!({"deal": 617.0, "max_states": 10})),
        );
        assert_ne!(st, 400, "{route} 617.0: {r}");
        for n in [min - 1, max + 1] {
            let (st, r) = call(&a, "POST", &url, Some(json!({"deal": 5, "max_states": n})));
            assert_eq!(st, 400, "{route} {n}: {r}");
            assert!(
                r["error"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("max_states {n}")),
                "{r}"
            );
        }
    }
}

/// 16 clients, 2,000 requests in all (solves of random deals of 1..32000 in fast mode,
/// legal moves, applied moves), at most 5 minutes: no error; the latencies are written to
/// target/serve-load.json and printed.
#[test]
fn load_16_clients_2000_requests() {
    let s = start();
    const CLIENTS: usize = 16;
    const PER_CLIENT: usize = 125;
    let t0 = Instant::now();
    let handles: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let base = s.base.clone();
            std::thread::spawn(move || {
                let a = agent();
                let mut lat = Vec::with_capacity(PER_CLIENT);
                let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ c as u64;
                let mut pos = Value::Null;
                for i in 0..PER_CLIENT {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let deal = (seed >> 33) % 32000 + 1;
                    let t = Instant::now();
                    let (st, r) = match i % 3 {
                        0 => call(&a, "POST", &format!("{base}/api/solve"), Some(json!({"deal": deal, "mode": "fast"}))),
                        1 => call(&a, "GET", &format!("{base}/api/deal/{deal}"), None),
                        _ => call(&a, "POST", &format!("{base}/api/moves"), Some(json!({"position": pos}))),
                    };
                    lat.push(t.elapsed().as_secs_f64() * 1000.0);
                    assert_eq!(st, 200, "client {c} request {i}: {r}");
                    if i % 3 == 0 {
                        assert!(r["verdict"] == "solved" || deal == 11982, "deal {deal}: {r}");
                    }
                    if i % 3 == 1 {
                        pos = r["position"].clone();
                        // Play the first legal move, as a player would.
                        let (st, m) = call(&a, "POST", &format!("{base}/api/moves"), Some(json!({"position": pos})));
                        assert_eq!(st, 200);
                        let first = m["moves"][0].clone();
                        let (st, r) = call(
                            &a,
                            "POST",
                            &format!("{base}/api/apply"),
                            Some(json!({"position": pos, "move": first["notation"], "count": first["count"], "autoplay": true})),
                        );
                        assert_eq!(st, 200, "{r}");
                        pos = r["position"].clone();
                    }
                    assert!(t0.elapsed() < Duration::from_secs(300), "load test over 5 minutes");
                }
                lat
            })
        })
        .collect();
    let mut lat: Vec<f64> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    let wall = t0.elapsed().as_secs_f64();
    // Each iteration of kind 1 also sent two more requests (moves + apply), not timed.
    let requests = CLIENTS * PER_CLIENT + 2 * lat.len() / 3;
    lat.sort_by(f64::total_cmp);
    let pct = |p: f64| lat[((lat.len() as f64 * p).ceil() as usize).clamp(1, lat.len()) - 1];
    let summary = json!({
        "clients": CLIENTS, "requests": requests, "timed_requests": lat.len(), "wall_s": wall,
        "requests_per_s": requests as f64 / wall, "p50_ms": pct(0.5), "p99_ms": pct(0.99), "max_ms": pct(1.0),
    });
    eprintln!("serve load test: {summary}");
    assert!(requests >= 2000);
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/serve-load.json");
    let _ = std::fs::write(out, serde_json::to_string_pretty(&summary).unwrap());
}

/// `/api/moves` lists every legal move, the symmetric ones included: a card to each empty
/// freecell and to each empty cascade, not just the first.
#[test]
fn every_legal_move_is_listed() {
    let s = start();
    let a = agent();
    let (st, r) = call(
        &a,
        "POST",
        &format!("{}/api/moves", s.base),
        Some(json!({"position": "JHQHKH/-/-/-/-/-/-/- ---- KKTK"})),
    );
    assert_eq!(st, 200, "{r}");
    let got: Vec<&str> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap())
        .collect();
    let want = [
        "12", "13", "14", "15", "16", "17", "18", "1a", "1b", "1c", "1d",
    ];
    assert_eq!(got, want);
}

/// A client that never finishes its request headers is dropped after the read timeout (10 s)
/// instead of being held forever; one that stops sending its body, or trickles it, gets a
/// JSON 408; a body declared over the cap gets 413 at once, before any of it is sent. The
/// server goes on.
#[test]
fn half_sent_requests_are_not_held_forever() {
    use std::io::{Read, Write};
    let s = start();
    let host = s.base.trim_start_matches("http://").to_string();
    let send = |req: String| {
        let mut t = std::net::TcpStream::connect(&host).unwrap();
        t.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        t.write_all(req.as_bytes()).unwrap();
        let t0 = Instant::now();
        let mut answer = Vec::new();
        let _ = t.read_to_end(&mut answer);
        (t0.elapsed(), String::from_utf8_lossy(&answer).into_owned())
    };
    let (waited, answer) = send(format!("GET /api/deal/1 HTTP/1.1\r\nHost: {host}\r\n"));
    assert!(waited < Duration::from_secs(20), "{waited:?}");
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 408"),
        "{answer}"
    );
    let head = "POST /api/moves HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nConnection: close\r\n";
    let (waited, answer) = send(format!("{head}Content-Length: 99999999999\r\n\r\n{{"));
    assert!(waited < Duration::from_secs(5), "{waited:?}");
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.contains(r#"{"error":"a request body of 99999999999 bytes"#),
        "{answer}"
    );
    let (waited, answer) = send(format!("{head}Content-Length: 100\r\n\r\n{{"));
    assert!(waited < Duration::from_secs(20), "{waited:?}");
    assert!(
        answer.starts_with("HTTP/1.1 408") && answer.contains("timeout"),
        "{answer}"
    );
    // A body trickled a byte every 2 s (each piece restarting a stall timer) is cut at 10 s
    // in all (formerly: held for over 40 s).
    let mut t = std::net::TcpStream::connect(&host).unwrap();
    t.set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    t.write_all(format!("{head}Content-Length: 100\r\n\r\n").as_bytes())
        .unwrap();
    let t0 = Instant::now();
    let mut answer = Vec::new();
    while t0.elapsed() < Duration::from_secs(30) {
        let _ = t.write_all(b" ");
        let mut buf = [0u8; 512];
        match t.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                answer.extend_from_slice(&buf[..n]);
                break;
            }
            Err(_) => std::thread::sleep(Duration::from_millis(1900)),
        }
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(t0.elapsed() < Duration::from_secs(15), "{:?}", t0.elapsed());
    assert!(
        answer.starts_with("HTTP/1.1 408") && answer.contains("timeout"),
        "{answer}"
    );
    let (st, _) = call(&agent(), "GET", &format!("{}/api/deal/1", s.base), None);
    assert_eq!(st, 200);
}

/// A client that uploads its whole body before reading the answer (as Python's urllib
/// does) gets the 413 of a body over the cap, not a broken pipe: a body of up to 32 MiB is
/// read and dropped before the answer.
#[test]
fn an_upload_over_the_cap_sent_whole_gets_its_413() {
    use std::io::{Read, Write};
    let s = start();
    let host = s.base.trim_start_matches("http://").to_string();
    let mut t = std::net::TcpStream::connect(&host).unwrap();
    t.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let len = 10 << 20;
    let head = format!(
        "POST /api/solve HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {len}\r\nConnection: close\r\n\r\n"
    );
    t.write_all(head.as_bytes()).unwrap();
    t.write_all(&vec![b' '; len])
        .expect("the whole upload is taken");
    let mut answer = Vec::new();
    let _ = t.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("over the cap"), "{answer}");
}

/// Ctrl-C stops the server with 130 (128 + SIGINT), as every command stopped by a signal
/// (it exited 0).
#[test]
fn ctrl_c_stops_the_server_with_130() {
    let mut server = start();
    assert_eq!(server.stop_with(libc::SIGINT), Some(130));
}
