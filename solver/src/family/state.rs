//! The family search's position: fixed-size arrays sized by [`MAX_CASCADES`] and
//! [`MAX_FREECELLS`], one byte a card, and a canonical 128-bit fingerprint kept up to date
//! move by move (cascades and freecells counted as sets, as fc-solve counts positions).
//!
//! A card byte is [`Card::id`]: `rank_index * 4 + suit` (suits C, D, H, S), so the rank is
//! `id / 4 + 1` and the suit `id % 4`.

use fcauto_deals::game::{BuildOrder, MAX_CASCADES, MAX_FREECELLS};
use fcauto_deals::{Card, Layout, Rules};

/// Most cards one cascade of a search position holds. A cascade is a prefix of its dealt
/// cards that never moved with a run in build order on top (at most 12 cards on a dealt
/// card, 13 on an empty cascade), so [`Pos::from_layout`] refuses a layout that could grow a
/// cascade past this.
pub(crate) const CAP: usize = 32;
/// An empty freecell.
pub(crate) const EMPTY: u8 = 0xFF;
/// The foundation as a location (cascades are 0..10, freecells 10..18).
pub(crate) const HOME: u8 = 18;
/// The first freecell location.
pub(crate) const CELL0: u8 = 10;

/// The rank of a card byte, 1..=13.
#[inline(always)]
pub(crate) fn rank(c: u8) -> u8 {
    c / 4 + 1
}

/// The suit of a card byte, 0..=3 (C, D, H, S).
#[inline(always)]
pub(crate) fn suit(c: u8) -> usize {
    (c % 4) as usize
}

/// True for diamonds and hearts.
#[inline(always)]
pub(crate) fn red(c: u8) -> bool {
    matches!(c % 4, 1 | 2)
}

/// True when `top` may lie on `below` on a cascade under `build`.
#[inline(always)]
pub(crate) fn builds(build: BuildOrder, below: u8, top: u8) -> bool {
    rank(below) == rank(top) + 1
        && match build {
            BuildOrder::AlternateColour => red(below) != red(top),
            BuildOrder::Suit => suit(below) == suit(top),
            BuildOrder::Rank => true,
        }
}

/// One atomic move of the search: `count` cards from location `from` to `to` (cascades
/// 0..10, freecells [`CELL0`].., [`HOME`]), `card` the lowest card moved (the run's head).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct M {
    pub from: u8,
    pub to: u8,
    pub count: u8,
    pub card: u8,
}

const fn splitmix(mut x: u64) -> (u64, u64) {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (x, z ^ (z >> 31))
}

/// Random keys: `[depth][card]` for cascades, then one row for freecells.
static KEYS: [[u128; 52]; CAP + 1] = {
    let mut t = [[0u128; 52]; CAP + 1];
    let mut seed = 0x5EA4_A7E2_F00D_1234u64;
    let mut d = 0;
    while d <= CAP {
        let mut c = 0;
        while c < 52 {
            let (s1, a) = splitmix(seed);
            let (s2, b) = splitmix(s1);
            seed = s2;
            t[d][c] = ((a as u128) << 64) | b as u128;
            c += 1;
        }
        d += 1;
    }
    t
};

/// A cascade's key mixed so that the sum over cascades (a set) does not cancel.
#[inline(always)]
fn mix(x: u128) -> u128 {
    let (mut a, mut b) = (x as u64, (x >> 64) as u64);
    a ^= b.rotate_left(29);
    a = a.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    b ^= a >> 31;
    b = b.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    a ^= b >> 33;
    ((b as u128) << 64) | a as u128
}

/// A position of any game of the family.
#[derive(Clone, Debug)]
pub(crate) struct Pos {
    pub casc: [[u8; CAP]; MAX_CASCADES],
    pub len: [u8; MAX_CASCADES],
    pub cells: [u8; MAX_FREECELLS],
    /// Per suit, the top rank home (0..=13).
    pub found: [u8; 4],
    /// Per cascade, the xor of its cards' keys by depth.
    zx: [u128; MAX_CASCADES],
    pub ncasc: usize,
    pub ncells: usize,
}

/// Why a layout cannot be searched.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// The layout has another number of cascades or freecells than the rules.
    #[error("the layout has {got} {what}, the game has {want}")]
    Shape {
        /// "cascades" or "freecell slots".
        what: &'static str,
        /// The layout's count.
        got: usize,
        /// The rules' count.
        want: usize,
    },
    /// More cascades or freecells than fcauto plays.
    #[error("the game has {what}: fcauto plays at most {most}")]
    Beyond {
        /// "10 cascades", "9 freecells".
        what: String,
        /// "10 cascades", "8 freecells".
        most: String,
    },
    /// Not every card once, counting the foundations.
    #[error("the layout is not one full deck: {0}")]
    Deck(String),
    /// A cascade could grow past what a search position holds.
    #[error("cascade {0} is too deep for the family search (it could grow past {CAP} cards)")]
    TooDeep(usize),
}

impl Pos {
    /// The position of `layout` under `rules`, after checking its shape and deck.
    pub fn from_layout(layout: &Layout, rules: &Rules) -> Result<Pos, LayoutError> {
        check_shape(layout, rules)?;
        check_deck(layout)?;
        Pos::from_cards(layout)
    }

    /// The position of `layout`'s cards, unchecked but for the depth of its cascades.
    pub(crate) fn from_cards(layout: &Layout) -> Result<Pos, LayoutError> {
        let mut p = Pos {
            casc: [[0; CAP]; MAX_CASCADES],
            len: [0; MAX_CASCADES],
            cells: [EMPTY; MAX_FREECELLS],
            found: layout.foundations,
            zx: [0; MAX_CASCADES],
            ncasc: layout.cascades.len(),
            ncells: layout.freecells.len(),
        };
        for (i, col) in layout.cascades.iter().enumerate() {
            // Deepest a cascade can grow: a never-moved prefix, then a run on its top card.
            let deepest = col
                .iter()
                .enumerate()
                .map(|(k, c)| k + c.rank().value() as usize)
                .max()
                .unwrap_or(0)
                .max(13);
            if deepest > CAP {
                return Err(LayoutError::TooDeep(i + 1));
            }
            for c in col {
                p.push(i, c.id());
            }
        }
        for (j, c) in layout.freecells.iter().enumerate() {
            p.cells[j] = c.map_or(EMPTY, Card::id);
        }
        Ok(p)
    }

    /// The layout of this position.
    #[cfg(test)]
    pub fn to_layout(&self) -> Layout {
        let card = |b: u8| Card::from_id(b).expect("a card byte");
        Layout {
            cascades: (0..self.ncasc)
                .map(|i| self.col(i).iter().map(|&b| card(b)).collect())
                .collect(),
            freecells: self.cells[..self.ncells]
                .iter()
                .map(|&b| (b != EMPTY).then(|| card(b)))
                .collect(),
            foundations: self.found,
        }
    }

    /// Cascade `i`'s cards, deepest first.
    #[inline(always)]
    pub fn col(&self, i: usize) -> &[u8] {
        &self.casc[i][..self.len[i] as usize]
    }

    /// Cascade `i`'s top card.
    #[inline(always)]
    pub fn top(&self, i: usize) -> Option<u8> {
        let n = self.len[i] as usize;
        (n > 0).then(|| self.casc[i][n - 1])
    }

    #[inline(always)]
    fn push(&mut self, i: usize, c: u8) {
        let n = self.len[i] as usize;
        self.casc[i][n] = c;
        self.zx[i] ^= KEYS[n][c as usize];
        self.len[i] += 1;
    }

    #[inline(always)]
    fn pop(&mut self, i: usize) -> u8 {
        self.len[i] -= 1;
        let n = self.len[i] as usize;
        let c = self.casc[i][n];
        self.zx[i] ^= KEYS[n][c as usize];
        c
    }

    /// Empty freecells.
    #[inline(always)]
    pub fn free_cells(&self) -> usize {
        self.cells[..self.ncells]
            .iter()
            .filter(|&&c| c == EMPTY)
            .count()
    }

    /// Empty cascades.
    #[inline(always)]
    pub fn empty_cascades(&self) -> usize {
        self.len[..self.ncasc].iter().filter(|&&n| n == 0).count()
    }

    /// Cards on the foundations.
    #[inline(always)]
    pub fn home(&self) -> usize {
        self.found.iter().map(|&f| f as usize).sum()
    }

    /// The canonical fingerprint: the same for positions that differ only in the order of
    /// their cascades or of their freecells.
    #[inline]
    pub fn fingerprint(&self) -> u128 {
        let mut h = 0u128;
        for i in 0..self.ncasc {
            h = h.wrapping_add(mix(self.zx[i]));
        }
        for &c in &self.cells[..self.ncells] {
            if c != EMPTY {
                h = h.wrapping_add(KEYS[CAP][c as usize]);
            }
        }
        h
    }

    /// Play `m` with no rule check (the generator made it legal); [`Pos::undo`] takes it back.
    #[inline]
    pub fn apply(&mut self, m: M) {
        self.carry(m.from, m.to, m.count, m.card);
    }

    /// Take back `m`, the last move played.
    #[inline]
    pub fn undo(&mut self, m: M) {
        self.carry(m.to, m.from, m.count, m.card);
    }

    fn carry(&mut self, from: u8, to: u8, count: u8, card: u8) {
        let n = count as usize;
        let mut run = [0u8; 16];
        let run = &mut run[..n.min(16)];
        if from < CELL0 {
            let f = from as usize;
            let base = self.len[f] as usize - run.len();
            run.copy_from_slice(&self.casc[f][base..base + run.len()]);
            for _ in 0..run.len() {
                self.pop(f);
            }
        } else if from < HOME {
            run[0] = self.cells[(from - CELL0) as usize];
            self.cells[(from - CELL0) as usize] = EMPTY;
        } else {
            self.found[suit(card)] -= 1;
            run[0] = card;
        }
        if to < CELL0 {
            for &c in run.iter() {
                self.push(to as usize, c);
            }
        } else if to < HOME {
            self.cells[(to - CELL0) as usize] = run[0];
        } else {
            self.found[suit(run[0])] += 1;
        }
    }
}

/// Bytes of a packed position: the freecells, then each cascade's cards and a separator.
pub(crate) const PACKED: usize = MAX_FREECELLS + 52 + MAX_CASCADES;
const SEP: u8 = 0xFE;

impl Pos {
    /// Append this position's [`PACKED`] bytes to `out` (the foundations follow from the
    /// cards left on the table).
    pub fn pack(&self, out: &mut Vec<u8>) {
        let at = out.len();
        out.extend_from_slice(&self.cells);
        for i in 0..self.ncasc {
            out.extend_from_slice(self.col(i));
            out.push(SEP);
        }
        out.resize(at + PACKED, 0);
    }

    /// Append this position packed as [`Pos::pack`] does but without the padding (the
    /// freecells, then each cascade's cards and a separator): [`Pos::trimmed_len`] bytes.
    #[cfg(test)]
    pub fn pack_trimmed(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.cells);
        for i in 0..self.ncasc {
            out.extend_from_slice(self.col(i));
            out.push(SEP);
        }
    }

    /// The length of the position [`Pos::pack_trimmed`] wrote at the start of `bytes`, with
    /// `ncasc` cascades.
    #[cfg(test)]
    pub fn trimmed_len(bytes: &[u8], ncasc: usize) -> usize {
        let mut seps = 0;
        for (k, &b) in bytes[MAX_FREECELLS..].iter().enumerate() {
            if b == SEP {
                seps += 1;
                if seps == ncasc {
                    return MAX_FREECELLS + k + 1;
                }
            }
        }
        bytes.len()
    }

    /// The position `bytes` ([`Pos::pack`]'s) holds, with `ncasc` cascades and `ncells`
    /// freecells.
    pub fn unpack(bytes: &[u8], ncasc: usize, ncells: usize) -> Pos {
        let mut p = Pos {
            casc: [[0; CAP]; MAX_CASCADES],
            len: [0; MAX_CASCADES],
            cells: [EMPTY; MAX_FREECELLS],
            found: [13; 4],
            zx: [0; MAX_CASCADES],
            ncasc,
            ncells,
        };
        p.cells.copy_from_slice(&bytes[..MAX_FREECELLS]);
        for &c in p.cells[..ncells].iter().filter(|&&c| c != EMPTY) {
            p.found[suit(c)] -= 1;
        }
        let mut i = 0;
        for &b in &bytes[MAX_FREECELLS..] {
            if i == ncasc {
                break;
            }
            if b == SEP {
                i += 1;
            } else {
                p.push(i, b);
                p.found[suit(b)] -= 1;
            }
        }
        p
    }
}

fn check_shape(layout: &Layout, rules: &Rules) -> Result<(), LayoutError> {
    let shape = |what, got: usize, want: u8| {
        if got == want as usize {
            Ok(())
        } else {
            Err(LayoutError::Shape {
                what,
                got,
                want: want as usize,
            })
        }
    };
    shape("cascades", layout.cascades.len(), rules.cascades)?;
    shape("freecell slots", layout.freecells.len(), rules.freecells)?;
    let beyond = |n: u8, most: usize, what: &str| {
        (n as usize > most).then(|| LayoutError::Beyond {
            what: fcauto_deals::plural(n, what),
            most: fcauto_deals::plural(most, what),
        })
    };
    let too_many = beyond(rules.cascades, MAX_CASCADES, "cascade")
        .or_else(|| beyond(rules.freecells, MAX_FREECELLS, "freecell"));
    if let Some(e) = too_many {
        return Err(e);
    }
    Ok(())
}

fn check_deck(layout: &Layout) -> Result<(), LayoutError> {
    let mut seen = [0u8; 52];
    for (s, &f) in layout.foundations.iter().enumerate() {
        if f > 13 {
            return Err(LayoutError::Deck(format!("foundation {s} holds {f} cards")));
        }
        for r in 0..f {
            seen[(r * 4) as usize + s] += 1;
        }
    }
    let on_table = layout.cascades.iter().flatten();
    for c in on_table.chain(layout.freecells.iter().flatten()) {
        seen[c.id() as usize] += 1;
    }
    let name = |i: usize| Card::from_id(i as u8).map(|c| c.to_string()).unwrap();
    if let Some(i) = seen.iter().position(|&n| n > 1) {
        return Err(LayoutError::Deck(format!("{} appears twice", name(i))));
    }
    if let Some(i) = seen.iter().position(|&n| n == 0) {
        return Err(LayoutError::Deck(format!("{} is missing", name(i))));
    }
    Ok(())
}
