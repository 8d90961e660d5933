//! A flat open-addressing map from position fingerprints to a stored node, its cost and its
//! bound, for `short`'s anytime A* ([`crate::astar::anytime`]): one array of 32-byte slots
//! (the whole 128-bit fingerprint, the node index, the cost g and the bound h), probed linearly from the
//! fingerprint's low bits and grown by doubling at half load. Emptying it takes no time
//! (each slot holds the number of the emptying it was filled after), so one table serves
//! every search a thread runs without allocating or touching its memory again.
//!
//! Each look-up reads one slot (usually one cache line, where a SwissTable reads a control
//! group and then a bucket), a look-up that finds a free slot gives the slot to fill, and
//! [`NodeTable::prefetch`] lets the caller start the memory reads of a position's children
//! before it looks them up one by one.

/// One slot: a fingerprint and its node, cost and bound, stored when `era` is the table's.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Slot {
    fp: u128,
    node: u32,
    g: u16,
    h: u16,
    era: u32,
}

/// A slot of no era (tables count theirs from 1).
const FREE_SLOT: Slot = Slot {
    fp: 0,
    node: 0,
    g: 0,
    h: 0,
    era: 0,
};

/// Slots of a new table: 128 KiB.
const INITIAL_SLOTS: usize = 4096;

/// Fingerprint → (node, g, h), exact on whole fingerprints (see the module docs).
pub(crate) struct NodeTable {
    /// Power-of-two number of slots, at most half of them used.
    slots: Vec<Slot>,
    len: usize,
    /// The slots of this era are stored, the others free.
    era: u32,
}

impl NodeTable {
    /// An empty table of [`INITIAL_SLOTS`] slots.
    pub(crate) fn new() -> NodeTable {
        NodeTable {
            slots: vec![FREE_SLOT; INITIAL_SLOTS],
            len: 0,
            era: 1,
        }
    }

    /// Empty the table, keeping its slots.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.era = self.era.wrapping_add(1);
        if self.era == 0 {
            self.slots.fill(FREE_SLOT);
            self.era = 1;
        }
    }

    /// Fingerprints stored.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// Where `fp` is: `Ok(slot)` when stored, else `Err(slot)`, the free slot
    /// [`NodeTable::insert_at`] fills.
    #[inline]
    pub(crate) fn find(&self, fp: u128) -> Result<usize, usize> {
        let mask = self.mask();
        let mut i = fp as usize & mask;
        loop {
            let s = &self.slots[i];
            if s.era != self.era {
                return Err(i);
            }
            if s.fp == fp {
                return Ok(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// The node, cost and bound in stored slot `i`.
    #[inline]
    pub(crate) fn at(&self, i: usize) -> (u32, u16, u16) {
        let s = &self.slots[i];
        (s.node, s.g, s.h)
    }

    /// Replace the node and cost in stored slot `i` (the position, so its bound, stays).
    #[inline]
    pub(crate) fn set(&mut self, i: usize, node: u32, g: u16) {
        let s = &mut self.slots[i];
        (s.node, s.g) = (node, g);
    }

    /// Store `fp` with `node`, `g` and `h` in free slot `i`, which [`NodeTable::find`]
    /// returned for `fp` with no insertion since.
    #[inline]
    pub(crate) fn insert_at(&mut self, i: usize, fp: u128, node: u32, (g, h): (u16, u16)) {
        debug_assert!(self.slots[i].era != self.era);
        let era = self.era;
        self.slots[i] = Slot {
            fp,
            node,
            g,
            h,
            era,
        };
        self.len += 1;
        if 2 * self.len > self.slots.len() {
            self.grow();
        }
    }

    /// Double the slots, placing every stored fingerprint again.
    #[cold]
    fn grow(&mut self) {
        let doubled = vec![FREE_SLOT; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, doubled);
        let mask = self.mask();
        for s in old.into_iter().filter(|s| s.era == self.era) {
            let mut i = s.fp as usize & mask;
            while self.slots[i].era == self.era {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }

    /// Start reading `fp`'s first slot into the cache (a hint: no effect on the contents).
    #[inline(always)]
    pub(crate) fn prefetch(&self, fp: u128) {
        let slot = &self.slots[fp as usize & self.mask()];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch reads nothing architecturally and cannot fault; the address is
        // that of a slot of this table.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>((slot as *const Slot).cast::<i8>());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::mix64;

    #[test]
    fn finds_what_it_stores_through_growth_and_replacement() {
        let mut t = NodeTable::new();
        let fp = |k: u64| (mix64(k) as u128) << 64 | mix64((k + 1) << 40) as u128;
        // Colliding low bits too: keys that differ only in the high lane.
        let twin = |k: u64| fp(k) ^ (1 << 100);
        for k in 0..20_000u64 {
            let i = t.find(fp(k)).expect_err("new");
            t.insert_at(i, fp(k), k as u32, (k as u16, 3));
            if k % 3 == 0 {
                let i = t.find(twin(k)).expect_err("new");
                t.insert_at(i, twin(k), 7, (7, 7));
            }
        }
        assert_eq!(t.len(), 20_000 + 6_667);
        for k in (0..20_000u64).step_by(5) {
            let i = t.find(fp(k)).expect("stored");
            assert_eq!(t.at(i), (k as u32, k as u16, 3));
            t.set(i, 1, 2);
            t.prefetch(fp(k));
            assert_eq!(t.at(t.find(fp(k)).expect("stored")), (1, 2, 3));
        }
        assert!(t.find(fp(20_001)).is_err());
        assert_eq!(t.at(t.find(twin(3)).expect("stored")), (7, 7, 7));
        assert!(t.find(twin(4)).is_err());
        t.clear();
        assert_eq!(t.len(), 0);
        assert!(t.find(fp(5)).is_err() && t.find(twin(3)).is_err());
        let i = t.find(fp(5)).expect_err("new");
        t.insert_at(i, fp(5), 9, (9, 9));
        assert_eq!(t.at(t.find(fp(5)).expect("stored")), (9, 9, 9));
        // The era wraps: every slot is emptied for real.
        t.era = u32::MAX;
        t.clear();
        assert!(t.find(fp(5)).is_err());
    }
}
