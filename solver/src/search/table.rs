//! A flat open-addressing set of 128-bit position fingerprints, for the best-first search's
//! closed set: one array of keys probed linearly, grown by doubling at half load, and
//! emptied cheaply between searches so that one table serves every try a thread runs.

/// A set of fingerprints ([`crate::state::State::fingerprint`]), which are uniform: the
/// slot is taken from their low bits with no further hashing.
///
/// The key 0 marks an empty slot, so the fingerprint 0 is stored as 1 (two positions whose
/// fingerprints are 0 and 1 count as one: a collision as unlikely as any other, 2^-128).
pub struct FingerprintTable {
    /// Power-of-two number of slots, each a key or 0.
    slots: Vec<u128>,
    /// The buffer the next growth rehashes into (kept, like `slots`' capacity, so that a
    /// thread's searches stop allocating once its largest has run).
    spare: Vec<u128>,
    len: usize,
}

/// Slots of a new or just cleared table (16 KiB): enough for the median deal's search.
const INITIAL_SLOTS: usize = 1 << 10;

impl Default for FingerprintTable {
    fn default() -> Self {
        FingerprintTable {
            slots: vec![0; INITIAL_SLOTS],
            spare: Vec::new(),
            len: 0,
        }
    }
}

impl FingerprintTable {
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
        self.slots.truncate(INITIAL_SLOTS);
        self.slots.fill(0);
        self.len = 0;
    }

    /// Add `fp`; false if it was already present.
    #[inline]
    pub fn insert(&mut self, fp: u128) -> bool {
        let key = fp.max(1);
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
        self.probe(fp.max(1)).1
    }

    /// The slot holding `key` (true), or the empty slot where its probe ends (false).
    #[inline(always)]
    fn probe(&self, key: u128) -> (usize, bool) {
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let k = self.slots[i];
            if k == key || k == 0 {
                return (i, k == key);
            }
            i = (i + 1) & mask;
        }
    }

    /// Double the slots and re-insert every key.
    #[cold]
    fn grow(&mut self) {
        self.spare.clear();
        self.spare.resize(self.slots.len() * 2, 0);
        std::mem::swap(&mut self.slots, &mut self.spare);
        let mask = self.slots.len() - 1;
        // Empty slots are "inserted" too, without a test: a 0 written into an empty slot
        // leaves it empty (and half the slots are empty: a branch on them would often be
        // mispredicted).
        for &key in self.spare.iter() {
            let mut i = key as usize & mask;
            while self.slots[i] != 0 {
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

    /// The table agrees with a standard set through growth, repeats, the key 0, and clears.
    #[test]
    fn behaves_as_a_set() {
        let mut t = FingerprintTable::default();
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
                assert_eq!(t.insert(fp), reference.insert(fp.max(1)), "key {i}");
            }
            assert_eq!(t.len(), reference.len());
            for &k in reference.iter().take(1000) {
                assert!(t.contains(k));
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
