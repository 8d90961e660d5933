//! Pictures of FreeCell positions: the one renderer used by `deal`/`solve`/`show --format
//! svg|png`, the replay page (`solve --format html`) and the web UI.
//!
//! - [`svg()`]: a position as an SVG document, written directly (no library);
//! - [`png()`]: the same SVG rasterised with resvg (cargo feature `png`; the font is Debian's
//!   DejaVu Sans, [`png::FONT`]);
//! - [`replay_html()`]: one self-contained HTML page that replays a solution.
//!
//! The picture: the four freecells (a-d) and four foundations (C D H S, each labelled `h`)
//! on the top row, the eight cascades (1-8) below, each fanned downwards deepest card first,
//! each row's labels above it; an optional caption under it all. Every one of the 52
//! cards is an element `<g class="card" id="card-KH" data-card="KH">`; cards on a foundation
//! are stacked in rank order, so its top card is the one drawn. Each foundation slot is a
//! `<g class="foundation" data-suit="H" data-top="K">` (`data-top` empty when no card is home).
//! Coordinates are in layout units ([`LAYOUT_WIDTH`] wide); `width` scales the whole picture.

use fcauto_deals::{Board, Card, Suit};
use fcauto_solver::{Loc, PlayedMove};

mod html;
pub mod png;
mod svg;

pub use html::{
    positions, replay_controls, replay_html, replay_parts, ReplayParts, GENERATOR_META,
    REPLAY_SCRIPT, REPLAY_STYLE,
};
pub use png::png;
pub use svg::svg;

/// Default picture width in pixels.
pub const DEFAULT_WIDTH: u32 = 720;
/// Smallest `width` accepted, in pixels (below it ranks are unreadable).
pub const MIN_WIDTH: u32 = 200;
/// Largest `width` accepted, in pixels (a PNG of it is about 4096 x 4500 x 4 bytes in memory).
pub const MAX_WIDTH: u32 = 4096;

/// How to draw a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options<'a> {
    /// Picture width in pixels, [`MIN_WIDTH`]..=[`MAX_WIDTH`] (values outside are clamped);
    /// the height follows from the longest cascade.
    pub width: u32,
    /// A move to outline, with an arrow from its source to its destination: "the move
    /// played". The board may be the position before the move or after it (where the moved
    /// card is tells which). The card is the one [`PlayedMove`] names (the deepest of a run).
    pub highlight: Option<PlayedMove>,
    /// A line under the picture saying what it shows (`deal 617, after move 30 of 109:
    /// 7h`); `None`: no line. Text only (it is escaped for SVG).
    pub caption: Option<&'a str>,
}

impl Default for Options<'_> {
    /// [`DEFAULT_WIDTH`] pixels, nothing highlighted, no caption.
    fn default() -> Self {
        Options {
            width: DEFAULT_WIDTH,
            highlight: None,
            caption: None,
        }
    }
}

/// Width of the picture in layout units (8 columns of `PITCH` plus a margin).
pub const LAYOUT_WIDTH: i32 = 8 * PITCH + GAP;
/// Card width and height, layout units.
const CARD_W: i32 = 60;
const CARD_H: i32 = 84;
/// Space between columns, and column pitch.
const GAP: i32 = 10;
const PITCH: i32 = CARD_W + GAP;
/// Top of the freecell/foundation row (below its labels: a-d, h) and of the cascades
/// (below theirs: 1-8), each row's labels above it, so that the cascade numbers, which sit
/// nearer the cascades than the row above, are read as theirs.
const TOP_Y: i32 = 26;
const CASCADE_Y: i32 = TOP_Y + CARD_H + 28;
/// Height of the caption line under the picture, when there is one.
const CAPTION_H: i32 = 22;
/// Vertical offset between fanned cascade cards.
const FAN: i32 = 22;

/// A rectangle in layout units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rect {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl Rect {
    /// Centre point.
    fn centre(self) -> (i32, i32) {
        (self.x + self.w / 2, self.y + self.h / 2)
    }

    /// Bottom edge.
    fn bottom(self) -> i32 {
        self.y + self.h
    }
}

/// One card's place in the picture (top-left corner, layout units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Placed {
    pub card: Card,
    pub x: i32,
    pub y: i32,
}

/// Left edge of column `i` (0..8): freecells a-d are columns 0-3 of the top row,
/// foundations C D H S columns 4-7, cascades 1-8 columns 0-7.
fn column_x(i: usize) -> i32 {
    GAP + i as i32 * PITCH
}

/// The slot of freecell `j` (0..4).
fn freecell_slot(j: usize) -> Rect {
    card_rect(column_x(j), TOP_Y)
}

/// The foundation slot of `suit`.
fn foundation_slot(suit: Suit) -> Rect {
    card_rect(column_x(4 + suit.index()), TOP_Y)
}

/// A card-sized rectangle at `(x, y)`.
fn card_rect(x: i32, y: i32) -> Rect {
    Rect {
        x,
        y,
        w: CARD_W,
        h: CARD_H,
    }
}

/// The rectangle covering `n` (at least 1) fanned cards of cascade `i` from depth `start`.
fn cascade_rect(i: usize, start: usize, n: usize) -> Rect {
    Rect {
        x: column_x(i),
        y: CASCADE_Y + start as i32 * FAN,
        w: CARD_W,
        h: (n.max(1) as i32 - 1) * FAN + CARD_H,
    }
}

/// Height in layout units of a picture whose longest cascade has `rows` cards.
fn layout_height(rows: usize) -> i32 {
    CASCADE_Y + (rows.max(1) as i32 - 1) * FAN + CARD_H + GAP
}

/// Cards in a board's longest cascade.
fn longest_cascade(board: &Board) -> usize {
    board.cascades.iter().map(Vec::len).max().unwrap_or(0)
}

/// Every card of `board` with its place, in drawing order (later cards cover earlier
/// ones): foundations in rank order, freecells, then each cascade deepest card first.
/// Boards from `Board::parse`/`ms_deal` hold at most 8 cascades (extra ones are ignored).
pub(crate) fn place_cards(board: &Board) -> Vec<Placed> {
    let mut out = Vec::with_capacity(52);
    for suit in Suit::ALL {
        let slot = foundation_slot(suit);
        for rank in 1..=board.foundations[suit.index()].min(13) {
            if let Some(r) = fcauto_deals::Rank::new(rank) {
                out.push(Placed {
                    card: Card::new(r, suit),
                    x: slot.x,
                    y: slot.y,
                });
            }
        }
    }
    for (j, c) in board.freecells.iter().enumerate() {
        if let Some(card) = *c {
            let slot = freecell_slot(j);
            out.push(Placed {
                card,
                x: slot.x,
                y: slot.y,
            });
        }
    }
    for (i, col) in board.cascades.iter().take(8).enumerate() {
        for (d, &card) in col.iter().enumerate() {
            let r = cascade_rect(i, d, 1);
            out.push(Placed {
                card,
                x: r.x,
                y: r.y,
            });
        }
    }
    out
}

/// Where a highlighted move starts or ends on `board`: a freecell or foundation slot, or in
/// a cascade the run from `card` to the top if `card` lies there, else the place just below
/// the top card where `count` cards were taken from or will land.
fn loc_rect(board: &Board, loc: Loc, card: Card, count: usize) -> Rect {
    match loc {
        Loc::Freecell(j) => freecell_slot((j as usize).min(3)),
        Loc::Foundation => foundation_slot(card.suit()),
        Loc::Cascade(i) => {
            let i = (i as usize).min(7);
            let col = board.cascades.get(i).map(Vec::as_slice).unwrap_or(&[]);
            match col.iter().position(|&c| c == card) {
                Some(p) => cascade_rect(i, p, col.len() - p),
                None => cascade_rect(i, col.len(), count),
            }
        }
    }
}

/// The source and destination rectangles of a highlighted move on `board`.
pub(crate) fn highlight_rects(board: &Board, m: &PlayedMove) -> [Rect; 2] {
    let n = m.mv.count.max(1) as usize;
    [
        loc_rect(board, m.mv.from, m.card, n),
        loc_rect(board, m.mv.to, m.card, n),
    ]
}

/// The rank as printed on a card: `A`, `2`..`10`, `J`, `Q`, `K`.
pub(crate) fn rank_label(card: Card) -> String {
    match card.rank().value() {
        10 => "10".into(),
        _ => card.rank().letter().to_string(),
    }
}

/// The suit symbol: ♣ ♦ ♥ ♠.
pub(crate) fn suit_symbol(suit: Suit) -> char {
    ['\u{2663}', '\u{2666}', '\u{2665}', '\u{2660}'][suit.index()]
}

/// A card as people read it: `10♥`, `K♠`.
pub fn card_label(card: Card) -> String {
    format!("{}{}", rank_label(card), suit_symbol(card.suit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::ms_deal;

    #[test]
    fn a_deal_places_all_52_cards_once_within_the_picture() {
        let b = ms_deal(617).unwrap();
        let placed = place_cards(&b);
        let mut ids: Vec<u8> = placed.iter().map(|p| p.card.id()).collect();
        ids.sort();
        assert_eq!(ids, (0..52).collect::<Vec<u8>>());
        let h = layout_height(longest_cascade(&b));
        for p in placed {
            assert!(p.x >= 0 && p.x + CARD_W <= LAYOUT_WIDTH, "{p:?}");
            assert!(p.y >= 0 && p.y + CARD_H <= h, "{p:?}");
        }
    }
}
