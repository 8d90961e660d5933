//! `fcauto mcp`'s server: the rules service as Model Context Protocol tools over stdio
//! (here) and Streamable HTTP (`http`), through the official Rust SDK `rmcp`, so that an
//! AI agent can play FreeCell with fcauto refereeing every move.
//!
//! The tools (`tools`) are thin wrappers of [`fcauto_engine::service`]: each takes the
//! whole position and returns the whole new one (no state kept between calls), and each is
//! annotated as the pure function it is (read-only, idempotent, closed world). A tool's
//! result is what the model reads as structured content (and the same JSON as text):
//! small, the position as its one-line string and moves in standard notation; what only a
//! view of the board needs (the cascades as JSON, move records, whole lines) goes in the
//! result's `_meta` (`answers`). The answers are declared by output schemas (`schema`),
//! kept to standard JSON Schema. Bad input (a position that does not parse or is
//! impossible, a move that is not notation, a deal out of range: any
//! [`ServiceError`](fcauto_engine::service::ServiceError)) is a tool error with the message;
//! an illegal move is a normal result with `legal: false`, the unchanged position and the
//! broken rule.
//!
//! Two revisions of MCP are served, each connection in the one its first request chose
//! (`era`): 2025-11-25 (an `initialize` handshake) and 2026-07-28 (stateless: the protocol
//! version and the client's capabilities in every request's `_meta`, `server/discover`);
//! rmcp serves both, `era` refuses a request of the other revision on a connection.
//!
//! Between stdin/stdout and rmcp, `lines` reads every line first: rmcp drops a line that
//! is not JSON without a word (rust-sdk#938, to avoid an error storm with a peer that echoes
//! errors), where JSON-RPC 2.0 answers it with a parse error (`-32700`, `id: null`), which a
//! client can show. So a line that is not JSON, or not a JSON-RPC 2.0 message (answered by
//! rmcp without the `id` JSON-RPC requires), is answered there, the others go on to rmcp;
//! rmcp's answers and these go to stdout a whole line at a time. Requests handed to rmcp
//! are tracked by id until answered: when stdin ends, each is answered before rmcp is told
//! (so `fcauto mcp < requests.jsonl` gets every answer), and an id already in flight is
//! refused (rmcp would answer only one of two requests with the same id).

mod analyze;
mod answers;
mod app;
mod era;
mod http;
mod lines;
mod params;
mod schema;
mod tools;

pub use http::{serve_http, ENDPOINT};

use anyhow::Context;
use rmcp::ServiceExt;
use std::time::Duration;

/// The `-32602` message of a `tools/call` whose params rmcp cannot read, or whose
/// `arguments` are no object.
const ARGUMENTS_ERROR: &str =
    "tools/call: params must be {\"name\": <tool name>, \"arguments\": {<the tool's arguments>}}; \
     `arguments`, when given, is a JSON object";

/// The tools [`tools`] offers, by name (tested equal to its `tools/list`).
const TOOLS: [&str; 8] = [
    "new_game",
    "legal_moves",
    "apply_move",
    "hint",
    "solve",
    "verify",
    "analyze_game",
    "render_game",
];

/// Told, when stdin has ended, how many requests were left unanswered after how long a
/// wait (called only when some were).
pub type OnUnanswered = Box<dyn FnOnce(usize, Duration) + Send>;

/// Serve the tools on stdin/stdout on a single-threaded runtime until the client closes
/// stdin. The lines pass through `lines`, which answers those that are not JSON (rmcp
/// ignores them) and writes every answer to stdout; `on_unanswered` hears of requests that
/// were still unanswered when the wait for them after stdin ended ran out.
///
/// # Errors
/// The runtime cannot start, or the MCP session did not start or ended abnormally.
pub fn serve_stdio(on_unanswered: OnUnanswered) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let r = rt.block_on(async {
        let (transport, lines) = lines::start(on_unanswered);
        let running = match tools::FreeCell::new().serve(transport).await {
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
