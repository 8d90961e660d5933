//! A listening address as `serve --bind` and `mcp --http` take it: an IP address and port,
//! or a host name and port resolved at start.

use std::net::{SocketAddr, ToSocketAddrs};

/// `--bind`'s value: what was given, and the addresses it stands for (one for an IP address,
/// those the name resolves to for a host name, tried in turn).
#[derive(Clone, Debug)]
pub struct Bind {
    pub text: String,
    pub addrs: Vec<SocketAddr>,
}

impl std::fmt::Display for Bind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// Read `--bind`: `IP:PORT` as is, `HOST:PORT` resolved (std's `ToSocketAddrs`). A value
/// without a port, or a name that does not resolve, is a usage error saying what to give.
pub fn parse_bind(s: &str) -> Result<Bind, String> {
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
