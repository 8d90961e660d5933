//! `fcauto deal N`: print a Microsoft FreeCell deal, as text or as a picture.

use crate::cmd::input::check_output_path;
use crate::cmd::picture::{self, PictureFormat};
use anyhow::Result;
use fcauto_deals::{ms_deal, parse_deal_number};
use std::path::PathBuf;

/// Output formats for `fcauto deal`.
#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
pub enum DealFormat {
    /// Freecell Solver's board text: 8 cascade lines, deepest card first.
    Fcs,
    /// `{"deal": N, "cascades": [[cascade 1, deepest first], ...], "freecells": [...],
    /// "foundations": [...]}`: the position object with the deal number.
    Json,
    /// A picture of the deal, SVG.
    Svg,
    /// A picture of the deal, PNG (binary: use --output or redirect; needs the `png` feature).
    Png,
}

impl DealFormat {
    /// The format a file name's extension (lower case) names, if any.
    fn by_extension(ext: &str) -> Option<DealFormat> {
        match ext {
            "txt" | "board" | "fcs" => Some(DealFormat::Fcs),
            "json" => Some(DealFormat::Json),
            _ => PictureFormat::by_extension(ext).map(|p| match p {
                PictureFormat::Svg => DealFormat::Svg,
                PictureFormat::Png => DealFormat::Png,
            }),
        }
    }
}

/// Arguments of `fcauto deal`.
#[derive(clap::Args)]
pub struct Args {
    /// Deal number, 1..=8589934591 (2^33-1; above 2^31-1 is Freecell Pro's extension), or
    /// `msN`, as PySolFC writes it.
    #[arg(allow_hyphen_values = true, value_parser = parse_deal_number)]
    pub number: u64,
    /// Output format [default: the one the --output name's extension names (`.json`,
    /// `.svg`, `.png`; `.txt` and `.board` are fcs), else fcs].
    #[arg(long, value_enum)]
    pub format: Option<DealFormat>,
    /// svg/png: picture width in pixels (200..=4096; default 720).
    #[arg(long, value_name = "N", value_parser = picture::parse_width)]
    pub width: Option<u32>,
    /// Write to FILE instead of standard output (`-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace the --output FILE even when it exists and is not a picture or replay page
    /// fcauto drew (those, which carry its mark, are replaced without it).
    #[arg(long)]
    pub force: bool,
}

/// Print the deal; exit 0 (a bad deal number is a usage error from clap, exit 2; so is PNG
/// to a terminal or in a build without the `png` feature).
pub fn run(args: Args) -> Result<i32> {
    let format = crate::cmd::input::output_format(
        args.format,
        args.output.as_deref(),
        DealFormat::by_extension,
        DealFormat::Fcs,
    );
    let picture_format = match format {
        DealFormat::Svg => Some(PictureFormat::Svg),
        DealFormat::Png => Some(PictureFormat::Png),
        DealFormat::Fcs | DealFormat::Json => None,
    };
    if picture_format.is_none() && args.width.is_some() {
        return Ok(crate::cmd::usage_exit("--width needs --format svg or png"));
    }
    if let Some(msg) =
        picture_format.and_then(|f| picture::usage_problem(f, args.output.as_deref()))
    {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    if let Some(p) = &args.output {
        check_output_path(p)?;
        crate::cmd::picture::check_replace(p, args.force)?;
    }
    let n = args.number;
    let board = ms_deal(n)?;
    let bytes = match (format, picture_format) {
        (_, Some(f)) => fcauto_engine::output::draw(
            &board,
            f.into(),
            args.width.unwrap_or(fcauto_engine::render::DEFAULT_WIDTH),
            None,
            Some(&format!("deal {n}")),
        )?,
        (DealFormat::Json, _) => {
            let json = fcauto_solver::DealJson {
                deal: n,
                position: fcauto_solver::PositionJson::of(&board),
            };
            (serde_json::to_string(&json)? + "\n").into_bytes()
        }
        _ => board.cascades_text().into_bytes(),
    };
    picture::write_output(&bytes, args.output.as_deref())?;
    Ok(0)
}
