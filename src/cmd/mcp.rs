//! `fcauto mcp`: the rules engine as Model Context Protocol tools over stdio, so that an AI
//! agent can play FreeCell with fcauto refereeing every move. The server is
//! [`fcauto_server::mcp`]; behind the cargo feature `mcp` (a build without it says how to
//! get it).

use clap::Parser;

/// `fcauto mcp` takes no options: it speaks MCP on standard input and output until the
/// client closes standard input.
#[derive(Parser, Debug)]
pub struct Args {}

/// Serve the tools on stdin/stdout; 0 when the client hangs up. Requests still unanswered
/// when the wait for them after the input ended ran out are counted on stderr.
pub fn run(_args: Args) -> anyhow::Result<i32> {
    fcauto_server::mcp::serve_stdio(Box::new(|left, waited| {
        crate::note!(
            "fcauto mcp: input ended; {} left unanswered after {} s",
            crate::cmd::plural(left, "request"),
            waited.as_secs()
        );
    }))?;
    Ok(0)
}
