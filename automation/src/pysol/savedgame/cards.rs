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

/// Cards given by PySolFC ids, named (`5H 4C`; an id that is no card as `card id N`), or
/// `no card`: how a stack's cards are quoted when a file and its replay disagree.
pub(super) fn cards_text(ids: &[u32]) -> String {
    let names: Vec<String> = ids
        .iter()
        .map(|&id| card_of(id).map_or(format!("card id {id}"), |c| c.to_string()))
        .collect();
    if names.is_empty() {
        "no card".into()
    } else {
        names.join(" ")
    }
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
