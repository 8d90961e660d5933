//! Criterion benchmarks of the solver's hot paths: move generation (all moves and the
//! reduced set), canonical fingerprints, the evaluation, the optimal modes' deadlock bound,
//! solving a fixed set of 100 deals in `fast` mode, and proving the optimum of deal 3.
//!
//! The best-first search's per-position costs are benched one by one over the children of
//! the same 600 positions (their reduced move set, as `fast` searches): making each child
//! (clone, apply, auto-play), its incremental fingerprint, its incremental evaluation, and
//! the closed set (inserting every child's fingerprint into a cleared table; clearing a
//! table after a small search), and the same for `fast`'s packed positions (copy and
//! play, with safe or greedy auto-play, and with unparking and the test that rules it out,
//! incremental fingerprint, the evaluation from the parent's stored one). A whole
//! expansion is not benched: the open list and the stored node are private to the search.
//!
//! Run: `cargo bench --bench solver`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use fcauto_deals::ms_deal;
use fcauto_solver::deadlock::lower_bound;
use fcauto_solver::heuristic::{column_features, eval_features, eval_features_from, features};
use fcauto_solver::movegen::{
    generate, generate_pruned, may_unpark, parents_wanted, play, AutoPlay,
};
use fcauto_solver::packed::{Eval, Origin, Packed, View};
use fcauto_solver::search::table::{FingerprintTable, Key};
use fcauto_solver::state::State;
use fcauto_solver::{solve, Limits, Mode, Move, Verdict};
use std::time::{Duration, Instant};

/// Positions along real play: the first 30 positions of each of deals 1..=20, reached by
/// always taking the last generated move.
fn positions() -> Vec<State> {
    (1..=20).flat_map(walk).collect()
}

/// The first 30 positions of deal `d` along that walk.
fn walk(d: u64) -> Vec<State> {
    let mut out = Vec::new();
    let mut moves = Vec::new();
    let mut s = State::from_board(&ms_deal(d).unwrap());
    for _ in 0..30 {
        out.push(s.clone());
        moves.clear();
        generate(&s, false, &mut moves);
        let Some(&m) = moves.last() else { break };
        s.apply(m);
    }
    out
}

/// A position and its children as the best-first search makes them from its reduced move
/// set: each child with the bit set of the cascades its move or auto-play touched.
struct Family {
    parent: State,
    moves: Vec<Move>,
    children: Vec<(State, u8)>,
}

/// `s` after `m` and the auto-play that follows it, and the cascades they touched (the
/// search's `changed`).
fn child(s: &State, m: Move) -> (State, u8) {
    let mut c = s.clone();
    let (changed, _) = play(&mut c, m);
    (c, changed)
}

/// The families of `ps`, checked: each child's incremental fingerprint and evaluation equal
/// the ones computed from scratch.
fn families(ps: &[State]) -> Vec<Family> {
    ps.iter()
        .map(|p| {
            let mut moves = Vec::new();
            generate_pruned(p, &mut moves);
            let children: Vec<_> = moves.iter().map(|&m| child(p, m)).collect();
            let (hashes, cf) = (p.column_hashes(), column_features(p));
            for (c, changed) in &children {
                assert_eq!(c.fingerprint_from(&hashes, *changed), c.fingerprint());
                let (f, _) = eval_features_from(c, &cf, *changed);
                let g = eval_features(c);
                assert_eq!(
                    (f.remaining, f.blocked, f.next_depth, f.used_cells),
                    (g.remaining, g.blocked, g.next_depth, g.used_cells)
                );
                assert_eq!(
                    (f.empty_cols, f.out_of_sequence),
                    (g.empty_cols, g.out_of_sequence)
                );
            }
            Family {
                parent: p.clone(),
                moves,
                children,
            }
        })
        .collect()
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
    c.bench_function("generate_pruned (600 positions)", |b| {
        let mut moves = Vec::with_capacity(64);
        b.iter(|| {
            let mut n = 0;
            for s in &ps {
                moves.clear();
                generate_pruned(black_box(s), &mut moves);
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
    per_position(c, &ps);
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

/// The best-first search's costs per child, over the children of `ps` from their reduced
/// move sets.
fn per_position(c: &mut Criterion, ps: &[State]) {
    let fams = families(ps);
    let n: usize = fams.iter().map(|f| f.children.len()).sum();
    c.bench_function(
        &format!("children: clone + play (apply, auto-play, changed cascades) ({n} children)"),
        |b| {
            b.iter(|| {
                let mut home = 0;
                for f in &fams {
                    let p = black_box(&f.parent);
                    for &m in &f.moves {
                        let mut s = p.clone();
                        let (changed, homed) = play(&mut s, m);
                        home += s.home() + changed as usize + homed as usize;
                    }
                }
                home
            })
        },
    );
    c.bench_function(
        &format!("fingerprint_from: column_hashes per parent ({n} children)"),
        |b| {
            b.iter(|| {
                let mut x = 0u128;
                for f in &fams {
                    let h = black_box(&f.parent).column_hashes();
                    for (s, changed) in &f.children {
                        x ^= black_box(s).fingerprint_from(&h, *changed);
                    }
                }
                x
            })
        },
    );
    c.bench_function(
        &format!("eval_features_from: column_features per parent ({n} children)"),
        |b| {
            b.iter(|| {
                let mut sum = 0u32;
                for f in &fams {
                    let cf = column_features(black_box(&f.parent));
                    for (s, changed) in &f.children {
                        let (e, _) = eval_features_from(black_box(s), &cf, *changed);
                        sum += e.blocked + e.out_of_sequence + e.next_depth;
                    }
                }
                sum
            })
        },
    );
    let fps: Vec<u128> = fams
        .iter()
        .flat_map(|f| f.children.iter().map(|(s, _)| s.fingerprint()))
        .collect();
    let mut table = FingerprintTable::<u128>::default();
    let new = fps.iter().filter(|&&fp| table.insert(fp)).count();
    c.bench_function(
        &format!("table: clear + insert ({n} children, {new} new)"),
        |b| {
            let mut t = FingerprintTable::<u128>::default();
            b.iter(|| clear_and_insert(&mut t, &fps, new))
        },
    );
    // The reduced move set's tries keep the low 64 bits: a table half the size.
    c.bench_function(
        &format!("table, 64-bit keys: clear + insert ({n} children, {new} new)"),
        |b| {
            let mut t = FingerprintTable::<u64>::default();
            b.iter(|| clear_and_insert(&mut t, &fps, new))
        },
    );
    c.bench_function(&format!("table: clear after {new} inserts"), |b| {
        // Tables refilled outside the timing, cleared a batch at a time; their memory is
        // reused, as a thread's table's is between searches.
        let mut tables: Vec<FingerprintTable<u128>> = (0..16).map(|_| Default::default()).collect();
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut left = iters;
            while left > 0 {
                let k = left.min(tables.len() as u64) as usize;
                for t in &mut tables[..k] {
                    for &fp in &fps {
                        t.insert(fp);
                    }
                    assert_eq!(t.len(), new);
                }
                let start = Instant::now();
                for t in &mut tables[..k] {
                    black_box(&mut *t).clear();
                }
                total += start.elapsed();
                assert!(tables[..k].iter().all(|t| t.is_empty()));
                left -= k as u64;
            }
            total
        })
    });
}

/// Empty `t` and insert `fps`, of which `new` are distinct: the closed set's work for one
/// search's children.
fn clear_and_insert<K: Key>(t: &mut FingerprintTable<K>, fps: &[u128], new: usize) -> usize {
    t.clear();
    let mut k = 0;
    for &fp in fps {
        k += t.insert(black_box(fp)) as usize;
    }
    assert_eq!(k, new);
    t.len()
}

/// A packed position of [`walk`], its reduced moves and the children they make (with the
/// cascades each changed).
struct PackedFamily {
    origin: usize,
    parent: Packed,
    eval: Eval,
    moves: Vec<Move>,
    children: Vec<(Packed, u8)>,
}

/// Every child's fingerprint from its parent's hashes, with the high lane if `WHOLE`.
fn fingerprints_from<const WHOLE: bool>(fams: &[PackedFamily]) -> u128 {
    let mut x = 0u128;
    for f in fams {
        let h = black_box(&f.parent).hashes(WHOLE);
        for (s, changed) in &f.children {
            x ^= black_box(s).fingerprint_from(&h, *changed, WHOLE);
        }
    }
    x
}

/// The same per-child costs for `fast`'s packed positions (the positions of [`walk`], their
/// reduced move sets): copying a 48-byte position and playing the move on it, its
/// incremental fingerprint, and its evaluation from the parent's stored one.
fn packed_per_position(c: &mut Criterion) {
    let mut origins = Vec::new();
    let mut fams = Vec::new();
    for d in 1..=20 {
        let o = Origin::new(&State::from_board(&ms_deal(d).unwrap()));
        for s in walk(d) {
            let parent = Packed::new(&s, &o);
            let mut moves = Vec::new();
            generate_pruned(&s, &mut moves);
            let children = moves
                .iter()
                .map(|&m| {
                    let mut c = parent;
                    let (changed, _) = c.play(m, &o);
                    (c, changed)
                })
                .collect();
            let eval = Eval::new(View {
                pos: &parent,
                origin: &o,
            });
            fams.push(PackedFamily {
                origin: origins.len(),
                parent,
                eval,
                moves,
                children,
            });
        }
        origins.push(o);
    }
    let n: usize = fams.iter().map(|f| f.children.len()).sum();
    for (name, rule, unpark) in [
        ("", AutoPlay::Safe, false),
        (", greedy auto-play", AutoPlay::Greedy, false),
        (", greedy auto-play, unparking", AutoPlay::Greedy, true),
    ] {
        c.bench_function(
            &format!("packed children: copy + play{name} ({n} children)"),
            |b| {
                b.iter(|| {
                    let mut home = 0;
                    for f in &fams {
                        let (p, origin) = (*black_box(&f.parent), &origins[f.origin]);
                        // As the search: the parent's freecell parents once, then per child
                        // the cheap test, and unparking only where it allows.
                        let wanted = if unpark {
                            parents_wanted(&View { pos: &p, origin })
                        } else {
                            0
                        };
                        for &m in &f.moves {
                            let mut s = p;
                            let (mut changed, mut homed) = s.play_by(m, origin, rule);
                            if unpark && may_unpark(&View { pos: &s, origin }, wanted, changed, m) {
                                let (more, moved) = s.unpark(origin, rule);
                                (changed, homed) = (changed | more, homed + moved);
                            }
                            home += s.home() + changed as u32 + homed;
                        }
                    }
                    home
                })
            },
        );
    }
    // `whole` a constant in each, as the search's key width makes it.
    c.bench_function(
        &format!("packed fingerprint_from, both lanes: hashes per parent ({n} children)"),
        |b| b.iter(|| fingerprints_from::<true>(&fams)),
    );
    c.bench_function(
        &format!("packed fingerprint_from, low lane: hashes per parent ({n} children)"),
        |b| b.iter(|| fingerprints_from::<false>(&fams)),
    );
    c.bench_function(
        &format!("packed Eval::child from the parent's ({n} children)"),
        |b| {
            b.iter(|| {
                let mut sum = 0u32;
                for f in &fams {
                    let origin = &origins[f.origin];
                    for (s, changed) in &f.children {
                        let v = View {
                            pos: black_box(s),
                            origin,
                        };
                        let e = f.eval.child(&f.parent, v, *changed).features();
                        sum += e.blocked + e.out_of_sequence + e.next_depth;
                    }
                }
                sum
            })
        },
    );
}

criterion_group!(benches, bench, packed_per_position);
criterion_main!(benches);
