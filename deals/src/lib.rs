//! Cards, the Microsoft FreeCell deal generator and Freecell Solver's board text format.
//!
//! - [`card`]: [`Card`], [`Rank`], [`Suit`] and their two-character tokens (`AC`, `TD`, `KS`).
//! - [`msdeal`]: the Microsoft FreeCell shuffle (deals 1..2^31-1) and Freecell Pro's
//!   extension up to 2^33-1, bit-exact with fc-solve's `make-microsoft-freecell-board`.
//! - [`game`]: the FreeCell family as data: [`Rules`], the games ([`GAMES`], by fc-solve's
//!   and PySolFC's names and ids) and a position of any of them ([`Layout`]).
//! - [`pysol_deal`]: PySolFC's game numbers ([`PysolNumber`]: the Microsoft shuffle below
//!   32000 and for `msN`, the Mersenne Twister from 32000 on) and the layout PySolFC 3.2
//!   deals for each game ([`deal_game`]); [`mt`] is Python's `random.Random` it runs on.
//! - [`layout_text`]: a [`Layout`]'s board text (any game: 10 cascades, 8 freecells, a
//!   partial `Freecells:` line), writer and reader.
//! - [`board`]: a FreeCell position ([`Board`]) and its text in Freecell Solver's format.
//! - [`position`]: the one-line position string (FreeCell's FEN), parser and writer; for
//!   the other games prefixed with the game's name (`seahaven_towers: ...`).
//! - [`range`]: ranges of deal numbers (`A..B`) and [`IMPOSSIBLE_DEALS`], the deals up to
//!   1,000,000 with no solution.
//! - [`text`]: [`plural`], for messages, [`text::text_of`]: a text input's UTF-8 text, or
//!   what the file is instead (UTF-16, a pickle, a picture, ...), and [`text::short_echoes`],
//!   which cuts long input quoted in a message.

pub mod board;
pub mod card;
pub mod game;
pub mod layout_text;
pub mod msdeal;
pub mod mt;
pub mod position;
pub mod pysol_deal;
pub mod range;
pub mod text;

pub use board::{Board, BoardError, BoardIssue, CASCADES, FREECELLS};
pub use card::{Card, CardParseError, Rank, Suit};
pub use game::{BuildOrder, EmptyFill, FoundationDeal, Game, Layout, Rules, SequenceMove, GAMES};
pub use msdeal::{ms_deal, ms_deal_order, parse_deal_number, DealError, MAX_DEAL};
pub use pysol_deal::{
    deal_game, deal_with_rules, NotMicrosoft, PysolNumber, PysolNumberError, Shuffle,
};
pub use range::{known_solvable, parse_deal_range, DealRange, RangeError, IMPOSSIBLE_DEALS};
pub use text::plural;
