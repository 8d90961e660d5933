//! PySolFC's held game (`~/.pysolfc/holdgame.dat`, written on *Hold and quit*, Ctrl+X) and
//! saved games (*File, Save as*), read without running any code and never written.
//!
//! Format (PySolFC 3.2.0, `pysollib/game/dump.py` `pysolDumpGame`, read back by
//! `pysollib/game/__init__.py` `Game._undumpGame`): one `Pickler` (protocol 5, i.e.
//! `HIGHEST_PROTOCOL`, for both files) dumps a sequence of pickles sharing one memo:
//!
//! 1. `PACKAGE` `"PySolFC"`, `VERSION` e.g. `"3.2.0"`, `VERSION_TUPLE` e.g. `(3, 2, 0)`;
//! 2. `bookmark` (0 for files), the game's `GAME_VERSION`, the game id (8 = FreeCell);
//! 3. the deal seed as `random__str2int(seed string)`: `ms617` is `(1 << 1000) | 617`
//!    (`MS_LONG_BIT`), `Custom` adds bit 999, other seeds are plain ints; then the random
//!    generator's state (passed over unread: a Mersenne Twister generator's pickle, that of
//!    PySolFC's own deals, is cyclic; [`pickle_guard::Unpickler::skip`]);
//! 4. the number of stacks, then per stack (in `game.allstacks` order, i.e. creation order)
//!    its card count and per card, bottom first, `card.id` and `card.face_up`;
//! 5. `talon.round`, `finished`; for bookmark 0/1 `saveinfo` (`GameSaveInfo`) and
//!    `gsaveinfo` (`GameGlobalSaveInfo`);
//! 6. `moves` (`GameMoves`: `history`, a list with one list of atomic moves per move,
//!    `index` the number of moves currently played, the rest undone but kept for redo;
//!    `current`, `state`), `snapshots`; for bookmark 0/1 `gstats` (`GameGlobalStatsStruct`,
//!    `holded` 1 in a held game) and `stats` (`GameStatsStruct`);
//! 7. whatever the game's `_saveGameHook` writes (nothing for FreeCell), then `"EOF"`.
//!
//! Atomic moves are `pysollib.move` objects: `AMoveMove` (`ncards`, `from_stack_id`,
//! `to_stack_id`) for every card move, including each of PySolFC's own auto-drops, which
//! `Game._autoPlay` files as a history entry of its own; other classes (flips, talon turns,
//! ...) do not occur in FreeCell.
//!
//! FreeCell's stacks (`games/freecell.py` `FreeCell.createGame`, each `Stack.__init__`
//! taking `id = len(game.allstacks)`): 0 the talon (empty after the deal), 1-4 the
//! foundations of clubs, spades, hearts, diamonds (`Layout.freeCellLayout` creates them
//! `for suit in range(4)`), 5-12 the rows (cascades 1-8, left to right), 13-16 the
//! reserves (freecells a-d). Card ids are `suit * 13 + rank` in PySolFC's suit order
//! (0 clubs, 1 spades, 2 hearts, 3 diamonds; rank 0 the ace), as `Game.createCards`
//! numbers them.
//!
//! The other games of the family (Baker's Game, Seahaven Towers, Eight Off, FreeCell with 2
//! reserves, ...) are read by [`SavedGame::game_history`] (the game from the file's id, its
//! stacks in that game's order: [`StackMap`]).

use std::path::{Path, PathBuf};

use fcauto_deals::{Board, Card, Suit};
use serde::Serialize;

use super::pickle_guard::{self, Limits, PickleError, Value};

mod cards;
mod family;
use cards::{card_of, cards_text, pysol_id};
pub use family::{known_games, FamilyHistory, GameHistory, StackMap, StackPlace};

/// PySolFC's game id for FreeCell ([`super::FREECELL_GAME_ID`] as the `u32` of
/// [`SavedGame::game_id`]).
pub const FREECELL_ID: u32 = super::FREECELL_GAME_ID as u32;

/// The PySolFC version (major, minor) whose files this reader knows: 3.2 (3.2.0 is the
/// Debian/Ubuntu package this was written against).
pub const SUPPORTED_VERSION: (i64, i64) = (3, 2);

/// The `(module, class)` pairs a held or saved game may name; anything else is refused
/// before any value is built. Besides PySolFC's classes: the generator of a Mersenne Twister
/// deal (PySolFC's default new game), which pickles as `getattr(MTRandom(), "seed")` with
/// its state; the guard records both calls as data and runs neither.
pub const ALLOWED_CLASSES: &[(&str, &str)] = &[
    ("pysol_cards.random", "MTRandom"),
    ("builtins", "getattr"),
    ("pysollib.game", "GameSaveInfo"),
    ("pysollib.game", "GameGlobalSaveInfo"),
    ("pysollib.game", "GameMoves"),
    ("pysollib.game", "GameGlobalStatsStruct"),
    ("pysollib.game", "GameStatsStruct"),
    ("pysollib.mfxutil", "Struct"),
    ("pysollib.move", "AMoveMove"),
    ("pysollib.move", "AFlipMove"),
    ("pysollib.move", "ASingleFlipMove"),
    ("pysollib.move", "AFlipAndMoveMove"),
    ("pysollib.move", "AFlipAllMove"),
    ("pysollib.move", "ATurnStackMove"),
    ("pysollib.move", "NEW_ATurnStackMove"),
    ("pysollib.move", "AUpdateStackMove"),
    ("pysollib.move", "ANextRoundMove"),
    ("pysollib.move", "ASaveSeedMove"),
    ("pysollib.move", "AShuffleStackMove"),
    ("pysollib.move", "ASaveStateMove"),
    ("pysollib.move", "ASingleCardMove"),
];

/// FreeCell's stack ids (see the module docs).
const FOUNDATIONS: std::ops::Range<u32> = 1..5;
const ROWS: std::ops::Range<u32> = 5..13;
const RESERVES: std::ops::Range<u32> = 13..17;
const FREECELL_STACKS: usize = 17;

/// Why a held or saved game could not be read. Each displays as one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum SavedGameError {
    /// The path does not exist.
    #[error("{0}: no such file")]
    NotFound(PathBuf),
    /// Reading failed.
    #[error("{path}: {reason}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        reason: std::io::Error,
    },
    /// The file ends before the item PySolFC writes next.
    #[error("{path}: truncated: the file ends inside or before {item} (at byte {offset})")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// The item being read, e.g. "the move history".
        item: &'static str,
        /// Where the input ends.
        offset: usize,
    },
    /// The pickle guard refused an item (bad opcode, a class PySolFC does not write, a
    /// safety limit).
    #[error("{path}: damaged or not a PySolFC game, in {item}: {reason}")]
    Pickle {
        /// The file.
        path: PathBuf,
        /// The item being read.
        item: &'static str,
        /// The guard's reason.
        reason: PickleError,
    },
    /// The first pickle is not the string "PySolFC".
    #[error("{path}: not a PySolFC saved game (it starts with {found}, not \"PySolFC\")")]
    NotPySolFC {
        /// The file.
        path: PathBuf,
        /// What the first item was.
        found: String,
    },
    /// Written by a PySolFC version this reader does not know.
    #[error(
        "{path}: saved by PySolFC {version}; only PySolFC {}.{} files are supported",
        SUPPORTED_VERSION.0,
        SUPPORTED_VERSION.1
    )]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// PySolFC's version string, e.g. "2.6.4".
        version: String,
    },
    /// A well-formed pickle with a value PySolFC's loader would refuse.
    #[error("{path}: damaged PySolFC game: {item}: {reason}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// The item, e.g. "the game id".
        item: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// Not a FreeCell game.
    #[error(
        "{path}: PySolFC game id {game_id} is not FreeCell (id 8); only FreeCell games can be read"
    )]
    NotFreecell {
        /// The file.
        path: PathBuf,
        /// PySolFC's game id.
        game_id: u32,
    },
    /// A game id that is not FreeCell nor another game of the family fcauto plays.
    #[error(
        "{path}: PySolFC game id {game_id} is not FreeCell or another game of its family that fcauto plays ({known})"
    )]
    UnknownGame {
        /// The file.
        path: PathBuf,
        /// PySolFC's game id.
        game_id: u32,
        /// The ids and names of the games fcauto plays.
        known: String,
    },
    /// A FreeCell game whose deal is not a Microsoft-numbered one.
    #[error(
        "{path}: the deal {seed} is not a Microsoft deal number (PySolFC shows those as #msN)"
    )]
    NotMsDeal {
        /// The file.
        path: PathBuf,
        /// The seed as PySolFC names it.
        seed: String,
    },
    /// The history does not replay from the deal to the stored position.
    #[error("{path}: the move history does not fit the game: {reason}")]
    Inconsistent {
        /// The file.
        path: PathBuf,
        /// The first mismatch.
        reason: String,
    },
}

/// The deal seed as PySolFC stores it (`random__str2int`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Seed {
    /// A Microsoft deal `msN` (shown as `#msN`), 1..=2^33-1.
    Ms(u64),
    /// PySolFC's `Custom` (no shuffle).
    Custom,
    /// Any other seed (a Mersenne Twister deal), as its decimal digits.
    Other(String),
}

impl std::fmt::Display for Seed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Seed::Ms(n) => write!(f, "ms{n}"),
            Seed::Custom => write!(f, "Custom"),
            Seed::Other(s) => write!(f, "{s}"),
        }
    }
}

/// One card as stored: PySolFC's card id and whether it is face up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StoredCard {
    /// `card.id`: `suit * 13 + rank` for one deck, suits 0 clubs, 1 spades, 2 hearts,
    /// 3 diamonds, rank 0 the ace.
    pub id: u32,
    /// `card.face_up`.
    pub face_up: bool,
}

/// One PySolFC atomic move (`pysollib/move.py`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AtomicMove {
    /// `AMoveMove`: the top `ncards` cards of stack `from` onto stack `to` (stack ids).
    Move {
        /// Cards moved together (a supermove moves several).
        ncards: u32,
        /// `from_stack_id`.
        from: u32,
        /// `to_stack_id`.
        to: u32,
    },
    /// Any other atomic move (flips, talon turns, ...), by class name and the stack ids it
    /// names (`stack_id`, `from_stack_id`, `to_stack_id`, whichever it has).
    Other {
        /// Class name, e.g. `AFlipMove`.
        class: String,
        /// Stack ids named by the move.
        stacks: Vec<u32>,
    },
}

impl std::fmt::Display for AtomicMove {
    /// In words: `a move of 2 cards from stack 5 to stack 9`, `PySolFC's AFlipMove (stack 5)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AtomicMove::Move { ncards, from, to } => write!(
                f,
                "a move of {ncards} card{} from stack {from} to stack {to}",
                if *ncards == 1 { "" } else { "s" }
            ),
            AtomicMove::Other { class, stacks } => {
                write!(f, "PySolFC's {class}")?;
                let named: Vec<String> = stacks.iter().map(u32::to_string).collect();
                match named.len() {
                    0 => Ok(()),
                    1 => write!(f, " (stack {})", named[0]),
                    _ => write!(f, " (stacks {})", named.join(", ")),
                }
            }
        }
    }
}

/// A held or saved game as PySolFC stored it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SavedGame {
    /// PySolFC's version string, e.g. `"3.2.0"`.
    pub version: String,
    /// PySolFC's version tuple, e.g. `[3, 2, 0]`.
    pub version_tuple: Vec<i64>,
    /// 0 for a saved or held game (1 and 2 are in-memory bookmarks).
    pub bookmark: i64,
    /// The game class's `GAME_VERSION` (1 for FreeCell).
    pub game_version: i64,
    /// PySolFC's game id (8 = FreeCell).
    pub game_id: u32,
    /// The deal seed.
    pub seed: Seed,
    /// The Microsoft deal number when the game is FreeCell and the seed is `msN`.
    pub ms_deal: Option<u64>,
    /// Every stack in `game.allstacks` order (for FreeCell: talon, 4 foundations C S H D,
    /// 8 rows, 4 reserves), each bottom card first: the position when the file was written.
    pub stacks: Vec<Vec<StoredCard>>,
    /// `talon.round`.
    pub talon_round: i64,
    /// `game.finished`: the game was won (or otherwise ended).
    pub finished: bool,
    /// `moves.history`: one entry per move, each the atomic moves it made, in order. Entries
    /// from `move_index` on were undone (kept for redo).
    pub history: Vec<Vec<AtomicMove>>,
    /// `moves.index`: how many history entries are played in the stored position.
    pub move_index: usize,
    /// `gstats.holded`: written by *Hold and quit* (`None` when the file has no gstats).
    pub held: Option<bool>,
    /// Bytes after `"EOF"`, ignored (PySolFC ignores them too).
    pub trailing_bytes: usize,
}

/// A FreeCell game's moves in standard notation (see [`SavedGame::freecell_moves`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FreecellHistory {
    /// The Microsoft deal number; None for another deal (PySolFC's own, from
    /// [`SavedGame::freecell_game_of`]).
    pub deal: Option<u64>,
    /// Its start: the deal's layout.
    pub start: Board,
    /// The played moves (history entries before `move_index`), in order, one token each:
    /// `3a`, `a3`, `3h`, `ah`, `38`, and `38v4` where PySolFC moved 4 cards at once (the
    /// count in hexadecimal, fc-solve's `-snx` form). PySolFC's auto-drops are included as
    /// the home moves they are (`3h`, `ah`).
    pub moves: Vec<String>,
    /// The position after them (equal to the stored stacks, which is checked).
    pub position: Board,
}

/// Reads the file's pickles in order; errors name the item being read.
struct Reader<'a> {
    un: pickle_guard::Unpickler<'a>,
    path: &'a Path,
    len: usize,
}

impl Reader<'_> {
    fn next(&mut self, item: &'static str) -> Result<Value, SavedGameError> {
        let read = self.un.load();
        read.map_err(|reason| self.error(item, reason))
    }

    /// Pass over the next item, unread ([`pickle_guard::Unpickler::skip`]).
    fn skip(&mut self, item: &'static str) -> Result<(), SavedGameError> {
        let read = self.un.skip();
        read.map_err(|reason| self.error(item, reason))
    }

    /// The guard's `reason` for refusing `item`, as this reader's error.
    fn error(&self, item: &'static str, reason: PickleError) -> SavedGameError {
        match reason {
            PickleError::Truncated { offset, .. } => SavedGameError::Truncated {
                path: self.path.to_path_buf(),
                item,
                offset,
            },
            PickleError::Length { .. } | PickleError::Empty => SavedGameError::Truncated {
                path: self.path.to_path_buf(),
                item,
                offset: self.len,
            },
            reason => SavedGameError::Pickle {
                path: self.path.to_path_buf(),
                item,
                reason,
            },
        }
    }

    fn damaged(&self, item: &'static str, reason: impl Into<String>) -> SavedGameError {
        SavedGameError::Damaged {
            path: self.path.to_path_buf(),
            item,
            reason: reason.into(),
        }
    }

    fn int(&mut self, item: &'static str) -> Result<i64, SavedGameError> {
        let v = self.next(item)?;
        match v {
            Value::Int(n) => Ok(n),
            Value::Bool(b) => Ok(i64::from(b)),
            other => Err(self.damaged(
                item,
                format!("expected an int, found {}", other.type_name()),
            )),
        }
    }

    fn int_in(
        &mut self,
        item: &'static str,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<i64, SavedGameError> {
        let n = self.int(item)?;
        if !range.contains(&n) {
            return Err(self.damaged(
                item,
                format!("{n} is outside {}..={}", range.start(), range.end()),
            ));
        }
        Ok(n)
    }
}

/// Read a FreeCell held or saved game. The file is only read (never written or locked).
///
/// Errors: [`SavedGameError`]: a missing or unreadable file, a truncated or damaged one
/// (naming the item and, for pickle errors, the byte), a file that is not PySolFC's, one
/// from a PySolFC version other than [`SUPPORTED_VERSION`], or a game other than FreeCell
/// ([`SavedGameError::NotFreecell`], reported as soon as the game id is read).
pub fn read(path: &Path) -> Result<SavedGame, SavedGameError> {
    let data = read_bytes(path)?;
    parse(&data, path, true)
}

/// Like [`read`], for any PySolFC game (the stacks in that game's order; no FreeCell
/// checks). Errors as [`read`], without [`SavedGameError::NotFreecell`].
pub fn read_any(path: &Path) -> Result<SavedGame, SavedGameError> {
    let data = read_bytes(path)?;
    parse(&data, path, false)
}

fn read_bytes(path: &Path) -> Result<Vec<u8>, SavedGameError> {
    use std::io::Read;
    let io = |reason| SavedGameError::Io {
        path: path.to_path_buf(),
        reason,
    };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(SavedGameError::NotFound(path.to_path_buf()))
        }
        Err(e) => return Err(io(e)),
    };
    if file.metadata().map_err(io)?.is_dir() {
        return Err(SavedGameError::Io {
            path: path.to_path_buf(),
            reason: std::io::Error::other("is a directory"),
        });
    }
    let mut data = Vec::new();
    file.take(Limits::default().max_bytes as u64 + 1)
        .read_to_end(&mut data)
        .map_err(io)?;
    Ok(data)
}

impl<'a> Reader<'a> {
    /// A reader of the pickles in `data` (the file `origin`), refused at once when `data`
    /// does not start as a pickle.
    fn open(data: &'a [u8], origin: &'a Path) -> Result<Reader<'a>, SavedGameError> {
        let limits = Limits::default();
        let un =
            pickle_guard::Unpickler::new(data, &limits, ALLOWED_CLASSES).map_err(|reason| {
                match reason {
                    PickleError::Empty => SavedGameError::Truncated {
                        path: origin.to_path_buf(),
                        item: "the package name",
                        offset: 0,
                    },
                    reason => SavedGameError::Pickle {
                        path: origin.to_path_buf(),
                        item: "the file",
                        reason,
                    },
                }
            })?;
        Ok(Reader {
            un,
            path: origin,
            len: data.len(),
        })
    }
}

impl Reader<'_> {
    /// The header: the package name (it must be PySolFC), the version string and the version
    /// tuple (it must be [`SUPPORTED_VERSION`]).
    fn version(&mut self) -> Result<(String, Vec<i64>), SavedGameError> {
        let package = self.next("the package name")?;
        if package != Value::Str("PySolFC".into()) {
            return Err(SavedGameError::NotPySolFC {
                path: self.path.to_path_buf(),
                found: package.to_string(),
            });
        }
        let version = match self.next("the version string")? {
            Value::Str(s) => s,
            other => {
                return Err(
                    self.damaged("the version string", format!("found {}", other.type_name()))
                )
            }
        };
        let version_tuple: Vec<i64> = match self.next("the version tuple")? {
            Value::Tuple(t) => t.iter().filter_map(Value::as_i64).collect(),
            other => {
                return Err(
                    self.damaged("the version tuple", format!("found {}", other.type_name()))
                )
            }
        };
        if version_tuple.len() < 2 || (version_tuple[0], version_tuple[1]) != SUPPORTED_VERSION {
            return Err(SavedGameError::UnsupportedVersion {
                path: self.path.to_path_buf(),
                version,
            });
        }
        Ok((version, version_tuple))
    }

    /// The stacks: for each, its cards (id and face-up flag), bottom card first.
    fn stacks(&mut self) -> Result<Vec<Vec<StoredCard>>, SavedGameError> {
        let nstacks = self.int_in("the number of stacks", 1..=1024)?;
        let mut stacks = Vec::with_capacity(nstacks as usize);
        for _ in 0..nstacks {
            let n = self.int_in("a stack's card count", 0..=1024)?;
            let mut cards = Vec::with_capacity(n as usize);
            for _ in 0..n {
                let id = self.int_in("a card id", 0..=1_000_000)? as u32;
                let face_up = self.int_in("a card's face-up flag", 0..=1)? == 1;
                cards.push(StoredCard { id, face_up });
            }
            stacks.push(cards);
        }
        Ok(stacks)
    }

    /// The play so far: the move history and how much of it is played, and (with the
    /// statistics a `bookmark` of 0 or 1 stores) whether the game is a held one.
    #[allow(clippy::type_complexity)]
    fn history(
        &mut self,
        bookmark: i64,
    ) -> Result<(Vec<Vec<AtomicMove>>, usize, Option<bool>), SavedGameError> {
        if bookmark <= 1 {
            self.next("saveinfo")?;
            self.next("gsaveinfo")?;
        }
        let moves = self.next("the move history")?;
        let (history, move_index) =
            history_of(&moves).map_err(|e| self.damaged("the move history", e))?;
        self.next("the snapshots")?;
        let mut held = None;
        if bookmark <= 1 {
            let gstats = self.next("gstats")?;
            held = gstats.get("holded").map(Value::truthy);
            self.next("stats")?;
        }
        Ok((history, move_index, held))
    }

    /// The end marker "EOF" (after the game's `_saveGameHook` data, none for FreeCell).
    fn end(&mut self, game_id: u32) -> Result<(), SavedGameError> {
        loop {
            let v = self.next("the end marker \"EOF\"")?;
            if v == Value::Str("EOF".into()) {
                break;
            }
            if game_id == FREECELL_ID {
                return Err(self.damaged(
                    "the end marker \"EOF\"",
                    format!("found {v} where FreeCell writes \"EOF\""),
                ));
            }
        }
        Ok(())
    }
}

/// Decode a held or saved game from bytes; `origin` names it in errors, and with
/// `freecell_only` any game id other than 8 is [`SavedGameError::NotFreecell`].
/// Never panics.
pub fn parse(data: &[u8], origin: &Path, freecell_only: bool) -> Result<SavedGame, SavedGameError> {
    let mut r = Reader::open(data, origin)?;
    let (version, version_tuple) = r.version()?;
    let bookmark = r.int_in("the bookmark flag", 0..=2)?;
    let game_version = r.int_in("the game version", 1..=i64::from(i32::MAX))?;
    let game_id = r.int_in("the game id", 1..=i64::from(u32::MAX))? as u32;
    if freecell_only && game_id != FREECELL_ID {
        return Err(SavedGameError::NotFreecell {
            path: origin.to_path_buf(),
            game_id,
        });
    }
    let seed_value = r.next("the deal seed")?;
    let seed = seed_of(&seed_value)
        .ok_or_else(|| r.damaged("the deal seed", format!("not a PySolFC seed: {seed_value}")))?;
    // Not used, and a Mersenne Twister generator's pickle is cyclic: passed over.
    r.skip("the random generator state")?;
    let stacks = r.stacks()?;
    let talon_round = r.int("the talon round")?;
    let finished = r.next("the finished flag")?.truthy();
    let (history, move_index, held) = r.history(bookmark)?;
    r.end(game_id)?;
    let ms_deal = match seed {
        Seed::Ms(n) if game_id == FREECELL_ID => Some(n),
        _ => None,
    };
    Ok(SavedGame {
        version,
        version_tuple,
        bookmark,
        game_version,
        game_id,
        seed,
        ms_deal,
        stacks,
        talon_round,
        finished,
        history,
        move_index,
        held,
        trailing_bytes: r.un.remaining(),
    })
}

/// `random__str2int`'s int back to the seed: bit 1000 marks `msN`, bits 1000 and 999
/// `Custom`.
fn seed_of(v: &Value) -> Option<Seed> {
    match v {
        Value::Int(n) if *n >= 0 => Some(Seed::Other(n.to_string())),
        Value::BigInt(b) => {
            if b.last().is_some_and(|&x| x & 0x80 != 0) {
                return None; // negative
            }
            let bit = |k: usize| b.get(k / 8).is_some_and(|&x| x & (1 << (k % 8)) != 0);
            let low: u128 = b
                .iter()
                .take(16)
                .rev()
                .fold(0u128, |acc, &x| (acc << 8) | u128::from(x));
            let only_low = |keep: &[usize]| {
                b.iter().enumerate().skip(16).all(|(i, &x)| {
                    let mask = keep
                        .iter()
                        .filter(|&&k| k / 8 == i)
                        .fold(0u8, |m, &k| m | (1 << (k % 8)));
                    x & !mask == 0
                })
            };
            if bit(1000) && bit(999) && only_low(&[1000, 999]) {
                Some(Seed::Custom)
            } else if bit(1000) && only_low(&[1000]) {
                u64::try_from(low).ok().map(Seed::Ms)
            } else if only_low(&[]) {
                Some(Seed::Other(low.to_string()))
            } else {
                None
            }
        }
        _ => None,
    }
}

fn history_of(moves: &Value) -> Result<(Vec<Vec<AtomicMove>>, usize), String> {
    let obj = moves
        .as_object()
        .filter(|o| o.name == "GameMoves" || o.name == "Struct")
        .ok_or_else(|| format!("expected a GameMoves object, found {}", moves.type_name()))?;
    let hist = obj
        .attr("history")
        .and_then(Value::as_seq)
        .ok_or("GameMoves.history is missing or not a list")?;
    let index = obj
        .attr("index")
        .and_then(Value::as_i64)
        .ok_or("GameMoves.index is missing or not an int")?;
    if index < 0 || index as usize > hist.len() {
        return Err(format!(
            "GameMoves.index {index} is outside 0..={} (the history's length)",
            hist.len()
        ));
    }
    let mut out = Vec::with_capacity(hist.len());
    for (k, entry) in hist.iter().enumerate() {
        let atoms = entry
            .as_seq()
            .ok_or_else(|| format!("history entry {} is not a list", k + 1))?;
        let mut list = Vec::with_capacity(atoms.len());
        for a in atoms {
            let o = a
                .as_object()
                .ok_or_else(|| format!("history entry {} holds a {}", k + 1, a.type_name()))?;
            let id = |name: &str| {
                o.attr(name)
                    .and_then(Value::as_i64)
                    .and_then(|n| u32::try_from(n).ok())
            };
            if o.name == "AMoveMove" {
                match (id("ncards"), id("from_stack_id"), id("to_stack_id")) {
                    (Some(ncards), Some(from), Some(to)) if ncards >= 1 => {
                        list.push(AtomicMove::Move { ncards, from, to })
                    }
                    _ => {
                        return Err(format!(
                            "history entry {}: an AMoveMove without ncards, from_stack_id and to_stack_id",
                            k + 1
                        ))
                    }
                }
            } else {
                let stacks = ["stack_id", "from_stack_id", "to_stack_id"]
                    .iter()
                    .filter_map(|n| id(n))
                    .collect();
                list.push(AtomicMove::Other {
                    class: o.name.clone(),
                    stacks,
                });
            }
        }
        out.push(list);
    }
    Ok((out, index as usize))
}

/// The standard-notation character of a FreeCell stack id.
fn loc_char(stack: u32) -> Option<char> {
    if ROWS.contains(&stack) {
        char::from_digit(stack - ROWS.start + 1, 10)
    } else if RESERVES.contains(&stack) {
        Some((b'a' + (stack - RESERVES.start) as u8) as char)
    } else if FOUNDATIONS.contains(&stack) {
        Some('h')
    } else {
        None
    }
}

impl SavedGame {
    /// The stored position as a board, for FreeCell (id 8): rows 5-12 as cascades 1-8,
    /// reserves 13-16 as freecells a-d, foundations 1-4 (C S H D) as top ranks.
    ///
    /// Errors: [`SavedGameError::NotFreecell`], or [`SavedGameError::Damaged`] when the
    /// stacks are not FreeCell's 17 with 52 distinct cards, foundations in order.
    pub fn board(&self, origin: &Path) -> Result<Board, SavedGameError> {
        self.require_freecell(origin)?;
        let damaged = |reason: String| SavedGameError::Damaged {
            path: origin.to_path_buf(),
            item: "the stacks",
            reason,
        };
        if self.stacks.len() != FREECELL_STACKS {
            return Err(damaged(format!(
                "{} stacks, FreeCell has {FREECELL_STACKS}",
                self.stacks.len()
            )));
        }
        let cards = |s: usize| -> Result<Vec<Card>, SavedGameError> {
            self.stacks[s]
                .iter()
                .map(|c| {
                    card_of(c.id).ok_or_else(|| damaged(format!("card id {} is not 0..=51", c.id)))
                })
                .collect()
        };
        let mut board = Board {
            cascades: Vec::with_capacity(8),
            freecells: [None; 4],
            foundations: [0; 4],
        };
        for s in ROWS {
            board.cascades.push(cards(s as usize)?);
        }
        for (k, s) in RESERVES.enumerate() {
            let c = cards(s as usize)?;
            if c.len() > 1 {
                return Err(damaged(format!(
                    "freecell {} holds {} cards",
                    k + 1,
                    c.len()
                )));
            }
            board.freecells[k] = c.first().copied();
        }
        for (k, s) in FOUNDATIONS.enumerate() {
            let suit = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds][k];
            let c = cards(s as usize)?;
            for (i, card) in c.iter().enumerate() {
                if card.suit() != suit || usize::from(card.rank().value()) != i + 1 {
                    return Err(damaged(format!(
                        "foundation {} holds {card} at height {}",
                        suit.letter(),
                        i + 1
                    )));
                }
            }
            board.foundations[suit.index()] = c.len() as u8;
        }
        if !self.stacks[0].is_empty() {
            return Err(damaged(format!(
                "the talon holds {} cards after the deal",
                self.stacks[0].len()
            )));
        }
        board.check().map_err(|e| damaged(e.to_string()))?;
        Ok(board)
    }

    fn require_freecell(&self, origin: &Path) -> Result<(), SavedGameError> {
        if self.game_id != FREECELL_ID {
            return Err(SavedGameError::NotFreecell {
                path: origin.to_path_buf(),
                game_id: self.game_id,
            });
        }
        Ok(())
    }

    /// The played moves of a FreeCell game (history entries before `move_index`) in
    /// standard notation, replayed from Microsoft deal `ms_deal`; the position they reach
    /// must equal the stored stacks.
    ///
    /// Errors: [`SavedGameError::NotFreecell`]; [`SavedGameError::NotMsDeal`] for a
    /// non-Microsoft seed; [`SavedGameError::Inconsistent`] when a move names a stack FreeCell
    /// does not have, moves more cards than its stack holds, is not an `AMoveMove`, takes a
    /// card back from a foundation (standard notation has no such move), or the replay ends
    /// elsewhere than the stored position. Errors name the file as `<saved game>`; use
    /// [`SavedGame::freecell_moves_of`] to name it.
    pub fn freecell_moves(&self) -> Result<FreecellHistory, SavedGameError> {
        self.freecell_moves_of(Path::new("<saved game>"))
    }

    /// [`SavedGame::freecell_moves`], naming the file `origin` in errors.
    pub fn freecell_moves_of(&self, origin: &Path) -> Result<FreecellHistory, SavedGameError> {
        self.require_freecell(origin)?;
        let Seed::Ms(deal) = self.seed else {
            return Err(SavedGameError::NotMsDeal {
                path: origin.to_path_buf(),
                seed: self.seed.to_string(),
            });
        };
        let bad = |reason: String| SavedGameError::Inconsistent {
            path: origin.to_path_buf(),
            reason,
        };
        let start =
            fcauto_deals::msdeal::ms_deal(deal).map_err(|e| bad(format!("deal {deal}: {e}")))?;
        let (moves, position) = self.replay_from(&start, origin)?;
        Ok(FreecellHistory {
            deal: Some(deal),
            start,
            moves,
            position,
        })
    }

    /// The played moves of a FreeCell game of any deal: for a Microsoft deal as
    /// [`SavedGame::freecell_moves_of`]; for another (PySolFC's own Mersenne Twister deals,
    /// its default new game) the start is the stored stacks with the played moves taken
    /// back, which must be a fresh deal (52 cards in cascades of 7, 7, 7, 7, 6, 6, 6, 6),
    /// and the moves are then replayed from it as for a Microsoft deal (`deal` None).
    ///
    /// Errors: as [`SavedGame::freecell_moves_of`], [`SavedGameError::Inconsistent`] when
    /// the moves taken back do not lead to a fresh deal.
    pub fn freecell_game_of(&self, origin: &Path) -> Result<FreecellHistory, SavedGameError> {
        self.require_freecell(origin)?;
        if let Seed::Ms(_) = self.seed {
            return self.freecell_moves_of(origin);
        }
        let start = self.start_by_undo(origin)?;
        let (moves, position) = self.replay_from(&start, origin)?;
        Ok(FreecellHistory {
            deal: None,
            start,
            moves,
            position,
        })
    }

    /// The stored stacks with the played moves (history entries before `move_index`) taken
    /// back, newest first: a FreeCell deal's layout, checked as such.
    fn start_by_undo(&self, origin: &Path) -> Result<Board, SavedGameError> {
        self.board(origin)?; // the stacks are FreeCell's, with cards 0..=51
        let bad = |reason: String| SavedGameError::Inconsistent {
            path: origin.to_path_buf(),
            reason,
        };
        let mut st: Vec<Vec<u32>> = self
            .stacks
            .iter()
            .map(|s| s.iter().map(|c| c.id).collect())
            .collect();
        for (k, entry) in self.history[..self.move_index].iter().enumerate().rev() {
            for atom in entry.iter().rev() {
                let AtomicMove::Move { ncards, from, to } = *atom else {
                    return Err(bad(format!("move {} is {atom}, not a card move", k + 1)));
                };
                let (from, to, n) = (from as usize, to as usize, ncards as usize);
                if from >= FREECELL_STACKS || to >= FREECELL_STACKS || n > st[to].len() {
                    return Err(bad(format!(
                        "move {} cannot be taken back: {n} cards from stack {to} to stack {from}",
                        k + 1
                    )));
                }
                let keep = st[to].len() - n;
                let moved = st[to].split_off(keep);
                st[from].extend(moved);
            }
        }
        let heights: Vec<usize> = ROWS.map(|s| st[s as usize].len()).collect();
        let others = (0..FREECELL_STACKS).filter(|s| !ROWS.contains(&(*s as u32)));
        if heights != [7, 7, 7, 7, 6, 6, 6, 6] || others.into_iter().any(|s| !st[s].is_empty()) {
            return Err(bad(format!(
                "the moves taken back leave cascades of {heights:?} cards, not a fresh deal"
            )));
        }
        let cascades = ROWS
            .map(|s| {
                st[s as usize]
                    .iter()
                    .map(|&id| card_of(id).expect("checked by board"))
                    .collect()
            })
            .collect();
        Ok(Board::from_cascades(cascades))
    }

    /// The played moves replayed from `start` (a FreeCell deal's layout) in standard
    /// notation, and the position they reach, which must be the stored one.
    fn replay_from(
        &self,
        start: &Board,
        origin: &Path,
    ) -> Result<(Vec<String>, Board), SavedGameError> {
        let stored = self.board(origin)?;
        let bad = |reason: String| SavedGameError::Inconsistent {
            path: origin.to_path_buf(),
            reason,
        };
        // PySolFC's 17 stacks as card ids.
        let mut st: Vec<Vec<u32>> = vec![Vec::new(); FREECELL_STACKS];
        for (k, col) in start.cascades.iter().enumerate() {
            st[ROWS.start as usize + k] = col.iter().map(|&c| pysol_id(c)).collect();
        }
        let mut moves = Vec::with_capacity(self.move_index);
        for (k, entry) in self.history[..self.move_index].iter().enumerate() {
            for atom in entry {
                moves.push(play_atom(&mut st, k + 1, atom).map_err(bad)?);
            }
        }
        self.check_reached(&st).map_err(bad)?;
        Ok((moves, stored))
    }

    /// Whether the replayed stacks `st` (card ids) are the stored ones; else which stack
    /// differs and how (a reason for [`SavedGameError::Inconsistent`]).
    fn check_reached(&self, st: &[Vec<u32>]) -> Result<(), String> {
        for (s, want) in self.stacks.iter().enumerate().skip(1) {
            let got = &st[s];
            let want: Vec<u32> = want.iter().map(|c| c.id).collect();
            if *got != want {
                let name = match loc_char(s as u32) {
                    Some('h') => format!("foundation {}", s),
                    Some(c) if c.is_ascii_digit() => format!("cascade {c}"),
                    Some(c) => format!("freecell {c}"),
                    None => format!("stack {s}"),
                };
                return Err(format!(
                    "after the {} played moves {name} holds {}, the file stores {}",
                    self.move_index,
                    cards_text(got),
                    cards_text(&want)
                ));
            }
        }
        Ok(())
    }
}

/// One atomic move of the history, `step`, played on PySolFC's stacks `st` (card ids);
/// returns its standard notation token (`ab`, or `abvN` for N cards), or why it cannot be
/// a FreeCell move in standard notation (a reason for [`SavedGameError::Inconsistent`]).
fn play_atom(st: &mut [Vec<u32>], step: usize, atom: &AtomicMove) -> Result<String, String> {
    play_named_atom(st, step, atom, loc_char, || {
        "FreeCell's stacks are 1-16".into()
    })
}

/// [`play_atom`] for any game: `name` gives a stack's standard-notation letter (`None`: no
/// place in the notation), `stacks` says in words which stacks the game has.
fn play_named_atom(
    st: &mut [Vec<u32>],
    step: usize,
    atom: &AtomicMove,
    name: impl Fn(u32) -> Option<char>,
    stacks: impl FnOnce() -> String,
) -> Result<String, String> {
    let AtomicMove::Move { ncards, from, to } = *atom else {
        return Err(format!("move {step} is {atom}, not a card move"));
    };
    let (Some(f), Some(t)) = (name(from), name(to)) else {
        return Err(format!(
            "move {step} goes from stack {from} to stack {to}; {}",
            stacks()
        ));
    };
    if f == 'h' {
        return Err(format!(
            "move {step} takes a card back from a foundation, which standard notation cannot write"
        ));
    }
    let n = ncards as usize;
    let src = &st[from as usize];
    if n > src.len() {
        return Err(format!(
            "move {step} moves {n} cards from a stack of {}",
            src.len()
        ));
    }
    let keep = src.len() - n;
    let moved = st[from as usize].split_off(keep);
    st[to as usize].extend(moved);
    let mut tok = format!("{f}{t}");
    if n > 1 {
        tok.push_str(&format!("v{n:x}"));
    }
    Ok(tok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_ids_round_trip_in_pysolfcs_suit_order() {
        for id in 0..52 {
            assert_eq!(pysol_id(card_of(id).unwrap()), id);
        }
        assert_eq!(card_of(0).unwrap().to_string(), "AC");
        assert_eq!(card_of(13).unwrap().to_string(), "AS");
        assert_eq!(card_of(38).unwrap().to_string(), "KH");
        assert_eq!(card_of(51).unwrap().to_string(), "KD");
        assert!(card_of(52).is_none());
    }

    #[test]
    fn stack_ids_map_to_notation() {
        let got: String = (1..17).map(|s| loc_char(s).unwrap()).collect();
        assert_eq!(got, "hhhh12345678abcd");
        assert!(loc_char(0).is_none() && loc_char(17).is_none());
    }

    #[test]
    fn seeds_decode_from_random_str2int() {
        // (1 << 1000) | 617, as pickle's LONG1 payload (little-endian two's complement).
        let mut b = vec![0u8; 126];
        b[0] = (617 & 0xff) as u8;
        b[1] = (617 >> 8) as u8;
        b[125] = 1; // bit 1000
        assert_eq!(seed_of(&Value::BigInt(b.clone())), Some(Seed::Ms(617)));
        b[124] |= 0x80; // bit 999
        assert_eq!(seed_of(&Value::BigInt(b.clone())), Some(Seed::Custom));
        assert_eq!(
            seed_of(&Value::Int(12345)),
            Some(Seed::Other("12345".into()))
        );
        b[60] = 1; // a stray bit
        assert_eq!(seed_of(&Value::BigInt(b)), None);
    }
}
