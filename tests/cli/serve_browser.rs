//! `fcauto serve`'s page in a real browser (Debian's headless `chromium`, see
//! `support/browser.rs`): it loads deal 617, solves it, steps to the end with the keyboard,
//! and the DOM shows a king on all four foundations; then a legal move is played by clicking
//! its button and an illegal typed move is refused with the broken rule. The screenshot is
//! kept as `target/tmp/serve-617.png`. Needs `--features serve`; skipped with a note when
//! chromium is absent (a failure in CI).

use crate::common;
use crate::support::browser;
use crate::support::server;

use browser::{screenshot, wait_for, Browser};
use serde_json::json;

#[test]
fn the_served_page_solves_replays_and_referees_in_chromium() {
    if !common::require("chromium") {
        return;
    }
    // The page loads deal 617 (its default) and lists the legal moves.
    let (_s, _dir, mut b) = loaded_page();
    let tops = "JSON.stringify(Array.from(document.querySelectorAll('#board .foundation')).map(f => f.dataset.top))";
    assert_eq!(b.eval(tops), json!(r#"["","","",""]"#));

    b.eval("document.getElementById('solve').click()");
    wait_for(
        &mut b,
        "document.getElementById('counter').textContent.startsWith('move 0 / ')",
        &json!(true),
    );
    let total: u64 = b
        .eval("document.getElementById('counter').textContent.split('/ ')[1]")
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(total > 50, "{total} moves");
    b.key("ArrowRight", 39);
    wait_for(
        &mut b,
        "document.getElementById('counter').textContent",
        &json!("move 1 / ".to_string() + &total.to_string()),
    );
    b.key("End", 35);
    wait_for(
        &mut b,
        "document.getElementById('counter').textContent",
        &json!(format!("move {total} / {total}")),
    );
    wait_for(&mut b, tops, &json!(r#"["K","K","K","K"]"#));
    screenshot(&mut b, "serve-617.png");

    // Play by hand: a new game, a legal move by its button, an illegal one typed.
    b.eval("document.getElementById('load').click()");
    wait_for(
        &mut b,
        "document.getElementById('status').textContent",
        &json!("deal 617"),
    );
    b.eval("document.querySelector('#moves button').click()");
    wait_for(
        &mut b,
        "document.getElementById('status').textContent.startsWith('played ')",
        &json!(true),
    );
    b.eval(
        "document.getElementById('movetext').value = '1h'; document.getElementById('play').click()",
    );
    wait_for(
        &mut b,
        "document.getElementById('status').className",
        &json!("error"),
    );
    let said = b.eval("document.getElementById('status').textContent");
    assert!(
        said.as_str().unwrap().contains("illegal move `1h`"),
        "{said}"
    );
    // What is typed as the deal is the deal, encoded (formerly: `617?x` went as a query and
    // loaded 617); a refusal is said, and the board keeps its picture.
    b.eval(
        "document.getElementById('deal').value = '617?x'; document.getElementById('load').click()",
    );
    wait_for(
        &mut b,
        "document.getElementById('status').textContent.includes('617?x')",
        &json!(true),
    );
    let class = b.eval("document.getElementById('status').className");
    assert_eq!(class, json!("error"));
    // PySolFC's name for a deal loads it too.
    b.eval(
        "document.getElementById('deal').value = 'ms617'; document.getElementById('load').click()",
    );
    wait_for(
        &mut b,
        "document.getElementById('status').textContent",
        &json!("deal ms617"),
    );
    assert_eq!(
        b.eval("document.querySelector('#board svg') !== null"),
        json!(true)
    );
    let _ = b.call("Browser.close", json!({}));
}

/// The solution's keys (arrows, Home, End) are the page's only when the user is not typing
/// or choosing: in the board textarea, the mode list, an editable element, or with a
/// modifier held, they do nothing to the solution. A hint on a won position is no error.
#[test]
fn solution_keys_leave_typing_alone_and_a_won_hint_is_no_error() {
    if !common::require("chromium") {
        return;
    }
    let (_s, _dir, mut b) = solved_page();
    let counter = COUNTER;
    b.eval("document.querySelector('details').open = true");
    b.eval(
        "const e = document.createElement('div'); e.id = 'editable'; \
         e.contentEditable = 'true'; e.textContent = 'x'; document.body.appendChild(e); 1",
    );
    for target in ["boardtext", "mode", "editable"] {
        b.eval(&format!("document.getElementById('{target}').focus()"));
        for (key, code) in [("ArrowRight", 39), ("End", 35)] {
            b.key(key, code);
            assert_eq!(b.eval(counter), json!("move 0"), "{key} in #{target}");
        }
    }
    b.eval("document.activeElement.blur()");
    for modifiers in [1, 2, 4, 8] {
        b.key_with("End", 35, modifiers);
        assert_eq!(b.eval(counter), json!("move 0"), "End with {modifiers}");
    }
    b.key("ArrowRight", 39);
    wait_for(&mut b, counter, &json!("move 1"));

    // A won position: the hint says so, not in the error style.
    b.eval(
        "document.getElementById('boardtext').value = '-/-/-/-/-/-/-/- ---- KKKK'; \
         document.getElementById('paste').click()",
    );
    wait_for(
        &mut b,
        "document.getElementById('status').textContent.startsWith('board loaded')",
        &json!(true),
    );
    b.eval("document.getElementById('hint').click()");
    wait_for(
        &mut b,
        "document.getElementById('status').textContent.startsWith('board loaded')",
        &json!(false),
    );
    let class = b.eval("document.getElementById('status').className");
    let text = b.eval("document.getElementById('status').textContent");
    assert_ne!(class, json!("error"), "{text}");
    assert!(text.as_str().unwrap().contains("won"), "{text}");
    let _ = b.call("Browser.close", json!({}));
}

/// The board and move buttons are always the latest step's: an answer to an older step that
/// comes late is dropped (formerly: after quick steps the buttons were the step before's,
/// and one of them illegal). One key press with the slider focused is one step (it was two:
/// the page's and the slider's own). A solve answered after another deal was loaded is
/// dropped. An empty deal field is named as such.
#[test]
fn late_answers_never_replace_the_latest_step_and_one_key_is_one_step() {
    if !common::require("chromium") {
        return;
    }
    let (_s, _dir, mut b) = solved_page();
    let counter = COUNTER;
    // The next answer the page asks for comes 800 ms late; those after it at once.
    b.eval(
        "window.realFetch = window.fetch; let asked = 0; \
         window.fetch = (...a) => { const k = asked++; return window.realFetch(...a).then(r => \
           new Promise(done => setTimeout(() => done(r), k === 0 ? 800 : 0))); }; 1",
    );
    b.key("ArrowRight", 39);
    b.key("ArrowRight", 39);
    wait_for(&mut b, counter, &json!("move 2"));
    std::thread::sleep(std::time::Duration::from_millis(1500));
    b.eval("window.fetch = window.realFetch; 1");
    // The buttons shown against the legal moves of the position of the step shown.
    let shown = b.eval(
        "Array.from(document.querySelectorAll('#moves button')).map(b => b.textContent).join(' ')",
    );
    let legal = b.eval(
        "(() => { const x = new XMLHttpRequest(); x.open('POST', '/api/moves', false); \
         x.setRequestHeader('Content-Type', 'application/json'); \
         x.send(JSON.stringify({ position: line.positions[step] })); \
         return JSON.parse(x.responseText).moves \
           .map(m => m.notation + (m.count > 1 ? '\\u00d7' + m.count : '')).join(' '); })()",
    );
    assert!(shown.as_str().is_some_and(|s| !s.is_empty()), "{shown}");
    assert_eq!(shown, legal, "the buttons are the latest step's moves");

    b.eval("document.getElementById('slider').focus()");
    b.key("ArrowRight", 39);
    wait_for(&mut b, counter, &json!("move 3"));
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(b.eval(counter), json!("move 3"), "one key, one step");

    // A solve asked, then another deal loaded before its answer: the answer is dropped
    // (formerly: deal 1's solution showed over deal 2).
    b.eval(
        "document.getElementById('solve').click(); \
         document.getElementById('deal').value = '2'; document.getElementById('load').click()",
    );
    wait_for(
        &mut b,
        "document.getElementById('status').textContent",
        &json!("deal 2"),
    );
    std::thread::sleep(std::time::Duration::from_millis(2000));
    let same = b.eval(
        "(() => { const x = new XMLHttpRequest(); x.open('GET', '/api/deal/2', false); x.send(); \
         return JSON.stringify(JSON.parse(x.responseText).position) === JSON.stringify(position); })()",
    );
    assert_eq!(same, json!(true), "the position shown is deal 2's");
    assert_eq!(
        b.eval("document.getElementById('status').textContent"),
        json!("deal 2")
    );
    assert_eq!(
        b.eval("document.getElementById('counter').textContent"),
        json!("no solution")
    );
    b.eval("document.getElementById('deal').value = '  '; document.getElementById('load').click()");
    wait_for(
        &mut b,
        "document.getElementById('status').textContent.startsWith('give a deal number')",
        &json!(true),
    );
    let _ = b.call("Browser.close", json!({}));
}

/// The counter's step, `move K`.
const COUNTER: &str = "document.getElementById('counter').textContent.split(' / ')[0]";

/// A server and the page in chromium, deal 617 loaded (its move buttons listed); the server
/// and the profile folder live as long as they are held.
fn loaded_page() -> (server::Server, tempfile::TempDir, Browser) {
    let s = server::start();
    let dir = tempfile::tempdir().unwrap();
    let mut b = Browser::launch(&format!("{}/", s.base), &dir.path().join("profile"));
    b.attach_page();
    wait_for(
        &mut b,
        "document.querySelectorAll('#moves button').length > 0",
        &json!(true),
    );
    (s, dir, b)
}

/// [`loaded_page`] with deal 617 solved on it (the counter at `move 0`).
fn solved_page() -> (server::Server, tempfile::TempDir, Browser) {
    let (s, dir, mut b) = loaded_page();
    b.eval("document.getElementById('solve').click()");
    wait_for(&mut b, COUNTER, &json!("move 0"));
    (s, dir, b)
}
