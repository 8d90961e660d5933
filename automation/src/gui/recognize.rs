//! Card recognition: match screen regions against the cardset's own card images
//! (PySolFC `cardset-*/RRs.gif`, `RR` = 01..13, `s` = c/d/h/s; `resource.Cardset.getFaceCardNames`).
//!
//! Cards are drawn 1:1 at their top-left corner, so a region is compared pixel by pixel
//! with each template (transparent template pixels are skipped). The score of a template is
//! the fraction of its opaque pixels within [`PIXEL_TOLERANCE`] of the screen; the confidence
//! of a reading is the best score (1.0 = every pixel agrees).

use std::path::Path;

use fcauto_deals::{Board, Card, Layout as Position, Rank, Suit};
use image::RgbaImage;

use super::layout::Layout;
use super::screen::is_table;
use super::GuiError;

/// Largest per-channel difference for a pixel to count as equal.
pub const PIXEL_TOLERANCE: u8 = 24;
/// Lowest score accepted as a card (below it the region is "not a card").
pub const MIN_SCORE: f32 = 0.90;

/// The 52 face images of one cardset, indexed by [`Card::id`].
pub struct CardImages {
    faces: Vec<(Card, RgbaImage)>,
    /// Card width and height in pixels.
    pub size: (u32, u32),
}

impl CardImages {
    /// Load `01c.gif` .. `13s.gif` from a cardset directory.
    /// Errors: a file missing or undecodable, or images of different sizes.
    pub fn load(dir: &Path) -> Result<CardImages, GuiError> {
        let mut faces = Vec::with_capacity(52);
        for card in Card::all() {
            let name = format!(
                "{:02}{}.gif",
                card.rank().value(),
                card.suit().letter().to_ascii_lowercase()
            );
            let path = dir.join(&name);
            let img = image::open(&path)
                .map_err(|e| {
                    GuiError::Recognize(format!("cannot load card image {}: {e}", path.display()))
                })?
                .to_rgba8();
            faces.push((card, img));
        }
        let size = faces[0].1.dimensions();
        if faces.iter().any(|(_, i)| i.dimensions() != size) {
            return Err(GuiError::Recognize(format!(
                "card images in {} differ in size",
                dir.display()
            )));
        }
        Ok(CardImages { faces, size })
    }

    /// Score of `card`'s template rows `0..rows` against the screen at top-left (sx, sy).
    pub fn score(&self, shot: &RgbaImage, sx: i32, sy: i32, card: Card, rows: u32) -> f32 {
        let tpl = &self
            .faces
            .iter()
            .find(|(c, _)| *c == card)
            .expect("all 52 cards loaded")
            .1;
        score_one(shot, sx, sy, tpl, rows, 1.0)
    }

    /// Best-matching card for the region at (sx, sy) using template rows `0..rows`
    /// (`rows` = card height for a fully visible card, the cascade offset for a covered one).
    /// Returns the card and its score, `None` if nothing reaches [`MIN_SCORE`].
    pub fn best(&self, shot: &RgbaImage, sx: i32, sy: i32, rows: u32) -> Option<(Card, f32)> {
        let mut best: Option<(Card, f32)> = None;
        for (card, tpl) in &self.faces {
            let floor = best.map(|b| b.1).unwrap_or(MIN_SCORE);
            let s = score_one(shot, sx, sy, tpl, rows, floor);
            if s >= floor && best.map(|b| s > b.1).unwrap_or(true) {
                best = Some((*card, s));
            }
        }
        best
    }
}

/// Fraction of opaque template pixels (rows `0..rows`) equal to the screen; gives up early
/// (returning a lower bound below `floor`) once `floor` cannot be reached.
fn score_one(shot: &RgbaImage, sx: i32, sy: i32, tpl: &RgbaImage, rows: u32, floor: f32) -> f32 {
    let (w, h) = tpl.dimensions();
    let rows = rows.min(h);
    if sx < 0 || sy < 0 || sx as u32 + w > shot.width() || sy as u32 + rows > shot.height() {
        return 0.0;
    }
    let total = (w * rows) as f32;
    let allowed = ((1.0 - floor) * total) as u32;
    let (mut opaque, mut bad) = (0u32, 0u32);
    for y in 0..rows {
        for x in 0..w {
            let t = tpl.get_pixel(x, y).0;
            if t[3] < 128 {
                continue;
            }
            opaque += 1;
            let s = shot.get_pixel(sx as u32 + x, sy as u32 + y).0;
            if (0..3).any(|i| t[i].abs_diff(s[i]) > PIXEL_TOLERANCE) {
                bad += 1;
                if bad > allowed + 1 {
                    return 0.0;
                }
            }
        }
    }
    if opaque == 0 {
        0.0
    } else {
        1.0 - bad as f32 / opaque as f32
    }
}

/// What the screen shows: cascades with a confidence per card, freecells, foundations.
#[derive(Clone, Debug, Default)]
pub struct SeenBoard {
    /// The cascades (8, or Seahaven Towers' 10), deepest card first, each card with its
    /// score.
    pub cascades: Vec<Vec<(Card, f32)>>,
    /// The game's freecell slots (4 in FreeCell, 8 in Eight Off).
    pub freecells: Vec<Option<(Card, f32)>>,
    /// Per suit (C, D, H, S) the top foundation rank (0 = empty).
    pub foundations: [u8; 4],
    /// Regions that looked like a card but matched no template (`"cascade 3 card 5"`, ...).
    pub unreadable: Vec<String>,
}

impl SeenBoard {
    /// The board as FreeCell's [`Board`] (scores dropped; the first four freecell slots).
    pub fn to_board(&self) -> Board {
        let mut freecells = [None; 4];
        for (slot, f) in freecells.iter_mut().zip(&self.freecells) {
            *slot = f.map(|p| p.0);
        }
        Board {
            cascades: self
                .cascades
                .iter()
                .map(|c| c.iter().map(|p| p.0).collect())
                .collect(),
            freecells,
            foundations: self.foundations,
        }
    }

    /// The position as any game's [`Position`] (scores dropped; every freecell slot).
    pub fn to_layout(&self) -> Position {
        Position {
            cascades: self
                .cascades
                .iter()
                .map(|c| c.iter().map(|p| p.0).collect())
                .collect(),
            freecells: self.freecells.iter().map(|f| f.map(|p| p.0)).collect(),
            foundations: self.foundations,
        }
    }

    /// Number of cards read (cascades + freecells + foundations).
    pub fn card_count(&self) -> usize {
        self.cascades.iter().map(Vec::len).sum::<usize>()
            + self.freecells.iter().flatten().count()
            + self.foundations.iter().map(|&r| r as usize).sum::<usize>()
    }

    /// Lowest score of any card read (1.0 when no card).
    pub fn min_score(&self) -> f32 {
        self.cascades
            .iter()
            .flatten()
            .chain(self.freecells.iter().flatten())
            .map(|p| p.1)
            .fold(1.0, f32::min)
    }
}

/// Read the whole board from a screenshot, `origin` being the screen position of game (0, 0),
/// with as many cascades and freecells as `layout`'s game has.
///
/// A cascade's length comes from the lowest non-table pixel row under its first card (probed
/// at three x positions, above Eight Off's row of free cells); covered cards are matched on their visible strip (`yoff` rows), the
/// top card on the whole image. Freecell slots hold a card when one matches whole; foundations
/// are read on their top strip only (the "Game won" dialog can cover the rest).
pub fn read_board(
    shot: &RgbaImage,
    origin: (i32, i32),
    layout: &Layout,
    imgs: &CardImages,
) -> SeenBoard {
    let at = |p: (i32, i32)| (origin.0 + p.0, origin.1 + p.1);
    let mut seen = SeenBoard::default();
    let floor = layout.cascade_floor().map(|y| at((0, y)).1);
    for col in 0..layout.cascades() {
        let (x0, y0) = at(layout.cascade_card(col, 0));
        let probe = [
            x0 + layout.cw / 4,
            x0 + layout.cw / 2,
            x0 + 3 * layout.cw / 4,
        ];
        // The canvas ends where the left margin (never covered by a card) stops being table.
        let limit = (y0..shot.height() as i32)
            .find(|&y| !is_table(shot, origin.0 - 5, y))
            .unwrap_or(y0);
        let limit = floor.map_or(limit, |f| limit.min(f));
        let bottom = (y0..limit)
            .rev()
            .find(|&y| probe.iter().any(|&x| !is_table(shot, x, y)));
        let mut cards = Vec::new();
        if let Some(bottom) = bottom {
            let span = bottom + 1 - y0 - layout.ch;
            let n = (span.max(0) + layout.yoff / 2) / layout.yoff + 1;
            for k in 0..n as usize {
                let (sx, sy) = at(layout.cascade_card(col, k));
                let rows = if k + 1 == n as usize {
                    layout.ch
                } else {
                    layout.yoff
                } as u32;
                match imgs.best(shot, sx, sy, rows) {
                    Some(p) => cards.push(p),
                    None => seen
                        .unreadable
                        .push(format!("cascade {} card {}", col + 1, k + 1)),
                }
            }
        }
        seen.cascades.push(cards);
    }
    for i in 0..layout.freecells() {
        let (sx, sy) = at(layout.freecell(i));
        seen.freecells
            .push(imgs.best(shot, sx, sy, layout.ch as u32));
    }
    for (pos, &suit) in layout.foundation_order().iter().enumerate() {
        let (sx, sy) = at(layout.foundation(pos));
        // Only the top strip: PySolFC's end-of-game dialog may cover the rest of the card.
        if let Some((card, _)) = imgs.best(shot, sx, sy, layout.yoff as u32) {
            if card.suit().index() == suit {
                seen.foundations[suit] = card.rank().value();
            } else {
                seen.unreadable
                    .push(format!("foundation {} shows {card}", pos + 1));
            }
        }
    }
    seen
}

/// Whether the foundation card `rank` of `suit` is what a slot shows (helper for tests).
pub fn card_of(suit: usize, rank: u8) -> Option<Card> {
    Some(Card::new(Rank::new(rank)?, Suit::from_index(suit)))
}
