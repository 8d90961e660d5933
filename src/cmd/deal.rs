//! `fcauto deal N`: print a Microsoft FreeCell deal.

use anyhow::Result;
use fcauto_deals::{ms_deal, parse_deal_number};

/// Output formats for `fcauto deal`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum DealFormat {
    /// Freecell Solver's board text: 8 cascade lines, deepest card first.
    Fcs,
    /// `{"deal": N, "board": [[cards of cascade 1, deepest first], ...]}`.
    Json,
}

/// Arguments of `fcauto deal`.
#[derive(clap::Args)]
pub struct Args {
    /// Deal number, 1..=8589934591 (2^33-1; above 2^31-1 is Freecell Pro's extension).
    #[arg(allow_hyphen_values = true, value_parser = parse_deal_number)]
    pub number: u64,
    /// Output format.
    #[arg(long, value_enum, default_value = "fcs")]
    pub format: DealFormat,
}

/// Print the deal; exit 0 (a bad deal number is a usage error from clap, exit 2).
pub fn run(args: Args) -> Result<i32> {
    let n = args.number;
    let board = ms_deal(n)?;
    match args.format {
        DealFormat::Fcs => out!("{}", board.cascades_text()),
        DealFormat::Json => outln!(
            "{}",
            serde_json::json!({"deal": n, "board": board.cascades})
        ),
    }
    Ok(0)
}
