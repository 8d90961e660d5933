//! `fcauto mcp`: the rules engine as Model Context Protocol tools over stdio, through the
//! official Rust SDK `rmcp`, so that an AI agent can play FreeCell with fcauto refereeing
//! every move. Behind the cargo feature `mcp` (a build without it says how to get it).
//!
//! The tools are thin wrappers of [`crate::service`]: each takes the whole position and
//! returns the whole new one (no state kept between calls). A tool's result is its JSON
//! answer as structured content (and the same JSON as text); bad input (a position that does
//! not parse or is impossible, a move that is not notation, a deal out of range) is a tool
//! error with the message; an illegal move is a normal result with `legal: false`, the
//! unchanged position and the broken rule.

use clap::Parser;

/// `fcauto mcp` takes no options: it speaks MCP on standard input and output until the
/// client closes standard input.
#[derive(Parser, Debug)]
pub struct Args {}

/// Serve the tools on stdin/stdout; 0 when the client hangs up.
pub fn run(_args: Args) -> anyhow::Result<i32> {
    server::serve_stdio()?;
    Ok(0)
}

/// The JSON-RPC lines between stdin/stdout and rmcp. rmcp drops a line that is not JSON
/// without a word (rust-sdk#938, to avoid an error storm with a peer that echoes errors);
/// JSON-RPC 2.0 answers it with a parse error (`-32700`, `id: null`), which a client can show.
/// So every line from stdin is read here first: one that is not JSON, or not a JSON-RPC 2.0
/// message (answered by rmcp without the `id` JSON-RPC requires), is answered here, the
/// others go on to rmcp; rmcp's answers and these go to stdout a whole line at a time.
///
/// Requests handed to rmcp are tracked by id until answered (`InFlight`): when stdin ends,
/// each is answered before rmcp is told (helper-55: `fcauto mcp < requests.jsonl` lost the
/// answers still being worked out), and an id already in flight is refused (rmcp answered
/// only one of two requests with the same id).
/// The `-32602` message of a `tools/call` whose params rmcp cannot read, or whose
/// `arguments` are no object.
const ARGUMENTS_ERROR: &str =
    "tools/call: params must be {\"name\": <tool name>, \"arguments\": {<the tool's arguments>}}; \
     `arguments`, when given, is a JSON object";

mod lines {
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
    pub fn start() -> ((DuplexStream, DuplexStream), Lines) {
        let (to_rmcp, rmcp_in) = tokio::io::duplex(PIPE);
        let (rmcp_out, from_rmcp) = tokio::io::duplex(PIPE);
        let (tx, rx) = unbounded_channel();
        let in_flight = Arc::new(InFlight::default());
        let lines = Lines {
            reader: tokio::spawn(read_stdin(to_rmcp, tx, in_flight.clone())),
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
    fn route(line: &[u8], started: &mut bool) -> Lifecycle {
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
                None => match lifecycle(&v, started) {
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
    /// included, which rmcp reads as no arguments (helper-60: a tool error, "missing field
    /// `deal`", where README promises -32602).
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
    /// can be read on its own (helper-55: `-32700` with `id: null`, which no client can match
    /// to its request), else `-32700` (`id: null`), saying so; `None` (no answer) for a
    /// message without an id (a notification).
    fn unreadable_number(line: &[u8], e: &serde_json::Error) -> Option<String> {
        #[derive(serde::Deserialize)]
        struct IdOnly {
            id: Option<serde_json::Value>,
        }
        let read = serde_json::from_slice::<IdOnly>(line).ok();
        if read.as_ref().is_some_and(|m| m.id.is_none()) {
            // A notification (or a response without an id) gets no answer (helper-56).
            return None;
        }
        let id = read
            .and_then(|m| m.id)
            .filter(|id| id.is_string() || id.as_i64().is_some());
        let why =
            format!("a number this server cannot read ({e}): numbers are at most about 1.8e308");
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
    /// `params` that are not an object. None for a message to hand on.
    fn invalid_request(v: &serde_json::Value) -> Option<String> {
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
                    // (rmcp answered it without an id, in words of its own: helper-56.)
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
    ) {
        let mut input = BufReader::new(tokio::io::stdin());
        let mut line = Vec::new();
        // An `initialize` has been handed on to rmcp.
        let mut started = false;
        loop {
            line.clear();
            let limit = MAX_LINE as u64 + 1;
            match (&mut input).take(limit).read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => {
                    // Stdin ended: the requests under way are answered before rmcp hears of
                    // it (it would drop them).
                    let left = in_flight.drain().await;
                    if left > 0 {
                        crate::note!(
                            "fcauto mcp: input ended; {} left unanswered after {} s",
                            crate::cmd::plural(left, "request"),
                            DRAIN.as_secs()
                        );
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
            match route(&line, &mut started) {
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

    /// What becomes of a line of stdin.
    enum Lifecycle {
        /// Answered by us (this line of JSON), not handed on.
        Answer(String),
        /// Neither answered nor handed on (a notification rmcp is not ready for).
        Drop,
        /// Handed on to rmcp: the line as re-written from the JSON read, or (`None`) as it
        /// came; and the id (as JSON text) of a request, whose answer is awaited.
        HandOn(Option<Vec<u8>>, Option<String>),
    }

    /// What becomes of a message (a JSON-RPC one, [`invalid_request`] having passed it) that MCP's
    /// lifecycle may not allow, where rmcp's own words would mislead ("request _meta is
    /// missing ..."): an `initialize` without the params MCP requires is answered `-32602`
    /// (naming them), another request before an `initialize` was handed on `-32600`; a
    /// notification before that is dropped (notifications get no answer). `started` becomes
    /// true once an `initialize` is handed on.
    fn lifecycle(v: &serde_json::Value, started: &mut bool) -> Lifecycle {
        use serde_json::{json, Value};
        let id = v.get("id").cloned();
        let reply = |code: i32, msg: String| {
            let id = id.clone().unwrap_or(Value::Null);
            let error =
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": msg}});
            Lifecycle::Answer(error.to_string())
        };
        match v.get("method").and_then(Value::as_str) {
            Some("initialize") if *started => reply(
                -32600,
                "Invalid Request: this session is initialized already (initialize is sent once \
                 per session; its protocol version stands)"
                    .into(),
            ),
            Some("tools/call") if *started => {
                let name = v.pointer("/params/name").and_then(Value::as_str);
                match name {
                    Some(n) if !TOOLS.contains(&n) => reply(
                        -32602,
                        crate::service::short_echoes(&format!(
                            "unknown tool `{n}`: the tools are {}",
                            TOOLS.join(", ")
                        )),
                    ),
                    _ => Lifecycle::HandOn(None, None),
                }
            }
            Some("initialize") => {
                let params = v.get("params");
                let field = |k: &str| params.and_then(|p| p.get(k));
                let info = field("clientInfo");
                let text = |x: Option<&Value>, k: &str| x.and_then(|i| i.get(k)).is_some_and(Value::is_string);
                let missing: Vec<&str> = [
                    ("protocolVersion", field("protocolVersion").is_some_and(Value::is_string)),
                    ("capabilities", field("capabilities").is_some_and(Value::is_object)),
                    ("clientInfo", text(info, "name") && text(info, "version")),
                ]
                .into_iter()
                .filter(|(_, ok)| !ok)
                .map(|(k, _)| k)
                .collect();
                if missing.is_empty() {
                    *started = true;
                    return Lifecycle::HandOn(None, None);
                }
                reply(
                    -32602,
                    format!(
                        "initialize: params must be {{\"protocolVersion\": \"2025-06-18\", \"capabilities\": {{}}, \
                         \"clientInfo\": {{\"name\": \"...\", \"version\": \"...\"}}}}; missing or malformed: {}",
                        missing.join(", ")
                    ),
                )
            }
            // MCP's lifecycle lets a ping come before the session starts (helper-55: it was
            // refused).
            Some("ping") if !*started => match id {
                None => Lifecycle::Drop,
                Some(id) => Lifecycle::Answer(
                    json!({"jsonrpc": "2.0", "id": id, "result": {}}).to_string(),
                ),
            },
            // A response before the session started answers nothing of ours: ignored (rmcp
            // ended the session on it: helper-56).
            None if !*started => Lifecycle::Drop,
            Some(method) if !*started => match id {
                None => Lifecycle::Drop,
                Some(_) => reply(
                    -32600,
                    format!("Invalid Request: {method} before initialize: send \"initialize\" first (MCP's lifecycle)"),
                ),
            },
            _ => Lifecycle::HandOn(None, None),
        }
    }

    /// The tools [`super::server`] offers, by name (tested equal to its `tools/list`).
    pub(super) const TOOLS: [&str; 7] = [
        "new_game",
        "legal_moves",
        "apply_move",
        "hint",
        "solve",
        "verify",
        "render_game",
    ];

    /// rmcp's line `line`, with its error messages in words of ours: a `-32601` answer's
    /// (rmcp's is the bare method name) saying what it means and which methods there are;
    /// every error message, and a tool error's text, with long inputs cut
    /// ([`crate::service::short_echoes`]; helper-46: rmcp's "failed to deserialize
    /// parameters" quoted a 900 KB argument whole).
    fn rewrite_answer(line: Vec<u8>) -> Vec<u8> {
        let has = |needle: &[u8]| line.windows(needle.len()).any(|w| w == needle);
        if !has(b"\"error\"") && !has(b"\"isError\":true") {
            return line;
        }
        let Ok(mut v) = serde_json::from_slice::<serde_json::Value>(&line) else {
            return line;
        };
        let short = |m: &mut serde_json::Value| {
            if let Some(text) = m.as_str() {
                *m = crate::service::short_echoes(text).into();
            }
        };
        if let Some(error) = v.get_mut("error") {
            if error["code"] == -32601 {
                let method = error["message"].as_str().unwrap_or_default().to_string();
                error["message"] = format!(
                    "Method not found: {method:?} (this server answers initialize, ping, \
                     tools/list and tools/call)"
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
                for b in blocks {
                    short(&mut b["text"]);
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
}

mod server {
    use crate::checked::ModeArg;
    use crate::service::{self, PositionIn, ServiceError};
    use anyhow::Context;
    use fcauto_deals::Board;
    use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
    use rmcp::model::{
        CallToolResult, ContentBlock, CustomRequest, CustomResult, ErrorCode, Implementation,
        ServerCapabilities, ServerConfig,
    };
    use rmcp::schemars::{self, json_schema, JsonSchema, Schema, SchemaGenerator};
    use rmcp::service::RequestContext;
    use rmcp::{tool, tool_handler, tool_router, ErrorData, RoleServer, ServerHandler, ServiceExt};
    use serde::Deserialize;
    use serde_json::Value;
    use std::sync::Arc;
    use tokio::sync::Semaphore;

    /// Run the server on a single-threaded runtime until the client closes stdin. The lines
    /// pass through [`super::lines`], which answers those that are not JSON (rmcp ignores
    /// them) and writes every answer to stdout.
    pub fn serve_stdio() -> anyhow::Result<()> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("cannot start the async runtime")?;
        let r = rt.block_on(async {
            let (transport, lines) = super::lines::start();
            let running = match FreeCell::new().serve(transport).await {
                Ok(running) => running,
                // The client hung up before a session began (our answers to its lines
                // are still written): that ends the server as a hang-up after one does.
                Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => {
                    lines.finish().await;
                    return Ok(());
                }
                Err(e) => return Err(e).context("MCP session did not start"),
            };
            let ended = running.waiting().await;
            lines.finish().await;
            ended.context("MCP session ended abnormally")?;
            Ok(())
        });
        // A read of stdin still pending (the session ended before the client closed it)
        // cannot be cancelled: do not wait for it.
        rt.shutdown_background();
        r
    }

    /// The JSON schema of a position argument: a string or the JSON shape.
    fn position_schema(_: &mut SchemaGenerator) -> Schema {
        let card = json_schema!({
            "type": "string",
            "description": "a card: rank A 2-9 T J Q K, then suit C D H S, e.g. \"KS\", \"TD\""
        });
        json_schema!({
            "description": "The whole position. Either a one-line position string \
                `<cascade 1>/.../<cascade 8> <freecells> <foundations>` (cards deepest first \
                without spaces, `-` for an empty cascade or freecell, foundations as the top rank \
                per suit C D H S, 0 for none), e.g. the `position_string` another tool returned; \
                or fc-solve's board text; or the JSON object another tool returned as `position`.",
            "oneOf": [
                { "type": "string" },
                {
                    "type": "object",
                    "properties": {
                        "cascades": {
                            "type": "array", "minItems": 8, "maxItems": 8,
                            "description": "8 cascades, each a list of cards, deepest first",
                            "items": { "type": "array", "items": card }
                        },
                        "freecells": {
                            "type": "array", "minItems": 4, "maxItems": 4,
                            "description": "freecells a-d: a card or null (default: all empty)",
                            "items": { "anyOf": [card, { "type": "null" }] }
                        },
                        "foundations": {
                            "type": "array", "minItems": 4, "maxItems": 4,
                            "description": "top rank per suit C, D, H, S, 0..13 (default: all 0)",
                            "items": { "type": "integer", "minimum": 0, "maximum": 13 }
                        }
                    },
                    "required": ["cascades"],
                    "additionalProperties": false
                }
            ]
        })
    }

    /// The JSON schema of a deal argument: a number, or a string `msN` (PySolFC's form) or
    /// `N`, as [`service::deal_number`] reads it.
    fn deal_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Microsoft FreeCell deal number, 1..=8589934591 (Freecell Pro's range; \
                1..=32000 are the original Windows deals): a number (617), or a string \
                \"ms617\" as PySolFC writes it",
            "type": ["integer", "string"],
            "minimum": 1,
            "maximum": 8_589_934_591u64,
            "pattern": "^\\s*([mM][sS]|\\+)?[0-9]+\\s*$"
        })
    }

    /// The board of a position argument, or the tool error that says why not.
    fn board(position: Value) -> Result<Board, ServiceError> {
        let p: PositionIn = serde_json::from_value(position)
            .map_err(|e| ServiceError::bad_request(format!("position: {e}")))?;
        p.to_board()
    }

    /// `legal_moves`' answer: structured content is an object, so the list is its `moves`.
    #[derive(serde::Serialize, JsonSchema)]
    struct MovesOut {
        /// Every legal move, each run once per legal size.
        moves: Vec<service::MoveOut>,
    }

    /// A tool's answer: the JSON as structured content, or the error as a tool error.
    fn answer<T: serde::Serialize>(r: Result<T, ServiceError>) -> CallToolResult {
        match r.and_then(|v| {
            serde_json::to_value(v)
                .map_err(|e| ServiceError::bad_request(format!("cannot write the answer: {e}")))
        }) {
            Ok(v) => CallToolResult::structured(v),
            Err(e) => {
                CallToolResult::error(vec![ContentBlock::text(service::short_echoes(&e.message))])
            }
        }
    }

    /// Run a blocking operation (a search, a picture) off the runtime's thread, once one of
    /// `slots`' permits is free: at most one such operation a core runs at once, as `serve`
    /// runs its solves (a client sending many requests at once gets them answered in turn,
    /// not as many searches, each with its memory, as it sent).
    /// A position that is unreadable or won needs no search: answered at once, not queued
    /// behind searches (helper-46).
    fn nothing_to_search(b: &Result<Board, ServiceError>) -> bool {
        b.as_ref().map_or(true, Board::is_won)
    }

    async fn blocking<T: Send + 'static>(
        slots: &Arc<Semaphore>,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ErrorData> {
        let permit =
            slots.clone().acquire_owned().await.map_err(|e| {
                ErrorData::internal_error(format!("the operation failed: {e}"), None)
            })?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            f()
        })
        .await
        .map_err(|e| ErrorData::internal_error(format!("the operation failed: {e}"), None))
    }

    /// `new_game`'s arguments.
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct NewGame {
        #[serde(deserialize_with = "service::deal_number")]
        #[schemars(schema_with = "deal_schema")]
        deal: u64,
    }

    /// Arguments that are just a position.
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Position {
        #[schemars(schema_with = "position_schema")]
        position: Value,
    }

    /// `apply_move`'s arguments.
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct ApplyMove {
        #[schemars(schema_with = "position_schema")]
        position: Value,
        /// The move in standard notation: source then destination, `1`-`8` cascades, `a`-`d`
        /// freecells, `h` the foundations: `3a`, `a3`, `3h`, `38`.
        #[serde(rename = "move")]
        mv: String,
        /// Cards to move for a cascade-to-cascade run, 1..=13; left out, the longest run
        /// that fits.
        #[schemars(range(min = 1, max = 13))]
        #[serde(default, deserialize_with = "service::whole_count")]
        count: Option<i64>,
        /// After the move, play the safe moves to the foundations (default false).
        #[serde(default)]
        autoplay: bool,
    }

    /// How to search.
    #[derive(Deserialize, JsonSchema, Clone, Copy, Default)]
    #[serde(rename_all = "lowercase")]
    enum Mode {
        /// The first solution found: fastest.
        #[default]
        Fast,
        /// Short solutions at practical speed.
        Short,
    }

    /// `mode`: `"fast"` or `"short"`, null as left out, as `/api/solve` reads it (helper-55: null
    /// was refused in serde's words, and `{"short": null}`, serde's form of an enum, taken).
    fn mode_or_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Mode, D::Error> {
        use serde::de::Error;
        match Option::<Value>::deserialize(d)? {
            None => Ok(Mode::Fast),
            Some(Value::String(m)) if m == "fast" => Ok(Mode::Fast),
            Some(Value::String(m)) if m == "short" => Ok(Mode::Short),
            Some(other) => Err(D::Error::custom(format!(
                "mode {}: the tools solve in \"fast\" or \"short\"",
                crate::service::short_echoes(&other.to_string())
            ))),
        }
    }

    /// `solve`'s and `hint`'s arguments.
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Solve {
        #[schemars(schema_with = "position_schema")]
        position: Value,
        /// `fast` (default) or `short`.
        #[serde(default, deserialize_with = "mode_or_null")]
        mode: Mode,
        /// Most positions one search may store, 1..=200000 (default 200000; more is refused;
        /// a deal may take several searches, each within it);
        /// a search also stops after 10 s. Either limit gives the verdict `unknown: ...`.
        #[schemars(range(min = 1, max = crate::service::MAX_STATES))]
        #[serde(default, deserialize_with = "service::whole_max_states")]
        max_states: Option<usize>,
    }

    /// `verify`'s arguments.
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Verify {
        #[schemars(schema_with = "position_schema")]
        position: Value,
        /// The solution in standard notation, moves separated by spaces or lines
        /// (`3a 38 ...`, as `solve` returns it in `standard`); counts of runs may be left out;
        /// `#` starts a comment to the end of the line; an annotated game (move numbers, `?`/`!`
        /// marks, `{...}` comments, a `# start:` that must be the position given) reads as its
        /// plain moves.
        solution: String,
    }

    /// `render_game`'s arguments.
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Render {
        #[schemars(schema_with = "position_schema")]
        position: Value,
        /// Picture width in pixels, 200..=4096 (default 720); a width outside is refused, as
        /// by `fcauto serve`'s `/api/render`.
        #[schemars(range(min = fcauto_engine::render::MIN_WIDTH, max = fcauto_engine::render::MAX_WIDTH))]
        #[serde(default, deserialize_with = "service::whole_width")]
        width: Option<i64>,
    }

    /// The PNG picture of a position, base64-encoded, as MCP image content.
    fn picture(position: Value, width: Option<i64>) -> Result<CallToolResult, ServiceError> {
        use base64::Engine;
        let b = board(position)?;
        let opts = fcauto_engine::render::Options {
            width: service::picture_width(width)?,
            ..Default::default()
        };
        let png = fcauto_engine::render::png(&b, &opts)
            .map_err(|e| ServiceError::unprocessable(format!("{e:#}")))?;
        let data = base64::engine::general_purpose::STANDARD.encode(png);
        Ok(CallToolResult::success(vec![ContentBlock::image(
            data,
            "image/png",
        )]))
    }

    impl Mode {
        fn arg(self) -> ModeArg {
            match self {
                Mode::Fast => ModeArg::Fast,
                Mode::Short => ModeArg::Short,
            }
        }
    }

    /// The MCP server: its tool table, and the permits of the searches and pictures that
    /// may run at once (one a core).
    #[derive(Clone)]
    struct FreeCell {
        tool_router: ToolRouter<FreeCell>,
        slots: Arc<Semaphore>,
    }

    #[tool_router]
    impl FreeCell {
        fn new() -> FreeCell {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            FreeCell {
                tool_router: Self::tool_router(),
                slots: Arc::new(Semaphore::new(cores)),
            }
        }

        #[tool(
            description = "Start a game: the start position of a Microsoft FreeCell deal. \
            Returns {position, position_string, won}; pass either form as `position` to the other tools.",
            output_schema = rmcp::handler::server::tool::schema_for_output::<service::PositionOut>()
        )]
        fn new_game(&self, Parameters(a): Parameters<NewGame>) -> CallToolResult {
            answer(service::new_game(a.deal))
        }

        #[tool(
            description = "Every legal move of a position: {moves: [{notation, from, to, count, \
            card, kind}]}; a run of cards appears once per legal size, and symmetric moves are all \
            listed (1a and 1b, a card to each empty cascade, freecell to freecell ab).",
            output_schema = rmcp::handler::server::tool::schema_for_output::<MovesOut>()
        )]
        fn legal_moves(&self, Parameters(a): Parameters<Position>) -> CallToolResult {
            // Structured content is an object: the list goes in `moves`.
            answer(board(a.position).map(|b| MovesOut {
                moves: service::legal_moves(&b),
            }))
        }

        #[tool(
            description = "Play one move, refereed by fcauto's validator. Returns {legal, \
            broken_rule, move, autoplayed, position, position_string, won}: the new position \
            when legal; when illegal, legal is false, broken_rule says why, and the position is \
            the unchanged one.",
            output_schema = rmcp::handler::server::tool::schema_for_output::<service::ApplyOut>()
        )]
        fn apply_move(&self, Parameters(a): Parameters<ApplyMove>) -> CallToolResult {
            answer(board(a.position).and_then(|b| {
                let m = service::parse_move(&a.mv, a.count)?;
                Ok(service::apply_move(&b, m, a.autoplay))
            }))
        }

        #[tool(
            description = "The next move towards a win from a position, and the whole winning \
            line: {verdict, next, line}. next is null unless a win was found.",
            output_schema = rmcp::handler::server::tool::schema_for_output::<service::HintOut>()
        )]
        async fn hint(
            &self,
            Parameters(a): Parameters<Solve>,
        ) -> Result<CallToolResult, ErrorData> {
            let b = board(a.position);
            let idle = nothing_to_search(&b);
            let run = move || answer(b.and_then(|b| service::hint(&b, a.mode.arg(), a.max_states)));
            if idle {
                return Ok(run());
            }
            blocking(&self.slots, run).await
        }

        #[tool(
            description = "Solve a position: {verdict (solved | unsolvable | unknown: <limit>), \
            solvable, moves, moves_total, single_card_moves, standard (the solution in standard \
            notation), positions}. Every solution has passed the validator; only a complete \
            search says unsolvable.",
            output_schema = rmcp::handler::server::tool::schema_for_output::<service::SolveOut>()
        )]
        async fn solve(
            &self,
            Parameters(a): Parameters<Solve>,
        ) -> Result<CallToolResult, ErrorData> {
            let b = board(a.position);
            let idle = nothing_to_search(&b);
            let run =
                move || answer(b.and_then(|b| service::solve(&b, a.mode.arg(), a.max_states)));
            if idle {
                return Ok(run());
            }
            blocking(&self.slots, run).await
        }

        #[tool(
            description = "Check a solution in standard notation from a position with the \
            validator: {valid, moves_total, single_card_moves, error}. valid means every move \
            is legal and the game is won at the end.",
            output_schema = rmcp::handler::server::tool::schema_for_output::<service::VerifyOut>()
        )]
        fn verify(&self, Parameters(a): Parameters<Verify>) -> CallToolResult {
            answer(board(a.position).and_then(|b| service::verify(&b, &a.solution)))
        }

        #[tool(
            description = "The board picture of a position as a PNG image: freecells a-d and \
            foundations (C D H S) on the top row, cascades 1-8 below, deepest card first."
        )]
        async fn render_game(
            &self,
            Parameters(a): Parameters<Render>,
        ) -> Result<CallToolResult, ErrorData> {
            blocking(&self.slots, move || {
                picture(a.position, a.width)
                    .unwrap_or_else(|e| CallToolResult::error(vec![ContentBlock::text(e.message)]))
            })
            .await
        }
    }

    /// The error for a request rmcp could not read: -32602 for a method this server has,
    /// -32601 for any other.
    fn unreadable_request(method: &str) -> ErrorData {
        match method {
            "tools/call" => ErrorData::invalid_params(super::ARGUMENTS_ERROR, None),
            "initialize" | "ping" | "tools/list" => ErrorData::invalid_params(
                format!("{method}: malformed params (see the MCP specification)"),
                None,
            ),
            _ => ErrorData::new(ErrorCode::METHOD_NOT_FOUND, method.to_string(), None),
        }
    }

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for FreeCell {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
                .with_server_info(Implementation::new("fcauto", env!("CARGO_PKG_VERSION")))
                .with_instructions(
                    "FreeCell (Microsoft rules: 8 cascades, 4 freecells, 4 foundations) with fcauto \
                     as the referee. Start with new_game, look at legal_moves, play with apply_move \
                     (pass back the position it returns each time; nothing is kept on the server), \
                     ask hint or solve when stuck, check a whole line with verify, look with render_game. Moves are in \
                     standard notation: 1-8 cascades, a-d freecells, h foundations, e.g. 3a, a3, 3h, 38.",
                )
        }

        /// A request rmcp could not read lands here: a known method with malformed params
        /// (`tools/call` with `arguments` not an object) is invalid params, not an unknown method.
        async fn on_custom_request(
            &self,
            request: CustomRequest,
            _: RequestContext<RoleServer>,
        ) -> Result<CustomResult, ErrorData> {
            Err(unreadable_request(&request.method))
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// The lifecycle's list of tools is the server's.
        #[test]
        fn the_tool_names_are_the_servers() {
            let mut listed: Vec<String> = FreeCell::new()
                .tool_router
                .list_all()
                .into_iter()
                .map(|t| t.name.to_string())
                .collect();
            let mut ours: Vec<String> = super::super::lines::TOOLS.map(String::from).to_vec();
            listed.sort();
            ours.sort();
            assert_eq!(listed, ours);
        }

        /// Operations sent all at once run at most as many at a time as there are permits;
        /// each still gets its answer.
        #[test]
        fn blocking_operations_wait_for_a_permit() {
            use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            let slots = Arc::new(Semaphore::new(2));
            let running = Arc::new(AtomicUsize::new(0));
            let most = Arc::new(AtomicUsize::new(0));
            let answers = rt.block_on(async {
                let tasks: Vec<_> = (0..6)
                    .map(|i| {
                        let (running, most, slots) = (running.clone(), most.clone(), slots.clone());
                        tokio::spawn(async move {
                            blocking(&slots, move || {
                                most.fetch_max(running.fetch_add(1, SeqCst) + 1, SeqCst);
                                std::thread::sleep(std::time::Duration::from_millis(40));
                                running.fetch_sub(1, SeqCst);
                                i
                            })
                            .await
                            .unwrap()
                        })
                    })
                    .collect();
                let mut answers = Vec::new();
                for t in tasks {
                    answers.push(t.await.unwrap());
                }
                answers
            });
            assert_eq!(answers, (0..6).collect::<Vec<_>>());
            assert_eq!(most.load(SeqCst), 2, "operations running at once");
        }
    }
}
