//! `fcauto solve --game G` and `--freecells N` when the rules are not standard FreeCell's:
//! the family search (`fcauto_solver::family`), with its own validator, its standard notation
//! (cascades `1`..`9` and `0` for the tenth, freecells `a`..`g` and `i` for the eighth, `h`
//! the foundation) and its own minimal JSON. The start is a deal (PySolFC's numbers of the
//! game with --game, up to 10^20) or a board read for the game (`--board`,
//! [`read_layout`]); `--cross-check` runs fc-solve with the game's flags
//! ([`crate::cmd::crosscheck::cross_check_family`]).

use crate::cmd::input::{is_stdio, read_board_text, read_deal_file};
use crate::cmd::plural;
use crate::cmd::solve::{Args, SolutionFormat};
use crate::mode::ModeArg;
use anyhow::{bail, Context, Result};
use fcauto_deals::pysol_deal::CellsTooFew;
use fcauto_deals::{
    deal_with_rules, ms_deal, DealError, Game, Layout, PysolNumber, Rules, Shuffle, MAX_DEAL,
};
use fcauto_engine::verify::family::read_layout;
use fcauto_solver::family::{
    solve_family, FamilyMode, FamilyOutcome, FamilySolutionJson, FamilyStats,
};
use std::time::Instant;

/// Solve a family game's deal or board and print the solution; exit 0 when solved, 1 when
/// not (or when `--cross-check` finds a disagreement), 2 on a usage problem (a mode, format or
/// option the family search does not offer, a deal that puts cards in more freecells than
/// `--freecells` gives).
pub fn run(args: &Args) -> Result<i32> {
    if let Some(msg) = usage_problem(args) {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    let game = args.game.game();
    let rules = args.game.rules();
    let (deal, layout) = match start(args, game, &rules) {
        Err(e) if e.is::<CellsTooFew>() => return Ok(crate::cmd::usage_exit(&e.to_string())),
        r => r?,
    };
    let mode = match args.mode {
        ModeArg::Fast => FamilyMode::Fast,
        _ => FamilyMode::Short,
    };
    let t0 = Instant::now();
    let (outcome, stats) = solve_family(&layout, &rules, mode, args.max_states)?;
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    let name = match deal {
        Some(n) => format!("{} deal {n}", title(game, &rules)),
        None => format!("{} board", title(game, &rules)),
    };
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
    if args.cross_check {
        let agreed = crate::cmd::crosscheck::cross_check_family(game, &rules, &layout, &outcome)?;
        if !agreed {
            return Ok(1);
        }
    }
    Ok(code)
}

/// The deal number (as PySolFC numbers the game's deals; `None` for a board) and the start:
/// `--board`'s position read for the game, the deal file's Microsoft deal, or the deal
/// number's (with --game PySolFC's numbering, without it a Microsoft deal).
fn start(args: &Args, game: &'static Game, rules: &Rules) -> Result<(Option<PysolNumber>, Layout)> {
    if let Some(path) = &args.board {
        let name = crate::cmd::input::name(path, "board file");
        let text = read_board_text(path)?;
        return Ok((None, read_layout(&text, game, rules, &name)?));
    }
    let number = match (&args.deal_file, args.deal) {
        (Some(f), _) => PysolNumber::ms(read_deal_file(f)?.deal)?,
        (None, Some(n)) if args.game.game.is_some() => n,
        (None, Some(n)) => PysolNumber::ms(u64::try_from(n.value())?)?,
        (None, None) => bail!("no deal number given"),
    };
    // A Microsoft deal below 32000 is written as the plain number (both name it).
    let number = match number.shuffle() {
        Shuffle::Microsoft(n) if n < 32000 => PysolNumber::plain(n as u128)?,
        _ => number,
    };
    Ok((Some(number), deal_with_rules(game, rules, number)?))
}

/// The game a file names (a position string `seahaven_towers: ...`, a family deal or
/// solution JSON: [`fcauto_engine::input::named_game`]) when neither --game nor --freecells
/// is given and its rules are not standard FreeCell's: the command then plays that game,
/// as `show` does. Standard input is read once, by the command: it names none here (its
/// reader then says to give --game).
pub fn file_game(
    game: &crate::game::GameArgs,
    file: Option<&std::path::Path>,
) -> Option<(&'static Game, Rules)> {
    if game.game.is_some() || game.freecells.is_some() {
        return None;
    }
    let path = file.filter(|p| !crate::cmd::input::is_stdio(p))?;
    let text = crate::cmd::input::read_board_text(path).ok()?;
    fcauto_engine::input::named_game(&text).filter(|(_, r)| !r.is_standard())
}

/// Play `named` (a game and its rules a file names): --game and --freecells set to them.
pub fn play_named(game: &mut crate::game::GameArgs, named: (&'static Game, Rules)) {
    game.game = Some(named.0);
    game.freecells = Some(named.1.freecells);
}

/// The deal number without --game above the Microsoft deals' 2^33-1: the usage error (as
/// clap words a value its parser refuses; only --game deals PySolFC's larger numbers).
pub fn deal_too_large(args: &Args) -> Option<String> {
    let given = args.deal.filter(|_| args.game.game.is_none())?;
    let fits = u64::try_from(given.value()).is_ok_and(|n| n <= MAX_DEAL);
    (!fits).then(|| {
        let e = DealError::TooLarge(given.to_string());
        format!(
            "invalid value '{given}' for '[DEAL]': {e}; PySolFC's larger game numbers need --game"
        )
    })
}

/// With `--game freecell` (standard rules), a PySolFC number from 32000 on: its Mersenne
/// Twister deal, which the standard solver's deal number cannot name (a usage problem, exit
/// 2, as `verify` refuses it): the message saying to solve it from its board.
pub fn mt_deal_problem(args: &Args) -> Option<String> {
    if !args.game.rules().is_standard() || args.game.game.is_none() || args.board.is_some() {
        return None;
    }
    let given = args.deal?;
    matches!(given.shuffle(), Shuffle::MersenneTwister(_))
        .then(|| mt_deal_words(&given.to_string()))
}

/// The refusal of standard FreeCell's Mersenne Twister deal `given` named with --game.
fn mt_deal_words(given: &str) -> String {
    format!(
        "deal {given} with --game freecell is PySolFC's Mersenne Twister deal: solve it from its board (`fcauto deal --game freecell {given} > {given}.board` then `--board {given}.board`); without --game, a number is the Microsoft deal"
    )
}

/// The standard solver's deal number: a Microsoft deal. With `--game freecell`, a PySolFC
/// number from 32000 on is its Mersenne Twister deal, which a Microsoft deal number cannot
/// name: such a deal is solved from its board ([`mt_deal_problem`] refuses it first).
pub fn ms_number(args: &Args) -> Result<Option<u64>> {
    let Some(given) = args.deal else {
        return Ok(None);
    };
    if args.game.game.is_none() {
        return Ok(Some(u64::try_from(given.value())?));
    }
    match given.shuffle() {
        Shuffle::Microsoft(n) => Ok(Some(n)),
        Shuffle::MersenneTwister(_) => bail!(mt_deal_words(&given.to_string())),
    }
}

/// True for the formats drawn by the renderer (svg, png, html).
fn is_drawn(f: SolutionFormat) -> bool {
    matches!(
        f,
        SolutionFormat::Svg | SolutionFormat::Png | SolutionFormat::Html
    )
}

/// What the family search does not offer (exit 2): the optimal modes, fc-solve's format.
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
    None
}

/// The game's name, with the freecells when `--freecells` changed them.
pub fn title(game: &Game, rules: &Rules) -> String {
    fcauto_engine::verify::family::title(game, rules)
}

/// The layout of deal `n` under `rules`: with --game (`named`), PySolFC's deal of `game`
/// number `n` (the Microsoft shuffle below 32000 and for `msN`, its Mersenne Twister from
/// 32000 on, each game's own layout); without, the Microsoft deal with the rules' number of
/// freecells.
pub fn deal_layout(
    game: &'static Game,
    rules: &Rules,
    n: PysolNumber,
    named: bool,
) -> Result<Layout> {
    if named {
        return Ok(deal_with_rules(game, rules, n)?);
    }
    let n = n.microsoft_deal(false)?;
    Ok(Layout::from_board(&ms_deal(n)?, rules.freecells as usize))
}

/// With `--game` and standard FreeCell's rules, deal numbers are PySolFC's: from 32000 on
/// they are Mersenne Twister deals, which the standard solver's deal number (a Microsoft
/// deal, as its JSON's `deal` says) cannot name: such a deal is solved from its board. The
/// usage problem (exit 2) saying so.
pub fn ms_numbering_problem(deal: Option<u64>) -> Option<String> {
    deal.filter(|&n| n >= 32000)
        .map(|n| mt_deal_words(&n.to_string()))
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
    deal: Option<PysolNumber>,
    layout: &Layout,
    rules: &Rules,
    outcome: &FamilyOutcome,
) -> Result<String> {
    let (solvable, moves) = match outcome {
        FamilyOutcome::Solved(s) => (Some(true), s.moves.as_slice()),
        FamilyOutcome::Unsolvable => (Some(false), &[][..]),
        FamilyOutcome::Unknown(_) => (None, &[][..]),
    };
    let json =
        FamilySolutionJson::new(game.name, None, layout, rules, solvable, moves).with_deal(deal);
    Ok(serde_json::to_string_pretty(&json)? + "\n")
}
