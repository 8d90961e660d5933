//! Board pictures and the replay page from the command line: `deal`/`solve`/`show`
//! `--format svg|png|html`, `--step`, `--width`, and their errors.

use crate::common;

use common::fcauto;
use serde_json::Value;

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// Run fcauto; stdout as text (asserting success).
fn run_ok(args: &[&str]) -> String {
    let out = fcauto().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The SVG's card elements: card name -> (x, y) from its `translate(x y)`.
fn cards(doc: &roxmltree::Document) -> std::collections::BTreeMap<String, (i32, i32)> {
    doc.descendants()
        .filter(|n| n.has_tag_name((SVG_NS, "g")) && n.attribute("class") == Some("card"))
        .map(|n| {
            let t = n.attribute("transform").unwrap();
            let xy: Vec<i32> = t
                .trim_start_matches("translate(")
                .trim_end_matches(')')
                .split(' ')
                .map(|v| v.parse().unwrap())
                .collect();
            (
                n.attribute("data-card").unwrap().to_string(),
                (xy[0], xy[1]),
            )
        })
        .collect()
}

/// The top-left corner of the first rect inside the slot `<g class=CLASS ATTR=VALUE>`.
fn slot(doc: &roxmltree::Document, class: &str, attr: &str, value: &str) -> (i32, i32) {
    let g = doc
        .descendants()
        .find(|n| n.attribute("class") == Some(class) && n.attribute(attr) == Some(value))
        .unwrap_or_else(|| panic!("no {class} {value}"));
    let r = g
        .children()
        .find(|n| n.has_tag_name((SVG_NS, "rect")))
        .unwrap();
    let num = |a| r.attribute(a).unwrap().parse().unwrap();
    (num("x"), num("y"))
}

/// `data-top` of the four foundations, C D H S.
fn foundation_tops(doc: &roxmltree::Document) -> Vec<String> {
    ["C", "D", "H", "S"]
        .iter()
        .map(|s| {
            doc.descendants()
                .find(|n| {
                    n.attribute("class") == Some("foundation")
                        && n.attribute("data-suit") == Some(s)
                })
                .and_then(|n| n.attribute("data-top"))
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn a_deal_as_svg_is_xml_with_all_52_cards_in_the_cascades_as_dealt() {
    let svg = run_ok(&["deal", "617", "--format", "svg", "--width", "900"]);
    let doc = roxmltree::Document::parse(&svg).expect("SVG parses as XML");
    let root = doc.root_element();
    assert!(root.has_tag_name((SVG_NS, "svg")));
    assert_eq!(root.attribute("width"), Some("900"));
    let placed = cards(&doc);
    assert_eq!(placed.len(), 52);
    // Column by column, deepest card first, as `deal 617` prints them.
    let text = run_ok(&["deal", "617"]);
    for (i, line) in text.lines().enumerate() {
        let col: Vec<&str> = line.trim_start_matches(':').split_whitespace().collect();
        let x0 = placed[col[0]].0;
        for (d, c) in col.iter().enumerate() {
            let (x, y) = placed[*c];
            assert_eq!(x, x0, "cascade {} card {c}", i + 1);
            assert!(d == 0 || y > placed[col[d - 1]].1, "{c} below its parent");
        }
    }
    assert_eq!(foundation_tops(&doc), ["", "", "", ""]);
    // Readable: rank and suit symbol as text, red and black.
    assert!(svg.contains(">10\u{2665}<") && svg.contains(">K\u{2660}<"));
    assert!(svg.contains("#c8102e") && svg.contains("#111111"));
}

#[test]
fn solve_step_k_draws_the_freecells_and_foundations_after_move_k() {
    let json: Value = serde_json::from_str(&run_ok(&["solve", "617", "--format", "json"])).unwrap();
    let moves = json["moves"].as_array().unwrap();
    // The first move into a freecell: that card must be drawn in that freecell.
    let k = moves
        .iter()
        .position(|m| m["to"].as_str().unwrap() <= "d" && m["to"].as_str().unwrap() >= "a")
        .unwrap()
        + 1;
    let m = &moves[k - 1];
    let svg = run_ok(&["solve", "617", "--format", "svg", "--step", &k.to_string()]);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let card = m["card"].as_str().unwrap();
    assert_eq!(
        cards(&doc)[card],
        slot(&doc, "freecell", "data-slot", m["to"].as_str().unwrap())
    );
    assert!(
        svg.contains(r#"<g id="hl" visibility="visible""#),
        "move {k} highlighted"
    );
    // Foundations after k moves, counted from the JSON.
    let tops = |k: usize| -> Vec<String> {
        let ranks = [
            "", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
        ];
        let mut n = [0usize; 4];
        for m in &moves[..k] {
            if m["to"] == "h" {
                n["CDHS".find(&m["card"].as_str().unwrap()[1..]).unwrap()] += 1;
            }
        }
        n.iter().map(|&i| ranks[i].to_string()).collect()
    };
    let mid = moves.len() / 2;
    let doc_mid = run_ok(&[
        "solve",
        "617",
        "--format",
        "svg",
        "--step",
        &mid.to_string(),
    ]);
    assert_eq!(
        foundation_tops(&roxmltree::Document::parse(&doc_mid).unwrap()),
        tops(mid)
    );
    let end = run_ok(&[
        "solve",
        "617",
        "--format",
        "svg",
        "--step",
        &moves.len().to_string(),
    ]);
    let end = roxmltree::Document::parse(&end).unwrap();
    assert_eq!(foundation_tops(&end), ["K", "K", "K", "K"]);
    assert_eq!(
        cards(&end)["KH"],
        slot(&end, "foundation", "data-suit", "H")
    );
}

#[test]
fn the_replay_page_is_self_contained_and_holds_every_step() {
    let html = run_ok(&["solve", "617", "--format", "html"]);
    assert!(html.starts_with("<!DOCTYPE html>"));
    // No network: no external script, style sheet, font or image; the only URL is the SVG
    // namespace.
    for bad in ["<script src", "<link", "@import", "url(http", "src=\"http"] {
        assert!(!html.contains(bad), "{bad}");
    }
    assert_eq!(html.matches("http").count(), html.matches(SVG_NS).count());
    let start = html
        .find(r#"<script type="application/json" id="data">"#)
        .unwrap();
    let rest = &html[start..];
    let data = &rest[rest.find('>').unwrap() + 1..rest.find("</script>").unwrap()];
    let data: Value = serde_json::from_str(data).unwrap();
    let n = data["moves"].as_array().unwrap().len();
    assert_eq!(data["steps"].as_array().unwrap().len(), n + 1);
    assert_eq!(data["steps"][n]["f"], serde_json::json!([13, 13, 13, 13]));
    // Safe foundation moves are marked as the solver's auto-play; aces always are safe.
    let aces: Vec<&Value> = data["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| {
            m["t"].as_str().unwrap().starts_with('A') && m["n"].as_str().unwrap().ends_with('h')
        })
        .collect();
    assert_eq!(aces.len(), 4);
    assert!(aces.iter().all(|m| m["a"] == true));
}

#[test]
fn show_draws_a_board_file_with_its_freecells() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("b.txt");
    let mut text = run_ok(&["deal", "617"]);
    // Take the top card of cascade 1 into freecell b.
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let top = lines[0].split_whitespace().last().unwrap().to_string();
    lines[0] = lines[0].rsplit_once(' ').unwrap().0.to_string();
    text = lines.join("\n") + &format!("\nFreecells: - {top} - -\n");
    std::fs::write(&board, text).unwrap();
    let out = dir.path().join("b.svg");
    fcauto()
        .args(["show", "--board"])
        .arg(&board)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(cards(&doc).len(), 52);
    assert_eq!(cards(&doc)[&top], slot(&doc, "freecell", "data-slot", "b"));
}

#[test]
fn bad_picture_requests_fail_with_clear_messages() {
    let fails = |args: &[&str], code: i32, want: &str| {
        let out = fcauto().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    fails(
        &["solve", "617", "--format", "svg", "--step", "500"],
        1,
        "--step 500 is past the end: the solution has",
    );
    fails(
        &["deal", "617", "--format", "svg", "--width", "50"],
        2,
        "50 pixels is out of range (200..=4096)",
    );
    fails(
        &["deal", "617", "--format", "svg", "--width", "wide"],
        2,
        "not a whole number of pixels",
    );
    // A whole number too large for any width is out of range too, not "not a number".
    fails(
        &[
            "deal",
            "617",
            "--format",
            "svg",
            "--width",
            "99999999999999999999",
        ],
        2,
        "99999999999999999999 pixels is out of range (200..=4096)",
    );
    fails(
        &["deal", "617", "--width", "300"],
        2,
        "--width needs --format svg or png",
    );
    // Each option names the formats it works with: --step draws one position (not html's
    // page), --width sizes any picture.
    fails(
        &["solve", "617", "--step", "3"],
        2,
        "error: --step needs --format svg or png\n",
    );
    fails(
        &["solve", "617", "--width", "300"],
        2,
        "error: --width needs --format svg, png or html\n",
    );
    fails(
        &["solve", "617", "--step", "3", "--width", "300"],
        2,
        "--step needs --format svg or png, and --width --format svg, png or html",
    );
    fails(
        &["solve", "617", "--format", "html", "--step", "3"],
        2,
        "--step needs --format svg or png",
    );
    fails(
        &["show", "--board", "/nonexistent/b.txt"],
        1,
        "cannot read board file /nonexistent/b.txt",
    );
    fails(
        &["solve", "11982", "--format", "html"],
        1,
        "no solution to replay",
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "KH KH\n").unwrap();
    fails(&["show", "--board", bad.to_str().unwrap()], 1, "line 1");
}

/// A picture or replay page given as a board is named as such (it was read as board text:
/// "a position string is at most 1024 bytes", "line 16: a position string after moves").
#[test]
fn a_picture_or_page_given_as_a_board_is_named() {
    let dir = tempfile::tempdir().unwrap();
    for (format, kind) in [("svg", "an SVG picture"), ("html", "an HTML page")] {
        let file = dir.path().join(format!("617.{format}"));
        let file = file.to_str().unwrap();
        let out = fcauto()
            .args(["solve", "617", "--format", format, "-o", file])
            .output()
            .unwrap();
        assert!(out.status.success());
        for command in ["show", "solve"] {
            let out = fcauto().args([command, "--board", file]).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{err}");
            assert!(
                err.contains(&format!("{file} is {kind}")) && err.contains("not a board"),
                "{err}"
            );
        }
    }
}

/// The picture of a deal no solution was found for (its start: a limit stopped the search, or
/// it is unsolvable) is captioned with the deal and says so (it had no caption).
#[test]
fn an_unsolved_deals_picture_says_so() {
    for (args, deal) in [
        (
            vec!["solve", "617", "--max-states", "10", "--format", "svg"],
            617,
        ),
        (vec!["solve", "11982", "--format", "svg"], 11982),
    ] {
        let out = fcauto().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let svg = String::from_utf8(out.stdout).unwrap();
        let caption = format!(">deal {deal}, the start: no solution found</text>");
        assert!(
            svg.contains(&caption),
            "{args:?}: {}",
            &svg[svg.len().saturating_sub(300)..]
        );
    }
}

#[cfg(feature = "png")]
#[test]
fn png_pictures_decode_at_the_width_asked() {
    let dir = tempfile::tempdir().unwrap();
    for (args, width) in [
        (
            vec!["deal", "617", "--format", "png", "--width", "480"],
            480,
        ),
        (vec!["solve", "617", "--format", "png", "--step", "5"], 720),
        (
            vec![
                "solve", "617", "--format", "png", "--step", "30", "--width", "300",
            ],
            300,
        ),
    ] {
        let out = dir.path().join("p.png");
        fcauto().args(&args).arg("-o").arg(&out).assert().success();
        let decoder = png::Decoder::new(std::fs::File::open(&out).unwrap());
        let mut reader = decoder.read_info().expect("a PNG");
        let info = reader.info();
        assert_eq!(info.width, width, "{args:?}");
        assert!(
            info.height > width / 2 && info.height < width * 2,
            "{args:?}"
        );
        // Opaque to its edges (formerly: the rows above and below the drawing, a fraction
        // of a pixel, were partly see-through).
        let (w, h) = (info.width as usize, info.height as usize);
        let mut buf = vec![0; reader.output_buffer_size()];
        let frame = reader.next_frame(&mut buf).unwrap();
        assert_eq!(frame.color_type, png::ColorType::Rgba);
        let alpha = |x: usize, y: usize| buf[(y * w + x) * 4 + 3];
        let edges = (0..w).flat_map(|x| [(x, 0), (x, h - 1)]);
        let sides = (0..h).flat_map(|y| [(0, y), (w - 1, y)]);
        assert!(
            edges.chain(sides).all(|(x, y)| alpha(x, y) == 255),
            "{args:?}"
        );
    }
}

/// Without `--format`, the `-o` name's extension chooses it (formerly: `show -o b.png` wrote
/// SVG into b.png); a `--format` given wins, with a note naming both; an unknown extension
/// or standard output keeps the command's default.
#[cfg(feature = "png")]
#[test]
fn the_output_name_chooses_the_format() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("617.board");
    let at = |name: &str| dir.path().join(name);
    let run = |args: &[&str], out: &std::path::Path| {
        let o = fcauto().args(args).arg("-o").arg(out).output().unwrap();
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        (
            std::fs::read(out).unwrap(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let is_png = |b: &[u8]| b.starts_with(b"\x89PNG\r\n");
    let starts = |b: &[u8], text: &str| String::from_utf8_lossy(b).starts_with(text);
    let (text, _) = run(&["deal", "617"], &board);
    assert!(starts(&text, "7D TD TH KD"));
    let b = board.to_str().unwrap();
    for (args, name, check) in [
        (
            &["deal", "617"][..],
            "d.png",
            &is_png as &dyn Fn(&[u8]) -> bool,
        ),
        (&["deal", "617"], "d.json", &|b: &[u8]| {
            starts(b, "{\"deal\":617")
        }),
        (&["deal", "617"], "d.SVG", &|b: &[u8]| starts(b, "<svg")),
        (&["deal", "617"], "d.weird", &|b: &[u8]| starts(b, "7D TD")),
        (&["show", "--board", b], "b.png", &is_png),
        (&["show", "--board", b], "b.svg", &|b: &[u8]| {
            starts(b, "<svg")
        }),
        (
            &["solve", "617", "--mode", "fast"],
            "s.json",
            &|b: &[u8]| starts(b, "{"),
        ),
        (
            &["solve", "617", "--mode", "fast"],
            "s.html",
            &|b: &[u8]| starts(b, "<!DOCTYPE html>"),
        ),
        (&["solve", "617", "--mode", "fast"], "s.png", &is_png),
        (
            &["solve", "617", "--mode", "fast"],
            "s.txt",
            &|b: &[u8]| !starts(b, "{"),
        ),
    ] {
        let (bytes, err) = run(args, &at(name));
        assert!(check(&bytes), "{args:?} -o {name}");
        assert!(!err.contains("note:"), "{err}");
    }
    let (bytes, err) = run(&["show", "--board", b, "--format", "png"], &at("x.svg"));
    assert!(is_png(&bytes));
    assert!(
        err.contains("writing png into") && err.contains("whose name says svg"),
        "{err}"
    );
    // A hidden name is its extension (formerly: `-o .png` wrote text); a format this command
    // does not write gets the default with a note (`deal -o a.html`).
    let (bytes, err) = run(&["deal", "617"], &at(".png"));
    assert!(is_png(&bytes), "{err}");
    let (bytes, err) = run(&["deal", "617"], &at("x.png."));
    assert!(is_png(&bytes), "trailing dot: {err}");
    let (bytes, err) = run(&["deal", "617"], &at("a.html"));
    assert!(starts(&bytes, "7D TD"));
    assert!(err.contains("this command writes no html"), "{err}");
    // Common picture and document formats no command writes get the note too (formerly:
    // `-o x.jpg` wrote text silently); `solve -o a.htm` is the replay page.
    for name in [
        "x.jpg", "x.PDF", "x.gif", "x.jpeg", "x.svgz", "x.tar.gz", "x.xml",
    ] {
        let (bytes, err) = run(&["deal", "617"], &at(name));
        assert!(starts(&bytes, "7D TD"), "{name}");
        let ext = name.rsplit('.').next().unwrap().to_ascii_lowercase();
        assert!(err.contains(&format!("writes no {ext}")), "{name}: {err}");
    }
    let (bytes, err) = run(&["solve", "617", "--mode", "fast"], &at("a.htm"));
    assert!(starts(&bytes, "<!DOCTYPE html>") || starts(&bytes, "<!doctype html>"));
    assert!(!err.contains("note:"), "{err}");
}

#[cfg(not(feature = "png"))]
#[test]
fn png_without_the_feature_says_how_to_build_it() {
    let out = fcauto()
        .args(["deal", "617", "--format", "png", "-o", "/tmp/never.png"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--features png"));
}

#[cfg(feature = "png")]
#[test]
fn png_to_a_terminal_is_refused_before_any_work() {
    if !common::have("script") {
        eprintln!("note: script (util-linux) not installed; skipping the terminal test");
        return;
    }
    // `script` runs the command with its standard output on a pseudo-terminal.
    let bin = assert_cmd::cargo::cargo_bin("fcauto");
    for cmd in ["deal 617 --format png", "solve 617 --format png --step 5"] {
        let out = std::process::Command::new("script")
            .args(["-qec", &format!("{} {cmd}", bin.display()), "/dev/null"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {text}");
        assert!(
            text.contains("PNG is binary and standard output is a terminal"),
            "{text}"
        );
        assert!(
            !text.contains("solved in"),
            "refused before solving: {text}"
        );
    }
}

/// The text of a picture's caption, if it has one.
fn caption(svg: &str) -> Option<String> {
    let at = svg.find(r#"<text id="caption""#)?;
    let t = &svg[at..];
    let t = &t[t.find('>').unwrap() + 1..];
    Some(t[..t.find("</text>").unwrap()].to_string())
}

/// A picture says what it shows under it: the deal, and for a solution's step, the move
/// just played as the solution writes it (`solve`'s standard notation); a board file's
/// picture, which names no deal, has no caption.
#[test]
fn pictures_say_what_they_show() {
    let tokens: Vec<String> = run_ok(&["solve", "617"])
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let n = tokens.len();
    for k in [1, 30, n] {
        let svg = run_ok(&["solve", "617", "--format", "svg", "--step", &k.to_string()]);
        let want = format!("deal 617, after move {k} of {n}: {}", tokens[k - 1]);
        assert_eq!(caption(&svg).as_deref(), Some(want.as_str()));
    }
    let start = run_ok(&["solve", "617", "--format", "svg"]);
    assert_eq!(
        caption(&start),
        Some(format!("deal 617, the start (0 of {n} moves)"))
    );
    assert_eq!(
        caption(&run_ok(&["deal", "617", "--format", "svg"])).as_deref(),
        Some("deal 617")
    );
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("617.board");
    std::fs::write(&board, run_ok(&["deal", "617"])).unwrap();
    let shown = run_ok(&["show", "--board", board.to_str().unwrap()]);
    assert_eq!(caption(&shown), None);
}

/// `-o FILE` replaces an existing file only when fcauto drew it (a picture or replay page,
/// which carry its mark); any other existing file, an SVG of someone else's included, is
/// refused before any work and left as it was, unless `--force` (formerly: `-o` overwrote
/// a user's file silently).
#[test]
fn an_output_file_of_yours_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let board = at("617.board");
    std::fs::write(&board, run_ok(&["deal", "617"])).unwrap();
    let b = board.to_str().unwrap();
    let theirs = [
        ("notes.txt", "my notes\n"),
        (
            "mine.svg",
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><title>My drawing</title></svg>",
        ),
        (
            "mine.html",
            "<!DOCTYPE html><html><head><title>mine</title></head></html>",
        ),
        ("mine.json", "{\"deal\": 5}"),
    ];
    for (name, text) in theirs {
        std::fs::write(at(name), text).unwrap();
    }
    for (args, name) in [
        (&["deal", "617"][..], "notes.txt"),
        (&["deal", "617", "--format", "svg"], "mine.svg"),
        (&["show", "--board", b], "mine.svg"),
        (&["solve", "617", "--mode", "fast"], "mine.html"),
        (
            &["solve", "617", "--mode", "fast", "--format", "json"],
            "mine.json",
        ),
        (&["solve", "617", "--mode", "fast"], "notes.txt"),
    ] {
        let o = fcauto()
            .args(args)
            .arg("-o")
            .arg(at(name))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?} -o {name}: {err}");
        assert!(err.contains("--force") && err.contains(name), "{err}");
        assert!(!err.contains("solved"), "refused before the search: {err}");
    }
    for (name, text) in theirs {
        assert_eq!(std::fs::read_to_string(at(name)).unwrap(), text, "{name}");
    }
    // fcauto's own pictures and pages are replaced by a later run, without --force.
    for (args, name) in [
        (&["deal", "617"][..], "d.svg"),
        (&["deal", "617"], "d.png"),
        (&["show", "--board", b], "b.svg"),
        (&["solve", "617", "--mode", "fast", "--step", "3"], "s.png"),
        (&["solve", "617", "--mode", "fast"], "s.html"),
        // Judged by the content, not the name (formerly: a PNG of ours named `x.svg` was
        // refused on the next run), and then replaced by an SVG.
        (&["deal", "617", "--format", "png"], "x.svg"),
        (&["deal", "617", "--format", "svg"], "x.svg"),
    ] {
        for round in 0..2 {
            let o = fcauto()
                .args(args)
                .arg("-o")
                .arg(at(name))
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "{args:?} -o {name}, run {round}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
    // A link to nothing is named as such (not said to exist), and kept.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("nothere.svg", at("dangling.svg")).unwrap();
        let o = fcauto()
            .args(["deal", "617", "-o"])
            .arg(at("dangling.svg"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(
            err.contains("symbolic link to a file that does not exist"),
            "{err}"
        );
        assert!(!at("nothere.svg").exists());
    }
    // --force replaces a file of any kind.
    let o = fcauto()
        .args(["deal", "617", "--force", "-o"])
        .arg(at("notes.txt"))
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(std::fs::read_to_string(at("notes.txt"))
        .unwrap()
        .starts_with("7D TD"));
}

/// Every page a man page names in SEE ALSO prints: `fcauto man batch run` (or `batch-run`,
/// as the page is named) and `fcauto man help`; a subcommand there is not is exit 2.
#[test]
fn man_prints_the_nested_pages_the_pages_name() {
    for args in [
        &["man", "batch", "run"][..],
        &["man", "batch-run"],
        &["man", "help"],
    ] {
        let page = crate::common::ok(args);
        let want = format!(".TH fcauto-{} 1", args[1..].join("-"));
        assert!(
            page.contains(&want),
            "{args:?}: {}",
            &page[..200.min(page.len())]
        );
    }
    let (code, _, err) = crate::common::run(&["man", "batch", "nope"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no subcommand `nope` of `batch`"), "{err}");
}

/// The completion scripts offer the games' names for `--game`, not file names, and help
/// does not list them (any name, title or id is read).
#[test]
fn completions_offer_the_games_for_game() {
    let bash = crate::common::ok(&["completions", "bash"]);
    let at = bash.find("--game)").expect("a --game case");
    let case = &bash[at..at + 400];
    assert!(
        case.contains("compgen -W \"freecell ") && case.contains(" citadel\""),
        "{case}"
    );
    let zsh = crate::common::ok(&["completions", "zsh"]);
    assert!(
        zsh.contains("seahaven_towers\\:\"Seahaven Towers\""),
        "zsh lacks the games"
    );
    let help = crate::common::ok(&["solve", "--help"]);
    assert!(!help.contains("possible values"), "help lists the games");
    let (code, _, err) = crate::common::run(&["deal", "--game", "Seahaven Towers", "1"]);
    assert_eq!(code, 0, "{err}");
}
