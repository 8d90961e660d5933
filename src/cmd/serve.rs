//! `fcauto serve`: a web page and a JSON rules API over HTTP (axum on tokio), on loopback by
//! default. The operations are [`crate::service`]'s; this module is the HTTP skin: routes,
//! size caps, read timeouts, error bodies, a concurrency limit for solves, and a panic guard.
//!
//! Routes (documented for clients in `/api/openapi.json`, [`OPENAPI`]):
//! - `GET /`: the page; `GET /api/openapi.json`;
//! - `GET /api/deal/{n}`: MS deal n's start position;
//! - `POST /api/position` `{position}`: the position checked, in both forms;
//! - `POST /api/moves` `{position}`: the legal moves;
//! - `POST /api/apply` `{position, move, count?, autoplay?}`: the new position, or 422 naming
//!   the broken rule (the body still carries the unchanged position and `legal: false`);
//! - `POST /api/solve` `{deal | position, mode?, max_states?}`; `POST /api/hint` (same);
//! - `POST /api/verify` `{deal | position, solution}`: the validator's verdict;
//! - `POST /api/render` `{position, width?}`: the board as SVG.
//!
//! Errors are `{"error": "..."}` with 400 (malformed JSON, a body not an object, unknown
//! fields, bad deal number), 405 (wrong method), 413 (over a cap), 422 (impossible position,
//! illegal move) or 503 (all solvers busy).

use crate::checked::ModeArg;
use crate::service::{self, PositionIn, ServiceError};
use anyhow::{Context, Result};
use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Arguments of `fcauto serve`.
#[derive(clap::Args)]
pub struct Args {
    /// Address and port to listen on: an IP address (`127.0.0.1:8617`, `[::1]:8617`) or a
    /// host name (`localhost:8617`, resolved at start). Loopback by default; another address
    /// exposes the API to the network (it reads and writes no files and runs no programs,
    /// but solves cost CPU).
    #[arg(long, default_value = "127.0.0.1:8617", value_parser = parse_bind)]
    pub bind: Bind,
}

/// `--bind`'s value: what was given, and the addresses it stands for (one for an IP address,
/// those the name resolves to for a host name, tried in turn).
#[derive(Clone, Debug)]
pub struct Bind {
    text: String,
    addrs: Vec<SocketAddr>,
}

impl std::fmt::Display for Bind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// Read `--bind`: `IP:PORT` as is, `HOST:PORT` resolved (std's `ToSocketAddrs`). A value
/// without a port, or a name that does not resolve, is a usage error saying what to give.
fn parse_bind(s: &str) -> Result<Bind, String> {
    let text = s.to_string();
    if let Ok(a) = s.parse::<SocketAddr>() {
        return Ok(Bind {
            text,
            addrs: vec![a],
        });
    }
    let example =
        "an IP address and port such as 127.0.0.1:8617 (or a host name and port, localhost:8617)";
    let Some((host, port)) = s.rsplit_once(':') else {
        return Err(format!("no port: give {example}"));
    };
    let Ok(port) = port.parse::<u16>() else {
        return Err(format!(
            "`{port}` is not a port (0..=65535): give {example}"
        ));
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() {
        return Err(format!("no address: give {example}"));
    }
    match (host, port).to_socket_addrs() {
        Ok(addrs) => {
            let addrs: Vec<SocketAddr> = addrs.collect();
            if addrs.is_empty() {
                Err(format!(
                    "`{host}` resolves to no address: give an IP address such as 127.0.0.1:{port}"
                ))
            } else {
                Ok(Bind { text, addrs })
            }
        }
        Err(e) => Err(format!(
            "cannot resolve `{host}` ({e}): give an IP address such as 127.0.0.1:{port}"
        )),
    }
}

/// The OpenAPI 3 document served at `/api/openapi.json`.
pub const OPENAPI: &str = include_str!("serve/openapi.json");
/// The page served at `/`.
pub const PAGE: &str = include_str!("serve/page.html");
/// Largest request body, bytes (a 1 MiB solution plus its position).
pub const MAX_BODY: usize = service::MAX_SOLUTION_BYTES + service::MAX_BOARD_BYTES;
/// Longest a request waits for a free solver before 503.
const QUEUE_WAIT: Duration = Duration::from_secs(20);

/// Shared by the handlers: one permit per core for solves.
#[derive(Clone)]
struct App {
    solvers: Arc<Semaphore>,
}

/// Serve until interrupted (Ctrl-C); exit 0.
pub fn run(args: Args) -> Result<i32> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&args.bind.addrs[..])
            .await
            .with_context(|| format!("cannot listen on {}", args.bind))?;
        let addr = listener.local_addr()?;
        if !addr.ip().is_loopback() {
            crate::note!("fcauto serve: warning: {addr} is not a loopback address: the API is open to the network");
        }
        crate::note!("fcauto serve: http://{addr}/ (API under /api/, Ctrl-C stops)");
        tokio::select! {
            () = accept_loop(listener, router()) => {}
            _ = tokio::signal::ctrl_c() => {}
        }
        anyhow::Ok(())
    })?;
    Ok(0)
}

/// Longest a client may take to send a request's headers, or to send the next part of its
/// body, before its connection is dropped (headers) or its request refused (body).
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Serve each connection accepted on `listener` with `app`, over HTTP/1 with a timer, so
/// that [`READ_TIMEOUT`] applies to request headers (axum's own `serve` sets no timer, and a
/// client that sent half a request was held forever). A failed accept (too many open files)
/// waits a moment and goes on.
async fn accept_loop(listener: tokio::net::TcpListener, app: Router) {
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
    Router::new()
        .route(
            "/",
            get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PAGE) }),
        )
        .route(
            "/api/openapi.json",
            get(|| async { ([(header::CONTENT_TYPE, "application/json")], OPENAPI) }),
        )
        .route("/api/deal/{n}", get(deal))
        .route("/api/position", post(position))
        .route("/api/moves", post(moves))
        .route("/api/apply", post(apply))
        .route("/api/solve", post(solve))
        .route("/api/hint", post(hint))
        .route("/api/verify", post(verify))
        .route("/api/render", post(render))
        .method_not_allowed_fallback(|| async {
            err(ServiceError {
                status: 405,
                message: "method not allowed on this route (see /api/openapi.json)".into(),
            })
        })
        .fallback(|| async {
            err(ServiceError {
                status: 404,
                message: "no such route (see /api/openapi.json)".into(),
            })
        })
        .with_state(app)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(declared_body_cap))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            READ_TIMEOUT,
        ))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            |_: Box<dyn std::any::Any + Send>| {
                err(ServiceError {
                    status: 500,
                    message: "internal error (a bug: please report it)".into(),
                })
            },
        ))
}

/// Largest declared body over [`MAX_BODY`] that is read (and dropped) before its 413 is
/// sent, bytes; a larger one gets the 413 at once.
pub const DRAIN_MAX: u64 = 32 << 20;

/// Read `body` to its end and drop it, for at most [`READ_TIMEOUT`].
async fn drain(body: axum::body::Body) {
    use http_body_util::BodyExt;
    let mut body = body;
    let _ = tokio::time::timeout(READ_TIMEOUT, async {
        while let Some(Ok(_)) = body.frame().await {}
    })
    .await;
}

/// 413 for a request whose declared `Content-Length` is over [`MAX_BODY`], without handing
/// it on (its body read and dropped first up to [`DRAIN_MAX`], so that a client uploading
/// it all before reading gets the answer; at once for a larger one); else the whole body read within
/// [`READ_TIMEOUT`] in all (408 if not: a client trickling a byte every few seconds is not
/// held for ever, as `RequestBodyTimeoutLayer`'s timer starts again at each piece), and
/// handed on. A body sent with a `Content-Encoding` (gzip, ...) is a 415.
async fn declared_body_cap(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if let Some(n) = declared.filter(|&n| n > MAX_BODY as u64) {
        // A client that sends its whole body before it reads (Python's urllib, curl without
        // `Expect`) sees a broken pipe, not the 413, when the connection closes under its
        // upload (helper-46): a body of a sane size is read and dropped first.
        if n <= DRAIN_MAX {
            drain(req.into_body()).await;
        }
        return err(ServiceError {
            status: 413,
            message: format!("a request body of {n} bytes is over the cap of {MAX_BODY} bytes"),
        });
    }
    // A compressed body would be read as JSON text and refused for its bytes (helper-46):
    // say that no content coding is taken.
    let coding = req.headers().get(header::CONTENT_ENCODING).map(|v| {
        String::from_utf8_lossy(v.as_bytes())
            .trim()
            .to_ascii_lowercase()
    });
    if let Some(c) = coding.filter(|c| !c.is_empty() && c != "identity") {
        return err(ServiceError {
            status: 415,
            message: fcauto_deals::text::short_echoes(&format!(
                "Content-Encoding `{c}` is not taken: send the JSON body uncompressed"
            )),
        });
    }
    let (parts, body) = req.into_parts();
    let read = tokio::time::timeout(READ_TIMEOUT, axum::body::to_bytes(body, MAX_BODY)).await;
    let refused = |status: u16, message: String| err(ServiceError { status, message });
    match read {
        Ok(Ok(bytes)) => {
            let req = axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes));
            next.run(req).await
        }
        Ok(Err(e)) if has_cause::<tower_http::timeout::TimeoutError>(&e) => refused(
            408,
            format!(
                "bad request body: the body stalled (timeout after {} s)",
                READ_TIMEOUT.as_secs()
            ),
        ),
        Ok(Err(e)) if has_cause::<http_body_util::LengthLimitError>(&e) => refused(
            413,
            format!("bad request body: over the cap of {MAX_BODY} bytes"),
        ),
        Ok(Err(e)) => refused(400, format!("bad request body: {e}")),
        Err(_) => refused(
            408,
            format!(
                "bad request body: not all sent within {} s (timeout)",
                READ_TIMEOUT.as_secs()
            ),
        ),
    }
}

/// True when an error of type `E` is somewhere in `e`'s chain of causes.
fn has_cause<E: std::error::Error + 'static>(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(e);
    while let Some(c) = cause {
        if c.is::<E>() {
            return true;
        }
        cause = c.source();
    }
    false
}

/// An error response: `{"error": message}` with its status.
fn err(e: ServiceError) -> Response {
    let status = StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let message = service::short_echoes(&e.message);
    let mut r = (status, Json(serde_json::json!({ "error": message }))).into_response();
    if status == StatusCode::SERVICE_UNAVAILABLE {
        // When to come back (HTTP's way of saying "try again later"; helper-55).
        r.headers_mut().insert(
            axum::http::header::RETRY_AFTER,
            axum::http::HeaderValue::from_static(RETRY_AFTER_S),
        );
    }
    r
}

/// The `Retry-After` of a 503 (all solvers busy), seconds: a solve is capped at 10 s.
const RETRY_AFTER_S: &str = "5";

/// A request body as axum hands it over: a JSON object read as `T`, or why not.
type Body<T> = Result<Json<Object<T>>, JsonRejection>;

/// `T` read from a JSON object only. Serde's derived structs also read a JSON array as
/// their fields in order (`[1]` would be `{"deal": 1}`); every body is an object, so any
/// other JSON value is refused ("expected a JSON object").
struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Fields<T> {
            type Value = T;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(Fields(std::marker::PhantomData))
            .map(Object)
    }
}

/// The JSON body, or a 400/408/413/415 error that says what is wrong with it (408: the
/// client stopped sending it for [`READ_TIMEOUT`]).
fn body<T>(b: Body<T>) -> Result<T, ServiceError> {
    b.map(|Json(Object(t))| t).map_err(|r| {
        let status = match r.status().as_u16() {
            _ if stalled(&r) => 408,
            413 => 413,
            415 => 415,
            _ => 400,
        };
        ServiceError {
            status,
            message: format!("bad request body: {}", body_problem(&r)),
        }
    })
}

/// What is wrong with a body, in the field's own words where serde gives them: a value
/// refused (`deal: deal number -5 is out of range…`) without axum's preamble and serde's
/// position (helper-60: the same deal refused in two wordings, one with "Failed to
/// deserialize the JSON body into the target type" and a column), the rest as axum says.
fn body_problem(r: &JsonRejection) -> String {
    let text = r.body_text();
    if !matches!(r, JsonRejection::JsonDataError(_)) {
        return text;
    }
    let text = text
        .strip_prefix("Failed to deserialize the JSON body into the target type: ")
        .unwrap_or(&text);
    match text.rfind(" at line ") {
        Some(i) if text[i..].contains(" column ") => text[..i].to_string(),
        _ => text.to_string(),
    }
}

/// True when reading the body failed because it stalled: the body timeout
/// (`RequestBodyTimeoutLayer`) is somewhere in the rejection's chain of causes.
fn stalled(r: &JsonRejection) -> bool {
    has_cause::<tower_http::timeout::TimeoutError>(r)
}

/// JSON 200 of a serialisable answer, or the error.
fn reply<T: serde::Serialize>(r: Result<T, ServiceError>) -> Response {
    match r {
        Ok(t) => Json(t).into_response(),
        Err(e) => err(e),
    }
}

/// `GET /api/deal/{n}`; a path that does not decode (`%ff`) is a JSON error as any other.
async fn deal(n: Result<Path<String>, PathRejection>) -> Response {
    let n = match n {
        Ok(Path(n)) => n,
        Err(r) => {
            let why = format!("bad deal number in the path: {}", r.body_text());
            return err(ServiceError::bad_request(why));
        }
    };
    reply(
        fcauto_deals::parse_deal_number(&n)
            .map_err(|e| ServiceError::bad_request(e.to_string()))
            .and_then(service::new_game),
    )
}

/// `{position}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionBody {
    position: PositionIn,
}

async fn position(b: Body<PositionBody>) -> Response {
    let b = match body(b) {
        Ok(b) => b,
        Err(e) => return err(e),
    };
    reply(b.position.to_board().map(|p| service::position_out(&p)))
}

async fn moves(b: Body<PositionBody>) -> Response {
    let b = match body(b) {
        Ok(b) => b,
        Err(e) => return err(e),
    };
    reply(
        b.position
            .to_board()
            .map(|p| serde_json::json!({ "moves": service::legal_moves(&p) })),
    )
}

/// `{position, move, count?, autoplay?}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ApplyBody {
    position: PositionIn,
    #[serde(rename = "move")]
    mv: String,
    #[serde(default, deserialize_with = "service::whole_count")]
    count: Option<i64>,
    /// Null as left out (false), as `count`, `mode` and `max_states` take null.
    #[serde(default, deserialize_with = "false_if_null")]
    autoplay: bool,
}

/// A boolean, null read as false.
fn false_if_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(Option::<bool>::deserialize(d)?.unwrap_or(false))
}

async fn apply(b: Body<ApplyBody>) -> Response {
    let b = match body(b) {
        Ok(b) => b,
        Err(e) => return err(e),
    };
    let r = b.position.to_board().and_then(|p| {
        let m = service::parse_move(&b.mv, b.count)?;
        Ok(service::apply_move(&p, m, b.autoplay))
    });
    match r {
        Ok(out) if !out.legal => (StatusCode::UNPROCESSABLE_ENTITY, Json(serde_json::json!({
            "error": format!("illegal move `{}`: {}", b.mv.trim(), out.broken_rule.clone().unwrap_or_default()),
            "result": out,
        })))
            .into_response(),
        r => reply(r),
    }
}

/// `{deal | position, mode?, max_states?}` (exactly one of deal and position).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveBody {
    #[serde(default, deserialize_with = "service::deal_number_opt")]
    deal: Option<u64>,
    #[serde(default)]
    position: Option<PositionIn>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default, deserialize_with = "service::whole_max_states")]
    max_states: Option<usize>,
}

/// The board of a request that names a deal or gives a position.
fn board_of(
    deal: Option<u64>,
    position: Option<&PositionIn>,
) -> Result<fcauto_deals::Board, ServiceError> {
    match (deal, position) {
        (Some(n), None) => service::new_game(n).and_then(|p| p.position.to_board()),
        (None, Some(p)) => p.to_board(),
        _ => Err(ServiceError::bad_request(
            "give exactly one of `deal` and `position`",
        )),
    }
}

fn mode_of(m: Option<&str>) -> Result<ModeArg, ServiceError> {
    match m.unwrap_or("fast") {
        "fast" => Ok(ModeArg::Fast),
        "short" => Ok(ModeArg::Short),
        other => Err(ServiceError::bad_request(format!(
            "mode `{other}`: the API solves in `fast` or `short`"
        ))),
    }
}

/// Run a solve on the blocking pool once a solver permit is free (503 after [`QUEUE_WAIT`]).
/// `f` gets the permit: it keeps it while its search runs (past a time-capped answer).
async fn with_solver<T: Send + 'static>(
    app: &App,
    f: impl FnOnce(OwnedSemaphorePermit) -> Result<T, ServiceError> + Send + 'static,
) -> Result<T, ServiceError> {
    let permit = tokio::time::timeout(QUEUE_WAIT, app.solvers.clone().acquire_owned())
        .await
        .map_err(|_| ServiceError {
            status: 503,
            message: "all solvers busy: try again later".into(),
        })?
        .map_err(|_| ServiceError {
            status: 503,
            message: "shutting down".into(),
        })?;
    let r = tokio::task::spawn_blocking(move || f(permit)).await;
    r.map_err(|_| ServiceError {
        status: 500,
        message: "internal error in a solve (a bug: please report it)".into(),
    })?
}

async fn solve(State(app): State<App>, b: Body<SolveBody>) -> Response {
    solving(&app, b, service::solve_in).await
}

async fn hint(State(app): State<App>, b: Body<SolveBody>) -> Response {
    solving(&app, b, service::hint_in).await
}

/// A solve-like operation ([`service::solve_in`], [`service::hint_in`]).
type Solver<T> = fn(
    &fcauto_deals::Board,
    ModeArg,
    Option<usize>,
    OwnedSemaphorePermit,
) -> Result<T, ServiceError>;

/// A solve-like request (`solve`, `hint`): read the body, then run `op` on a solver permit.
async fn solving<T: serde::Serialize + Send + 'static>(
    app: &App,
    b: Body<SolveBody>,
    op: Solver<T>,
) -> Response {
    let b = match body(b) {
        Ok(b) => b,
        Err(e) => return err(e),
    };
    let prep =
        board_of(b.deal, b.position.as_ref()).and_then(|p| Ok((p, mode_of(b.mode.as_deref())?)));
    let (p, mode) = match prep {
        Ok(x) => x,
        Err(e) => return err(e),
    };
    if p.is_won() {
        // Nothing to search: answered at once, not queued behind searches (helper-46: a
        // hint on a won position waited 7.9 s), on a permit of its own.
        let own = Arc::new(Semaphore::new(1))
            .try_acquire_owned()
            .expect("a new semaphore has its permit");
        return reply(op(&p, mode, b.max_states, own));
    }
    reply(with_solver(app, move |slot| op(&p, mode, b.max_states, slot)).await)
}

/// `{deal | position, solution}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VerifyBody {
    #[serde(default, deserialize_with = "service::deal_number_opt")]
    deal: Option<u64>,
    #[serde(default)]
    position: Option<PositionIn>,
    solution: String,
}

async fn verify(b: Body<VerifyBody>) -> Response {
    let b = match body(b) {
        Ok(b) => b,
        Err(e) => return err(e),
    };
    reply(board_of(b.deal, b.position.as_ref()).and_then(|p| service::verify(&p, &b.solution)))
}

/// `{position, width?}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RenderBody {
    position: PositionIn,
    #[serde(default, deserialize_with = "service::whole_width")]
    width: Option<i64>,
}

async fn render(b: Body<RenderBody>) -> Response {
    let b = match body(b) {
        Ok(b) => b,
        Err(e) => return err(e),
    };
    match b.position.to_board().and_then(|p| svg_of(&p, b.width)) {
        Ok(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
        Err(e) => err(e),
    }
}

/// The board as SVG, through the one renderer.
fn svg_of(p: &fcauto_deals::Board, width: Option<i64>) -> Result<String, ServiceError> {
    let width = service::picture_width(width)?;
    Ok(fcauto_engine::render::svg(
        p,
        &fcauto_engine::render::Options {
            width,
            ..Default::default()
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 503 (all solvers busy) says when to come back; other errors do not (helper-55).
    #[test]
    fn a_busy_answer_says_when_to_retry() {
        let busy = err(ServiceError {
            status: 503,
            message: "all solvers busy: try again later".into(),
        });
        assert_eq!(busy.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            busy.headers().get(axum::http::header::RETRY_AFTER),
            Some(&axum::http::HeaderValue::from_static("5"))
        );
        let bad = err(ServiceError::bad_request("no"));
        assert!(bad.headers().get(axum::http::header::RETRY_AFTER).is_none());
    }

    /// The OpenAPI document says so too: every 503 it lists is the busy answer, whose
    /// `Retry-After` header it names (helper-56), on the routes that solve.
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
        assert_eq!(busy_routes, ["/api/hint", "/api/solve"]);
    }
}
