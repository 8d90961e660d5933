//! The search's compact game state: fixed arrays, card bytes, and a canonical 128-bit
//! fingerprint that ignores the order of cascades and of freecells.
//!
//! Card byte = MS deck index `rank_index * 4 + suit` (suits C D H S), as in `fcauto_deals`.

use crate::moves::{Loc, Move};
use fcauto_deals::{Board, Card, CASCADES, FREECELLS};

/// Deepest possible cascade: 7 dealt cards plus a run from queen down to ace.
pub const MAX_HEIGHT: usize = 20;
/// Marker for an empty freecell.
pub const EMPTY: u8 = 0xFF;

/// Rank index 0 (ace) ..= 12 (king) of a card byte.
#[inline(always)]
pub fn rank(c: u8) -> u8 {
    c >> 2
}

/// Suit index 0..=3 (C D H S) of a card byte.
#[inline(always)]
pub fn suit(c: u8) -> u8 {
    c & 3
}

/// 1 for red (diamonds, hearts), 0 for black.
#[inline(always)]
pub fn red(c: u8) -> u8 {
    ((c & 3) == 1 || (c & 3) == 2) as u8
}

/// True when `top` may be placed on `below` in a cascade (one rank lower, other colour).
#[inline(always)]
pub fn fits(below: u8, top: u8) -> bool {
    (FITS_ON[top as usize & 63] >> (below & 63)) & 1 != 0
}

/// For each card byte, a mask of the card bytes it fits on (one rank higher, other colour).
pub const FITS_ON: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut c = 0;
    while c < 48 {
        let r = c / 4 + 1;
        let (a, b) = if c % 4 == 1 || c % 4 == 2 {
            (0, 3)
        } else {
            (1, 2)
        };
        t[c] = (1 << (r * 4 + a)) | (1 << (r * 4 + b));
        c += 1;
    }
    t
};

/// A FreeCell position for the search (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Cascade cards, deepest first; only the first `len[i]` entries are meaningful.
    pub cols: [[u8; MAX_HEIGHT]; CASCADES],
    /// Cascade heights.
    pub len: [u8; CASCADES],
    /// Freecell slots, [`EMPTY`] when free.
    pub cells: [u8; FREECELLS],
    /// Cards on each suit's foundation (0..=13), indexed C D H S.
    pub found: [u8; 4],
}

/// Check that no cascade of `b` can ever outgrow [`MAX_HEIGHT`]. A cascade only grows by
/// runs: cut down to its card at depth k (0-based) of rank r, it can hold k + 1 cards plus a
/// run from rank r - 1 down, and an empty one a run from the king down. Such a run uses only
/// ranks above the lowest foundation (every card of a lower rank is home), so it has at
/// most r - 1 - min(foundation) cards. Every MS deal passes; an arbitrary board file may
/// not.
///
/// Errors: the first cascade that could grow past [`MAX_HEIGHT`], with the height it could
/// reach.
pub fn check_capacity(b: &Board) -> Result<(), String> {
    let lowest_home = b.foundations.iter().copied().min().unwrap_or(0) as usize;
    // A run from rank r - 1 down: the ranks above the lowest foundation.
    let run_below = |r: usize| r.saturating_sub(1).saturating_sub(lowest_home);
    for (i, col) in b.cascades.iter().enumerate() {
        let most = col
            .iter()
            .enumerate()
            .map(|(k, c)| k + 1 + run_below(c.rank().value() as usize))
            .max()
            .unwrap_or(0)
            .max(col.len())
            .max(run_below(14));
        if most > MAX_HEIGHT {
            return Err(format!(
                "cascade {} ({} cards) could grow to {most} cards; the solver supports at most {MAX_HEIGHT}",
                i + 1,
                col.len()
            ));
        }
    }
    Ok(())
}

impl State {
    /// The search state of a board. The board must be valid ([`Board::check`]) and pass
    /// [`check_capacity`].
    pub fn from_board(b: &Board) -> State {
        let mut s = State {
            cols: [[0; MAX_HEIGHT]; CASCADES],
            len: [0; CASCADES],
            cells: [EMPTY; FREECELLS],
            found: b.foundations,
        };
        for (i, col) in b.cascades.iter().enumerate().take(CASCADES) {
            for (j, c) in col.iter().enumerate().take(MAX_HEIGHT) {
                s.cols[i][j] = c.id();
            }
            s.len[i] = col.len().min(MAX_HEIGHT) as u8;
        }
        for (i, c) in b.freecells.iter().enumerate() {
            if let Some(c) = c {
                s.cells[i] = c.id();
            }
        }
        s
    }

    /// The position as a [`Board`].
    pub fn to_board(&self) -> Board {
        let cascades = (0..CASCADES)
            .map(|i| {
                self.col(i)
                    .iter()
                    .map(|&c| Card::from_id(c).unwrap())
                    .collect()
            })
            .collect();
        let mut b = Board::from_cascades(cascades);
        for i in 0..FREECELLS {
            b.freecells[i] = Card::from_id(self.cells[i]);
        }
        b.foundations = self.found;
        b
    }

    /// The cards of cascade `i`, deepest first.
    #[inline(always)]
    pub fn col(&self, i: usize) -> &[u8] {
        &self.cols[i][..self.len[i] as usize]
    }

    /// Top card of cascade `i`, if any.
    #[inline(always)]
    pub fn top(&self, i: usize) -> Option<u8> {
        let l = self.len[i] as usize;
        (l > 0).then(|| self.cols[i][l - 1])
    }

    /// Number of free freecells.
    #[inline(always)]
    pub fn free_cells(&self) -> usize {
        self.cells.iter().filter(|&&c| c == EMPTY).count()
    }

    /// Number of empty cascades.
    #[inline(always)]
    pub fn empty_cols(&self) -> usize {
        self.len.iter().filter(|&&l| l == 0).count()
    }

    /// Cards on the foundations, 0..=52.
    #[inline(always)]
    pub fn home(&self) -> usize {
        self.found.iter().map(|&f| f as usize).sum()
    }

    /// True when all 52 cards are home.
    #[inline(always)]
    pub fn is_won(&self) -> bool {
        self.found == [13; 4]
    }

    /// True when `c` can go to its foundation now.
    #[inline(always)]
    pub fn can_home(&self, c: u8) -> bool {
        self.found[suit(c) as usize] == rank(c)
    }

    /// Length of the movable run (alternating colours, descending) on top of cascade `i`.
    #[inline]
    pub fn run_len(&self, i: usize) -> usize {
        let col = self.col(i);
        if col.is_empty() {
            return 0;
        }
        let mut n = 1;
        while n < col.len() && fits(col[col.len() - n - 1], col[col.len() - n]) {
            n += 1;
        }
        n
    }

    /// The card a move takes (the deepest card of a run), or `None` if the source is empty.
    pub fn moved_card(&self, m: Move) -> Option<u8> {
        match m.from {
            Loc::Cascade(i) => {
                let l = self.len[i as usize] as usize;
                (l >= m.count as usize && m.count > 0)
                    .then(|| self.cols[i as usize][l - m.count as usize])
            }
            Loc::Freecell(i) => Some(self.cells[i as usize]).filter(|&c| c != EMPTY),
            Loc::Foundation => None,
        }
    }

    /// Apply a move the search generated (no legality check: the generator guarantees it).
    #[inline]
    pub fn apply(&mut self, m: Move) {
        if m.count == 1 {
            // One card: no run buffer (the common case).
            let c = match m.from {
                Loc::Cascade(i) => {
                    let i = i as usize;
                    let l = self.len[i] as usize - 1;
                    let c = self.cols[i][l];
                    self.cols[i][l] = 0; // keep the bytes above the top zero
                    self.len[i] = l as u8;
                    c
                }
                Loc::Freecell(i) => std::mem::replace(&mut self.cells[i as usize], EMPTY),
                Loc::Foundation => unreachable!("moves never leave the foundations"),
            };
            match m.to {
                Loc::Cascade(i) => {
                    let i = i as usize;
                    let l = self.len[i] as usize;
                    self.cols[i][l] = c;
                    self.len[i] = l as u8 + 1;
                }
                Loc::Freecell(i) => self.cells[i as usize] = c,
                Loc::Foundation => self.found[suit(c) as usize] += 1,
            }
            return;
        }
        // A run between cascades, moved card by card (at most 13 cards).
        let (Loc::Cascade(from), Loc::Cascade(to)) = (m.from, m.to) else {
            unreachable!("only cascade-to-cascade moves carry several cards")
        };
        let (from, to, n) = (from as usize, to as usize, m.count as usize);
        let lf = self.len[from] as usize - n;
        let lt = self.len[to] as usize;
        for k in 0..n {
            self.cols[to][lt + k] = self.cols[from][lf + k];
            self.cols[from][lf + k] = 0; // keep the bytes above the top zero
        }
        self.len[from] = lf as u8;
        self.len[to] = (lt + n) as u8;
    }

    /// Canonical 128-bit fingerprint: equal for positions that differ only in the order of
    /// cascades or of freecells. Each cascade's 20 bytes (zero above its top card, an
    /// invariant `apply` and auto-play keep) are read as three words and hashed in two
    /// independent lanes; cascade and freecell hashes are mixed and summed
    /// (order-independent). The chance that two of N distinct positions collide is about
    /// N^2 / 2^129.
    #[inline]
    pub fn fingerprint(&self) -> u128 {
        let (mut a, mut b) = self.cells_hash();
        for i in 0..CASCADES {
            let (x, y) = self.column_hash(i);
            a = a.wrapping_add(x);
            b = b.wrapping_add(y);
        }
        ((a as u128) << 64) | b as u128
    }

    /// The two lanes' hashes of cascade `i` (its share of [`State::fingerprint`]).
    #[inline(always)]
    pub fn column_hash(&self, i: usize) -> (u64, u64) {
        let c = &self.cols[i];
        let w0 = u64::from_le_bytes(c[0..8].try_into().unwrap());
        let w1 = u64::from_le_bytes(c[8..16].try_into().unwrap());
        let w2 =
            u32::from_le_bytes(c[16..20].try_into().unwrap()) as u64 | (self.len[i] as u64) << 32;
        let h1 = w0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ w1.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(21)
            ^ w2.wrapping_mul(0x1656_67B1_9E37_79F9).rotate_left(42);
        let h2 = w0.wrapping_mul(0xFF51_AFD7_ED55_8CCD).rotate_left(7)
            ^ w1.wrapping_mul(0xC4CE_B9FE_1A85_EC53).rotate_left(29)
            ^ w2.wrapping_mul(0x2127_599B_F432_5C37).rotate_left(51);
        (mix(h1), mix(h2 ^ 0x5555_5555_5555_5555))
    }

    /// The two lanes' hashes of the freecells (their share of [`State::fingerprint`]).
    #[inline(always)]
    pub fn cells_hash(&self) -> (u64, u64) {
        let (mut a, mut b) = (0u64, 0u64);
        for &c in &self.cells {
            a = a.wrapping_add(CELL_HASH[c as usize].0);
            b = b.wrapping_add(CELL_HASH[c as usize].1);
        }
        (a, b)
    }

    /// This position's per-cascade hashes, from which the fingerprints of positions that
    /// differ from it in a few cascades follow: [`State::fingerprint_from`].
    #[inline]
    pub fn column_hashes(&self) -> ColumnHashes {
        let cells = self.cells_hash();
        let mut h = ColumnHashes {
            cols: [(0, 0); CASCADES],
            cells,
            total: cells,
        };
        for i in 0..CASCADES {
            h.cols[i] = self.column_hash(i);
            h.total.0 = h.total.0.wrapping_add(h.cols[i].0);
            h.total.1 = h.total.1.wrapping_add(h.cols[i].1);
        }
        h
    }

    /// [`State::fingerprint`] of this position, given the [`ColumnHashes`] of a position
    /// whose cascades equal this one's except those whose bits are set in `changed` (the
    /// freecells may differ): only the changed cascades are hashed.
    #[inline]
    pub fn fingerprint_from(&self, parent: &ColumnHashes, changed: u8) -> u128 {
        let cells = self.cells_hash();
        let mut a = parent
            .total
            .0
            .wrapping_sub(parent.cells.0)
            .wrapping_add(cells.0);
        let mut b = parent
            .total
            .1
            .wrapping_sub(parent.cells.1)
            .wrapping_add(cells.1);
        let mut m = changed;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let (x, y) = self.column_hash(i);
            a = a.wrapping_sub(parent.cols[i].0).wrapping_add(x);
            b = b.wrapping_sub(parent.cols[i].1).wrapping_add(y);
        }
        ((a as u128) << 64) | b as u128
    }
}

/// Per-cascade fingerprint hashes of a position ([`State::column_hashes`]).
#[derive(Clone, Copy, Debug)]
pub struct ColumnHashes {
    cols: [(u64, u64); CASCADES],
    cells: (u64, u64),
    /// The two lanes' sums: the fingerprint's halves.
    total: (u64, u64),
}

/// Each freecell byte's hash in the two lanes (card bytes and [`EMPTY`]).
static CELL_HASH: [(u64, u64); 256] = {
    let mut t = [(0u64, 0u64); 256];
    let mut c = 0;
    while c < 256 {
        t[c] = (
            mix(0xABCD_0000 + c as u64),
            mix(0x1234_0000_0000 + c as u64),
        );
        c += 1;
    }
    t
};

/// The two lanes' hashes of a freecell byte (a card or [`EMPTY`]).
#[inline(always)]
pub(crate) fn cell_hash(c: u8) -> (u64, u64) {
    CELL_HASH[c as usize]
}

/// splitmix64's finaliser (a well-mixed 64-bit hash of a 64-bit value).
#[inline(always)]
pub fn mix64(z: u64) -> u64 {
    mix(z)
}

/// splitmix64's finaliser.
#[inline(always)]
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A `Hasher` for keys that are already uniform fingerprints: it keeps the low 64 bits.
#[derive(Default, Clone, Copy)]
pub struct FingerprintHasher(u64);

impl std::hash::Hasher for FingerprintHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }
    fn write_u128(&mut self, i: u128) {
        self.0 = i as u64 ^ (i >> 64) as u64;
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }
}

/// A map keyed by fingerprints.
pub type FingerprintMap<V> =
    std::collections::HashMap<u128, V, std::hash::BuildHasherDefault<FingerprintHasher>>;

/// For tests of the search's incremental updates: walk 80 moves into each of deals 1..=50,
/// calling `check(position, child, changed)` for every child of every position passed,
/// where `child` is after one generated move and its safe auto-play, and `changed` has bit
/// `i` set for each cascade the move or the auto-play touched (as the search computes it).
#[cfg(test)]
pub(crate) fn walk_children(mut check: impl FnMut(&State, &State, u8)) {
    walk_children_from(|_, _, s, child, changed| check(s, child, changed))
}

/// [`walk_children`], also passing each walk's start (the deal after auto-play) and deal
/// number: `check(start, deal, position, child, changed)`.
#[cfg(test)]
pub(crate) fn walk_children_from(mut check: impl FnMut(&State, u64, &State, &State, u8)) {
    for deal in 1..=50 {
        let mut s = State::from_board(&fcauto_deals::ms_deal(deal).unwrap());
        crate::movegen::autoplay(&mut s, |_, _| {});
        let start = s.clone();
        let mut moves = Vec::new();
        for step in 0..80usize {
            moves.clear();
            crate::movegen::generate(&s, false, &mut moves);
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                let mut t = s.clone();
                let (changed, _) = crate::movegen::play(&mut t, m);
                check(&start, deal, &s, &t, changed);
            }
            let m = moves[(step * 7 + deal as usize) % moves.len()];
            s.apply(m);
            crate::movegen::autoplay(&mut s, |_, _| {});
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::ms_deal;

    /// Cards on the foundations cannot come back: a tall cascade near the end of a game fits
    /// (its king can carry at most the ranks above the lowest foundation), while the same
    /// cascades with empty foundations could outgrow [`MAX_HEIGHT`].
    #[test]
    fn capacity_counts_the_cards_already_home() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/boards/near-end-tall-cascade.txt"
        ))
        .unwrap();
        let b = fcauto_deals::Board::parse(&text).unwrap();
        assert_eq!(check_capacity(&b), Ok(()));
        let mut deep = b.clone();
        deep.foundations = [0; 4];
        let err = check_capacity(&deep).unwrap_err();
        assert!(err.contains("could grow to 21 cards"), "{err}");
    }

    #[test]
    fn fingerprint_ignores_cascade_and_freecell_order_only() {
        let s = State::from_board(&ms_deal(617).unwrap());
        let mut t = s.clone();
        t.cols.swap(0, 5);
        t.len.swap(0, 5);
        assert_eq!(s.fingerprint(), t.fingerprint());
        let mut u = s.clone();
        u.apply(Move {
            from: Loc::Cascade(2),
            to: Loc::Freecell(0),
            count: 1,
        });
        let mut v = s.clone();
        v.apply(Move {
            from: Loc::Cascade(2),
            to: Loc::Freecell(3),
            count: 1,
        });
        assert_eq!(u.fingerprint(), v.fingerprint());
        assert_ne!(u.fingerprint(), s.fingerprint());
        // Back where it came from: the same position, the same fingerprint.
        u.apply(Move {
            from: Loc::Freecell(0),
            to: Loc::Cascade(2),
            count: 1,
        });
        assert_eq!(u, s);
        assert_eq!(u.fingerprint(), s.fingerprint());
    }

    #[test]
    fn fits_table_follows_the_rule() {
        for below in 0..52u8 {
            for top in 0..52u8 {
                let rule = rank(below) == rank(top) + 1 && red(below) != red(top);
                assert_eq!(fits(below, top), rule, "{below} {top}");
            }
            assert!(!fits(EMPTY, below) && !fits(below, EMPTY));
        }
    }

    #[test]
    fn incremental_fingerprint_matches_the_full_one() {
        walk_children(|s, child, changed| {
            assert_eq!(
                child.fingerprint_from(&s.column_hashes(), changed),
                child.fingerprint()
            );
        });
    }
}
