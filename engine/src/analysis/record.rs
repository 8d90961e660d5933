//! A game analysed as the outputs read it ([`Record`]): its moves in standard notation, the
//! moves as drawn, each position as text and as a picture, a line's notation from any
//! position, and its replay. Standard FreeCell's [`Replay`] and a family game's
//! [`super::family::FamilyReplay`] are records, so that the findings, the pictures, the
//! report and the review page are written once for every game.

use super::replay::{standard_tokens, Replay};
use crate::render;
use anyhow::Result;
use fcauto_deals::PysolNumber;
use fcauto_solver::{PlayedMove, Solution};

/// A game analysed: `played().len() + 1` positions, the start first.
pub trait Record {
    /// Each move played in standard notation.
    fn notation(&self) -> &[String];
    /// The moves played, as the renderer draws them.
    fn played(&self) -> &[PlayedMove];
    /// `line`, played from the position after `k` moves, in standard notation.
    fn tokens(&self, k: usize, line: &[PlayedMove]) -> Vec<String>;
    /// The position after `k` moves as a one-line position string.
    fn position_text(&self, k: usize) -> String;
    /// True when every card is home after `k` moves.
    fn is_won(&self, k: usize) -> bool;
    /// The position after `k` moves, to draw.
    fn position(&self, k: usize) -> render::Position;
    /// How captions name the game: `deal 617` (`the game` without a deal number).
    fn name(&self, deal: Option<PysolNumber>) -> String;
    /// How headings name it: `Deal 617`, `A board` (`capital`), or `deal 617`, `a board`.
    fn heading(&self, deal: Option<PysolNumber>, capital: bool) -> String;
    /// The replay page's parts of the game ([`render::line_parts`]).
    ///
    /// # Errors
    /// A move illegal where it is played (not expected: the game was replayed).
    fn replay_parts(&self, deal: Option<PysolNumber>) -> Result<render::ReplayParts>;
    /// The replay page of `line` (standard notation) played from the position after `k`
    /// moves.
    ///
    /// # Errors
    /// The line does not replay.
    fn line_html(&self, k: usize, line: &[String]) -> Result<String>;
}

impl Record for Replay {
    fn notation(&self) -> &[String] {
        &self.notation
    }

    fn played(&self) -> &[PlayedMove] {
        &self.played
    }

    fn tokens(&self, k: usize, line: &[PlayedMove]) -> Vec<String> {
        standard_tokens(&self.positions[k], line)
    }

    fn position_text(&self, k: usize) -> String {
        fcauto_deals::position::write(&self.positions[k])
    }

    fn is_won(&self, k: usize) -> bool {
        self.positions[k].is_won()
    }

    fn position(&self, k: usize) -> render::Position {
        render::Position::Board(self.positions[k].clone())
    }

    fn name(&self, deal: Option<PysolNumber>) -> String {
        deal.map_or("the game".to_string(), |n| format!("deal {n}"))
    }

    fn heading(&self, deal: Option<PysolNumber>, capital: bool) -> String {
        match (deal, capital) {
            (Some(n), true) => format!("Deal {n}"),
            (Some(n), false) => format!("deal {n}"),
            (None, true) => "A board".to_string(),
            (None, false) => "a board".to_string(),
        }
    }

    fn replay_parts(&self, deal: Option<PysolNumber>) -> Result<render::ReplayParts> {
        let solution = Solution {
            deal: deal.and_then(PysolNumber::plain_deal),
            board: self.positions[0].clone(),
            moves: self.played.clone(),
        };
        render::replay_parts(&solution, &render::Options::default())
    }

    fn line_html(&self, k: usize, line: &[String]) -> Result<String> {
        let start = &self.positions[k];
        let moves = fcauto_solver::parse_standard(&line.join(" "))?;
        let line = super::replay::replay(start, &moves)?;
        let solution = Solution {
            deal: None,
            board: start.clone(),
            moves: line.played,
        };
        render::replay_html(&solution, &render::Options::default())
    }
}
