//! A live `fcauto serve` on an ephemeral loopback port, for the tests of the API and of
//! its page.
#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A server on an ephemeral loopback port, stopped when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT` (the address it listens on).
    pub base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Send the server signal `sig` and wait for it to end: its exit code (`None` when a
    /// signal ended it).
    pub fn stop_with(&mut self, sig: i32) -> Option<i32> {
        // SAFETY: kill(2) on our own child's pid, which has not been waited for yet.
        assert_eq!(unsafe { libc::kill(self.child.id() as i32, sig) }, 0);
        self.child.wait().unwrap().code()
    }
}

/// Start `fcauto serve --bind 127.0.0.1:0` and wait until it listens.
pub fn start() -> Server {
    start_on("127.0.0.1:0")
}

/// Start `fcauto serve --bind BIND` and wait until it listens.
pub fn start_on(bind: &str) -> Server {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("fcauto"))
        .args(["serve", "--bind", bind])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // It prints `fcauto serve: http://127.0.0.1:PORT/ ...` once listening.
    let mut line = String::new();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    err.read_line(&mut line).unwrap();
    // Keep reading its standard error, so that a later message cannot meet a closed pipe.
    std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("{line}"));
    Server {
        child,
        base: url.trim_end_matches('/').to_string(),
    }
}

/// An HTTP client with a minute's timeout.
pub fn agent() -> ureq::Agent {
    agent_for(60)
}

/// An HTTP client with a timeout of `secs` seconds.
pub fn agent_for(secs: u64) -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(secs))
        .build()
}

/// `POST /api/analyze` with `body` to the server at `base` (an analysis may take its full
/// minute, so the client waits two): the status and the JSON answer.
pub fn analyze(base: &str, body: &Value) -> (u16, Value) {
    let url = format!("{base}/api/analyze");
    call(&agent_for(120), "POST", &url, Some(body.clone()))
}

/// Status and JSON body of a request (any status).
pub fn call(a: &ureq::Agent, method: &str, url: &str, body: Option<Value>) -> (u16, Value) {
    let req = a.request(method, url);
    let r = match body {
        Some(b) => req.send_json(b),
        None => req.call(),
    };
    let resp = match r {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {url}: {e}"),
    };
    let status = resp.status();
    let text = resp.into_string().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}
