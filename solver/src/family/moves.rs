//! The family search's moves under any [`Rules`]: every atomic move (a card or a run in
//! build order to a foundation, a freecell or a cascade), and the safe auto-moves to the
//! foundations.
//!
//! Empty freecells are interchangeable, and so are empty cascades (the fingerprint counts
//! them as sets), so a move to an empty one names only the first.

use super::state::{builds, rank, suit, Pos, CELL0, EMPTY, HOME, M};
use fcauto_deals::game::{BuildOrder, EmptyFill, SequenceMove};
use fcauto_deals::Rules;

/// True when `card` may go onto an empty cascade.
#[inline(always)]
pub(crate) fn fills(rules: &Rules, card: u8) -> bool {
    match rules.empty {
        EmptyFill::Any => true,
        EmptyFill::Kings => rank(card) == 13,
        EmptyFill::None => false,
    }
}

/// True when a playable card `c` may go home at once without losing any solution: no card
/// still off the foundations could ever need to be put on it.
///
/// Why each rule is safe (the argument is the same for all three): if every card that could
/// be built on `c` is already home (or is an ace, which can always go home itself and so
/// never needs a parent), `c` serves nothing on the table any more. Any solution that plays
/// `c` home later is still a solution with `c` played home now and its other moves dropped:
/// taking `c` away only empties a freecell or uncovers a card, and more empty freecells and
/// cascades never forbid a move (the sequence limit only grows).
/// - Suit building: only the next lower card of `c`'s own suit builds on it, and that card is
///   home since `c` is playable: always safe.
/// - Alternate colours: the two lower cards of the other colour must be home; aces and twos
///   always go. Or, one rank further: both other-colour suits hold `rank - 2` and the other
///   suit of `c`'s colour holds `rank - 3`. Then each other-colour card `d` of `rank - 1`
///   still out can go home itself whenever a solution would put it on `c` (its suit holds
///   `rank - 2`), and so can the one same-colour card `e` of `rank - 2` that could go on
///   `d` (the other is home below `c`); nothing can go on `e` (the other colour holds
///   `rank - 2`). A solution that builds on `c` stays one with `c`, those `d` and that `e`
///   home instead, as above.
/// - Rank alone: the four lower cards must be home; aces and twos always go.
#[inline(always)]
pub(crate) fn safe_home(rules: &Rules, found: &[u8; 4], c: u8) -> bool {
    let r = rank(c);
    if found[suit(c)] + 1 != r {
        return false;
    }
    if r <= 2 {
        return true;
    }
    match rules.build {
        BuildOrder::Suit => true,
        BuildOrder::AlternateColour => {
            // Suits C, D, H, S: the other colour's two suits, and `c`'s colour's other suit.
            let (o1, o2, mate) = match suit(c) {
                0 => (1, 2, 3),
                1 => (0, 3, 2),
                2 => (0, 3, 1),
                _ => (1, 2, 0),
            };
            let other = found[o1].min(found[o2]);
            other + 1 >= r || (other + 2 >= r && found[mate] + 3 >= r)
        }
        BuildOrder::Rank => found.iter().all(|&f| f + 1 >= r),
    }
}

/// Play every safe auto-move (repeatedly, as each can free another), appending each to
/// `log`.
pub(crate) fn auto_play(p: &mut Pos, rules: &Rules, log: &mut Vec<M>) {
    loop {
        let mut moved = false;
        for i in 0..p.ncasc {
            while let Some(c) = p.top(i) {
                if !safe_home(rules, &p.found, c) {
                    break;
                }
                let m = M {
                    from: i as u8,
                    to: HOME,
                    count: 1,
                    card: c,
                };
                p.apply(m);
                log.push(m);
                moved = true;
            }
        }
        for j in 0..p.ncells {
            let c = p.cells[j];
            if c != EMPTY && safe_home(rules, &p.found, c) {
                let m = M {
                    from: CELL0 + j as u8,
                    to: HOME,
                    count: 1,
                    card: c,
                };
                p.apply(m);
                log.push(m);
                moved = true;
            }
        }
        if !moved {
            return;
        }
    }
}

/// Cards in the run in build order at the top of cascade `i` (0 when empty).
#[inline]
pub(crate) fn top_run(p: &Pos, rules: &Rules, i: usize) -> usize {
    let col = p.col(i);
    if col.is_empty() {
        return 0;
    }
    let mut k = 1;
    while k < col.len() && builds(rules.build, col[col.len() - k - 1], col[col.len() - k]) {
        k += 1;
    }
    k
}

/// The most cards one move may carry between cascades, `usize::MAX` when unlimited.
#[inline]
fn limit(rules: &Rules, free: usize, empty: usize, dest_empty: bool) -> usize {
    match rules.sequence {
        SequenceMove::Unlimited => usize::MAX,
        SequenceMove::Limited => rules
            .sequence_limit(free, empty, dest_empty)
            .unwrap_or(usize::MAX),
    }
}

/// Every legal move of `p` (safe auto-moves aside: they are played, not chosen), appended
/// to `out` in the order a depth-first search should try them: foundations, then runs onto
/// cards, then freecells to cascades, then to freecells, then onto an empty cascade.
pub(crate) fn generate(p: &Pos, rules: &Rules, out: &mut Vec<M>) {
    let free = p.free_cells();
    let empties = p.empty_cascades();
    let first_empty = (0..p.ncasc).find(|&i| p.len[i] == 0);
    let first_free = (0..p.ncells).find(|&j| p.cells[j] == EMPTY);
    let mv = |from: usize, to: u8, count: usize, card: u8| M {
        from: from as u8,
        to,
        count: count as u8,
        card,
    };
    for i in 0..p.ncasc {
        if let Some(c) = p.top(i) {
            if p.found[suit(c)] + 1 == rank(c) {
                out.push(mv(i, HOME, 1, c));
            }
        }
    }
    for j in 0..p.ncells {
        let c = p.cells[j];
        if c != EMPTY && p.found[suit(c)] + 1 == rank(c) {
            out.push(mv(CELL0 as usize + j, HOME, 1, c));
        }
    }
    let onto_card = limit(rules, free, empties, false);
    for i in 0..p.ncasc {
        let run = top_run(p, rules, i);
        if run == 0 {
            continue;
        }
        let col = p.col(i);
        for d in 0..p.ncasc {
            let Some(t) = p.top(d).filter(|_| d != i) else {
                continue;
            };
            // Only one length of the run can build on `t`: the card one rank lower.
            let want = rank(t) - 1;
            let head_rank = rank(col[col.len() - 1]);
            if want < head_rank || (want - head_rank) as usize >= run {
                continue;
            }
            let k = (want - head_rank) as usize + 1;
            let head = col[col.len() - k];
            if k <= onto_card && builds(rules.build, t, head) {
                out.push(mv(i, d as u8, k, head));
            }
        }
    }
    for j in 0..p.ncells {
        let c = p.cells[j];
        if c == EMPTY {
            continue;
        }
        for d in 0..p.ncasc {
            if p.top(d).is_some_and(|t| builds(rules.build, t, c)) {
                out.push(mv(CELL0 as usize + j, d as u8, 1, c));
            }
        }
    }
    if let Some(j) = first_free {
        for i in 0..p.ncasc {
            if let Some(c) = p.top(i) {
                out.push(mv(i, CELL0 + j as u8, 1, c));
            }
        }
    }
    if let Some(e) = first_empty {
        to_empty(p, rules, e, free, empties, out);
    }
}

/// Moves onto the empty cascade `e`: a freecell's card, or a run from a cascade (every
/// length the limit and the fill rule allow, but never a whole cascade: that changes
/// nothing).
fn to_empty(p: &Pos, rules: &Rules, e: usize, free: usize, empties: usize, out: &mut Vec<M>) {
    if rules.empty == EmptyFill::None {
        return;
    }
    for j in 0..p.ncells {
        let c = p.cells[j];
        if c != EMPTY && fills(rules, c) {
            out.push(M {
                from: CELL0 + j as u8,
                to: e as u8,
                count: 1,
                card: c,
            });
        }
    }
    let most = limit(rules, free, empties, true);
    for i in 0..p.ncasc {
        let run = top_run(p, rules, i);
        let col = p.col(i);
        for k in 1..=run.min(most) {
            if k == col.len() {
                break;
            }
            let head = col[col.len() - k];
            if fills(rules, head) {
                out.push(M {
                    from: i as u8,
                    to: e as u8,
                    count: k as u8,
                    card: head,
                });
            }
        }
    }
}
