//! The parallel solve of a range of deals: every deal solved and validated on worker
//! threads, its row ([`Row`]) handed on in deal order, and the rows tallied ([`Tally`]).
//! Memory does not grow with the range: a row lives until it is handed on, and the tally
//! keeps counts per distinct value ([`Counted`]). Standard FreeCell is solved by the fast
//! solver; the other games of the family ([`Variant`]) by the family search, each solution
//! validated by the family's validator and each "unsolvable" a complete search's proof.

use super::distribution::{ms_key, Counted};
use super::rusage;
use super::variant::Variant;
use anyhow::{Context, Result};
use fcauto_solver::family::{single_card_count, solve_family, FamilyOutcome};
use fcauto_solver::{solve_checked, Mode, Outcome};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// One deal's result.
#[derive(Serialize, Clone, Debug)]
pub struct Row {
    /// Deal number.
    pub deal: u64,
    /// `solved`, `unsolvable` or `unknown`.
    pub verdict: &'static str,
    /// Moves (supermove = 1); null unless solved.
    pub moves_total: Option<usize>,
    /// Single-card moves (a run counted as the single-card moves that realise it); null
    /// unless solved, and for the unlimited-sequence games (whose runs have no single-card
    /// realisation).
    pub single_card_moves: Option<usize>,
    /// For `unknown`: the limit that stopped the search (as `solve` words it); null otherwise.
    pub limit: Option<String>,
    /// Positions expanded.
    pub expanded: u64,
    /// Wall-clock time the worker thread spent on this deal, milliseconds.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub ms: f64,
    /// CPU time (user + system) of the worker thread on this deal, milliseconds: the CPU
    /// time of the block of deals (32 of standard FreeCell) it was solved in, shared out in proportion to wall
    /// time (the thread's CPU clock is read once per block).
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub cpu_ms: f64,
}

/// Solve and validate one deal of `job` on the calling thread; its row, timed by the wall
/// clock (`cpu_ms` is left 0: [`solve_block`] shares its block's CPU time out).
fn solve_one(n: u64, job: &Job) -> Result<Row> {
    if job.variant.is_standard() {
        solve_standard(n, &job.variant, job.mode, job.max_states)
    } else {
        solve_in_family(n, job)
    }
}

/// [`solve_one`] for standard FreeCell: the fast solver, [`solve_checked`], on deal `n` of
/// `variant` (Microsoft's, or from 32000 on with PySolFC's numbers the Mersenne Twister's).
fn solve_standard(n: u64, variant: &Variant, mode: Mode, max_states: Option<usize>) -> Result<Row> {
    let t = Instant::now();
    let board = variant.standard_board(n)?;
    let deal = variant.is_microsoft_deal(n).then_some(n);
    let (out, stats) =
        solve_checked(deal, &board, mode, max_states).with_context(|| format!("deal {n}"))?;
    let cpu_ms = 0.0;
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    let row = |verdict, lengths: Option<(usize, usize)>, limit| Row {
        deal: n,
        verdict,
        moves_total: lengths.map(|l| l.0),
        single_card_moves: lengths.map(|l| l.1),
        limit,
        expanded: stats.expanded,
        ms,
        cpu_ms,
    };
    Ok(match out {
        Outcome::Solved(c) => row("solved", Some((c.moves_total, c.single_card_moves)), None),
        Outcome::Unsolvable => row("unsolvable", None, None),
        Outcome::Unknown(why) => row("unknown", None, Some(why.to_string())),
    })
}

/// [`solve_one`] for the other games of the family: [`solve_family`] (its solutions
/// validated by the family's validator; "unsolvable" only after a complete search).
fn solve_in_family(n: u64, job: &Job) -> Result<Row> {
    let t = Instant::now();
    let v = &job.variant;
    let mode = v.family_mode(job.mode).map_err(anyhow::Error::msg)?;
    let layout = v.layout(n).with_context(|| format!("deal {n}"))?;
    let (out, stats) = solve_family(&layout, &v.rules, mode, job.max_states)
        .with_context(|| format!("deal {n}"))?;
    let mut row = Row {
        deal: n,
        verdict: "unknown",
        moves_total: None,
        single_card_moves: None,
        limit: None,
        expanded: (stats.best_first + stats.complete) as u64,
        ms: 0.0,
        cpu_ms: 0.0,
    };
    match out {
        FamilyOutcome::Solved(s) => {
            row.verdict = "solved";
            row.moves_total = Some(s.moves.len());
            row.single_card_moves = single_card_count(&layout, &v.rules, &s.moves);
        }
        FamilyOutcome::Unsolvable => row.verdict = "unsolvable",
        FamilyOutcome::Unknown(why) => row.limit = Some(why.to_string()),
    }
    row.ms = t.elapsed().as_secs_f64() * 1000.0;
    Ok(row)
}

/// Solve and validate the deals `deals` on the calling thread ([`solve_one`]), reading the
/// thread's CPU clock only before and after the block: a reading is a system call (on this
/// project's virtual machines about 2 us, 1.4% of `fast`'s time when read once per deal).
/// Each row's `cpu_ms` is its share of the block's CPU time in proportion to its wall time.
fn solve_block(deals: std::ops::RangeInclusive<u64>, job: &Job) -> Result<Vec<Row>> {
    let cpu0 = rusage::thread_cpu_ms();
    let mut rows = deals
        .map(|n| solve_one(n, job))
        .collect::<Result<Vec<Row>>>()?;
    share_cpu(&mut rows, rusage::thread_cpu_ms() - cpu0);
    Ok(rows)
}

/// Set each row's `cpu_ms` to its share of `cpu_ms` (milliseconds) in proportion to its
/// wall time `ms` (equal shares if no wall time was measured), so that they sum to it.
fn share_cpu(rows: &mut [Row], cpu_ms: f64) {
    let wall: f64 = rows.iter().map(|r| r.ms).sum();
    let n = rows.len() as f64;
    for r in rows.iter_mut() {
        r.cpu_ms = if wall > 0.0 {
            cpu_ms * r.ms / wall
        } else {
            cpu_ms / n
        };
    }
}

/// Deals a worker takes from the counter at a time: 32 of standard FreeCell (a few
/// milliseconds each), 2 of the family's (whose complete searches can take seconds, so that
/// a short range still spreads over every thread).
fn block(job: &Job) -> u64 {
    if job.variant.is_standard() {
        32
    } else {
        2
    }
}

/// How long a worker keeps the rows of the blocks it solved before it sends them at once: one
/// wake-up of the writing thread per batch rather than per block (a wake-up is a system call
/// and, on a virtual machine, an interrupt to another core: per block of 32 deals they cost
/// about 2% of the CPU time of `fast`, per deal more). A block that fails is sent at once.
const SEND_EVERY: Duration = Duration::from_millis(50);

/// Batches of rows the workers may be ahead of the writer before they wait.
const CHANNEL_BATCHES: usize = 64;

/// The rows of one block of deals (from its first deal on), or the error that stopped it.
type Block = (u64, Result<Vec<Row>>);

/// What a range solve is: deals `from..=to` of `variant`, on `threads` workers, each deal
/// searched in `mode` within `max_states` positions (the mode's budget when `None`).
#[derive(Clone, Copy, Debug)]
pub struct Job {
    /// First deal.
    pub from: u64,
    /// Last deal (inclusive).
    pub to: u64,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Search mode.
    pub mode: Mode,
    /// Most positions one search stores before "unknown".
    pub max_states: Option<usize>,
    /// The game, its rules and numbering (standard FreeCell: [`Variant::standard`]).
    pub variant: Variant,
}

/// Who is told how a range solve advances (a progress bar; nothing).
pub trait Progress {
    /// The solve of `deals` deals begins.
    fn start(&mut self, deals: u64) {
        let _ = deals;
    }
    /// `deals` more deals were solved.
    fn advance(&mut self, deals: u64) {
        let _ = deals;
    }
    /// The solve ended, done or failed.
    fn finish(&mut self) {}
}

/// A [`Progress`] that tells no one.
impl Progress for () {}

/// Solve the deals of `job`. Each worker takes the next block of deals (`block`) from a shared
/// counter (so deals finish nearly in order and a slow deal holds up no other worker) and
/// sends their rows here every 50 ms; the calling thread tallies the rows and hands
/// them to `sink` in deal order. Stops at the first error (a solution the validator
/// rejected, or one of `sink`).
///
/// # Errors
/// The first block's error, or `sink`'s.
pub fn solve_range(
    job: &Job,
    progress: &mut dyn Progress,
    sink: &mut dyn FnMut(&Row) -> Result<()>,
) -> Result<Tally> {
    let next = AtomicU64::new(job.from);
    let stop = AtomicBool::new(false);
    progress.start(job.to - job.from + 1);
    let (tx, rx) = mpsc::sync_channel::<Vec<Block>>(CHANNEL_BATCHES);
    let mut tally = Tally::default();
    let res = std::thread::scope(|s| -> Result<()> {
        for _ in 0..job.threads {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            s.spawn(move || worker(job, next, stop, tx));
        }
        drop(tx);
        collect(job.from, rx, &stop, &mut tally, progress, sink)
    });
    progress.finish();
    res?;
    Ok(tally)
}

/// One worker of [`solve_range`]: blocks of deals from `next` until the range or `stop`
/// ends them, their rows sent on `tx` in batches (a failed block at once).
fn worker(job: &Job, next: &AtomicU64, stop: &AtomicBool, tx: mpsc::SyncSender<Vec<Block>>) {
    let mut batch: Vec<Block> = Vec::new();
    let mut sent = Instant::now();
    while !stop.load(Ordering::Relaxed) {
        let first = next.fetch_add(block(job), Ordering::Relaxed);
        if first > job.to {
            break;
        }
        let last = (first + block(job) - 1).min(job.to);
        let rows = solve_block(first..=last, job);
        let failed = rows.is_err();
        batch.push((first, rows));
        if failed || sent.elapsed() >= SEND_EVERY {
            if tx.send(std::mem::take(&mut batch)).is_err() {
                return;
            }
            sent = Instant::now();
        }
    }
    if !batch.is_empty() {
        let _ = tx.send(batch);
    }
}

/// The calling thread's part of [`solve_range`]: the blocks from `rx` put back in deal
/// order from `from` on, tallied and handed to `sink`; the first error sets `stop` and is
/// returned once every worker has ended.
fn collect(
    from: u64,
    rx: mpsc::Receiver<Vec<Block>>,
    stop: &AtomicBool,
    tally: &mut Tally,
    progress: &mut dyn Progress,
    sink: &mut dyn FnMut(&Row) -> Result<()>,
) -> Result<()> {
    // Blocks that arrived before an earlier one: at most about the deals solved while
    // the slowest block under way is solved.
    let mut pending: BTreeMap<u64, Vec<Row>> = BTreeMap::new();
    let mut want = from;
    let mut failed = None;
    for (first, rows) in rx.into_iter().flatten() {
        let rows = match rows {
            Ok(rows) => rows,
            Err(e) => {
                stop.store(true, Ordering::Relaxed);
                failed.get_or_insert(e);
                continue;
            }
        };
        if failed.is_some() {
            continue;
        }
        progress.advance(rows.len() as u64);
        pending.insert(first, rows);
        while let Some(rows) = pending.remove(&want) {
            want += rows.len() as u64;
            for row in &rows {
                tally.add(row);
                if let Err(e) = sink(row) {
                    stop.store(true, Ordering::Relaxed);
                    failed.get_or_insert(e);
                    break;
                }
            }
        }
    }
    failed.map_or(Ok(()), Err)
}

/// What the summary needs of the rows: counts, and counts per distinct value.
#[derive(Default)]
pub struct Tally {
    /// Deals solved (and validated).
    pub solved: usize,
    /// Deals proved unsolvable, in deal order.
    pub unsolvable: Vec<u64>,
    /// Deals stopped by a limit, in deal order.
    pub unknown: Vec<u64>,
    /// Positions expanded, all deals.
    pub expanded: u64,
    /// Moves per solution (supermove = 1).
    pub moves_total: Counted,
    /// Single-card moves per solution.
    pub single_card_moves: Counted,
    /// Positions expanded per deal.
    pub positions: Counted,
    /// Keys: nanoseconds to 3 significant digits ([`ms_key`]).
    pub cpu_ms: Counted,
}

impl Tally {
    /// Count one row.
    pub fn add(&mut self, r: &Row) {
        match r.verdict {
            "solved" => self.solved += 1,
            "unsolvable" => self.unsolvable.push(r.deal),
            _ => self.unknown.push(r.deal),
        }
        if let Some(m) = r.moves_total {
            self.moves_total.add(m as u64, m as f64);
        }
        if let Some(m) = r.single_card_moves {
            self.single_card_moves.add(m as u64, m as f64);
        }
        self.expanded += r.expanded;
        self.positions.add(r.expanded, r.expanded as f64);
        self.cpu_ms.add(ms_key(r.cpu_ms), r.cpu_ms);
    }
}

/// What every timed run of ours must give again (the search is deterministic).
#[derive(PartialEq, Debug)]
pub struct Outcomes {
    /// Deals solved.
    pub solved: usize,
    /// Deals proved unsolvable.
    pub unsolvable: Vec<u64>,
    /// Deals stopped by a limit.
    pub unknown: Vec<u64>,
    /// Positions expanded, all deals.
    pub expanded: u64,
}

impl Tally {
    /// What another run over the same deals must give again.
    pub fn outcomes(&self) -> Outcomes {
        Outcomes {
            solved: self.solved,
            unsolvable: self.unsolvable.clone(),
            unknown: self.unknown.clone(),
            expanded: self.expanded,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(ms: f64) -> Row {
        Row {
            deal: 1,
            verdict: "solved",
            moves_total: None,
            single_card_moves: None,
            limit: None,
            expanded: 0,
            ms,
            cpu_ms: -1.0,
        }
    }

    /// A block's CPU time is shared out by wall time and sums to it; with no wall time
    /// measured, in equal shares.
    #[test]
    fn a_blocks_cpu_time_is_shared_by_wall_time() {
        let mut rows = vec![row(1.0), row(3.0), row(0.0)];
        share_cpu(&mut rows, 8.0);
        let got: Vec<f64> = rows.iter().map(|r| r.cpu_ms).collect();
        assert_eq!(got, [2.0, 6.0, 0.0]);
        let mut rows = vec![row(0.0), row(0.0)];
        share_cpu(&mut rows, 3.0);
        assert!(rows.iter().all(|r| r.cpu_ms == 1.5));
    }

    /// Every row of a solved block gets a CPU time, and they add up to no more than the
    /// thread's clock moved over the block.
    #[test]
    fn a_block_reads_the_cpu_clock_around_its_deals() {
        let before = rusage::thread_cpu_ms();
        let job = Job {
            from: 1,
            to: 3,
            threads: 1,
            mode: Mode::Fast,
            max_states: None,
            variant: Variant::standard(),
        };
        let rows = solve_block(1..=3, &job).unwrap();
        let spent = rusage::thread_cpu_ms() - before;
        assert_eq!(rows.iter().map(|r| r.deal).collect::<Vec<_>>(), [1, 2, 3]);
        assert!(rows.iter().all(|r| r.cpu_ms >= 0.0));
        let sum: f64 = rows.iter().map(|r| r.cpu_ms).sum();
        assert!(sum > 0.0 && sum <= spent + 1e-9, "{sum} of {spent}");
    }
}
