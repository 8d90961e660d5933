//! The batch results database: one SQLite file per run or shard, written only through
//! [`Store`].
//!
//! Layout (schema version [`SCHEMA_VERSION`]):
//! - `PRAGMA application_id` = [`APPLICATION_ID`] marks the file as ours;
//! - `meta(key, value)`: `format` = `fcauto-batch`, `mode`, `rules`, `max_states`, `created_by`,
//!   and the game: `game`, `freecells`, `numbering` (absent in a database made before the
//!   FreeCell family: standard FreeCell, Microsoft's deals);
//! - `results`: one row per deal, see [`ResultRow`].
//!
//! A run holds the file with SQLite's exclusive locking mode in write-ahead-log mode
//! (committed rows survive SIGKILL; no shared-memory file, so it also works on network file
//! systems) and switches it back to a single self-contained file (rollback journal) when it
//! ends cleanly. Every check, and all that `report` and `merge` read, goes through SQLite's
//! `immutable=1` (no lock, no journal or log read or written, no file made beside it), so a
//! refused or read file is never changed; only a run that goes ahead opens its file for
//! writing.
//!
//! One run per database: a run takes an OS lock, `flock(LOCK_EX)` (through `libc`; `std`'s
//! `File::try_lock` needs Rust 1.89), on the file before it looks at it (making it empty if
//! absent) and holds it until the run ends. Another run that finds the lock taken stops at
//! once with one line. `flock` locks do not touch SQLite's and go with the holder's file
//! descriptor, so a killed run leaves none behind. The descriptor stays open as long as
//! SQLite's connection (it is closed after it): closing any descriptor of a file drops the
//! POSIX locks SQLite holds on it.
//!
//! A run killed while it created the tables leaves the file with a hot rollback journal of
//! a transaction begun on an empty file; the next run lets SQLite roll it back (the file is
//! empty again: it never held a row) and starts afresh. `report` and `merge` refuse such a
//! file until then.

use super::game::read_variant;
pub use super::game::{game_options, game_words};
use super::schema::{
    ResultRow, Settings, APPLICATION_ID, META_FREECELLS, META_GAME, META_NUMBERING, MODES, SCHEMA,
    SCHEMA_VERSION,
};
use super::{check, verify};
use crate::bench::variant::Variant;
use anyhow::{bail, Context, Result};
use rusqlite::{config::DbConfig, params, params_from_iter, Connection, OpenFlags};
use std::path::{Path, PathBuf};

/// The stored solutions a run replayed before taking up a database
/// ([`Store::open_for_run`]).
#[derive(Debug, Clone, Copy)]
pub struct Replayed {
    /// Solutions replayed.
    pub solutions: u64,
    /// Seconds the replay took.
    pub seconds: f64,
    /// Threads it ran on.
    pub threads: usize,
}

/// An open batch database.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    settings: Settings,
    /// A run's OS lock on the file ([`run_lock`]); declared after `conn` so that it is
    /// dropped (its descriptor closed) after the connection.
    _lock: Option<std::fs::File>,
}

impl Store {
    /// Open `path` for a run: create it (an absent or empty file) with `settings`, or check
    /// that it is an fcauto batch database written with the same settings. Takes the file
    /// for this process alone until dropped.
    ///
    /// A run that takes up stored rows first replays their solutions with the validator and
    /// tells `replayed` what it replayed (when there were any).
    ///
    /// Errors, before anything is written: not an SQLite file, a foreign or damaged
    /// database, another schema version, other settings, or another run holding the file.
    pub fn open_for_run(
        path: &Path,
        settings: &Settings,
        replayed: &mut dyn FnMut(&Replayed),
    ) -> Result<Store> {
        roll_back_killed_creation(path)?;
        let fresh = check_file(path, true)?;
        // One run per database, for the whole run (taken before the file is looked at).
        let lock = run_lock(path)?;
        let logged = if fresh {
            false
        } else {
            // Decide from a look that cannot change the file; only a run that goes ahead
            // opens it for writing.
            let look = inspect(path)?;
            if let Some(found) = &look.settings {
                if found != settings {
                    return Err(settings_mismatch(path, found, settings));
                }
            }
            look.logged
        };
        let conn = open_rw(path).map_err(|e| sqlite_hint(e, path))?;
        let mut store = if fresh {
            create(conn, path, settings)?
        } else {
            resume(conn, path, settings, logged, replayed)?
        };
        store._lock = Some(lock);
        store.enter_wal().map_err(|e| sqlite_hint(e, path))?;
        Ok(store)
    }

    /// Switch to write-ahead-log mode for the run (commits survive SIGKILL).
    fn enter_wal(&self) -> Result<()> {
        let mode: String = self
            .conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            bail!(
                "{}: SQLite refused write-ahead-log mode ({mode})",
                self.path.display()
            );
        }
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        Ok(())
    }

    /// Open `path` read-only (for `report` and as a `merge` input) and read its settings,
    /// through SQLite's `immutable=1`: nothing is written to it or made beside it.
    /// Errors as [`Store::open_for_run`]; also when a run is writing it or was stopped before
    /// it finished (it is still in write-ahead-log mode, or its log is beside it).
    pub fn open_read(path: &Path) -> Result<Store> {
        check_file(path, false)?;
        if hot_journal(path)?.is_some() {
            bail!(
                "{} was being written when its run was stopped ({} is beside it): run the same \
                 `fcauto batch run` again to resume or restart it",
                path.display(),
                sidecar(path, "-journal").display()
            );
        }
        let wal = sidecar(path, "-wal");
        let logged = wal.metadata().map(|m| m.len() > 0).unwrap_or(false);
        if logged || in_wal_mode(path)? {
            bail!(
                "{} is being written by a batch run, or its run was stopped before it finished{}: \
                 let the run end, or resume it first with `fcauto batch run` and the same \
                 arguments",
                path.display(),
                if logged {
                    format!(" ({} is beside it)", wal.display())
                } else {
                    String::new()
                }
            );
        }
        let conn = open_immutable(path)?;
        let settings = read_settings(&conn, path, true).map_err(|e| sqlite_hint(e, path))?;
        check::check_rows(&conn, &settings).map_err(|why| {
            anyhow::anyhow!(
                "{}: {why}: not a row a batch run writes; the database was edited or damaged",
                path.display()
            )
        })?;
        Ok(Store {
            conn,
            path: path.to_path_buf(),
            settings,
            _lock: None,
        })
    }

    /// The settings every row was solved with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The connection, for the report's read-only queries.
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Deals in `lo..=hi` that are stored, ascending.
    pub fn stored_in(&self, lo: u64, hi: u64) -> Result<Vec<u64>> {
        let mut st = self.conn.prepare_cached(
            "SELECT deal FROM results WHERE deal BETWEEN ?1 AND ?2 ORDER BY deal",
        )?;
        let rows = st.query_map(params![lo as i64, hi as i64], |r| r.get::<_, i64>(0))?;
        Ok(rows
            .map(|d| d.map(|d| d as u64))
            .collect::<Result<_, _>>()?)
    }

    /// The rows whose deal satisfies the shard condition (in `lo..=hi`, in a block
    /// `((deal - lo) / block) % count == index`, 0-based index): how many, and the deals of
    /// those stored as `unsolvable`, ascending.
    pub fn in_shard(
        &self,
        lo: u64,
        hi: u64,
        block: u64,
        index: u64,
        count: u64,
    ) -> Result<(u64, Vec<u64>)> {
        const SHARD: &str = "deal BETWEEN ?1 AND ?2 AND ((deal - ?1) / ?3) % ?4 = ?5";
        let shard = [lo, hi, block, count, index].map(|v| v as i64);
        let n: i64 = self.conn.query_row(
            &format!("SELECT COUNT(*) FROM results WHERE {SHARD}"),
            params_from_iter(shard),
            |r| r.get(0),
        )?;
        let mut st = self.conn.prepare(&format!(
            "SELECT deal FROM results WHERE {SHARD} AND verdict = 'unsolvable' ORDER BY deal"
        ))?;
        let unsolvable = st
            .query_map(params_from_iter(shard), |r| r.get::<_, i64>(0))?
            .map(|d| d.map(|d| d as u64))
            .collect::<Result<_, _>>()?;
        Ok((n as u64, unsolvable))
    }

    /// Store `rows` in one transaction (all or none).
    ///
    /// Errors: SQLite's, in words where they have a plain meaning here (a full disk: the
    /// rows stored before are kept).
    pub fn insert(&mut self, rows: &[ResultRow]) -> Result<()> {
        self.insert_rows(rows)
            .map_err(|e| sqlite_hint(e, &self.path))
    }

    fn insert_rows(&mut self, rows: &[ResultRow]) -> Result<()> {
        let tx = self.conn.transaction()?;
        {
            let mut st = tx.prepare_cached(
                "INSERT INTO results (deal, mode, rules, verdict, moves_total, single_card_moves, \
                 solution, stopped_by, positions, cpu_ms, version) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )?;
            for r in rows {
                st.execute(params![
                    r.deal as i64,
                    self.settings.mode,
                    self.settings.rules,
                    r.verdict,
                    r.moves_total,
                    r.single_card_moves,
                    r.solution,
                    r.stopped_by,
                    r.positions as i64,
                    r.cpu_ms,
                    env!("CARGO_PKG_VERSION"),
                ])
                .with_context(|| format!("cannot store deal {}", r.deal))?;
            }
        }
        tx.commit()
            .with_context(|| format!("cannot commit to {}", self.path.display()))?;
        Ok(())
    }

    /// End a run cleanly: fold the write-ahead log into the file and go back to a single
    /// self-contained file, so that it can be copied, merged and reported on.
    pub fn finish(self) -> Result<()> {
        let _: String = self
            .conn
            .query_row("PRAGMA journal_mode=DELETE", [], |r| r.get(0))
            .with_context(|| format!("cannot close {}", self.path.display()))
            .map_err(|e| sqlite_hint(e, &self.path))?;
        self.conn
            .close()
            .map_err(|(_, e)| anyhow::anyhow!("cannot close {}: {e}", self.path.display()))
    }
}

/// The OS lock (`flock(LOCK_EX)`, which does not touch SQLite's own locks) a run holds on
/// its database `path` from before it looks at the file until it ends; the file is created
/// empty if absent. Errors: another run holds it, or the file cannot be made.
fn run_lock(path: &Path) -> Result<std::fs::File> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| open_error(e, path))?;
    match flock(&file, libc::LOCK_EX) {
        Ok(true) => Ok(file),
        Ok(false) => Err(in_use(path)),
        Err(e) => Err(e).with_context(|| format!("cannot lock {}", path.display())),
    }
}

/// A file that cannot be opened for a run, in words (a read-only one says how to go on).
fn open_error(e: std::io::Error, path: &Path) -> anyhow::Error {
    if e.kind() == std::io::ErrorKind::PermissionDenied {
        anyhow::anyhow!(
            "cannot write {} ({e}): the file or its folder is read-only (a run writes the file \
             and a log beside it); make both writable, or choose another file",
            path.display()
        )
    } else {
        anyhow::Error::new(e).context(format!("cannot create {}", path.display()))
    }
}

/// Take `flock`'s lock `kind` (`LOCK_EX`, `LOCK_SH`) on `file` without waiting: false when
/// another process holds a conflicting one. (`std`'s `File::try_lock` needs Rust 1.89; the
/// crate builds with 1.80.)
fn flock(file: &std::fs::File, kind: libc::c_int) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a file descriptor this `File` owns for the whole call.
    if unsafe { libc::flock(file.as_raw_fd(), kind | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        Ok(false)
    } else {
        Err(e)
    }
}

/// The error of a run that finds `path` held by another run.
fn in_use(path: &Path) -> anyhow::Error {
    anyhow::anyhow!(
        "{} is in use by another batch run (one run per database): use another --db, or run \
         again once that run has ended to resume it",
        path.display()
    )
}

/// The first bytes of a hot SQLite rollback journal.
const JOURNAL_MAGIC: [u8; 8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];

/// The size in pages the database had when the transaction of a hot rollback journal beside
/// `path` began (SQLite's journal header: magic, then at byte 16 that size, big-endian), or
/// `None` when no hot journal is beside it (absent, empty, or finished: magic zeroed).
fn hot_journal(path: &Path) -> Result<Option<u32>> {
    use std::io::Read;
    let journal = sidecar(path, "-journal");
    let mut head = [0u8; 20];
    match std::fs::File::open(&journal) {
        Ok(mut f) => match f.read_exact(&mut head) {
            Ok(()) if head[..8] == JOURNAL_MAGIC => Ok(Some(u32::from_be_bytes(
                head[16..20].try_into().expect("4 bytes"),
            ))),
            _ => Ok(None),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", journal.display())),
    }
}

/// A run killed while it created the tables left `path` with a hot journal of a transaction
/// begun on an empty file: let SQLite roll it back (under the run's lock), which leaves the
/// file empty, as it was before that run. Any other file is left alone.
fn roll_back_killed_creation(path: &Path) -> Result<()> {
    if hot_journal(path)? != Some(0) || !path.is_file() {
        return Ok(());
    }
    let lock = run_lock(path)?;
    {
        let conn = Connection::open_with_flags(literal(path), OpenFlags::SQLITE_OPEN_READ_WRITE)
            .map_err(|e| sqlite_hint(e.into(), path))?;
        // The first read rolls the hot journal back.
        let _: i64 = conn
            .query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(|e| sqlite_hint(e.into(), path))?;
    }
    drop(lock);
    let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    if len != 0 || hot_journal(path)?.is_some() {
        bail!(
            "{}: the journal of a run stopped while creating it could not be rolled back",
            path.display()
        );
    }
    Ok(())
}

/// Create the tables in a new (empty) file.
fn create(conn: Connection, path: &Path, settings: &Settings) -> Result<Store> {
    conn.execute_batch("BEGIN EXCLUSIVE")
        .map_err(|e| sqlite_hint(e.into(), path))?;
    let tables: i64 = conn.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0))?;
    if tables > 0 {
        // Cannot happen under the run's lock, unless a program other than fcauto wrote it.
        bail!(
            "{} was just written by another program: use another --db",
            path.display()
        );
    }
    conn.execute_batch(&format!(
        "{SCHEMA} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};"
    ))
    .map_err(|e| sqlite_hint(e.into(), path))?;
    {
        let mut st = conn.prepare("INSERT INTO meta (key, value) VALUES (?1, ?2)")?;
        for (k, v) in [
            ("format", "fcauto-batch".to_string()),
            ("mode", settings.mode.clone()),
            ("rules", settings.rules.clone()),
            ("max_states", settings.max_states.to_string()),
            (META_GAME, settings.variant.game.name.to_string()),
            (META_FREECELLS, settings.variant.rules.freecells.to_string()),
            (META_NUMBERING, settings.variant.numbering().to_string()),
            (
                "created_by",
                format!("fcauto {}", env!("CARGO_PKG_VERSION")),
            ),
        ] {
            st.execute(params![k, v])?;
        }
    }
    conn.execute_batch("COMMIT")
        .map_err(|e| sqlite_hint(e.into(), path))?;
    Ok(Store {
        conn,
        path: path.to_path_buf(),
        settings: settings.clone(),
        _lock: None,
    })
}

/// `path` as SQLite must be given it to open that very file: the bundled SQLite reads a
/// name starting `file:` as a URI and `:memory:` as no file at all, while fcauto's checks
/// and lock are on the file the name names; a relative name is given as `./name`.
fn literal(path: &Path) -> PathBuf {
    if path.is_relative() {
        Path::new(".").join(path)
    } else {
        path.to_path_buf()
    }
}

/// Open `path` for a run: read-write, created if absent, held by this connection alone.
fn open_rw(path: &Path) -> Result<Connection> {
    let conn = Connection::open_with_flags(
        literal(path),
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE,
    )
    .with_context(|| format!("cannot open {}", path.display()))?;
    // SQLite opens a write-protected file read-only rather than failing.
    if conn.is_readonly(rusqlite::MAIN_DB)? {
        bail!(
            "cannot write {}: the file is read-only; make it writable, or choose another file",
            path.display()
        );
    }
    // Exclusive: no other connection reads or writes while the run goes on, and WAL keeps
    // its index in this process's memory (no -shm file).
    conn.pragma_update(None, "locking_mode", "EXCLUSIVE")?;
    conn.busy_timeout(std::time::Duration::from_millis(200))?;
    Ok(conn)
}

/// Take up an existing database whose settings [`inspect`] found equal to `settings`. When a
/// killed run's log was beside it, check the whole (file and log) now, and should that fail,
/// close without folding the log into the file.
fn resume(
    conn: Connection,
    path: &Path,
    settings: &Settings,
    logged: bool,
    replayed: &mut dyn FnMut(&Replayed),
) -> Result<Store> {
    if logged {
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
        let found = read_settings(&conn, path, true).map_err(|e| sqlite_hint(e, path))?;
        if &found != settings {
            return Err(settings_mismatch(path, &found, settings));
        }
    }
    // Every stored row is one a run writes, before any is added (else a damaged row would
    // pass, the run say "shard complete", and only `report` refuse the file). On an
    // error the connection closes without a checkpoint: the files stay as they were.
    check::check_rows(&conn, settings).map_err(|why| {
        anyhow::anyhow!(
            "{}: {why}: not a row a batch run writes; the database was edited or damaged: \
             delete that row from its `results` table (e.g. with sqlite3) and run again to \
             solve the deal anew, or start a new database",
            path.display()
        )
    })?;
    // Every stored solution replays to its stored lengths, or a run would build on a row
    // that `report --verify` later refuses (an illegal stored solution is never taken up
    // silently). Same error path: nothing written.
    let t0 = std::time::Instant::now();
    let replay = verify::verify(&conn, &settings.variant)?;
    if replay.checked > 0 {
        replayed(&Replayed {
            solutions: replay.checked,
            seconds: t0.elapsed().as_secs_f64(),
            threads: rayon::current_num_threads(),
        });
    }
    if let Some((deal, why)) = replay.first_invalid.first() {
        bail!(
            "{}: {} stored solution(s) do not replay; deal {deal}: {why}: the database was \
             edited or damaged: delete that row from its `results` table (e.g. with sqlite3) \
             and run again to solve the deal anew, or start a new database",
            path.display(),
            replay.invalid
        );
    }
    if logged {
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, false)?;
    }
    Ok(Store {
        conn,
        path: path.to_path_buf(),
        settings: settings.clone(),
        _lock: None,
    })
}

/// What [`inspect`] found.
struct Look {
    /// The settings, read from the file alone; none when a log is beside it (the file alone
    /// is then not the whole database: a run stopped during a checkpoint leaves pages that
    /// only the log completes), read by [`resume`] instead.
    settings: Option<Settings>,
    /// A killed run's write-ahead log is beside the file (its rows are not in the file yet).
    logged: bool,
}

/// Read an existing database's settings without any way of changing it (SQLite's
/// `immutable=1`: no lock, no log or journal read or written, nothing made beside it).
/// When a log is beside the file, the settings and the integrity check are left to
/// [`resume`], as the file alone is then not the whole database.
fn inspect(path: &Path) -> Result<Look> {
    let logged = sidecar(path, "-wal")
        .metadata()
        .map(|m| m.len() > 0)
        .unwrap_or(false);
    if logged {
        return Ok(Look {
            settings: None,
            logged,
        });
    }
    let conn = open_immutable(path)?;
    let settings = read_settings(&conn, path, true).map_err(|e| sqlite_hint(e, path))?;
    Ok(Look {
        settings: Some(settings),
        logged,
    })
}

/// Open `path` read-only through an `immutable=1` URI (see [`inspect`]).
fn open_immutable(path: &Path) -> Result<Connection> {
    let uri = format!("file:{}?immutable=1", uri_path(path)?);
    Connection::open_with_flags(
        &uri,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .with_context(|| format!("cannot open {}", path.display()))
}

/// Whether the file's header says write-ahead-log mode: a run holds it or was stopped before
/// it finished (a run that ends goes back to a self-contained file).
fn in_wal_mode(path: &Path) -> Result<bool> {
    use std::io::Read;
    let mut head = [0u8; 20];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(head[18] == 2 || head[19] == 2)
}

/// A path as an SQLite URI path (absolute, with `%`, `?` and `#` escaped).
pub fn uri_path(p: &Path) -> Result<String> {
    let abs = std::fs::canonicalize(p).with_context(|| format!("cannot read {}", p.display()))?;
    let s = abs
        .to_str()
        .with_context(|| format!("{}: the path is not UTF-8", p.display()))?;
    Ok(s.replace('%', "%25")
        .replace('?', "%3f")
        .replace('#', "%23"))
}

/// Check the file before SQLite opens it. Returns true when it is absent or empty (a new
/// database). Refuses a directory, a file that is not SQLite, and (when `for_run` is false)
/// a missing file.
fn check_file(path: &Path, for_run: bool) -> Result<bool> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && for_run => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                if !dir.is_dir() {
                    bail!(
                        "cannot create {}: {} is not a directory",
                        path.display(),
                        dir.display()
                    );
                }
            }
            return Ok(true);
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    if !meta.is_file() {
        bail!("{} is not a file", path.display());
    }
    if meta.len() == 0 {
        if for_run {
            return Ok(true);
        }
        // A run stopped while it made the file leaves it empty with its journal beside it:
        // said so, not "not an fcauto batch database".
        if sidecar(path, "-journal").exists() {
            bail!(
                "{} was being written when its run was stopped ({} is beside it, the file is \
                 empty): run the same `fcauto batch run` again to restart it",
                path.display(),
                sidecar(path, "-journal").display()
            );
        }
        bail!("{} is empty: not an fcauto batch database", path.display());
    }
    use std::io::Read;
    let mut head = [0u8; 16];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .with_context(|| format!("cannot read {}", path.display()))?;
    if n < 16 || &head != b"SQLite format 3\0" {
        bail!(
            "{} is not an SQLite database (fcauto batch databases are)",
            path.display()
        );
    }
    Ok(false)
}

/// Read and check the marker, schema version, integrity and settings of an open database.
/// The integrity check runs when `check` is true.
fn read_settings(conn: &Connection, path: &Path, check: bool) -> Result<Settings> {
    let name = path.display();
    let app: i32 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .with_context(|| format!("{name} is not a readable SQLite database"))?;
    if app != APPLICATION_ID {
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        bail!(
            "{name} is an SQLite database but not an fcauto batch database (tables: {})",
            if tables.is_empty() {
                "none".to_string()
            } else {
                tables.join(", ")
            }
        );
    }
    let version: i32 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version != SCHEMA_VERSION {
        bail!(
            "{name} has batch schema version {version}; this fcauto reads version {SCHEMA_VERSION}"
        );
    }
    if check {
        let found: String = conn
            .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
            .with_context(|| format!("{name} is damaged"))?;
        if found != "ok" {
            bail!("{name} is damaged (SQLite's integrity check: {found})");
        }
    }
    let damaged =
        |why: String| anyhow::anyhow!("{name}: {why}: the database was edited or damaged");
    check::check_tables(conn).map_err(damaged)?;
    let get = |k: &str| -> Result<String> {
        check::meta_text(conn, k)
            .map_err(damaged)?
            .with_context(|| format!("{name} is damaged: its meta table has no `{k}`"))
    };
    let format = get("format")?;
    if format != "fcauto-batch" {
        bail!(
            "{name}: its meta format is `{format}`, not `fcauto-batch`: the database was \
             edited or damaged"
        );
    }
    let variant = read_variant(conn, path)?;
    let rules = get("rules")?;
    if rules != variant.label() {
        bail!(
            "{name} holds results under rules `{rules}`, but its meta names {} (`{}`): the \
             database was edited or damaged, or written by a newer fcauto",
            variant.title(),
            variant.label()
        );
    }
    let max_states = get("max_states")?;
    let mode = get("mode")?;
    if !MODES.contains(&mode.as_str()) {
        return Err(damaged(fcauto_deals::text::short_echoes(&format!(
            "its meta `mode` is `{mode}`, none of {}",
            MODES.join(", ")
        ))));
    }
    Ok(Settings {
        mode,
        rules,
        variant,
        max_states: max_states.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
            damaged(fcauto_deals::text::short_echoes(&format!(
                "its meta `max_states` is `{max_states}`, not a number of positions, \
                 1..={}",
                u64::MAX
            )))
        })?,
    })
}

/// The game the database at `path` keeps, read without any way of changing the file
/// (SQLite's `immutable=1`; its `meta` is written when the file is made, so a run's log
/// beside it does not hold it); `None` when there is no such file or it is not a batch
/// database ([`Store::open_for_run`] then says what is wrong).
pub fn stored_variant(path: &Path) -> Option<Variant> {
    if std::fs::metadata(path).map_or(true, |m| !m.is_file() || m.len() == 0) {
        return None;
    }
    check_file(path, false).ok()?;
    let conn = open_immutable(path).ok()?;
    let app: i32 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .ok()?;
    if app != APPLICATION_ID {
        return None;
    }
    read_variant(&conn, path).ok()
}

/// The error of a run whose settings `want` differ from those of the rows `path` holds.
/// Another game is said first, with the options that would play the database's.
pub fn settings_mismatch(path: &Path, have: &Settings, want: &Settings) -> anyhow::Error {
    if have.variant != want.variant {
        return anyhow::anyhow!(
            "{} holds results of {}; this run plays {}: give the database's game ({}), or \
             use another --db",
            path.display(),
            game_words(&have.variant),
            game_words(&want.variant),
            game_options(&have.variant)
        );
    }
    anyhow::anyhow!(
        "{} holds results of {}; this run is {}: use another --db",
        path.display(),
        describe(have),
        describe(want)
    )
}

/// Words for a settings mismatch: `mode fast, rules freecell, max_states 1000000`; the
/// rules of another game of the family, which hold commas, in backquotes.
pub fn describe(s: &Settings) -> String {
    let rules = match s.variant.is_standard() {
        true => s.rules.clone(),
        false => format!("`{}`", s.rules),
    };
    format!(
        "mode {}, rules {rules}, max_states {}",
        s.mode, s.max_states
    )
}

/// Turn SQLite's errors that have a plain meaning here ("database is locked", "attempt to
/// write a readonly database", a damaged file) into words that name the file.
fn sqlite_hint(e: anyhow::Error, path: &Path) -> anyhow::Error {
    let Some((code, msg)) = e
        .chain()
        .find_map(|c| match c.downcast_ref::<rusqlite::Error>() {
            Some(rusqlite::Error::SqliteFailure(f, msg)) => {
                Some((f.code, msg.clone().unwrap_or_else(|| f.to_string())))
            }
            _ => None,
        })
    else {
        return e;
    };
    use rusqlite::ErrorCode as C;
    let name = path.display();
    match code {
        C::DatabaseBusy | C::DatabaseLocked => {
            anyhow::anyhow!("{name} is in use by another batch run (one writer per database)")
        }
        C::DatabaseCorrupt | C::NotADatabase => {
            anyhow::anyhow!("{name} is damaged (SQLite: {msg})")
        }
        C::DiskFull => anyhow::anyhow!(
            "the disk holding {name} is full (SQLite: {msg}): the rows stored before are kept; \
             free some space, or move the file with its `-wal` log beside it to a disk with \
             room, and run the same `batch run` again to go on"
        ),
        C::ReadOnly | C::CannotOpen => anyhow::anyhow!(
            "cannot write {name} (SQLite: {msg}): the file or its folder is read-only (a run \
             writes the file and a log beside it); make both writable, or choose another file"
        ),
        _ => e,
    }
}

/// `path` with `suffix` appended to its file name (SQLite's `-wal`, `-journal`).
pub fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full disk (SQLite's `max_page_count` reached, as a full file system ends a run) is
    /// named in words (not SQLite's "Error code 13: Insertion failed because database is
    /// full"), and the rows committed before it stay.
    #[test]
    fn a_full_disk_is_named_and_the_rows_before_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.sqlite");
        let settings = Settings::new("fast", 1000, Variant::standard());
        let mut store = Store::open_for_run(&path, &settings, &mut |_| ()).unwrap();
        let row = |deal| ResultRow {
            deal,
            verdict: "solved",
            moves_total: Some(90),
            single_card_moves: Some(120),
            solution: Some("3a ".repeat(300)),
            stopped_by: None,
            positions: 50,
            cpu_ms: 0.1,
        };
        store.insert(&[row(1)]).unwrap();
        let pages: i64 = store
            .conn()
            .query_row("PRAGMA page_count", [], |r| r.get(0))
            .unwrap();
        store
            .conn()
            .execute_batch(&format!("PRAGMA max_page_count = {pages}"))
            .unwrap();
        let many: Vec<ResultRow> = (2..200).map(row).collect();
        let e = format!("{:#}", store.insert(&many).unwrap_err());
        assert!(
            e.contains(&format!("the disk holding {} is full", path.display()))
                && e.contains("run the same `batch run` again"),
            "{e}"
        );
        assert_eq!(store.stored_in(1, 1000).unwrap(), [1]);
    }
}
