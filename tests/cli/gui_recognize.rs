//! Card recognition on committed real PySolFC screenshots (tests/fixtures/gui/).

use std::path::Path;

use fcauto_automation::gui::launch::CARDSET_DIR;
use fcauto_automation::gui::layout::Layout;
use fcauto_automation::gui::recognize::{read_board, CardImages};
use fcauto_automation::gui::screen::{game_origin, Rect};
use fcauto_deals::ms_deal;

use fcauto_automation::gui::image;

use crate::common;
use common::fixture_image as load;

fn setup() -> (Layout, CardImages) {
    let dir = Path::new(CARDSET_DIR);
    (
        Layout::from_cardset(dir).unwrap(),
        CardImages::load(dir).unwrap(),
    )
}

fn whole(img: &image::RgbaImage) -> Rect {
    Rect {
        x: 0,
        y: 0,
        w: img.width() as i32,
        h: img.height() as i32,
    }
}

#[test]
fn start_screenshot_reads_as_deal_617() {
    let (layout, imgs) = setup();
    let shot = load("screen-ms617-start.png");
    // 731x564 crop without a window manager: canvas at (+1,+33), game origin 10 px further in.
    let origin = game_origin(&shot, whole(&shot)).expect("table found");
    assert_eq!(origin, (11, 43));
    let seen = read_board(&shot, origin, &layout, &imgs);
    assert!(seen.unreadable.is_empty(), "{:?}", seen.unreadable);
    assert_eq!(seen.card_count(), 52);
    assert_eq!(seen.to_board(), ms_deal(617).unwrap());
    assert!(seen.min_score() > 0.95, "min score {}", seen.min_score());
    // another deal's layout must not match
    assert_ne!(seen.to_board(), ms_deal(618).unwrap());
}

#[test]
fn won_screenshot_shows_full_foundations() {
    let (layout, imgs) = setup();
    let shot = load("screen-ms617-won.png");
    let origin = game_origin(&shot, whole(&shot)).expect("table found");
    let seen = read_board(&shot, origin, &layout, &imgs);
    assert_eq!(seen.foundations, [13, 13, 13, 13]);
    assert!(seen.cascades.iter().all(Vec::is_empty));
    assert_eq!(seen.card_count(), 52);
}

/// A mid-game screenshot taken by `fcauto play --gui` under openbox (window frame included):
/// after 25 moves of the committed solution, with all four freecells and two foundations used.
#[test]
fn mid_game_openbox_screenshot_matches_the_solution_after_25_moves() {
    use fcauto_automation::gui::plan::{apply, played_moves};
    let (layout, imgs) = setup();
    let shot = load("openbox-ms617-step25.png");
    let origin = game_origin(&shot, whole(&shot)).expect("table found");
    let seen = read_board(&shot, origin, &layout, &imgs);
    assert!(seen.unreadable.is_empty(), "{:?}", seen.unreadable);

    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gui/ms617-solution.json"),
    )
    .unwrap();
    let (_, steps) = fcauto_solver::parse_json(&text).unwrap();
    let start = ms_deal(617).unwrap();
    let moves = played_moves(&start, &steps).unwrap();
    let mut board = start.clone();
    for (i, m) in moves[..25].iter().enumerate() {
        apply(&mut board, i + 1, m).unwrap();
    }
    assert_eq!(seen.to_board(), board);
    assert_eq!(seen.freecells.iter().flatten().count(), 4);
    assert!(seen.min_score() > 0.95);
    // one move later the screen would differ
    let mut next = board.clone();
    apply(&mut next, 26, &moves[25]).unwrap();
    assert_ne!(seen.to_board(), next);
}

#[test]
fn openbox_start_screenshot_with_frame_reads_as_deal_617() {
    let (layout, imgs) = setup();
    let shot = load("openbox-ms617-start.png");
    let origin = game_origin(&shot, whole(&shot)).expect("table found");
    let seen = read_board(&shot, origin, &layout, &imgs);
    assert_eq!(seen.to_board(), ms_deal(617).unwrap());
}
