//! fcauto's front ends over a wire: the adapters that put [`fcauto_engine::service`] (the
//! stateless rules service) on a protocol. They own the protocol's parts only: routes,
//! transports, size caps and timeouts, schemas, and the mapping of the service's
//! [`ErrorKind`](fcauto_engine::service::ErrorKind)s to the protocol's errors; every rule,
//! position and message is the service's.
//!
//! - `http` (cargo feature `http`): `fcauto serve`'s web page and JSON API (axum on tokio).
//! - `mcp` (cargo feature `mcp`): `fcauto mcp`'s Model Context Protocol tools over stdio
//!   and Streamable HTTP (rmcp on tokio; HTTP on `http`'s connection handling).

#[cfg(feature = "http")]
pub mod http;
#[cfg(feature = "mcp")]
pub mod mcp;
