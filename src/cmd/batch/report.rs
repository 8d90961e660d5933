//! `fcauto batch report FILE`: what a results database holds.
//!
//! Stages: open read-only, gather the figures in one pass over the rows
//! ([`fcauto_engine::batch::report::gather`]), then print them as text or JSON and, with
//! `--plot`, draw them ([`super::plot`]).

use anyhow::Result;
use fcauto_engine::batch::report::{gather, text};
use fcauto_engine::batch::store::Store;
use fcauto_engine::batch::verify::verify;
use std::path::PathBuf;

/// Arguments of `fcauto batch report`.
#[derive(clap::Args)]
pub struct Args {
    /// A database written by `fcauto batch run` or `batch merge` (opened read-only).
    #[arg(value_name = "FILE.sqlite", value_parser = crate::cmd::input::parse_database_path)]
    pub db: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also draw `lengths.png` (histogram of solution lengths) and `cpu.png` (CPU per deal)
    /// into DIR (made if missing; the folder it goes in must exist).
    #[arg(long, value_name = "DIR", value_parser = crate::cmd::input::parse_output_folder)]
    pub plot: Option<PathBuf>,
    /// Also replay every stored solution with the validator, from its deal, and check its
    /// stored lengths (in parallel on all cores); exit 1 if any is invalid, or if a row says
    /// "unsolvable" of a Microsoft deal up to 1,000,000 other than the eight impossible ones.
    #[arg(long)]
    pub verify: bool,
}

/// Print the report; exit 0, or 1 when `--verify` found an invalid row or a false "unsolvable".
pub fn run(args: Args) -> Result<i32> {
    if let Some(dir) = &args.plot {
        crate::cmd::input::check_output_folder(dir)?;
        super::plot::check_folder(dir, &args.db)?;
    }
    let store = Store::open_read(&args.db)?;
    let mut report = gather(&store)?;
    if args.verify {
        report.verification = Some(verify(store.conn(), &store.settings().variant)?);
    }
    // The report first: a picture that cannot be drawn does not take it away.
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", text(&report));
    }
    if let Some(dir) = &args.plot {
        crate::cmd::input::create_output_folder(dir)?;
        let files = super::plot::draw(&report, dir)?;
        for f in files {
            crate::note!("fcauto batch report: wrote {}", f.display());
        }
    }
    Ok(match &report.verification {
        Some(v) if v.invalid > 0 => 1,
        // A row that says "unsolvable" of a deal known to be solvable fails it too, as it
        // fails `batch run`.
        Some(_) => match report.false_unsolvable_note() {
            Some(note) => {
                crate::note!("fcauto batch report: {note}");
                1
            }
            None => 0,
        },
        None => 0,
    })
}
