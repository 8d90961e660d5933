//! `--game G` and `--freecells N`, as every command that deals or solves takes them
//! ([`GameArgs`]), resolved to a game of the FreeCell family and its rules.

use fcauto_deals::game::MAX_FREECELLS;
use fcauto_deals::{Game, PysolNumber, Rules};

/// Which game of the FreeCell family: `--game` names it, `--freecells` changes its number
/// of freecells.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct GameArgs {
    /// The game: Freecell Solver's name (`bakers_game`, `eight_off`, `seahaven_towers`,
    /// ...), PySolFC's title or PySolFC's game id (`45`); with it, a deal number is PySolFC's
    /// (the Microsoft shuffle below 32000 and for `msN`, the Mersenne Twister from 32000 on)
    /// [default: freecell, Microsoft numbering].
    #[arg(long, value_name = "GAME", value_parser = GameParser, hide_possible_values = true)]
    pub game: Option<&'static Game>,
    /// Number of freecells, 0..=8 (fc-solve's `--freecells-num`) [default: the game's].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=MAX_FREECELLS as i64))]
    pub freecells: Option<u8>,
}

/// A deal number argument as PySolFC writes one (clap's `value_parser` of a command that
/// takes `--game`): what [`PysolNumber::parse`] reads, up to 10^20 (above 2^33-1 only
/// --game deals them, the Mersenne Twister; without --game the caller refuses them). A
/// refusal names the range both ways, as the parser cannot know whether --game was given
/// ([`fcauto_deals::PysolNumberError::either_numbering`]).
pub fn parse_game_number(s: &str) -> Result<PysolNumber, String> {
    PysolNumber::parse(s).map_err(|e| e.either_numbering())
}

fn parse_game(s: String) -> Result<&'static Game, String> {
    Game::find(&s).map_err(|e| e.to_string())
}

/// `--game`'s parser: [`Game::find`] reads any name, title or id; the games' Freecell Solver
/// names are the values that shell completions offer (help does not list them: `fcauto deal
/// --help` names the family).
#[derive(Clone)]
struct GameParser;

impl clap::builder::TypedValueParser for GameParser {
    type Value = &'static Game;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Self::Value, clap::Error> {
        let read: fn(String) -> Result<&'static Game, String> = parse_game;
        clap::builder::StringValueParser::new()
            .try_map(read)
            .parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let names = fcauto_deals::GAMES
            .iter()
            .map(|g| clap::builder::PossibleValue::new(g.name).help(g.pysol_name));
        Some(Box::new(names))
    }
}

impl GameArgs {
    /// The game asked for (standard FreeCell when none).
    pub fn game(&self) -> &'static Game {
        self.game.unwrap_or_else(Game::freecell)
    }

    /// The rules played: the game's, with --freecells applied.
    pub fn rules(&self) -> Rules {
        let rules = self.game().rules;
        match self.freecells {
            Some(n) => rules.with_freecells(n),
            None => rules,
        }
    }

    /// True when the command plays standard FreeCell with Microsoft numbering, as it did
    /// before the family: no --game and no --freecells other than 4.
    pub fn is_standard(&self) -> bool {
        self.game.is_none() && self.rules().is_standard()
    }
}
