//! Legal move generation for the search, and safe auto-play to the foundations.
//!
//! Generated moves: cascade/freecell → foundation; freecell → cascade (onto a fitting card,
//! or into the first empty cascade only: empty cascades are interchangeable); cascade →
//! cascade for every run size that fits the destination within the supermove limit (into
//! the first empty cascade, every run size up to the limit except the whole cascade, which
//! would only swap two cascades); cascade top → the first free freecell. The single-card
//! moves among these are all of FreeCell's atomic moves up to the symmetry of freecells and
//! of empty cascades, so a search over them that runs out of positions has proved the deal
//! unsolvable. [`generate_pruned`] is a subset for `fast` mode's first tries (no proof).
//!
//! After each move a search makes auto-moves of its own: auto-play homes cards by an
//! [`AutoPlay`] rule ([`autoplay_by`]), and `fast`'s tries over the reduced move set also
//! unpark ([`unpark_by`]: a freecell card whose parent tops a cascade goes onto it).

use crate::moves::{supermove_limit, Loc, Move};
use crate::state::{fits, rank, red, suit, State, EMPTY};
use fcauto_deals::{CASCADES, FREECELLS};

/// What move generation and auto-play read of a position: [`State`]'s card arrays, or a
/// packed position read through its starting cascades ([`crate::packed::View`]), so that
/// one generator serves both.
pub trait Tableau {
    /// Cards in cascade `i`.
    fn height(&self, i: usize) -> usize;
    /// Card `k` of cascade `i`, counted from its deepest (`k < height(i)`).
    fn card(&self, i: usize, k: usize) -> u8;
    /// Top card of cascade `i`, [`EMPTY`] if none.
    fn top_card(&self, i: usize) -> u8;
    /// Freecell `j`'s card, [`EMPTY`] if free.
    fn cell(&self, j: usize) -> u8;
    /// Cards home per suit (C D H S).
    fn foundations(&self) -> [u8; 4];
    /// The length of cascade `i`'s top sequence (its top card and the cards under it that
    /// each lie on a card they fit), or `max` if that is less (0 for an empty cascade).
    #[inline(always)]
    fn sequence_len(&self, i: usize, max: usize) -> usize {
        let l = self.height(i);
        let mut n = 0;
        while n < max && n < l && (n == 0 || fits(self.card(i, l - n - 1), self.card(i, l - n))) {
            n += 1;
        }
        n
    }
}

/// What auto-play changes of a position.
pub trait TableauMut: Tableau {
    /// Move cascade `i`'s top card to its foundation.
    fn home_from_cascade(&mut self, i: usize);
    /// Move freecell `j`'s card to its foundation.
    fn home_from_cell(&mut self, j: usize);
    /// Move freecell `j`'s card onto cascade `k` (whose top card it fits on).
    fn cell_to_cascade(&mut self, j: usize, k: usize);
}

impl Tableau for State {
    #[inline(always)]
    fn height(&self, i: usize) -> usize {
        self.len[i] as usize
    }
    #[inline(always)]
    fn card(&self, i: usize, k: usize) -> u8 {
        self.cols[i][k]
    }
    #[inline(always)]
    fn top_card(&self, i: usize) -> u8 {
        self.top(i).unwrap_or(EMPTY)
    }
    #[inline(always)]
    fn cell(&self, j: usize) -> u8 {
        self.cells[j]
    }
    #[inline(always)]
    fn foundations(&self) -> [u8; 4] {
        self.found
    }
}

impl TableauMut for State {
    #[inline(always)]
    fn home_from_cascade(&mut self, i: usize) {
        let l = self.len[i] as usize - 1;
        let t = self.cols[i][l];
        self.len[i] = l as u8;
        self.cols[i][l] = 0; // keep the bytes above the top zero
        self.found[suit(t) as usize] += 1;
    }
    #[inline(always)]
    fn home_from_cell(&mut self, j: usize) {
        let c = std::mem::replace(&mut self.cells[j], EMPTY);
        self.found[suit(c) as usize] += 1;
    }
    #[inline(always)]
    fn cell_to_cascade(&mut self, j: usize, k: usize) {
        let c = std::mem::replace(&mut self.cells[j], EMPTY);
        let l = self.len[k] as usize;
        self.cols[k][l] = c;
        self.len[k] = l as u8 + 1;
    }
}

/// Append every legal move of `s` to `out` (see the module docs).
/// With `atomic`, only single-card moves are generated (the move model of optimal search).
#[inline]
pub fn generate(s: &State, atomic: bool, out: &mut Vec<Move>) {
    generate_model::<false>(s, atomic, false, out)
}

/// [`generate`], and with `narrow_empty` a sequence move into an empty cascade carries at
/// most free freecells + 1 cards (other empty cascades do not help): the move model of
/// Paul & Helmert's optimal solver, stricter than FreeCell's usual supermove limit.
pub fn generate_with(s: &State, atomic: bool, narrow_empty: bool, out: &mut Vec<Move>) {
    generate_model::<false>(s, atomic, narrow_empty, out)
}

/// `fast` mode's reduced move set: [`generate`] without the moves that split a run or fill
/// a freecell needlessly, which a first solution rarely needs. Dropped are:
/// - a cascade's top card to a freecell when it lies on a card it fits (it would break a
///   run that a supermove could carry whole), or when it could go onto another cascade
///   instead (keeping the freecell);
/// - part of a movable run onto a cascade when the whole movable run (as far as the
///   supermove limit allows) could go instead;
/// - into an empty cascade, any run but the longest movable one.
///
/// A run can still be split by moving its longest movable part, so most deals keep a
/// solution; but not all, and a search over these moves that runs dry proves nothing
/// (the search then falls back to [`generate`]).
#[inline]
pub fn generate_pruned(s: &State, out: &mut Vec<Move>) {
    generate_model::<true>(s, false, false, out)
}

/// Fill in which cascade (if any) has each card on top (`top_at`, left `u8::MAX` for none),
/// and each cascade's top card (`tops`, left `EMPTY` for none): the destinations of a card
/// are found by looking up the two cards it may be placed on, not by trying all cascades.
#[inline(always)]
fn tops_of(s: &impl Tableau, top_at: &mut [u8; 64], tops: &mut [u8; CASCADES]) {
    for (k, t) in tops.iter_mut().enumerate() {
        let d = s.top_card(k);
        if d != EMPTY {
            top_at[d as usize] = k as u8;
            *t = d;
        }
    }
}

/// The moves to the foundations (`found`: each suit's top rank): cascade tops in cascade
/// order, then freecells in order.
#[inline(always)]
fn to_foundations(s: &impl Tableau, tops: &[u8; CASCADES], found: [u8; 4], out: &mut Vec<Move>) {
    let can_home = |c: u8| found[suit(c) as usize] == rank(c);
    for (i, &t) in tops.iter().enumerate() {
        if t != EMPTY && can_home(t) {
            out.push(Move {
                from: Loc::Cascade(i as u8),
                to: Loc::Foundation,
                count: 1,
            });
        }
    }
    for j in 0..FREECELLS {
        let c = s.cell(j);
        if c != EMPTY && can_home(c) {
            out.push(Move {
                from: Loc::Freecell(j as u8),
                to: Loc::Foundation,
                count: 1,
            });
        }
    }
}

/// Freecell → cascade: onto the cascades topped by its two parents, or the first empty
/// one, in cascade order.
#[inline(always)]
fn freecells_to_cascades(
    s: &impl Tableau,
    top_at: &[u8; 64],
    first_empty: Option<usize>,
    out: &mut Vec<Move>,
) {
    for j in 0..FREECELLS {
        let c = s.cell(j);
        if c == EMPTY {
            continue;
        }
        let mut dest = parents(c).map(|p| top_at[p as usize]);
        let mut third = first_empty.map_or(u8::MAX, |k| k as u8);
        // Sort the three candidates (u8::MAX = none).
        if dest[0] > dest[1] {
            dest.swap(0, 1);
        }
        if third < dest[1] {
            std::mem::swap(&mut third, &mut dest[1]);
            if dest[0] > dest[1] {
                dest.swap(0, 1);
            }
        }
        for k in [dest[0], dest[1], third] {
            if k != u8::MAX {
                out.push(Move {
                    from: Loc::Freecell(j as u8),
                    to: Loc::Cascade(k),
                    count: 1,
                });
            }
        }
    }
}

/// The longest run that may move onto a non-empty cascade and onto an empty one, with
/// `free` free freecells and `empty` empty cascades: one card each if `atomic`; onto an
/// empty cascade at most `free + 1` if `narrow_empty` (Paul & Helmert's model).
#[inline(always)]
fn run_limits(free: usize, empty: usize, atomic: bool, narrow_empty: bool) -> (usize, usize) {
    if atomic {
        (1, 1)
    } else {
        (
            supermove_limit(free, empty, false),
            if narrow_empty {
                free + 1
            } else {
                supermove_limit(free, empty, true)
            },
        )
    }
}

/// Where the top cards of cascade `i` (`l` cards high, top card `top`) land, walking down
/// its movable run of `run` cards: the run size that lands on each destination cascade (byte k for cascade
/// k), the destinations found (bit k), and whether the top card alone lands somewhere.
/// With `PRUNE` only the top card and the whole run are looked at: the reduced move set
/// moves only whole runs onto a cascade, and asks only where the top card alone lands (a
/// part of the run that lands somewhere makes no move).
#[inline(always)]
fn landings<const PRUNE: bool>(
    s: &impl Tableau,
    i: usize,
    top: u8,
    l: usize,
    run: usize,
    top_at: &[u8; 64],
) -> (u64, u8, bool) {
    let (mut dest_n, mut targets, mut top_lands) = (0u64, 0u8, false);
    let mut n = 1;
    while n <= run {
        let c = if n == 1 { top } else { s.card(i, l - n) };
        for p in parents(c) {
            let k = top_at[p as usize];
            if k != u8::MAX {
                dest_n |= (n as u64) << (8 * k);
                targets |= 1 << k;
                top_lands |= n == 1;
            }
        }
        // The reduced set skips from the top card to the whole run.
        n = if PRUNE && n == 1 { run.max(2) } else { n + 1 };
    }
    (dest_n, targets, top_lands)
}

/// The generator behind [`generate`], [`generate_with`] and (with `PRUNE`)
/// [`generate_pruned`].
#[inline(always)]
pub(crate) fn generate_model<const PRUNE: bool>(
    s: &impl Tableau,
    atomic: bool,
    narrow_empty: bool,
    out: &mut Vec<Move>,
) {
    let free = (0..FREECELLS).filter(|&j| s.cell(j) == EMPTY).count();
    let empty = (0..CASCADES).filter(|&i| s.height(i) == 0).count();
    let first_empty = (0..CASCADES).find(|&i| s.height(i) == 0);
    let first_free = (0..FREECELLS).find(|&j| s.cell(j) == EMPTY);
    let found = s.foundations();
    let (mut top_at, mut tops) = ([u8::MAX; 64], [EMPTY; CASCADES]);
    tops_of(s, &mut top_at, &mut tops);
    to_foundations(s, &tops, found, out);
    freecells_to_cascades(s, &top_at, first_empty, out);
    // Cascade → cascade.
    let (lim_full, lim_empty) = run_limits(free, empty, atomic, narrow_empty);
    for (i, &top) in tops.iter().enumerate() {
        let l = s.height(i);
        if l == 0 {
            continue;
        }
        // The top sequence (at least 2 long when the top card lies on a card it fits), and
        // the movable run: that sequence cut at the supermove limit.
        let seq = s.sequence_len(i, lim_full.max(2));
        let run = seq.min(lim_full);
        // Run size that lands on each destination cascade (byte k for cascade k), found
        // while walking down the movable run; the destinations found (bit k), and whether
        // the top card alone lands somewhere.
        let (dest_n, targets, top_lands) = landings::<PRUNE>(s, i, top, l, run, &top_at);
        let empty_target = first_empty.filter(|&k| k != i);
        // In cascade order: the destinations, and the first empty cascade.
        let mut candidates = targets | empty_target.map_or(0, |k| 1 << k);
        while candidates != 0 {
            let k = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let dn = (dest_n >> (8 * k)) as u8;
            if dn != 0 && !(PRUNE && (dn as usize) < run) {
                out.push(Move {
                    from: Loc::Cascade(i as u8),
                    to: Loc::Cascade(k as u8),
                    count: dn,
                });
            } else if Some(k) == empty_target {
                let max = run.min(lim_empty);
                for n in 1..=max {
                    if n == l {
                        break; // moving a whole cascade to an empty one changes nothing
                    }
                    if PRUNE && n < max {
                        continue; // only the longest movable run
                    }
                    out.push(Move {
                        from: Loc::Cascade(i as u8),
                        to: Loc::Cascade(k as u8),
                        count: n as u8,
                    });
                }
            }
        }
        // Cascade → freecell.
        // The reduced set keeps a top card out of the freecells when it lies on a card it
        // fits or can go onto another cascade.
        let keep_out = PRUNE && (seq >= 2 || top_lands);
        if let Some(j) = first_free.filter(|_| !keep_out) {
            out.push(Move {
                from: Loc::Cascade(i as u8),
                to: Loc::Freecell(j as u8),
                count: 1,
            });
        }
    }
}

/// For each card byte, the two cards it fits on (one rank higher, the other colour's suits);
/// a king's are 63, a byte no card has (so a lookup of 63 in `top_at` finds nothing).
const PARENTS: [[u8; 2]; 64] = {
    let mut t = [[63u8; 2]; 64];
    let mut c = 0;
    while c < 48 {
        let base = (c / 4 + 1) * 4;
        t[c] = if c % 4 == 1 || c % 4 == 2 {
            [base as u8, base as u8 + 3]
        } else {
            [base as u8 + 1, base as u8 + 2]
        };
        c += 1;
    }
    t
};

/// The two cards `c` fits on ([`PARENTS`]).
#[inline(always)]
pub(crate) fn parents(c: u8) -> [u8; 2] {
    PARENTS[c as usize & 63]
}

/// True when homing `c` can never hurt: it is an ace or a two, or both foundations of the
/// other colour already hold `rank(c) - 1`, so no card can ever need to be placed on `c`.
/// (Any solution from the position before homing `c` stays a solution, minus the moves of
/// `c`, from the position after: freecells and empty cascades only grow.)
#[inline]
pub fn is_safe_home(s: &State, c: u8) -> bool {
    safe_home(&s.found, c)
}

/// [`is_safe_home`] given the foundations `found`.
#[inline(always)]
pub(crate) fn safe_home(found: &[u8; 4], c: u8) -> bool {
    let r = rank(c);
    if found[suit(c) as usize] != r {
        return false;
    }
    if r <= 1 {
        return true;
    }
    let (o1, o2) = if red(c) == 1 { (0, 3) } else { (1, 2) };
    found[o1] >= r && found[o2] >= r
}

/// Which cards auto-play brings home after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutoPlay {
    /// Only cards [`is_safe_home`] allows: a solution from before such a move is still one
    /// after it, so a search over all moves with this rule that runs dry has proved the
    /// deal unsolvable. The rule of every search but `fast`'s first tries.
    Safe,
    /// Every card that can go home, at once. It can throw a solution away (a card homed
    /// while a lower card of the other colour still needed it as a parent: deal 1941 has
    /// none left), so a search with it proves nothing; but the positions it leaves have fewer
    /// cards and fewer moves, and a first solution is reached in fewer of them. `fast`'s
    /// first tries use it over the reduced move set.
    Greedy,
}

impl AutoPlay {
    /// True when the rule homes card `c` given the foundations `found` (it must be the
    /// next card of its suit).
    #[inline(always)]
    pub fn allows(self, found: &[u8; 4], c: u8) -> bool {
        match self {
            AutoPlay::Safe => safe_home(found, c),
            AutoPlay::Greedy => found[suit(c) as usize] == rank(c),
        }
    }

    /// The cards the rule homes given the foundations `found`, if they lie on top of a
    /// cascade or in a freecell (bit c for card byte c; at most one per suit, its next
    /// card).
    #[inline(always)]
    pub(crate) fn cards(self, found: &[u8; 4]) -> u64 {
        match self {
            AutoPlay::Safe => safe_cards(found),
            AutoPlay::Greedy => {
                let mut mask = 0;
                for (su, &r) in found.iter().enumerate() {
                    if r < 13 {
                        mask |= 1 << (r * 4 + su as u8);
                    }
                }
                mask
            }
        }
    }
}

/// The cards [`is_safe_home`] allows to home given the foundations `found` (bit c for card
/// byte c; at most one per suit, its next card).
#[inline(always)]
fn safe_cards(found: &[u8; 4]) -> u64 {
    let mut mask = 0;
    for (su, &r) in found.iter().enumerate() {
        let c = r * 4 + su as u8;
        if r < 13 && safe_home(found, c) {
            mask |= 1 << c;
        }
    }
    mask
}

/// Home every card allowed by [`is_safe_home`], repeatedly, calling `on_move` for each
/// foundation move made (cascades first, left to right, then freecells).
#[inline]
pub fn autoplay(s: &mut impl TableauMut, on_move: impl FnMut(Move, u8)) {
    autoplay_by(s, AutoPlay::Safe, on_move)
}

/// [`autoplay`] by `rule`: home every card it allows, repeatedly, calling `on_move` for
/// each foundation move made (cascades first, left to right, then freecells).
#[inline]
pub fn autoplay_by(s: &mut impl TableauMut, rule: AutoPlay, mut on_move: impl FnMut(Move, u8)) {
    // The cards `rule` allows (bit c for card byte c), made anew after each card homed.
    let mut allowed = rule.cards(&s.foundations());
    loop {
        let mut moved = false;
        for i in 0..CASCADES {
            loop {
                let t = s.top_card(i);
                if allowed >> (t & 63) & 1 == 0 {
                    break;
                }
                s.home_from_cascade(i);
                allowed = rule.cards(&s.foundations());
                on_move(
                    Move {
                        from: Loc::Cascade(i as u8),
                        to: Loc::Foundation,
                        count: 1,
                    },
                    t,
                );
                moved = true;
            }
        }
        for j in 0..FREECELLS {
            let c = s.cell(j);
            if allowed >> (c & 63) & 1 != 0 {
                s.home_from_cell(j);
                allowed = rule.cards(&s.foundations());
                on_move(
                    Move {
                        from: Loc::Freecell(j as u8),
                        to: Loc::Foundation,
                        count: 1,
                    },
                    c,
                );
                moved = true;
            }
        }
        if !moved {
            return;
        }
    }
}

/// The lowest-numbered cascade whose top card freecell card `c` fits on, if any.
#[inline(always)]
pub(crate) fn parent_cascade(s: &impl Tableau, c: u8) -> Option<usize> {
    let [p, q] = parents(c);
    (0..CASCADES).find(|&k| {
        let t = s.top_card(k);
        t == p || t == q
    })
}

/// Unparking, the auto-move of `fast`'s tries that unpark ([`crate::search`]): while a
/// freecell card fits on the top card of a cascade, move it there (freecells in order,
/// each onto the lowest-numbered such cascade), then auto-play by `rule`
/// ([`autoplay_by`]); repeat until neither moves a card. Calls `on_move` for each move
/// made, unparking or homing, in order. A card moved back to a freecell is unparked again at
/// once, so a search that unparks never keeps a card in a freecell while its parent is
/// free: that can lose a solution, and such a search proves nothing; it reaches the first
/// solution of most deals in fewer positions (a card is home or in a sequence sooner, and
/// the freecells stay free).
pub fn unpark_by(s: &mut impl TableauMut, rule: AutoPlay, mut on_move: impl FnMut(Move, u8)) {
    while can_unpark(s) {
        for j in 0..FREECELLS {
            let c = s.cell(j);
            if c == EMPTY {
                continue;
            }
            if let Some(k) = parent_cascade(s, c) {
                s.cell_to_cascade(j, k);
                let m = Move {
                    from: Loc::Freecell(j as u8),
                    to: Loc::Cascade(k as u8),
                    count: 1,
                };
                on_move(m, c);
            }
        }
        autoplay_by(s, rule, &mut on_move);
    }
}

/// True when a freecell card of `s` fits on the top card of a cascade.
#[inline(always)]
fn can_unpark(s: &impl Tableau) -> bool {
    let mut tops = 0u64;
    for k in 0..CASCADES {
        tops |= 1 << (s.top_card(k) & 63);
    }
    tops & parents_wanted(s) != 0
}

/// The parents of the freecell cards of `s` (bit c for card byte c), for [`may_unpark`].
#[inline(always)]
pub fn parents_wanted(s: &impl Tableau) -> u64 {
    let mut wanted = 0u64;
    for j in 0..FREECELLS {
        let [p, q] = parents(s.cell(j));
        wanted |= 1 << p | 1 << q;
    }
    // Bit 63 stands for a free freecell and a king's parents alike: no card.
    wanted & !(1 << 63)
}

/// False when [`unpark_by`] would move nothing in `s`, reached by move `m` of the reduced
/// move set ([`generate_pruned`], which puts a card in a freecell only when no cascade's top
/// card is its parent) and the auto-play after it, which changed the cascades `changed`
/// with it (bit i for cascade i), from a position where nothing could be unparked, whose
/// [`parents_wanted`] were `wanted`. Only a new top card (in a changed cascade) can be a
/// parent now: a few operations, where [`unpark_by`] looks at every freecell and cascade.
#[inline(always)]
pub fn may_unpark(s: &impl Tableau, wanted: u64, changed: u8, m: Move) -> bool {
    let wanted = match m.to {
        Loc::Freecell(j) => {
            let [p, q] = parents(s.cell(j as usize));
            wanted | (1 << p | 1 << q) & !(1 << 63)
        }
        _ => wanted,
    };
    let mut tops = 0u64;
    let mut rest = changed;
    while rest != 0 {
        let k = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        tops |= 1 << (s.top_card(k) & 63);
    }
    tops & wanted != 0
}

/// [`autoplay`] after player move `m` from a position where auto-play had nothing left to
/// do (as every position the search stores): only a foundation move, or a card newly
/// exposed on `m`'s source cascade, can make a card safe to home, so most moves skip the
/// full scan. Same result as [`autoplay`].
#[inline(always)]
pub fn autoplay_after(s: &mut impl TableauMut, m: Move, on_move: impl FnMut(Move, u8)) {
    autoplay_after_by(s, m, AutoPlay::Safe, on_move)
}

/// [`autoplay_after`] by `rule`, from a position where `rule` had nothing left to home.
#[inline(always)]
pub fn autoplay_after_by(
    s: &mut impl TableauMut,
    m: Move,
    rule: AutoPlay,
    on_move: impl FnMut(Move, u8),
) {
    let exposed_safe = match m.from {
        Loc::Cascade(i) => {
            let t = s.top_card(i as usize);
            t != EMPTY && rule.allows(&s.foundations(), t)
        }
        _ => false,
    };
    if exposed_safe || m.to == Loc::Foundation {
        autoplay_by(s, rule, on_move);
    }
}

/// Apply player move `m` (generated for `s`, a position auto-play has nothing left to do in)
/// and the safe auto-play after it ([`autoplay_after`]). Returns the cascades the move or
/// the auto-play touched (bit i for cascade i: what incremental fingerprints and features
/// rescan) and the number of cards auto-play homed.
#[inline(always)]
pub fn play(s: &mut State, m: Move) -> (u8, u32) {
    play_by(s, m, AutoPlay::Safe)
}

/// [`play`] with auto-play by `rule`, from a position where `rule` has nothing left to home.
#[inline(always)]
pub fn play_by(s: &mut State, m: Move, rule: AutoPlay) -> (u8, u32) {
    s.apply(m);
    let mut changed = 0u8;
    for l in [m.from, m.to] {
        if let Loc::Cascade(i) = l {
            changed |= 1 << i;
        }
    }
    let mut homed = 0;
    autoplay_after_by(s, m, rule, |mv, _| {
        homed += 1;
        if let Loc::Cascade(i) = mv.from {
            changed |= 1 << i;
        }
    });
    (changed, homed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parents table lists exactly the cards each card fits on.
    #[test]
    fn parents_are_the_cards_a_card_fits_on() {
        for c in 0..52u8 {
            let listed: Vec<u8> = parents(c).into_iter().filter(|&p| p < 52).collect();
            let fitting: Vec<u8> = (0..52u8).filter(|&p| fits(p, c)).collect();
            assert_eq!(listed, fitting, "card {c}");
        }
    }
}
