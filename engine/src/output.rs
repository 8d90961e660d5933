//! What a solve writes: the solution (or the verdict that there is none) in one of the
//! solution formats, as text (the JSON contract, standard notation, fc-solve's `-p -t`
//! text) or drawn (a picture of one position, the replay page).
//!
//! The text of a board with no solution still says why (`# unsolvable`, the JSON's
//! `verdict`, fc-solve's own closing line), so that no output is ever empty: `verify` and
//! `analyze` read every one of them back.

use anyhow::{Context, Result};
use fcauto_deals::{plural, Board};
use fcauto_solver::{Outcome, PlayedMove, Solution, SolutionJson};

use crate::render;

/// The formats a solution is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolutionFormat {
    /// The JSON contract read by `fcauto verify` and the GUI replay.
    Json,
    /// Standard notation: `3a a3 3h 38 ...` (cascades 1-8, freecells a-d, h = foundation).
    Standard,
    /// Freecell Solver's `-p -t -sam` text (states and 0-based move lines).
    Fcs,
    /// A picture of the start position (or of the position after a given move), SVG.
    Svg,
    /// The same picture as PNG (cargo feature `png`).
    Png,
    /// One self-contained web page that replays the solution.
    Html,
}

impl SolutionFormat {
    /// The format a file name's extension (lower case) names, if any (`.txt` is standard
    /// notation).
    pub fn by_extension(ext: &str) -> Option<SolutionFormat> {
        Some(match ext {
            "json" => SolutionFormat::Json,
            "txt" => SolutionFormat::Standard,
            "fcs" => SolutionFormat::Fcs,
            "svg" => SolutionFormat::Svg,
            "png" => SolutionFormat::Png,
            "html" | "htm" => SolutionFormat::Html,
            _ => return None,
        })
    }

    /// True for the formats the renderer draws (`svg`, `png`, `html`).
    pub fn is_picture(self) -> bool {
        matches!(
            self,
            SolutionFormat::Svg | SolutionFormat::Png | SolutionFormat::Html
        )
    }
}

/// The formats of a picture of one position (the renderer's).
pub use crate::render::PictureFormat;

/// `board` drawn in `format`, `width` pixels wide, optionally with a move highlighted and a
/// caption under it ([`render::Options::caption`]).
///
/// # Errors
/// PNG only: see [`render::png()`] (no `png` feature, the font missing).
pub fn draw(
    board: &Board,
    format: PictureFormat,
    width: u32,
    highlight: Option<PlayedMove>,
    caption: Option<&str>,
) -> Result<Vec<u8>> {
    let opts = render::Options {
        width,
        highlight,
        caption,
    };
    match format {
        PictureFormat::Svg => Ok(render::svg(board, &opts).into_bytes()),
        PictureFormat::Png => render::png(board, &opts),
    }
}

/// The text of a solve's `outcome` in a text `format` (empty for the drawn formats:
/// [`solution_picture`] makes those): the solution ([`solved_text`]), or the verdict that
/// there is none, `unsolvable` or `unknown: WHY`, with fc-solve's own closing line for its
/// text (`I could not solve this game.`, `Iterations count exceeded.`). `deal` and `board`
/// are what was solved.
///
/// # Errors
/// The JSON cannot be written (the validator refuses a validated solution: never).
pub fn outcome_text(
    format: SolutionFormat,
    deal: Option<u64>,
    board: &Board,
    outcome: &Outcome,
) -> Result<String> {
    match outcome {
        Outcome::Solved(c) => solved_text(format, &c.solution),
        Outcome::Unsolvable => not_solved_text(
            format,
            deal,
            board,
            "unsolvable",
            "I could not solve this game.",
        ),
        Outcome::Unknown(why) => not_solved_text(
            format,
            deal,
            board,
            &format!("unknown: {why}"),
            "Iterations count exceeded.",
        ),
    }
}

/// The text of a validated `solution` in a text `format` (empty for the drawn formats:
/// [`solution_picture`] makes those). A board already won has no moves: standard notation
/// says so (`# already won: no moves`), as `# unsolvable` does for no solution, so that the
/// file is not empty (`analyze` and `verify` read it as a game of no moves).
///
/// # Errors
/// JSON only: the validator refuses the solution (it was validated: never).
pub fn solved_text(format: SolutionFormat, solution: &Solution) -> Result<String> {
    Ok(match format {
        SolutionFormat::Json => solution.to_json_text()?,
        SolutionFormat::Standard if solution.moves.is_empty() => {
            "# already won: no moves\n".to_string()
        }
        SolutionFormat::Standard => solution.to_standard(),
        SolutionFormat::Fcs => solution.to_fcs(),
        SolutionFormat::Svg | SolutionFormat::Png | SolutionFormat::Html => String::new(),
    })
}

/// The text for a board with no solution, in a text `format` (empty for the drawn
/// formats): `verdict` (`unsolvable`, or `unknown: WHY`) as a comment or the JSON's
/// `verdict`, and for fc-solve's text the start position and fc-solve's own closing line
/// `fcs_line` (`I could not solve this game.`, `Iterations count exceeded.`).
///
/// # Errors
/// The JSON cannot be written (it always can).
fn not_solved_text(
    format: SolutionFormat,
    deal: Option<u64>,
    board: &Board,
    verdict: &str,
    fcs_line: &str,
) -> Result<String> {
    let solvable = (verdict == "unsolvable").then_some(false);
    Ok(match format {
        SolutionFormat::Json => {
            serde_json::to_string_pretty(&SolutionJson::without_moves(
                deal, board, solvable, verdict,
            ))? + "\n"
        }
        SolutionFormat::Standard => format!("# {verdict}\n"),
        SolutionFormat::Fcs => format!(
            "-=-=-=-=-=-=-=-=-=-=-=-\n\n{}\n\n{fcs_line}\n",
            board.fcs_state_text()
        ),
        SolutionFormat::Svg | SolutionFormat::Png | SolutionFormat::Html => String::new(),
    })
}

/// A drawn `format` of a solve. `solution` is `None` when the board was not solved.
/// SVG/PNG: the position after move `step` (default 0, the start), that move highlighted
/// and captioned; HTML: the replay page of the solution. `width`: pixels (default
/// [`render::DEFAULT_WIDTH`]). `name`: what the caption and the page call a deal that no
/// Microsoft number names (`freecell deal 40000`, PySolFC's Mersenne Twister deal); else
/// `deal N` from the solution, or `the board`.
///
/// # Errors
/// `step` beyond the solution's last move, or above 0 without a solution; HTML without a
/// solution; a text format; PNG errors of [`draw`].
pub fn solution_picture(
    format: SolutionFormat,
    board: &Board,
    solution: Option<&Solution>,
    step: Option<usize>,
    width: Option<u32>,
    name: Option<&str>,
) -> Result<Vec<u8>> {
    let width = width.unwrap_or(render::DEFAULT_WIDTH);
    let format = match format {
        SolutionFormat::Svg => PictureFormat::Svg,
        SolutionFormat::Png => PictureFormat::Png,
        SolutionFormat::Html => {
            let s = solution.context("no solution to replay")?;
            let opts = render::Options {
                width,
                ..Default::default()
            };
            let page = match name {
                Some(title) => render::replay_html_titled(s, title, &opts)?,
                None => render::replay_html(s, &opts)?,
            };
            return Ok(page.into_bytes());
        }
        SolutionFormat::Json | SolutionFormat::Standard | SolutionFormat::Fcs => {
            anyhow::bail!("internal error: not a picture format")
        }
    };
    let k = step.unwrap_or(0);
    // Captioned when the caller names the deal (a board file's picture has no caption).
    let unsolved_caption = name.map(|n| format!("{n}, the start: no solution found"));
    let name = |deal: Option<u64>| match (name, deal) {
        (Some(name), _) => name.to_string(),
        (None, Some(n)) => format!("deal {n}"),
        (None, None) => "the board".to_string(),
    };
    let Some(s) = solution else {
        anyhow::ensure!(
            k == 0,
            "--step {k}: there is no solution (only --step 0, the start, can be drawn)"
        );
        return draw(board, format, width, None, unsolved_caption.as_deref());
    };
    let n = s.moves.len();
    anyhow::ensure!(
        k <= n,
        "--step {k} is past the end: the solution has {} (give 0..={n}; 0 is the start)",
        plural(n, "move")
    );
    let position = render::positions(s)?.swap_remove(k);
    let played = k.checked_sub(1).map(|i| s.moves[i]);
    let caption = match k {
        0 => format!("{}, the start (0 of {n} moves)", name(s.deal)),
        _ => format!(
            "{}, after move {k} of {n}: {}",
            name(s.deal),
            s.tokens()[k - 1]
        ),
    };
    draw(&position, format, width, played, Some(&caption))
}

/// A drawn `format` of a family game's solve (`solve --game G --format svg|png|html`, rules
/// other than standard FreeCell's): the position after move `step` (default 0, the start)
/// with that move highlighted and captioned, or the replay page of the solution. `game`
/// holds the start and the moves (`solved` false: not solved, when only the start can be
/// drawn, uncaptioned). `width`: pixels (default [`render::DEFAULT_WIDTH`]).
///
/// # Errors
/// `step` past the end or above 0 without a solution, html without a solution, a move
/// illegal where it is played, PNG errors.
pub fn family_solution_picture(
    format: SolutionFormat,
    game: &render::family::FamilyGame,
    solved: bool,
    step: Option<usize>,
    width: Option<u32>,
) -> Result<Vec<u8>> {
    let width = width.unwrap_or(render::DEFAULT_WIDTH);
    let step = step.unwrap_or(0);
    let format = match format {
        SolutionFormat::Html => {
            anyhow::ensure!(solved, "no solution to replay");
            let opts = render::Options {
                width,
                ..Default::default()
            };
            return Ok(game.replay_html(&opts)?.into_bytes());
        }
        SolutionFormat::Png => PictureFormat::Png,
        _ => PictureFormat::Svg,
    };
    anyhow::ensure!(
        solved || step == 0,
        "--step {step}: there is no solution (only --step 0, the start, can be drawn)"
    );
    let (position, played, caption) = game.step(step)?;
    let caption = solved.then_some(caption);
    let opts = render::Options {
        width,
        highlight: played,
        caption: caption.as_deref(),
    };
    render::draw_view(&render::View::layout(&position, game.title), format, &opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Extensions name formats; `.txt` is standard notation, and only the drawn formats
    /// are pictures.
    #[test]
    fn formats_by_extension() {
        assert_eq!(
            SolutionFormat::by_extension("txt"),
            Some(SolutionFormat::Standard)
        );
        assert_eq!(
            SolutionFormat::by_extension("htm"),
            Some(SolutionFormat::Html)
        );
        assert_eq!(SolutionFormat::by_extension("doc"), None);
        assert!(SolutionFormat::Png.is_picture());
        assert!(!SolutionFormat::Fcs.is_picture());
    }

    /// A board with no solution still gets a text that says why, and no picture of a
    /// later step or replay page.
    #[test]
    fn no_solution_is_said_in_every_format() {
        let board = fcauto_deals::ms_deal(11982).unwrap();
        let text = |f| {
            not_solved_text(
                f,
                Some(11982),
                &board,
                "unsolvable",
                "I could not solve this game.",
            )
            .unwrap()
        };
        assert_eq!(text(SolutionFormat::Standard), "# unsolvable\n");
        assert!(text(SolutionFormat::Fcs).ends_with("\n\nI could not solve this game.\n"));
        assert!(text(SolutionFormat::Json).contains("\"verdict\": \"unsolvable\""));
        assert_eq!(text(SolutionFormat::Svg), "");
        let picture = |f, step| solution_picture(f, &board, None, step, None, None);
        assert!(picture(SolutionFormat::Svg, Some(0)).is_ok());
        let e = picture(SolutionFormat::Svg, Some(1)).unwrap_err();
        assert!(e.to_string().contains("there is no solution"), "{e}");
        let e = picture(SolutionFormat::Html, None).unwrap_err();
        assert_eq!(e.to_string(), "no solution to replay");
        assert!(picture(SolutionFormat::Json, None).is_err());
    }
}
