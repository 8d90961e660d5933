//! The family searches' visited set: 128-bit fingerprints kept in shards chosen by their top
//! bits, each shard an open-addressing table of the fingerprint's low 64 bits (8 bytes a slot,
//! grown by doubling at four fifths full). A stored fingerprint thus keeps 64 bits plus the
//! shard's: 76 bits in the large set, so that two of 2.6 billion positions share one with a
//! chance of about 5 in 100,000.
//!
//! Shards grow one at a time, so the set never holds two copies of itself while it grows;
//! given the most positions it will hold ([`Seen::with_limit`]), no shard grows past what
//! that limit needs, which lets a complete search of 2.6 billion positions fit in about 22 GB.
//! The fingerprints are already well mixed, so their bits index the shards directly.

/// A set of fingerprints.
pub(crate) struct Seen {
    shards: Vec<Shard>,
    /// log2 of the shard count.
    shard_bits: u32,
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
/// Slots of each shard of a new large set (512 KiB in all).
const FIRST_SLOTS: usize = 16;

impl Seen {
    /// An empty set with no limit on its growth.
    pub fn new() -> Seen {
        Seen::with_limit(usize::MAX)
    }

    /// An empty set that will hold at most about `limit` fingerprints: no shard grows past
    /// what its share of `limit` needs at fifteen sixteenths full (linear probes grow long only
    /// near that end, which only searches of the whole limit reach).
    pub fn with_limit(limit: usize) -> Seen {
        let shards = 1usize << SHARD_BITS;
        let share = limit / shards;
        let cap = share.saturating_add(share / 15).saturating_add(64);
        Seen::build(SHARD_BITS, FIRST_SLOTS, cap)
    }

    /// An empty set that starts small (for the many small sets of the layered search).
    #[cfg(test)]
    pub fn small() -> Seen {
        Seen::build(0, 256, usize::MAX)
    }

    fn build(shard_bits: u32, slots: usize, cap: usize) -> Seen {
        let shards = (0..1usize << shard_bits)
            .map(|_| Shard {
                slots: vec![0; slots.min(cap)],
                len: 0,
            })
            .collect();
        Seen {
            shards,
            shard_bits,
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
        let shard = self.shard_of(fp);
        // 0 marks an empty slot.
        let key = (fp as u64).max(1);
        let s = &mut self.shards[shard];
        if (s.len + 1) * 5 > s.slots.len() * 4 {
            s.grow(self.cap);
        }
        if s.insert(key) {
            self.len += 1;
            true
        } else {
            false
        }
    }
}

impl Seen {
    /// Read the first slot each of `fps` would be looked for in: independent reads the
    /// processor overlaps, so that the inserts that follow find their slots in its caches.
    pub fn touch(&self, fps: impl Iterator<Item = u128>) {
        let mut any = 0u64;
        for fp in fps {
            let s = &self.shards[self.shard_of(fp)];
            any ^= s.slots[Shard::home((fp as u64).max(1), s.slots.len())];
        }
        std::hint::black_box(any);
    }

    #[inline(always)]
    fn shard_of(&self, fp: u128) -> usize {
        match self.shard_bits {
            0 => 0,
            b => (fp >> (128 - b)) as usize,
        }
    }
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
        let n = self.slots.len();
        let mut i = Shard::home(key, n);
        loop {
            let s = self.slots[i];
            if s == key {
                return false;
            }
            if s == 0 {
                self.slots[i] = key;
                self.len += 1;
                return true;
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
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

    #[test]
    fn a_fingerprint_is_new_once_in_every_kind_of_set() {
        for mut seen in [Seen::new(), Seen::with_limit(5_000), Seen::small()] {
            for i in 0..20_000u64 {
                assert!(seen.insert(spread(i)), "{i} new");
            }
            for i in 0..20_000u64 {
                assert!(!seen.insert(spread(i)), "{i} seen");
            }
            assert_eq!(seen.len(), 20_000);
        }
    }

    #[test]
    fn a_limited_set_stops_growing_at_its_share() {
        let mut seen = Seen::with_limit(1 << 20);
        for i in 0..1u64 << 20 {
            seen.insert(spread(i));
        }
        let slots: usize = seen.shards.iter().map(|s| s.slots.len()).sum();
        // Its share at fifteen sixteenths full, not the next doubling.
        assert!(slots <= (1 << 20) * 16 / 15 + 64 * 4096, "{slots} slots");
        assert_eq!(seen.len(), 1 << 20);
    }
}
