//! PySolFC's card ids of one deck: `suit * 13 + rank`, suits in PySolFC's order (0 clubs,
//! 1 spades, 2 hearts, 3 diamonds), rank 0 the ace, as `Game.createCards` numbers them.

use fcauto_deals::{Card, Rank, Suit};

/// PySolFC's card id (one deck, suits C S H D) as a card.
pub(super) fn card_of(id: u32) -> Option<Card> {
    if id >= 52 {
        return None;
    }
    let suit = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds][(id / 13) as usize];
    Some(Card::new(Rank::new((id % 13 + 1) as u8)?, suit))
}

/// The card's PySolFC id.
pub(super) fn pysol_id(c: Card) -> u32 {
    let s = match c.suit() {
        Suit::Clubs => 0,
        Suit::Spades => 1,
        Suit::Hearts => 2,
        Suit::Diamonds => 3,
    };
    s * 13 + u32::from(c.rank().value()) - 1
}
