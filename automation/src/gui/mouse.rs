//! Mouse and keyboard input through enigo (XTest on X11).

use std::thread::sleep;
use std::time::Duration;

use enigo::{Button, Coordinate, Direction, Enigo, Key, Keyboard, Mouse, Settings};

use super::GuiError;

/// A connection that sends input to the display in `$DISPLAY`.
pub struct Input {
    enigo: Enigo,
}

fn ierr(e: impl std::fmt::Display) -> GuiError {
    GuiError::Input(e.to_string())
}

impl Input {
    /// Connect to the X display.
    pub fn new() -> Result<Input, GuiError> {
        let settings = Settings {
            linux_delay: 0,
            ..Settings::default()
        };
        Ok(Input {
            enigo: Enigo::new(&settings).map_err(ierr)?,
        })
    }

    /// Press the left button at `from`, move to `to` in `steps` motion events, release there:
    /// a drag as a person makes it (Tk sees press, motion, release).
    pub fn drag(&mut self, from: (i32, i32), to: (i32, i32), steps: i32) -> Result<(), GuiError> {
        let e = &mut self.enigo;
        e.move_mouse(from.0, from.1, Coordinate::Abs)
            .map_err(ierr)?;
        sleep(Duration::from_millis(30));
        e.button(Button::Left, Direction::Press).map_err(ierr)?;
        sleep(Duration::from_millis(30));
        for i in 1..=steps {
            let x = from.0 + (to.0 - from.0) * i / steps;
            let y = from.1 + (to.1 - from.1) * i / steps;
            e.move_mouse(x, y, Coordinate::Abs).map_err(ierr)?;
            sleep(Duration::from_millis(15));
        }
        sleep(Duration::from_millis(30));
        e.button(Button::Left, Direction::Release).map_err(ierr)?;
        Ok(())
    }

    /// One left click at `at`.
    pub fn click(&mut self, at: (i32, i32)) -> Result<(), GuiError> {
        self.enigo
            .move_mouse(at.0, at.1, Coordinate::Abs)
            .map_err(ierr)?;
        sleep(Duration::from_millis(30));
        self.enigo
            .button(Button::Left, Direction::Click)
            .map_err(ierr)
    }

    /// Move the pointer out of the way (to `at`), so it does not hover over cards.
    pub fn park(&mut self, at: (i32, i32)) -> Result<(), GuiError> {
        self.enigo
            .move_mouse(at.0, at.1, Coordinate::Abs)
            .map_err(ierr)
    }

    /// Press Escape (closes PySolFC's "Game won" dialog: Cancel).
    pub fn escape(&mut self) -> Result<(), GuiError> {
        self.enigo.key(Key::Escape, Direction::Click).map_err(ierr)
    }

    /// Press Ctrl+Q (PySolFC's File→Quit, which writes statistics.dat and options.cfg).
    pub fn ctrl_q(&mut self) -> Result<(), GuiError> {
        self.enigo
            .key(Key::Control, Direction::Press)
            .map_err(ierr)?;
        let r = self
            .enigo
            .key(Key::Unicode('q'), Direction::Click)
            .map_err(ierr);
        self.enigo
            .key(Key::Control, Direction::Release)
            .map_err(ierr)?;
        r
    }
}
