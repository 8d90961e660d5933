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

    /// Read the text in `rect` of `shot`. The crop is turned to grey, scaled up 4× and
    /// thresholded at `threshold` (0..=255) into black text on white (`light_text`: the text is
    /// the bright part, as in a window-manager title bar); UI text reads far better so.
    /// `single_line` selects tesseract's page segmentation mode 7 (one text line) instead of 3.
    pub fn read_mode(
        &mut self,
        shot: &RgbaImage,
        rect: Rect,
        single_line: bool,
        threshold: u8,
        light_text: bool,
    ) -> Result<OcrText, GuiError> {
        let part = image::DynamicImage::ImageRgba8(crop(shot, rect)).to_luma8();
        let (w, h) = part.dimensions();
        let mut big =
            image::imageops::resize(&part, w * 4, h * 4, image::imageops::FilterType::CatmullRom);
        for p in big.pixels_mut() {
            p.0[0] = if (p.0[0] >= threshold) != light_text {
                255
            } else {
                0
            };
        }
        let mut png = Vec::new();
        big.write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .map_err(|e| GuiError::Ocr(format!("encode crop: {e}")))?;
        self.tess
            .set_image_from_mem(&png)
            .map_err(|e| GuiError::Ocr(format!("leptonica: {e}")))?;
        self.tess.set_source_resolution(300);
        let psm = if single_line { "7" } else { "3" };
        self.tess
            .set_variable(leptess::Variable::TesseditPagesegMode, psm)
            .map_err(|_| GuiError::Ocr("cannot set tesseract page segmentation mode".into()))?;
        let text = self
            .tess
            .get_utf8_text()
            .map_err(|e| GuiError::Ocr(format!("tesseract text: {e}")))?;
        Ok(OcrText {
            text: text.split_whitespace().collect::<Vec<_>>().join(" "),
            confidence: self.tess.mean_text_conf(),
        })
    }

    /// One line of dark text on a light Tk widget (status bar): threshold 60 %.
    pub fn read(&mut self, shot: &RgbaImage, rect: Rect) -> Result<OcrText, GuiError> {
        self.read_mode(shot, rect, true, 153, false)
    }

    /// One line of light text on a coloured title bar (openbox's default theme): threshold 80 %.
    pub fn read_title(&mut self, shot: &RgbaImage, rect: Rect) -> Result<OcrText, GuiError> {
        self.read_mode(shot, rect, true, 204, true)
    }

    /// A block of dark text (a dialog): threshold 60 %, automatic page segmentation.
    pub fn read_block(&mut self, shot: &RgbaImage, rect: Rect) -> Result<OcrText, GuiError> {
        self.read_mode(shot, rect, false, 153, false)
    }
}

/// The moves counter `index/total` (e.g. `12/12`) in a status-bar text: the first
/// `N/N` token before the game number `#ms…` (the `won/lost` field comes after it).
pub fn moves_counter(text: &str) -> Option<(u32, u32)> {
    let head = text.split('#').next().unwrap_or(text);
    head.split_whitespace().find_map(|w| {
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
        assert_eq!(super::moves_counter("| 0:05 | 5s #ms617 0: 0/0"), None);
    }
}
