//! The rules engine as a service: the operations that `fcauto serve` (HTTP + JSON) and
//! `fcauto mcp` (Model Context Protocol) expose, as plain functions with serde types.
//!
//! The contract is (position, move) -> new position: every operation takes the whole
//! position and returns the whole new one, with no state kept between calls, so a retried
//! call is harmless. fcauto is the referee: a move is applied by the independent validator
//! ([`fcauto_solver::validator::apply_checked`]) and an illegal one is refused with the rule
//! it breaks. Every solution returned has passed the validator. Nothing here reads or writes
//! files or runs programs.
//!
//! Positions travel as [`PositionJson`] (`cascades`, `freecells`, `foundations`, the shape of
//! `solve --format json`'s board) or as the one-line position string
//! ([`fcauto_deals::position`]); [`PositionIn`] takes either, or fc-solve's board text.

use crate::checked::{solve_checked, ModeArg, Outcome};
use fcauto_deals::{position, Board, Card};
use fcauto_solver::validator::{apply_checked, stacks_on, StepMove};
use fcauto_solver::{supermove_limit, Loc, Move, PlayedMove};
#[cfg(feature = "mcp")]
use rmcp::schemars;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Most positions one solve may store (`max_states` above it is refused, 400).
pub const MAX_STATES: usize = 200_000;
/// Longest one solve may run before it answers "unknown".
pub const TIME_CAP: Duration = Duration::from_secs(10);
/// Longest board text or position accepted, bytes.
pub const MAX_BOARD_BYTES: usize = 64 * 1024;
/// Longest solution text accepted by [`verify`], bytes.
pub const MAX_SOLUTION_BYTES: usize = 1024 * 1024;

/// A refused request: an HTTP status (400 malformed, 404 unknown, 413 too large, 422 well
/// formed but impossible or illegal) and a message for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceError {
    /// HTTP status code.
    pub status: u16,
    /// What is wrong, in words.
    pub message: String,
}

impl ServiceError {
    /// 422: well formed but not a legal or possible request.
    pub fn unprocessable(message: impl Into<String>) -> ServiceError {
        ServiceError {
            status: 422,
            message: message.into(),
        }
    }
    /// 400: malformed.
    pub fn bad_request(message: impl Into<String>) -> ServiceError {
        ServiceError {
            status: 400,
            message: message.into(),
        }
    }
    /// 413: over a size cap.
    pub fn too_large(message: impl Into<String>) -> ServiceError {
        ServiceError {
            status: 413,
            message: message.into(),
        }
    }
}

pub use fcauto_deals::text::short_echoes;

impl std::fmt::Display for ServiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A position as JSON: `{"cascades": [[8 lists of cards, deepest first]], "freecells":
/// [4 slots, a card or null], "foundations": [top rank per suit C, D, H, S, 0..13]}`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "mcp", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PositionJson {
    /// 8 cascades, each deepest card first (`"KS"`, `"TD"`, ...).
    #[cfg_attr(feature = "mcp", schemars(with = "Vec<Vec<String>>"))]
    pub cascades: Vec<Vec<Card>>,
    /// Freecells `a`..`d`: a card or null. May be left out (or null): all empty. Read:
    /// another number of slots is malformed (400), as a wrong `foundations` length is.
    #[serde(default = "no_freecells", deserialize_with = "four_freecells")]
    #[cfg_attr(feature = "mcp", schemars(with = "Vec<Option<String>>"))]
    pub freecells: Vec<Option<Card>>,
    /// Foundations, top rank 0..=13 per suit in the order C, D, H, S. May be left out (or
    /// null): empty.
    #[serde(default = "no_foundations", deserialize_with = "foundations_or_null")]
    pub foundations: [u8; 4],
}

fn no_freecells() -> Vec<Option<Card>> {
    vec![None; 4]
}

fn no_foundations() -> [u8; 4] {
    [0; 4]
}

/// `freecells`: null as left out; a list of four slots, another length named.
fn four_freecells<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Option<Card>>, D::Error> {
    let Some(slots) = Option::<Vec<Option<Card>>>::deserialize(d)? else {
        return Ok(no_freecells());
    };
    if slots.len() != 4 {
        return Err(serde::de::Error::custom(format!(
            "freecells has {} slots; FreeCell has 4 (null for an empty one)",
            slots.len()
        )));
    }
    Ok(slots)
}

/// `foundations`: null as left out.
/// `foundations`: null as left out; four whole numbers 0..=13, anything else named in the
/// player's words (helper-55: "invalid value: integer `-1`, expected u8", and a rank of 14
/// was a 422 where -1 was a 400).
fn foundations_or_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[u8; 4], D::Error> {
    use serde::de::Error;
    let words = "the top rank on each foundation (C, D, H, S), 0 (none) to 13 (K)";
    let ranks = match Option::<serde_json::Value>::deserialize(d)? {
        None => return Ok(no_foundations()),
        Some(serde_json::Value::Array(ranks)) => ranks,
        Some(other) => {
            return Err(D::Error::custom(format!(
                "foundations: a list of 4 numbers, {words}; got {}",
                short_echoes(&other.to_string())
            )))
        }
    };
    if ranks.len() != 4 {
        return Err(D::Error::custom(format!(
            "foundations: 4 numbers, {words}; got {}",
            ranks.len()
        )));
    }
    let mut out = [0u8; 4];
    for (slot, r) in out.iter_mut().zip(&ranks) {
        // A whole number may be written `13.0`, as the API's other whole numbers may.
        *slot = r
            .as_f64()
            .filter(|n| n.fract() == 0.0 && (0.0..=13.0).contains(n))
            .ok_or_else(|| D::Error::custom(format!("foundations: `{r}` is not {words}")))?
            as u8;
    }
    Ok(out)
}

/// A position given either way: the JSON shape, or text (a position string or fc-solve's
/// board text). Read by its JSON type, so that an object's own problem (an unknown field, a
/// list of the wrong length, a bad card) is what the error names.
#[derive(Debug, Clone)]
pub enum PositionIn {
    /// [`PositionJson`].
    Json(PositionJson),
    /// A position string or a board file's text.
    Text(String),
}

/// What a position may be, for errors about one.
pub const POSITION_FORMS: &str = "a position string, fc-solve board text, or \
     {\"cascades\": [...8 lists of cards...], \"freecells\": [...], \"foundations\": [...]}";

impl<'de> Deserialize<'de> for PositionIn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(s) => Ok(PositionIn::Text(s)),
            v @ serde_json::Value::Object(_) => PositionJson::deserialize(v)
                .map(PositionIn::Json)
                .map_err(|e| D::Error::custom(format!("position object: {e}"))),
            _ => Err(D::Error::custom(format!("a position is {POSITION_FORMS}"))),
        }
    }
}

/// A position as returned: both forms, and whether it is won.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "mcp", derive(schemars::JsonSchema))]
pub struct PositionOut {
    /// The JSON form.
    pub position: PositionJson,
    /// The one-line position string.
    pub position_string: String,
    /// All 52 cards are on the foundations.
    pub won: bool,
}

/// A move as returned: standard notation and its parts.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "mcp", derive(schemars::JsonSchema))]
pub struct MoveOut {
    /// Standard notation (`3a`, `a3`, `3h`, `38`), read back as this very move: with `v` and
    /// the count (`38v1`) where a plain `38`, onto an empty cascade, would move another number
    /// of cards.
    pub notation: String,
    /// Source: `"1"`..`"8"`, `"a"`..`"d"`.
    pub from: String,
    /// Destination: `"1"`..`"8"`, `"a"`..`"d"`, `"h"`.
    pub to: String,
    /// Cards moved (more than 1 for a supermove).
    pub count: u8,
    /// The card moved (the deepest of a run).
    #[cfg_attr(feature = "mcp", schemars(with = "String"))]
    pub card: Card,
    /// `stack_to_freecell`, `stack_to_stack`, ... (as in `solve --format json`).
    pub kind: String,
}

impl PositionJson {
    /// The JSON form of a board.
    pub fn of(b: &Board) -> PositionJson {
        PositionJson {
            cascades: b.cascades.clone(),
            freecells: b.freecells.to_vec(),
            foundations: b.foundations,
        }
    }

    /// The board, checked: 8 cascades, 4 freecells, the 52 cards exactly once.
    pub fn to_board(&self) -> Result<Board, ServiceError> {
        if self.freecells.len() != 4 {
            return Err(ServiceError::unprocessable(format!(
                "freecells has {} slots; FreeCell has 4 (null for an empty one)",
                self.freecells.len()
            )));
        }
        let mut freecells = [None; 4];
        freecells.copy_from_slice(&self.freecells);
        let b = Board {
            cascades: self.cascades.clone(),
            freecells,
            foundations: self.foundations,
        };
        checked(b)
    }
}

/// Check a board for play: a full deck once, and cascades the solver can hold.
fn checked(b: Board) -> Result<Board, ServiceError> {
    b.check()
        .map_err(|e| ServiceError::unprocessable(format!("impossible position: {e}")))?;
    fcauto_solver::state::check_capacity(&b)
        .map_err(|e| ServiceError::unprocessable(format!("position not supported: {e}")))?;
    Ok(b)
}

impl PositionIn {
    /// The board, checked.
    pub fn to_board(&self) -> Result<Board, ServiceError> {
        match self {
            PositionIn::Json(j) => j.to_board(),
            PositionIn::Text(t) => parse_text(t),
        }
    }
}

/// A position string or fc-solve board text.
pub fn parse_text(t: &str) -> Result<Board, ServiceError> {
    if t.len() > MAX_BOARD_BYTES {
        return Err(ServiceError::too_large(format!(
            "a board is at most {MAX_BOARD_BYTES} bytes"
        )));
    }
    let b = position::parse_any(t).map_err(|e| ServiceError::unprocessable(e.to_string()))?;
    checked(b)
}

/// A board's output form.
pub fn position_out(b: &Board) -> PositionOut {
    PositionOut {
        position: PositionJson::of(b),
        position_string: position::write(b),
        won: b.is_won(),
    }
}

/// A played move's output form, `b` the position it is played from (its notation carries
/// the count where a plain one would read as another: `38v1`).
pub fn move_out(b: &Board, p: PlayedMove) -> MoveOut {
    let m = p.mv;
    MoveOut {
        notation: fcauto_solver::standard_token(b, m),
        from: m.from.notation(),
        to: m.to.notation(),
        count: m.count,
        card: p.card,
        kind: kind_name(m).to_string(),
    }
}

/// A move's JSON `kind`: [`fcauto_solver::MoveKind::name`], or `freecell_to_freecell` for
/// `ab` (a legal move the solver never makes, so `MoveKind` has no name for it).
fn kind_name(m: Move) -> &'static str {
    match (m.kind(), m.from, m.to) {
        (Some(k), _, _) => k.name(),
        (None, Loc::Freecell(_), Loc::Freecell(_)) => "freecell_to_freecell",
        (None, _, _) => "",
    }
}

/// Read a request's deal number (serde's `deserialize_with`, shared by `fcauto serve`'s
/// bodies and `fcauto mcp`'s arguments): [`fcauto_deals::msdeal::deserialize_deal`], and
/// for an optional field [`fcauto_deals::msdeal::deserialize_deal_opt`].
#[cfg_attr(not(feature = "mcp"), allow(unused_imports))]
pub use fcauto_deals::msdeal::deserialize_deal as deal_number;
#[cfg_attr(not(feature = "serve"), allow(unused_imports))]
pub use fcauto_deals::msdeal::deserialize_deal_opt as deal_number_opt;

/// `new_game`: MS deal `n`'s start position.
pub fn new_game(n: u64) -> Result<PositionOut, ServiceError> {
    let b = fcauto_deals::ms_deal(n).map_err(|e| ServiceError::bad_request(e.to_string()))?;
    Ok(position_out(&b))
}

/// `legal_moves`: every legal move of a position, each checked by the validator: every
/// source (cascades `1`..`8`, then freecells `a`..`d`) and destination (the foundations `h`,
/// cascades, freecells) whose move [`apply_move`] accepts, a run of cards once per legal
/// size (smallest first). Symmetric moves are all listed (`1a` and `1b` with two empty
/// freecells, a move to each empty cascade, `ab`, a whole cascade onto an empty one).
pub fn legal_moves(b: &Board) -> Vec<MoveOut> {
    let mut moves = Vec::new();
    for from in places().filter(|&l| l != Loc::Foundation) {
        for to in places().filter(|&l| l != from) {
            for count in 1..=max_count(b, from, to) {
                let m = Move { from, to, count };
                let Some(card) = moved_card(b, m) else { break };
                if apply_checked(&mut b.clone(), &step(m, card)).is_ok() {
                    moves.push(move_out(b, PlayedMove { mv: m, card }));
                }
            }
        }
    }
    moves
}

/// Every place in listing order: the foundations, cascades `1`..`8`, freecells `a`..`d`.
fn places() -> impl Iterator<Item = Loc> {
    let cascades = (0..fcauto_deals::CASCADES as u8).map(Loc::Cascade);
    let freecells = (0..fcauto_deals::FREECELLS as u8).map(Loc::Freecell);
    std::iter::once(Loc::Foundation)
        .chain(cascades)
        .chain(freecells)
}

/// The most cards a move from `from` to `to` could take: the top run of a cascade for a
/// cascade-to-cascade move (the validator refuses any longer one), else 1.
fn max_count(b: &Board, from: Loc, to: Loc) -> u8 {
    let (Loc::Cascade(i), Loc::Cascade(_)) = (from, to) else {
        return 1;
    };
    top_run(&b.cascades[i as usize]) as u8
}

/// The length of the run (descending, alternating colours) on top of a cascade; 0 if empty.
fn top_run(col: &[Card]) -> usize {
    let mut run = usize::from(!col.is_empty());
    while run < col.len() && stacks_on(col[col.len() - run - 1], col[col.len() - run]) {
        run += 1;
    }
    run
}

/// The card a move would move (deepest of a run), if the source holds enough cards.
fn moved_card(b: &Board, m: Move) -> Option<Card> {
    match m.from {
        Loc::Cascade(i) => {
            let col = b.cascades.get(i as usize)?;
            col.len().checked_sub(m.count as usize).map(|k| col[k])
        }
        Loc::Freecell(j) => b.freecells.get(j as usize).copied().flatten(),
        Loc::Foundation => None,
    }
}

fn step(m: Move, card: Card) -> StepMove {
    StepMove {
        from: m.from,
        to: m.to,
        count: Some(m.count),
        card: Some(card),
    }
}

/// What [`apply_move`] answers.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "mcp", derive(schemars::JsonSchema))]
pub struct ApplyOut {
    /// Whether the move was legal (and so applied).
    pub legal: bool,
    /// The rule it breaks, when illegal.
    pub broken_rule: Option<String>,
    /// The move as applied (its count filled in), when legal.
    #[serde(rename = "move")]
    pub mv: Option<MoveOut>,
    /// The safe auto-moves to the foundations made after it (when asked), in order.
    pub autoplayed: Vec<MoveOut>,
    /// The new position (the unchanged one when illegal).
    #[serde(flatten)]
    pub position: PositionOut,
}

/// A request's whole-number field (`count`, `width`, `max_states`), named `what`, whose
/// values `range` says (`1..13`): null/absent is `None`, a whole number `Some` however JSON
/// writes it (`3`, `3.0`, `3e0`, `-0`; its range is checked by the field's own reader). A
/// number serde reads as a float that is no whole number (`1.5`) or beyond any field's range
/// (`1e30`, 2^64) is refused here in the field's own words (serde said "invalid type:
/// floating point `1e+30`, expected i64").
///
/// # Errors
/// A JSON value that is not a number or null, or a number that is not written whole.
fn whole<'de, D: serde::Deserializer<'de>>(
    d: D,
    what: &str,
    range: &str,
) -> Result<Option<i64>, D::Error> {
    use serde::Deserialize;
    let Some(n) = Option::<serde_json::Number>::deserialize(d)? else {
        return Ok(None);
    };
    if let Some(v) = n.as_i64() {
        return Ok(Some(v));
    }
    let f = n.as_f64().unwrap_or(f64::NAN);
    let why = match () {
        _ if n.is_u64() => format!("{what} {n} is out of range: give {range}"),
        _ if !(f.is_finite() && f.fract() == 0.0) => {
            format!("{what} {n} is no whole number: give {range}")
        }
        _ if f.abs() > 1e15 => format!("{what} {f:e} is out of range: give {range}"),
        // A whole number however written (`1.0`, `1e3`, `-0`): exact here, so it is that
        // number, and the field's reader checks its range as for any other.
        _ => return Ok(Some(f as i64)),
    };
    Err(serde::de::Error::custom(why))
}

/// Serde's reader of a request's `count` ([`whole`]); [`parse_move`] checks its range.
///
/// # Errors
/// As [`whole`].
pub fn whole_count<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    whole(
        d,
        "count",
        "1..13 cards, or leave it out for the longest run that fits",
    )
}

/// Serde's reader of a request's picture `width` ([`whole`]); [`picture_width`] checks its
/// range.
///
/// # Errors
/// As [`whole`].
pub fn whole_width<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    let range = format!(
        "{}..={} pixels",
        fcauto_engine::render::MIN_WIDTH,
        fcauto_engine::render::MAX_WIDTH
    );
    whole(d, "width", &range)
}

/// Serde's reader of a request's `max_states` ([`whole`]; a negative one is refused here, the
/// solve checks the rest of its range).
///
/// # Errors
/// As [`whole`], or a number below 0.
pub fn whole_max_states<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    let range = format!("1..={MAX_STATES} positions");
    match whole(d, "max_states", &range)? {
        Some(n) if n < 0 => Err(serde::de::Error::custom(format!(
            "max_states {n} is out of range: give {range}"
        ))),
        n => Ok(n.map(|n| n as usize)),
    }
}

/// A move as the client gives it: standard notation, with an optional count for a run
/// (`"38"`, `"38"` + `count: 3`, or fc-solve's `"38v3"`). A count outside 1..=13 (the
/// cards of a run) is refused (400), whatever the move: HTTP and MCP alike (helper-46: 0
/// was an illegal move, 300 serde's "expected u8", and over MCP `legal: false`).
pub fn parse_move(text: &str, count: Option<i64>) -> Result<StepMove, ServiceError> {
    let count = match count {
        Some(c) if !(1..=13).contains(&c) => {
            return Err(ServiceError::bad_request(format!(
                "count {c} is no number of cards in a run: give 1..13, or leave it out for the \
                 longest run that fits"
            )))
        }
        c => c.map(|c| c as u8),
    };
    let t = text.trim();
    let mut m = fcauto_solver::standard::parse_token(t).ok_or_else(|| {
        ServiceError::bad_request(format!(
            "`{t}` is not a move in standard notation (e.g. `3a`, `a3`, `3h`, `38`)"
        ))
    })?;
    match (m.count, count) {
        (Some(said), Some(given)) if said != given => Err(ServiceError::bad_request(format!(
            "`{t}` moves {} and count says {given}: give one of them, or the same",
            fcauto_deals::plural(said, "card")
        ))),
        (_, Some(given)) => {
            m.count = Some(given);
            Ok(m)
        }
        _ => Ok(m),
    }
}

/// `apply_move`: apply `m` to `b` if legal, then (if `autoplay`) the safe auto-moves.
/// An illegal move gives `legal: false`, the rule, and the unchanged position.
pub fn apply_move(b: &Board, m: StepMove, autoplay: bool) -> ApplyOut {
    let mut next = b.clone();
    let m = resolve_count(b, m);
    match apply_checked(&mut next, &m) {
        Err(rule) => ApplyOut {
            legal: false,
            broken_rule: Some(rule),
            mv: None,
            autoplayed: vec![],
            position: position_out(b),
        },
        Ok(_) => {
            let played = played(b, &m);
            let autoplayed = if autoplay {
                auto_moves(&mut next)
            } else {
                vec![]
            };
            ApplyOut {
                legal: true,
                broken_rule: None,
                mv: played.map(|p| move_out(b, p)),
                autoplayed,
                position: position_out(&next),
            }
        }
    }
}

/// A cascade-to-cascade move without a count takes the longest run that fits the
/// destination (what a player means by `38`): onto a card, the run from the one card that
/// fits it; onto an empty cascade, as much of the top run as the supermove limit allows. The
/// validator then judges the move.
fn resolve_count(b: &Board, m: StepMove) -> StepMove {
    let (Loc::Cascade(i), Loc::Cascade(j), None) = (m.from, m.to, m.count) else {
        return m;
    };
    let (Some(src), Some(dst)) = (b.cascades.get(i as usize), b.cascades.get(j as usize)) else {
        return m;
    };
    let run = top_run(src);
    let count = match dst.last() {
        Some(&top) => (1..=run)
            .find(|&k| stacks_on(top, src[src.len() - k]))
            .unwrap_or(1),
        None => {
            let free = b.freecells.iter().filter(|c| c.is_none()).count();
            let empty = b.cascades.iter().filter(|c| c.is_empty()).count();
            run.min(supermove_limit(free, empty, true)).max(1)
        }
    };
    StepMove {
        count: Some(count as u8),
        ..m
    }
}

/// The played move (count and card filled in) of a legal step.
fn played(b: &Board, m: &StepMove) -> Option<PlayedMove> {
    let count = m.count.unwrap_or(1);
    let mv = Move {
        from: m.from,
        to: m.to,
        count,
    };
    Some(PlayedMove {
        mv,
        card: moved_card(b, mv)?,
    })
}

/// Play the safe auto-moves on `b` (the solver's rule: aces, twos, and cards whose
/// opposite-colour foundations hold their rank minus one), each applied by the validator.
fn auto_moves(b: &mut Board) -> Vec<MoveOut> {
    let mut s = fcauto_solver::state::State::from_board(b);
    let mut found = vec![];
    fcauto_solver::movegen::autoplay(&mut s, |m, c| found.push((m, c)));
    let mut out = vec![];
    for (m, c) in found {
        let card = Card::from_id(c).expect("the solver moves real cards");
        let before = b.clone();
        if apply_checked(b, &step(m, card)).is_err() {
            break; // cannot happen: the validator and the solver agree (property-tested)
        }
        out.push(move_out(&before, PlayedMove { mv: m, card }));
    }
    out
}

/// What [`solve`] answers.
#[derive(Serialize, Debug, Clone)]
#[cfg_attr(feature = "mcp", derive(schemars::JsonSchema))]
pub struct SolveOut {
    /// `solved`, `unsolvable` (proved by the complete search) or `unknown: <limit>`.
    pub verdict: String,
    /// true, false (proved), or null (unknown).
    pub solvable: Option<bool>,
    /// The moves (foundation moves included), validated; empty unless solved.
    pub moves: Vec<MoveOut>,
    /// Moves, a supermove counted once; null unless solved.
    pub moves_total: Option<usize>,
    /// Single-card moves; null unless solved.
    pub single_card_moves: Option<usize>,
    /// The solution in standard notation, one line; null unless solved.
    pub standard: Option<String>,
    /// Positions expanded.
    pub positions: u64,
}

/// `solve`: solve from `b` in `mode` with at most `max_states` positions (1..=[`MAX_STATES`],
/// default [`MAX_STATES`]) and [`TIME_CAP`]; every solution validated. (MCP's; `serve`
/// queues its solves through [`solve_in`].)
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub fn solve(
    b: &Board,
    mode: ModeArg,
    max_states: Option<usize>,
) -> Result<SolveOut, ServiceError> {
    solve_in(b, mode, max_states, ())
}

/// [`solve`] holding `slot` (a solver permit) until the search ends: at [`TIME_CAP`] the
/// answer is "unknown" but the search runs on to its position budget, and `slot` is dropped
/// only then, so that a caller counting searches by slots never runs more than it holds.
pub fn solve_in<S: Send + 'static>(
    b: &Board,
    mode: ModeArg,
    max_states: Option<usize>,
    slot: S,
) -> Result<SolveOut, ServiceError> {
    solve_capped(b, mode, max_states, TIME_CAP, slot)
}

/// The position budget of a solve: `max_states`, 1..=[`MAX_STATES`] ([`MAX_STATES`] when
/// left out); the optimal modes, and a budget out of range, are refused (400, not changed,
/// as a picture's width is).
fn search_budget(mode: ModeArg, max_states: Option<usize>) -> Result<usize, ServiceError> {
    if matches!(
        mode,
        ModeArg::Optimal | ModeArg::OptimalMoves | ModeArg::OptimalPh
    ) {
        return Err(ServiceError::bad_request(
            "the optimal modes need gigabytes and minutes: use the command line (`fcauto solve --mode optimal`)",
        ));
    }
    match max_states {
        Some(0) => Err(ServiceError::bad_request(format!(
            "max_states 0: a search stores at least its start position (give 1..={MAX_STATES}, or leave it out for {MAX_STATES})"
        ))),
        Some(n) if n > MAX_STATES => Err(ServiceError::bad_request(format!(
            "max_states {n}: a solve here stores at most {MAX_STATES} positions (give 1..={MAX_STATES}, or use the command line, `fcauto solve --max-states`)"
        ))),
        Some(n) => Ok(n),
        None => Ok(MAX_STATES),
    }
}

/// [`solve_in`] with the time cap `cap`.
fn solve_capped<S: Send + 'static>(
    b: &Board,
    mode: ModeArg,
    max_states: Option<usize>,
    cap: Duration,
    slot: S,
) -> Result<SolveOut, ServiceError> {
    let states = search_budget(mode, max_states)?;
    let board = b.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(solve_checked(None, &board, mode.into(), Some(states)));
        drop(slot); // only now: the search is over
    });
    match rx.recv_timeout(cap) {
        Ok(r) => r
            .map(|(out, stats)| solve_out(out, stats.expanded))
            .map_err(|e| ServiceError::unprocessable(format!("{e:#}"))),
        // The search goes on to its position budget, holding `slot`; its answer is dropped.
        Err(_) => Ok(unknown(
            format!("unknown: time cap of {} s reached", cap.as_secs_f64()),
            0,
        )),
    }
}

/// A [`SolveOut`] without a solution.
fn unknown(verdict: String, positions: u64) -> SolveOut {
    SolveOut {
        verdict,
        solvable: None,
        moves: vec![],
        moves_total: None,
        single_card_moves: None,
        standard: None,
        positions,
    }
}

/// The answer of a finished search that expanded `positions`.
fn solve_out(out: Outcome, positions: u64) -> SolveOut {
    match out {
        Outcome::Solved(c) => SolveOut {
            verdict: "solved".into(),
            solvable: Some(true),
            moves: solution_moves(&c.solution),
            moves_total: Some(c.moves_total),
            single_card_moves: Some(c.single_card_moves),
            standard: Some(c.solution.to_standard().trim_end().replace('\n', " ")),
            positions,
        },
        Outcome::Unsolvable => SolveOut {
            verdict: "unsolvable".into(),
            solvable: Some(false),
            ..unknown(String::new(), positions)
        },
        Outcome::Unknown(why) => unknown(format!("unknown: {why}"), positions),
    }
}

/// A solution's moves in output form, each notation as [`fcauto_solver::Solution::tokens`]
/// writes it.
fn solution_moves(solution: &fcauto_solver::Solution) -> Vec<MoveOut> {
    let tokens = solution.tokens();
    solution
        .moves
        .iter()
        .zip(tokens)
        .map(|(&p, notation)| MoveOut {
            notation,
            ..move_out(&solution.board, p)
        })
        .collect()
}

/// What [`hint`] answers: the next move of a winning line, and the line.
#[derive(Serialize, Debug, Clone)]
#[cfg_attr(feature = "mcp", derive(schemars::JsonSchema))]
pub struct HintOut {
    /// As [`SolveOut::verdict`].
    pub verdict: String,
    /// The move to play now; null unless a win was found (or the position is won).
    pub next: Option<MoveOut>,
    /// The whole winning line from here.
    pub line: Vec<MoveOut>,
}

/// `hint`: solve from here and give the first move. (MCP's, as [`solve`].)
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub fn hint(b: &Board, mode: ModeArg, max_states: Option<usize>) -> Result<HintOut, ServiceError> {
    hint_in(b, mode, max_states, ())
}

/// [`hint`] holding `slot` until the search ends (as [`solve_in`]).
pub fn hint_in<S: Send + 'static>(
    b: &Board,
    mode: ModeArg,
    max_states: Option<usize>,
    slot: S,
) -> Result<HintOut, ServiceError> {
    let s = solve_in(b, mode, max_states, slot)?;
    Ok(HintOut {
        verdict: s.verdict,
        next: s.moves.first().cloned(),
        line: s.moves,
    })
}

/// What [`verify`] answers: the validator's verdict on a solution.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "mcp", derive(schemars::JsonSchema))]
pub struct VerifyOut {
    /// The solution wins from the position, every move legal.
    pub valid: bool,
    /// Moves (supermove = 1), when valid.
    pub moves_total: Option<usize>,
    /// Single-card moves, when valid.
    pub single_card_moves: Option<usize>,
    /// Why not, when invalid (the step and the broken rule).
    pub error: Option<String>,
}

/// A picture width asked for (`None`: [`fcauto_engine::render::DEFAULT_WIDTH`]), checked against
/// the renderer's bounds: a width outside them is refused (400), not changed, so what is drawn
/// is what was asked for.
/// Any whole number is read, so that a negative or huge one gets these words, not serde's
/// "expected u32" (helper-46).
pub fn picture_width(width: Option<i64>) -> Result<u32, ServiceError> {
    use fcauto_engine::render::{DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH};
    let width = width.unwrap_or(DEFAULT_WIDTH.into());
    if !(i64::from(MIN_WIDTH)..=i64::from(MAX_WIDTH)).contains(&width) {
        return Err(ServiceError::bad_request(format!(
            "width {width}: a picture is {MIN_WIDTH}..={MAX_WIDTH} pixels wide"
        )));
    }
    Ok(width as u32)
}

/// `verify`: replay a solution in standard notation (`solve`'s output; counts of runs may
/// be left out; an annotated game's comments, move numbers and marks read past, as the
/// command line's `verify` reads them: [`fcauto_solver::annotated`]) from `b` with the
/// validator. A solution that names its own start (`# start:`) must name `b`.
pub fn verify(b: &Board, solution: &str) -> Result<VerifyOut, ServiceError> {
    if solution.len() > MAX_SOLUTION_BYTES {
        return Err(ServiceError::too_large(format!(
            "a solution is at most {MAX_SOLUTION_BYTES} bytes"
        )));
    }
    // JSON (`solve --format json`'s output) is no standard notation: said so, rather than
    // read as a `{...}` comment (an empty move list would then "win" a won position).
    if serde_json::from_str::<serde_json::Value>(solution).is_ok_and(|v| v.is_object()) {
        return Err(ServiceError::unprocessable(
            "the solution is JSON: send standard notation (the `standard` field of a solve's \
             answer, or `solve --format standard`'s output)"
                .to_string(),
        ));
    }
    let annotated = fcauto_solver::annotated::strip_annotations(solution);
    if let Some(problem) = annotated.problem {
        return Err(ServiceError::unprocessable(format!(
            "not standard notation: {problem}"
        )));
    }
    // The position as fcauto reads it, then (if its freecells have gaps) as fc-solve numbers
    // them: standard notation from fc-solve names its freecells so.
    let boards = fcauto_solver::fc_solve_numberings(b, &[]);
    if let Some((deal, own)) = &annotated.start {
        if !boards.contains(own) {
            return Err(ServiceError::unprocessable(format!(
                "the solution names its own start ({}), and the position given is another",
                deal.map_or("a position".to_string(), |n| format!("deal {n}"))
            )));
        }
    }
    // A position printed before the first move (fc-solve's `-p -t` block) is a start the
    // solution names too: checked as a `# start:` line is (helper-50: it was read past).
    let printed = fcauto_solver::parse_fcs_states(solution)
        .map_err(|e| ServiceError::unprocessable(format!("not standard notation: {e}")))?;
    if let Some((_, own)) = printed.iter().find(|(before, _)| *before == 0) {
        if !boards.contains(own) {
            return Err(ServiceError::unprocessable(
                "the solution prints its own start (fc-solve's first position), and the position given is another"
                    .to_string(),
            ));
        }
    }
    let moves = fcauto_solver::parse_standard(&annotated.moves)
        .map_err(|e| ServiceError::unprocessable(format!("not standard notation: {e}")))?;
    let invalid = |e: String| VerifyOut {
        valid: false,
        moves_total: None,
        single_card_moves: None,
        error: Some(e),
    };
    // The first numbering on which the moves are a valid game; else the first's answer.
    let attempts: Vec<_> = boards
        .iter()
        .map(|b| (b, fcauto_solver::resolve_counts(b, &moves)))
        .collect();
    let chosen = attempts
        .iter()
        .find(|(b, r)| {
            r.as_ref()
                .is_ok_and(|m| fcauto_solver::validate(b, m).is_ok())
        })
        .unwrap_or(&attempts[0]);
    let (b, moves) = match chosen {
        (b, Ok(m)) => (*b, m),
        (_, Err(e)) => return Ok(invalid(e.to_string())),
    };
    Ok(match fcauto_solver::validate(b, moves) {
        Ok(v) => VerifyOut {
            valid: true,
            moves_total: Some(v.moves_total),
            single_card_moves: Some(v.single_card_moves),
            error: None,
        },
        Err(e) => invalid(e.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal(n: u64) -> Board {
        fcauto_deals::ms_deal(n).unwrap()
    }

    /// Every move an answer lists reads back, by its notation alone, as that very move: a
    /// one-card move onto an empty cascade that a plain `32` would make two cards long is
    /// `32v1` (helper-43: `"32"` with `count: 1`, which `apply_move("32")` played as 2 cards).
    /// Deals 1..60 have such moves; each is checked, and a `count` contradicting the
    /// notation's own is refused.
    #[test]
    fn every_listed_notation_reads_back_as_its_move() {
        let mut with_count = 0;
        for n in 1..=60 {
            let mut b = deal(n);
            let s = solve(&b, ModeArg::Fast, None).unwrap();
            for m in &s.moves {
                with_count += usize::from(m.notation.contains('v'));
                let out = apply_move(&b, parse_move(&m.notation, None).unwrap(), false);
                assert_eq!(out.mv.as_ref(), Some(m), "deal {n}: {m:?}");
                // The legal moves of the position list it in the same words.
                assert!(legal_moves(&b).contains(m), "deal {n}: {m:?}");
                b = out.position.position.to_board().unwrap();
            }
        }
        assert!(
            with_count > 0,
            "no move needed its count: the test tests nothing"
        );
        let err = parse_move("78v2", Some(1)).unwrap_err();
        assert!(
            err.message
                .contains("`78v2` moves 2 cards and count says 1"),
            "{}",
            err.message
        );
        assert_eq!(parse_move("78v2", Some(2)).unwrap().count, Some(2));
        assert_eq!(parse_move("78", Some(3)).unwrap().count, Some(3));
    }

    /// Long quoted inputs are cut in error messages; short ones and the rest are kept.
    #[test]
    fn errors_never_echo_a_huge_input() {
        let long = "x".repeat(200_000);
        let said = short_echoes(&format!("mode `{long}` is not fast or short"));
        assert_eq!(
            said,
            format!(
                "mode `{}…` (200000 bytes) is not fast or short",
                "x".repeat(40)
            )
        );
        assert_eq!(short_echoes("`3z` is not a move"), "`3z` is not a move");
        assert!(short_echoes(&format!("unclosed `{long}")).ends_with("… (200000 bytes)"));
        assert!(short_echoes(&"y".repeat(10_000)).len() < 4200);
        // Unquoted echoes too (helper-46): serde's number and string echoes.
        let digits = "9".repeat(5000);
        assert_eq!(
            short_echoes(&format!("deal number {digits} is out of range")),
            format!(
                "deal number {}… (5000 bytes) is out of range",
                "9".repeat(40)
            )
        );
        let said = short_echoes(&format!("invalid type: string \"{long}\", expected u8"));
        assert!(
            said.len() < 120 && said.ends_with("(200003 bytes) expected u8"),
            "{said}"
        );
    }

    /// A position whose freecells have a gap (fc-solve's layout `JH      4D`) verifies a
    /// solution in fc-solve's numbering (its freecells left-aligned: 4D is `b`), as the CLI's
    /// `verify` does (helper-41: the service said invalid).
    #[test]
    fn verify_reads_fc_solve_freecell_numbering() {
        let gap = Board::parse(
            "Foundations: H-0 C-0 D-0 S-0\nFreecells:  JH      4D\n\
             : 7D TD TH KD 4C 4S JD\n: AD 7S QC 5H QS TS KS\n: 5C QD 3H 9S 9C 2H KC\n\
             : 3S AC 9D 3C 9H 5D 4H\n: 5S 6D 6S 8S 7C JC\n: 8C 8H 8D 7H 6H 6C\n: 2D AS 3D 2C\n\
             : AH KH TC JS 2S QH\n",
        )
        .unwrap();
        assert_eq!(gap.freecells[1], None, "the gap is kept");
        let mut left = gap.clone();
        left.freecells = [gap.freecells[0], gap.freecells[2], None, None];
        let s = solve(&left, ModeArg::Fast, None).unwrap();
        let text = s.standard.unwrap();
        assert!(verify(&left, &text).unwrap().valid);
        // As fcauto numbers the gap's freecells, the same moves are no game.
        let plain = fcauto_solver::parse_standard(&text).unwrap();
        let on_gap = fcauto_solver::resolve_counts(&gap, &plain);
        assert!(on_gap.is_err() || fcauto_solver::validate(&gap, &on_gap.unwrap()).is_err());
        let v = verify(&gap, &text).unwrap();
        assert!(v.valid, "{v:?}");
        assert_eq!(v.moves_total, s.moves_total);
        // Moves valid on neither numbering are still invalid.
        let v = verify(&gap, "ch").unwrap();
        assert!(!v.valid && v.error.is_some(), "{v:?}");
    }

    #[test]
    fn a_solved_game_replays_through_apply_move() {
        let b = deal(617);
        let s = solve(&b, ModeArg::Fast, None).unwrap();
        assert_eq!(s.verdict, "solved");
        let mut pos = b.clone();
        for m in &s.moves {
            let legal = legal_moves(&pos);
            assert!(
                legal
                    .iter()
                    .any(|l| l.notation == m.notation && l.count == m.count),
                "{m:?} not listed"
            );
            let out = apply_move(
                &pos,
                parse_move(&m.notation, Some(m.count.into())).unwrap(),
                false,
            );
            assert!(out.legal, "{m:?}: {:?}", out.broken_rule);
            pos = out.position.position.to_board().unwrap();
        }
        assert!(pos.is_won());
        let v = verify(&b, s.standard.as_deref().unwrap()).unwrap();
        assert_eq!((v.valid, v.moves_total), (true, s.moves_total));
    }

    /// An annotated game (`analyze --report`'s `game.txt`: move numbers, marks, comments,
    /// its `# start:`) verifies as its plain moves do; a start naming another position, or an
    /// unclosed comment, is refused.
    #[test]
    fn verify_reads_an_annotated_game() {
        let b = deal(617);
        let s = solve(&b, ModeArg::Fast, None).unwrap();
        let plain = s.standard.clone().unwrap();
        let start = format!(
            "# deal 617, x\n# start: {}\n",
            fcauto_deals::position::write(&b)
        );
        let numbered: Vec<String> = (plain.split_whitespace().enumerate())
            .map(|(i, m)| {
                format!(
                    "{}. {m}{}",
                    i + 1,
                    if i == 3 { "? {a # comment}" } else { "" }
                )
            })
            .collect();
        let game = format!("{start}{}\n", numbered.join("\n"));
        let v = verify(&b, &game).unwrap();
        assert_eq!((v.valid, v.moves_total), (true, s.moves_total), "{v:?}");
        let other = verify(&deal(1), &game).unwrap_err();
        assert!(other.message.contains("deal 617"), "{}", other.message);
        let open = verify(&b, &format!("{plain} {{unclosed")).unwrap_err();
        assert!(open.message.contains("not closed"), "{}", open.message);
        // JSON is refused as such, never read as a comment (helper-41: a won position and
        // `{"verdict": "unsolvable", "moves": []}` was "valid").
        let won = Board::parse(&format!(
            "Foundations: H-K C-K D-K S-K\n{}",
            ":\n".repeat(8)
        ))
        .unwrap();
        for json in [
            r#"{"verdict":"unsolvable","solvable":false,"moves":[]}"#,
            "{}",
        ] {
            let e = verify(&won, json).unwrap_err();
            assert!(e.message.contains("the solution is JSON"), "{}", e.message);
        }
        assert!(verify(&won, "{a comment}").unwrap().valid);
    }

    #[test]
    fn illegal_moves_are_refused_with_the_rule_and_the_same_position() {
        let b = deal(1);
        for mv in ["ah", "a1", "1h"] {
            let out = apply_move(&b, parse_move(mv, None).unwrap(), true);
            assert!(!out.legal, "{mv}");
            assert!(out.broken_rule.as_deref().is_some_and(|r| !r.is_empty()));
            assert_eq!(out.position, position_out(&b));
        }
        assert_eq!(parse_move("zz", None).unwrap_err().status, 400);
    }

    #[test]
    fn autoplay_homes_safe_cards_only_when_asked() {
        // The first move, among the first deals, that exposes an ace.
        let (b, with) = (1..50)
            .flat_map(|n| {
                let b = deal(n);
                legal_moves(&b).into_iter().map(move |m| (b.clone(), m))
            })
            .map(|(b, m)| {
                let out = apply_move(
                    &b,
                    parse_move(&m.notation, Some(m.count.into())).unwrap(),
                    true,
                );
                (b, out)
            })
            .find(|(_, o)| !o.autoplayed.is_empty())
            .expect("some first move of deals 1..49 exposes an ace");
        assert!(with.autoplayed.iter().all(|m| m.to == "h"));
        let m = with.mv.clone().unwrap();
        let without = apply_move(
            &b,
            parse_move(&m.notation, Some(m.count.into())).unwrap(),
            false,
        );
        assert!(without.autoplayed.is_empty());
        assert_ne!(without.position, with.position);
    }

    #[test]
    fn positions_in_every_form() {
        let b = deal(5);
        let s = position::write(&b);
        assert_eq!(PositionIn::Text(s.clone()).to_board().unwrap(), b);
        assert_eq!(PositionIn::Text(b.to_string()).to_board().unwrap(), b);
        let j: PositionIn =
            serde_json::from_value(serde_json::json!({"cascades": b.cascades})).unwrap();
        assert_eq!(j.to_board().unwrap(), b);
        // null freecells and foundations are left out.
        let j: PositionIn = serde_json::from_value(
            serde_json::json!({"cascades": b.cascades, "freecells": null, "foundations": null}),
        )
        .unwrap();
        assert_eq!(j.to_board().unwrap(), b);
        let bad: PositionIn =
            serde_json::from_value(serde_json::json!({"cascades": [["AS"]]})).unwrap();
        assert_eq!(bad.to_board().unwrap_err().status, 422);
        // An object's own problem is named, not "no variant matched".
        for (v, want) in [
            (
                serde_json::json!({"cascades": b.cascades, "extra": 1}),
                "unknown field `extra`",
            ),
            (
                serde_json::json!({"cascades": b.cascades, "foundations": [1, 2, 3]}),
                "foundations: 4 numbers, the top rank on each foundation (C, D, H, S), 0 (none) \
                 to 13 (K); got 3",
            ),
            (
                serde_json::json!({"cascades": b.cascades, "foundations": [0, 0, 0, 269]}),
                "foundations: `269` is not the top rank",
            ),
            (
                serde_json::json!({"cascades": b.cascades, "freecells": ["XX"]}),
                "XX",
            ),
            (
                serde_json::json!({"cascades": b.cascades, "freecells": [null, null, null]}),
                "freecells has 3 slots",
            ),
            (serde_json::json!(5), "a position string"),
        ] {
            let err = serde_json::from_value::<PositionIn>(v)
                .unwrap_err()
                .to_string();
            assert!(err.contains(want), "{want}: {err}");
        }
    }

    /// Every move the validator accepts from `b`, by brute force over every source,
    /// destination and count, through [`apply_move`]; sorted.
    fn accepted_moves(b: &Board) -> Vec<MoveOut> {
        let names = "12345678abcdh";
        let mut out = vec![];
        for from in names.chars() {
            for to in names.chars() {
                for count in 0..=21u8 {
                    let Ok(m) = parse_move(&format!("{from}{to}"), Some(count.into())) else {
                        continue;
                    };
                    let r = apply_move(b, m, false);
                    if r.legal {
                        out.push(r.mv.expect("a legal move is named"));
                    }
                }
            }
        }
        sorted(out)
    }

    fn sorted(mut v: Vec<MoveOut>) -> Vec<MoveOut> {
        v.sort_by(|a, b| (&a.notation, a.count).cmp(&(&b.notation, b.count)));
        v
    }

    /// Positions along `fast`'s solutions of deals 617, 1 and 5, along walks through the
    /// legal moves of 11982 (unsolvable) and 94717719, and a hand-made endgame.
    fn sample_positions() -> Vec<Board> {
        let mut out = vec![parse_text("JHQHKH/-/-/-/-/-/-/- ---- KKTK").unwrap()];
        for n in [617, 1, 5] {
            let s = solve(&deal(n), ModeArg::Fast, None).unwrap();
            assert_eq!(s.verdict, "solved", "deal {n}");
            out.extend(walk(deal(n), s.moves.len(), |i, _| s.moves.get(i).cloned()));
        }
        for n in [11982, 94717719] {
            out.extend(walk(deal(n), 80, |i, legal| {
                legal.get((i * 7) % legal.len().max(1)).cloned()
            }));
        }
        out
    }

    /// The positions of up to `steps` moves from `b`, each chosen by `pick(step, legal)`.
    fn walk(
        mut b: Board,
        steps: usize,
        pick: impl Fn(usize, &[MoveOut]) -> Option<MoveOut>,
    ) -> Vec<Board> {
        let mut out = vec![b.clone()];
        for i in 0..steps {
            let Some(m) = pick(i, &legal_moves(&b)) else {
                break;
            };
            let r = apply_move(
                &b,
                parse_move(&m.notation, Some(m.count.into())).unwrap(),
                false,
            );
            assert!(r.legal, "{m:?}");
            b = r.position.position.to_board().unwrap();
            out.push(b.clone());
        }
        out
    }

    #[test]
    fn legal_moves_lists_every_move_the_validator_accepts() {
        let positions = sample_positions();
        assert!(positions.len() > 300, "{}", positions.len());
        for b in &positions {
            assert_eq!(
                sorted(legal_moves(b)),
                accepted_moves(b),
                "{}",
                position::write(b)
            );
        }
    }

    #[test]
    fn legal_moves_includes_the_symmetric_ones() {
        let b = parse_text("JHQHKH/-/-/-/-/-/-/- ---- KKTK").unwrap();
        let got: Vec<(String, u8)> = legal_moves(&b)
            .into_iter()
            .map(|m| (m.notation, m.count))
            .collect();
        for want in [("1a", 1), ("1d", 1), ("12", 1), ("18", 1), ("15", 1)] {
            assert!(
                got.contains(&(want.0.to_string(), want.1)),
                "{want:?} not in {got:?}"
            );
        }
        let b = parse_text("-/-/-/-/-/-/-/- QHKH-- KKJK").unwrap();
        let ac = legal_moves(&b).into_iter().find(|m| m.notation == "ac");
        assert_eq!(ac.map(|m| m.kind), Some("freecell_to_freecell".to_string()));
        // A whole cascade (a run of 3, with 4 free freecells) onto an empty cascade: its
        // notation carries the count (`13v3`), as every run onto an empty cascade.
        let b = parse_text("KHQCJH/KCQH/-/-/-/-/-/- ---- JKTK").unwrap();
        assert!(legal_moves(&b)
            .iter()
            .any(|m| m.notation == "13v3" && m.count == 3));
    }

    #[test]
    fn a_time_capped_solve_keeps_its_slot_until_the_search_ends() {
        let slot = std::sync::Arc::new(());
        let out =
            solve_capped(&deal(1), ModeArg::Short, None, Duration::ZERO, slot.clone()).unwrap();
        assert!(
            out.verdict.starts_with("unknown: time cap"),
            "{}",
            out.verdict
        );
        assert_eq!(
            std::sync::Arc::strong_count(&slot),
            2,
            "the slot went back while the search ran"
        );
        let deadline = std::time::Instant::now() + Duration::from_secs(120);
        while std::sync::Arc::strong_count(&slot) > 1 {
            assert!(
                std::time::Instant::now() < deadline,
                "the search never ended"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn max_states_above_the_cap_is_refused_not_lowered() {
        let e = solve(&deal(1), ModeArg::Fast, Some(MAX_STATES + 1)).unwrap_err();
        assert_eq!(e.status, 400);
        assert!(
            e.message
                .contains(&format!("max_states {}", MAX_STATES + 1)),
            "{}",
            e.message
        );
        assert_eq!(
            hint(&deal(1), ModeArg::Fast, Some(usize::MAX))
                .unwrap_err()
                .status,
            400
        );
        assert_eq!(
            search_budget(ModeArg::Fast, Some(MAX_STATES)),
            Ok(MAX_STATES)
        );
        assert_eq!(search_budget(ModeArg::Short, None), Ok(MAX_STATES));
    }

    #[test]
    fn max_states_zero_is_refused() {
        let e = solve(&deal(1), ModeArg::Fast, Some(0)).unwrap_err();
        assert_eq!(e.status, 400);
        assert!(e.message.contains("max_states 0"), "{}", e.message);
        assert!(hint(&deal(1), ModeArg::Fast, Some(0)).is_err());
        assert_eq!(
            solve(&deal(1), ModeArg::Fast, Some(1)).unwrap().solvable,
            None
        );
    }
}
