//! The arguments of `fcauto solve` ([`Args`], [`SolutionFormat`]): shared by
//! [`crate::cmd::solve`] (standard FreeCell) and [`crate::cmd::solve_family`] (the other
//! games of the family), which both read them, so that neither imports the other's.

use crate::mode::ModeArg;
use anyhow::Result;
use fcauto_engine::output;
use std::path::PathBuf;

/// Solution output formats (the command line's names and help of
/// [`output::SolutionFormat`]).
#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
pub enum SolutionFormat {
    /// The JSON contract read by `fcauto verify` and the GUI replay.
    Json,
    /// Standard notation: `3a a3 3h 38 ...` (cascades 1-8, freecells a-d, h = foundation).
    Standard,
    /// Freecell Solver's `-p -t -sam` text (states and 0-based move lines).
    Fcs,
    /// A picture of the start position (or of the position after `--step K`), SVG.
    Svg,
    /// The same picture as PNG (binary: use --output or redirect; needs the `png` feature).
    Png,
    /// One self-contained web page that replays the solution (buttons, slider, arrow keys).
    Html,
}

impl From<SolutionFormat> for output::SolutionFormat {
    fn from(f: SolutionFormat) -> Self {
        match f {
            SolutionFormat::Json => Self::Json,
            SolutionFormat::Standard => Self::Standard,
            SolutionFormat::Fcs => Self::Fcs,
            SolutionFormat::Svg => Self::Svg,
            SolutionFormat::Png => Self::Png,
            SolutionFormat::Html => Self::Html,
        }
    }
}

impl From<output::SolutionFormat> for SolutionFormat {
    fn from(f: output::SolutionFormat) -> Self {
        match f {
            output::SolutionFormat::Json => Self::Json,
            output::SolutionFormat::Standard => Self::Standard,
            output::SolutionFormat::Fcs => Self::Fcs,
            output::SolutionFormat::Svg => Self::Svg,
            output::SolutionFormat::Png => Self::Png,
            output::SolutionFormat::Html => Self::Html,
        }
    }
}

/// Arguments of `fcauto solve`.
///
/// Move counts: `moves_total` counts every move once (a supermove of k cards is one move,
/// each foundation move is one move); `single_card_moves` counts a k-card supermove as the
/// single-card moves that realise it (2k-1 through freecells, more when it must also park
/// cards on empty cascades). Both include all 52 foundation moves.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["deal", "deal_file", "board"])))]
pub struct Args {
    /// MS deal number, 1..=8589934591 (or `msN`, as PySolFC writes it); with --game,
    /// PySolFC's game number (the Microsoft shuffle below 32000 and for `msN`, the Mersenne
    /// Twister from 32000 on, up to 10^20).
    #[arg(value_parser = crate::game::parse_game_number)]
    pub deal: Option<fcauto_deals::PysolNumber>,
    /// A deal file holding `MS_DEAL_NUMBER=N` (the workflow's deal_seed.txt) instead of a
    /// deal number (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    pub deal_file: Option<PathBuf>,
    /// A board file instead of a deal number: Freecell Solver's board text, a position
    /// string, a position object (the API's), `fcauto deal N --format json`'s output, or
    /// `fcauto solve --format json`'s or
    /// another solution that names its start (fc-solve's `-p -t` output: its first position;
    /// `game.txt`'s `# start:`) (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    pub board: Option<PathBuf>,
    /// Output format [default: the one the --output name's extension names (`.json`,
    /// `.fcs`, `.svg`, `.png`, `.html`; `.txt` is standard), else standard].
    #[arg(long, value_enum)]
    pub format: Option<SolutionFormat>,
    /// Write the solution to FILE instead of standard output (`-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace the --output FILE even when it exists and is not a picture or replay page
    /// fcauto drew (those, which carry its mark, are replaced without it).
    #[arg(long)]
    pub force: bool,
    /// svg/png: draw the position after move K (0: the start), that move highlighted.
    #[arg(long, value_name = "K", value_parser = crate::cmd::input::parse_step)]
    pub step: Option<usize>,
    /// svg/png/html: picture width in pixels (200..=4096; default 720).
    #[arg(long, value_name = "N", value_parser = crate::cmd::picture::parse_width)]
    pub width: Option<u32>,
    /// Search mode.
    #[arg(long, value_enum, default_value = "short")]
    pub mode: ModeArg,
    /// Most positions one search stores before giving up with "unknown" (standard FreeCell:
    /// 1000000 for fast and short, about 250 MB at most, which almost no deal needs; 12000000
    /// for the optimal modes, which need up to about 190 bytes per position; the other games
    /// of the family, --game or --freecells: 40000000 for fast and short, about 750 MB,
    /// 12000000 for the optimal modes).
    #[arg(long, value_parser = crate::cmd::input::parse_max_states)]
    pub max_states: Option<usize>,
    /// Also run fc-solve on the same board, validate its solution with our validator, print
    /// both verdicts and lengths, and fail when they disagree.
    #[arg(long)]
    pub cross_check: bool,
    /// The game (--game) and its freecells (--freecells): rules other than standard
    /// FreeCell's are solved by the family search (every mode but optimal-ph; optimal only
    /// for the limited-sequence games).
    #[command(flatten)]
    pub game: crate::game::GameArgs,
}

impl Args {
    /// The output format: `--format`, else the one the `--output` name names, else standard
    /// notation ([`crate::cmd::solve::run`] settles it first).
    pub fn format(&self) -> output::SolutionFormat {
        self.format.unwrap_or(SolutionFormat::Standard).into()
    }

    /// `solve --game G --format svg|png|html` (rules other than standard FreeCell's): the
    /// position after `--step K` (the start by default) with that move drawn, or the replay
    /// page of the solution ([`output::family_solution_picture`]), written to `--output` or
    /// standard output. `moves` is the validated solution (`None`: not solved, when only the
    /// start can be drawn).
    ///
    /// # Errors
    /// `--step` past the end or without a solution, html without a solution, PNG errors, or
    /// the output cannot be written.
    pub fn write_family_solution(
        &self,
        deal: Option<fcauto_deals::PysolNumber>,
        layout: &fcauto_deals::Layout,
        moves: Option<&[fcauto_solver::family::FamilyMove]>,
    ) -> Result<()> {
        let rules = self.game.rules();
        let title = fcauto_engine::render::family::game_title(self.game.game(), &rules);
        let family = fcauto_engine::render::family::FamilyGame {
            title: &title,
            deal,
            start: layout,
            rules: &rules,
            moves: moves.unwrap_or_default(),
        };
        let (solved, format) = (moves.is_some(), self.format());
        let bytes =
            output::family_solution_picture(format, &family, solved, self.step, self.width)?;
        crate::cmd::picture::write_output(&bytes, self.output.as_deref())
    }
}
