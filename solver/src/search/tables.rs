//! The tables a first-solution best-first search works in (`best_first.rs`,
//! `packed_first.rs`): its stored positions, closed set, open list and move buffer,
//! kept per thread and reused by every search the thread runs, so that a try allocates
//! nothing (and touches no new page) once the thread's largest search has run.

use super::table::Closed;
use crate::moves::Move;
use std::cell::RefCell;
use std::thread::LocalKey;

/// Most positions whose tables a thread keeps between searches (1.5 to 4 MiB, with the
/// states of `best_first.rs`): the memory of a search that stored more is given back
/// when it ends, so that a long-lived process with many threads (`serve`, `mcp`) does not
/// hold the largest search's tables per thread.
pub(super) const KEEP_POSITIONS: usize = 1 << 14;

/// Most positions whose storage is reserved up front (a larger search grows its tables).
pub(super) const RESERVE_MAX: usize = 200_000;

/// One search's tables over stored positions of type `N` (their indices are the open list's
/// and the parents' references).
pub(super) struct Tables<N> {
    /// Stored positions, in the order they were stored (the root first).
    pub nodes: Vec<N>,
    /// Fingerprints of every position stored, in the table of the search's key width.
    pub closed: Closed,
    /// Stored positions not yet expanded.
    pub open: OpenList,
    /// The moves of the position being expanded.
    pub moves: Vec<Move>,
}

impl<N> Default for Tables<N> {
    fn default() -> Self {
        Tables {
            nodes: Vec::new(),
            closed: Closed::default(),
            open: OpenList::default(),
            moves: Vec::new(),
        }
    }
}

impl<N> Tables<N> {
    /// Empty every table for a new search storing at most `max_states` positions, with room
    /// for them reserved ([`reserve`]).
    pub fn start(&mut self, max_states: usize) {
        self.nodes.clear();
        self.closed.clear();
        self.open.clear();
        self.moves.clear();
        reserve(&mut self.nodes, max_states);
    }

    /// True when the search just run stored more positions than a thread keeps
    /// ([`KEEP_POSITIONS`]). Room reserved but not used does not count: its pages never
    /// became resident, and keeping it lets the next search reuse the buffers (`fast`'s
    /// first try reserves 20,000 positions, so counting capacity dropped and remade every
    /// deal's tables).
    pub fn oversized(&self) -> bool {
        self.nodes.len() > KEEP_POSITIONS
    }
}

/// Give the empty `v` room for a search storing at most `max_states` positions (up to
/// [`RESERVE_MAX`]), up front: pages become resident only when used, and no growth step
/// ever holds an old and a new copy at once (that doubled peak memory). A fresh buffer
/// when it must grow (`reserve` would copy the old one, empty or not).
pub(super) fn reserve<T>(v: &mut Vec<T>, max_states: usize) {
    let want = max_states.min(RESERVE_MAX) + 64;
    if v.capacity() < want {
        *v = Vec::with_capacity(want);
    }
}

/// A thread's tables, which know when they hold more memory than a thread keeps.
pub(super) trait Reusable: Default {
    /// True when they should be given back after the search ([`KEEP_POSITIONS`]).
    fn oversized(&self) -> bool;
}

impl<N> Reusable for Tables<N> {
    fn oversized(&self) -> bool {
        Tables::oversized(self)
    }
}

/// Run `search` in this thread's tables `key`, then give their memory back if the search
/// outgrew [`KEEP_POSITIONS`]. A nested search (none today) gets fresh tables.
pub(super) fn in_thread_tables<W: Reusable, R>(
    key: &'static LocalKey<RefCell<W>>,
    search: impl FnOnce(&mut W) -> R,
) -> R {
    key.with(|ws| match ws.try_borrow_mut() {
        Ok(mut ws) => {
            let r = search(&mut ws);
            if ws.oversized() {
                *ws = W::default();
            }
            r
        }
        Err(_) => search(&mut W::default()),
    })
}

/// No position (end of a bucket's stack).
pub(super) const NONE: u32 = u32::MAX;
/// Added to priorities to index buckets (priorities are small integers, rarely negative).
const PRIO_OFFSET: i64 = 1 << 10;

/// The open list: a bucket queue over integer priorities, lowest first, each bucket a stack
/// threaded through the positions (each position enters the open list once), so that
/// among equal priorities the newest position comes first.
#[derive(Default)]
pub(super) struct OpenList {
    /// Per bucket: the newest position in it, or [`NONE`].
    head: Vec<u32>,
    /// Per position: the position below it in its bucket, or [`NONE`].
    next: Vec<u32>,
    /// No non-empty bucket lies below this one.
    min: usize,
    len: usize,
}

impl OpenList {
    /// Empty it, keeping its memory. Its buckets stay allocated and empty ([`NONE`]) from one
    /// search to the next: only those from the lowest that may still hold a position on are
    /// emptied (a search's buckets lie in a narrow band above [`PRIO_OFFSET`], which a new
    /// search would otherwise fill anew).
    pub(super) fn clear(&mut self) {
        let from = self.min.min(self.head.len());
        self.head[from..].fill(NONE);
        self.next.clear();
        self.min = usize::MAX;
        self.len = 0;
    }

    #[inline]
    pub(super) fn push(&mut self, priority: i64, idx: usize) {
        let b = (priority + PRIO_OFFSET).max(0) as usize;
        if b >= self.head.len() {
            self.head.resize(b + 1, NONE);
        }
        // Positions enter in the order they are stored, each once: `idx` is the next one.
        debug_assert_eq!(idx, self.next.len());
        self.next.push(self.head[b]);
        self.head[b] = idx as u32;
        self.min = self.min.min(b);
        self.len += 1;
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        while self.head[self.min] == NONE {
            self.min += 1;
        }
        let idx = self.head[self.min];
        self.head[self.min] = self.next[idx as usize];
        self.len -= 1;
        Some(idx as usize)
    }
}

/// Progress of a search with a stall limit: the most cards home in an expanded position,
/// and when that was first reached.
#[derive(Default)]
pub(super) struct Progress {
    most_home: u32,
    progress_at: u64,
}

impl Progress {
    /// Note an expanded position with `home` cards home, the `expanded`-th: true when
    /// more than `stall` positions have been expanded since the most cards home rose.
    #[inline(always)]
    pub(super) fn stalled(&mut self, home: u32, expanded: u64, stall: u64) -> bool {
        if home > self.most_home {
            (self.most_home, self.progress_at) = (home, expanded);
            false
        } else {
            expanded - self.progress_at > stall
        }
    }
}
