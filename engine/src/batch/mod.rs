//! The batch results store (cargo feature `batch`, SQLite by rusqlite): the one code that
//! opens, reads and writes a database ([`store::Store`]), its layout ([`schema`]), the
//! checks of an edited or damaged file ([`check`]), how a run commits its rows ([`commit`]),
//! the game it keeps ([`game`]), merging
//! shards ([`merge`]), which deals a shard owns ([`shard`]), the replay of every stored
//! solution ([`verify`]), one deal solved into a row ([`solve`]: standard FreeCell or
//! another game of the family, as the database's [`schema::Settings`] say), and what a
//! database holds ([`report`]) and its charts (`plot`, cargo feature `plot`). `fcauto batch`
//! is its command line.

pub mod check;
pub mod commit;
pub mod game;
pub mod merge;
#[cfg(feature = "plot")]
pub mod plot;
pub mod report;
pub mod schema;
pub mod shard;
pub mod solve;
pub mod store;
pub mod verify;
