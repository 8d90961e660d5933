//! The one-line position string: FreeCell's counterpart of chess's FEN.
//!
//! ```text
//! <cascade 1>/<cascade 2>/.../<cascade 8> <freecells> <foundations>
//! ```
//! - a cascade: its cards deepest first, each two characters (rank `A23456789TJQK`, suit
//!   `CDHS`) written without spaces, e.g. `KS5HQD` (QD is the top card); an empty cascade is
//!   `-`;
//! - freecells: the four slots `a`..`d` in order, each a card or `-`, e.g. `----` or `5H--KD`;
//! - foundations: the top rank per suit in the order C, D, H, S, `0` for none, e.g. `0A20`.
//!
//! MS deal 1 is
//! `JDKD2S4C3S6D6S/2DKCKS5CTD8S9C/9H9S9DTS4S8D2H/JC5SQDQHTHQS6H/5DADJS4H8H6C/7HQCASAC2C3D/7CKHAH4DJH8C/5H3H3C7S7DTC ---- 0000`
//! (see the tests). Parsing is case-insensitive and accepts `10` for `T`; [`parse`] checks
//! that the position holds each of the 52 cards exactly once ([`Board::check`]).
//!
//! A position of another game of the family ([`write_layout`], [`parse_layout`]) starts with
//! the game's Freecell Solver name and a colon, then the same three fields with the game's
//! cascades and one freecell slot per freecell (`0` when it has none):
//! `seahaven_towers: 7S2CTSTC6C/.../3C9SQH8C8H -KCAS- 0000`. Standard FreeCell (with 4
//! freecells) is written without the prefix, as [`write()`] writes it.

use crate::board::{Board, BoardError, BoardIssue, CASCADES, FREECELLS};
use crate::card::{Card, Rank};
use crate::game::{Game, Layout, MAX_FREECELLS};
use std::fmt::Write;

/// Longest position string [`parse`] reads, in bytes (a full one is under 130).
pub const MAX_POSITION_TEXT: usize = 1024;

/// The position string of `b`.
pub fn write(b: &Board) -> String {
    write_fields(&b.cascades, &b.freecells, &b.foundations)
}

/// The position string of `layout`, a position of `game` (with as many freecells as the
/// layout has slots): prefixed with `name:` unless it is standard FreeCell with 4 freecells.
pub fn write_layout(game: &Game, layout: &Layout) -> String {
    let fields = write_fields(&layout.cascades, &layout.freecells, &layout.foundations);
    let rules = game.rules.with_freecells(layout.freecells.len() as u8);
    if rules.is_standard() {
        fields
    } else if layout.freecells.is_empty() {
        // No freecells: `0` stands for the empty slot list.
        let mut parts: Vec<&str> = fields.split(' ').collect();
        parts.insert(1, "0");
        format!("{}: {}", game.name, parts.join(" "))
    } else {
        format!("{}: {fields}", game.name)
    }
}

/// The three fields: cascades, freecell slots (none written when there are none),
/// foundations.
fn write_fields(
    cascades: &[Vec<Card>],
    freecells: &[Option<Card>],
    foundations: &[u8; 4],
) -> String {
    let mut s = String::with_capacity(128);
    for (i, col) in cascades.iter().enumerate() {
        if i > 0 {
            s.push('/');
        }
        if col.is_empty() {
            s.push('-');
        }
        for c in col {
            let _ = write!(s, "{c}");
        }
    }
    s.push(' ');
    for slot in freecells {
        match slot {
            Some(c) => {
                let _ = write!(s, "{c}");
            }
            None => s.push('-'),
        }
    }
    if !freecells.is_empty() {
        s.push(' ');
    }
    for &r in foundations {
        s.push(Rank::new(r).map_or('0', Rank::letter));
    }
    s
}

/// True when `text` looks like a position string rather than a board file: one line with a
/// `/` (which board text never has), besides blank lines and `#` comment lines (which board
/// text may have too).
pub fn looks_like_position(text: &str) -> bool {
    position_line(text).is_some()
}

/// The position string of `text` (see [`looks_like_position`]), trimmed.
fn position_line(text: &str) -> Option<&str> {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let line = lines.next()?;
    (lines.next().is_none() && line.contains('/')).then_some(line)
}

/// Parse a board given either way: a position string (one line with 7 `/`, see
/// [`looks_like_position`]) or Freecell Solver's board text ([`Board::parse`]).
///
/// # Errors
/// The [`BoardError`] of the format it was read as.
pub fn parse_any(text: &str) -> Result<Board, BoardError> {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    match position_line(t) {
        Some(line) => parse(line),
        None => Board::parse(text),
    }
}

/// Parse a position string.
///
/// # Errors
/// A [`BoardError`] naming each problem (field and token): not three fields, not eight
/// cascades, a token that is not a card, freecells that are not four slots, foundations that
/// are not four ranks, or a position that does not hold the 52 cards exactly once.
pub fn parse(text: &str) -> Result<Board, BoardError> {
    let fail = |i: BoardIssue| BoardError { issues: vec![i] };
    if text.len() > MAX_POSITION_TEXT {
        return Err(fail(issue(
            None,
            format!("a position string is at most {MAX_POSITION_TEXT} bytes"),
        )));
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 3 {
        return Err(fail(issue(
            None,
            format!(
                "a position string has 3 fields (cascades, freecells, foundations) separated by spaces, found {}",
                fields.len()
            ),
        )));
    }
    let mut issues = Vec::new();
    let cascades = cascades_field(fields[0], CASCADES, &mut issues);
    let freecells = freecells_field(fields[1], &mut issues);
    let foundations = foundations_field(fields[2], &mut issues);
    if !issues.is_empty() {
        return Err(BoardError { issues });
    }
    let b = Board {
        cascades,
        freecells,
        foundations,
    };
    b.check()?;
    Ok(b)
}

/// Parse a position string of any game: with a `name:` prefix (see the module docs), a
/// position of that game with as many freecells as the string has slots; without one, of
/// FreeCell (with as many freecells as it has slots: 4 for a standard position).
///
/// # Errors
/// A [`BoardError`] naming each problem: an unknown game, not three fields after the prefix,
/// another number of cascades than the game has, a token that is not a card, more than 8
/// freecell slots, foundations that are not four ranks, or a position that does not hold the
/// 52 cards exactly once ([`Layout::check`]).
pub fn parse_layout(text: &str) -> Result<(&'static Game, Layout), BoardError> {
    let fail = |i: BoardIssue| BoardError { issues: vec![i] };
    if text.len() > MAX_POSITION_TEXT {
        return Err(fail(issue(
            None,
            format!("a position string is at most {MAX_POSITION_TEXT} bytes"),
        )));
    }
    let mut fields: Vec<&str> = text.split_whitespace().collect();
    let game = match fields.first().and_then(|f| f.strip_suffix(':')) {
        Some(name) => {
            let g = Game::find(name).map_err(|e| fail(issue(Some(name), e.to_string())))?;
            fields.remove(0);
            g
        }
        None => Game::freecell(),
    };
    if fields.len() != 3 {
        return Err(fail(issue(
            None,
            format!(
                "a position string has 3 fields (cascades, freecells, foundations) after the game, found {}",
                fields.len()
            ),
        )));
    }
    let mut issues = Vec::new();
    let cascades = cascades_field(fields[0], game.rules.cascades as usize, &mut issues);
    let freecells = match fields[1] {
        "0" => vec![],
        f => match slots(f) {
            Ok(v) if v.len() <= MAX_FREECELLS => v,
            Ok(v) => {
                let msg = format!("{} freecell slots, at most {MAX_FREECELLS}", v.len());
                issues.push(issue(Some(f), msg));
                vec![]
            }
            Err(t) => {
                issues.push(issue(Some(&t), "not a card or `-` in the freecells".into()));
                vec![]
            }
        },
    };
    let foundations = foundations_field(fields[2], &mut issues);
    if !issues.is_empty() {
        return Err(BoardError { issues });
    }
    let layout = Layout {
        cascades,
        freecells,
        foundations,
    };
    let rules = game.rules.with_freecells(layout.freecells.len() as u8);
    layout.check(&rules)?;
    Ok((game, layout))
}

/// A problem in the (one-line) position string.
fn issue(token: Option<&str>, message: String) -> BoardIssue {
    BoardIssue {
        line: 1,
        token: token.map(str::to_string),
        message,
    }
}

/// The cascades field (`/`-separated, `-` for an empty cascade); each problem goes to
/// `issues` (a cascade with a bad token is read as empty).
fn cascades_field(field: &str, want: usize, issues: &mut Vec<BoardIssue>) -> Vec<Vec<Card>> {
    let cols: Vec<&str> = field.split('/').collect();
    if cols.len() != want {
        issues.push(issue(
            Some(field),
            format!(
                "expected {want} cascades separated by `/`, found {}",
                cols.len()
            ),
        ));
    }
    let mut cascades = Vec::with_capacity(want);
    for col in &cols {
        let cards = if *col == "-" { Ok(vec![]) } else { cards(col) };
        match cards {
            Ok(v) => cascades.push(v),
            Err(t) => {
                issues.push(issue(
                    Some(&t),
                    "not a card (expected rank A,2-9,T,J,Q,K then suit C,D,H,S)".into(),
                ));
                cascades.push(vec![]);
            }
        }
    }
    cascades
}

/// The freecells field (four slots, a card or `-` each); a problem goes to `issues`.
fn freecells_field(field: &str, issues: &mut Vec<BoardIssue>) -> [Option<Card>; FREECELLS] {
    let mut freecells = [None; FREECELLS];
    match slots(field) {
        Ok(v) if v.len() == FREECELLS => freecells.copy_from_slice(&v),
        Ok(v) => issues.push(issue(
            Some(field),
            format!(
                "expected {FREECELLS} freecell slots (a card or `-` each), found {}",
                v.len()
            ),
        )),
        Err(t) => issues.push(issue(Some(&t), "not a card or `-` in the freecells".into())),
    }
    freecells
}

/// The foundations field (four ranks, C, D, H, S); each problem goes to `issues`.
fn foundations_field(field: &str, issues: &mut Vec<BoardIssue>) -> [u8; 4] {
    let mut foundations = [0u8; 4];
    let f: Vec<char> = field.chars().collect();
    if f.len() != 4 {
        issues.push(issue(
            Some(field),
            "expected 4 foundation ranks (C, D, H, S; `0` for none)".into(),
        ));
        return foundations;
    }
    for (k, ch) in f.iter().enumerate() {
        match ch {
            '0' | '-' => {}
            _ => match Rank::from_token(&ch.to_string()) {
                Some(r) => foundations[k] = r.value(),
                None => issues.push(issue(
                    Some(&ch.to_string()),
                    "not a foundation rank (0, A, 2-9, T, J, Q, K)".into(),
                )),
            },
        }
    }
    foundations
}

/// Cards written without spaces (`10` allowed for `T`); the bad token on error.
fn cards(s: &str) -> Result<Vec<Card>, String> {
    let mut out = vec![];
    let mut rest = s;
    while !rest.is_empty() {
        let n = if rest.starts_with("10") { 3 } else { 2 };
        let tok = rest.get(..n).ok_or_else(|| rest.to_string())?;
        out.push(tok.parse::<Card>().map_err(|_| tok.to_string())?);
        rest = &rest[n..];
    }
    Ok(out)
}

/// Freecell slots: `-` or a card each.
fn slots(s: &str) -> Result<Vec<Option<Card>>, String> {
    let mut out = vec![];
    let mut rest = s;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('-') {
            out.push(None);
            rest = r;
            continue;
        }
        let n = if rest.starts_with("10") { 3 } else { 2 };
        let tok = rest.get(..n).ok_or_else(|| rest.to_string())?;
        out.push(Some(tok.parse::<Card>().map_err(|_| tok.to_string())?));
        rest = &rest[n..];
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ms_deal;

    #[test]
    fn deals_round_trip() {
        for n in [1, 617, 11982, 1_000_000, 8_589_934_591] {
            let b = ms_deal(n).unwrap();
            let s = write(&b);
            assert!(s.ends_with(" ---- 0000"), "{s}");
            assert!(looks_like_position(&s));
            // Comment and blank lines around it, as board text may have.
            let commented = format!("# deal 617\n\n{s}\n# end\n");
            assert_eq!(parse_any(&commented).unwrap(), parse_any(&s).unwrap());
            assert_eq!(parse(&s).unwrap(), b, "{s}");
        }
        assert!(write(&ms_deal(1).unwrap())
            .starts_with("JDKD2S4C3S6D6S/2DKCKS5CTD8S9C/9H9S9DTS4S8D2H/JC5SQDQHTHQS6H/"));
    }

    #[test]
    fn mid_game_round_trip_and_lower_case() {
        let mut b = ms_deal(617).unwrap();
        // Move two cards to freecells, empty a cascade onto the foundations' counterpart.
        let c = b.cascades[2].pop().unwrap();
        b.freecells[1] = Some(c);
        let moved: Vec<Card> = std::mem::take(&mut b.cascades[5]);
        b.cascades[0].extend(moved);
        let s = write(&b);
        assert!(s.contains("/-/"), "{s}");
        assert_eq!(parse(&s).unwrap(), b);
        assert_eq!(parse(&s.to_lowercase()).unwrap(), b);
    }

    #[test]
    fn a_short_position_string_is_named_as_one() {
        let e = parse_any("JDKD2S4C3S6D6S/2DKCKS5CTD8S9C ---- 0000")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("expected 8 cascades separated by `/`, found 2"),
            "{e}"
        );
    }

    #[test]
    fn either_form_is_read() {
        let b = ms_deal(617).unwrap();
        assert_eq!(parse_any(&write(&b)).unwrap(), b);
        assert_eq!(parse_any(&format!("\u{feff}{}\r\n", write(&b))).unwrap(), b);
        assert_eq!(parse_any(&b.to_string()).unwrap(), b);
    }

    #[test]
    fn layouts_of_other_games_name_the_game() {
        use crate::pysol_deal::{deal_game, deal_with_rules, PysolNumber};
        let n = PysolNumber::plain(32000).unwrap();
        for g in crate::GAMES {
            let l = deal_game(g, n);
            let s = write_layout(g, &l);
            assert!(looks_like_position(&s), "{s}");
            assert_eq!(parse_layout(&s).unwrap(), (g, l.clone()), "{s}");
            let standard = g.rules.is_standard();
            assert_eq!(s.starts_with(&format!("{}: ", g.name)), !standard, "{s}");
        }
        let sea = Game::find("seahaven_towers").unwrap();
        let s = write_layout(sea, &deal_game(sea, n));
        assert!(
            s.starts_with("seahaven_towers: 7S2CTSTC6C/") && s.ends_with(" -KCAS- 0000"),
            "{s}"
        );
        let none = Game::find("freecell_0_freecells").unwrap();
        let s = write_layout(none, &deal_game(none, n));
        assert!(s.ends_with(" 0 0000"), "{s}");
        // FreeCell with 2 freecells: the prefix, and two slots.
        let fc = Game::freecell();
        let two = deal_with_rules(fc, &fc.rules.with_freecells(2), n).unwrap();
        let s = write_layout(fc, &two);
        assert!(s.starts_with("freecell: ") && s.contains(" -- 0000"), "{s}");
        assert_eq!(parse_layout(&s).unwrap(), (fc, two));
        // A standard position reads as FreeCell's.
        let b = ms_deal(617).unwrap();
        let (g, l) = parse_layout(&write(&b)).unwrap();
        assert_eq!((g.name, l.to_board().unwrap()), ("freecell", b));
        for (text, want) in [
            ("klondike: x y z", "unknown game `klondike`"),
            (
                "seahaven_towers: JDKD/2D ---- 0000",
                "expected 10 cascades separated by `/`, found 2",
            ),
            ("eight_off: - --------- 0000", "9 freecell slots, at most 8"),
        ] {
            let e = parse_layout(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    fn errors_name_the_problem() {
        let good = write(&ms_deal(5).unwrap());
        let bad = [
            ("", "3 fields"),
            (&good.replace(' ', "  x "), "3 fields"),
            (&good.replacen('/', "", 1), "8 cascades"),
            (&good.replacen("----", "---", 1), "4 freecell slots"),
            (&good.replacen("0000", "000", 1), "4 foundation ranks"),
            (&good.replacen("0000", "000Z", 1), "not a foundation rank"),
            (&good.replacen("----", "--ZZ", 1), "not a card or `-`"),
        ];
        for (text, want) in bad {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
        }
        // A card twice (and one missing) fails the deck check.
        let first = &good[..2];
        let dup = good.replacen(&good[2..4], first, 1);
        assert!(parse(&dup).is_err());
    }
}
