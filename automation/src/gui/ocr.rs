//! OCR of window text (title bar, status bar, dialogs) with tesseract through leptess.

use std::io::Cursor;

use image::RgbaImage;
use leptess::LepTess;

use super::screen::{crop, Rect};
use super::GuiError;

/// Text read from a screen region and tesseract's mean word confidence (0..=100).
#[derive(Clone, Debug, serde::Serialize)]
pub struct OcrText {
    /// The text, whitespace runs collapsed to one space.
    pub text: String,
    /// `TessBaseAPIMeanTextConf`, 0..=100.
    pub confidence: i32,
}

/// A tesseract engine for English (`tesseract-ocr-eng`).
pub struct Ocr {
    tess: LepTess,
}

impl Ocr {
    /// Start tesseract with the `eng` language data.
    /// Errors: tesseract or its English data missing (names the setup script).
    pub fn new() -> Result<Ocr, GuiError> {
        let tess = LepTess::new(None, "eng").map_err(|e| {
            GuiError::Ocr(format!("tesseract with English data is not available ({e}); run scripts/setup-deps.sh --gui"))
        })?;
        Ok(Ocr { tess })
    }

    /// Read the text in `rect` of `shot`, scaled up 3× (small UI fonts read much better).
    pub fn read(&mut self, shot: &RgbaImage, rect: Rect) -> Result<OcrText, GuiError> {
        let part = crop(shot, rect);
        let big = image::imageops::resize(
            &part,
            part.width() * 3,
            part.height() * 3,
            image::imageops::FilterType::CatmullRom,
        );
        let mut png = Vec::new();
        image::DynamicImage::ImageRgba8(big)
            .to_rgb8()
            .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .map_err(|e| GuiError::Ocr(format!("encode crop: {e}")))?;
        self.tess
            .set_image_from_mem(&png)
            .map_err(|e| GuiError::Ocr(format!("leptonica: {e}")))?;
        self.tess.set_source_resolution(300);
        let text = self
            .tess
            .get_utf8_text()
            .map_err(|e| GuiError::Ocr(format!("tesseract text: {e}")))?;
        Ok(OcrText {
            text: text.split_whitespace().collect::<Vec<_>>().join(" "),
            confidence: self.tess.mean_text_conf(),
        })
    }
}

/// The moves counter `index/total` (e.g. `12/12`) in a status-bar text, if present.
pub fn moves_counter(text: &str) -> Option<(u32, u32)> {
    text.split_whitespace().find_map(|w| {
        let (a, b) = w.split_once('/')?;
        Some((
            a.trim_matches(|c: char| !c.is_ascii_digit()).parse().ok()?,
            b.trim_matches(|c: char| !c.is_ascii_digit()).parse().ok()?,
        ))
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn moves_counter_parses_index_and_total() {
        assert_eq!(
            super::moves_counter("0:03 12/15 #ms617 0: 0/0"),
            Some((12, 15))
        );
        assert_eq!(super::moves_counter("#ms617"), None);
    }
}
