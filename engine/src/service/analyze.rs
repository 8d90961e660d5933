//! [`analyze`]: where a game was lost, for a page or an agent: a start and the moves played
//! in standard notation, analysed as `fcauto analyze` does ([`crate::analysis`]: every
//! position evaluated, the losing and costly moves found) and answered with the review
//! ([`crate::analysis::review`]: moves to win per step, classes, accuracy). The game may
//! also be a PySolFC saved or held game, sent as base64 text ([`analyze_saved_in`], read by
//! [`crate::input::pysol_game`]). A game of the family other than standard FreeCell
//! (a [`Position::Family`], or a saved game of Baker's Game, Seahaven Towers, ...) is
//! analysed by the family analysis ([`crate::analysis::family`]: exact verdicts, every line
//! validated), answered in the same shape with its game named (`game`).

use super::family::FamilyPosition;
use super::game::{title, Position};
use super::solve::search_budget;
use super::{ServiceError, MAX_SOLUTION_BYTES};
use crate::analysis::evaluate::{self, Game, Settings, Stopped};
use crate::analysis::family::{
    confirm_costly_family_until, evaluate_family_until, parse_moves, replay_family, FamilyReplay,
    FamilySettings,
};
use crate::analysis::findings::{self, Findings};
use crate::analysis::replay::{self, Replay};
use crate::analysis::review::{review, Review};
use fcauto_deals::Board;
use fcauto_solver::family::FamilyMode;
use fcauto_solver::{Mode, StepMove};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Most moves a game analysed by the service may have (each position is searched or
/// followed along a known line; `fcauto analyze` takes up to
/// [`crate::analysis::MAX_MOVES`]).
pub const MAX_ANALYZE_MOVES: usize = 500;
/// Longest an analysis may run: then it is stopped (within one search) and refused.
pub const ANALYZE_TIME_CAP: Duration = Duration::from_secs(60);
/// Largest PySolFC saved or held game the service reads, bytes (before base64; a saved game
/// of a long game is some tens of kilobytes).
pub const MAX_SAVED_GAME_BYTES: usize = 256 * 1024;

/// What [`analyze`] answers: the start, the mode, the [`Findings`] (`moves`,
/// `first_losing_step`, `losing_between`, `alternative`, `costly`, `costly_threshold`,
/// `final`, `start_verdict`, `start_moves_to_win`) and the [`Review`] (`review`: `points`,
/// `classes`, `counts`, `accuracy`, `losing_step`).
#[derive(Serialize, Debug, Clone)]
pub struct AnalyzeOut {
    /// The game, for a game of the family other than standard FreeCell (`bakers_game`,
    /// `freecell with 2 freecells`); absent for standard FreeCell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The start as a one-line position string (naming its game, for a family game).
    pub start: String,
    /// The search mode.
    pub mode: Mode,
    /// Steps whose card count was open and read as the longest run that keeps the later moves
    /// legal.
    pub guessed_counts: Vec<usize>,
    /// What was found.
    #[serde(flatten)]
    pub findings: Findings,
    /// The review: moves to win per step, classes, accuracy.
    pub review: Review,
    /// Positions expanded by all searches.
    pub positions: u64,
    /// What the PySolFC saved or held game held, when one was analysed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saved_game: Option<SavedGameInfo>,
}

/// A PySolFC saved or held game as the service read it ([`analyze_saved_in`]).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct SavedGameInfo {
    /// PySolFC's game id (8 FreeCell, 45 Baker's Game, 9 Seahaven Towers, ...).
    pub pysol_id: u32,
    /// The deal number, when the seed is one: for FreeCell the Microsoft deal (`null` for
    /// PySolFC's own deals, whose start is the stored stacks with the moves taken back);
    /// for another game PySolFC's number as `fcauto deal --game G N` takes it.
    pub deal: Option<u64>,
    /// Written by *Hold and quit* (a held game) rather than *Save*.
    pub held: bool,
    /// The moves PySolFC recorded (its auto-drops included), in standard notation.
    pub moves: Vec<String>,
}

/// The start and moves of a PySolFC saved or held game sent as base64 text (`saved_game`),
/// with what it held.
///
/// # Errors
/// Over [`MAX_SAVED_GAME_BYTES`] (too large); text that is no base64 (bad input); bytes that
/// are no saved or held game (PySolFC's statistics named), a damaged one, another PySolFC
/// version, a game fcauto does not play (impossible).
pub fn saved_game(text: &str) -> Result<(Position, SavedGameInfo), ServiceError> {
    use base64::Engine as _;
    let text: String = text.split_ascii_whitespace().collect();
    if text.len() > MAX_SAVED_GAME_BYTES.div_ceil(3) * 4 {
        return Err(ServiceError::too_large(format!(
            "saved_game: a saved game is at most {MAX_SAVED_GAME_BYTES} bytes ({} of base64)",
            MAX_SAVED_GAME_BYTES.div_ceil(3) * 4
        )));
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text.as_bytes())
        .map_err(|e| {
            ServiceError::bad_input(format!(
                "saved_game: not base64 ({e}): send the file's bytes base64-encoded"
            ))
        })?;
    let name = "saved_game";
    let read = |e: crate::input::PysolGameError| ServiceError::impossible(e.to_string());
    let saved =
        crate::input::read_pysol_game(&bytes, std::path::Path::new(name), name).map_err(read)?;
    let (start, deal) = match saved.any_game(name).map_err(read)? {
        crate::input::AnyGame::Freecell(g) => (Position::Standard(g.start), g.deal),
        crate::input::AnyGame::Family(g) => {
            let deal = g.deal();
            (
                FamilyPosition::new(g.game, g.start).and_then(Position::of)?,
                deal,
            )
        }
    };
    let info = SavedGameInfo {
        pysol_id: saved.game().pysol_id,
        deal,
        held: saved.held,
        moves: saved.history.moves().to_vec(),
    };
    Ok((start, info))
}

/// [`analyze_in`] of a PySolFC saved or held game sent as base64 text ([`saved_game`]): its
/// start and the moves it recorded; the answer says what it held (`saved_game`).
///
/// # Errors
/// As [`saved_game`], then as [`analyze_in`].
pub fn analyze_saved_in<S: Send + 'static>(
    text: &str,
    opts: AnalyzeOptions,
    slot: S,
) -> Result<AnalyzeOut, ServiceError> {
    let (start, info) = saved_game(text)?;
    let mut out = analyze_in(&start, &info.moves.join(" "), opts, slot)?;
    out.saved_game = Some(info);
    Ok(out)
}

/// How to analyse: the search mode (`fast` or `short`), the position budget of each search
/// (1..=[`super::MAX_STATES`], default [`super::MAX_STATES`]) and the costly threshold
/// (moves; default [`crate::analysis::DEFAULT_COSTLY`]).
#[derive(Clone, Copy, Debug)]
pub struct AnalyzeOptions {
    /// The search mode.
    pub mode: Mode,
    /// Most positions one search stores.
    pub max_states: Option<usize>,
    /// A move is costly from this many moves on (at least 1).
    pub costly: Option<usize>,
}

/// `analyze`: replay `moves` (standard notation: `3a 38 a3`, one a line or space-separated;
/// an annotated game's comments, move numbers and marks read past) from `b` with the
/// validator, evaluate every position and answer the findings and the review. (`serve`
/// and MCP hold a solver permit through [`analyze_in`].)
///
/// # Errors
/// Moves text over [`MAX_SOLUTION_BYTES`] or more than [`MAX_ANALYZE_MOVES`] moves (too
/// large); a bad mode, budget or threshold (bad input); text that is no standard notation,
/// an illegal move, or an analysis over [`ANALYZE_TIME_CAP`] (impossible).
pub fn analyze(b: &Board, moves: &str, opts: AnalyzeOptions) -> Result<AnalyzeOut, ServiceError> {
    analyze_capped(b, moves, opts, ANALYZE_TIME_CAP, ())
}

/// [`analyze`] of a position of any game, holding `slot` (a solver permit) until the
/// analysis ends: past [`ANALYZE_TIME_CAP`] it is told to stop, and `slot` is dropped only
/// when it has. A family position's moves are read in the family's standard notation (`0`
/// the tenth cascade, `i` the eighth freecell) and its positions evaluated by the family
/// search (modes `fast` and `short`), whose "lost" comes only from a complete search.
pub fn analyze_in<S: Send + 'static>(
    p: &Position,
    moves: &str,
    opts: AnalyzeOptions,
    slot: S,
) -> Result<AnalyzeOut, ServiceError> {
    match p {
        Position::Standard(b) => analyze_capped(b, moves, opts, ANALYZE_TIME_CAP, slot),
        Position::Family(f) => family_capped(f, moves, opts, ANALYZE_TIME_CAP, slot),
    }
}

/// The costly threshold asked for (default [`crate::analysis::DEFAULT_COSTLY`]).
fn costly_of(opts: &AnalyzeOptions) -> Result<usize, ServiceError> {
    match opts.costly {
        Some(0) => Err(ServiceError::bad_input(
            "costly 0: a costly move makes the win at least 1 move longer (give 1 or more, or leave it out for 10)",
        )),
        Some(n) => Ok(n),
        None => Ok(crate::analysis::DEFAULT_COSTLY),
    }
}

/// [`analyze_in`] of a family position with the time cap `cap`.
pub(super) fn family_capped<S: Send + 'static>(
    p: &FamilyPosition,
    moves: &str,
    opts: AnalyzeOptions,
    cap: Duration,
    slot: S,
) -> Result<AnalyzeOut, ServiceError> {
    // `search_budget` refuses the optimal modes: fast or short is left.
    let settings = FamilySettings {
        mode: match opts.mode {
            Mode::Short => FamilyMode::Short,
            _ => FamilyMode::Fast,
        },
        max_states: Some(search_budget(opts.mode, opts.max_states)?),
    };
    let costly = costly_of(&opts)?;
    let moves = read_family_moves(moves)?;
    let game = replay_family(p.game, &p.rules, &p.layout, &moves)
        .map_err(|e| ServiceError::impossible(format!("{e:#}")))?;
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let go_on = &mut || !stopped.load(Ordering::Relaxed);
        let _ = tx.send(family_evaluated(&game, settings, costly, go_on).map(|r| (r, game)));
        drop(slot); // only now: the searches are over
    });
    let ((findings, positions), game) = match rx.recv_timeout(cap) {
        Ok(r) => r?,
        Err(_) => {
            stop.store(true, Ordering::Relaxed);
            return Err(over_cap(cap));
        }
    };
    Ok(AnalyzeOut {
        game: Some(title(p)),
        start: fcauto_deals::position::write_layout(p.game, &p.layout),
        mode: opts.mode,
        guessed_counts: game.guessed_counts,
        review: review(&findings),
        findings,
        positions,
        saved_game: None,
    })
}

/// The refusal of an analysis past its time cap `cap`.
fn over_cap(cap: Duration) -> ServiceError {
    ServiceError::impossible(format!(
        "the analysis did not finish within {} s (a long or hard game: `fcauto analyze` has no time cap)",
        cap.as_secs()
    ))
}

/// The moves of a family game's `text`, as [`read_moves`] caps them, in the family's
/// standard notation.
fn read_family_moves(text: &str) -> Result<Vec<crate::analysis::family::TextMove>, ServiceError> {
    if text.len() > MAX_SOLUTION_BYTES {
        return Err(ServiceError::too_large(format!(
            "a move list is at most {MAX_SOLUTION_BYTES} bytes"
        )));
    }
    let moves = parse_moves(text)
        .map_err(|e| ServiceError::impossible(format!("not standard notation: {e:#}")))?;
    too_many(moves.len())?;
    Ok(moves)
}

/// More than [`MAX_ANALYZE_MOVES`] moves: too large.
fn too_many(n: usize) -> Result<(), ServiceError> {
    if n > MAX_ANALYZE_MOVES {
        return Err(ServiceError::too_large(format!(
            "a game of {n} moves: the service analyses at most {MAX_ANALYZE_MOVES} (`fcauto analyze` takes up to {})",
            crate::analysis::MAX_MOVES
        )));
    }
    Ok(())
}

/// Every position of a family `game` evaluated (the undecided ones where the game may have
/// been lost searched again with a larger budget) and the costly moves confirmed, as for
/// standard FreeCell ([`evaluated`]), read into the [`Findings`]; with the positions
/// expanded.
fn family_evaluated(
    game: &FamilyReplay,
    settings: FamilySettings,
    costly: usize,
    go_on: &mut dyn FnMut() -> bool,
) -> Result<(Findings, u64), ServiceError> {
    let (mut evals, mut work) = evaluate_family_until(game, settings, go_on).map_err(failed)?;
    confirm_costly_family_until(&mut evals, game, settings, costly, &mut work, go_on)
        .map_err(failed)?;
    Ok((findings::find(game, &evals, costly), work.expanded))
}

/// An analysis's error in the service's words.
fn failed(e: anyhow::Error) -> ServiceError {
    if e.is::<Stopped>() {
        ServiceError::impossible("the analysis was stopped at its time cap")
    } else {
        ServiceError::impossible(format!("{e:#}"))
    }
}

/// [`analyze_in`] with the time cap `cap`.
pub(super) fn analyze_capped<S: Send + 'static>(
    b: &Board,
    moves: &str,
    opts: AnalyzeOptions,
    cap: Duration,
    slot: S,
) -> Result<AnalyzeOut, ServiceError> {
    let settings = Settings {
        mode: opts.mode,
        max_states: Some(search_budget(opts.mode, opts.max_states)?),
    };
    let costly = costly_of(&opts)?;
    let game = replay::replay(b, &read_moves(moves)?)
        .map_err(|e| ServiceError::impossible(format!("{e:#}")))?;
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let go_on = &mut || !stopped.load(Ordering::Relaxed);
        let _ = tx.send(evaluated(&game, settings, costly, go_on).map(|r| (r, game)));
        drop(slot); // only now: the searches are over
    });
    let (found, game) = match rx.recv_timeout(cap) {
        Ok(r) => r?,
        Err(_) => {
            stop.store(true, Ordering::Relaxed);
            return Err(over_cap(cap));
        }
    };
    let (findings, positions) = found;
    Ok(AnalyzeOut {
        game: None,
        start: fcauto_deals::position::write(b),
        mode: opts.mode,
        guessed_counts: game.guessed_counts,
        review: review(&findings),
        findings,
        positions,
        saved_game: None,
    })
}

/// The moves of `text`: at most [`MAX_SOLUTION_BYTES`], standard notation (annotations read
/// past), at most [`MAX_ANALYZE_MOVES`] moves.
fn read_moves(text: &str) -> Result<Vec<StepMove>, ServiceError> {
    if text.len() > MAX_SOLUTION_BYTES {
        return Err(ServiceError::too_large(format!(
            "a move list is at most {MAX_SOLUTION_BYTES} bytes"
        )));
    }
    let annotated = fcauto_solver::annotated::strip_annotations(text);
    if let Some(problem) = annotated.problem {
        return Err(ServiceError::impossible(format!(
            "not standard notation: {problem}"
        )));
    }
    let moves = fcauto_solver::parse_standard(&annotated.moves)
        .map_err(|e| ServiceError::impossible(format!("not standard notation: {e}")))?;
    too_many(moves.len())?;
    Ok(moves)
}

/// Every position of `game` evaluated and the costly moves confirmed, read into the
/// [`Findings`]; with the positions expanded.
fn evaluated(
    game: &Replay,
    settings: Settings,
    costly: usize,
    go_on: &mut dyn FnMut() -> bool,
) -> Result<(Findings, u64), ServiceError> {
    let fail = failed;
    let (mut evals, mut work) =
        evaluate::evaluate_until(&game.positions, &game.played, settings, go_on).map_err(fail)?;
    let g = Game {
        positions: &game.positions,
        played: &game.played,
    };
    evaluate::confirm_costly_until(&mut evals, g, settings, costly, &mut work, go_on)
        .map_err(fail)?;
    Ok((findings::find(game, &evals, costly), work.expanded))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> AnalyzeOptions {
        AnalyzeOptions {
            mode: Mode::Fast,
            max_states: None,
            costly: None,
        }
    }

    /// An analysis past its time cap is refused in words that say so, and the searches
    /// stop (the slot is given back).
    #[test]
    fn an_analysis_over_its_time_cap_is_refused_and_stopped() {
        let b = fcauto_deals::ms_deal(617).unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        struct Slot(std::sync::mpsc::Sender<()>);
        impl Drop for Slot {
            fn drop(&mut self) {
                let _ = self.0.send(());
            }
        }
        let e = analyze_capped(&b, "4a 46 4b", opts(), Duration::ZERO, Slot(tx)).unwrap_err();
        assert!(e.message.contains("did not finish within 0 s"), "{e}");
        rx.recv_timeout(Duration::from_secs(60))
            .expect("the slot is dropped once the searches stop");
    }

    #[test]
    fn a_saved_game_is_analysed_from_its_bytes() {
        use base64::Engine as _;
        let fixture = |p: &str| {
            std::fs::read(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../tests/fixtures")
                    .join(p),
            )
            .unwrap()
        };
        let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
        let held = b64(&fixture("pysolfc/holdgame-617-winnable.dat"));
        let (start, info) = saved_game(&held).unwrap();
        assert_eq!(
            start,
            Position::Standard(fcauto_deals::ms_deal(617).unwrap())
        );
        assert_eq!(
            (info.deal, info.held, info.moves.len()),
            (Some(617), true, 10)
        );
        let e = saved_game("not base64!").unwrap_err();
        assert_eq!(e.kind, super::super::ErrorKind::BadInput, "{e}");
        let e = saved_game(&b64(b"3a 38 a3")).unwrap_err();
        assert!(
            e.message.contains("not a PySolFC saved or held game"),
            "{e}"
        );
        let big = "A".repeat(MAX_SAVED_GAME_BYTES / 3 * 4 + 8);
        assert_eq!(
            saved_game(&big).unwrap_err().kind,
            super::super::ErrorKind::TooLarge
        );
        let bakers = b64(&fixture("savedgame-family/holdgame-bakers-617-20.dat"));
        let (start, info) = saved_game(&bakers).unwrap();
        let Position::Family(p) = &start else {
            panic!("a Baker's Game position")
        };
        assert_eq!(
            (p.game.pysol_id, info.pysol_id, info.deal),
            (45, 45, Some(617))
        );
        let a = analyze_saved_in(&bakers, opts(), ()).unwrap();
        assert_eq!(a.game.as_deref(), Some("bakers_game"));
        assert!(a.start.starts_with("bakers_game: "), "{}", a.start);
        assert_eq!(a.findings.moves.len(), 20);
        assert_eq!(a.findings.first_losing_step, None);
    }

    /// A family position is analysed by the family search, past its time cap refused (a
    /// game whose second position takes some 250,000 positions to solve: the start's search
    /// alone may end before a zero cap is looked at).
    #[test]
    fn a_family_game_is_analysed_by_the_family_search() {
        let g = fcauto_deals::Game::find("seahaven_towers").unwrap();
        let n = fcauto_deals::PysolNumber::plain(5).unwrap();
        let p = FamilyPosition::new(g, fcauto_deals::deal_game(g, n)).unwrap();
        let e = family_capped(&p, "7a", opts(), Duration::ZERO, ()).unwrap_err();
        assert!(e.message.contains("did not finish within 0 s"), "{e}");
        let e = analyze_in(&Position::Family(p.clone()), "1x", opts(), ()).unwrap_err();
        assert!(e.message.starts_with("not standard notation"), "{e}");
        let a = analyze_in(&Position::Family(p), "", opts(), ()).unwrap();
        assert_eq!(a.review.points.len(), 1);
        assert_eq!(a.game.as_deref(), Some("seahaven_towers"));
    }

    #[test]
    fn a_short_game_is_reviewed() {
        let b = fcauto_deals::ms_deal(617).unwrap();
        let a = analyze(&b, "4a 46 4b", opts()).unwrap();
        assert_eq!(a.review.points.len(), 4);
        assert_eq!(a.findings.moves.len(), 3);
        assert_eq!(a.review.counts.unclassified, 0);
    }
}
