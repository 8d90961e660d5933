//! The layered complete search (test builds only: a measuring harness, not a mode): the
//! complete search split into layers of a measure no move ever lowers, so that only one
//! layer's visited set is in memory at a time. On the 2-freecell deals the complete search
//! leaves undecided most positions share one layer (docs/benchmarks.md), so the solver keeps
//! the plain depth-first search.
//!
//! The measure ([`level`]) is the cards on the foundations plus the *junk pairs* broken: a
//! junk pair is two adjacent cards of a cascade where the upper does not build on the lower
//! (only a deal makes them). No move makes a junk pair (a card or a run is put only onto a
//! card it builds on or onto an empty cascade, and a moved run is in build order), and no
//! move takes a card off a foundation, so a move keeps the level or raises it. A position
//! can therefore never be reached again from a higher level: the search visits the levels
//! in order, each one depth first from its *entries* (the positions a lower level's moves
//! reached), sets entries of higher levels aside, and frees a level's visited set when it is
//! done. The positions visited are exactly those of the plain complete search; only the
//! memory differs (the visited set of one level, plus the entries waiting above it).
//!
//! A win is reported with its moves: from the winning level's entry the depth-first search
//! has them; the way to that entry is found again one level at a time (a run from the start
//! that stops where the entry is first reached names the lower level's entry whose search
//! reached it, and so on down to the start), so no path is stored while searching.

use super::moves::{auto_play, generate};
use super::state::{builds, Pos, M};
use super::table::Seen;
use fcauto_deals::Rules;

/// Levels: 52 foundation cards and at most 51 junk pairs.
const LEVELS: usize = 104;

/// The position's level: cards home plus junk pairs broken (`junk0` the start's pairs).
pub(crate) fn level(p: &Pos, rules: &Rules, junk0: usize) -> usize {
    p.home() + junk0 - junk(p, rules)
}

/// Adjacent cascade cards where the upper does not build on the lower.
pub(crate) fn junk(p: &Pos, rules: &Rules) -> usize {
    (0..p.ncasc)
        .map(|i| {
            let col = p.col(i);
            col.windows(2)
                .filter(|w| !builds(rules.build, w[0], w[1]))
                .count()
        })
        .sum()
}

/// The entries waiting for one level: their packed positions ([`Pos::pack_trimmed`]) and
/// their fingerprints, so that each is stored once.
#[derive(Default)]
struct Entries {
    seen: Option<Seen>,
    bytes: Vec<u8>,
    count: usize,
}

impl Entries {
    /// Store `p` unless it is stored already; true when stored now.
    fn add(&mut self, p: &Pos, fp: u128) -> bool {
        let new = self.seen.get_or_insert_with(Seen::small).insert(fp);
        if new {
            p.pack_trimmed(&mut self.bytes);
            self.count += 1;
        }
        new
    }
}

/// How a layered search ended.
pub(crate) enum End {
    /// Won: every move from the start, auto-moves included.
    Solved(Vec<M>),
    /// Every reachable position was visited.
    Exhausted,
    /// A level's visited set, or the entries waiting, reached the limit.
    Limit,
}

/// What a layered search did: positions visited (all levels), the largest level's visited
/// set, and the most positions held at once (a level's visited set and the entries above).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Work {
    pub visited: usize,
    pub widest: usize,
    pub peak: usize,
}

/// Search from `start` until a win, exhaustion, or `max_held` positions held at once (one
/// level's visited set plus the entries waiting above it).
pub(crate) fn search(start: &Pos, rules: &Rules, max_held: usize) -> (End, Work) {
    let mut run = Run::new(start, rules, max_held, None);
    let end = run.levels();
    let work = run.work;
    match end {
        Found::Win { level, entry, tail } => {
            let mut moves = run.first;
            moves.extend(path_to(start, rules, level, &entry));
            moves.extend(tail);
            (End::Solved(moves), work)
        }
        Found::Nothing => (End::Exhausted, work),
        Found::Limit => (End::Limit, work),
        Found::Target { .. } => unreachable!("no target was set"),
    }
}

/// The moves from `start` (auto-moves played) to `entry`, an entry of `level`: found back
/// one level at a time, each by a run that stops where the entry is first reached.
fn path_to(start: &Pos, rules: &Rules, level: usize, entry: &Pos) -> Vec<M> {
    let mut tails: Vec<Vec<M>> = Vec::new();
    let mut target = entry.clone();
    let mut target_level = level;
    loop {
        let mut run = Run::new(
            start,
            rules,
            usize::MAX,
            Some((target_level, target.clone())),
        );
        if run.first_level == target_level && run.root.fingerprint() == target.fingerprint() {
            break;
        }
        match run.levels() {
            Found::Target { level, entry, tail } => {
                tails.push(tail);
                if run.first_level == level && run.root.fingerprint() == entry.fingerprint() {
                    break;
                }
                target = entry;
                target_level = level;
            }
            _ => unreachable!("an entry found once is found again"),
        }
    }
    tails.into_iter().rev().flatten().collect()
}

/// What a run of the levels found.
enum Found {
    /// A won position, reached from `entry` (of `level`) by `tail`.
    Win {
        level: usize,
        entry: Pos,
        tail: Vec<M>,
    },
    /// The target entry, reached from `entry` (of `level`) by `tail`.
    Target {
        level: usize,
        entry: Pos,
        tail: Vec<M>,
    },
    Nothing,
    Limit,
}

/// One run over the levels from the start.
struct Run<'a> {
    rules: &'a Rules,
    root: Pos,
    /// The start's auto-moves.
    first: Vec<M>,
    first_level: usize,
    junk0: usize,
    waiting: Vec<Entries>,
    /// Entries stored in `waiting`, all levels.
    held: usize,
    max_held: usize,
    /// When finding a way back: the level and position of the entry sought.
    target: Option<(usize, u128)>,
    work: Work,
}

impl<'a> Run<'a> {
    fn new(start: &Pos, rules: &'a Rules, max_held: usize, target: Option<(usize, Pos)>) -> Self {
        let mut root = start.clone();
        let junk0 = junk(&root, rules);
        let mut first = Vec::new();
        auto_play(&mut root, rules, &mut first);
        let first_level = level(&root, rules, junk0);
        let mut waiting: Vec<Entries> = (0..LEVELS).map(|_| Entries::default()).collect();
        waiting[first_level].add(&root, root.fingerprint());
        Run {
            rules,
            first_level,
            root,
            first,
            junk0,
            waiting,
            held: 1,
            max_held,
            target: target.map(|(l, p)| (l, p.fingerprint())),
            work: Work::default(),
        }
    }

    /// Search each level in turn, lowest first.
    fn levels(&mut self) -> Found {
        if self.root.home() == 52 {
            return Found::Win {
                level: self.first_level,
                entry: self.root.clone(),
                tail: Vec::new(),
            };
        }
        for lv in self.first_level..LEVELS {
            let entries = std::mem::take(&mut self.waiting[lv]);
            self.held -= entries.count;
            if entries.count == 0 {
                continue;
            }
            let found = self.level(lv, &entries.bytes);
            if !matches!(found, Found::Nothing) {
                return found;
            }
        }
        Found::Nothing
    }

    /// Search level `lv` depth first from each of its entries in turn.
    fn level(&mut self, lv: usize, bytes: &[u8]) -> Found {
        let (ncasc, ncells) = (self.root.ncasc, self.root.ncells);
        let mut seen = Seen::new();
        let mut at = 0;
        let mut found = Found::Nothing;
        while at < bytes.len() {
            let len = Pos::trimmed_len(&bytes[at..], ncasc);
            let entry = Pos::unpack(&bytes[at..at + len], ncasc, ncells);
            at += len;
            if !seen.insert(entry.fingerprint()) {
                continue;
            }
            found = self.search_level_from(lv, &entry, &mut seen);
            if !matches!(found, Found::Nothing) {
                break;
            }
        }
        self.work.visited += seen.len();
        self.work.widest = self.work.widest.max(seen.len());
        found
    }
}

struct Frame {
    next: usize,
    end: usize,
    undo_to: usize,
}

impl Run<'_> {
    /// The depth-first search of level `lv` from `entry` (already in `seen`): positions of
    /// the level go on, positions of higher levels wait as their levels' entries.
    fn search_level_from(&mut self, lv: usize, entry: &Pos, seen: &mut Seen) -> Found {
        let rules = self.rules;
        let mut p = entry.clone();
        let mut log: Vec<M> = Vec::with_capacity(256);
        let mut moves: Vec<M> = Vec::with_capacity(4096);
        generate(&p, rules, &mut moves);
        let mut frames = vec![Frame {
            next: 0,
            end: moves.len(),
            undo_to: 0,
        }];
        while let Some(f) = frames.last_mut() {
            if f.next == f.end {
                let undo_to = f.undo_to;
                frames.pop();
                if let Some(parent) = frames.last() {
                    moves.truncate(parent.end);
                }
                unwind(&mut p, &mut log, undo_to);
                continue;
            }
            let m = moves[f.next];
            f.next += 1;
            let before = log.len();
            p.apply(m);
            log.push(m);
            auto_play(&mut p, rules, &mut log);
            let fp = p.fingerprint();
            let child = level(&p, rules, self.junk0);
            debug_assert!(child >= lv, "a move lowered the level");
            if child > lv {
                if let Some(found) = self.higher(lv, child, &p, fp, entry, &log) {
                    return found;
                }
                unwind(&mut p, &mut log, before);
            } else if !seen.insert(fp) {
                unwind(&mut p, &mut log, before);
                continue;
            }
            if seen.len() + self.held >= self.max_held {
                return Found::Limit;
            }
            if child > lv {
                continue;
            }
            self.work.peak = self.work.peak.max(seen.len() + self.held);
            let start = moves.len();
            generate(&p, rules, &mut moves);
            frames.push(Frame {
                next: start,
                end: moves.len(),
                undo_to: before,
            });
        }
        Found::Nothing
    }

    /// A child `p` of a higher level `child`: a win, the target sought, or an entry to wait.
    fn higher(
        &mut self,
        lv: usize,
        child: usize,
        p: &Pos,
        fp: u128,
        entry: &Pos,
        log: &[M],
    ) -> Option<Found> {
        let tail = || (lv, entry.clone(), log.to_vec());
        if self.target == Some((child, fp)) {
            let (level, entry, tail) = tail();
            return Some(Found::Target { level, entry, tail });
        }
        if p.home() == 52 && self.target.is_none() {
            let (level, entry, tail) = tail();
            return Some(Found::Win { level, entry, tail });
        }
        if self.waiting[child].add(p, fp) {
            self.held += 1;
        }
        None
    }
}

/// Take back moves until the log is `len` long.
fn unwind(p: &mut Pos, log: &mut Vec<M>, len: usize) {
    while log.len() > len {
        let m = log.pop().expect("a move to take back");
        p.undo(m);
    }
}
