//! Stage 1 of `analyze`, read the input: a move list (with `--deal`/`--board`), a position
//! (a board file, PySolFC's *Export current layout*, a position string), or a PySolFC
//! saved or held game, into a [`Game`]: the start position and the moves as written; a
//! saved or held game of another game of the family into a [`SavedFamily`] ([`Read`]).
//! The file is read here; its text is read into a game by
//! [`fcauto_engine::input::game`], its pickles by [`fcauto_engine::input::read_pysol_game`].

use crate::cmd::input::{self, is_stdio, load_board};
use anyhow::Result;
use fcauto_engine::input::game::{agree_start, read_text_game, Given};
pub use fcauto_engine::input::game::{Game, Kind, UsageProblem, MAX_INPUT};
use std::path::Path;

/// What [`read_game`] read: a game of standard FreeCell, or a PySolFC saved or held game
/// of another game of the family (analysed by [`super::family`]).
#[derive(Clone, Debug)]
pub enum Read {
    /// Standard FreeCell.
    Freecell(Game),
    /// A saved or held game of another game of the family.
    Family(SavedFamily),
}

/// A PySolFC saved or held game of a game of the family other than FreeCell.
#[derive(Clone, Debug)]
pub struct SavedFamily {
    /// Its game, number, start and moves.
    pub game: fcauto_engine::input::FamilyGame,
    /// Written by *Hold and quit*.
    pub held: bool,
}

/// True when `file` (not standard input) opens as a PySolFC saved or held game (a pickle):
/// its game, not `--game`, says which game it is.
pub fn is_pysol_file(file: &Path) -> bool {
    use std::io::Read as _;
    if is_stdio(file) {
        return false;
    }
    let mut head = [0u8; 16];
    let n = std::fs::File::open(file)
        .and_then(|f| f.take(16).read(&mut head))
        .unwrap_or(0);
    input::looks_like_pickle(&head[..n])
}

/// Read `file` (`-`: standard input) as a game. `deal` and `board` give the start of a
/// move list and are refused with the other kinds, which carry their own.
///
/// # Errors
/// Unreadable or too large; a move list without `--deal`/`--board` or with a bad token (line
/// and token named); a board with a problem (line and token); a saved game that is damaged
/// or of a game fcauto does not play; a file that is none of these ("unknown file format").
pub fn read_game(file: &Path, deal: Option<u64>, board: Option<&Path>) -> Result<Read> {
    let name = input::name(file, "game file");
    let bytes =
        input::read_bytes_capped(file, "game file", MAX_INPUT, "a game is a few kilobytes")?;
    let load = || load_board(deal, board);
    let given = Given {
        deal,
        board: board.is_some(),
        load: &load,
    };
    if input::looks_like_pickle(&bytes) {
        let game = match read_pysol_game(file, &name, &bytes)? {
            Read::Freecell(game) => game,
            family => return Ok(family),
        };
        agree_start(given, &name, &game)?;
        return Ok(Read::Freecell(game));
    }
    read_text_game(&name, bytes, given).map(Read::Freecell)
}

/// A PySolFC saved or held game, through the guarded pickle decoder (no code runs), read by
/// [`fcauto_engine::input::read_pysol_game`]: a game of FreeCell, or of another game of the
/// family (its game from the file's id).
fn read_pysol_game(file: &Path, name: &str, bytes: &[u8]) -> Result<Read> {
    use fcauto_engine::input::AnyGame;
    use fcauto_engine::input::PysolGameError;
    if is_stdio(file) {
        let msg = format!("{name}: a PySolFC saved game is read from a file, not standard input");
        return Err(UsageProblem(msg).into());
    }
    // The reader's errors start with the path: "game file" is added, not the path again.
    let named = |e: PysolGameError| match e {
        PysolGameError::Saved(e) => anyhow::anyhow!("game file {e}"),
        e => anyhow::Error::new(e),
    };
    let saved = fcauto_engine::input::read_pysol_game(bytes, file, name).map_err(named)?;
    if saved.trailing_bytes > 0 {
        crate::note!(
            "fcauto analyze: warning: {name}: {} after the pickle's end ignored (PySolFC ignores them too)",
            crate::cmd::plural(saved.trailing_bytes, "trailing byte")
        );
    }
    // A Microsoft deal's start is the deal; another's (PySolFC's own deals) is rebuilt
    // from the stored stacks by taking the moves back.
    Ok(match saved.any_game(name).map_err(named)? {
        AnyGame::Freecell(game) => Read::Freecell(Game {
            deal: game.deal,
            start: game.start,
            moves: game.moves,
            kind: Kind::PysolGame { held: saved.held },
        }),
        AnyGame::Family(game) => Read::Family(SavedFamily {
            game,
            held: saved.held,
        }),
    })
}
