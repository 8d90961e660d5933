//! The SVG writer: a position as an SVG 1.1 document, written directly.

use super::{
    card_label, cascade_name, cell_name, highlight_rects, layout_height, place_cards, rank_label,
    suit_symbol, Options, Rect, View, CAPTION_H, CARD_H, CARD_W, GAP, MAX_WIDTH, MIN_WIDTH,
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
    svg_view(&View::board(board), opts)
}

/// [`svg`] of a position of any game of the family: its own cascades and freecells, and
/// its title in the picture's `<title>` (`Seahaven Towers position, 4 of 52 cards home`).
pub fn svg_view(view: &View, opts: &Options) -> String {
    svg_with_rows(view, opts, view.longest_cascade())
}

/// [`svg_view`] with room for `rows` cards in a cascade (at least the longest one), so that
/// the positions of one solution share one size.
pub(crate) fn svg_with_rows(view: &View, opts: &Options, rows: usize) -> String {
    let rects = opts.highlight.map(|m| highlight_rects(view, &m));
    // Room for the highlight too: cards that left the longest cascade are outlined below it.
    let marked_bottom = rects.map_or(0, |r| r[0].bottom().max(r[1].bottom()) + GAP);
    let drawn = layout_height(rows.max(view.longest_cascade())).max(marked_bottom);
    let lw = view.layout_width();
    let caption = opts
        .caption
        .map(|t| wrap_caption(t, lw))
        .unwrap_or_default();
    let h = drawn + CAPTION_H * caption.len() as i32;
    let width = opts.width.clamp(MIN_WIDTH, MAX_WIDTH);
    let height = (width as i64 * h as i64 + lw as i64 / 2) / lw as i64;
    let mut s = String::with_capacity(24 * 1024);
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {lw} {h}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"##
    );
    let _ = write!(
        s,
        "<title>{} position, {} of 52 cards home</title>",
        escape(view.title()),
        view.home()
    );
    let _ = write!(
        s,
        r##"<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{MARK}"/></marker></defs>"##
    );
    let _ = write!(s, r##"<rect width="{lw}" height="{h}" fill="{TABLE}"/>"##);
    write_slots(&mut s, view);
    s.push_str(r#"<g id="cards">"#);
    for p in place_cards(view) {
        write_card(&mut s, p.card, p.x, p.y);
    }
    s.push_str("</g>");
    write_highlight(&mut s, rects);
    write_caption(&mut s, &caption, drawn);
    s.push_str("</svg>\n");
    s
}

/// Layout units a caption character takes at most, about (DejaVu Sans at font size 14: its
/// digits are 0.64 em wide, most letters less).
const CAPTION_CHAR_W: i32 = 9;

/// `text` in lines that fit a picture `lw` layout units wide ([`CAPTION_CHAR_W`] a
/// character), broken at spaces: one line when it fits (a word longer than a line keeps a
/// line of its own).
fn wrap_caption(text: &str, lw: i32) -> Vec<String> {
    let max = ((lw - 2 * GAP) / CAPTION_CHAR_W).max(1) as usize;
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= max => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// The caption `lines` under the picture, whose drawing ends at `drawn`: one `<text
/// id="caption">`, its lines as `<tspan>`s when there are several.
fn write_caption(s: &mut String, lines: &[String], drawn: i32) {
    let y = drawn + CAPTION_H / 2;
    let open = format!(
        r##"<text id="caption" x="{GAP}" y="{y}" font-size="14" fill="#ffffff" fill-opacity="0.85">"##
    );
    match lines {
        [] => return,
        [one] => {
            let _ = write!(s, "{open}{}", escape(one));
        }
        _ => {
            s.push_str(&open);
            for (k, line) in lines.iter().enumerate() {
                let dy = if k == 0 { 0 } else { CAPTION_H };
                let _ = write!(s, r#"<tspan x="{GAP}" dy="{dy}">{}</tspan>"#, escape(line));
            }
        }
    }
    s.push_str("</text>");
}

/// `text` with the characters SVG's markup gives a meaning escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The empty places: freecell slots (labelled a-g, i inside and above), foundation slots
/// (with their suit, `h` above, and `data-top`, the rank of their top card) and the cascade
/// bases (labelled 1-9, 0 above; `data-cascade` counts from 1 to 10).
fn write_slots(s: &mut String, view: &View) {
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
    for j in 0..view.freecell_count() {
        let r = view.freecell_slot(j);
        let _ = write!(s, r#"<g class="freecell" data-slot="{}">"#, cell_name(j));
        outline(s, r);
        let letter = cell_name(j).to_string();
        label(s, r, &letter, 18);
        label(s, above(r), &letter, 13);
        s.push_str("</g>");
    }
    for suit in Suit::ALL {
        let r = view.foundation_slot(suit);
        let top = view.foundations()[suit.index()].min(13);
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
    for i in 0..view.cascade_count() {
        let r = view.cascade_rect(i, 0, 1);
        let _ = write!(s, r#"<g class="cascade-base" data-cascade="{}">"#, i + 1);
        outline(s, r);
        label(s, above(r), &cascade_name(i).to_string(), 13);
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
        a.x + HL_INSET,
        a.y + HL_INSET,
        a.w - 2 * HL_INSET,
        a.h - 2 * HL_INSET,
        b.x + HL_INSET,
        b.y + HL_INSET,
        b.w - 2 * HL_INSET,
        b.h - 2 * HL_INSET,
    );
}

/// How far inside a place its highlight outline is drawn (layout units; `replay.js` draws
/// the same, its `INSET`): inside, so that the outline of a cascade card does not cover the
/// bottom of the rank on the card above it (a J read as `|`, a Q as `O`).
pub(crate) const HL_INSET: i32 = 2;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::LAYOUT_WIDTH;
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
        let b = ms_deal(617).unwrap();
        let v = View::board(&b);
        let s = svg(&b, &Options::default());
        let top_bottom = v.freecell_slot(0).bottom();
        for i in 1..=8 {
            let y = label_y(&s, &format!(r#"data-cascade="{i}">"#));
            let cascade_top = v.cascade_rect(i - 1, 0, 1).y;
            assert!(y < cascade_top && y > top_bottom, "cascade {i}: {y}");
            assert!(cascade_top - y < (y - top_bottom) / 2, "cascade {i}: {y}");
        }
        for (open, text) in [(r#"data-slot="c">"#, "c"), (r#"data-suit="H""#, "h")] {
            let y = label_y(&s, open);
            assert!(y < v.freecell_slot(0).y && y > 0, "{open}: {y}");
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
        let v = View::board(&b);
        let [from, to] = highlight_rects(&v, &m);
        assert_eq!(to, v.freecell_slot(0));
        assert_eq!(from, v.cascade_rect(2, b.cascades[2].len() - 1, 1));
        assert!(!svg(&b, &Options::default()).contains(r#"visibility="visible""#));
        // The outline lies inside the destination (nothing of the card above is covered),
        // and the replay page's script draws it the same.
        let to_outline = format!(
            r#"<rect id="hl-to" x="{}" y="{}" width="{}" height="{}""#,
            to.x + HL_INSET,
            to.y + HL_INSET,
            to.w - 2 * HL_INSET,
            to.h - 2 * HL_INSET
        );
        assert!(s.contains(&to_outline), "{to_outline}");
        let script = super::super::html::REPLAY_SCRIPT;
        assert!(script.contains(&format!("const INSET = {HL_INSET};")));
    }

    /// A caption too long for the picture's width is broken at spaces into lines, each of
    /// them within the width, and the picture grows a caption line for each; nothing is lost.
    #[test]
    fn a_long_caption_wraps_within_the_picture() {
        let b = ms_deal(617).unwrap();
        let text = "Ko Bakers Game (5 freecells) deal 99999999999999999998, after move 5 of 90: 2b";
        let s = svg(
            &b,
            &Options {
                caption: Some(text),
                ..Options::default()
            },
        );
        let lines = wrap_caption(text, LAYOUT_WIDTH);
        assert!(lines.len() >= 2, "{lines:?}");
        assert_eq!(lines.join(" "), text);
        let room = ((LAYOUT_WIDTH - 2 * GAP) / CAPTION_CHAR_W) as usize;
        assert!(lines.iter().all(|l| l.len() <= room), "{lines:?}");
        for (k, line) in lines.iter().enumerate() {
            let dy = if k == 0 { 0 } else { CAPTION_H };
            assert!(
                s.contains(&format!(r#"<tspan x="{GAP}" dy="{dy}">{line}</tspan>"#)),
                "{s}"
            );
        }
        let plain = svg(&b, &Options::default());
        let view_h = |s: &str| -> i32 {
            let v = &s[s.find("viewBox=\"0 0 ").unwrap() + 13..];
            let v = &v[..v.find('"').unwrap()];
            v.split(' ').nth(1).unwrap().parse().unwrap()
        };
        assert_eq!(view_h(&s), view_h(&plain) + CAPTION_H * lines.len() as i32);
        // A caption that fits stays one line.
        assert_eq!(
            wrap_caption("deal 617, after move 30 of 99: 18", LAYOUT_WIDTH).len(),
            1
        );
    }

    /// A family game's picture has its cascades, its freecells (named as standard notation
    /// names them) and its title.
    #[test]
    fn a_family_picture_has_its_games_cascades_freecells_and_title() {
        let draw = |name: &str| {
            let g = fcauto_deals::Game::find(name).unwrap();
            let l = fcauto_deals::deal_game(g, fcauto_deals::PysolNumber::plain(5).unwrap());
            svg_view(&View::layout(&l, g.pysol_name), &Options::default())
        };
        let s = draw("seahaven_towers");
        assert_eq!(s.matches(r#"class="cascade-base""#).count(), 10);
        assert_eq!(s.matches(r#"class="freecell""#).count(), 4);
        assert_eq!(s.matches(r#"class="card""#).count(), 52);
        assert!(s.contains("<title>Seahaven Towers position, 0 of 52 cards home</title>"));
        assert!(s.contains(r#"viewBox="0 0 710 "#), "{}", &s[..200]);
        let s = draw("eight_off");
        assert_eq!(s.matches(r#"class="freecell""#).count(), 8);
        assert!(s.contains(r#"data-slot="i""#) && !s.contains(r#"data-slot="h""#));
        assert!(s.contains("<title>Eight Off position,"));
    }
}
