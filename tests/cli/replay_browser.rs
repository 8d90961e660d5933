//! The replay page in a real browser: Debian's `chromium`, headless, driven through the
//! DevTools protocol over `--remote-debugging-pipe` (commands on fd 3, replies on fd 4, each
//! a JSON message ended by a NUL byte). It loads `solve 617 --format html`, steps with the
//! keyboard and a button, goes to the end with the End key, and checks through the DOM that
//! all four foundations show kings; the screenshot is kept as
//! `target/tmp/replay-617.png`. Skipped with a note when chromium is absent (a failure in CI).

use crate::common;
use crate::support::browser;

use browser::{screenshot, Browser};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The replay page's step counter (`#counter`'s `data-step`).
fn step(b: &mut Browser) -> u64 {
    let v = b.eval("Number(document.getElementById('counter').dataset.step)");
    v.as_u64().unwrap_or_else(|| panic!("counter: {v}"))
}

#[test]
fn the_replay_page_steps_to_a_won_board_in_chromium() {
    if !common::require("chromium") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("617.html");
    let json = common::fcauto()
        .args(["solve", "617", "--format", "json"])
        .output()
        .unwrap();
    let solution: Value = serde_json::from_slice(&json.stdout).unwrap();
    let total = solution["moves_total"].as_u64().unwrap();
    common::fcauto()
        .args(["solve", "617", "--format", "html", "-o"])
        .arg(&page)
        .assert()
        .success();

    let mut b = Browser::launch(
        &format!("file://{}", page.display()),
        &dir.path().join("profile"),
    );
    b.attach_page();
    let deadline = Instant::now() + Duration::from_secs(30);
    while b.eval("document.body && document.body.dataset.ready") != json!("true") {
        assert!(Instant::now() < deadline, "the page's script did not run");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(step(&mut b), 0);
    let tops = "JSON.stringify(Array.from(document.querySelectorAll('.foundation')).map(f => f.dataset.top))";
    assert_eq!(b.eval(tops), json!(r#"["","","",""]"#));

    for _ in 0..3 {
        b.key("ArrowRight", 39);
    }
    assert_eq!(step(&mut b), 3);
    assert_eq!(
        b.eval("document.getElementById('move').textContent.slice(0, 2)"),
        solution["moves"][2]["notation"]
    );
    b.eval("document.getElementById('prev').click()");
    assert_eq!(step(&mut b), 2);
    b.key("End", 35);
    assert_eq!(step(&mut b), total);
    assert_eq!(b.eval(tops), json!(r#"["K","K","K","K"]"#));
    // Each king is drawn where its foundation slot is, above the rest of its suit.
    let kings_home = r#"JSON.stringify(['C','D','H','S'].map(s => {
        const slot = document.querySelector('.foundation[data-suit="' + s + '"] rect').getBoundingClientRect();
        const king = document.getElementById('card-K' + s);
        const r = king.getBoundingClientRect();
        const cards = Array.from(document.getElementById('cards').children);
        const above = cards.indexOf(king) > cards.indexOf(document.getElementById('card-Q' + s));
        return Math.abs(r.x - slot.x) < 2 && Math.abs(r.y - slot.y) < 2 && above;
    }))"#;
    assert_eq!(b.eval(kings_home), json!("[true,true,true,true]"));
    assert!(b
        .eval("document.getElementById('move').textContent")
        .as_str()
        .unwrap()
        .ends_with("Won!"));

    screenshot(&mut b, "replay-617.png");
    let _ = b.call("Browser.close", json!({}));
}
