//! Saved and held games of every game of the FreeCell family fcauto plays
//! ([`fcauto_deals::GAMES`]): the game named by the file's id ([`Game::by_pysol_id`]), its
//! position as a [`Layout`] (up to 10 cascades and 8 freecells) and its moves as PySolFC
//! recorded them, in standard notation.
//!
//! Each game's stacks sit in PySolFC's `game.allstacks` in the order its `createGame`
//! makes them ([`StackMap`]): FreeCell and the games built on its class (Baker's Game,
//! ForeCell, FreeCell with 2 or no reserves, ...) make the talon, the four foundations
//! (clubs, spades, hearts, diamonds), the rows, the reserves; Seahaven Towers the reserves
//! first, then the foundations, the rows and the talon; Eight Off and the games without
//! freecells (Beleaguered Castle, Streets and Alleys, Citadel) the foundations, the rows,
//! the reserves and the talon last. (Read from PySolFC 3.2's own classes by
//! `tests/fixtures/savedgame-family/make.py`, whose files carry the real ids.)

use std::path::Path;

use fcauto_deals::{Card, Game, Layout, PysolNumber, Suit};

use super::cards::{card_of, cards_text, pysol_id};
use super::{AtomicMove, FreecellHistory, SavedGame, SavedGameError, Seed};

/// The standard-notation names of freecells: `a`..`g`, then `i` for the eighth (`h` is
/// the foundation in every game).
const CELL_NAMES: [char; 8] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'i'];

/// What one of a game's PySolFC stacks is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackPlace {
    /// The talon (empty once the deal is made).
    Talon,
    /// A foundation, by PySolFC's suit order (0 clubs, 1 spades, 2 hearts, 3 diamonds).
    Foundation(u8),
    /// Cascade 0.. (PySolFC's rows, left to right).
    Cascade(u8),
    /// Freecell 0.. (PySolFC's reserves).
    Freecell(u8),
}

impl StackPlace {
    /// The character standard notation writes: cascades `1`..`9` and `0` for the tenth,
    /// freecells `a`..`g` and `i`, the foundation `h`.
    pub fn notation_char(self) -> Option<char> {
        match self {
            StackPlace::Cascade(9) => Some('0'),
            StackPlace::Cascade(k) if k < 9 => Some((b'1' + k) as char),
            StackPlace::Freecell(j) => CELL_NAMES.get(j as usize).copied(),
            StackPlace::Foundation(_) => Some('h'),
            _ => None,
        }
    }

    /// How errors name it: `cascade 3`, `freecell b`, `foundation S`, `the talon`.
    fn describe(self) -> String {
        match self {
            StackPlace::Talon => "the talon".into(),
            StackPlace::Foundation(s) => {
                format!("foundation {}", "CSHD".as_bytes()[s as usize] as char)
            }
            StackPlace::Cascade(k) => format!("cascade {}", k + 1),
            StackPlace::Freecell(j) => format!("freecell {}", CELL_NAMES[(j as usize).min(7)]),
        }
    }
}

/// Where a game's stacks sit in PySolFC's stack list (see the module docs): the id of its
/// talon, of its first foundation (four in a row), first row and first reserve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackMap {
    /// The talon's id.
    pub talon: u32,
    /// The clubs foundation's id; spades, hearts and diamonds follow.
    pub foundations: u32,
    /// The first row's (cascade 1's) id.
    pub rows: u32,
    /// The first reserve's (freecell a's) id.
    pub reserves: u32,
    /// Cascades.
    pub cascades: u32,
    /// Freecells.
    pub freecells: u32,
}

impl StackMap {
    /// The stacks of `game` as its PySolFC class creates them.
    pub fn of(game: &Game) -> StackMap {
        let (c, f) = (
            u32::from(game.rules.cascades),
            u32::from(game.rules.freecells),
        );
        let (talon, foundations, rows, reserves) = match game.pysol_id {
            // Seahaven Towers, Relaxed Seahaven Towers: reserves, foundations, rows, talon.
            9 | 6 => (f + 4 + c, f, f + 4, 0),
            // Eight Off; Streets and Alleys, Beleaguered Castle, Citadel: foundations,
            // rows, reserves, talon.
            258 | 146 | 34 | 145 => (4 + c + f, 0, 4, 4 + c),
            // FreeCell's class and those built on it: talon, foundations, rows, reserves.
            _ => (0, 1, 5, 5 + c),
        };
        StackMap {
            talon,
            foundations,
            rows,
            reserves,
            cascades: c,
            freecells: f,
        }
    }

    /// How many stacks the game has.
    pub fn len(&self) -> usize {
        (1 + 4 + self.cascades + self.freecells) as usize
    }

    /// Never: every game has its talon and foundations.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// What stack `id` is, if the game has it.
    pub fn place(&self, id: u32) -> Option<StackPlace> {
        let within = |first: u32, n: u32| (first..first + n).contains(&id).then(|| id - first);
        if id == self.talon {
            Some(StackPlace::Talon)
        } else if let Some(s) = within(self.foundations, 4) {
            Some(StackPlace::Foundation(s as u8))
        } else if let Some(k) = within(self.rows, self.cascades) {
            Some(StackPlace::Cascade(k as u8))
        } else {
            within(self.reserves, self.freecells).map(|j| StackPlace::Freecell(j as u8))
        }
    }

    /// The stack id of cascade `k`.
    fn row(&self, k: usize) -> usize {
        self.rows as usize + k
    }

    /// The stack id of freecell `j`.
    fn reserve(&self, j: usize) -> usize {
        self.reserves as usize + j
    }
}

/// A game of the family other than standard FreeCell, as its file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyHistory {
    /// The game (from the file's id).
    pub game: &'static Game,
    /// PySolFC's number of the deal (`msN` for a Microsoft-numbered one), when the seed is
    /// one; its deal is checked to be the start. `None` for PySolFC's `Custom` deals.
    pub number: Option<PysolNumber>,
    /// The deal's layout: the stored stacks with the played moves taken back.
    pub start: Layout,
    /// The played moves in standard notation, one token each (`3a`, `ah`, `0b`, `38v4` where
    /// PySolFC moved 4 cards at once); PySolFC's auto-drops are included as the home moves
    /// they are.
    pub moves: Vec<String>,
    /// The stored position (the moves replayed from the start reach it, which is checked).
    pub position: Layout,
}

/// A saved or held game of any game fcauto plays: standard FreeCell keeps its own type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameHistory {
    /// Standard FreeCell (PySolFC id 8).
    Freecell(FreecellHistory),
    /// Another game of the family.
    Family(FamilyHistory),
}

impl GameHistory {
    /// The game.
    pub fn game(&self) -> &'static Game {
        match self {
            GameHistory::Freecell(_) => Game::freecell(),
            GameHistory::Family(f) => f.game,
        }
    }

    /// The played moves in standard notation.
    pub fn moves(&self) -> &[String] {
        match self {
            GameHistory::Freecell(h) => &h.moves,
            GameHistory::Family(h) => &h.moves,
        }
    }

    /// The start as a [`Layout`].
    pub fn start_layout(&self) -> Layout {
        match self {
            GameHistory::Freecell(h) => Layout::from_board(&h.start, 4),
            GameHistory::Family(h) => h.start.clone(),
        }
    }

    /// The stored position as a [`Layout`].
    pub fn position_layout(&self) -> Layout {
        match self {
            GameHistory::Freecell(h) => Layout::from_board(&h.position, 4),
            GameHistory::Family(h) => h.position.clone(),
        }
    }
}

/// The ids and names of the games fcauto plays (`8 FreeCell, 1900 FreeCell (2 Reserves),
/// ...`), for errors naming a game it does not play.
pub fn known_games() -> String {
    fcauto_deals::GAMES
        .iter()
        .map(|g| format!("{} {}", g.pysol_id, g.pysol_name))
        .collect::<Vec<_>>()
        .join(", ")
}

impl SavedGame {
    /// The game of the file's id, if fcauto plays it.
    pub fn game(&self) -> Option<&'static Game> {
        Game::by_pysol_id(self.game_id)
    }

    /// The game, its start, moves and position, for every game fcauto plays: standard
    /// FreeCell as [`SavedGame::freecell_game_of`], another game as
    /// [`SavedGame::family_game_of`]. `origin` names the file in errors.
    ///
    /// Errors: [`SavedGameError::UnknownGame`] for an id fcauto does not play; else as the
    /// function for the game.
    pub fn game_history(&self, origin: &Path) -> Result<GameHistory, SavedGameError> {
        match self.game() {
            None => Err(SavedGameError::UnknownGame {
                path: origin.to_path_buf(),
                game_id: self.game_id,
                known: known_games(),
            }),
            Some(g) if g.pysol_id == super::FREECELL_ID => {
                self.freecell_game_of(origin).map(GameHistory::Freecell)
            }
            Some(_) => self.family_game_of(origin).map(GameHistory::Family),
        }
    }

    /// The stored position of a game of the family as a [`Layout`]: its rows as cascades,
    /// its reserves as freecells, its foundations as top ranks ([`StackMap`]).
    ///
    /// Errors: [`SavedGameError::UnknownGame`]; [`SavedGameError::Damaged`] when the stacks
    /// are not the game's, a card id is not 0..=51, a reserve holds more than one card, a
    /// foundation is out of order, the talon is not empty, or the cards are not one deck.
    pub fn layout(&self, origin: &Path) -> Result<Layout, SavedGameError> {
        let game = self.game().ok_or_else(|| SavedGameError::UnknownGame {
            path: origin.to_path_buf(),
            game_id: self.game_id,
            known: known_games(),
        })?;
        let map = StackMap::of(game);
        let damaged = |reason: String| SavedGameError::Damaged {
            path: origin.to_path_buf(),
            item: "the stacks",
            reason,
        };
        if self.stacks.len() != map.len() {
            return Err(damaged(format!(
                "{} stacks, {} has {}",
                self.stacks.len(),
                game.pysol_name,
                map.len()
            )));
        }
        let ids: Vec<Vec<u32>> = self
            .stacks
            .iter()
            .map(|s| s.iter().map(|c| c.id).collect())
            .collect();
        layout_of(&ids, &map).map_err(damaged).and_then(|l| {
            l.check(&game.rules)
                .map_err(|e| damaged(e.to_string()))
                .map(|()| l)
        })
    }

    /// The played moves of a game of the family other than standard FreeCell (for that one
    /// use [`SavedGame::freecell_game_of`]): the start is the stored stacks with the played
    /// moves (history entries before `move_index`) taken back, checked to be PySolFC's deal
    /// of the seed's number for that game; the moves are replayed from it in standard
    /// notation and must reach the stored position.
    ///
    /// Errors: as [`SavedGame::layout`]; [`SavedGameError::Inconsistent`] when a move is not
    /// a card move, names a stack the game does not have, takes a card back from a
    /// foundation, cannot be taken back, the start is not the seed's deal, or the replay ends
    /// elsewhere than the stored position.
    pub fn family_game_of(&self, origin: &Path) -> Result<FamilyHistory, SavedGameError> {
        let position = self.layout(origin)?;
        let game = self.game().expect("checked by layout");
        let map = StackMap::of(game);
        let bad = |reason: String| SavedGameError::Inconsistent {
            path: origin.to_path_buf(),
            reason,
        };
        let played = &self.history[..self.move_index];
        let mut st: Vec<Vec<u32>> = self
            .stacks
            .iter()
            .map(|s| s.iter().map(|c| c.id).collect())
            .collect();
        take_back(&mut st, played).map_err(bad)?;
        let start = layout_of(&st, &map).map_err(bad)?;
        let number = match &self.seed {
            Seed::Ms(n) => PysolNumber::ms(*n).ok(),
            Seed::Other(s) => s.parse().ok().and_then(|n| PysolNumber::plain(n).ok()),
            Seed::Custom => None,
        };
        if let Some(n) = number {
            let dealt = fcauto_deals::deal_game(game, n);
            if dealt != start {
                return Err(bad(format!(
                    "the moves taken back do not lead to PySolFC's deal {n} of {}",
                    game.pysol_name
                )));
            }
        }
        start
            .check(&game.rules)
            .map_err(|e| bad(format!("the start: {e}")))?;
        let mut st = stacks_of(&start, &map);
        let mut moves = Vec::with_capacity(played.len());
        for (k, entry) in played.iter().enumerate() {
            for atom in entry {
                moves.push(play_family_atom(&mut st, &map, k + 1, atom).map_err(bad)?);
            }
        }
        let reached = layout_of(&st, &map).map_err(bad)?;
        if reached != position {
            return Err(bad(first_difference(
                &st,
                &self.stacks,
                &map,
                self.move_index,
            )));
        }
        Ok(FamilyHistory {
            game,
            number,
            start,
            moves,
            position,
        })
    }
}

/// The played history entries taken back from `st` (card ids per stack), newest first.
fn take_back(st: &mut [Vec<u32>], played: &[Vec<AtomicMove>]) -> Result<(), String> {
    for (k, entry) in played.iter().enumerate().rev() {
        for atom in entry.iter().rev() {
            let AtomicMove::Move { ncards, from, to } = *atom else {
                return Err(format!("move {} is {atom}, not a card move", k + 1));
            };
            let (from, to, n) = (from as usize, to as usize, ncards as usize);
            if from >= st.len() || to >= st.len() || n > st[to].len() {
                return Err(format!(
                    "move {} cannot be taken back: {n} cards from stack {to} to stack {from}",
                    k + 1
                ));
            }
            let keep = st[to].len() - n;
            let moved = st[to].split_off(keep);
            st[from].extend(moved);
        }
    }
    Ok(())
}

/// The position PySolFC's stacks `st` (card ids, in `map`'s order) hold, or what keeps them
/// from being one: a card id outside one deck, a freecell with two cards, a foundation out
/// of order, cards left in the talon.
fn layout_of(st: &[Vec<u32>], map: &StackMap) -> Result<Layout, String> {
    let cards = |s: usize| -> Result<Vec<Card>, String> {
        st[s]
            .iter()
            .map(|&id| card_of(id).ok_or_else(|| format!("card id {id} is not 0..=51")))
            .collect()
    };
    let mut layout = Layout {
        cascades: Vec::with_capacity(map.cascades as usize),
        freecells: Vec::with_capacity(map.freecells as usize),
        foundations: [0; 4],
    };
    for k in 0..map.cascades as usize {
        layout.cascades.push(cards(map.row(k))?);
    }
    for j in 0..map.freecells as usize {
        let c = cards(map.reserve(j))?;
        if c.len() > 1 {
            return Err(format!(
                "{} holds {} cards",
                StackPlace::Freecell(j as u8).describe(),
                c.len()
            ));
        }
        layout.freecells.push(c.first().copied());
    }
    for (k, suit) in [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds]
        .into_iter()
        .enumerate()
    {
        let c = cards(map.foundations as usize + k)?;
        for (i, card) in c.iter().enumerate() {
            if card.suit() != suit || usize::from(card.rank().value()) != i + 1 {
                return Err(format!(
                    "foundation {} holds {card} at height {}",
                    suit.letter(),
                    i + 1
                ));
            }
        }
        layout.foundations[suit.index()] = c.len() as u8;
    }
    let talon = st[map.talon as usize].len();
    if talon > 0 {
        return Err(format!("the talon holds {talon} cards after the deal"));
    }
    Ok(layout)
}

/// `layout` as PySolFC's stacks (card ids, in `map`'s order).
fn stacks_of(layout: &Layout, map: &StackMap) -> Vec<Vec<u32>> {
    let mut st = vec![Vec::new(); map.len()];
    for (k, col) in layout.cascades.iter().enumerate() {
        st[map.row(k)] = col.iter().map(|&c| pysol_id(c)).collect();
    }
    for (j, cell) in layout.freecells.iter().enumerate() {
        st[map.reserve(j)] = cell.iter().map(|&c| pysol_id(c)).collect();
    }
    for (k, suit) in [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds]
        .into_iter()
        .enumerate()
    {
        st[map.foundations as usize + k] = (0..layout.foundations[suit.index()])
            .map(|r| {
                pysol_id(Card::new(
                    fcauto_deals::Rank::new(r + 1).expect("1..=13"),
                    suit,
                ))
            })
            .collect();
    }
    st
}

/// One atomic move of the history, `step`, played on `st`; its standard-notation token, or
/// why it cannot be one.
fn play_family_atom(
    st: &mut [Vec<u32>],
    map: &StackMap,
    step: usize,
    atom: &AtomicMove,
) -> Result<String, String> {
    let name = |id: u32| map.place(id).and_then(StackPlace::notation_char);
    let stacks = || {
        format!(
            "the game's stacks are 0-{}, its talon {}",
            map.len() - 1,
            map.talon
        )
    };
    super::play_named_atom(st, step, atom, name, stacks)
}

/// Which stack the replay leaves other than the file stores it, in words.
fn first_difference(
    st: &[Vec<u32>],
    stored: &[Vec<super::StoredCard>],
    map: &StackMap,
    played: usize,
) -> String {
    for (s, want) in stored.iter().enumerate() {
        let want: Vec<u32> = want.iter().map(|c| c.id).collect();
        if st[s] != want {
            let name = map
                .place(s as u32)
                .map_or(format!("stack {s}"), StackPlace::describe);
            return format!(
                "after the {played} played moves {name} holds {}, the file stores {}",
                cards_text(&st[s]),
                cards_text(&want)
            );
        }
    }
    "the replayed position differs from the stored one".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stack_maps_follow_pysolfcs_creation_order() {
        let map = |id| StackMap::of(Game::by_pysol_id(id).unwrap());
        // FreeCell: talon 0, foundations 1-4, rows 5-12, reserves 13-16.
        let fc = map(8);
        assert_eq!(
            (fc.talon, fc.foundations, fc.rows, fc.reserves, fc.len()),
            (0, 1, 5, 13, 17)
        );
        // Seahaven Towers: reserves 0-3, foundations 4-7, rows 8-17, talon 18.
        let st = map(9);
        assert_eq!(
            (st.talon, st.foundations, st.rows, st.reserves, st.len()),
            (18, 4, 8, 0, 19)
        );
        assert_eq!(st.place(17), Some(StackPlace::Cascade(9)));
        assert_eq!(StackPlace::Cascade(9).notation_char(), Some('0'));
        // Eight Off: foundations 0-3, rows 4-11, reserves 12-19, talon 20.
        let eo = map(258);
        assert_eq!(
            (eo.talon, eo.foundations, eo.rows, eo.reserves, eo.len()),
            (20, 0, 4, 12, 21)
        );
        assert_eq!(eo.place(19).and_then(StackPlace::notation_char), Some('i'));
        // FreeCell with 2 reserves: 15 stacks.
        assert_eq!(map(1900).len(), 15);
        assert_eq!(map(1900).place(15), None);
    }

    #[test]
    fn a_layout_round_trips_through_stacks() {
        let g = Game::by_pysol_id(9).unwrap();
        let l = fcauto_deals::deal_game(g, PysolNumber::plain(40000).unwrap());
        let map = StackMap::of(g);
        assert_eq!(layout_of(&stacks_of(&l, &map), &map).unwrap(), l);
    }
}
