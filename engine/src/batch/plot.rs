//! `batch report --plot DIR`'s charts of a results database (plotters, bitmap backend;
//! cargo feature `plot`): `lengths.png` (deals per solution length, moves_total and
//! single-card moves) and `cpu.png` (deals per CPU time, log scale), each a PNG marked as
//! drawn here ([`MARK`]), so that a later run replaces only its own.
//!
//! Text is drawn with the font [`crate::bench::plotting::register_font`] finds.

use super::report::Report;
use crate::bench::plotting::register_font;
use anyhow::{bail, Context, Result};
use fcauto_deals::plural;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// Picture size, pixels.
const SIZE: (u32, u32) = (1000, 600);

/// The pictures [`draw`] writes into its folder.
pub const PICTURES: [&str; 2] = ["lengths.png", "cpu.png"];

/// The `Software` text of the PNGs [`draw`] writes: what tells a later run that it may
/// replace them.
pub const MARK: &str = "fcauto batch report";

/// True when `path` is a PNG [`draw`] wrote (its `Software` text is [`MARK`]).
pub fn drawn_here(path: &Path) -> bool {
    crate::render::png::has_software_mark(path, MARK)
}

/// Draw `lengths.png` and `cpu.png` into `dir`; the files written. Both are drawn before
/// either is written: a picture that cannot be drawn leaves no other one behind.
///
/// # Errors
/// No font found, a chart that cannot be drawn, a file that cannot be written (named);
/// `cpu.png` of a database with no rows.
pub fn draw(r: &Report, dir: &Path) -> Result<Vec<PathBuf>> {
    register_font()?;
    let [lengths, cpu] = PICTURES.map(|name| dir.join(name));
    let blank = || vec![0u8; SIZE.0 as usize * SIZE.1 as usize * 3];
    let (mut rgb_lengths, mut rgb_cpu) = (blank(), blank());
    draw_lengths(r, &mut rgb_lengths)
        .with_context(|| format!("cannot draw {}", lengths.display()))?;
    draw_cpu(r, &mut rgb_cpu).with_context(|| format!("cannot draw {}", cpu.display()))?;
    save(&rgb_lengths, &lengths)?;
    save(&rgb_cpu, &cpu)?;
    Ok(vec![lengths, cpu])
}

/// Write the picture `rgb` (8-bit RGB, [`SIZE`]) to `file` as a PNG marked as drawn here
/// ([`MARK`]); errors name the file.
fn save(rgb: &[u8], file: &Path) -> Result<()> {
    crate::bench::plotting::save_png(rgb, SIZE, file, MARK)
}

/// Deals per solution length, moves_total and single-card moves.
/// The histogram `h` ((length, deals), by length) with every length between its first and
/// last that no deal has as (length, 0): a line through the lengths that occur alone would
/// draw the gaps as deals.
fn zero_filled(h: &[(u64, u64)]) -> Vec<(u64, u64)> {
    let (Some(&(first, _)), Some(&(last, _))) = (h.first(), h.last()) else {
        return Vec::new();
    };
    let mut counts = h.iter().copied().peekable();
    (first..=last)
        .map(|x| match counts.next_if(|&(len, _)| len == x) {
            Some(p) => p,
            None => (x, 0),
        })
        .collect()
}

/// The lengths' chart bounds over the histograms `hs` ((length, deals), ascending): the
/// shortest length, one past the longest, and the most deals of one length.
fn bounds(hs: &[&Vec<(u64, u64)>]) -> (u64, u64, u64) {
    let xmax = hs
        .iter()
        .flat_map(|h| h.last())
        .map(|p| p.0)
        .max()
        .unwrap_or(1)
        + 1;
    let xmin = hs
        .iter()
        .flat_map(|h| h.first())
        .map(|p| p.0)
        .min()
        .unwrap_or(0);
    let ymax = hs
        .iter()
        .flat_map(|h| h.iter())
        .map(|p| p.1)
        .max()
        .unwrap_or(1);
    (xmin, xmax, ymax)
}

fn draw_lengths(r: &Report, rgb: &mut [u8]) -> Result<()> {
    let series = [
        (
            "moves_total (a supermove = 1)",
            &r.moves_total_histogram,
            BLUE,
        ),
        ("single_card_moves", &r.single_card_moves_histogram, RED),
    ];
    let (xmin, xmax, ymax) = bounds(&[&r.moves_total_histogram, &r.single_card_moves_histogram]);
    let root = BitMapBackend::with_buffer(rgb, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    if r.solved == 0 {
        // Empty axes with made-up ranges would read as a chart: say it instead.
        let style = ("sans-serif", 28).into_font().color(&BLACK);
        let note = format!(
            "No solved deal in this database ({} mode): no lengths to draw",
            r.mode
        );
        root.draw(&Text::new(note, (60, SIZE.1 as i32 / 2 - 14), style))?;
        root.present()?;
        return Ok(());
    }
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "Solution lengths, {} ({} mode)",
                plural(r.solved, "solved deal"),
                r.mode
            ),
            ("sans-serif", 24),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(xmin.saturating_sub(1)..xmax, 0u64..ymax + ymax / 10 + 1)?;
    chart
        .configure_mesh()
        .x_desc("moves in the solution")
        .y_desc("deals")
        .label_style(("sans-serif", 16))
        .draw()?;
    // A game of the family has no single-card counts: no empty series in the legend.
    for (name, h, color) in series.into_iter().filter(|s| !s.1.is_empty()) {
        // A dot on each length some deal has: a line needs two points, and one deal (or all
        // of one length) drew nothing.
        chart.draw_series(
            h.iter()
                .filter(|p| p.1 > 0)
                .map(|&p| Circle::new(p, 3, color.filled())),
        )?;
        chart
            .draw_series(LineSeries::new(zero_filled(h), color.stroke_width(2)))?
            .label(name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 16))
        .draw()?;
    root.present()?;
    Ok(())
}

/// Buckets per tenfold of CPU time in the CPU picture.
const BUCKETS_PER_DECADE: f64 = 10.0;

/// Deals per CPU time (log scale), all verdicts.
fn draw_cpu(r: &Report, rgb: &mut [u8]) -> Result<()> {
    let Some(cpu) = &r.cpu_ms else {
        bail!("the database holds no rows");
    };
    // Rows per bucket of a tenth of a decade, from the report's counts.
    let lo = 1e-3f64;
    let bucket = |ms: f64| ((ms.max(lo) / lo).log10() * BUCKETS_PER_DECADE).floor() as usize;
    let last = bucket(cpu.max.max(lo));
    let mut counts = vec![0u64; last + 1];
    for &(ms, n) in &r.cpu_ms_counts {
        counts[bucket(ms).min(last)] += n;
    }
    let centre = |k: usize| lo * 10f64.powf((k as f64 + 0.5) / BUCKETS_PER_DECADE);
    let points: Vec<(f64, u64)> = counts
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(k, n)| (centre(k), *n))
        .collect();
    let xmin = points.first().map_or(lo, |p| p.0 / 1.5);
    let xmax = points.last().map_or(1.0, |p| p.0 * 1.5);
    let ymax = points.iter().map(|p| p.1).max().unwrap_or(1);
    let root = BitMapBackend::with_buffer(rgb, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "CPU per deal, {} ({} mode): mean {:.3} ms, p99 {:.3} ms, max {:.1} ms",
                plural(cpu.count, "deal"),
                r.mode,
                cpu.mean,
                cpu.p99,
                cpu.max
            ),
            ("sans-serif", 22),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d((xmin..xmax).log_scale(), (1u64..ymax * 2).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("CPU milliseconds per deal (log scale)")
        .y_desc("deals (log scale)")
        .label_style(("sans-serif", 16))
        .draw()?;
    chart.draw_series(LineSeries::new(
        points.iter().copied(),
        BLUE.stroke_width(2),
    ))?;
    chart.draw_series(points.iter().map(|p| Circle::new(*p, 3, BLUE.filled())))?;
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lengths no deal has are drawn at 0 deals (3 deals must not read as one at every
    /// length between them).
    #[test]
    fn lengths_between_are_zero() {
        assert_eq!(
            zero_filled(&[(81, 1), (84, 2), (85, 1)]),
            [(81, 1), (82, 0), (83, 0), (84, 2), (85, 1)]
        );
        assert!(zero_filled(&[]).is_empty());
        assert_eq!(zero_filled(&[(7, 3)]), [(7, 3)]);
    }
}
