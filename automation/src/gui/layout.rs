//! The table geometry of the FreeCell family's games in PySolFC, in game (canvas)
//! coordinates at scale 1.
//!
//! Formulas from PySolFC 3.2.0 `pysollib/layout.py` (`Layout.__init__`,
//! `Layout.freeCellLayout(rows=8, reserves=N)`: FreeCell, Baker's Game, FreeCell with 2 or no
//! free cells) and the games' own `createGame` in `pysollib/games/bakersgame.py` (Seahaven
//! Towers: 10 cascades under a row of foundations and free cells; Eight Off: 8 cascades, the
//! 8 free cells in a row under them), and card sizes from the cardset's `config.txt` (line 3:
//! `CARDW CARDH CARDD`, line 4: `CARD_XOFFSET CARD_YOFFSET ...`). Valid only with
//! `auto_scale`, `center_layout` and `compact_stacks` off (our options.cfg).

use std::path::Path;

/// Foundation suits left to right in PySolFC (`games/freecell.py`: suits 0..3 = C, S, H, D),
/// as indices into [`fcauto_deals::Board::foundations`] (C, D, H, S).
pub const FOUNDATION_SUIT_ORDER: [usize; 4] = [0, 3, 2, 1];

/// Which of PySolFC's table layouts a game uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `freeCellLayout(rows=8, reserves=N)`: N free cells, a gap, the four foundations, all
    /// centred above 8 centred cascades.
    FreeCell {
        /// Free cells (PySolFC's reserves).
        reserves: usize,
    },
    /// Seahaven Towers: foundations over cascades 1, 2, 9 and 10, the 4 free cells over
    /// cascades 4 to 7, 10 cascades below.
    Seahaven,
    /// Eight Off: the foundations over cascades 3 to 6, 8 cascades, the 8 free cells in a row
    /// at the bottom of the table.
    EightOff,
}

/// PySolFC ids of the games laid out as Beleaguered Castle is (`games/beleagueredcastle.py`:
/// the foundations in a column in the middle, the cascades in rows either side of it):
/// Streets and Alleys, Beleaguered Castle, Citadel.
const ROWS_BESIDE_FOUNDATIONS: [u32; 3] = [146, 34, 145];

/// Ok when `play --gui` reads `game`'s table ([`Shape`]: FreeCell's layout, Seahaven Towers',
/// Eight Off's); the reason it does not otherwise, naming the games it plays.
///
/// # Errors
/// The message for a game laid out as Beleaguered Castle is.
pub fn check_table_read(game: &fcauto_deals::Game) -> Result<(), String> {
    if !ROWS_BESIDE_FOUNDATIONS.contains(&game.pysol_id) {
        return Ok(());
    }
    let playable: Vec<&str> = fcauto_deals::GAMES
        .iter()
        .filter(|g| !ROWS_BESIDE_FOUNDATIONS.contains(&g.pysol_id))
        .map(|g| g.name)
        .collect();
    Err(format!(
        "`play --gui` does not read {}'s table yet (PySolFC lays its cascades out in rows either \
         side of the foundations); it plays {} (solve, show and verify take {} too)",
        game.pysol_name,
        playable.join(", "),
        game.name
    ))
}

/// Foundation suits left to right in Seahaven Towers (`SeahavenTowers.createGame`: PySolFC's
/// suit s at column `(9, 0, 1, 8)[s]`), as indices into the foundations (C, D, H, S).
pub const SEAHAVEN_FOUNDATION_ORDER: [usize; 4] = [3, 2, 1, 0];

/// Geometry of a game's table for one cardset, all values in pixels.
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
    /// The game's table layout.
    pub shape: Shape,
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
    /// FreeCell's layout for cards of `cw`×`ch` pixels with cascade offset `yoff`.
    pub fn new(cw: i32, ch: i32, yoff: i32) -> Layout {
        Layout {
            cw,
            ch,
            yoff,
            xm: cw / 9,
            xs: cw + cw / 9,
            ys: ch + ch / 8,
            shape: Shape::FreeCell { reserves: 4 },
        }
    }

    /// This cardset's layout of `game`'s table, for a game whose table is read
    /// ([`check_table_read`]) (PySolFC draws Seahaven Towers and Eight Off
    /// with their own `createGame`; the other games with `freeCellLayout`).
    pub fn for_game(self, game: &fcauto_deals::Game) -> Layout {
        let shape = match game.pysol_id {
            9 | 6 => Shape::Seahaven,
            258 => Shape::EightOff,
            _ => Shape::FreeCell {
                reserves: game.rules.freecells as usize,
            },
        };
        Layout { shape, ..self }
    }

    /// Number of cascades (PySolFC's rows).
    pub fn cascades(&self) -> usize {
        match self.shape {
            Shape::Seahaven => 10,
            _ => 8,
        }
    }

    /// Number of free cells (PySolFC's reserves).
    pub fn freecells(&self) -> usize {
        match self.shape {
            Shape::FreeCell { reserves } => reserves,
            Shape::Seahaven => 4,
            Shape::EightOff => 8,
        }
    }

    /// Foundation suits left to right, as indices into the foundations (C, D, H, S).
    pub fn foundation_order(&self) -> [usize; 4] {
        match self.shape {
            Shape::Seahaven => SEAHAVEN_FOUNDATION_ORDER,
            _ => FOUNDATION_SUIT_ORDER,
        }
    }

    /// `freeCellLayout`'s top row: its first stack's x and its count of stacks
    /// (`toprows`: the foundations, and the free cells and a gap when there are any).
    fn top_row(&self, reserves: usize) -> (i32, i32) {
        let toprows = 4 + if reserves > 0 { reserves as i32 + 1 } else { 0 };
        ((self.width() - (toprows * self.xs - self.xm)) / 2, toprows)
    }

    /// Lowest y (exclusive) a cascade's cards may reach: the top of Eight Off's free cell
    /// row, the table's end otherwise (`None`).
    pub fn cascade_floor(&self) -> Option<i32> {
        match self.shape {
            Shape::EightOff => Some(self.freecell(0).1),
            _ => None,
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

    /// Canvas game width: `XM + max(8, toprows)·XS` for `freeCellLayout` (`XM + 9·XS` for
    /// FreeCell), `XM + 10·XS` for Seahaven Towers, `XM + 8·XS` for Eight Off.
    pub fn width(&self) -> i32 {
        let stacks = match self.shape {
            Shape::FreeCell { reserves } => {
                8.max(4 + if reserves > 0 { reserves as i32 + 1 } else { 0 })
            }
            Shape::Seahaven => 10,
            Shape::EightOff => 8,
        };
        self.xm + stacks * self.xs
    }

    /// Canvas game height: `YM + YS + max(CH·2//3 + 17·YOFFSET, 3·YS)` for `freeCellLayout`,
    /// `YM + YS + max(3·YS, 20·YOFFSET)` for Seahaven Towers, `YM + YS + max(2·YS, YS +
    /// 15·YOFFSET) + YS` for Eight Off.
    pub fn height(&self) -> i32 {
        let top = self.xm + self.ys;
        match self.shape {
            Shape::FreeCell { .. } => top + (self.ch * 2 / 3 + 17 * self.yoff).max(3 * self.ys),
            Shape::Seahaven => top + (3 * self.ys).max(20 * self.yoff),
            Shape::EightOff => top + (2 * self.ys).max(self.ys + 15 * self.yoff) + self.ys,
        }
    }

    /// Top-left of free cell (PySolFC "reserve") slot `i`.
    pub fn freecell(&self, i: usize) -> (i32, i32) {
        let i = i as i32;
        match self.shape {
            Shape::FreeCell { reserves } => (self.top_row(reserves).0 + i * self.xs, self.xm),
            Shape::Seahaven => (self.xm + (i + 3) * self.xs, self.xm),
            Shape::EightOff => (self.xm + i * self.xs, self.height() - self.ys),
        }
    }

    /// Top-left of the foundation at screen position 0..=3 (suits in
    /// [`Layout::foundation_order`]).
    pub fn foundation(&self, pos: usize) -> (i32, i32) {
        let pos = pos as i32;
        match self.shape {
            Shape::FreeCell { reserves } => {
                let (x0, toprows) = self.top_row(reserves);
                (x0 + (toprows - 4 + pos) * self.xs, self.xm)
            }
            Shape::Seahaven => (self.xm + [0, 1, 8, 9][pos as usize] * self.xs, self.xm),
            Shape::EightOff => (self.xm + (2 + pos) * self.xs, self.xm),
        }
    }

    /// Top-left of the foundation holding suit index `suit` (C, D, H, S order).
    pub fn foundation_of_suit(&self, suit: usize) -> (i32, i32) {
        let pos = self
            .foundation_order()
            .iter()
            .position(|&s| s == suit)
            .unwrap_or(0);
        self.foundation(pos)
    }

    /// Top-left of card `k` (0 = deepest) of cascade `col`.
    pub fn cascade_card(&self, col: usize, k: usize) -> (i32, i32) {
        let x0 = match self.shape {
            Shape::FreeCell { .. } => (self.width() - (8 * self.xs - self.xm)) / 2,
            _ => self.xm,
        };
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

    #[test]
    fn family_tables_follow_pysolfcs_create_game() {
        let game = |s| fcauto_deals::Game::find(s).unwrap();
        let base = Layout::new(71, 96, 18);
        // FreeCell (2 Reserves): toprows 7, width XM + 8·XS, the top row centred
        let two = base.for_game(game("1900"));
        assert_eq!(two.width(), 7 + 8 * 78);
        assert_eq!(two.freecell(0), ((631 - (7 * 78 - 7)) / 2, 7));
        assert_eq!(two.foundation(0).0, two.freecell(0).0 + 3 * 78);
        assert_eq!(two.cascade_card(0, 0), (7, 115));
        assert_eq!(base.for_game(game("45")), base);
        let sea = base.for_game(game("seahaven_towers"));
        assert_eq!((sea.cascades(), sea.freecells(), sea.width()), (10, 4, 787));
        assert_eq!(sea.freecell(0), (7 + 3 * 78, 7));
        assert_eq!(sea.foundation_of_suit(0), (7 + 9 * 78, 7)); // clubs rightmost
        assert_eq!(sea.foundation_of_suit(3), (7, 7)); // spades leftmost
        assert_eq!(sea.cascade_card(9, 1), (7 + 9 * 78, 133));
        let eight = base.for_game(game("eight_off"));
        assert_eq!((eight.cascades(), eight.freecells()), (8, 8));
        assert_eq!(eight.height(), 7 + 108 + 378 + 108);
        assert_eq!(eight.freecell(7), (7 + 7 * 78, 601 - 108));
        assert_eq!(eight.cascade_floor(), Some(493));
        assert_eq!(eight.foundation(0), (7 + 2 * 78, 7));
    }
}
