//! A live `fcauto mcp` over standard input and output, past the handshake, for the tests
//! of its tools.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// A running `fcauto mcp` past the handshake (revision 2025-11-25), stopped when dropped.
pub struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    next_id: u64,
}

/// How long an answer may take: an analysis may take its full minute, so two.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(120);

impl Session {
    /// Start `fcauto mcp`, before any handshake.
    pub fn spawn() -> Session {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("fcauto"))
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("fcauto mcp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
            next_id: 1,
        }
    }

    /// Start `fcauto mcp` and make the handshake (revision 2025-11-25).
    pub fn start() -> Session {
        let mut s = Session::spawn();
        s.handshake("2025-11-25");
        s
    }

    /// `initialize` at protocol `revision` (its result), then `notifications/initialized`.
    pub fn handshake(&mut self, revision: &str) -> Value {
        let init = json!({"protocolVersion": revision, "capabilities": {},
                          "clientInfo": {"name": "fcauto test", "version": "1"}});
        let result = self.request("initialize", init);
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        result
    }

    /// Write one message as a line.
    pub fn send(&mut self, msg: &Value) {
        self.send_line(&msg.to_string());
    }

    /// Write `line` as it is (it need not be JSON).
    pub fn send_line(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line the server writes, which must be JSON.
    pub fn next_message(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(ANSWER_TIMEOUT)
            .expect("an answer in time");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Number the following requests from `id` on.
    pub fn use_ids_from(&mut self, id: u64) {
        self.next_id = id;
    }

    /// Send a request and return the whole answer (result or error), skipping
    /// notifications.
    pub fn raw_request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let msg = self.next_message();
            if msg["id"] == json!(id) {
                return msg;
            }
        }
    }

    /// A request that must be answered without a protocol error: its result.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let msg = self.raw_request(method, params);
        assert!(msg.get("error").is_none(), "{method}: {msg}");
        msg["result"].clone()
    }

    /// A tool that must succeed: its whole result.
    pub fn tool(&mut self, tool: &str, arguments: Value) -> Value {
        let r = self.call(tool, arguments);
        assert_ne!(r["isError"], json!(true), "{tool} failed: {r}");
        r
    }

    /// A tool that must succeed: its structured answer.
    pub fn structured(&mut self, tool: &str, arguments: Value) -> Value {
        self.tool(tool, arguments)["structuredContent"].clone()
    }

    /// A tool's whole result, a tool error included.
    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
