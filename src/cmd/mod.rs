//! One module per subcommand: each has a clap `Args` and `run(Args) -> anyhow::Result<i32>`
//! returning the process exit code.

pub mod bench;
pub mod crosscheck;
pub mod deal;
pub mod fcsolve_bench;
pub mod input;
pub mod play;
pub mod rusage;
pub mod solve;
pub mod stats;
pub mod verify;

pub use fcauto_deals::plural;
