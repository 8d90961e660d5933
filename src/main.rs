//! `fcauto`: a native FreeCell solver and PySolFC replay automation.
//!
//! Exit codes: 0 success, 1 failure (bad input, unsolved, a check that disagrees), 2 usage
//! error (clap; a deal number or `--range` that does not parse is one too), 128 + the
//! signal when stopped by Ctrl-C, SIGTERM or SIGHUP (`cmd::interrupt`, `batch run`, `play`).

// Messages go through `note!`, which never panics on a standard error that cannot be
// written; output through `cmd::stdout_write` and files, whose errors are reported.
#![deny(clippy::print_stderr, clippy::print_stdout)]

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod cmd;
mod game;
mod mode;

/// Solve Microsoft FreeCell deals natively, check every solution, and replay them in PySolFC.
#[derive(Parser)]
#[command(name = "fcauto", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a Microsoft FreeCell deal (same text as `make-microsoft-freecell-board -t N`), or
    /// with --game the layout PySolFC deals for a game of the FreeCell family.
    Deal(cmd::deal::Args),
    /// Solve a deal or a board, validate the solution, and print it.
    Solve(cmd::solve::Args),
    /// Draw a deal or a board file as a picture (SVG or PNG).
    Show(cmd::show::Args),
    /// Check a solution (our JSON, standard notation, or fc-solve output) against a deal or a board with
    /// the independent validator.
    Verify(cmd::verify::Args),
    /// Where a game was lost: every move evaluated, the losing move and a better one.
    Analyze(cmd::analyze::Args),
    /// Decode PySolFC's statistics.dat (read-only, no code execution).
    Stats(cmd::stats::Args),
    /// Solve a range of deals in parallel, validate everything, print a summary.
    Bench(cmd::bench::Args),
    /// Replay a solution in the real PySolFC window and prove the win.
    Play(cmd::play::Args),
    /// The web page and JSON rules API over HTTP (loopback by default).
    #[cfg(feature = "serve")]
    Serve(cmd::serve::Args),
    /// The web page and JSON rules API (needs the `serve` feature).
    #[cfg(not(feature = "serve"))]
    Serve(cmd::unbuilt::Args),
    /// Solve ranges into SQLite resumably and in shards (for clusters); merge; report.
    #[cfg(feature = "batch")]
    Batch(cmd::batch::Args),
    /// Solve ranges into SQLite resumably and in shards (needs the `batch` feature).
    #[cfg(not(feature = "batch"))]
    Batch(cmd::unbuilt::Args),
    /// The rules engine as Model Context Protocol tools over stdio or HTTP, for AI agents.
    #[cfg(feature = "mcp")]
    Mcp(cmd::mcp::Args),
    /// The rules engine as MCP tools over stdio or HTTP (needs the `mcp` feature).
    #[cfg(not(feature = "mcp"))]
    Mcp(cmd::unbuilt::Args),
    /// Print the shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(cmd::completions::Args),
    /// Print the man page (roff): fcauto(1), or a subcommand's page.
    Man(cmd::completions::ManArgs),
}

/// The command line, parsed (clap's message and exit 2 if it does not parse). A value that
/// looks like a negative number (`--threads -1`, `deal -5`) is taken as the option's value,
/// so that the option's own check names what is wrong with it, not clap's "unexpected
/// argument '-1'".
fn parse_cli() -> Cli {
    let mut command = negative_values(Cli::command());
    let matches = command.get_matches_mut();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.format(&mut command).exit())
}

/// `command` and its subcommands, every argument that takes values taking a negative number.
fn negative_values(command: clap::Command) -> clap::Command {
    command
        .mut_args(|a| {
            let takes = a.get_action().takes_values();
            a.allow_negative_numbers(takes)
        })
        .mut_subcommands(negative_values)
}

fn main() {
    let cli = parse_cli();
    // Behave like other command-line tools when the reader of our output goes away
    // (`fcauto solve N | head`): end quietly on SIGPIPE instead of panicking in `println!`.
    // Not `play`: it must outlive a reader that went away (`play --gui | head`) and a broken
    // X connection, to stop the Xvfb, openbox and PySolFC it started and remove its
    // temporary profile; its writes fail instead (and are ignored, or end it as errors).
    #[cfg(unix)]
    if !matches!(cli.command, Command::Play(_)) {
        // SAFETY: restoring the default disposition of SIGPIPE before any other thread runs
        // (parsing the arguments starts none).
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    let result = match cli.command {
        Command::Deal(a) => cmd::deal::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Show(a) => cmd::show::run(a),
        Command::Verify(a) => cmd::verify::run(a),
        Command::Analyze(a) => cmd::analyze::run(a),
        Command::Stats(a) => cmd::stats::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Play(a) => cmd::play::run(a),
        #[cfg(feature = "serve")]
        Command::Serve(a) => cmd::serve::run(a),
        #[cfg(not(feature = "serve"))]
        Command::Serve(_) => cmd::unbuilt::run("serve", "serve"),
        #[cfg(feature = "batch")]
        Command::Batch(a) => cmd::batch::run(a),
        #[cfg(not(feature = "batch"))]
        Command::Batch(_) => cmd::unbuilt::run("batch", "batch"),
        #[cfg(feature = "mcp")]
        Command::Mcp(a) => cmd::mcp::run(a),
        #[cfg(not(feature = "mcp"))]
        Command::Mcp(_) => cmd::unbuilt::run("mcp", "mcp"),
        Command::Completions(a) => cmd::completions::run(a),
        Command::Man(a) => cmd::completions::run_man(a),
    };
    match result {
        Ok(code) => std::process::exit(code),
        // A start of another game than the one --game names (a board or solution naming
        // its own) is a usage problem in every command.
        Err(e)
            if e.chain()
                .any(|c| c.is::<fcauto_engine::input::StartConflict>()) =>
        {
            std::process::exit(cmd::usage_exit(&format!("{e:#}")));
        }
        Err(e) => {
            let e = format!("{e:#}");
            crate::note!("fcauto: error: {}", fcauto_deals::text::printable(&e));
            std::process::exit(1);
        }
    }
}
