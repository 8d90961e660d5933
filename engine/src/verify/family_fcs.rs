//! Freecell Solver's output of a family game (`fc-solve -g G -sam`, its positions between
//! its moves in `-p`'s layout or, without `-p`, in its table layout): its move lines (stacks and freecells numbered from 0), its
//! verdict, and every position it prints checked, as the standard verify checks FreeCell's
//! ([`crate::input::check_fcs_states`]): the first must be the start given (else the output
//! is of another deal, a usage problem), each later one the position its moves lead to.

use super::family::{replay, FamilyReport, FamilyStart};
use super::{NoStart, NotAWin};
use crate::input::StartConflict;
use anyhow::{Context, Result};
use fcauto_deals::{Game, Layout, Rules};
use fcauto_solver::family::fcs_table::table_layout;
use fcauto_solver::family::read_fcs_output;
use fcauto_solver::family::validator::play_checked;
use fcauto_solver::solution::scan_printed_positions;
use fcauto_solver::FcsVerdict;

/// fc-solve's verdict when `text` says it did not solve the game.
pub(super) fn not_solved(text: &str) -> Option<FcsVerdict> {
    text.lines().map(str::trim).find_map(|l| match l {
        "I could not solve this game." => Some(FcsVerdict::NotSolved),
        "Iterations count exceeded." => Some(FcsVerdict::LimitExceeded),
        _ => None,
    })
}

/// The positions fc-solve prints between its moves, in either layout: `-p`'s (a
/// `Foundations:` line, a `Freecells:` line, the `: ` cascade lines) or its table layout
/// without `-p` ([`table_layout`]: freecells and foundations on top, the cascades in
/// columns), each with the number of move lines before it, read as positions of `game`
/// under `rules`.
///
/// # Errors
/// A printed position that does not read as one of the game (named with its line); a first
/// one of another game's shape is a [`StartConflict`].
pub(super) fn printed_positions(
    text: &str,
    game: &Game,
    rules: &Rules,
) -> Result<Vec<(usize, Layout)>> {
    scan_printed_positions(
        text,
        |lines, i, moves| {
            table_layout(lines, i).map(|(read, end)| {
                let layout = read
                    .map_err(|(line, e)| not_a_position(line, &e, game, rules))
                    .and_then(|layout| checked_table(layout, i, moves, game, rules));
                (layout, end)
            })
        },
        |lines, block, moves| {
            let text = lines[block.clone()].join("\n");
            Layout::parse(&text, rules).map_err(|e| {
                // Its start of another game's shape: the output is of another game.
                let other = crate::input::fitting_game(&text, game);
                other_game(other, moves, game, rules)
                    .unwrap_or_else(|| not_a_position(block.start + 1, &e, game, rules))
            })
        },
    )
}

/// A table-layout position read at line `i` (after `moves` move lines) checked against
/// `rules`: one of another game's shape (only as the first position) says the output is of
/// that game.
fn checked_table(
    layout: Layout,
    i: usize,
    moves: usize,
    game: &Game,
    rules: &Rules,
) -> Result<Layout> {
    let Err(e) = layout.check(rules) else {
        return Ok(layout);
    };
    let other = fcauto_deals::GAMES.iter().find(|g| {
        g.name != game.name
            && g.rules.cascades as usize == layout.cascades.len()
            && g.rules.freecells as usize == layout.freecells.len()
            && layout.check(&g.rules).is_ok()
    });
    Err(other_game(other, moves, game, rules)
        .unwrap_or_else(|| not_a_position(i + 1, &e, game, rules)))
}

/// fc-solve's first position (`moves` 0) read as one of `other`'s: the output is of another
/// game, a usage problem naming both. `None` for a later position or no such game.
fn other_game(
    other: Option<&Game>,
    moves: usize,
    game: &Game,
    rules: &Rules,
) -> Option<anyhow::Error> {
    let other = other.filter(|_| moves == 0)?;
    Some(
        StartConflict(format!(
            "fc-solve's output starts from a position of {}, not of {}: give --game {}",
            other.name,
            super::family::title(game, rules),
            other.name
        ))
        .into(),
    )
}

/// The position fc-solve prints at `line` (1-based) is not one of the game: `e` says why.
fn not_a_position(
    line: usize,
    e: &dyn std::fmt::Display,
    game: &Game,
    rules: &Rules,
) -> anyhow::Error {
    anyhow::anyhow!(
        "the position fc-solve prints at line {line} is not a position of {}: {e}",
        super::family::title(game, rules)
    )
}

/// Verify fc-solve's output `text` of `game` under `rules` from `given` (`None`: its first
/// printed position).
///
/// # Errors
/// As [`super::family::verify_family`]; a printed position that is not the one the moves
/// lead to; a first position that is not the start given ([`StartConflict`]).
pub(super) fn verify_fcs(
    text: &str,
    (game, rules): (&'static Game, Rules),
    given: Option<FamilyStart>,
    name: &str,
) -> Result<FamilyReport> {
    let (verdict, moves) = read_fcs_output(text).with_context(|| name.to_string())?;
    if moves.is_empty() && verdict != FcsVerdict::Solved {
        return Err(NotAWin(format!(
            "{name} is fc-solve's output of a game it did not solve ({verdict}): it has no \
             moves to verify"
        ))
        .into());
    }
    let states = printed_positions(text, game, &rules).with_context(|| name.to_string())?;
    let first = states.iter().find(|(n, _)| *n == 0).map(|(_, l)| l.clone());
    let (start, from) = match (given, first) {
        (Some(g), _) => {
            let from = match g.deal {
                Some(_) => "the deal given",
                None => "the board given",
            };
            (g, from)
        }
        (None, Some(layout)) => (
            FamilyStart {
                game,
                rules,
                layout,
                deal: None,
            },
            "its first printed position",
        ),
        (None, None) => {
            return Err(NoStart(format!(
                "{name} is fc-solve's output without its positions (`-p -t`), which names no \
                 start: give --deal N or --board FILE"
            ))
            .into())
        }
    };
    let mut pos = start.layout.clone();
    let mut states = states.iter().peekable();
    for k in 0..=moves.len() {
        while let Some((_, s)) = states.next_if(|(n, _)| *n == k) {
            if k == 0 && *s != pos {
                return Err(StartConflict(format!(
                    "{name}: fc-solve's output starts from another board than {from} (wrong \
                     --deal or --board?)"
                ))
                .into());
            }
            anyhow::ensure!(
                *s == pos,
                "{name}: the position fc-solve prints after move {k} is not the one its moves \
                 lead to"
            );
        }
        if k == moves.len() || play_checked(&mut pos, &start.rules, &moves[k]).is_err() {
            break;
        }
    }
    replay(&start, &moves, name)
}
