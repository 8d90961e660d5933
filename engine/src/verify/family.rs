//! Verify for the other games of the FreeCell family (`verify --game G`, and a family
//! solution JSON, which names its game): the moves replayed from their start by the family's
//! own validator ([`validate_family`]) under the game's rules.
//!
//! The start is the one the caller gives (a deal of the game, or a board read for it by
//! [`read_layout`]), which must agree with the one the solution names, or else the one it
//! names: a JSON's `position` or `deal` (`family_json.rs`), fc-solve's first printed
//! position (`family_fcs.rs`), a `# start:` line. A start of another game than the
//! one played is refused, never replayed under the wrong rules. Move texts are read by the
//! solver's one family reader ([`read_family_text`]), counts left out found by backtracking
//! ([`resolve_family_counts`]). Errors are those of the standard verify: a
//! [`StartConflict`] or [`NoStart`] is a usage problem, a move that does not win is
//! [`super::is_not_a_win`].

use super::{family_fcs, family_json, NoStart, NotAWin};
use crate::input::{fitting_game, StartConflict};
use anyhow::{Context, Result};
use fcauto_deals::position::{looks_like_position, parse_layout};
use fcauto_deals::{deal_with_rules, Game, Layout, PysolNumber, Rules};
use fcauto_solver::family::{
    named_game, read_family_text, resolve_family_counts, validate_family, FamilyMove, FamilyText,
    FamilyValidationError,
};

/// A start of a family game: the game, the rules played (its freecells changed by
/// `--freecells`), the position, and the deal it was dealt from (if any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyStart {
    /// The game.
    pub game: &'static Game,
    /// Its rules as played.
    pub rules: Rules,
    /// The start position.
    pub layout: Layout,
    /// The deal number, when dealt from one.
    pub deal: Option<PysolNumber>,
}

/// A family solution that was verified: every move legal, all 52 cards on the foundations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyReport {
    /// The game played.
    pub game: &'static Game,
    /// Its rules as played.
    pub rules: Rules,
    /// Moves (a run moved at once counts one).
    pub moves_total: usize,
    /// The single-card moves that realise the moves, each run counted as the supermove
    /// through freecells and empty cascades it is
    /// ([`fcauto_solver::family::single_card_count`], as `solve` and `bench` count them);
    /// `None` in an unlimited-sequence game, whose runs move as a unit.
    pub single_card_moves: Option<usize>,
}

/// The game's name, with the freecells when they are not the game's own.
pub fn title(game: &Game, rules: &Rules) -> String {
    if rules.freecells == game.rules.freecells {
        game.name.to_string()
    } else {
        format!(
            "{} with {}",
            game.name,
            fcauto_deals::plural(rules.freecells, "freecell")
        )
    }
}

/// True when `text` is a family solution JSON: an object naming its `game`, with moves or
/// a `freecells` count (the standard solution JSON names no game; a family deal's JSON has
/// freecell slots and no moves), whatever the types of those fields.
pub fn is_family_json(text: &str) -> bool {
    let text = text.trim_start_matches('\u{feff}').trim_start();
    text.starts_with('{')
        && serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| {
            // A `game` with moves, or with a `freecells` that is no list of slots (a deal's
            // JSON has slots and no moves): read as a family solution, whose reader names a
            // field of the wrong type (standard FreeCell's JSON has no `game`).
            v.get("game").is_some()
                && (v.get("moves").is_some()
                    || v.get("freecells")
                        .is_some_and(|f| !f.is_array() && !f.is_null()))
        })
}

/// The game (with its rules as played) a solution names itself when it is not standard
/// FreeCell's: a family solution JSON's `game` and `freecells`, or the game a `# start:`
/// line's position string names (`analyze --report`'s `game.txt`), as
/// [`fcauto_solver::family::named_game`] reads them. `None` for any other text.
pub fn solution_game(text: &str) -> Option<(&'static Game, Rules)> {
    named_game(text)
        .filter(|n| n.by.is_solution() && !n.rules.is_standard())
        .map(|n| (n.game, n.rules))
}

/// The game (with its rules as played) a board file names when it is not standard
/// FreeCell's, every way [`fcauto_solver::family::named_game`] reads: a family solution
/// JSON's, a deal's JSON's `game`, a position string's `name:` prefix, or a move list's
/// `# start:`. `None` for any other text.
pub fn board_game(text: &str) -> Option<(&'static Game, Rules)> {
    named_game(text)
        .filter(|n| !n.rules.is_standard())
        .map(|n| (n.game, n.rules))
}

/// The deal a board file's JSON names (`deal`: a deal's JSON, `deal --game G N --format
/// json`, or a family solution JSON), when PySolFC's deal of that number of `game` under
/// `rules` is `layout`, the position read from it; `None` for any other text, and for a
/// `deal` whose deal is another position (the number would misname the start).
pub fn board_deal(
    text: &str,
    game: &'static Game,
    rules: &Rules,
    layout: &Layout,
) -> Option<PysolNumber> {
    let text = text.trim_start_matches('\u{feff}').trim_start();
    if !text.starts_with('{') {
        return None;
    }
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let n = match v.get("deal")? {
        serde_json::Value::Number(n) => PysolNumber::parse(&n.to_string()).ok()?,
        serde_json::Value::String(s) => PysolNumber::parse(s).ok()?,
        _ => return None,
    };
    let dealt = deal_with_rules(game, rules, n).ok()?;
    (dealt == *layout).then_some(n)
}

/// The start of deal `number` of `game` under `rules`, as PySolFC deals it.
///
/// # Errors
/// The game deals cards to more freecells than `rules` has.
pub fn deal_start(game: &'static Game, rules: Rules, number: PysolNumber) -> Result<FamilyStart> {
    let layout = deal_with_rules(game, &rules, number)?;
    Ok(FamilyStart {
        game,
        rules,
        layout,
        deal: Some(number),
    })
}

/// Read `text` (named `name` in errors: `board file x.board`) as a position of `game` under
/// `rules`: a position string (with the game's name before a colon, or none for a position
/// of FreeCell's shape), a family solution JSON's start, or Freecell Solver's board text
/// with up to 10 cascades and a partial `Freecells:` line.
///
/// # Errors
/// One line naming what does not fit: a position of another game, another number of
/// cascades, more cards in freecells than the game has freecells, a card that is no card,
/// a duplicated or missing card.
pub fn read_layout(text: &str, game: &'static Game, rules: &Rules, name: &str) -> Result<Layout> {
    read_layout_as(text, game, rules, name, false)
}

/// [`read_layout`] for `verify`'s `--board`: board text that fits another game's cascades
/// and freecells (and not `game`'s) is a start of that game, refused as a usage problem
/// ([`StartConflict`], exit 2) naming both games, as a board naming its game is.
///
/// # Errors
/// As [`read_layout`].
pub fn read_board_start(
    text: &str,
    game: &'static Game,
    rules: &Rules,
    name: &str,
) -> Result<Layout> {
    read_layout_as(text, game, rules, name, true)
}

/// [`read_layout`]; `infer`: name the game board text fits ([`read_board_start`]).
fn read_layout_as(
    text: &str,
    game: &'static Game,
    rules: &Rules,
    name: &str,
    infer: bool,
) -> Result<Layout> {
    let text = text.trim_start_matches('\u{feff}');
    let what = title(game, rules);
    if is_family_json(text) {
        let json = family_json::read(text, name)?;
        let (own, own_rules) = family_json::json_rules(&json, name)?;
        if own.name != game.name || own_rules != *rules {
            return Err(conflict(name, "a solution", own, &own_rules, game, rules));
        }
        let layout = family_json::own_start(&json, name)?.map(|s| s.layout);
        return layout.with_context(|| format!("{name} names no start (no deal, no position)"));
    }
    if text.trim_start().starts_with('{') {
        return deal_json_layout(text, game, rules, name);
    }
    if looks_like_position(text) {
        let line = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .unwrap_or_default();
        let (named, layout) = parse_layout(line).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        let prefixed = line.contains(':');
        if named.name != game.name && prefixed {
            let own = named.rules.with_freecells(layout.freecells.len() as u8);
            return Err(conflict(name, "a position", named, &own, game, rules));
        }
        layout
            .check(rules)
            .map_err(|e| anyhow::anyhow!("{name} does not fit {what}: {e}"))?;
        return Ok(layout);
    }
    // A solution naming its start: a move list's `# start:` (game.txt), fc-solve's `-p -t`
    // output's first position.
    if let Ok(FamilyText {
        start: Some((named, layout)),
        ..
    }) = read_family_text(text)
    {
        let start = text_start((game, *rules), None, Some((named, layout)), name)?;
        return Ok(start.layout);
    }
    if fcauto_solver::family::has_fcs_move_lines(text) {
        let states =
            family_fcs::printed_positions(text, game, rules).with_context(|| name.to_string())?;
        if let Some((0, layout)) = states.into_iter().next() {
            return Ok(layout);
        }
    }
    Layout::parse(text, rules).map_err(|e| {
        // Board text names no game: for verify, one whose shape it has is named, a usage
        // problem.
        if infer && fitting_game(text, game).is_some() {
            return board_of_another_shape(text, name, game, rules);
        }
        anyhow::anyhow!(
            "{name} does not fit {what} ({} cascades, {}): {e}",
            rules.cascades,
            fcauto_deals::plural(rules.freecells, "freecell")
        )
    })
}

/// Board text that is no position of `game` under `rules` but one of another game's: a
/// usage problem (exit 2) naming its cascades (board text names no game, and its
/// `Freecells:` line may stop early, so FreeCell's, Baker's Game's and Eight Off's read
/// alike), in one line.
fn board_of_another_shape(text: &str, name: &str, game: &Game, rules: &Rules) -> anyhow::Error {
    let cascades = fitting_game(text, game).map_or(0, |g| g.rules.cascades);
    // Two games of that shape for example, the freecell-count variants left out.
    let like: Vec<&str> = fcauto_deals::GAMES
        .iter()
        .filter(|g| g.rules.cascades == cascades && g.name != game.name)
        .filter(|g| !g.name.ends_with("_freecells"))
        .filter(|g| Layout::parse(text, &g.rules).is_ok())
        .map(|g| g.name)
        .take(2)
        .collect();
    let what = title(game, rules);
    StartConflict(format!(
        "{name} is board text of {cascades} cascades, as {}'s are (board text names no game), not a board of {what} ({} cascades, {}): give the --game it was dealt for (or a {what} start)",
        like.join("'s or "),
        rules.cascades,
        fcauto_deals::plural(rules.freecells, "freecell"),
    ))
    .into()
}

/// A start of another game than the one played: a usage problem (exit 2), in one line
/// naming both games.
fn conflict(
    name: &str,
    what: &str,
    own: &Game,
    own_rules: &Rules,
    game: &Game,
    rules: &Rules,
) -> anyhow::Error {
    let (a, b) = (title(own, own_rules), title(game, rules));
    StartConflict(format!(
        "{name} is {what} of {a}, not of {b}: give --game {} (or the {b} start)",
        own.name
    ))
    .into()
}

/// The JSON `fcauto deal --game G N --format json` writes, read as a position of `game`.
#[derive(serde::Deserialize)]
struct DealJson {
    game: Option<String>,
    #[serde(default, with = "fcauto_solver::family::notation::deal_json")]
    deal: Option<PysolNumber>,
    cascades: Vec<Vec<fcauto_deals::Card>>,
    freecells: Vec<Option<fcauto_deals::Card>>,
    #[serde(default)]
    foundations: [u8; 4],
}

/// A deal's JSON (`deal --game G N --format json`) as a position of `game` under `rules`.
fn deal_json_layout(text: &str, game: &'static Game, rules: &Rules, name: &str) -> Result<Layout> {
    let json: DealJson = serde_json::from_str(text).with_context(|| {
        format!(
            "{name}: not a board (a deal's JSON with `cascades`, `freecells`, `foundations`, or \
             a family solution's)"
        )
    })?;
    if let Some(named) = json.game.as_deref() {
        let named = Game::find(named).with_context(|| format!("{name}: its `game`"))?;
        if named.name != game.name {
            return Err(conflict(name, "a deal", named, &named.rules, game, rules));
        }
    }
    let mut freecells = json.freecells;
    // Slots as a partial `Freecells:` line reads them: empty ones beyond the rules' count
    // dropped (a FreeCell deal's four, played with 3), missing ones empty; a card beyond
    // the count stays, for `check` to name.
    while freecells.len() > rules.freecells as usize && freecells.last() == Some(&None) {
        freecells.pop();
    }
    freecells.resize(freecells.len().max(rules.freecells as usize), None);
    let layout = Layout {
        cascades: json.cascades,
        freecells,
        foundations: json.foundations,
    };
    layout
        .check(rules)
        .map_err(|e| anyhow::anyhow!("{name} does not fit {}: {e}", title(game, rules)))?;
    Ok(layout)
}

/// The deal number a deal's JSON (`deal --game G N --format json`, `text`, named `name`)
/// names, whose position was read as `layout`: its `deal`, when it has one (`None` for
/// other text, a solution's JSON, or a position without its number).
///
/// # Errors
/// A `deal` whose position as dealt under `rules` is not `layout`.
pub fn deal_json_number(
    text: &str,
    game: &'static Game,
    rules: &Rules,
    layout: &Layout,
    name: &str,
) -> Result<Option<PysolNumber>> {
    let text = text.trim_start_matches('\u{feff}');
    if is_family_json(text) || !text.trim_start().starts_with('{') {
        return Ok(None);
    }
    let Some(n) = serde_json::from_str::<DealJson>(text)
        .ok()
        .and_then(|j| j.deal)
    else {
        return Ok(None);
    };
    crate::input::dealt_as(game, rules, n, layout).with_context(|| name.to_string())?;
    Ok(Some(n))
}

/// Verify the family solution `text` (named `name` in errors) of `game` (with its rules as
/// played; `None`: the game a JSON names) from `given` (the caller's start; `None`: the one
/// the solution names).
///
/// # Errors
/// The first problem found: no start ([`NoStart`]), a start given, or a game, that is not
/// the one the solution names ([`StartConflict`]), a claim that does not hold (a JSON's
/// `solvable`, `moves_total`, a move's `step`, `notation` or `card`, a position fc-solve
/// prints), a move that does not read, an illegal move or a game not won (the validator's
/// [`FamilyValidationError`], naming the step), no moves ([`NotAWin`]).
pub fn verify_family(
    text: &str,
    game: Option<(&'static Game, Rules)>,
    given: Option<FamilyStart>,
    name: &str,
) -> Result<FamilyReport> {
    let text = text.trim_start_matches('\u{feff}');
    if is_family_json(text) {
        if let (Some((g, r)), None) = (game, &given) {
            let json = family_json::read(text, name)?;
            let (own, own_rules) = family_json::json_rules(&json, name)?;
            if own.name != g.name || own_rules != r {
                return Err(StartConflict(format!(
                    "{name} is a solution of {}, not of {} (--game, --freecells)",
                    title(own, &own_rules),
                    title(g, &r)
                ))
                .into());
            }
        }
        return family_json::verify_json(text, given, name);
    }
    if let Some((g, r)) = game.filter(|_| looks_like_json(text) && text.contains("\"moves\"")) {
        return Err(StartConflict(format!(
            "{name} is a solution JSON of standard FreeCell (it names no `game` and \
             `freecells`), not of {}: verify it as standard FreeCell's",
            title(g, &r)
        ))
        .into());
    }
    anyhow::ensure!(
        !looks_like_json(text),
        "{name} is JSON but no family solution (it names no `game` and `freecells`): \
         give the JSON `solve --game G --format json` writes, or standard notation"
    );
    let game = game
        .or(given.as_ref().map(|g| (g.game, g.rules)))
        .with_context(|| format!("{name}: give --game G"))?;
    if fcauto_solver::family::has_fcs_move_lines(text) {
        return family_fcs::verify_fcs(text, game, given, name);
    }
    verify_text(text, game, given, name)
}

/// True when `text` opens as a JSON object (`{` then `"` or `}`): a move list may open with
/// a `{...}` comment.
fn looks_like_json(text: &str) -> bool {
    text.trim_start()
        .strip_prefix('{')
        .is_some_and(|r| matches!(r.trim_start().chars().next(), Some('"' | '}') | None))
}

/// Standard notation (fcauto's or fc-solve's `-m -sn`/`-sam -sn`) or an annotated game,
/// from `given` or its `# start:`.
fn verify_text(
    text: &str,
    game: (&'static Game, Rules),
    given: Option<FamilyStart>,
    name: &str,
) -> Result<FamilyReport> {
    let read =
        read_family_text(text).map_err(|e| anyhow::Error::new(e).context(name.to_string()))?;
    if read.moves.is_empty() {
        if let Some(v) = family_fcs::not_solved(text) {
            return Err(NotAWin(format!(
                "{name} is fc-solve's output of a game it did not solve ({v}): it has no moves \
                 to verify"
            ))
            .into());
        }
        if let Some(said) = not_solved_comment(text) {
            return Err(NotAWin(format!(
                "{name}: the solution file says the game was not solved ({said})"
            ))
            .into());
        }
    }
    let start = text_start(game, given, read.start, name)?;
    let moves = resolve_family_counts(&start.layout, &start.rules, &read.moves, true).moves;
    replay(&start, &moves, name)
}

/// What `solve`'s notation of a game not solved says (`# unsolvable`, `# unknown: why`).
fn not_solved_comment(text: &str) -> Option<&str> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix('#'))
        .map(str::trim)
        .find(|t| t.starts_with("unsolvable") || t.starts_with("unknown"))
}

/// The start of the move text `text` (named `name`) of `game`: the one its `# start:` line
/// names, which must be of `game` and, with a start `given` (`--deal`, `--board`), that
/// start; else the one given. `analyze` reads a move list's start so, as `verify` does.
///
/// # Errors
/// A text that does not read; a `# start:` of another game or start ([`StartConflict`]);
/// no start ([`NoStart`]).
pub fn move_text_start(
    text: &str,
    game: (&'static Game, Rules),
    given: Option<FamilyStart>,
    name: &str,
) -> Result<FamilyStart> {
    if fcauto_solver::family::has_fcs_move_lines(text) {
        // fc-solve's output names no start of its own here: `--board` reads its first
        // printed position.
        return text_start(game, given, None, name);
    }
    let read =
        read_family_text(text).map_err(|e| anyhow::Error::new(e).context(name.to_string()))?;
    text_start(game, given, read.start, name)
}

/// The start of a move text: the one its `# start:` names (`named`: the game named, if
/// any, and the position), which must be of `game` and, with a start `given`, that start;
/// else the one given; neither is a [`NoStart`].
fn text_start(
    (game, rules): (&'static Game, Rules),
    given: Option<FamilyStart>,
    named: Option<(Option<&'static Game>, Layout)>,
    name: &str,
) -> Result<FamilyStart> {
    let Some((named_game, layout)) = named else {
        return given.ok_or_else(|| {
            NoStart(format!(
                "{name} is standard notation, which names no start: give --game G with \
                 --deal N or --board FILE"
            ))
            .into()
        });
    };
    if let Some(own) = named_game.filter(|g| g.name != game.name) {
        let own_rules = own.rules.with_freecells(layout.freecells.len() as u8);
        return Err(StartConflict(format!(
            "{name}: its `# start:` is a position of {}, not of {} (--game)",
            title(own, &own_rules),
            title(game, &rules)
        ))
        .into());
    }
    layout.check(&rules).map_err(|e| {
        StartConflict(format!(
            "{name}: its `# start:` does not fit {}: {e}",
            title(game, &rules)
        ))
    })?;
    match given {
        Some(g) if g.layout != layout => Err(StartConflict(format!(
            "{name} names its own start (its `# start:` line), and {} gives another: leave \
             out {}",
            g.deal
                .map_or("--board".to_string(), |n| format!("--deal {n}")),
            if g.deal.is_some() {
                "--deal"
            } else {
                "--board"
            }
        ))
        .into()),
        Some(g) => Ok(g),
        None => Ok(FamilyStart {
            game,
            rules,
            layout,
            deal: None,
        }),
    }
}

/// Replay `moves` from `start` with the family's validator.
pub(super) fn replay(
    start: &FamilyStart,
    moves: &[FamilyMove],
    name: &str,
) -> Result<FamilyReport> {
    if moves.is_empty() && !start.layout.is_won() {
        return Err(NotAWin(format!("{name} has no moves, and the game is not won")).into());
    }
    validate_family(&start.layout, &start.rules, moves)
        .map_err(|e: FamilyValidationError| anyhow::Error::new(e).context(name.to_string()))?;
    Ok(FamilyReport {
        game: start.game,
        rules: start.rules,
        moves_total: moves.len(),
        single_card_moves: fcauto_solver::family::single_card_count(
            &start.layout,
            &start.rules,
            moves,
        ),
    })
}

/// The deal a family report's game.txt names in its first line (`# Seahaven Towers deal
/// 40000, analysed by fcauto ...`), when `layout`, its `# start:`, is that deal of `game`
/// under `rules`: so that analysing the report's game.txt again names the deal.
pub fn report_deal(
    text: &str,
    game: &'static Game,
    rules: &Rules,
    layout: &Layout,
) -> Option<fcauto_deals::PysolNumber> {
    let first = text.trim_start_matches('\u{feff}').lines().next()?;
    let rest = first.strip_prefix("# ")?.strip_prefix(game.pysol_name)?;
    let number = rest.strip_prefix(" deal ")?.split(',').next()?;
    let n = fcauto_deals::PysolNumber::parse(number).ok()?;
    let dealt = fcauto_deals::deal_with_rules(game, rules, n).ok()?;
    (dealt == *layout).then(|| n.shortest())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_solver::family::{
        solve_family, FamilyMode, FamilyOutcome, FamilySolutionJson, Place,
    };

    fn solved(game: &str, n: u128) -> (FamilyStart, Vec<FamilyMove>, Vec<String>) {
        let game = Game::find(game).unwrap();
        let start = deal_start(game, game.rules, PysolNumber::plain(n).unwrap()).unwrap();
        let (out, _) = solve_family(&start.layout, &start.rules, FamilyMode::Fast, None).unwrap();
        let FamilyOutcome::Solved(s) = out else {
            panic!("{game} {n} not solved")
        };
        (start, s.moves, s.tokens)
    }

    #[test]
    fn json_and_standard_notation_verify() {
        for (game, n) in [
            ("seahaven_towers", 1),
            ("eight_off", 617),
            ("bakers_game", 2),
        ] {
            let (start, moves, tokens) = solved(game, n);
            let json = FamilySolutionJson::new(
                start.game.name,
                Some(n as u64),
                &start.layout,
                &start.rules,
                Some(true),
                &moves,
            );
            let text = serde_json::to_string(&json).unwrap();
            let r = verify_family(&text, None, None, "s").unwrap();
            assert_eq!(r.moves_total, moves.len());
            let r = verify_family(&tokens.join(" "), None, Some(start.clone()), "s").unwrap();
            assert_eq!(r.moves_total, moves.len());
            // Counts left out are found again.
            let bare: Vec<&str> = tokens
                .iter()
                .map(|t| t.split('v').next().unwrap())
                .collect();
            let r = verify_family(&bare.join(" "), None, Some(start), "s");
            assert!(r.is_ok(), "{game}: {r:?}");
        }
    }

    #[test]
    fn fc_solve_output_verifies() {
        let (start, moves, _) = solved("eight_off", 5);
        let lines: Vec<String> = moves
            .iter()
            .map(|m| {
                let at = |p: Place| match p {
                    Place::Cascade(i) => format!("stack {i}"),
                    Place::Freecell(j) => format!("freecell {j}"),
                    Place::Foundation => "the foundations".into(),
                };
                match m.count {
                    1 => format!("Move a card from {} to {}", at(m.from), at(m.to)),
                    n => format!("Move {n} cards from {} to {}", at(m.from), at(m.to)),
                }
            })
            .collect();
        let text = lines.join("\n\n") + "\nThis game is solveable.\n";
        let r = verify_family(&text, None, Some(start.clone()), "s").unwrap();
        assert_eq!(r.moves_total, moves.len());
        let e =
            verify_family("I could not solve this game.\n", None, Some(start), "s").unwrap_err();
        assert!(super::super::is_not_a_win(&e), "{e:#}");
    }

    #[test]
    fn a_tampered_move_is_named_and_no_start_is_a_usage_problem() {
        let (start, _, mut tokens) = solved("bakers_game", 2);
        // The last move (a king home) played first.
        let last = tokens.last().unwrap().clone();
        tokens.insert(0, last);
        let e = verify_family(&tokens.join(" "), None, Some(start), "s").unwrap_err();
        assert!(super::super::is_not_a_win(&e), "{e:#}");
        assert!(format!("{e:#}").contains("move 1 ("), "{e:#}");
        let e = verify_family(
            "38",
            Some((Game::freecell(), Game::freecell().rules)),
            None,
            "s",
        )
        .unwrap_err();
        assert!(super::super::is_usage_problem(&e), "{e:#}");
    }
}
