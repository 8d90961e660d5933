//! The tools: each reads its arguments, calls the service, and answers what the model
//! reads as structured content (and its JSON as text) and what a view needs in `_meta`
//! ([`super::answers`]), or a [`ServiceError`]'s message as a tool error.

use super::analyze;
use super::answers::{self, Split};
use super::app;
use super::params::{Analyze, ApplyMove, NewGame, Position, Render, Solve, Verify};
use super::schema;
use fcauto_engine::service::{self, Position as GamePosition, PositionIn, ServiceError};
use rmcp::handler::server::tool::schema_for_output as output;
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{
    CallToolResult, ContentBlock, CustomRequest, CustomResult, ErrorCode, Implementation,
    ListResourcesResult, MetaObject, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerConfig, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{tool, tool_handler, tool_router, ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// A position argument, read.
fn position_in(position: Value) -> Result<PositionIn, ServiceError> {
    serde_json::from_value(position).map_err(|e| ServiceError::bad_input(format!("position: {e}")))
}

/// The position of any game a position argument gives (its board text read for `game`
/// with `freecells` when given), or the tool error that says why not.
fn game_position(
    position: Value,
    game: Option<&str>,
    freecells: Option<i64>,
) -> Result<GamePosition, ServiceError> {
    position_in(position)?.to_position_of(game, freecells)
}

/// A service answer as JSON, split by `shape` into what the model and a view read.
fn shaped<T: serde::Serialize>(
    r: Result<T, ServiceError>,
    shape: fn(Value) -> Split,
) -> Result<Split, ServiceError> {
    let v = serde_json::to_value(r?)
        .map_err(|e| ServiceError::bad_input(format!("cannot write the answer: {e}")))?;
    Ok(shape(v))
}

/// A tool's answer: the model's part as structured content, the view's in `_meta`; or the
/// error as a tool error.
fn answer(r: Result<Split, ServiceError>) -> CallToolResult {
    match r {
        Ok(Split { model, view }) => {
            let mut result = CallToolResult::structured(model);
            if !view.is_empty() {
                let mut meta = MetaObject::default();
                meta.0.insert(answers::VIEW_KEY.into(), Value::Object(view));
                result.meta = Some(meta);
            }
            result
        }
        Err(e) => {
            CallToolResult::error(vec![ContentBlock::text(service::short_echoes(&e.message))])
        }
    }
}
/// A position that is unreadable or won needs no search: answered at once, not queued
/// behind searches.
fn nothing_to_search(b: &Result<GamePosition, ServiceError>) -> bool {
    b.as_ref().map_or(true, GamePosition::is_won)
}

/// Run a blocking operation (a search, a picture) off the runtime's thread, once one of
/// `slots`' permits is free: at most one such operation a core runs at once, as `serve`
/// runs its solves (a client sending many requests at once gets them answered in turn,
/// not as many searches, each with its memory, as it sent).
async fn blocking<T: Send + 'static>(
    slots: &Arc<Semaphore>,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ErrorData> {
    let permit = slots
        .clone()
        .acquire_owned()
        .await
        .map_err(|e| ErrorData::internal_error(format!("the operation failed: {e}"), None))?;
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        f()
    })
    .await
    .map_err(|e| ErrorData::internal_error(format!("the operation failed: {e}"), None))
}

/// `render_game`'s answer: the position (as [`answers::position`]) and the board as text
/// (fc-solve's layout, with every cascade and freecell of the game); with `picture`, also
/// the PNG picture of the position (any game of the family, titled with its game),
/// base64-encoded, as MCP image content.
fn render(a: Render) -> Result<CallToolResult, ServiceError> {
    use base64::Engine;
    service::picture_width(a.width)?;
    let p = game_position(a.position, a.game.as_deref(), a.freecells)?;
    let (out, text) = match &p {
        GamePosition::Standard(b) => (
            shaped(Ok(service::position_out(b)), answers::position),
            b.to_string(),
        ),
        GamePosition::Family(f) => (
            shaped(Ok(f.out()), answers::position),
            f.layout.board_text(),
        ),
    };
    let mut result = answer(out);
    result.content.push(ContentBlock::text(text));
    if a.picture {
        let data = base64::engine::general_purpose::STANDARD.encode(p.png(a.width)?);
        result.content.push(ContentBlock::image(data, "image/png"));
    }
    Ok(result)
}

/// Every tool is a pure function of its arguments: it reads, changes nothing, gives the
/// same answer to the same call, and reaches nothing outside (MCP's tool annotations).
fn pure() -> ToolAnnotations {
    ToolAnnotations::new()
        .read_only(true)
        .destructive(false)
        .idempotent(true)
        .open_world(false)
}

/// The MCP server: its tool table, and the permits of the searches and pictures that
/// may run at once (one a core).
#[derive(Clone)]
pub(super) struct FreeCell {
    tool_router: ToolRouter<FreeCell>,
    slots: Arc<Semaphore>,
}

#[tool_router]
impl FreeCell {
    pub(super) fn new() -> FreeCell {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut tool_router = Self::tool_router();
        for route in tool_router.map.values_mut() {
            let tool = &mut route.attr;
            tool.annotations = Some(pure());
            schema::portable(Arc::make_mut(&mut tool.input_schema));
            if let Some(out) = tool.output_schema.as_mut() {
                schema::portable(Arc::make_mut(out));
            }
        }
        FreeCell {
            tool_router,
            slots: Arc::new(Semaphore::new(cores)),
        }
    }

    /// `solve`'s search from `a`'s position, off the runtime's thread (at once for a
    /// position that needs none), its answer shaped by `shape`: `hint` and `solve` differ
    /// only there.
    async fn search(
        &self,
        a: Solve,
        shape: fn(Value) -> Split,
    ) -> Result<CallToolResult, ErrorData> {
        let b = game_position(a.position, a.game.as_deref(), a.freecells);
        let idle = nothing_to_search(&b);
        let (mode, max_states) = (a.mode.solver(), a.max_states);
        let run = move || {
            answer(shaped(
                b.and_then(|b| b.solve_in(mode, max_states, ())),
                shape,
            ))
        };
        if idle {
            return Ok(run());
        }
        blocking(&self.slots, run).await
    }

    #[tool(
        title = "New game",
        meta = app::tool_meta(),
        description = "Start a game: the start position of a Microsoft FreeCell deal, or \
        with `game` (bakers_game, eight_off, seahaven_towers, forecell, ... or PySolFC's id) \
        PySolFC's deal of that game (PySolFC's numbers, up to 10^20: give one past 2^53 as a \
        string), with `freecells` for another number of freecells. \
        Returns {position, won}: position is the one-line position string to pass as \
        `position` to the other tools (another game's string starts with its name).",
        output_schema = output::<schema::PositionOut>()
    )]
    fn new_game(&self, Parameters(a): Parameters<NewGame>) -> CallToolResult {
        if a.game.is_none() && a.freecells.is_none() {
            let p = a.deal.microsoft().and_then(service::new_game);
            return answer(shaped(p, answers::position));
        }
        let p = a
            .deal
            .game_text()
            .and_then(|t| service::new_game_of(t, a.game.as_deref(), a.freecells));
        answer(shaped(p.map(|p| p.out()), answers::position))
    }

    #[tool(
        title = "Legal moves",
        description = "Every legal move of a position in standard notation: {moves: [\"3a\", \
        \"38\", ...]}; a run of cards appears once per legal size (`38v1` where a plain `38` \
        would move another number of cards onto an empty cascade), and symmetric moves are \
        all listed (1a and 1b, a card to each empty cascade, freecell to freecell ab).",
        output_schema = output::<schema::MovesOut>()
    )]
    fn legal_moves(&self, Parameters(a): Parameters<Position>) -> CallToolResult {
        answer(shaped(
            game_position(a.position, a.game.as_deref(), a.freecells).and_then(|p| p.legal_moves()),
            answers::legal,
        ))
    }

    #[tool(
        meta = app::tool_meta(),
        title = "Play a move",
        description = "Play one move, refereed by fcauto's validator. Returns {legal, \
        broken_rule, move, autoplayed, position, won}: the new position string when legal; \
        when illegal, legal is false, broken_rule says why, and the position is the unchanged one.",
        output_schema = output::<schema::ApplyOut>()
    )]
    fn apply_move(&self, Parameters(a): Parameters<ApplyMove>) -> CallToolResult {
        let applied = game_position(a.position, a.game.as_deref(), a.freecells)
            .and_then(|p| p.apply(&a.mv, a.count, a.autoplay));
        answer(shaped(applied, answers::applied))
    }

    #[tool(
        title = "Hint",
        description = "The next move towards a win from a position: {verdict, next, \
        moves_to_win}. next is null unless a win was found.",
        output_schema = output::<schema::HintOut>()
    )]
    async fn hint(&self, Parameters(a): Parameters<Solve>) -> Result<CallToolResult, ErrorData> {
        self.search(a, answers::hint).await
    }

    #[tool(
        title = "Solve",
        description = "Solve a position: {verdict (solved | unsolvable | unknown: <limit>), \
        solvable, moves_total, single_card_moves, standard (the solution in standard \
        notation, one line), positions}. Every solution has passed the validator; only a \
        complete search says unsolvable.",
        output_schema = output::<schema::SolveOut>()
    )]
    async fn solve(&self, Parameters(a): Parameters<Solve>) -> Result<CallToolResult, ErrorData> {
        self.search(a, answers::solved).await
    }

    #[tool(
        title = "Verify a solution",
        description = "Check a solution in standard notation from a position with the \
        validator: {valid, moves_total, single_card_moves, error}. valid means every move \
        is legal and the game is won at the end.",
        output_schema = output::<schema::VerifyOut>()
    )]
    fn verify(&self, Parameters(a): Parameters<Verify>) -> CallToolResult {
        answer(shaped(
            game_position(a.position, a.game.as_deref(), a.freecells)
                .and_then(|p| p.verify(&a.solution)),
            answers::whole,
        ))
    }

    #[tool(
        title = "Analyze a game",
        description = "Where a game was lost: every position of the game (a start `position` \
        of any game and its `moves` in standard notation, or a PySolFC saved or held game of \
        any game as base64 `saved_game`) searched (board text as `position` is read for `game` with \
        `freecells`: board text names no game; a position string names its own, which `game` \
        must agree with); answers {game, moves, start, start_moves_to_win, \
        lost_at: {step, move, instead}, costly: [{step, move, cost, best}], final: {verdict, \
        won, moves_to_win, hint}, summary}, and with a saved game what it held \
        (saved_game: {pysol_id, deal, held, moves}). game is null for standard FreeCell. lost_at is null when no move was proved to lose \
        the game; a costly move made the shortest known win 10 or more moves longer.",
        output_schema = output::<schema::AnalyzeOut>()
    )]
    async fn analyze_game(
        &self,
        Parameters(a): Parameters<Analyze>,
    ) -> Result<CallToolResult, ErrorData> {
        let (mode, max_states) = (a.mode.solver(), a.max_states);
        let permit =
            self.slots.clone().acquire_owned().await.map_err(|e| {
                ErrorData::internal_error(format!("the operation failed: {e}"), None)
            })?;
        // The permit goes with the analysis: held until its searches end, past its time cap.
        let run = move || {
            answer(match (a.saved_game, a.position, a.moves) {
                (Some(_), None, None) if a.game.is_some() || a.freecells.is_some() => {
                    Err(ServiceError::bad_input(
                        "`saved_game` holds its own game (from the file's id): leave out `game` and `freecells`",
                    ))
                }
                (Some(saved), None, None) => {
                    analyze::analyze_saved(&saved, mode, max_states, permit)
                }
                (Some(_), _, _) => Err(ServiceError::bad_input(
                    "`saved_game` holds its own start and moves: leave out `position` and `moves`",
                )),
                (None, Some(p), Some(moves)) => game_position(p, a.game.as_deref(), a.freecells)
                    .and_then(|p| analyze::analyze(&p, &moves, mode, max_states, permit)),
                (None, _, _) => Err(ServiceError::bad_input(
                    "give `position` and `moves`, or a PySolFC `saved_game`",
                )),
            })
        };
        tokio::task::spawn_blocking(run)
            .await
            .map_err(|e| ErrorData::internal_error(format!("the operation failed: {e}"), None))
    }

    #[tool(
        title = "Show the board",
        meta = app::tool_meta(),
        description = "The board of a position: {position, won}, and the board as text \
        (fc-solve's layout: foundations, freecells, then each cascade deepest card first); \
        with `picture: true`, also a PNG picture of it in any game of the family (freecells \
        a-d, e-g, i and foundations on the top row, cascades 1-9, 0 below, titled with the \
        game).",
        output_schema = output::<schema::PositionOut>()
    )]
    async fn render_game(
        &self,
        Parameters(a): Parameters<Render>,
    ) -> Result<CallToolResult, ErrorData> {
        let picture = a.picture;
        let run = move || {
            render(a).unwrap_or_else(|e| {
                CallToolResult::error(vec![ContentBlock::text(service::short_echoes(&e.message))])
            })
        };
        if !picture {
            return Ok(run());
        }
        blocking(&self.slots, run).await
    }
}

/// The error for a request rmcp could not read: -32602 for a method this server has,
/// -32601 for any other.
fn unreadable_request(method: &str) -> ErrorData {
    match method {
        "tools/call" => ErrorData::invalid_params(super::ARGUMENTS_ERROR, None),
        "initialize" | "ping" | "tools/list" | "server/discover" | "resources/list"
        | "resources/read" => ErrorData::invalid_params(
            format!("{method}: malformed params (see the MCP specification)"),
            None,
        ),
        _ => ErrorData::new(ErrorCode::METHOD_NOT_FOUND, method.to_string(), None),
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for FreeCell {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_extensions_with(app::extensions())
            .enable_resources()
            .enable_tools()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("fcauto", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "FreeCell (Microsoft rules: 8 cascades, 4 freecells, 4 foundations) with fcauto \
                 as the referee. Start with new_game, look at legal_moves, play with apply_move \
                 (pass back the position it returns each time; nothing is kept on the server), \
                 ask hint or solve when stuck, check a whole line with verify, look with render_game. Moves are in \
                 standard notation: 1-8 cascades, a-d freecells, h foundations, e.g. 3a, a3, 3h, 38. \
                 new_game also deals the FreeCell family as PySolFC does (game: bakers_game, \
                 eight_off, seahaven_towers, forecell, ...; freecells: 0-8): there `0` is the \
                 tenth cascade, e-g and i the fifth to eighth freecells.",
            )
    }

    /// `resources/list`: the MCP Apps view of the board.
    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(app::list())
    }

    /// `resources/read`: the view's page.
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        app::read(&request.uri).map(ReadResourceResponse::from)
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
        let mut ours: Vec<String> = super::super::TOOLS.map(String::from).to_vec();
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
