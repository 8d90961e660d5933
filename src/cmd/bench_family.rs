//! `fcauto bench --game G` / `--freecells N` with rules other than standard FreeCell's: the
//! family search (`fcauto_solver::family`) over a range of deals on one thread, with the
//! verdict counts, the positions searched, CPU time and peak memory. Each solution is
//! validated and each "impossible" is a complete search's proof.

use crate::cmd::bench::Args;
use crate::cmd::plural;
use crate::mode::ModeArg;
use anyhow::Result;
use fcauto_engine::bench::rusage;
use fcauto_solver::family::{solve_family, FamilyMode, FamilyOutcome};
use std::time::Instant;

/// Solve every deal of the range; exit 0 (2 for an option the family bench does not have).
pub fn run(args: &Args) -> Result<i32> {
    if let Some(msg) = usage_problem(args) {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    let game = args.game.game();
    let rules = args.game.rules();
    let mode = match args.mode {
        ModeArg::Fast => FamilyMode::Fast,
        _ => FamilyMode::Short,
    };
    let (a, b) = args.range;
    let named = args.game.game.is_some();
    let t0 = Instant::now();
    let (mut solved, mut impossible, mut unknown) = (0u64, 0u64, Vec::new());
    let (mut positions, mut moves) = (0usize, 0usize);
    for n in a..=b {
        let layout = crate::cmd::solve_family::deal_layout(game, &rules, n, named)?;
        let (outcome, stats) = solve_family(&layout, &rules, mode, args.max_states)?;
        positions += stats.best_first + stats.complete;
        match outcome {
            FamilyOutcome::Solved(s) => {
                solved += 1;
                moves += s.moves.len();
            }
            FamilyOutcome::Unsolvable => impossible += 1,
            FamilyOutcome::Unknown(_) => unknown.push(n),
        }
    }
    let usage = rusage::this_process();
    let title = crate::cmd::solve_family::title(game, &rules);
    outln!(
        "{title}, deals {a}..{b} ({}): {solved} solved (validated), {impossible} impossible (every reachable position searched), {} unknown{}",
        if mode == FamilyMode::Fast { "fast" } else { "short" },
        unknown.len(),
        if unknown.is_empty() {
            String::new()
        } else {
            format!(" ({})", short_list(&unknown))
        }
    );
    outln!(
        "{} searched; mean moves {:.1}; CPU {:.2} s, wall {:.2} s, peak RSS {:.0} MiB (one thread)",
        plural(positions, "position"),
        moves as f64 / solved.max(1) as f64,
        usage.cpu_s,
        t0.elapsed().as_secs_f64(),
        usage.max_rss_mib
    );
    Ok(0)
}

/// The options of the standard bench the family bench does not have (exit 2).
fn usage_problem(args: &Args) -> Option<String> {
    let what = crate::cmd::solve_family::title(args.game.game(), &args.game.rules());
    if !matches!(args.mode, ModeArg::Fast | ModeArg::Short) {
        return Some(format!(
            "{what}: the optimal modes are for standard FreeCell only; use --mode fast or short"
        ));
    }
    let standard_only = [
        (args.vs_fc_solve, "--vs-fc-solve"),
        (args.json.is_some(), "--json"),
        (args.plot.is_some() || args.plot_data.is_some(), "--plot"),
        (args.threads.is_some_and(|t| t > 1), "--threads"),
    ];
    standard_only
        .iter()
        .find(|(given, _)| *given)
        .map(|(_, flag)| format!("{what}: {flag} is for standard FreeCell only in this build"))
}

/// Up to 20 deal numbers, then how many more.
fn short_list(deals: &[u64]) -> String {
    let shown: Vec<String> = deals.iter().take(20).map(u64::to_string).collect();
    match deals.len() {
        n if n > 20 => format!("{}, and {} more", shown.join(", "), n - 20),
        _ => shown.join(", "),
    }
}
