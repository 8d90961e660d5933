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
}

impl MoveKind {
    /// The JSON spelling (serde's name): `stack_to_foundation`, `stack_to_freecell`,
    /// `freecell_to_foundation`, `stack_to_stack`, `freecell_to_stack`.
    pub fn name(self) -> &'static str {
        match self {
            MoveKind::StackToFoundation => "stack_to_foundation",
            MoveKind::StackToFreecell => "stack_to_freecell",
            MoveKind::FreecellToFoundation => "freecell_to_foundation",
            MoveKind::StackToStack => "stack_to_stack",
            MoveKind::FreecellToStack => "freecell_to_stack",
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
    /// The move's kind, or `None` for combinations FreeCell does not have (e.g. to a freecell
    /// from a freecell, from the foundation).
    pub fn kind(&self) -> Option<MoveKind> {
        use Loc::*;
        Some(match (self.from, self.to) {
            (Cascade(_), Foundation) => MoveKind::StackToFoundation,
            (Cascade(_), Freecell(_)) => MoveKind::StackToFreecell,
            (Freecell(_), Foundation) => MoveKind::FreecellToFoundation,
            (Cascade(_), Cascade(_)) => MoveKind::StackToStack,
            (Freecell(_), Cascade(_)) => MoveKind::FreecellToStack,
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

/// The number of single-card moves that realise moving a run of `n` cards between cascades
/// with `free_cells` free freecells and `empty` empty cascades (destination excluded), by
/// the standard recursive decomposition: with `n <= free_cells + 1`, `2n - 1` moves (all but
/// one card through freecells); otherwise half the run is parked on an empty cascade with
/// the remaining resources, the rest is moved, and the parked part follows.
/// `n` must not exceed [`supermove_limit`].
pub fn single_card_cost(n: usize, free_cells: usize, empty: usize) -> usize {
    if n <= free_cells + 1 || empty == 0 {
        return 2 * n - 1;
    }
    let park = ((free_cells + 1) << (empty - 1)).min(n - 1);
    // Park `park` cards on one empty cascade (using the other empty ones), move the rest
    // with one empty cascade fewer, then bring the parked run over.
    2 * single_card_cost(park, free_cells, empty - 1)
        + single_card_cost(n - park, free_cells, empty - 1)
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

    #[test]
    fn single_card_costs() {
        assert_eq!(single_card_cost(1, 0, 0), 1);
        assert_eq!(single_card_cost(3, 2, 0), 5);
        // 1 freecell, 1 empty cascade, 4 cards: park 2 (3 moves), move 2 (3), bring 2 (3).
        assert_eq!(single_card_cost(4, 1, 1), 9);
        assert_eq!(single_card_cost(2, 0, 1), 3);
    }

    #[test]
    fn notation_round_trip() {
        for s in ["1", "8", "a", "d", "h"] {
            assert_eq!(Loc::parse(s).unwrap().notation(), s);
        }
        assert!(Loc::parse("9").is_none() && Loc::parse("e").is_none() && Loc::parse("").is_none());
    }
}
