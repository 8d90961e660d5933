//! The batch results store's library side (cargo feature `batch`, SQLite by rusqlite): the
//! database layout ([`schema`]), the checks of an edited or damaged file ([`check`]), which
//! deals a shard owns ([`shard`]) and the replay of every stored solution ([`verify`]).
//! `fcauto batch` opens, writes, merges and reports on the files.

pub mod check;
pub mod schema;
pub mod shard;
pub mod verify;
