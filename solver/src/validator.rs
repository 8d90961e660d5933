//! An independent solution checker: replays moves on a [`Board`] (plain vectors of cards,
//! not the search's state) with its own implementation of FreeCell's rules, and checks that
//! all 52 cards end on the foundations. It shares no rule code with the search.
//!
//! Rules checked per move: the source holds the card(s); a multi-card move is a run (each
//! card one rank below the card under it, colours alternating), only between cascades, and
//! no longer than `(free freecells + 1) * 2^(empty cascades, an empty destination not
//! counted)`; a cascade destination is empty or its top card is one rank above the
//! deepest moved card and of the other colour; a freecell destination is empty; a
//! foundation move takes one card whose foundation holds exactly the rank below it; the
//! `card` given with a move (if any) is the deepest moved card.

use crate::moves::Loc;
use fcauto_deals::{Board, Card, Rank};

/// A move to check: `count` and `card` may be omitted (`None`): a missing count is taken
/// from the card's place in the source cascade (or 1), a missing card is not compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepMove {
    /// Source.
    pub from: Loc,
    /// Destination.
    pub to: Loc,
    /// Cards moved.
    pub count: Option<u8>,
    /// The (deepest) card moved.
    pub card: Option<Card>,
}

impl StepMove {
    /// The move in standard notation as it was given: `37`, or `37v5` when a count was given
    /// for a move between cascades (in hexadecimal, as the notation writes it; `76v1` too:
    /// onto an empty cascade a plain `76` reads as the longest run that may move).
    pub fn notation(&self) -> String {
        let mut s = format!("{}{}", self.from.notation(), self.to.notation());
        if let (Loc::Cascade(_), Loc::Cascade(_), Some(n)) = (self.from, self.to, self.count) {
            s.push_str(&format!("v{n:x}"));
        }
        s
    }

    /// The move as an error names it: [`StepMove::notation`] without a count of 1 (`37`,
    /// not `37v1`), which is how the notation reads a plain move.
    pub fn named(&self) -> String {
        StepMove {
            count: self.count.filter(|&n| n > 1),
            ..*self
        }
        .notation()
    }
}

/// Why a solution was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    /// The initial board is not a full, consistent deck.
    #[error("{0}")]
    BadBoard(String),
    /// Move number `step` (1-based) breaks a rule.
    #[error("step {step} ({notation}): illegal move: {reason}")]
    Illegal {
        /// 1-based step number.
        step: usize,
        /// The move in standard notation.
        notation: String,
        /// Which rule it breaks.
        reason: String,
    },
    /// All moves were legal but cards remain off the foundations.
    #[error(
        "after {}, {remaining} card(s) are not on the foundations",
        crate::plural(.moves, "move")
    )]
    NotWon {
        /// Moves replayed.
        moves: usize,
        /// Cards not home.
        remaining: usize,
    },
}

/// What a valid solution amounts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Validated {
    /// Number of moves (a supermove counts as one).
    pub moves_total: usize,
    /// Number of single-card moves, a k-card supermove counted as the single-card moves
    /// that realise it through the freecells and empty cascades available.
    pub single_card_moves: usize,
}

/// Replay `moves` from `board`; the final board must have all cards home.
pub fn validate(board: &Board, moves: &[StepMove]) -> Result<Validated, ValidationError> {
    board
        .check()
        .map_err(|e| ValidationError::BadBoard(e.to_string()))?;
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut b) => {
            b.clone_from(board);
            replay(&mut b, moves)
        }
        Err(_) => replay(&mut board.clone(), moves),
    })
}

thread_local! {
    /// This thread's board for [`validate`] to replay a solution on: copied from the deal
    /// with its cascades' vectors reused, so that validating allocates nothing once the
    /// thread's tallest cascades have been built.
    static SCRATCH: std::cell::RefCell<Board> = std::cell::RefCell::new(Board {
        cascades: Vec::new(),
        freecells: Default::default(),
        foundations: [0; 4],
    });
}

/// [`validate`]'s replay of `moves` on `b`, a copy of the (checked) initial board.
fn replay(b: &mut Board, moves: &[StepMove]) -> Result<Validated, ValidationError> {
    let mut single = 0;
    for (i, m) in moves.iter().enumerate() {
        // A refused move leaves the board as it was: whether the game was already won is
        // asked only then.
        single += apply_checked(b, m).map_err(|reason| {
            let won = b.is_won() && b.cards_in_play() == 0;
            ValidationError::Illegal {
                step: i + 1,
                notation: m.named(),
                reason: if won { won_before(i) } else { reason },
            }
        })?;
    }
    let remaining = b.cards_in_play();
    if remaining > 0 || !b.is_won() {
        return Err(ValidationError::NotWon {
            moves: moves.len(),
            remaining,
        });
    }
    Ok(Validated {
        moves_total: moves.len(),
        single_card_moves: single,
    })
}

/// Why a move after the win cannot be made, for the move after `moves` moves (0: the board
/// was won to start with): the rule it breaks (an empty place) says less than this.
pub fn won_before(moves: usize) -> String {
    match moves {
        0 => "the game is won before any move: there is nothing to move".into(),
        n => format!("the game is already won after step {n}: there is nothing left to move"),
    }
}

/// Check and apply one move; returns its single-card cost or the broken rule. A move refused
/// leaves `b` unchanged (every check comes before the move is made).
pub fn apply_checked(b: &mut Board, m: &StepMove) -> Result<usize, String> {
    let moving = moved_cards(b, m)?;
    let deepest = moving[0];
    check_named_card(b, m, moving)?;
    check_one_card_destination(m.to, moving.len())?;
    check_run(moving)?;
    let n = moving.len();
    let cost = match m.to {
        Loc::Foundation => foundation_takes(b, deepest)?,
        Loc::Freecell(j) => freecell_takes(b, j)?,
        Loc::Cascade(k) => cascade_takes(b, m.from, k, n, deepest)?,
    };
    apply_unchecked(b, m.from, m.to, n, deepest);
    Ok(cost)
}

/// The cards `m` moves, deepest first (borrowed from the board): the source holds them,
/// and a freecell gives one card, a foundation none.
fn moved_cards<'b>(b: &'b Board, m: &StepMove) -> Result<&'b [Card], String> {
    match m.from {
        Loc::Cascade(i) => {
            let col = b
                .cascades
                .get(i as usize)
                .ok_or_else(|| format!("no cascade {}", i + 1))?;
            let n = match (m.count, m.card) {
                (Some(n), _) => n as usize,
                (None, Some(c)) => col
                    .iter()
                    .rev()
                    .position(|&x| x == c)
                    .map(|p| p + 1)
                    .ok_or_else(|| format!("card {c} is not in cascade {}", i + 1))?,
                (None, None) => 1,
            };
            if n == 0 {
                return Err("moves zero cards".into());
            }
            if n > col.len() {
                return Err(format!(
                    "cascade {} holds {} card(s), cannot move {n}",
                    i + 1,
                    col.len()
                ));
            }
            Ok(&col[col.len() - n..])
        }
        Loc::Freecell(j) => {
            if m.count.unwrap_or(1) != 1 {
                return Err("a freecell holds one card".into());
            }
            let c = b
                .freecells
                .get(j as usize)
                .ok_or_else(|| format!("no freecell {}", (b'a' + j) as char))?;
            if c.is_none() {
                return Err(format!("freecell {} is empty", (b'a' + j) as char));
            }
            Ok(std::slice::from_ref(c.as_ref().expect("checked above")))
        }
        Loc::Foundation => Err("cards never leave the foundations".into()),
    }
}

/// The card given with the move, if any, is the deepest moved card.
fn check_named_card(b: &Board, m: &StepMove, moving: &[Card]) -> Result<(), String> {
    let deepest = moving[0];
    let Some(c) = m.card else { return Ok(()) };
    if c == deepest {
        return Ok(());
    }
    // A count and a card that disagree: say which count the card would need.
    let depth = match (m.from, m.count) {
        (Loc::Cascade(i), Some(_)) => {
            let col = &b.cascades[i as usize];
            col.iter().rev().position(|&x| x == c).map(|p| p + 1)
        }
        _ => None,
    };
    Err(match depth {
        Some(k) => format!(
            "the card moved would be {deepest}, not {c}: the count says {} and {c} \
             would be a move of {}",
            crate::plural(moving.len(), "card"),
            crate::plural(k, "card")
        ),
        None => format!("the card moved would be {deepest}, not {c}"),
    })
}

/// Where only one card may go, that is the rule broken, whatever the cards are.
fn check_one_card_destination(to: Loc, n: usize) -> Result<(), String> {
    match to {
        Loc::Foundation if n != 1 => Err("one card at a time goes to the foundations".into()),
        Loc::Freecell(_) if n != 1 => Err("one card at a time goes to a freecell".into()),
        _ => Ok(()),
    }
}

/// The moved cards form a run: each one rank below the card under it, colours alternating.
fn check_run(moving: &[Card]) -> Result<(), String> {
    for w in moving.windows(2) {
        if !stacks_on(w[0], w[1]) {
            return Err(format!(
                "{} on {} is not a run (descending, alternating colours)",
                w[1], w[0]
            ));
        }
    }
    Ok(())
}

/// `deepest` may go home: its foundation holds exactly the rank below it. Costs one move.
fn foundation_takes(b: &Board, deepest: Card) -> Result<usize, String> {
    let have = b.foundations[deepest.suit().index()];
    if deepest.rank().value() != have + 1 {
        let top = if have == 0 {
            "nothing".to_string()
        } else {
            Card::new(Rank::new(have).unwrap(), deepest.suit()).to_string()
        };
        return Err(format!(
            "{deepest} cannot go home: its foundation holds {top}"
        ));
    }
    Ok(1)
}

/// Freecell `j` exists and is empty. Costs one move.
fn freecell_takes(b: &Board, j: u8) -> Result<usize, String> {
    match b.freecells.get(j as usize) {
        None => Err(format!("no freecell {}", (b'a' + j) as char)),
        Some(Some(c)) => Err(format!("freecell {} already holds {c}", (b'a' + j) as char)),
        Some(None) => Ok(1),
    }
}

/// Cascade `k` takes the run of `n` cards (deepest `deepest`) from `from`: another cascade,
/// empty or topped by a card `deepest` stacks on, and `n` within the supermove limit. Returns
/// the single-card moves the supermove costs.
fn cascade_takes(b: &Board, from: Loc, k: u8, n: usize, deepest: Card) -> Result<usize, String> {
    let dest = b
        .cascades
        .get(k as usize)
        .ok_or_else(|| format!("no cascade {}", k + 1))?;
    if from == Loc::Cascade(k) {
        return Err("source and destination are the same cascade".into());
    }
    let dest_empty = dest.is_empty();
    if let Some(&top) = dest.last() {
        if !stacks_on(top, deepest) {
            return Err(format!("{deepest} cannot go on {top}"));
        }
    }
    let free_cells = b.freecells.iter().filter(|c| c.is_none()).count();
    let empty_cascades = b.cascades.iter().filter(|c| c.is_empty()).count();
    let empty_other = empty_cascades - usize::from(dest_empty);
    let limit = (free_cells + 1) << empty_other;
    if n > limit {
        return Err(format!(
            "{n} cards exceed the supermove limit of {limit} ({}, {})",
            crate::plural(free_cells, "free freecell"),
            crate::plural(empty_other, "empty cascade")
        ));
    }
    let source_emptied = match from {
        Loc::Cascade(i) => b.cascades[i as usize].len() == n,
        _ => false,
    };
    let spare = Spare {
        cells: free_cells,
        empty: empty_other,
        dest_empty,
        source_emptied,
    };
    Ok(cost_of_run(n, spare))
}

/// Move the top `n` cards of `from` (the deepest of them `deepest`) to `to`, a move
/// [`apply_checked`] has found legal (one card unless both are cascades).
fn apply_unchecked(b: &mut Board, from: Loc, to: Loc, n: usize, deepest: Card) {
    let start = match from {
        Loc::Cascade(i) => b.cascades[i as usize].len() - n,
        _ => 0,
    };
    match (from, to) {
        (Loc::Cascade(i), Loc::Cascade(k)) => {
            for idx in start..start + n {
                let c = b.cascades[i as usize][idx];
                b.cascades[k as usize].push(c);
            }
        }
        (_, Loc::Cascade(k)) => b.cascades[k as usize].push(deepest),
        (_, Loc::Foundation) => b.foundations[deepest.suit().index()] += 1,
        (_, Loc::Freecell(j)) => b.freecells[j as usize] = Some(deepest),
    }
    match from {
        Loc::Cascade(i) => b.cascades[i as usize].truncate(start),
        Loc::Freecell(j) => b.freecells[j as usize] = None,
        Loc::Foundation => unreachable!("checked by apply_checked"),
    }
}

/// `upper` may lie on `lower` in a cascade: one rank lower, the other colour.
pub fn stacks_on(lower: Card, upper: Card) -> bool {
    lower.rank().value() == upper.rank().value() + 1 && lower.is_red() != upper.is_red()
}

/// What a run's single-card moves may use beside the run ([`cost_of_run`]).
#[derive(Clone, Copy)]
struct Spare {
    /// Free freecells.
    cells: usize,
    /// Empty cascades other than the source and the destination.
    empty: usize,
    /// The destination is empty: a parking place until the run's deepest card goes there.
    dest_empty: bool,
    /// The run is its whole cascade: a parking place once its deepest card has left.
    source_emptied: bool,
}

/// The fewest single-card moves for a run of `n` cards (1..=13) with `spare`. Written apart
/// from the search's count: top down, each case worked out once ([`Worked`]). All but one
/// card through the freecells when they hold them; else some top part of the run parked on
/// one empty cascade (which may use an empty destination), the rest moved, and the parked
/// part brought over (which may use the emptied source, and its own cascade once emptied);
/// the cheapest. A run that cannot move (beyond the supermove limit, which the caller
/// checks) counts `2n - 1`.
fn cost_of_run(n: usize, spare: Spare) -> usize {
    // Every card but the deepest leaves the run and comes back at least once: no count is
    // below 2n - 1, which the freecells give when they hold all but one card (most moves).
    if n <= spare.cells + 1 {
        return 2 * n - 1;
    }
    let spare = Spare {
        empty: spare.empty.min(MOST_EMPTY),
        ..spare
    };
    let mut worked = [[[[UNKNOWN; 2]; 2]; MOST_EMPTY + 1]; 14];
    cheapest(n.min(13), spare, &mut worked).map_or(2 * n - 1, usize::from)
}

/// Most empty cascades beside a run's source and destination (8 cascades in all).
const MOST_EMPTY: usize = 6;
/// A case of [`cheapest`] not worked out yet.
const UNKNOWN: Option<u8> = Some(u8::MAX);
/// Per run length, empty cascades, empty destination and emptied source: the cheapest
/// count, `None` if the run cannot move, or [`UNKNOWN`].
type Worked = [[[[Option<u8>; 2]; 2]; MOST_EMPTY + 1]; 14];

/// [`cost_of_run`]'s minimum, `None` when the run cannot move.
fn cheapest(n: usize, s: Spare, worked: &mut Worked) -> Option<u8> {
    let slot = worked[n][s.empty][s.dest_empty as usize][s.source_emptied as usize];
    if slot != UNKNOWN {
        return slot;
    }
    let mut found = (n <= s.cells + 1).then(|| (2 * n - 1) as u8);
    if s.empty > 0 {
        let fewer = s.empty - 1;
        let park = Spare {
            empty: fewer + usize::from(s.dest_empty),
            dest_empty: true,
            source_emptied: false,
            ..s
        };
        let rest = Spare { empty: fewer, ..s };
        let back = Spare {
            empty: fewer + usize::from(s.source_emptied),
            dest_empty: false,
            source_emptied: true,
            ..s
        };
        for top in 1..n {
            let (Some(a), Some(b), Some(c)) = (
                cheapest(top, park, worked),
                cheapest(n - top, rest, worked),
                cheapest(top, back, worked),
            ) else {
                continue;
            };
            found = Some(found.map_or(a + b + c, |f| f.min(a + b + c)));
        }
    }
    worked[n][s.empty][s.dest_empty as usize][s.source_emptied as usize] = found;
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A count and a card that disagree are named as such: the count the card would need
    /// (formerly: only "the card moved would be 9H, not 4H").
    #[test]
    fn a_count_that_disagrees_with_the_card_says_so() {
        let mut b = fcauto_deals::ms_deal(617).unwrap();
        let col = b.cascades[3].clone();
        let (top, third) = (col[col.len() - 1], col[col.len() - 3]);
        let m = StepMove {
            from: Loc::Cascade(3),
            to: Loc::Freecell(0),
            count: Some(3),
            card: Some(top),
        };
        let err = apply_checked(&mut b, &m).unwrap_err();
        assert_eq!(
            err,
            format!(
                "the card moved would be {third}, not {top}: the count says 3 cards and {top} \
                 would be a move of 1 card"
            )
        );
    }

    /// A refused move leaves the board as it was (`resolve_counts` tries count after count on
    /// one scratch board, copied again only after a legal one): every move shape, every
    /// count up to 14, along walks of legal moves from deals 1..=12.
    #[test]
    fn a_refused_move_changes_nothing() {
        let locs: Vec<Loc> = (0..8)
            .map(Loc::Cascade)
            .chain((0..4).map(Loc::Freecell))
            .chain([Loc::Foundation])
            .collect();
        let (mut refused, mut made) = (0, 0);
        for deal in 1..=12u64 {
            let mut b = fcauto_deals::ms_deal(deal).unwrap();
            for step in 0..60usize {
                let mut legal = Vec::new();
                for &from in &locs {
                    for &to in &locs {
                        for count in [None, Some(0)].into_iter().chain((1..=14).map(Some)) {
                            let m = StepMove {
                                from,
                                to,
                                count,
                                card: None,
                            };
                            let mut t = b.clone();
                            match apply_checked(&mut t, &m) {
                                Ok(_) => legal.push(m),
                                Err(e) => {
                                    assert_eq!(t, b, "deal {deal} step {step} {m:?}: {e}");
                                    refused += 1;
                                }
                            }
                        }
                    }
                }
                let Some(&m) = legal.get((step * 7 + deal as usize) % legal.len().max(1)) else {
                    break;
                };
                apply_checked(&mut b, &m).unwrap();
                made += 1;
            }
        }
        assert!(refused > 100_000 && made > 300, "{refused} {made}");
    }

    /// The validator's count of a supermove's single-card moves, written apart, agrees with
    /// the search's ([`crate::moves::single_card_cost`]) on every run that may move.
    #[test]
    fn run_costs_agree_with_the_searchs() {
        for cells in 0..=8 {
            for empty in 0..=6 {
                for n in (1..=13).filter(|&n| n <= (cells + 1) << empty) {
                    for (dest_empty, source_emptied) in
                        [(false, false), (true, false), (false, true), (true, true)]
                    {
                        let spare = Spare {
                            cells,
                            empty,
                            dest_empty,
                            source_emptied,
                        };
                        let m = crate::moves::RunMove {
                            cards: n,
                            free_cells: cells,
                            empty,
                            dest_empty,
                            source_emptied,
                        };
                        assert_eq!(
                            cost_of_run(n, spare),
                            crate::moves::single_card_cost(m),
                            "{m:?}"
                        );
                    }
                }
            }
        }
    }
}
