//! The saved and held games of `tests/fixtures/pysolfc/` (made by real PySolFC 3.2 with the
//! mouse, `scripts/make-pysolfc-fixtures.sh`) agree with themselves, and their losing move is
//! checked independently of fcauto's solver: fc-solve solves the position before it, and an
//! exhaustive fc-solve scan over atomic moves (soft-DFS, `-to 01ABCDE`, no iteration limit)
//! finds no solution after it. No GUI is needed; without fc-solve the fc-solve part is
//! skipped with a note (a failure in CI).

use crate::common;
use crate::support::fcsolve;
use fcsolve::fc_solve;

use std::path::{Path, PathBuf};

use fcauto_deals::{ms_deal, Board};
use fcauto_solver::validator::apply_checked;
use fcauto_solver::{parse_standard, StepMove};
use serde_json::Value;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pysolfc")
}

fn json(name: &str) -> Value {
    let p = dir().join(name);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// lost-617.json's moves as the validator's steps (counts as PySolFC recorded them).
fn lost_moves(lost: &Value) -> Vec<StepMove> {
    let moves: Vec<&str> = lost["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let mut steps = parse_standard(&moves.join(" ")).expect("standard notation");
    for (s, n) in steps
        .iter_mut()
        .zip(lost["cards_moved"].as_array().unwrap())
    {
        s.count = Some(n.as_u64().unwrap() as u8);
    }
    assert_eq!(steps.len(), moves.len());
    steps
}

/// The positions before each move and after the last (index k = after k moves).
fn positions(lost: &Value) -> Vec<Board> {
    let deal = lost["deal"].as_u64().unwrap();
    let mut b = ms_deal(deal).unwrap();
    let rows: Vec<String> = b
        .cascades
        .iter()
        .map(|c| {
            c.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(
        serde_json::to_value(&rows).unwrap(),
        lost["board"],
        "fixture's board is MS deal {deal}"
    );
    let mut out = vec![b.clone()];
    for (i, s) in lost_moves(lost).iter().enumerate() {
        apply_checked(&mut b, s).unwrap_or_else(|e| panic!("move {}: {e}", i + 1));
        out.push(b.clone());
    }
    out
}

#[test]
fn the_losing_move_is_checked_by_fc_solve() {
    let lost = json("lost-617.json");
    let k = lost["losing_step"].as_u64().unwrap() as usize;
    let pos = positions(&lost);
    let final_text = pos.last().unwrap().fcs_input_text();
    let want: Vec<&str> = lost["final_position"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    // the same position, whatever the order of the foundation and free cell lines' items
    let final_board = Board::parse(&want.join("\n")).expect("final position parses");
    assert_eq!(Board::parse(&final_text).unwrap(), final_board);
    if !common::require("fc-solve") {
        return;
    }
    let before = fc_solve(&pos[k - 1], &[]);
    assert!(
        before.contains("This game is solveable."),
        "before move {k}:\n{before}"
    );
    // exhaustive: soft-DFS over the atomic moves only (single cards between cascades, free
    // cells and foundations), no iteration limit
    let exhaustive = ["--method", "soft-dfs", "-to", "01ABCDE"];
    let after = fc_solve(&pos[k], &exhaustive);
    assert!(
        after.contains("I could not solve this game."),
        "after move {k}:\n{after}"
    );
    // the scan is complete on a winnable board: the same flags solve the position before
    let check = fc_solve(&pos[k - 1], &exhaustive);
    assert!(check.contains("This game is solveable."), "{check}");
    // and every later position stays lost
    for (i, p) in pos.iter().enumerate().skip(k + 1) {
        let out = fc_solve(p, &exhaustive);
        assert!(
            out.contains("I could not solve this game."),
            "after move {i}:\n{out}"
        );
    }
}

#[test]
fn pysolfc_s_own_dumps_agree_with_the_moves_played() {
    let lost = json("lost-617.json");
    let pos = positions(&lost);
    let last = pos.last().unwrap();
    let moves = lost["moves"].as_array().unwrap();
    for name in ["saved-617-lost.pso", "holdgame-617-lost.dat"] {
        let bytes = std::fs::read(dir().join(name)).unwrap();
        assert_eq!(&bytes[..2], b"\x80\x05", "{name}: a protocol 5 pickle");
        let d = json(&format!("{name}.expected.json"));
        assert_eq!(d["package"], "PySolFC", "{name}");
        assert_eq!(d["version"], "3.2.0", "{name}");
        assert_eq!(d["game_id"], 8, "{name}");
        assert_eq!(d["seed"]["string"], "ms617", "{name}");
        assert_eq!(d["trailing_bytes"], 0, "{name}");
        let got: Vec<&Value> = d["freecell_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| &m["move"])
            .collect();
        assert_eq!(got, moves.iter().collect::<Vec<_>>(), "{name}");
        assert_eq!(d["moves"]["index"], moves.len(), "{name}");
        // cascades 1-8 are PySolFC's stacks 5-12, free cells 13-16
        let stacks = d["stacks"].as_array().unwrap();
        for (i, col) in last.cascades.iter().enumerate() {
            let seen: Vec<&str> = stacks[5 + i]["cards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["card"].as_str().unwrap())
                .collect();
            let want: Vec<String> = col.iter().map(|c| c.to_string()).collect();
            assert_eq!(seen, want, "{name}: cascade {}", i + 1);
        }
        for (j, cell) in last.freecells.iter().enumerate() {
            let seen = stacks[13 + j]["cards"].as_array().unwrap();
            assert_eq!(
                seen.first()
                    .map(|c| c["card"].as_str().unwrap().to_string()),
                cell.map(|c| c.to_string()),
                "{name}: free cell {j}"
            );
        }
    }
    let held = json("holdgame-617-lost.dat.expected.json");
    assert_eq!(held["gstats"]["holded"], 1);
    let options = std::fs::read_to_string(dir().join("holdgame-617-lost.options.cfg")).unwrap();
    assert!(options.contains("game_holded = 8"), "{options}");
}

#[test]
fn the_other_game_is_klondike() {
    let d = json("saved-klondike.pso.expected.json");
    assert_eq!(d["game_id"], 2);
    assert_eq!(d["game_name"], "Klondike");
    assert_eq!(d["ncards"], 52);
    assert!(d["moves"]["index"].as_u64().unwrap() >= 1);
    let bytes = std::fs::read(dir().join("saved-klondike.pso")).unwrap();
    assert_eq!(&bytes[..2], b"\x80\x05");
}
