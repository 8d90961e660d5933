//! The family searches' visited set. Up to about a million positions it is one
//! open-addressing table of whole 128-bit fingerprints (one allocation, as cheap as the
//! best-first tries of an easy deal need); past that, the fingerprints are kept in shards
//! chosen by their top bits, each shard an open-addressing table of the fingerprint's low 64
//! bits (8 bytes a slot, grown by doubling at four fifths full). A stored fingerprint thus keeps 64 bits plus the
//! shard's: 76 bits in the large set, so that two of 2.6 billion positions share one with a
//! chance of about 5 in 100,000.
//!
//! Shards grow one at a time, so the set never holds two copies of itself while it grows;
//! given the most positions it will hold ([`Seen::with_limit`]), no shard grows past what
//! that limit needs, which lets a complete search of 2.6 billion positions fit in about 22 GB.
//! The fingerprints are already well mixed, so their bits index the shards directly.

/// A set of fingerprints.
pub(crate) struct Seen {
    /// While the set is small: whole fingerprints in one table (one allocation, as cheap as
    /// the many small sets of the best-first tries need), doubled when three quarters full.
    small: Vec<u128>,
    /// The sharded form, once the set holds [`SPLIT_AT`] fingerprints (empty before).
    shards: Vec<Shard>,
    len: usize,
    /// Most slots one shard grows to (beyond it only to stay usable).
    cap: usize,
}

struct Shard {
    slots: Vec<u64>,
    len: usize,
}

/// log2 of the shards of a large set: 4096 shards.
const SHARD_BITS: u32 = 12;
/// Fingerprints a set holds whole before it is split into shards (32 MiB of whole ones).
const SPLIT_AT: usize = 1 << 20;

impl Seen {
    /// An empty set with no limit on its growth.
    pub fn new() -> Seen {
        Seen::with_limit(usize::MAX)
    }

    /// An empty set that will hold at most about `limit` fingerprints: no shard grows past
    /// what its share of `limit` needs at fifteen sixteenths full (linear probes grow long only
    /// near that end, which only searches of the whole limit reach).
    pub fn with_limit(limit: usize) -> Seen {
        let share = limit >> SHARD_BITS;
        let cap = share.saturating_add(share / 15).saturating_add(64);
        Seen::build(1 << 16, cap)
    }

    /// An empty set that starts smaller (for the many small sets of the layered search).
    #[cfg(test)]
    pub fn small() -> Seen {
        Seen::build(256, usize::MAX)
    }

    fn build(slots: usize, cap: usize) -> Seen {
        Seen {
            small: vec![0; slots],
            shards: Vec::new(),
            len: 0,
            cap,
        }
    }

    /// Positions stored.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Insert `fp`; false when it was there already.
    #[inline]
    pub fn insert(&mut self, fp: u128) -> bool {
        let new = if self.shards.is_empty() {
            self.insert_small(fp)
        } else {
            self.insert_sharded(fp)
        };
        self.len += new as usize;
        new
    }

    #[inline]
    fn insert_small(&mut self, fp: u128) -> bool {
        // 0 marks an empty slot.
        let key = fp.max(1);
        if self.len >= SPLIT_AT {
            self.split();
            return self.insert_sharded(fp);
        }
        if (self.len + 1) * 4 > self.small.len() * 3 {
            self.grow_small();
        }
        let mask = self.small.len() - 1;
        probe_insert(&mut self.small, small_home(key, mask), key)
    }

    fn grow_small(&mut self) {
        let n = self.small.len() * 2;
        let old = std::mem::replace(&mut self.small, vec![0; n]);
        let mask = n - 1;
        for key in old.into_iter().filter(|&k| k != 0) {
            let mut i = small_home(key, mask);
            while self.small[i] != 0 {
                i = (i + 1) & mask;
            }
            self.small[i] = key;
        }
    }

    /// Move the whole fingerprints into the shards.
    fn split(&mut self) {
        let first = ((SPLIT_AT >> SHARD_BITS) * 2).min(self.cap).max(1);
        self.shards = (0..1usize << SHARD_BITS)
            .map(|_| Shard {
                slots: vec![0; first],
                len: 0,
            })
            .collect();
        for key in std::mem::take(&mut self.small) {
            if key != 0 {
                self.insert_sharded(key);
            }
        }
    }

    #[inline]
    fn insert_sharded(&mut self, fp: u128) -> bool {
        let shard = shard_of(fp);
        // 0 marks an empty slot.
        let key = (fp as u64).max(1);
        let s = &mut self.shards[shard];
        if (s.len + 1) * 5 > s.slots.len() * 4 {
            s.grow(self.cap);
        }
        s.insert(key)
    }

    /// Read the first slot each of `fps` would be looked for in: independent reads the
    /// processor overlaps, so that the inserts that follow find their slots in its caches.
    pub fn touch(&self, fps: impl Iterator<Item = u128>) {
        let mut any = 0u64;
        if self.shards.is_empty() {
            let mask = self.small.len() - 1;
            for fp in fps {
                any ^= self.small[small_home(fp.max(1), mask)] as u64;
            }
        } else {
            for fp in fps {
                let s = &self.shards[shard_of(fp)];
                any ^= s.slots[Shard::home((fp as u64).max(1), s.slots.len())];
            }
        }
        std::hint::black_box(any);
    }
}

/// The slot of the small table a fingerprint is looked for from.
#[inline(always)]
fn small_home(key: u128, mask: usize) -> usize {
    (key as usize ^ (key >> 64) as usize) & mask
}

/// Insert `key` (never the empty slot's 0) into the open-addressed `slots` by linear
/// probing from slot `i`, wrapping at the end; false when it was there already. The caller
/// keeps a free slot, so that a probe always ends.
#[inline(always)]
fn probe_insert<K: Copy + Eq + Default>(slots: &mut [K], mut i: usize, key: K) -> bool {
    loop {
        let s = slots[i];
        if s == key {
            return false;
        }
        if s == K::default() {
            slots[i] = key;
            return true;
        }
        i += 1;
        if i == slots.len() {
            i = 0;
        }
    }
}

/// The shard of a fingerprint: its top bits.
#[inline(always)]
fn shard_of(fp: u128) -> usize {
    (fp >> (128 - SHARD_BITS)) as usize
}

impl Shard {
    /// The slot `key` is looked for from: its high bits scaled to the table's length (any
    /// length, not only powers of two).
    #[inline(always)]
    fn home(key: u64, n: usize) -> usize {
        ((key as u128 * n as u128) >> 64) as usize
    }

    #[inline]
    fn insert(&mut self, key: u64) -> bool {
        let home = Shard::home(key, self.slots.len());
        let new = probe_insert(&mut self.slots, home, key);
        self.len += new as usize;
        new
    }

    /// Double the slots, or up to `cap`; past `cap` only when nearly full, so that a probe
    /// always ends.
    fn grow(&mut self, cap: usize) {
        let n = self.slots.len();
        let target = if n < cap {
            (n * 2).min(cap)
        } else if (self.len + 1) * 32 > n * 31 {
            n * 2
        } else {
            return;
        };
        let old = std::mem::replace(&mut self.slots, vec![0; target]);
        for key in old.into_iter().filter(|&k| k != 0) {
            let mut i = Shard::home(key, target);
            while self.slots[i] != 0 {
                i += 1;
                if i == target {
                    i = 0;
                }
            }
            self.slots[i] = key;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Seen;

    fn spread(i: u64) -> u128 {
        let a = (i as u128).wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835);
        a ^ (a >> 61)
    }

    /// Small sets, and sets split into shards (past `SPLIT_AT`), some past their limit.
    #[test]
    fn a_fingerprint_is_new_once_in_every_kind_of_set() {
        let big = super::SPLIT_AT as u64 + 300_000;
        for (mut seen, n) in [
            (Seen::new(), 20_000),
            (Seen::small(), 20_000),
            (Seen::new(), big),
            (Seen::with_limit(5_000), big),
        ] {
            for i in 0..n {
                assert!(seen.insert(spread(i)), "{i} new");
            }
            for i in 0..n {
                assert!(!seen.insert(spread(i)), "{i} seen");
            }
            assert_eq!(seen.len(), n as usize);
            assert_eq!(seen.shards.is_empty(), n < super::SPLIT_AT as u64);
        }
    }

    #[test]
    fn a_limited_set_stops_growing_at_its_share() {
        let mut seen = Seen::with_limit(1 << 22);
        for i in 0..1u64 << 22 {
            seen.insert(spread(i));
        }
        let slots: usize = seen.shards.iter().map(|s| s.slots.len()).sum();
        // Its share at fifteen sixteenths full, not the next doubling.
        assert!(slots <= (1 << 22) * 16 / 15 + 64 * 4096, "{slots} slots");
        assert_eq!(seen.len(), 1 << 22);
    }
}
