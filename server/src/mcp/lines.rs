//! The JSON-RPC lines between stdin/stdout and rmcp (see [`super`]): lines that are not
//! JSON-RPC 2.0 messages MCP takes are answered here, the rest handed on; requests are
//! tracked by id until answered.

use super::era::{lifecycle, Era, Lifecycle};
use fcauto_engine::service;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::sync::Notify;
use tokio::task::JoinHandle;

/// Longest wait, once stdin has ended, for the answers to requests under way (each tool
/// call is capped well below it; a request rmcp never answers must not hold the exit).
const DRAIN: Duration = Duration::from_secs(120);

/// The ids (as JSON text) of the requests handed to rmcp and not answered yet.
#[derive(Default)]
struct InFlight {
    ids: Mutex<HashSet<String>>,
    answered: Notify,
}

impl InFlight {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.ids.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Track `id`; false when a request with it is in flight already.
    fn add(&self, id: &str) -> bool {
        self.lock().insert(id.to_string())
    }

    /// `id` was answered (or cancelled): stop tracking it.
    fn done(&self, id: &str) {
        if self.lock().remove(id) {
            self.answered.notify_waiters();
        }
    }

    /// Wait until every tracked request has been answered, at most [`DRAIN`]; the number
    /// left unanswered.
    async fn drain(&self) -> usize {
        let all_answered = async {
            loop {
                let next = self.answered.notified();
                if self.lock().is_empty() {
                    return;
                }
                next.await;
            }
        };
        let _ = tokio::time::timeout(DRAIN, all_answered).await;
        self.lock().len()
    }
}

/// An `id`'s key in [`InFlight`].
fn id_key(id: &serde_json::Value) -> String {
    id.to_string()
}

/// Longest line read, bytes (rmcp's own limit): a longer one is answered as an invalid
/// request instead of being held in memory.
const MAX_LINE: usize = 16 << 20;
/// Bytes buffered between these tasks and rmcp.
const PIPE: usize = 64 << 10;

/// The two tasks that move the lines.
pub struct Lines {
    reader: JoinHandle<()>,
    writer: JoinHandle<()>,
}

/// Start reading stdin and writing stdout; the transport to give rmcp.
pub fn start(on_unanswered: super::OnUnanswered) -> ((DuplexStream, DuplexStream), Lines) {
    let (to_rmcp, rmcp_in) = tokio::io::duplex(PIPE);
    let (rmcp_out, from_rmcp) = tokio::io::duplex(PIPE);
    let (tx, rx) = unbounded_channel();
    let in_flight = Arc::new(InFlight::default());
    let lines = Lines {
        reader: tokio::spawn(read_stdin(to_rmcp, tx, in_flight.clone(), on_unanswered)),
        writer: tokio::spawn(write_stdout(from_rmcp, rx, in_flight)),
    };
    ((rmcp_in, rmcp_out), lines)
}

impl Lines {
    /// After rmcp's session ended: stop reading, write what is left.
    pub async fn finish(self) {
        self.reader.abort();
        let _ = self.writer.await;
    }
}

/// The answer to a line that is not JSON, per JSON-RPC 2.0.
fn parse_error(e: &serde_json::Error) -> String {
    let msg = format!("Parse error: the line is not JSON ({e})");
    serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": msg}})
        .to_string()
}

/// The answer to a line over [`MAX_LINE`].
fn too_long() -> String {
    let msg = format!("Invalid Request: a line is at most {MAX_LINE} bytes");
    serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": msg}})
        .to_string()
}

/// What becomes of `line` (not blank), read as JSON once: our answer when it is not JSON,
/// or JSON that is no JSON-RPC 2.0 message ([`invalid_request`]), or a message MCP's
/// lifecycle does not allow yet ([`lifecycle`]); else it is handed on to rmcp.
fn route(line: &[u8], era: &mut Era) -> Lifecycle {
    match serde_json::from_slice::<serde_json::Value>(line) {
        Err(e)
            if matches!(
                e.classify(),
                serde_json::error::Category::Syntax | serde_json::error::Category::Eof
            ) && !e.to_string().starts_with("number out of range") =>
        {
            Lifecycle::Answer(parse_error(&e))
        }
        Ok(v) => match invalid_request(&v) {
            Some(a) => Lifecycle::Answer(a),
            None => match lifecycle(&v, era) {
                // The message as read (a key given twice, which rmcp refuses without
                // naming the `id`, is read as its last value, as checked above).
                Lifecycle::HandOn(..) if arguments_not_object(&v) => {
                    Lifecycle::Answer(invalid_arguments(&v))
                }
                Lifecycle::HandOn(..) => {
                    let mut line = serde_json::to_vec(&v).expect("a JSON value serialises");
                    line.push(b'\n');
                    let request = v.get("method").and(v.get("id")).map(id_key);
                    Lifecycle::HandOn(Some(line), request)
                }
                other => other,
            },
        },
        // Valid JSON serde_json cannot hold (a number beyond a 64-bit float's range):
        // answered with the request's id when that can be read.
        Err(e) => unreadable_number(line, &e).map_or(Lifecycle::Drop, Lifecycle::Answer),
    }
}

/// True for a `tools/call` whose `arguments` are given but are no JSON object: `null`
/// included, which rmcp reads as no arguments (it would answer with a tool error, "missing
/// field `deal`", where the answer is -32602).
fn arguments_not_object(v: &serde_json::Value) -> bool {
    v.get("method").and_then(|m| m.as_str()) == Some("tools/call")
        && v.get("params")
            .and_then(|p| p.get("arguments"))
            .is_some_and(|a| !a.is_object())
}

/// The `-32602` answer to [`arguments_not_object`], with the request's `id`.
fn invalid_arguments(v: &serde_json::Value) -> String {
    let message = super::ARGUMENTS_ERROR;
    let id = v.get("id").cloned().unwrap_or(serde_json::Value::Null);
    serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": message}})
        .to_string()
}

/// The answer to a line of valid JSON that cannot be read into values (`1e400`: JSON's
/// grammar has no limit, a 64-bit float has): `-32602` with the request's `id` when that
/// can be read on its own (not `-32700` with `id: null`, which no client can match to its
/// request), else `-32700` (`id: null`), saying so; `None` (no answer) for a
/// message without an id (a notification).
fn unreadable_number(line: &[u8], e: &serde_json::Error) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct IdOnly {
        id: Option<serde_json::Value>,
    }
    let read = serde_json::from_slice::<IdOnly>(line).ok();
    if read.as_ref().is_some_and(|m| m.id.is_none()) {
        // A notification (or a response without an id) gets no answer.
        return None;
    }
    let id = read
        .and_then(|m| m.id)
        .filter(|id| id.is_string() || id.as_i64().is_some());
    let why = format!("a number this server cannot read ({e}): numbers are at most about 1.8e308");
    let (id, code, msg) = match id {
        Some(id) => (id, -32602, format!("Invalid params: {why}")),
        None => (
            serde_json::Value::Null,
            -32700,
            format!("Parse error: {why}"),
        ),
    };
    Some(
        serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": msg}})
            .to_string(),
    )
}

/// The `-32600` answer to a JSON value that is not a JSON-RPC 2.0 message MCP takes, with
/// its `id` when one can be read (else `id: null`, as JSON-RPC requires; rmcp answers
/// these without any `id`): not an object (batches are not part of MCP), no `"jsonrpc":
/// "2.0"`, an `id` rmcp does not take (not a string or a 64-bit signed integer: `null`,
/// `true`, `1.5`, 2^63), a `method` that is not a string or comes with a `result` or
/// `error`, neither a request nor a response (exactly one of `result` and `error`), or
/// `params` that are not an object. None for a message to hand on. Over HTTP as over stdio.
pub(super) fn invalid_request(v: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let why = match v {
        Value::Object(m) => {
            let method = m.get("method");
            let (result, error) = (m.contains_key("result"), m.contains_key("error"));
            // rmcp takes ids that are strings or 64-bit signed integers.
            let id_ok = match m.get("id") {
                None | Some(Value::String(_)) => true,
                Some(Value::Number(n)) => n.is_i64(),
                Some(_) => false,
            };
            if m.get("jsonrpc").and_then(|j| j.as_str()) != Some("2.0") {
                Some("\"jsonrpc\" must be \"2.0\"")
            } else if !id_ok {
                Some("an \"id\" is a string or an integer (64-bit signed)")
            } else if method.is_some_and(|x| !x.is_string()) {
                Some("\"method\" must be a string")
            } else if method.is_some() && (result || error) {
                Some("a request has no \"result\" or \"error\"")
            } else if method.is_none() && result == error {
                Some("a request needs a \"method\", a response one of \"result\" and \"error\"")
            } else if method.is_none() && !m.contains_key("id") {
                // (rmcp would answer it without an id, in words of its own.)
                Some("a response carries the \"id\" of the request it answers")
            } else if m.get("params").is_some_and(|x| !x.is_object()) {
                Some("MCP's \"params\" are an object")
            } else {
                None
            }
        }
        Value::Array(_) => Some("batches are not part of MCP: send one message a line"),
        _ => Some("a message is a JSON object"),
    }?;
    // An id is echoed as sent; a whole number past 64 bits was read as a float, whose
    // digits are lost (`1e+20` for 99999999999999999999), so it is no id a client could
    // match: `null`, as JSON-RPC says for an id that cannot be read.
    let id = match v.get("id") {
        Some(id @ Value::String(_)) => id.clone(),
        Some(Value::Number(n))
            if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() != 0.0) =>
        {
            Value::Number(n.clone())
        }
        _ => Value::Null,
    };
    let msg = format!("Invalid Request: {why}");
    Some(
        serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": msg}})
            .to_string(),
    )
}

/// Read stdin a line at a time (at most [`MAX_LINE`] bytes) until it ends: answer the
/// lines that are not JSON through `answers`, hand the others to rmcp.
async fn read_stdin(
    mut to_rmcp: DuplexStream,
    answers: UnboundedSender<String>,
    in_flight: Arc<InFlight>,
    on_unanswered: super::OnUnanswered,
) {
    let mut on_unanswered = Some(on_unanswered);
    let mut input = BufReader::new(tokio::io::stdin());
    let mut line = Vec::new();
    // Which revision the connection serves, once its first request has said.
    let mut era = Era::Open;
    loop {
        line.clear();
        let limit = MAX_LINE as u64 + 1;
        match (&mut input).take(limit).read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => {
                // Stdin ended: the requests under way are answered before rmcp hears of
                // it (it would drop them).
                let left = in_flight.drain().await;
                if let Some(tell) = on_unanswered.take().filter(|_| left > 0) {
                    tell(left, DRAIN);
                }
                return;
            }
            Ok(_) => {}
        }
        if line.len() > MAX_LINE && line.last() != Some(&b'\n') {
            // Skip to the end of the line, then say why it went unanswered.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                match (&mut input).take(limit).read_until(b'\n', &mut rest).await {
                    Ok(0) | Err(_) => return,
                    Ok(_) if rest.last() == Some(&b'\n') => break,
                    Ok(_) => {}
                }
            }
            let _ = answers.send(too_long());
            continue;
        }
        if line.trim_ascii().is_empty() {
            continue;
        }
        match route(&line, &mut era) {
            Lifecycle::Answer(a) => {
                let _ = answers.send(a);
            }
            Lifecycle::Drop => {}
            Lifecycle::HandOn(as_read, request) => {
                if let Some(id) = &request {
                    if !in_flight.add(id) {
                        let _ = answers.send(id_in_use(id));
                        continue;
                    }
                }
                if let Some(id) = cancelled(as_read.as_deref().unwrap_or(&line)) {
                    // MCP: a cancelled request gets no answer.
                    in_flight.done(&id);
                }
                if to_rmcp
                    .write_all(as_read.as_deref().unwrap_or(&line))
                    .await
                    .is_err()
                {
                    return;
                }
            }
        }
    }
}

/// The `-32600` answer to a request whose id (`id`, as JSON text) a request not yet
/// answered has.
fn id_in_use(id: &str) -> String {
    let msg = format!(
        "Invalid Request: id {id} is in use by a request not answered yet (a request's id \
         is unique among those in flight)"
    );
    let id: serde_json::Value = serde_json::from_str(id).unwrap_or_default();
    serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": msg}})
        .to_string()
}

/// The id (as JSON text) of the request a `notifications/cancelled` line cancels.
fn cancelled(line: &[u8]) -> Option<String> {
    let needle = b"notifications/cancelled";
    if !line.windows(needle.len()).any(|w| w == needle) {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(line).ok()?;
    (v.get("method")?.as_str()? == "notifications/cancelled")
        .then(|| v.pointer("/params/requestId").map(id_key))
        .flatten()
}

/// rmcp's line `line`, with its error messages in words of ours: a `-32601` answer's
/// (rmcp's is the bare method name) saying what it means and which methods there are;
/// every error message, and a tool error's text, with long inputs cut
/// ([`service::short_echoes`]: rmcp's "failed to deserialize parameters" would quote a
/// 900 KB argument whole).
pub(super) fn rewrite_answer(line: Vec<u8>) -> Vec<u8> {
    let has = |needle: &[u8]| line.windows(needle.len()).any(|w| w == needle);
    if !has(b"\"error\"") && !has(b"\"isError\":true") {
        return line;
    }
    let Ok(mut v) = serde_json::from_slice::<serde_json::Value>(&line) else {
        return line;
    };
    let short = |m: &mut serde_json::Value| {
        if let Some(text) = m.as_str() {
            *m = service::short_echoes(text).into();
        }
    };
    // Only a JSON-RPC error object (an HTTP answer of ours may carry `"error": "..."`).
    if let Some(error) = v.get_mut("error").filter(|e| e.is_object()) {
        if error["code"] == -32601 {
            let method = error["message"].as_str().unwrap_or_default().to_string();
            error["message"] = format!(
                "Method not found: {method:?} (this server answers initialize, ping, tools/list, \
                 tools/call, resources/list and resources/read on MCP 2025-11-25; \
                 server/discover, tools/list, tools/call, resources/list and resources/read \
                 on 2026-07-28)"
            )
            .into();
        }
        short(&mut error["message"]);
    }
    if v.pointer("/result/isError") == Some(&serde_json::Value::Bool(true)) {
        if let Some(blocks) = v
            .pointer_mut("/result/content")
            .and_then(|c| c.as_array_mut())
        {
            for text in blocks.iter_mut().filter_map(|b| b.get_mut("text")) {
                short(text);
            }
        }
    }
    serde_json::to_vec(&v).unwrap_or(line)
}

/// Write rmcp's lines and ours to stdout, whole lines, until both have ended.
async fn write_stdout(
    from_rmcp: DuplexStream,
    mut ours: UnboundedReceiver<String>,
    in_flight: Arc<InFlight>,
) {
    let mut out = tokio::io::stdout();
    let mut theirs = BufReader::new(from_rmcp).split(b'\n');
    let (mut rmcp_open, mut ours_open) = (true, true);
    while rmcp_open || ours_open {
        let (line, answered) = tokio::select! {
            l = theirs.next_segment(), if rmcp_open => match l {
                Ok(Some(l)) => {
                    let id = answer_id(&l);
                    (rewrite_answer(l), id)
                }
                _ => { rmcp_open = false; continue; }
            },
            l = ours.recv(), if ours_open => match l {
                Some(l) => (l.into_bytes(), None),
                None => { ours_open = false; continue; }
            },
        };
        // Free before it is written: a client that has read the answer may use the id
        // again at once (this line is written before the session ends either way).
        if let Some(id) = answered {
            in_flight.done(&id);
        }
        let written = async {
            out.write_all(&line).await?;
            out.write_all(b"\n").await?;
            out.flush().await
        };
        if written.await.is_err() {
            return;
        }
    }
}

/// The id (as JSON text) of rmcp's line when it answers a request (a notification of
/// rmcp's has none).
fn answer_id(line: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Answer {
        id: Option<serde_json::Value>,
        method: Option<serde::de::IgnoredAny>,
    }
    let a: Answer = serde_json::from_slice(line).ok()?;
    a.method
        .is_none()
        .then_some(a.id.as_ref().map(id_key))
        .flatten()
}
