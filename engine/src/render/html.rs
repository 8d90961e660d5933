//! The replay page: one self-contained HTML file (inline SVG, CSS and script; no network,
//! no external fonts) that steps through a solution.

use super::svg::svg_with_rows;
use super::{card_label, cell_name, highlight_rects, place_cards, Options, View};
use anyhow::{Context, Result};
use fcauto_deals::Board;
use fcauto_solver::state::State;
use fcauto_solver::validator::apply_checked;
use fcauto_solver::{Loc, MoveKind, PlayedMove, Solution, StepMove};
use serde_json::json;

/// The replay page's script: moves the card elements of the inline SVG to each step's
/// places (computed here in Rust, see `steps`) and wires the buttons, slider and keys; each
/// step shown is announced as a `fcauto-step` event on the document (`detail`: the step).
pub const REPLAY_SCRIPT: &str = include_str!("replay.js");
/// The replay page's style sheet.
pub const REPLAY_STYLE: &str = include_str!("replay.css");
use REPLAY_SCRIPT as SCRIPT;
use REPLAY_STYLE as STYLE;

/// The mark in a replay page's head that tells a later run the file is fcauto's to replace
/// (the `fcauto` command's `picture::written_by_fcauto`).
pub const GENERATOR_META: &str = r#"<meta name="generator" content="fcauto">"#;

/// A self-contained HTML page (UTF-8 text) that replays `solution`: the board (as
/// [`super::svg()`] draws it, `opts.width` pixels wide at most, shrinking to fit the window)
/// with first/previous/next/last buttons, a slider, the arrow keys (and Home/End), the
/// current move in standard notation with the move counter, and the list of moves;
/// foundation moves of safe cards, which the solver plays automatically, are marked "auto".
/// The positions are those the validator's [`apply_checked`] produces.
///
/// DOM for scripts and tests: `#counter` carries `data-step` (0 = start) and
/// `data-total`; each `.foundation` slot's `data-top` is the rank of its top card; the
/// move just played is outlined by `#hl`.
///
/// # Errors
/// A move of `solution` is illegal where it is played (the message names the step).
pub fn replay_html(solution: &Solution, opts: &Options) -> Result<String> {
    let title = match solution.deal {
        Some(n) => format!("FreeCell deal {n}"),
        None => "FreeCell board".to_string(),
    };
    replay_html_titled(solution, &title, opts)
}

/// [`replay_html()`] with the page named `title` (`freecell deal 40000`, a deal no
/// Microsoft number names).
///
/// # Errors
/// As [`replay_html()`].
pub fn replay_html_titled(solution: &Solution, title: &str, opts: &Options) -> Result<String> {
    let positions = positions(solution)?;
    let line = standard_line(solution, &positions);
    Ok(line_html(&line, title, opts))
}

/// A game to step through, of any game of the family: its positions and the moves between
/// them, each move in standard notation and marked when it is a safe foundation move (the
/// solver's auto-play).
#[derive(Clone, Debug)]
pub struct Line<'a> {
    /// The positions, start first: one more than there are moves.
    pub positions: Vec<View<'a>>,
    /// `moves[k]` leads from `positions[k]` to `positions[k + 1]`; its places are the
    /// views' (`Loc::Cascade(9)` the tenth cascade, `Loc::Freecell(7)` the eighth freecell).
    pub moves: Vec<PlayedMove>,
    /// Each move in standard notation.
    pub tokens: Vec<String>,
    /// Each move: true for a safe foundation move, which the solver plays by itself.
    pub auto: Vec<bool>,
}

/// The replay page of `line` (as [`replay_html`] describes it), headed `title` (`FreeCell
/// deal 617`, `Seahaven Towers deal 5`).
pub fn line_html(line: &Line, title: &str, opts: &Options) -> String {
    let parts = line_parts(line, opts);
    let total = line.moves.len();
    let title = title
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">{GENERATOR_META}<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}: solution replay</title><style>{STYLE}</style></head>
<body>
<h1>{title}: a solution in {total} moves</h1>
<div id="board" style="max-width:{w}px">{svg}</div>
{controls}
<p class="help">Keys: &#x2190; &#x2192; previous and next move, Home and End first and last. Moves
marked <span class="auto">auto</span> are safe foundation moves, which the solver plays by itself.
Made by fcauto; every move checked by its validator.</p>
<script type="application/json" id="data">{data}</script>
<script>{SCRIPT}</script>
</body></html>
"#,
        w = parts.width,
        svg = parts.svg,
        controls = replay_controls(total),
        data = parts.data,
    )
}

/// The parts of a page that steps through a game with the replay script
/// ([`REPLAY_SCRIPT`]): the board's SVG (the start, sized for the game's longest cascade),
/// the data the script reads from `<script type="application/json" id="data">` (already
/// escaped for a script element), and the board's largest width in pixels. Shared by the
/// replay page and `analyze --report`'s review page.
#[derive(Clone, Debug)]
pub struct ReplayParts {
    /// The start position drawn, every card an element the script moves.
    pub svg: String,
    /// `{"steps", "moves", "won"}` as JSON text, safe inside a script element.
    pub data: String,
    /// The board's width, pixels (it shrinks to fit the window).
    pub width: u32,
}

/// The [`ReplayParts`] of `solution` (any game: a won one says "Won!" at its end).
///
/// # Errors
/// A move of `solution` is illegal where it is played (the message names the step).
pub fn replay_parts(solution: &Solution, opts: &Options) -> Result<ReplayParts> {
    let positions = positions(solution)?;
    Ok(line_parts(&standard_line(solution, &positions), opts))
}

/// The [`ReplayParts`] of `line` (a won game says "Won!" at its end).
pub fn line_parts(line: &Line, opts: &Options) -> ReplayParts {
    let rows = line
        .positions
        .iter()
        .map(View::longest_cascade)
        .max()
        .unwrap_or(0);
    let start = line.positions.first().copied();
    let svg = start.map_or_else(String::new, |v| {
        svg_with_rows(
            &v,
            &Options {
                highlight: None,
                ..*opts
            },
            rows,
        )
    });
    let won = line.positions.last().is_some_and(|v| v.home() == 52);
    let data = json!({
        "steps": steps(line),
        "moves": moves(line),
        "won": won,
    });
    // `</` inside a script element would end it early.
    let data = data.to_string().replace("</", "<\\/");
    ReplayParts {
        svg,
        data,
        width: opts.width.clamp(super::MIN_WIDTH, super::MAX_WIDTH),
    }
}

/// The [`Line`] of a standard FreeCell `solution` through its `positions`.
fn standard_line<'a>(solution: &Solution, positions: &'a [Board]) -> Line<'a> {
    Line {
        positions: positions.iter().map(View::board).collect(),
        moves: solution.moves.clone(),
        tokens: solution.tokens(),
        auto: solution
            .moves
            .iter()
            .zip(positions)
            .map(|(p, before)| is_auto(before, p))
            .collect(),
    }
}

/// The replay controls the script wires ([`REPLAY_SCRIPT`]): first/previous/next/last
/// buttons, the slider, the move counter (`#counter`), the current move (`#move`) and the
/// list of moves (`#moves`), for a game of `total` moves.
pub fn replay_controls(total: usize) -> String {
    format!(
        r#"<div id="controls">
<button id="first" title="First (Home)">&#x21E4; First</button>
<button id="prev" title="Previous (&#x2190;)">&#x25C0; Previous</button>
<button id="next" title="Next (&#x2192;)">Next &#x25B6;</button>
<button id="last" title="Last (End)">Last &#x21E5;</button>
<input id="slider" type="range" min="0" max="{total}" value="0" aria-label="move">
<span id="counter" data-step="0" data-total="{total}">Move 0 of {total}</span>
</div>
<p id="move">Start position</p>
<div id="moves"></div>"#
    )
}

/// The positions of `solution`: the start, then the position after each move (index k is
/// the position after move k), replayed with the validator's [`apply_checked`].
///
/// # Errors
/// A move is illegal where it is played (the message names the step and the rule).
pub fn positions(solution: &Solution) -> Result<Vec<Board>> {
    let mut b = solution.board.clone();
    let mut out = Vec::with_capacity(solution.moves.len() + 1);
    out.push(b.clone());
    for (i, p) in solution.moves.iter().enumerate() {
        let m = StepMove {
            from: p.mv.from,
            to: p.mv.to,
            count: Some(p.mv.count),
            card: Some(p.card),
        };
        apply_checked(&mut b, &m)
            .map_err(|e| anyhow::anyhow!(e))
            .with_context(|| format!("step {} ({}): illegal move", i + 1, p.mv.notation()))?;
        out.push(b.clone());
    }
    Ok(out)
}

/// Per position: `o`, the cards in drawing order as flat `[card id, x, y, ...]`; `f`, the
/// foundations' top ranks (C D H S); `h`, the move just played as two rectangles
/// `[x, y, w, h, x, y, w, h]` (null at the start).
fn steps(line: &Line) -> Vec<serde_json::Value> {
    line.positions
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let o: Vec<i32> = place_cards(v)
                .iter()
                .flat_map(|p| [p.card.id() as i32, p.x, p.y])
                .collect();
            let h = k.checked_sub(1).and_then(|i| line.moves.get(i)).map(|m| {
                let [a, c] = highlight_rects(v, m);
                [a.x, a.y, a.w, a.h, c.x, c.y, c.w, c.h]
            });
            json!({"o": o, "f": v.foundations(), "h": h})
        })
        .collect()
}

/// Per move: `n`, standard notation (read back as the same move); `t`, what it does in
/// words; `a`, true for a safe foundation move (the solver's auto-play).
fn moves(line: &Line) -> Vec<serde_json::Value> {
    line.moves
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let auto = line.auto.get(i).copied().unwrap_or(false);
            let n = line.tokens.get(i).cloned().unwrap_or_default();
            let mut t = describe(p);
            if auto {
                t.push_str(" (auto: a safe foundation move)");
            }
            json!({"n": n, "t": t, "a": auto})
        })
        .collect()
}

/// True for a foundation move the solver's safe auto-play makes by itself: the card is
/// safe to home in the position `before` it (the solver's own rule, `is_safe_home`).
fn is_auto(before: &Board, p: &PlayedMove) -> bool {
    p.mv.to == Loc::Foundation
        && fcauto_solver::movegen::is_safe_home(&State::from_board(before), p.card.id())
}

/// A move in words: `K♥ from cascade 3 to freecell a`, `9♠ with 2 cards on it from cascade 4 to
/// cascade 8`.
fn describe(p: &PlayedMove) -> String {
    let place = |l: Loc| match l {
        Loc::Cascade(i) => format!("cascade {}", i + 1),
        Loc::Freecell(j) => format!("freecell {}", cell_name(j as usize)),
        Loc::Foundation => "the foundation".to_string(),
    };
    let what = if p.mv.count > 1 && p.mv.kind() == Some(MoveKind::StackToStack) {
        format!(
            "{} with {} on it",
            card_label(p.card),
            fcauto_deals::plural(p.mv.count - 1, "card")
        )
    } else {
        card_label(p.card)
    };
    format!("{what} from {} to {}", place(p.mv.from), place(p.mv.to))
}
