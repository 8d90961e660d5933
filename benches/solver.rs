//! Criterion benchmarks of the solver's hot paths: move generation, canonical fingerprints,
//! the evaluation, the optimal modes' deadlock bound, solving a fixed set of 100 deals in
//! `fast` mode, and proving the optimum of deal 3.
//!
//! Run: `cargo bench --bench solver`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use fcauto_deals::ms_deal;
use fcauto_solver::deadlock::lower_bound;
use fcauto_solver::heuristic::features;
use fcauto_solver::movegen::generate;
use fcauto_solver::state::State;
use fcauto_solver::{solve, Limits, Mode, Verdict};

/// Positions along real play: the first 30 positions of each of deals 1..=20, reached by
/// always taking the first generated move.
fn positions() -> Vec<State> {
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for d in 1..=20 {
        let mut s = State::from_board(&ms_deal(d).unwrap());
        for _ in 0..30 {
            out.push(s.clone());
            moves.clear();
            generate(&s, false, &mut moves);
            let Some(&m) = moves.last() else { break };
            s.apply(m);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let ps = positions();
    c.bench_function("movegen (600 positions)", |b| {
        let mut moves = Vec::with_capacity(64);
        b.iter(|| {
            let mut n = 0;
            for s in &ps {
                moves.clear();
                generate(black_box(s), false, &mut moves);
                n += moves.len();
            }
            n
        })
    });
    c.bench_function("fingerprint (600 positions)", |b| {
        b.iter(|| ps.iter().fold(0u128, |a, s| a ^ black_box(s).fingerprint()))
    });
    c.bench_function("features (600 positions)", |b| {
        b.iter(|| {
            ps.iter()
                .map(|s| features(black_box(s)).blocked)
                .sum::<u32>()
        })
    });
    c.bench_function("deadlock bound (600 positions)", |b| {
        b.iter(|| {
            ps.iter()
                .map(|s| lower_bound(black_box(s), false))
                .sum::<u32>()
        })
    });
    let boards: Vec<_> = (1..=100).map(|d| ms_deal(d).unwrap()).collect();
    let mut g = c.benchmark_group("solve");
    g.sample_size(10);
    g.bench_function("fast, deals 1..=100", |b| {
        b.iter(|| {
            for board in &boards {
                let r = solve(
                    board,
                    Mode::Fast,
                    Limits {
                        max_states: Mode::Fast.default_max_states(),
                    },
                );
                assert!(matches!(r.verdict, Verdict::Solved(_)));
            }
        })
    });
    let deal3 = ms_deal(3).unwrap();
    g.bench_function("optimal, deal 3", |b| {
        b.iter(|| {
            let r = solve(
                &deal3,
                Mode::Optimal,
                Limits {
                    max_states: 1_000_000,
                },
            );
            assert!(matches!(r.verdict, Verdict::Solved(_)));
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
