//! Property tests: random legal play keeps the deck intact; the validator rejects mutated
//! solutions.

use fcauto_deals::{ms_deal, Card};
use fcauto_solver::movegen::{generate, generate_pruned};
use fcauto_solver::state::State;
use fcauto_solver::{
    solve, validate, Limits, Loc, Mode, Solution, StepMove, ValidationError, Verdict,
};
use proptest::prelude::*;

/// The fast solution of `deal`, or `None` when the search proves the deal impossible (deal
/// 11982 is, among 1..32000); any other verdict fails the test.
fn solved(deal: u64) -> Option<Solution> {
    let board = ms_deal(deal).unwrap();
    match solve(
        &board,
        Mode::Fast,
        Limits {
            max_states: 300_000,
        },
    )
    .verdict
    {
        Verdict::Solved(moves) => Some(Solution {
            deal: Some(deal),
            board,
            moves,
        }),
        Verdict::Unsolvable => None,
        v => panic!("deal {deal}: {v:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any sequence of generated moves keeps exactly 52 distinct cards, and the validator
    /// (an independent rules implementation) accepts every generated move.
    #[test]
    fn random_legal_moves_keep_52_distinct_cards(deal in 1u64..32000, picks in proptest::collection::vec(any::<u16>(), 1..200)) {
        let board = ms_deal(deal).unwrap();
        let mut s = State::from_board(&board);
        let mut b = board.clone();
        let mut moves = Vec::new();
        for p in picks {
            moves.clear();
            generate(&s, false, &mut moves);
            if moves.is_empty() { break; }
            let m = moves[p as usize % moves.len()];
            let card = Card::from_id(s.moved_card(m).unwrap());
            s.apply(m);
            fcauto_solver::validator::apply_checked(&mut b, &StepMove { from: m.from, to: m.to, count: Some(m.count), card })
                .map_err(|e| TestCaseError::fail(format!("validator rejects generated move {m}: {e}")))?;
            let sb = s.to_board();
            prop_assert!(sb.check().is_ok(), "{:?}", sb.check());
            prop_assert_eq!(sb.cards_in_play() + sb.foundations.iter().map(|&f| f as usize).sum::<usize>(), 52);
            prop_assert_eq!(&sb, &b);
        }
    }

    /// Truncating a solution leaves cards off the foundations.
    #[test]
    fn truncated_solutions_are_rejected(deal in 1u64..2000, cut in 1usize..40) {
        let Some(sol) = solved(deal) else { return Ok(()) };
        let mut steps = sol.step_moves();
        let keep = steps.len().saturating_sub(cut);
        steps.truncate(keep);
        let rejected = matches!(validate(&sol.board, &steps), Err(ValidationError::NotWon { .. }) | Err(ValidationError::Illegal { .. }));
        prop_assert!(rejected, "a truncated solution was accepted");
    }

    /// Naming the wrong card, or the wrong run size, for any step is rejected at that step.
    #[test]
    fn wrong_card_or_count_is_rejected_at_its_step(deal in 1u64..2000, at in any::<prop::sample::Index>(), other in 0u8..52) {
        let Some(sol) = solved(deal) else { return Ok(()) };
        let mut steps = sol.step_moves();
        let i = at.index(steps.len());
        let orig = steps[i];
        if orig.card != Card::from_id(other) {
            steps[i].card = Card::from_id(other);
            match validate(&sol.board, &steps) {
                Err(ValidationError::Illegal { step, .. }) => prop_assert_eq!(step, i + 1),
                r => prop_assert!(false, "accepted a wrong card: {:?}", r),
            }
        }
        steps[i] = orig;
        if matches!(orig.from, Loc::Cascade(_)) {
            steps[i].count = Some(orig.count.unwrap() + 1);
            match validate(&sol.board, &steps) {
                Err(ValidationError::Illegal { step, .. }) => prop_assert_eq!(step, i + 1),
                r => prop_assert!(false, "accepted a wrong count: {:?}", r),
            }
        }
    }

    /// A move out of the foundations is never legal.
    #[test]
    fn moves_from_the_foundations_are_rejected(deal in 1u64..2000, at in any::<prop::sample::Index>()) {
        let Some(sol) = solved(deal) else { return Ok(()) };
        let mut steps = sol.step_moves();
        let i = at.index(steps.len());
        steps[i].from = Loc::Foundation;
        let at_step = matches!(validate(&sol.board, &steps), Err(ValidationError::Illegal { step, .. }) if step == i + 1);
        prop_assert!(at_step, "a move from the foundations was not rejected at its step");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Move generation is complete: every single-card move the validator accepts leads to a
    /// position (up to the order of cascades and freecells) that some generated move reaches,
    /// and every generated move is one the validator accepts.
    #[test]
    fn generated_moves_cover_every_legal_single_card_move(deal in 1u64..32000, picks in proptest::collection::vec(any::<u16>(), 0..120)) {
        let board = ms_deal(deal).unwrap();
        let mut s = State::from_board(&board);
        let mut moves = Vec::new();
        for p in picks {
            moves.clear();
            generate(&s, false, &mut moves);
            if moves.is_empty() { break; }
            s.apply(moves[p as usize % moves.len()]);
        }
        moves.clear();
        generate(&s, true, &mut moves);
        let reached: std::collections::HashSet<u128> = moves.iter().map(|&m| { let mut c = s.clone(); c.apply(m); c.fingerprint() }).collect();
        let b = s.to_board();
        let mut locs: Vec<Loc> = (0..8).map(Loc::Cascade).chain((0..4).map(Loc::Freecell)).collect();
        locs.push(Loc::Foundation);
        for &from in &locs[..12] {
            for &to in &locs {
                if from == to { continue; }
                let mut after = b.clone();
                let step = StepMove { from, to, count: Some(1), card: None };
                if fcauto_solver::validator::apply_checked(&mut after, &step).is_err() { continue; }
                if matches!((from, to), (Loc::Freecell(_), Loc::Freecell(_))) { continue; } // same position up to symmetry
                let fp = State::from_board(&after).fingerprint();
                if fp == s.fingerprint() { continue; } // e.g. a lone card to an empty cascade
                prop_assert!(reached.contains(&fp), "legal move {}{} not generated in\n{}", from.notation(), to.notation(), b);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// `fast` mode's reduced move set is a subset of all moves, and drops only moves that
    /// split a run (a card lying on a card it fits going to a freecell, or a run shorter than
    /// the longest movable one) and a top card going to a freecell when it could go onto a
    /// cascade.
    #[test]
    fn pruned_moves_are_all_moves_minus_run_splits(deal in 1u64..32000, picks in proptest::collection::vec(any::<u16>(), 0..120)) {
        let board = ms_deal(deal).unwrap();
        let mut s = State::from_board(&board);
        let (mut all, mut pruned) = (Vec::new(), Vec::new());
        for p in picks {
            all.clear();
            pruned.clear();
            generate(&s, false, &mut all);
            generate_pruned(&s, &mut pruned);
            for m in &pruned {
                prop_assert!(all.contains(m), "pruned move {m} is not a legal move");
            }
            for m in all.iter().filter(|m| !pruned.contains(m)) {
                let Loc::Cascade(i) = m.from else {
                    return Err(TestCaseError::fail(format!("dropped {m}, not from a cascade")));
                };
                let splits = s.run_len(i as usize) > m.count as usize;
                let onto_cascade = all.iter().any(|o| {
                    o.from == m.from && o.count == 1 && matches!(o.to, Loc::Cascade(k) if s.len[k as usize] > 0)
                });
                let needless_cell = matches!(m.to, Loc::Freecell(_)) && onto_cascade;
                prop_assert!(splits || needless_cell, "dropped {m}, which neither splits a run nor fills a freecell needlessly");
            }
            if all.is_empty() { break; }
            s.apply(all[p as usize % all.len()]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Shortcut shortening keeps a solution valid and never makes it longer.
    #[test]
    fn shortening_keeps_solutions_valid_and_not_longer(deal in 1u64..32000) {
        let Some(sol) = solved(deal) else { return Ok(()) };
        let before = validate(&sol.board, &sol.step_moves()).unwrap();
        let shorter = fcauto_solver::shorten::shorten_solution(&sol.board, &sol.moves, 2, 50);
        let sol2 = Solution { deal: Some(deal), board: sol.board.clone(), moves: shorter };
        let after = validate(&sol2.board, &sol2.step_moves()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(after.single_card_moves <= before.single_card_moves);
    }
}
