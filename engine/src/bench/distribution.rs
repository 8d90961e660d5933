//! Distributions of per-deal quantities (positions, CPU time, solution lengths) kept as
//! counts per value, so that memory grows with the distinct values, not with the deals:
//! `bench` and `batch report` summarise millions of deals with them.

use serde::Serialize;
use std::collections::BTreeMap;

/// Distribution of one per-deal quantity.
#[derive(Serialize, Debug, Clone, Default)]
pub struct Distribution {
    /// Rows with a value.
    pub count: u64,
    /// Arithmetic mean.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub mean: f64,
    /// 50th percentile (the lower median). Percentiles are the k-th smallest value,
    /// k = ceil(count x p); for CPU times rounded to 3 significant digits.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub p50: f64,
    /// 90th percentile.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub p90: f64,
    /// 99th percentile.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub p99: f64,
    /// Largest value.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub max: f64,
    /// Sum of the values.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub sum: f64,
}

/// Counts per value of one quantity, with its exact sum and maximum.
///
/// A value is counted under a whole-number key: the value itself for counts (positions,
/// moves), or the value divided by a scale and rounded ([`three_digits`]) for times; the
/// scale turns keys back into the quantity's units in [`Counted::distribution`].
#[derive(Default, Debug, Clone)]
pub struct Counted {
    counts: BTreeMap<u64, u64>,
    n: u64,
    sum: f64,
    max: f64,
}

impl Counted {
    /// Count `key` (the value in the quantity's units divided by its scale) for `value`.
    pub fn add(&mut self, key: u64, value: f64) {
        *self.counts.entry(key).or_default() += 1;
        self.n += 1;
        self.sum += value;
        self.max = self.max.max(value);
    }

    /// Add everything `other` counted.
    pub fn merge(&mut self, other: &Counted) {
        for (k, c) in &other.counts {
            *self.counts.entry(*k).or_default() += c;
        }
        self.n += other.n;
        self.sum += other.sum;
        self.max = self.max.max(other.max);
    }

    /// Values counted.
    pub fn len(&self) -> u64 {
        self.n
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The exact sum of the values counted.
    pub fn sum(&self) -> f64 {
        self.sum
    }

    /// Every value multiplied by `factor` (a time's keys, [`three_digits`], rounded again).
    pub fn scaled(&self, factor: f64) -> Counted {
        let mut out = Counted {
            counts: BTreeMap::new(),
            n: self.n,
            sum: self.sum * factor,
            max: self.max * factor,
        };
        for (&k, &n) in &self.counts {
            let key = three_digits((k as f64 * factor).round().max(0.0) as u64);
            *out.counts.entry(key).or_default() += n;
        }
        out
    }

    /// (key, how many values had it), keys ascending.
    pub fn counts(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.counts.iter().map(|(k, n)| (*k, *n))
    }

    /// The k-th smallest key (1-based, clamped to 1..=len); `None` when empty.
    pub fn kth(&self, k: u64) -> Option<u64> {
        if self.n == 0 {
            return None;
        }
        let k = k.clamp(1, self.n);
        let mut seen = 0;
        for (key, n) in &self.counts {
            seen += n;
            if seen >= k {
                return Some(*key);
            }
        }
        self.counts.keys().next_back().copied()
    }

    /// Mean, percentiles (k-th smallest, k = ceil(n p)) and max; `None` when empty. Keys are
    /// multiplied by `scale` to give the percentiles in the quantity's units.
    pub fn distribution(&self, scale: f64) -> Option<Distribution> {
        if self.n == 0 {
            return None;
        }
        // A key below 1 unit is divided by the whole number 1 / scale, which rounds
        // correctly (0.101, not 0.10099999999999999 from 101000 x 1e-6). A time's key is
        // rounded, so it may exceed the exact maximum: a percentile is at most the maximum.
        let unit = |k: u64| {
            if scale < 1.0 {
                k as f64 / (1.0 / scale).round()
            } else {
                k as f64 * scale
            }
        };
        let pct = |p: f64| {
            self.kth((self.n as f64 * p).ceil() as u64)
                .map_or(self.max, |k| unit(k).min(self.max))
        };
        Some(Distribution {
            count: self.n,
            mean: self.sum / self.n as f64,
            p50: pct(0.5),
            p90: pct(0.9),
            p99: pct(0.99),
            max: self.max,
            sum: self.sum,
        })
    }
}

/// `x` rounded to 3 significant digits (the key of a time in [`Counted`]).
pub fn three_digits(x: u64) -> u64 {
    let mut p = 1u64;
    while x / p >= 1000 {
        p *= 10;
    }
    (x + p / 2) / p * p
}

/// The key of a time of `ms` milliseconds: nanoseconds rounded to 3 significant digits
/// (scale 1e-6 back to milliseconds).
pub fn ms_key(ms: f64) -> u64 {
    three_digits((ms * 1e6).round().max(0.0) as u64)
}

/// Mean, median and max of a count.
#[derive(Serialize, Clone, Copy, Debug, Default)]
pub struct Spread {
    /// Arithmetic mean.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub mean: f64,
    /// Median (the mean of the two middle values when their number is even).
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub median: f64,
    /// Maximum.
    #[serde(serialize_with = "crate::bench::tidy::f64")]
    pub max: f64,
}

impl Spread {
    /// Spread of the values counted in `c` (keys are the values); `None` when `c` is empty
    /// (nothing solved).
    pub fn of(c: &Counted) -> Option<Spread> {
        if c.is_empty() {
            return None;
        }
        let n = c.len();
        let kth = |k| c.kth(k).unwrap_or_default() as f64;
        let median = if n % 2 == 1 {
            kth(n / 2 + 1)
        } else {
            (kth(n / 2) + kth(n / 2 + 1)) / 2.0
        };
        let d = c.distribution(1.0)?;
        Some(Spread {
            mean: d.mean,
            median,
            max: d.max,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scaling keeps the counts, scales the sum, the max and each key (3 digits kept).
    #[test]
    fn scaled_values_keep_their_counts() {
        let mut c = Counted::default();
        for ms in [1.0, 2.0, 2.0, 10.0] {
            c.add(ms_key(ms), ms);
        }
        let h = c.scaled(0.5);
        assert_eq!(h.len(), 4);
        assert_eq!((h.sum(), h.max), (7.5, 5.0));
        let d = h.distribution(1e-6).unwrap();
        assert_eq!((d.p50, d.p90, d.max), (1.0, 5.0, 5.0));
        assert_eq!(h.counts().map(|(_, n)| n).collect::<Vec<_>>(), [1, 2, 1]);
    }

    #[test]
    fn percentiles_are_kth_smallest() {
        let mut c = Counted::default();
        for v in 1..=100u64 {
            c.add(v, v as f64);
        }
        let d = c.distribution(1.0).unwrap();
        assert_eq!((d.p50, d.p90, d.p99, d.max), (50.0, 90.0, 99.0, 100.0));
        assert_eq!(d.mean, 50.5);
        let mut one = Counted::default();
        one.add(7, 7.0);
        let d = one.distribution(1.0).unwrap();
        assert_eq!((d.p50, d.p99, d.count), (7.0, 7.0, 1));
        assert!(Counted::default().distribution(1.0).is_none());
    }

    #[test]
    fn merged_counts_add_up() {
        let (mut a, mut b) = (Counted::default(), Counted::default());
        a.add(1, 1.0);
        b.add(1, 1.0);
        b.add(5, 5.0);
        a.merge(&b);
        assert_eq!(a.counts().collect::<Vec<_>>(), vec![(1, 2), (5, 1)]);
        assert_eq!((a.len(), a.kth(3)), (3, Some(5)));
    }

    /// Rounded time keys: percentiles never above the maximum, and in milliseconds without
    /// float noise.
    #[test]
    fn time_percentiles_are_clean_and_at_most_the_max() {
        let mut c = Counted::default();
        for ms in [0.101, 0.1012, 1.0094] {
            c.add(ms_key(ms), ms);
        }
        let d = c.distribution(1e-6).unwrap();
        assert_eq!(d.p50.to_string(), "0.101");
        assert_eq!(
            (d.p99, d.max),
            (1.0094, 1.0094),
            "the key 1.01 exceeds the max"
        );
    }

    #[test]
    fn times_keep_three_digits() {
        assert_eq!(three_digits(123_456), 123_000);
        assert_eq!(three_digits(999), 999);
        assert_eq!(ms_key(0.1234), 123_000);
    }
}
