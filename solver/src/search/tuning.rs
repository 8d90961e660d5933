//! Re-tuning `fast`'s list of tries ([`super::portfolio::FAST_TRIES`]) on recorded runs, as
//! two ignored tests (test builds only: nothing here reaches the library).
//!
//! A try is deterministic, and one with a budget or a stall limit is a prefix of the same
//! configuration's longer run, so one run per configuration and deal, with no stall limit at
//! [`CAP`] positions, tells when every try of that configuration (any budget of [`BUDGETS`],
//! any stall limit of [`STALLS`]) would solve the deal or stop. A list of tries then costs,
//! per deal, the positions its tries expand until one solves it (plus [`TRY_COST`] per try
//! started), without searching again.
//!
//! 1. `FCAUTO_RECORD=DIR FCAUTO_DEALS=1..32000 cargo test --release -p fcauto-solver
//!    record_candidates -- --ignored --nocapture` writes `DIR/A-B.tsv`: per candidate
//!    ([`candidates`]) and deal, the expansions at its solution and the solution's moves,
//!    when its reduced move set ran dry, and when each stall limit and budget would have
//!    stopped it (0: never within the run).
//! 2. `FCAUTO_RECORD=DIR cargo test --release -p fcauto-solver anneal_tries -- --ignored
//!    --nocapture` reads every `DIR/*.tsv` and anneals a list of [`LIST_LEN`] tries from
//!    today's, minimising positions with the mean moves_total held at most
//!    `FCAUTO_MAX_MOVES` (default 94), and prints it.
//!
//! The tuning's figures are estimates (a budget stops a search when a new position would not
//! fit, which the record places at the first expansion that begins with the table full);
//! `fcauto bench` over deals no tuning saw is the measure.

use super::packed_first::packed_first;
use super::portfolio::{Params, Try, FAST_TRIES};
use super::Verdict;
use crate::movegen::AutoPlay;
use std::cell::RefCell;

/// Stall limits a try may have (0: none).
const STALLS: [u64; 9] = [30, 50, 100, 150, 300, 500, 1_000, 2_000, 0];
/// Budgets (positions stored) a try may have.
const BUDGETS: [usize; 8] = [3_000, 5_000, 10_000, 15_000, 20_000, 30_000, 40_000, 50_000];
/// The budget of the recorded runs: the largest of [`BUDGETS`].
const CAP: usize = 50_000;
/// What a try started costs beyond its positions (setting up, replay), in positions.
const TRY_COST: u64 = 3;
/// Tries in a list.
const LIST_LEN: usize = 12;
/// What a deal no try of a list solves costs beyond them, in positions (the rounds after the
/// list: about what they spend on such deals).
const UNSOLVED_COST: u64 = 20_000;
/// Moves counted for a deal no try of a list solves.
const UNSOLVED_MOVES: u64 = 95;

/// When a run would have stopped or did, in expansions (0: never within the run).
#[derive(Clone, Copy, Default)]
struct Record {
    solved: u32,
    moves: u32,
    dry: u32,
    end: u32,
    stall_at: [u32; STALLS.len()],
    budget_at: [u32; BUDGETS.len()],
}

/// The record being written by this thread's current search, with its stall tracking.
#[derive(Default)]
struct Recorder {
    rec: Record,
    most_home: u32,
    progress_at: u64,
}

thread_local! {
    static RECORDER: RefCell<Option<Recorder>> = const { RefCell::new(None) };
}

/// Called by [`packed_first`] in test builds as it takes each position off the open list:
/// `expanded` positions so far (this one included), `home` cards home in it, `stored`
/// positions in the table. Does nothing unless a record is being made on this thread.
pub(super) fn observe(expanded: u64, home: u32, stored: usize) {
    RECORDER.with_borrow_mut(|r| {
        let Some(r) = r else { return };
        if home > r.most_home {
            (r.most_home, r.progress_at) = (home, expanded);
        }
        for (at, &s) in r.rec.stall_at.iter_mut().zip(&STALLS) {
            if *at == 0 && s > 0 && expanded - r.progress_at > s {
                *at = expanded as u32;
            }
        }
        for (at, &b) in r.rec.budget_at.iter_mut().zip(&BUDGETS) {
            if *at == 0 && stored >= b {
                *at = expanded as u32;
            }
        }
    });
}

/// The configurations recorded: today's tries' (each with both auto-play rules), the
/// named configurations of `portfolio.rs` without noise, and more noise seeds.
fn candidates() -> Vec<Try> {
    let mut out: Vec<Try> = Vec::new();
    let mut add = |t: Try| {
        let same = |o: &Try| {
            o.autoplay == t.autoplay
                && o.params.weights == t.params.weights
                && o.params.g_weight == t.params.g_weight
                && o.params.noise == t.params.noise
                && o.params.seed == t.params.seed
        };
        if !out.iter().any(same) {
            out.push(Try {
                budget: CAP,
                stall: 0,
                ..t
            });
        }
    };
    let flip = |t: Try| Try {
        autoplay: match t.autoplay {
            AutoPlay::Safe => AutoPlay::Greedy,
            AutoPlay::Greedy => AutoPlay::Safe,
        },
        ..t
    };
    for t in FAST_TRIES {
        add(t);
        add(flip(t));
    }
    for (_, p) in super::portfolio::named() {
        for t in [
            super::portfolio::try_of(p),
            flip(super::portfolio::try_of(p)),
        ] {
            add(t);
        }
    }
    for (p, amplitude, seed) in super::portfolio::more_noise() {
        let t = super::portfolio::try_of(super::portfolio::noisy_of(p, amplitude, seed));
        add(t);
        add(flip(t));
    }
    out
}

/// `t` as `portfolio.rs` writes a try, at budget `budget` and stall limit `stall`.
fn label(t: &Try, budget: usize, stall: u64) -> String {
    let (name, _) = super::portfolio::named()
        .into_iter()
        .find(|(_, p)| p.weights == t.params.weights && p.g_weight == t.params.g_weight)
        .expect("a named configuration");
    let params = if t.params.noise == 0 {
        name.to_string()
    } else {
        // `noisy` multiplies the seed by an odd constant: undo it.
        let k = 0x9E37_79B9_7F4A_7C15u64;
        let mut inv = k;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(k.wrapping_mul(inv)));
        }
        let seed = t.params.seed.wrapping_mul(inv);
        format!("noisy({name}, {}, {seed})", t.params.noise)
    };
    let try_ = format!("t({params}, {}, {})", group(budget), group(stall as usize));
    match t.autoplay {
        AutoPlay::Greedy => format!("greedy({try_})"),
        AutoPlay::Safe => try_,
    }
}

/// `n` with an underscore between groups of three digits.
fn group(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(ch);
    }
    out
}

/// One recorded run of `t` (at [`CAP`], no stall limit) on `deal`.
fn record(t: &Try, deal: u64) -> Record {
    let board = fcauto_deals::ms_deal(deal).unwrap();
    RECORDER.with_borrow_mut(|r| *r = Some(Recorder::default()));
    let p: Params = t.params;
    let res = packed_first(&board, p, CAP, None, t.autoplay, t.unpark);
    let mut rec = RECORDER.with_borrow_mut(|r| r.take().unwrap().rec);
    rec.end = res.stats.expanded as u32;
    match res.verdict {
        Verdict::Solved(m) => {
            rec.solved = res.stats.expanded as u32;
            rec.moves = m.len() as u32;
        }
        Verdict::Unknown(super::StopReason::PrunedDry) => rec.dry = res.stats.expanded as u32,
        _ => {}
    }
    rec
}

fn env_range() -> (u64, u64) {
    let s = std::env::var("FCAUTO_DEALS").unwrap_or_else(|_| "1..32000".into());
    let (a, b) = s.split_once("..").expect("FCAUTO_DEALS=A..B");
    (a.parse().unwrap(), b.parse().unwrap())
}

#[test]
#[ignore = "a tool: records candidate tries (minutes to hours)"]
fn record_candidates() {
    use std::io::Write;
    let dir = std::env::var("FCAUTO_RECORD").expect("FCAUTO_RECORD=DIR");
    let (a, b) = env_range();
    let cands = candidates();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut lines = vec![String::new(); cands.len()];
    std::thread::scope(|s| {
        let chunks: Vec<_> = (0..threads)
            .map(|k| {
                let cands = &cands;
                s.spawn(move || {
                    let mut out = Vec::new();
                    for (c, t) in cands.iter().enumerate().skip(k).step_by(threads) {
                        let mut text = String::new();
                        for deal in a..=b {
                            let r = record(t, deal);
                            text += &format!(
                                "{c}\t{deal}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                                r.solved,
                                r.moves,
                                r.dry,
                                r.end,
                                join(&r.stall_at),
                                join(&r.budget_at)
                            );
                        }
                        eprintln!("candidate {c} recorded");
                        out.push((c, text));
                    }
                    out
                })
            })
            .collect();
        for h in chunks {
            for (c, text) in h.join().unwrap() {
                lines[c] = text;
            }
        }
    });
    let mut f = std::fs::File::create(format!("{dir}/{a}-{b}.tsv")).unwrap();
    for (c, t) in cands.iter().enumerate() {
        writeln!(f, "# {c}\t{:?}", t).unwrap();
    }
    for l in lines {
        f.write_all(l.as_bytes()).unwrap();
    }
}

fn join(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join("\t")
}

/// Every deal's record of every candidate: `recs[c][d]`.
fn load(dir: &str) -> (Vec<String>, Vec<Vec<Record>>) {
    let mut names = Vec::new();
    let mut recs: Vec<Vec<Record>> = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tsv"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let base = recs.first().map_or(0, Vec::len);
        for line in text.lines() {
            if let Some(name) = line.strip_prefix("# ") {
                if base == 0 {
                    names.push(name.to_string());
                    recs.push(Vec::new());
                }
                continue;
            }
            let f: Vec<u32> = line.split('\t').map(|x| x.parse().unwrap()).collect();
            let mut r = Record {
                solved: f[2],
                moves: f[3],
                dry: f[4],
                end: f[5],
                ..Record::default()
            };
            r.stall_at.copy_from_slice(&f[6..6 + STALLS.len()]);
            r.budget_at.copy_from_slice(&f[6 + STALLS.len()..]);
            recs[f[0] as usize].push(r);
        }
    }
    (names, recs)
}

/// A try of a list: candidate, budget index, stall index.
type Gene = (usize, usize, usize);

/// A list's positions and mean moves over the recorded deals.
#[allow(clippy::needless_range_loop)] // `d` indexes every candidate's records
fn cost(list: &[Gene], recs: &[Vec<Record>], safe: &[bool]) -> (u64, f64) {
    let deals = recs[0].len();
    let (mut positions, mut moves) = (0u64, 0u64);
    for d in 0..deals {
        let mut solved = false;
        for &(c, b, s) in list {
            let r = &recs[c][d];
            let never = |x: u32| if x == 0 { u32::MAX } else { x };
            let stop = never(r.budget_at[b]).min(never(r.stall_at[s]));
            positions += TRY_COST;
            if r.solved > 0 && r.solved < stop {
                positions += r.solved as u64;
                moves += r.moves as u64;
                solved = true;
                break;
            }
            if r.dry > 0 && r.dry < stop {
                positions += r.dry as u64;
                if safe[c] {
                    break;
                }
                continue;
            }
            positions += stop.min(r.end) as u64;
        }
        if !solved {
            positions += UNSOLVED_COST;
            moves += UNSOLVED_MOVES;
        }
    }
    (positions, moves as f64 / deals as f64)
}

/// A list's score: positions, plus a steep price for each hundredth of a move above `max`.
fn score(list: &[Gene], recs: &[Vec<Record>], safe: &[bool], max: f64) -> f64 {
    let (p, m) = cost(list, recs, safe);
    p as f64 + ((m - max).max(0.0) * 100.0).ceil() * 50_000.0
}

#[test]
#[ignore = "a tool: anneals a list of tries on recorded runs"]
fn anneal_tries() {
    let dir = std::env::var("FCAUTO_RECORD").expect("FCAUTO_RECORD=DIR");
    let max: f64 = std::env::var("FCAUTO_MAX_MOVES").map_or(94.0, |s| s.parse().unwrap());
    let steps: u64 = std::env::var("FCAUTO_STEPS").map_or(20_000, |s| s.parse().unwrap());
    let (names, recs) = load(&dir);
    let cands = candidates();
    assert_eq!(
        names.len(),
        cands.len(),
        "records of another candidate list"
    );
    for (c, t) in cands.iter().enumerate() {
        eprintln!("candidate {c}: {}", label(t, CAP, 0));
    }
    let safe: Vec<bool> = cands.iter().map(|t| t.autoplay == AutoPlay::Safe).collect();
    let same = |a: &Try, b: &Try| {
        a.autoplay == b.autoplay
            && a.params.weights == b.params.weights
            && a.params.g_weight == b.params.g_weight
            && a.params.noise == b.params.noise
            && a.params.seed == b.params.seed
    };
    let index = |xs: &[usize], x: usize| xs.iter().position(|&y| y == x).unwrap();
    let budgets: Vec<usize> = BUDGETS.to_vec();
    let stalls: Vec<usize> = STALLS.iter().map(|&s| s as usize).collect();
    let today: Vec<Gene> = FAST_TRIES
        .iter()
        .map(|t| {
            let c = cands.iter().position(|o| same(o, t)).unwrap();
            (
                c,
                index(&budgets, t.budget),
                index(&stalls, t.stall as usize),
            )
        })
        .collect();
    let (p0, m0) = cost(&today, &recs, &safe);
    eprintln!(
        "today's list: {p0} positions, mean moves {m0:.3}, over {} deals",
        recs[0].len()
    );
    let mut cur = today.clone();
    let mut cur_s = score(&cur, &recs, &safe, max);
    let (mut best, mut best_s) = (cur.clone(), cur_s);
    let seed: u64 = std::env::var("FCAUTO_SEED").map_or(1, |s| s.parse().unwrap());
    let longest: usize = std::env::var("FCAUTO_LEN_MAX").map_or(LIST_LEN, |s| s.parse().unwrap());
    let mut rng = 0x2545_F491_4F6C_DD1Du64 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    // Geometric cooling from 0.2% of today's score to a hundredth of that.
    let t0 = cur_s * 0.002;
    for step in 0..steps {
        let temp = t0 * 0.01f64.powf(step as f64 / steps as f64);
        let mut cand = cur.clone();
        let len = cand.len();
        let i = next(len);
        let near = |x: usize, n: usize, up: bool| {
            if up {
                (x + 1).min(n - 1)
            } else {
                x.saturating_sub(1)
            }
        };
        match next(8) {
            0 => cand[i].0 = next(cands.len()),
            1 => cand[i].1 = near(cand[i].1, BUDGETS.len(), next(2) == 0),
            2 => cand[i].2 = near(cand[i].2, STALLS.len(), next(2) == 0),
            3 => cand[i].2 = next(STALLS.len()),
            4 => cand.swap(i, next(len)),
            5 if len < longest => cand.insert(
                i,
                (next(cands.len()), next(BUDGETS.len()), next(STALLS.len())),
            ),
            6 if len > 6 => {
                cand.remove(i);
            }
            _ => {
                cand[i] = (next(cands.len()), next(BUDGETS.len()), next(STALLS.len()));
            }
        }
        let s = score(&cand, &recs, &safe, max);
        let accept = s <= cur_s || {
            let x = (next(1 << 20) as f64 + 0.5) / (1 << 20) as f64;
            temp > 0.0 && x < ((cur_s - s) / temp).exp()
        };
        if accept {
            (cur, cur_s) = (cand, s);
            if s < best_s {
                (best, best_s) = (cur.clone(), s);
                let (p, m) = cost(&best, &recs, &safe);
                eprintln!("step {step}: {p} positions, mean moves {m:.3}");
            }
        }
    }
    let (p, m) = cost(&best, &recs, &safe);
    println!("best: {p} positions ({p0} today), mean moves {m:.3} ({m0:.3} today)");
    for &(c, b, s) in &best {
        println!("    {},", label(&cands[c], BUDGETS[b], STALLS[s]));
    }
}
