//! Subcommands whose cargo feature this build left out: they say how to get them.

/// Any arguments: the subcommand is not in this build.
#[derive(clap::Args)]
pub struct Args {
    /// (ignored)
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    pub rest: Vec<String>,
}

/// Exit 2 with the cargo command that builds `command` (behind `feature`). Unused in a build
/// with every optional subcommand.
#[allow(dead_code)]
pub fn run(command: &str, feature: &str) -> anyhow::Result<i32> {
    crate::note!(
        "fcauto: `{command}` is not in this build: rebuild with `cargo build --release --features {feature}` \
         (or `cargo run --release --features {feature} -- {command} ...`)"
    );
    Ok(2)
}
