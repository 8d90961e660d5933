//! A packed position for the first-solution searches (`fast`'s tries, `short`'s rounds): 48
//! bytes, one 32-bit word per cascade, the freecells, the foundations and the cascades' top
//! cards.
//!
//! A cascade only ever loses cards from the top, or gains cards that fit (one rank lower,
//! other colour) on its top. So at any time it is a prefix of one of the starting cascades
//! (cards never moved, or moved and put back exactly where they were dealt) plus one run
//! built on it, and a run is fixed by its deepest card, its length and, for each further
//! card, which of the two suits of its colour it has. A cascade's word holds:
//!
//! | bits | field |
//! |---|---|
//! | 0..5 | `p`: cards of the prefix (0..=[`MAX_HEIGHT`]) |
//! | 5..9 | `l`: cards of the run (0..=13) |
//! | 9..15 | the run's deepest card (0 when `l` = 0) |
//! | 15..27 | bit `j - 1`: the run's card `j` (from its deepest) has the second suit of its colour (spades or hearts) |
//! | 27..30 | which starting cascade the prefix is of (0 when `p` = 0) |
//!
//! Words are canonical: the prefix is as long as the cascade matches a starting cascade
//! from its deepest card (a card put back on its dealt place joins the prefix, and a
//! starting cascade's deepest card put into an empty cascade starts a prefix there), so
//! equal cascades have equal words wherever they lie, and the fingerprint
//! ([`Packed::fingerprint`]) can hash words. The starting cascades are an [`Origin`], one per
//! search, read through [`View`]. Cards, freecells and foundations are as in [`State`].
//!
//! Variants: building by suit (Baker's Game) makes the suit bits unneeded (a run is one
//! suit); other freecell counts change `cells` only; more than 8 cascades need a wider
//! origin field.

use crate::movegen::{parent_cascade, AutoPlay, Tableau};
use crate::moves::{Loc, Move};
use crate::rules::features::Features;
use crate::state::{cell_hash, fits, mix64, rank, red, suit, State, EMPTY, MAX_HEIGHT};
use fcauto_deals::{CASCADES, FREECELLS};

const L_SHIFT: u32 = 5;
const B_SHIFT: u32 = 9;
const S_SHIFT: u32 = 15;
const O_SHIFT: u32 = 27;
const P_MASK: u32 = 31;
const O_MASK: u32 = 7 << O_SHIFT;
const B_MASK: u32 = 63 << B_SHIFT;

/// The suit of a run card from its colour (0 black, 1 red) and its suit bit.
const SUIT_OF: [[u8; 2]; 2] = [[0, 3], [1, 2]];

/// A position: one word per cascade (see the module docs), freecells and foundations as in
/// [`State`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packed {
    /// One word per cascade.
    pub cols: [u32; CASCADES],
    /// Freecell slots, [`EMPTY`] when free.
    pub cells: [u8; FREECELLS],
    /// Cards on each suit's foundation (0..=13), indexed C D H S.
    pub found: [u8; 4],
    /// Each cascade's top card, [`EMPTY`] if none (kept up to date: move generation and
    /// auto-play read them often, and a run card takes a few operations to decode).
    pub tops: [u8; CASCADES],
}

const _: () = assert!(std::mem::size_of::<Packed>() == 48);
const _: () = assert!(CASCADES <= 8 && MAX_HEIGHT < 32, "the word's fields");

/// One prefix of a starting cascade: what the evaluation needs of it, computed once.
#[derive(Clone, Copy, Debug, Default)]
struct Prefix {
    /// Its top card ([`EMPTY`] for the empty prefix).
    top: u8,
    /// Lowest rank in it (`u8::MAX` for the empty prefix).
    min_rank: u8,
    /// Its cards lying above a lower-ranked card.
    blocked: u8,
    /// Its cards, other than the deepest, not lying on a card they fit.
    out_of_sequence: u8,
    /// The length of its top sequence (its top card and the cards under it that each lie
    /// on a card they fit; 0 for the empty prefix).
    sequence: u8,
}

/// The starting cascades a search's packed positions refer to, with the evaluation's counts
/// of each of their prefixes.
pub struct Origin {
    cards: [[u8; MAX_HEIGHT]; CASCADES],
    len: [u8; CASCADES],
    /// Each card byte's starting cascade and depth, `(u8::MAX, u8::MAX)` if it started
    /// elsewhere.
    at: [(u8, u8); 64],
    /// Per starting cascade, its prefixes by length.
    prefix: [[Prefix; MAX_HEIGHT + 1]; CASCADES],
}

impl Origin {
    /// The origin of the searches from `s`: its cascades.
    pub fn new(s: &State) -> Origin {
        let mut o = Origin {
            cards: s.cols,
            len: s.len,
            at: [(u8::MAX, u8::MAX); 64],
            prefix: [[Prefix::default(); MAX_HEIGHT + 1]; CASCADES],
        };
        for i in 0..CASCADES {
            let mut pre = Prefix {
                top: EMPTY,
                min_rank: u8::MAX,
                blocked: 0,
                out_of_sequence: 0,
                sequence: 0,
            };
            o.prefix[i][0] = pre;
            for (k, &c) in s.col(i).iter().enumerate() {
                o.at[c as usize & 63] = (i as u8, k as u8);
                pre.blocked += (rank(c) > pre.min_rank) as u8;
                pre.out_of_sequence += (k > 0 && !fits(pre.top, c)) as u8;
                pre.sequence = if fits(pre.top, c) {
                    pre.sequence + 1
                } else {
                    1
                };
                pre.min_rank = pre.min_rank.min(rank(c));
                pre.top = c;
                o.prefix[i][k + 1] = pre;
            }
        }
        o
    }
}

/// The prefix length of word `w`.
#[inline(always)]
fn pre_len(w: u32) -> usize {
    (w & P_MASK) as usize
}

/// The run length of word `w`.
#[inline(always)]
fn run_len(w: u32) -> usize {
    ((w >> L_SHIFT) & 15) as usize
}

/// The starting cascade of word `w`'s prefix.
#[inline(always)]
fn origin_of(w: u32) -> usize {
    (w >> O_SHIFT) as usize & 7
}

/// Card `j` (from its deepest) of word `w`'s run.
#[inline(always)]
fn run_card(w: u32, j: usize) -> u8 {
    let b = ((w >> B_SHIFT) & 63) as u8;
    if j == 0 {
        return b;
    }
    let colour = (red(b) ^ (j as u8 & 1)) as usize;
    let bit = ((w >> (S_SHIFT + j as u32 - 1)) & 1) as usize;
    (rank(b) - j as u8) * 4 + SUIT_OF[colour][bit]
}

impl Packed {
    /// `s` packed over `origin` (which must be [`Origin::new`] of a position whose cascades
    /// `s`'s are prefixes of plus runs: the search's root, or a position reached from it).
    pub fn new(s: &State, origin: &Origin) -> Packed {
        let mut p = Packed {
            cols: [0; CASCADES],
            cells: s.cells,
            found: s.found,
            tops: [EMPTY; CASCADES],
        };
        for i in 0..CASCADES {
            for &c in s.col(i) {
                p.cols[i] = push(p.cols[i], c, origin);
            }
            p.tops[i] = top(p.cols[i], origin);
        }
        p
    }

    /// The position as a [`State`].
    pub fn to_state(&self, origin: &Origin) -> State {
        let v = View { pos: self, origin };
        let mut s = State {
            cols: [[0; MAX_HEIGHT]; CASCADES],
            len: [0; CASCADES],
            cells: self.cells,
            found: self.found,
        };
        for i in 0..CASCADES {
            s.len[i] = v.height(i) as u8;
            for k in 0..v.height(i) {
                s.cols[i][k] = v.card(i, k);
            }
        }
        s
    }

    /// True when all 52 cards are home.
    #[inline(always)]
    pub fn is_won(&self) -> bool {
        self.found == [13; 4]
    }

    /// Cards on the foundations, 0..=52.
    #[inline(always)]
    pub fn home(&self) -> u32 {
        self.found.iter().map(|&f| f as u32).sum()
    }

    /// Canonical 128-bit fingerprint: equal for positions that differ only in the order of
    /// cascades or of freecells (words are canonical, module docs): each word and each
    /// freecell hashed in two lanes, summed.
    #[inline]
    pub fn fingerprint(&self) -> u128 {
        let (mut a, mut b) = cells_hash(&self.cells);
        for &w in &self.cols {
            let (x, y) = word_hash(w, true);
            a = a.wrapping_add(x);
            b = b.wrapping_add(y);
        }
        ((a as u128) << 64) | b as u128
    }

    /// Its words' and freecells' hashes, from which the fingerprints of positions that
    /// differ from it in a few cascades follow ([`Packed::fingerprint_from`]). With `whole`
    /// false the words' high lanes are left 0 (for a caller that keeps only the low 64 bits
    /// of fingerprints: after inlining, no work is done for them).
    #[inline(always)]
    pub fn hashes(&self, whole: bool) -> Hashes {
        let cells = cells_hash(&self.cells);
        let mut h = Hashes {
            cols: [(0, 0); CASCADES],
            cells,
            cell_cards: self.cells,
            total: cells,
        };
        for (i, &w) in self.cols.iter().enumerate() {
            h.cols[i] = word_hash(w, whole);
            h.total.0 = h.total.0.wrapping_add(h.cols[i].0);
            h.total.1 = h.total.1.wrapping_add(h.cols[i].1);
        }
        h
    }

    /// [`Packed::fingerprint`] of this position, given the [`Hashes`] of a position whose
    /// cascades equal this one's except those whose bits are set in `changed`, taken with
    /// the same `whole`: with `whole` false only its low 64 bits are the fingerprint's.
    #[inline(always)]
    pub fn fingerprint_from(&self, parent: &Hashes, changed: u8, whole: bool) -> u128 {
        // Most moves leave the freecells as they were: their hash is the parent's.
        let (mut a, mut b) = parent.total;
        if self.cells != parent.cell_cards {
            let (u, v) = cells_hash(&self.cells);
            a = a.wrapping_sub(parent.cells.0).wrapping_add(u);
            b = b.wrapping_sub(parent.cells.1).wrapping_add(v);
        }
        let mut m = changed;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let (x, y) = parent.cols[i];
            let (u, v) = word_hash(self.cols[i], whole);
            a = a.wrapping_sub(x).wrapping_add(u);
            b = b.wrapping_sub(y).wrapping_add(v);
        }
        ((a as u128) << 64) | b as u128
    }

    /// Apply a move the search generated (no legality check).
    #[inline(always)]
    pub fn apply(&mut self, m: Move, origin: &Origin) {
        if m.count == 1 {
            let c = match m.from {
                Loc::Cascade(i) => {
                    let i = i as usize;
                    let c = self.tops[i];
                    self.cols[i] = pop(self.cols[i], 1);
                    self.tops[i] = top(self.cols[i], origin);
                    c
                }
                Loc::Freecell(j) => std::mem::replace(&mut self.cells[j as usize], EMPTY),
                Loc::Foundation => unreachable!("moves never leave the foundations"),
            };
            match m.to {
                Loc::Cascade(k) => {
                    let k = k as usize;
                    self.cols[k] = push(self.cols[k], c, origin);
                    self.tops[k] = c;
                }
                Loc::Freecell(j) => self.cells[j as usize] = c,
                Loc::Foundation => self.found[suit(c) as usize] += 1,
            }
            return;
        }
        let (Loc::Cascade(from), Loc::Cascade(to)) = (m.from, m.to) else {
            unreachable!("only cascade-to-cascade moves carry several cards")
        };
        let (from, to, n) = (from as usize, to as usize, m.count as usize);
        let w = self.cols[from];
        let h = pre_len(w) + run_len(w);
        let mut d = self.cols[to];
        for k in h - n..h {
            d = push(d, card(w, k, origin), origin);
        }
        self.cols[to] = d;
        self.tops[to] = self.tops[from];
        self.cols[from] = pop(w, n);
        self.tops[from] = top(self.cols[from], origin);
    }

    /// Apply player move `m` and the safe auto-play after it (as
    /// [`crate::movegen::play`]): the cascades touched (bit i for cascade i) and the
    /// cards auto-play homed.
    #[inline(always)]
    pub fn play(&mut self, m: Move, origin: &Origin) -> (u8, u32) {
        self.play_by(m, origin, AutoPlay::Safe)
    }

    /// [`Packed::play`] with auto-play by `rule`, from a position where `rule` has nothing
    /// left to home.
    #[inline(always)]
    pub fn play_by(&mut self, m: Move, origin: &Origin, rule: AutoPlay) -> (u8, u32) {
        self.apply(m, origin);
        let mut changed = 0u8;
        if let Loc::Cascade(i) = m.from {
            changed |= 1 << i;
        }
        if let Loc::Cascade(i) = m.to {
            changed |= 1 << i;
        }
        // As `autoplay_after`: auto-play had nothing to do before `m`, so only a foundation
        // move or the card `m` exposed can start it.
        let exposed_safe = match m.from {
            Loc::Cascade(i) => {
                let t = self.tops[i as usize];
                t != EMPTY && rule.allows(&self.found, t)
            }
            _ => false,
        };
        if !exposed_safe && m.to != Loc::Foundation {
            return (changed, 0);
        }
        let (left, homed) = self.autoplay(origin, rule);
        (changed | left, homed)
    }

    /// [`crate::movegen::unpark_by`] on the packed position, from a position where `rule`
    /// has nothing left to home: the same position. Returns the cascades it changed (bit i
    /// for cascade i) and the cards it moved (unparked or homed).
    #[inline(always)]
    pub fn unpark(&mut self, origin: &Origin, rule: AutoPlay) -> (u8, u32) {
        let (mut changed, mut moved) = (0u8, 0u32);
        loop {
            let before = moved;
            for j in 0..FREECELLS {
                let c = self.cells[j];
                if c == EMPTY {
                    continue;
                }
                if let Some(k) = parent_cascade(&View { pos: self, origin }, c) {
                    self.cells[j] = EMPTY;
                    self.cols[k] = push(self.cols[k], c, origin);
                    self.tops[k] = c;
                    changed |= 1 << k;
                    moved += 1;
                }
            }
            if moved == before {
                return (changed, moved);
            }
            let (left, homed) = self.autoplay(origin, rule);
            changed |= left;
            moved += homed;
        }
    }

    /// Home every card `rule` allows, repeatedly: the same position as
    /// [`crate::movegen::autoplay_by`] (homing a card only makes others allowed, so the
    /// order does not matter). Returns the cascades cards left (bit i for cascade i) and
    /// the cards homed.
    #[inline]
    fn autoplay(&mut self, origin: &Origin, rule: AutoPlay) -> (u8, u32) {
        let (mut changed, mut homed) = (0u8, 0u32);
        loop {
            // Cards allowed at the start of a pass stay allowed until homed.
            let safe = rule.cards(&self.found);
            let before = homed;
            for i in 0..CASCADES {
                while safe >> (self.tops[i] & 63) & 1 != 0 {
                    let t = self.tops[i];
                    self.cols[i] = pop(self.cols[i], 1);
                    self.tops[i] = top(self.cols[i], origin);
                    self.found[suit(t) as usize] += 1;
                    changed |= 1 << i;
                    homed += 1;
                }
            }
            for j in 0..FREECELLS {
                let c = self.cells[j];
                if safe >> (c & 63) & 1 != 0 {
                    self.cells[j] = EMPTY;
                    self.found[suit(c) as usize] += 1;
                    homed += 1;
                }
            }
            if homed == before {
                return (changed, homed);
            }
        }
    }
}

/// A packed position's word and freecell hashes ([`Packed::hashes`]).
#[derive(Clone, Copy, Debug)]
pub struct Hashes {
    cols: [(u64, u64); CASCADES],
    cells: (u64, u64),
    /// The freecells those are the hashes of.
    cell_cards: [u8; FREECELLS],
    /// The two lanes' sums: the fingerprint's halves.
    total: (u64, u64),
}

impl Hashes {
    /// The fingerprint of the position they were taken from.
    #[inline(always)]
    pub fn fingerprint(&self) -> u128 {
        ((self.total.0 as u128) << 64) | self.total.1 as u128
    }
}

/// The two lanes' hashes of a cascade word: the low lane (the one priority noise is drawn
/// from) splitmix64's finaliser of the word, the high lane a cheaper function of that hash
/// (a shift, a xor, a multiply), not additive, so that words whose low lanes sum alike
/// still differ in the high lane's sum (2.4% fewer instructions a position than a second
/// finaliser, callgrind, deals 1..2000, the same positions expanded). The high lane is 0
/// unless `whole`.
#[inline(always)]
fn word_hash(w: u32, whole: bool) -> (u64, u64) {
    let b = mix64(w as u64 ^ 0xBB67_AE85_84CA_A73B);
    let high = if whole {
        (b ^ (b >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    } else {
        0
    };
    (high, b)
}

/// The two lanes' hashes of the freecells.
#[inline(always)]
fn cells_hash(cells: &[u8; FREECELLS]) -> (u64, u64) {
    let (mut a, mut b) = (0u64, 0u64);
    for &c in cells {
        let (x, y) = cell_hash(c);
        a = a.wrapping_add(x);
        b = b.wrapping_add(y);
    }
    (a, b)
}

/// Top card of word `w`'s cascade, [`EMPTY`] if none.
#[inline(always)]
fn top(w: u32, origin: &Origin) -> u8 {
    let l = run_len(w);
    if l > 0 {
        run_card(w, l - 1)
    } else {
        origin.prefix[origin_of(w)][pre_len(w)].top
    }
}

/// Card `k` (from the deepest) of word `w`'s cascade.
#[inline(always)]
fn card(w: u32, k: usize, origin: &Origin) -> u8 {
    let p = pre_len(w);
    if k < p {
        origin.cards[origin_of(w)][k]
    } else {
        run_card(w, k - p)
    }
}

/// Word `w` without its top `n` cards (at most its height).
#[inline(always)]
fn pop(w: u32, n: usize) -> u32 {
    let (p, l) = (pre_len(w), run_len(w));
    if n < l {
        let l2 = l - n;
        let suits = (w >> S_SHIFT) & ((1 << (l2 - 1)) - 1);
        (w & (P_MASK | O_MASK | B_MASK)) | (l2 as u32) << L_SHIFT | suits << S_SHIFT
    } else if p > n - l {
        (w & (P_MASK | O_MASK)) - (n - l) as u32
    } else {
        0
    }
}

/// Word `w` with card `c` put on top (it fits there, or the cascade is empty).
#[inline(always)]
fn push(w: u32, c: u8, origin: &Origin) -> u32 {
    let (p, l) = (pre_len(w), run_len(w));
    if l > 0 {
        let bit = ((suit(c) >> 1) as u32) << (S_SHIFT + l as u32 - 1);
        return (w + (1 << L_SHIFT)) | bit;
    }
    if p > 0 {
        let o = origin_of(w);
        if p < origin.len[o] as usize && origin.cards[o][p] == c {
            return w + 1; // back on its dealt place: the prefix grows
        }
        return w | 1 << L_SHIFT | (c as u32) << B_SHIFT;
    }
    match origin.at[c as usize & 63] {
        (o, 0) => (o as u32) << O_SHIFT | 1, // a starting cascade's deepest card
        _ => 1 << L_SHIFT | (c as u32) << B_SHIFT,
    }
}

/// A packed position read through its origin: what move generation reads.
#[derive(Clone, Copy)]
pub struct View<'a> {
    /// The position.
    pub pos: &'a Packed,
    /// Its starting cascades.
    pub origin: &'a Origin,
}

impl Tableau for View<'_> {
    #[inline(always)]
    fn height(&self, i: usize) -> usize {
        let w = self.pos.cols[i];
        pre_len(w) + run_len(w)
    }
    #[inline(always)]
    fn card(&self, i: usize, k: usize) -> u8 {
        card(self.pos.cols[i], k, self.origin)
    }
    #[inline(always)]
    fn top_card(&self, i: usize) -> u8 {
        self.pos.tops[i]
    }
    #[inline(always)]
    fn cell(&self, j: usize) -> u8 {
        self.pos.cells[j]
    }
    #[inline(always)]
    fn foundations(&self) -> [u8; 4] {
        self.pos.found
    }
    /// Read off the word: its run is a sequence, continued by the prefix's top sequence
    /// when the run's deepest card fits on the prefix's top.
    #[inline(always)]
    fn sequence_len(&self, i: usize, max: usize) -> usize {
        let w = self.pos.cols[i];
        let (p, l) = (pre_len(w), run_len(w));
        let pre = &self.origin.prefix[origin_of(w)][p];
        let n = if l == 0 {
            pre.sequence as usize
        } else if fits(pre.top, run_card(w, 0)) {
            l + pre.sequence as usize
        } else {
            l
        };
        n.min(max)
    }
}

/// Cascade word `w`'s share of the blocked and out-of-sequence counts (as
/// `features` counts them on the cascade's cards): its prefix's counts, and its
/// run's from the run's deepest card alone (run cards lie on higher ones, so only the
/// prefix's lowest rank blocks them).
#[inline(always)]
fn column_counts(w: u32, origin: &Origin) -> (u32, u32) {
    let (p, l) = (pre_len(w), run_len(w));
    if p == 0 {
        return (0, 0);
    }
    let pre = &origin.prefix[origin_of(w)][p];
    let (mut blocked, mut out_of_sequence) = (pre.blocked as u32, pre.out_of_sequence as u32);
    if l > 0 {
        let b = run_card(w, 0);
        blocked += (rank(b) as u32)
            .saturating_sub(pre.min_rank as u32)
            .min(l as u32);
        out_of_sequence += !fits(pre.top, b) as u32;
    }
    (blocked, out_of_sequence)
}

/// The depth (from the deepest card) of card `c` in word `w`'s cascade, if it lies there.
#[inline(always)]
fn depth_in(w: u32, c: u8, origin: &Origin) -> Option<usize> {
    let p = pre_len(w);
    let (o, d) = origin.at[c as usize & 63];
    if p > 0 && o as usize == origin_of(w) && (d as usize) < p {
        return Some(d as usize);
    }
    let l = run_len(w);
    if l > 0 {
        let j = rank(run_card(w, 0)).wrapping_sub(rank(c)) as usize;
        if j < l && run_card(w, j) == c {
            return Some(p + j);
        }
    }
    None
}

/// Where the next card of a suit lies: its cascade, or [`NOWHERE`] (a freecell, or the
/// suit is complete).
const NOWHERE: u8 = u8::MAX;

/// A position's evaluation, kept with it so that its children's follow from the cascades
/// they changed ([`Eval::child`]): 30 bytes.
#[derive(Clone, Copy, Debug)]
pub struct Eval {
    /// Per cascade: its blocked and out-of-sequence counts.
    counts: [(u8, u8); CASCADES],
    /// Per suit: the cascades a child must have changed for its next card to have moved
    /// (the one holding it; all when it lies in a freecell; none for a complete suit).
    watch: [u8; 4],
    /// Per suit: the cards lying above its next card.
    next_above: [u8; 4],
    /// The features' totals (each below 256): remaining, blocked, next depth, used
    /// freecells, empty cascades, out of sequence.
    totals: [u8; 6],
}

impl Eval {
    /// The evaluation of `v` (its features as [`crate::rules::features::eval_features`] counts
    /// them on its [`State`]).
    pub fn new(v: View<'_>) -> Eval {
        let (pos, origin) = (v.pos, v.origin);
        let mut e = Eval {
            counts: [(0, 0); CASCADES],
            watch: [0; 4],
            next_above: [0; 4],
            totals: [0; 6],
        };
        let (mut blocked, mut out_of_sequence, mut empty) = (0, 0, 0);
        for (i, &w) in pos.cols.iter().enumerate() {
            let (b, o) = column_counts(w, origin);
            e.counts[i] = (b as u8, o as u8);
            blocked += b;
            out_of_sequence += o;
            empty += (w == 0) as u32;
        }
        e.totals = [
            52 - pos.home() as u8,
            blocked as u8,
            0,
            pos.cells.iter().filter(|&&c| c != EMPTY).count() as u8,
            empty as u8,
            out_of_sequence as u8,
        ];
        e.find_next_cards(pos, origin);
        e
    }

    /// The evaluation features.
    #[inline(always)]
    pub fn features(&self) -> Features {
        let t = self.totals.map(u32::from);
        Features {
            remaining: t[0],
            blocked: t[1],
            blocked_same_suit: 0,
            next_depth: t[2],
            used_cells: t[3],
            empty_cols: t[4],
            out_of_sequence: t[5],
        }
    }

    /// Locate every suit's next card anew.
    #[inline(always)]
    fn find_next_cards(&mut self, pos: &Packed, origin: &Origin) {
        let mut holder = [NOWHERE; CASCADES];
        let mut runs = 0u8;
        for (i, &w) in pos.cols.iter().enumerate() {
            if pre_len(w) > 0 {
                holder[origin_of(w)] = i as u8;
            }
            runs |= ((run_len(w) > 0) as u8) << i;
        }
        let (total, at) = next_cards(pos, origin, &holder, runs);
        self.totals[2] = total as u8;
        for (su, &(cascade, n)) in at.iter().enumerate() {
            self.next_above[su] = n;
            self.watch[su] = match cascade {
                NOWHERE if pos.found[su] >= 13 => 0,
                NOWHERE => u8::MAX,
                i => 1 << i,
            };
        }
    }

    /// The evaluation of `child`, a position whose cascades equal this one's (`parent`'s)
    /// except those whose bits are set in `changed`: only those are looked at, unless a
    /// card went home (then every suit's next card is looked for).
    #[inline(always)]
    pub fn child(&self, parent: &Packed, child: View<'_>, changed: u8) -> Eval {
        let (pos, origin) = (child.pos, child.origin);
        let mut e = *self;
        e.totals[3] = pos.cells.iter().filter(|&&c| c != EMPTY).count() as u8;
        let mut m = changed;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let (pb, po) = self.counts[i];
            let (b, o) = column_counts(pos.cols[i], origin);
            e.counts[i] = (b as u8, o as u8);
            e.totals[1] = e.totals[1] + b as u8 - pb;
            e.totals[5] = e.totals[5] + o as u8 - po;
            e.totals[4] = e.totals[4] + (pos.cols[i] == 0) as u8 - (parent.cols[i] == 0) as u8;
        }
        if pos.found != parent.found {
            e.totals[0] = 52 - pos.home() as u8;
            e.find_next_cards(pos, origin);
            return e;
        }
        // A suit's next card moved only if it lay in a changed cascade or a freecell; it
        // now lies in a changed cascade or a freecell.
        // (Byte su of `hits` is nonzero when suit su's watch mask meets `changed`.)
        let mut hits = u32::from_le_bytes(self.watch) & (changed as u32 * 0x0101_0101);
        while hits != 0 {
            let su = hits.trailing_zeros() as usize / 8;
            hits &= !(0xFF << (8 * su));
            let c = pos.found[su] * 4 + su as u8;
            e.totals[2] -= self.next_above[su];
            (e.watch[su], e.next_above[su]) = (u8::MAX, 0);
            let mut m = changed;
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                let w = pos.cols[i];
                if let Some(d) = depth_in(w, c, origin) {
                    let n = (pre_len(w) + run_len(w) - 1 - d) as u8;
                    (e.watch[su], e.next_above[su]) = (1 << i, n);
                    e.totals[2] += n;
                    break;
                }
            }
        }
        e
    }
}

/// Where each suit's next card lies in `pos`, given which cascade holds each starting
/// cascade's prefix (`holder`) and which cascades have a run (`runs`, bit i for cascade
/// i): the sum of the cards above them, and per suit the cascade (or [`NOWHERE`]) and the
/// cards above it there.
#[inline(always)]
fn next_cards(
    pos: &Packed,
    origin: &Origin,
    holder: &[u8; CASCADES],
    runs: u8,
) -> (u32, [(u8, u8); 4]) {
    let mut total = 0;
    let mut at = [(NOWHERE, 0u8); 4];
    for (su, &h) in pos.found.iter().enumerate() {
        if h >= 13 {
            continue;
        }
        let c = h * 4 + su as u8;
        // In the prefix it was dealt in, or else in a run (or a freecell).
        let (o, d) = origin.at[c as usize];
        let mut i = if o == NOWHERE {
            NOWHERE
        } else {
            holder[o as usize]
        };
        let mut depth = d as usize;
        if i == NOWHERE || depth >= pre_len(pos.cols[i as usize]) {
            i = NOWHERE;
            let mut m = runs;
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                m &= m - 1;
                if let Some(dd) = depth_in(pos.cols[k], c, origin) {
                    (i, depth) = (k as u8, dd);
                    break;
                }
            }
        }
        if i != NOWHERE {
            let w = pos.cols[i as usize];
            let n = (pre_len(w) + run_len(w) - 1 - depth) as u32;
            at[su] = (i, n as u8);
            total += n;
        }
    }
    (total, at)
}

/// The evaluation's features of a packed position ([`Eval::new`]).
#[inline]
pub fn eval_features(v: View<'_>) -> Features {
    Eval::new(v).features()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::generate_model;
    use crate::rules::features as heuristic;

    /// Along walks from deals 1..=50 (every child of every position passed): the packed
    /// child equals the state child, unpacks to it, has the same moves generated (all and
    /// reduced, in the same order), the same evaluation features, and a fingerprint that
    /// agrees with the state's on equality and with itself computed incrementally.
    #[test]
    fn packed_positions_follow_the_state_ones() {
        let mut origin: Option<(u64, Origin)> = None;
        let mut seen: std::collections::HashMap<u128, u128> = Default::default();
        let mut back: std::collections::HashMap<u128, u128> = Default::default();
        let mut total = 0;
        let (mut a, mut b) = (Vec::new(), Vec::new());
        crate::state::walk_children_from(|root, deal, s, child, changed| {
            if origin.as_ref().map(|o| o.0) != Some(deal) {
                // Words are relative to a deal's starting cascades: compare within a deal.
                origin = Some((deal, Origin::new(root)));
                total += seen.len();
                seen.clear();
                back.clear();
            }
            let o = &origin.as_ref().unwrap().1;
            let ps = Packed::new(s, o);
            assert_eq!(ps.to_state(o), *s);
            // The packed child made by the packed move equals the packed state child.
            let pc = Packed::new(child, o);
            assert_eq!(pc.to_state(o), *child);
            let v = View {
                pos: &pc,
                origin: o,
            };
            for prune in [false, true] {
                a.clear();
                b.clear();
                if prune {
                    generate_model::<true>(child, false, false, &mut a);
                    generate_model::<true>(&v, false, false, &mut b);
                } else {
                    generate_model::<false>(child, false, false, &mut a);
                    generate_model::<false>(&v, false, false, &mut b);
                }
                assert_eq!(a, b);
            }
            let f = heuristic::eval_features(child);
            assert_eq!(format!("{:?}", eval_features(v)), format!("{f:?}"));
            let parent_eval = Eval::new(View {
                pos: &ps,
                origin: o,
            });
            let inc = parent_eval.child(&ps, v, changed).features();
            assert_eq!(format!("{inc:?}"), format!("{f:?}"));
            let fp = pc.fingerprint();
            assert_eq!(*seen.entry(child.fingerprint()).or_insert(fp), fp);
            assert_eq!(
                *back.entry(fp).or_insert(child.fingerprint()),
                child.fingerprint()
            );
            assert_eq!(pc.fingerprint_from(&ps.hashes(true), changed, true), fp);
            assert_eq!(pc.hashes(true).fingerprint(), fp);
            // The low lane alone is the fingerprint's low 64 bits.
            let low = pc.fingerprint_from(&ps.hashes(false), changed, false);
            assert_eq!(low as u64, fp as u64);
            assert_eq!(pc.hashes(false).fingerprint() as u64, fp as u64);
        });
        assert!(total > 5_000, "{total}");
    }

    /// By either auto-play rule, each generated move applied to the packed position gives
    /// the packed child, with the same cascades touched and cards homed, and the evaluation
    /// carried from the parent is the child's.
    #[test]
    fn packed_moves_match_state_moves() {
        let mut moves = Vec::new();
        for rule in [AutoPlay::Safe, AutoPlay::Greedy] {
            let mut homed = 0;
            for deal in 1..=30 {
                let mut s = State::from_board(&fcauto_deals::ms_deal(deal).unwrap());
                crate::movegen::autoplay_by(&mut s, rule, |_, _| {});
                let o = Origin::new(&s);
                // The evaluation carried along the walk child by child, as the search does.
                let mut eval = Eval::new(View {
                    pos: &Packed::new(&s, &o),
                    origin: &o,
                });
                for step in 0..120usize {
                    moves.clear();
                    crate::movegen::generate(&s, false, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let ps = Packed::new(&s, &o);
                    let mut children = Vec::new();
                    for &m in &moves {
                        let mut t = s.clone();
                        let r = crate::movegen::play_by(&mut t, m, rule);
                        let mut pt = ps;
                        let at = format!("{rule:?} deal {deal} step {step} {m:?}");
                        assert_eq!(pt.play_by(m, &o, rule), r, "{at}");
                        assert_eq!(pt, Packed::new(&t, &o), "{at}");
                        let v = View {
                            pos: &pt,
                            origin: &o,
                        };
                        let e = eval.child(&ps, v, r.0);
                        let fresh = heuristic::eval_features(&t);
                        assert_eq!(format!("{:?}", e.features()), format!("{fresh:?}"), "{at}");
                        children.push(e);
                        homed += r.1;
                    }
                    let k = (step * 11 + deal as usize) % moves.len();
                    crate::movegen::play_by(&mut s, moves[k], rule);
                    eval = children[k];
                }
            }
            assert!(homed > 200, "{rule:?}: {homed}");
        }
    }

    /// Along walks over the reduced move set from deals 1..=40 with unparking after each
    /// move (every child of every position passed), with either auto-play rule: the packed
    /// unparking leaves the position the state one does, moving as many cards; the
    /// evaluation carried child by child agrees with one made afresh; and the cheap test
    /// before it ([`crate::movegen::may_unpark`]) never says no where a card could be
    /// unparked. Cards are unparked often (the rule is in effect).
    #[test]
    fn packed_unparking_follows_the_state_one() {
        use crate::movegen::{may_unpark, parents_wanted, play_by, unpark_by};
        let mut moves = Vec::new();
        for rule in [AutoPlay::Safe, AutoPlay::Greedy] {
            let (mut unparked, mut filtered) = (0, 0);
            for deal in 1..=40 {
                let mut s = State::from_board(&fcauto_deals::ms_deal(deal).unwrap());
                crate::movegen::autoplay_by(&mut s, rule, |_, _| {});
                unpark_by(&mut s, rule, |_, _| {});
                let o = Origin::new(&s);
                let mut eval = Eval::new(View {
                    pos: &Packed::new(&s, &o),
                    origin: &o,
                });
                for step in 0..150usize {
                    moves.clear();
                    crate::movegen::generate_pruned(&s, &mut moves);
                    if moves.is_empty() || s.is_won() {
                        break;
                    }
                    let ps = Packed::new(&s, &o);
                    let wanted = parents_wanted(&View {
                        pos: &ps,
                        origin: &o,
                    });
                    let mut children = Vec::new();
                    for &m in &moves {
                        let at = format!("{rule:?} deal {deal} step {step} {m:?}");
                        let mut t = s.clone();
                        let (changed, homed) = play_by(&mut t, m, rule);
                        let mut by_state = 0;
                        unpark_by(&mut t, rule, |mv, _| {
                            by_state += 1;
                            unparked += (mv.to != Loc::Foundation) as u32;
                        });
                        let mut pt = ps;
                        let (mut pc, ph) = pt.play_by(m, &o, rule);
                        assert_eq!((pc, ph), (changed, homed), "{at}");
                        let view = View {
                            pos: &pt,
                            origin: &o,
                        };
                        let mut by_packed = 0;
                        if may_unpark(&view, wanted, pc, m) {
                            let (more, n) = pt.unpark(&o, rule);
                            (pc, by_packed) = (pc | more, n);
                        } else {
                            filtered += 1;
                        }
                        assert_eq!(by_packed, by_state, "{at}");
                        assert_eq!(pt, Packed::new(&t, &o), "{at}");
                        let e = eval.child(
                            &ps,
                            View {
                                pos: &pt,
                                origin: &o,
                            },
                            pc,
                        );
                        let fresh = heuristic::eval_features(&t);
                        assert_eq!(format!("{:?}", e.features()), format!("{fresh:?}"), "{at}");
                        children.push((t, e));
                    }
                    let k = (step * 7 + deal as usize) % moves.len();
                    (s, eval) = children.swap_remove(k);
                }
            }
            assert!(unparked > 100, "{rule:?}: {unparked} cards unparked");
            assert!(
                filtered > 1000,
                "{rule:?}: the test said no {filtered} times"
            );
        }
    }

    /// A starting cascade's deepest card put into an empty cascade, and a card put back on
    /// its dealt place, make the same words as the dealt cascades: equal positions, equal
    /// fingerprints, wherever the cascades lie.
    #[test]
    fn words_are_canonical() {
        let s = State::from_board(&fcauto_deals::ms_deal(617).unwrap());
        let o = Origin::new(&s);
        let p = Packed::new(&s, &o);
        // Cascade 3's cards dealt into an empty cascade 0 (cascade 0 moved to 3).
        let mut t = s.clone();
        t.cols.swap(0, 3);
        t.len.swap(0, 3);
        let q = Packed::new(&t, &o);
        assert_eq!(q.fingerprint(), p.fingerprint());
        assert_eq!(q.cols[0], p.cols[3]);
        // A top card moved to a freecell and back.
        let mut r = p;
        let out = Move {
            from: Loc::Cascade(2),
            to: Loc::Freecell(1),
            count: 1,
        };
        r.apply(out, &o);
        assert_ne!(r.fingerprint(), p.fingerprint());
        r.apply(
            Move {
                from: Loc::Freecell(1),
                to: Loc::Cascade(2),
                count: 1,
            },
            &o,
        );
        assert_eq!(r, p);
    }
}
