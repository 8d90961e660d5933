//! OCR (tesseract through leptess) on committed real PySolFC screenshots.

use fcauto_automation::gui::image;
use fcauto_automation::gui::ocr::{moves_counter, Ocr};
use fcauto_automation::gui::screen::Rect;

use crate::common;
use common::fixture_image as load;

fn status_bar(img: &image::RgbaImage) -> Rect {
    Rect {
        x: 0,
        y: img.height() as i32 - 26,
        w: img.width() as i32,
        h: 26,
    }
}

#[test]
fn status_bar_shows_game_number_and_moves() {
    let mut ocr = Ocr::new().unwrap();
    let start = load("screen-ms617-start.png");
    let t = ocr.read(&start, status_bar(&start)).unwrap();
    assert!(t.text.contains("#ms617"), "{:?}", t.text);
    assert_eq!(moves_counter(&t.text), Some((0, 0)), "{:?}", t.text);
    let won = load("screen-ms617-won.png");
    let t = ocr.read(&won, status_bar(&won)).unwrap();
    assert_eq!(moves_counter(&t.text), Some((155, 155)), "{:?}", t.text);
}

#[test]
fn won_dialog_text_is_read() {
    let mut ocr = Ocr::new().unwrap();
    let won = load("screen-ms617-won.png");
    // the dialog's text column in this 731x564 crop
    let t = ocr
        .read_block(
            &won,
            Rect {
                x: 330,
                y: 150,
                w: 260,
                h: 170,
            },
        )
        .unwrap();
    assert!(t.text.contains("Congratulations"), "{:?}", t.text);
    assert!(t.text.contains("155 moves"), "{:?}", t.text);
}
