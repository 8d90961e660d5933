//! The batch results database's layout: its marks ([`APPLICATION_ID`], [`SCHEMA_VERSION`]),
//! its tables ([`SCHEMA`]), what every row of one database was solved with ([`Settings`])
//! and one deal's row ([`ResultRow`]).
//!
//! The game a database plays is in its `meta` table ([`META_GAME`], [`META_FREECELLS`],
//! [`META_NUMBERING`]) and, as one line of text ([`Variant::label`]), in `meta`'s `rules` and
//! every row's `rules`. A database made before the FreeCell family has none of those three
//! keys and `rules` = `freecell`: it reads as standard FreeCell with Microsoft's deals, as it
//! was written, and the tables themselves did not change (no migration: nothing is rewritten).

use crate::bench::variant::Variant;

/// `PRAGMA application_id` of an fcauto batch database ("FCab" in ASCII).
pub const APPLICATION_ID: i32 = 0x4643_6162;
/// `PRAGMA user_version`: the layout version this build reads and writes.
pub const SCHEMA_VERSION: i32 = 1;
/// The rules of standard FreeCell as a database names them (8 cascades, 4 freecells,
/// supermoves of at most (free freecells + 1) x 2^(empty cascades) cards): the `rules` of
/// every database made before the family, and of those made since for standard FreeCell.
pub const RULES: &str = "freecell";
/// `meta` key: the game's Freecell Solver name (`seahaven_towers`); absent: `freecell`.
pub const META_GAME: &str = "game";
/// `meta` key: the freecells played (0..=8); absent: the game's own.
pub const META_FREECELLS: &str = "freecells";
/// `meta` key: `microsoft` (Microsoft's deals) or `pysolfc` (PySolFC's numbers for the game,
/// `--game`); absent: `microsoft`.
pub const META_NUMBERING: &str = "numbering";

/// The search modes a database can name in its `meta` (as `--mode` names them).
pub const MODES: [&str; 5] = ["fast", "short", "optimal", "optimal-moves", "optimal-ph"];

/// The tables, as every database is made (and as [`super::check`] compares them).
pub const SCHEMA: &str = "
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE results (
    deal              INTEGER PRIMARY KEY,  -- MS deal number, 1..8589934591
    mode              TEXT    NOT NULL,     -- search mode: fast, short, optimal, ...
    rules             TEXT    NOT NULL,     -- 'freecell', or the family game's (meta)
    verdict           TEXT    NOT NULL CHECK (verdict IN ('solved', 'unsolvable', 'unknown')),
    moves_total       INTEGER,              -- moves, a supermove counted once; NULL unless solved
    single_card_moves INTEGER,              -- single-card moves; NULL unless solved FreeCell
    solution          TEXT,                 -- standard notation (validated); NULL unless solved
    stopped_by        TEXT,                 -- the limit that stopped an unknown deal; else NULL
    positions         INTEGER NOT NULL,     -- positions expanded
    cpu_ms            REAL    NOT NULL,     -- CPU time of the solving thread, milliseconds
    version           TEXT    NOT NULL      -- fcauto version that wrote the row
);
";

/// What every row of one database was solved with; two databases merge only when equal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Search mode as `--mode` names it (`fast`, `short`, ...).
    pub mode: String,
    /// Rules as every row names them: [`Variant::label`] of `variant` ([`RULES`] for standard
    /// FreeCell).
    pub rules: String,
    /// Positions budget per deal (`--max-states`, or the mode's default).
    pub max_states: u64,
    /// The game, its rules and numbering.
    pub variant: Variant,
}

impl Settings {
    /// The settings of a run of `variant` in mode `mode` (as `--mode` names it) within
    /// `max_states` positions a deal.
    pub fn new(mode: &str, max_states: u64, variant: Variant) -> Settings {
        Settings {
            mode: mode.to_string(),
            rules: variant.label(),
            max_states,
            variant,
        }
    }
}

/// One deal's stored result: a row of table `results`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ResultRow {
    /// Deal number.
    pub deal: u64,
    /// `solved`, `unsolvable` (proved by a complete search) or `unknown` (a limit).
    pub verdict: &'static str,
    /// Moves (supermove = 1), all foundation moves included; `None` unless solved.
    pub moves_total: Option<u32>,
    /// Single-card moves; `None` unless solved, and for the games of the family other than
    /// standard FreeCell (their solutions count moves only).
    pub single_card_moves: Option<u32>,
    /// The validated solution in standard notation (one line); `None` unless solved.
    pub solution: Option<String>,
    /// For `unknown`: the limit that stopped the search; `None` otherwise.
    pub stopped_by: Option<String>,
    /// Positions expanded.
    pub positions: u64,
    /// CPU time of the thread that solved the deal, milliseconds.
    pub cpu_ms: f64,
}
