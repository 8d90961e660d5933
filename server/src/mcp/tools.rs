//! The tools: each reads its arguments, calls the service, and answers its JSON as
//! structured content, or a [`ServiceError`]'s message as a tool error.

use super::params::{ApplyMove, NewGame, Position, Render, Solve, Verify};
use super::schema::{self, MovesOut};
use fcauto_deals::Board;
use fcauto_engine::service::{self, PositionIn, ServiceError};
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{
    CallToolResult, ContentBlock, CustomRequest, CustomResult, ErrorCode, Implementation,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{tool, tool_handler, tool_router, ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The board of a position argument, or the tool error that says why not.
fn board(position: Value) -> Result<Board, ServiceError> {
    let p: PositionIn = serde_json::from_value(position)
        .map_err(|e| ServiceError::bad_input(format!("position: {e}")))?;
    p.to_board()
}

/// A tool's answer: the JSON as structured content, or the error as a tool error.
fn answer<T: serde::Serialize>(r: Result<T, ServiceError>) -> CallToolResult {
    match r.and_then(|v| {
        serde_json::to_value(v)
            .map_err(|e| ServiceError::bad_input(format!("cannot write the answer: {e}")))
    }) {
        Ok(v) => CallToolResult::structured(v),
        Err(e) => {
            CallToolResult::error(vec![ContentBlock::text(service::short_echoes(&e.message))])
        }
    }
}

/// A position that is unreadable or won needs no search: answered at once, not queued
/// behind searches.
fn nothing_to_search(b: &Result<Board, ServiceError>) -> bool {
    b.as_ref().map_or(true, Board::is_won)
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

/// The PNG picture of a position, base64-encoded, as MCP image content.
fn picture(position: Value, width: Option<i64>) -> Result<CallToolResult, ServiceError> {
    use base64::Engine;
    let b = board(position)?;
    let opts = fcauto_engine::render::Options {
        width: service::picture_width(width)?,
        ..Default::default()
    };
    let png = fcauto_engine::render::png(&b, &opts)
        .map_err(|e| ServiceError::impossible(format!("{e:#}")))?;
    let data = base64::engine::general_purpose::STANDARD.encode(png);
    Ok(CallToolResult::success(vec![ContentBlock::image(
        data,
        "image/png",
    )]))
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
        FreeCell {
            tool_router: Self::tool_router(),
            slots: Arc::new(Semaphore::new(cores)),
        }
    }

    #[tool(
        description = "Start a game: the start position of a Microsoft FreeCell deal. \
        Returns {position, position_string, won}; pass either form as `position` to the other tools.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<schema::PositionOut>()
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
        output_schema = rmcp::handler::server::tool::schema_for_output::<schema::ApplyOut>()
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
        output_schema = rmcp::handler::server::tool::schema_for_output::<schema::HintOut>()
    )]
    async fn hint(&self, Parameters(a): Parameters<Solve>) -> Result<CallToolResult, ErrorData> {
        let b = board(a.position);
        let idle = nothing_to_search(&b);
        let run = move || answer(b.and_then(|b| service::hint(&b, a.mode.solver(), a.max_states)));
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
        output_schema = rmcp::handler::server::tool::schema_for_output::<schema::SolveOut>()
    )]
    async fn solve(&self, Parameters(a): Parameters<Solve>) -> Result<CallToolResult, ErrorData> {
        let b = board(a.position);
        let idle = nothing_to_search(&b);
        let run = move || answer(b.and_then(|b| service::solve(&b, a.mode.solver(), a.max_states)));
        if idle {
            return Ok(run());
        }
        blocking(&self.slots, run).await
    }

    #[tool(
        description = "Check a solution in standard notation from a position with the \
        validator: {valid, moves_total, single_card_moves, error}. valid means every move \
        is legal and the game is won at the end.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<schema::VerifyOut>()
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
        "initialize" | "ping" | "tools/list" | "server/discover" => ErrorData::invalid_params(
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
