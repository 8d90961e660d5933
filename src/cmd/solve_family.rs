//! `fcauto solve --game G` and `--freecells N` when the rules are not standard FreeCell's:
//! the family search (`fcauto_solver::family`), with its own validator, its standard notation
//! (cascades `1`..`9` and `0` for the tenth, freecells `a`..`g` and `i` for the eighth, `h`
//! the foundation) and its own minimal JSON.

use crate::cmd::input::{is_stdio, read_deal_file};
use crate::cmd::plural;
use crate::cmd::solve::{Args, SolutionFormat};
use crate::mode::ModeArg;
use anyhow::{bail, Context, Result};
use fcauto_deals::{deal_with_rules, ms_deal, Game, Layout, PysolNumber, Rules};
use fcauto_solver::family::{
    solve_family, FamilyMode, FamilyOutcome, FamilySolutionJson, FamilyStats,
};
use std::time::Instant;

/// Solve a family game's deal and print the solution; exit 0 when solved, 1 when not, 2 on
/// a usage problem (a mode, format or option the family search does not offer).
pub fn run(args: &Args) -> Result<i32> {
    if let Some(msg) = usage_problem(args) {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    let game = args.game.game();
    let rules = args.game.rules();
    let deal = match &args.deal_file {
        Some(f) => read_deal_file(f)?.deal,
        None => args.deal.context("no deal number given")?,
    };
    let layout = deal_layout(game, &rules, deal, args.game.game.is_some())?;
    let mode = match args.mode {
        ModeArg::Fast => FamilyMode::Fast,
        _ => FamilyMode::Short,
    };
    let t0 = Instant::now();
    let (outcome, stats) = solve_family(&layout, &rules, mode, args.max_states)?;
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    let name = format!("{} deal {deal}", title(game, &rules));
    let code = report(&name, &outcome, &stats, ms);
    if args.format.is_some_and(is_drawn) {
        let moves = match &outcome {
            FamilyOutcome::Solved(s) => Some(s.moves.as_slice()),
            _ => None,
        };
        crate::cmd::picture::write_family_solution(args, deal, &layout, moves)?;
        return Ok(code);
    }
    let text = match args.format {
        Some(SolutionFormat::Json) => json_text(game, deal, &layout, &rules, &outcome)?,
        _ => standard_text(&outcome),
    };
    match args.output.as_deref().filter(|p| !is_stdio(p)) {
        Some(p) => {
            std::fs::write(p, &text).with_context(|| format!("cannot write {}", p.display()))?
        }
        None => out!("{text}"),
    }
    Ok(code)
}

/// True for the formats drawn by the renderer (svg, png, html).
fn is_drawn(f: SolutionFormat) -> bool {
    matches!(
        f,
        SolutionFormat::Svg | SolutionFormat::Png | SolutionFormat::Html
    )
}

/// What the family search does not offer (exit 2): the optimal modes, fc-solve's format,
/// `--board`, `--cross-check`.
fn usage_problem(args: &Args) -> Option<String> {
    let what = title(args.game.game(), &args.game.rules());
    if !matches!(args.mode, ModeArg::Fast | ModeArg::Short) {
        return Some(format!(
            "{what}: the optimal modes are for standard FreeCell only; use --mode fast or short"
        ));
    }
    if args.format == Some(SolutionFormat::Fcs) {
        return Some(format!(
            "{what}: --format must be standard, json, svg, png or html"
        ));
    }
    if args.board.is_some() {
        return Some(format!(
            "{what}: --board is for standard FreeCell only in this build; give a deal number"
        ));
    }
    if args.cross_check {
        return Some(format!(
            "{what}: --cross-check is for standard FreeCell only in this build"
        ));
    }
    None
}

/// The game's name, with the freecells when `--freecells` changed them.
pub fn title(game: &Game, rules: &Rules) -> String {
    if rules.freecells == game.rules.freecells {
        game.name.to_string()
    } else {
        format!("{} with {}", game.name, plural(rules.freecells, "freecell"))
    }
}

/// The layout of deal `n` under `rules`: with --game (`named`), PySolFC's deal of `game`
/// number `n` (the Microsoft shuffle below 32000, its Mersenne Twister from 32000 on, each
/// game's own layout); without, the Microsoft deal with the rules' number of freecells.
pub fn deal_layout(game: &'static Game, rules: &Rules, n: u64, named: bool) -> Result<Layout> {
    if named {
        let number = PysolNumber::plain(n as u128)?;
        return Ok(deal_with_rules(game, rules, number)?);
    }
    Ok(Layout::from_board(&ms_deal(n)?, rules.freecells as usize))
}

/// With `--game` and standard FreeCell's rules, deal numbers are PySolFC's: from 32000 on
/// they are Mersenne Twister deals, which the standard solver's deal number (a Microsoft
/// deal, as its JSON's `deal` says) cannot name: such a deal is solved from its board.
pub fn check_ms_numbering(deal: Option<u64>) -> Result<()> {
    match deal {
        Some(n) if n >= 32000 => bail!(
            "deal {n} with --game freecell is PySolFC's Mersenne Twister deal: solve it from its board (`fcauto deal --game freecell {n} > {n}.board` then `--board {n}.board`); without --game, a number is the Microsoft deal"
        ),
        _ => Ok(()),
    }
}

/// Say on stderr how the solve went; the exit code.
fn report(name: &str, outcome: &FamilyOutcome, stats: &FamilyStats, ms: f64) -> i32 {
    let positions = stats.best_first + stats.complete;
    match outcome {
        FamilyOutcome::Solved(s) => {
            crate::note!(
                "fcauto: {name} solved in {ms:.1} ms ({} searched): {}; validated",
                plural(positions, "position"),
                plural(s.moves.len(), "move"),
            );
            0
        }
        FamilyOutcome::Unsolvable => {
            crate::note!(
                "fcauto: {name} is unsolvable: exhaustive search of {} in {ms:.1} ms",
                plural(stats.reachable, "position")
            );
            1
        }
        FamilyOutcome::Unknown(why) => {
            crate::note!("fcauto: {name}: unknown: {why} (--max-states N raises it) ({ms:.1} ms)");
            1
        }
    }
}

/// Standard notation, ten moves a line; `# unsolvable` or `# unknown: ...` without one.
fn standard_text(outcome: &FamilyOutcome) -> String {
    match outcome {
        FamilyOutcome::Solved(s) if s.tokens.is_empty() => "# already won: no moves\n".into(),
        FamilyOutcome::Solved(s) => {
            let lines: Vec<String> = s.tokens.chunks(10).map(|c| c.join(" ")).collect();
            lines.join("\n") + "\n"
        }
        FamilyOutcome::Unsolvable => "# unsolvable\n".into(),
        FamilyOutcome::Unknown(why) => format!("# unknown: {why}\n"),
    }
}

fn json_text(
    game: &Game,
    deal: u64,
    layout: &Layout,
    rules: &Rules,
    outcome: &FamilyOutcome,
) -> Result<String> {
    let (solvable, moves) = match outcome {
        FamilyOutcome::Solved(s) => (Some(true), s.moves.as_slice()),
        FamilyOutcome::Unsolvable => (Some(false), &[][..]),
        FamilyOutcome::Unknown(_) => (None, &[][..]),
    };
    let json = FamilySolutionJson::new(game.name, Some(deal), layout, rules, solvable, moves);
    Ok(serde_json::to_string_pretty(&json)? + "\n")
}
