//! `fcauto batch`: solve ranges too large for one `bench` into SQLite, resumably and in
//! shards, then merge the shards and report on them.
//!
//! - [`mod@run`]: solve a range or one shard of it into a database; killed and started again with
//!   the same arguments, it skips what is stored.
//! - [`mod@merge`]: one database from many shards (conflicting verdicts are an error).
//! - [`mod@report`]: counts, the unsolvable and unknown deals, lengths, CPU, and [`mod@plot`]s;
//!   with `--verify`, every stored solution replayed again
//!   ([`fcauto_engine::batch::verify`]).
//! - the database itself (the only code that opens, reads or writes one, its layout, checks
//!   and shards) is [`fcauto_engine::batch`].

pub mod merge;
pub mod plot;
pub mod report;
pub mod run;

use anyhow::Result;

/// Arguments of `fcauto batch`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// The batch subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Solve deals into an SQLite database (resumable; `--shard I/N` for one of N parts).
    Run(run::Args),
    /// Merge shard databases into a new one.
    Merge(merge::Args),
    /// Summarise a database: verdicts, lengths, CPU per deal; `--plot DIR` draws PNGs.
    Report(report::Args),
}

/// Run the chosen subcommand.
pub fn run(args: Args) -> Result<i32> {
    match args.command {
        Command::Run(a) => run::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Report(a) => report::run(a),
    }
}
