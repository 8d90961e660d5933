//! `fcauto mcp`: the rules engine as Model Context Protocol tools, so that an AI agent can
//! play FreeCell with fcauto refereeing every move: over stdio (the default) or, with
//! `--http ADDR`, over Streamable HTTP at `/mcp`. The server is [`fcauto_server::mcp`];
//! behind the cargo feature `mcp` (a build without it says how to get it).

use super::bind::{parse_bind, Bind};
use clap::Parser;

/// `fcauto mcp` speaks MCP on standard input and output until the client closes standard
/// input; with `--http`, on an HTTP address until interrupted.
#[derive(Parser, Debug)]
pub struct Args {
    /// Serve Streamable HTTP on this address instead of stdio (endpoint `/mcp`): an IP
    /// address and port (`127.0.0.1:8618`, `[::1]:8618`) or `localhost:PORT`. A
    /// non-loopback address is refused unless `--allow-remote` is given.
    #[arg(long, value_name = "ADDR", value_parser = parse_bind)]
    pub http: Option<Bind>,
    /// Let `--http` listen on an address other than loopback (the tools read and write no
    /// files, but searches cost CPU; the address listened on is accepted as `Host`).
    #[arg(long, requires = "http")]
    pub allow_remote: bool,
    /// A `Host` name to accept besides the loopback ones (repeatable), for clients that
    /// reach `--http` by a name: requests naming another host are refused (DNS rebinding).
    #[arg(long, value_name = "NAME", requires = "http",
          value_parser = clap::builder::NonEmptyStringValueParser::new())]
    pub allow_host: Vec<String>,
}

/// Serve the tools; 0 when the client hangs up (stdio), 130 on Ctrl-C (HTTP), 2 for a
/// non-loopback `--http` address without `--allow-remote`. Over stdio, requests still
/// unanswered when the wait for them after the input ended ran out are counted on stderr.
pub fn run(args: Args) -> anyhow::Result<i32> {
    if let Some(bind) = args.http {
        return http(&bind, args.allow_remote, args.allow_host);
    }
    fcauto_server::mcp::serve_stdio(Box::new(|left, waited| {
        crate::note!(
            "fcauto mcp: input ended; {} left unanswered after {} s",
            crate::cmd::plural(left, "request"),
            waited.as_secs()
        );
    }))?;
    Ok(0)
}

/// `--http`: refuse a non-loopback address unless allowed, then serve until interrupted.
fn http(bind: &Bind, allow_remote: bool, hosts: Vec<String>) -> anyhow::Result<i32> {
    if !allow_remote {
        if let Some(a) = bind.addrs.iter().find(|a| !a.ip().is_loopback()) {
            crate::note!(
                "fcauto mcp: {a} is not a loopback address: give --allow-remote to serve MCP \
                 to the network, or a loopback address such as 127.0.0.1:8618"
            );
            return Ok(2);
        }
    }
    let endpoint = fcauto_server::mcp::ENDPOINT;
    fcauto_server::mcp::serve_http(&bind.addrs, &bind.text, hosts, |addr| {
        if !addr.ip().is_loopback() {
            crate::note!("fcauto mcp: warning: {addr} is not a loopback address: the tools are open to the network");
        }
        crate::note!("fcauto mcp: http://{addr}{endpoint} (MCP Streamable HTTP, Ctrl-C stops)");
    })?;
    // The server returns only when Ctrl-C stopped it.
    Ok(crate::cmd::interrupt::CTRL_C_EXIT)
}
