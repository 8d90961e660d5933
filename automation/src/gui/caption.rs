//! The caption strip under an evidence screenshot: what fcauto's recognition read from that
//! very screenshot (the game and its number, the cascades as card tokens, the freecells and
//! foundations), in plain black text on white, so that anyone can check the picture with
//! plain OCR (`tesseract view_pysol_initial.png -`), which cannot read PySolFC's small title
//! and status bars on green or the cards themselves.
//!
//! Text is drawn in DejaVu Sans (Debian's fonts-dejavu-core, which `scripts/setup-deps.sh
//! --gui` installs), rasterised by ab_glyph.

use ab_glyph::{point, Font, FontVec, PxScale, PxScaleFont, ScaleFont};
use fcauto_deals::{Card, Rank, Suit};
use image::{Rgba, RgbaImage};

use super::recognize::SeenBoard;
use super::GuiError;

/// Where the caption font is looked for, first found wins.
const FONT_PATHS: [&str; 3] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
];
/// Text height in pixels: large enough for tesseract's default page segmentation to read
/// two-character card tokens without a miss.
const TEXT_PX: f32 = 24.0;
/// Line pitch and margins, in pixels.
const LINE_PX: u32 = 32;
const MARGIN_PX: u32 = 16;

/// Between card tokens: two spaces, so that OCR does not run two tokens together (`7CJC`).
const SEP: &str = "  ";

/// An empty freecell or foundation: a word, which OCR reads where it misses a lone `-`.
const EMPTY: &str = "empty";

/// The first line of every caption: says whose reading the strip is.
pub const CAPTION_HEAD: &str = "fcauto's reading of the screenshot above";

/// The cascades' numbers as words, the 1st to the 10th (Seahaven Towers has 10 cascades).
const NUMBER_WORDS: [&str; 10] = [
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
];

/// The label of cascade `i` (counted from 0) in a caption line: `cascade one`, `cascade
/// two`, ... The number is a word, not a digit: labels of one width (`cascade 1:` to
/// `cascade 8:`) put the first card of every line at the same place, and tesseract's page
/// layout analysis took that straight gap down the strip for a gutter between two columns
/// (it read the labels, then the cards, each cascade's line torn apart). Words of 3 to 5
/// letters leave no such gap, whatever the picture's width.
pub fn cascade_label(i: usize) -> String {
    match NUMBER_WORDS.get(i) {
        Some(w) => format!("cascade {w}"),
        None => format!("cascade {}", i + 1),
    }
}

/// The lines of a caption for a board read from the screen: `title` (the game and its
/// number, as `FreeCell game ms617`), then one line per cascade (`cascade one:  7D  AD  5C
/// ...`, deepest card first, see [`cascade_label`]), the freecells and the foundations' top
/// cards (`empty` for an empty slot or foundation).
pub fn board_lines(title: &str, seen: &SeenBoard) -> Vec<String> {
    let mut lines = vec![CAPTION_HEAD.to_string(), title.to_string()];
    for (i, col) in seen.cascades.iter().enumerate() {
        let cards: Vec<String> = col.iter().map(|(c, _)| c.to_string()).collect();
        let cards = if cards.is_empty() {
            EMPTY.to_string()
        } else {
            cards.join(SEP)
        };
        lines.push(format!("{}:{SEP}{cards}", cascade_label(i)));
    }
    let cells: Vec<String> = seen
        .freecells
        .iter()
        .map(|c| c.map_or(EMPTY.to_string(), |(c, _)| c.to_string()))
        .collect();
    lines.push(format!("freecells:{SEP}{}", cells.join(SEP)));
    lines.push(foundations_line(&seen.foundations));
    lines
}

/// The lines of a caption at the win: `title`, then the foundations' four top cards
/// (`foundations: KC KD KH KS`) and how many cards are left in the cascades and freecells.
pub fn won_lines(title: &str, seen: &SeenBoard) -> Vec<String> {
    let left =
        seen.cascades.iter().map(Vec::len).sum::<usize>() + seen.freecells.iter().flatten().count();
    vec![
        CAPTION_HEAD.to_string(),
        title.to_string(),
        foundations_line(&seen.foundations),
        format!("cards left in cascades and freecells: {left}"),
    ]
}

/// `foundations:  KC  5D  empty  AS`: each suit's top card in the order C, D, H, S.
fn foundations_line(foundations: &[u8; 4]) -> String {
    let tops: Vec<String> = Suit::ALL
        .iter()
        .zip(foundations)
        .map(|(&s, &n)| Rank::new(n).map_or(EMPTY.to_string(), |r| Card::new(r, s).to_string()))
        .collect();
    format!("foundations:{SEP}{}", tops.join(SEP))
}

/// The caption font (DejaVu Sans), read from the system's font directory.
pub fn caption_font() -> Result<FontVec, GuiError> {
    let path = FONT_PATHS
        .iter()
        .find(|p| std::path::Path::new(p).is_file())
        .ok_or_else(|| {
            GuiError::Evidence(format!(
                "no caption font: none of {} exists (install fonts-dejavu-core)",
                FONT_PATHS.join(", ")
            ))
        })?;
    let bytes = std::fs::read(path).map_err(|e| GuiError::Evidence(format!("{path}: {e}")))?;
    FontVec::try_from_vec(bytes).map_err(|e| GuiError::Evidence(format!("{path}: {e}")))
}

/// `shot` with a white strip beneath it holding `lines` in black: the picture is widened
/// when a line is wider than the screenshot, the screenshot itself kept pixel for pixel.
pub fn with_caption(shot: &RgbaImage, lines: &[String], font: &FontVec) -> RgbaImage {
    let scaled = font.as_scaled(PxScale::from(TEXT_PX));
    let text_w = lines
        .iter()
        .map(|l| {
            l.chars()
                .map(|c| scaled.h_advance(scaled.glyph_id(c)))
                .sum::<f32>()
        })
        .fold(0.0f32, f32::max)
        .ceil() as u32;
    let width = shot.width().max(text_w + 2 * MARGIN_PX);
    let strip = 2 * MARGIN_PX + LINE_PX * lines.len() as u32;
    let mut out = RgbaImage::from_pixel(width, shot.height() + strip, Rgba([255, 255, 255, 255]));
    image::imageops::replace(&mut out, shot, 0, 0);
    for (i, line) in lines.iter().enumerate() {
        let baseline = (shot.height() + MARGIN_PX + LINE_PX * i as u32) as f32 + scaled.ascent();
        draw_line(&mut out, &scaled, MARGIN_PX as f32, baseline, line);
    }
    out
}

/// Draw `text` in black on `out`, starting at `x` on the baseline `baseline`: each glyph's
/// coverage darkens the pixel under it.
fn draw_line(out: &mut RgbaImage, font: &PxScaleFont<&FontVec>, x: f32, baseline: f32, text: &str) {
    let mut pen = x;
    for c in text.chars() {
        let glyph = font.scaled_glyph(c);
        let advance = font.h_advance(glyph.id);
        let glyph = ab_glyph::Glyph {
            position: point(pen, baseline),
            ..glyph
        };
        pen += advance;
        let Some(outline) = font.font().outline_glyph(glyph) else {
            continue;
        };
        let bounds = outline.px_bounds();
        outline.draw(|gx, gy, coverage| {
            let (px, py) = (
                bounds.min.x as i64 + gx as i64,
                bounds.min.y as i64 + gy as i64,
            );
            if px < 0 || py < 0 || px >= out.width() as i64 || py >= out.height() as i64 {
                return;
            }
            let p = out.get_pixel_mut(px as u32, py as u32);
            let keep = 1.0 - coverage.clamp(0.0, 1.0);
            for ch in &mut p.0[..3] {
                *ch = (*ch as f32 * keep).round() as u8;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::{deal_game, ms_deal, Game, Layout, PysolNumber};

    fn seen_of(board: &fcauto_deals::Board) -> SeenBoard {
        seen_of_layout(&Layout::from_board(board, 4))
    }

    fn seen_of_layout(layout: &Layout) -> SeenBoard {
        SeenBoard {
            cascades: layout
                .cascades
                .iter()
                .map(|c| c.iter().map(|&c| (c, 1.0)).collect())
                .collect(),
            freecells: layout
                .freecells
                .iter()
                .map(|c| c.map(|c| (c, 1.0)))
                .collect(),
            foundations: layout.foundations,
            unreadable: Vec::new(),
        }
    }

    #[test]
    fn lines_name_every_card_and_the_foundations() {
        let b = ms_deal(617).unwrap();
        let lines = board_lines("FreeCell game ms617", &seen_of(&b));
        assert_eq!(lines[0], CAPTION_HEAD);
        assert_eq!(lines[2], "cascade one:  7D  TD  TH  KD  4C  4S  JD");
        assert_eq!(lines[9], "cascade eight:  AH  KH  TC  JS  2S  QH");
        assert_eq!(lines[10], "freecells:  empty  empty  empty  empty");
        assert_eq!(lines[11], "foundations:  empty  empty  empty  empty");
        let mut won = seen_of(&b);
        won.cascades.iter_mut().for_each(Vec::clear);
        won.foundations = [13, 13, 12, 1];
        let lines = won_lines("FreeCell game ms617", &won);
        assert_eq!(lines[2], "foundations:  KC  KD  QH  AS");
        assert_eq!(lines[3], "cards left in cascades and freecells: 0");
    }

    #[test]
    fn caption_keeps_the_screenshot_and_widens_for_long_lines() {
        let Ok(font) = caption_font() else {
            eprintln!("skipped: no DejaVu Sans (install fonts-dejavu-core)");
            return;
        };
        let shot = RgbaImage::from_pixel(100, 50, Rgba([0, 128, 0, 255]));
        let lines = vec!["a line much wider than one hundred pixels".to_string()];
        let out = with_caption(&shot, &lines, &font);
        assert!(out.width() > 100);
        assert_eq!(out.height(), 50 + 2 * MARGIN_PX + LINE_PX);
        assert_eq!(out.get_pixel(99, 49), &Rgba([0, 128, 0, 255]));
        let dark = (50..out.height())
            .flat_map(|y| (0..out.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| out.get_pixel(x, y)[0] < 128)
            .count();
        assert!(dark > 100, "text drawn: {dark} dark pixels");
    }

    /// What plain OCR reads from a picture, as any reader would run it: `tesseract FILE -`.
    /// `None` when the tesseract program is not installed.
    pub(crate) fn plain_ocr(picture: &RgbaImage) -> Option<String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("picture.png");
        picture.save(&path).unwrap();
        let out = std::process::Command::new("tesseract")
            .arg(&path)
            .arg("-")
            .output()
            .ok()?;
        Some(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// PySolFC's window showing FreeCell #ms617 (a committed screenshot, 733 by 589
    /// pixels), cut or widened with table green to `width` pixels, as the screenshot above
    /// the strip of a game whose window is that wide.
    fn window(width: u32) -> RgbaImage {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/gui/openbox-ms617-start.png"
        );
        let shot = image::open(path)
            .unwrap_or_else(|e| panic!("{path}: {e}"))
            .to_rgba8();
        let mut out = RgbaImage::from_pixel(width, shot.height(), Rgba([0, 128, 0, 255]));
        image::imageops::replace(&mut out, &shot, 0, 0);
        out
    }

    /// Whitespace collapsed to single spaces.
    fn words(t: &str) -> String {
        t.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// Plain OCR of the caption of `seen` under PySolFC's window `width` pixels wide reads the head,
    /// the title and every line after it whole (each cascade's label with its cards).
    /// `false` when tesseract is not installed.
    fn reads_every_line(font: &FontVec, title: &str, seen: &SeenBoard, width: u32) -> bool {
        let lines = board_lines(title, seen);
        let Some(text) = plain_ocr(&with_caption(&window(width), &lines, font)) else {
            eprintln!("skipped: no tesseract program");
            return false;
        };
        assert!(text.contains(title), "{text}");
        assert!(text.contains("fcauto's reading"), "{text}");
        let read = words(&text);
        for line in &lines[2..] {
            let want = words(line);
            assert!(
                read.contains(&want),
                "{want:?} not read at width {width} in:\n{text}"
            );
        }
        true
    }

    /// Every caption line read whole by plain OCR, under PySolFC's window as narrow as
    /// FreeCell (2 Reserves)' (725 pixels) and as wide as Seahaven Towers' (811): FreeCell,
    /// FreeCell (2 Reserves) #40000 and Seahaven Towers' 10 cascades. With the cascades
    /// numbered by digits (`cascade 1:`), tesseract read #ms3000000000's 8 labels and cards
    /// under the 811-pixel window as two columns. At the win, the four kings.
    #[test]
    fn plain_ocr_reads_the_game_and_every_card_of_the_caption() {
        let Ok(font) = caption_font() else {
            eprintln!("skipped: no DejaVu Sans (install fonts-dejavu-core)");
            return;
        };
        let b = ms_deal(617).unwrap();
        if !reads_every_line(&font, "FreeCell game ms617", &seen_of(&b), 725) {
            return;
        }
        let big = ms_deal(3_000_000_000).unwrap();
        assert!(reads_every_line(
            &font,
            "FreeCell game ms3000000000",
            &seen_of(&big),
            811
        ));
        let game =
            |id: &str, n: &str| deal_game(Game::find(id).unwrap(), PysolNumber::parse(n).unwrap());
        let title = "FreeCell (2 Reserves) #40000 (game id 1900)";
        assert!(reads_every_line(
            &font,
            title,
            &seen_of_layout(&game("1900", "40000")),
            725
        ));
        let title = "Seahaven Towers #ms1 (game id 9)";
        assert!(reads_every_line(
            &font,
            title,
            &seen_of_layout(&game("9", "1")),
            811
        ));
        let mut won = seen_of(&b);
        won.cascades.iter_mut().for_each(Vec::clear);
        won.foundations = [13; 4];
        let lines = won_lines("FreeCell game ms617: won", &won);
        let text = plain_ocr(&with_caption(&window(725), &lines, &font)).unwrap();
        assert!(words(&text).contains("foundations: KC KD KH KS"), "{text}");
    }
}
