//! `fcauto batch run`: solve a range (or one shard of it) into a results database, resuming
//! where an earlier run of the same database stopped.
//!
//! Stages: [`open`] the database (checks), count what the shard already holds,
//! then a pipeline: the main thread hands the next blocks' unstored deals to the worker
//! threads ([`solve_row`]: solve, validate, format), collects their rows and commits them in
//! batches ([`Committer`]); at most [`IN_FLIGHT`] deals are under way at once, so memory does
//! not grow with the range. Rows not yet committed when the process is killed are solved
//! again by the next run; committed rows are never solved twice. Ctrl-C, SIGTERM or SIGHUP
//! ([`StopSignal`]) stop the run between rows: the rows received are committed, the database
//! closed, and what was stored said, exit 128 + the signal's number (a second signal ends the
//! process at once).

use crate::cmd::plural;
use crate::mode::ModeArg;
use anyhow::{Context, Result};
use fcauto_engine::batch::commit::{unstored, Committer, Tally};
use fcauto_engine::batch::schema::{ResultRow, Settings};
use fcauto_engine::batch::shard::{self, Shard};
use fcauto_engine::batch::solve::solve_row;
use fcauto_engine::batch::store::{self, Replayed, Store};
use fcauto_engine::bench::Variant;
use indicatif::ProgressBar;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// Arguments of `fcauto batch run`.
#[derive(clap::Args)]
pub struct Args {
    /// Deals, `A..B` (inclusive), within 1..8589934591 (with --game too: PySolFC's larger
    /// numbers are for `deal` and `solve`); e.g. `1..1000000`; with --game,
    /// `msA..msB` is Microsoft's deals in the game's layout (PySolFC's `msN`).
    #[arg(long, value_parser = fcauto_deals::DealRange::parse, allow_hyphen_values = true)]
    pub range: fcauto_deals::DealRange,
    /// Search mode.
    #[arg(long, value_enum, default_value = "fast")]
    pub mode: ModeArg,
    /// Most positions stored per deal before "unknown" (default: the mode's, as `solve`).
    #[arg(long, value_parser = crate::cmd::input::parse_max_states)]
    pub max_states: Option<usize>,
    /// Take the I-th of N shards (1-based): the range is cut into blocks of --block deals,
    /// and block k goes to shard k mod N + 1 (every shard of a run must be given the same
    /// range, N and --block; more shards than blocks are refused, every one of them).
    #[arg(long, value_parser = shard::parse_shard, default_value = "1/1")]
    pub shard: Shard,
    /// Deals per block when sharding [default: 1000, or (deals in the range) / N when that
    /// is less, so that every shard gets work: 1..32000 in 64 shards takes blocks of 500].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub block: Option<u64>,
    /// The results database (SQLite): created if absent, resumed if it holds an earlier
    /// run's rows (same mode and max-states).
    #[arg(long, value_name = "FILE.sqlite", value_parser = crate::cmd::input::parse_database_path)]
    pub db: PathBuf,
    /// Worker threads (default and 0: all cores; at most 1024).
    #[arg(long, value_parser = crate::cmd::bench::parse_threads)]
    pub threads: Option<usize>,
    /// Sleep this many milliseconds after each deal (to share a machine gently, and for
    /// interruption tests that need a run to last).
    #[arg(long, default_value_t = 0, hide = true)]
    pub pause_ms: u64,
    /// Check the arguments and exit (scripts/slurm/submit.sh, before it queues anything).
    #[arg(long, hide = true)]
    pub check_args: bool,
    /// The game (--game) and its freecells (--freecells), kept in the database: a new one
    /// takes them (default: standard FreeCell), an existing one is resumed with its own when
    /// neither is given, and refused when they differ.
    #[command(flatten)]
    pub game: crate::game::GameArgs,
}

/// Deals under way at once (handed to workers, not yet committed).
pub const IN_FLIGHT: usize = 4096;
/// Deals looked up and handed out at a time.
const CHUNK: u64 = 512;
/// Deals one worker task solves, sending each row as it finishes (so that a killed run
/// loses only the deals under way, as the README says).
const JOB: usize = 16;
/// How often this thread collects the rows the workers sent.
const POLL: Duration = Duration::from_millis(20);

/// Run: exit 0 when every deal of the shard is stored, 1 when a deal up to 1,000,000 other
/// than the known impossible ones came out unsolvable (a solver bug to report).
pub fn run(args: Args) -> Result<i32> {
    let (a, b) = args.range.bounds();
    let block = block(&args);
    if let Some(why) = shard::why_empty(a, b, block, args.shard) {
        crate::note!("fcauto: error: {why}");
        return Ok(2);
    }
    if let Some(why) = crate::cmd::bench::range_problem(&args.game, &args.range) {
        return Ok(crate::cmd::usage_exit(&why));
    }
    let variant = variant(&args);
    if let Some(why) = numbering_problem(&args, &variant) {
        return Ok(crate::cmd::usage_exit(&why));
    }
    if let Some(why) = family_usage_problem(&args, &variant) {
        return Ok(crate::cmd::usage_exit(&why));
    }
    if args.check_args {
        return Ok(0);
    }
    // Caught from here on, so that one while the file is opened or made stops the run
    // cleanly once it is (not leaving an empty file and its journal behind).
    let stop = StopSignal::install()?;
    let settings = settings(&args, variant);
    let total = shard::deals_in(a, b, block, args.shard);
    if let Some(earlier) = complete_read_only(&args, &settings, block, total)? {
        return report(&Tally::default(), total, total, &earlier, &settings.variant);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads(args.threads, total))
        .build()?;
    // In the run's pool: resuming a file replays its stored solutions on `--threads`
    // threads, not on every core.
    let mut store = pool.install(|| open(&args, &settings))?;
    let (index, count) = (args.shard.index - 1, args.shard.count);
    // A resumed run answers for the rows stored before it too (`earlier`: their unsolvable).
    let (already, earlier) = store.in_shard(a, b, block, index, count)?;
    let game = match settings.variant.is_standard() {
        true => String::new(),
        false => format!("{}, ", store::game_words(&settings.variant)),
    };
    let ms = settings.variant.deal_prefix();
    crate::note!(
        "fcauto batch: {game}deals {ms}{a}..{ms}{b}, shard {} ({}), {} already in {}",
        args.shard,
        plural(total, "deal"),
        already,
        store.path().display()
    );
    let pb = progress(total, already);
    let tally = pipeline(&args, &mut store, &pool, &pb, &stop)?;
    pb.finish_and_clear();
    store.finish()?;
    match stop.got() {
        Some(sig) => Ok(interrupted(&tally, total, already, sig)),
        None => report(&tally, total, already, &earlier, &settings.variant),
    }
}

/// The signal that asked the run to stop (SIGINT, SIGTERM or SIGHUP), caught by
/// `signal-hook`'s flags: the pipeline stops between rows when it sees one ([`Self::seen`]),
/// so that the rows received are committed and the database is closed. A signal that comes
/// after the pipeline has seen the first takes its default action (the process ends at
/// once, as an uncaught one would); copies of the first that come before it is seen are the
/// same request (`timeout` passes on the Ctrl-C its process group has already received:
/// that second copy must not end the run at once).
struct StopSignal {
    got: Arc<AtomicUsize>,
    /// Set once the first signal is seen: a later one ends the process.
    armed: Arc<AtomicBool>,
}

impl StopSignal {
    /// Catch SIGINT, SIGTERM and SIGHUP from now on.
    fn install() -> Result<StopSignal> {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let got = Arc::new(AtomicUsize::new(0));
        let armed = Arc::new(AtomicBool::new(false));
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal_hook::flag::register_conditional_default(sig, Arc::clone(&armed))
                .and_then(|_| {
                    signal_hook::flag::register_usize(sig, Arc::clone(&got), sig as usize)
                })
                .context("cannot catch interruptions (SIGINT, SIGTERM, SIGHUP)")?;
        }
        Ok(StopSignal { got, armed })
    }

    /// The signal caught, if any.
    fn got(&self) -> Option<i32> {
        match self.got.load(Ordering::SeqCst) {
            0 => None,
            sig => Some(sig as i32),
        }
    }

    /// The signal caught, if any, now acted on: from here a further signal ends the process.
    fn seen(&self) -> Option<i32> {
        let sig = self.got()?;
        self.armed.store(true, Ordering::SeqCst);
        Some(sig)
    }
}

/// Say what an interrupted run stored and how to go on; the exit status, 128 + `sig`.
fn interrupted(t: &Tally, total: u64, already: u64, sig: i32) -> i32 {
    let name = match sig {
        signal_hook::consts::SIGINT => "SIGINT (Ctrl-C)",
        signal_hook::consts::SIGTERM => "SIGTERM",
        signal_hook::consts::SIGHUP => "SIGHUP",
        _ => "a signal",
    };
    let stored = already + t.stored;
    let next = match stored == total {
        true => "the shard is complete",
        false => "run the same command to go on",
    };
    crate::note!(
        "fcauto batch: interrupted by {name}: stored {} ({} solved and validated); shard: {stored}/{total} deals stored; {next}",
        plural(t.stored, "new row"),
        t.solved,
    );
    128 + sig
}

/// Deals per block: `--block`, or [`shard::default_block`].
fn block(args: &Args) -> u64 {
    let (a, b) = args.range.bounds();
    args.block
        .unwrap_or_else(|| shard::default_block(a, b, args.shard.count))
}

/// The game this run plays: `--game` and `--freecells` when either is given; else the
/// database's when it has one (a resumed run keeps its game), else standard FreeCell.
fn variant(args: &Args) -> Variant {
    let stored = store::stored_variant(&args.db);
    if args.game.game.is_some() || args.game.freecells.is_some() {
        let asked = crate::cmd::bench::variant(&args.game, &args.range);
        // Below 32000 `msN` and PySolFC's plain numbers are the same deals: the database's
        // numbering goes on.
        return match stored {
            Some(s) if args.range.last < 32000 && s.agrees_below_mt(&asked) => s,
            _ => asked,
        };
    }
    stored.unwrap_or_default()
}

/// A range written `msA..msB` reaching 32000, resuming without `--game` a database of
/// PySolFC's numbers ([`fcauto_engine::batch::game::ms_range_problem`]); with `--game` the
/// database's settings check refuses it.
fn numbering_problem(args: &Args, variant: &Variant) -> Option<String> {
    let named = args.game.game.is_some() || args.game.freecells.is_some();
    let holder = format!("{} holds", args.db.display());
    let problem =
        fcauto_engine::batch::game::ms_range_problem("--range", &args.range, variant, &holder);
    problem.filter(|_| !named)
}

/// What the family search does not offer (exit 2): the modes `solve --game` refuses for
/// the game ([`Variant::mode_problem`], the engine's one rule), fewer freecells than the
/// game deals cards to ([`Variant::cells_problem`]).
fn family_usage_problem(args: &Args, variant: &Variant) -> Option<String> {
    variant
        .mode_problem(args.mode.into())
        .or_else(|| variant.cells_problem())
}

/// The settings this run stores its rows under.
fn settings(args: &Args, variant: Variant) -> Settings {
    let mode: fcauto_solver::Mode = args.mode.into();
    // The budget the search uses without --max-states: the fast solver's for the mode, or
    // the family search's (its A*'s in the optimal modes; a mode the game is not solved in
    // was refused before).
    let budget = match variant.is_standard() {
        true => mode.default_max_states(),
        false => variant.family_mode(mode).map_or(
            fcauto_solver::family::DEFAULT_MAX_STATES,
            fcauto_engine::bench::variant::family_default_max_states,
        ),
    };
    let name = clap::ValueEnum::to_possible_value(&args.mode)
        .map(|v| v.get_name().to_string())
        .unwrap_or_default();
    Settings::new(&name, args.max_states.unwrap_or(budget) as u64, variant)
}

/// Open (or create) the database, checked against this run's settings. A new one's folder
/// must exist, named in the words every output path uses (`folder X does not exist`).
fn open(args: &Args, settings: &Settings) -> Result<Store> {
    if !args.db.exists() {
        crate::cmd::input::check_output_path(&args.db)?;
    }
    Store::open_for_run(&args.db, settings, &mut note_replayed)
}

/// Say how many stored solutions a resumed run replayed, in how long.
fn note_replayed(r: &Replayed) {
    crate::note!(
        "fcauto batch: {} replayed with the validator ({:.1} s on {})",
        plural(r.solutions, "stored solution"),
        r.seconds,
        plural(r.threads, "thread")
    );
}

/// The shard's unsolvable rows when `--db` is a file this process may not write (it, or its
/// folder, where a run keeps its log) that already holds every deal of the shard under these
/// settings: the run has nothing to do, and says so (as it does for a writable file) instead
/// of failing on the permissions. None in every other case, which [`open`] then checks and
/// words.
fn complete_read_only(
    args: &Args,
    settings: &Settings,
    block: u64,
    total: u64,
) -> Result<Option<Vec<u64>>> {
    if !args.db.is_file() || may_write(&args.db) {
        return Ok(None);
    }
    // A run stopped while writing it left its log: resuming needs writing, which [`open`]
    // then refuses in words of its own.
    let logged = ["-wal", "-journal"]
        .iter()
        .any(|s| store::sidecar(&args.db, s).exists());
    if logged {
        return Ok(None);
    }
    // Not fcauto's, or another run's settings: that is the problem, more than the permissions.
    let store = Store::open_read(&args.db)?;
    if store.settings() != settings {
        return Err(store::settings_mismatch(
            &args.db,
            store.settings(),
            settings,
        ));
    }
    let (a, b) = args.range.bounds();
    let (index, count) = (args.shard.index - 1, args.shard.count);
    let (stored, earlier) = store.in_shard(a, b, block, index, count)?;
    if stored != total {
        return Ok(None);
    }
    let ms = settings.variant.deal_prefix();
    crate::note!(
        "fcauto batch: deals {ms}{a}..{ms}{b}, shard {} ({}), all already in {} (read-only): nothing to do",
        args.shard,
        plural(total, "deal"),
        args.db.display()
    );
    Ok(Some(earlier))
}

/// Whether a run may write the file `db` and make its log beside it (a temporary file is
/// made in its folder and removed to find out).
fn may_write(db: &std::path::Path) -> bool {
    std::fs::OpenOptions::new().write(true).open(db).is_ok()
        && crate::cmd::input::probe_folder_of(db).is_ok()
}

fn threads(wanted: Option<usize>, deals: u64) -> usize {
    let n = match wanted.unwrap_or(0) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    n.min(usize::try_from(deals).unwrap_or(usize::MAX)).max(1)
}

fn progress(total: u64, done: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(total);
    pb.set_style(crate::cmd::bench::deals_style());
    pb.set_position(done);
    pb.reset_eta();
    pb
}

/// Solve `deals` on `pool`, one after another, each row sent on `tx` as it finishes (after
/// `--pause-ms`); the job ends early when the run has stopped listening.
fn spawn_job(
    pool: &rayon::ThreadPool,
    tx: mpsc::Sender<Result<ResultRow>>,
    deals: Vec<u64>,
    settings: &Settings,
    args: &Args,
) {
    let (max_states, pause) = (args.max_states, args.pause_ms);
    let mode: fcauto_solver::Mode = args.mode.into();
    let settings = settings.clone();
    pool.spawn(move || {
        for deal in deals {
            let row = solve_row(deal, &settings, mode, max_states);
            if pause > 0 {
                std::thread::sleep(Duration::from_millis(pause));
            }
            if tx.send(row).is_err() {
                return; // the run stopped
            }
        }
    });
}

/// Hand out the shard's unstored deals block by block, collect and commit their rows.
fn pipeline(
    args: &Args,
    store: &mut Store,
    pool: &rayon::ThreadPool,
    pb: &ProgressBar,
    stop: &StopSignal,
) -> Result<Tally> {
    let (a, b) = args.range.bounds();
    let settings = store.settings().clone();
    let (tx, rx) = mpsc::channel::<Result<ResultRow>>();
    // The shard's deals in chunks small enough that a lookup and its list stay small.
    let mut chunks = shard::blocks(a, b, block(args), args.shard).flat_map(|(lo, hi)| {
        (lo..=hi)
            .step_by(CHUNK as usize)
            .map(move |c| (c, hi.min(c + (CHUNK - 1))))
    });
    let mut committer = Committer::default();
    let mut tally = Tally::default();
    let mut in_flight = 0usize;
    loop {
        if stop.seen().is_some() {
            // Rows already sent are kept; the workers' next sends fail, and they stop.
            while let Ok(Ok(row)) = rx.try_recv() {
                pb.inc(1);
                tally.count(&row);
                committer.rows.push(row);
            }
            break;
        }
        // Refill with the next chunks' unstored deals while there is room; a worker takes
        // a few deals at a time and sends each row as it finishes.
        while in_flight + CHUNK as usize <= IN_FLIGHT {
            let Some((lo, hi)) = chunks.next() else { break };
            let todo = unstored(store, lo, hi)?;
            in_flight += todo.len();
            for job in todo.chunks(JOB) {
                spawn_job(pool, tx.clone(), job.to_vec(), &settings, args);
            }
        }
        if in_flight == 0 {
            break;
        }
        // The rows sent while this thread slept: a worker's send then wakes no one (a wake-up
        // per row cost more CPU than a fast deal's search, and system time above all).
        std::thread::sleep(POLL);
        loop {
            let row = match rx.try_recv() {
                Ok(row) => row,
                Err(mpsc::TryRecvError::Empty) => break,
                Err(e) => anyhow::bail!("internal error: workers gone ({e})"),
            };
            in_flight -= 1;
            match row {
                Ok(row) => {
                    pb.inc(1);
                    tally.count(&row);
                    committer.rows.push(row);
                }
                Err(e) => {
                    // Keep what is done, then stop: a solver or validator failure is a bug.
                    committer.maybe_commit(store, true)?;
                    return Err(e);
                }
            }
        }
        committer.maybe_commit(store, in_flight == 0)?;
    }
    committer.maybe_commit(store, true)?;
    Ok(tally)
}

/// Print what the run added; exit 1 on a false "unsolvable", whether this run or one before
/// it stored it (`earlier`: the shard's unsolvable rows when the run began), so that a run
/// resumed or resubmitted after such a failure fails again.
/// Only standard FreeCell has a list of known verdicts (`variant`).
fn report(t: &Tally, total: u64, already: u64, earlier: &[u64], variant: &Variant) -> Result<i32> {
    crate::note!(
        "fcauto batch: stored {} ({} solved and validated, unsolvable {}, unknown {}); shard complete: {}/{} deals",
        plural(t.stored, "new row"),
        t.solved,
        fcauto_engine::batch::report::deal_list(&t.sorted_unsolvable(), variant.deal_prefix()),
        fcauto_engine::batch::report::deal_list(&t.sorted_unknown(), variant.deal_prefix()),
        already + t.stored,
        total
    );
    let false_unsolvable = variant.false_unsolvable(&t.sorted_unsolvable());
    if !false_unsolvable.is_empty() {
        crate::note!(
            "fcauto batch: deals reported unsolvable but known solvable: {false_unsolvable:?}"
        );
        return Ok(1);
    }
    let stored_before = variant.false_unsolvable(earlier);
    if !stored_before.is_empty() {
        crate::note!(
            "fcauto batch: deals stored as unsolvable by an earlier run but known solvable: {stored_before:?} (delete their rows to solve them again)"
        );
        return Ok(1);
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    /// The modes a database may name are the ones `--mode` takes.
    #[test]
    fn stored_modes_are_the_mode_names() {
        let names: Vec<String> = <crate::mode::ModeArg as clap::ValueEnum>::value_variants()
            .iter()
            .filter_map(|m| clap::ValueEnum::to_possible_value(m).map(|v| v.get_name().to_string()))
            .collect();
        assert_eq!(names, fcauto_engine::batch::schema::MODES);
    }
}
