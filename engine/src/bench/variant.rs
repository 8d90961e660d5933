//! Which game of the FreeCell family a bench or a batch run deals and solves ([`Variant`]):
//! the game, its rules (its freecells changed by `--freecells`), and whose numbers the deal
//! numbers are. Standard FreeCell with Microsoft's numbers goes to the fast solver
//! ([`fcauto_solver::solve_checked`]); every other variant to the family search
//! ([`fcauto_solver::family::solve_family`]), whose verdicts are exact and whose solutions
//! pass [`fcauto_solver::family::validate_family`].

use anyhow::Result;
use fcauto_deals::game::{BuildOrder, EmptyFill, SequenceMove};
use fcauto_deals::{
    deal_with_rules, ms_deal, plural, pysol_deal::MT_FROM, Board, DealRange, Game, Layout,
    PysolNumber, Rules,
};
use fcauto_solver::family::FamilyMode;
use fcauto_solver::Mode;
use serde::Serialize;

/// A game of the family with its rules and numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The game (standard FreeCell when none was named).
    pub game: &'static Game,
    /// The rules played: the game's, with `--freecells` applied.
    pub rules: Rules,
    /// True when the deal numbers are PySolFC's plain numbers for the game (`--game` with a
    /// range `A..B`: the Microsoft shuffle below 32000, the Mersenne Twister from 32000 on,
    /// the game's own layout); false for Microsoft's deals (no `--game`, or `--game` with a
    /// range `msA..msB`: PySolFC's `msN`, the Microsoft shuffle dealt to the game's layout).
    pub pysol_numbers: bool,
}

impl Default for Variant {
    fn default() -> Variant {
        Variant::standard()
    }
}

impl Variant {
    /// Standard FreeCell, Microsoft's deals: what `bench` and `batch` play without `--game`
    /// or `--freecells`.
    pub fn standard() -> Variant {
        Variant {
            game: Game::freecell(),
            rules: Rules::FREECELL,
            pysol_numbers: false,
        }
    }

    /// `game` with `freecells` freecells when given, its deal numbers PySolFC's when
    /// `pysol_numbers` (else Microsoft's). Standard FreeCell's rules are played by the fast
    /// solver in either numbering, as the game `freecell`.
    pub fn new(game: &'static Game, freecells: Option<u8>, pysol_numbers: bool) -> Variant {
        let rules = match freecells {
            Some(n) => game.rules.with_freecells(n),
            None => game.rules,
        };
        if rules.is_standard() {
            return Variant {
                pysol_numbers,
                ..Variant::standard()
            };
        }
        Variant {
            game,
            rules,
            pysol_numbers,
        }
    }

    /// The variant of a run over `range` (`bench`, `batch run`): as [`Variant::new`], where
    /// with `--game` (`named`) a range written `msA..msB` names Microsoft's deals, as `msN`
    /// does everywhere a deal is read. Standard FreeCell's two numberings deal the same
    /// deals below 32000, so a range of standard rules that stays below it is Microsoft's
    /// (the numbering, and the database label, runs of standard FreeCell always had); one
    /// that reaches 32000 with `--game` is PySolFC's, its deals from 32000 on the Mersenne
    /// Twister's.
    ///
    /// # Errors
    /// With `named`, a range mixing `msN` with a plain number from 32000 on.
    pub fn for_range(
        game: &'static Game,
        freecells: Option<u8>,
        named: bool,
        range: &DealRange,
    ) -> Result<Variant, fcauto_deals::RangeError> {
        let microsoft = named && range.microsoft_with_game()?;
        let v = Variant::new(game, freecells, named && !microsoft);
        if v.is_standard() && range.last < MT_FROM {
            return Ok(Variant::standard());
        }
        Ok(v)
    }

    /// True when `self` and `other` deal the same deals below 32000, where PySolFC's plain
    /// numbers and `msN` agree: the same game and rules, whatever the numbering (a run of
    /// `msA..msB` below 32000 may go on in a database of plain numbers, and the other way).
    pub fn agrees_below_mt(&self, other: &Variant) -> bool {
        self.game.name == other.game.name && self.rules == other.rules
    }

    /// True for standard FreeCell, which the fast solver plays (in either numbering).
    pub fn is_standard(&self) -> bool {
        self.rules.is_standard()
    }

    /// True for standard FreeCell on Microsoft's deals: what a run without `--game` plays,
    /// named in summaries and databases as plain `freecell`.
    pub fn is_microsoft_freecell(&self) -> bool {
        self.is_standard() && !self.pysol_numbers
    }

    /// True when deal `n` of this variant is Microsoft's deal `n`: always with Microsoft's
    /// numbering, below 32000 with PySolFC's (from 32000 on its deals are the Mersenne
    /// Twister's). What is known of Microsoft's deals (the impossible ones, fc-solve's
    /// dealing) holds only for these.
    pub fn is_microsoft_deal(&self, n: u64) -> bool {
        !self.pysol_numbers || n < MT_FROM
    }

    /// The deals of `unsolvable` known to be solvable: Microsoft's deals of standard
    /// FreeCell ([`Variant::is_microsoft_deal`]) up to 1,000,000 not on Freecell Pro's list
    /// of impossible ones ([`super::false_unsolvable`]). None for other games and numberings,
    /// of which nothing is known.
    pub fn false_unsolvable(&self, unsolvable: &[u64]) -> Vec<u64> {
        if !self.is_standard() {
            return Vec::new();
        }
        let microsoft: Vec<u64> = (unsolvable.iter().copied())
            .filter(|&n| self.is_microsoft_deal(n))
            .collect();
        super::false_unsolvable(&microsoft)
    }

    /// The board of deal `n` of standard FreeCell's rules: Microsoft's deal `n`
    /// ([`Variant::is_microsoft_deal`]), else PySolFC's Mersenne Twister deal `n` of
    /// FreeCell.
    ///
    /// # Errors
    /// A number out of range, or rules other than standard FreeCell's.
    pub fn standard_board(&self, n: u64) -> Result<Board> {
        if self.is_microsoft_deal(n) {
            return Ok(ms_deal(n)?);
        }
        self.layout(n)?
            .to_board()
            .filter(|_| self.is_standard())
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "deal {n} of {} is not a board of standard FreeCell",
                    self.title()
                )
            })
    }

    /// The layout of deal `n`: PySolFC's deal of the game ([`Variant::pysol_numbers`]), or
    /// Microsoft's deal (PySolFC's `msN`) in the game's layout with the rules' freecells.
    ///
    /// # Errors
    /// A number out of range, or a game that deals more cards to freecells than the rules
    /// have.
    pub fn layout(&self, n: u64) -> Result<Layout> {
        if self.pysol_numbers {
            let number = PysolNumber::plain(u128::from(n))?;
            return Ok(deal_with_rules(self.game, &self.rules, number)?);
        }
        if self.game.name == Game::freecell().name {
            return Ok(Layout::from_board(
                &ms_deal(n)?,
                self.rules.freecells as usize,
            ));
        }
        // PySolFC's `msN`: the Microsoft shuffle dealt to the game's own layout.
        Ok(deal_with_rules(
            self.game,
            &self.rules,
            PysolNumber::ms(n)?,
        )?)
    }

    /// The game's name (Freecell Solver's), with the freecells when `--freecells` changed
    /// them: `seahaven_towers`, `freecell with 2 freecells`.
    pub fn title(&self) -> String {
        crate::verify::family::title(self.game, &self.rules)
    }

    /// How a deal number of this variant is written with its `--game`: `ms` for Microsoft's
    /// deals of a game other than FreeCell (PySolFC's `msN`), else nothing.
    pub fn deal_prefix(&self) -> &'static str {
        deal_prefix(self.game.name, self.pysol_numbers)
    }

    /// `microsoft` or `pysolfc`: whose deal numbers these are.
    pub fn numbering(&self) -> &'static str {
        if self.pysol_numbers {
            "pysolfc"
        } else {
            "microsoft"
        }
    }

    /// The rules as one line of text, as a batch database's rows name them: `freecell` for
    /// standard FreeCell on Microsoft's deals (as every database made before the family
    /// held), else the game, its freecells and its numbering (`seahaven_towers, 4
    /// freecells, pysolfc numbers`).
    pub fn label(&self) -> String {
        if self.is_microsoft_freecell() {
            return "freecell".to_string();
        }
        format!(
            "{}, {}, {} numbers",
            self.game.name,
            plural(self.rules.freecells, "freecell"),
            self.numbering()
        )
    }

    /// The family search's mode for `mode` on this variant's rules, or the one line saying
    /// why not ([`family_mode`], the rule `solve`, `bench`, `batch` and `analyze` share).
    ///
    /// # Errors
    /// As [`family_mode`].
    pub fn family_mode(&self, mode: Mode) -> Result<FamilyMode, String> {
        family_mode(mode, self.game, &self.rules)
    }

    /// The usage problem (exit 2) of `mode` in a run of this variant, if any: none for
    /// standard FreeCell (the fast solver has every mode), else [`family_mode`]'s refusal.
    pub fn mode_problem(&self, mode: Mode) -> Option<String> {
        match self.is_standard() {
            true => None,
            false => self.family_mode(mode).err(),
        }
    }

    /// The usage problem (exit 2) of rules with fewer freecells than the game deals cards
    /// to (Eight Off with 3: its deal fills freecell 7), as `deal` and `solve` word it; none
    /// otherwise.
    pub fn cells_problem(&self) -> Option<String> {
        let first = PysolNumber::plain(1).ok()?;
        deal_with_rules(self.game, &self.rules, first)
            .err()
            .map(|e| e.to_string())
    }

    /// The game and its rules as the JSON of a bench summary or a batch report gives them.
    pub fn json(&self) -> GameJson {
        let r = &self.rules;
        GameJson {
            game: self.game.name,
            pysol_id: self.game.pysol_id,
            numbering: self.numbering(),
            rules: RulesJson {
                cascades: r.cascades,
                freecells: r.freecells,
                build: match r.build {
                    BuildOrder::AlternateColour => "alternate_colour",
                    BuildOrder::Suit => "suit",
                    BuildOrder::Rank => "rank",
                },
                empty_cascade: match r.empty {
                    EmptyFill::Any => "any",
                    EmptyFill::Kings => "kings",
                    EmptyFill::None => "none",
                },
                sequence_move: match r.sequence {
                    SequenceMove::Limited => "limited",
                    SequenceMove::Unlimited => "unlimited",
                },
            },
        }
    }
}

/// How a deal number of game `game` (Freecell Solver's name) is written with its `--game`,
/// in PySolFC's numbering (`pysol_numbers`) or Microsoft's: `ms` for Microsoft's deals of a
/// game other than FreeCell (PySolFC's `msN`), else nothing.
pub fn deal_prefix(game: &str, pysol_numbers: bool) -> &'static str {
    match !pysol_numbers && game != Game::freecell().name {
        true => "ms",
        false => "",
    }
}

/// The one rule of which modes a game of the family other than standard FreeCell is solved
/// in, shared by `solve`, `bench`, `batch run` and `analyze`: the family search's mode for
/// `mode` under `rules` (`game` with `--freecells` applied): `fast`, `short`, and the
/// optimal modes `optimal` (the limited-sequence games only: [`FamilyMode::refusal`]) and
/// `optimal-moves` (every game).
///
/// # Errors
/// The one line saying why not, beginning with the game's title (`bakers_game: ...`):
/// `optimal-ph` (Paul & Helmert's move model is standard FreeCell's), or `optimal` for an
/// unlimited-sequence game (naming the games that have it).
pub fn family_mode(mode: Mode, game: &Game, rules: &Rules) -> Result<FamilyMode, String> {
    let title = crate::verify::family::title(game, rules);
    let m = match mode {
        Mode::Fast => FamilyMode::Fast,
        Mode::Short => FamilyMode::Short,
        Mode::Optimal => FamilyMode::Optimal,
        Mode::OptimalMoves => FamilyMode::OptimalMoves,
        Mode::OptimalPh => {
            return Err(format!(
                "{title}: --mode optimal-ph (Paul & Helmert's move model) is for standard FreeCell only; use --mode optimal or optimal-moves"
            ))
        }
    };
    match m.refusal(rules) {
        Some(why) => Err(format!("{title}: {why}")),
        None => Ok(m),
    }
}

/// The positions a search of a family game stores (the optimal modes) or visits (the
/// others) per deal when `--max-states` is not given: what a batch database records as its
/// budget.
pub fn family_default_max_states(mode: FamilyMode) -> usize {
    match mode {
        FamilyMode::Optimal | FamilyMode::OptimalMoves => {
            fcauto_solver::family::DEFAULT_OPTIMAL_STATES
        }
        _ => fcauto_solver::family::DEFAULT_MAX_STATES,
    }
}

/// The game of a bench or batch run, in JSON.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct GameJson {
    /// Freecell Solver's name of the game (`freecell`, `seahaven_towers`).
    pub game: &'static str,
    /// PySolFC's game id.
    pub pysol_id: u32,
    /// `microsoft` (Microsoft's deals) or `pysolfc` (PySolFC's numbers for the game).
    pub numbering: &'static str,
    /// The rules played.
    pub rules: RulesJson,
}

/// A game's rules in JSON.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct RulesJson {
    /// Cascades.
    pub cascades: u8,
    /// Freecells (the game's, or `--freecells`).
    pub freecells: u8,
    /// `alternate_colour`, `suit` or `rank`.
    pub build: &'static str,
    /// What fills an empty cascade: `any`, `kings` or `none`.
    pub empty_cascade: &'static str,
    /// `limited` (supermoves) or `unlimited` (a run moves as a unit).
    pub sequence_move: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::deal_game;

    /// Standard rules are the game `freecell` however they were named, in either numbering;
    /// the label of standard FreeCell on Microsoft's deals is what old databases hold.
    #[test]
    fn variants_and_their_labels() {
        let freecell = Game::find("freecell").unwrap();
        assert_eq!(Variant::new(freecell, Some(4), false), Variant::standard());
        assert_eq!(Variant::standard().label(), "freecell");
        let pysol = Variant::new(freecell, Some(4), true);
        assert!(pysol.is_standard() && !pysol.is_microsoft_freecell());
        assert_eq!(pysol.label(), "freecell, 4 freecells, pysolfc numbers");
        let two = Variant::new(freecell, Some(2), false);
        assert!(!two.is_standard());
        assert_eq!(two.label(), "freecell, 2 freecells, microsoft numbers");
        assert_eq!(two.title(), "freecell with 2 freecells");
        let sea = Variant::new(Game::find("seahaven_towers").unwrap(), None, true);
        assert_eq!(sea.title(), "seahaven_towers");
        assert_eq!(sea.layout(1).unwrap().cascades.len(), 10);
    }

    /// With `--game freecell`, a range below 32000 is Microsoft's deals (the two numberings
    /// agree there); one reaching 32000 is PySolFC's, whose boards from 32000 on are the
    /// Mersenne Twister's deals, as PySolFC deals them.
    #[test]
    fn standard_freecell_ranges_and_their_boards() {
        let freecell = Game::find("freecell").unwrap();
        let range = |a: &str| DealRange::parse(a).unwrap();
        let below = Variant::for_range(freecell, None, true, &range("1..31999")).unwrap();
        assert_eq!(below, Variant::standard());
        let v = Variant::for_range(freecell, None, true, &range("31999..32000")).unwrap();
        assert!(v.pysol_numbers && v.is_standard());
        assert!(v.is_microsoft_deal(31999) && !v.is_microsoft_deal(32000));
        assert!(Variant::standard().is_microsoft_deal(32000));
        assert_eq!(v.standard_board(31999).unwrap(), ms_deal(31999).unwrap());
        let mt = deal_game(freecell, PysolNumber::plain(32000).unwrap());
        assert_eq!(v.standard_board(32000).unwrap(), mt.to_board().unwrap());
        assert_ne!(v.standard_board(32000).unwrap(), ms_deal(32000).unwrap());
        let ms = Variant::for_range(freecell, None, true, &range("ms32000..ms32001")).unwrap();
        assert_eq!(ms, Variant::standard());
        let bakers = Variant::new(Game::find("bakers_game").unwrap(), None, true);
        assert!(bakers.standard_board(40000).is_err());
    }

    /// The one rule of the family's modes: every mode but `optimal-ph`, and `optimal` for the
    /// limited-sequence games only, each refusal one line beginning with the game's title.
    /// Only Microsoft's deals of standard FreeCell are held against Freecell Pro's list: a
    /// Mersenne Twister deal (PySolFC's numbers from 32000 on) or a deal of another game
    /// reported unsolvable is no contradiction.
    #[test]
    fn only_microsoft_deals_can_be_falsely_unsolvable() {
        let freecell = Game::find("freecell").unwrap();
        let unsolvable = [11982, 40000];
        assert_eq!(Variant::standard().false_unsolvable(&unsolvable), [40000]);
        let pysol = Variant::new(freecell, Some(4), true);
        assert!(pysol.false_unsolvable(&unsolvable).is_empty());
        assert_eq!(pysol.false_unsolvable(&[617]), [617]);
        let two = Variant::new(freecell, Some(2), false);
        assert!(two.false_unsolvable(&unsolvable).is_empty());
    }

    #[test]
    fn the_family_modes_of_each_game() {
        let bakers = Game::find("bakers_game").unwrap();
        let relaxed = Game::find("relaxed_freecell").unwrap();
        for mode in [Mode::Fast, Mode::Short, Mode::Optimal, Mode::OptimalMoves] {
            assert!(family_mode(mode, bakers, &bakers.rules).is_ok(), "{mode:?}");
        }
        let two = bakers.rules.with_freecells(2);
        assert_eq!(
            family_mode(Mode::Optimal, bakers, &two),
            Ok(FamilyMode::Optimal)
        );
        let why = family_mode(Mode::Optimal, relaxed, &relaxed.rules).unwrap_err();
        assert!(
            why.starts_with("relaxed_freecell: --mode optimal counts"),
            "{why}"
        );
        assert!(family_mode(Mode::OptimalMoves, relaxed, &relaxed.rules).is_ok());
        let why = family_mode(Mode::OptimalPh, bakers, &two).unwrap_err();
        assert!(
            why.starts_with("bakers_game with 2 freecells: --mode optimal-ph"),
            "{why}"
        );
        assert!(!why.contains('\n'));
        let v = Variant::new(relaxed, None, true);
        assert_eq!(
            v.mode_problem(Mode::Optimal),
            v.family_mode(Mode::Optimal).err()
        );
        assert_eq!(Variant::standard().mode_problem(Mode::OptimalPh), None);
    }

    /// With --game, `msA..msB` is Microsoft's deals in the game's layout (PySolFC's `msN`),
    /// and `A..B` PySolFC's numbers: the two differ from 32000 on.
    #[test]
    fn ms_ranges_with_a_game_are_microsoft_deals() {
        let bakers = Game::find("bakers_game").unwrap();
        let range = |s| DealRange::parse(s).unwrap();
        let ms = Variant::for_range(bakers, None, true, &range("ms40000..ms40009")).unwrap();
        let mt = Variant::for_range(bakers, None, true, &range("40000..40009")).unwrap();
        assert!(!ms.pysol_numbers && mt.pysol_numbers);
        assert_eq!(ms.label(), "bakers_game, 4 freecells, microsoft numbers");
        assert_eq!((ms.deal_prefix(), mt.deal_prefix()), ("ms", ""));
        let want = deal_with_rules(bakers, &bakers.rules, PysolNumber::ms(40001).unwrap());
        assert_eq!(ms.layout(40001).unwrap(), want.unwrap());
        assert_ne!(mt.layout(40001).unwrap(), ms.layout(40001).unwrap());
        assert!(ms.agrees_below_mt(&mt));
        let sea = Game::find("seahaven_towers").unwrap();
        let sea_ms = Variant::for_range(sea, None, true, &range("ms5..ms5")).unwrap();
        assert_eq!(
            sea_ms.layout(5).unwrap(),
            deal_game(sea, PysolNumber::ms(5).unwrap())
        );
        let freecell = Game::find("freecell").unwrap();
        let std = Variant::for_range(freecell, None, true, &range("ms40000..ms40002")).unwrap();
        assert!(std.is_standard());
        assert!(Variant::for_range(bakers, None, true, &range("ms5..40000")).is_err());
        assert!(
            !Variant::for_range(freecell, None, false, &range("ms5..40000"))
                .unwrap()
                .pysol_numbers
        );
    }
}
