//! Temporary files removed when the run is interrupted (Ctrl-C, SIGTERM, SIGHUP): a killed
//! run leaves no half-written file behind. Files are registered while they are written and
//! forgotten once put in place; a thread waiting on `signal-hook`'s signal iterator removes
//! the registered ones and exits with 128 + the signal (130, 143, 129).

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

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

/// This process's temporary file beside `out` (`.NAME.partial-PID`), which a command writes
/// and renames over `out` when complete (`bench --json`, `batch merge`).
pub fn temp_beside(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    out.with_file_name(format!(".{name}.partial-{}", std::process::id()))
}

/// Remove what runs writing `out` left beside it when killed with SIGKILL (which no handler
/// sees): their [`temp_beside`] files, with a database's `-journal` / `-wal`, whose process
/// is gone. (Ctrl-C, SIGTERM and SIGHUP remove their own.) Files of a run still going are
/// kept, as is every other file.
pub fn remove_stale_temps(out: &Path) {
    let (Some(dir), Some(name)) = (out.parent(), out.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!(".{}.partial-", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&prefix) else {
            continue;
        };
        let pid = rest.trim_end_matches("-journal").trim_end_matches("-wal");
        let Ok(pid) = pid.parse::<libc::pid_t>() else {
            continue;
        };
        // SAFETY: kill with signal 0 sends nothing; it only asks whether the process exists.
        let gone = pid > 0
            && unsafe { libc::kill(pid, 0) } != 0
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// `path` is complete or already removed: an interruption leaves it alone.
pub fn forget(path: &Path) {
    lock().retain(|p| p != path);
}

fn lock() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    FILES.lock().unwrap_or_else(|e| e.into_inner())
}
