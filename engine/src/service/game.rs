//! A position of any game of the family ([`Position`]) and the service's operations on it:
//! standard FreeCell (8 cascades, 4 freecells) through the standard functions, whose
//! answers are unchanged, and every other game through [`super::family`]; and the readers
//! of a [`PositionIn`] (`to_position`, `to_board`).

use super::family::{
    deal_family, family_apply, family_legal_moves, names_a_game, parse_family_text, FamilyPosition,
};
use super::family_solve::{family_solve_in, family_verify};
use super::position::FamilyPositionOut;
use super::{
    apply_move, hint_in, json_board, legal_moves, parse_move, parse_text, position_out, solve_in,
    verify, ApplyOut, HintOut, JsonMove, PositionIn, PositionOut, ServiceError, SolveOut,
    VerifyOut, MAX_BOARD_BYTES,
};
use fcauto_deals::{Board, Game, Layout, PysolNumber, Rules};
use fcauto_solver::family::named_game;
use fcauto_solver::Mode;
use serde::Serialize;

/// A position of any game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Position {
    /// Standard FreeCell: the standard solver, validator and answers.
    Standard(Board),
    /// Any other game, or FreeCell with another number of freecells.
    Family(FamilyPosition),
}

/// An answer of either kind, written as the one it is (no tag: a standard position's answer
/// is exactly what it was before the family).
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum AnyOut<S, F> {
    /// Standard FreeCell's answer.
    Standard(S),
    /// A family game's answer.
    Family(F),
}

/// A position's output form, of either kind.
pub type AnyPositionOut = AnyOut<PositionOut, FamilyPositionOut>;

/// The game's name, with its freecells when they are not the game's own.
pub fn title(p: &FamilyPosition) -> String {
    if p.rules.freecells == p.game.rules.freecells {
        p.game.name.to_string()
    } else {
        format!(
            "{} with {}",
            p.game.name,
            fcauto_deals::plural(p.rules.freecells, "freecell")
        )
    }
}

impl Position {
    /// A family position, as a standard [`Board`] when its rules are standard FreeCell's.
    pub fn of(p: FamilyPosition) -> Result<Position, ServiceError> {
        if p.rules.is_standard() {
            if let Some(b) = p.layout.to_board() {
                let text = fcauto_deals::position::write(&b);
                return parse_text(&text).map(Position::Standard);
            }
        }
        Ok(Position::Family(p))
    }

    /// True when every card is home.
    pub fn is_won(&self) -> bool {
        match self {
            Position::Standard(b) => b.is_won(),
            Position::Family(p) => p.layout.is_won(),
        }
    }

    /// The output form: JSON, position string, won.
    pub fn out(&self) -> AnyPositionOut {
        match self {
            Position::Standard(b) => AnyOut::Standard(position_out(b)),
            Position::Family(p) => AnyOut::Family(p.out()),
        }
    }

    /// Every legal move (see [`legal_moves`] and [`family_legal_moves`]).
    pub fn legal_moves(&self) -> Result<Vec<JsonMove>, ServiceError> {
        match self {
            Position::Standard(b) => Ok(legal_moves(b)),
            Position::Family(p) => family_legal_moves(p),
        }
    }

    /// A move in standard notation (with an optional count) applied if legal, then (with
    /// `autoplay`) the safe auto-moves.
    pub fn apply(
        &self,
        text: &str,
        count: Option<i64>,
        autoplay: bool,
    ) -> Result<ApplyOut<AnyPositionOut>, ServiceError> {
        match self {
            Position::Standard(b) => {
                let out = apply_move(b, parse_move(text, count)?, autoplay);
                Ok(out.map(AnyOut::Standard))
            }
            Position::Family(p) => Ok(family_apply(p, text, count, autoplay)?.map(AnyOut::Family)),
        }
    }

    /// `solve` holding `slot` until the search ends ([`solve_in`]; a family position by the
    /// family search, with exact verdicts).
    pub fn solve_in<S: Send + 'static>(
        &self,
        mode: Mode,
        max_states: Option<usize>,
        slot: S,
    ) -> Result<SolveOut, ServiceError> {
        match self {
            Position::Standard(b) => solve_in(b, mode, max_states, slot),
            Position::Family(p) => family_solve_in(p, mode, max_states, slot),
        }
    }

    /// `hint` holding `slot` until the search ends.
    pub fn hint_in<S: Send + 'static>(
        &self,
        mode: Mode,
        max_states: Option<usize>,
        slot: S,
    ) -> Result<HintOut, ServiceError> {
        match self {
            Position::Standard(b) => hint_in(b, mode, max_states, slot),
            Position::Family(_) => {
                let s = self.solve_in(mode, max_states, slot)?;
                Ok(HintOut {
                    verdict: s.verdict,
                    next: s.moves.first().cloned(),
                    line: s.moves,
                })
            }
        }
    }

    /// The picture's title: `FreeCell` for standard FreeCell, else the game's PySolFC title
    /// with its freecells when they are not the game's own (`Baker's Game with 2 freecells`).
    pub fn picture_title(&self) -> String {
        match self {
            Position::Standard(_) => crate::render::FREECELL_TITLE.to_string(),
            Position::Family(p) => crate::render::family::game_title(p.game, &p.rules),
        }
    }

    /// The position drawn as SVG by the one renderer, `width` pixels wide (checked by
    /// [`super::picture_width`]): standard FreeCell as today, another game with its own
    /// cascades and freecells and its title.
    pub fn svg(&self, width: Option<i64>) -> Result<String, ServiceError> {
        let opts = picture_options(width)?;
        Ok(match self {
            Position::Standard(b) => crate::render::svg(b, &opts),
            Position::Family(p) => {
                let title = self.picture_title();
                crate::render::svg_view(&crate::render::View::layout(&p.layout, &title), &opts)
            }
        })
    }

    /// [`Position::svg`] rasterised as PNG (the engine's `png` feature).
    ///
    /// # Errors
    /// A width out of range (bad input); a build without PNG, or a font that cannot be read.
    pub fn png(&self, width: Option<i64>) -> Result<Vec<u8>, ServiceError> {
        let opts = picture_options(width)?;
        let png = match self {
            Position::Standard(b) => crate::render::png(b, &opts),
            Position::Family(p) => {
                let title = self.picture_title();
                crate::render::png_view(&crate::render::View::layout(&p.layout, &title), &opts)
            }
        };
        png.map_err(|e| ServiceError::impossible(format!("{e:#}")))
    }

    /// `verify` of a solution from here ([`verify`]; a family position by the family's
    /// validator).
    pub fn verify(&self, solution: &str) -> Result<VerifyOut, ServiceError> {
        match self {
            Position::Standard(b) => verify(b, solution),
            Position::Family(p) => family_verify(p, solution),
        }
    }
}

/// The renderer's options for a picture `width` pixels wide (checked).
fn picture_options(width: Option<i64>) -> Result<crate::render::Options<'static>, ServiceError> {
    Ok(crate::render::Options {
        width: super::picture_width(width)?,
        ..Default::default()
    })
}

/// `new_game` of any game: with `game` (a name, PySolFC's title or id), PySolFC's deal
/// `deal` of it as `fcauto deal --game` deals it (the Microsoft shuffle below 32000 and for
/// `msN`, the Mersenne Twister from 32000 on), with `freecells` freecells (the game's when
/// left out); without, the Microsoft deal `deal` (as [`super::new_game`]), with `freecells`
/// freecells when given. Standard FreeCell's positions are standard [`Board`]s.
pub fn new_game_of(
    deal: &str,
    game: Option<&str>,
    freecells: Option<i64>,
) -> Result<Position, ServiceError> {
    let bad = |e: String| ServiceError::bad_input(e);
    let Some(name) = game else {
        let n = fcauto_deals::parse_deal_number(deal).map_err(|e| bad(e.to_string()))?;
        let b = fcauto_deals::ms_deal(n).map_err(|e| bad(e.to_string()))?;
        let Some(f) = freecells else {
            return Ok(Position::Standard(b));
        };
        let cells = super::family::freecells_asked(Game::freecell(), Some(f))?;
        let layout = Layout::from_board(&b, cells as usize);
        return FamilyPosition::new(Game::freecell(), layout).and_then(Position::of);
    };
    let g = Game::find(name).map_err(|e| bad(e.to_string()))?;
    // PySolFC's game number, refused in its words (its range is 1..=10^20).
    let number = PysolNumber::parse(deal).map_err(|e| bad(e.to_string()))?;
    let (g, layout) = deal_family(g, number, freecells)?;
    FamilyPosition::new(g, layout).and_then(Position::of)
}

impl<P> ApplyOut<P> {
    /// The same answer with its position's form changed by `f`.
    pub fn map<Q>(self, f: impl FnOnce(P) -> Q) -> ApplyOut<Q> {
        ApplyOut {
            legal: self.legal,
            broken_rule: self.broken_rule,
            mv: self.mv,
            autoplayed: self.autoplayed,
            position: f(self.position),
        }
    }
}

impl PositionIn {
    /// The board, checked: a standard FreeCell position (a family position is refused,
    /// named: the operation that asked plays standard FreeCell only).
    pub fn to_board(&self) -> Result<Board, ServiceError> {
        match self.to_position()? {
            Position::Standard(b) => Ok(b),
            Position::Family(p) => Err(ServiceError::impossible(format!(
                "a {} position: this operation plays standard FreeCell (8 cascades, 4 freecells) only",
                title(&p)
            ))),
        }
    }

    /// The position, checked, of any game: standard FreeCell (four freecells) as a
    /// [`Board`], any other as a [`FamilyPosition`].
    pub fn to_position(&self) -> Result<Position, ServiceError> {
        match self {
            PositionIn::Json(j) => json_board(j).map(Position::Standard),
            PositionIn::Family(j) => FamilyPosition::from_json(j).and_then(Position::of),
            PositionIn::Text(t) => parse_position(t),
        }
    }
}

impl PositionIn {
    /// The position, checked, read for the request's `game` and `freecells` when either is
    /// given: board text carries no game, so text is read as a position of `game` (standard
    /// FreeCell when only `freecells` is given) with `freecells` freecells (the game's when
    /// left out), by the one reader of a family position's text
    /// ([`crate::verify::family::read_layout`]: a position string, of that game or of no
    /// named game, or Freecell Solver's board text with the game's cascades and up to its
    /// freecells); a position object names its own game, which must be the one given.
    /// Without either, [`PositionIn::to_position`].
    ///
    /// # Errors
    /// An unknown game or a number of freecells out of 0..=8 (bad input); text that does not
    /// fit the game, named (impossible); text over [`MAX_BOARD_BYTES`] (too large).
    pub fn to_position_of(
        &self,
        game: Option<&str>,
        freecells: Option<i64>,
    ) -> Result<Position, ServiceError> {
        if game.is_none() && freecells.is_none() {
            return self.to_position();
        }
        // Without `game`, the game is the one the position names (standard FreeCell when it
        // names none): `freecells` alone changes its freecells.
        let own = match self {
            PositionIn::Text(t) => named_game(t).map(|n| n.game),
            _ => None,
        };
        let g = match game {
            Some(name) => Game::find(name).map_err(|e| ServiceError::bad_input(e.to_string()))?,
            None => own.unwrap_or_else(Game::freecell),
        };
        let rules = g
            .rules
            .with_freecells(super::family::freecells_asked(g, freecells)?);
        let PositionIn::Text(t) = self else {
            let p = self.to_position()?;
            let g = match (game, &p) {
                (None, Position::Family(f)) => f.game,
                _ => g,
            };
            let rules = g
                .rules
                .with_freecells(super::family::freecells_asked(g, freecells)?);
            return agrees(p, g, &rules, fields_sent(game, freecells));
        };
        if t.len() > MAX_BOARD_BYTES {
            return Err(ServiceError::too_large(format!(
                "a board is at most {MAX_BOARD_BYTES} bytes"
            )));
        }
        if let Some(named) = named_game(t)
            .map(|n| n.game)
            .filter(|n| !std::ptr::eq(*n, g))
        {
            return Err(ServiceError::impossible(format!(
                "the position names {}, and `game` says {}: leave `game` out, or give the \
                 position's own",
                named.name, g.name
            )));
        }
        let layout = crate::verify::family::read_layout(t, g, &rules, "the position")
            .map_err(|e| ServiceError::impossible(format!("{e:#}")))?;
        FamilyPosition::new(g, layout).and_then(Position::of)
    }
}

/// `p`, a position object's, when it is one of `game` under `rules` (the request's `game`
/// and `freecells`); else the error that says they differ.
fn agrees(
    p: Position,
    game: &'static Game,
    rules: &Rules,
    sent: &str,
) -> Result<Position, ServiceError> {
    let (named, slots) = match &p {
        Position::Standard(_) => (Game::freecell(), 4),
        Position::Family(f) => (f.game, f.rules.freecells),
    };
    if std::ptr::eq(named, game) && slots == rules.freecells {
        return Ok(p);
    }
    let said = crate::render::family::game_title(game, rules);
    let is = match &p {
        Position::Standard(_) => "FreeCell".to_string(),
        Position::Family(f) => crate::render::family::game_title(f.game, &f.rules),
    };
    Err(ServiceError::impossible(format!(
        "the position object is a {is} position, and {sent} {said}: a position object names \
         its own game (its `game` field, one slot per freecell)"
    )))
}

/// The request's fields that name the game, as a message says what they say: `` `game`
/// says``, `` `freecells` says``, `` `game` and `freecells` say``.
fn fields_sent(game: Option<&str>, freecells: Option<i64>) -> &'static str {
    match (game.is_some(), freecells.is_some()) {
        (true, true) => "`game` and `freecells` say",
        (true, false) => "`game` says",
        _ => "`freecells` says",
    }
}

/// A position string or board text of any game: a string that names its game (`name: ...`)
/// or has another number of freecell slots than four is the family's; any other is read as
/// standard FreeCell's, in its words.
pub fn parse_position(t: &str) -> Result<Position, ServiceError> {
    let named = names_a_game(t);
    if !named {
        if let Ok(b) = parse_text(t) {
            return Ok(Position::Standard(b));
        }
    }
    match parse_family_text(t) {
        Some(r) => r
            .and_then(|(g, l)| FamilyPosition::new(g, l))
            .and_then(Position::of),
        None => parse_text(t).map(Position::Standard),
    }
}
