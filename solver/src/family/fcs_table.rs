//! Freecell Solver's table layout of a family position ([`table_layout`]): what `fc-solve -g
//! G -sam` prints between its moves without `-p`, for any number of cascades (up to 10) and
//! freecells (up to 8). Standard FreeCell's reader of the same layout is
//! `notation::fcs::table_position`, which reads 8 cascades and 4 freecells into a `Board`.

use crate::notation::fcs::table_foundations;
use fcauto_deals::game::{MAX_CASCADES, MAX_FREECELLS};
use fcauto_deals::{Card, Layout, Rank, Suit};

/// Freecells per row of the table layout.
const CELLS_A_ROW: usize = 4;

/// The position fc-solve draws at line `i` of `lines` in its table layout, and the line
/// after it:
///
/// ```text
///  9S      AD             H-0 C-0 D-0 S-0      freecells 0-3 in columns of 4, the foundations
/// --- --- --- ---                              one `---` a freecell of the row above
///  7C     10S                                  freecells 4-7 (Eight Off), and so on
/// --- --- --- ---
///
///  --  --  --  --  --  --  --  --  --  --      the cascades' heads, one a cascade
///  AH  8S  2D  QS  4C  9H  2S  3D  5C  AS      a row per depth, a card or blanks per column
/// ```
///
/// A game without freecells has no `---` line. `None` unless line `i` ends with the four
/// foundations and, after the freecell rows and blank lines, the heads follow. The rows end
/// at a blank line. Errors (with the 1-based line): a token that is no card, a card beyond
/// the freecells or cascades drawn, more than [`MAX_FREECELLS`] freecells or
/// [`MAX_CASCADES`] cascades. Whether the layout fits a game is the caller's check.
#[allow(clippy::type_complexity)]
pub fn table_layout(lines: &[&str], i: usize) -> Option<(Result<Layout, (usize, String)>, usize)> {
    let (at, found) = table_foundations(lines[i])?;
    let is_rule = |j: usize| {
        lines.get(j).is_some_and(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            !w.is_empty() && w.iter().all(|t| *t == "---")
        })
    };
    // The freecell rows (line, text) and the number of freecells their rules count.
    let mut rows = vec![(i, &lines[i][..at])];
    let mut cells = 0;
    let mut j = i + 1;
    while is_rule(j) {
        cells += lines[j].split_whitespace().count();
        j += 1;
        if !is_rule(j + 1) {
            break;
        }
        rows.push((j, lines[j]));
        j += 1;
    }
    while lines.get(j).is_some_and(|l| l.trim().is_empty()) {
        j += 1;
    }
    let heads: Vec<&str> = lines.get(j)?.split_whitespace().collect();
    if heads.is_empty() || heads.iter().any(|t| *t != "--") {
        return None;
    }
    let first_row = j + 1;
    j += 1;
    while lines.get(j).is_some_and(|l| !l.trim().is_empty()) {
        j += 1;
    }
    let read = || -> Result<Layout, (usize, String)> {
        if cells > MAX_FREECELLS {
            return Err((i + 1, format!("{cells} freecells, at most {MAX_FREECELLS}")));
        }
        if heads.len() > MAX_CASCADES {
            let n = heads.len();
            return Err((first_row, format!("{n} cascades, at most {MAX_CASCADES}")));
        }
        let mut freecells = vec![None; cells];
        for (r, &(line, text)) in rows.iter().enumerate() {
            for (k, card) in columns(text, line + 1)?.into_iter().enumerate() {
                let Some(card) = card else { continue };
                let slot = r * CELLS_A_ROW + k;
                match freecells.get_mut(slot).filter(|_| k < CELLS_A_ROW) {
                    Some(s) => *s = Some(card),
                    None => return Err((line + 1, format!("{card} beyond the freecells"))),
                }
            }
        }
        let mut cascades = vec![Vec::new(); heads.len()];
        for (at, row) in lines.iter().enumerate().take(j).skip(first_row) {
            for (k, card) in columns(row, at + 1)?.into_iter().enumerate() {
                let Some(card) = card else { continue };
                match cascades.get_mut(k) {
                    Some(c) => c.push(card),
                    None => return Err((at + 1, format!("{card} beyond the cascades"))),
                }
            }
        }
        Ok(Layout {
            cascades,
            freecells,
            foundations: foundations(found, i + 1)?,
        })
    };
    Some((read(), j))
}

/// The columns of 4 characters of a table row (`line` its 1-based line): a card or `None`
/// for blanks.
fn columns(text: &str, line: usize) -> Result<Vec<Option<Card>>, (usize, String)> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(4)
        .map(|c| {
            let t: String = c.iter().collect();
            match t.trim() {
                "" => Ok(None),
                c => c
                    .parse()
                    .map(Some)
                    .map_err(|_| (line, format!("`{c}` is not a card"))),
            }
        })
        .collect()
}

/// The foundations `H-0 C-A D-2 S-K` (in fc-solve's order) as ranks per suit.
fn foundations(found: &str, line: usize) -> Result<[u8; 4], (usize, String)> {
    let mut out = [0; 4];
    for w in found.split_whitespace() {
        let (suit, rank) = w.split_at(2);
        let rank = match rank {
            "0" => 0,
            r => Rank::from_token(r)
                .map(|r| r.value())
                .ok_or((line, format!("`{w}` is not a foundation")))?,
        };
        let suit = Suit::from_letter(suit.chars().next().unwrap_or(' '))
            .ok_or((line, format!("`{w}` is not a foundation")))?;
        out[suit.index()] = rank;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eight Off's two rows of freecells, a game without freecells, and Seahaven Towers' ten
    /// cascades read as fc-solve draws them.
    #[test]
    fn table_positions_of_any_size_are_read() {
        let eight_off = " 9S      AD             H-0 C-0 D-A S-0\n--- --- --- --- \n 7C     10S     \n--- --- --- --- \n\n\n --  --  --  -- \n AH  8S  2D  QS \n 5C      9C     \n\n";
        let lines: Vec<&str> = eight_off.lines().collect();
        let (layout, end) = table_layout(&lines, 0).unwrap();
        let layout = layout.unwrap();
        let card = |s: &str| s.parse::<Card>().unwrap();
        assert_eq!(layout.freecells.len(), 8);
        assert_eq!(layout.freecells[0], Some(card("9S")));
        assert_eq!(layout.freecells[2], Some(card("AD")));
        assert_eq!(layout.freecells[4], Some(card("7C")));
        assert_eq!(layout.freecells[6], Some(card("TS")));
        assert_eq!(layout.cascades.len(), 4);
        assert_eq!(layout.cascades[1], vec![card("8S")]);
        assert_eq!(layout.cascades[2], vec![card("2D"), card("9C")]);
        assert_eq!(layout.foundations[Suit::Diamonds.index()], 1);
        assert_eq!(end, 9);
        let none = "                        H-A C-A D-A S-A\n\n\n --  --  --  --  --  --  --  --  --  -- \n 8S  2D  QS  4C  9H  2S  3D  5C  AS  KH \n";
        let lines: Vec<&str> = none.lines().collect();
        let layout = table_layout(&lines, 0).unwrap().0.unwrap();
        assert!(layout.freecells.is_empty());
        assert_eq!(layout.cascades.len(), 10);
        // The `-p` layout's `Foundations:` line is no table position.
        let p = "Foundations: H-0 C-0 D-0 S-0 \nFreecells:  \n: AH\n";
        let lines: Vec<&str> = p.lines().collect();
        assert!(table_layout(&lines, 0).is_none());
        // A token that is no card is named with its line.
        let bad = " XX                     H-0 C-0 D-0 S-0\n--- \n\n --  \n AH \n";
        let lines: Vec<&str> = bad.lines().collect();
        let (e, _) = table_layout(&lines, 0).unwrap();
        assert_eq!(e.unwrap_err(), (1, "`XX` is not a card".to_string()));
    }
}
