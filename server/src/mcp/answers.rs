//! The tools' answers as MCP gives them: each of the service's answers (as its JSON) split
//! into what the model reads (`structuredContent`, small: the position string, legal or not
//! with the broken rule, moves in standard notation, won) and what only a view of the board
//! needs (the cascades as JSON, whole move records, long lines), which goes in the result's
//! `_meta` under [`VIEW_KEY`], where hosts do not show it to the model.
//!
//! Working on the service's JSON (not its types) keeps this file to the field names of the
//! wire: a renamed or moved Rust type of the engine changes nothing here.

use serde_json::{json, Map, Value};

/// The `_meta` key of what a view needs.
pub(super) const VIEW_KEY: &str = "fcauto/view";

/// An answer split in two: for the model, and for a view (an object; empty: no `_meta`).
#[derive(Debug)]
pub(super) struct Split {
    pub(super) model: Value,
    pub(super) view: Map<String, Value>,
}

/// `v[key]`, taken out (null when absent).
fn take(v: &mut Value, key: &str) -> Value {
    v.as_object_mut()
        .and_then(|m| m.remove(key))
        .unwrap_or(Value::Null)
}

/// A move record's standard notation (null for null).
fn notation(m: &Value) -> Value {
    m.get("notation").cloned().unwrap_or(Value::Null)
}

/// Each move record's standard notation.
fn notations(moves: &Value) -> Value {
    Value::Array(
        moves
            .as_array()
            .map(|ms| ms.iter().map(notation).collect())
            .unwrap_or_default(),
    )
}

/// A position answer `{position (JSON), position_string, won}`: the model gets
/// `{position: <position string>, won}`, the view the board as JSON (`board`).
pub(super) fn position(mut v: Value) -> Split {
    let board = take(&mut v, "position");
    let model = json!({"position": take(&mut v, "position_string"), "won": take(&mut v, "won")});
    let mut view = Map::new();
    view.insert("board".into(), board);
    Split { model, view }
}

/// `apply_move`'s answer: the model gets `{legal, broken_rule, move, autoplayed, position,
/// won}` with the moves in standard notation; the view the board and the move records.
pub(super) fn applied(mut v: Value) -> Split {
    let mv = take(&mut v, "move");
    let autoplayed = take(&mut v, "autoplayed");
    let (legal, broken) = (take(&mut v, "legal"), take(&mut v, "broken_rule"));
    let Split {
        model: pos,
        mut view,
    } = position(v);
    let model = json!({
        "legal": legal,
        "broken_rule": broken,
        "move": notation(&mv),
        "autoplayed": notations(&autoplayed),
        "position": pos["position"],
        "won": pos["won"],
    });
    view.insert("move".into(), mv);
    view.insert("autoplayed".into(), autoplayed);
    Split { model, view }
}

/// `legal_moves`' answer (the list of move records): the model gets `{moves: [notation]}`
/// (each read back as that very move), the view the records.
pub(super) fn legal(moves: Value) -> Split {
    let model = json!({"moves": notations(&moves)});
    let mut view = Map::new();
    view.insert("moves".into(), moves);
    Split { model, view }
}

/// `solve`'s answer: the model gets it without the move records (the solution is
/// `standard`, one line), the view gets the records.
pub(super) fn solved(mut v: Value) -> Split {
    let moves = take(&mut v, "moves");
    let mut view = Map::new();
    view.insert("moves".into(), moves);
    Split { model: v, view }
}

/// `hint`'s answer, from `solve`'s: the model gets `{verdict, next, moves_to_win}` (the
/// next move in standard notation and the length of the winning line, null unless a win
/// was found); the view the next move's record (`next`) and the line in standard notation
/// (`standard`: a line of records would be some 10 KB a hint).
pub(super) fn hint(mut v: Value) -> Split {
    let moves = take(&mut v, "moves");
    let found = v["standard"].is_string();
    let first = moves.get(0).cloned().unwrap_or(Value::Null);
    let model = json!({
        "verdict": take(&mut v, "verdict"),
        "next": notation(&first),
        "moves_to_win": if found { take(&mut v, "moves_total") } else { Value::Null },
    });
    let mut view = Map::new();
    view.insert("next".into(), first);
    view.insert("standard".into(), take(&mut v, "standard"));
    Split { model, view }
}

/// An answer with nothing for a view (`verify`'s).
pub(super) fn whole(model: Value) -> Split {
    Split {
        model,
        view: Map::new(),
    }
}
