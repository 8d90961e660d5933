//! What a batch database's tables and rows look like when a run wrote them, checked before
//! `report`, `merge` or a resumed `run` reads one: its tables' columns as the schema makes
//! them ([`check_tables`]), then every row's values ([`check_rows`]). An edited or damaged
//! file is refused naming the table, column or row, never read into a wrong report, copied
//! into a merged file, or met as a raw SQLite type error.

use super::schema::{Settings, SCHEMA};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension};

/// Columns of a table as `PRAGMA table_info` gives them: name, declared type, NOT NULL,
/// part of the primary key.
type Columns = Vec<(String, String, bool, bool)>;

/// The columns of `table` in `conn` (none when there is no such table).
fn columns(conn: &Connection, table: &str) -> rusqlite::Result<Columns> {
    conn.prepare(&format!("PRAGMA table_info({table})"))?
        .query_map([], |r| {
            Ok((
                r.get(1)?,
                r.get(2)?,
                r.get::<_, i64>(3)? != 0,
                r.get::<_, i64>(5)? != 0,
            ))
        })?
        .collect()
}

/// A column as its declaration reads: `deal INTEGER PRIMARY KEY`.
fn declared((name, kind, not_null, key): &(String, String, bool, bool)) -> String {
    let mut s = format!("{name} {kind}");
    if *not_null {
        s.push_str(" NOT NULL");
    }
    if *key {
        s.push_str(" PRIMARY KEY");
    }
    s
}

/// `meta` and `results` have the columns [`SCHEMA`] makes, in its order (a `results` table
/// remade without its primary key takes a deal twice, and the report would count a negative
/// number of missing deals). Errors: the first difference.
pub fn check_tables(conn: &Connection) -> Result<(), String> {
    let model = Connection::open_in_memory()
        .and_then(|m| m.execute_batch(SCHEMA).map(|()| m))
        .map_err(|e| format!("cannot make the schema to compare with ({e})"))?;
    // A trigger no run makes could refuse or change what a run stores.
    let trigger: Option<String> = conn
        .query_row(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' LIMIT 1",
            [],
            |r| r.get(0),
        )
        .optional()
        .map_err(|e| format!("cannot read its schema ({e})"))?;
    if let Some(t) = trigger {
        return Err(fcauto_deals::text::short_echoes(&format!(
            "it has a trigger no run makes, `{t}`"
        )));
    }
    for table in ["meta", "results"] {
        let want = columns(&model, table).map_err(|e| e.to_string())?;
        let have =
            columns(conn, table).map_err(|e| format!("cannot read its {table} table ({e})"))?;
        if have.is_empty() {
            return Err(format!("it has no {table} table"));
        }
        for i in 0..want.len().max(have.len()) {
            let why = match (want.get(i), have.get(i)) {
                (Some(w), Some(h)) if w == h => continue,
                (Some(w), Some(h)) => format!(
                    "its {table} table's column {} is `{}`, not `{}`",
                    i + 1,
                    declared(h),
                    declared(w)
                ),
                (Some(w), None) => format!("its {table} table has no column `{}`", declared(w)),
                (None, Some(h)) => {
                    format!(
                        "its {table} table has a column no run writes, `{}`",
                        declared(h)
                    )
                }
                (None, None) => unreachable!("i is below one of the lengths"),
            };
            return Err(why);
        }
    }
    Ok(())
}

/// Most positions one deal's searches can have expanded, and most milliseconds of CPU one
/// deal can have taken (11.6 days): a larger stored figure is damage, which would otherwise
/// be summed and drawn (`cpu_ms` 1e14 would give percentiles of 0 and "inf CPU hours").
const MOST_POSITIONS: i64 = 1_000_000_000_000;
const MOST_CPU_MS: f64 = 1e9;
/// Most moves a stored solution may have (every card homed: at least 52).
const MOST_MOVES: i64 = 10_000;

/// SQL true for a `stopped_by` a search writes ([`fcauto_solver::STOP_REASON_SHAPES`]).
fn stop_shapes() -> String {
    let each: Vec<String> = fcauto_solver::STOP_REASON_SHAPES
        .iter()
        .map(|p| format!("stopped_by GLOB '{p}'"))
        .collect();
    each.join(" OR ")
}

/// One test of every row: the SQL condition of the rows that fail it, the column whose
/// value the message shows, and the message from that value (as [`shown`] writes it).
struct RowCheck {
    fails: String,
    column: String,
    wrong: Box<dyn Fn(&str) -> String>,
}

fn check(
    fails: impl Into<String>,
    column: &str,
    wrong: impl Fn(&str) -> String + 'static,
) -> RowCheck {
    RowCheck {
        fails: fails.into(),
        column: column.to_string(),
        wrong: Box::new(wrong),
    }
}

/// Each column's types (`typeof`) as the schema has them.
const TYPES: [(&str, &[&str]); 11] = [
    ("deal", &["integer"]),
    ("mode", &["text"]),
    ("rules", &["text"]),
    ("verdict", &["text"]),
    ("moves_total", &["integer", "null"]),
    ("single_card_moves", &["integer", "null"]),
    ("solution", &["text", "null"]),
    ("stopped_by", &["text", "null"]),
    ("positions", &["integer"]),
    ("cpu_ms", &["real", "integer"]),
    ("version", &["text"]),
];

/// Every test a row of a database with `settings` must pass, in the order they are told.
fn row_checks(settings: &Settings) -> Vec<RowCheck> {
    let mut checks = form_checks(settings);
    checks.extend(content_checks(settings.variant.is_standard()));
    checks
}

/// The checks of each value's form: its SQLite type, printable ASCII text, a deal number,
/// the database's mode and rules, a verdict.
fn form_checks(settings: &Settings) -> Vec<RowCheck> {
    let mut checks = Vec::new();
    for (column, ok) in TYPES {
        let list: Vec<String> = ok.iter().map(|t| format!("'{t}'")).collect();
        let fails = format!("typeof({column}) NOT IN ({})", list.join(", "));
        let ok = ok.join(" or ");
        checks.push(check(fails, &format!("typeof({column})"), move |t| {
            format!("a {column} of type {t}, not {ok}")
        }));
    }
    // Every text a run writes is one line of printable ASCII (a solution in standard
    // notation, a verdict, a version): other bytes are damage (invalid UTF-8 stopped
    // `report --verify` with a raw conversion error, and `merge` would copy it).
    for column in [
        "mode",
        "rules",
        "verdict",
        "solution",
        "stopped_by",
        "version",
    ] {
        // (`GLOB` stops at a NUL byte, and so does `length` in characters: a byte length
        // that differs finds it, and any character of more than one byte.)
        checks.push(check(
            format!(
                "{column} GLOB '*[^ -~]*' OR length(CAST({column} AS BLOB)) <> length({column})"
            ),
            column,
            move |_| format!("a {column} holding bytes other than printable ASCII"),
        ));
    }
    let literal = |s: &str| format!("'{}'", s.replace('\'', "''"));
    let (mode, rules) = (settings.mode.clone(), settings.rules.clone());
    checks.extend([
        check(
            format!("deal < 1 OR deal > {}", fcauto_deals::MAX_DEAL),
            "deal",
            |_| "no MS deal number".into(),
        ),
        // Text compared byte for byte, whatever collation the column was given
        // (`COLLATE NOCASE` would let `SOLVED` pass, then be counted as unknown).
        check(
            format!("mode <> {} COLLATE BINARY", literal(&mode)),
            "mode",
            move |v| format!("mode {v}, where the database says {mode}"),
        ),
        check(
            format!("rules <> {} COLLATE BINARY", literal(&rules)),
            "rules",
            move |v| format!("rules {v}, where the database says {rules}"),
        ),
        check(
            "verdict COLLATE BINARY NOT IN ('solved', 'unsolvable', 'unknown')",
            "verdict",
            |v| format!("verdict {v}, which is none of solved, unsolvable and unknown"),
        ),
    ]);
    checks
}

/// The columns a row has exactly when solved: its solution and counts (a row of another game
/// of the family than standard FreeCell never has a single-card count).
fn solved_columns(standard: bool) -> Vec<RowCheck> {
    let mut checks = Vec::new();
    let counted: &[&str] = if standard {
        &["solution", "moves_total", "single_card_moves"]
    } else {
        checks.push(check(
            "single_card_moves IS NOT NULL",
            "single_card_moves",
            |v| format!("single_card_moves {v}, which a game of the family does not count"),
        ));
        &["solution", "moves_total"]
    };
    for &column in counted {
        checks.push(check(
            format!("verdict = 'solved' COLLATE BINARY AND {column} IS NULL"),
            "verdict",
            move |_| format!("verdict solved but no {column}"),
        ));
        checks.push(check(
            format!("verdict <> 'solved' COLLATE BINARY AND {column} IS NOT NULL"),
            "verdict",
            move |v| format!("verdict {v} with a {column}, which only a solved deal has"),
        ));
    }
    checks
}

/// The checks of what a row says: the columns its verdict has and has not, and lengths,
/// positions and CPU time within what a search can give. A row of standard FreeCell
/// (`standard`) has a single-card count when solved and at least 52 moves; a row of another
/// game of the family has no single-card count, and at least one move (its deal may start
/// with cards on the foundations).
fn content_checks(standard: bool) -> Vec<RowCheck> {
    let mut checks = solved_columns(standard);
    let fewest = if standard { 52 } else { 1 };
    checks.extend([
        check(
            "verdict = 'unknown' COLLATE BINARY AND stopped_by IS NULL",
            "verdict",
            |_| "verdict unknown but no stopped_by (the limit that stopped its search)".into(),
        ),
        check(
            "verdict <> 'unknown' COLLATE BINARY AND stopped_by IS NOT NULL",
            "verdict",
            |v| format!("verdict {v} with a stopped_by, which only an unknown deal has"),
        ),
        check(
            format!("moves_total < {fewest} OR moves_total > {MOST_MOVES}"),
            "moves_total",
            move |v| format!("moves_total {v}: a won game has {fewest}..={MOST_MOVES} moves"),
        ),
        check(
            format!("single_card_moves > {}", 52 * MOST_MOVES),
            "single_card_moves",
            |v| format!("single_card_moves {v}, more than {}", 52 * MOST_MOVES),
        ),
        check(
            format!("stopped_by IS NOT NULL AND NOT ({})", stop_shapes()),
            "stopped_by",
            |v| format!("stopped_by {v}, which is no limit a search stops at"),
        ),
        check(
            "single_card_moves < moves_total",
            "single_card_moves",
            |v| format!("single_card_moves {v}, fewer than its moves_total"),
        ),
        // A solution is its moves_total moves, one space between each (an empty or
        // shortened one would pass every check but `report --verify`'s).
        check(
            "solution IS NOT NULL AND (solution <> trim(solution) OR instr(solution, '  ') > 0 \
             OR length(solution) - length(replace(solution, ' ', '')) + 1 <> moves_total)",
            "solution",
            |v| format!("a solution `{v}` that is not its moves_total moves, one space apart"),
        ),
        check("positions < 0", "positions", |v| {
            format!("positions {v}, below 0")
        }),
        check(format!("positions > {MOST_POSITIONS}"), "positions", |v| {
            format!("positions {v}, more than any search expands ({MOST_POSITIONS})")
        }),
        check("cpu_ms < 0", "cpu_ms", |v| format!("cpu_ms {v}, below 0")),
        check(format!("cpu_ms > {MOST_CPU_MS:e}"), "cpu_ms", |v| {
            format!("cpu_ms {v}, more than one deal's search takes ({MOST_CPU_MS:e} ms: 11.6 days)")
        }),
    ]);
    checks
}

/// A value as a message shows it: numbers and text as they are (text cut at 60
/// characters), `NULL`, or the size of a blob.
fn shown(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Null => "NULL".into(),
        ValueRef::Integer(n) => n.to_string(),
        ValueRef::Real(x) => x.to_string(),
        ValueRef::Text(t) => {
            let t = String::from_utf8_lossy(t);
            let cut: String = t.chars().take(60).collect();
            if cut.len() < t.len() {
                format!("`{cut}...`")
            } else {
                format!("`{cut}`")
            }
        }
        ValueRef::Blob(b) => format!("a blob of {} bytes", b.len()),
    }
}

/// Every row is one a batch run writes: values of the schema's types, one-line ASCII text,
/// a deal number in range, the database's settings, a solution and counts exactly when
/// solved, a stopped_by exactly when unknown, counts that are counts, figures a search can
/// reach. One pass finds the first row (by deal) that fails any test; the tests are then
/// run on that row alone, in order, to name what is wrong. Errors: `the row of deal N has
/// ...`.
pub fn check_rows(conn: &Connection, settings: &Settings) -> Result<(), String> {
    let checks = row_checks(settings);
    let any: Vec<String> = checks.iter().map(|c| format!("({})", c.fails)).collect();
    let sql = format!(
        "SELECT rowid FROM results WHERE {} ORDER BY deal LIMIT 1",
        any.join(" OR ")
    );
    let read = |e: rusqlite::Error| format!("cannot read its rows ({e})");
    let Some(rowid) = conn
        .query_row(&sql, [], |r| r.get::<_, i64>(0))
        .optional()
        .map_err(read)?
    else {
        return Ok(());
    };
    let deal: String = conn
        .query_row("SELECT deal FROM results WHERE rowid = ?1", [rowid], |r| {
            Ok(shown(r.get_ref(0)?))
        })
        .map_err(read)?;
    for c in &checks {
        let sql = format!(
            "SELECT {} FROM results WHERE rowid = ?1 AND ({})",
            c.column, c.fails
        );
        let value = conn
            .query_row(&sql, [rowid], |r| Ok(shown(r.get_ref(0)?)))
            .optional()
            .map_err(read)?;
        if let Some(v) = value {
            let v = v.trim_matches('`').to_string();
            return Err(format!("the row of deal {deal} has {}", (c.wrong)(&v)));
        }
    }
    Err(format!("the row of deal {deal} fails a check"))
}

/// A `meta` value read as text, whatever SQLite holds there: errors name the key and what
/// it holds instead (not "Invalid column type" for a blob or NULL).
pub fn meta_text(conn: &Connection, key: &str) -> Result<Option<String>, String> {
    let found = conn
        .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| {
            Ok(match r.get_ref(0)? {
                ValueRef::Text(t) => std::str::from_utf8(t)
                    .map(str::to_string)
                    .map_err(|_| format!("its meta `{key}` holds bytes that are not UTF-8 text")),
                other => Err(format!("its meta `{key}` is {}, not text", shown(other))),
            })
        })
        .optional()
        .map_err(|e| format!("cannot read its meta table ({e})"))?;
    found.transpose()
}
