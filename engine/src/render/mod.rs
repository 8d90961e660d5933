//! Pictures of positions of the FreeCell family: the one renderer used by
//! `deal`/`solve`/`show --format svg|png`, the replay page (`solve --format html`), the
//! analysis's pictures and the web UI.
//!
//! - [`svg()`], [`svg_view`]: a position as an SVG document, written directly (no library);
//! - [`png()`], [`png_view`]: the same SVG rasterised with resvg (cargo feature `png`; the
//!   font is Debian's DejaVu Sans, [`png::FONT`]);
//! - [`replay_html()`], [`line_html`], [`family::FamilyGame::replay_html`]: one self-contained
//!   HTML page that replays a game.
//!
//! Every picture is drawn from a [`View`]: a position of any game of the family (up to 10
//! cascades and 8 freecells) with the game's title. A standard FreeCell [`Board`] is a view
//! of 8 cascades and 4 freecells ([`View::board`]); a [`Layout`] of another game is a view of
//! its own shape ([`View::layout`]).
//!
//! The picture: the freecells (a-g, i: standard notation's names) on the left of the top row
//! and the four foundations (C D H S, each labelled `h`) on its right, the cascades (1-9, 0
//! for the tenth) below, each fanned downwards deepest card first, each row's labels above
//! it; an optional caption under it all. The picture is as many columns wide as its wider
//! row; the narrower row is centred (standard FreeCell's rows are both 8 columns). Every one
//! of the 52 cards is an element `<g class="card" id="card-KH" data-card="KH">`; cards on a
//! foundation are stacked in rank order, so its top card is the one drawn. Each foundation
//! slot is a `<g class="foundation" data-suit="H" data-top="K">` (`data-top` empty when no
//! card is home). Coordinates are in layout units ([`LAYOUT_WIDTH`] wide for standard
//! FreeCell, [`View::layout_width`] in general); `width` scales the whole picture.

use fcauto_deals::game::{MAX_CASCADES, MAX_FREECELLS};
use fcauto_deals::{Board, Card, Layout, Suit};
use fcauto_solver::{Loc, PlayedMove};

pub mod family;
mod html;
pub mod png;
mod svg;

pub use html::{
    line_html, line_parts, positions, replay_controls, replay_html, replay_html_titled,
    replay_parts, Line, ReplayParts, GENERATOR_META, REPLAY_SCRIPT, REPLAY_STYLE,
};
pub use png::{png, png_view};
pub use svg::{svg, svg_view};

/// Default picture width in pixels.
pub const DEFAULT_WIDTH: u32 = 720;
/// Smallest `width` accepted, in pixels (below it ranks are unreadable).
pub const MIN_WIDTH: u32 = 200;
/// Largest `width` accepted, in pixels (a PNG of it is about 4096 x 4500 x 4 bytes in memory).
pub const MAX_WIDTH: u32 = 4096;

/// The formats of a picture of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PictureFormat {
    /// SVG (text).
    Svg,
    /// PNG (binary; cargo feature `png`).
    Png,
}

/// `view` drawn in `format` as `opts` say: the SVG's bytes ([`svg_view`]) or the PNG's
/// ([`png_view`]).
///
/// # Errors
/// PNG only: see [`png()`] (no `png` feature, the font missing).
pub fn draw_view(view: &View, format: PictureFormat, opts: &Options) -> anyhow::Result<Vec<u8>> {
    match format {
        PictureFormat::Svg => Ok(svg_view(view, opts).into_bytes()),
        PictureFormat::Png => png_view(view, opts),
    }
}

/// How to draw a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options<'a> {
    /// Picture width in pixels, [`MIN_WIDTH`]..=[`MAX_WIDTH`] (values outside are clamped);
    /// the height follows from the longest cascade.
    pub width: u32,
    /// A move to outline, with an arrow from its source to its destination: "the move
    /// played". The board may be the position before the move or after it (where the moved
    /// card is tells which). The card is the one [`PlayedMove`] names (the deepest of a run).
    /// Its places are any of the view's: `Loc::Cascade(9)` is a tenth cascade,
    /// `Loc::Freecell(7)` an eighth freecell.
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

/// The title standard FreeCell's pictures carry (`FreeCell position, ...`).
pub const FREECELL_TITLE: &str = "FreeCell";

/// A position to draw, of any game of the family: its cascades, freecell slots and
/// foundations, borrowed, with how many cascades and freecells the game has and its title.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View<'a> {
    cascades: &'a [Vec<Card>],
    freecells: &'a [Option<Card>],
    foundations: [u8; 4],
    ncascades: usize,
    nfreecells: usize,
    title: &'a str,
}

impl<'a> View<'a> {
    /// Standard FreeCell's board: 8 cascades (any past the eighth are left out), 4 freecells,
    /// titled [`FREECELL_TITLE`].
    pub fn board(b: &'a Board) -> View<'a> {
        View {
            cascades: &b.cascades,
            freecells: &b.freecells,
            foundations: b.foundations,
            ncascades: 8,
            nfreecells: 4,
            title: FREECELL_TITLE,
        }
    }

    /// A position of the game titled `title` (PySolFC's title, "Seahaven Towers"): as many
    /// cascades and freecells as the layout has, at most [`MAX_CASCADES`] and
    /// [`MAX_FREECELLS`] (at least one cascade).
    pub fn layout(l: &'a Layout, title: &'a str) -> View<'a> {
        View {
            cascades: &l.cascades,
            freecells: &l.freecells,
            foundations: l.foundations,
            ncascades: l.cascades.len().clamp(1, MAX_CASCADES),
            nfreecells: l.freecells.len().min(MAX_FREECELLS),
            title,
        }
    }

    /// The game's title.
    pub fn title(&self) -> &'a str {
        self.title
    }

    /// Cascades drawn.
    pub fn cascade_count(&self) -> usize {
        self.ncascades
    }

    /// Freecells drawn.
    pub fn freecell_count(&self) -> usize {
        self.nfreecells
    }

    /// Per suit (C, D, H, S): the top rank on the foundation.
    pub fn foundations(&self) -> [u8; 4] {
        self.foundations
    }

    /// Cards on the foundations.
    pub fn home(&self) -> u32 {
        self.foundations.iter().map(|&f| f.min(13) as u32).sum()
    }

    /// Columns of the picture: its wider row, the cascades or the freecells and the four
    /// foundations.
    fn columns(&self) -> usize {
        self.ncascades.max(self.nfreecells + 4)
    }

    /// Width of the picture in layout units ([`LAYOUT_WIDTH`] for standard FreeCell).
    pub fn layout_width(&self) -> i32 {
        self.columns() as i32 * PITCH + GAP
    }

    /// The cascades drawn.
    fn drawn_cascades(&self) -> &'a [Vec<Card>] {
        &self.cascades[..self.cascades.len().min(self.ncascades)]
    }

    /// Left edge of cascade `i`: the cascades are centred under the top row.
    fn cascade_x(&self, i: usize) -> i32 {
        let spare = (self.columns() - self.ncascades) as i32 * PITCH;
        column_x(i) + spare / 2
    }

    /// The slot of freecell `j`: the top row's columns from the left.
    fn freecell_slot(&self, j: usize) -> Rect {
        card_rect(column_x(j), TOP_Y)
    }

    /// The foundation slot of `suit`: the top row's last four columns.
    fn foundation_slot(&self, suit: Suit) -> Rect {
        card_rect(column_x(self.columns() - 4 + suit.index()), TOP_Y)
    }

    /// The rectangle covering `n` (at least 1) fanned cards of cascade `i` from depth
    /// `start`.
    fn cascade_rect(&self, i: usize, start: usize, n: usize) -> Rect {
        Rect {
            x: self.cascade_x(i),
            y: CASCADE_Y + start as i32 * FAN,
            w: CARD_W,
            h: (n.max(1) as i32 - 1) * FAN + CARD_H,
        }
    }

    /// Cards in the longest cascade drawn.
    fn longest_cascade(&self) -> usize {
        self.drawn_cascades()
            .iter()
            .map(Vec::len)
            .max()
            .unwrap_or(0)
    }
}

/// A position to draw, owned: standard FreeCell's board, or a layout of another game with
/// its title (what the analysis's pictures keep until they are drawn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Position {
    /// Standard FreeCell ([`View::board`]).
    Board(Board),
    /// A game of the family titled as given ([`View::layout`]).
    Layout(Layout, String),
}

impl Position {
    /// The view to draw.
    pub fn view(&self) -> View<'_> {
        match self {
            Position::Board(b) => View::board(b),
            Position::Layout(l, title) => View::layout(l, title),
        }
    }
}

/// Width of standard FreeCell's picture in layout units (8 columns of `PITCH` plus a
/// margin).
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

/// Standard notation's names of the freecells: `a`..`g`, then `i` for the eighth (`h` is
/// the foundation in every game).
const CELL_NAMES: [char; 8] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'i'];

/// Standard notation's name of freecell `j` (0-based).
pub(crate) fn cell_name(j: usize) -> char {
    CELL_NAMES[j.min(7)]
}

/// Standard notation's name of cascade `i` (0-based): `1`..`9`, `0` for the tenth.
pub(crate) fn cascade_name(i: usize) -> char {
    match i {
        9 => '0',
        i => (b'1' + i.min(8) as u8) as char,
    }
}

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

/// Left edge of column `i` of the picture.
fn column_x(i: usize) -> i32 {
    GAP + i as i32 * PITCH
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

/// Height in layout units of a picture whose longest cascade has `rows` cards.
fn layout_height(rows: usize) -> i32 {
    CASCADE_Y + (rows.max(1) as i32 - 1) * FAN + CARD_H + GAP
}

/// Every card of `view` with its place, in drawing order (later cards cover earlier
/// ones): foundations in rank order, freecells, then each cascade deepest card first.
pub(crate) fn place_cards(view: &View) -> Vec<Placed> {
    let mut out = Vec::with_capacity(52);
    for suit in Suit::ALL {
        let slot = view.foundation_slot(suit);
        for rank in 1..=view.foundations[suit.index()].min(13) {
            if let Some(r) = fcauto_deals::Rank::new(rank) {
                out.push(Placed {
                    card: Card::new(r, suit),
                    x: slot.x,
                    y: slot.y,
                });
            }
        }
    }
    for (j, c) in view.freecells.iter().take(view.nfreecells).enumerate() {
        if let Some(card) = *c {
            let slot = view.freecell_slot(j);
            out.push(Placed {
                card,
                x: slot.x,
                y: slot.y,
            });
        }
    }
    for (i, col) in view.drawn_cascades().iter().enumerate() {
        for (d, &card) in col.iter().enumerate() {
            let r = view.cascade_rect(i, d, 1);
            out.push(Placed {
                card,
                x: r.x,
                y: r.y,
            });
        }
    }
    out
}

/// Where a highlighted move starts or ends on `view`: a freecell or foundation slot, or in
/// a cascade the run from `card` to the top if `card` lies there, else the place just below
/// the top card where `count` cards were taken from or will land.
fn loc_rect(view: &View, loc: Loc, card: Card, count: usize) -> Rect {
    match loc {
        Loc::Freecell(j) => view.freecell_slot((j as usize).min(view.nfreecells.max(1) - 1)),
        Loc::Foundation => view.foundation_slot(card.suit()),
        Loc::Cascade(i) => {
            let i = (i as usize).min(view.ncascades - 1);
            let col = view.cascades.get(i).map(Vec::as_slice).unwrap_or(&[]);
            match col.iter().position(|&c| c == card) {
                Some(p) => view.cascade_rect(i, p, col.len() - p),
                None => view.cascade_rect(i, col.len(), count),
            }
        }
    }
}

/// The source and destination rectangles of a highlighted move on `view`.
pub(crate) fn highlight_rects(view: &View, m: &PlayedMove) -> [Rect; 2] {
    let n = m.mv.count.max(1) as usize;
    [
        loc_rect(view, m.mv.from, m.card, n),
        loc_rect(view, m.mv.to, m.card, n),
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
    use fcauto_deals::{deal_game, ms_deal, Game, PysolNumber};

    fn layout_of(game: &str, n: u128) -> (Layout, &'static str) {
        let g = Game::find(game).unwrap();
        (deal_game(g, PysolNumber::plain(n).unwrap()), g.pysol_name)
    }

    /// Every card placed once, each inside the picture and no two cascades or top-row slots
    /// overlapping.
    fn check_places(view: &View) {
        let placed = place_cards(view);
        let mut ids: Vec<u8> = placed.iter().map(|p| p.card.id()).collect();
        ids.sort();
        assert_eq!(ids, (0..52).collect::<Vec<u8>>());
        let h = layout_height(view.longest_cascade());
        let w = view.layout_width();
        for p in placed {
            assert!(p.x >= 0 && p.x + CARD_W <= w, "{p:?}");
            assert!(p.y >= 0 && p.y + CARD_H <= h, "{p:?}");
        }
        let mut top: Vec<i32> = (0..view.freecell_count())
            .map(|j| view.freecell_slot(j).x)
            .chain(Suit::ALL.iter().map(|&s| view.foundation_slot(s).x))
            .collect();
        let xs: Vec<i32> = (0..view.cascade_count())
            .map(|i| view.cascade_x(i))
            .collect();
        for row in [&mut top, &mut xs.clone()] {
            row.sort();
            assert!(row.windows(2).all(|p| p[1] - p[0] >= PITCH), "{row:?}");
            assert!(row[0] >= GAP && row[row.len() - 1] + CARD_W + GAP <= w);
        }
    }

    #[test]
    fn a_deal_places_all_52_cards_once_within_the_picture() {
        let b = ms_deal(617).unwrap();
        let view = View::board(&b);
        check_places(&view);
        assert_eq!(view.layout_width(), LAYOUT_WIDTH);
        assert_eq!(view.cascade_x(0), GAP);
        assert_eq!(view.foundation_slot(Suit::Clubs).x, column_x(4));
    }

    /// Seahaven Towers: 10 cascades make the picture 10 columns wide, the foundations on the
    /// top row's right; Eight Off: 8 freecells and 4 foundations make 12 columns, the 8
    /// cascades centred under them.
    #[test]
    fn each_game_has_its_own_columns() {
        let (sea, title) = layout_of("seahaven_towers", 5);
        let v = View::layout(&sea, title);
        check_places(&v);
        assert_eq!((v.cascade_count(), v.freecell_count()), (10, 4));
        assert_eq!(v.layout_width(), 10 * PITCH + GAP);
        assert_eq!(v.foundation_slot(Suit::Spades).x, column_x(9));
        assert_eq!(v.cascade_x(9), column_x(9));
        let (eight, title) = layout_of("eight_off", 5);
        let v = View::layout(&eight, title);
        check_places(&v);
        assert_eq!(v.layout_width(), 12 * PITCH + GAP);
        assert_eq!(v.freecell_slot(7).x, column_x(7));
        assert_eq!(v.foundation_slot(Suit::Clubs).x, column_x(8));
        assert_eq!(v.cascade_x(0), column_x(2));
        let (none, title) = layout_of("freecell_0_freecells", 5);
        let v = View::layout(&none, title);
        check_places(&v);
        assert_eq!(v.layout_width(), LAYOUT_WIDTH);
    }

    /// A move to the tenth cascade or the eighth freecell is outlined there.
    #[test]
    fn highlights_reach_the_tenth_cascade_and_the_eighth_freecell() {
        let (eight, title) = layout_of("eight_off", 5);
        let v = View::layout(&eight, title);
        let card = *eight.cascades[0].last().unwrap();
        let m = PlayedMove {
            mv: fcauto_solver::Move {
                from: Loc::Cascade(0),
                to: Loc::Freecell(7),
                count: 1,
            },
            card,
        };
        assert_eq!(highlight_rects(&v, &m)[1], v.freecell_slot(7));
        let (sea, title) = layout_of("seahaven_towers", 5);
        let v = View::layout(&sea, title);
        let card = *sea.cascades[9].last().unwrap();
        let m = PlayedMove {
            mv: fcauto_solver::Move {
                from: Loc::Cascade(9),
                to: Loc::Foundation,
                count: 1,
            },
            card,
        };
        let from = highlight_rects(&v, &m)[0];
        assert_eq!(from.x, v.cascade_x(9));
        assert_eq!((cascade_name(9), cell_name(7)), ('0', 'i'));
    }
}
