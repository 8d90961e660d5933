//! PySolFC's saved and held games of the other games of the FreeCell family analysed as
//! their game, wherever a game is analysed: `fcauto analyze FILE` (the game from the file's
//! id: the same answer as `analyze --game G --deal N` with the same moves; a `--game` or
//! `--freecells` naming another game refused with exit 2), `serve`'s `POST /api/analyze`
//! and MCP's `analyze_game` (a family position with its moves, a family saved game). The
//! fixtures are `tests/fixtures/savedgame-family/` (made by PySolFC's own code, `make.py`).

use crate::common::fcauto;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/savedgame-family")
        .join(name)
}

/// `fcauto analyze ARGS --json`: the answer (exit 0 asserted).
fn analyzed(args: &[&str]) -> Value {
    let out = fcauto()
        .arg("analyze")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The answer without what depends on the input's kind and the run (`input`, `work`).
fn findings(mut a: Value) -> Value {
    let o = a.as_object_mut().unwrap();
    o.remove("input");
    o.remove("work");
    a
}

/// Each family saved or held game is analysed as its game: the same findings as the move
/// list it recorded analysed from `--game G --deal N`.
#[test]
fn a_family_saved_game_is_analysed_as_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "holdgame-bakers-617-20.dat",
            "bakers_game",
            "617",
            "a PySolFC held game",
        ),
        (
            "saved-seahaven-40000-15.pso",
            "seahaven_towers",
            "40000",
            "a PySolFC saved game",
        ),
        (
            "holdgame-eightoff-617-12.dat",
            "eight_off",
            "617",
            "a PySolFC held game",
        ),
        (
            "holdgame-fc2-ms5-10.dat",
            "1900",
            "5",
            "a PySolFC held game",
        ),
    ];
    for (file, game, deal, kind) in cases {
        let saved = analyzed(&[fixture(file).to_str().unwrap()]);
        assert_eq!(saved["input"], kind, "{file}");
        assert_eq!(saved["deal"].to_string(), deal, "{file}");
        assert_eq!(saved["first_losing_step"], Value::Null, "{file}");
        let moves: Vec<&str> = saved["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap())
            .collect();
        assert!(!moves.is_empty(), "{file}");
        let list = dir.path().join(format!("{file}.txt"));
        std::fs::write(&list, moves.join(" ")).unwrap();
        let listed = analyzed(&["--game", game, "--deal", deal, list.to_str().unwrap()]);
        assert_eq!(listed["input"], "a move list");
        assert_eq!(findings(saved), findings(listed), "{file}");
    }
}

/// `--game` may repeat the file's game (by name or id); naming another game, or other
/// freecells, is a usage error (exit 2) that names both; so is a `--deal` of another start.
#[test]
fn a_game_other_than_the_files_is_refused() {
    let bakers = fixture("holdgame-bakers-617-20.dat");
    let bakers = bakers.to_str().unwrap();
    analyzed(&[bakers, "--game", "45"]);
    analyzed(&[bakers, "--game", "bakers_game", "--deal", "617"]);
    let freecell = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pysolfc/holdgame-617-winnable.dat");
    let freecell = freecell.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &[bakers, "--game", "eight_off"],
            "is a PySolFC game of Baker's Game (PySolFC id 45), and --game names Eight Off (PySolFC id 258)",
        ),
        (
            &[bakers, "--game", "freecell"],
            "and --game names FreeCell (PySolFC id 8)",
        ),
        (&[bakers, "--freecells", "2"], "--freecells asks for 2"),
        (&[bakers, "--deal", "5"], "and --deal gives another"),
        (
            &[freecell, "--game", "seahaven_towers"],
            "is a PySolFC game of FreeCell (PySolFC id 8), and --game names Seahaven Towers",
        ),
    ];
    for (args, needle) in cases {
        let out = fcauto().arg("analyze").args(args).output().unwrap();
        let e = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {e}");
        assert!(e.contains(needle), "{needle:?} not in {e}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[cfg(feature = "serve")]
mod service {
    use super::fixture;
    use crate::support::server::{self, analyze};
    use base64::Engine as _;
    use fcauto_deals::{deal_game, position, Game, PysolNumber};
    use serde_json::{json, Value};

    fn b64(name: &str) -> String {
        base64::engine::general_purpose::STANDARD.encode(std::fs::read(fixture(name)).unwrap())
    }

    /// Seahaven Towers' deal 40000 as a position string.
    fn seahaven_40000() -> String {
        let g = Game::find("seahaven_towers").unwrap();
        position::write_layout(g, &deal_game(g, PysolNumber::plain(40000).unwrap()))
    }

    /// A family game analysed by the service: from a deal of a named game, from its
    /// position string (the same answer), and a saved game of Seahaven Towers (the same
    /// findings again, with what the file held); a family game's moves in FreeCell's place,
    /// or a game with a saved game, refused.
    #[test]
    fn serve_analyzes_a_family_position_and_a_family_saved_game() {
        let s = server::start();
        let moves = "2h 3h 2a 2d 42 a2 5a 56 d5 0d 06 c6 59 4c 53";
        let (st, by_deal) = analyze(
            &s.base,
            &json!({"deal": 40000, "game": "seahaven_towers", "moves": moves}),
        );
        assert_eq!(st, 200, "{by_deal}");
        assert_eq!(by_deal["game"], "seahaven_towers");
        assert_eq!(by_deal["start"], seahaven_40000());
        assert_eq!(by_deal["moves"].as_array().unwrap().len(), 15);
        assert_eq!(by_deal["first_losing_step"], Value::Null, "{by_deal}");
        assert_eq!(by_deal["final"]["verdict"], "winnable", "{by_deal}");
        assert_eq!(by_deal["review"]["points"].as_array().unwrap().len(), 16);
        let (st, by_position) = analyze(
            &s.base,
            &json!({"position": seahaven_40000(), "moves": moves}),
        );
        assert_eq!(st, 200, "{by_position}");
        let strip = |mut a: Value| {
            a.as_object_mut().unwrap().remove("positions");
            a.as_object_mut().unwrap().remove("saved_game");
            a
        };
        assert_eq!(strip(by_position), strip(by_deal.clone()));
        let (st, saved) = analyze(
            &s.base,
            &json!({"saved_game": b64("saved-seahaven-40000-15.pso")}),
        );
        assert_eq!(st, 200, "{saved}");
        assert_eq!(saved["saved_game"]["pysol_id"], 9);
        assert_eq!(saved["saved_game"]["deal"], 40000);
        assert_eq!(saved["saved_game"]["held"], false);
        assert_eq!(strip(saved), strip(by_deal));
        // The page's *Analyze*: the position JSON its new game came with, and the moves played.
        let dealt: Value = ureq::get(&format!("{}/api/deal/617?game=bakers_game", s.base))
            .call()
            .unwrap()
            .into_json()
            .unwrap();
        let body = json!({"position": dealt["position"], "moves": "2a 2b 2c 2d", "mode": "fast"});
        let (st, page) = analyze(&s.base, &body);
        assert_eq!(st, 200, "{page}");
        assert_eq!(
            (&page["game"], &page["start_verdict"]),
            (&json!("bakers_game"), &json!("winnable"))
        );
        assert_eq!(
            page["review"]["classes"].as_array().unwrap().len(),
            4,
            "{page}"
        );
        let cases = [
            (
                json!({"saved_game": b64("holdgame-bakers-617-20.dat"), "game": "bakers_game"}),
                400,
                "leave out `deal`, `position`, `game`",
            ),
            (
                json!({"deal": 40000, "game": "seahaven_towers", "moves": "2h 3h 2x"}),
                422,
                "not standard notation",
            ),
            (
                json!({"deal": 5, "game": "seahaven_towers", "moves": "1a 1b 1c 1d"}),
                422,
                "illegal",
            ),
        ];
        for (body, status, needle) in cases {
            let (st, a) = analyze(&s.base, &body);
            assert_eq!(st, status, "{a}");
            let e = a["error"].as_str().unwrap();
            assert!(e.contains(needle), "{needle:?} not in {e}");
        }
    }

    #[cfg(feature = "mcp")]
    #[test]
    fn mcp_analyze_game_takes_a_family_position_and_a_family_saved_game() {
        use std::io::{BufRead, BufReader, Write};
        use std::process::{Command, Stdio};
        let mut child = Command::new(env!("CARGO_BIN_EXE_fcauto"))
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap())
            .lines()
            .map_while(Result::ok);
        let mut request = |id: u64, method: &str, params: Value| -> Value {
            let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
            writeln!(stdin, "{msg}").unwrap();
            stdin.flush().unwrap();
            for line in lines.by_ref() {
                let v: Value = serde_json::from_str(&line).unwrap();
                if v["id"] == json!(id) {
                    assert!(v.get("error").is_none(), "{method}: {v}");
                    return v["result"].clone();
                }
            }
            panic!("no answer to {method}");
        };
        let init = json!({"protocolVersion": "2025-06-18", "capabilities": {},
                          "clientInfo": {"name": "family_analyze test", "version": "1"}});
        request(1, "initialize", init);
        let call = |args: Value| json!({"name": "analyze_game", "arguments": args});
        let moves = "2h 3h 2a 2d 42 a2 5a 56 d5 0d 06 c6 59 4c 53";
        let r = request(
            2,
            "tools/call",
            call(json!({"position": seahaven_40000(), "moves": moves})),
        );
        assert_ne!(r["isError"], json!(true), "{r}");
        let sc = &r["structuredContent"];
        assert_eq!(sc["game"], "seahaven_towers", "{sc}");
        assert_eq!((&sc["moves"], &sc["lost_at"]), (&json!(15), &Value::Null));
        assert_eq!(sc["final"]["verdict"], "winnable", "{sc}");
        assert!(sc.to_string().len() < 2000, "a small summary: {sc}");
        let r = request(
            3,
            "tools/call",
            call(json!({"saved_game": b64("holdgame-bakers-617-20.dat")})),
        );
        assert_ne!(r["isError"], json!(true), "{r}");
        let sc = &r["structuredContent"];
        assert_eq!(sc["game"], "bakers_game", "{sc}");
        assert_eq!(
            sc["saved_game"],
            json!({"pysol_id": 45, "deal": 617, "held": true, "moves": 20}),
            "{sc}"
        );
        assert_eq!(sc["lost_at"], Value::Null, "{sc}");
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// A family report's game.txt analysed again names its deal, from its first line, when its
/// `# start:` is that deal (it said "the board"); a first line naming another deal is not
/// believed.
#[test]
fn a_family_reports_game_txt_names_its_deal_again() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r");
    let saved = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/savedgame-family/holdgame-seahaven-40000-15.dat");
    let args = [
        "analyze",
        saved.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ];
    crate::common::ok(&args);
    let game = report.join("game.txt");
    let out = crate::common::ok(&["analyze", game.to_str().unwrap()]);
    assert!(
        out.starts_with("seahaven_towers deal 40000: 15 moves"),
        "{out}"
    );
    let text = std::fs::read_to_string(&game).unwrap();
    let other = dir.path().join("other.txt");
    std::fs::write(&other, text.replacen("deal 40000,", "deal 40001,", 1)).unwrap();
    let out = crate::common::ok(&["analyze", other.to_str().unwrap()]);
    assert!(!out.contains("40001") && out.contains("the board"), "{out}");
}
