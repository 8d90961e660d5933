//! The API's routes: each reads its body, calls the service, and answers JSON (or SVG).

use super::body::{body, false_if_null, Body};
use super::{err, reply, App, HttpError, QUEUE_WAIT};
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use fcauto_deals::Board;
use fcauto_engine::service::{self, Position, PositionIn, ServiceError};
use fcauto_solver::Mode;
use serde::Deserialize;
use std::sync::Arc;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The API's routes under `/api/`.
pub(super) fn routes() -> Router<App> {
    Router::new()
        .route("/api/deal/{n}", get(deal))
        .route("/api/games", get(games))
        .route("/api/position", post(position))
        .route("/api/moves", post(moves))
        .route("/api/apply", post(apply))
        .route("/api/solve", post(solve))
        .route("/api/hint", post(hint))
        .route("/api/verify", post(verify))
        .route("/api/analyze", post(analyze))
        .route("/api/render", post(render))
}

/// `GET /api/deal/{n}`'s query: `?game=G&freecells=N` (both may be left out).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DealQuery {
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    freecells: Option<String>,
}

/// `GET /api/deal/{n}`: MS deal n's start position; with `?game=G`, PySolFC's deal n of game
/// G (`?freecells=N` for another number of freecells). A path or query that does not decode
/// (`%ff`) is a JSON error as any other.
async fn deal(
    n: Result<Path<String>, PathRejection>,
    q: Result<Query<DealQuery>, QueryRejection>,
) -> Response {
    let n = match n {
        Ok(Path(n)) => n,
        Err(r) => {
            let why = format!("bad deal number in the path: {}", r.body_text());
            return err(ServiceError::bad_input(why));
        }
    };
    let q = match q {
        Ok(Query(q)) => q,
        Err(r) => {
            let why = format!("bad query (`?game=G&freecells=N`): {}", r.body_text());
            return err(ServiceError::bad_input(why));
        }
    };
    if q.game.is_none() && q.freecells.is_none() {
        return reply(
            fcauto_deals::parse_deal_number(&n)
                .map_err(|e| ServiceError::bad_input(e.to_string()))
                .and_then(service::new_game),
        );
    }
    reply(
        freecells_of(q.freecells.as_deref())
            .and_then(|f| service::new_game_of(&n, q.game.as_deref(), f).map(|p| p.out())),
    )
}

/// A query's `freecells`: a whole number (its range is the service's to check).
fn freecells_of(text: Option<&str>) -> Result<Option<i64>, ServiceError> {
    text.map(|t| {
        t.trim().parse::<i64>().map_err(|_| {
            ServiceError::bad_input(format!(
                "freecells `{t}`: give a number of freecells, 0..=8"
            ))
        })
    })
    .transpose()
}

/// `GET /api/games`: the games the service deals and plays, for the page's chooser.
async fn games() -> Response {
    let list: Vec<_> = fcauto_deals::GAMES
        .iter()
        .map(|g| {
            serde_json::json!({
                "name": g.name,
                "pysol_id": g.pysol_id,
                "title": g.pysol_name,
                "rules": service::RulesJson::of(&g.rules),
            })
        })
        .collect();
    Json(serde_json::json!({ "games": list })).into_response()
}

/// `{position, game?, freecells?}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionBody {
    position: PositionIn,
    /// The game board text is read for (board text names none).
    #[serde(default)]
    game: Option<String>,
    #[serde(default, deserialize_with = "service::whole_freecells")]
    freecells: Option<i64>,
}

impl PositionBody {
    fn to_position(&self) -> Result<Position, ServiceError> {
        self.position
            .to_position_of(self.game.as_deref(), self.freecells)
    }
}

async fn position(b: Body<PositionBody>) -> Response {
    let b = match body(b) {
        Ok(b) => b,
        Err(e) => return err(e),
    };
    reply(b.to_position().map(|p| p.out()))
}

async fn moves(b: Body<PositionBody>) -> Response {
    let b = match body(b) {
        Ok(b) => b,
        Err(e) => return err(e),
    };
    reply(
        b.to_position()
            .and_then(|p| p.legal_moves())
            .map(|moves| serde_json::json!({ "moves": moves })),
    )
}

/// `{position, game?, freecells?, move, count?, autoplay?}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ApplyBody {
    position: PositionIn,
    #[serde(default)]
    game: Option<String>,
    #[serde(default, deserialize_with = "service::whole_freecells")]
    freecells: Option<i64>,
    #[serde(rename = "move")]
    mv: String,
    #[serde(default, deserialize_with = "service::whole_count")]
    count: Option<i64>,
    /// Null as left out (false), as `count`, `mode` and `max_states` take null.
    #[serde(default, deserialize_with = "false_if_null")]
    autoplay: bool,
}

async fn apply(b: Body<ApplyBody>) -> Response {
    let b = match body(b) {
        Ok(b) => b,
        Err(e) => return err(e),
    };
    let r = b
        .position
        .to_position_of(b.game.as_deref(), b.freecells)
        .and_then(|p| p.apply(&b.mv, b.count, b.autoplay));
    match r {
        Ok(out) if !out.legal => {
            let rule = out.broken_rule.clone().unwrap_or_default();
            let answer = serde_json::json!({
                "error": format!("illegal move `{}`: {rule}", b.mv.trim()),
                "result": out,
            });
            (StatusCode::UNPROCESSABLE_ENTITY, Json(answer)).into_response()
        }
        r => reply(r),
    }
}

/// `{deal | position, game?, freecells?, mode?, max_states?}` (exactly one of deal and
/// position; `game` and `freecells` say the game of a deal, or of a position's board text).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveBody {
    #[serde(default, deserialize_with = "service::deal_in_opt")]
    deal: Option<service::DealIn>,
    #[serde(default)]
    game: Option<String>,
    #[serde(default, deserialize_with = "service::whole_freecells")]
    freecells: Option<i64>,
    #[serde(default)]
    position: Option<PositionIn>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default, deserialize_with = "service::whole_max_states")]
    max_states: Option<usize>,
}

/// The position of a request that names a deal (of `game`, with `freecells`) or gives a
/// position (its text read for `game` with `freecells` when given), in any game.
fn position_of(
    deal: Option<&service::DealIn>,
    game: Option<&str>,
    freecells: Option<i64>,
    position: Option<&PositionIn>,
) -> Result<Position, ServiceError> {
    match (deal, position) {
        (Some(n), None) if game.is_some() || freecells.is_some() => {
            service::new_game_of(n.game_text()?, game, freecells)
        }
        (None, Some(p)) => p.to_position_of(game, freecells),
        _ => board_of(deal.map(|d| d.microsoft()).transpose()?, position).map(Position::Standard),
    }
}

/// The standard FreeCell board of a request that names a deal or gives a position.
fn board_of(deal: Option<u64>, position: Option<&PositionIn>) -> Result<Board, ServiceError> {
    match (deal, position) {
        (Some(n), None) => service::new_game(n).and_then(|p| service::json_board(&p.position)),
        (None, Some(p)) => p.to_board(),
        _ => Err(ServiceError::bad_input(
            "give exactly one of `deal` and `position`",
        )),
    }
}

/// Run a solve on the blocking pool once a solver permit is free (503 after [`QUEUE_WAIT`]).
/// `f` gets the permit: it keeps it while its search runs (past a time-capped answer).
async fn with_solver<T: Send + 'static>(
    app: &App,
    f: impl FnOnce(OwnedSemaphorePermit) -> Result<T, ServiceError> + Send + 'static,
) -> Result<T, HttpError> {
    let permit = tokio::time::timeout(QUEUE_WAIT, app.solvers.clone().acquire_owned())
        .await
        .map_err(|_| HttpError::new(503, "all solvers busy: try again later"))?
        .map_err(|_| HttpError::new(503, "shutting down"))?;
    let r = tokio::task::spawn_blocking(move || f(permit)).await;
    let r =
        r.map_err(|_| HttpError::new(500, "internal error in a solve (a bug: please report it)"))?;
    Ok(r?)
}

async fn solve(State(app): State<App>, b: Body<SolveBody>) -> Response {
    solving(&app, b, |p, mode, states, slot| {
        p.solve_in(mode, states, slot)
    })
    .await
}

async fn hint(State(app): State<App>, b: Body<SolveBody>) -> Response {
    solving(&app, b, |p, mode, states, slot| {
        p.hint_in(mode, states, slot)
    })
    .await
}

/// A solve-like operation ([`Position::solve_in`], [`Position::hint_in`]).
type Solver<T> =
    fn(&Position, Mode, Option<usize>, OwnedSemaphorePermit) -> Result<T, ServiceError>;

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
    let start = position_of(
        b.deal.as_ref(),
        b.game.as_deref(),
        b.freecells,
        b.position.as_ref(),
    );
    let (p, mode) = match start.and_then(|p| Ok((p, service::parse_mode(b.mode.as_deref())?))) {
        Ok(x) => x,
        Err(e) => return err(e),
    };
    if p.is_won() {
        // Nothing to search: answered at once, not queued behind searches, on a permit of
        // its own.
        let own = Arc::new(Semaphore::new(1))
            .try_acquire_owned()
            .expect("a new semaphore has its permit");
        return reply(op(&p, mode, b.max_states, own));
    }
    reply(with_solver(app, move |slot| op(&p, mode, b.max_states, slot)).await)
}

/// `{deal | position, game?, freecells?, solution}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VerifyBody {
    #[serde(default, deserialize_with = "service::deal_in_opt")]
    deal: Option<service::DealIn>,
    #[serde(default)]
    game: Option<String>,
    #[serde(default, deserialize_with = "service::whole_freecells")]
    freecells: Option<i64>,
    #[serde(default)]
    position: Option<PositionIn>,
    solution: String,
}

async fn verify(b: Body<VerifyBody>) -> Response {
    let b = match body(b) {
        Ok(b) => b,
        Err(e) => return err(e),
    };
    let start = position_of(
        b.deal.as_ref(),
        b.game.as_deref(),
        b.freecells,
        b.position.as_ref(),
    );
    reply(start.and_then(|p| p.verify(&b.solution)))
}

/// `{position, game?, freecells?, width?}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RenderBody {
    position: PositionIn,
    #[serde(default)]
    game: Option<String>,
    #[serde(default, deserialize_with = "service::whole_freecells")]
    freecells: Option<i64>,
    #[serde(default, deserialize_with = "service::whole_width")]
    width: Option<i64>,
}

async fn render(b: Body<RenderBody>) -> Response {
    let b = match body(b) {
        Ok(b) => b,
        Err(e) => return err(e),
    };
    let p = b.position.to_position_of(b.game.as_deref(), b.freecells);
    match p.and_then(|p| p.svg(b.width)) {
        Ok(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
        Err(e) => err(e),
    }
}

/// `{deal | position, game?, freecells?, moves, mode?, max_states?, costly?}` (exactly one
/// of deal and position, in any game; `game` and `freecells` go with a deal), or
/// `{saved_game, mode?, max_states?, costly?}` (a PySolFC saved or held game's bytes,
/// base64, of any game: its game from the file's id).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyzeBody {
    #[serde(default, deserialize_with = "service::deal_in_opt")]
    deal: Option<service::DealIn>,
    #[serde(default)]
    game: Option<String>,
    #[serde(default, deserialize_with = "service::whole_freecells")]
    freecells: Option<i64>,
    #[serde(default)]
    position: Option<PositionIn>,
    #[serde(default)]
    moves: Option<String>,
    /// A PySolFC saved or held game's bytes, base64: its own start and moves.
    #[serde(default)]
    saved_game: Option<String>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default, deserialize_with = "service::whole_max_states")]
    max_states: Option<usize>,
    #[serde(default, deserialize_with = "service::whole_costly")]
    costly: Option<usize>,
}

/// The game of an analysis request: a start (`deal` or `position`) and `moves`, or a
/// PySolFC `saved_game` alone.
enum AnalyzeGame {
    Moves(Position, String),
    Saved(String),
}

impl AnalyzeBody {
    fn game(&mut self) -> Result<AnalyzeGame, ServiceError> {
        match (self.saved_game.take(), self.moves.take()) {
            (Some(_), _)
                if self.deal.is_some()
                    || self.position.is_some()
                    || self.game.is_some()
                    || self.freecells.is_some() =>
            {
                Err(ServiceError::bad_input(
                    "`saved_game` holds its own game and start (its game from the file's id): leave out `deal`, `position`, `game` and `freecells`",
                ))
            }
            (Some(_), Some(_)) => Err(ServiceError::bad_input(
                "`saved_game` holds its own moves: leave out `moves`",
            )),
            (Some(saved), None) => Ok(AnalyzeGame::Saved(saved)),
            (None, Some(moves)) => Ok(AnalyzeGame::Moves(
                position_of(
                    self.deal.as_ref(),
                    self.game.as_deref(),
                    self.freecells,
                    self.position.as_ref(),
                )?,
                moves,
            )),
            (None, None) => Err(ServiceError::bad_input(
                "give `moves` (with `deal` or `position`), or a PySolFC `saved_game`",
            )),
        }
    }
}

/// `POST /api/analyze`: the game analysed on a solver permit (its searches are a solve's).
async fn analyze(State(app): State<App>, b: Body<AnalyzeBody>) -> Response {
    let mut b = match body(b) {
        Ok(b) => b,
        Err(e) => return err(e),
    };
    let (game, mode) = match b
        .game()
        .and_then(|g| Ok((g, service::parse_mode(b.mode.as_deref())?)))
    {
        Ok(x) => x,
        Err(e) => return err(e),
    };
    let opts = service::AnalyzeOptions {
        mode,
        max_states: b.max_states,
        costly: b.costly,
    };
    reply(
        with_solver(&app, move |slot| match game {
            AnalyzeGame::Moves(p, moves) => service::analyze_in(&p, &moves, opts, slot),
            AnalyzeGame::Saved(saved) => service::analyze_saved_in(&saved, opts, slot),
        })
        .await,
    )
}
