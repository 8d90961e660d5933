//! The SVG writer: a position as an SVG 1.1 document, written directly.

use super::{
    card_label, cascade_rect, foundation_slot, freecell_slot, highlight_rects, layout_height,
    longest_cascade, place_cards, rank_label, suit_symbol, Options, Rect, CAPTION_H, CARD_H,
    CARD_W, GAP, LAYOUT_WIDTH, MAX_WIDTH, MIN_WIDTH,
};
use fcauto_deals::{Board, Card, Suit};
use std::fmt::Write;

/// Table and card colours.
const TABLE: &str = "#176b3a";
/// [`TABLE`] as red, green, blue: the PNG's ground under the picture.
#[cfg(feature = "png")]
pub(super) const TABLE_RGB: [u8; 3] = [0x17, 0x6b, 0x3a];
const RED: &str = "#c8102e";
const BLACK: &str = "#111111";
const MARK: &str = "#ffb000";

/// `board` as an SVG document (UTF-8 text, one `<svg>` element) `opts.width` pixels wide
/// (clamped to [`MIN_WIDTH`]..=[`MAX_WIDTH`]), as tall as its longest cascade needs; with
/// `opts.highlight`, the move's source and destination are outlined and joined by an arrow.
/// Any [`Board`] can be drawn (cards missing or doubled are drawn as they are; cascades past
/// the eighth are left out). The element structure is described in [`crate::render`].
pub fn svg(board: &Board, opts: &Options) -> String {
    svg_with_rows(board, opts, longest_cascade(board))
}

/// [`svg`] with room for `rows` cards in a cascade (at least the longest one), so that the
/// positions of one solution share one size.
pub(crate) fn svg_with_rows(board: &Board, opts: &Options, rows: usize) -> String {
    let rects = opts.highlight.map(|m| highlight_rects(board, &m));
    // Room for the highlight too: cards that left the longest cascade are outlined below it.
    let marked_bottom = rects.map_or(0, |r| r[0].bottom().max(r[1].bottom()) + GAP);
    let drawn = layout_height(rows.max(longest_cascade(board))).max(marked_bottom);
    let h = drawn + if opts.caption.is_some() { CAPTION_H } else { 0 };
    let width = opts.width.clamp(MIN_WIDTH, MAX_WIDTH);
    let height = (width as i64 * h as i64 + LAYOUT_WIDTH as i64 / 2) / LAYOUT_WIDTH as i64;
    let mut s = String::with_capacity(24 * 1024);
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {LAYOUT_WIDTH} {h}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"##
    );
    let home: u32 = board.foundations.iter().map(|&f| f.min(13) as u32).sum();
    let _ = write!(
        s,
        "<title>FreeCell position, {home} of 52 cards home</title>"
    );
    let _ = write!(
        s,
        r##"<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{MARK}"/></marker></defs>"##
    );
    let _ = write!(
        s,
        r##"<rect width="{LAYOUT_WIDTH}" height="{h}" fill="{TABLE}"/>"##
    );
    write_slots(&mut s, board);
    s.push_str(r#"<g id="cards">"#);
    for p in place_cards(board) {
        write_card(&mut s, p.card, p.x, p.y);
    }
    s.push_str("</g>");
    write_highlight(&mut s, rects);
    if let Some(text) = opts.caption {
        let _ = write!(
            s,
            r##"<text id="caption" x="{GAP}" y="{}" font-size="14" fill="#ffffff" fill-opacity="0.85">{}</text>"##,
            drawn + CAPTION_H / 2,
            escape(text)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// `text` with the characters SVG's markup gives a meaning escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The empty places: freecell slots (labelled a-d inside and above), foundation slots (with
/// their suit, `h` above, and `data-top`, the rank of their top card) and the cascade bases
/// (labelled 1-8 above).
fn write_slots(s: &mut String, board: &Board) {
    let outline = |s: &mut String, r: Rect| {
        let _ = write!(
            s,
            r##"<rect x="{}" y="{}" width="{}" height="{}" rx="5" fill="none" stroke="#ffffff" stroke-opacity="0.45" stroke-width="1.5"/>"##,
            r.x, r.y, r.w, r.h
        );
    };
    // The strip just above a slot, for its label (nearer the slot than the row above).
    let above = |r: Rect| Rect {
        y: r.y - 16,
        h: 12,
        ..r
    };
    let label = |s: &mut String, r: Rect, text: &str, size: i32| {
        let (cx, cy) = r.centre();
        let _ = write!(
            s,
            r##"<text x="{cx}" y="{}" font-size="{size}" text-anchor="middle" fill="#ffffff" fill-opacity="0.45">{text}</text>"##,
            cy + size / 3
        );
    };
    for j in 0..4 {
        let r = freecell_slot(j);
        let _ = write!(
            s,
            r#"<g class="freecell" data-slot="{}">"#,
            (b'a' + j as u8) as char
        );
        outline(s, r);
        let letter = ((b'a' + j as u8) as char).to_string();
        label(s, r, &letter, 18);
        label(s, above(r), &letter, 13);
        s.push_str("</g>");
    }
    for suit in Suit::ALL {
        let r = foundation_slot(suit);
        let top = board.foundations[suit.index()].min(13);
        let top = fcauto_deals::Rank::new(top)
            .map(|rk| rank_label(Card::new(rk, suit)))
            .unwrap_or_default();
        let _ = write!(
            s,
            r#"<g class="foundation" data-suit="{}" data-top="{top}">"#,
            suit.letter()
        );
        outline(s, r);
        label(s, r, &suit_symbol(suit).to_string(), 30);
        label(s, above(r), "h", 13);
        s.push_str("</g>");
    }
    for i in 0..8 {
        let r = cascade_rect(i, 0, 1);
        let _ = write!(s, r#"<g class="cascade-base" data-cascade="{}">"#, i + 1);
        outline(s, r);
        label(s, above(r), &(i + 1).to_string(), 13);
        s.push_str("</g>");
    }
}

/// One card at `(x, y)`: a white rounded rectangle, rank and suit in the top-left corner
/// (visible when fanned), and a large suit symbol in the middle.
pub(crate) fn write_card(s: &mut String, card: Card, x: i32, y: i32) {
    let colour = if card.is_red() { RED } else { BLACK };
    let sym = suit_symbol(card.suit());
    let _ = write!(
        s,
        r##"<g class="card" id="card-{card}" data-card="{card}" transform="translate({x} {y})"><title>{label}</title><rect width="{CARD_W}" height="{CARD_H}" rx="5" fill="#fdfdf8" stroke="#333333" stroke-width="1"/><text x="4" y="17" font-size="16" font-weight="bold" fill="{colour}">{rank}{sym}</text><text x="{cx}" y="{cy}" font-size="34" text-anchor="middle" fill="{colour}">{sym}</text></g>"##,
        label = card_label(card),
        rank = rank_label(card),
        cx = CARD_W / 2,
        cy = CARD_H / 2 + 20,
    );
}

/// The highlight group `#hl`: the source outlined (dashed), the destination outlined, an
/// arrow between their centres. Written hidden when there is nothing to highlight (the
/// replay page shows it per step).
pub(crate) fn write_highlight(s: &mut String, rects: Option<[Rect; 2]>) {
    let hidden = Rect {
        x: 0,
        y: 0,
        w: 0,
        h: 0,
    };
    let [a, b] = rects.unwrap_or([hidden, hidden]);
    let vis = if rects.is_some() { "visible" } else { "hidden" };
    let (x1, y1) = a.centre();
    let (x2, y2) = b.centre();
    let _ = write!(
        s,
        r##"<g id="hl" visibility="{vis}" fill="none" stroke="{MARK}" stroke-width="4"><rect id="hl-from" x="{}" y="{}" width="{}" height="{}" rx="6" stroke-dasharray="8 5"/><rect id="hl-to" x="{}" y="{}" width="{}" height="{}" rx="6"/><line id="hl-arrow" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke-opacity="0.9" marker-end="url(#arrowhead)"/></g>"##,
        a.x - 3,
        a.y - 3,
        a.w + 6,
        a.h + 6,
        b.x - 3,
        b.y - 3,
        b.w + 6,
        b.h + 6,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::ms_deal;
    use fcauto_solver::{Loc, Move, PlayedMove};

    #[test]
    fn width_sets_the_pixel_size_and_is_clamped() {
        let b = ms_deal(1).unwrap();
        let s = svg(
            &b,
            &Options {
                width: 570 * 2,
                ..Options::default()
            },
        );
        assert!(s.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="1140" "#));
        let s = svg(
            &b,
            &Options {
                width: 5,
                ..Options::default()
            },
        );
        assert!(s.contains(&format!(r#"width="{MIN_WIDTH}""#)));
    }

    /// The baseline of the label text inside the `<g>` that opens with `open`.
    fn label_y(svg: &str, open: &str) -> i32 {
        let g = &svg[svg.find(open).unwrap()..];
        let g = &g[..g.find("</g>").unwrap()];
        // The last text of the group is the label above the slot.
        let t = &g[g.rfind("<text").unwrap()..];
        let y = &t[t.find(" y=\"").unwrap() + 4..];
        y[..y.find('"').unwrap()].parse().unwrap()
    }

    /// Each row's labels sit above it, the cascade numbers nearer their cascades than the
    /// row above (they were halfway, and read as the freecells' labels).
    #[test]
    fn labels_sit_above_their_row_nearer_it_than_the_row_above() {
        let s = svg(&ms_deal(617).unwrap(), &Options::default());
        let top_bottom = freecell_slot(0).bottom();
        for i in 1..=8 {
            let y = label_y(&s, &format!(r#"data-cascade="{i}">"#));
            let cascade_top = cascade_rect(i - 1, 0, 1).y;
            assert!(y < cascade_top && y > top_bottom, "cascade {i}: {y}");
            assert!(cascade_top - y < (y - top_bottom) / 2, "cascade {i}: {y}");
        }
        for (open, text) in [(r#"data-slot="c">"#, "c"), (r#"data-suit="H""#, "h")] {
            let y = label_y(&s, open);
            assert!(y < freecell_slot(0).y && y > 0, "{open}: {y}");
            let g = &s[s.find(open).unwrap()..];
            assert!(g[..g.find("</g>").unwrap()].ends_with(&format!(">{text}</text>")));
        }
    }

    /// A caption is one text line under the picture, escaped, which makes it taller; none
    /// without one.
    #[test]
    fn a_caption_is_a_line_under_the_picture() {
        let b = ms_deal(617).unwrap();
        let plain = svg(&b, &Options::default());
        let captioned = svg(
            &b,
            &Options {
                caption: Some("deal 617 <after> & more"),
                ..Options::default()
            },
        );
        assert!(!plain.contains(r#"id="caption""#));
        assert!(captioned.contains(r#"id="caption""#));
        assert!(captioned.contains(">deal 617 &lt;after&gt; &amp; more</text>"));
        let view_h = |s: &str| -> i32 {
            let v = &s[s.find("viewBox=\"0 0 ").unwrap() + 13..];
            let v = &v[..v.find('"').unwrap()];
            v.split(' ').nth(1).unwrap().parse().unwrap()
        };
        assert_eq!(view_h(&captioned), view_h(&plain) + CAPTION_H);
    }

    #[test]
    fn a_highlight_is_drawn_visible_around_both_ends() {
        let b = ms_deal(617).unwrap();
        let card = *b.cascades[2].last().unwrap();
        let m = PlayedMove {
            mv: Move {
                from: Loc::Cascade(2),
                to: Loc::Freecell(0),
                count: 1,
            },
            card,
        };
        let s = svg(
            &b,
            &Options {
                highlight: Some(m),
                ..Options::default()
            },
        );
        assert!(s.contains(r#"<g id="hl" visibility="visible""#));
        let [from, to] = highlight_rects(&b, &m);
        assert_eq!(to, freecell_slot(0));
        assert_eq!(from, cascade_rect(2, b.cascades[2].len() - 1, 1));
        assert!(!svg(&b, &Options::default()).contains(r#"visibility="visible""#));
    }
}
