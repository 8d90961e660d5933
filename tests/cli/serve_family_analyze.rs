//! The analysis of a family game's board text by the service: `POST /api/analyze` and MCP's
//! `analyze_game` read board text (which names no game) for the request's `game` and
//! `freecells`, and answer what `fcauto analyze --game G --board F` answers; a position that
//! names another game than `game` is refused, naming both. And the family analysis searches
//! an undecided position again with a larger budget, on the command line and in the service.

use crate::common::{fcauto, succeed};
use crate::support::server::{self, analyze};
use serde_json::{json, Value};

/// Seahaven Towers deal 5: `7a` keeps it winnable, `8d` fills the last freecell and loses it.
const MOVES: &str = "7a 8d";

/// `fcauto deal --game G N`: the deal's board text (Freecell Solver's layout).
fn board_text(game: &str, n: &str) -> String {
    String::from_utf8(succeed(fcauto().args(["deal", "--game", game, n])).stdout).unwrap()
}

/// `fcauto analyze ARGS --json MOVES` (exit 0 asserted): the answer.
fn analyzed(args: &[&str], moves: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("moves.txt");
    std::fs::write(&file, moves).unwrap();
    let out = succeed(fcauto().arg("analyze").args(args).arg("--json").arg(&file));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The command line's answer for Seahaven Towers' board text of deal 5, read from a file
/// with `--game seahaven_towers --board F`, at the service's budget (200,000 positions a
/// search), so that the answers agree whole.
fn cli_answer(text: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("seahaven-5.board");
    std::fs::write(&board, text).unwrap();
    let b = board.to_str().unwrap();
    let args = [
        "--game",
        "seahaven_towers",
        "--board",
        b,
        "--max-states",
        "200000",
    ];
    analyzed(&args, MOVES)
}

/// What the command line and the service both say of a game: the verdicts, each move's
/// row, the losing move and what to play instead, the costly moves, the final position.
fn findings(a: &Value) -> Value {
    let keys = [
        "start_verdict",
        "start_moves_to_win",
        "moves",
        "first_losing_step",
        "losing_between",
        "alternative",
        "costly",
        "final",
    ];
    keys.iter().map(|k| (k.to_string(), a[k].clone())).collect()
}

/// `POST /api/analyze` with Seahaven Towers' board text and `game: "seahaven_towers"`: the
/// command line's verdicts (lost at step 2, winnable before) and findings, whole; with the
/// game by PySolFC's id the same. Board text without `game` is read as FreeCell's (and does
/// not fit it), with another game's name does not fit that game, and a position string or
/// a solution JSON naming another game than `game` is refused naming both (422, as every
/// route that reads a position refuses it).
#[test]
fn serve_analyzes_board_text_for_the_game_given() {
    let text = board_text("seahaven_towers", "5");
    let cli = cli_answer(&text);
    assert_eq!(cli["game"], "seahaven_towers", "{cli}");
    let verdicts: Vec<&Value> = cli["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["verdict"])
        .collect();
    assert_eq!(verdicts, [&json!("winnable"), &json!("lost")], "{cli}");
    assert_eq!(cli["first_losing_step"], 2, "{cli}");
    let s = server::start();
    for game in ["seahaven_towers", "9"] {
        let body = json!({"position": text, "game": game, "moves": MOVES});
        let (st, a) = analyze(&s.base, &body);
        assert_eq!(st, 200, "{a}");
        assert_eq!(a["game"], "seahaven_towers", "{a}");
        assert_eq!(a["start"], cli["start"], "{a}");
        assert_eq!(findings(&a), findings(&cli), "game {game}");
    }
    let solution = String::from_utf8(
        succeed(fcauto().args(["solve", "--game", "bakers_game", "5", "--format", "json"])).stdout,
    )
    .unwrap();
    let eight_off = {
        let g = fcauto_deals::Game::find("eight_off").unwrap();
        let n = fcauto_deals::PysolNumber::plain(5).unwrap();
        fcauto_deals::position::write_layout(g, &fcauto_deals::deal_game(g, n))
    };
    let cases = [
        (json!({"position": text, "moves": MOVES}), "8"),
        (
            json!({"position": text, "game": "bakers_game", "moves": MOVES}),
            "does not fit bakers_game (8 cascades",
        ),
        (
            json!({"position": eight_off, "game": "seahaven_towers", "moves": MOVES}),
            "the position names eight_off, and `game` says seahaven_towers",
        ),
        (
            json!({"position": solution, "game": "freecell", "moves": "1a"}),
            "the position names bakers_game, and `game` says freecell",
        ),
    ];
    for (body, words) in cases {
        let (st, e) = analyze(&s.base, &body);
        assert_eq!(st, 422, "{body}: {e}");
        let e = e["error"].as_str().unwrap();
        assert!(e.contains(words), "{words:?} not in {e}");
    }
}

/// Seahaven Towers 5, `7a 8d`, at 3,000 positions a search: the position after `7a` is
/// undecided at that budget, and searched again with ten times it, winnable; so the game was
/// lost at step 2 (not "between steps 1 and 2"), on the command line and in the service
/// alike.
#[test]
fn an_undecided_family_position_is_searched_again() {
    let args = [
        "--game",
        "seahaven_towers",
        "--deal",
        "5",
        "--max-states",
        "3000",
    ];
    let cli = analyzed(&args, MOVES);
    assert_eq!(cli["work"]["searched_again"], 1, "{cli}");
    assert_eq!(cli["moves"][0]["verdict"], "winnable", "{cli}");
    assert_eq!(
        (&cli["first_losing_step"], &cli["losing_between"]),
        (&json!(2), &Value::Null),
        "{cli}"
    );
    let s = server::start();
    let body = json!({"deal": 5, "game": "seahaven_towers", "moves": MOVES, "max_states": 3000});
    let (st, a) = analyze(&s.base, &body);
    assert_eq!(st, 200, "{a}");
    assert_eq!(findings(&a), findings(&cli));
}

/// MCP's `analyze_game` reads board text for `game` (and `freecells`) as `/api/analyze`
/// does: the command line's verdicts; a position string of another game than `game` is a
/// tool error naming both, and so is `game` beside a saved game.
#[cfg(feature = "mcp")]
#[test]
fn mcp_analyze_game_reads_board_text_for_the_game_given() {
    use crate::support::mcp::Session;
    let text = board_text("seahaven_towers", "5");
    let cli = cli_answer(&text);
    let mut s = Session::start();
    let args = json!({"position": text, "game": "seahaven_towers", "freecells": 4,
                      "moves": MOVES, "max_states": 200000});
    let r = s.tool("analyze_game", args);
    let sc = &r["structuredContent"];
    assert_eq!(sc["game"], "seahaven_towers", "{sc}");
    assert_eq!(sc["lost_at"]["step"], cli["first_losing_step"], "{sc}");
    assert_eq!(sc["start"], cli["start_verdict"], "{sc}");
    assert_eq!(sc["final"]["verdict"], cli["final"]["verdict"], "{sc}");
    let whole = &r["_meta"]["fcauto/view"]["analysis"];
    assert_eq!(findings(whole), findings(&cli));
    let schema = s.request("tools/list", json!({}));
    let tool = schema["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "analyze_game")
        .unwrap()
        .clone();
    for field in ["game", "freecells"] {
        let described = &tool["inputSchema"]["properties"][field]["description"];
        assert!(
            described.as_str().is_some_and(|d| d.contains("board text")),
            "{tool}"
        );
    }
    let eight_off = {
        let g = fcauto_deals::Game::find("eight_off").unwrap();
        let n = fcauto_deals::PysolNumber::plain(5).unwrap();
        fcauto_deals::position::write_layout(g, &fcauto_deals::deal_game(g, n))
    };
    let cases = [
        (
            json!({"position": eight_off, "game": "seahaven_towers", "moves": MOVES}),
            "the position names eight_off, and `game` says seahaven_towers",
        ),
        (
            json!({"position": text, "game": "bakers_game", "moves": MOVES}),
            "does not fit bakers_game",
        ),
        (
            json!({"saved_game": "AAAA", "game": "seahaven_towers"}),
            "leave out `game` and `freecells`",
        ),
    ];
    for (args, words) in cases {
        let r = s.call("analyze_game", args.clone());
        assert_eq!(r["isError"], true, "{args}: {r}");
        assert!(r.to_string().contains(words), "{words:?} not in {r}");
    }
}
