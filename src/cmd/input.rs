//! Shared input handling: a deal number, a deal file or a board file, read into a checked
//! [`Board`].

use anyhow::{Context, Result};
use fcauto_deals::text::opening_not_text;
pub use fcauto_deals::text::{looks_like_pickle, text_of};
use fcauto_deals::{ms_deal, parse_deal_number, Board};
use fcauto_solver::annotated::strip_annotations;
use fcauto_solver::validator::apply_checked;
use fcauto_solver::{FcsVerdict, SolutionJson, StepMove};
use std::io::Read;
use std::path::{Path, PathBuf};

/// True for the path `-`, which stands for standard input (an input) or standard output (an
/// output).
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How messages name an input or output: `<what> from standard input` for `-`, else
/// `<what> <path>`.
pub fn name(path: &Path, what: &str) -> String {
    if is_stdio(path) {
        format!("{what} from standard input")
    } else {
        format!("{what} {}", path.display())
    }
}

/// A game's start as a file or an option gives it: the MS deal number when known, and the
/// position.
pub type Start = (Option<u64>, Board);

/// Read at most `max` bytes of `path` (`-`: standard input) as UTF-8 text: more than `max`
/// bytes (`/dev/zero`, a wrong file) is refused without reading it all. `what` names the
/// input in errors (`board file`, `solution`); `hint` says what size to expect.
pub fn read_text_capped(path: &Path, what: &str, max: usize, hint: &str) -> Result<String> {
    let not_text = |why| anyhow::anyhow!("{}: not UTF-8 text ({why})", name(path, what));
    let bytes = read_up_to(path, what, max)?;
    if bytes.len() > max {
        // A large file that is no text at all (a picture, a pickle) is named by its kind.
        if let Some(why) = opening_not_text(&bytes) {
            return Err(not_text(why));
        }
        return Err(too_large(path, what, max, hint));
    }
    text_of(bytes).map_err(not_text)
}

/// Read at most `max` bytes of `path` (`-`: standard input), as [`read_text_capped`] does,
/// for inputs that may be binary (a PySolFC saved game).
pub fn read_bytes_capped(path: &Path, what: &str, max: usize, hint: &str) -> Result<Vec<u8>> {
    let bytes = read_up_to(path, what, max)?;
    if bytes.len() > max {
        return Err(too_large(path, what, max, hint));
    }
    Ok(bytes)
}

/// The "too large" error of [`read_bytes_capped`] and [`read_text_capped`].
fn too_large(path: &Path, what: &str, max: usize, hint: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "{}: too large (over {} KiB; {hint})",
        name(path, what),
        max / 1024
    )
}

/// At most `max + 1` bytes of `path` (`-`: standard input): one more than `max` tells that
/// there were more.
fn read_up_to(path: &Path, what: &str, max: usize) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let read = if is_stdio(path) {
        std::io::stdin()
            .lock()
            .take(max as u64 + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(max as u64 + 1).read_to_end(&mut bytes))
    };
    read.with_context(|| format!("cannot read {}", name(path, what)))?;
    Ok(bytes)
}

/// Load the initial board from a deal number (already checked by clap's parser,
/// [`fcauto_deals::parse_deal_number`]) or a board file: Freecell Solver's format or a
/// one-line position string ([`fcauto_deals::position`]). Returns
/// the deal number too when there is one.
pub fn load_board(deal: Option<u64>, board: Option<&Path>) -> Result<Start> {
    match (deal, board) {
        (Some(n), None) => Ok((Some(n), ms_deal(n)?)),
        (None, Some(path)) => {
            let text = read_board_text(path)?;
            // A byte-order mark is fine in every kind of board file.
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            if let Some(kind) = json_not_object(text) {
                anyhow::bail!(
                    "{} is {kind}, not a board: --board reads one board, as the object `fcauto deal N --format json` writes, the start in `fcauto solve --format json`'s, Freecell Solver's board text or a one-line position string",
                    name(path, "board file")
                );
            }
            if looks_like_json(text) {
                let file = name(path, "board file");
                let solution = serde_json::from_str::<serde_json::Value>(text)
                    .is_ok_and(|v| v.get("moves").is_some());
                if solution {
                    return solution_json_start(text, &file);
                }
                let (n, b) = deal_json(text).with_context(|| file.clone())?;
                return Ok((Some(n), b));
            }
            match fcauto_deals::position::parse_any(text) {
                Ok(b) => Ok((None, b)),
                Err(e) => not_a_board(text, &name(path, "board file"), e),
            }
        }
        (Some(_), Some(_)) => anyhow::bail!("give either a deal number or --board FILE, not both"),
        (None, None) => anyhow::bail!("give a deal number or --board FILE"),
    }
}

/// A `--board` file that is no board: the start it holds when it is a solution that names
/// one (fc-solve's `-p -t` output: its first position; a move list with a `# start:` line,
/// as `analyze --report`'s `game.txt`), else one line naming what it is (fc-solve's output
/// without positions or of a game it did not solve, a move list), else the board parser's
/// error `e`, which names each problem with its line and token.
fn not_a_board(text: &str, file: &str, e: fcauto_deals::BoardError) -> Result<Start> {
    // fc-solve's output, or the part of it up to its first position (helper-50: cut after its
    // first block, its separators were read as cascades).
    let fcs = fcauto_solver::fcs_output_kind(text).is_some();
    if fcs || has_fcs_position(text) {
        match fcs_start(text) {
            Ok(Some(start)) => return Ok(start),
            Ok(None) => {}
            Err(why) if fcs => return Err(why.context(file.to_string())),
            // A board of fc-solve's format written by hand (a `Foundations:` line), not its
            // output: the board parser's own words (helper-52: it was called fc-solve's first
            // position).
            Err(_) => return Err(anyhow::Error::new(e).context(file.to_string())),
        }
    }
    if fcs {
        if let Some(line) = position_after_a_move(text) {
            // A block cut from the middle of fc-solve's output (helper-58: "it holds no
            // board", with a position in it).
            anyhow::bail!(
                "{file} is part of Freecell Solver's output: its first position (line {line}) is printed after a move, so it is not the start of those moves; to take that position as the board, remove the `Move` lines"
            );
        }
        if let Some(v) = fcs_not_solved(text) {
            anyhow::bail!(
                "{file} is Freecell Solver's output for a game it did not solve ({v}): it prints no position; give the board fc-solve read, or the deal number instead"
            );
        }
        anyhow::bail!(
            "{file} is Freecell Solver's solution output without its positions (fc-solve prints them with -p -t): it holds no board; give the board fc-solve read, or the deal number instead"
        );
    }
    if let Some(start) = annotated_start(text, file)? {
        return Ok(start);
    }
    if looks_like_move_list(text) {
        anyhow::bail!(
            "{file} is a move list (standard notation), not a board: give it as the solution, and its start with --deal N or --board FILE"
        );
    }
    Err(anyhow::Error::new(e).context(file.to_string()))
}

/// fc-solve's verdict when `text` is its output of a game it did not solve (its verdict
/// `NotSolved` or `LimitExceeded`), else `None`.
pub fn fcs_not_solved(text: &str) -> Option<FcsVerdict> {
    if !fcauto_solver::looks_like_fcs_output(text) {
        return None;
    }
    match fcauto_solver::parse_fcs_output(text) {
        Ok((v @ (FcsVerdict::NotSolved | FcsVerdict::LimitExceeded), _)) => Some(v),
        _ => None,
    }
}

/// The line (1-based) of the first `Foundations:` or `Freecells:` line of fc-solve's text
/// when a `Move` line comes before it.
fn position_after_a_move(text: &str) -> Option<usize> {
    let mut moved = false;
    for (i, l) in text.lines().enumerate() {
        let l = l.trim_start();
        if l.starts_with("Foundations:") || l.starts_with("Freecells:") {
            return moved.then_some(i + 1);
        }
        moved |= l.starts_with("Move ") || l.starts_with("Move:");
    }
    None
}

/// True when `text` has a line of fc-solve's position text (`Foundations:`, `Freecells:`).
fn has_fcs_position(text: &str) -> bool {
    text.lines()
        .map(str::trim_start)
        .any(|l| l.starts_with("Foundations:") || l.starts_with("Freecells:"))
}

/// True when `text` is a move list in standard notation and could be nothing else: every
/// token a move, one at least that no card reads as (`38`, `8a`: a broken board's `4D`, `AH`
/// read as moves too, helper-49/50), and no line of board text (`Foundations:`, `: KS`).
fn looks_like_move_list(text: &str) -> bool {
    let board_lines =
        has_fcs_position(text) || text.lines().any(|l| l.trim_start().starts_with(':'));
    let moves = strip_annotations(text).moves;
    let not_card = moves
        .split_whitespace()
        .any(|t| t.parse::<fcauto_deals::Card>().is_err());
    !board_lines && not_card && fcauto_solver::parse_standard(&moves).is_ok_and(|m| !m.is_empty())
}

/// The start a move list names on a `# start:` line (`analyze --report`'s `game.txt`), if
/// any.
///
/// # Errors
/// A `# start:` line that is not a position (or a `{` comment never closed), with its line.
fn annotated_start(text: &str, file: &str) -> Result<Option<Start>> {
    let a = strip_annotations(text);
    match a.problem {
        Some(problem) => anyhow::bail!("{file}: {problem}"),
        None => Ok(a.start),
    }
}

/// The start a solution file names itself, if any: a solution JSON's `board` or `deal`, the
/// first position of fc-solve's `-p -t` output, or a move list's `# start:` line
/// (`analyze --report`'s `game.txt`, `solve --format standard` of a board).
///
/// # Errors
/// A solution JSON that is not one, or whose `board` is no position or not its `deal`'s;
/// fc-solve's first position or a `# start:` line that is not a position.
pub fn own_start(text: &str, file: &str) -> Result<Option<Start>> {
    if looks_like_json(text) {
        let (sol, _) = fcauto_solver::parse_json(text).with_context(|| file.to_string())?;
        return Ok(match (solution_start(&sol, file)?, sol.deal) {
            (Some(start), _) => Some(start),
            (None, Some(n)) => Some((Some(n), json_deal(n, file)?)),
            (None, None) => None,
        });
    }
    if fcauto_solver::fcs_output_kind(text).is_some() || has_fcs_position(text) {
        if let Some(start) = fcs_start(text).with_context(|| file.to_string())? {
            return Ok(Some(start));
        }
    }
    annotated_start(text, file)
}

/// The first position of fc-solve's `-p -t` output (`fcauto solve --format fcs`), if it
/// prints one before its first move: its first block of position lines (`Foundations:`,
/// `Freecells:`, the `: ` cascade lines), up to a blank line or a move line; or, in output
/// without `-p -t`, its first position in the table layout
/// ([`fcauto_solver::parse_fcs_states`]).
///
/// # Errors
/// That block does not read as a board (named with its first line).
pub fn fcs_start(text: &str) -> Result<Option<Start>> {
    let position_line = |l: &str| {
        let l = l.trim_start();
        l.starts_with("Foundations:") || l.starts_with("Freecells:") || l.starts_with(':')
    };
    let move_line = |l: &str| {
        let l = l.trim_start();
        l.starts_with("Move ") || l.starts_with("Move:")
    };
    // Without `-p -t` fc-solve draws its positions in its table layout: the first, printed
    // before any move, is the start.
    let table_start = || -> Result<Option<Start>> {
        // Only the text before the first move: a later position's problems are the
        // replay's to name, not the start's (helper-64).
        let lines: Vec<&str> = text.lines().collect();
        let before = lines
            .iter()
            .position(|l| move_line(l))
            .unwrap_or(lines.len());
        let states = fcauto_solver::parse_fcs_states(&lines[..before].join("\n"))?;
        Ok(states
            .into_iter()
            .next()
            .filter(|(n, _)| *n == 0)
            .map(|(_, b)| (None, b)))
    };
    let lines: Vec<&str> = text.lines().collect();
    let Some(first) = lines.iter().position(|l| position_line(l) || move_line(l)) else {
        return table_start();
    };
    if move_line(lines[first]) {
        return table_start();
    }
    let block: Vec<&str> = lines[first..]
        .iter()
        .take_while(|l| !l.trim().is_empty() && !move_line(l))
        .copied()
        .collect();
    // Blank lines in front, so that the parser's line numbers are the file's.
    let numbered = "\n".repeat(first) + &block.join("\n");
    let board = fcauto_deals::position::parse_any(&numbered).map_err(|e| {
        anyhow::anyhow!(
            "fc-solve's first position (from line {}) is not a board: {e}",
            first + 1
        )
    })?;
    Ok(Some((None, board)))
}

/// The start a solution JSON carries: its `board`'s cascades, with its `freecells` and
/// `foundations` (absent ones empty, as `solve` leaves them out), and its `deal`. None
/// without a `board`.
///
/// # Errors
/// A `board` that is not a legal position (duplicate or missing cards, too many freecells),
/// or one that is not its `deal`'s.
pub fn solution_start(sol: &SolutionJson, name: &str) -> Result<Option<Start>> {
    let Some(cascades) = &sol.board else {
        return Ok(None);
    };
    let mut start = Board::from_cascades(cascades.clone());
    if let Some(cells) = &sol.freecells {
        anyhow::ensure!(
            cells.len() == fcauto_deals::FREECELLS,
            "{name}: its `freecells` lists {} slots, not {}",
            cells.len(),
            fcauto_deals::FREECELLS
        );
        start.freecells.copy_from_slice(cells);
    }
    start.foundations = sol.foundations.unwrap_or([0; 4]);
    start
        .check()
        .map_err(|e| anyhow::anyhow!("{name}: its `board` is not a position: {e}"))?;
    if let Some(n) = sol.deal {
        anyhow::ensure!(
            fcauto_deals::ms_deal(n).is_ok_and(|d| d == start),
            "{name}: its `deal` ({n}) and its `board` are different positions"
        );
    }
    Ok(Some((sol.deal, start)))
}

/// The start of `fcauto solve --format json`'s output (`text`, from the file named `file`):
/// its `board` (with `freecells` and `foundations`), else its `deal`.
///
/// The deal a solution JSON's `deal` names, dealt.
///
/// # Errors
/// A number out of range, named with the file and the field (helper-63: "deal number 0 is
/// out of range" read as a command-line error).
pub fn json_deal(n: u64, file: &str) -> Result<Board> {
    ms_deal(n).with_context(|| format!("{file}: the solution's `deal` {n} is not a deal number"))
}

/// # Errors
/// Not a solution JSON ([`fcauto_solver::parse_json`]), a start that is not a position or
/// contradicts its `deal`, or neither `board` nor `deal`.
fn solution_json_start(text: &str, file: &str) -> Result<Start> {
    let (sol, _) = fcauto_solver::parse_json(text).with_context(|| file.to_string())?;
    match (solution_start(&sol, file)?, sol.deal) {
        (Some(start), _) => Ok(start),
        (None, Some(n)) => Ok((Some(n), json_deal(n, file)?)),
        (None, None) => anyhow::bail!(
            "{file}: a solution JSON with neither `board` nor `deal`: it names no start"
        ),
    }
}

/// Where the start a solution is checked from came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartGiven {
    /// `--deal N`.
    Deal,
    /// `--board FILE`.
    Board,
    /// The solution file itself: its first printed position ([`fcs_start`]).
    Own,
}

/// The start `--deal`/`--board` give is not the one the input names or holds: a usage
/// problem (exit 2) in `verify` as in `analyze` (helper-63: `verify` said 1, `analyze` 2);
/// nothing about the moves was checked yet.
#[derive(Debug)]
pub struct StartConflict(pub String);

impl std::fmt::Display for StartConflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StartConflict {}

/// True when `e` (or an error it wraps) is a [`StartConflict`].
pub fn is_start_conflict(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.is::<StartConflict>())
}

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
    };
    let mut b = board.clone();
    let mut states = states.iter().peekable();
    for k in 0..=moves.len() {
        while let Some((_, s)) = states.next_if(|(n, _)| *n == k) {
            if k == 0 {
                if *s != b {
                    let msg = format!("fc-solve's output starts from another board than {other}");
                    return Err(match given {
                        StartGiven::Own => anyhow::anyhow!(msg),
                        _ => StartConflict(msg).into(),
                    });
                }
            } else {
                anyhow::ensure!(
                    *s == b,
                    "the position fc-solve prints after move {k} is not the one its moves lead to"
                );
            }
        }
        if k == moves.len() || apply_checked(&mut b, &moves[k]).is_err() {
            break;
        }
    }
    Ok(())
}

/// True when `text` is a JSON object: its first character (after spaces and a byte-order
/// mark) is `{`, and the next one `"` or `}`. A move list may start with a `{...}` comment.
pub fn looks_like_json(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    t.strip_prefix('{')
        .is_some_and(|rest| matches!(rest.trim_start().chars().next(), Some('"' | '}') | None))
}

/// What `text` is when it is JSON but no object (an array, a string, `true`, `null`), in
/// words (`"a JSON array"`): the JSON files fcauto reads are objects, and no board or move
/// text starts as these do, so such a file is named for what it is rather than read as board
/// or move text (helper-54: a list of solutions was read as annotated notation). `None` for
/// an object and for text that is not JSON (`38`, a number, is a move in standard notation).
pub fn json_not_object(text: &str) -> Option<&'static str> {
    let t = text.trim_start_matches('\u{feff}').trim();
    if t.starts_with('[') {
        return Some("a JSON array");
    }
    match serde_json::from_str::<serde_json::Value>(t).ok()? {
        serde_json::Value::String(_) => Some("a JSON string"),
        serde_json::Value::Bool(_) => Some("JSON true or false"),
        serde_json::Value::Null => Some("JSON null"),
        _ => None,
    }
}

/// `fcauto deal N --format json`'s output: the deal number and its cascades.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealJson {
    /// The Microsoft deal number (read as `617` or `"ms617"`:
    /// [`fcauto_deals::msdeal::deserialize_deal`]).
    #[serde(deserialize_with = "fcauto_deals::msdeal::deserialize_deal")]
    pub deal: u64,
    /// The 8 cascades, each deepest card first (cards as `AH`, `TD`).
    pub board: Vec<Vec<fcauto_deals::Card>>,
}

/// Read [`DealJson`] text back as a board. Errors: other JSON (named as not `deal --format
/// json`'s), or cascades that are not that deal's as dealt.
fn deal_json(text: &str) -> Result<(u64, Board)> {
    let d: DealJson = serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
        anyhow::anyhow!(
            "JSON that is not `fcauto deal N --format json`'s ({e}); --board reads that, `fcauto solve --format json`'s output (its start), Freecell Solver's board text (as `fcauto deal N` prints it) or a one-line position string"
        )
    })?;
    let dealt = ms_deal(d.deal)?;
    anyhow::ensure!(
        d.board == dealt.cascades,
        "its cascades are not those of deal {} as dealt (`fcauto deal {}` prints them)",
        d.deal,
        d.deal
    );
    Ok((d.deal, dealt))
}

/// Largest `--board` file read, bytes: a board is a few hundred bytes, but a solution that
/// names its start (fc-solve's `-p -t -sam` output, about 150 KiB for a long solution) is
/// read for it too; the board parser refuses board text over
/// [`fcauto_deals::board::MAX_BOARD_TEXT`] itself.
pub const MAX_BOARD_FILE: usize = 16 << 20;

/// The text of a board file (`-`: standard input), read no further than one byte past
/// [`MAX_BOARD_FILE`] (so `/dev/zero` or a huge file is refused, not read into memory).
/// Errors: unreadable, too large, or not UTF-8.
fn read_board_text(path: &Path) -> Result<String> {
    let text = read_text_capped(
        path,
        "board file",
        MAX_BOARD_FILE,
        "a board is a few hundred bytes, a solution naming its start a few hundred kilobytes",
    )?;
    // fc-solve's output given as a start reads whatever its whitespace.
    Ok(fcauto_solver::solution::tidy_fcs_output(text))
}

/// The output format of a command with `--format` and `-o FILE`: the one given; else the one
/// `FILE`'s extension names (by `by_extension`, lower case: `x.png` is PNG); else `default`.
/// A format given that differs from the one the name says is written as given, with a note
/// naming both (`-o board.svg --format png`). A name whose extension is a format this command
/// does not write (`deal -o a.html`) gets the default, with a note saying so. A hidden name
/// (`.png`) counts as its extension.
pub fn output_format<F: Copy + PartialEq + clap::ValueEnum>(
    given: Option<F>,
    output: Option<&Path>,
    by_extension: fn(&str) -> Option<F>,
    default: F,
) -> F {
    let path = output.filter(|p| !is_stdio(p));
    let extension = path.and_then(extension_of);
    let named = extension.as_deref().and_then(by_extension);
    let word = |f: F| {
        f.to_possible_value()
            .map_or(String::new(), |v| v.get_name().to_string())
    };
    if let (None, None, Some(e), Some(p)) = (given, named, extension.as_deref(), path) {
        if FORMAT_EXTENSIONS.contains(&e) {
            crate::note!(
                "fcauto: note: writing {} into {}: this command writes no {e} (--format names \
                 those it writes)",
                word(default),
                p.display()
            );
        }
    }
    if let (Some(g), Some(n), Some(p)) = (given, named, path) {
        if g != n {
            crate::note!(
                "fcauto: note: writing {} into {}, whose name says {} (as --format asks)",
                word(g),
                p.display(),
                word(n)
            );
        }
    }
    given.or(named).unwrap_or(default)
}

/// Extensions that name a file format a user may expect `-o` to write: those some fcauto
/// command writes, and common picture and document formats none writes (`x.jpg` would
/// otherwise get text without a word).
const FORMAT_EXTENSIONS: [&str; 25] = [
    "json", "svg", "png", "html", "htm", "fcs", "txt", "board", "jpg", "jpeg", "gif", "webp",
    "bmp", "tif", "tiff", "pdf", "eps", "ps", "svgz", "avif", "heic", "ico", "xml", "gz", "zip",
];

/// The extension of `path`'s file name, lower case, trailing dots left out; a hidden name
/// with no other dot (`.png`) counts as its extension.
fn extension_of(path: &Path) -> Option<String> {
    // Trailing dots are no part of it (`x.png.` is named as a PNG, helper-45).
    let name = path.file_name()?.to_string_lossy();
    let name = Path::new(name.trim_end_matches('.'));
    let e = match name.extension() {
        Some(e) => e.to_string_lossy(),
        None => name.to_str()?.strip_prefix('.')?.into(),
    };
    Some(e.to_ascii_lowercase())
}

/// Write `bytes` to `path` by a temporary file in its folder renamed over it: a link of that
/// name is replaced, never written through, and no reader sees a half-written file.
///
/// # Errors
/// The temporary file cannot be made or written, or the rename fails (the path named).
pub fn write_replacing(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let write = || -> std::io::Result<()> {
        // Made as any new file is (0o666 less the umask), not a temporary file's 0o600.
        let mut tmp = tempfile::Builder::new()
            .prefix(".fcauto-write-")
            .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
            .tempfile_in(dir)?;
        tmp.write_all(bytes)?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    };
    write().with_context(|| format!("cannot write {}", path.display()))
}

/// Fail early (before any long work) when `path`'s folder does not exist or is a file, or
/// `path` cannot be written (`-`, standard output, is always fine).
pub fn check_output_path(path: &Path) -> Result<()> {
    if is_stdio(path) {
        return Ok(());
    }
    check_parent(path)?;
    // `newdir/` names a folder even when none exists: writing it would fail only after the
    // work.
    // (So does `newdir/.` or `newdir/..`: helper-56 saw `-o newdir/.` refused only after
    // the solve.)
    let text = path.as_os_str().to_string_lossy();
    let names_folder =
        text.ends_with(std::path::MAIN_SEPARATOR) || text.ends_with("/.") || text.ends_with("/..");
    anyhow::ensure!(
        !path.is_dir(),
        "cannot write {}: it is a folder (give a file name)",
        path.display()
    );
    if names_folder {
        // `file/` with `file` a file names no folder either.
        let bare = Path::new(text.trim_end_matches(['/', '.']));
        match std::fs::metadata(bare) {
            Ok(m) if !m.is_dir() => anyhow::bail!(
                "cannot write {}: {} is a file, and a name ending in / names a folder \
                 (give the file name without the /)",
                path.display(),
                bare.display()
            ),
            _ => anyhow::bail!(
                "cannot write {}: a name ending in / names a folder (give a file name)",
                path.display()
            ),
        }
    }
    probe_writable(path)
}

/// An output file `path` (of option `option`) may be written: it does not exist, or is no
/// regular file (a device, a FIFO: written into), or is standard output (`-`), or
/// `ours(path)` says it is a file of the kind this option writes that fcauto wrote (so a
/// later run replaces its own), or `force` (`--force`). Never lost: a file of yours.
///
/// # Errors
/// An existing file of another kind, named with what it is not (`kind`) and what to do.
pub fn check_replace(
    path: &Path,
    force: bool,
    ours: impl Fn(&Path) -> bool,
    kind: &str,
    option: &str,
) -> Result<()> {
    // Through a link: the file it leads to (a link leading nowhere counts as a file).
    let exists = std::fs::symlink_metadata(path).is_ok_and(|m| !m.file_type().is_dir())
        && std::fs::metadata(path).map_or(true, |m| m.is_file());
    if force || is_stdio(path) || !exists || ours(path) {
        return Ok(());
    }
    if std::fs::metadata(path).is_err() {
        anyhow::bail!(
            "{} is a symbolic link to a file that does not exist (writing would make that \
             file): give another {option} name, or add --force to write it",
            path.display()
        );
    }
    anyhow::bail!(
        "{} exists and is not {kind}: give another {option} name, or add --force to replace it",
        path.display()
    )
}

/// Fail now when `path` cannot be written (a read-only file or folder, `/proc/x`): an
/// existing file is opened to append (nothing changes); for a new one, a file of a name no
/// one else uses is made in its folder and removed ([`probe_folder`]). Nothing is ever made at
/// `path` itself: a
/// file made and removed there could be taken by another program (or a second fcauto, as two
/// `batch run`s on one new database are) in between, and be lost.
/// Devices and FIFOs are left to the writing (opening a FIFO waits for its reader).
fn probe_writable(path: &Path) -> Result<()> {
    let cannot = || format!("cannot write {}", path.display());
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => {
            std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .with_context(cannot)?;
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            probe_folder_of(path).map_err(|e| {
                anyhow::anyhow!(
                    "cannot write {}: its folder takes no new file ({e})",
                    path.display()
                )
            })?;
        }
        Err(e) => return Err(e).with_context(cannot),
    }
    Ok(())
}

/// Whether a file can be made in the folder of `path` (its parent, `.` for a bare name), by
/// [`probe_folder`]; `path` itself is not touched.
///
/// # Errors
/// The OS error of making that file (a read-only folder, `/proc`, a missing folder).
pub fn probe_folder_of(path: &Path) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    probe_folder(dir)
}

/// Whether a file can be made in the folder `dir`: one of a name no one else uses
/// (`.fcauto-probe-PID-N`) is made there and removed.
///
/// # Errors
/// The OS error of making it, which names no path (the caller names the user's).
pub fn probe_folder(dir: &Path) -> std::io::Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let probe = dir.join(format!(".fcauto-probe-{}-{n}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Fail early (before any long work) when the output folder `dir` cannot be made or written
/// into: it is a file, it or the folder it goes in takes no new file (read-only, `/proc`),
/// or the folder it goes in does not exist (`dir` itself may be new:
/// [`create_output_folder`] makes it, but not its parents, as a file output's folder must
/// exist too).
pub fn check_output_folder(dir: &Path) -> Result<()> {
    let cannot = |e: std::io::Error| {
        anyhow::anyhow!(
            "cannot write into {}: it takes no new file ({e})",
            dir.display()
        )
    };
    if dir.is_dir() {
        return probe_folder(dir).map_err(cannot);
    }
    anyhow::ensure!(
        !dir.exists(),
        "cannot write into {}: it is a file, not a folder",
        dir.display()
    );
    check_parent(dir)?;
    // The folder it will be made in must take it.
    probe_folder_of(dir).map_err(|e| {
        anyhow::anyhow!(
            "cannot make the folder {}: the folder it goes in takes no new file ({e})",
            dir.display()
        )
    })
}

/// Make the output folder `dir` if it is not there (its parent must be: see
/// [`check_output_folder`]).
pub fn create_output_folder(dir: &Path) -> Result<()> {
    match std::fs::create_dir(dir) {
        Err(e) if !(e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir()) => {
            Err(e).with_context(|| format!("cannot create the folder {}", dir.display()))
        }
        _ => Ok(()),
    }
}

/// The folder `path` goes in must exist: else the error names the missing folder, or the
/// file where a folder should be.
fn check_parent(path: &Path) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !dir.is_dir() {
        // The nearest part of the folder's path that exists: a file there is the problem.
        match dir.ancestors().find(|a| a.exists()) {
            Some(a) if !a.as_os_str().is_empty() && !a.is_dir() => anyhow::bail!(
                "cannot write {}: {} is a file, not a folder",
                path.display(),
                a.display()
            ),
            _ => anyhow::bail!(
                "cannot write {}: folder {} does not exist",
                path.display(),
                dir.display()
            ),
        }
    }
    Ok(())
}

/// Refuse to write the output over the input file (the same file by any path: symbolic or
/// hard link, as the `same-file` crate compares device and inode): the user's board would be
/// lost. `what` names the input and what is done with it (`board file being solved`, `game
/// file being analysed`). An output that does not exist yet is never the input.
pub fn check_not_input(output: &Path, input: &Path, what: &str) -> Result<()> {
    if is_stdio(output) || is_stdio(input) {
        return Ok(());
    }
    let same = same_file::is_same_file(output, input).unwrap_or(false);
    anyhow::ensure!(
        !same,
        "cannot write {}: it is the {what} (choose another output path)",
        output.display()
    );
    Ok(())
}

/// True when paths `a` and `b` name the same place, whether or not it exists yet: each
/// resolved through the file system as far as it exists (links followed, `..` and `.`
/// taken out), the rest compared as written; or, where both exist, one file or folder by
/// device and inode. Standard streams (`-`) are never one place.
pub fn same_place(a: &Path, b: &Path) -> bool {
    if is_stdio(a) || is_stdio(b) {
        return false;
    }
    // Device and inode for places that exist (a bind mount reaches one folder by two paths).
    resolved(a) == resolved(b) || same_file::is_same_file(a, b).unwrap_or(false)
}

/// `p` with its longest existing ancestor canonicalized, the rest appended as written.
fn resolved(p: &Path) -> PathBuf {
    let p = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(p)
    };
    let mut tail = Vec::new();
    let mut head = p.as_path();
    loop {
        if let Ok(c) = std::fs::canonicalize(head) {
            return tail
                .iter()
                .rev()
                .fold(c, |acc: PathBuf, part| acc.join(part));
        }
        match (head.parent(), head.file_name()) {
            (Some(parent), Some(name)) => {
                tail.push(name.to_os_string());
                head = parent;
            }
            _ => return p,
        }
    }
}

/// `--max-states N`: a whole number of positions, at least 1 (a search stores its start).
///
/// # Errors
/// Not a number, or 0.
pub fn parse_max_states(s: &str) -> std::result::Result<usize, String> {
    match whole_number(s, "number of positions", 1)? {
        0 => Err("0 positions: a search stores at least its start (give 1 or more)".into()),
        n => Ok(n),
    }
}

/// A whole number for an option whose values are `what` (`"move number"`) and start at
/// `least` (a smaller one is left to the caller to name): clap's own message for these
/// ("invalid digit found in string") does not say what to give.
///
/// # Errors
/// Not a whole number (a negative included), or too large to hold.
pub fn whole_number(s: &str, what: &str, least: usize) -> std::result::Result<usize, String> {
    use std::num::IntErrorKind;
    s.trim().parse::<usize>().map_err(|e| match e.kind() {
        IntErrorKind::PosOverflow => {
            format!("`{s}` is too large for a {what} (at most {})", usize::MAX)
        }
        _ => format!("`{s}` is not a {what} (a whole number, {least} or more)"),
    })
}

/// `solve --step K`: a move number, 0 (the start) or more.
///
/// # Errors
/// As [`whole_number`].
pub fn parse_step(s: &str) -> std::result::Result<usize, String> {
    whole_number(s, "move number", 0)
}

/// An output folder option (`analyze --pictures`/`--report`, `batch report --plot`): clap's
/// value parser, so `-` is a usage error (exit 2) instead of a folder named `-`: a folder of
/// files cannot go to standard output.
///
/// # Errors
/// `-`, or an empty name.
pub fn parse_output_folder(s: &str) -> std::result::Result<std::path::PathBuf, String> {
    if s.is_empty() {
        return Err("an empty name is no folder: give a folder name".into());
    }
    if is_stdio(Path::new(s)) {
        return Err(
            "this writes a folder of files, which cannot go to standard output: give a folder name, not `-`"
                .into(),
        );
    }
    Ok(s.into())
}

/// A batch database path (`batch run --db`, `batch merge`'s files, `batch report`'s): clap's
/// value parser, so `-` is a usage error (exit 2) instead of a database file named `-`:
/// SQLite needs a file, not standard input or output.
///
/// # Errors
/// `-`, or an empty name.
#[cfg_attr(not(feature = "batch"), allow(dead_code))]
pub fn parse_database_path(s: &str) -> std::result::Result<std::path::PathBuf, String> {
    if s.is_empty() {
        return Err("an empty name is no file: give a file name".into());
    }
    if is_stdio(Path::new(s)) {
        return Err(
            "a database is a file, not standard input or output: give a file name, not `-`".into(),
        );
    }
    Ok(s.into())
}

/// The first `n` bytes (at most) of the file `path` as text (invalid UTF-8 replaced), to
/// tell a file's kind by how it opens; empty when it cannot be read.
pub fn file_opening(path: &Path, n: usize) -> String {
    use std::io::Read;
    let mut head = Vec::with_capacity(n);
    let _ = std::fs::File::open(path).and_then(|f| f.take(n as u64).read_to_end(&mut head));
    String::from_utf8_lossy(&head).into_owned()
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

/// Read a deal file (`-`: standard input), at most 64 KiB; see [`parse_deal_file`] for what
/// it may hold. Errors name the file and, for its content, the line.
pub fn read_deal_file(path: &Path) -> Result<DealFile> {
    let text = read_text_capped(
        path,
        "deal file",
        64 * 1024,
        "a deal file is one line, MS_DEAL_NUMBER=<deal number>",
    )?;
    parse_deal_file(&text).map_err(|e| anyhow::anyhow!("{}: {e}", name(path, "deal file")))
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

/// Each of `names` in `dir` is absent, or a file `ours` recognises as one fcauto wrote that
/// is none of `inputs`: so that writing them there replaces no file of the user's. For the
/// files a command writes under fixed names into a folder it is given (`analyze`'s
/// pictures, `batch report --plot`'s charts).
///
/// # Errors
/// The first that is not, named, with what to do.
pub fn check_replaceable(
    dir: &Path,
    names: impl IntoIterator<Item = String>,
    inputs: &[&Path],
    ours: impl Fn(&Path) -> bool,
) -> Result<()> {
    let inputs: Vec<PathBuf> = inputs
        .iter()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect();
    for name in names {
        let path = dir.join(&name);
        if !path.exists() {
            continue;
        }
        let is_input = std::fs::canonicalize(&path).is_ok_and(|p| inputs.contains(&p));
        // Not through a link: writing would replace the file it points to.
        let link = path
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink());
        anyhow::ensure!(
            !is_input && !link && path.is_file() && ours(&path),
            "cannot write into {}: it holds {name}, which {}",
            dir.display(),
            if is_input {
                "is an input; give another folder"
            } else if link {
                "is a link (the file it points to would be replaced); give another folder"
            } else if path.is_dir() {
                "is a folder; give another folder"
            } else {
                "fcauto did not draw (it would be replaced); give another folder, or remove it if \
                 an fcauto from before 2026-12-02 drew it (those carry no mark of fcauto's)"
            }
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Probing a new output path never makes a file there, even for an instant: another
    /// program opening the path meanwhile (a second `batch run` on one new database) would get
    /// a file that is then removed under it. Before, the probe made and removed it.
    #[test]
    fn probing_a_new_path_never_makes_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.sqlite");
        let stop = std::sync::atomic::AtomicBool::new(false);
        let seen = std::thread::scope(|s| {
            let watcher = s.spawn(|| {
                let mut seen = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    seen += usize::from(path.symlink_metadata().is_ok());
                }
                seen
            });
            for _ in 0..5000 {
                probe_writable(&path).unwrap();
            }
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            watcher.join().unwrap()
        });
        assert_eq!(seen, 0, "the probe made {} for a while", path.display());
        assert!(!path.exists());
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "a probe file was left"
        );
        // A folder that cannot be written is still named before the work.
        let err = probe_writable(Path::new("/proc/fcauto-probe")).unwrap_err();
        assert!(
            format!("{err:#}").contains("cannot write /proc/fcauto-probe"),
            "{err:#}"
        );
    }

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
