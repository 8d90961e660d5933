//! `analyze --report`'s review page (`index.html`): on a lost and a won game of deal 617, the
//! graph's points are the analysis JSON's moves to win, the losing step is marked, every move
//! has the class its cost gives, the accuracy is the share of best and good moves, and the
//! page loads nothing from outside (the only address besides SVG's namespace is the link to
//! `fcauto serve` on this computer); the better line at the losing step has its replay page. In headless chromium (skipped with a note when it is
//! absent) the page steps with the keyboard, shows each step's analysis beside the board and
//! links the position shown to `serve`'s page.

use crate::common;
use crate::support::browser;

use browser::{wait_for, Browser};
use common::{fcauto, succeed};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// `analyze FIXTURE --deal 617 --json --report DIR --costly 5`: the JSON and index.html.
fn review(game: &str, dir: &Path) -> (Value, String) {
    let report = dir.join("report");
    let out = succeed(
        fcauto()
            .arg("analyze")
            .arg(fixture(game))
            .args(["--deal", "617", "--json", "--costly", "5", "--report"])
            .arg(&report),
    );
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    let page = std::fs::read_to_string(report.join("index.html")).unwrap();
    (j, page)
}

/// The text between `start` (included) and the first `end` after it (included).
fn between<'a>(page: &'a str, start: &str, end: &str) -> &'a str {
    let a = page.find(start).unwrap_or_else(|| panic!("no {start}"));
    let b = a + page[a..].find(end).unwrap_or_else(|| panic!("no {end}")) + end.len();
    &page[a..b]
}

/// The graph's points, parsed as XML: (step, verdict, moves to win) in step order.
fn chart_points(page: &str) -> Vec<(u64, String, Option<u64>)> {
    let svg = between(page, r#"<svg id="chart""#, "</svg>");
    let doc = roxmltree::Document::parse(svg).expect("the chart is well-formed SVG");
    doc.descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("pt")))
        .map(|n| {
            (
                n.attribute("data-step").unwrap().parse().unwrap(),
                n.attribute("data-verdict").unwrap().to_string(),
                n.attribute("data-to-win").map(|v| v.parse().unwrap()),
            )
        })
        .collect()
}

/// The review data the page's script reads.
fn page_review(page: &str) -> Value {
    let tag = r#"<script type="application/json" id="review">"#;
    let data = between(page, tag, "</script>");
    serde_json::from_str(&data[tag.len()..data.len() - "</script>".len()]).unwrap()
}

/// Every `http(s)://` address in the page is SVG's namespace or a link to `fcauto serve` on
/// 127.0.0.1; nothing is loaded from elsewhere.
fn assert_self_contained(page: &str) {
    for (i, _) in page.match_indices("http") {
        let rest = &page[i..];
        if !(rest.starts_with("http://") || rest.starts_with("https://")) {
            continue;
        }
        assert!(
            rest.starts_with("http://www.w3.org/2000/svg") || rest.starts_with("http://127.0.0.1:"),
            "an outside address: {}",
            &rest[..rest.len().min(80)]
        );
    }
    for bad in ["@import", "url(http", "src=\"http", "src='http"] {
        assert!(!page.contains(bad), "{bad}");
    }
}

/// The class the docs define for a move of the JSON, with the costly threshold 5.
fn class_of(m: &Value) -> Value {
    if m["mark"] == "losing" {
        return json!("losing");
    }
    match m["cost"].as_u64() {
        Some(0) => json!("best"),
        Some(c) if c >= 5 => json!("costly"),
        Some(_) => json!("good"),
        None => Value::Null,
    }
}

/// The points, classes and accuracy of the page agree with the analysis JSON `j`.
fn assert_matches_analysis(j: &Value, page: &str) {
    let moves = j["moves"].as_array().unwrap();
    let points = chart_points(page);
    assert_eq!(points.len(), moves.len() + 1);
    assert_eq!(
        points[0],
        (
            0,
            j["start_verdict"].as_str().unwrap().to_string(),
            j["start_moves_to_win"].as_u64()
        )
    );
    for (m, p) in moves.iter().zip(&points[1..]) {
        let want = (
            m["step"].as_u64().unwrap(),
            m["verdict"].as_str().unwrap().to_string(),
            m["moves_to_win"].as_u64(),
        );
        assert_eq!(p, &want);
    }
    let r = page_review(page);
    let classes: Vec<Value> = moves.iter().map(class_of).collect();
    assert_eq!(r["review"]["classes"], json!(classes));
    let count = |c: &str| classes.iter().filter(|v| *v == c).count();
    let classified = count("best") + count("good") + count("costly") + count("losing");
    let share = 100.0 * (count("best") + count("good")) as f64 / classified as f64;
    let accuracy = r["review"]["accuracy"].as_f64().unwrap();
    assert!((accuracy - share).abs() < 0.051, "{accuracy} vs {share}");
    assert!(page.contains(&format!(r#"data-accuracy="{accuracy}""#)));
    for c in ["best", "good", "costly", "losing"] {
        assert!(page.contains(&format!(r#"<span class="c {c}">{c}"#)), "{c}");
    }
    assert_self_contained(page);
}

#[test]
fn the_review_page_of_a_lost_game_marks_the_losing_step() {
    let dir = tempfile::tempdir().unwrap();
    let (j, page) = review("analyze/617-lost-at-27.txt", dir.path());
    assert_eq!(j["first_losing_step"], 27);
    assert_matches_analysis(&j, &page);
    assert!(page.contains(r#"<line id="losing-step" data-step="27""#));
    assert!(chart_points(&page)[28].1 == "lost");
    // The losing move is drawn next to the better one, with a link to try the position before
    // it in serve's page.
    let fig = between(
        &page,
        r#"<figure class="mark losing" id="mark-27""#,
        "</figure>",
    );
    assert_eq!(fig.matches("<img ").count(), 2, "{fig}");
    assert!(fig.contains(&format!(
        "better: {}",
        j["alternative"]["move"].as_str().unwrap()
    )));
    assert!(fig.contains("http://127.0.0.1:8617/?position="));
    // ... and a replay page of the better line, beside the review page.
    assert!(fig.contains(r#"href="step-027-better.html""#), "{fig}");
    let better = std::fs::read_to_string(dir.path().join("report/step-027-better.html")).unwrap();
    let total = j["alternative"]["moves_to_win"].as_u64().unwrap();
    assert!(better.contains(&format!(r#"data-total="{total}""#)));
    assert!(better.contains(r#""won":true"#));
    let r = page_review(&page);
    assert_eq!(r["review"]["losing_step"], 27);
    assert_eq!(r["alternative"], j["alternative"]["line"]);
}

#[test]
fn the_review_page_of_a_won_game_has_no_losing_step() {
    let dir = tempfile::tempdir().unwrap();
    let (j, page) = review("analyze/617-won.txt", dir.path());
    assert!(j["first_losing_step"].is_null());
    assert_matches_analysis(&j, &page);
    assert!(!page.contains(r#"id="losing-step""#));
    assert!(chart_points(&page).iter().all(|p| p.1 == "winnable"));
    assert_eq!(chart_points(&page).last().unwrap().2, Some(0));
}

#[test]
fn the_review_page_steps_with_the_analysis_alongside_in_chromium() {
    if !common::require("chromium") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (j, _) = review("analyze/617-lost-at-27.txt", dir.path());
    let page = dir.path().join("report/index.html");
    let mut b = Browser::launch(
        &format!("file://{}", page.display()),
        &dir.path().join("profile"),
    );
    b.attach_page();
    wait_for(
        &mut b,
        "document.body && document.body.dataset.ready",
        &json!("true"),
    );
    let panel = "document.getElementById('analysis').textContent";
    assert!(b.eval(panel).as_str().unwrap().starts_with("The start: "));
    for _ in 0..3 {
        b.key("ArrowRight", 39);
    }
    let text = b.eval(panel);
    assert!(text.as_str().unwrap().starts_with("Step 3: 4b"), "{text}");
    // A point of the graph shows its step; the losing step says what was better.
    b.eval("document.querySelector('#chart .pt[data-step=\"27\"]').dispatchEvent(new MouseEvent('click'))");
    let text = b.eval(panel);
    assert!(text.as_str().unwrap().contains("losing"), "{text}");
    assert!(
        text.as_str().unwrap().contains("The better line: "),
        "{text}"
    );
    // The last position opens in serve's page.
    b.key("End", 35);
    let href = b.eval("document.getElementById('try-here').href");
    let want = j["final"]["position"]
        .as_str()
        .unwrap()
        .replace('/', "%2F")
        .replace(' ', "%20");
    assert_eq!(
        href,
        json!(format!("http://127.0.0.1:8617/?position={want}"))
    );
    assert_eq!(
        b.eval("document.querySelectorAll('#moves .mv.losing').length"),
        json!(1)
    );
    browser::screenshot(&mut b, "review-617.png");
    let _ = b.call("Browser.close", json!({}));
}
