//! Re-tuning `fast`'s list of tries ([`super::portfolio::FAST_TRIES`]) on recorded runs, as
//! three ignored tests (test builds only: nothing here reaches the library).
//!
//! A try is deterministic, and one with a budget or a stall limit is a prefix of the same
//! configuration's longer run, so one run per configuration and deal, with no stall limit at
//! [`CAP`] positions, tells when every try of that configuration (any budget of [`BUDGETS`],
//! any stall limit of [`STALLS`]) would solve the deal or stop. A list of tries then costs,
//! per deal, the positions its tries expand until one solves it (plus [`TRY_COST`] per try
//! started), without searching again.
//!
//! 1. `FCAUTO_RECORD=DIR FCAUTO_DEALS=1..32000 cargo test --release -p fcauto-solver --lib
//!    record_candidates -- --ignored --nocapture` writes `DIR/A-B.tsv`: per candidate
//!    ([`candidates`]) and deal, the expansions at its solution and the solution's moves,
//!    when its reduced move set ran dry, and when each stall limit and budget would have
//!    stopped it (0: never within the run). About 11 minutes for 32,000 deals on two threads.
//! 2. `FCAUTO_DEALS=1..1500 cargo test --release -p fcauto-solver --lib candidate_rates --
//!    --ignored --nocapture --test-threads 1 > RATES` measures each candidate's CPU time per
//!    position (they differ by up to two to one: 418 to 875 ns on 2026-12-04, the fewer
//!    children a position has, the cheaper).
//! 3. `FCAUTO_RECORD=DIR [FCAUTO_RATES=RATES] cargo test --release -p fcauto-solver --lib
//!    anneal_tries -- --ignored --nocapture` reads every `DIR/*.tsv` and anneals a list of up
//!    to `FCAUTO_LEN_MAX` (default [`LIST_LEN`]) tries from today's, minimising positions (or,
//!    with the rates, the time they estimate), with the mean moves_total held at most
//!    `FCAUTO_MAX_MOVES` (default 94), and prints it (`FCAUTO_STEPS`, `FCAUTO_SEED`).
//!
//! The tuning's figures are estimates (a budget stops a search when a new position would not
//! fit, which the record places at the first expansion that begins with the table full);
//! `fcauto bench` over deals no tuning saw, timed against the list before, is the measure.
//! On 2026-12-04 neither objective found a list that measured faster than today's (README,
//! "On 2026-12-04"): fewer positions came with dearer ones, and the time estimate promised
//! 19% and gave 0 to 4%.

use super::packed_first::{packed_first, OBSERVER};
use super::portfolio::{noisy, t, Params, Try, FAST_TRIES};
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
/// What a try started costs beyond its positions in time (nanoseconds; setting up and
/// replaying), for the time estimate.
const TRY_NS: f64 = 3_000.0;
/// The budget of `candidate_rates`' runs (positions stored): about the size of the searches
/// most tries make.
const RATE_BUDGET: usize = 5_000;
/// Tries in a list.
const LIST_LEN: usize = 12;
/// What a deal no try of a list solves costs beyond them, in positions (the rounds after the
/// list: about what they spend on such deals).
const UNSOLVED_COST: u64 = 20_000;
/// The time estimate's price of each of those positions (nanoseconds: about the dearest
/// candidates' rate, as the rounds after the list are safe, wide searches).
const UNSOLVED_NS: f64 = 600.0;
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

/// Set as [`OBSERVER`] while a run is recorded: [`packed_first`] calls it as it takes each
/// position off the open list:
/// `expanded` positions so far (this one included), `home` cards home in it, `stored`
/// positions in the table. Does nothing unless a record is being made on this thread.
fn observe(expanded: u64, home: u32, stored: usize) {
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
        if !out.iter().any(|o| same_configuration(o, &t)) {
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
        add(t(p, 0, 0));
        add(flip(t(p, 0, 0)));
    }
    for (p, amplitude, seed) in super::portfolio::more_noise() {
        let noisy = t(noisy(p, amplitude, seed), 0, 0);
        add(noisy);
        add(flip(noisy));
    }
    out
}

/// True when `a` and `b` are the same configuration with the same auto-play rule, whatever
/// their budgets and stall limits.
fn same_configuration(a: &Try, b: &Try) -> bool {
    a.autoplay == b.autoplay && a.params == b.params
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
    OBSERVER.set(Some(observe));
    let p: Params = t.params;
    let res = packed_first(&board, p, CAP, None, t.autoplay, t.unpark);
    OBSERVER.set(None);
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

/// Every deal's record of every candidate of `cands`: `recs[c][d]`, from every `DIR/*.tsv`
/// (matched by the candidates' written form, so that files recorded with another list of
/// candidates still serve the candidates they hold). Panics when a file lacks one of `cands`.
fn load(dir: &str, cands: &[Try]) -> Vec<Vec<Record>> {
    let names: Vec<String> = cands.iter().map(|t| format!("{t:?}")).collect();
    let mut recs: Vec<Vec<Record>> = vec![Vec::new(); cands.len()];
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tsv"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        // This file's candidate numbers, as numbers of `cands` (None: not a candidate now).
        let mut ours: Vec<Option<usize>> = Vec::new();
        for line in text.lines() {
            if let Some(header) = line.strip_prefix("# ") {
                let (_, name) = header.split_once('\t').expect("# N<tab>candidate");
                ours.push(names.iter().position(|n| n == name));
                continue;
            }
            let f: Vec<u32> = line.split('\t').map(|x| x.parse().unwrap()).collect();
            let Some(c) = ours[f[0] as usize] else {
                continue;
            };
            let mut r = Record {
                solved: f[2],
                moves: f[3],
                dry: f[4],
                end: f[5],
                ..Record::default()
            };
            r.stall_at.copy_from_slice(&f[6..6 + STALLS.len()]);
            r.budget_at.copy_from_slice(&f[6 + STALLS.len()..]);
            recs[c].push(r);
        }
        for (c, name) in names.iter().enumerate() {
            assert_eq!(recs[c].len(), recs[0].len(), "{path:?} lacks {name}");
        }
    }
    recs
}

/// A try of a list: candidate, budget index, stall index.
type Gene = (usize, usize, usize);

/// A list's positions and mean moves over the recorded deals, and its estimated time in
/// nanoseconds (each candidate's positions at its `rates`, a try started at [`TRY_NS`]).
#[allow(clippy::needless_range_loop)] // `d` indexes every candidate's records
fn cost(list: &[Gene], recs: &[Vec<Record>], safe: &[bool], rates: &[f64]) -> (u64, f64, f64) {
    let deals = recs[0].len();
    let (mut positions, mut moves) = (0u64, 0u64);
    let mut ns = 0.0;
    for d in 0..deals {
        let mut solved = false;
        for &(c, b, s) in list {
            let r = &recs[c][d];
            let never = |x: u32| if x == 0 { u32::MAX } else { x };
            let stop = never(r.budget_at[b]).min(never(r.stall_at[s]));
            positions += TRY_COST;
            ns += TRY_NS;
            let spent = if r.solved > 0 && r.solved < stop {
                moves += r.moves as u64;
                solved = true;
                r.solved
            } else if r.dry > 0 && r.dry < stop {
                r.dry
            } else {
                stop.min(r.end)
            };
            positions += spent as u64;
            ns += spent as f64 * rates[c];
            if solved || (r.dry > 0 && r.dry < stop && safe[c]) {
                break;
            }
        }
        if !solved {
            positions += UNSOLVED_COST;
            ns += UNSOLVED_COST as f64 * UNSOLVED_NS;
            moves += UNSOLVED_MOVES;
        }
    }
    (positions, moves as f64 / deals as f64, ns)
}

/// A list's score: its estimated time (nanoseconds; positions if no rates are given), plus
/// a steep price for each hundredth of a move above `max`.
fn score(list: &[Gene], recs: &[Vec<Record>], safe: &[bool], rates: &[f64], max: f64) -> f64 {
    let (_, m, ns) = cost(list, recs, safe, rates);
    ns * (1.0 + ((m - max).max(0.0) * 100.0).ceil() * 0.01)
}

/// CPU time per position of each candidate, read from the file `FCAUTO_RATES` names
/// (`candidate_rates`' output), else 1.
fn rates(cands: &[Try]) -> Vec<f64> {
    let mut rates = vec![1.0; cands.len()];
    if let Ok(path) = std::env::var("FCAUTO_RATES") {
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let f: Vec<&str> = line.split('\t').collect();
            let c = (0..cands.len()).find(|&c| label(&cands[c], CAP, 0) == f[3]);
            let ns = f[1].split(' ').next().unwrap();
            rates[c.expect("a rate of a candidate")] = ns.parse().unwrap();
        }
    }
    rates
}

/// Today's list of tries ([`FAST_TRIES`]) as genes over `cands`, [`BUDGETS`] and [`STALLS`].
fn today_genes(cands: &[Try]) -> Vec<Gene> {
    let index = |xs: &[usize], x: usize| xs.iter().position(|&y| y == x).unwrap();
    let budgets: Vec<usize> = BUDGETS.to_vec();
    let stalls: Vec<usize> = STALLS.iter().map(|&s| s as usize).collect();
    FAST_TRIES
        .iter()
        .map(|t| {
            let c = cands.iter().position(|o| same_configuration(o, t)).unwrap();
            (
                c,
                index(&budgets, t.budget),
                index(&stalls, t.stall as usize),
            )
        })
        .collect()
}

/// The annealing's random numbers (xorshift64).
struct Xorshift(u64);

impl Xorshift {
    /// The next number, reduced to `0..n`.
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// One random change to the list `cand` (over `n_cands` candidates, at most `longest`
/// tries, at least 6): another candidate, budget or stall limit for one try, two tries
/// swapped, a try added, removed or replaced.
fn mutate(cand: &mut Vec<Gene>, rng: &mut Xorshift, n_cands: usize, longest: usize) {
    let len = cand.len();
    let i = rng.below(len);
    let near = |x: usize, n: usize, up: bool| {
        if up {
            (x + 1).min(n - 1)
        } else {
            x.saturating_sub(1)
        }
    };
    let random_gene = |rng: &mut Xorshift| {
        (
            rng.below(n_cands),
            rng.below(BUDGETS.len()),
            rng.below(STALLS.len()),
        )
    };
    match rng.below(8) {
        0 => cand[i].0 = rng.below(n_cands),
        1 => cand[i].1 = near(cand[i].1, BUDGETS.len(), rng.below(2) == 0),
        2 => cand[i].2 = near(cand[i].2, STALLS.len(), rng.below(2) == 0),
        3 => cand[i].2 = rng.below(STALLS.len()),
        4 => cand.swap(i, rng.below(len)),
        5 if len < longest => cand.insert(i, random_gene(rng)),
        6 if len > 6 => {
            cand.remove(i);
        }
        _ => cand[i] = random_gene(rng),
    }
}

#[test]
#[ignore = "a tool: anneals a list of tries on recorded runs"]
fn anneal_tries() {
    let dir = std::env::var("FCAUTO_RECORD").expect("FCAUTO_RECORD=DIR");
    let max: f64 = std::env::var("FCAUTO_MAX_MOVES").map_or(94.0, |s| s.parse().unwrap());
    let steps: u64 = std::env::var("FCAUTO_STEPS").map_or(20_000, |s| s.parse().unwrap());
    let cands = candidates();
    let recs = load(&dir, &cands);
    for (c, t) in cands.iter().enumerate() {
        eprintln!("candidate {c}: {}", label(t, CAP, 0));
    }
    let safe: Vec<bool> = cands.iter().map(|t| t.autoplay == AutoPlay::Safe).collect();
    let rates = rates(&cands);
    let today = today_genes(&cands);
    let (p0, m0, t0_ns) = cost(&today, &recs, &safe, &rates);
    eprintln!(
        "today's list: {p0} positions, mean moves {m0:.3}, {:.3} s estimated, over {} deals",
        t0_ns / 1e9,
        recs[0].len()
    );
    let mut cur = today.clone();
    let mut cur_s = score(&cur, &recs, &safe, &rates, max);
    let (mut best, mut best_s) = (cur.clone(), cur_s);
    let seed: u64 = std::env::var("FCAUTO_SEED").map_or(1, |s| s.parse().unwrap());
    let longest: usize = std::env::var("FCAUTO_LEN_MAX").map_or(LIST_LEN, |s| s.parse().unwrap());
    let mut rng = Xorshift(0x2545_F491_4F6C_DD1Du64 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    // Geometric cooling from 0.2% of today's score to a hundredth of that.
    let t0 = cur_s * 0.002;
    for step in 0..steps {
        let temp = t0 * 0.01f64.powf(step as f64 / steps as f64);
        let mut cand = cur.clone();
        mutate(&mut cand, &mut rng, cands.len(), longest);
        let s = score(&cand, &recs, &safe, &rates, max);
        let accept = s <= cur_s || {
            let x = (rng.below(1 << 20) as f64 + 0.5) / (1 << 20) as f64;
            temp > 0.0 && x < ((cur_s - s) / temp).exp()
        };
        if accept {
            (cur, cur_s) = (cand, s);
            if s < best_s {
                (best, best_s) = (cur.clone(), s);
                let (p, m, ns) = cost(&best, &recs, &safe, &rates);
                eprintln!(
                    "step {step}: {p} positions, mean moves {m:.3}, {:.3} s estimated",
                    ns / 1e9
                );
            }
        }
    }
    let (p, m, ns) = cost(&best, &recs, &safe, &rates);
    println!(
        "best: {p} positions ({p0} today), mean moves {m:.3} ({m0:.3} today), {:.3} s \
         estimated ({:.3} today)",
        ns / 1e9,
        t0_ns / 1e9
    );
    for &(c, b, s) in &best {
        println!("    {},", label(&cands[c], BUDGETS[b], STALLS[s]));
    }
}

#[test]
#[ignore = "a tool: each candidate's CPU time per position expanded"]
fn candidate_rates() {
    let (a, b) = env_range();
    for (c, t) in candidates().iter().enumerate() {
        let start = std::time::Instant::now();
        let mut expanded = 0u64;
        let mut stored = 0u64;
        for deal in a..=b {
            let board = fcauto_deals::ms_deal(deal).unwrap();
            let r = packed_first(&board, t.params, RATE_BUDGET, None, t.autoplay, t.unpark);
            expanded += r.stats.expanded;
            stored += r.stats.stored as u64;
        }
        let ns = start.elapsed().as_nanos() as f64 / expanded as f64;
        println!(
            "{c}\t{ns:.1} ns/position\t{:.2} stored/expanded\t{}",
            stored as f64 / expanded as f64,
            label(t, CAP, 0)
        );
    }
}
