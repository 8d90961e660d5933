//! Partial files: an output written under a temporary name beside it (`.NAME.partial-PID`)
//! and renamed over it when complete, so that no reader sees a half-written file (`bench
//! --json`, `batch merge`); and the partial files of runs killed before they could remove
//! their own, removed by the next run. What an interruption removes is the command's (it
//! handles the signals: [`Cleanup`]).

use std::path::{Path, PathBuf};

/// How the command keeps a partial file from outliving an interruption (Ctrl-C, SIGTERM,
/// SIGHUP): `register` is called once the file is made (an interruption then removes it),
/// `forget` once it is in place or removed.
#[derive(Clone, Copy)]
pub struct Cleanup {
    /// The partial file is being written: remove it if the run is interrupted.
    pub register: fn(&Path),
    /// The partial file is in place or removed: an interruption leaves it alone.
    pub forget: fn(&Path),
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
/// is gone. (Ctrl-C, SIGTERM and SIGHUP remove their own: [`Cleanup`].) Files of a run still going are
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
