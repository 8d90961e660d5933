//! The service's operations: notation read back, positions in every form, legal moves
//! against the validator, search budgets and caps.

use super::solve::{search_budget, solve_capped};
use super::*;
use fcauto_deals::{position, Board};
use fcauto_solver::Mode;
use std::time::Duration;

fn deal(n: u64) -> Board {
    fcauto_deals::ms_deal(n).unwrap()
}

/// Every move an answer lists reads back, by its notation alone, as that very move: a
/// one-card move onto an empty cascade that a plain `32` would make two cards long is
/// `32v1` (never `"32"` with `count: 1`, which `apply_move("32")` plays as 2 cards).
/// Deals 1..60 have such moves; each is checked, and a `count` contradicting the
/// notation's own is refused.
#[test]
fn every_listed_notation_reads_back_as_its_move() {
    let mut with_count = 0;
    for n in 1..=60 {
        let mut b = deal(n);
        let s = solve(&b, Mode::Fast, None).unwrap();
        for m in &s.moves {
            with_count += usize::from(notation(m).contains('v'));
            let out = apply_move(&b, parse_move(notation(m), None).unwrap(), false);
            assert_eq!(out.mv.as_ref(), Some(m), "deal {n}: {m:?}");
            // The legal moves of the position list it in the same words.
            assert!(legal_moves(&b).contains(m), "deal {n}: {m:?}");
            b = json_board(&out.position.position).unwrap();
        }
    }
    assert!(
        with_count > 0,
        "no move needed its count: the test tests nothing"
    );
    let err = parse_move("78v2", Some(1)).unwrap_err();
    assert!(
        err.message
            .contains("`78v2` moves 2 cards and count says 1"),
        "{}",
        err.message
    );
    assert_eq!(parse_move("78v2", Some(2)).unwrap().count, Some(2));
    assert_eq!(parse_move("78", Some(3)).unwrap().count, Some(3));
}

/// Long quoted inputs are cut in error messages; short ones and the rest are kept.
#[test]
fn errors_never_echo_a_huge_input() {
    let long = "x".repeat(200_000);
    let said = short_echoes(&format!("mode `{long}` is not fast or short"));
    assert_eq!(
        said,
        format!(
            "mode `{}…` (200000 bytes) is not fast or short",
            "x".repeat(40)
        )
    );
    assert_eq!(short_echoes("`3z` is not a move"), "`3z` is not a move");
    assert!(short_echoes(&format!("unclosed `{long}")).ends_with("… (200000 bytes)"));
    assert!(short_echoes(&"y".repeat(10_000)).len() < 4200);
    // Unquoted echoes too: serde's number and string echoes.
    let digits = "9".repeat(5000);
    assert_eq!(
        short_echoes(&format!("deal number {digits} is out of range")),
        format!(
            "deal number {}… (5000 bytes) is out of range",
            "9".repeat(40)
        )
    );
    let said = short_echoes(&format!("invalid type: string \"{long}\", expected u8"));
    assert!(
        said.len() < 120 && said.ends_with("(200003 bytes) expected u8"),
        "{said}"
    );
}

/// A position whose freecells have a gap (fc-solve's layout `JH      4D`) verifies a
/// solution in fc-solve's numbering (its freecells left-aligned: 4D is `b`), as the CLI's
/// `verify` does.
#[test]
fn verify_reads_fc_solve_freecell_numbering() {
    let gap = Board::parse(
        "Foundations: H-0 C-0 D-0 S-0\nFreecells:  JH      4D\n\
         : 7D TD TH KD 4C 4S JD\n: AD 7S QC 5H QS TS KS\n: 5C QD 3H 9S 9C 2H KC\n\
         : 3S AC 9D 3C 9H 5D 4H\n: 5S 6D 6S 8S 7C JC\n: 8C 8H 8D 7H 6H 6C\n: 2D AS 3D 2C\n\
         : AH KH TC JS 2S QH\n",
    )
    .unwrap();
    assert_eq!(gap.freecells[1], None, "the gap is kept");
    let mut left = gap.clone();
    left.freecells = [gap.freecells[0], gap.freecells[2], None, None];
    let s = solve(&left, Mode::Fast, None).unwrap();
    let text = s.standard.unwrap();
    assert!(verify(&left, &text).unwrap().valid);
    // As fcauto numbers the gap's freecells, the same moves are no game.
    let plain = fcauto_solver::parse_standard(&text).unwrap();
    let on_gap = fcauto_solver::resolve_counts(&gap, &plain);
    assert!(on_gap.is_err() || fcauto_solver::validate(&gap, &on_gap.unwrap()).is_err());
    let v = verify(&gap, &text).unwrap();
    assert!(v.valid, "{v:?}");
    assert_eq!(v.moves_total, s.moves_total);
    // Moves valid on neither numbering are still invalid.
    let v = verify(&gap, "ch").unwrap();
    assert!(!v.valid && v.error.is_some(), "{v:?}");
}

#[test]
fn a_solved_game_replays_through_apply_move() {
    let b = deal(617);
    let s = solve(&b, Mode::Fast, None).unwrap();
    assert_eq!(s.verdict, "solved");
    let mut pos = b.clone();
    for m in &s.moves {
        let legal = legal_moves(&pos);
        assert!(
            legal
                .iter()
                .any(|l| l.notation == m.notation && l.count == m.count),
            "{m:?} not listed"
        );
        let out = apply_move(
            &pos,
            parse_move(notation(m), Some(count(m))).unwrap(),
            false,
        );
        assert!(out.legal, "{m:?}: {:?}", out.broken_rule);
        pos = json_board(&out.position.position).unwrap();
    }
    assert!(pos.is_won());
    let v = verify(&b, s.standard.as_deref().unwrap()).unwrap();
    assert_eq!((v.valid, v.moves_total), (true, s.moves_total));
}

/// An annotated game (`analyze --report`'s `game.txt`: move numbers, marks, comments,
/// its `# start:`) verifies as its plain moves do; a start naming another position, or an
/// unclosed comment, is refused.
#[test]
fn verify_reads_an_annotated_game() {
    let b = deal(617);
    let s = solve(&b, Mode::Fast, None).unwrap();
    let plain = s.standard.clone().unwrap();
    let start = format!(
        "# deal 617, x\n# start: {}\n",
        fcauto_deals::position::write(&b)
    );
    let numbered: Vec<String> = (plain.split_whitespace().enumerate())
        .map(|(i, m)| {
            format!(
                "{}. {m}{}",
                i + 1,
                if i == 3 { "? {a # comment}" } else { "" }
            )
        })
        .collect();
    let game = format!("{start}{}\n", numbered.join("\n"));
    let v = verify(&b, &game).unwrap();
    assert_eq!((v.valid, v.moves_total), (true, s.moves_total), "{v:?}");
    let other = verify(&deal(1), &game).unwrap_err();
    assert!(other.message.contains("deal 617"), "{}", other.message);
    let open = verify(&b, &format!("{plain} {{unclosed")).unwrap_err();
    assert!(open.message.contains("not closed"), "{}", open.message);
    // JSON is refused as such, never read as a comment (a won position and
    // `{"verdict": "unsolvable", "moves": []}` would otherwise be "valid").
    let won = Board::parse(&format!(
        "Foundations: H-K C-K D-K S-K\n{}",
        ":\n".repeat(8)
    ))
    .unwrap();
    for json in [
        r#"{"verdict":"unsolvable","solvable":false,"moves":[]}"#,
        "{}",
    ] {
        let e = verify(&won, json).unwrap_err();
        assert!(e.message.contains("the solution is JSON"), "{}", e.message);
    }
    assert!(verify(&won, "{a comment}").unwrap().valid);
}

#[test]
fn illegal_moves_are_refused_with_the_rule_and_the_same_position() {
    let b = deal(1);
    for mv in ["ah", "a1", "1h"] {
        let out = apply_move(&b, parse_move(mv, None).unwrap(), true);
        assert!(!out.legal, "{mv}");
        assert!(out.broken_rule.as_deref().is_some_and(|r| !r.is_empty()));
        assert_eq!(out.position, position_out(&b));
    }
    assert_eq!(
        parse_move("zz", None).unwrap_err().kind,
        ErrorKind::BadInput
    );
}

#[test]
fn autoplay_homes_safe_cards_only_when_asked() {
    // The first move, among the first deals, that exposes an ace.
    let (b, with) = (1..50)
        .flat_map(|n| {
            let b = deal(n);
            legal_moves(&b).into_iter().map(move |m| (b.clone(), m))
        })
        .map(|(b, m)| {
            let out = apply_move(&b, parse_move(notation(&m), Some(count(&m))).unwrap(), true);
            (b, out)
        })
        .find(|(_, o)| !o.autoplayed.is_empty())
        .expect("some first move of deals 1..49 exposes an ace");
    assert!(with.autoplayed.iter().all(|m| m.to == "h"));
    let m = with.mv.clone().unwrap();
    let without = apply_move(
        &b,
        parse_move(notation(&m), Some(count(&m))).unwrap(),
        false,
    );
    assert!(without.autoplayed.is_empty());
    assert_ne!(without.position, with.position);
}

#[test]
fn positions_in_every_form() {
    let b = deal(5);
    let s = position::write(&b);
    assert_eq!(PositionIn::Text(s.clone()).to_board().unwrap(), b);
    assert_eq!(PositionIn::Text(b.to_string()).to_board().unwrap(), b);
    let j: PositionIn =
        serde_json::from_value(serde_json::json!({"cascades": b.cascades})).unwrap();
    assert_eq!(j.to_board().unwrap(), b);
    // null freecells and foundations are left out.
    let j: PositionIn = serde_json::from_value(
        serde_json::json!({"cascades": b.cascades, "freecells": null, "foundations": null}),
    )
    .unwrap();
    assert_eq!(j.to_board().unwrap(), b);
    let bad: PositionIn =
        serde_json::from_value(serde_json::json!({"cascades": [["AS"]]})).unwrap();
    assert_eq!(bad.to_board().unwrap_err().kind, ErrorKind::Impossible);
    // An object's own problem is named, not "no variant matched".
    for (v, want) in [
        (
            serde_json::json!({"cascades": b.cascades, "extra": 1}),
            "unknown field `extra`",
        ),
        (
            serde_json::json!({"cascades": b.cascades, "foundations": [1, 2, 3]}),
            "foundations: 4 numbers, the top rank on each foundation (C, D, H, S), 0 (none) \
             to 13 (K); got 3",
        ),
        (
            serde_json::json!({"cascades": b.cascades, "foundations": [0, 0, 0, 269]}),
            "foundations: `269` is not the top rank",
        ),
        (
            serde_json::json!({"cascades": b.cascades, "freecells": ["XX"]}),
            "XX",
        ),
        (
            serde_json::json!({"cascades": b.cascades, "freecells": [null, null, null]}),
            "freecells has 3 slots",
        ),
        (serde_json::json!(5), "a position string"),
    ] {
        let err = serde_json::from_value::<PositionIn>(v)
            .unwrap_err()
            .to_string();
        assert!(err.contains(want), "{want}: {err}");
    }
}

/// Every move the validator accepts from `b`, by brute force over every source,
/// destination and count, through [`apply_move`]; sorted.
fn accepted_moves(b: &Board) -> Vec<JsonMove> {
    let names = "12345678abcdh";
    let mut out = vec![];
    for from in names.chars() {
        for to in names.chars() {
            for count in 0..=21u8 {
                let Ok(m) = parse_move(&format!("{from}{to}"), Some(count.into())) else {
                    continue;
                };
                let r = apply_move(b, m, false);
                if r.legal {
                    out.push(r.mv.expect("a legal move is named"));
                }
            }
        }
    }
    sorted(out)
}

/// A listed move's notation (the service sets it on every move).
fn notation(m: &JsonMove) -> &str {
    m.notation
        .as_deref()
        .expect("the service writes every move's notation")
}

/// A listed move's count (the service sets it on every move).
fn count(m: &JsonMove) -> i64 {
    m.count
        .expect("the service writes every move's count")
        .into()
}

fn sorted(mut v: Vec<JsonMove>) -> Vec<JsonMove> {
    v.sort_by(|a, b| (&a.notation, a.count).cmp(&(&b.notation, b.count)));
    v
}

/// Positions along `fast`'s solutions of deals 617, 1 and 5, along walks through the
/// legal moves of 11982 (unsolvable) and 94717719, and a hand-made endgame.
fn sample_positions() -> Vec<Board> {
    let mut out = vec![parse_text("JHQHKH/-/-/-/-/-/-/- ---- KKTK").unwrap()];
    for n in [617, 1, 5] {
        let s = solve(&deal(n), Mode::Fast, None).unwrap();
        assert_eq!(s.verdict, "solved", "deal {n}");
        out.extend(walk(deal(n), s.moves.len(), |i, _| s.moves.get(i).cloned()));
    }
    for n in [11982, 94717719] {
        out.extend(walk(deal(n), 80, |i, legal| {
            legal.get((i * 7) % legal.len().max(1)).cloned()
        }));
    }
    out
}

/// The positions of up to `steps` moves from `b`, each chosen by `pick(step, legal)`.
fn walk(
    mut b: Board,
    steps: usize,
    pick: impl Fn(usize, &[JsonMove]) -> Option<JsonMove>,
) -> Vec<Board> {
    let mut out = vec![b.clone()];
    for i in 0..steps {
        let Some(m) = pick(i, &legal_moves(&b)) else {
            break;
        };
        let r = apply_move(
            &b,
            parse_move(notation(&m), Some(count(&m))).unwrap(),
            false,
        );
        assert!(r.legal, "{m:?}");
        b = json_board(&r.position.position).unwrap();
        out.push(b.clone());
    }
    out
}

#[test]
fn legal_moves_lists_every_move_the_validator_accepts() {
    let positions = sample_positions();
    assert!(positions.len() > 300, "{}", positions.len());
    for b in &positions {
        assert_eq!(
            sorted(legal_moves(b)),
            accepted_moves(b),
            "{}",
            position::write(b)
        );
    }
}

#[test]
fn legal_moves_includes_the_symmetric_ones() {
    let b = parse_text("JHQHKH/-/-/-/-/-/-/- ---- KKTK").unwrap();
    let got: Vec<(String, u8)> = legal_moves(&b)
        .into_iter()
        .map(|m| (notation(&m).to_string(), count(&m) as u8))
        .collect();
    for want in [("1a", 1), ("1d", 1), ("12", 1), ("18", 1), ("15", 1)] {
        assert!(
            got.contains(&(want.0.to_string(), want.1)),
            "{want:?} not in {got:?}"
        );
    }
    let b = parse_text("-/-/-/-/-/-/-/- QHKH-- KKJK").unwrap();
    let ac = legal_moves(&b).into_iter().find(|m| notation(m) == "ac");
    assert_eq!(
        ac.and_then(|m| m.kind).map(|k| k.name()),
        Some("freecell_to_freecell")
    );
    // A whole cascade (a run of 3, with 4 free freecells) onto an empty cascade: its
    // notation carries the count (`13v3`), as every run onto an empty cascade.
    let b = parse_text("KHQCJH/KCQH/-/-/-/-/-/- ---- JKTK").unwrap();
    assert!(legal_moves(&b)
        .iter()
        .any(|m| notation(m) == "13v3" && m.count == Some(3)));
}

#[test]
fn a_time_capped_solve_keeps_its_slot_until_the_search_ends() {
    let slot = std::sync::Arc::new(());
    let out = solve_capped(&deal(1), Mode::Short, None, Duration::ZERO, slot.clone()).unwrap();
    assert!(
        out.verdict.starts_with("unknown: time cap"),
        "{}",
        out.verdict
    );
    assert_eq!(
        std::sync::Arc::strong_count(&slot),
        2,
        "the slot went back while the search ran"
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while std::sync::Arc::strong_count(&slot) > 1 {
        assert!(
            std::time::Instant::now() < deadline,
            "the search never ended"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn max_states_above_the_cap_is_refused_not_lowered() {
    let e = solve(&deal(1), Mode::Fast, Some(MAX_STATES + 1)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadInput);
    assert!(
        e.message
            .contains(&format!("max_states {}", MAX_STATES + 1)),
        "{}",
        e.message
    );
    assert_eq!(
        hint(&deal(1), Mode::Fast, Some(usize::MAX))
            .unwrap_err()
            .kind,
        ErrorKind::BadInput
    );
    assert_eq!(search_budget(Mode::Fast, Some(MAX_STATES)), Ok(MAX_STATES));
    assert_eq!(search_budget(Mode::Short, None), Ok(MAX_STATES));
}

#[test]
fn max_states_zero_is_refused() {
    let e = solve(&deal(1), Mode::Fast, Some(0)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadInput);
    assert!(e.message.contains("max_states 0"), "{}", e.message);
    assert!(hint(&deal(1), Mode::Fast, Some(0)).is_err());
    assert_eq!(solve(&deal(1), Mode::Fast, Some(1)).unwrap().solvable, None);
}

/// The service's verify is the command line's: fc-solve's output reads (its tabs tidied as
/// the command line tidies them), and text that is no solution is refused in words naming
/// what the service reads (not our JSON, which it refuses).
#[test]
fn verify_reads_what_the_command_line_reads() {
    let b = deal(617);
    let Ok((fcauto_solver::Outcome::Solved(c), _)) =
        fcauto_solver::solve_checked(Some(617), &b, Mode::Fast, None)
    else {
        panic!("deal 617 not solved")
    };
    let fcs = c.solution.to_fcs().replace("Move a card", "Move\ta  card");
    let v = verify(&b, &fcs).unwrap();
    assert_eq!(
        (v.valid, v.moves_total),
        (true, Some(c.moves_total)),
        "{v:?}"
    );
    let e = verify(&b, "hello there").unwrap_err();
    assert!(
        e.message.contains("expected standard notation") && !e.message.contains("JSON"),
        "{}",
        e.message
    );
    let v = verify(&b, "# unsolvable\n").unwrap();
    assert!(!v.valid && v.error.is_some_and(|e| e.contains("not solved")));
}

/// A family game's positions: PySolFC's deal by name or id, read back from its string and
/// its JSON (whose rules must be the game's), standard FreeCell by name kept as the standard
/// board, and board text (whose first line ends its first word with `:`) still read as
/// FreeCell's.
#[test]
fn family_positions_in_every_form() {
    let p = new_game_of("617", Some("seahaven_towers"), None).unwrap();
    let Position::Family(f) = &p else {
        panic!("{p:?}")
    };
    assert_eq!(f.layout.cascades.len(), 10);
    assert_eq!(new_game_of("617", Some("9"), None).unwrap(), p);
    let out = f.out();
    let text = PositionIn::Text(out.position_string.clone());
    assert_eq!(text.to_position().unwrap(), p);
    let json: PositionIn =
        serde_json::from_value(serde_json::to_value(&out.position).unwrap()).unwrap();
    assert_eq!(json.to_position().unwrap(), p);
    let mut other = serde_json::to_value(&out.position).unwrap();
    other["rules"]["build"] = "rank".into();
    let other: PositionIn = serde_json::from_value(other).unwrap();
    assert!(other.to_position().unwrap_err().message.contains("rules"));
    assert!(text
        .to_board()
        .unwrap_err()
        .message
        .contains("seahaven_towers"));
    let standard = new_game_of("617", Some("freecell"), None).unwrap();
    assert_eq!(standard, Position::Standard(deal(617)));
    let board = PositionIn::Text(deal(5).to_string());
    assert_eq!(board.to_position().unwrap(), Position::Standard(deal(5)));
    // FreeCell with 2 freecells is the family's, its string unnamed by game but by slots.
    let two = new_game_of("617", None, Some(2)).unwrap();
    let Position::Family(t) = &two else {
        panic!("{two:?}")
    };
    assert_eq!(t.layout.freecells.len(), 2);
}

/// A family move without a count takes the longest run the position allows, is applied by
/// the validator, and an illegal one keeps the position and names the rule.
#[test]
fn family_moves_are_refereed_by_the_validator() {
    let p = new_game_of("617", Some("bakers_game"), None).unwrap();
    let moves = p.legal_moves().unwrap();
    assert!(!moves.is_empty());
    for m in &moves {
        let out = p
            .apply(m.notation.as_deref().unwrap(), None, false)
            .unwrap();
        assert!(out.legal, "{m:?}");
        assert_eq!(out.mv.as_ref(), Some(m), "read back as listed");
    }
    let bad = p.apply("1h", None, false).unwrap();
    assert!(!bad.legal);
    assert!(bad.broken_rule.unwrap().contains("foundation"));
    assert_eq!(bad.position, p.out());
    assert_eq!(
        p.apply("1x", None, false).unwrap_err().kind,
        ErrorKind::BadInput
    );
    assert_eq!(
        p.apply("12", Some(14), false).unwrap_err().kind,
        ErrorKind::BadInput
    );
}

/// A position that names its game, with `freecells` alone: read as that game, and a refusal
/// names only the fields sent (no `game` was sent).
#[test]
fn freecells_alone_keeps_the_games_position_and_names_only_what_was_sent() {
    let text = "bakers_game: -/-/-/-/-/-/-/- ---- KKKK".to_string();
    let p = PositionIn::Text(text.clone());
    match p.to_position_of(None, Some(4)) {
        Ok(Position::Family(f)) => assert_eq!(f.game.name, "bakers_game"),
        Ok(_) => panic!("read as standard FreeCell"),
        Err(e) => panic!("{}", e.message),
    }
    let e = match p.to_position_of(None, Some(2)) {
        Err(e) => e.message,
        Ok(_) => panic!("4 freecell slots read with 2 freecells"),
    };
    assert!(!e.contains("`game`"), "{e}");
    let e = match p.to_position_of(Some("seahaven_towers"), None) {
        Err(e) => e.message,
        Ok(_) => panic!("a Baker's Game position read as Seahaven Towers"),
    };
    assert!(e.contains("`game` says seahaven_towers"), "{e}");
}

/// A family solution's `single_card_moves` in `verify` is what `solve` and `bench` count
/// (each run as its supermove: `single_card_count`), and null in a game whose runs move as
/// a unit (it was the cards moved, a number in every game).
#[test]
fn family_single_card_moves_are_counted_as_solve_counts_them() {
    use fcauto_solver::family::{single_card_count, solve_family, FamilyMode, FamilyOutcome};
    for game in ["bakers_game", "relaxed_freecell"] {
        let p = new_game_of("5", Some(game), None).unwrap();
        let Position::Family(f) = &p else {
            panic!("{p:?}")
        };
        let (out, _) = solve_family(&f.layout, &f.rules, FamilyMode::Fast, None).unwrap();
        let FamilyOutcome::Solved(s) = out else {
            panic!("{game} 5 not solved")
        };
        let v = super::family_solve::family_verify(f, &s.tokens.join(" ")).unwrap();
        assert!(v.valid, "{game}: {v:?}");
        let want = single_card_count(&f.layout, &f.rules, &s.moves);
        assert_eq!(v.single_card_moves, want, "{game}");
        assert_eq!(want.is_none(), game == "relaxed_freecell", "{game}");
    }
}
