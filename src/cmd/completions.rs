//! `fcauto completions SHELL` and `fcauto man`: the shell completion script and the roff man
//! page, both made from the clap definition of the command line, so that they list exactly
//! the subcommands and flags this build has. Both are written whole to standard output.

use clap::CommandFactory;

/// `fcauto completions SHELL`.
#[derive(clap::Args)]
pub struct Args {
    /// The shell to complete for.
    pub shell: clap_complete::Shell,
}

/// `fcauto man [COMMAND]`.
#[derive(clap::Args)]
pub struct ManArgs {
    /// A subcommand (`solve`): its own page, fcauto-solve(1), instead of fcauto(1).
    pub command: Option<String>,
}

/// Print the completion script for `args.shell` (source it, or save it where the shell
/// looks for completions).
pub fn run(args: Args) -> anyhow::Result<i32> {
    let mut script = Vec::new();
    clap_complete::generate(
        args.shell,
        &mut crate::Cli::command(),
        "fcauto",
        &mut script,
    );
    out!("{}", String::from_utf8_lossy(&script));
    Ok(0)
}

/// Print the man page (roff): fcauto(1), or with a subcommand its page (exit 2 for a
/// subcommand there is not).
pub fn run_man(args: ManArgs) -> anyhow::Result<i32> {
    let top = crate::Cli::command();
    let page = match args.command.as_deref() {
        None => top,
        Some(name) => match top.find_subcommand(name) {
            Some(sub) => sub
                .clone()
                .display_name(format!("fcauto-{name}"))
                .bin_name(format!("fcauto {name}")),
            None => {
                let names: Vec<_> = top.get_subcommands().map(|s| s.get_name()).collect();
                crate::note!(
                    "fcauto: no subcommand `{name}` (there are: {})",
                    names.join(", ")
                );
                return Ok(2);
            }
        },
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .source(concat!("fcauto ", env!("CARGO_PKG_VERSION")))
        .render(&mut roff)?;
    out!("{}", String::from_utf8_lossy(&roff));
    Ok(0)
}
