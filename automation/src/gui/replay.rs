//! Executing moves in the PySolFC window: screen points from the layout, one mouse gesture
//! per move, then waiting until the screen shows the expected board and PySolFC is idle.

use std::time::{Duration, Instant};

use fcauto_deals::Layout as Position;
use image::RgbaImage;

use super::launch::cpu_ticks;
use super::layout::Layout;
use super::mouse::Input;
use super::recognize::{read_board, CardImages, SeenBoard};
use super::screen::{capture, game_origin, Rect};
use super::GuiError;
use fcauto_solver::{Loc, PlayedMove};

/// A point `(x, y)` in pixels.
pub type Point = (i32, i32);

/// How moves are made: PySolFC's `mouse_type` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MouseMode {
    /// Press on the card, drag, release over the destination (`drag-n-drop`).
    Drag,
    /// Click the card, then click the destination (`point-n-click`).
    Click,
}

impl MouseMode {
    /// The options.cfg value.
    pub fn option_value(self) -> &'static str {
        match self {
            MouseMode::Drag => "drag-n-drop",
            MouseMode::Click => "point-n-click",
        }
    }
}

/// What the screen showed after a move.
#[derive(Debug)]
pub enum Outcome {
    /// The expected board; PySolFC idle.
    Taken(RgbaImage, SeenBoard),
    /// Still the board before the move, and PySolFC idle: the input was dropped.
    NotTaken(RgbaImage, SeenBoard),
    /// Some other board (or no stable reading before the timeout).
    Unexpected(RgbaImage, SeenBoard),
}

/// Everything needed to read the table and act on it.
pub struct Table {
    /// The main window's client area on screen.
    pub client: Rect,
    /// Geometry of the cardset in use.
    pub layout: Layout,
    /// Card templates.
    pub images: CardImages,
    /// Mouse and keyboard.
    pub input: Input,
    /// PySolFC's process id (for the idle check), 0 if unknown.
    pub pid: u32,
    /// How moves are made.
    pub mode: MouseMode,
    /// Seconds to wait for one move before giving up on it.
    pub move_timeout: Duration,
}

impl Table {
    /// Capture the screen and read the board. Errors: capture failure, or no table visible.
    pub fn read(&self) -> Result<(RgbaImage, SeenBoard, (i32, i32)), GuiError> {
        let shot = capture()?;
        let origin = game_origin(&shot, self.client).ok_or_else(|| {
            GuiError::Recognize("the PySolFC table (green) is not visible in its window".into())
        })?;
        let seen = read_board(&shot, origin, &self.layout, &self.images);
        Ok((shot, seen, origin))
    }

    /// Screen point to grab the cards a move takes from `board`, and the top-left of the
    /// grabbed card (both in game coordinates).
    fn grab(&self, board: &Position, from: Loc, count: usize) -> Result<(Point, Point), GuiError> {
        let l = &self.layout;
        match from {
            Loc::Cascade(c) => {
                let c = c as usize;
                let n = board.cascades[c].len();
                if n < count || count == 0 {
                    return Err(GuiError::Replay(format!(
                        "cascade {} has {}, cannot take {count}",
                        c + 1,
                        crate::plural(n, "card")
                    )));
                }
                let k = n - count;
                let tl = l.cascade_card(c, k);
                let dy = if k + 1 == n { l.ch / 2 } else { l.yoff / 2 };
                Ok(((tl.0 + l.cw / 2, tl.1 + dy), tl))
            }
            Loc::Freecell(i) => {
                let tl = l.freecell(i as usize);
                Ok(((tl.0 + l.cw / 2, tl.1 + l.ch / 2), tl))
            }
            Loc::Foundation => Err(GuiError::Replay(
                "moves from the foundation are not used".into(),
            )),
        }
    }

    /// Top-left (game coordinates) where the moved card lands; PySolFC's drag-n-drop picks the
    /// stack whose origin is closest to the dragged card's top-left (`Game.getClosestStack`).
    fn landing(&self, board: &Position, to: Loc, card_suit: usize) -> (i32, i32) {
        let l = &self.layout;
        match to {
            Loc::Cascade(c) => l.cascade_card(c as usize, board.cascades[c as usize].len()),
            Loc::Freecell(i) => l.freecell(i as usize),
            Loc::Foundation => l.foundation_of_suit(card_suit),
        }
    }

    /// Send the mouse gesture for `mv` on `board` (the position before it). With `misdrag`
    /// (test hook) the cards are released 3 px from where they were taken, which PySolFC
    /// treats as no move (its 10 px rule, `OpenStack.releaseHandler`).
    pub fn gesture(
        &mut self,
        origin: (i32, i32),
        board: &Position,
        mv: &PlayedMove,
        misdrag: bool,
    ) -> Result<(), GuiError> {
        let (from, to) = (mv.mv.from, mv.mv.to);
        let (press, src_tl) = self.grab(board, from, mv.mv.count as usize)?;
        let dest_tl = self.landing(board, to, mv.card.suit().index());
        let scr = |p: (i32, i32)| (origin.0 + p.0, origin.1 + p.1);
        let release = if misdrag {
            (press.0 + 3, press.1 + 3)
        } else {
            match self.mode {
                MouseMode::Drag => (
                    press.0 + dest_tl.0 - src_tl.0,
                    press.1 + dest_tl.1 - src_tl.1,
                ),
                MouseMode::Click => {
                    let l = &self.layout;
                    match to {
                        Loc::Cascade(c) if !board.cascades[c as usize].is_empty() => {
                            let c = c as usize;
                            let tl = l.cascade_card(c, board.cascades[c].len() - 1);
                            (tl.0 + l.cw / 2, tl.1 + l.ch / 2)
                        }
                        Loc::Cascade(c) => {
                            let tl = l.cascade_card(c as usize, 0);
                            (tl.0 + l.cw / 2, tl.1 + l.ch / 2)
                        }
                        _ => (dest_tl.0 + l.cw / 2, dest_tl.1 + l.ch / 2),
                    }
                }
            }
        };
        match self.mode {
            MouseMode::Drag => self.input.drag(scr(press), scr(release), 8)?,
            MouseMode::Click => {
                self.input.click(scr(press))?;
                std::thread::sleep(Duration::from_millis(60));
                self.input.click(scr(release))?;
            }
        }
        // Park the pointer on the table's empty right margin, away from every stack.
        let park = scr((self.layout.width() + 5, self.layout.height() - 5));
        self.input.park(park)
    }

    /// Poll the screen until it shows `expected` with PySolFC idle (Taken), or still `before`
    /// with PySolFC idle (NotTaken), or something else / the timeout (Unexpected).
    /// "Idle" = the process used no CPU between two polls ≥ 150 ms apart (`/proc/PID/stat`);
    /// NotTaken/Unexpected need 1.5 s of idleness and 2.5 s overall, so a loaded machine that
    /// has not yet scheduled PySolFC is not mistaken for a dropped move.
    pub fn wait_for(&self, before: &Position, expected: &Position) -> Result<Outcome, GuiError> {
        let t0 = Instant::now();
        let mut last_cpu = cpu_ticks(self.pid);
        let mut idle_since: Option<Instant> = None;
        loop {
            std::thread::sleep(Duration::from_millis(150));
            let cpu = cpu_ticks(self.pid);
            let idle = self.pid == 0 || cpu == last_cpu;
            last_cpu = cpu;
            if idle {
                idle_since.get_or_insert_with(Instant::now);
            } else {
                idle_since = None;
            }
            let (shot, seen, _) = self.read()?;
            let board = seen.to_layout();
            let settled = idle && seen.unreadable.is_empty();
            if settled && board == *expected {
                return Ok(Outcome::Taken(shot, seen));
            }
            // The winning move opens PySolFC's "Game won" dialog over the (empty) cascades:
            // judge it by the foundations, read on their top strips above the dialog.
            if idle && expected.is_won() && seen.foundations == [13; 4] {
                return Ok(Outcome::Taken(shot, seen));
            }
            let long_idle = idle_since
                .map(|t| t.elapsed() >= Duration::from_millis(1500))
                .unwrap_or(false);
            if settled && long_idle && t0.elapsed() >= Duration::from_millis(2500) {
                return Ok(if board == *before {
                    Outcome::NotTaken(shot, seen)
                } else {
                    Outcome::Unexpected(shot, seen)
                });
            }
            if t0.elapsed() > self.move_timeout {
                return Ok(Outcome::Unexpected(shot, seen));
            }
        }
    }
}
