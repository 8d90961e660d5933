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
    /// A subcommand (`solve`, `batch run`, or as the pages name it, `batch-run`): its own page,
    /// fcauto-solve(1), fcauto-batch-run(1), instead of fcauto(1).
    pub command: Vec<String>,
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
    let mut page = crate::Cli::command();
    // Built, so that clap's own `help` subcommands are there too (the pages name them).
    page.build();
    let path: Vec<&str> = args.command.iter().flat_map(|a| a.split('-')).collect();
    for (k, name) in path.iter().enumerate() {
        let Some(sub) = page.find_subcommand(name).cloned() else {
            let names: Vec<_> = page.get_subcommands().map(|s| s.get_name()).collect();
            let within = match k {
                0 => String::new(),
                _ => format!(" of `{}`", path[..k].join(" ")),
            };
            crate::note!(
                "fcauto: no subcommand `{name}`{within} (there are: {})",
                names.join(", ")
            );
            return Ok(2);
        };
        let words = &path[..=k];
        page = sub
            .display_name(format!("fcauto-{}", words.join("-")))
            .bin_name(format!("fcauto {}", words.join(" ")));
    }
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .source(concat!("fcauto ", env!("CARGO_PKG_VERSION")))
        .render(&mut roff)?;
    out!("{}", String::from_utf8_lossy(&roff));
    Ok(0)
}
