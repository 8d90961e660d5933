//! Evaluate every position of the game: winnable (with the shortest winning line known,
//! checked by the validator), lost (proved by the complete search), or unknown (the search
//! stopped at a named limit).
//!
//! Work is reused four ways, each a proof, not a guess:
//! - a winning line found from one position wins from every position along it: a later
//!   position of the game met on a known line (up to the order of the cascades and
//!   freecells) needs no search;
//! - a position reachable from a lost one is lost: once the complete search proves a
//!   position lost, the rest of the game is lost without searching;
//! - the move played from position k followed by a winning line from position k+1 wins
//!   from position k: lines are shortened backwards through the game;
//! - lines are shortened forwards too: a later position met on an earlier one's line takes
//!   the rest of it when that is shorter than its own (so the move beginning a position's
//!   line is never costly).

use anyhow::{Context, Result};
use fcauto_deals::{Board, Card};
use fcauto_solver::checked::{solve_checked, Outcome};
use fcauto_solver::{validate, Loc, Mode, PlayedMove, Solution};
use std::collections::HashMap;
use std::rc::Rc;

/// How to search.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The search mode.
    pub mode: Mode,
    /// Most positions one search stores (`None`: the mode's default).
    pub max_states: Option<usize>,
}

/// What is known about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Winnable: the shortest winning line known from it (every move, foundation moves
    /// included), validated.
    Winnable(Vec<PlayedMove>),
    /// Lost: no win exists, proved by the complete search (here or at an earlier position
    /// it is reachable from).
    Lost,
    /// Not decided: the search stopped at the limit named.
    Unknown(String),
}

impl Status {
    /// The verdict word of the JSON and the table: `winnable`, `lost` or `unknown`.
    pub fn word(&self) -> &'static str {
        match self {
            Status::Winnable(_) => "winnable",
            Status::Lost => "lost",
            Status::Unknown(_) => "unknown",
        }
    }

    /// The winning line, if winnable.
    pub fn line(&self) -> Option<&[PlayedMove]> {
        match self {
            Status::Winnable(l) => Some(l),
            _ => None,
        }
    }

    /// Moves of the shortest known win, if winnable.
    pub fn moves_to_win(&self) -> Option<usize> {
        self.line().map(<[PlayedMove]>::len)
    }
}

/// Where a position's status comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A search from the position itself.
    Search,
    /// A winning line found from an earlier position (the step named) passes through it.
    KnownLine(usize),
    /// The game's next move followed by the next position's line is shorter than any other
    /// known line.
    NextMove,
    /// It is reachable from the position after the step named, which the complete search
    /// proved lost.
    AfterLost(usize),
}

impl Source {
    /// Short words for the table and the JSON: `searched`, `line from step K`, `via the next
    /// move`, `after lost step K`.
    pub fn describe(self) -> String {
        match self {
            Source::Search => "searched".into(),
            Source::KnownLine(k) => format!("line from step {k}"),
            Source::NextMove => "via the next move".into(),
            Source::AfterLost(k) => format!("after lost step {k}"),
        }
    }
}

/// One position evaluated.
#[derive(Clone, Debug)]
pub struct Eval {
    /// What is known.
    pub status: Status,
    /// How it is known.
    pub source: Source,
}

/// Work done by [`evaluate`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Work {
    /// Positions searched (each counted once).
    pub searches: usize,
    /// Positions found on a known winning line (no search).
    pub on_known_lines: usize,
    /// Positions after one proved lost (lost too, no search).
    pub after_lost: usize,
    /// Further searches of positions already searched: a retry at a larger budget, or a
    /// `short` search confirming a costly move ([`confirm_costly`]).
    pub searched_again: usize,
    /// Positions expanded by all searches.
    pub expanded: u64,
}

/// Evaluate `positions` (the game's, start first), `played[k]` leading from `positions[k]`
/// to `positions[k + 1]`. `tick` is called once per position evaluated (for a progress bar).
///
/// # Errors
/// A board the solver does not support, or an internal error: a line the validator rejects,
/// a position proved lost from which the game's next move leads to a win.
pub fn evaluate(
    positions: &[Board],
    played: &[PlayedMove],
    settings: Settings,
    mut tick: impl FnMut(),
) -> Result<(Vec<Eval>, Work)> {
    evaluate_until(positions, played, settings, &mut || {
        tick();
        true
    })
}

/// The caller stopped the evaluation ([`evaluate_until`], [`confirm_costly_until`]): a
/// service answering within a time cap.
#[derive(Debug, thiserror::Error)]
#[error("the analysis was stopped before it finished")]
pub struct Stopped;

/// [`evaluate`], with `go_on` called once per position evaluated and before each search
/// of a position again: false stops it with [`Stopped`] (so it ends within one search of
/// being told to).
///
/// # Errors
/// As [`evaluate`], and [`Stopped`].
pub fn evaluate_until(
    positions: &[Board],
    played: &[PlayedMove],
    settings: Settings,
    go_on: &mut dyn FnMut() -> bool,
) -> Result<(Vec<Eval>, Work)> {
    let mut work = Work::default();
    let mut lines = LineCache::default();
    let mut evals: Vec<Eval> = Vec::with_capacity(positions.len());
    let mut lost_at = None;
    for (k, pos) in positions.iter().enumerate() {
        let eval = if let Some(j) = lost_at {
            work.after_lost += 1;
            Eval {
                status: Status::Lost,
                source: Source::AfterLost(j),
            }
        } else if let Some((line, from)) = lines.lookup(pos) {
            work.on_known_lines += 1;
            Eval {
                status: Status::Winnable(line),
                source: Source::KnownLine(from),
            }
        } else {
            search(pos, settings, &mut work, false)?
        };
        match &eval.status {
            Status::Lost => lost_at = lost_at.or(Some(k)),
            // (A line found on a known one is already known.)
            Status::Winnable(line) if eval.source == Source::Search => {
                lines.insert(pos, line, k)?
            }
            _ => {}
        }
        evals.push(eval);
        if !go_on() {
            return Err(Stopped.into());
        }
    }
    shorten_lines(&mut evals, positions, played)?;
    settle_boundary(&mut evals, positions, settings, &mut work, go_on)?;
    shorten_lines(&mut evals, positions, played)?;
    Ok((evals, work))
}

/// Most positions a second search of an undecided position stores: [`RETRY_FACTOR`] times
/// the first search's budget, at most this (fast and short need about 100 bytes a
/// position: some 200 MB).
pub const RETRY_MAX_STATES: usize = 2_000_000;
/// How much larger the second search's budget is than the first's.
pub const RETRY_FACTOR: usize = 10;
/// Most positions searched a second time (each proved lost moves the boundary back by one
/// move; this bounds the time an analysis can take).
pub const RETRY_POSITIONS: usize = 8;

/// The undecided positions after the last winnable one (before the first lost one, or up to
/// the end) decide where the game was lost and whether it can still be won: search them
/// again with a larger budget, latest first, at most [`RETRY_POSITIONS`] of them. Stops at
/// the first that is winnable (everything before it then is, through the moves played); one
/// that stays undecided does not stop it (an earlier one may still be decided), and one
/// proved lost makes the undecided ones after it lost. The optimal modes, whose budget is
/// already large, are not searched again.
fn settle_boundary(
    evals: &mut [Eval],
    positions: &[Board],
    settings: Settings,
    work: &mut Work,
    go_on: &mut dyn FnMut() -> bool,
) -> Result<()> {
    let first = settings
        .max_states
        .unwrap_or(settings.mode.default_max_states());
    let budget = (first.saturating_mul(RETRY_FACTOR)).min(RETRY_MAX_STATES);
    if budget <= first || !matches!(settings.mode, Mode::Fast | Mode::Short) {
        return Ok(());
    }
    let retry = Settings {
        max_states: Some(budget),
        ..settings
    };
    settle_boundary_by(evals, go_on, |k| search(&positions[k], retry, work, true))
}

/// The loop of [`settle_boundary`] for any game: `research(k)` searches position `k` again.
///
/// # Errors
/// `research`'s, and [`Stopped`] when `go_on` says so.
pub(crate) fn settle_boundary_by(
    evals: &mut [Eval],
    go_on: &mut dyn FnMut() -> bool,
    mut research: impl FnMut(usize) -> Result<Eval>,
) -> Result<()> {
    let first_lost = evals.iter().position(|e| e.status == Status::Lost);
    let mut k = first_lost.unwrap_or(evals.len());
    let stop = k.saturating_sub(RETRY_POSITIONS);
    while k > stop && matches!(evals[k - 1].status, Status::Unknown(_)) {
        if !go_on() {
            return Err(Stopped.into());
        }
        let e = research(k - 1)?;
        let status = e.status.clone();
        evals[k - 1] = e;
        match status {
            Status::Winnable(_) => break,
            // The positions after it up to the first lost one were reached from it: lost too.
            Status::Lost => {
                for later in &mut evals[k..] {
                    if matches!(later.status, Status::Unknown(_)) {
                        *later = Eval {
                            status: Status::Lost,
                            source: Source::AfterLost(k - 1),
                        };
                    }
                }
            }
            Status::Unknown(_) => {}
        }
        k -= 1;
    }
    Ok(())
}

/// Most positions [`confirm_costly`] searches again.
pub const CONFIRM_POSITIONS: usize = 8;

/// `fast` mode's lines are about 10% longer than the shortest, so a move can look costly
/// only because the line found after it is a long one. Before such a move is called costly
/// (the line after it, plus the move, at least `threshold` moves longer than the line before
/// it), the position after it is searched again in `short` mode, in game order, at most
/// [`CONFIRM_POSITIONS`] of them: a shorter line found replaces the one known, and lines are
/// shortened both ways through the game again. Other modes' lines are left as they are.
///
/// # Errors
/// As [`evaluate`].
pub fn confirm_costly(
    evals: &mut [Eval],
    positions: &[Board],
    played: &[PlayedMove],
    settings: Settings,
    threshold: usize,
    work: &mut Work,
) -> Result<()> {
    let game = Game { positions, played };
    confirm_costly_until(evals, game, settings, threshold, work, &mut || true)
}

/// A game's positions (start first) and the moves between them.
#[derive(Clone, Copy)]
pub struct Game<'a> {
    /// The positions, start first.
    pub positions: &'a [Board],
    /// `played[k]` leads from `positions[k]` to `positions[k + 1]`.
    pub played: &'a [PlayedMove],
}

/// [`confirm_costly`], with `go_on` called before each search: false stops it with
/// [`Stopped`].
///
/// # Errors
/// As [`evaluate`], and [`Stopped`].
pub fn confirm_costly_until(
    evals: &mut [Eval],
    game: Game,
    settings: Settings,
    threshold: usize,
    work: &mut Work,
    go_on: &mut dyn FnMut() -> bool,
) -> Result<()> {
    let Game { positions, played } = game;
    if settings.mode != Mode::Fast {
        return Ok(());
    }
    let short = Settings {
        mode: Mode::Short,
        ..settings
    };
    confirm_costly_by(
        evals,
        threshold,
        go_on,
        |k| search(&positions[k], short, work, true),
        |evals| shorten_lines(evals, positions, played),
    )
}

/// The loop of [`confirm_costly_until`] for any game: each move that looks costly by at
/// least `threshold` (in game order, at most [`CONFIRM_POSITIONS`]) has the position after
/// it searched again by `research(k)`; a shorter line found replaces the one known, and
/// `reshorten` shortens the lines through the game again.
///
/// # Errors
/// `research`'s and `reshorten`'s, and [`Stopped`] when `go_on` says so.
pub(crate) fn confirm_costly_by(
    evals: &mut [Eval],
    threshold: usize,
    go_on: &mut dyn FnMut() -> bool,
    mut research: impl FnMut(usize) -> Result<Eval>,
    mut reshorten: impl FnMut(&mut [Eval]) -> Result<()>,
) -> Result<()> {
    let mut left = CONFIRM_POSITIONS;
    for k in 0..evals.len().saturating_sub(1) {
        let (Some(before), Some(after)) = (
            evals[k].status.moves_to_win(),
            evals[k + 1].status.moves_to_win(),
        ) else {
            continue;
        };
        if (after + 1).saturating_sub(before) < threshold.max(1) {
            continue;
        }
        if left == 0 {
            break;
        }
        if !go_on() {
            return Err(Stopped.into());
        }
        left -= 1;
        let e = research(k + 1)?;
        if e.status.moves_to_win().is_some_and(|m| m < after) {
            evals[k + 1] = e;
            reshorten(evals)?;
        }
    }
    Ok(())
}

/// One search from `pos`, through `solve`'s checked entry (a solution is validated there;
/// "unsolvable" only ever comes from a complete search); `again` when `pos` was searched
/// before (counted apart in `work`).
fn search(pos: &Board, settings: Settings, work: &mut Work, again: bool) -> Result<Eval> {
    let (outcome, stats) = solve_checked(None, pos, settings.mode, settings.max_states)?;
    if again {
        work.searched_again += 1;
    } else {
        work.searches += 1;
    }
    work.expanded += stats.expanded;
    let status = match outcome {
        Outcome::Solved(c) => Status::Winnable(c.solution.moves),
        Outcome::Unsolvable => Status::Lost,
        Outcome::Unknown(why) => Status::Unknown(why.to_string()),
    };
    Ok(Eval {
        status,
        source: Source::Search,
    })
}

/// Shorten the lines known both ways through the game until none changes: backwards (the
/// move played plus the next position's line) and forwards (a later position met on an
/// earlier one's line takes the rest of it). So the move that begins a position's line is
/// never shown costly: the position after it has the rest of that line, or a shorter one.
fn shorten_lines(evals: &mut [Eval], positions: &[Board], played: &[PlayedMove]) -> Result<()> {
    loop {
        shorten_backwards(evals, positions, played)?;
        if !shorten_forwards(evals, positions)? {
            return Ok(());
        }
    }
}

/// Forwards through the game: every position's winning line is remembered, and a later
/// position met on one of them (up to the order of cascades and freecells) takes the rest of
/// it, validated, where that is shorter than its own line or it has none. True if any
/// position's line changed.
fn shorten_forwards(evals: &mut [Eval], positions: &[Board]) -> Result<bool> {
    let mut lines = LineCache::default();
    let mut changed = false;
    for (k, pos) in positions.iter().enumerate() {
        if let Some((tail, from)) = lines.lookup(pos) {
            let shorter = match &evals[k].status {
                Status::Winnable(line) => tail.len() < line.len(),
                Status::Unknown(_) => true,
                Status::Lost => anyhow::bail!(
                    "internal error: the position after step {k} was proved lost, but it lies on a winning line"
                ),
            };
            if shorter {
                evals[k] = Eval {
                    status: Status::Winnable(tail),
                    source: Source::KnownLine(from),
                };
                changed = true;
            }
        }
        if let Status::Winnable(line) = &evals[k].status {
            lines.insert(pos, line, k)?;
        }
    }
    Ok(changed)
}

/// Backwards through the game: where the move played plus the next position's line is no
/// longer than the line known (or none is), take it (on a tie the move played is a best
/// move).
fn shorten_backwards(evals: &mut [Eval], positions: &[Board], played: &[PlayedMove]) -> Result<()> {
    for k in (0..played.len()).rev() {
        let Status::Winnable(next) = &evals[k + 1].status else {
            continue;
        };
        let through = next.len() + 1;
        match &evals[k].status {
            Status::Winnable(line) if line.len() < through => continue,
            Status::Lost => anyhow::bail!(
                "internal error: the position after step {k} was proved lost, but its next move leads to a win"
            ),
            _ => {}
        }
        let mut line = Vec::with_capacity(through);
        line.push(played[k]);
        line.extend_from_slice(next);
        checked(&positions[k], &line)?;
        evals[k] = Eval {
            status: Status::Winnable(line),
            source: Source::NextMove,
        };
    }
    Ok(())
}

/// `line` must win from `board` by the validator's rules.
fn checked(board: &Board, line: &[PlayedMove]) -> Result<()> {
    let sol = Solution {
        deal: None,
        board: board.clone(),
        moves: line.to_vec(),
    };
    validate(board, &sol.step_moves())
        .map(|_| ())
        .context("internal error: the validator rejected a winning line")
}

/// A position up to the order of its cascades and of its freecells (the rules do not care
/// which cascade or freecell holds what).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    cascades: Vec<Vec<Card>>,
    freecells: Vec<Card>,
    foundations: [u8; 4],
}

fn key(b: &Board) -> Key {
    let mut cascades = b.cascades.clone();
    cascades.sort();
    let mut freecells: Vec<Card> = b.freecells.iter().flatten().copied().collect();
    freecells.sort();
    Key {
        cascades,
        freecells,
        foundations: b.foundations,
    }
}

/// A position on a known winning line.
struct Known {
    /// The position as the line has it (its cascades and freecells in the line's order).
    board: Board,
    /// The line.
    line: Rc<Vec<PlayedMove>>,
    /// Index of the position in the line: the rest of the line is `line[at..]`.
    at: usize,
    /// The step of the game whose line it is.
    step: usize,
}

impl Known {
    fn rest(&self) -> usize {
        self.line.len() - self.at
    }
}

/// The positions along every winning line found, each with the rest of its line.
#[derive(Default)]
struct LineCache {
    map: HashMap<Key, Known>,
}

impl LineCache {
    /// Remember every position along `line` from `start` (the game's position after `step`).
    fn insert(&mut self, start: &Board, line: &[PlayedMove], step: usize) -> Result<()> {
        let along = crate::render::positions(&Solution {
            deal: None,
            board: start.clone(),
            moves: line.to_vec(),
        })
        .context("internal error: a winning line is illegal")?;
        let line = Rc::new(line.to_vec());
        for (at, b) in along.into_iter().enumerate() {
            let k = key(&b);
            if self.map.get(&k).is_none_or(|e| e.rest() > line.len() - at) {
                let known = Known {
                    board: b,
                    line: line.clone(),
                    at,
                    step,
                };
                self.map.insert(k, known);
            }
        }
        Ok(())
    }

    /// The rest of a known line through `pos` (relabelled to its cascades and freecells and
    /// validated), with the step whose line it is.
    fn lookup(&self, pos: &Board) -> Option<(Vec<PlayedMove>, usize)> {
        let known = self.map.get(&key(pos))?;
        let relabel = Relabel::between(&known.board, pos)?;
        let tail: Vec<PlayedMove> = known.line[known.at..]
            .iter()
            .map(|p| relabel.apply(*p))
            .collect();
        checked(pos, &tail).ok()?;
        Some((tail, known.step))
    }
}

/// Which cascade and freecell of one position holds what another's holds.
struct Relabel {
    cascades: Vec<u8>,
    freecells: [u8; 4],
}

impl Relabel {
    /// The relabelling taking `from` to `to` (same [`Key`]): cascades and freecells by their
    /// cards, empty ones in order. `None` if they do not match.
    fn between(from: &Board, to: &Board) -> Option<Relabel> {
        let mut empty_to = (0..to.cascades.len()).filter(|&j| to.cascades[j].is_empty());
        let mut cascades = Vec::with_capacity(from.cascades.len());
        for col in &from.cascades {
            let j = if col.is_empty() {
                empty_to.next()?
            } else {
                to.cascades.iter().position(|c| c == col)?
            };
            cascades.push(j as u8);
        }
        let mut free_to = (0..4).filter(|&j| to.freecells[j].is_none());
        let mut freecells = [0u8; 4];
        for (i, c) in from.freecells.iter().enumerate() {
            let j = match c {
                None => free_to.next()?,
                Some(c) => to.freecells.iter().position(|x| *x == Some(*c))?,
            };
            freecells[i] = j as u8;
        }
        Some(Relabel {
            cascades,
            freecells,
        })
    }

    fn loc(&self, l: Loc) -> Loc {
        match l {
            Loc::Cascade(i) => Loc::Cascade(self.cascades[i as usize]),
            Loc::Freecell(j) => Loc::Freecell(self.freecells[j as usize]),
            Loc::Foundation => Loc::Foundation,
        }
    }

    fn apply(&self, p: PlayedMove) -> PlayedMove {
        PlayedMove {
            mv: fcauto_solver::Move {
                from: self.loc(p.mv.from),
                to: self.loc(p.mv.to),
                count: p.mv.count,
            },
            card: p.card,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_found_again_with_cascades_and_freecells_relabelled() {
        let b = fcauto_deals::ms_deal(617).unwrap();
        let (outcome, _) = solve_checked(None, &b, Mode::Fast, None).unwrap();
        let Outcome::Solved(c) = outcome else {
            panic!("617 is solvable")
        };
        let mut cache = LineCache::default();
        cache.insert(&b, &c.solution.moves, 0).unwrap();
        let mut swapped = b.clone();
        swapped.cascades.swap(0, 5);
        let (tail, step) = cache.lookup(&swapped).expect("found up to relabelling");
        assert_eq!((tail.len(), step), (c.solution.moves.len(), 0));
    }
}
