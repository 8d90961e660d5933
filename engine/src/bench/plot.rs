//! `bench --plot FILE.png` (cargo feature `plot`): per-deal work of fcauto and fc-solve as
//! survival curves on one log-log chart: for each amount of work x, the share of deals that
//! needed more than x. The percentiles sit where the curve crosses 50% (p50), 10% (p90) and
//! 1% (p99), so the heavy tail reads off the right-hand side at a glance.

use super::output::{Curve, Metric};
use super::plotting::{register_font, save_png};
use super::summary::Summary;
use anyhow::{Context, Result};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

/// Picture size, pixels.
const SIZE: (u32, u32) = (1200, 720);

/// Colours of the curves, in order.
const COLOURS: [RGBColor; 3] = [RGBColor(31, 119, 180), RGBColor(214, 39, 40), GREEN];

/// The percentiles marked: (name, share of deals above it).
const MARKS: [(&str, f64); 3] = [("p50", 0.5), ("p90", 0.1), ("p99", 0.01)];

/// Draw `curves` (at least one, each with at least one deal) into `file` as a PNG.
/// `title` heads the chart; `x_desc` names the quantity and its unit. Errors: no font (see
/// [`register_font`]), or the file cannot be written.
pub fn draw(file: &Path, title: &str, x_desc: &str, curves: &[Curve]) -> Result<()> {
    register_font()?;
    let mut rgb = vec![0u8; SIZE.0 as usize * SIZE.1 as usize * 3];
    draw_chart(&mut rgb, title, x_desc, curves)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .with_context(|| format!("cannot draw {}", file.display()))?;
    save_png(&rgb, SIZE, file, MARK)
}

/// `bench --plot`'s chart of `curves` (of `metric`) into `file`, titled with the range,
/// the mode, fc-solve's preset when it ran, and today's date.
///
/// # Errors
/// Those of [`draw`].
pub fn chart(file: &Path, metric: Metric, s: &Summary, curves: &[Curve]) -> Result<()> {
    let vs_fc = s.fc_solve.is_some();
    let (what, x_desc) = match (metric, vs_fc) {
        (Metric::Positions, true) => (
            "Positions expanded per deal",
            "positions expanded per deal (fc-solve: iterations), log scale",
        ),
        (Metric::Positions, false) => (
            "Positions expanded per deal",
            "positions expanded per deal, log scale",
        ),
        (Metric::Cpu, true) => (
            "CPU time per deal",
            "milliseconds per deal (fcauto: thread CPU; fc-solve: range solver), log scale",
        ),
        (Metric::Cpu, false) => (
            "CPU time per deal",
            "CPU milliseconds per deal (the solving thread), log scale",
        ),
    };
    let vs = s
        .fc_solve
        .as_ref()
        .map_or(String::new(), |f| format!(" vs fc-solve -l {}", f.preset));
    let game = match s.variant.is_microsoft_freecell() {
        true => String::new(),
        false => format!("{} ", s.variant.title()),
    };
    let ms = s.variant.deal_prefix();
    let title = format!(
        "{what}: {game}deals {ms}{}..{ms}{}, fcauto {}{vs}, {}",
        s.from,
        s.to,
        s.mode,
        super::plotting::today_utc()
    );
    draw(file, &title, x_desc, curves)
}

/// The `Software` text of the PNG [`draw`] writes.
const MARK: &str = "fcauto bench";

/// True when the file `path` is a chart [`draw`] wrote (its `Software` mark), which a later
/// run may replace.
pub fn drawn_here(path: &Path) -> bool {
    crate::render::png::has_software_mark(path, MARK)
}

/// Draw the chart into `rgb` (8-bit RGB, [`SIZE`]).
fn draw_chart(
    rgb: &mut [u8],
    title: &str,
    x_desc: &str,
    curves: &[Curve],
) -> std::result::Result<(), Box<dyn std::error::Error>> {
    let deals = curves.iter().map(|c| c.deals).max().unwrap_or(1).max(1);
    // The lowest share drawn: half a deal of the largest series, so the last step shows.
    let y_min = 50.0 / deals as f64;
    let positive = |v: f64| v > 0.0;
    let x_lo = curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.value))
        .filter(|v| positive(*v))
        .fold(f64::INFINITY, f64::min);
    let x_lo = if x_lo.is_finite() { x_lo / 1.5 } else { 0.1 };
    let x_hi = curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.value))
        .fold(x_lo * 10.0, f64::max)
        * 1.5;
    let root = BitMapBackend::with_buffer(rgb, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 24))
        .margin(20)
        .x_label_area_size(55)
        .y_label_area_size(85)
        .build_cartesian_2d((x_lo..x_hi).log_scale(), (y_min..100.0).log_scale())?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc("deals that needed more (%, log scale)")
        .x_label_formatter(&|x| thousands(*x))
        .y_label_formatter(&|y| percent(*y))
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    draw_levels(&mut chart, x_lo, x_hi, y_min)?;
    for (i, c) in curves.iter().enumerate() {
        draw_curve(&mut chart, i, c, x_lo, y_min)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 17))
        .draw()?;
    root.present()?;
    Ok(())
}

/// The chart [`draw_chart`] draws on: log-scaled values across, log-scaled shares up.
type Chart<'a, 'b> = ChartContext<'a, BitMapBackend<'b>, Cartesian2d<LogCoord<f64>, LogCoord<f64>>>;

/// The result of drawing on a [`Chart`].
type Drawn = std::result::Result<(), Box<dyn std::error::Error>>;

/// The percentile levels as thin lines across, labelled at the left edge (those below
/// `y_min`, too few deals to show, left out).
fn draw_levels(chart: &mut Chart, x_lo: f64, x_hi: f64, y_min: f64) -> Drawn {
    for (name, share) in MARKS {
        let y = share * 100.0;
        if y < y_min {
            continue;
        }
        chart.draw_series(LineSeries::new(
            [(x_lo, y), (x_hi, y)],
            BLACK.mix(0.25).stroke_width(1),
        ))?;
        chart.draw_series(std::iter::once(Text::new(
            name.to_string(),
            (x_lo * 1.05, y * 1.12),
            ("sans-serif", 15).into_font().color(&BLACK.mix(0.6)),
        )))?;
    }
    Ok(())
}

/// Curve `i`, `c`, as a step line in its colour with its legend, and a dot and the value
/// where it crosses each percentile level.
fn draw_curve(chart: &mut Chart, i: usize, c: &Curve, x_lo: f64, y_min: f64) -> Drawn {
    let positive = |v: f64| v > 0.0;
    let colour = COLOURS[i % COLOURS.len()];
    // A step curve: at each value the share drops from "more than the previous value"
    // to "more than this one".
    let floor = |s: f64| (s * 100.0).max(y_min);
    let at = |v: f64| if positive(v) { v } else { x_lo };
    let mut steps = Vec::with_capacity(c.points.len() * 2 + 1);
    let mut above = 1.0;
    steps.push((x_lo, floor(above)));
    for p in &c.points {
        steps.push((at(p.value), floor(above)));
        steps.push((at(p.value), floor(p.share_above)));
        above = p.share_above;
    }
    chart
        .draw_series(LineSeries::new(steps, colour.stroke_width(3)))?
        .label(c.label.clone())
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], colour.stroke_width(3)));
    // Each percentile: a dot where the curve crosses its level, and its value.
    for ((_, share), value) in MARKS.iter().zip(c.percentiles) {
        if share * 100.0 < y_min {
            continue; // too few deals for this level to show
        }
        let p = (at(value), share * 100.0);
        chart.draw_series(std::iter::once(Circle::new(p, 6, colour.filled())))?;
        // The curves fall to the right: the first's values go below and to the left
        // of the dot, the second's above and to the right, both clear of the lines.
        let (at_text, h, v) = if i % 2 == 0 {
            ((p.0 / 1.06, p.1 * 0.9), HPos::Right, VPos::Top)
        } else {
            ((p.0 * 1.06, p.1 * 1.1), HPos::Left, VPos::Bottom)
        };
        let style = ("sans-serif", 16)
            .into_font()
            .color(&colour)
            .pos(Pos::new(h, v));
        chart.draw_series(std::iter::once(Text::new(thousands(value), at_text, style)))?;
    }
    Ok(())
}

/// `x` with thousands separators (`221,411`), or with up to 3 significant digits below 10.
fn thousands(x: f64) -> String {
    if x < 10.0 {
        let s = format!("{x:.3}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        return s.to_string();
    }
    let digits = format!("{:.0}", x);
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A share in percent as a tick label: `50%`, `1%`, `0.01%`.
fn percent(y: f64) -> String {
    let s = format!("{y:.4}");
    format!("{}%", s.trim_end_matches('0').trim_end_matches('.'))
}
