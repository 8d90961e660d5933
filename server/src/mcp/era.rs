//! Which revision of MCP a stdio connection serves, and what becomes of each request under
//! it. Two revisions are served:
//! - 2025-11-25, the handshake: an `initialize` opens the session and names its protocol
//!   version once; `ping` is answered;
//! - 2026-07-28, stateless: no `initialize`; every request names its protocol version and
//!   the client's capabilities in `_meta` (`io.modelcontextprotocol/protocolVersion`,
//!   `io.modelcontextprotocol/clientCapabilities`); `server/discover` tells the versions,
//!   capabilities and identity of the server; `ping`, `logging/setLevel` and the other
//!   methods the revision removed are "method not found" (`-32601`, said by rmcp).
//!
//! The connection's first request decides, once, as the official Python SDK decides it:
//! an `initialize` opens the handshake; a request other than `server/discover` whose `_meta`
//! names a version rmcp serves, with the capabilities, opens the stateless revision
//! (`server/discover` is a probe and decides nothing). A later request of the other
//! revision is refused: an `initialize` on a stateless connection gets `-32022`
//! (unsupported protocol version) with the versions served without a handshake; a request
//! naming 2026-07-28 in `_meta` on a handshake connection gets `-32600`. rmcp serves both
//! revisions on stdio; this layer gives the answers rmcp leaves to the server (and words
//! that say what to do where rmcp's would mislead).

use fcauto_engine::service;
use rmcp::model::{ProtocolVersion, RequestMetaObject};
use serde_json::{json, Value};

/// The key of a request's `_meta` that names its protocol version (2026-07-28 on).
pub(super) const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The revision a connection serves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Era {
    /// No request has decided yet.
    Open,
    /// An `initialize` opened a session (2025-11-25 and before).
    Handshake,
    /// Requests carry their protocol version in `_meta` (2026-07-28).
    Stateless,
}

/// What becomes of a line of stdin.
pub(super) enum Lifecycle {
    /// Answered by us (this line of JSON), not handed on.
    Answer(String),
    /// Neither answered nor handed on (a notification rmcp is not ready for).
    Drop,
    /// Handed on to rmcp: the line as re-written from the JSON read, or (`None`) as it
    /// came; and the id (as JSON text) of a request, whose answer is awaited.
    HandOn(Option<Vec<u8>>, Option<String>),
}

const HAND_ON: Lifecycle = Lifecycle::HandOn(None, None);

/// An error answer to the message `v`, with its `id` (`null` when it has none).
fn reply(v: &Value, code: i32, message: String, data: Option<Value>) -> Lifecycle {
    let id = v.get("id").cloned().unwrap_or(Value::Null);
    let mut error = json!({"code": code, "message": message});
    if let Some(data) = data {
        error["data"] = data;
    }
    Lifecycle::Answer(json!({"jsonrpc": "2.0", "id": id, "error": error}).to_string())
}

/// The request's `_meta` when it names a protocol version (as every request of the
/// stateless revision does).
fn envelope(v: &Value) -> Option<RequestMetaObject> {
    let meta = v.pointer("/params/_meta")?;
    meta.get(PROTOCOL_VERSION_KEY)?;
    serde_json::from_value(meta.clone()).ok()
}

/// True when `meta` names a version rmcp serves and carries what the stateless revision
/// requires of every request: such a request opens a stateless connection.
fn opens_stateless(meta: &RequestMetaObject) -> bool {
    meta.protocol_version()
        .is_some_and(|v| ProtocolVersion::KNOWN_VERSIONS.contains(&v))
        && meta
            .missing_required_keys(&ProtocolVersion::V_2026_07_28)
            .is_empty()
}

/// What becomes of a message (a JSON-RPC one, `invalid_request` having passed it) on a
/// connection in `era`; `era` moves on when the message decides the revision.
pub(super) fn lifecycle(v: &Value, era: &mut Era) -> Lifecycle {
    let Some(method) = v.get("method").and_then(Value::as_str) else {
        // A response before the connection opened answers nothing of ours: ignored
        // (rmcp would end the session on it).
        return if *era == Era::Open {
            Lifecycle::Drop
        } else {
            HAND_ON
        };
    };
    match *era {
        Era::Open => opening(v, method, era),
        Era::Handshake => handshake(v, method),
        Era::Stateless => stateless(v, method),
    }
}

/// A message before the connection's revision is decided.
fn opening(v: &Value, method: &str, era: &mut Era) -> Lifecycle {
    let request = v.get("id").is_some();
    match method {
        "initialize" => initialize(v, era),
        // MCP 2025-11-25's lifecycle lets a ping come before the session starts.
        "ping" if request => {
            Lifecycle::Answer(json!({"jsonrpc": "2.0", "id": v["id"], "result": {}}).to_string())
        }
        // A probe: rmcp answers it (or says what its `_meta` lacks); it decides nothing.
        "server/discover" => HAND_ON,
        _ if !request => Lifecycle::Drop,
        _ => match envelope(v) {
            Some(meta) if names_handshake_version(&meta) => handshake_version_in_meta(v),
            Some(meta) => {
                if opens_stateless(&meta) {
                    *era = Era::Stateless;
                }
                // Else rmcp says which version or key is wrong.
                unknown_tool(v).unwrap_or(HAND_ON)
            }
            None => reply(
                v,
                -32600,
                format!(
                    "Invalid Request: {method} before initialize: send \"initialize\" first \
                     (MCP 2025-11-25), or name the protocol version and the client's \
                     capabilities in the request's _meta (MCP 2026-07-28: \
                     \"{PROTOCOL_VERSION_KEY}\", \"io.modelcontextprotocol/clientCapabilities\")"
                ),
                None,
            ),
        },
    }
}

/// An `initialize` opening the connection: handed on when it has the params MCP requires
/// (rmcp alone says "request _meta is missing"), else `-32602` naming what is missing.
fn initialize(v: &Value, era: &mut Era) -> Lifecycle {
    let params = v.get("params");
    let field = |k: &str| params.and_then(|p| p.get(k));
    let info = field("clientInfo");
    let text = |x: Option<&Value>, k: &str| x.and_then(|i| i.get(k)).is_some_and(Value::is_string);
    let missing: Vec<&str> = [
        (
            "protocolVersion",
            field("protocolVersion").is_some_and(Value::is_string),
        ),
        (
            "capabilities",
            field("capabilities").is_some_and(Value::is_object),
        ),
        ("clientInfo", text(info, "name") && text(info, "version")),
    ]
    .into_iter()
    .filter(|(_, ok)| !ok)
    .map(|(k, _)| k)
    .collect();
    if missing.is_empty() {
        *era = Era::Handshake;
        return HAND_ON;
    }
    reply(
        v,
        -32602,
        format!(
            "initialize: params must be {{\"protocolVersion\": \"2025-11-25\", \"capabilities\": {{}}, \
             \"clientInfo\": {{\"name\": \"...\", \"version\": \"...\"}}}}; missing or malformed: {}",
            missing.join(", ")
        ),
        None,
    )
}

/// A message on a connection an `initialize` opened.
fn handshake(v: &Value, method: &str) -> Lifecycle {
    let stateless = envelope(v)
        .and_then(|m| m.protocol_version())
        .is_some_and(|p| !p.has_initialize());
    match method {
        "initialize" => reply(
            v,
            -32600,
            "Invalid Request: this session is initialized already (initialize is sent once \
             per session; its protocol version stands)"
                .into(),
            None,
        ),
        _ if stateless && v.get("id").is_some() => reply(
            v,
            -32600,
            format!(
                "Invalid Request: this connection serves the protocol version its initialize \
                 named; a request naming a version without initialize (2026-07-28) in \
                 _meta[\"{PROTOCOL_VERSION_KEY}\"] is not taken on it (start a new connection)"
            ),
            None,
        ),
        "tools/call" => unknown_tool(v).unwrap_or(HAND_ON),
        _ => HAND_ON,
    }
}

/// A message on a stateless connection (rmcp checks each request's `_meta`).
fn stateless(v: &Value, method: &str) -> Lifecycle {
    if v.get("id").is_some() && envelope(v).is_some_and(|m| names_handshake_version(&m)) {
        return handshake_version_in_meta(v);
    }
    match method {
        "initialize" => {
            let supported: Vec<&ProtocolVersion> = ProtocolVersion::KNOWN_VERSIONS
                .iter()
                .filter(|p| !p.has_initialize())
                .collect();
            let requested = v.pointer("/params/protocolVersion").cloned();
            reply(
                v,
                -32022,
                "Unsupported protocol version: this connection serves MCP 2026-07-28 (its first \
                 request named it in _meta), which has no initialize handshake; start a new \
                 connection to use the handshake"
                    .into(),
                Some(json!({"requested": requested, "supported": supported})),
            )
        }
        "tools/call" => unknown_tool(v).unwrap_or(HAND_ON),
        _ => HAND_ON,
    }
}

/// True when `meta` names a protocol version that has the `initialize` handshake
/// (2025-11-25 and before): such a version has no `_meta` envelope.
fn names_handshake_version(meta: &RequestMetaObject) -> bool {
    meta.protocol_version().is_some_and(|p| p.has_initialize())
}

/// The `-32600` answer to a request whose `_meta` names a version with the handshake
/// (2025-11-25): that revision names its version once, in `initialize`.
fn handshake_version_in_meta(v: &Value) -> Lifecycle {
    reply(
        v,
        -32600,
        format!(
            "Invalid Request: _meta[\"{PROTOCOL_VERSION_KEY}\"] names a protocol version with \
             the initialize handshake (2025-11-25 and before), which names it once, in \
             initialize; requests name their version in _meta from 2026-07-28 on"
        ),
        None,
    )
}

/// The `-32602` answer to a `tools/call` of a tool there is not, naming the tools there
/// are; `None` for a tool there is (or no name: rmcp says so).
pub(super) fn unknown_tool(v: &Value) -> Option<Lifecycle> {
    if v.get("method").and_then(Value::as_str) != Some("tools/call") {
        return None;
    }
    let n = v.pointer("/params/name")?.as_str()?;
    if super::TOOLS.contains(&n) {
        return None;
    }
    let tools = super::TOOLS.join(", ");
    let msg = service::short_echoes(&format!("unknown tool `{n}`: the tools are {tools}"));
    Some(reply(v, -32602, msg, None))
}
