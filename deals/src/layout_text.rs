//! A [`Layout`]'s text in Freecell Solver's board format, for any game of the family.
//!
//! Written: a `Foundations: H-x C-x D-x S-x` line when a foundation holds a card, a
//! `Freecells:` line when a freecell holds one, then one line per cascade, deepest card
//! first (`:` alone for an empty cascade). The `Freecells:` line lists the slots up to the
//! last one holding a card, `-` for an empty one: Seahaven Towers' deal is
//! `Freecells: - 2H 6H` (as `make_pysol_freecell_board.py` writes it), Eight Off's
//! `Freecells: 6S - 9C - 2H - 6H` (that script adds a trailing `-`; both read the same).
//! A standard FreeCell deal is its cascade lines alone, byte for byte `Board::cascades_text`.
//!
//! Read: the same format as [`crate::Board::parse`] (comments, `FC:`, `Founds:`, fc-solve's
//! fixed-width freecell fields, blank lines for empty cascades), for the game's number of
//! cascades and freecells; a partial `Freecells:` line leaves the slots after it empty.

use crate::board::{check_position, read_position, BoardError, BoardIssue};
use crate::card::{Card, Rank};
use crate::game::{Layout, Rules, MAX_CASCADES, MAX_FREECELLS};

impl Layout {
    /// The layout as Freecell Solver board text (see the module docs), each line ending in
    /// `\n`.
    pub fn board_text(&self) -> String {
        let mut out = String::with_capacity(200);
        if self.foundations.iter().any(|&r| r > 0) {
            let f = |i: usize| match self.foundations[i] {
                0 => "0".to_string(),
                r => Rank::new(r).map_or("?".into(), |r| r.letter().to_string()),
            };
            // fc-solve's order: hearts, clubs, diamonds, spades (suit indices 2, 0, 1, 3).
            out.push_str(&format!(
                "Foundations: H-{} C-{} D-{} S-{}\n",
                f(2),
                f(0),
                f(1),
                f(3)
            ));
        }
        if let Some(last) = self.freecells.iter().rposition(Option::is_some) {
            let cells: Vec<String> = self.freecells[..=last]
                .iter()
                .map(|c| c.map_or_else(|| "-".to_string(), |c| c.to_string()))
                .collect();
            out.push_str(&format!("Freecells: {}\n", cells.join(" ")));
        }
        for col in &self.cascades {
            if col.is_empty() {
                out.push(':');
            }
            let toks: Vec<String> = col.iter().map(Card::to_string).collect();
            out.push_str(&toks.join(" "));
            out.push('\n');
        }
        out
    }

    /// Read Freecell Solver board text (see the module docs) as a position of a game with
    /// `rules`' cascades and freecells. The layout holds each of the 52 cards exactly once,
    /// `rules.cascades` cascades and `rules.freecells` freecell slots.
    ///
    /// Errors: [`BoardError`] listing every problem: a cascade count other than the game's,
    /// more freecell entries than the game's freecells, a card that is no card, a duplicate
    /// or missing card; rules beyond [`MAX_CASCADES`] cascades or [`MAX_FREECELLS`] freecells.
    pub fn parse(text: &str, rules: &Rules) -> Result<Layout, BoardError> {
        let (cascades, freecells) = (rules.cascades as usize, rules.freecells as usize);
        if !(1..=MAX_CASCADES).contains(&cascades) || freecells > MAX_FREECELLS {
            return Err(BoardError {
                issues: vec![BoardIssue {
                    line: 0,
                    token: None,
                    message: format!(
                        "a game of {cascades} cascades and {freecells} freecells: fcauto \
                         plays 1 to {MAX_CASCADES} cascades and 0 to {MAX_FREECELLS} freecells"
                    ),
                }],
            });
        }
        let (cascades, freecells, foundations) = read_position(text, cascades, freecells)?;
        Ok(Layout {
            cascades,
            freecells,
            foundations,
        })
    }
}

impl Layout {
    /// Check that the layout is a position of a game with `rules`' cascades and freecells
    /// holding each of the 52 cards exactly once (cascades, freecells and foundations
    /// together).
    ///
    /// Errors: [`BoardError`] listing every problem: another number of cascades or of
    /// freecell slots, a foundation over 13, a card found twice (with its places) or missing.
    pub fn check(&self, rules: &Rules) -> Result<(), BoardError> {
        let mut issues = Vec::new();
        if self.freecells.len() != rules.freecells as usize {
            issues.push(BoardIssue {
                line: 0,
                token: None,
                message: format!(
                    "expected {} freecells, found {}",
                    rules.freecells,
                    self.freecells.len()
                ),
            });
        }
        issues.extend(check_position(
            &self.cascades,
            &self.freecells,
            &self.foundations,
            rules.cascades as usize,
        ));
        if issues.is_empty() {
            Ok(())
        } else {
            Err(BoardError { issues })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::msdeal::ms_deal;
    use crate::pysol_deal::{deal_game, PysolNumber};

    fn deal(game: &str, n: u128) -> Layout {
        deal_game(Game::find(game).unwrap(), PysolNumber::plain(n).unwrap())
    }

    #[test]
    fn freecell_deals_are_byte_identical_to_the_board_text() {
        for n in [1, 617, 31999] {
            let l = deal("freecell", n);
            assert_eq!(
                l.board_text(),
                ms_deal(n as u64).unwrap().cascades_text(),
                "{n}"
            );
        }
    }

    #[test]
    fn partial_freecell_lines_are_written_and_read() {
        let seahaven = deal("seahaven_towers", 1);
        let text = seahaven.board_text();
        let first = text.lines().next().unwrap();
        assert!(
            first.starts_with("Freecells: - ") && first.split(' ').count() == 4,
            "{text}"
        );
        assert_eq!(text.lines().count(), 11);
        let rules = Game::find("seahaven_towers").unwrap().rules;
        assert_eq!(Layout::parse(&text, &rules).unwrap(), seahaven);
        // ForeCell, deal 1: the four cells full (PySolFC's own layout of it).
        let fore = deal("forecell", 1);
        assert!(fore
            .board_text()
            .starts_with("Freecells: 6S 9C 2H 6H\nJD KD 2S 4C 3S 6D\n"));
        // Eight Off: slots up to the last card, and the trailing `-` pysol_cards writes.
        let eight = deal("eight_off", 1);
        let text = eight.board_text();
        assert!(text.starts_with("Freecells: 6S - 9C - 2H - 6H\n"), "{text}");
        let rules = Game::find("eight_off").unwrap().rules;
        assert_eq!(Layout::parse(&text, &rules).unwrap(), eight);
        let padded = text.replace("6H\n", "6H -\n");
        assert_eq!(Layout::parse(&padded, &rules).unwrap(), eight);
    }

    #[test]
    fn mid_game_layouts_round_trip() {
        let mut l = deal("seahaven_towers", 40000);
        // Move every ace to its foundation, wherever it lies, and empty one cascade.
        for col in l.cascades.iter_mut() {
            col.retain(|c| c.rank().value() != 1);
        }
        for cell in l.freecells.iter_mut() {
            if cell.is_some_and(|c| c.rank().value() == 1) {
                *cell = None;
            }
        }
        l.foundations = [1; 4];
        let moved = std::mem::take(&mut l.cascades[3]);
        l.cascades[0].extend(moved);
        let text = l.board_text();
        assert!(text.starts_with("Foundations: H-A C-A D-A S-A\n"), "{text}");
        assert!(text.contains("\n:\n"), "{text}");
        let rules = Game::find("seahaven_towers").unwrap().rules;
        assert_eq!(Layout::parse(&text, &rules).unwrap(), l);
    }

    #[test]
    fn check_names_what_does_not_fit_the_game() {
        let seahaven = Game::find("seahaven_towers").unwrap().rules;
        let l = deal("seahaven_towers", 617);
        assert_eq!(l.check(&seahaven), Ok(()));
        let e = l.check(&Rules::FREECELL).unwrap_err().to_string();
        assert!(e.contains("expected 8 cascades, found 10"), "{e}");
        let e = l
            .check(&seahaven.with_freecells(2))
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected 2 freecells, found 4"), "{e}");
        let mut twice = l.clone();
        twice.freecells[0] = twice.freecells[1];
        let e = twice.check(&seahaven).unwrap_err().to_string();
        assert!(e.contains("card appears twice"), "{e}");
    }

    #[test]
    fn text_that_does_not_fit_the_game_names_the_problem() {
        let seahaven = Game::find("seahaven_towers").unwrap().rules;
        let fc_text = ms_deal(617).unwrap().cascades_text();
        let e = Layout::parse(&fc_text, &seahaven).unwrap_err().to_string();
        assert!(e.contains("expected 10 cascade lines, found 8"), "{e}");
        let eight = deal("eight_off", 5).board_text();
        let four = Rules::FREECELL;
        let e = Layout::parse(&eight, &four).unwrap_err().to_string();
        assert!(e.contains("7 freecell entries, at most 4"), "{e}");
        let dup = eight.replacen("Freecells: ", "Freecells: AS ", 1);
        let e = Layout::parse(&dup, &Game::find("eight_off").unwrap().rules)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("duplicate card AS") || e.contains("card(s) missing"),
            "{e}"
        );
        let short: String = fc_text.lines().take(7).map(|l| format!("{l}\n")).collect();
        let e = Layout::parse(&short, &Rules::FREECELL)
            .unwrap_err()
            .to_string();
        assert!(e.contains("card(s) missing"), "{e}");
        let huge = Rules {
            cascades: 11,
            ..Rules::FREECELL
        };
        let e = Layout::parse(&fc_text, &huge).unwrap_err().to_string();
        assert!(e.contains("1 to 10 cascades"), "{e}");
    }
}
