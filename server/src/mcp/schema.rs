//! The JSON schemas of the tools' answers (`outputSchema` in `tools/list`): one
//! schema-only struct for each answer the model reads (the `structuredContent` that
//! [`super::answers`] makes of the service's answers), field for field with the same names;
//! and [`portable`], which keeps `tools/list` to standard JSON Schema. The tests check each
//! struct's fields against the answer's JSON.

// These are never built: only their schemas are read.
#![allow(dead_code)]

use rmcp::schemars::{self, JsonSchema};
use serde_json::{Map, Value};

/// A position as the model reads it: the one-line position string, and whether it is won.
#[derive(JsonSchema)]
pub(super) struct PositionOut {
    /// The one-line position string `<cascade 1>/.../<cascade 8> <freecells>
    /// <foundations>`: pass it back as `position` to the other tools.
    position: String,
    /// All 52 cards are on the foundations.
    won: bool,
}

/// `legal_moves`' answer.
#[derive(JsonSchema)]
pub(super) struct MovesOut {
    /// Every legal move in standard notation (`3a`, `a3`, `3h`, `38`, `38v1` for a run of
    /// another size onto an empty cascade), each read back as that very move; a run once
    /// per legal size.
    moves: Vec<String>,
}

/// What `apply_move` answers.
#[derive(JsonSchema)]
pub(super) struct ApplyOut {
    /// Whether the move was legal (and so applied).
    legal: bool,
    /// The rule it breaks, when illegal.
    broken_rule: Option<String>,
    /// The move as applied, in standard notation (with its count where it matters), when
    /// legal.
    #[schemars(rename = "move")]
    mv: Option<String>,
    /// The safe moves to the foundations made after it (when asked), in order.
    autoplayed: Vec<String>,
    /// The new position string (the unchanged one when illegal).
    position: String,
    /// All 52 cards are on the foundations.
    won: bool,
}

/// What `solve` answers.
#[derive(JsonSchema)]
pub(super) struct SolveOut {
    /// `solved`, `unsolvable` (proved by the complete search) or `unknown: <limit>`.
    verdict: String,
    /// true, false (proved), or null (unknown).
    solvable: Option<bool>,
    /// Moves, a supermove counted once; null unless solved.
    #[schemars(range(min = 0))]
    moves_total: Option<u32>,
    /// Single-card moves; null unless solved.
    #[schemars(range(min = 0))]
    single_card_moves: Option<u32>,
    /// The solution in standard notation, one line, every move validated; null unless
    /// solved.
    standard: Option<String>,
    /// Positions expanded.
    #[schemars(range(min = 0))]
    positions: u64,
}

/// What `hint` answers: the next move of a winning line.
#[derive(JsonSchema)]
pub(super) struct HintOut {
    /// As `solve`'s verdict.
    verdict: String,
    /// The move to play now, in standard notation; null unless a win was found (or the
    /// position is won).
    next: Option<String>,
    /// Moves in the winning line from here (a supermove counted once); null unless a win
    /// was found.
    #[schemars(range(min = 0))]
    moves_to_win: Option<u32>,
}

/// What `verify` answers: the validator's verdict on a solution.
#[derive(JsonSchema)]
pub(super) struct VerifyOut {
    /// The solution wins from the position, every move legal.
    valid: bool,
    /// Moves (supermove = 1), when valid.
    #[schemars(range(min = 0))]
    moves_total: Option<u32>,
    /// Single-card moves, when valid.
    #[schemars(range(min = 0))]
    single_card_moves: Option<u32>,
    /// Why not, when invalid (the step and the broken rule).
    error: Option<String>,
}

/// Where a game was lost: its step and move, and a move that kept it winnable.
#[derive(JsonSchema)]
pub(super) struct LostAt {
    /// The step (1-based) whose move turned a winnable position into a lost one.
    step: u32,
    /// That move, in standard notation.
    #[schemars(rename = "move")]
    mv: String,
    /// A move at that step that keeps the game winnable.
    instead: Option<String>,
}

/// A move that made the shortest known win longer by the threshold (10 moves) or more.
#[derive(JsonSchema)]
pub(super) struct CostlyMove {
    /// The step (1-based).
    step: u32,
    /// The move played.
    #[schemars(rename = "move")]
    mv: String,
    /// Moves the shortest known win got longer.
    cost: u32,
    /// The first move of the shortest win known before it.
    best: String,
}

/// The position the game ends in.
#[derive(JsonSchema)]
pub(super) struct FinalOut {
    /// `winnable`, `lost` or `unknown`.
    verdict: String,
    /// All 52 cards are on the foundations.
    won: bool,
    /// Moves of the shortest known win (null unless winnable).
    moves_to_win: Option<u32>,
    /// The next move of that win (null unless winnable and not won).
    hint: Option<String>,
}

/// What `analyze_game` answers.
#[derive(JsonSchema)]
pub(super) struct AnalyzeOut {
    /// The game, for a game of the family other than standard FreeCell (`bakers_game`,
    /// `freecell with 2 freecells`); null for standard FreeCell.
    game: Option<String>,
    /// Moves in the game.
    moves: u32,
    /// The start position: `winnable`, `lost` or `unknown`.
    start: String,
    /// Moves of the shortest known win from the start.
    start_moves_to_win: Option<u32>,
    /// Where the game was lost; null when no move was proved to lose it.
    lost_at: Option<LostAt>,
    /// The costly moves, in game order.
    costly: Vec<CostlyMove>,
    /// The final position.
    #[schemars(rename = "final")]
    fin: FinalOut,
    /// The findings in sentences.
    summary: String,
    /// With `saved_game`: what the PySolFC game held (null for a start and moves).
    saved_game: Option<SavedGameOut>,
}

/// What a PySolFC saved or held game held (`analyze_game` with `saved_game`).
#[derive(JsonSchema)]
pub(super) struct SavedGameOut {
    /// PySolFC's game id (8 FreeCell, 45 Baker's Game, 9 Seahaven Towers, ...).
    pysol_id: u32,
    /// The deal (for another game than FreeCell PySolFC's number of it); null for PySolFC's own deals (the start is then the stored
    /// cards with the moves taken back).
    deal: Option<u64>,
    /// A held game (Hold and quit) rather than a saved one.
    held: bool,
    /// Moves PySolFC recorded (its auto-drops included).
    moves: u32,
}

/// The formats JSON Schema (2020-12) defines; schemars adds others (`uint8`, `int64`,
/// `uint`), which clients warn about or refuse.
const STANDARD_FORMATS: [&str; 19] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// `schema` with every `format` JSON Schema does not define taken out, at any depth (the
/// integer's bounds, `minimum` and `maximum`, say what such a format said).
pub(super) fn portable(schema: &mut Map<String, Value>) {
    let drop = matches!(schema.get("format"), Some(Value::String(f)) if !STANDARD_FORMATS.contains(&f.as_str()));
    if drop {
        schema.remove("format");
    }
    for v in schema.values_mut() {
        portable_value(v);
    }
}

fn portable_value(v: &mut Value) {
    match v {
        Value::Object(m) => portable(m),
        Value::Array(a) => a.iter_mut().for_each(portable_value),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::answers;
    use super::*;
    use fcauto_engine::service;

    /// The fields a struct's schema lists.
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

    /// The fields of an answer as the model reads it.
    fn keys(split: answers::Split) -> Vec<String> {
        let Value::Object(m) = split.model else {
            panic!("an answer is an object")
        };
        let mut keys: Vec<String> = m.keys().cloned().collect();
        keys.sort();
        keys
    }

    fn json(v: impl serde::Serialize) -> Value {
        serde_json::to_value(v).unwrap()
    }

    /// Each schema lists exactly the fields of its answer.
    #[test]
    fn every_schema_has_its_answers_fields() {
        let b = fcauto_deals::ms_deal(1).unwrap();
        let out = service::position_out(&b);
        assert_eq!(fields::<PositionOut>(), keys(answers::position(json(out))));
        let moves = service::legal_moves(&b);
        let first = moves[0].notation.clone().unwrap();
        assert_eq!(fields::<MovesOut>(), keys(answers::legal(json(moves))));
        let apply = service::apply_move(&b, service::parse_move(&first, None).unwrap(), true);
        assert_eq!(fields::<ApplyOut>(), keys(answers::applied(json(apply))));
        let solved = service::solve(&b, fcauto_solver::Mode::Fast, None).unwrap();
        let standard = solved.standard.clone().unwrap();
        assert_eq!(fields::<SolveOut>(), keys(answers::solved(json(&solved))));
        assert_eq!(fields::<HintOut>(), keys(answers::hint(json(&solved))));
        let verdict = service::verify(&b, &standard).unwrap();
        assert_eq!(fields::<VerifyOut>(), keys(answers::whole(json(verdict))));
        let start = service::Position::Standard(b.clone());
        let analysed =
            super::super::analyze::analyze(&start, &standard, fcauto_solver::Mode::Fast, None, ());
        assert_eq!(fields::<AnalyzeOut>(), keys(analysed.unwrap()));
    }

    /// Non-standard formats are taken out at any depth; standard ones stay.
    #[test]
    fn portable_schemas_keep_only_standard_formats() {
        let mut s = serde_json::json!({
            "type": "object",
            "properties": {
                "n": {"type": "integer", "format": "uint8", "minimum": 0},
                "when": {"type": "string", "format": "date-time"},
                "list": {"items": [{"format": "int64"}]}
            }
        });
        portable(s.as_object_mut().unwrap());
        assert_eq!(
            s["properties"]["n"],
            serde_json::json!({"type": "integer", "minimum": 0})
        );
        assert_eq!(s["properties"]["when"]["format"], "date-time");
        assert!(s["properties"]["list"]["items"][0].get("format").is_none());
    }
}
