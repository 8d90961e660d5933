//! `fcauto serve`'s analysis, `POST /api/analyze`, against a live server on 127.0.0.1: the
//! lost and the won game of deal 617 (the fixtures of `analyze`'s tests) answered with their
//! findings and review, the review agreeing with the findings, and the refusals (an illegal
//! move, no notation, too many moves, a bad mode or threshold, a start given twice). In
//! headless chromium (skipped with a note when it is absent): the page opens a position its
//! address names, and its "Analyze" control shows the game played so far.

use crate::common;
use crate::support::browser;
use crate::support::server;

use browser::{wait_for, Browser};
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

/// `POST /api/analyze` with `body`: the status and the JSON answer.
fn analyze(base: &str, body: Value) -> (u16, Value) {
    let a = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(120))
        .build();
    let r = match a.post(&format!("{base}/api/analyze")).send_json(body) {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{e}"),
    };
    (r.status(), r.into_json().unwrap())
}

/// The review's points and classes are the findings' moves to win and marks.
fn assert_review_agrees(a: &Value) {
    let moves = a["moves"].as_array().unwrap();
    let rv = &a["review"];
    let points = rv["points"].as_array().unwrap();
    assert_eq!(points.len(), moves.len() + 1);
    assert_eq!(points[0]["moves_to_win"], a["start_moves_to_win"]);
    for (m, p) in moves.iter().zip(&points[1..]) {
        assert_eq!(
            (&p["step"], &p["moves_to_win"]),
            (&m["step"], &m["moves_to_win"])
        );
        assert_eq!(p["verdict"], m["verdict"]);
    }
    let threshold = a["costly_threshold"].as_u64().unwrap();
    for (m, c) in moves.iter().zip(rv["classes"].as_array().unwrap()) {
        let want = match (m["mark"].as_str(), m["cost"].as_u64()) {
            (Some("losing"), _) => json!("losing"),
            (_, Some(0)) => json!("best"),
            (_, Some(n)) if n >= threshold => json!("costly"),
            (_, Some(_)) => json!("good"),
            _ => Value::Null,
        };
        assert_eq!(c, &want, "{m}");
    }
    assert_eq!(rv["losing_step"], a["first_losing_step"]);
    assert!(rv["accuracy"].is_number(), "{rv}");
}

#[test]
fn a_lost_and_a_won_game_are_analysed() {
    let s = server::start();
    let (st, a) = analyze(
        &s.base,
        json!({"deal": 617, "moves": fixture("analyze/617-lost-at-27.txt"), "costly": 5}),
    );
    assert_eq!(st, 200, "{a}");
    assert_eq!(a["first_losing_step"], 27);
    assert_eq!(a["moves"][26]["move"], "5b");
    assert_eq!(a["review"]["classes"][26], "losing");
    assert_eq!(a["review"]["counts"]["losing"], 1);
    assert!(a["alternative"]["line"].as_array().unwrap().len() > 10);
    assert_eq!(a["final"]["verdict"], "lost");
    assert_eq!(
        a["start"],
        fcauto_deals::position::write(&fcauto_deals::ms_deal(617).unwrap())
    );
    assert_review_agrees(&a);

    // The won game, from its start as a position string; the review counts no loss.
    let start = fcauto_deals::position::write(&fcauto_deals::ms_deal(617).unwrap());
    let (st, w) = analyze(
        &s.base,
        json!({"position": start, "moves": fixture("analyze/617-won.txt")}),
    );
    assert_eq!(st, 200, "{w}");
    assert!(w["first_losing_step"].is_null());
    assert_eq!(w["final"]["won"], true);
    assert_eq!(w["review"]["counts"]["losing"], 0);
    assert_eq!(w["review"]["points"][100]["moves_to_win"], 0);
    assert_review_agrees(&w);
}

#[test]
fn bad_analysis_requests_are_refused_in_their_own_words() {
    let s = server::start();
    let many = vec!["3a a3"; 251].join(" ");
    for (body, status, said) in [
        (json!({"deal": 617, "moves": "4a 46 1h"}), 422, "step 3"),
        (
            json!({"deal": 617, "moves": "4a zz"}),
            422,
            "not standard notation",
        ),
        (json!({"deal": 617, "moves": many}), 413, "at most 500"),
        (json!({"deal": 617}), 400, "moves"),
        (
            json!({"deal": 617, "moves": "4a", "mode": "optimal"}),
            400,
            "mode",
        ),
        (
            json!({"deal": 617, "moves": "4a", "costly": 0}),
            400,
            "costly 0",
        ),
        (
            json!({"deal": 617, "moves": "4a", "costly": 1.5}),
            400,
            "costly",
        ),
        (
            json!({"deal": 617, "moves": "4a", "max_states": 0}),
            400,
            "max_states",
        ),
        (json!({"moves": "4a"}), 400, "exactly one of"),
        (
            json!({"deal": 617, "moves": "4a", "extra": 1}),
            400,
            "extra",
        ),
    ] {
        let (st, r) = analyze(&s.base, body.clone());
        assert_eq!(st, status, "{body}: {r}");
        let e = r["error"].as_str().unwrap_or_default();
        assert!(e.contains(said), "{body}: {e}");
    }
    // A game of no moves is the start's verdict.
    let (st, r) = analyze(&s.base, json!({"deal": 617, "moves": ""}));
    assert_eq!((st, &r["start_verdict"]), (200, &json!("winnable")), "{r}");
    assert_eq!(r["review"]["accuracy"], Value::Null);
}

#[test]
fn the_page_opens_a_named_position_and_analyses_the_game_played() {
    if !common::require("chromium") {
        return;
    }
    let s = server::start();
    let dir = tempfile::tempdir().unwrap();
    let start = fcauto_deals::position::write(&fcauto_deals::ms_deal(617).unwrap());
    let mut b = open_position(&s.base, &start, &dir.path().join("profile"));
    wait_for(
        &mut b,
        "document.querySelectorAll('#moves button').length > 0",
        &json!(true),
    );
    for mv in ["4a", "46"] {
        b.eval(&format!(
            "document.getElementById('movetext').value = '{mv}'; document.getElementById('play').click()"
        ));
        wait_for(
            &mut b,
            "document.getElementById('status').textContent",
            &json!(format!("played {mv}")),
        );
    }
    b.eval("document.getElementById('analyze').click()");
    wait_for(
        &mut b,
        "document.getElementById('status').textContent",
        &json!("analysed: 2 moves"),
    );
    let summary = b.eval("document.getElementById('review-summary').textContent");
    assert!(
        summary.as_str().unwrap().starts_with("accuracy "),
        "{summary}"
    );
    assert_eq!(
        b.eval("document.querySelectorAll('#review-chart .pt').length"),
        json!(3)
    );
    assert_eq!(
        b.eval("Array.from(document.querySelectorAll('#review-moves span')).map(e => e.textContent).join(' ')"),
        json!("4a 46")
    );
    browser::screenshot(&mut b, "serve-analyze-617.png");
    let _ = b.call("Browser.close", json!({}));
}

/// A position of another game opened from the address (`?position=seahaven_towers: ...`)
/// sets the page's game selector to that game and clears the deal (they still said FreeCell
/// and 617).
#[test]
fn the_page_shows_the_game_of_a_named_position() {
    if !common::require("chromium") {
        return;
    }
    let s = server::start();
    let dir = tempfile::tempdir().unwrap();
    let url = format!("{}/api/deal/5?game=seahaven_towers", s.base);
    let (st, r) = server::call(&server::agent(), "GET", &url, None);
    assert_eq!(st, 200, "{r}");
    let start = r["position_string"].as_str().unwrap().to_string();
    let mut b = open_position(&s.base, &start, &dir.path().join("profile"));
    assert_eq!(
        b.eval("document.getElementById('game').value"),
        json!("seahaven_towers")
    );
    assert_eq!(b.eval("document.getElementById('deal').value"), json!(""));
    assert_eq!(
        b.eval("document.getElementById('freecells').value"),
        json!("")
    );
}

/// The served page at `base` opened on the position string `start` (`/?position=...`), once
/// it says the board is loaded.
fn open_position(base: &str, start: &str, profile: &Path) -> Browser {
    let query = start
        .replace('/', "%2F")
        .replace(' ', "%20")
        .replace(':', "%3A");
    let mut b = Browser::launch(&format!("{base}/?position={query}"), profile);
    b.attach_page();
    wait_for(
        &mut b,
        "document.getElementById('status').textContent",
        &json!(format!("board loaded: {start}")),
    );
    b
}
