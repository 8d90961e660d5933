//! PySolFC's saved and held games (`.pso`, `holdgame.dat`) read from their bytes into the
//! game they hold, and that game (FreeCell, or another game of its family) into a start and
//! moves for the analysis: what
//! `fcauto analyze`, `serve`'s `POST /api/analyze` and MCP's `analyze_game` share.
//!
//! The bytes go through automation's guarded pickle decoder (no code runs:
//! [`savedgame::parse`]); the game comes from the file's id ([`savedgame::SavedGame::game_history`]:
//! FreeCell, or another game of its family with its own stacks). Bytes only: reading the
//! file and its size cap are the caller's.

use std::path::Path;

use crate::analysis::family::{parse_moves, TextMove};
use fcauto_automation::pysol::savedgame::{
    self, FamilyHistory, FreecellHistory, GameHistory, SavedGameError,
};
use fcauto_deals::{Board, Game, Layout, PysolNumber};
use fcauto_solver::{standard, StepMove};

/// Why bytes are no game to analyse. Each displays as one line; `name` is how the caller
/// names the input (`game file x.pso`, `saved_game`).
#[derive(Debug, thiserror::Error)]
pub enum PysolGameError {
    /// Not a pickle at all.
    #[error("{name} is not a PySolFC saved or held game: those are Python pickles, whose first byte is 0x80 ({found})")]
    NotPickle {
        /// The input's name.
        name: String,
        /// What it starts with, in words.
        found: String,
    },
    /// PySolFC's statistics.dat given for a game.
    #[error("{name} holds PySolFC's statistics, not a game: read it with `fcauto stats`")]
    Statistics {
        /// The input's name.
        name: String,
    },
    /// The saved-game reader's refusal (its message starts with the input's origin).
    #[error(transparent)]
    Saved(#[from] SavedGameError),
    /// A game of the family other than FreeCell, where FreeCell's is needed.
    #[error("{name} is a game of {} (PySolFC id {}): the analysis reads games of FreeCell (PySolFC id 8) only", game.pysol_name, game.pysol_id)]
    NotFreecell {
        /// The input's name.
        name: String,
        /// The game the file holds.
        game: &'static Game,
    },
    /// A move of the history that standard notation does not read.
    #[error(
        "{name}: move {step} of the saved history, `{token}`, is not a standard-notation move"
    )]
    BadMove {
        /// The input's name.
        name: String,
        /// 1-based.
        step: usize,
        /// The token.
        token: String,
    },
}

/// A PySolFC saved or held game as read.
#[derive(Clone, Debug)]
pub struct PysolGame {
    /// The game, its start, moves and position.
    pub history: GameHistory,
    /// Written by *Hold and quit* (`gstats.holded`).
    pub held: bool,
    /// Bytes after the pickle's end, ignored as PySolFC ignores them.
    pub trailing_bytes: usize,
}

/// A FreeCell game of a saved or held game, ready for the analysis.
#[derive(Clone, Debug)]
pub struct FreecellGame {
    /// The Microsoft deal, when the seed is one.
    pub deal: Option<u64>,
    /// The start (the deal, or for PySolFC's own deals the stored stacks with the moves
    /// taken back).
    pub start: Board,
    /// The moves as PySolFC recorded them (its auto-drops included), counts written.
    pub moves: Vec<StepMove>,
}

/// A game of the family other than standard FreeCell, of a saved or held game, ready for
/// the family analysis.
#[derive(Clone, Debug)]
pub struct FamilyGame {
    /// The game (from the file's PySolFC id).
    pub game: &'static Game,
    /// PySolFC's number of the deal (`ms617`, `40000`), when the seed is one.
    pub number: Option<PysolNumber>,
    /// The start: the stored stacks with the moves taken back (PySolFC's deal `number`).
    pub start: Layout,
    /// The moves as PySolFC recorded them (its auto-drops included), in the family's
    /// standard notation, counts written.
    pub moves: Vec<TextMove>,
}

impl FamilyGame {
    /// The deal number as `fcauto deal --game G N` takes it (PySolFC's numbering: the
    /// Microsoft shuffle below 32000, the Mersenne Twister from 32000 on): `None` for a
    /// `Custom` deal and for a Microsoft number from 32000 on, which that numbering would
    /// read as another deal.
    pub fn deal(&self) -> Option<u64> {
        self.number?.plain_deal()
    }
}

/// The game a saved or held game holds, read for the analysis.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Standard FreeCell (PySolFC id 8).
    Freecell(FreecellGame),
    /// Another game of the family.
    Family(FamilyGame),
}

/// Read the bytes of a saved or held game; `origin` names it in the reader's errors and
/// `name` in this module's (`game file x.pso`, `saved_game`).
///
/// # Errors
/// [`PysolGameError`]: not a pickle; PySolFC's statistics; the reader's refusals (damaged,
/// truncated, another PySolFC version, a game id fcauto does not play, a history that does
/// not lead to the stored position).
pub fn read_pysol_game(
    bytes: &[u8],
    origin: &Path,
    name: &str,
) -> Result<PysolGame, PysolGameError> {
    if bytes.first() != Some(&0x80) && !fcauto_deals::text::looks_like_pickle(bytes) {
        let found = match bytes.first() {
            None => "it is empty".to_string(),
            Some(b) => format!("it starts with byte 0x{b:02x}"),
        };
        return Err(PysolGameError::NotPickle {
            name: name.to_string(),
            found,
        });
    }
    let saved = match savedgame::parse(bytes, origin, false) {
        Ok(saved) => saved,
        Err(_) if fcauto_automation::pysol::stats::parse(bytes).is_ok() => {
            return Err(PysolGameError::Statistics {
                name: name.to_string(),
            })
        }
        Err(e) => return Err(e.into()),
    };
    let history = saved.game_history(origin)?;
    Ok(PysolGame {
        history,
        held: saved.held == Some(true),
        trailing_bytes: saved.trailing_bytes,
    })
}

impl PysolGame {
    /// The game.
    pub fn game(&self) -> &'static Game {
        self.history.game()
    }

    /// The FreeCell game's deal, start and moves (read by standard notation's reader).
    ///
    /// # Errors
    /// [`PysolGameError::NotFreecell`] for another game; [`PysolGameError::BadMove`].
    pub fn freecell(&self, name: &str) -> Result<FreecellGame, PysolGameError> {
        let GameHistory::Freecell(h) = &self.history else {
            return Err(PysolGameError::NotFreecell {
                name: name.to_string(),
                game: self.game(),
            });
        };
        freecell_game(h, name)
    }
}

impl PysolGame {
    /// The game read for the analysis, of whichever game of the family it is.
    ///
    /// # Errors
    /// [`PysolGameError::BadMove`]: a recorded move standard notation does not read.
    pub fn any_game(&self, name: &str) -> Result<AnyGame, PysolGameError> {
        match &self.history {
            GameHistory::Freecell(h) => freecell_game(h, name).map(AnyGame::Freecell),
            GameHistory::Family(h) => family_game(h, name).map(AnyGame::Family),
        }
    }
}

fn family_game(h: &FamilyHistory, name: &str) -> Result<FamilyGame, PysolGameError> {
    let moves = h
        .moves
        .iter()
        .enumerate()
        .map(|(i, t)| match parse_moves(t).ok().as_deref() {
            Some([m]) => Ok(*m),
            _ => Err(PysolGameError::BadMove {
                name: name.to_string(),
                step: i + 1,
                token: t.clone(),
            }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(FamilyGame {
        game: h.game,
        number: h.number,
        start: h.start.clone(),
        moves,
    })
}

fn freecell_game(h: &FreecellHistory, name: &str) -> Result<FreecellGame, PysolGameError> {
    let moves = h
        .moves
        .iter()
        .enumerate()
        .map(|(i, t)| {
            standard::parse_token(t).ok_or_else(|| PysolGameError::BadMove {
                name: name.to_string(),
                step: i + 1,
                token: t.clone(),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(FreecellGame {
        deal: h.deal,
        start: h.start.clone(),
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(path: &str) -> Vec<u8> {
        std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../tests/fixtures")
                .join(path),
        )
        .unwrap()
    }

    #[test]
    fn a_freecell_game_reads_into_a_start_and_moves() {
        let bytes = fixture("pysolfc/holdgame-617-winnable.dat");
        let g = read_pysol_game(&bytes, Path::new("x"), "x").unwrap();
        assert!(g.held);
        let f = g.freecell("x").unwrap();
        assert_eq!((f.deal, f.moves.len()), (Some(617), 10));
        assert_eq!(f.start, fcauto_deals::ms_deal(617).unwrap());
    }

    #[test]
    fn other_inputs_are_refused_in_words() {
        let e = read_pysol_game(b"3a 38", Path::new("s"), "saved_game").unwrap_err();
        assert!(
            e.to_string()
                .contains("saved_game is not a PySolFC saved or held game"),
            "{e}"
        );
        let e = read_pysol_game(b"", Path::new("s"), "saved_game").unwrap_err();
        assert!(e.to_string().contains("it is empty"), "{e}");
        let stats = fixture("pysolfc/shared-ms617/statistics.dat");
        let e = read_pysol_game(&stats, Path::new("s"), "saved_game").unwrap_err();
        assert!(e.to_string().contains("PySolFC's statistics"), "{e}");
        let bakers = fixture("savedgame-family/holdgame-bakers-617-20.dat");
        let g = read_pysol_game(&bakers, Path::new("s"), "saved_game").unwrap();
        let e = g.freecell("saved_game").unwrap_err().to_string();
        assert!(e.contains("Baker's Game (PySolFC id 45)"), "{e}");
    }

    #[test]
    fn a_family_game_reads_into_its_game_start_and_moves() {
        let bytes = fixture("savedgame-family/saved-seahaven-40000-15.pso");
        let g = read_pysol_game(&bytes, Path::new("x"), "x").unwrap();
        let AnyGame::Family(f) = g.any_game("x").unwrap() else {
            panic!("a Seahaven Towers game")
        };
        assert_eq!(
            (f.game.pysol_id, f.deal(), f.moves.len()),
            (9, Some(40000), 15)
        );
        let n = PysolNumber::plain(40000).unwrap();
        assert_eq!(f.start, fcauto_deals::deal_game(f.game, n));
        let bytes = fixture("savedgame-family/holdgame-fc2-ms5-10.dat");
        let g = read_pysol_game(&bytes, Path::new("x"), "x").unwrap();
        let AnyGame::Family(f) = g.any_game("x").unwrap() else {
            panic!("a FreeCell (2 reserves) game")
        };
        assert_eq!(
            (f.game.pysol_id, f.deal(), f.moves.len()),
            (1900, Some(5), 10)
        );
    }
}
