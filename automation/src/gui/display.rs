//! The X display: use `$DISPLAY` (or `--display :N` if a server is there), or start Xvfb plus
//! openbox on a free display, and stop what was started on drop, on error and on Ctrl-C.
//!
//! Every child process fcauto starts (Xvfb, openbox, PySolFC) is put in a process-wide
//! registry, which a handler of Ctrl-C, SIGTERM and SIGHUP empties (kills) before exiting with
//! 128 + the signal.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::GuiError;

static CHILDREN: Mutex<Vec<(u32, String, Child)>> = Mutex::new(Vec::new());
/// Temporary folders (a run's own PySolFC profile) and files (fc-solve's board) the signal
/// handler removes once the children are stopped.
static TEMP_DIRS: Mutex<Vec<std::path::PathBuf>> = Mutex::new(Vec::new());

/// Have the signal handler remove `dir` (a temporary folder, or file, whose owner's drop
/// would have), after it stops the children that use it.
pub fn remove_on_interrupt(dir: &Path) {
    TEMP_DIRS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(dir.to_path_buf());
}

/// `dir` is removed or kept by its owner: the signal handler leaves it alone.
pub fn forget_temp_dir(dir: &Path) {
    TEMP_DIRS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|d| d != dir);
}

/// Register `child` (named `what` for messages) so that Ctrl-C and [`kill_registered`] stop it.
pub fn register(what: &str, child: Child) -> u32 {
    let pid = child.id();
    CHILDREN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((pid, what.to_string(), child));
    pid
}

/// Stop and reap the registered child with process id `pid` (no-op if it is not registered).
pub fn kill_registered(pid: u32) {
    let entry = {
        let mut list = CHILDREN.lock().unwrap_or_else(|e| e.into_inner());
        list.iter()
            .position(|(p, _, _)| *p == pid)
            .map(|i| list.remove(i))
    };
    if let Some((_, _, mut child)) = entry {
        stop(&mut child);
    }
}

/// SIGTERM (so Xvfb removes its lock file and socket), up to 3 s grace, then SIGKILL; reap.
fn stop(child: &mut Child) {
    // SAFETY: kill(2) on our own child's pid; no memory is touched.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(3) {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Whether the registered child `pid` has exited; `Some(status code)` once it has.
pub fn exited(pid: u32) -> Option<i32> {
    let mut list = CHILDREN.lock().unwrap_or_else(|e| e.into_inner());
    let i = list.iter().position(|(p, _, _)| *p == pid)?;
    match list[i].2.try_wait() {
        Ok(Some(st)) => {
            list.remove(i);
            Some(st.code().unwrap_or(-1))
        }
        _ => None,
    }
}

/// Install the handler of Ctrl-C, SIGTERM and SIGHUP (once): kill every registered child,
/// newest first, remove the registered temporary folders, and exit with 128 + the signal (130, 143, 129), as the shell reports a
/// process the signal ended. A handler that cannot be installed leaves the signals' default
/// actions.
pub fn install_signal_handler() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            let Some(sig) = signals.forever().next() else {
                return;
            };
            let mut list = CHILDREN.lock().unwrap_or_else(|e| e.into_inner());
            while let Some((_, what, mut child)) = list.pop() {
                // (Not `eprintln!`: a standard error that cannot be written must not panic.)
                let _ = std::io::Write::write_fmt(
                    &mut std::io::stderr(),
                    format_args!("fcauto: interrupted, stopping {what}\n"),
                );
                stop(&mut child);
            }
            // An interrupted run leaves no temporary profile behind.
            for d in TEMP_DIRS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .drain(..)
            {
                let _ = std::fs::remove_dir_all(&d).or_else(|_| std::fs::remove_file(&d));
            }
            std::process::exit(128 + sig);
        });
    });
}

/// An X display in use: its name (`:N`) and the processes fcauto started for it, if any.
#[derive(Debug)]
pub struct Display {
    /// The display name, e.g. `:90`.
    pub name: String,
    /// Process ids of Xvfb and openbox when fcauto started them (stopped on drop).
    started: Vec<u32>,
}

impl Display {
    /// Pick the display: `requested` (`:N`; a server is started there if none runs), else
    /// `$DISPLAY`, else Xvfb (1024×768×24) plus openbox on the first free display from `:90`.
    /// Sets `DISPLAY` in this process so xcap and enigo connect to it.
    ///
    /// Errors: Xvfb/openbox missing (names the setup script), or not coming up (20 s / 60 s).
    pub fn acquire(requested: Option<&str>) -> Result<Display, GuiError> {
        let name = match requested {
            Some(d) => d.to_string(),
            None => match std::env::var("DISPLAY") {
                Ok(d) if !d.is_empty() => d,
                _ => free_display()
                    .ok_or_else(|| GuiError::Display("no free X display :90..:199".into()))?,
            },
        };
        let num = name
            .trim_start_matches(':')
            .split('.')
            .next()
            .unwrap_or("")
            .to_string();
        std::env::set_var("DISPLAY", &name);
        let mut disp = Display {
            name: name.clone(),
            started: Vec::new(),
        };
        if !num.is_empty() && x11rb::connect(Some(&name)).is_err() {
            disp.start_xvfb(&num)?;
            disp.start_openbox()?;
        }
        Ok(disp)
    }

    /// Whether fcauto started the X server (and so owns the whole display).
    pub fn is_own(&self) -> bool {
        !self.started.is_empty()
    }

    /// Leave the started Xvfb/openbox running after fcauto exits (for `--keep-open`).
    pub fn keep_running(mut self) {
        self.started.clear();
    }

    fn start_xvfb(&mut self, num: &str) -> Result<(), GuiError> {
        let child = Command::new("Xvfb")
            .args([
                &format!(":{num}"),
                "-screen",
                "0",
                "1024x768x24",
                "-nolisten",
                "tcp",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| GuiError::missing("Xvfb", &e))?;
        let pid = register("Xvfb", child);
        self.started.push(pid);
        let socket = format!("/tmp/.X11-unix/X{num}");
        wait_until(Duration::from_secs(20), || {
            Path::new(&socket).exists() && x11rb::connect(Some(&self.name)).is_ok()
        })
        .then_some(())
        .ok_or_else(|| GuiError::Display(format!("Xvfb :{num} did not come up within 20 s")))
    }

    /// Start openbox and wait until it manages the display. openbox sometimes exits with
    /// status 1 and no message when started right after Xvfb accepts connections (seen here
    /// under load), so an early exit is retried twice after a short pause.
    fn start_openbox(&mut self) -> Result<(), GuiError> {
        let log_path = std::env::temp_dir().join(format!(
            "fcauto-openbox-{}.log",
            self.name.trim_start_matches(':')
        ));
        let mut last_err = String::new();
        for attempt in 1..=3 {
            let log = std::fs::File::create(&log_path)
                .map_err(|e| GuiError::Display(format!("{}: {e}", log_path.display())))?;
            let child = Command::new("openbox")
                .arg("--sm-disable")
                .env("DISPLAY", &self.name)
                // openbox writes $XDG_CACHE_HOME/openbox/openbox.log: keep it out of the
                // user's ~/.cache
                .env(
                    "XDG_CACHE_HOME",
                    std::env::temp_dir().join("fcauto-openbox-cache"),
                )
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .map_err(|e| GuiError::missing("openbox", &e))?;
            let pid = register("openbox", child);
            let mut status = None;
            let up = wait_until(Duration::from_secs(60), || {
                status = status.or_else(|| exited(pid));
                status.is_some() || super::screen::wm_running().unwrap_or(false)
            });
            match (up, status) {
                (true, None) => {
                    self.started.push(pid);
                    return Ok(());
                }
                (false, None) => {
                    kill_registered(pid);
                    return Err(GuiError::Display(
                        "openbox did not take the display within 60 s".into(),
                    ));
                }
                (_, Some(code)) => {
                    let text = std::fs::read_to_string(&log_path).unwrap_or_default();
                    last_err = format!(
                        "openbox exited with status {code} on {} (attempt {attempt}): {}",
                        self.name,
                        text.lines().last().unwrap_or("")
                    );
                    std::thread::sleep(Duration::from_millis(500));
                }
            }
        }
        Err(GuiError::Display(last_err))
    }
}

impl Drop for Display {
    /// Stop openbox, then Xvfb, if fcauto started them.
    fn drop(&mut self) {
        for pid in self.started.drain(..).rev() {
            kill_registered(pid);
        }
    }
}

/// Poll `cond` every 100 ms until it holds (true) or `timeout` passes (false).
pub fn wait_until(timeout: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let t0 = Instant::now();
    loop {
        if cond() {
            return true;
        }
        if t0.elapsed() > timeout {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn free_display() -> Option<String> {
    (90..200)
        .find(|n| {
            !Path::new(&format!("/tmp/.X{n}-lock")).exists()
                && !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
        })
        .map(|n| format!(":{n}"))
}
