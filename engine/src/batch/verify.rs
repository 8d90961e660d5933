//! `fcauto batch report --verify`, and a resumed `batch run` before it adds a row: every
//! stored solution replayed again by the validator,
//! from the deal its row names, and its stored lengths checked against the replay. A
//! database that came back from a cluster, or was merged from shards written by other
//! builds, is then known good rather than assumed good.
//!
//! Stages: read the solved rows in blocks (20,000 rows, in deal order, so memory does
//! not grow with the database), check each block's rows in parallel, tally.
//!
//! A database of another game of the FreeCell family replays its solutions with the
//! family's validator ([`validate_family`]) under the database's rules, from the deal its
//! game and numbering give.

use crate::bench::variant::Variant;
use anyhow::Result;
use fcauto_solver::family::{read_standard, validate_family};
use fcauto_solver::{parse_standard, resolve_counts, validate};
use rayon::prelude::*;
use rusqlite::Connection;
use serde::Serialize;

/// Solved rows read and checked at a time.
const BLOCK: i64 = 20_000;

/// Failures named in full; the rest are only counted.
const NAMED: usize = 20;

/// What the re-validation found.
#[derive(Serialize, Debug, Default)]
pub struct Verification {
    /// Solved rows replayed.
    pub checked: u64,
    /// Rows whose solution the validator rejected, or whose stored lengths differ from the
    /// replay's.
    pub invalid: u64,
    /// The first 20 of them (lowest deals first): the deal and what is wrong.
    pub first_invalid: Vec<(u64, String)>,
}

/// A solved row as read: deal, solution, moves_total, single_card_moves.
type SolvedRow = (u64, Option<String>, Option<i64>, Option<i64>);

/// Replay every solved row of the results table on `conn` (a batch database's, or
/// one a resumed run is about to write to; on the current rayon pool), as deals of
/// `variant`.
pub fn verify(conn: &Connection, variant: &Variant) -> Result<Verification> {
    let mut v = Verification::default();
    let mut st = conn.prepare(
        "SELECT deal, solution, moves_total, single_card_moves FROM results \
         WHERE verdict = 'solved' AND deal > ?1 ORDER BY deal LIMIT ?2",
    )?;
    let mut after = -1i64;
    loop {
        let block: Vec<SolvedRow> = st
            .query_map([after, BLOCK], |r| {
                Ok((r.get::<_, i64>(0)? as u64, r.get(1)?, r.get(2)?, r.get(3)?))
            })?
            .collect::<Result<_, _>>()?;
        let Some(last) = block.last() else {
            return Ok(v);
        };
        after = last.0 as i64;
        let failed: Vec<(u64, String)> = block
            .par_iter()
            .filter_map(|(deal, sol, mt, sc)| {
                check_row(variant, *deal, sol.as_deref(), *mt, *sc)
                    .err()
                    .map(|e| (*deal, e))
            })
            .collect();
        v.checked += block.len() as u64;
        v.invalid += failed.len() as u64;
        let room = NAMED.saturating_sub(v.first_invalid.len());
        v.first_invalid.extend(failed.into_iter().take(room));
    }
}

/// Replay one solved row: its solution (standard notation) must win deal `deal` of
/// `variant`, with the stored lengths; else what is wrong.
fn check_row(
    variant: &Variant,
    deal: u64,
    solution: Option<&str>,
    moves_total: Option<i64>,
    single_card_moves: Option<i64>,
) -> Result<(), String> {
    let text = solution.ok_or("solved, but no solution is stored")?;
    if !variant.is_standard() {
        return check_family_row(variant, deal, text, moves_total, single_card_moves);
    }
    let board = (variant.standard_board(deal)).map_err(|e| format!("not a deal: {e}"))?;
    let plain = parse_standard(text).map_err(|e| e.to_string())?;
    let moves = resolve_counts(&board, &plain).map_err(|e| e.to_string())?;
    let got = validate(&board, &moves).map_err(|e| e.to_string())?;
    let stored = (moves_total, single_card_moves);
    let replayed = (
        Some(got.moves_total as i64),
        Some(got.single_card_moves as i64),
    );
    if stored != replayed {
        return Err(format!(
            "stored lengths {} moves, {} single-card moves; the solution has {} and {}",
            show(moves_total),
            show(single_card_moves),
            got.moves_total,
            got.single_card_moves
        ));
    }
    Ok(())
}

/// [`check_row`] for a game of the family other than standard FreeCell: the solution read
/// by the family's reader of standard notation ([`read_standard`]: counts left out found on
/// the replay) from the deal's layout, then replayed by [`validate_family`]; its length
/// must be the stored `moves_total`, and no single-card count is stored.
fn check_family_row(
    variant: &Variant,
    deal: u64,
    text: &str,
    moves_total: Option<i64>,
    single_card_moves: Option<i64>,
) -> Result<(), String> {
    let start = variant
        .layout(deal)
        .map_err(|e| format!("not a deal: {e}"))?;
    let moves = read_standard(text, &start, &variant.rules).map_err(|e| e.to_string())?;
    validate_family(&start, &variant.rules, &moves).map_err(|e| e.to_string())?;
    let stored = (moves_total, single_card_moves);
    if stored != (Some(moves.len() as i64), None) {
        return Err(format!(
            "stored lengths {} moves, {} single-card moves; the solution has {} moves (and \
             no single-card count in this game)",
            show(moves_total),
            show(single_card_moves),
            moves.len()
        ));
    }
    Ok(())
}

/// A stored count, or `none`.
fn show(n: Option<i64>) -> String {
    n.map_or("none".into(), |n| n.to_string())
}
