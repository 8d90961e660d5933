//! `fcauto serve` and `fcauto mcp` playing the other games of the FreeCell family: a new
//! game of Seahaven Towers, Baker's Game and Eight Off dealt as PySolFC deals it, its legal
//! moves, an illegal move refused with the broken rule, a hint, a solve played move by move
//! to a win the validator accepts, an exact "unsolvable"; MCP's `new_game` with a game and
//! `apply_move`; the page drawing Seahaven Towers' 10 cascades and Eight Off's 8 freecells
//! in chromium and playing a card by clicking it and its destination; `/api/render`'s SVG and
//! `render_game`'s PNG of a family position, board text read for a request's `game`, and
//! PySolFC's numbers past 2^33 in a body and in `new_game` (the command line's deal). Needs
//! `--features serve` (and `mcp` for the MCP cases).

use crate::common;
use crate::support::browser::{screenshot, wait_for, Browser};
use crate::support::server::{self, agent, call};

use fcauto_deals::{deal_game, position, Game, PysolNumber};
use serde_json::{json, Value};

/// PySolFC's deal `n` of `game`, as a position string.
fn dealt(game: &str, n: u128) -> String {
    let g = Game::find(game).unwrap();
    position::write_layout(g, &deal_game(g, PysolNumber::plain(n).unwrap()))
}

/// PySolFC's deal `msN` of `game` (the Microsoft shuffle at any number).
fn ms_dealt(game: &str, n: u64) -> String {
    let g = Game::find(game).unwrap();
    position::write_layout(g, &deal_game(g, PysolNumber::ms(n).unwrap()))
}

/// A new game of each game is PySolFC's deal with the game's cascades and freecells, by
/// name or PySolFC's id, with `freecells` changed when asked; bad games and freecells are
/// refused, named; standard FreeCell's deal is today's answer.
#[test]
fn new_games_of_the_family_are_pysolfcs_deals() {
    let s = server::start();
    let a = agent();
    for (game, cascades, cells, in_cells) in [
        ("seahaven_towers", 10, 4, 2),
        ("bakers_game", 8, 4, 0),
        ("eight_off", 8, 8, 4),
    ] {
        let (st, p) = call(
            &a,
            "GET",
            &format!("{}/api/deal/617?game={game}", s.base),
            None,
        );
        assert_eq!(st, 200, "{p}");
        assert_eq!(p["position_string"], dealt(game, 617), "{game}");
        assert_eq!(p["position"]["game"], game);
        assert_eq!(
            p["position"]["cascades"].as_array().unwrap().len(),
            cascades
        );
        let slots = p["position"]["freecells"].as_array().unwrap();
        assert_eq!(slots.len(), cells, "{game}");
        assert_eq!(slots.iter().filter(|c| !c.is_null()).count(), in_cells);
        assert_eq!(p["position"]["rules"]["freecells"], cells);
        assert_eq!(p["won"], false);
    }
    // PySolFC's id, another number of freecells, a Mersenne Twister number.
    let (_, by_id) = call(&a, "GET", &format!("{}/api/deal/617?game=45", s.base), None);
    assert_eq!(by_id["position"]["game"], "bakers_game");
    let (_, two) = call(
        &a,
        "GET",
        &format!("{}/api/deal/617?game=bakers_game&freecells=2", s.base),
        None,
    );
    assert_eq!(two["position"]["freecells"], json!([null, null]));
    assert!(two["position_string"]
        .as_str()
        .unwrap()
        .contains(" -- 0000"));
    let (st, mt) = call(
        &a,
        "GET",
        &format!("{}/api/deal/40000?game=9", s.base),
        None,
    );
    assert_eq!(st, 200);
    assert_eq!(mt["position_string"], dealt("seahaven_towers", 40000));
    // `ms40000` is the Microsoft shuffle's deal 40000, in the path and in a body alike.
    let (_, ms) = call(
        &a,
        "GET",
        &format!("{}/api/deal/ms40000?game=9", s.base),
        None,
    );
    assert_eq!(ms["position_string"], ms_dealt("seahaven_towers", 40000));
    assert_ne!(ms["position_string"], mt["position_string"]);
    let (st, sol) = call(
        &a,
        "POST",
        &format!("{}/api/solve", s.base),
        Some(json!({"position": ms["position_string"]})),
    );
    assert_eq!(st, 200, "{sol}");
    if sol["verdict"] == "solved" {
        let (_, v) = call(
            &a,
            "POST",
            &format!("{}/api/verify", s.base),
            Some(json!({"deal": "ms40000", "game": "9", "solution": sol["standard"]})),
        );
        assert_eq!(v["valid"], true, "{v}");
    }
    for (query, words) in [
        ("game=klondike", "unknown game `klondike`"),
        ("game=eight_off&freecells=3", "needs at least 7 freecells"),
        ("game=bakers_game&freecells=9", "freecells 9"),
        ("game=bakers_game&freecells=x", "freecells `x`"),
    ] {
        let (st, e) = call(&a, "GET", &format!("{}/api/deal/617?{query}", s.base), None);
        assert_eq!(st, 400, "{query}: {e}");
        assert!(e["error"].as_str().unwrap().contains(words), "{query}: {e}");
    }
    // Standard FreeCell by name is the Microsoft deal, answered as without a game.
    let (_, plain) = call(&a, "GET", &format!("{}/api/deal/617", s.base), None);
    let (_, named) = call(
        &a,
        "GET",
        &format!("{}/api/deal/617?game=freecell", s.base),
        None,
    );
    assert_eq!(plain, named);
    assert!(plain["position"].get("game").is_none());
    let (_, games) = call(&a, "GET", &format!("{}/api/games", s.base), None);
    let names: Vec<&str> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    let all: Vec<&str> = fcauto_deals::GAMES.iter().map(|g| g.name).collect();
    assert_eq!(names, all);
}

/// Every listed move of a Seahaven Towers position is played (the tenth cascade is `0`);
/// a move the rules forbid is 422 with the broken rule and the unchanged position, in JSON
/// and in the position string alike.
#[test]
fn legal_moves_and_an_illegal_one_refused_with_its_rule() {
    let s = server::start();
    let a = agent();
    let start = dealt("seahaven_towers", 617);
    let (st, m) = call(
        &a,
        "POST",
        &format!("{}/api/moves", s.base),
        Some(json!({"position": start})),
    );
    assert_eq!(st, 200, "{m}");
    let moves = m["moves"].as_array().unwrap();
    assert!(
        moves
            .iter()
            .any(|m| m["from"] == "10" && m["notation"] == "0a"),
        "{m}"
    );
    for mv in moves {
        let (st, r) = call(
            &a,
            "POST",
            &format!("{}/api/apply", s.base),
            Some(json!({"position": start, "move": mv["notation"], "count": mv["count"]})),
        );
        assert_eq!(st, 200, "{mv}: {r}");
        assert_eq!(r["legal"], true);
        assert_eq!(r["move"]["card"], mv["card"]);
    }
    // KS (cascade 10) onto 4S (cascade 1): Seahaven builds down by suit.
    let (st, r) = call(
        &a,
        "POST",
        &format!("{}/api/apply", s.base),
        Some(json!({"position": start, "move": "01"})),
    );
    assert_eq!(st, 422, "{r}");
    assert_eq!(r["error"], "illegal move `01`: KS does not build on 4S");
    assert_eq!(r["result"]["legal"], false);
    assert_eq!(r["result"]["position_string"], start);
    // The JSON form is read back as the game's position too.
    let (_, p) = call(
        &a,
        "POST",
        &format!("{}/api/position", s.base),
        Some(json!({"position": start})),
    );
    let (st, again) = call(
        &a,
        "POST",
        &format!("{}/api/apply", s.base),
        Some(json!({"position": p["position"], "move": "0a", "autoplay": true})),
    );
    assert_eq!(st, 200, "{again}");
    assert_eq!(again["position"]["freecells"][0], "KS");
    // A position that does not fit its game is named.
    let (st, e) = call(
        &a,
        "POST",
        &format!("{}/api/moves", s.base),
        Some(json!({"position": start.replacen("7D", "8D", 1)})),
    );
    assert_eq!(st, 422, "{e}");
}

/// A hint, then a solve played move by move through the API to a won position, and the
/// solution accepted by verify (the family's validator); a broken solution is not; Seahaven
/// Towers 617 is proved unsolvable.
#[test]
fn hint_and_solve_to_a_validated_win() {
    let s = server::start();
    let a = agent();
    for game in ["seahaven_towers", "bakers_game", "eight_off"] {
        let n = if game == "seahaven_towers" { 1 } else { 617 };
        let start = dealt(game, n);
        let (st, h) = call(
            &a,
            "POST",
            &format!("{}/api/hint", s.base),
            Some(json!({"deal": n, "game": game})),
        );
        assert_eq!(st, 200, "{h}");
        assert_eq!(h["verdict"], "solved", "{game}");
        assert!(h["next"]["notation"].is_string(), "{h}");
        let (st, sol) = call(
            &a,
            "POST",
            &format!("{}/api/solve", s.base),
            Some(json!({"position": start, "mode": "short"})),
        );
        assert_eq!(st, 200, "{sol}");
        assert_eq!(sol["verdict"], "solved", "{game}");
        assert_eq!(sol["solvable"], true);
        let mut pos = json!(start);
        for m in sol["moves"].as_array().unwrap() {
            let (st, r) = call(
                &a,
                "POST",
                &format!("{}/api/apply", s.base),
                Some(json!({"position": pos, "move": m["notation"], "count": m["count"]})),
            );
            assert_eq!(st, 200, "{game} {m}: {r}");
            pos = r["position"].clone();
        }
        assert_eq!(pos["foundations"], json!([13, 13, 13, 13]), "{game}");
        let (st, v) = call(
            &a,
            "POST",
            &format!("{}/api/verify", s.base),
            Some(json!({"deal": n, "game": game, "solution": sol["standard"]})),
        );
        assert_eq!(st, 200, "{v}");
        assert_eq!(v["valid"], true, "{game}: {v}");
        assert_eq!(v["moves_total"], sol["moves_total"]);
        let first = sol["moves"][0]["notation"].as_str().unwrap();
        let (_, bad) = call(
            &a,
            "POST",
            &format!("{}/api/verify", s.base),
            Some(json!({"position": start, "solution": first})),
        );
        assert_eq!(bad["valid"], false, "{bad}");
        assert!(bad["error"].as_str().unwrap().contains("not won"), "{bad}");
    }
    let (_, none) = call(
        &a,
        "POST",
        &format!("{}/api/solve", s.base),
        Some(json!({"deal": 617, "game": "seahaven_towers"})),
    );
    assert_eq!(none["verdict"], "unsolvable", "{none}");
    assert_eq!(none["solvable"], false);
}

/// MCP: `new_game` with a game deals it; `apply_move` plays the tenth cascade and refuses a
/// move against the rules with the broken rule; the view gets the board with the game's
/// cascades and freecells.
#[cfg(feature = "mcp")]
#[test]
fn mcp_new_game_with_a_game_and_apply_move() {
    let mut s = mcp::Session::start();
    let start = s.tool("new_game", json!({"deal": 617, "game": "seahaven_towers"}));
    assert_eq!(
        start["structuredContent"]["position"],
        dealt("seahaven_towers", 617)
    );
    let board = &start["_meta"]["fcauto/view"]["board"];
    assert_eq!(board["cascades"].as_array().unwrap().len(), 10);
    assert_eq!(board["game"], "seahaven_towers");
    let pos = start["structuredContent"]["position"].clone();
    let legal = s.tool("legal_moves", json!({"position": pos}));
    assert!(legal["structuredContent"]["moves"]
        .as_array()
        .unwrap()
        .contains(&json!("0a")));
    let played = s.tool("apply_move", json!({"position": pos, "move": "0a"}));
    assert_eq!(played["structuredContent"]["legal"], true, "{played}");
    assert_eq!(played["structuredContent"]["move"], "0a");
    let refused = s.tool("apply_move", json!({"position": pos, "move": "01"}));
    assert_eq!(refused["structuredContent"]["legal"], false);
    assert_eq!(
        refused["structuredContent"]["broken_rule"],
        "KS does not build on 4S"
    );
    let ms = s.tool(
        "new_game",
        json!({"deal": "ms40000", "game": "bakers_game"}),
    );
    assert_eq!(
        ms["structuredContent"]["position"],
        ms_dealt("bakers_game", 40000)
    );
    let eight = s.tool(
        "new_game",
        json!({"deal": 5, "game": "258", "freecells": 8}),
    );
    assert_eq!(
        eight["structuredContent"]["position"],
        dealt("eight_off", 5)
    );
    let hint = s.tool(
        "hint",
        json!({"position": eight["structuredContent"]["position"]}),
    );
    assert_eq!(hint["structuredContent"]["verdict"], "solved", "{hint}");
}

/// PySolFC's number past 2^33 that `--game` takes (the Mersenne Twister's).
const BIG: &str = "12345678901234567890";

/// `fcauto deal --game G N --format json`: the layout the command line deals.
fn cli_deal(game: &str, n: &str) -> Value {
    let out =
        common::succeed(common::fcauto().args(["deal", "--game", game, n, "--format", "json"]));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `fcauto deal --game G N`: the deal's board text (fc-solve's layout, the game's cascades).
fn cli_board(game: &str, n: &str) -> String {
    let out = common::succeed(common::fcauto().args(["deal", "--game", game, n]));
    String::from_utf8(out.stdout).unwrap()
}

/// The SVG `/api/render` answers for `body` (status 200 and the SVG type asserted).
fn render_svg(a: &ureq::Agent, base: &str, body: Value) -> String {
    let r = a
        .post(&format!("{base}/api/render"))
        .send_json(body)
        .unwrap_or_else(|e| panic!("render: {e}"));
    assert_eq!(r.status(), 200);
    assert_eq!(r.header("content-type"), Some("image/svg+xml"));
    r.into_string().unwrap()
}

/// `/api/render` draws a family position with its own cascades and freecells, titled with
/// the game; board text is read for the request's `game` (and `freecells`), and refused,
/// named, when it does not fit; a deal in a body takes PySolFC's numbers past 2^33 with a
/// game (a string, or an exact JSON number), and stays Microsoft's without one.
#[test]
fn family_pictures_board_text_and_big_numbers_in_bodies() {
    let s = server::start();
    let a = agent();
    let svg = render_svg(
        &a,
        &s.base,
        json!({"position": dealt("seahaven_towers", 1)}),
    );
    assert_eq!(svg.matches(r#"class="cascade-base""#).count(), 10);
    assert_eq!(svg.matches(r#"class="freecell""#).count(), 4);
    assert_eq!(svg.matches(r#"class="card""#).count(), 52);
    assert!(svg.contains("<title>Seahaven Towers position, 0 of 52 cards home</title>"));
    let eight = render_svg(
        &a,
        &s.base,
        json!({"position": dealt("eight_off", 5), "width": 400}),
    );
    assert_eq!(eight.matches(r#"class="freecell""#).count(), 8);
    // Board text with a game: read as that game's, drawn and played as its position.
    let text = cli_board("seahaven_towers", "617");
    let (st, p) = call(
        &a,
        "POST",
        &format!("{}/api/position", s.base),
        Some(json!({"position": text, "game": "seahaven_towers"})),
    );
    assert_eq!(st, 200, "{p}");
    assert_eq!(p["position_string"], dealt("seahaven_towers", 617));
    let drawn = render_svg(&a, &s.base, json!({"position": text, "game": "9"}));
    assert_eq!(drawn.matches(r#"class="cascade-base""#).count(), 10);
    let (st, moved) = call(
        &a,
        "POST",
        &format!("{}/api/apply", s.base),
        Some(json!({"position": text, "game": "seahaven_towers", "move": "0a"})),
    );
    assert_eq!(st, 200, "{moved}");
    let (st, v) = call(
        &a,
        "POST",
        &format!("{}/api/verify", s.base),
        Some(json!({"position": text, "game": "seahaven_towers", "solution": "0a"})),
    );
    assert_eq!((st, &v["valid"]), (200, &json!(false)), "{v}");
    let bakers = cli_board("bakers_game", "617");
    let (st, two) = call(
        &a,
        "POST",
        &format!("{}/api/moves", s.base),
        Some(json!({"position": bakers, "game": "bakers_game", "freecells": 2})),
    );
    assert_eq!(st, 200, "{two}");
    for (body, status, words) in [
        (json!({"position": text}), 422, "8"),
        (
            json!({"position": text, "game": "bakers_game"}),
            422,
            "does not fit bakers_game (8 cascades",
        ),
        (
            json!({"position": dealt("eight_off", 5), "game": "seahaven_towers"}),
            422,
            "the position names eight_off, and `game` says seahaven_towers",
        ),
        (
            json!({"position": text, "game": "klondike"}),
            400,
            "unknown game `klondike`",
        ),
        (
            json!({"position": text, "game": "9", "freecells": 9}),
            400,
            "freecells 9",
        ),
    ] {
        let (st, e) = call(
            &a,
            "POST",
            &format!("{}/api/position", s.base),
            Some(body.clone()),
        );
        assert_eq!(st, status, "{body}: {e}");
        assert!(e["error"].as_str().unwrap().contains(words), "{body}: {e}");
    }
    // A deal past 2^33 with a game: the command line's deal, as a string and as a JSON
    // number alike; standard FreeCell's is solved and verified from it.
    let cli = cli_deal("freecell", BIG);
    let start = position::write_layout(
        Game::freecell(),
        &fcauto_deals::Layout {
            cascades: serde_json::from_value(cli["cascades"].clone()).unwrap(),
            freecells: serde_json::from_value(cli["freecells"].clone()).unwrap(),
            foundations: [0; 4],
        },
    );
    let (st, by_position) = call(
        &a,
        "POST",
        &format!("{}/api/solve", s.base),
        Some(json!({"position": start})),
    );
    assert_eq!(st, 200, "{by_position}");
    for deal in [json!(BIG), json!(12345678901234567890u64)] {
        let (st, by_deal) = call(
            &a,
            "POST",
            &format!("{}/api/solve", s.base),
            Some(json!({"deal": deal, "game": "freecell"})),
        );
        assert_eq!(st, 200, "{by_deal}");
        assert_eq!(by_deal, by_position, "{deal}");
    }
    if by_position["verdict"] == "solved" {
        let (_, v) = call(
            &a,
            "POST",
            &format!("{}/api/verify", s.base),
            Some(json!({"deal": BIG, "game": "8", "solution": by_position["standard"]})),
        );
        assert_eq!(v["valid"], true, "{v}");
    }
    let too_big: Value =
        serde_json::from_str(r#"{"deal": 99999999999999999999, "game": "9"}"#).unwrap();
    for (body, words) in [
        (json!({"deal": BIG}), "the largest is 8589934591 (2^33-1)"),
        (
            json!({"deal": 8_589_934_592u64}),
            "the largest is 8589934591 (2^33-1)",
        ),
        (
            json!({"deal": "100000000000000000001", "game": "9"}),
            "10^20",
        ),
        (too_big, "as a string"),
    ] {
        let (st, e) = call(
            &a,
            "POST",
            &format!("{}/api/hint", s.base),
            Some(body.clone()),
        );
        assert_eq!(st, 400, "{body}: {e}");
        assert!(e["error"].as_str().unwrap().contains(words), "{body}: {e}");
    }
}

/// MCP: `render_game`'s picture of a family position is a PNG; `new_game` deals PySolFC's
/// numbers past 2^33 with a game as the command line does; board text is read for `game`.
#[cfg(feature = "mcp")]
#[test]
fn mcp_family_picture_big_number_and_board_text() {
    use base64::Engine;
    let mut s = mcp::Session::start();
    let start = dealt("seahaven_towers", 1);
    let r = s.tool(
        "render_game",
        json!({"position": start, "picture": true, "width": 400}),
    );
    let content = r["content"].as_array().unwrap();
    assert!(
        content
            .iter()
            .any(|c| c["type"] == "text" && c["text"].as_str().unwrap().contains("Freecells:")),
        "{r}"
    );
    let image = content
        .iter()
        .find(|c| c["type"] == "image")
        .unwrap_or_else(|| panic!("an image: {r}"));
    assert_eq!(image["mimeType"], "image/png");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(image["data"].as_str().unwrap())
        .unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let info = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    assert_eq!(info.info().width, 400);
    for deal in [json!(BIG), json!(12345678901234567890u64)] {
        let big = s.tool("new_game", json!({"deal": deal, "game": "seahaven_towers"}));
        let cli = cli_deal("seahaven_towers", BIG);
        let board = &big["_meta"]["fcauto/view"]["board"];
        assert_eq!(board["cascades"], cli["cascades"], "{big}");
        assert_eq!(board["freecells"], cli["freecells"], "{big}");
    }
    let refused = s.call("new_game", json!({"deal": BIG}));
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(
        refused.to_string().contains("the largest is 8589934591"),
        "{refused}"
    );
    let text = cli_board("seahaven_towers", "617");
    let read = s.tool(
        "render_game",
        json!({"position": text, "game": "seahaven_towers"}),
    );
    assert_eq!(
        read["structuredContent"]["position"],
        dealt("seahaven_towers", 617)
    );
    let moves = s.tool("legal_moves", json!({"position": text, "game": "9"}));
    assert!(moves["structuredContent"]["moves"]
        .as_array()
        .unwrap()
        .contains(&json!("0a")));
    let misread = s.call("legal_moves", json!({"position": text}));
    assert_eq!(misread["isError"], true, "{misread}");
}

#[cfg(feature = "mcp")]
use crate::support::mcp;

/// The page in chromium: `/?game=seahaven_towers&deal=1` draws 10 cascades and 4
/// freecells, a solve steps to the win; a card clicked and then an empty freecell clicked
/// plays the move; Eight Off, chosen in the list, draws 8 freecells. The screenshot of the
/// dealt board is kept as `target/tmp/serve-seahaven-1.png`.
#[test]
fn the_page_draws_and_plays_another_game_in_chromium() {
    if !common::require("chromium") {
        return;
    }
    let s = server::start();
    let dir = tempfile::tempdir().unwrap();
    let mut b = Browser::launch(
        &format!("{}/?game=seahaven_towers&deal=1", s.base),
        &dir.path().join("profile"),
    );
    b.attach_page();
    wait_for(
        &mut b,
        "document.querySelectorAll('#moves button').length > 0",
        &json!(true),
    );
    let count = |b: &mut Browser, what: &str| {
        b.eval(&format!(
            "document.querySelectorAll('#table {what}').length"
        ))
    };
    assert_eq!(count(&mut b, ".cascade"), json!(10));
    assert_eq!(count(&mut b, ".freecell"), json!(4));
    assert_eq!(count(&mut b, ".freecell.fcard"), json!(2));
    assert_eq!(count(&mut b, ".foundation"), json!(4));
    assert_eq!(
        b.eval("document.getElementById('game').value"),
        json!("seahaven_towers")
    );
    assert_eq!(
        b.eval("document.getElementById('status').textContent"),
        json!("seahaven_towers deal 1")
    );
    // A solve steps to the win: four kings on the foundations.
    b.eval("document.getElementById('solve').click()");
    wait_for(
        &mut b,
        "document.getElementById('counter').textContent.startsWith('move 0 / ')",
        &json!(true),
    );
    b.key("End", 35);
    wait_for(
        &mut b,
        "JSON.stringify(Array.from(document.querySelectorAll('#table .foundation')).map(f => f.dataset.top))",
        &json!(r#"["K","K","K","K"]"#),
    );
    b.key("Home", 36);
    wait_for(
        &mut b,
        "document.getElementById('counter').textContent.startsWith('move 0 / ')",
        &json!(true),
    );
    screenshot(&mut b, "serve-seahaven-1.png");
    // A new game; the top card of the tenth cascade clicked, then the empty freecell a.
    b.eval("document.getElementById('load').click(); 1");
    wait_for(
        &mut b,
        "document.getElementById('counter').textContent",
        &json!("no solution"),
    );
    wait_for(
        &mut b,
        "document.querySelectorAll('#table .freecell.fcard').length",
        &json!(2),
    );
    let top = b
        .eval("Array.from(document.querySelectorAll('#table .cascade'))[9].lastChild.dataset.card");
    b.eval(
        "Array.from(document.querySelectorAll('#table .cascade'))[9].lastChild.click(); \
         document.querySelector('#table .freecell[data-slot=a]').click(); 1",
    );
    wait_for(
        &mut b,
        "document.getElementById('status').textContent.startsWith('played 0a')",
        &json!(true),
    );
    wait_for(
        &mut b,
        "(document.querySelector('#table .freecell[data-slot=a]').dataset.card || null)",
        &top,
    );
    // Eight Off from the chooser: 8 freecells, four of them dealt.
    b.eval(
        "document.getElementById('game').value = 'eight_off'; \
         document.getElementById('load').click(); 1",
    );
    wait_for(
        &mut b,
        "document.querySelectorAll('#table .freecell').length",
        &json!(8),
    );
    assert_eq!(count(&mut b, ".freecell.fcard"), json!(4));
    let _ = b.call("Browser.close", json!({}));
}

/// MCP's board view in chromium (inside `mcp_app_browser`'s host page): the model's
/// `new_game` of Seahaven Towers shows 10 cascades (the tenth labelled `0`) and 4
/// freecells, a typed `0a` is played through `apply_move`, and Eight Off started from the
/// view's list shows 8 freecells.
#[cfg(feature = "mcp")]
#[test]
fn the_mcp_view_draws_and_plays_another_game_in_chromium() {
    use crate::mcp_app_browser::{host_page, pump_until, rpc, start_http, VIEW_URI};
    if !common::require("chromium") {
        return;
    }
    let s = start_http();
    let read = rpc(&s.url, "resources/read", json!({"uri": VIEW_URI}));
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("host.html");
    let view = read["contents"][0]["text"].as_str().unwrap();
    std::fs::write(&page, host_page(view)).unwrap();
    let mut b = Browser::launch(
        &format!("file://{}", page.display()),
        &dir.path().join("profile"),
    );
    b.attach_page();
    wait_for(
        &mut b,
        "window.seen.includes('ui/notifications/initialized')",
        &json!(true),
    );
    let args = json!({"deal": 1, "game": "seahaven_towers"});
    let start = rpc(
        &s.url,
        "tools/call",
        json!({"name": "new_game", "arguments": args}),
    );
    b.eval(&format!("toolResult({start})"));
    pump_until(&mut b, &s.url, "legal_moves");
    let labels = "Array.from(doc().querySelectorAll('#board .col .label')).map(l => l.textContent).join(' ')";
    wait_for(&mut b, labels, &json!("1 2 3 4 5 6 7 8 9 0"));
    // The top row: 4 freecells (2 dealt), then the 4 foundations.
    let top = "doc().querySelectorAll('#board .top .slot, #board .top .card').length";
    assert_eq!(b.eval(top), json!(8));
    assert_eq!(
        b.eval("doc().getElementById('game').value"),
        json!("seahaven_towers")
    );
    b.eval("doc().getElementById('movetext').value = '0a'; doc().getElementById('play').click()");
    let played = pump_until(&mut b, &s.url, "apply_move");
    assert_eq!(played["structuredContent"]["legal"], true, "{played}");
    wait_for(
        &mut b,
        "doc().getElementById('status').textContent.startsWith('played 0a')",
        &json!(true),
    );
    // Eight Off from the view's own list: 8 freecells and 4 foundations on the top row.
    b.eval(
        "doc().getElementById('game').value = 'eight_off'; doc().getElementById('load').click()",
    );
    let dealt = pump_until(&mut b, &s.url, "new_game");
    assert!(dealt["structuredContent"]["position"]
        .as_str()
        .unwrap()
        .starts_with("eight_off: "));
    wait_for(&mut b, top, &json!(12));
}
