//! `fcauto verify`: check a solution with the independent validator.

use crate::cmd::input::load_board;
use anyhow::{Context, Result};
use fcauto_solver::{parse_fcs_output, parse_json, validate};
use std::path::PathBuf;

/// Arguments of `fcauto verify`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["deal", "board"])))]
pub struct Args {
    /// MS deal number the solution starts from.
    #[arg(long, allow_hyphen_values = true)]
    pub deal: Option<String>,
    /// Board file (Freecell Solver's format) the solution starts from.
    #[arg(long, value_name = "FILE")]
    pub board: Option<PathBuf>,
    /// The solution: our JSON (`fcauto solve --format json`), or fc-solve's `-sam` output.
    pub solution: PathBuf,
}

/// Validate; exit 0 when every move is legal and all cards end home, 1 otherwise (the error
/// names the first illegal step).
pub fn run(args: Args) -> Result<i32> {
    let (_, board) = load_board(args.deal.as_deref(), args.board.as_deref())?;
    let text = std::fs::read_to_string(&args.solution)
        .with_context(|| format!("cannot read solution {}", args.solution.display()))?;
    let moves = if text.trim_start().starts_with('{') {
        let (sol, moves) =
            parse_json(&text).with_context(|| format!("solution {}", args.solution.display()))?;
        if let Some(b) = &sol.board {
            anyhow::ensure!(
                *b == board.cascades,
                "the solution's `board` is not the board given (wrong --deal or --board?)"
            );
        }
        anyhow::ensure!(
            sol.moves_total == 0 || sol.moves_total == moves.len(),
            "`moves_total` says {} but {} moves are listed",
            sol.moves_total,
            moves.len()
        );
        moves
    } else {
        parse_fcs_output(&text)
            .with_context(|| format!("solution {}", args.solution.display()))?
            .1
    };
    let v = validate(&board, &moves)?;
    println!(
        "valid: {} moves, {} single-card moves; all 52 cards on the foundations",
        v.moves_total, v.single_card_moves
    );
    Ok(0)
}
