//! Screen capture (xcap) and window geometry (xcap + x11rb) for PySolFC's main window.

use image::RgbaImage;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt, Window as XWindow};

use super::GuiError;

/// PySolFC's flat table colour with `tabletile_name = None`: `[colors] table = #008200`
/// (default in `pysollib/options.py`).
pub const TABLE_GREEN: [u8; 3] = [0, 130, 0];

/// A rectangle in screen pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub w: i32,
    /// Height.
    pub h: i32,
}

/// A top-level window found on the display.
#[derive(Clone, Debug)]
pub struct WinInfo {
    /// X window id of the client window.
    pub id: u32,
    /// `_NET_WM_PID` (0 if unknown).
    pub pid: u32,
    /// Window title (`_NET_WM_NAME`/`WM_NAME`).
    pub title: String,
    /// Client area on the screen.
    pub client: Rect,
    /// The window manager's frame (title bar and borders) around it; equals `client` without a WM.
    pub frame: Rect,
}

fn xerr(e: impl std::fmt::Display) -> GuiError {
    GuiError::Screen(e.to_string())
}

/// Whether a window manager is running (the root window has `_NET_SUPPORTING_WM_CHECK`).
pub fn wm_running() -> Result<bool, GuiError> {
    let (conn, screen) = x11rb::connect(None).map_err(xerr)?;
    let root = conn.setup().roots[screen].root;
    let atom = conn
        .intern_atom(false, b"_NET_SUPPORTING_WM_CHECK")
        .map_err(xerr)?
        .reply()
        .map_err(xerr)?
        .atom;
    let prop = conn
        .get_property(
            false,
            root,
            atom,
            x11rb::protocol::xproto::AtomEnum::WINDOW,
            0,
            1,
        )
        .map_err(xerr)?
        .reply()
        .map_err(xerr)?;
    Ok(prop.value_len > 0)
}

/// The outermost ancestor below the root of `win` (the WM frame), as a screen rectangle.
fn frame_rect(win: XWindow) -> Result<Rect, GuiError> {
    let (conn, _) = x11rb::connect(None).map_err(xerr)?;
    let mut cur = win;
    loop {
        let tree = conn.query_tree(cur).map_err(xerr)?.reply().map_err(xerr)?;
        if tree.parent == tree.root || tree.parent == 0 {
            let g = conn
                .get_geometry(cur)
                .map_err(xerr)?
                .reply()
                .map_err(xerr)?;
            let t = conn
                .translate_coordinates(cur, tree.root, 0, 0)
                .map_err(xerr)?
                .reply()
                .map_err(xerr)?;
            let b = g.border_width as i32;
            return Ok(Rect {
                x: t.dst_x as i32 - b,
                y: t.dst_y as i32 - b,
                w: g.width as i32 + 2 * b,
                h: g.height as i32 + 2 * b,
            });
        }
        cur = tree.parent;
    }
}

/// All managed top-level windows whose title equals `title` (via `_NET_CLIENT_LIST_STACKING`,
/// which needs a window manager), skipping minimised ones.
pub fn find_windows(title: &str) -> Result<Vec<WinInfo>, GuiError> {
    let mut out = Vec::new();
    for w in xcap::Window::all().map_err(xerr)? {
        if w.title().map(|t| t == title).unwrap_or(false) && !w.is_minimized().unwrap_or(false) {
            let id = w.id().map_err(xerr)?;
            let client = Rect {
                x: w.x().map_err(xerr)?,
                y: w.y().map_err(xerr)?,
                w: w.width().map_err(xerr)? as i32,
                h: w.height().map_err(xerr)? as i32,
            };
            if client.w < 50 || client.h < 50 {
                continue;
            }
            let frame = frame_rect(id).unwrap_or(client);
            out.push(WinInfo {
                id,
                pid: w.pid().unwrap_or(0),
                title: title.to_string(),
                client,
                frame,
            });
        }
    }
    Ok(out)
}

/// Capture the whole first monitor (screen coordinates = image coordinates).
pub fn capture() -> Result<RgbaImage, GuiError> {
    let mon = xcap::Monitor::all()
        .map_err(xerr)?
        .into_iter()
        .next()
        .ok_or_else(|| GuiError::Screen("no monitor".into()))?;
    mon.capture_image().map_err(xerr)
}

/// Copy a rectangle out of a screenshot (clipped to the image).
pub fn crop(shot: &RgbaImage, r: Rect) -> RgbaImage {
    let x = r.x.clamp(0, shot.width() as i32) as u32;
    let y = r.y.clamp(0, shot.height() as i32) as u32;
    let w = (r.w as u32).min(shot.width() - x);
    let h = (r.h as u32).min(shot.height() - y);
    image::imageops::crop_imm(shot, x, y, w, h).to_image()
}

/// Whether the screenshot pixel at (x, y) is the table colour.
pub fn is_table(shot: &RgbaImage, x: i32, y: i32) -> bool {
    if x < 0 || y < 0 || x >= shot.width() as i32 || y >= shot.height() as i32 {
        return false;
    }
    let p = shot.get_pixel(x as u32, y as u32).0;
    p[..3] == TABLE_GREEN
}

/// Screen position of game point (0, 0): the canvas widget's first table-coloured row and
/// column inside `client`, plus PySolFC's canvas margin of 10 px (`MfxCanvas` x/ymargin,
/// scroll region starting at (−10, −10), `pysollib/tile/tkcanvas.py`). `None` if no table is seen.
pub fn game_origin(shot: &RgbaImage, client: Rect) -> Option<(i32, i32)> {
    let cx = client.x + client.w / 2;
    let top = (client.y..client.y + client.h).find(|&y| is_table(shot, cx, y))?;
    let mut left = cx;
    while left > client.x && is_table(shot, left - 1, top) {
        left -= 1;
    }
    Some((left + 10, top + 10))
}
