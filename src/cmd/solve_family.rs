//! `fcauto solve --game G` and `--freecells N` when the rules are not standard FreeCell's:
//! the family search (`fcauto_solver::family`), with its own validator, its standard notation
//! (cascades `1`..`9` and `0` for the tenth, freecells `a`..`g` and `i` for the eighth, `h`
//! the foundation) and its own minimal JSON. The start is a deal (PySolFC's numbers of the
//! game with --game, up to 10^20) or a board read for the game (`--board`,
//! [`read_layout`]); `--cross-check` runs fc-solve with the game's flags
//! ([`crate::cmd::crosscheck::cross_check_family`]).

use crate::cmd::input::{is_stdio, read_board_text, read_deal_file};
use crate::cmd::plural;
use crate::cmd::solve_args::{Args, SolutionFormat};
use anyhow::{bail, Context, Result};
use fcauto_deals::pysol_deal::CellsTooFew;
use fcauto_deals::{
    deal_with_rules, ms_deal, DealError, Game, Layout, PysolNumber, Rules, Shuffle, MAX_DEAL,
};
use fcauto_engine::verify::family::{deal_json_number, read_layout};
use fcauto_solver::family::{
    single_card_count, solve_family, FamilyMode, FamilyOutcome, FamilySolutionJson, FamilyStats,
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
    let mode = family_mode(args).expect("usage_problem refused the other modes");
    let t0 = Instant::now();
    let (outcome, stats) = solve_family(&layout, &rules, mode, args.max_states)?;
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    let name = match deal {
        Some(n) => format!("{} deal {n}", title(game, &rules)),
        None => format!("{} board", title(game, &rules)),
    };
    let proved = proved_minimum(mode, &layout, &rules, &outcome);
    let code = report(&name, &outcome, &stats, ms, proved.as_deref());
    if args.format.is_some_and(is_drawn) {
        let moves = match &outcome {
            FamilyOutcome::Solved(s) => Some(s.moves.as_slice()),
            _ => None,
        };
        args.write_family_solution(deal, &layout, moves)?;
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
        let layout = read_layout(&text, game, rules, &name)?;
        // A deal's JSON keeps its number (checked against its position).
        let deal = deal_json_number(&text, game, rules, &layout, &name)?;
        return Ok((deal.map(PysolNumber::shortest), layout));
    }
    let number = match (&args.deal_file, args.deal) {
        (Some(f), _) => PysolNumber::ms(read_deal_file(f)?.deal)?,
        (None, Some(n)) if args.game.game.is_some() => n,
        (None, Some(n)) => PysolNumber::ms(u64::try_from(n.value())?)?,
        (None, None) => bail!("no deal number given"),
    };
    // A Microsoft deal below 32000 is written as the plain number (both name it).
    let number = number.shortest();
    Ok((Some(number), deal_with_rules(game, rules, number)?))
}

/// The game a file names (a position string `seahaven_towers: ...`, a family deal or
/// solution JSON, a `# start:` line: [`fcauto_solver::family::named_game`]) when neither
/// --game nor --freecells is given and its rules are not standard FreeCell's: the command
/// then plays that game, as `show` does. Standard input too: it is read once, and its
/// reader gets the same text. A file that cannot be read names none (its reader says why).
/// With --game or --freecells, the file's reader refuses a start of another game (exit 2).
pub fn file_game(
    game: &crate::game::GameArgs,
    file: Option<&std::path::Path>,
) -> Option<fcauto_solver::family::NamedGame> {
    if game.game.is_some() || game.freecells.is_some() {
        return None;
    }
    let text = crate::cmd::input::read_board_text(file?).ok()?;
    fcauto_solver::family::named_game(&text).filter(|n| !n.rules.is_standard())
}

/// Play `named` (a game and its rules a file names): --game and --freecells set to them.
pub fn play_named(game: &mut crate::game::GameArgs, named: fcauto_solver::family::NamedGame) {
    game.game = Some(named.game);
    game.freecells = Some(named.rules.freecells);
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

/// With `--game freecell` (standard rules) and no board, a PySolFC number from 32000 on:
/// its Mersenne Twister deal as PySolFC deals it, named (`freecell deal 40000`), and its
/// board. The standard solver's deal number names Microsoft deals only, so the board
/// stands for the deal (its JSON's `deal` is null).
pub fn mt_board(args: &Args) -> Option<(String, fcauto_deals::Board)> {
    let standard = args.game.rules().is_standard() && args.game.game.is_some();
    if !standard || args.board.is_some() || args.deal_file.is_some() {
        return None;
    }
    let given = args.deal?;
    let board = mt_freecell_board(given)?;
    Some((format!("{} deal {given}", Game::freecell().name), board))
}

/// Standard FreeCell's board of PySolFC number `given` when it is a Mersenne Twister deal
/// (a plain number from 32000 on), as PySolFC deals it; `None` for a Microsoft deal.
pub fn mt_freecell_board(given: PysolNumber) -> Option<fcauto_deals::Board> {
    let Shuffle::MersenneTwister(_) = given.shuffle() else {
        return None;
    };
    fcauto_deals::deal_game(Game::freecell(), given).to_board()
}

/// The refusal of standard FreeCell's Mersenne Twister deal `given` named with --game where
/// a deal number must be Microsoft's (the standard solver's deal number).
fn mt_deal_words(given: &str) -> String {
    format!(
        "deal {given} with --game freecell is PySolFC's Mersenne Twister deal, and a run of standard FreeCell deals Microsoft's deals: solve it alone (`fcauto solve --game freecell {given}`), or give `msA..msB` for Microsoft's deals; without --game, a number is the Microsoft deal"
    )
}

/// The standard solver's deal number: a Microsoft deal. With `--game freecell`, a PySolFC
/// number from 32000 on is its Mersenne Twister deal, which a Microsoft deal number cannot
/// name: such a deal is solved from its board, which [`mt_board`] deals before this is
/// asked (the refusal here guards a caller that skips it).
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

/// The family search's mode for `args.mode`, or the one line saying why not: the engine's
/// rule ([`fcauto_engine::bench::family_mode`]), which `bench`, `batch run` and `analyze`
/// share.
fn family_mode(args: &Args) -> Result<FamilyMode, String> {
    fcauto_engine::bench::family_mode(args.mode.into(), args.game.game(), &args.game.rules())
}

/// What the family search does not offer (exit 2): a mode the game is not solved in
/// ([`family_mode`]: `optimal-ph`, `optimal` for the unlimited-sequence games), fc-solve's
/// format.
fn usage_problem(args: &Args) -> Option<String> {
    if let Err(why) = family_mode(args) {
        return Some(why);
    }
    if args.format == Some(SolutionFormat::Fcs) {
        let what = title(args.game.game(), &args.game.rules());
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

/// In the optimal modes, what a solution's length proves: its counts and which is minimal
/// (`, 95 single-card moves; the single-card count is proved minimal`).
fn proved_minimum(
    mode: FamilyMode,
    layout: &Layout,
    rules: &Rules,
    outcome: &FamilyOutcome,
) -> Option<String> {
    let FamilyOutcome::Solved(s) = outcome else {
        return None;
    };
    let single = single_card_count(layout, rules, &s.moves);
    let single = single.map_or(String::new(), |n| {
        format!(", {}", plural(n, "single-card move"))
    });
    match mode {
        FamilyMode::Optimal => Some(format!(
            "{single}; validated; the single-card count is proved minimal"
        )),
        FamilyMode::OptimalMoves => Some(format!(
            "{single}; validated; the move count is proved minimal"
        )),
        _ => None,
    }
}

/// Say on stderr how the solve went (`proved`: what an optimal mode's solution proves); the
/// exit code.
fn report(
    name: &str,
    outcome: &FamilyOutcome,
    stats: &FamilyStats,
    ms: f64,
    proved: Option<&str>,
) -> i32 {
    let positions = stats.best_first + stats.complete;
    match outcome {
        FamilyOutcome::Solved(s) => {
            crate::note!(
                "fcauto: {name} solved in {ms:.1} ms ({} searched): {}{}",
                plural(positions, "position"),
                plural(s.moves.len(), "move"),
                proved.unwrap_or("; validated"),
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
