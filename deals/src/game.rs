//! The FreeCell family as data: a game's rules ([`Rules`]), the games fcauto knows
//! ([`GAMES`], by Freecell Solver's names with PySolFC's names and ids as aliases), and a
//! position of any of them ([`Layout`]).
//!
//! Standard FreeCell (8 cascades, 4 freecells, alternate colours, any card to an empty
//! cascade, limited sequence moves) keeps its own fast types ([`crate::Board`] and the
//! solver's fixed-size state); the other games use [`Layout`] and the solver's family search.

use crate::board::Board;
use crate::card::Card;
use std::fmt;

/// Most cascades a game of the family has (Seahaven Towers: 10).
pub const MAX_CASCADES: usize = 10;
/// Most freecells a game may have (Eight Off: 8; `--freecells` accepts 0..=8).
pub const MAX_FREECELLS: usize = 8;

/// How cards build down on a cascade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuildOrder {
    /// One rank lower, the other colour (FreeCell).
    AlternateColour,
    /// One rank lower, the same suit (Baker's Game, Eight Off, Seahaven Towers).
    Suit,
    /// One rank lower, any suit (Beleaguered Castle).
    Rank,
}

/// What may be moved onto an empty cascade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EmptyFill {
    /// Any card or run.
    Any,
    /// Only a king, or a run headed by a king.
    Kings,
    /// Nothing: an empty cascade stays empty.
    None,
}

/// How many cards of a run move at once between cascades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SequenceMove {
    /// As many as the free freecells and empty cascades could carry one card at a time (a
    /// supermove); see [`Rules::sequence_limit`].
    Limited,
    /// Any run moves as a unit ("relaxed" games).
    Unlimited,
}

/// The rules of a game of the FreeCell family. Four foundations, one deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Number of cascades, 1..=[`MAX_CASCADES`].
    pub cascades: u8,
    /// Number of freecells, 0..=[`MAX_FREECELLS`].
    pub freecells: u8,
    /// How runs are built on cascades.
    pub build: BuildOrder,
    /// What may fill an empty cascade.
    pub empty: EmptyFill,
    /// Whether runs move as a unit or by the supermove limit.
    pub sequence: SequenceMove,
}

impl Rules {
    /// Standard FreeCell: 8 cascades, 4 freecells, alternate colours, any card to an empty
    /// cascade, limited sequence moves.
    pub const FREECELL: Rules = Rules {
        cascades: 8,
        freecells: 4,
        build: BuildOrder::AlternateColour,
        empty: EmptyFill::Any,
        sequence: SequenceMove::Limited,
    };

    /// Rules from their parts, in the order the fields are declared.
    pub const fn new(
        cascades: u8,
        freecells: u8,
        build: BuildOrder,
        empty: EmptyFill,
        sequence: SequenceMove,
    ) -> Rules {
        Rules {
            cascades,
            freecells,
            build,
            empty,
            sequence,
        }
    }

    /// True for standard FreeCell, which the fast solver plays.
    pub fn is_standard(&self) -> bool {
        *self == Rules::FREECELL
    }

    /// These rules with `n` freecells (fc-solve's `--freecells-num`).
    pub fn with_freecells(self, n: u8) -> Rules {
        Rules {
            freecells: n,
            ..self
        }
    }

    /// The most cards a run may move between cascades with `free_cells` empty freecells and
    /// `empty_cascades` empty cascades (the destination, if empty, counted among them),
    /// `dest_empty` when the destination is one of them; `None` when unlimited. As in
    /// fc-solve and PySolFC: when any card fills an empty cascade,
    /// (free cells + 1) x 2^(empty cascades other than the destination); when only kings or
    /// nothing may, free cells + 1 (an empty cascade cannot hold a partial run).
    pub fn sequence_limit(
        &self,
        free_cells: usize,
        empty_cascades: usize,
        dest_empty: bool,
    ) -> Option<usize> {
        match (self.sequence, self.empty) {
            (SequenceMove::Unlimited, _) => None,
            (SequenceMove::Limited, EmptyFill::Any) => {
                let spare = empty_cascades.saturating_sub(dest_empty as usize);
                Some((free_cells + 1) << spare.min(16))
            }
            (SequenceMove::Limited, _) => Some(free_cells + 1),
        }
    }

    /// True when `top` may be placed on `below` in a cascade under these rules.
    pub fn builds_on(&self, below: Card, top: Card) -> bool {
        if below.rank().value() != top.rank().value() + 1 {
            return false;
        }
        match self.build {
            BuildOrder::AlternateColour => below.is_red() != top.is_red(),
            BuildOrder::Suit => below.suit() == top.suit(),
            BuildOrder::Rank => true,
        }
    }

    /// True when `card` (alone or heading a run) may be moved onto an empty cascade.
    pub fn fills_empty(&self, card: Card) -> bool {
        match self.empty {
            EmptyFill::Any => true,
            EmptyFill::Kings => card.rank().value() == 13,
            EmptyFill::None => false,
        }
    }
}

/// Which cards a game's deal puts on the foundations (PySolFC's `_shuffleHook` and
/// `startGame`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FoundationDeal {
    /// None: every card goes to a cascade or a freecell.
    Nothing,
    /// The four aces start on the foundations and the other 48 cards are dealt, in the
    /// shuffle's order (Beleaguered Castle).
    Aces,
    /// The aces start on the foundations, then each card that fits its foundation goes there
    /// as the cards are dealt, in the turn of the cascade it would have gone to (Citadel).
    WhileDealing,
}

/// A game of the family as fcauto names and deals it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// Freecell Solver's name (`-g`), or for a PySolFC game fc-solve plays with a flag, the
    /// fc-solve name followed by the change (`freecell_2_freecells`).
    pub name: &'static str,
    /// PySolFC's game id (`--game 45`).
    pub pysol_id: u32,
    /// PySolFC's title of the game ("Baker's Game").
    pub pysol_name: &'static str,
    /// Other names accepted (fc-solve's aliases).
    pub aliases: &'static [&'static str],
    /// The rules.
    pub rules: Rules,
    /// Freecells that hold a card at the deal, in the order the deal fills them (PySolFC's
    /// `startGame`): the last cards of the shuffled deck go there after the cascades.
    pub dealt_to_cells: &'static [u8],
    /// The cards the deal puts on the foundations.
    pub foundation_deal: FoundationDeal,
}

use BuildOrder::{AlternateColour as Alt, Suit as SameSuit};
use EmptyFill::{Any, Kings};
use SequenceMove::{Limited, Unlimited};

/// The games fcauto deals and solves, standard FreeCell first.
pub const GAMES: &[Game] = &[
    Game {
        name: "freecell",
        pysol_id: 8,
        pysol_name: "FreeCell",
        aliases: &[],
        rules: Rules::FREECELL,
        dealt_to_cells: &[],
        foundation_deal: FoundationDeal::Nothing,
    },
    Game {
        name: "freecell_2_freecells",
        pysol_id: 1900,
        pysol_name: "FreeCell (2 Reserves)",
        aliases: &[],
        rules: Rules::new(8, 2, Alt, Any, Limited),
        dealt_to_cells: &[],
        foundation_deal: FoundationDeal::Nothing,
    },
    Game {
        name: "freecell_0_freecells",
        pysol_id: 1901,
        pysol_name: "FreeCell (No Reserve)",
        aliases: &[],
        rules: Rules::new(8, 0, Alt, Any, Limited),
        dealt_to_cells: &[],
        foundation_deal: FoundationDeal::Nothing,
    },
    Game {
        name: "bakers_game",
        pysol_id: 45,
        pysol_name: "Baker's Game",
        aliases: &[],
        rules: Rules::new(8, 4, SameSuit, Any, Limited),
        dealt_to_cells: &[],
        foundation_deal: FoundationDeal::Nothing,
    },
    Game {
        name: "ko_bakers_game",
        pysol_id: 26,
        pysol_name: "King Only Baker's Game",
        aliases: &["kings_only_bakers_game"],
        rules: Rules::new(8, 4, SameSuit, Kings, Limited),
        dealt_to_cells: &[],
        foundation_deal: FoundationDeal::Nothing,
    },
    Game {
        name: "eight_off",
        pysol_id: 258,
        pysol_name: "Eight Off",
        aliases: &[],
        rules: Rules::new(8, 8, SameSuit, Kings, Limited),
        dealt_to_cells: &[0, 2, 4, 6],
        foundation_deal: FoundationDeal::Nothing,
    },
    Game {
        name: "forecell",
        pysol_id: 46,
        pysol_name: "ForeCell",
        aliases: &[],
        rules: Rules::new(8, 4, Alt, Kings, Limited),
        dealt_to_cells: &[0, 1, 2, 3],
        foundation_deal: FoundationDeal::Nothing,
    },
    Game {
        name: "relaxed_freecell",
        pysol_id: 5,
        pysol_name: "Relaxed FreeCell",
        aliases: &[],
        rules: Rules::new(8, 4, Alt, Any, Unlimited),
        dealt_to_cells: &[],
        foundation_deal: FoundationDeal::Nothing,
    },
    Game {
        name: "seahaven_towers",
        pysol_id: 9,
        pysol_name: "Seahaven Towers",
        aliases: &["seahaven"],
        rules: Rules::new(10, 4, SameSuit, Kings, Limited),
        dealt_to_cells: &[1, 2],
        foundation_deal: FoundationDeal::Nothing,
    },
    Game {
        name: "relaxed_seahaven_towers",
        pysol_id: 6,
        pysol_name: "Relaxed Seahaven Towers",
        aliases: &["relaxed_seahaven"],
        rules: Rules::new(10, 4, SameSuit, Kings, Unlimited),
        dealt_to_cells: &[1, 2],
        foundation_deal: FoundationDeal::Nothing,
    },
    // fc-solve plays the next three with one preset (`-g beleaguered_castle`: no freecells,
    // built by rank, any card to an empty cascade, limited sequence moves); PySolFC deals
    // them differently.
    Game {
        name: "streets_and_alleys",
        pysol_id: 146,
        pysol_name: "Streets and Alleys",
        aliases: &[],
        rules: Rules::new(8, 0, BuildOrder::Rank, Any, Limited),
        dealt_to_cells: &[],
        foundation_deal: FoundationDeal::Nothing,
    },
    Game {
        name: "beleaguered_castle",
        pysol_id: 34,
        pysol_name: "Beleaguered Castle",
        aliases: &[],
        rules: Rules::new(8, 0, BuildOrder::Rank, Any, Limited),
        dealt_to_cells: &[],
        foundation_deal: FoundationDeal::Aces,
    },
    Game {
        name: "citadel",
        pysol_id: 145,
        pysol_name: "Citadel",
        aliases: &[],
        rules: Rules::new(8, 0, BuildOrder::Rank, Any, Limited),
        dealt_to_cells: &[],
        foundation_deal: FoundationDeal::WhileDealing,
    },
];

/// A name or id that names no game of [`GAMES`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game `{given}`: fcauto plays {known} (a name, or PySolFC's id)")]
pub struct UnknownGame {
    /// What was asked for.
    pub given: String,
    /// The games' names, comma separated.
    pub known: String,
}

impl Game {
    /// Standard FreeCell.
    pub fn freecell() -> &'static Game {
        &GAMES[0]
    }

    /// The game named `s`: a Freecell Solver name or alias, PySolFC's title (any case), or
    /// PySolFC's id (`45`).
    pub fn find(s: &str) -> Result<&'static Game, UnknownGame> {
        let t = s.trim();
        let id: Option<u32> = t.parse().ok();
        GAMES
            .iter()
            .find(|g| {
                Some(g.pysol_id) == id
                    || g.name.eq_ignore_ascii_case(t)
                    || g.aliases.iter().any(|a| a.eq_ignore_ascii_case(t))
                    || g.pysol_name.eq_ignore_ascii_case(t)
            })
            .ok_or_else(|| UnknownGame {
                // Whole: the answers of `serve` and `mcp` cut it to its opening and its size
                // ([`crate::text::short_echoes`]), as the command line's clap quotes it whole.
                given: t.to_string(),
                known: GAMES.iter().map(|g| g.name).collect::<Vec<_>>().join(", "),
            })
    }

    /// The game PySolFC numbers `id` (its saved and held games carry the id), if fcauto
    /// plays it.
    pub fn by_pysol_id(id: u32) -> Option<&'static Game> {
        GAMES.iter().find(|g| g.pysol_id == id)
    }

    /// Cards dealt to the cascades: 52 less those dealt to freecells and the aces a deal
    /// starts on the foundations (Citadel's deal sends more there as it goes: at most this
    /// many).
    pub fn cascade_cards(&self) -> usize {
        let aces = match self.foundation_deal {
            FoundationDeal::Nothing => 0,
            FoundationDeal::Aces | FoundationDeal::WhileDealing => 4,
        };
        52 - self.dealt_to_cells.len() - aces
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (PySolFC {} #{})",
            self.name, self.pysol_name, self.pysol_id
        )
    }
}

/// A position of any game of the family: its cascades (each deepest card first), its
/// freecell slots (as many as the game has), and per suit (C, D, H, S) the top rank on the
/// foundation. Standard FreeCell's [`Board`] converts to and from it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The cascades, each from the deepest card to the top card.
    pub cascades: Vec<Vec<Card>>,
    /// The freecell slots `a`, `b`, ... (`None` when empty).
    pub freecells: Vec<Option<Card>>,
    /// Per suit (C, D, H, S): top rank on the foundation, 0..=13.
    pub foundations: [u8; 4],
}

impl Layout {
    /// Standard FreeCell's board with `freecells` slots: the board's own four, cut or padded
    /// with empty slots (a deal of FreeCell with 2 freecells is the same cascades).
    pub fn from_board(b: &Board, freecells: usize) -> Layout {
        let mut cells: Vec<Option<Card>> = b.freecells.to_vec();
        cells.resize(freecells, None);
        Layout {
            cascades: b.cascades.clone(),
            freecells: cells,
            foundations: b.foundations,
        }
    }

    /// The standard FreeCell board of this layout, when it has 8 cascades and its cards fit
    /// in 4 freecell slots (cards in slots beyond the fourth make it `None`).
    pub fn to_board(&self) -> Option<Board> {
        if self.cascades.len() != 8 || self.freecells.iter().skip(4).any(Option::is_some) {
            return None;
        }
        let mut freecells = [None; 4];
        for (slot, c) in freecells.iter_mut().zip(&self.freecells) {
            *slot = *c;
        }
        Some(Board {
            cascades: self.cascades.clone(),
            freecells,
            foundations: self.foundations,
        })
    }

    /// True when every card is on its foundation.
    pub fn is_won(&self) -> bool {
        self.foundations.iter().all(|&f| f == 13)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_games_by_name_alias_title_and_id() {
        assert_eq!(Game::find("bakers_game").unwrap().pysol_id, 45);
        assert_eq!(Game::find("45").unwrap().name, "bakers_game");
        assert_eq!(Game::find("seahaven").unwrap().pysol_id, 9);
        assert_eq!(Game::find("Eight Off").unwrap().rules.freecells, 8);
        assert_eq!(Game::by_pysol_id(258).unwrap().name, "eight_off");
        assert!(Game::by_pysol_id(2).is_none());
        let e = Game::find("klondike").unwrap_err();
        assert!(e.to_string().contains("unknown game `klondike`"), "{e}");
        assert!(e.to_string().contains("seahaven_towers"), "{e}");
    }

    #[test]
    fn sequence_limit_follows_the_fill_rule() {
        let fc = Rules::FREECELL;
        assert_eq!(fc.sequence_limit(4, 2, false), Some(20));
        assert_eq!(fc.sequence_limit(4, 2, true), Some(10));
        let bakers = Game::find("ko_bakers_game").unwrap().rules;
        assert_eq!(bakers.sequence_limit(4, 2, false), Some(5));
        let relaxed = Game::find("relaxed_freecell").unwrap().rules;
        assert_eq!(relaxed.sequence_limit(0, 0, false), None);
    }

    #[test]
    fn every_game_deals_52_cards_into_its_cells_and_cascades() {
        for g in GAMES {
            assert!(g.rules.cascades as usize <= MAX_CASCADES, "{g}");
            assert!(g.rules.freecells as usize <= MAX_FREECELLS, "{g}");
            assert!(
                g.dealt_to_cells.iter().all(|&c| c < g.rules.freecells),
                "{g}"
            );
            let aces = if g.foundation_deal == FoundationDeal::Nothing {
                0
            } else {
                4
            };
            assert_eq!(g.cascade_cards() + g.dealt_to_cells.len() + aces, 52);
        }
        assert!(Game::freecell().rules.is_standard());
    }
}
