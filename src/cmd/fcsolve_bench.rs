//! Measuring Freecell Solver (Debian's `freecell-solver-bin`) on a range of deals, for
//! `fcauto bench --vs-fc-solve`.

use crate::cmd::bench::Spread;
use crate::cmd::crosscheck::run_fc_solve;
use crate::cmd::rusage;
use anyhow::{Context, Result};
use fcauto_deals::ms_deal;
use fcauto_solver::{parse_fcs_output, validate, FcsVerdict};
use rayon::prelude::*;
use serde::Serialize;
use std::process::Command;

/// fc-solve's figures on the same deals.
#[derive(Serialize, Clone, Debug)]
pub struct FcSolveSummary {
    /// Preset (`-l NAME`).
    pub preset: String,
    /// CPU time (user + system) of `freecell-solver-range-parallel-solve A B 1 -l PRESET`,
    /// one process, seconds.
    pub cpu_s: f64,
    /// CPU time (user + system) of the per-board runs: one `fc-solve -p -t -sam -l PRESET`
    /// process per deal, start-up and solution printing included, seconds. Not the ratio's
    /// basis (that is [`FcSolveSummary::cpu_s`]): it shows what fc-solve costs run the usual way,
    /// once per board file.
    pub per_board_cpu_s: f64,
    /// Its peak RSS, MiB.
    pub peak_rss_mib: f64,
    /// Its `total_num_iters` (positions checked) over all the deals, from its last progress
    /// line; null if it printed none.
    pub iterations: Option<u64>,
    /// Deals solved by the per-board runs (solution found).
    pub solved: usize,
    /// Deals it did not solve.
    pub not_solved: Vec<u64>,
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

/// Fail with a clear message when fc-solve's programs are not installed.
pub fn check_installed() -> Result<()> {
    for prog in ["fc-solve", "freecell-solver-range-parallel-solve"] {
        let ok = Command::new("sh")
            .arg("-c")
            .arg(format!("command -v {prog}"))
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        anyhow::ensure!(
            ok,
            "{prog} not found: install Debian's freecell-solver-bin (scripts/setup-deps.sh)"
        );
    }
    Ok(())
}

/// Run fc-solve over deals `a..=b`: first the range solver (its CPU time and verdicts), then
/// one `fc-solve -p -t -sam` per board on `pool` for solution lengths.
pub fn measure(a: u64, b: u64, preset: &str, pool: &rayon::ThreadPool) -> Result<FcSolveSummary> {
    let before = rusage::children();
    let out = Command::new("freecell-solver-range-parallel-solve")
        .args([
            a.to_string(),
            b.to_string(),
            // Print step 1: a `total_num_iters=` line after every board, so the last line
            // counts them all (with a larger step, boards after its last multiple are left out).
            "1".into(),
            "-l".into(),
            preset.into(),
        ])
        .env("FREECELL_SOLVER_QUIET", "1")
        .output()
        .context("running freecell-solver-range-parallel-solve")?;
    anyhow::ensure!(
        out.status.success(),
        "freecell-solver-range-parallel-solve failed: {}",
        String::from_utf8_lossy(&out.stderr).trim()
    );
    let after = rusage::children();
    let text = String::from_utf8_lossy(&out.stdout);
    let iterations = text
        .lines()
        .rev()
        .find_map(|l| l.split("total_num_iters=").nth(1))
        .and_then(|s| s.trim_end_matches(')').trim().parse().ok());

    let before_boards = rusage::children();
    let per_board: Vec<Result<BoardRun>> = pool.install(|| {
        (a..=b)
            .into_par_iter()
            .map(|n| {
                let board = ms_deal(n)?;
                let raw = run_fc_solve(&board, &["-l", preset])?;
                let (verdict, moves) = parse_fcs_output(&raw)?;
                if verdict != FcsVerdict::Solved {
                    return Ok((n, None, true));
                }
                Ok(match validate(&board, &moves) {
                    Ok(v) => (n, Some((v.moves_total, v.single_card_moves)), true),
                    Err(_) => (n, None, false),
                })
            })
            .collect()
    });
    let per_board_cpu_s = rusage::children().cpu_s - before_boards.cpu_s;
    let per_board: Vec<BoardRun> = per_board.into_iter().collect::<Result<_>>()?;
    let solved: Vec<(usize, usize)> = per_board.iter().filter_map(|r| r.1).collect();
    Ok(FcSolveSummary {
        preset: preset.to_string(),
        cpu_s: after.cpu_s - before.cpu_s,
        per_board_cpu_s,
        peak_rss_mib: after.max_rss_mib,
        iterations,
        solved: solved.len(),
        not_solved: per_board
            .iter()
            .filter(|r| r.1.is_none() && r.2)
            .map(|r| r.0)
            .collect(),
        invalid: per_board.iter().filter(|r| !r.2).map(|r| r.0).collect(),
        moves_total: Spread::of(solved.iter().map(|s| s.0 as f64).collect()),
        single_card_moves: Spread::of(solved.iter().map(|s| s.1 as f64).collect()),
    })
}
