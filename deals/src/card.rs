//! Playing cards and their text tokens.
//!
//! A card is stored as one byte, `rank_index * 4 + suit_index` (0..=51), the order of the
//! Microsoft deal generator's fresh deck: AC AD AH AS 2C 2D ... KS (rank major, suits C D H S).

use std::fmt;
use std::str::FromStr;

/// The four suits in Microsoft deck order: clubs, diamonds, hearts, spades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    Clubs = 0,
    Diamonds = 1,
    Hearts = 2,
    Spades = 3,
}

impl Suit {
    /// All suits, in index order (C, D, H, S).
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// Index 0..=3 in C, D, H, S order.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Suit for an index 0..=3. Panics on anything else (internal use only).
    pub fn from_index(i: usize) -> Suit {
        Suit::ALL[i]
    }

    /// The suit letter: `C`, `D`, `H` or `S`.
    pub fn letter(self) -> char {
        ['C', 'D', 'H', 'S'][self as usize]
    }

    /// Diamonds and hearts are red.
    pub fn is_red(self) -> bool {
        matches!(self, Suit::Diamonds | Suit::Hearts)
    }

    /// Parse a suit letter (case-insensitive).
    pub fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }
}

/// A rank, 1 (ace) ..= 13 (king).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// The ace, rank 1.
    pub const ACE: Rank = Rank(1);

    /// A rank from its number 1..=13; `None` outside that range.
    pub fn new(n: u8) -> Option<Rank> {
        (1..=13).contains(&n).then_some(Rank(n))
    }

    /// The number 1..=13.
    pub fn value(self) -> u8 {
        self.0
    }

    /// The rank character: `A 2 3 4 5 6 7 8 9 T J Q K`.
    pub fn letter(self) -> char {
        b"A23456789TJQK"[(self.0 - 1) as usize] as char
    }

    /// Parse a rank token: `A 2..9 T J Q K`, and `10` for `T` (case-insensitive).
    pub fn from_token(s: &str) -> Option<Rank> {
        let n = match s.to_ascii_uppercase().as_str() {
            "A" | "1" => 1,
            "T" | "10" => 10,
            "J" => 11,
            "Q" => 12,
            "K" => 13,
            d if d.len() == 1 && (b'2'..=b'9').contains(&d.as_bytes()[0]) => d.as_bytes()[0] - b'0',
            _ => return None,
        };
        Some(Rank(n))
    }
}

/// One card; `id()` is `(rank - 1) * 4 + suit` (0..=51), the MS deck index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

/// A token that is not a card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a card: `{0}` (expected rank A,2-9,T/10,J,Q,K then suit C,D,H,S, e.g. `TD`)")]
pub struct CardParseError(pub String);

impl Card {
    /// A card from rank and suit.
    pub fn new(rank: Rank, suit: Suit) -> Card {
        Card((rank.0 - 1) * 4 + suit as u8)
    }

    /// A card from its MS deck index 0..=51; `None` otherwise.
    pub fn from_id(id: u8) -> Option<Card> {
        (id < 52).then_some(Card(id))
    }

    /// The MS deck index 0..=51.
    pub fn id(self) -> u8 {
        self.0
    }

    /// The card's rank.
    pub fn rank(self) -> Rank {
        Rank(self.0 / 4 + 1)
    }

    /// The card's suit.
    pub fn suit(self) -> Suit {
        Suit::from_index((self.0 % 4) as usize)
    }

    /// True for diamonds and hearts.
    pub fn is_red(self) -> bool {
        self.suit().is_red()
    }

    /// All 52 cards in MS deck order (AC AD AH AS 2C ... KS).
    pub fn all() -> impl Iterator<Item = Card> {
        (0..52).map(Card)
    }
}

impl fmt::Display for Card {
    /// Two characters, rank then suit: `AC`, `TD`, `KS`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().letter(), self.suit().letter())
    }
}

impl FromStr for Card {
    type Err = CardParseError;

    /// Parse `AC`, `td`, `10H` and the like.
    fn from_str(s: &str) -> Result<Card, CardParseError> {
        let err = || CardParseError(s.to_string());
        let t = s.trim();
        if !t.is_ascii() || t.len() < 2 || t.len() > 3 {
            return Err(err());
        }
        let (r, su) = t.split_at(t.len() - 1);
        let rank = Rank::from_token(r).filter(|_| r != "1").ok_or_else(err)?;
        let suit = Suit::from_letter(su.chars().next().unwrap_or(' ')).ok_or_else(err)?;
        Ok(Card::new(rank, suit))
    }
}

impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_for_all_cards() {
        for c in Card::all() {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
        assert_eq!(Card::from_id(0).unwrap().to_string(), "AC");
        assert_eq!(Card::from_id(3).unwrap().to_string(), "AS");
        assert_eq!(Card::from_id(51).unwrap().to_string(), "KS");
    }

    #[test]
    fn ten_accepts_t_and_10() {
        assert_eq!("10H".parse::<Card>().unwrap().to_string(), "TH");
        assert_eq!("th".parse::<Card>().unwrap().to_string(), "TH");
    }

    #[test]
    fn rejects_non_cards() {
        for bad in ["", "X", "1C", "11C", "AX", "KDD", "ZZ", "0S", "ÄC"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }
}
