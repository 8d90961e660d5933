//! The evaluation graph of the review page: the shortest known win (moves) after each step,
//! as an inline SVG (no script needed to draw it, no outside resource).
//!
//! DOM for scripts and tests: the `<svg id="chart">` carries `data-x0` and `data-dx` (the
//! x of step 0 and the width of one step); every position is one element of class `pt`
//! with `data-step`, `data-verdict` (`winnable`, `lost`, `unknown`) and, when winnable,
//! `data-to-win`; a winnable point also has its move's class (`best`, `good`, `costly`) as a
//! class; the losing step is the `#losing-step` line (`data-step`); `#cursor` is the line
//! of the step shown.

use super::review::Review;
use std::fmt::Write as _;

/// The chart's size, SVG units (it scales to the page's width).
const W: f64 = 720.0;
const H: f64 = 220.0;
/// Margins: left (for the y labels), right, top, bottom (for the x labels).
const ML: f64 = 46.0;
const MR: f64 = 14.0;
const MT: f64 = 18.0;
const MB: f64 = 30.0;

/// The chart's scales: x of a step, y of a number of moves to win.
struct Scale {
    steps: usize,
    top: usize,
}

impl Scale {
    fn new(r: &Review) -> Scale {
        let most = r.points.iter().filter_map(|p| p.moves_to_win).max();
        // A round top: the next multiple of 10 (at least 10).
        let top = most.unwrap_or(0).max(1).div_ceil(10) * 10;
        Scale {
            steps: r.points.len().saturating_sub(1).max(1),
            top,
        }
    }

    fn dx(&self) -> f64 {
        (W - ML - MR) / self.steps as f64
    }

    fn x(&self, step: usize) -> f64 {
        ML + step as f64 * self.dx()
    }

    fn y(&self, moves: usize) -> f64 {
        MT + (H - MT - MB) * (1.0 - moves as f64 / self.top as f64)
    }
}

/// The chart of `r` as an SVG element.
pub fn chart_svg(r: &Review) -> String {
    let sc = Scale::new(r);
    let mut s = format!(
        r#"<svg id="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img" aria-label="moves to win after each step" data-x0="{ML}" data-dx="{dx:.3}">"#,
        dx = sc.dx()
    );
    axes(&mut s, &sc);
    lost_band(&mut s, r, &sc);
    line(&mut s, r, &sc);
    points(&mut s, r, &sc);
    let _ = write!(
        s,
        r#"<line id="cursor" x1="{x:.1}" x2="{x:.1}" y1="{MT}" y2="{b}"/></svg>"#,
        x = sc.x(0),
        b = H - MB
    );
    s
}

/// The axes, their ticks and labels: moves to win (0, half, top) and steps.
fn axes(s: &mut String, sc: &Scale) {
    let (b, r) = (H - MB, W - MR);
    let _ = write!(
        s,
        r#"<g class="axes"><line x1="{ML}" y1="{MT}" x2="{ML}" y2="{b}"/><line x1="{ML}" y1="{b}" x2="{r}" y2="{b}"/>"#
    );
    for v in [0, sc.top / 2, sc.top] {
        let y = sc.y(v);
        let _ = write!(
            s,
            r#"<line class="grid" x1="{ML}" y1="{y:.1}" x2="{r}" y2="{y:.1}"/><text x="{tx}" y="{ty:.1}" text-anchor="end">{v}</text>"#,
            tx = ML - 5.0,
            ty = y + 4.0
        );
    }
    let every = tick_step(sc.steps);
    for k in (0..=sc.steps).step_by(every) {
        let _ = write!(
            s,
            r#"<text x="{x:.1}" y="{y}" text-anchor="middle">{k}</text>"#,
            x = sc.x(k),
            y = b + 14.0
        );
    }
    let _ = write!(
        s,
        r#"<text class="label" x="{ML}" y="11">moves to win</text><text class="label" x="{r}" y="{y}" text-anchor="end">step</text></g>"#,
        y = H - 3.0
    );
}

/// Steps between x labels: about ten labels at most.
fn tick_step(steps: usize) -> usize {
    let raw = steps.div_ceil(10).max(1);
    [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500]
        .into_iter()
        .find(|&t| t >= raw)
        .unwrap_or(raw)
}

/// A shaded band over the steps after which the game was lost, and the losing step's line.
fn lost_band(s: &mut String, r: &Review, sc: &Scale) {
    let Some(first) = r.points.iter().position(|p| p.verdict == "lost") else {
        return;
    };
    let x = sc.x(first) - sc.dx() / 2.0;
    let _ = write!(
        s,
        r#"<rect class="lostband" x="{x:.1}" y="{MT}" width="{w:.1}" height="{h}"/>"#,
        w = W - MR - x,
        h = H - MT - MB
    );
    if let Some(k) = r.losing_step {
        let x = sc.x(k);
        // The label on the side of the line with room for it.
        let (tx, anchor) = if x > W / 2.0 {
            (x - 5.0, "end")
        } else {
            (x + 5.0, "start")
        };
        let _ = write!(
            s,
            r#"<line id="losing-step" data-step="{k}" x1="{x:.1}" x2="{x:.1}" y1="{MT}" y2="{b}"/><text class="losing-label" x="{tx:.1}" y="{ty}" text-anchor="{anchor}">lost at step {k}</text>"#,
            b = H - MB,
            ty = MT + 12.0
        );
    }
}

/// The line through consecutive winnable points (broken where a point is not winnable).
fn line(s: &mut String, r: &Review, sc: &Scale) {
    let mut run: Vec<String> = Vec::new();
    let flush = |run: &mut Vec<String>, s: &mut String| {
        if run.len() > 1 {
            let _ = write!(s, r#"<polyline class="eval" points="{}"/>"#, run.join(" "));
        }
        run.clear();
    };
    for p in &r.points {
        match p.moves_to_win {
            Some(v) => run.push(format!("{:.1},{:.1}", sc.x(p.step), sc.y(v))),
            None => flush(&mut run, s),
        }
    }
    flush(&mut run, s);
}

/// One marker per position: a circle at its moves to win (winnable, in its move's class),
/// a square on the top edge (lost), a grey circle in the middle (undecided).
fn points(s: &mut String, r: &Review, sc: &Scale) {
    for p in &r.points {
        let class = p
            .step
            .checked_sub(1)
            .and_then(|i| r.classes.get(i).copied().flatten())
            .map_or("", |c| c.word());
        let x = sc.x(p.step);
        let (k, v) = (p.step, p.verdict);
        let _ = match p.moves_to_win {
            Some(n) => write!(
                s,
                r#"<circle class="pt {class}" data-step="{k}" data-verdict="{v}" data-to-win="{n}" cx="{x:.1}" cy="{y:.1}" r="3.5"><title>step {k}: {n} moves to win {class}</title></circle>"#,
                y = sc.y(n)
            ),
            None if v == "lost" => write!(
                s,
                r#"<rect class="pt lost" data-step="{k}" data-verdict="lost" x="{x0:.1}" y="{y0}" width="7" height="7"><title>step {k}: lost</title></rect>"#,
                x0 = x - 3.5,
                y0 = MT - 3.5
            ),
            None => write!(
                s,
                r#"<circle class="pt unknown" data-step="{k}" data-verdict="{v}" cx="{x:.1}" cy="{y:.1}" r="3.5"><title>step {k}: undecided</title></circle>"#,
                y = sc.y(sc.top / 2)
            ),
        };
    }
}
