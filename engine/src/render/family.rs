//! The family's games drawn: a family game's moves ([`FamilyMove`]) replayed by the family's
//! validator into positions ([`Layout`]s), each drawn as a [`View`] of its game's shape, and
//! stepped through by the replay page ([`super::line_html`]).

use super::{Line, Options, PictureFormat, View};
use anyhow::{Context, Result};
use fcauto_deals::{plural, Card, Game, Layout, Rules};
use fcauto_solver::family::validator::play_checked;
use fcauto_solver::family::{is_safe_home, standard_tokens, FamilyMove, Place};
use fcauto_solver::{Loc, Move, PlayedMove};

/// The title of `game` played under `rules`: PySolFC's title (`Seahaven Towers`), with the
/// freecells when `--freecells` changed them (`Baker's Game with 6 freecells`).
pub fn game_title(game: &Game, rules: &Rules) -> String {
    if rules.freecells == game.rules.freecells {
        game.pysol_name.to_string()
    } else {
        format!(
            "{} with {}",
            game.pysol_name,
            plural(rules.freecells, "freecell")
        )
    }
}

/// `layout`, a position of `game` played under `rules`, drawn in `format`, `width` pixels
/// wide, with `highlight` outlined and `caption` under it; titled with the game's title
/// ([`game_title`]). (`deal`, `solve` and `show` draw a family game's position with it.)
///
/// # Errors
/// PNG only: see [`super::png()`] (no `png` feature, the font missing).
pub fn draw_layout(
    game: &Game,
    rules: &Rules,
    layout: &Layout,
    format: PictureFormat,
    width: u32,
    highlight: Option<PlayedMove>,
    caption: Option<&str>,
) -> Result<Vec<u8>> {
    let title = game_title(game, rules);
    let view = View::layout(layout, &title);
    let opts = Options {
        width,
        highlight,
        caption,
    };
    super::draw_view(&view, format, &opts)
}

/// PySolFC's deal `number` of `game` under `rules` (its own cascades and freecells), drawn
/// in `format`, `width` pixels wide, captioned with the game's PySolFC name and the number
/// (`Seahaven Towers 5`): `show --game G N`'s picture. `Ok(Err(message))`: the deal cannot
/// be dealt under these rules (a usage problem: more cards in freecells than it has).
///
/// # Errors
/// PNG only: as [`draw_layout`].
pub fn draw_deal(
    game: &'static Game,
    rules: &Rules,
    number: fcauto_deals::PysolNumber,
    format: PictureFormat,
    width: u32,
) -> Result<std::result::Result<Vec<u8>, String>> {
    let layout = match fcauto_deals::pysol_deal::deal_with_rules(game, rules, number) {
        Ok(l) => l,
        Err(e) => return Ok(Err(e.to_string())),
    };
    let caption = format!("{} {number}", game.pysol_name);
    let bytes = draw_layout(game, rules, &layout, format, width, None, Some(&caption))?;
    Ok(Ok(bytes))
}

/// The picture of deal `number` as `show [--game G] N` draws it: with a game named
/// (`named`), PySolFC's deal of `game` ([`draw_deal`]); without, the Microsoft deal,
/// whatever its size, drawn as standard FreeCell's (`deal N`) under standard rules, else
/// with the rules' freecells. `Ok(Err(message))`: a usage problem (a Microsoft number out of
/// range, a deal that puts cards in more freecells than the rules give).
///
/// # Errors
/// PNG only: as [`draw_layout`].
pub fn draw_number(
    game: &'static Game,
    rules: &Rules,
    named: bool,
    number: fcauto_deals::PysolNumber,
    format: PictureFormat,
    width: u32,
) -> Result<std::result::Result<Vec<u8>, String>> {
    use fcauto_deals::{DealError, PysolNumber, MAX_DEAL};
    if named {
        return draw_deal(game, rules, number, format, width);
    }
    let n = u64::try_from(number.value()).unwrap_or(u64::MAX);
    if n > MAX_DEAL {
        let e = DealError::TooLarge(number.to_string());
        return Ok(Err(format!(
            "{e}; PySolFC's larger game numbers need --game"
        )));
    }
    if rules.is_standard() {
        let board = fcauto_deals::ms_deal(n)?;
        let caption = format!("deal {n}");
        let opts = Options {
            width,
            highlight: None,
            caption: Some(&caption),
        };
        return Ok(Ok(super::draw_view(&View::board(&board), format, &opts)?));
    }
    draw_deal(game, rules, PysolNumber::ms(n)?, format, width)
}

/// The drawing's place of a family place (`Place::Cascade(9)` is `Loc::Cascade(9)`).
pub fn loc(p: Place) -> Loc {
    match p {
        Place::Cascade(i) => Loc::Cascade(i),
        Place::Freecell(j) => Loc::Freecell(j),
        Place::Foundation => Loc::Foundation,
    }
}

/// The family place of a drawing's place.
pub fn place(l: Loc) -> Place {
    match l {
        Loc::Cascade(i) => Place::Cascade(i),
        Loc::Freecell(j) => Place::Freecell(j),
        Loc::Foundation => Place::Foundation,
    }
}

/// `m` as the drawing's move, with the lowest card it moves from `before` (`None` when its
/// source does not hold that many cards).
pub fn played(before: &Layout, m: &FamilyMove) -> Option<PlayedMove> {
    let card: Card = match m.from {
        Place::Cascade(i) => {
            let col = before.cascades.get(i as usize)?;
            *col.get(col.len().checked_sub(m.count as usize)?)?
        }
        Place::Freecell(j) => (*before.freecells.get(j as usize)?)?,
        Place::Foundation => return None,
    };
    Some(PlayedMove {
        mv: Move {
            from: loc(m.from),
            to: loc(m.to),
            count: m.count,
        },
        card,
    })
}

/// The family move of a drawing's move.
pub fn family_move(p: &PlayedMove) -> FamilyMove {
    FamilyMove {
        from: place(p.mv.from),
        to: place(p.mv.to),
        count: p.mv.count,
    }
}

/// A game of the family to draw: its title, the start, the rules and the moves played.
#[derive(Clone, Copy, Debug)]
pub struct FamilyGame<'a> {
    /// The game's title ([`game_title`]).
    pub title: &'a str,
    /// The deal number as PySolFC numbers the game's deals (`617`, `ms40000`), when the
    /// start is a deal.
    pub deal: Option<fcauto_deals::PysolNumber>,
    /// The start.
    pub start: &'a Layout,
    /// The rules the moves are played by.
    pub rules: &'a Rules,
    /// The moves.
    pub moves: &'a [FamilyMove],
}

impl FamilyGame<'_> {
    /// How captions and the page's heading name the game: `Seahaven Towers deal 5`, or
    /// `Seahaven Towers board`.
    pub fn name(&self) -> String {
        match self.deal {
            Some(n) => format!("{} deal {n}", self.title),
            None => format!("{} board", self.title),
        }
    }

    /// The positions: the start, then the position after each move, replayed by the family
    /// validator's rules.
    ///
    /// # Errors
    /// A move is illegal where it is played (the message names the step and the rule).
    pub fn positions(&self) -> Result<Vec<Layout>> {
        let mut pos = self.start.clone();
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(pos.clone());
        for (i, m) in self.moves.iter().enumerate() {
            play_checked(&mut pos, self.rules, m)
                .map_err(|e| anyhow::anyhow!(e))
                .with_context(|| format!("step {} ({}): illegal move", i + 1, m.notation()))?;
            out.push(pos.clone());
        }
        Ok(out)
    }

    /// The [`Line`] through `positions` (those of [`FamilyGame::positions`]).
    pub fn line<'p>(&self, positions: &'p [Layout]) -> Line<'p>
    where
        Self: 'p,
    {
        let title: &'p str = self.title;
        let moves: Vec<PlayedMove> = self
            .moves
            .iter()
            .zip(positions)
            .filter_map(|(m, before)| played(before, m))
            .collect();
        let auto = moves
            .iter()
            .zip(positions)
            .map(|(p, before)| {
                p.mv.to == Loc::Foundation && is_safe_home(self.rules, &before.foundations, p.card)
            })
            .collect();
        Line {
            positions: positions.iter().map(|l| View::layout(l, title)).collect(),
            moves,
            tokens: standard_tokens(self.start, self.rules, self.moves).unwrap_or_default(),
            auto,
        }
    }

    /// The replay page of the game ([`super::line_html`]).
    ///
    /// # Errors
    /// A move is illegal where it is played.
    pub fn replay_html(&self, opts: &Options) -> Result<String> {
        let positions = self.positions()?;
        Ok(super::line_html(&self.line(&positions), &self.name(), opts))
    }

    /// The position after move `step` (0: the start), the move that led there, and the
    /// caption that says so (`Seahaven Towers deal 5, after move 3 of 90: 0h`).
    ///
    /// # Errors
    /// `step` past the last move; a move illegal where it is played.
    pub fn step(&self, step: usize) -> Result<(Layout, Option<PlayedMove>, String)> {
        let n = self.moves.len();
        anyhow::ensure!(
            step <= n,
            "--step {step} is past the end: the solution has {} (give 0..={n}; 0 is the start)",
            plural(n, "move")
        );
        let mut positions = self.positions()?;
        let played_move = step
            .checked_sub(1)
            .and_then(|i| played(&positions[i], &self.moves[i]));
        let caption = match step {
            0 => format!("{}, the start (0 of {n} moves)", self.name()),
            k => {
                let tokens = standard_tokens(self.start, self.rules, self.moves);
                let token = tokens
                    .and_then(|t| t.get(k - 1).cloned())
                    .unwrap_or_else(|| self.moves[k - 1].notation());
                format!("{}, after move {k} of {n}: {token}", self.name())
            }
        };
        Ok((positions.swap_remove(step), played_move, caption))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::{deal_game, PysolNumber};
    use fcauto_solver::family::{solve_family, FamilyMode, FamilyOutcome};

    /// A solved Seahaven Towers deal replays: one step per position, the highlight of every
    /// move inside the picture, the last position won.
    #[test]
    fn a_seahaven_solution_steps_through_every_position() {
        let g = Game::find("seahaven_towers").unwrap();
        let start = deal_game(g, PysolNumber::plain(5).unwrap());
        let (out, _) = solve_family(&start, &g.rules, FamilyMode::Fast, None).unwrap();
        let FamilyOutcome::Solved(s) = out else {
            panic!("Seahaven Towers 5 is solvable")
        };
        let title = game_title(g, &g.rules);
        let game = FamilyGame {
            title: &title,
            deal: fcauto_deals::PysolNumber::plain(5).ok(),
            start: &start,
            rules: &g.rules,
            moves: &s.moves,
        };
        let positions = game.positions().unwrap();
        let line = game.line(&positions);
        assert_eq!(line.positions.len(), s.moves.len() + 1);
        assert_eq!(line.moves.len(), s.moves.len());
        assert_eq!(line.tokens, s.tokens);
        assert!(line.positions.last().unwrap().home() == 52);
        let html = game.replay_html(&Options::default()).unwrap();
        assert!(html.contains("<h1>Seahaven Towers deal 5: a solution in"));
        assert_eq!(html.matches("\"o\":[").count(), s.moves.len() + 1);
        let (_, m, caption) = game.step(1).unwrap();
        assert!(
            m.is_some() && caption.contains("after move 1 of"),
            "{caption}"
        );
        assert!(game.step(s.moves.len() + 1).is_err());
    }
}
