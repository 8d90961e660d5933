//! Measuring Freecell Solver (Debian's `freecell-solver-bin`, or the native build of
//! `scripts/build-fc-solve.sh`: [`Programs`]) on a range of deals, for
//! `fcauto bench --vs-fc-solve`: its range solver for CPU time, verdicts and per-deal
//! iterations, and one `fc-solve` per board for solution lengths, each solution replayed by
//! our validator. The processes are run by [`fcauto_automation::fcsolve`].

use super::distribution::{ms_key, Counted, Distribution, Spread};
use super::rusage;
use anyhow::Result;
use fcauto_automation::fcsolve::{Programs, RANGE_SOLVER};
use fcauto_deals::{ms_deal, Board};
use fcauto_solver::{parse_fcs_output, validate, FcsVerdict, StepMove};
use rayon::prelude::*;
use serde::Serialize;

/// fc-solve's figures on the same deals.
#[derive(Serialize, Clone, Debug)]
pub struct FcSolveSummary {
    /// Which build was timed: "Debian's" (a range solver under `/usr/`, as Debian's
    /// `freecell-solver-bin` installs it) or "native build" (one elsewhere, such as the one
    /// `scripts/build-fc-solve.sh` installs).
    pub build: String,
    /// The range solver's path (where `PATH` found it, or in the folder given).
    pub range_solver: String,
    /// The programs run (for the later rounds of `--repeat`).
    #[serde(skip)]
    pub programs: Programs,
    /// Whether this build's `fc-solve` prints its solutions. A build without move tracking
    /// (the native `Tatzer -l extra_speed3` build) says only whether a deal is solvable:
    /// then no per-board runs are made, as with `--fc-solve-range-only`.
    pub prints_solutions: bool,
    /// Preset (`-l NAME`).
    pub preset: String,
    /// CPU time (user + system) of `freecell-solver-range-parallel-solve A B 1 -l PRESET`,
    /// one process, seconds.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub cpu_s: f64,
    /// CPU time (user + system) of the per-board runs: one `fc-solve -p -t -sam -l PRESET`
    /// process per deal, start-up and solution printing included, seconds. Not the ratio's
    /// basis (that is [`FcSolveSummary::cpu_s`]): it shows what fc-solve costs run the usual way,
    /// once per board file. Null when the per-board runs were skipped
    /// (`--fc-solve-range-only`).
    #[serde(serialize_with = "crate::bench::tidy::opt")]
    pub per_board_cpu_s: Option<f64>,
    /// Its peak RSS, MiB.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub peak_rss_mib: f64,
    /// Its `total_num_iters` (positions checked) over all the deals, from its last progress
    /// line; null if it printed none.
    pub iterations: Option<u64>,
    /// Iterations per deal: the differences of the cumulative `total_num_iters` it prints
    /// after each board; null if it printed none.
    pub iterations_per_deal: Option<Distribution>,
    /// Milliseconds of CPU per deal in the range solver: the differences of the timestamps
    /// it prints after each board (the wall clock of its one thread), scaled down so that
    /// they sum to its CPU time when the wall clock ran longer (time the machine gave to
    /// other work: on a busy machine, 1.5 to 1.9 times its CPU time); percentiles rounded to 3
    /// significant digits; null if it printed none.
    pub range_ms_per_deal: Option<Distribution>,
    /// Iterations per deal, counted per value (for `bench --plot`).
    #[serde(skip)]
    pub iterations_counted: Counted,
    /// Range-solver time per deal, counted per value ([`ms_key`]; for `bench --plot`).
    #[serde(skip)]
    pub range_ms_counted: Counted,
    /// Deals solved: by the per-board runs (a solution found), or with
    /// `--fc-solve-range-only` by the range solver.
    pub solved: usize,
    /// Deals it did not solve (the same runs).
    pub not_solved: Vec<u64>,
    /// Deals the range solver reported unsolved or intractable (its `Unsolved Board No.` and
    /// `Intractable Board No.` lines), ascending.
    pub range_not_solved: Vec<u64>,
    /// Deals whose fc-solve solution our validator rejected.
    pub invalid: Vec<u64>,
    /// Moves per solution (fc-solve's own count: sequence move = 1); null when none.
    pub moves_total: Option<Spread>,
    /// Single-card moves per solution (counted by our validator); null when none.
    pub single_card_moves: Option<Spread>,
}

/// One deal's fc-solve run: the deal, its validated lengths (`moves_total`,
/// `single_card_moves`) when fc-solve solved it, and whether our validator accepted the
/// solution (true when there was none).
type BoardRun = (u64, Option<(usize, usize)>, bool);

/// Run fc-solve over deals `a..=b`: first the range solver (its CPU time, verdicts and
/// per-deal iterations and times, read from its progress lines as it prints them), then,
/// given a `lengths` pool, one `fc-solve -p -t -sam` per board on it for solution lengths
/// (without one, lengths and the per-board CPU time are `None`). Memory does not grow with
/// the range, except for the deals not solved.
pub fn measure(
    programs: &Programs,
    a: u64,
    b: u64,
    preset: &str,
    lengths: Option<&rayon::ThreadPool>,
) -> Result<FcSolveSummary> {
    let before = rusage::children();
    let mut progress = RangeProgress::default();
    fcauto_automation::fcsolve::run_range_with(programs, a, b, preset, |l| progress.line(l))?;
    let after = rusage::children();

    let mut range_not_solved = std::mem::take(&mut progress.not_solved);
    range_not_solved.sort_unstable();
    range_not_solved.dedup();
    let prints_solutions = lengths.is_none() || prints_solutions(programs, preset)?;
    let boards = lengths
        .filter(|_| prints_solutions)
        .map(|pool| board_runs(programs, a, b, preset, pool))
        .transpose()?;
    let per_board_cpu_s = boards.as_ref().map(|r| r.0);
    let (solved, not_solved, invalid, moves_total, single_card_moves) = match boards {
        Some((_, l)) => {
            let (mut not_solved, mut invalid) = (l.not_solved, l.invalid);
            not_solved.sort_unstable();
            invalid.sort_unstable();
            let (m, s) = (Spread::of(&l.moves_total), Spread::of(&l.single_card_moves));
            (l.moves_total.len() as usize, not_solved, invalid, m, s)
        }
        // The range solver's verdicts only.
        None => {
            let solved = ((b - a + 1) as usize).saturating_sub(range_not_solved.len());
            (solved, range_not_solved.clone(), Vec::new(), None, None)
        }
    };
    let cpu_s = after.cpu_s - before.cpu_s;
    let range_ms = cpu_per_deal(&progress.ms, cpu_s);
    let (build, range_solver) = build_of(programs);
    Ok(FcSolveSummary {
        build,
        range_solver,
        programs: programs.clone(),
        prints_solutions,
        preset: preset.to_string(),
        cpu_s,
        per_board_cpu_s,
        peak_rss_mib: after.max_rss_mib,
        iterations: progress.last_iters,
        iterations_per_deal: progress.iterations.distribution(1.0),
        range_ms_per_deal: range_ms.distribution(1e-6),
        iterations_counted: progress.iterations,
        range_ms_counted: range_ms,
        solved,
        not_solved,
        range_not_solved,
        invalid,
        moves_total,
        single_card_moves,
    })
}

/// Whether the `fc-solve` of `programs` prints a solution (deal 1, which every preset
/// solves in a few iterations): a build without move tracking prints only its verdict.
fn prints_solutions(programs: &Programs, preset: &str) -> Result<bool> {
    let (verdict, moves) = solve_board(programs, &ms_deal(1)?, preset)?;
    Ok(verdict != FcsVerdict::Solved || !moves.is_empty())
}

/// One `fc-solve` process on `board` (`-p -t -sam -sel -l preset`): its verdict and moves.
fn solve_board(
    programs: &Programs,
    board: &Board,
    preset: &str,
) -> Result<(FcsVerdict, Vec<StepMove>)> {
    let flags = ["-p", "-t", "-sam", "-sel", "-l", preset];
    let raw = fcauto_automation::fcsolve::run_ok_with(programs, board, &flags)?;
    Ok(parse_fcs_output(&raw)?)
}

/// Which build `programs` is ("Debian's" or "native build") and its range solver's path.
fn build_of(programs: &Programs) -> (String, String) {
    let path = programs
        .locate(RANGE_SOLVER)
        .unwrap_or_else(|| programs.program(RANGE_SOLVER));
    let path = std::fs::canonicalize(&path).unwrap_or(path);
    let build = if path.starts_with("/usr/") {
        "Debian's"
    } else {
        "native build"
    };
    (build.to_string(), path.display().to_string())
}

/// The range solver's wall-clock milliseconds per deal `wall_ms` as CPU time: scaled by
/// its CPU time `cpu_s` (seconds) over their sum when that is lower (the wall clock also ran
/// while the machine did other work); unchanged otherwise (its CPU time also counts its
/// start-up, before the first board).
fn cpu_per_deal(wall_ms: &Counted, cpu_s: f64) -> Counted {
    let wall = wall_ms.sum();
    if wall > 0.0 && cpu_s * 1000.0 < wall {
        wall_ms.scaled(cpu_s * 1000.0 / wall)
    } else {
        wall_ms.clone()
    }
}

/// One `fc-solve -p -t -sam -l preset` per deal of `a..=b` on `pool`: their CPU time
/// (seconds, start-up included) and their validated lengths.
fn board_runs(
    programs: &Programs,
    a: u64,
    b: u64,
    preset: &str,
    pool: &rayon::ThreadPool,
) -> Result<(f64, Lengths)> {
    let before = rusage::children();
    let lengths = pool.install(|| {
        (a..=b)
            .into_par_iter()
            .map(|n| board_run(programs, n, preset))
            .try_fold(Lengths::default, |mut t, r| {
                t.add(r?);
                Ok::<_, anyhow::Error>(t)
            })
            .try_reduce(Lengths::default, |mut x, y| {
                x.merge(y);
                Ok(x)
            })
    })?;
    Ok((rusage::children().cpu_s - before.cpu_s, lengths))
}

/// What the range solver's progress lines say: `Started at T` once, then
/// `Reached Board No. N at T (total_num_iters=X)` after each board, with T in seconds and X
/// cumulative, preceded by `Unsolved Board No. N at T` (or `Intractable ...`: stopped by a
/// limit) for a board it did not solve.
#[derive(Default)]
struct RangeProgress {
    last_time: Option<f64>,
    last_iters: Option<u64>,
    iterations: Counted,
    ms: Counted,
    not_solved: Vec<u64>,
}

impl RangeProgress {
    fn line(&mut self, l: &str) {
        if let Some(t) = l.strip_prefix("Started at ") {
            self.last_time = t.trim().parse().ok();
            return;
        }
        for verdict in ["Unsolved Board No. ", "Intractable Board No. "] {
            if let Some(rest) = l.strip_prefix(verdict) {
                if let Some(n) = rest.split_whitespace().next().and_then(|n| n.parse().ok()) {
                    self.not_solved.push(n);
                }
                return;
            }
        }
        let Some(rest) = l.strip_prefix("Reached Board No. ") else {
            return;
        };
        let time = rest
            .split(" at ")
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .and_then(|t| t.parse::<f64>().ok());
        let iters = rest
            .split("total_num_iters=")
            .nth(1)
            .and_then(|s| s.trim_end_matches(')').trim().parse::<u64>().ok());
        if let Some(x) = iters {
            let d = x.saturating_sub(self.last_iters.unwrap_or(0));
            self.iterations.add(d, d as f64);
            self.last_iters = Some(x);
        }
        if let (Some(t), Some(t0)) = (time, self.last_time) {
            let ms = ((t - t0) * 1000.0).max(0.0);
            self.ms.add(ms_key(ms), ms);
        }
        if time.is_some() {
            self.last_time = time;
        }
    }
}

/// Solve one board with one `fc-solve` process and validate its solution.
fn board_run(programs: &Programs, n: u64, preset: &str) -> Result<BoardRun> {
    let board = ms_deal(n)?;
    let (verdict, moves) = solve_board(programs, &board, preset)?;
    if verdict != FcsVerdict::Solved {
        return Ok((n, None, true));
    }
    Ok(match validate(&board, &moves) {
        Ok(v) => (n, Some((v.moves_total, v.single_card_moves)), true),
        Err(_) => (n, None, false),
    })
}

/// The per-board runs, folded as they finish.
#[derive(Default)]
struct Lengths {
    not_solved: Vec<u64>,
    invalid: Vec<u64>,
    moves_total: Counted,
    single_card_moves: Counted,
}

impl Lengths {
    fn add(&mut self, (n, lengths, valid): BoardRun) {
        match (lengths, valid) {
            (Some((m, s)), _) => {
                self.moves_total.add(m as u64, m as f64);
                self.single_card_moves.add(s as u64, s as f64);
            }
            (None, true) => self.not_solved.push(n),
            (None, false) => self.invalid.push(n),
        }
    }

    fn merge(&mut self, o: Lengths) {
        self.not_solved.extend(o.not_solved);
        self.invalid.extend(o.invalid);
        self.moves_total.merge(&o.moves_total);
        self.single_card_moves.merge(&o.single_card_moves);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines as `freecell-solver-range-parallel-solve 11980 11983 1 -l lg` prints them: the
    /// per-deal iterations are the differences, and unsolved or intractable boards are listed.
    #[test]
    fn range_progress_reads_iterations_and_unsolved_boards() {
        let mut p = RangeProgress::default();
        for l in [
            "Started at 1796136107.321983",
            "Reached Board No. 11980 at 1796136107.322747 (total_num_iters=112)",
            "Reached Board No. 11981 at 1796136107.322950 (total_num_iters=172)",
            "Unsolved Board No. 11982 at 1796136108.719965",
            "Reached Board No. 11982 at 1796136108.719972 (total_num_iters=204995)",
            "Intractable Board No. 11983 at 1796136108.720239",
            "Reached Board No. 11983 at 1796136108.720239 (total_num_iters=205071)",
        ] {
            p.line(l);
        }
        assert_eq!(p.not_solved, vec![11982, 11983]);
        assert_eq!(p.last_iters, Some(205_071));
        let d = p.iterations.distribution(1.0).unwrap();
        assert_eq!((d.count, d.sum as u64), (4, 205_071));
    }

    /// Per-board wall-clock times that sum to more than the range solver's CPU time are
    /// scaled down to sum to it, each deal in proportion; a sum within its CPU time (which
    /// also counts its start-up) is left as read (on a busy machine the wall-clock times
    /// sum to 1.5 to 1.9 times its CPU time).
    #[test]
    fn per_deal_times_sum_to_the_cpu_time() {
        let mut wall = Counted::default();
        for ms in [2.0, 4.0, 4.0, 10.0] {
            wall.add(ms_key(ms), ms);
        }
        let busy = cpu_per_deal(&wall, 0.010);
        let d = busy.distribution(1e-6).unwrap();
        assert!((d.sum - 10.0).abs() < 1e-9, "{d:?}");
        assert_eq!((d.count, d.p50, d.max), (4, 2.0, 5.0));
        let quiet = cpu_per_deal(&wall, 0.025);
        assert_eq!(quiet.distribution(1e-6).unwrap().sum, 20.0);
    }
}
