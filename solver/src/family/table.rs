//! The family searches' visited set: open addressing over whole 128-bit fingerprints (16
//! bytes a slot, kept at most three quarters full). The fingerprints are already well mixed,
//! so their low bits index the table directly.

/// A set of fingerprints.
pub(crate) struct Seen {
    slots: Vec<u128>,
    len: usize,
    mask: usize,
}

impl Seen {
    pub fn new() -> Seen {
        let n = 1 << 16;
        Seen {
            slots: vec![0; n],
            len: 0,
            mask: n - 1,
        }
    }

    /// An empty set that starts small (for the many small sets of the layered search).
    #[cfg(test)]
    pub fn small() -> Seen {
        let n = 1 << 8;
        Seen {
            slots: vec![0; n],
            len: 0,
            mask: n - 1,
        }
    }

    /// Positions stored.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Insert `fp`; false when it was there already.
    #[inline]
    pub fn insert(&mut self, fp: u128) -> bool {
        // 0 marks an empty slot.
        let key = fp.max(1);
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let mut i = (key as usize ^ (key >> 64) as usize) & self.mask;
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
            i = (i + 1) & self.mask;
        }
    }

    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![0; n]);
        self.mask = self.slots.len() - 1;
        for key in old.into_iter().filter(|&k| k != 0) {
            let mut i = (key as usize ^ (key >> 64) as usize) & self.mask;
            while self.slots[i] != 0 {
                i = (i + 1) & self.mask;
            }
            self.slots[i] = key;
        }
    }
}
