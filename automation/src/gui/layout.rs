//! FreeCell's table geometry in PySolFC, in game (canvas) coordinates at scale 1.
//!
//! Formulas from PySolFC 3.2.0 `pysollib/layout.py` (`Layout.__init__`,
//! `Layout.freeCellLayout(rows=8, reserves=4)`) and card sizes from the cardset's
//! `config.txt` (line 3: `CARDW CARDH CARDD`, line 4: `CARD_XOFFSET CARD_YOFFSET ...`).
//! Valid only with `auto_scale`, `center_layout` and `compact_stacks` off (our options.cfg).

use std::path::Path;

/// Foundation suits left to right in PySolFC (`games/freecell.py`: suits 0..3 = C, S, H, D),
/// as indices into [`fcauto_deals::Board::foundations`] (C, D, H, S).
pub const FOUNDATION_SUIT_ORDER: [usize; 4] = [0, 3, 2, 1];

/// Geometry of the FreeCell table for one cardset, all values in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Card width (`CARDW`).
    pub cw: i32,
    /// Card height (`CARDH`).
    pub ch: i32,
    /// Vertical offset between cards in a cascade (`CARD_YOFFSET`).
    pub yoff: i32,
    /// Margin `XM = YM = CARDW // 9`.
    pub xm: i32,
    /// Horizontal stack spacing `XS = CARDW + CARDW // 9`.
    pub xs: i32,
    /// Vertical spacing `YS = CARDH + CARDH // 8`.
    pub ys: i32,
}

/// Errors reading a cardset's `config.txt`.
#[derive(Debug, thiserror::Error)]
pub enum LayoutError {
    /// The file could not be read.
    #[error("cannot read cardset config {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// Lines 3/4 were not numbers.
    #[error("cardset config {0}: expected `W H D` on line 3 and `XOFF YOFF ..` on line 4")]
    Format(String),
}

impl Layout {
    /// Layout for cards of `cw`×`ch` pixels with cascade offset `yoff`.
    pub fn new(cw: i32, ch: i32, yoff: i32) -> Layout {
        Layout {
            cw,
            ch,
            yoff,
            xm: cw / 9,
            xs: cw + cw / 9,
            ys: ch + ch / 8,
        }
    }

    /// Read `config.txt` of a cardset directory (e.g. `/usr/share/games/pysolfc/cardset-standard`).
    pub fn from_cardset(dir: &Path) -> Result<Layout, LayoutError> {
        let path = dir.join("config.txt");
        let text = std::fs::read_to_string(&path).map_err(|source| LayoutError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let nums = |line: Option<&str>| -> Option<Vec<i32>> {
            line?.split_whitespace().map(|w| w.parse().ok()).collect()
        };
        let lines: Vec<&str> = text.lines().collect();
        let size = nums(lines.get(2).copied()).filter(|v| v.len() >= 2);
        let offs = nums(lines.get(3).copied()).filter(|v| v.len() >= 2);
        match (size, offs) {
            (Some(s), Some(o)) => Ok(Layout::new(s[0], s[1], o[1])),
            _ => Err(LayoutError::Format(path.display().to_string())),
        }
    }

    /// Canvas game width `w = XM + 9·XS`.
    pub fn width(&self) -> i32 {
        self.xm + 9 * self.xs
    }

    /// Canvas game height `h = YM + YS + max(CH·2//3 + 17·YOFFSET, 3·YS)`.
    pub fn height(&self) -> i32 {
        self.xm + self.ys + (self.ch * 2 / 3 + 17 * self.yoff).max(3 * self.ys)
    }

    /// Top-left of freecell (PySolFC "reserve") slot 0..=3.
    pub fn freecell(&self, i: usize) -> (i32, i32) {
        (self.xm + i as i32 * self.xs, self.xm)
    }

    /// Top-left of the foundation at screen position 0..=3 (suits in [`FOUNDATION_SUIT_ORDER`]).
    pub fn foundation(&self, pos: usize) -> (i32, i32) {
        (self.xm + (5 + pos as i32) * self.xs, self.xm)
    }

    /// Top-left of the foundation holding suit index `suit` (C, D, H, S order).
    pub fn foundation_of_suit(&self, suit: usize) -> (i32, i32) {
        let pos = FOUNDATION_SUIT_ORDER
            .iter()
            .position(|&s| s == suit)
            .unwrap_or(0);
        self.foundation(pos)
    }

    /// Top-left of card `k` (0 = deepest) of cascade 0..=7.
    pub fn cascade_card(&self, col: usize, k: usize) -> (i32, i32) {
        let x0 = (self.width() - (8 * self.xs - self.xm)) / 2;
        (
            x0 + col as i32 * self.xs,
            self.xm + self.ys + k as i32 * self.yoff,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_cardset_numbers_match_the_reference_notes() {
        let l = Layout::new(71, 96, 18);
        assert_eq!((l.width(), l.height()), (709, 485));
        assert_eq!(l.freecell(3), (241, 7));
        assert_eq!(l.foundation(0), (397, 7));
        assert_eq!(l.cascade_card(0, 0), (46, 115));
        assert_eq!(l.cascade_card(7, 2), (592, 151));
        assert_eq!(l.foundation_of_suit(1), l.foundation(3)); // diamonds rightmost
    }
}
