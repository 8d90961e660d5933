//! The review page (`index.html` of `analyze --report DIR`): one self-contained HTML file
//! (inline SVG, CSS and script; no outside resource) with the evaluation graph, the accuracy,
//! the game to step through (the replay page's board and controls, [`render::replay_parts`])
//! with the analysis of each step alongside, each marked move (losing, costly) drawn next to
//! the better move, and from every step a link that opens the position in `fcauto serve`'s
//! page.
//!
//! Stages: `page_data` (the review and the per-step facts the script shows, from the
//! analysis) → [`chart_svg`] (the graph) and `marked` (the pictures of the marked moves) →
//! [`review_html`] (the page).

use super::chart::chart_svg;
use super::findings::Findings;
use super::record::Record;
use super::review::{review, Class, Review};
use super::summary::{conclusions, Document};
use crate::render;
use anyhow::Result;
use fcauto_deals::plural;
use fcauto_solver::PlayedMove;
use serde::Serialize;
use std::fmt::Write as _;

/// The review page's script: follows the replay script's steps (`fcauto-step` events) with
/// the analysis of each, moves the chart's cursor, and builds the links to `serve`'s page.
const SCRIPT: &str = include_str!("review.js");
/// The review page's style sheet (after the replay page's).
const STYLE: &str = include_str!("review.css");
/// `serve`'s default port, which the "try from here" links name until the page's port field
/// is changed.
pub const SERVE_PORT: u16 = 8617;
/// Most marked moves drawn (the losing one first, then the costliest): each is two pictures.
pub const MAX_MARKED: usize = 40;
/// Width of a marked move's pictures, pixels.
const PICTURE_WIDTH: u32 = 360;

/// What the page's script reads (`<script type="application/json" id="review">`).
#[derive(Serialize)]
struct PageData<'a> {
    /// The graph's points, the classes, the counts, the accuracy.
    review: &'a Review,
    /// Each position of the game as a position string, the start first.
    positions: Vec<String>,
    /// Each move's facts: `n` notation, `c` class, `cost`, `before`/`after` moves to win,
    /// `verdict` after it, `best` the first move of the shortest known win before it.
    moves: Vec<StepFacts>,
    /// The better line at the losing step, standard notation.
    alternative: Option<Vec<String>>,
    /// The default port of the links to `serve`'s page.
    port: u16,
}

/// One move's facts for the panel beside the board.
#[derive(Serialize)]
struct StepFacts {
    n: String,
    c: Option<Class>,
    cost: Option<usize>,
    before: Option<usize>,
    after: Option<usize>,
    verdict: &'static str,
    best: Option<String>,
}

/// The data of the page's script, from the analysis.
fn page_data<'a>(f: &Findings, game: &dyn Record, rv: &'a Review) -> PageData<'a> {
    let moves = f
        .moves
        .iter()
        .zip(&rv.classes)
        .map(|(r, &c)| StepFacts {
            n: r.mv.clone(),
            c,
            cost: r.cost,
            before: r.moves_to_win_before,
            after: r.moves_to_win,
            verdict: r.verdict,
            best: r.best_move.clone(),
        })
        .collect();
    PageData {
        review: rv,
        positions: (0..=game.played().len())
            .map(|k| game.position_text(k))
            .collect(),
        moves,
        alternative: f.alternative.as_ref().map(|a| a.line.clone()),
        port: SERVE_PORT,
    }
}

/// The review page of the analysis `doc` of `game`; `best[k]`: the first move of the
/// shortest known win from the position after `k` moves, if winnable.
///
/// # Errors
/// A move of the game illegal where it is played (not expected: the game was replayed by
/// the validator) or the JSON writer's.
pub fn review_html(
    doc: &Document,
    game: &dyn Record,
    best: &[Option<PlayedMove>],
) -> Result<String> {
    let f = doc.findings;
    let rv = review(f);
    let parts = game.replay_parts(doc.deal)?;
    let data = serde_json::to_string(&page_data(f, game, &rv))?.replace("</", "<\\/");
    let name = escape(&game.heading(doc.deal, true));
    let head = format!(
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">{meta}<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{name}: review of a game of {moves}</title><style>{rstyle}{STYLE}</style></head>
<body>
<h1>{name}: review of a game of {moves}</h1>
"#,
        meta = render::GENERATOR_META,
        moves = plural(f.moves.len(), "move"),
        rstyle = render::REPLAY_STYLE,
    );
    Ok(format!(
        r#"{head}{summary}
<section id="graph"><h2>Moves to win after each step</h2>{chart}</section>
<div id="game"><div id="board" style="max-width:{w}px">{svg}</div>
<aside id="analysis" aria-live="polite"></aside></div>
{controls}
{marked}
{key}
<script type="application/json" id="data">{replay}</script>
<script type="application/json" id="review">{data}</script>
<script>{SCRIPT}</script>
<script>{replay_script}</script>
</body></html>
"#,
        summary = summary(f, &rv),
        chart = chart_svg(&rv),
        w = parts.width,
        svg = parts.svg,
        controls = render::replay_controls(f.moves.len()),
        marked = marked(doc, game, best, &rv)?,
        key = key(rv.costly_threshold, doc.mode),
        replay = parts.data,
        replay_script = render::REPLAY_SCRIPT,
    ))
}

/// The name of the replay page of the better line at the losing step `step`.
pub fn better_line_name(step: usize) -> String {
    format!("step-{step:03}-better.html")
}

/// The replay page ([`render::replay_html`]) of the better line at the losing step: the
/// alternative's winning line from the position before the losing move, with its file name
/// ([`better_line_name`]); `None` when no move was losing.
///
/// # Errors
/// The line does not replay (not expected: it was checked by the validator).
pub fn better_line_page(doc: &Document, game: &dyn Record) -> Result<Option<(String, Vec<u8>)>> {
    let Some(a) = &doc.findings.alternative else {
        return Ok(None);
    };
    let html = game.line_html(a.step - 1, &a.line)?;
    Ok(Some((better_line_name(a.step), html.into_bytes())))
}

/// The figures above the graph: the accuracy with its counts, and the conclusions.
fn summary(f: &Findings, rv: &Review) -> String {
    let c = &rv.counts;
    let accuracy = rv
        .accuracy
        .map_or("no move classified".to_string(), |a| format!("{a:.1}%"));
    let mut s = format!(
        r#"<section id="summary"><p><strong>Accuracy: <span id="accuracy" data-accuracy="{data}">{accuracy}</span></strong> (best and good moves among the classified ones) &middot; <span class="c best">best {}</span> &middot; <span class="c good">good {}</span> &middot; <span class="c costly">costly {}</span> &middot; <span class="c losing">losing {}</span> &middot; unclassified {}</p><ul>"#,
        c.best,
        c.good,
        c.costly,
        c.losing,
        c.unclassified,
        data = rv.accuracy.map_or(String::new(), |a| a.to_string()),
    );
    for line in conclusions(f) {
        let _ = write!(s, "<li>{}</li>", escape(&line));
    }
    s.push_str("</ul></section>");
    s
}

/// The marked moves (losing first, then the costliest, at most [`MAX_MARKED`]), in game
/// order, each as the position before it twice: the move played drawn, and the better move
/// drawn; with links to the step and to `serve`'s page.
fn marked(
    doc: &Document,
    game: &dyn Record,
    best: &[Option<PlayedMove>],
    rv: &Review,
) -> Result<String> {
    let f = doc.findings;
    let mut chosen: Vec<usize> = (0..f.moves.len())
        .filter(|&i| matches!(rv.classes[i], Some(Class::Losing | Class::Costly)))
        .collect();
    chosen.sort_by_key(|&i| {
        (
            rv.classes[i] != Some(Class::Losing),
            usize::MAX - f.moves[i].cost.unwrap_or(0),
        )
    });
    chosen.truncate(MAX_MARKED);
    chosen.sort_unstable();
    if chosen.is_empty() {
        return Ok(r#"<section id="marked"><h2>Marked moves</h2><p>No move was losing or costly.</p></section>"#.to_string());
    }
    let mut s = String::from(
        r#"<section id="marked"><h2>Marked moves: the move played and the better one</h2>"#,
    );
    for i in chosen {
        s.push_str(&marked_figure(doc, game, best, rv, i)?);
    }
    s.push_str("</section>");
    Ok(s)
}

/// The figure of the move at index `i` (step `i + 1`).
fn marked_figure(
    doc: &Document,
    game: &dyn Record,
    best: &[Option<PlayedMove>],
    rv: &Review,
    i: usize,
) -> Result<String> {
    let f = doc.findings;
    let (r, step) = (&f.moves[i], i + 1);
    let class = rv.classes[i].map_or("", Class::word);
    let before = game.position(i);
    let what = match rv.classes[i] {
        Some(Class::Losing) => "after it no win exists".to_string(),
        _ => format!(
            "the shortest known win got {} longer",
            plural(r.cost.unwrap_or(0), "move")
        ),
    };
    let better = match (&r.best_move, r.moves_to_win_before) {
        (Some(b), Some(n)) => format!("better: {b}, winnable in {}", plural(n, "move")),
        _ => "no better move known".to_string(),
    };
    let played = picture(
        &before,
        Some(game.played()[i]),
        &format!("step {step}: {} played", r.mv),
    );
    let instead = match (best[i], &r.best_move) {
        (Some(m), Some(b)) => picture(&before, Some(m), &format!("step {step}: {b} instead")),
        _ => String::new(),
    };
    let replay = match (rv.classes[i], &f.alternative) {
        (Some(Class::Losing), Some(_)) => format!(
            r#" &middot; <a class="better-line" href="{}">replay the better line</a>"#,
            better_line_name(step)
        ),
        _ => String::new(),
    };
    Ok(format!(
        r#"<figure class="mark {class}" id="mark-{step}" data-step="{step}"><figcaption>Step {step}: <b>{mv}</b>, <span class="c {class}">{class}</span>: {what}; {better}. <button class="goto" data-step="{step}">show in the game</button> &middot; <a class="try" data-position="{k}" href="http://127.0.0.1:{SERVE_PORT}/?position={pos}">try from here in fcauto serve</a>{replay}</figcaption><div class="pair"><div><p>played</p>{played}</div><div><p>better</p>{instead}</div></div></figure>"#,
        mv = escape(&r.mv),
        k = i,
        pos = url_encode(&game.position_text(i)),
    ))
}

/// A position drawn by the one renderer, `highlight` drawn on it, as an `<img>` whose source
/// is the SVG itself (a `data:` URL: the page stays one file, and the picture's element ids
/// do not clash with the board's).
fn picture(position: &render::Position, highlight: Option<PlayedMove>, caption: &str) -> String {
    let svg = render::svg_view(
        &position.view(),
        &render::Options {
            width: PICTURE_WIDTH,
            highlight,
            caption: Some(caption),
        },
    );
    format!(
        r#"<img alt="{alt}" width="{PICTURE_WIDTH}" src="data:image/svg+xml;charset=utf-8,{src}">"#,
        alt = escape(caption),
        src = url_encode(&svg)
    )
}

/// The classes' and the accuracy's definitions, as docs/analyze.md gives them, for an
/// analysis in `mode` (whose searches prove their lines shortest in the optimal modes, as
/// the text table's key says).
fn key(threshold: usize, mode: fcauto_solver::Mode) -> String {
    use fcauto_solver::Mode;
    let known = match mode {
        Mode::Optimal | Mode::OptimalMoves | Mode::OptimalPh => {
            "found by the searches, each line proved shortest in the mode's count, and checked by the validator"
        }
        Mode::Fast | Mode::Short => {
            "found by the searches and checked by the validator; not proved shortest"
        }
    };
    format!(
        r#"<section id="key"><h2>How to read it</h2><dl>
<dt>moves to win</dt><dd>the shortest win known from the position ({known}). A lost position (no win exists, proved by the complete search) is a red square on the top edge, an undecided one grey.</dd>
<dt><span class="c best">best</span></dt><dd>the move keeps the shortest known win (cost 0).</dd>
<dt><span class="c good">good</span></dt><dd>it makes the shortest known win 1 to {good} moves longer.</dd>
<dt><span class="c costly">costly</span></dt><dd>it makes the shortest known win {threshold} or more moves longer (<code>--costly</code>).</dd>
<dt><span class="c losing">losing</span></dt><dd>the position before it was winnable, after it no win exists.</dd>
<dt>accuracy</dt><dd>the share of the classified moves that are best or good; moves played once the game was lost, or between undecided positions, have no class.</dd>
</dl><p class="help">Keys: &#x2190; &#x2192; previous and next move, Home and End first and last; a point of the graph shows its step. "Try from here" opens the position in <code>fcauto serve</code>'s page on this computer (start it first) at port <input id="port" type="number" min="1" max="65535" value="{SERVE_PORT}" size="6" aria-label="serve's port">.</p></section>"#,
        good = threshold.saturating_sub(1).max(1),
    )
}

/// `text` escaped for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `text` percent-encoded for a URL (every byte but letters, digits and `-._~`).
fn url_encode(text: &str) -> String {
    let mut s = String::with_capacity(text.len() * 2);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            s.push(b as char);
        } else {
            let _ = write!(s, "%{b:02X}");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_html_are_escaped() {
        assert_eq!(url_encode("a b/-"), "a%20b%2F-");
        assert_eq!(escape("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
