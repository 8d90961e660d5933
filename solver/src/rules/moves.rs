//! Moves in FreeCell, as the validator, the solution formats and the GUI replay see them.

use fcauto_deals::{Card, CASCADES, FREECELLS};
use std::fmt;

/// Where a move starts or ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Loc {
    /// Cascade index 0..=7 (shown to users as `1`..`8`).
    Cascade(u8),
    /// Freecell slot 0..=3 (shown to users as `a`..`d`).
    Freecell(u8),
    /// The foundations (shown as `h`, "home").
    Foundation,
}

impl Loc {
    /// Standard-notation name: `1`..`8`, `a`..`d`, `h`.
    pub fn notation(self) -> String {
        self.notation_char().to_string()
    }

    /// Standard-notation name as one character: `1`..`8`, `a`..`d`, `h`.
    pub fn notation_char(self) -> char {
        match self {
            Loc::Cascade(i) => (b'1' + i) as char,
            Loc::Freecell(i) => (b'a' + i) as char,
            Loc::Foundation => 'h',
        }
    }

    /// Parse `1`..`8`, `a`..`d`, `h` (case-insensitive). `None` for anything else.
    pub fn parse(s: &str) -> Option<Loc> {
        let b = s.trim().to_ascii_lowercase();
        match b.as_bytes() {
            [c @ b'1'..=b'8'] => Some(Loc::Cascade(c - b'1')),
            [c @ b'a'..=b'd'] => Some(Loc::Freecell(c - b'a')),
            [b'h'] => Some(Loc::Foundation),
            _ => None,
        }
    }
}

/// The JSON `kind` of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// Cascade top card to its foundation (`3h`).
    StackToFoundation,
    /// Cascade top card to a freecell (`3a`).
    StackToFreecell,
    /// Freecell card to its foundation (`ah`).
    FreecellToFoundation,
    /// One card or a run (supermove) from a cascade to another cascade (`38`).
    StackToStack,
    /// Freecell card to a cascade (`a3`).
    FreecellToStack,
    /// Freecell card to another freecell (`ab`): legal, though the solver never makes it.
    FreecellToFreecell,
}

impl MoveKind {
    /// The JSON spelling (serde's name): `stack_to_foundation`, `stack_to_freecell`,
    /// `freecell_to_foundation`, `stack_to_stack`, `freecell_to_stack`,
    /// `freecell_to_freecell`.
    pub fn name(self) -> &'static str {
        match self {
            MoveKind::StackToFoundation => "stack_to_foundation",
            MoveKind::StackToFreecell => "stack_to_freecell",
            MoveKind::FreecellToFoundation => "freecell_to_foundation",
            MoveKind::StackToStack => "stack_to_stack",
            MoveKind::FreecellToStack => "freecell_to_stack",
            MoveKind::FreecellToFreecell => "freecell_to_freecell",
        }
    }
}

impl fmt::Display for MoveKind {
    /// Same as [`MoveKind::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One move: `count` cards (more than one only for cascade → cascade supermoves) from
/// `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Source.
    pub from: Loc,
    /// Destination.
    pub to: Loc,
    /// Number of cards moved (1 except for supermoves).
    pub count: u8,
}

impl Move {
    /// The move's kind, or `None` for a combination FreeCell does not have (a move from the
    /// foundations).
    pub fn kind(&self) -> Option<MoveKind> {
        use Loc::*;
        Some(match (self.from, self.to) {
            (Cascade(_), Foundation) => MoveKind::StackToFoundation,
            (Cascade(_), Freecell(_)) => MoveKind::StackToFreecell,
            (Freecell(_), Foundation) => MoveKind::FreecellToFoundation,
            (Cascade(_), Cascade(_)) => MoveKind::StackToStack,
            (Freecell(_), Cascade(_)) => MoveKind::FreecellToStack,
            (Freecell(_), Freecell(_)) => MoveKind::FreecellToFreecell,
            _ => return None,
        })
    }

    /// Standard notation: `3a`, `a3`, `3h`, `ah`, `38` (a supermove is written like a
    /// single-card move; its size follows from the position).
    pub fn notation(&self) -> String {
        let mut s = String::with_capacity(2);
        s.push(self.from.notation_char());
        s.push(self.to.notation_char());
        s
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

/// A move together with the card it moves (for a supermove: the deepest card of the run,
/// the one that lands on the destination).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// The card moved (deepest card of a run).
    pub card: Card,
}

/// The largest run that may be moved between cascades in one supermove:
/// `(free freecells + 1) * 2^(empty cascades)`, where an empty destination cascade is not
/// counted among the empty cascades (Freecell Solver FAQ; PySolFC's FreeCell rule).
pub fn supermove_limit(free_cells: usize, empty_cascades: usize, dest_empty: bool) -> usize {
    let e = empty_cascades - usize::from(dest_empty && empty_cascades > 0);
    (free_cells + 1) << e
}

/// Where a run moves, for its single-card count ([`single_card_cost`]): what the game has
/// beside the run, counted before the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunMove {
    /// Cards in the run, 1..=13.
    pub cards: usize,
    /// Free freecells.
    pub free_cells: usize,
    /// Empty cascades other than the destination.
    pub empty: usize,
    /// The destination cascade is empty (it takes the run's deepest card, and may hold
    /// parked cards before that).
    pub dest_empty: bool,
    /// The run is the whole of its cascade, which is empty once its deepest card has left
    /// (and may hold parked cards after that).
    pub source_emptied: bool,
}

/// The fewest single-card moves that realise moving a run between cascades: with
/// `cards <= free_cells + 1`, `2 cards - 1` (each card but the deepest parked in a freecell,
/// then brought over); beyond, the cheapest split over an empty cascade `P`: park the top
/// `k` cards on `P` (the empty destination helping as a parking place), move the other
/// `cards - k` with one empty cascade fewer, then bring the `k` over from `P` (the emptied
/// source helping, and `P` itself once its deepest card has left) — the best `k`.
/// That is the exact minimum found by searching every sequence of single-card moves
/// (tested up to 4 freecells, 3 empty cascades and 9 cards, for every destination and source
/// kind; `tests` below). Until 2026-12-03 an empty destination or an emptied source was not
/// used as a parking place (up to 2 more: 27 for 8 cards with 1 freecell and 2 empty
/// cascades onto an empty one, where 25 do); until 2026-12-02 the split was always
/// the largest parkable (11 for 4 cards with 2 freecells and an empty cascade, where 7 do).
/// A run longer than [`supermove_limit`] cannot move: `2 cards - 1` is given (as for a run
/// longer than one deck's 13 cards, which no game holds).
pub fn single_card_cost(m: RunMove) -> usize {
    if m.cards > MAX_RUN {
        return 2 * m.cards - 1;
    }
    let at = |r: usize| r.min(MAX_RESOURCE);
    let c = RUN_COSTS[at(m.free_cells)][at(m.empty)][m.dest_empty as usize]
        [m.source_emptied as usize][m.cards];
    if c == u16::MAX {
        2 * m.cards - 1
    } else {
        c as usize
    }
}

/// The longest run of one deck (king to ace).
const MAX_RUN: usize = 13;
/// Freecells or empty cascades beyond which [`RUN_COSTS`] no longer changes (12 spare places
/// hold any run of 13 but its deepest card).
const MAX_RESOURCE: usize = 12;
/// A table of [`single_card_cost`]: `[free][empty][dest_empty][source_emptied][cards]`.
type Costs = [[[[[u16; MAX_RUN + 1]; 2]; 2]; MAX_RESOURCE + 1]; MAX_RESOURCE + 1];
/// [`single_card_cost`] for runs of 1..=13 cards, `u16::MAX` where the run cannot move.
static RUN_COSTS: Costs = run_costs();

const fn run_costs() -> Costs {
    let mut t = [[[[[u16::MAX; MAX_RUN + 1]; 2]; 2]; MAX_RESOURCE + 1]; MAX_RESOURCE + 1];
    let mut f = 0;
    while f <= MAX_RESOURCE {
        let mut e = 0;
        while e <= MAX_RESOURCE {
            // Cards outermost: an entry at this `e` reads only entries of fewer cards.
            let mut n = 1;
            while n <= MAX_RUN {
                let mut ds = 0;
                while ds < 4 {
                    let (d, s) = (ds / 2, ds % 2);
                    let mut best = if n <= f + 1 {
                        (2 * n - 1) as u16
                    } else {
                        u16::MAX
                    };
                    let mut k = 1;
                    while e > 0 && k < n {
                        let park = t[f][e - 1 + d][1][0][k];
                        let rest = t[f][e - 1][d][s][n - k];
                        let back = t[f][e - 1 + s][0][1][k];
                        if park != u16::MAX && rest != u16::MAX && back != u16::MAX {
                            let sum = park + rest + back;
                            if sum < best {
                                best = sum;
                            }
                        }
                        k += 1;
                    }
                    t[f][e][d][s][n] = best;
                    ds += 1;
                }
                n += 1;
            }
            e += 1;
        }
        f += 1;
    }
    t
}

/// Compile-time sanity on the board dimensions used throughout.
const _: () = assert!(CASCADES == 8 && FREECELLS == 4);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_kind_displays_as_its_json_name() {
        for k in [
            MoveKind::StackToFoundation,
            MoveKind::StackToFreecell,
            MoveKind::FreecellToFoundation,
            MoveKind::StackToStack,
            MoveKind::FreecellToStack,
        ] {
            assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{k}\""));
        }
    }

    #[test]
    fn limits_follow_the_formula() {
        assert_eq!(supermove_limit(4, 0, false), 5);
        assert_eq!(supermove_limit(2, 1, false), 6);
        assert_eq!(supermove_limit(2, 1, true), 3);
        assert_eq!(supermove_limit(0, 2, false), 4);
        assert_eq!(supermove_limit(1, 3, true), 8);
    }

    /// A run of `cards` with `f` free freecells and `e` empty cascades, onto a card it fits,
    /// leaving cards under it.
    fn run(cards: usize, f: usize, e: usize) -> RunMove {
        RunMove {
            cards,
            free_cells: f,
            empty: e,
            dest_empty: false,
            source_emptied: false,
        }
    }

    #[test]
    fn single_card_costs() {
        assert_eq!(single_card_cost(run(1, 0, 0)), 1);
        assert_eq!(single_card_cost(run(3, 2, 0)), 5);
        // 1 freecell, 1 empty cascade, 4 cards: park 2 (3 moves), move 2 (3), bring 2 (3).
        assert_eq!(single_card_cost(run(4, 1, 1)), 9);
        assert_eq!(single_card_cost(run(2, 0, 1)), 3);
        // 2 freecells and an empty cascade hold 3 cards apart: 4 cards in 7 (formerly: 11).
        assert_eq!(single_card_cost(run(4, 2, 1)), 7);
        // 8 cards, 1 freecell, 2 empty cascades: 27 onto a card, 25 onto an empty cascade,
        // 23 from a cascade they empty onto an empty one (formerly: 27 for all three).
        assert_eq!(single_card_cost(run(8, 1, 2)), 27);
        let onto_empty = RunMove {
            dest_empty: true,
            ..run(8, 1, 2)
        };
        assert_eq!(single_card_cost(onto_empty), 25);
        let whole = RunMove {
            source_emptied: true,
            ..onto_empty
        };
        assert_eq!(single_card_cost(whole), 23);
        // No run of one deck is longer than 13 cards.
        assert_eq!(single_card_cost(run(14, 13, 0)), 27);
    }

    /// The fewest single-card moves that realise `m`, with nothing else in play:
    /// breadth-first over every sequence of single-card moves (a card onto a freecell, an
    /// empty cascade, or the card it lies on in the run). Card `i` (1 deepest) lies on card
    /// `i - 1`; card 1 may go back onto the source, and onto the destination, which take
    /// any card when empty if `m` says so (else they stand for cards it fits on).
    fn exact_run_cost(m: RunMove) -> Option<usize> {
        use std::collections::{HashMap, VecDeque};
        let n = m.cards as u8;
        // Stacks: 0 source, 1 destination, 2.. empty cascades; then the freecells, sorted.
        type Pos = (Vec<Vec<u8>>, Vec<u8>);
        let start: Pos = (
            [vec![(1..=n).collect()], vec![vec![]; m.empty + 1]].concat(),
            Vec::new(),
        );
        let key = |(stacks, cells): &Pos| {
            let mut spare = stacks[2..].to_vec();
            spare.sort();
            let mut cells = cells.clone();
            cells.sort();
            (stacks[0].clone(), stacks[1].clone(), spare, cells)
        };
        let takes_any = [m.source_emptied, m.dest_empty];
        let mut seen = HashMap::from([(key(&start), 0)]);
        let mut queue = VecDeque::from([(start, 0)]);
        while let Some((pos, d)) = queue.pop_front() {
            if pos.0[1].len() == n as usize {
                return Some(d);
            }
            let (stacks, cells) = &pos;
            // Every card that can move: each stack's top, each freecell's card.
            let mut from: Vec<(Option<usize>, u8)> = stacks
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.last().map(|&c| (Some(i), c)))
                .collect();
            from.extend(cells.iter().map(|&c| (None, c)));
            for (src, card) in from {
                let mut taken = pos.clone();
                match src {
                    Some(i) => drop(taken.0[i].pop()),
                    None => taken.1.retain(|&c| c != card),
                }
                let mut next: Vec<Pos> = Vec::new();
                for (j, s) in taken.0.iter().enumerate() {
                    let empty_takes = j >= 2 || takes_any[j] || card == 1;
                    let fits = s.last() == Some(&(card - 1)) || (s.is_empty() && empty_takes);
                    if fits && Some(j) != src {
                        let mut p = taken.clone();
                        p.0[j].push(card);
                        next.push(p);
                    }
                }
                if src.is_some() && taken.1.len() < m.free_cells {
                    let mut p = taken.clone();
                    p.1.push(card);
                    next.push(p);
                }
                for p in next {
                    if let std::collections::hash_map::Entry::Vacant(v) = seen.entry(key(&p)) {
                        v.insert(d + 1);
                        queue.push_back((p, d + 1));
                    }
                }
            }
        }
        None
    }

    /// [`single_card_cost`] is the exact minimum wherever the search above can tell it in
    /// a test's time: every destination and source kind, runs up to the supermove limit.
    #[test]
    fn single_card_costs_are_the_exact_minimum() {
        for (f, e, most) in [
            (0, 0, 7),
            (1, 1, 7),
            (2, 1, 7),
            (0, 2, 7),
            (1, 2, 8),
            (2, 2, 7),
        ] {
            for n in 1..=supermove_limit(f, e, false).min(most) {
                for (dest_empty, source_emptied) in
                    [(false, false), (true, false), (false, true), (true, true)]
                {
                    let m = RunMove {
                        dest_empty,
                        source_emptied,
                        ..run(n, f, e)
                    };
                    let exact = exact_run_cost(m).expect("movable");
                    assert_eq!(single_card_cost(m), exact, "{m:?}");
                }
            }
        }
    }

    #[test]
    fn notation_round_trip() {
        for s in ["1", "8", "a", "d", "h"] {
            assert_eq!(Loc::parse(s).unwrap().notation(), s);
        }
        assert!(Loc::parse("9").is_none() && Loc::parse("e").is_none() && Loc::parse("").is_none());
    }
}
