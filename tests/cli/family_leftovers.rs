//! The FreeCell family's remaining edges, each checked for its whole kind: an analysis of a
//! numbered deal names the game and the deal wherever the number is known (`--deal`, the
//! `deal` of a family solution JSON or a deal's JSON, PySolFC's `msN` from 32000 on); a
//! board naming its game is played as it from a file or standard input, a conflicting
//! `--game` exit 2; one reader of the game a text names; fc-solve's table-layout positions
//! checked.

use crate::common::{ok, run, run_in};
use serde_json::Value;

/// A temporary folder for one test's files.
fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fcauto-leftovers-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `fcauto solve ARGS` written to `path`.
fn solved_to(path: &std::path::Path, args: &[&str]) {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    let p = path.to_str().unwrap();
    all.extend_from_slice(&["-o", p, "--force"]);
    let (code, _, err) = run(&all);
    assert!(code <= 1, "fcauto {all:?}: {err}");
}

/// The title line of an analysis and its JSON `deal` name the game and the deal, for a
/// plain number, for `msN` from 32000 on (which the plain number would name as another
/// deal) and for the deal a family solution JSON or a deal's JSON names (as the game file
/// or as `--board`); `msN` below 32000 is written as the plain number, as `solve` writes it.
/// Board text keeps "the board"; standard FreeCell's deal stays a number.
#[test]
fn an_analysis_of_a_numbered_deal_names_the_game_and_the_deal() {
    let dir = temp("titles");
    let file = |n: &str| dir.join(n).to_str().unwrap().to_string();
    solved_to(
        dir.join("ms40000.std").as_path(),
        &["--game", "bakers_game", "ms40000"],
    );
    solved_to(
        dir.join("ms5.std").as_path(),
        &["--game", "bakers_game", "ms5"],
    );
    solved_to(
        dir.join("ms40000.json").as_path(),
        &["--game", "bakers_game", "ms40000", "--format", "json"],
    );
    solved_to(
        dir.join("5.json").as_path(),
        &["--game", "bakers_game", "5", "--format", "json"],
    );
    let deal = ok(&["deal", "--game", "bakers_game", "5", "--format", "json"]);
    std::fs::write(dir.join("deal5.json"), deal).unwrap();
    let board = ok(&["deal", "--game", "bakers_game", "5"]);
    std::fs::write(dir.join("5.board"), board).unwrap();
    let cases: [(&[&str], &str, Value); 7] = [
        (
            &[
                "--game",
                "bakers_game",
                "--deal",
                "ms40000",
                &file("ms40000.std"),
            ],
            "bakers_game deal ms40000: ",
            Value::from("ms40000"),
        ),
        (
            &["--game", "bakers_game", "--deal", "ms5", &file("ms5.std")],
            "bakers_game deal 5: ",
            Value::from(5),
        ),
        (
            &[&file("ms40000.json")],
            "bakers_game deal ms40000: ",
            Value::from("ms40000"),
        ),
        (&[&file("5.json")], "bakers_game deal 5: ", Value::from(5)),
        (
            &["--board", &file("ms40000.json"), &file("ms40000.std")],
            "bakers_game deal ms40000: ",
            Value::from("ms40000"),
        ),
        (
            &["--board", &file("deal5.json"), &file("ms5.std")],
            "bakers_game deal 5: ",
            Value::from(5),
        ),
        (
            &[
                "--game",
                "bakers_game",
                "--board",
                &file("5.board"),
                &file("ms5.std"),
            ],
            "bakers_game the board: ",
            Value::Null,
        ),
    ];
    for (args, title, deal) in cases {
        let mut all = vec!["analyze"];
        all.extend_from_slice(args);
        let out = ok(&all);
        assert!(out.starts_with(title), "{args:?}: {out}");
        all.push("--json");
        let json: Value = serde_json::from_str(&ok(&all)).unwrap();
        assert_eq!(json["deal"], deal, "{args:?}");
    }
    // A report names the deal in its headings.
    let report = dir.join("report");
    let f = file("ms40000.std");
    ok(&[
        "analyze",
        "--game",
        "bakers_game",
        "--deal",
        "ms40000",
        &f,
        "--report",
        report.to_str().unwrap(),
    ]);
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.starts_with("# Baker's Game deal ms40000:"), "{md}");
    // Standard FreeCell's deal from 32000 on stays a number.
    solved_to(dir.join("40000.std").as_path(), &["40000"]);
    let json: Value = serde_json::from_str(&ok(&[
        "analyze",
        "--deal",
        "40000",
        &file("40000.std"),
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["deal"], Value::from(40000));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `analyze --report REPORT` of Seahaven Towers deal 5 played by the moves in `moves`.
fn analyzed_to(moves: &std::path::Path, report: &std::path::Path) -> std::path::PathBuf {
    let (moves, out) = (moves.to_str().unwrap(), report.to_str().unwrap());
    ok(&[
        "analyze",
        "--game",
        "seahaven_towers",
        "--deal",
        "5",
        moves,
        "--report",
        out,
    ]);
    report.to_path_buf()
}

/// A board that names its game (a position string, `deal --game G N --format json`, a
/// family solution JSON, `analyze --report`'s game.txt with its `# start:`) is played as
/// that game without `--game` by solve, show, verify and analyze, from a file and from
/// standard input (read once); a `--game` naming another game is refused with exit 2,
/// naming both.
#[test]
fn a_board_naming_its_game_is_played_as_it_from_a_file_and_standard_input() {
    let dir = temp("named");
    let path = |n: &str| dir.join(n);
    let sea = ["--game", "seahaven_towers", "5"];
    solved_to(
        &path("sea5.json"),
        &[&sea[..], &["--format", "json"]].concat(),
    );
    solved_to(&path("sea5.txt"), &sea);
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(path("sea5.json")).unwrap()).unwrap();
    std::fs::write(path("sea5.pos"), json["position"].as_str().unwrap()).unwrap();
    let deal = ok(&[&["deal"][..], &sea, &["--format", "json"]].concat());
    std::fs::write(path("sea5deal.json"), deal).unwrap();
    let moves = path("sea5.txt");
    let report = analyzed_to(&moves, &path("report"));
    std::fs::copy(report.join("game.txt"), path("game.txt")).unwrap();
    let moves = moves.to_str().unwrap();
    for board in ["sea5.pos", "sea5deal.json", "sea5.json", "game.txt"] {
        let file = path(board);
        let file = file.to_str().unwrap();
        let text = std::fs::read(file).unwrap();
        // A deal's JSON keeps its number.
        let solved = match board {
            "sea5deal.json" => "seahaven_towers deal 5 solved",
            _ => "seahaven_towers board solved",
        };
        let commands: [(&[&str], &str); 4] = [
            (&["solve", "--board"], solved),
            (&["show", "--board"], ""),
            (&["verify", moves, "--board"], ""),
            (&["analyze", moves, "--board"], ""),
        ];
        for (cmd, note) in commands {
            for (input, stdin) in [(file, &[][..]), ("-", &text[..])] {
                let mut args = cmd.to_vec();
                args.push(input);
                let (code, out, err) = run_in(&args, stdin);
                assert_eq!(code, 0, "{board} {args:?}: {err}");
                assert!(err.contains(note), "{board} {args:?}: {err}");
                let said = format!("{out}{err}");
                let game = ["seahaven_towers", "Seahaven Towers"];
                assert!(
                    game.iter().any(|g| said.contains(g)),
                    "{board} {args:?}: {said}"
                );
                args.extend_from_slice(&["--game", "bakers_game"]);
                let (code, _, err) = run_in(&args, stdin);
                assert_eq!(code, 2, "{board} {args:?}: {err}");
                assert!(
                    err.contains("seahaven_towers") && err.contains("bakers_game"),
                    "{board} {args:?}: {err}"
                );
                assert_eq!(err.lines().count(), 1, "{board} {args:?}: {err}");
            }
        }
    }
    // Standard FreeCell named explicitly is a conflict too.
    let pos = std::fs::read(path("sea5.pos")).unwrap();
    let (code, _, err) = run_in(&["solve", "--board", "-", "--game", "freecell"], &pos);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not of standard FreeCell"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// One reader tells the game a text names, for every command: `analyze --report`'s
/// game.txt names its game by its `# start:` line, so `solve --board game.txt` plays that
/// game, while `analyze game.txt` still reads it as the moves it holds (not a position).
#[test]
fn a_start_line_names_its_game_to_every_command() {
    let dir = temp("start-line");
    let moves = dir.join("sea5.txt");
    solved_to(&moves, &["--game", "seahaven_towers", "5"]);
    let report = analyzed_to(&moves, &dir.join("report"));
    let game_txt = report.join("game.txt");
    let game_txt = game_txt.to_str().unwrap();
    let (code, _, err) = run(&["solve", "--board", game_txt]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("seahaven_towers board solved"), "{err}");
    let out = ok(&["analyze", game_txt]);
    assert!(out.starts_with("seahaven_towers "), "{out}");
    ok(&["verify", game_txt]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// fc-solve's `-sam` output of `game`'s deal 5 in its table layout (no `-p`): the board
/// dealt by `fcauto deal --game G 5`, solved by `fc-solve -g G -sam`.
fn fcs_table_output(dir: &std::path::Path, game: &str) -> std::path::PathBuf {
    let board = dir.join(format!("{game}.board"));
    std::fs::write(&board, ok(&["deal", "--game", game, "5"])).unwrap();
    let out = std::process::Command::new("fc-solve")
        .args(["-g", game, "-sam"])
        .arg(&board)
        .env("FREECELL_SOLVER_QUIET", "1")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("This game is solveable."), "{game}: {text}");
    assert!(text.contains("\n --  --"), "{game}: not the table layout");
    let path = dir.join(format!("{game}-table.txt"));
    std::fs::write(&path, text).unwrap();
    path
}

/// fc-solve's plain `-sam` output draws its positions in its table layout (freecells in
/// rows of four above their `---` rules, the foundations beside the first, the cascades in
/// columns): every printed position is checked against the replay, for 8 or 10 cascades
/// and one or two rows of freecells; its first names the start when no deal is given, and
/// one of another deal is refused (exit 2); a position changed after a move fails (exit 1).
#[test]
fn fc_solves_table_layout_positions_are_checked() {
    if !crate::common::require("fc-solve") {
        return;
    }
    let dir = temp("fcs-table");
    for game in ["bakers_game", "seahaven_towers", "eight_off"] {
        let out = fcs_table_output(&dir, game);
        let out = out.to_str().unwrap();
        for args in [
            &["verify", "--game", game, "--deal", "5", out][..],
            &["verify", "--game", game, out],
        ] {
            let said = ok(args);
            assert!(
                said.starts_with(&format!("valid: {game}")),
                "{args:?}: {said}"
            );
        }
        let (code, _, err) = run(&["verify", "--game", game, "--deal", "6", out]);
        assert_eq!(code, 2, "{game}: {err}");
        assert!(
            err.contains("starts from another board than the deal given"),
            "{err}"
        );
        // Two cards of the first cascade swapped in the position printed after move 5.
        let text = std::fs::read_to_string(out).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let heads: Vec<usize> = (0..lines.len())
            .filter(|&k| lines[k].trim_start().starts_with("--  --"))
            .collect();
        let row = heads[5] + 1;
        let r = lines[row].clone();
        lines[row] = format!("{}{}{}{}", &r[..4], &r[8..12], &r[4..8], &r[12..]);
        let bad = dir.join(format!("{game}-bad.txt"));
        std::fs::write(&bad, lines.join("\n")).unwrap();
        let bad = bad.to_str().unwrap();
        let (code, _, err) = run(&["verify", "--game", game, "--deal", "5", bad]);
        assert_eq!(code, 1, "{game}: {err}");
        assert!(
            err.contains(
                "the position fc-solve prints after move 5 is not the one its moves lead to"
            ),
            "{game}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `analyze` reads fc-solve's `-sam` output of a family game as its moves (the table layout
/// and `-p -t`'s alike), from the deal given or, with `--board` naming the same file, from
/// its first printed position; without a start it asks for one (exit 2).
#[test]
fn analyze_reads_fc_solves_output_of_a_family_game() {
    if !crate::common::require("fc-solve") {
        return;
    }
    let dir = temp("fcs-analyze");
    let table = fcs_table_output(&dir, "bakers_game");
    let table = table.to_str().unwrap();
    let said = ok(&["analyze", "--game", "bakers_game", "--deal", "5", table]);
    let moves = said
        .split(':')
        .nth(1)
        .unwrap_or_default()
        .trim()
        .to_string();
    assert!(said.starts_with("bakers_game deal 5: "), "{said}");
    assert!(moves.contains("moves analysed"), "{said}");
    let board = dir.join("bakers_game.board");
    let pt = std::process::Command::new("fc-solve")
        .args(["-g", "bakers_game", "-sam", "-p", "-t"])
        .arg(&board)
        .output()
        .unwrap();
    let pt_path = dir.join("pt.txt");
    std::fs::write(&pt_path, pt.stdout).unwrap();
    let pt_path = pt_path.to_str().unwrap();
    let from_board = ok(&[
        "analyze",
        "--game",
        "bakers_game",
        "--board",
        pt_path,
        pt_path,
    ]);
    assert!(from_board.contains(&moves), "{from_board} / {said}");
    let (code, _, err) = run(&["analyze", "--game", "bakers_game", pt_path]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("give the start of the moves"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Standard FreeCell named as a game of the family keeps PySolFC's numbering in every
/// command that takes a deal: `solve --game freecell N` and `verify --game freecell --deal
/// N` from 32000 on play PySolFC's Mersenne Twister deal N (its board, as `deal --game
/// freecell N` prints it; the JSON's `deal` null, since it is no Microsoft deal), and
/// `--board` reads `deal --game freecell N --format json` (a number below 32000, `msN`, or
/// from 32000 on), refusing one whose cards are not its deal's. Without --game, `verify
/// --deal 40000` is Microsoft's deal 40000.
#[test]
fn standard_freecell_takes_pysolfcs_numbers_everywhere() {
    let dir = temp("pysol-numbers");
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    // `solve --game freecell 40000`: the deal PySolFC deals, verified from its number.
    let sol = file("40000.json");
    ok(&[
        "solve", "--game", "freecell", "40000", "--format", "json", "-o", &sol,
    ]);
    let j: Value = serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).unwrap();
    let dealt: Value = serde_json::from_str(&ok(&[
        "deal", "--game", "freecell", "40000", "--format", "json",
    ]))
    .unwrap();
    assert_eq!(j["cascades"], dealt["cascades"]);
    assert!(j["deal"].is_null(), "{}", j["deal"]);
    let out = ok(&["verify", "--game", "freecell", "--deal", "40000", &sol]);
    assert!(out.starts_with("valid:"), "{out}");
    let (code, _, err) = run(&["verify", "--game", "freecell", "--deal", "40001", &sol]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("wrong --deal or --board?"), "{err}");
    // Without --game, 40000 is Microsoft's deal.
    let ms = file("ms40000.txt");
    ok(&["solve", "40000", "-o", &ms]);
    assert!(ok(&["verify", "--deal", "40000", &ms]).starts_with("valid:"));
    // `deal --game freecell N --format json` as --board.
    for n in ["5", "ms5", "40000"] {
        let board = file(&format!("deal-{n}.json"));
        let text = ok(&["deal", "--game", "freecell", n, "--format", "json"]);
        std::fs::write(&board, &text).unwrap();
        let (code, _, err) = run(&["solve", "--board", &board]);
        assert_eq!(code, 0, "{n}: {err}");
        let tampered = file(&format!("tampered-{n}.json"));
        let (a, b) = (&dealt["cascades"][0][0], &dealt["cascades"][0][1]);
        let swapped = text.replacen(&a.to_string(), "\"XX\"", 1);
        let swapped = swapped.replacen(&b.to_string(), &a.to_string(), 1);
        std::fs::write(&tampered, swapped.replacen("\"XX\"", &b.to_string(), 1)).unwrap();
        let (code, _, err) = run(&["solve", "--board", &tampered]);
        assert_eq!(code, 1, "{n}: {err}");
        assert!(err.contains("not those of freecell deal"), "{n}: {err}");
    }
}

/// A deal's JSON read as a board with other freecells than it lists (`deal 617 --format
/// json` holds four, empty) fits them as a partial `Freecells:` line does: empty slots past
/// the count dropped, missing ones empty; a card past the count is named.
#[test]
fn a_deal_json_takes_the_freecells_played() {
    let dir = temp("json-freecells");
    let board = dir.join("617.json");
    std::fs::write(&board, ok(&["deal", "617", "--format", "json"])).unwrap();
    let b = board.to_str().unwrap();
    for cells in ["3", "6"] {
        let as_json = run(&[
            "solve",
            "--freecells",
            cells,
            "--board",
            b,
            "--mode",
            "fast",
        ]);
        let text = ok(&["deal", "617", "--freecells", cells]);
        let (code, out, err) = run_in(
            &[
                "solve",
                "--freecells",
                cells,
                "--board",
                "-",
                "--mode",
                "fast",
            ],
            text.as_bytes(),
        );
        assert_eq!(as_json.0, code, "{cells}: {} / {err}", as_json.2);
        assert_eq!(as_json.1, out, "{cells}");
    }
    let eo = dir.join("eo3.json");
    std::fs::write(
        &eo,
        ok(&["deal", "--game", "eight_off", "3", "--format", "json"]),
    )
    .unwrap();
    let (code, _, err) = run(&[
        "solve",
        "--game",
        "eight_off",
        "--freecells",
        "6",
        "--board",
        eo.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("does not fit eight_off with 6 freecells"),
        "{err}"
    );
}

/// Board text names no game, so a board of another game's shape is named by its shape: a
/// Baker's Game board given to verify Seahaven Towers is "board text of 8 cascades, as
/// freecell's or bakers_game's are" (exit 2), not "a board of freecell"; a Seahaven Towers
/// board solved without --game says to give `--game seahaven_towers`.
#[test]
fn board_text_of_another_shape_is_named_by_its_shape() {
    let dir = temp("shapes");
    let bakers = dir.join("bakers-5.txt");
    std::fs::write(&bakers, ok(&["deal", "--game", "bakers_game", "5"])).unwrap();
    let sea = dir.join("sea-5.txt");
    std::fs::write(&sea, ok(&["deal", "--game", "seahaven_towers", "5"])).unwrap();
    let sol = dir.join("sea-5.sol");
    std::fs::write(&sol, ok(&["solve", "--game", "seahaven_towers", "5"])).unwrap();
    let (b, s, so) = (
        bakers.to_str().unwrap(),
        sea.to_str().unwrap(),
        sol.to_str().unwrap(),
    );
    let (code, _, err) = run(&["verify", "--game", "seahaven_towers", "--board", b, so]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("board text of 8 cascades, as freecell's or bakers_game's"),
        "{err}"
    );
    assert!(!err.contains("is a board of freecell"), "{err}");
    let (code, _, err) = run(&["solve", "--board", s]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("give --game seahaven_towers"), "{err}");
}
