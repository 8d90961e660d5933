//! How `batch run` writes: which deals of a block are still to solve ([`unstored`]), and
//! the rows finished but not yet committed ([`Committer`]), written in one transaction when
//! enough of them wait or the oldest has waited long enough, so that a killed run loses only
//! the rows of the last moments and a busy one does not commit row by row; and what a run
//! added ([`Tally`]).

use super::schema::ResultRow;
use super::store::Store;
use anyhow::Result;
use std::time::{Duration, Instant};

/// Rows per transaction at most.
pub const COMMIT_ROWS: usize = 2000;
/// Longest time a finished row waits before it is committed.
pub const COMMIT_EVERY: Duration = Duration::from_millis(500);

/// The deals of `lo..=hi` that `store` does not hold yet, ascending.
///
/// # Errors
/// The database cannot be read.
pub fn unstored(store: &Store, lo: u64, hi: u64) -> Result<Vec<u64>> {
    let stored = store.stored_in(lo, hi)?;
    let mut it = stored.into_iter().peekable();
    Ok((lo..=hi)
        .filter(|d| {
            if it.peek() == Some(d) {
                it.next();
                false
            } else {
                true
            }
        })
        .collect())
}

/// Rows waiting to be committed, and when the last commit was.
pub struct Committer {
    /// The rows received and not yet committed.
    pub rows: Vec<ResultRow>,
    last: Instant,
}

impl Default for Committer {
    fn default() -> Self {
        Committer {
            rows: Vec::new(),
            last: Instant::now(),
        }
    }
}

impl Committer {
    /// Commit when forced, when [`COMMIT_ROWS`] rows wait, or when the oldest waited
    /// [`COMMIT_EVERY`].
    ///
    /// # Errors
    /// The rows cannot be written (they stay waiting).
    pub fn maybe_commit(&mut self, store: &mut Store, force: bool) -> Result<()> {
        let due = self.rows.len() >= COMMIT_ROWS || self.last.elapsed() >= COMMIT_EVERY;
        if !self.rows.is_empty() && (force || due) {
            store.insert(&self.rows)?;
            self.rows.clear();
        }
        if force || due {
            self.last = Instant::now();
        }
        Ok(())
    }
}

/// What a run added: rows stored, solved, and the deals found unsolvable or left unknown.
#[derive(Default)]
pub struct Tally {
    /// Rows stored.
    pub stored: u64,
    /// Of them, solved.
    pub solved: u64,
    unsolvable: Vec<u64>,
    unknown: Vec<u64>,
}

impl Tally {
    /// Count row `r`.
    pub fn count(&mut self, r: &ResultRow) {
        self.stored += 1;
        match r.verdict {
            "solved" => self.solved += 1,
            "unsolvable" => self.unsolvable.push(r.deal),
            _ => self.unknown.push(r.deal),
        }
    }

    /// The deals found unsolvable, ascending (workers finish deals out of order).
    pub fn sorted_unsolvable(&self) -> Vec<u64> {
        sorted(&self.unsolvable)
    }

    /// The deals a limit stopped, ascending.
    pub fn sorted_unknown(&self) -> Vec<u64> {
        sorted(&self.unknown)
    }
}

/// `v` ascending.
fn sorted(v: &[u64]) -> Vec<u64> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}
