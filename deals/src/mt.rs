//! The Mersenne Twister (MT19937) as Python's `random.Random` runs it, which PySolFC 3.2 deals
//! its game numbers from 32000 on with (`pysol_cards.random.MTRandom`).
//!
//! Python seeds a whole number `n` with `init_by_array` of the 32-bit words of `|n|`, least
//! significant first (one word `0` for zero), and `random()` joins two draws into a 53-bit
//! fraction: `((a >> 5) * 2^26 + (b >> 6)) / 2^53`. This module reproduces both bit for bit.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// Python's `random.Random(n)` for a whole number `n` (as `MTRandom(n)` in PySolFC).
#[derive(Clone)]
pub struct PyRandom {
    mt: [u32; N],
    index: usize,
}

impl PyRandom {
    /// The generator `random.Random(seed)` makes: `init_by_array` of the seed's 32-bit words.
    pub fn new(seed: u128) -> PyRandom {
        let mut key = Vec::with_capacity(4);
        let mut rest = seed;
        loop {
            key.push(rest as u32);
            rest >>= 32;
            if rest == 0 {
                break;
            }
        }
        let mut r = PyRandom {
            mt: [0; N],
            index: N,
        };
        r.init_by_array(&key);
        r
    }

    fn init_genrand(&mut self, s: u32) {
        self.mt[0] = s;
        for i in 1..N {
            let prev = self.mt[i - 1];
            self.mt[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        self.index = N;
    }

    fn init_by_array(&mut self, key: &[u32]) {
        self.init_genrand(19_650_218);
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            let prev = self.mt[i - 1];
            self.mt[i] = (self.mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                self.mt[0] = self.mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = self.mt[i - 1];
            self.mt[i] = (self.mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                self.mt[0] = self.mt[N - 1];
                i = 1;
            }
        }
        self.mt[0] = 0x8000_0000;
    }

    fn twist(&mut self) {
        for k in 0..N {
            let y = (self.mt[k] & UPPER_MASK) | (self.mt[(k + 1) % N] & LOWER_MASK);
            let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
            self.mt[k] = self.mt[(k + M) % N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    /// The next 32-bit draw (`genrand_uint32`; Python's `getrandbits(32)`).
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// Python's `random()`: a 53-bit fraction in [0, 1).
    pub fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// PySolFC's `RandomBase.randint(a, b)`: `a + int(random() * (b + 1 - a))`, `a..=b`.
    pub fn randint(&mut self, a: usize, b: usize) -> usize {
        a + (self.random() * (b + 1 - a) as f64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Python 3.11's `random.Random(s)`: two `random()` values, then `getrandbits(32)`.
    #[test]
    fn matches_pythons_random() {
        let cases: [(u128, f64, f64, u32); 6] = [
            (32000, 0.3721723162993418, 0.8413318621630471, 2042032570),
            (123456, 0.8056271362589, 0.7940590105180981, 126382657),
            (2147483653, 0.888901983139397, 0.4761709472048751, 815739189),
            (
                4294967303,
                0.22550888929893187,
                0.35860096918797,
                3432680139,
            ),
            (
                99_999_999_999_999_999_999,
                0.4899983975128377,
                0.21074077344856224,
                4140040137,
            ),
            (0, 0.8444218515250481, 0.7579544029403025, 1806341205),
        ];
        for (seed, r1, r2, bits) in cases {
            let mut r = PyRandom::new(seed);
            assert_eq!(r.random(), r1, "seed {seed}");
            assert_eq!(r.random(), r2, "seed {seed}");
            assert_eq!(r.next_u32(), bits, "seed {seed}");
        }
    }
}
