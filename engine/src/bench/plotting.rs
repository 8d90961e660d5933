//! What every PNG chart (plotters, bitmap backend; cargo feature `plot`) shares: the font,
//! the date in titles, and the writer that marks the file as fcauto's ([`save_png`]). Used by
//! `batch report --plot` and `bench --plot`.
//!
//! Text is drawn with a TrueType font read from the system at run time: DejaVu Sans
//! (Debian's `fonts-dejavu-core`, installed by `scripts/setup-deps.sh`), or the file named by
//! `FCAUTO_FONT`.

use anyhow::{bail, Context, Result};
use plotters::style::FontStyle;
use std::path::Path;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Write the picture `rgb` (8-bit RGB, `size` pixels wide and high) to `file` as a PNG whose
/// `Software` text is `mark` (what tells a later run that the file is fcauto's,
/// [`crate::render::png::has_software_mark`]).
///
/// # Errors
/// `file` is not a file, or cannot be written (named).
pub fn save_png(rgb: &[u8], size: (u32, u32), file: &Path, mark: &str) -> Result<()> {
    if file.exists() && !file.is_file() {
        bail!("cannot write {}: it is not a file", file.display());
    }
    let write = || -> Result<()> {
        let out = std::io::BufWriter::new(std::fs::File::create(file)?);
        let mut png = png::Encoder::new(out, size.0, size.1);
        png.set_color(png::ColorType::Rgb);
        png.set_depth(png::BitDepth::Eight);
        png.add_text_chunk("Software".into(), mark.into())?;
        let mut w = png.write_header()?;
        w.write_image_data(rgb)?;
        w.finish()?;
        Ok(())
    };
    write().with_context(|| format!("cannot write {}", file.display()))
}

/// Where a sans-serif TrueType font is looked for, in order (after `FCAUTO_FONT`).
pub const FONT_PATHS: [&str; 4] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
];

/// Load the font once and hand it to plotters as "sans-serif". Errors: no font file found
/// (the message says what to install), or one plotters cannot read.
pub fn register_font() -> Result<()> {
    static DONE: OnceLock<std::result::Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        let candidates: Vec<PathBuf> = std::env::var_os("FCAUTO_FONT")
            .map(PathBuf::from)
            .into_iter()
            .chain(FONT_PATHS.iter().map(PathBuf::from))
            .collect();
        let Some((path, bytes)) = candidates
            .iter()
            .find_map(|p| std::fs::read(p).ok().map(|b| (p, b)))
        else {
            return Err(format!(
                "no font to draw text with: install DejaVu Sans (Debian: apt-get install \
                 fonts-dejavu-core) or set FCAUTO_FONT to a .ttf file (looked at {})",
                FONT_PATHS.join(", ")
            ));
        };
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).map_err(|_| {
            format!(
                "{} is not a TrueType font plotters can read",
                path.display()
            )
        })
    })
    .clone()
    .map_err(anyhow::Error::msg)
}

/// Today's date (UTC) as `YYYY-MM-DD`, for chart titles.
pub fn today_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_from_days() {
        assert_eq!(super::civil_from_days(0), (1970, 1, 1));
        assert_eq!(super::civil_from_days(20_787), (2026, 11, 30));
        assert_eq!(super::civil_from_days(11_016), (2000, 2, 29));
    }
}
