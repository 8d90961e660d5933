//! A headless Debian `chromium` driven through the DevTools protocol over
//! `--remote-debugging-pipe` (commands on fd 3, replies on fd 4, each a JSON message ended by
//! a NUL byte), for the tests of the replay page and of `fcauto serve`'s page.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::os::unix::io::FromRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// A headless chromium and its DevTools pipe.
pub struct Browser {
    child: Child,
    to: std::fs::File,
    from: Receiver<Value>,
    next_id: u64,
    session: Option<String>,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A pipe whose two ends are moved to descriptors >= 10 with close-on-exec set, so that
/// `dup2` onto 3 and 4 in the child cannot clobber them. Returns (read end, write end).
fn high_pipe() -> (i32, i32) {
    let mut fds = [0i32; 2];
    // SAFETY: plain POSIX calls on descriptors this function owns.
    unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0, "pipe");
        let r = libc::fcntl(fds[0], libc::F_DUPFD_CLOEXEC, 10);
        let w = libc::fcntl(fds[1], libc::F_DUPFD_CLOEXEC, 10);
        assert!(r >= 10 && w >= 10, "F_DUPFD_CLOEXEC");
        libc::close(fds[0]);
        libc::close(fds[1]);
        (r, w)
    }
}

impl Browser {
    /// Start chromium on `url` with a fresh profile in `profile`.
    pub fn launch(url: &str, profile: &std::path::Path) -> Browser {
        let (cmd_r, cmd_w) = high_pipe();
        let (ev_r, ev_w) = high_pipe();
        let mut c = Command::new("chromium");
        c.args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--remote-debugging-pipe",
            "--window-size=1000,1000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // SAFETY: only async-signal-safe dup2 calls between fork and exec.
        unsafe {
            c.pre_exec(move || {
                if libc::dup2(cmd_r, 3) < 0 || libc::dup2(ev_w, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = c.spawn().expect("start chromium");
        // SAFETY: the parent owns these descriptors from here on.
        let (to, mut from_file) = unsafe {
            libc::close(cmd_r);
            libc::close(ev_w);
            (
                std::fs::File::from_raw_fd(cmd_w),
                std::fs::File::from_raw_fd(ev_r),
            )
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 65536];
            while let Ok(n) = from_file.read(&mut chunk) {
                if n == 0 {
                    return;
                }
                buf.extend_from_slice(&chunk[..n]);
                while let Some(end) = buf.iter().position(|&b| b == 0) {
                    let msg: Vec<u8> = buf.drain(..=end).collect();
                    if let Ok(v) = serde_json::from_slice(&msg[..msg.len() - 1]) {
                        if tx.send(v).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Browser {
            child,
            to,
            from: rx,
            next_id: 1,
            session: None,
        }
    }

    /// Send a command (to the attached page once there is one) and wait for its result.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = &self.session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = msg.to_string().into_bytes();
        bytes.push(0);
        self.to.write_all(&bytes).expect("write to chromium");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self
                .from
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no reply from chromium to {method}"));
            if v["id"] == json!(id) {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    /// Attach to the page target (the page given on the command line).
    pub fn attach_page(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        let target = loop {
            let t = self.call("Target.getTargets", json!({}));
            let page = t["targetInfos"]
                .as_array()
                .and_then(|a| a.iter().find(|i| i["type"] == "page").cloned());
            if let Some(p) = page {
                break p["targetId"].as_str().unwrap().to_string();
            }
            assert!(Instant::now() < deadline, "no page target");
            std::thread::sleep(Duration::from_millis(100));
        };
        let r = self.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        self.session = Some(r["sessionId"].as_str().unwrap().to_string());
    }

    /// Evaluate `expr` in the page; its value (JSON).
    pub fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true}),
        );
        r["result"]["value"].clone()
    }

    /// Press and release a key (`ArrowRight`, `End`, ...) with its Windows key code.
    pub fn key(&mut self, key: &str, code: u32) {
        self.key_with(key, code, 0);
    }

    /// [`Browser::key`] with modifiers held (DevTools' bits: 1 Alt, 2 Ctrl, 4 Meta, 8 Shift).
    pub fn key_with(&mut self, key: &str, code: u32, modifiers: u32) {
        for t in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": t, "key": key, "code": key, "windowsVirtualKeyCode": code,
                       "modifiers": modifiers}),
            );
        }
    }
}

/// Wait until `expr` evaluates to `want` in the page (at most 30 s).
pub fn wait_for(b: &mut Browser, expr: &str, want: &Value) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while &b.eval(expr) != want {
        assert!(
            Instant::now() < deadline,
            "the page never had {expr} == {want}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A PNG screenshot of the page, kept as `name` in the tests' temporary folder; its path.
pub fn screenshot(b: &mut Browser, name: &str) -> std::path::PathBuf {
    use base64::Engine;
    let shot = b.call("Page.captureScreenshot", json!({"format": "png"}));
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().unwrap())
        .unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&out, &png).unwrap();
    eprintln!("screenshot: {}", out.display());
    out
}
