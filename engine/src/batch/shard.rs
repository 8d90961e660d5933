//! Which deals a shard owns: `--shard I/N` takes the I-th of N interleaved blocks of the range.

use std::fmt;

/// A shard spec: the `index`-th (1-based) of `count` shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1..=count.
    pub index: u64,
    /// Number of shards, at least 1.
    pub count: u64,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Most shards `--shard` accepts (Slurm's own array limit is far below).
pub const MAX_SHARDS: u64 = 1_000_000;

/// Parse `I/N` (1 <= I <= N <= [`MAX_SHARDS`]); clap's value parser, so `9/8` is a usage error.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("shard `{s}` is not I/N (e.g. 3/8: the third of eight shards)"))?;
    let num = |t: &str, what: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("shard `{s}`: {what} `{t}` is not a number"))
    };
    let (index, count) = (num(i, "I")?, num(n, "N")?);
    if count == 0 || count > MAX_SHARDS {
        return Err(format!("shard `{s}`: N must be 1..={MAX_SHARDS}"));
    }
    if index == 0 || index > count {
        return Err(format!(
            "shard `{s}`: I must be 1..={count} (shards are numbered from 1)"
        ));
    }
    Ok(Shard { index, count })
}

/// Largest block `--block` defaults to.
pub const DEFAULT_BLOCK: u64 = 1000;

/// The block size when `--block` is not given: [`DEFAULT_BLOCK`] deals, or fewer when the
/// range is too short for every one of `count` shards to get a block of that size (then
/// `len / count`, so that every shard gets at least one block and the shards of a range
/// that `count` divides hold equal numbers of deals). Depends only on the range and the
/// number of shards, so all shards of one run agree.
pub fn default_block(a: u64, b: u64, count: u64) -> u64 {
    let len = b - a + 1;
    (len / count).clamp(1, DEFAULT_BLOCK)
}

/// Why the shards would not all hold deals (more shards than blocks), if they would not:
/// every shard of such a run is refused alike, the ones that would hold deals too, so that
/// a job array of too many tasks fails in every task at once (not tasks 1..10 of 1025 over
/// ten deals running and the others failing).
pub fn why_empty(a: u64, b: u64, block: u64, shard: Shard) -> Option<String> {
    let nblocks = (b - a) / block + 1;
    if shard.count <= nblocks {
        return None;
    }
    let len = b - a + 1;
    let fix = if len < shard.count {
        format!("use at most {len} shards")
    } else {
        let most = len / shard.count;
        let block = if most == 1 {
            "use --block 1".to_string()
        } else {
            format!("use --block {most} or less")
        };
        format!(
            "{block}, or at most {}",
            fcauto_deals::plural(nblocks, "shard")
        )
    };
    let empty = match nblocks + 1 == shard.count {
        true => format!("shard {}", shard.count),
        false => format!("shards {}..{}", nblocks + 1, shard.count),
    };
    Some(format!(
        "{} shards of {a}..{b} are too many: in blocks of {} the range makes {}, so {empty} \
         would hold no deal; {fix}",
        shard.count,
        fcauto_deals::plural(block, "deal"),
        fcauto_deals::plural(nblocks, "block"),
    ))
}

/// The blocks of deals a shard owns, ascending: block k (0-based) of `a..=b` is
/// `a + k*block ..= min(b, a + (k+1)*block - 1)` and belongs to shard `k % count + 1`.
pub fn blocks(a: u64, b: u64, block: u64, shard: Shard) -> impl Iterator<Item = (u64, u64)> {
    let nblocks = (b - a) / block + 1;
    (shard.index - 1..nblocks)
        .step_by(shard.count as usize)
        .map(move |k| (a + k * block, b.min(a + k * block + (block - 1))))
}

/// Number of deals a shard owns.
pub fn deals_in(a: u64, b: u64, block: u64, shard: Shard) -> u64 {
    blocks(a, b, block, shard).map(|(lo, hi)| hi - lo + 1).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_range() {
        for (a, b, block, n) in [
            (1, 20000, 1000, 8),
            (5, 5, 7, 3),
            (1, 100, 7, 4),
            (10, 99, 1, 9),
        ] {
            let mut seen = vec![];
            for i in 1..=n {
                let s = Shard { index: i, count: n };
                let mine: Vec<u64> = blocks(a, b, block, s)
                    .flat_map(|(lo, hi)| lo..=hi)
                    .collect();
                assert_eq!(mine.len() as u64, deals_in(a, b, block, s));
                for d in &mine {
                    assert_eq!(((d - a) / block) % n, i - 1, "deal {d} in shard {s}");
                }
                seen.extend(mine);
            }
            seen.sort();
            assert_eq!(
                seen,
                (a..=b).collect::<Vec<_>>(),
                "{a}..{b} block {block} n {n}"
            );
        }
    }

    #[test]
    fn default_blocks_give_every_shard_deals() {
        for (a, b, n) in [
            (1, 32000, 64),
            (1, 1_000_000, 100),
            (1, 9, 6),
            (3, 3, 1),
            (1, 20000, 8),
        ] {
            let block = default_block(a, b, n);
            assert!((1..=DEFAULT_BLOCK).contains(&block));
            for i in 1..=n {
                let s = Shard { index: i, count: n };
                assert!(deals_in(a, b, block, s) > 0, "{a}..{b} {s} block {block}");
                assert_eq!(why_empty(a, b, block, s), None);
            }
        }
        assert_eq!(default_block(1, 32000, 64), 500);
        assert_eq!(default_block(1, 1_000_000, 8), 1000);
        let s = Shard {
            index: 33,
            count: 64,
        };
        assert_eq!(deals_in(1, 32000, 1000, s), 0);
        assert!(why_empty(1, 32000, 1000, s)
            .unwrap()
            .contains("--block 500 or less"));
        // A block of one deal is the least (never "--block 1 or less").
        let s = Shard { index: 5, count: 8 };
        let why = why_empty(1, 10, 5, s).unwrap();
        assert!(why.contains("use --block 1, or at most 2 shards"), "{why}");
        // Every shard of too many is refused, those that would hold deals too.
        for index in [1, 10, 11, 1025] {
            let s = Shard { index, count: 1025 };
            let why = why_empty(1, 10, 1, s).unwrap();
            assert!(why.contains("shards 11..1025 would hold no deal"), "{why}");
            assert!(why.contains("use at most 10 shards"), "{why}");
        }
    }

    #[test]
    fn shard_specs() {
        assert_eq!(parse_shard("3/8"), Ok(Shard { index: 3, count: 8 }));
        for bad in ["9/8", "0/8", "1/0", "8", "a/b", "-1/8", "1/2/3"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
        assert!(parse_shard("9/8").unwrap_err().contains("1..=8"));
    }
}
