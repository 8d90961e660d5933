//! The analysis of a game of the FreeCell family other than standard FreeCell, stage by
//! stage (`fcauto analyze --game G`, and a PySolFC saved or held game of such a game): where
//! the game starts ([`Start`]), its moves replayed by the family's validator ([`replay`]),
//! every position evaluated by the family search and the losing and costly moves found
//! ([`evaluate`] → [`Analysis`]), told as the same [`Document`] as standard FreeCell's.
//!
//! Also `--game`/`--freecells` naming another game than the one a PySolFC file holds
//! ([`game_disagrees`]). The game a board file names is read by
//! [`fcauto_solver::family::named_game`].
//!
//! Reading files, making folders, the progress bar and printing are the command's.

use super::evaluate::{Eval, Work};
use super::family::{
    confirm_costly_family_until, evaluate_family_until, replay_family, FamilyReplay,
    FamilySettings, TextMove,
};
use super::findings::{self, Findings};
use super::record::Record;
use super::summary::Document;
use super::MAX_MOVES;
use crate::verify::family::title;
use anyhow::Result;
use fcauto_deals::{Game, Layout, Rules};
use fcauto_solver::Mode;

/// Where a family game starts: the game, the rules played, the deal (if the start is one)
/// and the position.
pub struct Start {
    /// The game.
    pub game: &'static Game,
    /// Its rules (with `--freecells` applied).
    pub rules: Rules,
    /// The deal, when the start is one: PySolFC's number of the game's deal (`msN` for
    /// Microsoft's deal N from 32000 on).
    pub deal: Option<fcauto_deals::PysolNumber>,
    /// The start position.
    pub layout: Layout,
    /// What the game was read from, as the answer names it (`a move list`).
    pub input: &'static str,
}

/// A family game analysed: the moves replayed, each position's evaluation, the work done
/// and what was found.
pub struct Analysis {
    /// The game replayed ([`replay`]).
    pub played: FamilyReplay,
    /// Each position's evaluation, the start first.
    pub evals: Vec<Eval>,
    /// The searches done.
    pub work: Work,
    /// The losing move, the costly ones, the hint ([`findings::find`]).
    pub findings: Findings,
}

/// The usage problem of `--game` (`given_game`) or `--freecells` (`given_freecells`)
/// naming another game than `file_game`, the game a PySolFC saved or held game holds (by its
/// id; `file` names the file in the message): `--game` may repeat the file's game,
/// `--freecells` its number of freecells.
pub fn game_disagrees(
    file: &str,
    file_game: &'static Game,
    given_game: Option<&Game>,
    given_freecells: Option<u8>,
) -> Option<String> {
    let holds = format!(
        "{file} is a PySolFC game of {} (PySolFC id {})",
        file_game.pysol_name, file_game.pysol_id
    );
    if let Some(g) = given_game.filter(|g| g.pysol_id != file_game.pysol_id) {
        return Some(format!(
            "{holds}, and --game names {} (PySolFC id {}): the file's id says the game; leave out --game",
            g.pysol_name, g.pysol_id
        ));
    }
    let cells = file_game.rules.freecells;
    given_freecells.filter(|&n| n != cells).map(|n| {
        format!(
            "{holds}, played with {}, and --freecells asks for {n}: leave out --freecells",
            fcauto_deals::plural(cells, "freecell")
        )
    })
}

/// How the family search evaluates each position of a game of `game` under `rules` in
/// `mode` within `max_states`: in every mode `solve --game` solves the game in (the one rule,
/// [`crate::bench::family_mode`]), the optimal modes included (each line a search finds
/// then proved shortest in the mode's count).
///
/// # Errors
/// The one line (exit 2 on the command line) saying why the game is not solved in `mode`:
/// `optimal-ph`, or `optimal` for an unlimited-sequence game.
pub fn settings(
    game: &Game,
    rules: &Rules,
    mode: Mode,
    max_states: Option<usize>,
) -> Result<FamilySettings, String> {
    Ok(FamilySettings {
        mode: crate::bench::family_mode(mode, game, rules)?,
        max_states,
    })
}

/// `moves` replayed from `start` by the family's validator ([`replay_family`]); `name`
/// names the game file in errors.
///
/// # Errors
/// More than [`MAX_MOVES`] moves, an illegal move (its step named).
pub fn replay(start: &Start, moves: &[TextMove], name: &str) -> Result<FamilyReplay> {
    anyhow::ensure!(
        moves.len() <= MAX_MOVES,
        "{name}: {} moves: analyze takes games of at most {MAX_MOVES} moves",
        moves.len()
    );
    replay_family(start.game, &start.rules, &start.layout, moves)
}

/// Every position of `played` evaluated by the family search ([`evaluate_family_until`],
/// `tick` called once a position), the moves that look costly by at least `costly` moves
/// confirmed ([`confirm_costly_family_until`]), then the losing and costly moves found.
///
/// # Errors
/// A search that fails (as [`super::family::evaluate_family`]).
pub fn evaluate(
    played: FamilyReplay,
    settings: FamilySettings,
    costly: usize,
    mut tick: impl FnMut(),
) -> Result<Analysis> {
    let mut go_on = || {
        tick();
        true
    };
    let (mut evals, mut work) = evaluate_family_until(&played, settings, &mut go_on)?;
    confirm_costly_family_until(
        &mut evals,
        &played,
        settings,
        costly,
        &mut work,
        &mut || true,
    )?;
    let findings = findings::find(&played, &evals, costly);
    Ok(Analysis {
        played,
        evals,
        work,
        findings,
    })
}

impl Analysis {
    /// The [`Document`] of the analysis of the game from `start`, searched in `mode`: the
    /// game's title, the deal, the input, the start position and what was found.
    pub fn document(&self, start: &Start, mode: Mode) -> Document<'_> {
        Document {
            game: Some(title(start.game, &start.rules)),
            deal: start.deal,
            input: start.input,
            start: self.played.position_text(0),
            mode,
            guessed_counts: &self.played.guessed_counts,
            findings: &self.findings,
        }
    }
}
