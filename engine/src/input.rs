//! The start a game is checked from: a board file's text read into a position (Freecell
//! Solver's board text, a position string, `fcauto deal N --format json`'s output, or a
//! solution that names its start), a deal file's text read into its deal number, and the
//! printed positions of fc-solve's output checked against that start; and PySolFC's saved
//! and held games read from their bytes ([`pysol_game`]); the game `analyze` reads from a
//! file's text ([`game`]). Text or bytes in, positions out: reading files is the caller's.

pub mod game;
pub mod named;
pub mod pysol_game;
pub use named::family_json_moves;
pub use pysol_game::{
    read_pysol_game, AnyGame, FamilyGame, FreecellGame, PysolGame, PysolGameError,
};

use anyhow::{Context, Result};
use fcauto_deals::{ms_deal, parse_deal_number, Board, PysolNumber};
pub use fcauto_solver::document::Start;
use fcauto_solver::document::{self, DocKind, SolutionDoc};
use fcauto_solver::validator::apply_checked;
use fcauto_solver::{DealJson, StepMove};

/// The start a board file's `text` gives (`file` names it in errors: `board file x.txt`):
/// Freecell Solver's board text or a one-line position string ([`fcauto_deals::position`]),
/// `fcauto deal N --format json`'s output (with its deal number), or a solution that names
/// its start ([`document::SolutionDoc::own_start`]: a solution JSON's, fc-solve's first
/// printed position, a `# start:` line). fc-solve's output reads whatever its whitespace,
/// and a byte-order mark is fine in every kind.
///
/// # Errors
/// A position or JSON that names another game of the family (a [`StartConflict`], saying to
/// give `--game`);
/// JSON that is no object, or not one of those; a solution that names no start (named for
/// what it is); else the board parser's error, naming each problem with its line and token.
pub fn board_start(text: &str, file: &str) -> Result<Start> {
    // A position or JSON of another game of the family is no standard FreeCell board: the
    // caller reads standard FreeCell only when no --game was given.
    let named = fcauto_solver::family::named_game(text).filter(|n| !n.rules.is_standard());
    if let Some(fcauto_solver::family::NamedGame { game, rules, .. }) = named {
        let mut options = Vec::new();
        if game.name != fcauto_deals::Game::freecell().name {
            options.push(format!("--game {}", game.name));
        }
        if rules.freecells != game.rules.freecells {
            options.push(format!("--freecells {}", rules.freecells));
        }
        return Err(StartConflict(format!(
            "{file} is a position of {} ({} cascades, {}), not of standard FreeCell: give {}",
            game.name,
            rules.cascades,
            fcauto_deals::plural(rules.freecells, "freecell"),
            options.join(" ")
        ))
        .into());
    }
    let doc = SolutionDoc::board_file(text);
    if let Some(kind) = doc.not_object() {
        anyhow::bail!(
            "{file} is {kind}, not a board: --board reads one board, as the object `fcauto deal N --format json` writes, the start in `fcauto solve --format json`'s, Freecell Solver's board text or a one-line position string"
        );
    }
    let text = doc.text();
    match (doc.kind(), doc.board()) {
        (DocKind::Board, Some(b)) => Ok((None, b.clone())),
        (DocKind::Json, _) => {
            let solution = serde_json::from_str::<serde_json::Value>(text)
                .is_ok_and(|v| v.get("moves").is_some());
            if solution {
                return solution_json_start(&doc, file);
            }
            deal_json(text).with_context(|| file.to_string())
        }
        _ => match fcauto_deals::position::parse_any(text) {
            Ok(b) => Ok((None, b)),
            Err(e) => not_a_board(&doc, file, e).map_err(|err| shape_hint(err, text, file)),
        },
    }
}

/// A `--board` file that is no board: the start it holds when it is a solution that names
/// one (fc-solve's `-p -t` output: its first position; a move list with a `# start:` line,
/// as `analyze --report`'s `game.txt`), else one line naming what it is (an SVG picture or
/// HTML page, fc-solve's output without positions or of a game it did not solve, a move
/// list), else the board parser's
/// error `e`, which names each problem with its line and token.
fn not_a_board(doc: &SolutionDoc, file: &str, e: fcauto_deals::BoardError) -> Result<Start> {
    if let Some(kind) = markup_kind(doc.text()) {
        anyhow::bail!(
            "{file} is {kind} (as `--format svg` or `html` draws), not a board: give the deal it shows (--deal N), or a board file"
        );
    }
    // fc-solve's output, or the part of it up to its first position (cut after its first
    // block: its separators are no cascades).
    let fcs = doc.fcs_kind().is_some();
    if fcs || doc.has_fcs_position() {
        match doc.fcs_start() {
            Ok(Some(start)) => return Ok(start),
            Ok(None) => {}
            Err(why) if fcs => return Err(anyhow::Error::new(why).context(file.to_string())),
            // A board of fc-solve's format written by hand (a `Foundations:` line), not its
            // output: the board parser's own words, not "fc-solve's first position".
            Err(_) => return Err(anyhow::Error::new(e).context(file.to_string())),
        }
    }
    if fcs {
        return Err(fcs_holds_no_board(doc, file));
    }
    let (_, named) = doc
        .annotated()
        .map_err(|p| anyhow::anyhow!("{file}: {p}"))?;
    if let Some(start) = named {
        return Ok(start);
    }
    if doc.looks_like_move_list() {
        anyhow::bail!(
            "{file} is a move list (standard notation), not a board: give it as the solution, and its start with --deal N or --board FILE"
        );
    }
    Err(anyhow::Error::new(e).context(file.to_string()))
}

/// What `text` is when it is a picture or page, by its opening markup (an XML declaration
/// and comments before it allowed): an SVG picture or an HTML page.
fn markup_kind(text: &str) -> Option<&'static str> {
    let lower: String = text
        .trim_start()
        .chars()
        .take(4096)
        .collect::<String>()
        .to_ascii_lowercase();
    if !lower.starts_with('<') {
        return None;
    }
    if lower.starts_with("<!doctype html") || lower.contains("<html") {
        Some("an HTML page")
    } else if lower.contains("<svg") {
        Some("an SVG picture")
    } else {
        None
    }
}

/// The games of the family with `cascades` cascades and at least `n` freecells (Eight Off's
/// 8), as the rest of the hint to give `--freecells n`: `, or --game eight_off (Eight Off:
/// 8 freecells, and its own rules)`; empty when there is none.
fn games_with_freecells(n: usize, cascades: usize) -> String {
    fcauto_deals::GAMES
        .iter()
        .filter(|g| g.rules.cascades as usize == cascades && g.rules.freecells as usize >= n)
        .map(|g| {
            format!(
                ", or --game {} ({}: {} freecells, and its own rules)",
                g.name, g.pysol_name, g.rules.freecells
            )
        })
        .collect()
}

/// `err` (board text that is no standard FreeCell board) with, when the text reads as a
/// board of another game of the family (Seahaven Towers' 10 cascades) or of more freecells,
/// the hint to name it ([`OtherShape`]: `verify` refuses such a board as a start of another
/// game, exit 2).
fn shape_hint(err: anyhow::Error, text: &str, file: &str) -> anyhow::Error {
    let standard = fcauto_deals::Game::freecell();
    // More freecells than four, on FreeCell's cascades: FreeCell with that many (not
    // another game that has them, with other rules).
    let hint = match (
        fitting_freecells(text, standard),
        fitting_game(text, standard),
    ) {
        (Some(n), _) => format!(
            "{file} reads as a board of {}: give --freecells {n} (FreeCell's rules){}",
            fcauto_deals::plural(n, "freecell"),
            games_with_freecells(n as usize, standard.rules.cascades as usize)
        ),
        (None, Some(g)) => format!(
            "{file} reads as a board of {} cascades, as {}'s: give --game {}",
            g.rules.cascades, g.name, g.name
        ),
        (None, None) => return err,
    };
    OtherShape(format!("{hint} (board text names no game): {err:#}")).into()
}

/// Board text that is no standard FreeCell board but reads as one of another game of the
/// family, or of more freecells (the message names the options to give).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct OtherShape(pub String);

/// The first game of the family other than `game` whose cascades and freecells `text`
/// reads as a position of, if any.
pub(crate) fn fitting_game(
    text: &str,
    game: &fcauto_deals::Game,
) -> Option<&'static fcauto_deals::Game> {
    fcauto_deals::GAMES
        .iter()
        .filter(|g| g.name != game.name)
        .find(|g| fcauto_deals::Layout::parse(text, &g.rules).is_ok())
}

/// The fewest freecells beyond `game`'s (up to [`fcauto_deals::game::MAX_FREECELLS`]) with
/// which `text` reads as a position of `game`'s cascades, if any.
fn fitting_freecells(text: &str, game: &fcauto_deals::Game) -> Option<u8> {
    let more = game.rules.freecells + 1..=fcauto_deals::game::MAX_FREECELLS as u8;
    more.into_iter()
        .find(|&n| fcauto_deals::Layout::parse(text, &game.rules.with_freecells(n)).is_ok())
}

/// Why fc-solve's output that prints no start is no board: its first position comes after
/// a move (a block cut from its middle), it did not solve the game, or it was run without
/// `-p -t`.
fn fcs_holds_no_board(doc: &SolutionDoc, file: &str) -> anyhow::Error {
    if let Some(line) = doc.position_after_a_move() {
        return anyhow::anyhow!(
            "{file} is part of Freecell Solver's output: its first position (line {line}) is printed after a move, so it is not the start of those moves; to take that position as the board, remove the `Move` lines"
        );
    }
    if let Some(v) = doc.fcs_not_solved() {
        return anyhow::anyhow!(
            "{file} is Freecell Solver's output for a game it did not solve ({v}): it prints no position; give the board fc-solve read, or the deal number instead"
        );
    }
    anyhow::anyhow!(
        "{file} is Freecell Solver's solution output without its positions (fc-solve prints them with -p -t): it holds no board; give the board fc-solve read, or the deal number instead"
    )
}

/// The start of `fcauto solve --format json`'s output (`text`, from the file named `file`):
/// its `cascades` (with `freecells` and `foundations`), else its `deal`.
///
/// # Errors
/// Not a solution JSON ([`fcauto_solver::parse_json`]), a start that is not a position or
/// contradicts its `deal`, or neither `cascades` nor `deal`.
fn solution_json_start(doc: &SolutionDoc, file: &str) -> Result<Start> {
    let named = |e: document::DocError| anyhow::Error::new(e).context(file.to_string());
    let (sol, _) = doc.json().map_err(named)?;
    match (document::solution_start(&sol).map_err(named)?, sol.deal) {
        (Some(start), _) => Ok(start),
        (None, Some(n)) => Ok((Some(n), document::json_deal(n).map_err(named)?)),
        (None, None) => anyhow::bail!(
            "{file}: a solution JSON with neither `cascades` nor `deal`: it names no start"
        ),
    }
}

/// Read a deal's JSON back as a board with its Microsoft deal number: [`DealJson`] (`deal N
/// --format json`), a position object without its deal ([`position_json`]), or the JSON `deal --game freecell N --format json` writes (its `game`
/// and `pysol_id`, a PySolFC number: [`game_deal_json`]). Errors: other JSON (named as not
/// `deal --format json`'s), or a position that is not that deal's as dealt.
fn deal_json(text: &str) -> Result<Start> {
    let text = text.trim_start_matches('\u{feff}');
    if let Ok(mut v) = serde_json::from_str::<serde_json::Value>(text) {
        if v.get("game").is_some() {
            return game_deal_json(v);
        }
        // A position alone (no `deal`, or `"deal": null`): the shape the API and MCP use.
        if v.get("deal").is_none_or(serde_json::Value::is_null) {
            if let Some(o) = v.as_object_mut() {
                o.remove("deal");
            }
            return position_json(v);
        }
    }
    let d: DealJson = serde_json::from_str(text).map_err(|e| {
        anyhow::anyhow!(
            "JSON that is not `fcauto deal N --format json`'s ({e}); --board reads that, `fcauto solve --format json`'s output (its start), Freecell Solver's board text (as `fcauto deal N` prints it) or a one-line position string"
        )
    })?;
    let dealt = ms_deal(d.deal)?;
    anyhow::ensure!(
        d.position.board() == dealt,
        "its cascades, freecells and foundations are not those of deal {} as dealt (`fcauto deal {}` prints them)",
        d.deal,
        d.deal
    );
    Ok((Some(d.deal), dealt))
}

/// A position object (`{"cascades": ..., "freecells": ..., "foundations": ...}`) as a start
/// of no deal. Errors: fields that are no position, named; an illegal position.
fn position_json(v: serde_json::Value) -> Result<Start> {
    let p: fcauto_solver::PositionJson = serde_json::from_value(v).map_err(|e| {
        anyhow::anyhow!("JSON that is no position ({e}): a position is `{{\"cascades\": [[...], ...], \"freecells\": [...], \"foundations\": [...]}}`")
    })?;
    let board = p.board();
    board.check()?;
    Ok((None, board))
}

/// `fcauto deal --game freecell N --format json`'s output (standard FreeCell named as a game
/// of the family, [`fcauto_solver::family::named_game`] having found four freecells).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct GameDealRead {
    game: String,
    #[serde(default)]
    pysol_id: Option<u32>,
    #[serde(with = "fcauto_solver::family::notation::deal_json")]
    deal: Option<PysolNumber>,
    cascades: Vec<Vec<fcauto_deals::Card>>,
    freecells: Vec<Option<fcauto_deals::Card>>,
    #[serde(default)]
    foundations: [u8; 4],
}

/// A standard FreeCell deal's JSON with its `game` (`v`): its position, which must be the
/// one PySolFC deals for its number (a number or `"msN"`), with the Microsoft deal number
/// when the number names one (`msN`, or below 32000; from 32000 on PySolFC's Mersenne Twister
/// deals it, and the board stands alone).
fn game_deal_json(v: serde_json::Value) -> Result<Start> {
    let d: GameDealRead = serde_json::from_value(v).map_err(|e| {
        anyhow::anyhow!("JSON that is not `fcauto deal --game freecell N --format json`'s ({e})")
    })?;
    let game = fcauto_deals::Game::find(&d.game)?;
    // A game of FreeCell's rules but for its freecells (`freecell_2_freecells`) with four.
    let rules = game.rules.with_freecells(d.freecells.len().min(8) as u8);
    let id_named = match d.pysol_id {
        Some(id) => format!(" and `pysol_id` {id}"),
        None => String::new(),
    };
    anyhow::ensure!(
        rules.is_standard() && d.pysol_id.is_none_or(|id| id == game.pysol_id),
        "its `game` {}{id_named} is no standard FreeCell deal (PySolFC's game {} is {}, here with {})",
        d.game,
        game.pysol_id,
        game.name,
        fcauto_deals::plural(rules.freecells, "freecell"),
    );
    let number = d
        .deal
        .ok_or_else(|| anyhow::anyhow!("`deal` is null: the deal JSON names its number"))?;
    let layout = fcauto_deals::Layout {
        cascades: d.cascades,
        freecells: d.freecells,
        foundations: d.foundations,
    };
    let dealt = dealt_as(game, &rules, number, &layout)?;
    let board = dealt
        .to_board()
        .ok_or_else(|| anyhow::anyhow!("deal {number} is not a standard FreeCell board"))?;
    Ok((number.microsoft_deal(true).ok(), board))
}

/// The layout `game` deals for `number` under `rules`, when it is `layout`: a deal's JSON
/// names its number and its position, which must agree.
///
/// # Errors
/// The number deals nothing under `rules`, or another position.
pub(crate) fn dealt_as(
    game: &'static fcauto_deals::Game,
    rules: &fcauto_deals::Rules,
    number: PysolNumber,
    layout: &fcauto_deals::Layout,
) -> Result<fcauto_deals::Layout> {
    let dealt = fcauto_deals::deal_with_rules(game, rules, number)?;
    anyhow::ensure!(
        *layout == dealt,
        "its cascades, freecells and foundations are not those of {} deal {number} as dealt (`fcauto deal --game {} {number}` prints them)",
        game.name,
        game.name
    );
    Ok(dealt)
}

/// Where the start a solution is checked from came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartGiven {
    /// `--deal N`.
    Deal,
    /// `--board FILE`.
    Board,
    /// The solution file itself: its first printed position.
    Own,
    /// A position a page or an agent gives (the service's `verify`).
    Position,
}

/// The start `--deal`/`--board` give is not the one the input names or holds: a usage
/// problem (exit 2) in `verify` as in `analyze`; nothing about the moves was checked yet.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StartConflict(pub String);

/// The positions printed in fc-solve's `-p -t -sam` output must be those its moves lead to
/// from `board`: the first one `board` itself (else the output is for another deal), each
/// later one the board after as many moves as precede it. The replay stops at the first
/// illegal move, which [`fcauto_solver::validate`] then reports. Positions with no move
/// lines between them (`-p -t` without `-sam`) are named as such. `given` says where
/// `board` came from.
pub fn check_fcs_states(
    board: &Board,
    moves: &[StepMove],
    states: &[(usize, Board)],
    given: StartGiven,
) -> Result<()> {
    let before_first = states.iter().filter(|(n, _)| *n == 0).count();
    if before_first > 1 {
        anyhow::ensure!(
            before_first < states.len(),
            "fc-solve's output prints {before_first} positions and no move lines: run fc-solve with -sam (as well as -p -t) so that its moves are printed"
        );
        anyhow::bail!(
            "fc-solve's output prints {before_first} positions before its first move: one start is expected"
        );
    }
    let other = match given {
        StartGiven::Deal => "the deal given (wrong --deal or --board?)",
        StartGiven::Board => "the board given (wrong --deal or --board?)",
        StartGiven::Own => {
            "its first printed position (a position printed without its Foundations: line?)"
        }
        StartGiven::Position => "the position given",
    };
    let mut b = board.clone();
    let mut states = states.iter().peekable();
    for k in 0..=moves.len() {
        while let Some((_, s)) = states.next_if(|(n, _)| *n == k) {
            if k == 0 && *s != b {
                let msg = format!("fc-solve's output starts from another board than {other}");
                return Err(match given {
                    StartGiven::Own => anyhow::anyhow!(msg),
                    _ => StartConflict(msg).into(),
                });
            }
            anyhow::ensure!(
                k == 0 || *s == b,
                "the position fc-solve prints after move {k} is not the one its moves lead to"
            );
        }
        if k == moves.len() || apply_checked(&mut b, &moves[k]).is_err() {
            break;
        }
    }
    Ok(())
}

/// The key of a deal file's one line: `MS_DEAL_NUMBER=617`.
pub const DEAL_FILE_KEY: &str = "MS_DEAL_NUMBER";

/// A deal file (`--deal-file`, the workflow's `deal_seed.txt`) read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealFile {
    /// The deal number.
    pub deal: u64,
    /// The line that gave it, trimmed (`MS_DEAL_NUMBER=617`).
    pub line: String,
}

/// Parse a deal file's text: one `MS_DEAL_NUMBER=<deal number>` line (the number as
/// [`parse_deal_number`] reads it: `617` or PySolFC's `ms617`; optionally in quotes). Blank
/// lines, `#` comment lines and a `#` comment after the value are skipped; spaces around
/// the key, `=` and the value, CRLF line ends and a UTF-8 byte-order mark are fine; the key
/// is read in any case. Errors (with the line number): a line that is not `KEY=VALUE`, another
/// key, the key twice, a value that is not a deal number, or no such line at all.
pub fn parse_deal_file(text: &str) -> Result<DealFile, String> {
    let cut = |s: &str| -> String { s.chars().take(40).collect() };
    let mut found: Option<(usize, DealFile)> = None;
    for (i, raw) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        let (n, line) = (i + 1, raw.trim());
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(format!(
                "line {n}: `{}` is not {DEAL_FILE_KEY}=<deal number>",
                cut(line)
            ));
        };
        if !key.trim().eq_ignore_ascii_case(DEAL_FILE_KEY) {
            return Err(format!(
                "line {n}: unknown key `{}` (a deal file holds {DEAL_FILE_KEY}=<deal number>)",
                cut(key.trim())
            ));
        }
        if let Some((first, _)) = &found {
            return Err(format!(
                "line {n}: {DEAL_FILE_KEY} again (first given on line {first})"
            ));
        }
        let value = value.split('#').next().unwrap_or("").trim();
        let unquoted = ['"', '\'']
            .iter()
            .find_map(|q| value.strip_prefix(*q)?.strip_suffix(*q))
            .unwrap_or(value);
        let deal = parse_deal_number(unquoted).map_err(|e| format!("line {n}: {e}"))?;
        found = Some((
            n,
            DealFile {
                deal,
                line: line.to_string(),
            },
        ));
    }
    found
        .map(|(_, d)| d)
        .ok_or_else(|| format!("no {DEAL_FILE_KEY}=<deal number> line"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deal_files_in_their_usual_shapes() {
        for text in [
            "MS_DEAL_NUMBER=617",
            "MS_DEAL_NUMBER=617\n",
            "\u{feff}MS_DEAL_NUMBER=617\r\n",
            "# the deal\r\n\r\n  MS_DEAL_NUMBER = 617  \r\n# end\r\n",
            "ms_deal_number=ms617",
            "MS_DEAL_NUMBER=\"617\"  # quoted, with a comment",
            "MS_DEAL_NUMBER='MS617'",
        ] {
            let d = parse_deal_file(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(d.deal, 617, "{text:?}");
            assert!(d.line.to_ascii_uppercase().starts_with(DEAL_FILE_KEY));
        }
        assert_eq!(
            parse_deal_file("MS_DEAL_NUMBER=8589934591").unwrap().deal,
            (1 << 33) - 1
        );
    }

    #[test]
    fn bad_deal_files_name_the_line_and_the_problem() {
        for (text, want) in [
            ("", "no MS_DEAL_NUMBER=<deal number> line"),
            ("# only a comment\n\n", "no MS_DEAL_NUMBER"),
            ("617\n", "line 1: `617` is not MS_DEAL_NUMBER=<deal number>"),
            ("\nDEAL=617\n", "line 2: unknown key `DEAL`"),
            (
                "MS_DEAL_NUMBER=617\nMS_DEAL_NUMBER=618\n",
                "line 2: MS_DEAL_NUMBER again (first given on line 1)",
            ),
            (
                "MS_DEAL_NUMBER=\n",
                "line 1: deal number `` is not a whole number",
            ),
            (
                "MS_DEAL_NUMBER=abc",
                "line 1: deal number `abc` is not a whole number",
            ),
            ("MS_DEAL_NUMBER=0", "line 1: deal number 0 is out of range"),
            (
                "MS_DEAL_NUMBER=8589934592",
                "line 1: deal number 8589934592 is out of range",
            ),
            (
                "MS_DEAL_NUMBER=6 17",
                "line 1: deal number `6 17` is not a whole number",
            ),
        ] {
            let e = parse_deal_file(text).unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }
}
