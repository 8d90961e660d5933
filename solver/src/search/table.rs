//! A flat open-addressing set of position fingerprints, for the best-first search's closed
//! set: one array of keys probed linearly, grown by doubling at half load, and emptied
//! cheaply between searches so that one table serves every try a thread runs. Keys are the
//! whole 128-bit fingerprint, or its low 64 bits for searches that prove nothing
//! ([`Closed`]).

/// A fingerprint as a table stores it: all of it ([`u128`]) or its low lane ([`u64`]).
pub trait Key: Copy + Eq + Default {
    /// True when the key is the whole fingerprint (else its low 64 bits: the fingerprint's
    /// high lane need not be computed, [`crate::packed::Packed::hashes`]).
    const WHOLE: bool;
    /// The key of 128-bit fingerprint `fp`, never 0 (0 marks an empty slot).
    fn of(fp: u128) -> Self;
    /// The key's slot in a table of `mask + 1` slots (its low bits: fingerprints are uniform).
    fn slot(self, mask: usize) -> usize;
    /// The table of this width in `closed`.
    fn table(closed: &mut Closed) -> &mut FingerprintTable<Self>;
}

impl Key for u128 {
    const WHOLE: bool = true;
    #[inline(always)]
    fn of(fp: u128) -> u128 {
        fp.max(1)
    }
    #[inline(always)]
    fn slot(self, mask: usize) -> usize {
        self as usize & mask
    }
    #[inline(always)]
    fn table(closed: &mut Closed) -> &mut FingerprintTable<u128> {
        &mut closed.full
    }
}

impl Key for u64 {
    const WHOLE: bool = false;
    #[inline(always)]
    fn of(fp: u128) -> u64 {
        (fp as u64).max(1)
    }
    #[inline(always)]
    fn slot(self, mask: usize) -> usize {
        self as usize & mask
    }
    #[inline(always)]
    fn table(closed: &mut Closed) -> &mut FingerprintTable<u64> {
        &mut closed.low
    }
}

/// A thread's closed sets, one per key width: a search takes the one of its [`Key`].
///
/// A search that may prove a deal unsolvable (over all moves) needs every fingerprint whole:
/// two positions taken for one would hide one, and running dry would prove nothing. A
/// search over the reduced move set proves nothing, and its solution is replayed and
/// validated, so it keeps the low 64 bits: a table half the size, and no high lane to
/// compute (2.4% fewer instructions a position, the same positions; the CPU time it saves is
/// within this machine's noise). Two of its positions share
/// a key with a probability of about n^2 / 2^65 for n stored (1 in 10^9 at 200,000); the
/// one then dropped only changes which solution is found, or makes the try give up.
#[derive(Default)]
pub struct Closed {
    /// Whole fingerprints.
    pub full: FingerprintTable<u128>,
    /// Low 64 bits.
    pub low: FingerprintTable<u64>,
}

impl Closed {
    /// Empty both tables ([`FingerprintTable::clear`]).
    pub fn clear(&mut self) {
        self.full.clear();
        self.low.clear();
    }
}

/// A set of fingerprints ([`crate::state::State::fingerprint`], [`crate::packed::Packed::fingerprint`]),
/// which are uniform: the slot is taken from their low bits with no further hashing.
///
/// The key 0 marks an empty slot, so a fingerprint whose key is 0 is stored as 1 (two
/// positions whose keys are 0 and 1 count as one: a collision as unlikely as any other).
pub struct FingerprintTable<K: Key = u128> {
    /// Power-of-two number of slots, each a key or 0.
    slots: Vec<K>,
    /// The buffer the next growth rehashes into (kept, like `slots`' capacity, so that a
    /// thread's searches stop allocating once its largest has run).
    spare: Vec<K>,
    len: usize,
}

/// Bytes of slots of a new or just cleared table (1,024 whole fingerprints, 2,048 low
/// ones): enough for the median deal's search.
const INITIAL_BYTES: usize = 16 << 10;

impl<K: Key> Default for FingerprintTable<K> {
    fn default() -> Self {
        FingerprintTable {
            slots: vec![K::default(); Self::INITIAL_SLOTS],
            spare: Vec::new(),
            len: 0,
        }
    }
}

impl<K: Key> FingerprintTable<K> {
    /// Slots of a new or just cleared table.
    const INITIAL_SLOTS: usize = INITIAL_BYTES / std::mem::size_of::<K>();

    /// Number of fingerprints stored.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no fingerprint is stored.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Remove every fingerprint. The table shrinks back to its initial slots (so that a
    /// small search after a large one stays in cache) but keeps its memory.
    pub fn clear(&mut self) {
        // Nothing stored since the last clear: every slot is still empty (the thread's
        // table of the other key width, cleared with this one before each search).
        if self.len == 0 {
            return;
        }
        self.slots.truncate(Self::INITIAL_SLOTS);
        self.slots.fill(K::default());
        self.len = 0;
    }

    /// Add `fp`; false if it was already present.
    #[inline]
    pub fn insert(&mut self, fp: u128) -> bool {
        let key = K::of(fp);
        let (i, present) = self.probe(key);
        if present {
            return false;
        }
        self.slots[i] = key;
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            self.grow();
        }
        true
    }

    /// True when `fp` is present.
    #[inline]
    pub fn contains(&self, fp: u128) -> bool {
        self.probe(K::of(fp)).1
    }

    /// The slot holding `key` (true), or the empty slot where its probe ends (false).
    #[inline(always)]
    fn probe(&self, key: K) -> (usize, bool) {
        let mask = self.slots.len() - 1;
        let mut i = key.slot(mask);
        loop {
            let k = self.slots[i];
            if k == key || k == K::default() {
                return (i, k == key);
            }
            i = (i + 1) & mask;
        }
    }

    /// Double the slots and re-insert every key.
    #[cold]
    fn grow(&mut self) {
        self.spare.clear();
        self.spare.resize(self.slots.len() * 2, K::default());
        std::mem::swap(&mut self.slots, &mut self.spare);
        let mask = self.slots.len() - 1;
        // Empty slots are "inserted" too, without a test: a 0 written into an empty slot
        // leaves it empty (and half the slots are empty: a branch on them would often be
        // mispredicted).
        for &key in self.spare.iter() {
            let mut i = key.slot(mask);
            while self.slots[i] != K::default() {
                i = (i + 1) & mask;
            }
            self.slots[i] = key;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::mix64;
    use std::collections::HashSet;

    /// The table agrees with a standard set of its keys through growth, repeats, the key 0,
    /// and clears, at both widths.
    #[test]
    fn behaves_as_a_set() {
        behaves_as_a_set_of::<u128>();
        behaves_as_a_set_of::<u64>();
    }

    /// Whole keys tell apart fingerprints whose low lanes are equal; low keys take them for
    /// one, and take the closed set of their width.
    #[test]
    fn key_widths() {
        let (a, b) = ((1u128 << 64) | 7, (2u128 << 64) | 7);
        let mut closed = Closed::default();
        assert!(u128::table(&mut closed).insert(a) && u128::table(&mut closed).insert(b));
        assert!(u64::table(&mut closed).insert(a) && !u64::table(&mut closed).insert(b));
        assert_eq!((closed.full.len(), closed.low.len()), (2, 1));
        closed.clear();
        assert!(closed.full.is_empty() && closed.low.is_empty());
    }

    fn behaves_as_a_set_of<K: Key + std::hash::Hash + std::fmt::Debug>() {
        let mut t = FingerprintTable::<K>::default();
        for round in 0..3u64 {
            let mut reference = HashSet::new();
            for i in 0..200_000u64 {
                // Repeats (i % 150_000) included, and for i < 64 keys that differ only in
                // their high half (so they probe from the same slot).
                let v = mix64((i % 150_000 + 1) ^ (round << 40));
                let fp = if i < 64 {
                    ((i as u128) << 64) | 0xABCD
                } else {
                    ((v as u128) << 64) | mix64(v) as u128
                };
                assert_eq!(t.insert(fp), reference.insert(K::of(fp)), "key {i}");
            }
            assert_eq!(t.len(), reference.len());
            for i in (64..150_000u64).step_by(150) {
                let v = mix64((i + 1) ^ (round << 40));
                assert!(t.contains(((v as u128) << 64) | mix64(v) as u128));
            }
            assert!(!t.contains(12345));
            assert!(!t.contains(1));
            assert!(t.insert(0), "round {round}");
            assert!(!t.insert(1));
            assert!(t.contains(0));
            t.clear();
            assert!(t.is_empty() && !t.contains(0));
        }
    }
}
