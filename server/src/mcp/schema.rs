//! The JSON schemas of the tools' answers (`outputSchema` in `tools/list`): one schema-only
//! twin of each of the service's answer types, field for field with the same names and
//! docs (their descriptions), so that the service's types carry no protocol derives. The
//! tests check each twin's fields against its type's JSON.

// Twins are never built: only their schemas are read.
#![allow(dead_code)]

use fcauto_engine::service;
use rmcp::schemars::{self, JsonSchema};

/// `legal_moves`' answer: structured content is an object, so the list is its `moves`.
#[derive(serde::Serialize, JsonSchema)]
pub(super) struct MovesOut {
    /// Every legal move, each run once per legal size.
    #[schemars(with = "Vec<MoveOut>")]
    pub(super) moves: Vec<service::JsonMove>,
}

fn no_freecells() -> Vec<Option<String>> {
    vec![None; 4]
}

fn no_foundations() -> [u8; 4] {
    [0; 4]
}

/// A position as JSON: `{"cascades": [[8 lists of cards, deepest first]], "freecells":
/// [4 slots, a card or null], "foundations": [top rank per suit C, D, H, S, 0..13]}`.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(super) struct PositionJson {
    /// 8 cascades, each deepest card first (`"KS"`, `"TD"`, ...).
    cascades: Vec<Vec<String>>,
    /// Freecells `a`..`d`: a card or null. May be left out (or null): all empty. Read:
    /// another number of slots is malformed (400), as a wrong `foundations` length is.
    #[schemars(default = "no_freecells")]
    freecells: Vec<Option<String>>,
    /// Foundations, top rank 0..=13 per suit in the order C, D, H, S. May be left out (or
    /// null): empty.
    #[schemars(default = "no_foundations")]
    foundations: [u8; 4],
}

/// A position as returned: both forms, and whether it is won.
#[derive(JsonSchema)]
pub(super) struct PositionOut {
    /// The JSON form.
    position: PositionJson,
    /// The one-line position string.
    position_string: String,
    /// All 52 cards are on the foundations.
    won: bool,
}

/// A move as returned: standard notation and its parts.
#[derive(JsonSchema)]
pub(super) struct MoveOut {
    /// Standard notation (`3a`, `a3`, `3h`, `38`), read back as this very move: with `v` and
    /// the count (`38v1`) where a plain `38`, onto an empty cascade, would move another number
    /// of cards.
    notation: String,
    /// Source: `"1"`..`"8"`, `"a"`..`"d"`.
    from: String,
    /// Destination: `"1"`..`"8"`, `"a"`..`"d"`, `"h"`.
    to: String,
    /// Cards moved (more than 1 for a supermove).
    count: u8,
    /// The card moved (the deepest of a run).
    card: String,
    /// `stack_to_freecell`, `stack_to_stack`, ... (as in `solve --format json`).
    kind: String,
}

/// What [`apply_move`] answers.
#[derive(JsonSchema)]
pub(super) struct ApplyOut {
    /// Whether the move was legal (and so applied).
    legal: bool,
    /// The rule it breaks, when illegal.
    broken_rule: Option<String>,
    /// The move as applied (its count filled in), when legal.
    #[schemars(rename = "move")]
    mv: Option<MoveOut>,
    /// The safe auto-moves to the foundations made after it (when asked), in order.
    autoplayed: Vec<MoveOut>,
    /// The new position (the unchanged one when illegal).
    #[schemars(flatten)]
    position: PositionOut,
}

/// What [`solve`] answers.
#[derive(JsonSchema)]
pub(super) struct SolveOut {
    /// `solved`, `unsolvable` (proved by the complete search) or `unknown: <limit>`.
    verdict: String,
    /// true, false (proved), or null (unknown).
    solvable: Option<bool>,
    /// The moves (foundation moves included), validated; empty unless solved.
    moves: Vec<MoveOut>,
    /// Moves, a supermove counted once; null unless solved.
    moves_total: Option<usize>,
    /// Single-card moves; null unless solved.
    single_card_moves: Option<usize>,
    /// The solution in standard notation, one line; null unless solved.
    standard: Option<String>,
    /// Positions expanded.
    positions: u64,
}

/// What [`hint`] answers: the next move of a winning line, and the line.
#[derive(JsonSchema)]
pub(super) struct HintOut {
    /// As [`SolveOut::verdict`].
    verdict: String,
    /// The move to play now; null unless a win was found (or the position is won).
    next: Option<MoveOut>,
    /// The whole winning line from here.
    line: Vec<MoveOut>,
}

/// What [`verify`] answers: the validator's verdict on a solution.
#[derive(JsonSchema)]
pub(super) struct VerifyOut {
    /// The solution wins from the position, every move legal.
    valid: bool,
    /// Moves (supermove = 1), when valid.
    moves_total: Option<usize>,
    /// Single-card moves, when valid.
    single_card_moves: Option<usize>,
    /// Why not, when invalid (the step and the broken rule).
    error: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The fields a twin's schema lists, `$ref`s followed and flattened fields included.
    fn fields<T: JsonSchema>() -> Vec<String> {
        let schema = serde_json::to_value(schemars::schema_for!(T)).unwrap();
        let mut keys: Vec<String> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        keys.sort();
        keys
    }

    /// The fields of an answer as the service writes it.
    fn keys(v: impl serde::Serialize) -> Vec<String> {
        let Value::Object(m) = serde_json::to_value(v).unwrap() else {
            panic!("an answer is an object")
        };
        let mut keys: Vec<String> = m.keys().cloned().collect();
        keys.sort();
        keys
    }

    /// Each twin lists exactly the fields of its type's JSON.
    #[test]
    fn every_twin_has_its_types_fields() {
        let b = fcauto_deals::ms_deal(1).unwrap();
        let out = service::position_out(&b);
        assert_eq!(fields::<PositionOut>(), keys(&out));
        assert_eq!(fields::<PositionJson>(), keys(&out.position));
        let m = service::legal_moves(&b).remove(0);
        assert_eq!(fields::<MoveOut>(), keys(&m));
        let apply = service::apply_move(
            &b,
            service::parse_move(m.notation.as_deref().unwrap(), None).unwrap(),
            true,
        );
        assert_eq!(fields::<ApplyOut>(), keys(&apply));
        let mode = fcauto_solver::Mode::Fast;
        let solved = service::solve(&b, mode, None).unwrap();
        assert_eq!(fields::<SolveOut>(), keys(&solved));
        assert_eq!(
            fields::<HintOut>(),
            keys(service::hint(&b, mode, None).unwrap())
        );
        let standard = solved.standard.unwrap();
        let verdict = service::verify(&b, &standard).unwrap();
        assert_eq!(fields::<VerifyOut>(), keys(&verdict));
    }
}
