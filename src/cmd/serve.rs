//! `fcauto serve`: a web page and a JSON rules API over HTTP, on loopback by default. The
//! server is [`fcauto_server::http`]; this module reads `--bind` and says where it listens.

use super::bind::{parse_bind, Bind};
use anyhow::Result;

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

/// Serve until interrupted: the server returns only when Ctrl-C stopped it, so exit 130
/// (128 + SIGINT, as every command stopped by a signal; SIGTERM and SIGHUP end the process
/// with their own 143 and 129).
pub fn run(args: Args) -> Result<i32> {
    fcauto_server::http::serve(&args.bind.addrs, &args.bind.text, |addr| {
        if !addr.ip().is_loopback() {
            crate::note!("fcauto serve: warning: {addr} is not a loopback address: the API is open to the network");
        }
        crate::note!("fcauto serve: http://{addr}/ (API under /api/, Ctrl-C stops)");
    })?;
    Ok(crate::cmd::interrupt::CTRL_C_EXIT)
}
