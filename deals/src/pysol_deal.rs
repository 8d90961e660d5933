//! PySolFC's game numbers and deals: the layout PySolFC 3.2 deals for game G, number N.
//!
//! PySolFC picks the shuffle from the number (`pysollib/pysolrandom.py`, `construct_random`):
//! `msN` (any N in 1..=2^33-1) and a plain number below 32000 use the Microsoft shuffle
//! (`LCRandom31`, on the deck `ms_rearrange` puts in Microsoft order); a plain number from
//! 32000 on uses the Mersenne Twister (`MTRandom`, Python's `random.Random(N)`) on PySolFC's
//! own deck order (clubs, spades, hearts, diamonds, each ace to king), shuffled by
//! `RandomBase.shuffle` (for n from 51 down to 1, swap card n with card `randint(0, n)`).
//! The talon then gives the cards from the end of the shuffled deck, and each game's
//! `startGame` deals them row by row onto its cascades, left to right, and the last ones to
//! the freecells it names ([`Game::dealt_to_cells`]).
//!
//! (`pysol_cards`' own `shuffle()` switches at 32000 inclusive and defaults to old PySol's
//! generator above it; PySolFC is the truth, and number 32000 is a Mersenne Twister deal.)

use crate::card::{Card, Rank, Suit};
use crate::game::{FoundationDeal, Game, Layout, Rules};
use crate::msdeal::{ms_deal_order, parse_deal_number, DealError, MAX_DEAL};
use crate::mt::PyRandom;
use std::fmt;

/// Plain game numbers below this one are Microsoft deals; from it on, Mersenne Twister deals.
pub const MT_FROM: u64 = 32000;

/// The largest plain game number PySolFC deals (`RandomBase.MAX_SEED`, 10^20: its random new
/// games are drawn below it, 17 to 20 digits).
pub const MAX_GAME_NUMBER: u128 = 100_000_000_000_000_000_000;

/// A PySolFC game number: plain (`617`, `40000`, `12345678901234567890`) or `msN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PysolNumber {
    value: u128,
    ms: bool,
}

/// The shuffle a [`PysolNumber`] selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shuffle {
    /// The Microsoft shuffle of this deal number (PySolFC's `LCRandom31`).
    Microsoft(u64),
    /// The Mersenne Twister seeded with this number (PySolFC's `MTRandom`).
    MersenneTwister(u128),
}

/// A game number PySolFC does not deal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PysolNumberError {
    /// `msN` out of range, or text that is no whole number (as for a Microsoft deal number).
    #[error(transparent)]
    Deal(#[from] DealError),
    /// Zero or negative.
    #[error("game number {0} is out of range: PySolFC's game numbers start at 1 (expected 1..=10^20, or msN)")]
    TooSmall(String),
    /// Above [`MAX_GAME_NUMBER`].
    #[error("game number {0} is out of range: PySolFC's largest is {MAX_GAME_NUMBER} (10^20)")]
    TooLarge(String),
    /// Text that is no whole number (`abc`, `0x10`, `1.5`).
    #[error(
        "game number `{0}` is not a whole number (expected 1..=10^20, or msN as PySolFC writes it)"
    )]
    NotANumber(String),
}

impl PysolNumberError {
    /// The refusal of a deal argument read before it is known whether `--game` was given
    /// (a command line's deal number): a plain number's range named both ways, without
    /// `--game` (Microsoft's deals, 1..=2^33-1) and with it (PySolFC's, 1..=10^20).
    pub fn either_numbering(&self) -> String {
        match self {
            PysolNumberError::TooSmall(t) => format!(
                "deal number {t} is out of range: deals start at 1 (expected 1..={MAX_DEAL}, \
                 or msN; with --game, PySolFC's game numbers 1..=10^20)"
            ),
            PysolNumberError::NotANumber(t) => format!(
                "deal number `{t}` is not a whole number (expected 1..={MAX_DEAL}, or msN as \
                 PySolFC writes it; with --game, PySolFC's game numbers 1..=10^20)"
            ),
            e => e.to_string(),
        }
    }
}

impl PysolNumber {
    /// A plain game number, 1..=[`MAX_GAME_NUMBER`].
    pub fn plain(n: u128) -> Result<PysolNumber, PysolNumberError> {
        match n {
            0 => Err(PysolNumberError::TooSmall("0".into())),
            n if n > MAX_GAME_NUMBER => Err(PysolNumberError::TooLarge(n.to_string())),
            n => Ok(PysolNumber {
                value: n,
                ms: false,
            }),
        }
    }

    /// `msN`: Microsoft deal `n`, 1..=2^33-1.
    pub fn ms(n: u64) -> Result<PysolNumber, PysolNumberError> {
        match n {
            0 => Err(DealError::TooSmall("ms0".into()).into()),
            n if n > MAX_DEAL => Err(DealError::TooLarge(format!("ms{n}")).into()),
            n => Ok(PysolNumber {
                value: n as u128,
                ms: true,
            }),
        }
    }

    /// Read a game number as PySolFC's "Select game by number" takes it: `617`, `+617`,
    /// digits with leading zeros (`00000000000000040000`, as PySolFC shows a random game's
    /// number), or `msN` (any case); as PySolFC's window shows it, with a `#` in front
    /// (`#00000000000000040000`, `#ms617`), too.
    ///
    /// Errors: `0`; a plain number above 10^20; `msN` out of 1..=2^33-1; text that is no
    /// whole number (named as [`parse_deal_number`] names it).
    pub fn parse(s: &str) -> Result<PysolNumber, PysolNumberError> {
        // `s` keeps its `#`, which parse_deal_number reads (once) as well.
        let s = s.trim();
        let t = s.strip_prefix('#').unwrap_or(s);
        let digits = t.strip_prefix('+').unwrap_or(t);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            let ms = t.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("ms"));
            return match parse_deal_number(s) {
                Ok(n) if ms => PysolNumber::ms(n),
                // A sign or a form parse_deal_number reads (none today) that is no `msN`.
                Ok(n) => PysolNumber::plain(n as u128),
                // `msN` is a Microsoft deal number: refused in its words.
                Err(e) if ms => Err(e.into()),
                // A plain number is PySolFC's, whose range is 1..=10^20.
                Err(DealError::TooSmall(_)) => Err(PysolNumberError::TooSmall(t.to_string())),
                Err(DealError::NotANumber(_)) => Err(PysolNumberError::NotANumber(t.to_string())),
                Err(DealError::TooLarge(_)) => Err(PysolNumberError::TooLarge(t.to_string())),
                Err(e) => Err(e.into()),
            };
        }
        let n: u128 = match digits.parse() {
            Ok(n) => n,
            Err(_) => return Err(PysolNumberError::TooLarge(digits.to_string())),
        };
        match n {
            0 => Err(PysolNumberError::TooSmall(t.to_string())),
            n if n > MAX_GAME_NUMBER => Err(PysolNumberError::TooLarge(t.to_string())),
            n => PysolNumber::plain(n),
        }
    }

    /// The number itself (`N` of `msN`).
    pub fn value(self) -> u128 {
        self.value
    }

    /// True for the `msN` form.
    pub fn is_ms(self) -> bool {
        self.ms
    }

    /// The number as a plain PySolFC game number names the same deal (`617` for `ms617`):
    /// `None` for `msN` from 32000 on (plain, that number is a Mersenne Twister deal) and for
    /// a number above `u64`.
    pub fn plain_deal(self) -> Option<u64> {
        let v = u64::try_from(self.value).ok()?;
        (!self.ms || v < MT_FROM).then_some(v)
    }

    /// The shorter of a deal's two names: `ms617` as `617` (below 32000 both name Microsoft's
    /// deal 617), any other number as it is (`ms40000`, `40000`).
    pub fn shortest(self) -> PysolNumber {
        match self.shuffle() {
            Shuffle::Microsoft(n) if self.ms && n < MT_FROM => PysolNumber {
                value: n.into(),
                ms: false,
            },
            _ => self,
        }
    }

    /// The shuffle PySolFC deals this number with.
    pub fn shuffle(self) -> Shuffle {
        if self.ms || self.value < MT_FROM as u128 {
            Shuffle::Microsoft(self.value as u64)
        } else {
            Shuffle::MersenneTwister(self.value)
        }
    }
}

/// A deal argument that names no Microsoft deal, where standard FreeCell's solver needs one
/// ([`PysolNumber::microsoft_deal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotMicrosoft {
    /// With `--game freecell`: a plain number from 32000 on, PySolFC's Mersenne Twister deal.
    #[error(
        "deal {0} with --game freecell is PySolFC's Mersenne Twister deal, which no Microsoft \
         deal number names: give its board (`fcauto deal --game freecell {0} > {0}.board`, then \
         --board {0}.board)"
    )]
    MersenneTwister(PysolNumber),
    /// Without `--game`: a number above the Microsoft deals' 2^33-1.
    #[error(
        "deal number {0} is out of range: the largest is {MAX_DEAL} (2^33-1); PySolFC's larger \
         game numbers need --game"
    )]
    TooLarge(PysolNumber),
}

impl PysolNumber {
    /// The Microsoft deal this deal argument names for standard FreeCell: with `--game`
    /// (`named`) as PySolFC numbers it (`msN`, and a plain number below 32000); without,
    /// any number is the Microsoft deal of that number.
    ///
    /// # Errors
    /// [`NotMicrosoft::MersenneTwister`] with `named` for a plain number from 32000 on;
    /// [`NotMicrosoft::TooLarge`] for a number above 2^33-1.
    pub fn microsoft_deal(self, named: bool) -> Result<u64, NotMicrosoft> {
        match self.shuffle() {
            Shuffle::Microsoft(n) => Ok(n),
            Shuffle::MersenneTwister(_) if named => Err(NotMicrosoft::MersenneTwister(self)),
            Shuffle::MersenneTwister(n) => u64::try_from(n)
                .ok()
                .filter(|&n| n <= MAX_DEAL)
                .ok_or(NotMicrosoft::TooLarge(self)),
        }
    }
}

impl fmt::Display for PysolNumber {
    /// `617`, or `ms617`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ms {
            write!(f, "ms{}", self.value)
        } else {
            write!(f, "{}", self.value)
        }
    }
}

impl std::str::FromStr for PysolNumber {
    type Err = PysolNumberError;
    fn from_str(s: &str) -> Result<PysolNumber, PysolNumberError> {
        PysolNumber::parse(s)
    }
}

/// PySolFC's fresh deck (`Game.createCards`): suits clubs, spades, hearts, diamonds, each
/// ace to king.
fn pysol_deck() -> Vec<Card> {
    const SUITS: [Suit; 4] = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds];
    SUITS
        .iter()
        .flat_map(|&s| (1..=13).map(move |r| Card::new(Rank::new(r).expect("1..=13"), s)))
        .collect()
}

/// The 52 cards in the order PySolFC's talon deals them for game number `number`.
pub fn pysol_deal_order(number: PysolNumber) -> [Card; 52] {
    match number.shuffle() {
        Shuffle::Microsoft(n) => ms_deal_order(n).expect("a PysolNumber's msN is in range"),
        Shuffle::MersenneTwister(seed) => {
            let mut rng = PyRandom::new(seed);
            let mut deck = pysol_deck();
            for n in (1..deck.len()).rev() {
                let j = rng.randint(0, n);
                deck.swap(n, j);
            }
            let mut order = [deck[0]; 52];
            for (slot, card) in order.iter_mut().zip(deck.into_iter().rev()) {
                *slot = card;
            }
            order
        }
    }
}

/// A game's deal that does not fit the freecells asked for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{game} deals a card to freecell {slot}: it needs at least {slot} freecells, not {freecells}",
    game = game.pysol_name
)]
pub struct CellsTooFew {
    /// The game.
    pub game: &'static Game,
    /// The freecell, counted from 1, the deal puts a card in.
    pub slot: usize,
    /// The freecells asked for.
    pub freecells: u8,
}

/// The layout PySolFC deals for `game`, number `number`, with the game's own freecells.
pub fn deal_game(game: &'static Game, number: PysolNumber) -> Layout {
    deal_with_rules(game, &game.rules, number).expect("a game's own freecells hold its deal")
}

/// The layout PySolFC deals for `game`, number `number`, with `rules.freecells` freecell
/// slots (fc-solve's `--freecells-num`); the cascades are the game's.
///
/// Errors: [`CellsTooFew`] when the game deals a card to a freecell beyond `rules.freecells`
/// (Eight Off fills freecells 1, 3, 5 and 7; Seahaven Towers 2 and 3; ForeCell 1 to 4).
pub fn deal_with_rules(
    game: &'static Game,
    rules: &Rules,
    number: PysolNumber,
) -> Result<Layout, CellsTooFew> {
    if let Some(&far) = game.dealt_to_cells.iter().max() {
        if far >= rules.freecells {
            return Err(CellsTooFew {
                game,
                slot: far as usize + 1,
                freecells: rules.freecells,
            });
        }
    }
    let order = pysol_deal_order(number);
    let ncascades = game.rules.cascades as usize;
    let mut cascades: Vec<Vec<Card>> = vec![Vec::new(); ncascades];
    let mut foundations = [0u8; 4];
    // The aces go first to the foundations (Citadel) or last (Beleaguered Castle): either
    // way they leave the order of the other cards as the shuffle made it.
    let dealt: Vec<Card> = match game.foundation_deal {
        FoundationDeal::Nothing => order.to_vec(),
        FoundationDeal::Aces | FoundationDeal::WhileDealing => {
            foundations = [1; 4];
            order
                .into_iter()
                .filter(|c| c.rank() != Rank::ACE)
                .collect()
        }
    };
    let (to_cascades, to_cells) = dealt.split_at(game.cascade_cards());
    for (turn, &card) in to_cascades.iter().enumerate() {
        let suit = card.suit().index();
        let fits = card.rank().value() == foundations[suit] + 1;
        if game.foundation_deal == FoundationDeal::WhileDealing && fits {
            foundations[suit] += 1;
        } else {
            cascades[turn % ncascades].push(card);
        }
    }
    let mut freecells = vec![None; rules.freecells as usize];
    for (&slot, &card) in game.dealt_to_cells.iter().zip(to_cells) {
        freecells[slot as usize] = Some(card);
    }
    Ok(Layout {
        cascades,
        freecells,
        foundations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msdeal::ms_deal;

    /// `ms617` is written `617`; `ms40000`, `40000` and `617` as they are.
    #[test]
    fn the_shortest_name_of_a_deal() {
        let p = |s: &str| PysolNumber::parse(s).unwrap();
        for (given, written) in [("ms617", "617"), ("ms40000", "ms40000"), ("40000", "40000")] {
            assert_eq!(p(given).shortest().to_string(), written);
            assert_eq!(p(given).shortest().shuffle(), p(given).shuffle());
        }
    }

    fn text(cards: &[Card]) -> String {
        cards
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn numbers_pick_pysolfcs_shuffle() {
        let p = |s: &str| PysolNumber::parse(s).unwrap();
        assert_eq!(p("617").shuffle(), Shuffle::Microsoft(617));
        assert_eq!(p("31999").shuffle(), Shuffle::Microsoft(31999));
        assert_eq!(p("32000").shuffle(), Shuffle::MersenneTwister(32000));
        assert_eq!(p("ms40000").shuffle(), Shuffle::Microsoft(40000));
        assert_eq!(p("MS8589934591").shuffle(), Shuffle::Microsoft(MAX_DEAL));
        assert_eq!(
            p("00000000000000040000").shuffle(),
            Shuffle::MersenneTwister(40000)
        );
        assert_eq!(p("100000000000000000000").value(), MAX_GAME_NUMBER);
        assert_eq!(p("ms617").to_string(), "ms617");
        // As PySolFC's window shows them.
        assert_eq!(
            p("#00000000000000040000").shuffle(),
            Shuffle::MersenneTwister(40000)
        );
        assert_eq!(p("#ms617").to_string(), "ms617");
        assert_eq!(p("+617").to_string(), "617");
        for bad in [
            "0",
            "ms0",
            "100000000000000000001",
            "ms8589934592",
            "abc",
            "1.5",
            "",
            "#",
            "##617",
        ] {
            assert!(PysolNumber::parse(bad).is_err(), "{bad}");
        }
        for (bad, words) in [
            (
                "-5",
                "PySolFC's game numbers start at 1 (expected 1..=10^20, or msN)",
            ),
            ("0x10", "`0x10` is not a whole number (expected 1..=10^20"),
            ("1e30", "PySolFC's largest is 100000000000000000000 (10^20)"),
            ("ms0", "deals start at 1 (expected 1..=8589934591)"),
        ] {
            let e = PysolNumber::parse(bad).unwrap_err().to_string();
            assert!(e.contains(words), "{bad}: {e}");
            assert!(
                !e.contains("8589934591") || bad.starts_with("ms"),
                "{bad}: {e}"
            );
        }
        let e = PysolNumber::parse("-5").unwrap_err().either_numbering();
        assert!(e.contains("1..=8589934591, or msN; with --game, PySolFC's game numbers 1..=10^20"));
        let e = PysolNumber::parse("100000000000000000001").unwrap_err();
        assert!(e.to_string().contains("PySolFC's largest"), "{e}");
        let e = PysolNumber::parse("999999999999999999999999999999999999999999").unwrap_err();
        assert!(matches!(e, PysolNumberError::TooLarge(_)), "{e}");
    }

    #[test]
    fn deal_arguments_name_microsoft_deals_as_pysolfc_numbers_them() {
        let p = |s: &str| PysolNumber::parse(s).unwrap();
        assert_eq!(p("ms40001").microsoft_deal(true), Ok(40001));
        assert_eq!(p("617").microsoft_deal(true), Ok(617));
        assert_eq!(p("40001").microsoft_deal(false), Ok(40001));
        let e = p("40001").microsoft_deal(true).unwrap_err();
        assert!(e.to_string().contains("Mersenne Twister"), "{e}");
        assert_eq!(p("ms617").plain_deal(), Some(617));
        assert_eq!(p("ms40001").plain_deal(), None);
        assert_eq!(p("40001").plain_deal(), Some(40001));
        let e = p("8589934592").microsoft_deal(false).unwrap_err();
        assert!(e.to_string().contains("need --game"), "{e}");
    }

    #[test]
    fn freecell_below_32000_is_the_microsoft_deal() {
        let g = Game::find("freecell").unwrap();
        for n in [1, 617, 31999] {
            let l = deal_game(g, PysolNumber::plain(n).unwrap());
            assert_eq!(l.to_board().unwrap(), ms_deal(n as u64).unwrap(), "{n}");
        }
        let l = deal_game(g, PysolNumber::ms(40000).unwrap());
        assert_eq!(l.to_board().unwrap(), ms_deal(40000).unwrap());
    }

    /// Layouts printed by PySolFC 3.2's own code (tests/pysol_deal_oracle.py).
    #[test]
    fn games_deal_as_pysolfc() {
        let eight_off = deal_game(
            Game::find("eight_off").unwrap(),
            PysolNumber::plain(617).unwrap(),
        );
        assert_eq!(text(&eight_off.cascades[0]), "7D TD TH KD 4C 4S");
        let cells: Vec<String> = eight_off
            .freecells
            .iter()
            .map(|c| c.map_or("-".into(), |c| c.to_string()))
            .collect();
        assert_eq!(cells.join(" "), "JD - KS - KC - 4H -");
        let seahaven = deal_game(
            Game::find("seahaven_towers").unwrap(),
            PysolNumber::plain(32000).unwrap(),
        );
        assert_eq!(seahaven.cascades.len(), 10);
        assert_eq!(text(&seahaven.cascades[0]), "7S 2C TS TC 6C");
        assert_eq!(text(&seahaven.cascades[9]), "3C 9S QH 8C 8H");
        assert_eq!(
            seahaven.freecells[1..3],
            [Some("KC".parse().unwrap()), Some("AS".parse().unwrap())]
        );
    }

    /// Beleaguered Castle and Citadel, deal 1, as PySolFC deals them.
    #[test]
    fn aces_and_citadels_foundations_are_dealt_as_pysolfc_deals_them() {
        let one = PysolNumber::plain(1).unwrap();
        let bc = deal_game(Game::find("beleaguered_castle").unwrap(), one);
        assert_eq!(bc.foundations, [1; 4]);
        assert_eq!(text(&bc.cascades[0]), "JD KD KS QH 8H 6C");
        assert_eq!(text(&bc.cascades[7]), "5H 2S TS TH QS 6H");
        let citadel = deal_game(Game::find("citadel").unwrap(), one);
        assert_eq!(citadel.foundations, [2, 3, 2, 4]);
        assert_eq!(text(&citadel.cascades[1]), "KC 9D 4H");
        assert_eq!(text(&citadel.cascades[7]), "5H TS TH QS 6H");
        let streets = deal_game(Game::find("streets_and_alleys").unwrap(), one);
        assert_eq!(streets.to_board().unwrap(), ms_deal(1).unwrap());
        assert!(streets.freecells.is_empty());
    }

    #[test]
    fn too_few_freecells_for_the_deal_is_an_error() {
        let g = Game::find("eight_off").unwrap();
        let n = PysolNumber::plain(5).unwrap();
        let e = deal_with_rules(g, &g.rules.with_freecells(4), n).unwrap_err();
        assert_eq!(
            e.to_string(),
            "Eight Off deals a card to freecell 7: it needs at least 7 freecells, not 4"
        );
        let l = deal_with_rules(g, &g.rules.with_freecells(7), n).unwrap();
        assert_eq!(l.freecells.len(), 7);
        let fc = Game::find("freecell").unwrap();
        let l = deal_with_rules(fc, &fc.rules.with_freecells(2), n).unwrap();
        assert_eq!(l.freecells, vec![None, None]);
    }
}
