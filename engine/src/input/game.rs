//! The game `analyze` reads, from its text: a move list (standard notation, fc-solve's
//! move lines or our solution JSON, with the start it names or `--deal`/`--board`'s), or a
//! position (a board file, PySolFC's *Export current layout*, a position string), into a
//! [`Game`]: the start position and the moves as written. A PySolFC saved or held game is
//! [`super::pysol_game`]'s.
//!
//! The start `--deal`/`--board` give is a [`Given`]: loaded only when the text needs it, by
//! the caller's function (reading the board file is the caller's).

use super::{check_fcs_states, Start, StartGiven};
use anyhow::{Context, Result};
use fcauto_deals::Board;
use fcauto_solver::document::{self, DocError, DocKind, SolutionDoc, TextMoves};
use fcauto_solver::{parse_fcs_states, parse_standard, standard, FcsVerdict, StepMove};

/// Largest input file read, bytes: a move list of a long game is a few kilobytes, a saved
/// game some tens, fc-solve's `-p -t` output of a long solution about 150 KiB.
pub const MAX_INPUT: usize = 16 << 20;

/// The start `--deal N` or `--board FILE` give a game: which was given, and how to load
/// it (the deal dealt, the board file read), called only when the game needs it.
#[derive(Clone, Copy)]
pub struct Given<'a> {
    /// `--deal N`.
    pub deal: Option<u64>,
    /// `--board FILE` was given.
    pub board: bool,
    /// Loads the start given: the MS deal's number (when known) and its position.
    pub load: &'a dyn Fn() -> Result<Start>,
}

impl Given<'_> {
    /// True when `--deal` or `--board` was given.
    fn any(&self) -> bool {
        self.deal.is_some() || self.board
    }

    /// The option given, as messages name it.
    fn flag(&self) -> &'static str {
        if self.deal.is_some() {
            "--deal"
        } else {
            "--board"
        }
    }
}

/// A usage problem (exit 2), not a bad file: a move list without `--deal`/`--board`, a
/// `--deal`/`--board` that contradicts the start the file holds, or a PySolFC game given on
/// standard input.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageProblem(pub String);

/// Fail with a [`UsageProblem`].
macro_rules! usage_problem {
    ($($t:tt)*) => {
        return Err(UsageProblem(format!($($t)*)).into())
    };
}

/// What kind of file the game came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Moves in standard notation, fc-solve's move lines or our solution JSON.
    MoveList,
    /// A position only (board file, PySolFC's exported layout, position string): the
    /// current position is analysed, there are no moves.
    Position,
    /// A PySolFC saved game (pickles), or a held one (`held`: written by *Hold and quit*).
    PysolGame {
        /// The file is a held game (`gstats.holded`).
        held: bool,
    },
}

impl Kind {
    /// How messages and reports name the kind.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::MoveList => "a move list",
            Kind::Position => "a position",
            Kind::PysolGame { held: false } => "a PySolFC saved game",
            Kind::PysolGame { held: true } => "a PySolFC held game",
        }
    }
}

/// A game as read: where it starts and the moves as written (a cascade-to-cascade move may
/// leave its card count open, `count: None`; the replay stage settles it).
#[derive(Clone, Debug)]
pub struct Game {
    /// The MS deal number, when known (`--deal`, the saved game's seed, the JSON's `deal`).
    pub deal: Option<u64>,
    /// The position before the first move.
    pub start: Board,
    /// The moves in the order played.
    pub moves: Vec<StepMove>,
    /// What the file was.
    pub kind: Kind,
}

/// A game file that is text (not a PySolFC pickle): a move list, a position or our JSON;
/// `name` names the file in errors, `given` the start `--deal`/`--board` give.
///
/// # Errors
/// Not UTF-8; empty; a move list without a start or with a bad token (line and token
/// named); a board with a problem (line and token); a file that is none of these ("unknown
/// file format"); a [`UsageProblem`].
pub fn read_text_game(name: &str, bytes: Vec<u8>, given: Given) -> Result<Game> {
    let text = fcauto_deals::text::text_of(bytes).map_err(|at| {
        anyhow::anyhow!(
            "{name}: not UTF-8 text ({at}), and not a PySolFC saved game (a pickle); {EXPECTED}"
        )
    })?;
    let doc = SolutionDoc::new(&text);
    let text = doc.text();
    anyhow::ensure!(
        !text.trim().is_empty(),
        "{name}: the file is empty; {EXPECTED}"
    );
    match (doc.kind(), doc.board()) {
        (DocKind::Json, _) => return read_json(&doc, name, given),
        (DocKind::Board, Some(position)) => {
            let game = Game {
                deal: None,
                start: position.clone(),
                moves: Vec::new(),
                kind: Kind::Position,
            };
            agree_start(given, name, &game)?;
            return Ok(game);
        }
        _ => {}
    }
    // PySolFC's options.cfg: its `[general]` is no standard-notation move.
    if text.lines().any(|l| l.trim() == "[general]") {
        anyhow::bail!(
            "{name} is PySolFC's options file (options.cfg), not a game: read it with `fcauto stats --options`"
        );
    }
    if cards_not_moves(&doc) {
        if let Err(board_error) = fcauto_deals::position::parse_any(text) {
            anyhow::bail!("{name}: read as a board: {board_error}");
        }
    }
    read_move_list(&doc, name, given)
}

/// True for a text of card tokens, not moves (one that did not read as a board: a card
/// twice, one missing), whose problem is the board parser's, naming line and token, rather
/// than the move reader's "`7S` is not a standard-notation move". Cards that could be moves
/// (`3c`, `2h`) are not counted; eight that cannot are a board. fc-solve's output, whose
/// positions hold cards between its moves, is left to the move reader.
fn cards_not_moves(doc: &SolutionDoc) -> bool {
    if doc.fcs_kind().is_some() {
        return false;
    }
    // Outside comments (`#` lines, `{...}`): an annotated move list may name cards there.
    let annotated = doc.annotations();
    let moves = match annotated.problem {
        None => annotated.moves,
        Some(_) => doc.text().to_string(),
    };
    let cards = moves
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .filter(|t| {
            let t = t.trim_start_matches(':');
            t.parse::<fcauto_deals::Card>().is_ok() && standard::parse_token(t).is_none()
        })
        .count();
    cards >= 8
}

/// What `analyze` reads, for "unknown file format" messages.
const EXPECTED: &str = "expected a move list (standard notation: `3a 38 a3 1h`, or fc-solve's move lines) with --deal N or --board FILE, a board (fc-solve's board text, PySolFC's Export current layout, a position string), or a PySolFC saved/held game";

/// `--deal`/`--board` with a file that holds its own start (a position, a PySolFC game):
/// they may repeat it, not contradict it.
///
/// # Errors
/// The start given cannot be loaded; a [`UsageProblem`] when it is another.
pub fn agree_start(given: Given, name: &str, game: &Game) -> Result<()> {
    if !given.any() {
        return Ok(());
    }
    let (_, start) = (given.load)()?;
    let given = given.flag();
    if start != game.start {
        usage_problem!(
            "{name} is {} and holds its own start position, and {given} gives another: leave out {given}",
            game.kind.describe()
        );
    }
    Ok(())
}

/// The start of a move list: the start the file names (`own`: a report's `game.txt`,
/// `solve --format fcs`'s text), which `--deal`/`--board` may repeat but not contradict;
/// else `--deal` or `--board`; else an error asking for `--deal`. Only fc-solve's output
/// (`fcs`) may number the freecells of the start given otherwise (as `verify` reads it).
fn move_list_start(given: Given, name: &str, own: Option<Start>, fcs: bool) -> Result<Start> {
    let load = given.load;
    let flag = given.flag();
    match (given.any(), own) {
        (false, Some(own)) => Ok(own),
        (false, None) => usage_problem!(
            "{name} is a move list: give the deal it starts from with --deal N (or the start position with --board FILE)"
        ),
        (true, None) => load(),
        (true, Some((own_deal, own_start))) => {
            let (deal, loaded) = load()?;
            // fc-solve prints a board whose `Freecells:` line has gaps with its freecells
            // left-aligned: the same start, numbered as its moves number it.
            let start = match fcs {
                true => fcauto_solver::fc_solve_numberings(&loaded, &[(0, own_start.clone())])
                    .remove(0),
                false => loaded,
            };
            if start != own_start {
                usage_problem!(
                    "{name} names its own start ({}), and {flag} gives another: leave out {flag}",
                    own_deal.map_or("a position".to_string(), |n| format!("deal {n}"))
                );
            }
            Ok((deal.or(own_deal), start))
        }
    }
}

/// Standard notation (fc-solve's `-sn` output and our annotated `game.txt` included), else
/// fc-solve's move lines: read by the one reader `verify` uses too
/// ([`SolutionDoc::text_moves`]), the counts left as written.
fn read_move_list(doc: &SolutionDoc, name: &str, given: Given) -> Result<Game> {
    let text = doc.text();
    let fcs = doc.fcs_kind().is_some();
    let (moves, own) = match doc.text_moves().map_err(named(name))? {
        // No moves: `game.txt` of a game with none, `solve`'s `# unsolvable`.
        TextMoves::Nothing { start } => (Vec::new(), start),
        TextMoves::Standard { moves, start, .. } => {
            let moves = parse_standard(&moves).with_context(|| name.to_string())?;
            // fc-solve's `-p -t -sam -sn` output prints its start before its first move: no
            // --deal is asked for, as `verify` asks none.
            let own = match start {
                None if fcs => doc.fcs_start().map_err(named(name))?,
                own => own,
            };
            (moves, own)
        }
        TextMoves::Fcs { verdict, moves } => fcs_move_lines(doc, name, verdict, moves)?,
        TextMoves::Unrecognised => fcs_move_lines(doc, name, FcsVerdict::Unknown, Vec::new())?,
    };
    let states = if fcs {
        parse_fcs_states(text).with_context(|| name.to_string())?
    } else {
        Vec::new()
    };
    let numbered = own.is_some();
    let says = match (given.deal, given.board) {
        (Some(_), _) => StartGiven::Deal,
        (None, true) => StartGiven::Board,
        (None, false) => StartGiven::Own,
    };
    let (deal, start) = move_list_start(given, name, own, fcs)?;
    // A `--board` whose `Freecells:` line has gaps: fc-solve's moves number its freecells
    // left-aligned, so that numbering is taken when the moves are legal only in it.
    let start = if numbered {
        start
    } else {
        let boards = fcauto_solver::fc_solve_numberings(&start, &states);
        let legal = boards
            .iter()
            .position(|b| crate::analysis::replay::replay(b, &moves).is_ok());
        boards[legal.unwrap_or(0)].clone()
    };
    check_fcs_states(&start, &moves, &states, says).with_context(|| name.to_string())?;
    Ok(Game {
        deal,
        start,
        moves,
        kind: Kind::MoveList,
    })
}

/// fc-solve's move lines (`verdict` and `moves`, as [`SolutionDoc::text_moves`] read them:
/// its total and printed positions checked) and the start it prints before them; its text
/// of a deal it could not solve, or of a won board, has a start and no moves.
fn fcs_move_lines(
    doc: &SolutionDoc,
    name: &str,
    verdict: FcsVerdict,
    moves: Vec<StepMove>,
) -> Result<(Vec<StepMove>, Option<Start>)> {
    let text = doc.text();
    let unknown = || anyhow::anyhow!("{name}: unknown file format: {EXPECTED}");
    let start = doc.fcs_start().map_err(named(name))?;
    // fc-solve's text of a deal it could not solve, or of a won board, has a start and
    // no moves.
    if moves.is_empty()
        && start.is_none()
        && matches!(verdict, FcsVerdict::NotSolved | FcsVerdict::LimitExceeded)
    {
        anyhow::bail!(
            "{name}: fc-solve's output says it did not solve the game ({verdict}), and prints no moves and no position: analyse the board itself (the board file fc-solve read)"
        );
    }
    let no_moves = matches!(verdict, FcsVerdict::Solved | FcsVerdict::NotSolved);
    if moves.is_empty() && !(no_moves && start.is_some()) {
        return Err(board_problem(text, name).unwrap_or_else(unknown));
    }
    Ok((moves, start))
}

/// A reader's error named with the file (`game file x.txt: ...`).
fn named(name: &str) -> impl Fn(DocError) -> anyhow::Error + '_ {
    move |e| anyhow::Error::new(e).context(name.to_string())
}

/// A text that looks like a board (fc-solve's `Foundations:`/`Freecells:` lines, or mostly
/// card tokens) but did not parse: the board parser's own message, naming line and token.
fn board_problem(text: &str, name: &str) -> Option<anyhow::Error> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let cards = tokens
        .iter()
        .filter(|t| {
            t.trim_end_matches(':')
                .parse::<fcauto_deals::Card>()
                .is_ok()
        })
        .count();
    let board_like = text.contains("Freecells:")
        || text.contains("Foundations:")
        || fcauto_deals::position::looks_like_position(text)
        || (tokens.len() >= 8 && cards * 2 > tokens.len());
    if !board_like {
        return None;
    }
    let e = fcauto_deals::position::parse_any(text).err()?;
    Some(anyhow::anyhow!("{name}: read as a board: {e}"))
}

/// Our solution JSON (`fcauto solve --format json`): its moves, from its `deal`, its own
/// `cascades` (with its `freecells` and `foundations`), or `--deal`/`--board`.
fn read_json(doc: &SolutionDoc, name: &str, given: Given) -> Result<Game> {
    let (sol, moves) = doc.json().map_err(named(name))?;
    let own_start = document::solution_start(&sol).map_err(named(name))?;
    let (deal, start) = match (sol.deal, given.deal, given.any()) {
        (Some(own), None, false) => (Some(own), document::json_deal(own).map_err(named(name))?),
        (Some(own), Some(n), _) if own != n => {
            usage_problem!("{name} is for deal {own}, not deal {n}")
        }
        _ => move_list_start(given, name, own_start, false)?,
    };
    Ok(Game {
        deal,
        start,
        moves,
        kind: Kind::MoveList,
    })
}
