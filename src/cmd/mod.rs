//! One module per subcommand, each with a clap `Args` and `run(Args) -> anyhow::Result<i32>`
//! returning the process exit code (`unbuilt` stands in for a subcommand left out of the
//! build), and the helpers they share: `input` (inputs and output paths), `picture`,
//! `interrupt` (signals, temporary files), `crosscheck`; `rusage` (CPU clocks) is the
//! engine's ([`fcauto_engine::bench`]).

/// `println!` for the commands' output: an error (`?`) instead of a panic when standard
/// output cannot be written; see [`stdout_write`].
macro_rules! outln {
    () => {
        $crate::cmd::stdout_write(format_args!("\n"))?
    };
    ($($t:tt)*) => {
        $crate::cmd::stdout_write(format_args!("{}\n", format_args!($($t)*)))?
    };
}

/// `print!` for the commands' output, like [`outln!`].
macro_rules! out {
    ($($t:tt)*) => {
        $crate::cmd::stdout_write(format_args!($($t)*))?
    };
}

pub mod analyze;
#[cfg(feature = "batch")]
pub mod batch;
pub mod bench;
#[cfg(any(feature = "serve", feature = "mcp"))]
pub mod bind;
pub mod completions;
pub mod crosscheck;
pub mod deal;
pub mod input;
pub mod interrupt;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod picture;
pub mod play;
#[cfg(feature = "serve")]
pub mod serve;
pub mod show;
pub mod solve;
pub mod solve_args;
pub mod solve_family;
pub mod stats;
pub mod unbuilt;
pub mod verify;

pub use fcauto_deals::plural;

pub use fcauto_engine::bench::rusage;

/// `eprintln!` that never panics: a message to standard error, dropped if standard error
/// cannot be written (`2>/dev/full`, a closed pipe), so that a diagnostic never costs the
/// result on standard output or the exit code. Every message of the binary goes through it
/// (`clippy::print_stderr` is denied in `main.rs`).
#[macro_export]
macro_rules! note {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

/// [`note!`] without the line end (`eprint!`).
#[macro_export]
macro_rules! note_raw {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($t)*);
    }};
}

/// Print a usage problem as clap would and return its exit code, 2 (failures of the work
/// itself exit 1).
pub fn usage_exit(msg: &str) -> i32 {
    crate::note!("fcauto: error: {}", fcauto_deals::text::printable(msg));
    2
}

/// The usage problem of reading two inputs from standard input (`-`), if both are `-`:
/// `what` names them (`the board and the solution`).
pub fn stdin_twice(a: &std::path::Path, b: Option<&std::path::Path>, what: &str) -> Option<String> {
    use input::is_stdio;
    (is_stdio(a) && b.is_some_and(is_stdio))
        .then(|| format!("{what} cannot both be read from standard input (`-`)"))
}

/// Write to standard output and flush. Errors, where `print!` would panic: the output
/// cannot be written (`> /dev/full`: no space left on device). (A closed standard output,
/// `>&-`, cannot be told apart: Rust's runtime reopens it on `/dev/null` before `main`.)
pub fn stdout_write(args: std::fmt::Arguments) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)
        .and_then(|()| out.flush())
        .map_err(|e| anyhow::anyhow!("cannot write to standard output: {e}"))
}
