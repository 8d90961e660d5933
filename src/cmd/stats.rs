//! Not implemented yet.

/// Arguments (none yet).
#[derive(clap::Args)]
pub struct Args {}

/// Not implemented yet: exits 1 with a message.
pub fn run(_args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("this subcommand is not implemented yet")
}
