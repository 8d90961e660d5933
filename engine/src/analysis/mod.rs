//! Where a game was lost (`fcauto analyze`): every position of the game is evaluated
//! (winnable with a validated line, lost by the complete search, or unknown at a named
//! limit); the move that turned a winnable position into a lost one, a move that would have
//! kept it winnable, the costly moves and a hint for the final position are found, and told
//! as a table, a JSON document, pictures and a report bundle.
//!
//! Every game of the FreeCell family is analysed: standard FreeCell through
//! [`replay`] and [`evaluate`] (the standard solver), the other games through [`family`]
//! (the family search, [`fcauto_solver::family::solve_family`]) staged by [`family_flow`];
//! the outputs read either game as a [`record::Record`].
//!
//! Stages, each a function with its inputs and outputs (reading the game is the command's):
//! 1. [`replay::replay`]: the moves checked by the validator's rules → [`replay::Replay`];
//! 2. [`evaluate::evaluate`] and [`evaluate::confirm_costly`]: every position searched
//!    through [`fcauto_solver::checked::solve_checked`] or known from a line already found
//!    → [`evaluate::Eval`]s;
//! 3. [`findings::find`]: the losing move, the costly ones, the hint →
//!    [`findings::Findings`];
//! 4. words and files: [`summary`] (the [`summary::Document`], the table, the conclusions),
//!    [`work_done`] (the searches and the time they took),
//!    [`pictures`] (which positions are drawn, drawn by [`crate::render`]), [`report`] (the
//!    bundle's contents);
//! 5. the review: [`review`] (the evaluation graph's points, each move's class, the
//!    accuracy), told by [`review_page`] (the bundle's `index.html`, with [`chart`]'s graph)
//!    and by the service's analysis ([`crate::service::analyze`]).
//!
//! Nothing here prints or touches the file system: the command writes what these return.

use fcauto_solver::PlayedMove;

pub mod chart;
pub mod evaluate;
pub mod family;
pub mod family_flow;
pub mod findings;
pub mod pictures;
pub mod record;
pub mod replay;
pub mod report;
pub mod review;
pub mod review_page;
pub mod summary;
pub mod work_done;

/// Most moves a game analysed may have: every position after a move is searched or
/// followed along a known line, at a cost that grows with the square of the game's length
/// (measured: 1,000 moves 2.6 s, 3,000 moves 30 s, 10,000 moves 6 minutes; a million took
/// 1.3 GB before any limit), and a FreeCell game has a few hundred.
pub const MAX_MOVES: usize = 2_000;

/// Default `--costly`: a move that makes the shortest known win this many moves longer is
/// costly. Fast mode's lines are about 10% longer than the shortest ones (92 against 83
/// moves over deals 1..32000), so smaller differences are mostly the search's noise.
pub const DEFAULT_COSTLY: usize = 10;

/// The first move of the shortest known win from each position (`None` where it is not
/// winnable, or already won): what the pictures draw as the better move and the hint.
pub fn best_moves(evals: &[evaluate::Eval]) -> Vec<Option<PlayedMove>> {
    evals
        .iter()
        .map(|e| e.status.line().and_then(|l| l.first().copied()))
        .collect()
}
