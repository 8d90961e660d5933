//! `fcauto serve`'s server: a web page and a JSON rules API over HTTP (axum on tokio). The
//! operations are [`fcauto_engine::service`]'s; this module is the HTTP skin: routes, size
//! caps, read timeouts, error bodies (a [`ServiceError`]'s kind mapped to its status), a
//! concurrency limit for solves, and a panic guard.
//!
//! Routes (documented for clients in `/api/openapi.json`, [`OPENAPI`]):
//! - `GET /`: the page; `GET /api/openapi.json`;
//! - `GET /api/deal/{n}`: MS deal n's start position; `?game=G&freecells=N`: PySolFC's deal
//!   n of another game of the family;
//! - `GET /api/games`: the games dealt and played;
//! - `POST /api/position` `{position}`: the position checked, in both forms;
//! - `POST /api/moves` `{position}`: the legal moves;
//! - `POST /api/apply` `{position, move, count?, autoplay?}`: the new position, or 422 naming
//!   the broken rule (the body still carries the unchanged position and `legal: false`);
//! - `POST /api/solve` `{deal | position, game?, freecells?, mode?, max_states?}`; `POST
//!   /api/hint` (same);
//! - `POST /api/verify` `{deal | position, game?, freecells?, solution}`: the validator's
//!   verdict;
//! - `POST /api/render` `{position, game?, freecells?, width?}`: the board as SVG;
//! - `POST /api/analyze` `{deal | position, game?, freecells?, moves, mode?, max_states?,
//!   costly?}` or `{saved_game, mode?, max_states?, costly?}` (a PySolFC saved or held game,
//!   base64): where the game was lost, with the review (moves to win per step, classes,
//!   accuracy).
//!
//! A position may be of any game of the family ([`fcauto_engine::service::Position`]): the
//! position string names its game, the JSON carries `game` and `rules`, and board text
//! (which names none) is read for the body's `game` and `freecells`; a position naming
//! another game than `game` is refused (422) naming both.
//!
//! Errors are `{"error": "..."}` with 400 (malformed JSON, a body not an object, unknown
//! fields, bad deal number), 405 (wrong method), 413 (over a cap), 422 (impossible position,
//! illegal move) or 503 (all solvers busy).

pub(crate) mod body;
mod routes;

use anyhow::{Context, Result};
use axum::extract::DefaultBodyLimit;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use fcauto_engine::service::{self, ErrorKind, ServiceError};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The OpenAPI 3 document served at `/api/openapi.json`.
pub const OPENAPI: &str = include_str!("openapi.json");
/// The page served at `/`.
pub const PAGE: &str = include_str!("page.html");
/// Largest request body, bytes (a 1 MiB solution plus its position).
pub const MAX_BODY: usize = service::MAX_SOLUTION_BYTES + service::MAX_BOARD_BYTES;
/// Longest a request waits for a free solver before 503.
const QUEUE_WAIT: Duration = Duration::from_secs(20);
/// Longest a client may take to send a request's headers, or to send the next part of its
/// body, before its connection is dropped (headers) or its request refused (body).
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Largest declared body over [`MAX_BODY`] that is read (and dropped) before its 413 is
/// sent, bytes; a larger one gets the 413 at once.
pub const DRAIN_MAX: u64 = 32 << 20;
/// The `Retry-After` of a 503 (all solvers busy), seconds: a solve is capped at 10 s.
const RETRY_AFTER_S: &str = "5";

/// Shared by the handlers: one permit per core for solves.
#[derive(Clone)]
struct App {
    solvers: Arc<Semaphore>,
}

/// Listen on the first of `addrs` that can be bound (`bind`, the address as the user gave
/// it, names it in the error), tell `on_listening` the address listened on, and serve until
/// interrupted (Ctrl-C).
///
/// # Errors
/// The runtime cannot start, or no address can be listened on.
pub fn serve(
    addrs: &[SocketAddr],
    bind: &str,
    on_listening: impl FnOnce(SocketAddr),
) -> Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addrs)
            .await
            .with_context(|| format!("cannot listen on {bind}"))?;
        let interrupted = ctrl_c_from_now()?;
        on_listening(listener.local_addr()?);
        tokio::select! {
            () = accept_loop(listener, router()) => {}
            () = interrupted => {}
        }
        anyhow::Ok(())
    })
}

/// Ctrl-C (SIGINT), listened for from the call on (inside the runtime): one that comes
/// before the future is first polled, as soon as the server said it listens, still ends the
/// wait rather than the process (tokio's `ctrl_c()` listens only once polled).
///
/// # Errors
/// The signal handler cannot be installed.
pub(crate) fn ctrl_c_from_now() -> Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut sigint = signal(SignalKind::interrupt()).context("cannot listen for Ctrl-C")?;
    Ok(async move {
        sigint.recv().await;
    })
}

/// Serve each connection accepted on `listener` with `app`, over HTTP/1 with a timer, so
/// that [`READ_TIMEOUT`] applies to request headers (axum's own `serve` sets no timer, and a
/// client that sent half a request would be held forever). A failed accept (too many open
/// files) waits a moment and goes on.
pub(crate) async fn accept_loop(listener: tokio::net::TcpListener, app: Router) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(READ_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// All routes with their layers.
fn router() -> Router {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let app = App {
        solvers: Arc::new(Semaphore::new(cores)),
    };
    routes::routes()
        .route(
            "/",
            get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PAGE) }),
        )
        .route(
            "/api/openapi.json",
            get(|| async { ([(header::CONTENT_TYPE, "application/json")], OPENAPI) }),
        )
        .method_not_allowed_fallback(|| async {
            err(HttpError::new(
                405,
                "method not allowed on this route (see /api/openapi.json)",
            ))
        })
        .fallback(|| async { err(HttpError::new(404, "no such route (see /api/openapi.json)")) })
        .with_state(app)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(body::declared_body_cap))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            READ_TIMEOUT,
        ))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            |_: Box<dyn std::any::Any + Send>| {
                err(HttpError::new(
                    500,
                    "internal error (a bug: please report it)",
                ))
            },
        ))
}

/// A refused request as HTTP answers it: a status and a message for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
struct HttpError {
    /// HTTP status code.
    status: u16,
    /// What is wrong, in words.
    message: String,
}

impl HttpError {
    fn new(status: u16, message: impl Into<String>) -> HttpError {
        HttpError {
            status,
            message: message.into(),
        }
    }
}

/// The status of a [`ServiceError`]'s kind: 400 malformed, 413 too large, 422 well formed
/// but impossible or illegal.
fn status_of(kind: ErrorKind) -> u16 {
    match kind {
        ErrorKind::BadInput => 400,
        ErrorKind::TooLarge => 413,
        ErrorKind::Impossible => 422,
    }
}

impl From<ServiceError> for HttpError {
    fn from(e: ServiceError) -> HttpError {
        HttpError::new(status_of(e.kind), e.message)
    }
}

/// An error response: `{"error": message}` with its status; a 503 says when to come back
/// (`Retry-After`, HTTP's way of saying "try again later").
fn err(e: impl Into<HttpError>) -> Response {
    let e = e.into();
    let status = StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let message = service::short_echoes(&e.message);
    let mut r = (status, Json(serde_json::json!({ "error": message }))).into_response();
    if status == StatusCode::SERVICE_UNAVAILABLE {
        r.headers_mut().insert(
            header::RETRY_AFTER,
            axum::http::HeaderValue::from_static(RETRY_AFTER_S),
        );
    }
    r
}

/// JSON 200 of a serialisable answer, or the error.
fn reply<T: serde::Serialize, E: Into<HttpError>>(r: Result<T, E>) -> Response {
    match r {
        Ok(t) => Json(t).into_response(),
        Err(e) => err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 503 (all solvers busy) says when to come back; other errors do not.
    #[test]
    fn a_busy_answer_says_when_to_retry() {
        let busy = err(HttpError::new(503, "all solvers busy: try again later"));
        assert_eq!(busy.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            busy.headers().get(header::RETRY_AFTER),
            Some(&axum::http::HeaderValue::from_static("5"))
        );
        let bad = err(ServiceError::bad_input("no"));
        assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
        assert!(bad.headers().get(header::RETRY_AFTER).is_none());
    }

    /// Each kind of service error has its status.
    #[test]
    fn error_kinds_map_to_their_statuses() {
        for (e, status) in [
            (ServiceError::bad_input("x"), 400),
            (ServiceError::too_large("x"), 413),
            (ServiceError::impossible("x"), 422),
        ] {
            assert_eq!(err(e).status().as_u16(), status);
        }
    }

    /// The OpenAPI document says so too: every 503 it lists is the busy answer, whose
    /// `Retry-After` header it names, on the routes that solve.
    #[test]
    fn the_document_names_the_busy_answers_header() {
        let doc: serde_json::Value = serde_json::from_str(OPENAPI).unwrap();
        let busy = &doc["components"]["responses"]["Busy"];
        assert_eq!(
            busy["headers"]["Retry-After"]["schema"]["type"], "integer",
            "{busy}"
        );
        let mut busy_routes = Vec::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (_, op) in item.as_object().unwrap() {
                if let Some(r) = op["responses"].get("503") {
                    assert_eq!(r["$ref"], "#/components/responses/Busy", "{path}");
                    busy_routes.push(path.as_str());
                }
            }
        }
        busy_routes.sort();
        assert_eq!(busy_routes, ["/api/analyze", "/api/hint", "/api/solve"]);
    }
}
