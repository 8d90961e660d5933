//! Moves in fcauto's solution JSON contract and their effect on a [`Board`].
//!
//! Locations use the contract's tokens: cascades `"1"`..`"8"`, freecell slots `"a"`..`"d"`,
//! the foundation `"h"`. No GUI crate is needed here.

use fcauto_deals::{Board, Card, Suit};
use serde::{Deserialize, Serialize};

/// Where a move starts or ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Loc {
    /// Cascade 0..=7 (left to right).
    Cascade(usize),
    /// Freecell slot 0..=3 (left to right).
    Freecell(usize),
    /// The foundation of the moved card's suit.
    Foundation,
}

impl Loc {
    /// Parse a contract token (`"1"`..`"8"`, `"a"`..`"d"`, `"h"`).
    pub fn parse(s: &str) -> Result<Loc, ModelError> {
        match s.as_bytes() {
            [c @ b'1'..=b'8'] => Ok(Loc::Cascade((c - b'1') as usize)),
            [c @ b'a'..=b'd'] => Ok(Loc::Freecell((c - b'a') as usize)),
            [b'h'] => Ok(Loc::Foundation),
            _ => Err(ModelError::BadLocation(s.to_string())),
        }
    }

    /// The contract token for this location.
    pub fn token(self) -> String {
        match self {
            Loc::Cascade(i) => ((b'1' + i as u8) as char).to_string(),
            Loc::Freecell(i) => ((b'a' + i as u8) as char).to_string(),
            Loc::Foundation => "h".to_string(),
        }
    }
}

/// One move of the solution JSON contract (`solution.json`, `fcauto solve --format json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// 1-based step number.
    pub step: usize,
    /// `stack_to_foundation`, `stack_to_freecell`, `freecell_to_foundation`, `stack_to_stack`
    /// or `freecell_to_stack`.
    pub kind: String,
    /// Source location token.
    pub from: String,
    /// Destination location token.
    pub to: String,
    /// The moved card; for a multi-card move the deepest card of the moved run.
    pub card: String,
    /// Number of cards moved (1 unless a supermove).
    #[serde(default = "one")]
    pub count: usize,
    /// Standard notation, e.g. `3a`.
    #[serde(default)]
    pub notation: String,
}

fn one() -> usize {
    1
}

/// A solution in the JSON contract.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Solution {
    /// The Microsoft deal number, when the board is a deal.
    pub deal: Option<u64>,
    /// The 8 cascades, deepest card first.
    pub board: Vec<Vec<String>>,
    /// Whether a solution was found.
    pub solvable: bool,
    /// `moves.len()`.
    pub moves_total: usize,
    /// Number of moves that move exactly one card.
    pub single_card_moves: usize,
    /// The moves in play order.
    pub moves: Vec<Move>,
}

/// Errors of this module: a move that is illegal on the board it is applied to, or bad text.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// Not a location token.
    #[error("bad location token `{0}` (expected 1-8, a-d or h)")]
    BadLocation(String),
    /// A move that cannot be made on the current board.
    #[error("step {step}: illegal move {from}->{to}: {why}")]
    Illegal {
        step: usize,
        from: String,
        to: String,
        why: String,
    },
    /// fc-solve output that could not be understood.
    #[error("fc-solve output: {0}")]
    FcSolve(String),
}

/// The kind string for a move between two locations.
pub fn kind_of(from: Loc, to: Loc) -> &'static str {
    match (from, to) {
        (Loc::Cascade(_), Loc::Foundation) => "stack_to_foundation",
        (Loc::Cascade(_), Loc::Freecell(_)) => "stack_to_freecell",
        (Loc::Freecell(_), Loc::Foundation) => "freecell_to_foundation",
        (Loc::Freecell(_), Loc::Cascade(_)) => "freecell_to_stack",
        _ => "stack_to_stack",
    }
}

/// Foundation index (C, D, H, S order of [`Board::foundations`]) for a suit.
fn fidx(s: Suit) -> usize {
    s.index()
}

/// Whether `card` may go on top of `under` in a cascade (one lower, other colour).
pub fn stacks_on(card: Card, under: Card) -> bool {
    card.rank().value() + 1 == under.rank().value() && card.is_red() != under.is_red()
}

/// Apply one move to `board`, checking FreeCell's rules (including PySolFC's supermove limit
/// `(free cells + 1) << (empty cascades, not counting an empty destination)`).
/// Returns the cards moved (deepest first).
pub fn apply(
    board: &mut Board,
    step: usize,
    from: Loc,
    to: Loc,
    count: usize,
) -> Result<Vec<Card>, ModelError> {
    let err = |why: String| ModelError::Illegal {
        step,
        from: from.token(),
        to: to.token(),
        why,
    };
    let cards: Vec<Card> = match from {
        Loc::Cascade(i) => {
            let col = &board.cascades[i];
            if count == 0 || col.len() < count {
                return Err(err(format!(
                    "cascade has {}, need {count}",
                    crate::plural(col.len(), "card")
                )));
            }
            let run = col[col.len() - count..].to_vec();
            if run.windows(2).any(|w| !stacks_on(w[1], w[0])) {
                return Err(err("moved cards are not a sequence".into()));
            }
            run
        }
        Loc::Freecell(i) => match board.freecells[i] {
            Some(c) if count == 1 => vec![c],
            _ => return Err(err("freecell empty or count != 1".into())),
        },
        Loc::Foundation => return Err(err("moves from the foundation are not used".into())),
    };
    match to {
        Loc::Foundation => {
            let c = cards[0];
            if count != 1 || board.foundations[fidx(c.suit())] + 1 != c.rank().value() {
                return Err(err(format!("{c} does not go on its foundation")));
            }
        }
        Loc::Freecell(i) => {
            if count != 1 || board.freecells[i].is_some() {
                return Err(err("freecell occupied or count != 1".into()));
            }
        }
        Loc::Cascade(i) => {
            let dest = &board.cascades[i];
            if let Some(&top) = dest.last() {
                if !stacks_on(cards[0], top) {
                    return Err(err(format!("{} does not go on {top}", cards[0])));
                }
            }
            let free = board.freecells.iter().filter(|c| c.is_none()).count();
            let empty = board.cascades.iter().filter(|c| c.is_empty()).count()
                - usize::from(dest.is_empty());
            let limit = (free + 1) << empty;
            if count > limit {
                return Err(err(format!(
                    "{count} cards exceed the supermove limit {limit}"
                )));
            }
        }
    }
    match from {
        Loc::Cascade(i) => {
            let n = board.cascades[i].len();
            board.cascades[i].truncate(n - count);
        }
        Loc::Freecell(i) => board.freecells[i] = None,
        Loc::Foundation => unreachable!(),
    }
    match to {
        Loc::Foundation => board.foundations[fidx(cards[0].suit())] += 1,
        Loc::Freecell(i) => board.freecells[i] = Some(cards[0]),
        Loc::Cascade(i) => board.cascades[i].extend(&cards),
    }
    Ok(cards)
}

/// Apply a contract [`Move`] (parses its tokens, checks that `card` is what moves).
pub fn apply_move(board: &mut Board, m: &Move) -> Result<(), ModelError> {
    let (from, to) = (Loc::parse(&m.from)?, Loc::parse(&m.to)?);
    let moved = apply(board, m.step, from, to, m.count)?;
    if moved[0].to_string() != m.card {
        return Err(ModelError::Illegal {
            step: m.step,
            from: m.from.clone(),
            to: m.to.clone(),
            why: format!("moved {} but the move names {}", moved[0], m.card),
        });
    }
    Ok(())
}

/// Build a contract move (with kind, card and notation) by applying it to `board`.
pub fn make_move(
    board: &mut Board,
    step: usize,
    from: Loc,
    to: Loc,
    count: usize,
) -> Result<Move, ModelError> {
    let moved = apply(board, step, from, to, count)?;
    Ok(Move {
        step,
        kind: kind_of(from, to).to_string(),
        from: from.token(),
        to: to.token(),
        card: moved[0].to_string(),
        count,
        notation: format!("{}{}", from.token(), to.token()),
    })
}

/// Turn fc-solve's `-m`/`-sam` move lines (0-based `stack N` / `freecell N`, "the
/// foundations") into contract moves, simulating them from `start`.
pub fn parse_fcsolve_moves(output: &str, start: &Board) -> Result<Vec<Move>, ModelError> {
    let mut board = start.clone();
    let mut moves = Vec::new();
    for line in output.lines().filter(|l| l.starts_with("Move ")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        // "Move a card from X n to Y m" / "Move K cards from stack n to stack m" / "... to the foundations"
        let count = if words.get(1) == Some(&"a") {
            1
        } else {
            words
                .get(1)
                .and_then(|w| w.parse().ok())
                .ok_or_else(|| ModelError::FcSolve(line.into()))?
        };
        let loc = |kind: &str, idx: Option<&&str>| -> Result<Loc, ModelError> {
            let i: usize = idx
                .and_then(|w| w.parse().ok())
                .ok_or_else(|| ModelError::FcSolve(line.into()))?;
            match kind {
                "stack" if i < 8 => Ok(Loc::Cascade(i)),
                "freecell" if i < 4 => Ok(Loc::Freecell(i)),
                _ => Err(ModelError::FcSolve(line.into())),
            }
        };
        let from = loc(words.get(4).copied().unwrap_or(""), words.get(5))?;
        let to = if words.get(7) == Some(&"the") {
            Loc::Foundation
        } else {
            loc(words.get(7).copied().unwrap_or(""), words.get(8))?
        };
        moves.push(make_move(&mut board, moves.len() + 1, from, to, count)?);
    }
    Ok(moves)
}

/// Wrap moves from `start` into a [`Solution`].
pub fn solution(deal: Option<u64>, start: &Board, moves: Vec<Move>) -> Solution {
    Solution {
        deal,
        board: start
            .cascades
            .iter()
            .map(|c| c.iter().map(Card::to_string).collect())
            .collect(),
        solvable: !moves.is_empty() || start.is_won(),
        moves_total: moves.len(),
        single_card_moves: moves.iter().filter(|m| m.count == 1).count(),
        moves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::ms_deal;

    #[test]
    fn loc_tokens_roundtrip() {
        for t in ["1", "8", "a", "d", "h"] {
            assert_eq!(Loc::parse(t).unwrap().token(), t);
        }
        assert!(Loc::parse("9").is_err());
    }

    #[test]
    fn illegal_foundation_move_is_rejected() {
        let mut b = ms_deal(617).unwrap();
        // top of cascade 1 in deal 617 is JD: not an ace
        assert!(apply(&mut b, 1, Loc::Cascade(0), Loc::Foundation, 1).is_err());
        let m = make_move(&mut b, 1, Loc::Cascade(0), Loc::Freecell(2), 1).unwrap();
        assert_eq!(
            (m.card.as_str(), m.kind.as_str()),
            ("JD", "stack_to_freecell")
        );
        assert_eq!(b.freecells[2].map(|c| c.to_string()).as_deref(), Some("JD"));
    }

    #[test]
    fn fcsolve_move_lines_become_contract_moves() {
        let b = ms_deal(617).unwrap();
        let text =
            "Move a card from stack 6 to freecell 0\n\nMove a card from stack 6 to freecell 1\n\
                    Move a card from stack 6 to freecell 2\n";
        let moves = parse_fcsolve_moves(text, &b).unwrap();
        let got: Vec<(&str, &str, &str, &str)> = moves
            .iter()
            .map(|m| {
                (
                    m.kind.as_str(),
                    m.from.as_str(),
                    m.to.as_str(),
                    m.card.as_str(),
                )
            })
            .collect();
        // deal 617: cascade 7 is 2D AS 3D 4D 2C JH
        assert_eq!(
            got,
            [
                ("stack_to_freecell", "7", "a", "JH"),
                ("stack_to_freecell", "7", "b", "2C"),
                ("stack_to_freecell", "7", "c", "4D")
            ]
        );
        assert_eq!(moves[2].step, 3);
        assert!(
            parse_fcsolve_moves("Move a card from stack 0 to the foundations\n", &b).is_err(),
            "7D cannot go home"
        );
    }

    #[test]
    fn fc_solve_solution_for_617_wins_when_applied() {
        let b = ms_deal(617).unwrap();
        let (raw, moves) =
            crate::gui::fcsolve::solve(&b).expect("fc-solve installed (scripts/setup-deps.sh)");
        assert!(raw.contains("This game is solveable."));
        let mut x = b.clone();
        for m in &moves {
            apply_move(&mut x, m).unwrap();
        }
        assert!(x.is_won());
    }
}
