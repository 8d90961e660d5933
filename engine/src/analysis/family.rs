//! The analysis of a game of the FreeCell family other than standard FreeCell: the move list
//! read in the family's standard notation ([`parse_moves`]: `0` the tenth cascade, `i` the
//! eighth freecell), replayed by the family validator's rules ([`replay_family`]), and every
//! position evaluated by the family search ([`evaluate_family`], through
//! [`solve_family`], whose every solution is validated and whose "unsolvable" comes only
//! from a search over every legal move that visited every reachable position). The result
//! is a [`Record`] and [`Eval`]s, which the findings, the pictures, the report and the review
//! page read as they read standard FreeCell's.
//!
//! Work is reused as for standard FreeCell, each a proof: a position reached by the first
//! move of the line found from the one before it takes the rest of that line; a position
//! after one proved lost is lost; the move played followed by the next position's line wins
//! from the position before it (lines are shortened backwards and forwards through the
//! game).
//!
//! As standard FreeCell's analysis ([`super::evaluate`]) does, two checks follow the first
//! evaluation, so that what is reported is settled as far as a bounded effort can: the
//! undecided positions where the game may have been lost are searched again with a larger
//! budget ([`settle_family_boundary`]), and in `fast` mode a move that looks costly is
//! checked by a `short` search of the position after it ([`confirm_costly_family_until`]).

use super::evaluate::{Eval, Source, Status, Stopped, Work, RETRY_FACTOR};
use super::record::Record;
use crate::render;
use crate::render::family::{family_move, played, FamilyGame};
use anyhow::{Context, Result};
use fcauto_deals::{Game, Layout, PysolNumber, Rules};
use fcauto_solver::family::validator::play_checked;
use fcauto_solver::family::{
    solve_family, standard_tokens, validate_family, FamilyMode, FamilyMove, FamilyOutcome, Place,
    DEFAULT_MAX_STATES,
};
use fcauto_solver::PlayedMove;

/// A move as a move list writes it: its places, and its count when written (`38v3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextMove {
    /// Where the cards come from.
    pub from: Place,
    /// Where they go.
    pub to: Place,
    /// The count written after `v` (hexadecimal), if any.
    pub count: Option<u8>,
}

/// The moves of a move list in the family's standard notation: `#` and `{...}` comments,
/// move numbers and `?`/`!` marks are read past, as in an annotated game
/// ([`fcauto_solver::annotated::strip_annotations`]); each move is two places (`1`..`9`,
/// `0` the tenth cascade, `a`..`g`, `i` the freecells, `h` the foundation) and an optional
/// count (`v3`, hexadecimal). Freecell Solver's output (`-sam` move lines, with or without
/// its printed positions) is read as its moves, each with its count.
///
/// # Errors
/// A word that is not such a move, named with its number in the list; an fc-solve move line
/// whose places do not read.
pub fn parse_moves(text: &str) -> Result<Vec<TextMove>> {
    use fcauto_solver::family::FamilyTextError;
    if fcauto_solver::family::has_fcs_move_lines(text) {
        let moves = fcauto_solver::family::read_fcs_moves(text)?;
        let text_move = |m: fcauto_solver::family::FamilyMove| TextMove {
            from: m.from,
            to: m.to,
            count: Some(m.count),
        };
        return Ok(moves.into_iter().map(text_move).collect());
    }
    let read = fcauto_solver::family::read_family_text(text).map_err(|e| match e {
        FamilyTextError::Token(t) => anyhow::anyhow!(
            "move {} (`{}`) is not standard notation: {}",
            t.step,
            t.token,
            t.reason
        ),
        other => other.into(),
    })?;
    Ok(read
        .moves
        .into_iter()
        .map(|w| TextMove {
            from: w.from,
            to: w.to,
            count: w.count,
        })
        .collect())
}

/// A family game replayed: the game, its rules, the positions and the moves.
#[derive(Clone, Debug)]
pub struct FamilyReplay {
    /// The game.
    pub game: &'static Game,
    /// The rules played (the game's, or with `--freecells`).
    pub rules: Rules,
    /// The title pictures and pages carry ([`render::family::game_title`]).
    pub title: String,
    /// `positions[k]`: the position after `k` moves, the start first.
    pub positions: Vec<Layout>,
    /// The moves, each with its count.
    pub moves: Vec<FamilyMove>,
    /// The moves as the renderer draws them (with the lowest card moved).
    pub played: Vec<PlayedMove>,
    /// Each move in standard notation.
    pub notation: Vec<String>,
    /// Steps (1-based) whose count was not written and had more than one legal reading: the
    /// longest run was taken (as PySolFC moves it).
    pub guessed_counts: Vec<usize>,
}

/// Replay `moves` from `start` under `rules` (`game`'s, or with another number of
/// freecells). A move without a count between cascades takes the longest run that may
/// legally move; any other move without one moves one card.
///
/// # Errors
/// An illegal move: `the game's move at step K (38) is illegal: <the rule broken>`.
pub fn replay_family(
    game: &'static Game,
    rules: &Rules,
    start: &Layout,
    moves: &[TextMove],
) -> Result<FamilyReplay> {
    let mut pos = start.clone();
    let mut out = FamilyReplay {
        game,
        rules: *rules,
        title: render::family::game_title(game, rules),
        positions: vec![pos.clone()],
        moves: Vec::with_capacity(moves.len()),
        played: Vec::with_capacity(moves.len()),
        notation: Vec::new(),
        guessed_counts: Vec::new(),
    };
    let found = found_counts(start, rules, moves);
    for (i, t) in moves.iter().enumerate() {
        let legal = legal_counts(&pos, rules, t);
        if t.count.is_none() && legal.len() > 1 {
            out.guessed_counts.push(i + 1);
        }
        let m = FamilyMove {
            from: t.from,
            to: t.to,
            count: found
                .get(i)
                .copied()
                .unwrap_or_else(|| legal.first().copied().unwrap_or(t.count.unwrap_or(1))),
        };
        let before = pos.clone();
        play_checked(&mut pos, rules, &m).map_err(|reason| {
            let reason = if before.is_won() {
                format!("the game was already won after move {i}")
            } else {
                reason
            };
            anyhow::anyhow!(
                "the game's move at step {} ({}) is illegal: {reason}",
                i + 1,
                written(t)
            )
        })?;
        out.played
            .push(played(&before, &m).context("a legal move moves a card")?);
        out.moves.push(m);
        out.positions.push(pos.clone());
    }
    out.notation = standard_tokens(start, rules, &out.moves).context("the moves replay")?;
    Ok(out)
}

/// The counts left out found as `verify` finds them
/// ([`fcauto_solver::family::resolve_family_counts`]: the longest legal run first,
/// backtracking): a reading that wins, else one where every move is legal; none when no
/// reading is legal (the replay then names the illegal move).
fn found_counts(start: &Layout, rules: &Rules, moves: &[TextMove]) -> Vec<u8> {
    use fcauto_solver::family::{resolve_family_counts, WrittenMove};
    let written: Vec<WrittenMove> = moves
        .iter()
        .map(|t| WrittenMove {
            from: t.from,
            to: t.to,
            count: t.count,
        })
        .collect();
    [true, false]
        .into_iter()
        .map(|win| resolve_family_counts(start, rules, &written, win))
        .find(|r| r.ok)
        .map_or_else(Vec::new, |r| r.moves.iter().map(|m| m.count).collect())
}

/// A move as it was written.
fn written(t: &TextMove) -> String {
    let mut s = format!("{}{}", t.from, t.to);
    if let Some(n) = t.count {
        s.push_str(&format!("v{n:x}"));
    }
    s
}

/// The counts `t` may have on `pos`, longest first: its own when written; between cascades
/// every legal one; otherwise one card.
fn legal_counts(pos: &Layout, rules: &Rules, t: &TextMove) -> Vec<u8> {
    if let Some(n) = t.count {
        return vec![n];
    }
    let (Place::Cascade(i), Place::Cascade(_)) = (t.from, t.to) else {
        return vec![1];
    };
    let height = pos.cascades.get(i as usize).map_or(0, Vec::len);
    (1..=height.min(u8::MAX as usize) as u8)
        .rev()
        .filter(|&count| {
            let m = FamilyMove {
                from: t.from,
                to: t.to,
                count,
            };
            play_checked(&mut pos.clone(), rules, &m).is_ok()
        })
        .collect()
}

/// How the family search evaluates each position.
#[derive(Clone, Copy, Debug)]
pub struct FamilySettings {
    /// The search's mode: fast or short (both end in the complete search), or an optimal
    /// mode (the A*: a line proved shortest in its count, "lost" only when it ran dry).
    pub mode: FamilyMode,
    /// Most positions the complete search visits (`None`: its default).
    pub max_states: Option<usize>,
}

/// Evaluate every position of `game` ([`evaluate_family_until`]: undecided positions where
/// the game may have been lost searched again with a larger budget), then confirm the moves
/// that look costly at the default threshold, [`super::DEFAULT_COSTLY`]
/// ([`confirm_costly_family_until`]; a caller with another threshold calls the two
/// itself); `tick` is called once per position evaluated (for a progress bar).
///
/// # Errors
/// A position the family search refuses, or an internal error: a line the validator
/// rejects, a position proved lost from which the game's next move leads to a win.
pub fn evaluate_family(
    game: &FamilyReplay,
    settings: FamilySettings,
    mut tick: impl FnMut(),
) -> Result<(Vec<Eval>, Work)> {
    let (mut evals, mut work) = evaluate_family_until(game, settings, &mut || {
        tick();
        true
    })?;
    let threshold = super::DEFAULT_COSTLY;
    confirm_costly_family_until(
        &mut evals,
        game,
        settings,
        threshold,
        &mut work,
        &mut || true,
    )?;
    Ok((evals, work))
}

/// Every position of `game` evaluated, lines shortened through the game, and the undecided
/// positions where the game may have been lost searched again with a larger budget
/// ([`settle_family_boundary`]); `go_on` is called once per position evaluated and before
/// each search of a position again: false stops it with [`Stopped`] (so it ends within one
/// search of being told to).
///
/// # Errors
/// As [`evaluate_family`], and [`Stopped`].
pub fn evaluate_family_until(
    game: &FamilyReplay,
    settings: FamilySettings,
    go_on: &mut dyn FnMut() -> bool,
) -> Result<(Vec<Eval>, Work)> {
    let mut work = Work::default();
    let mut evals: Vec<Eval> = Vec::with_capacity(game.positions.len());
    let mut lost_at = None;
    for (k, pos) in game.positions.iter().enumerate() {
        let eval = if let Some(j) = lost_at {
            work.after_lost += 1;
            Eval {
                status: Status::Lost,
                source: Source::AfterLost(j),
            }
        } else if let Some(e) = k.checked_sub(1).and_then(|j| on_line(&evals[j], game, j)) {
            work.on_known_lines += 1;
            e
        } else {
            search(game, pos, settings, &mut work, false)?
        };
        if eval.status == Status::Lost {
            lost_at = lost_at.or(Some(k));
        }
        evals.push(eval);
        if !go_on() {
            return Err(Stopped.into());
        }
    }
    shorten_lines(&mut evals, game)?;
    settle_family_boundary(&mut evals, game, settings, &mut work, go_on)?;
    shorten_lines(&mut evals, game)?;
    Ok((evals, work))
}

/// The budget of a second search of an undecided position: [`RETRY_FACTOR`] times the first
/// search's, at most the family search's default budget ([`DEFAULT_MAX_STATES`], some
/// 40,000,000 positions: the complete search needs about 18 bytes a position, and what it
/// leaves undecided there is not decided by many times more: FreeCell with 2 freecells,
/// deal 982, stays undecided at 1,900,000,000). `None` when that is no larger than the
/// first (an analysis at the default budget), and in the optimal modes, whose A* stores
/// every position it meets (some 145 bytes each) and is not searched again, as standard
/// FreeCell's analysis does not search its optimal modes again.
pub fn retry_budget(settings: FamilySettings) -> Option<usize> {
    if matches!(
        settings.mode,
        FamilyMode::Optimal | FamilyMode::OptimalMoves
    ) {
        return None;
    }
    let first = settings.max_states.unwrap_or(DEFAULT_MAX_STATES).max(1);
    let budget = first.saturating_mul(RETRY_FACTOR).min(DEFAULT_MAX_STATES);
    (budget > first).then_some(budget)
}

/// The undecided positions after the last winnable one (before the first lost one, or up to
/// the end) decide where the game was lost and whether it can still be won: search them
/// again with [`retry_budget`], latest first, at most [`super::evaluate::RETRY_POSITIONS`] of them, as
/// standard FreeCell's analysis does. Stops at the first that is winnable (everything
/// before it then is, through the moves played); one that stays undecided does not stop it
/// (an earlier one may still be decided), and one proved lost makes the undecided ones
/// after it lost (they were reached from it).
///
/// # Errors
/// As [`evaluate_family`], and [`Stopped`].
pub fn settle_family_boundary(
    evals: &mut [Eval],
    game: &FamilyReplay,
    settings: FamilySettings,
    work: &mut Work,
    go_on: &mut dyn FnMut() -> bool,
) -> Result<()> {
    let Some(budget) = retry_budget(settings) else {
        return Ok(());
    };
    let retry = FamilySettings {
        max_states: Some(budget),
        ..settings
    };
    super::evaluate::settle_boundary_by(evals, go_on, |k| {
        search(game, &game.positions[k], retry, work, true)
    })
}

/// `fast` mode's lines are longer than the shortest, so a move can look costly only because
/// the line found after it is a long one. Before such a move is called costly (the line
/// after it, plus the move, at least `threshold` moves longer than the line before it), the
/// position after it is searched again in `short` mode (the family search's tries that
/// prefer shorter lines), in game order, at most [`super::evaluate::CONFIRM_POSITIONS`] of them, as standard
/// FreeCell's analysis does: a shorter line found replaces the one known, and lines are
/// shortened both ways through the game again. A `short` analysis's lines are left as they
/// are. `go_on` is called before each search: false stops it with [`Stopped`].
///
/// # Errors
/// As [`evaluate_family`], and [`Stopped`].
pub fn confirm_costly_family_until(
    evals: &mut [Eval],
    game: &FamilyReplay,
    settings: FamilySettings,
    threshold: usize,
    work: &mut Work,
    go_on: &mut dyn FnMut() -> bool,
) -> Result<()> {
    if settings.mode != FamilyMode::Fast {
        return Ok(());
    }
    let short = FamilySettings {
        mode: FamilyMode::Short,
        ..settings
    };
    super::evaluate::confirm_costly_by(
        evals,
        threshold,
        go_on,
        |k| search(game, &game.positions[k], short, work, true),
        |evals| shorten_lines(evals, game),
    )
}

/// The position after move `j` when move `j` is the first move of the line known before it
/// (`before`, the evaluation of position `j`): the rest of that line.
fn on_line(before: &Eval, game: &FamilyReplay, j: usize) -> Option<Eval> {
    let line = before.status.line()?;
    (line.first() == Some(&game.played[j])).then(|| Eval {
        status: Status::Winnable(line[1..].to_vec()),
        source: Source::KnownLine(match before.source {
            Source::KnownLine(s) => s,
            _ => j,
        }),
    })
}

/// One search from `pos` by the family search (its solution validated there); `again` when
/// `pos` was searched before (counted apart in `work`).
fn search(
    game: &FamilyReplay,
    pos: &Layout,
    settings: FamilySettings,
    work: &mut Work,
    again: bool,
) -> Result<Eval> {
    let (outcome, stats) = solve_family(pos, &game.rules, settings.mode, settings.max_states)?;
    if again {
        work.searched_again += 1;
    } else {
        work.searches += 1;
    }
    work.expanded += (stats.best_first + stats.complete) as u64;
    let status = match outcome {
        FamilyOutcome::Solved(s) => Status::Winnable(drawn(pos, &game.rules, &s.moves)?),
        FamilyOutcome::Unsolvable => Status::Lost,
        FamilyOutcome::Unknown(why) => Status::Unknown(why.to_string()),
    };
    Ok(Eval {
        status,
        source: Source::Search,
    })
}

/// `moves`, played from `start`, as the renderer draws them.
fn drawn(start: &Layout, rules: &Rules, moves: &[FamilyMove]) -> Result<Vec<PlayedMove>> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        out.push(played(&pos, m).context("internal error: a line moves no card")?);
        play_checked(&mut pos, rules, m)
            .map_err(|e| anyhow::anyhow!("internal error: a winning line is illegal: {e}"))?;
    }
    Ok(out)
}

/// Shorten the lines known both ways through the game until none changes: backwards (the
/// move played plus the next position's line) and forwards (a position whose line begins
/// with the move played gives the next position the rest of it). So the move that begins a
/// position's line is never shown costly.
fn shorten_lines(evals: &mut [Eval], game: &FamilyReplay) -> Result<()> {
    loop {
        shorten_backwards(evals, game)?;
        if !shorten_forwards(evals, game)? {
            return Ok(());
        }
    }
}

/// Forwards through the game: where position `k`'s line begins with the move played from
/// it, the position after takes the rest of that line when it is shorter than its own line
/// or it has none (the line was validated from position `k`, so its rest wins from the
/// position after). True if any position's line changed.
///
/// # Errors
/// An internal error: a position proved lost lies on a winning line.
fn shorten_forwards(evals: &mut [Eval], game: &FamilyReplay) -> Result<bool> {
    let mut changed = false;
    for k in 0..game.moves.len() {
        let Some(e) = on_line(&evals[k], game, k) else {
            continue;
        };
        let shorter = match &evals[k + 1].status {
            Status::Winnable(line) => e.status.moves_to_win() < Some(line.len()),
            Status::Unknown(_) => true,
            Status::Lost => anyhow::bail!(
                "internal error: the position after step {} was proved lost, but it lies on a winning line",
                k + 1
            ),
        };
        if shorter {
            evals[k + 1] = e;
            changed = true;
        }
    }
    Ok(changed)
}

/// Backwards through the game: where the move played plus the next position's line is no
/// longer than the line known (or none is), take it, validated (on a tie the move played is
/// a best move).
fn shorten_backwards(evals: &mut [Eval], game: &FamilyReplay) -> Result<()> {
    for k in (0..game.moves.len()).rev() {
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
        line.push(game.played[k]);
        line.extend_from_slice(next);
        let moves: Vec<FamilyMove> = line.iter().map(family_move).collect();
        validate_family(&game.positions[k], &game.rules, &moves)
            .context("internal error: the validator rejected a winning line")?;
        evals[k] = Eval {
            status: Status::Winnable(line),
            source: Source::NextMove,
        };
    }
    Ok(())
}

impl FamilyReplay {
    /// The steps whose count was read as a guess, as [`super::summary::guessed_counts_note`]
    /// says it for standard FreeCell: `None` when no count was guessed.
    pub fn guessed_counts_note(&self) -> Option<String> {
        super::summary::counts_read_note(&self.guessed_counts, &self.notation)
    }

    /// The game to draw from position `k` with `moves`.
    fn drawing<'a>(
        &'a self,
        k: usize,
        deal: Option<PysolNumber>,
        moves: &'a [FamilyMove],
    ) -> FamilyGame<'a> {
        FamilyGame {
            title: &self.title,
            deal,
            start: &self.positions[k],
            rules: &self.rules,
            moves,
        }
    }
}

impl Record for FamilyReplay {
    fn notation(&self) -> &[String] {
        &self.notation
    }

    fn played(&self) -> &[PlayedMove] {
        &self.played
    }

    fn tokens(&self, k: usize, line: &[PlayedMove]) -> Vec<String> {
        let moves: Vec<FamilyMove> = line.iter().map(family_move).collect();
        standard_tokens(&self.positions[k], &self.rules, &moves)
            .unwrap_or_else(|| moves.iter().map(FamilyMove::notation).collect())
    }

    fn position_text(&self, k: usize) -> String {
        fcauto_deals::position::write_layout(self.game, &self.positions[k])
    }

    fn is_won(&self, k: usize) -> bool {
        self.positions[k].is_won()
    }

    fn position(&self, k: usize) -> render::Position {
        render::Position::Layout(self.positions[k].clone(), self.title.clone())
    }

    fn name(&self, deal: Option<PysolNumber>) -> String {
        deal.map_or("the game".to_string(), |n| {
            format!("{} deal {n}", self.title)
        })
    }

    fn heading(&self, deal: Option<PysolNumber>, capital: bool) -> String {
        match (deal, capital) {
            (Some(n), _) => format!("{} deal {n}", self.title),
            (None, true) => format!("A {} board", self.title),
            (None, false) => format!("a {} board", self.title),
        }
    }

    fn replay_parts(&self, deal: Option<PysolNumber>) -> Result<render::ReplayParts> {
        let line = self.drawing(0, deal, &self.moves).line(&self.positions);
        Ok(render::line_parts(&line, &render::Options::default()))
    }

    fn line_html(&self, k: usize, line: &[String]) -> Result<String> {
        let moves = parse_moves(&line.join(" "))?;
        let replayed = replay_family(self.game, &self.rules, &self.positions[k], &moves)?;
        self.drawing(k, None, &replayed.moves)
            .replay_html(&render::Options::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::{deal_game, PysolNumber};

    #[test]
    fn moves_are_read_in_the_familys_notation() {
        let m = parse_moves("1. 0h {a comment} 2. 5i?? # more\n3. 12v3 4. ai").unwrap();
        assert_eq!(m.len(), 4);
        assert_eq!((m[0].from, m[0].to), (Place::Cascade(9), Place::Foundation));
        assert_eq!(m[1].to, Place::Freecell(7));
        assert_eq!(m[2].count, Some(3));
        let e = parse_moves("38 3x").unwrap_err();
        assert!(format!("{e:#}").contains("move 2 (`3x`)"), "{e:#}");
    }

    /// A won Seahaven Towers game (the solver's own line) needs one search: every later
    /// position lies on the line found from the start.
    #[test]
    fn a_won_game_is_winnable_all_along_from_one_search() {
        let g = Game::find("seahaven_towers").unwrap();
        let start = deal_game(g, PysolNumber::plain(5).unwrap());
        let (out, _) = solve_family(&start, &g.rules, FamilyMode::Fast, None).unwrap();
        let FamilyOutcome::Solved(s) = out else {
            panic!("solvable")
        };
        let moves = parse_moves(&s.tokens.join(" ")).unwrap();
        let game = replay_family(g, &g.rules, &start, &moves).unwrap();
        assert_eq!(game.moves, s.moves);
        let settings = FamilySettings {
            mode: FamilyMode::Fast,
            max_states: None,
        };
        let (evals, work) = evaluate_family(&game, settings, || {}).unwrap();
        assert_eq!(work.searches, 1);
        assert!(evals
            .iter()
            .all(|e| matches!(e.status, Status::Winnable(_))));
        let f = super::super::findings::find(&game, &evals, 10);
        assert!(f.final_position.won && f.first_losing_step.is_none());
    }

    /// `game` of deal `n` replayed from its start.
    fn replayed(game: &str, n: u128, moves: &str) -> FamilyReplay {
        let g = Game::find(game).unwrap();
        let start = deal_game(g, PysolNumber::plain(n).unwrap());
        replay_family(g, &g.rules, &start, &parse_moves(moves).unwrap()).unwrap()
    }

    fn fast(max_states: Option<usize>) -> FamilySettings {
        FamilySettings {
            mode: FamilyMode::Fast,
            max_states,
        }
    }

    /// Seahaven Towers 5, `7a 8d`: the position after `7a` is undecided at 3,000 positions
    /// (every search there stops at its limit), so the losing move could only be told to be
    /// one of steps 1 and 2; searched again with ten times the budget it is winnable, and
    /// step 2 is the losing move. At 300 positions (3,000 the second time) it stays
    /// undecided, and the analysis says so.
    #[test]
    fn an_undecided_position_is_searched_again_with_a_larger_budget() {
        let game = replayed("seahaven_towers", 5, "7a 8d");
        let (out, _) = solve_family(
            &game.positions[1],
            &game.rules,
            FamilyMode::Fast,
            Some(3000),
        )
        .unwrap();
        assert!(matches!(out, FamilyOutcome::Unknown(_)), "{out:?}");
        assert_eq!(retry_budget(fast(Some(3000))), Some(30_000));
        assert_eq!(
            retry_budget(fast(None)),
            None,
            "the default budget is the largest"
        );
        let (evals, work) = evaluate_family(&game, fast(Some(3000)), || {}).unwrap();
        assert_eq!((work.searches, work.searched_again), (3, 1));
        assert!(matches!(evals[1].status, Status::Winnable(_)), "{evals:?}");
        assert_eq!(evals[2].status, Status::Lost);
        let f = super::super::findings::find(&game, &evals, 10);
        assert_eq!((f.first_losing_step, f.losing_between), (Some(2), None));
        let (evals, work) = evaluate_family(&game, fast(Some(300)), || {}).unwrap();
        assert_eq!(work.searched_again, 1);
        assert!(matches!(evals[1].status, Status::Unknown(_)), "{evals:?}");
        let f = super::super::findings::find(&game, &evals, 10);
        assert_eq!(
            (f.first_losing_step, f.losing_between),
            (None, Some((1, 2)))
        );
    }

    /// Baker's Game 5, `1a 4d`: in `fast` mode the line found after `4d` is 27 moves longer
    /// than the one before it, so the move looks costly; the `short` search of the position
    /// after it finds a line of fewer than 10 more moves, and the move is not called costly.
    #[test]
    fn a_costly_looking_move_is_checked_in_short_mode() {
        let game = replayed("bakers_game", 5, "1a 4d");
        let (first, _) = evaluate_family_until(&game, fast(None), &mut || true).unwrap();
        let looked = super::super::findings::find(&game, &first, 10);
        let steps: Vec<usize> = looked.costly.iter().map(|c| c.step).collect();
        assert_eq!(steps, [2], "{:?}", looked.costly);
        let (evals, work) = evaluate_family(&game, fast(None), || {}).unwrap();
        assert_eq!(work.searched_again, 1);
        let after = evals[2].status.moves_to_win().unwrap();
        assert!(after < first[2].status.moves_to_win().unwrap());
        let f = super::super::findings::find(&game, &evals, 10);
        assert!(f.costly.is_empty(), "{:?}", f.costly);
        let moves: Vec<FamilyMove> = evals[2]
            .status
            .line()
            .unwrap()
            .iter()
            .map(family_move)
            .collect();
        validate_family(&game.positions[2], &game.rules, &moves).unwrap();
        let short = FamilySettings {
            mode: FamilyMode::Short,
            max_states: None,
        };
        let (_, work) = evaluate_family(&game, short, || {}).unwrap();
        assert_eq!(
            work.searched_again, 0,
            "a short analysis's lines are left as they are"
        );
    }
}
