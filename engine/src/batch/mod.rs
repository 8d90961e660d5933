//! The batch results store (cargo feature `batch`, SQLite by rusqlite): the one code that
//! opens, reads and writes a database ([`store::Store`]), its layout ([`schema`]), the
//! checks of an edited or damaged file ([`check`]), merging shards ([`merge`]), which deals a shard owns ([`shard`]) and
//! the replay of every stored solution ([`verify`]), and
//! what a database holds ([`report`]). `fcauto batch` is its command line.

pub mod check;
pub mod merge;
pub mod report;
pub mod schema;
pub mod shard;
pub mod store;
pub mod verify;
