//! The tools' arguments as rmcp reads them, with their JSON schemas (what `tools/list`
//! shows a client): a position as a string or the JSON shape, a deal number, a move, a
//! search mode and budget, whether to draw a picture and its width.

use fcauto_engine::service;
use rmcp::schemars::{self, json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use serde_json::Value;

/// The JSON schema of a position argument: a string or the JSON shape.
fn position_schema(_: &mut SchemaGenerator) -> Schema {
    let card = json_schema!({
        "type": "string",
        "description": "a card: rank A 2-9 T J Q K, then suit C D H S, e.g. \"KS\", \"TD\""
    });
    json_schema!({
        "description": "The whole position. Either a one-line position string \
            `<cascade 1>/.../<cascade 8> <freecells> <foundations>` (cards deepest first \
            without spaces, `-` for an empty cascade or freecell, foundations as the top rank \
            per suit C D H S, 0 for none), e.g. the `position_string` another tool returned \
            (another game's starts with its name and a colon, `seahaven_towers: ...`, and has \
            its own cascades and freecells); or fc-solve's board text (standard FreeCell's, or \
            with `game` that game's); or the JSON object another tool returned as \
            `position`.",
        "oneOf": [
            { "type": "string" },
            {
                "type": "object",
                "properties": {
                    "game": {
                        "type": "string",
                        "description": "another game of the family than standard FreeCell \
                            (`seahaven_towers`): then the cascades and freecells are the game's"
                    },
                    "rules": {
                        "type": "object",
                        "description": "a family position's rules, as returned (checked \
                            against the game's)"
                    },
                    "cascades": {
                        "type": "array", "minItems": 1, "maxItems": 10,
                        "description": "8 cascades (another game's own number, up to 10), \
                            each a list of cards, deepest first",
                        "items": { "type": "array", "items": card }
                    },
                    "freecells": {
                        "type": "array", "minItems": 0, "maxItems": 8,
                        "description": "freecells a-d (another game's own, up to 8): a card \
                            or null (default: all empty)",
                        "items": { "anyOf": [card, { "type": "null" }] }
                    },
                    "foundations": {
                        "type": "array", "minItems": 4, "maxItems": 4,
                        "description": "top rank per suit C, D, H, S, 0..13 (default: all 0)",
                        "items": { "type": "integer", "minimum": 0, "maximum": 13 }
                    }
                },
                "required": ["cascades"],
                "additionalProperties": false
            }
        ]
    })
}

/// The JSON schema of a deal argument: a number, or a string `msN` (PySolFC's form) or
/// `N`, as [`service::deal_in`] reads it (no `maximum`: with a game, PySolFC's numbers go
/// to 10^20, past what a JSON number holds exactly).
fn deal_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "description": "The deal number. Without `game`: Microsoft FreeCell deal \
            1..=8589934591 (Freecell Pro's range; 1..=32000 are the original Windows deals), \
            a number (617) or a string \"ms617\" as PySolFC writes it. With `game`: \
            PySolFC's game number, 1..=100000000000000000000 (10^20: the Microsoft shuffle \
            below 32000 and for \"msN\", the Mersenne Twister from 32000 on); give one past \
            2^53 as a string of digits (\"12345678901234567890\"), as JSON numbers that large \
            are not exact",
        "type": ["integer", "string"],
        "minimum": 1,
        "pattern": "^\\s*([mM][sS]|\\+)?[0-9]+\\s*$"
    })
}

/// `new_game`'s arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct NewGame {
    #[serde(deserialize_with = "service::deal_in")]
    #[schemars(schema_with = "deal_schema")]
    pub(super) deal: service::DealIn,
    /// The game of the FreeCell family, by Freecell Solver's name (`freecell`,
    /// `bakers_game`, `ko_bakers_game`, `eight_off`, `forecell`, `relaxed_freecell`,
    /// `seahaven_towers`, `relaxed_seahaven_towers`, `streets_and_alleys`,
    /// `beleaguered_castle`, `citadel`), PySolFC's title or PySolFC's id (`"45"`); with it the
    /// deal is PySolFC's (the Microsoft shuffle below 32000, the Mersenne Twister from 32000
    /// on). Default: Microsoft FreeCell.
    #[serde(default)]
    pub(super) game: Option<String>,
    /// Number of freecells, 0..=8 (default: the game's).
    #[schemars(range(min = 0, max = 8))]
    #[serde(default, deserialize_with = "service::whole_freecells")]
    pub(super) freecells: Option<i64>,
}

/// Arguments that are just a position.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Position {
    #[schemars(schema_with = "position_schema")]
    pub(super) position: Value,
    /// The game of the family the position's board text is read for (board text names
    /// no game; a position string or object names its own, which must agree): a name such
    /// as `seahaven_towers`, PySolFC's title or id. Default: the position's own, FreeCell
    /// for board text.
    #[serde(default)]
    pub(super) game: Option<String>,
    /// With board text: the number of freecells, 0..=8 (default: the game's).
    #[schemars(range(min = 0, max = 8))]
    #[serde(default, deserialize_with = "service::whole_freecells")]
    pub(super) freecells: Option<i64>,
}

/// `apply_move`'s arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ApplyMove {
    #[schemars(schema_with = "position_schema")]
    pub(super) position: Value,
    /// The game of the family the position's board text is read for (board text names
    /// no game; a position string or object names its own, which must agree): a name such
    /// as `seahaven_towers`, PySolFC's title or id. Default: the position's own, FreeCell
    /// for board text.
    #[serde(default)]
    pub(super) game: Option<String>,
    /// With board text: the number of freecells, 0..=8 (default: the game's).
    #[schemars(range(min = 0, max = 8))]
    #[serde(default, deserialize_with = "service::whole_freecells")]
    pub(super) freecells: Option<i64>,
    /// The move in standard notation: source then destination, `1`-`8` cascades, `a`-`d`
    /// freecells, `h` the foundations: `3a`, `a3`, `3h`, `38`.
    #[serde(rename = "move")]
    pub(super) mv: String,
    /// Cards to move for a cascade-to-cascade run, 1..=13; left out, the longest run
    /// that fits.
    #[schemars(range(min = 1, max = 13))]
    #[serde(default, deserialize_with = "service::whole_count")]
    pub(super) count: Option<i64>,
    /// After the move, play the safe moves to the foundations (default false).
    #[serde(default)]
    pub(super) autoplay: bool,
}

/// How to search.
#[derive(Deserialize, JsonSchema, Clone, Copy, Default)]
#[serde(rename_all = "lowercase")]
pub(super) enum Mode {
    /// The first solution found: fastest.
    #[default]
    Fast,
    /// Short solutions at practical speed.
    Short,
}

/// `mode`: one of the service's modes by name ([`service::mode_named`]: `"fast"` or
/// `"short"`), null as left out, as `/api/solve` reads it (not serde's form of an enum,
/// `{"short": null}`, and null not refused in serde's words).
fn mode_or_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Mode, D::Error> {
    use serde::de::Error;
    let named = match Option::<Value>::deserialize(d)? {
        None => return Ok(Mode::Fast),
        Some(Value::String(m)) => service::mode_named(&m).ok_or(Value::String(m)),
        Some(other) => Err(other),
    };
    match named {
        Ok(fcauto_solver::Mode::Short) => Ok(Mode::Short),
        Ok(_) => Ok(Mode::Fast),
        Err(other) => Err(D::Error::custom(format!(
            "mode {}: the tools solve in \"fast\" or \"short\"",
            service::short_echoes(&other.to_string())
        ))),
    }
}

/// `solve`'s and `hint`'s arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Solve {
    #[schemars(schema_with = "position_schema")]
    pub(super) position: Value,
    /// The game of the family the position's board text is read for (board text names
    /// no game; a position string or object names its own, which must agree): a name such
    /// as `seahaven_towers`, PySolFC's title or id. Default: the position's own, FreeCell
    /// for board text.
    #[serde(default)]
    pub(super) game: Option<String>,
    /// With board text: the number of freecells, 0..=8 (default: the game's).
    #[schemars(range(min = 0, max = 8))]
    #[serde(default, deserialize_with = "service::whole_freecells")]
    pub(super) freecells: Option<i64>,
    /// `fast` (default) or `short`.
    #[serde(default, deserialize_with = "mode_or_null")]
    pub(super) mode: Mode,
    /// Most positions one search may store, 1..=200000 (default 200000; more is refused;
    /// a deal may take several searches, each within it);
    /// a search also stops after 10 s. Either limit gives the verdict `unknown: ...`.
    #[schemars(range(min = 1, max = service::MAX_STATES))]
    #[serde(default, deserialize_with = "service::whole_max_states")]
    pub(super) max_states: Option<usize>,
}

/// `analyze_game`'s arguments: `position` and `moves` (with `game` and `freecells` for
/// board text), or `saved_game` alone.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Analyze {
    /// The game's start position (e.g. `new_game`'s `position`), of any game (a position
    /// string names its game); with `moves`.
    #[schemars(schema_with = "position_schema")]
    #[serde(default)]
    pub(super) position: Option<Value>,
    /// The game of the family the start's board text is read for (board text names no
    /// game; a position string or object names its own, which must agree): a name such as
    /// `seahaven_towers`, PySolFC's title or id. Default: the position's own, FreeCell for
    /// board text. With `position`.
    #[serde(default)]
    pub(super) game: Option<String>,
    /// With board text: the number of freecells, 0..=8 (default: the game's).
    #[schemars(range(min = 0, max = 8))]
    #[serde(default, deserialize_with = "service::whole_freecells")]
    pub(super) freecells: Option<i64>,
    /// The game's moves in standard notation, separated by spaces or lines (`3a 38 ...`);
    /// an annotated game (move numbers, `?`/`!` marks, `{...}` comments) reads as its
    /// plain moves; at most 500 moves (an analysis runs at most 60 s). With `position`.
    #[serde(default)]
    pub(super) moves: Option<String>,
    /// Instead of `position` and `moves`: a PySolFC 3.2 saved game (`.pso`) or held game
    /// (`holdgame.dat`) of any game fcauto plays (FreeCell, Baker's Game, Seahaven Towers,
    /// Eight Off, ...: the game from the file's id), its bytes base64-encoded (at most
    /// 262144 bytes); its own start and the moves PySolFC recorded are analysed.
    #[schemars(length(max = 349528))]
    #[serde(default)]
    pub(super) saved_game: Option<String>,
    /// `fast` (default) or `short`: how each position is searched.
    #[serde(default, deserialize_with = "mode_or_null")]
    pub(super) mode: Mode,
    /// Most positions each position's search may store, 1..=200000 (default 200000).
    #[schemars(range(min = 1, max = service::MAX_STATES))]
    #[serde(default, deserialize_with = "service::whole_max_states")]
    pub(super) max_states: Option<usize>,
}

/// `verify`'s arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Verify {
    #[schemars(schema_with = "position_schema")]
    pub(super) position: Value,
    /// The game of the family the position's board text is read for (board text names
    /// no game; a position string or object names its own, which must agree): a name such
    /// as `seahaven_towers`, PySolFC's title or id. Default: the position's own, FreeCell
    /// for board text.
    #[serde(default)]
    pub(super) game: Option<String>,
    /// With board text: the number of freecells, 0..=8 (default: the game's).
    #[schemars(range(min = 0, max = 8))]
    #[serde(default, deserialize_with = "service::whole_freecells")]
    pub(super) freecells: Option<i64>,
    /// The solution in standard notation, moves separated by spaces or lines
    /// (`3a 38 ...`, as `solve` returns it in `standard`); counts of runs may be left out;
    /// `#` starts a comment to the end of the line; an annotated game (move numbers, `?`/`!`
    /// marks, `{...}` comments, a `# start:` that must be the position given) reads as its
    /// plain moves.
    pub(super) solution: String,
}

/// `render_game`'s arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Render {
    #[schemars(schema_with = "position_schema")]
    pub(super) position: Value,
    /// The game of the family the position's board text is read for (board text names
    /// no game; a position string or object names its own, which must agree): a name such
    /// as `seahaven_towers`, PySolFC's title or id. Default: the position's own, FreeCell
    /// for board text.
    #[serde(default)]
    pub(super) game: Option<String>,
    /// With board text: the number of freecells, 0..=8 (default: the game's).
    #[schemars(range(min = 0, max = 8))]
    #[serde(default, deserialize_with = "service::whole_freecells")]
    pub(super) freecells: Option<i64>,
    /// Picture width in pixels, 200..=4096 (default 720); a width outside is refused, as
    /// by `fcauto serve`'s `/api/render`.
    #[schemars(range(min = fcauto_engine::render::MIN_WIDTH, max = fcauto_engine::render::MAX_WIDTH))]
    #[serde(default, deserialize_with = "service::whole_width")]
    pub(super) width: Option<i64>,
    /// Also answer the PNG picture of the board (default false: the position and the
    /// board as text only; a picture is some 200 KB of base64 in the model's context).
    #[serde(default)]
    pub(super) picture: bool,
}

impl Mode {
    /// The solver's mode of this name.
    pub(super) fn solver(self) -> fcauto_solver::Mode {
        match self {
            Mode::Fast => fcauto_solver::Mode::Fast,
            Mode::Short => fcauto_solver::Mode::Short,
        }
    }
}
