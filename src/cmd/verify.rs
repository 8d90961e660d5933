//! `fcauto verify`.
/// Arguments.
#[derive(clap::Args)]
pub struct Args {}
/// Run.
pub fn run(_args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("not yet")
}
