//! Pictures, the replay page and `analyze` of the FreeCell family's games: `show`/`deal
//! --game G N --format svg|png` draw the game's own cascades and freecells, `solve --game G
//! --format svg|png|html` draws and replays a family solution, and `analyze --game G --deal
//! N` finds where a family game was lost.

use crate::common::{fcauto, succeed};

/// Run fcauto with `args`, which must succeed; its standard output as text.
fn run_ok(args: &[&str]) -> String {
    String::from_utf8(succeed(fcauto().args(args)).stdout).unwrap()
}

/// The number of elements of `class` in an SVG document (which must parse as XML).
fn count_class(svg: &str, class: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is XML");
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .count()
}

#[test]
fn seahaven_is_drawn_with_ten_cascades_and_its_title() {
    for args in [
        &["show", "--game", "seahaven_towers", "5"][..],
        &["deal", "--game", "seahaven_towers", "5", "--format", "svg"],
    ] {
        let svg = run_ok(args);
        assert_eq!(count_class(&svg, "cascade-base"), 10, "{args:?}");
        assert_eq!(count_class(&svg, "freecell"), 4, "{args:?}");
        assert_eq!(count_class(&svg, "card"), 52, "{args:?}");
        assert!(svg.contains("<title>Seahaven Towers position, 0 of 52 cards home</title>"));
        assert!(svg.contains(r#"data-cascade="10""#), "{args:?}");
    }
}

#[test]
fn eight_freecells_are_drawn() {
    for args in [
        &["show", "--freecells", "8", "617"][..],
        &["show", "--game", "eight_off", "5"],
        &["deal", "--freecells", "8", "617", "--format", "svg"],
    ] {
        let svg = run_ok(args);
        assert_eq!(count_class(&svg, "freecell"), 8, "{args:?}");
        assert_eq!(count_class(&svg, "cascade-base"), 8, "{args:?}");
        assert!(svg.contains(r#"data-slot="i""#), "{args:?}");
    }
    let none = run_ok(&["show", "--freecells", "0", "617"]);
    assert_eq!(count_class(&none, "freecell"), 0);
    assert!(none.contains("<title>FreeCell with 0 freecells position,"));
}

/// Standard FreeCell's picture of a deal is the same whichever command draws it.
#[test]
fn show_of_a_freecell_deal_is_deals_picture() {
    assert_eq!(
        run_ok(&["show", "617"]),
        run_ok(&["deal", "617", "--format", "svg"])
    );
}

#[cfg(feature = "png")]
#[test]
fn a_family_png_is_written_and_marked() {
    let dir = tempfile::tempdir().unwrap();
    for (i, args) in [
        &["show", "--game", "seahaven_towers", "5"][..],
        &["solve", "--game", "seahaven_towers", "5", "--step", "3"],
        &["deal", "--game", "eight_off", "5"],
    ]
    .iter()
    .enumerate()
    {
        let out = dir.path().join(format!("p{i}.png"));
        succeed(fcauto().args(*args).arg("-o").arg(&out));
        let reader = png::Decoder::new(std::fs::File::open(&out).unwrap())
            .read_info()
            .expect("a PNG");
        let info = reader.info();
        assert_eq!(info.width, 720, "{args:?}");
        assert!(
            info.uncompressed_latin1_text
                .iter()
                .any(|t| t.keyword == "Software" && t.text == "fcauto picture"),
            "{args:?}"
        );
        // A later run replaces its own picture without --force.
        succeed(fcauto().args(*args).arg("-o").arg(&out));
    }
}

/// The replay page of a Seahaven Towers solution holds every position (the start and one
/// per move) and every move of the solution.
#[test]
fn the_family_replay_page_holds_every_step() {
    let moves = run_ok(&["solve", "--game", "seahaven_towers", "5"]);
    let n = moves.split_whitespace().count();
    let page = run_ok(&[
        "solve",
        "--game",
        "seahaven_towers",
        "5",
        "--format",
        "html",
    ]);
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("<h1>Seahaven Towers deal 5: a solution in"));
    assert!(page.contains(&format!(r#"data-total="{n}""#)));
    assert_eq!(page.matches(r#""o":["#).count(), n + 1);
    assert_eq!(count_class(&svg_of(&page), "cascade-base"), 10);
    for token in moves.split_whitespace() {
        assert!(page.contains(&format!(r#""n":"{token}""#)), "{token}");
    }
    let page = run_ok(&["solve", "--game", "eight_off", "617", "--format", "html"]);
    assert_eq!(count_class(&svg_of(&page), "freecell"), 8);
}

/// The inline SVG of a page.
fn svg_of(page: &str) -> String {
    let a = page.find("<svg").unwrap();
    let b = page[a..].find("</svg>").unwrap();
    page[a..a + b + 6].to_string()
}

/// Not solved: only the start can be drawn, and there is no page to replay.
#[test]
fn an_unsolved_family_deal_draws_only_its_start() {
    let out = fcauto()
        .args(["solve", "--freecells", "2", "1", "--format", "svg"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let svg = String::from_utf8(out.stdout).unwrap();
    assert_eq!(count_class(&svg, "freecell"), 2);
    assert!(!svg.contains(r#"id="caption""#));
    let out = fcauto()
        .args(["solve", "--freecells", "2", "1", "--format", "html"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no solution to replay"));
}
