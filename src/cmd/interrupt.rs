//! Temporary files removed when the run is interrupted (Ctrl-C, SIGTERM, SIGHUP): a killed
//! run leaves no half-written file behind. Files are registered while they are written and
//! forgotten once put in place; a thread waiting on `signal-hook`'s signal iterator removes
//! the registered ones and exits with 128 + the signal (130, 143, 129). The partial files'
//! names, and the removal of those that killed runs left, are [`fcauto_engine::partial`]'s.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

/// The exit code of a run stopped by Ctrl-C: 128 + SIGINT (what a server that returns only
/// when Ctrl-C stopped it, `serve` and `mcp --http`, exits with).
#[cfg(any(feature = "serve", feature = "mcp"))]
pub const CTRL_C_EXIT: i32 = 128 + SIGINT;

/// The temporary files being written now.
static FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Remove `path` if the run is interrupted before [`forget`] is called for it.
pub fn remove_on_interrupt(path: &Path) {
    static HANDLER: Once = Once::new();
    HANDLER.call_once(|| {
        // An error leaves the signals' default actions (the process ends, the file stays).
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(sig) = signals.forever().next() {
                for p in lock().drain(..) {
                    let _ = std::fs::remove_file(p);
                }
                crate::note!("fcauto: interrupted");
                std::process::exit(128 + sig);
            }
        });
    });
    lock().push(path.to_path_buf());
}

/// `path` is complete or already removed: an interruption leaves it alone.
pub fn forget(path: &Path) {
    lock().retain(|p| p != path);
}

fn lock() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    FILES.lock().unwrap_or_else(|e| e.into_inner())
}
