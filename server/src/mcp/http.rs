//! `fcauto mcp --http`: the same tools over MCP's Streamable HTTP transport, at `/mcp`,
//! through rmcp's server transport on axum, with `serve`'s connection handling
//! ([`crate::http::accept_loop`]: HTTP/1, request headers within [`READ_TIMEOUT`]) and caps.
//!
//! Both revisions are served: 2026-07-28's requests (their version in `_meta` and in the
//! `MCP-Protocol-Version` header) each on its own, 2025-11-25's `initialize` and the requests
//! after it without a session (the tools keep no state, so no session is kept either:
//! rmcp's stateless mode). Against DNS rebinding, rmcp checks each request's `Host` (the
//! loopback names, and those the caller allows) and, when a browser sends one, its
//! `Origin` (loopback pages only). Bodies are read as `serve` reads them
//! ([`declared_body_cap`]: capped at [`MAX_BODY`], 413 past it; within [`READ_TIMEOUT`],
//! 408 if not); a body that is not JSON is answered with JSON-RPC's parse error (400,
//! `-32700`) where rmcp answers 415 in words of its own, and a 2026-07-28 `initialize`
//! (removed in that revision) with 404 and `-32601`; searches share one server's
//! permits, one a core, whatever the number of clients.

use super::tools::FreeCell;
use crate::http::body::declared_body_cap;
use crate::http::{accept_loop, ctrl_c_from_now, MAX_BODY, READ_TIMEOUT};
use anyhow::Context;
use axum::http::StatusCode;
use axum::Router;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::SocketAddr;
use std::sync::Arc;

/// The path of the MCP endpoint.
pub const ENDPOINT: &str = "/mcp";

/// The `Host` names always accepted: the loopback ones (any port).
const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// The `Origin`s accepted from browsers: pages served from loopback (any port, `http` or
/// `https`). A request without `Origin` (not from a browser) is accepted.
const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];

/// Listen on the first of `addrs` that can be bound (`bind`, the address as the user gave
/// it, names it in the error), tell `on_listening` the address listened on, and serve the
/// tools at [`ENDPOINT`] until interrupted (Ctrl-C). `hosts`: `Host` names accepted besides
/// the loopback ones (the address listened on, when it is not loopback, is added).
///
/// # Errors
/// The runtime cannot start, or no address can be listened on.
pub fn serve_http(
    addrs: &[SocketAddr],
    bind: &str,
    hosts: Vec<String>,
    on_listening: impl FnOnce(SocketAddr),
) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addrs)
            .await
            .with_context(|| format!("cannot listen on {bind}"))?;
        let local = listener.local_addr()?;
        let interrupted = ctrl_c_from_now()?;
        on_listening(local);
        let app = router(local, hosts);
        tokio::select! {
            () = accept_loop(listener, app) => {}
            () = interrupted => {}
        }
        anyhow::Ok(())
    })
}

/// The `Host` names accepted on `local`: the loopback ones, `hosts`, and `local`'s own
/// address when it is not loopback.
fn allowed_hosts(local: SocketAddr, hosts: Vec<String>) -> Vec<String> {
    let mut allowed: Vec<String> = LOOPBACK_HOSTS.map(String::from).to_vec();
    allowed.extend(hosts);
    if !local.ip().is_loopback() && !local.ip().is_unspecified() {
        allowed.push(local.ip().to_string());
    }
    allowed
}

/// The MCP endpoint, its caps, and a JSON 404 elsewhere.
fn router(local: SocketAddr, hosts: Vec<String>) -> Router {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_allowed_hosts(allowed_hosts(local, hosts))
        .with_allowed_origins(LOOPBACK_ORIGINS)
        .with_max_request_body_bytes(MAX_BODY);
    // One server for all requests: its permits bound the searches running at once.
    let server = FreeCell::new();
    let mcp = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    Router::new()
        .route_service(ENDPOINT, mcp)
        .fallback(|| async {
            let body = serde_json::json!({"error": format!("no such route: MCP is at {ENDPOINT}")});
            (StatusCode::NOT_FOUND, axum::Json(body))
        })
        .layer(axum::middleware::from_fn(json_body))
        .layer(axum::middleware::from_fn(declared_body_cap))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            READ_TIMEOUT,
        ))
        .layer(tower_http::catch_panic::CatchPanicLayer::new())
}

/// A POST whose body (read whole by [`declared_body_cap`] before) is not JSON gets
/// JSON-RPC's parse error (400, `-32700`, `id: null`), and JSON that is no JSON-RPC message
/// MCP takes (a batch, no `"jsonrpc": "2.0"`, an id of another type) `-32600` (400), as
/// over stdio; an `initialize` that names
/// 2026-07-28 or later (in the `MCP-Protocol-Version` header or its `_meta`), a method that
/// revision removed, gets 404 with `-32601` as the revision says (rmcp would read it as a
/// handshake and refuse its params); a `tools/call` of a tool there is not gets `-32602`
/// naming the tools there are; other requests are handed on, and their answers reworded
/// as over stdio ([`short_answer`]).
async fn json_body(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    // Only MCP's endpoint reads bodies: elsewhere is the JSON 404.
    if req.method() != axum::http::Method::POST || req.uri().path() != ENDPOINT {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let bytes = axum::body::to_bytes(body, MAX_BODY)
        .await
        .unwrap_or_default();
    let error = |status: StatusCode, id: &serde_json::Value, code: i32, message: String| {
        let body = serde_json::json!({"jsonrpc": "2.0", "id": id,
                                      "error": {"code": code, "message": message}});
        (status, axum::Json(body)).into_response()
    };
    let v = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(v) => v,
        Err(e) => {
            let message = format!("Parse error: the body is not JSON ({e})");
            return error(
                StatusCode::BAD_REQUEST,
                &serde_json::Value::Null,
                -32700,
                message,
            );
        }
    };
    // JSON that is no JSON-RPC message MCP takes: stdio's `-32600` answer (rmcp would
    // answer 415 in plain text).
    if let Some(answer) = super::lines::invalid_request(&v) {
        let json = [(axum::http::header::CONTENT_TYPE, "application/json")];
        return (StatusCode::BAD_REQUEST, json, answer).into_response();
    }
    let header = parts
        .headers
        .get("mcp-protocol-version")
        .and_then(|h| h.to_str().ok());
    let in_meta = v
        .pointer("/params/_meta")
        .and_then(|m| m.get(super::era::PROTOCOL_VERSION_KEY))
        .and_then(|p| p.as_str());
    let stateless = [header, in_meta]
        .into_iter()
        .flatten()
        .any(|p| p >= rmcp::model::ProtocolVersion::NO_INITIALIZE.as_str());
    if stateless && v.get("method").and_then(|m| m.as_str()) == Some("initialize") {
        let id = v.get("id").cloned().unwrap_or_default();
        let message = "Method not found: initialize was removed in MCP 2026-07-28 (each request \
                       names its protocol version in _meta; server/discover tells the server's)";
        return error(StatusCode::NOT_FOUND, &id, -32601, message.into());
    }
    if let Some(super::era::Lifecycle::Answer(a)) = super::era::unknown_tool(&v) {
        return ([(axum::http::header::CONTENT_TYPE, "application/json")], a).into_response();
    }
    let answer = next
        .run(axum::extract::Request::from_parts(
            parts,
            axum::body::Body::from(bytes),
        ))
        .await;
    short_answer(answer).await
}

/// Most bytes of an answer read back to reword it (a picture of the largest width is some
/// 3 MB of base64).
const MAX_ANSWER: usize = 64 << 20;

/// rmcp's JSON answer with its error messages in stdio's words ([`super::lines`]'s
/// `rewrite_answer`: long inputs quoted short, "method not found" saying what there is).
async fn short_answer(answer: axum::response::Response) -> axum::response::Response {
    let json = answer
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|c| c.to_str().ok())
        .is_some_and(|c| c.starts_with("application/json"));
    if !json {
        return answer;
    }
    let (mut parts, body) = answer.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_ANSWER).await else {
        return axum::response::IntoResponse::into_response(StatusCode::INTERNAL_SERVER_ERROR);
    };
    let line = super::lines::rewrite_answer(bytes.to_vec());
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    axum::response::Response::from_parts(parts, axum::body::Body::from(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Loopback names always; the address listened on when it is not loopback.
    #[test]
    fn allowed_hosts_are_loopback_and_those_named() {
        let lo: SocketAddr = "127.0.0.1:8618".parse().unwrap();
        assert_eq!(allowed_hosts(lo, vec![]), LOOPBACK_HOSTS.map(String::from));
        let lan: SocketAddr = "192.0.2.7:8618".parse().unwrap();
        let hosts = allowed_hosts(lan, vec!["freecell.example".into()]);
        assert!(hosts.contains(&"freecell.example".to_string()), "{hosts:?}");
        assert!(hosts.contains(&"192.0.2.7".to_string()), "{hosts:?}");
    }
}
