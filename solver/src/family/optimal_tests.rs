//! The optimal modes: A* against a breadth-first search over every move (no auto-moves, no
//! bound) on small positions of each kind of game, the bound along optimal paths, optimal
//! never beaten by `short`, FreeCell's optimum equal to the standard solver's, the refusal of
//! single-card optima for unlimited-sequence games, and the single-card count of runs.

use super::super::moves::generate;
use super::super::state::{Pos, M};
use super::super::{solve_family, validate_family, FamilyMode, FamilyMove, FamilyOutcome, Place};
use super::*;
use crate::state::mix64;
use fcauto_deals::game::{BuildOrder, EmptyFill, SequenceMove};
use fcauto_deals::{ms_deal, Card, Game, Layout, Rules};
use std::collections::{HashSet, VecDeque};

/// The cards of rank `low` and up, shuffled by `seed`: the first `cells` in freecells, the
/// rest dealt round-robin onto `cols` of the rules' cascades; lower cards home.
fn endgame(seed: u64, low: u8, cells: usize, cols: usize, rules: &Rules) -> Layout {
    let mut cards: Vec<Card> = (0..52u8)
        .filter_map(Card::from_id)
        .filter(|c| c.rank().value() >= low)
        .collect();
    for i in (1..cards.len()).rev() {
        let j = (mix64(seed * 1000 + i as u64) % (i as u64 + 1)) as usize;
        cards.swap(i, j);
    }
    let mut cascades = vec![Vec::new(); rules.cascades as usize];
    for (i, &c) in cards[cells..].iter().enumerate() {
        cascades[i % cols].push(c);
    }
    let mut freecells: Vec<Option<Card>> = cards[..cells].iter().map(|&c| Some(c)).collect();
    freecells.resize(rules.freecells as usize, None);
    Layout {
        cascades,
        freecells,
        foundations: [low - 1; 4],
    }
}

/// The fewest moves (single cards only when `single`) from `l` by breadth-first search over
/// every legal move, auto-moves not played (foundation moves are chosen like any other);
/// `None` when no position reached is won.
fn breadth_first(l: &Layout, rules: &Rules, single: bool) -> Option<usize> {
    let start = Pos::from_layout(l, rules).unwrap();
    let mut seen = HashSet::new();
    seen.insert(start.fingerprint());
    let mut queue = VecDeque::from([(start, 0usize)]);
    let mut moves: Vec<M> = Vec::new();
    while let Some((p, d)) = queue.pop_front() {
        if p.home() == 52 {
            return Some(d);
        }
        moves.clear();
        generate(&p, rules, &mut moves);
        for &m in moves.iter().filter(|m| !single || m.count == 1) {
            let mut q = p.clone();
            q.apply(m);
            if seen.insert(q.fingerprint()) {
                queue.push_back((q, d + 1));
            }
        }
    }
    None
}

/// A*'s optimum of `l` in `metric` with `bound` (`None`: proved unsolvable).
fn a_star(l: &Layout, rules: &Rules, metric: Metric, bound: Bound) -> Option<usize> {
    let start = Pos::from_layout(l, rules).unwrap();
    match astar(&start, rules, metric, 5_000_000, bound).0 {
        End::Solved(ms) => {
            let moves: Vec<FamilyMove> = ms.iter().map(|&m| super::super::public(m)).collect();
            validate_family(l, rules, &moves).expect("A*'s solution validates");
            if metric == Metric::SingleCard {
                assert!(moves.iter().all(|m| m.count == 1));
            }
            Some(ms.len())
        }
        End::Exhausted => None,
        End::Stopped(why) => panic!("stopped: {why}"),
    }
}

fn rules_of(name: &str) -> Rules {
    Game::find(name).unwrap().rules
}

/// Small positions of every kind of game: (rules, rank of the lowest card left, cards in
/// freecells, cascades dealt to).
fn small_positions() -> Vec<(Layout, Rules)> {
    let kinds: [(&str, Option<u8>, u8, usize, usize); 8] = [
        ("bakers_game", Some(1), 11, 1, 3),
        ("ko_bakers_game", Some(1), 10, 0, 4),
        ("seahaven_towers", Some(2), 11, 1, 4),
        ("eight_off", Some(2), 11, 1, 4),
        ("freecell", Some(1), 11, 1, 3),
        ("forecell", Some(1), 11, 1, 3),
        ("streets_and_alleys", None, 11, 0, 4),
        ("relaxed_seahaven_towers", Some(1), 11, 1, 3),
    ];
    let mut out = Vec::new();
    for (seed, (name, cells, low, in_cells, cols)) in kinds.into_iter().enumerate() {
        let rules = cells.map_or(rules_of(name), |n| rules_of(name).with_freecells(n));
        for k in 0..3 {
            let s = (seed * 10 + k) as u64;
            out.push((endgame(s, low, in_cells, cols, &rules), rules));
        }
    }
    out
}

#[test]
fn a_star_equals_the_breadth_first_minimum_on_small_positions() {
    let mut solved = 0;
    for (i, (l, rules)) in small_positions().iter().enumerate() {
        for metric in [Metric::SingleCard, Metric::Moves] {
            let single = metric == Metric::SingleCard;
            if single && rules.sequence == SequenceMove::Unlimited {
                continue;
            }
            let want = breadth_first(l, rules, single);
            let got = a_star(l, rules, metric, Bound::Blocked);
            assert_eq!(got, want, "position {i} {metric:?}: {l:?}");
            let uniform = a_star(l, rules, metric, Bound::Zero);
            assert_eq!(uniform, want, "position {i} {metric:?}, no bound");
            solved += usize::from(want.is_some());
        }
    }
    assert!(solved >= 20, "only {solved} solvable");
}

/// Suit building, kings only, 2 freecells: the run JS TS lies on TD and 9S, which must go
/// home first. In moves, the run goes onto QS in one (10 in all); in single cards that costs
/// 3, and parking TS and JS in the freecells costs 2: they go home from there (11 in all).
#[test]
fn a_run_counts_once_in_moves_and_by_its_cards_in_single_cards() {
    let cards =
        |s: &str| -> Vec<Card> { s.split_whitespace().map(|t| t.parse().unwrap()).collect() };
    let l = Layout {
        cascades: vec![cards("9S TD JS TS"), cards("KS QS"), cards("KD QD JD")],
        freecells: vec![None, None],
        foundations: [13, 9, 13, 8],
    };
    let rules = Rules::new(
        3,
        2,
        BuildOrder::Suit,
        EmptyFill::Kings,
        SequenceMove::Limited,
    );
    for (metric, want) in [(Metric::Moves, 10), (Metric::SingleCard, 11)] {
        let single = metric == Metric::SingleCard;
        assert_eq!(breadth_first(&l, &rules, single), Some(want), "{metric:?}");
        assert_eq!(
            a_star(&l, &rules, metric, Bound::Blocked),
            Some(want),
            "{metric:?}"
        );
    }
}

#[test]
fn the_bound_never_exceeds_what_is_left_along_an_optimal_path() {
    for (l, rules) in small_positions() {
        for metric in [Metric::SingleCard, Metric::Moves] {
            if metric == Metric::SingleCard && rules.sequence == SequenceMove::Unlimited {
                continue;
            }
            let start = Pos::from_layout(&l, &rules).unwrap();
            let End::Solved(ms) = astar(&start, &rules, metric, 5_000_000, Bound::Blocked).0 else {
                continue;
            };
            let mut p = start.clone();
            for (k, &m) in ms.iter().enumerate() {
                let h = lower_bound(&p, &rules, metric, Bound::Blocked) as usize;
                assert!(h <= ms.len() - k, "{metric:?} after {k} of {}", ms.len());
                p.apply(m);
            }
        }
    }
}

/// The moves of `mode`'s solution of `l` (which solve_family has validated).
fn solution(l: &Layout, rules: &Rules, mode: FamilyMode, max: usize) -> Vec<FamilyMove> {
    match solve_family(l, rules, mode, Some(max)).unwrap().0 {
        FamilyOutcome::Solved(s) => {
            assert!(validate_family(l, rules, &s.moves).is_ok());
            s.moves
        }
        other => panic!("{mode:?}: {other:?}"),
    }
}

/// Baker's Game and Seahaven Towers deals: the optimal modes' solutions validate and are
/// never longer than `short`'s in their counts.
#[test]
fn optimal_solutions_are_never_longer_than_short_ones() {
    let deals: [(&str, u64); 2] = [("bakers_game", 4), ("seahaven_towers", 5)];
    for (name, n) in deals {
        let game = Game::find(name).unwrap();
        let number = fcauto_deals::PysolNumber::plain(n as u128).unwrap();
        let l = fcauto_deals::deal_with_rules(game, &game.rules, number).unwrap();
        let short = solution(&l, &game.rules, FamilyMode::Short, 1_000_000);
        let moves = solution(&l, &game.rules, FamilyMode::OptimalMoves, 4_000_000);
        assert!(moves.len() <= short.len(), "{name} {n}");
        let single = solution(&l, &game.rules, FamilyMode::Optimal, 4_000_000);
        assert!(single.iter().all(|m| m.count == 1));
        let short_single = single_card_count(&l, &game.rules, &short).unwrap();
        assert!(single.len() <= short_single, "{name} {n}");
        let moves_single = single_card_count(&l, &game.rules, &moves).unwrap();
        assert!(single.len() <= moves_single, "{name} {n}");
        assert!(moves.len() <= single.len(), "{name} {n}");
    }
}

/// Standard FreeCell's rules through the family's A* give the standard optimal mode's
/// single-card optimum (both play single cards, each with its own safe auto-moves).
#[test]
fn freecell_through_the_family_agrees_with_the_standard_optimum() {
    for n in [3u64, 7] {
        let board = ms_deal(n).unwrap();
        let r = crate::optimal(&board, crate::Metric::SingleCard, 4_000_000);
        let crate::Verdict::Solved(played) = r.verdict else {
            panic!("deal {n}: {:?}", r.verdict);
        };
        let l = Layout::from_board(&board, 4);
        let ours = solution(&l, &Rules::FREECELL, FamilyMode::Optimal, 6_000_000);
        assert_eq!(ours.len(), played.len(), "deal {n}");
    }
}

#[test]
fn unlimited_sequence_games_have_only_the_move_count() {
    let relaxed = rules_of("relaxed_freecell");
    let l = Layout::from_board(&ms_deal(1).unwrap(), 4);
    let e = solve_family(&l, &relaxed, FamilyMode::Optimal, None).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("optimal-moves only: relaxed_freecell, relaxed_seahaven_towers"));
    assert!(text.contains("both optimal modes: freecell, freecell_2_freecells"));
    assert!(FamilyMode::OptimalMoves.refusal(&relaxed).is_none());
    for g in fcauto_deals::GAMES {
        let limited = g.rules.sequence == SequenceMove::Limited;
        assert_eq!(FamilyMode::Optimal.refusal(&g.rules).is_none(), limited);
    }
}

#[test]
fn a_run_costs_its_single_card_realisation() {
    let cards =
        |s: &str| -> Vec<Card> { s.split_whitespace().map(|t| t.parse().unwrap()).collect() };
    let lay = |cols: &[&str], cells: usize| Layout {
        cascades: cols.iter().map(|c| cards(c)).collect(),
        freecells: vec![None; cells],
        foundations: [0; 4],
    };
    let run = FamilyMove {
        from: Place::Cascade(0),
        to: Place::Cascade(1),
        count: 3,
    };
    let l = lay(&["2C 8H 7H 6H", "3C 9H", ""], 2);
    let kings = Rules::new(
        3,
        2,
        BuildOrder::Suit,
        EmptyFill::Kings,
        SequenceMove::Limited,
    );
    assert_eq!(run_cost(&l, &kings, &run), 5);
    // Any card fills, 1 freecell and 1 empty cascade: 3 cards park 1 on the empty cascade
    // (1 move), carry 2 through the freecell (3), bring the 1 back (1); 4 cards in 9.
    let any = Rules::new(
        3,
        1,
        BuildOrder::Suit,
        EmptyFill::Any,
        SequenceMove::Limited,
    );
    let l1 = lay(&["2C 8H 7H 6H", "3C 9H", ""], 1);
    assert_eq!(run_cost(&l1, &any, &run), 5);
    let four = FamilyMove { count: 4, ..run };
    let l4 = lay(&["2C 9H 8H 7H 6H", "3C TH", ""], 1);
    assert_eq!(run_cost(&l4, &any, &four), 9);
    let relaxed = Rules::new(
        3,
        1,
        BuildOrder::Suit,
        EmptyFill::Any,
        SequenceMove::Unlimited,
    );
    assert_eq!(single_card_count(&l4, &relaxed, &[four]), None);
}
