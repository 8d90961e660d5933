//! The family search and validator: moves under each rule, refusals, small positions proved
//! solvable and unsolvable, and deals solved and validated.

use super::*;
use fcauto_deals::{ms_deal, Card, Game};

#[test]
fn smoke_bakers_game_deal_1() {
    let rules = Game::find("bakers_game").unwrap().rules;
    let layout = Layout::from_board(&ms_deal(1).unwrap(), 4);
    let (out, stats) = solve_family(&layout, &rules, FamilyMode::Fast, None).unwrap();
    eprintln!("{stats:?}");
    assert!(matches!(out, FamilyOutcome::Solved(_)), "{out:?}");
    let _ = Card::from_id(0);
}

/// Verdict counts over a range of MS deals (`FAMILY_GAME`, `FAMILY_FREECELLS`, `FAMILY_RANGE`
/// `A..B`, `FAMILY_MODE` fast|short|complete): the figures in docs/benchmarks.md.
#[test]
#[ignore]
fn family_range_figures() {
    let var = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let game = Game::find(&var("FAMILY_GAME", "freecell")).unwrap();
    let cells: u8 = var("FAMILY_FREECELLS", &game.rules.freecells.to_string())
        .parse()
        .unwrap();
    let rules = game.rules.with_freecells(cells);
    let range = var("FAMILY_RANGE", "1..100");
    let (a, b) = range.split_once("..").unwrap();
    let (a, b): (u64, u64) = (a.parse().unwrap(), b.parse().unwrap());
    let mode = match var("FAMILY_MODE", "fast").as_str() {
        "short" => FamilyMode::Short,
        "complete" => FamilyMode::Complete,
        _ => FamilyMode::Fast,
    };
    let (mut solved, mut unsolvable, mut unknown, mut most) = (0, 0, Vec::new(), (0, 0));
    let t0 = std::time::Instant::now();
    for n in a..=b {
        let layout = Layout::from_board(&ms_deal(n).unwrap(), cells as usize);
        let (out, st) = solve_family(&layout, &rules, mode, None).unwrap();
        let work = st.best_first + st.complete;
        if work > most.1 {
            most = (n, work);
        }
        match out {
            FamilyOutcome::Solved(_) => solved += 1,
            FamilyOutcome::Unsolvable => {
                unsolvable += 1;
                if std::env::var("FAMILY_LIST").is_ok() {
                    println!(
                        "impossible {n} ({} positions)",
                        st.best_first.max(st.complete)
                    );
                }
            }
            FamilyOutcome::Unknown(_) => unknown.push(n),
        }
    }
    println!(
        "{} freecells={cells} {range} {mode:?}: solved {solved}, unsolvable {unsolvable}, unknown {unknown:?}; {:.1} s; most positions: deal {} ({})",
        game.name,
        t0.elapsed().as_secs_f64(),
        most.0,
        most.1
    );
}
