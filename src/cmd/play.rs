//! `fcauto play --gui`: replay our solution of a Microsoft deal in the real PySolFC window
//! with the mouse, and prove the win (screenshots, OCR, statistics.dat). Needs a build with
//! `--features gui` and the packages from `scripts/setup-deps.sh --gui`.
//!
//! Output: the evidence bundle in `--results` (see `fcauto_automation::gui::session`), a
//! progress line per move on stderr, and with `--json` the final report on stdout.
//! Exit codes: 0 won and proven, 1 any failure (one-line message).

use std::path::PathBuf;

/// Arguments of `fcauto play`.
#[derive(clap::Args)]
pub struct Args {
    /// Play in the real PySolFC window (the only mode).
    #[arg(long)]
    pub gui: bool,
    /// Microsoft deal number.
    #[arg(long, default_value_t = 617, value_parser = fcauto_deals::parse_deal_number)]
    pub deal: u64,
    /// Directory for the evidence bundle.
    #[arg(long, default_value = "results")]
    pub results: PathBuf,
    /// X display to use, e.g. `:95` (a server is started there if none runs) [default: $DISPLAY, else a new Xvfb]
    #[arg(long)]
    pub display: Option<String>,
    /// Profile base directory for PySolFC (its HOME becomes DIR/home) [default: a temporary one]
    #[arg(long)]
    pub profile: Option<PathBuf>,
    /// Leave PySolFC open after the win (statistics.dat is then not written, so not proven).
    #[arg(long)]
    pub keep_open: bool,
    /// Use an already running PySolFC FreeCell window instead of starting one.
    #[arg(long)]
    pub attach: bool,
    /// How to move cards: `drag` (drag-n-drop, as a person plays) or `click` (point-n-click).
    #[arg(long, default_value = "drag", value_parser = ["drag", "click"])]
    pub mouse: String,
    /// Print the final report as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Run `fcauto play`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    if !args.gui {
        anyhow::bail!("`fcauto play` needs --gui (replay in the real PySolFC window)");
    }
    imp::run(args)
}

#[cfg(not(feature = "gui"))]
mod imp {
    pub fn run(_args: super::Args) -> anyhow::Result<i32> {
        eprintln!(
            "fcauto: error: this fcauto was built without GUI support; rebuild with `cargo build --release --features gui` \
             after installing the GUI packages with scripts/setup-deps.sh --gui"
        );
        Ok(1)
    }
}

#[cfg(feature = "gui")]
mod imp {
    use fcauto_automation::gui::replay::MouseMode;
    use fcauto_automation::gui::session::{self, PlayConfig};

    pub fn run(args: super::Args) -> anyhow::Result<i32> {
        let cfg = PlayConfig {
            deal: args.deal,
            results: args.results.clone(),
            display: args.display.clone(),
            profile: args.profile.clone(),
            keep_open: args.keep_open,
            attach: args.attach,
            mode: if args.mouse == "click" {
                MouseMode::Click
            } else {
                MouseMode::Drag
            },
            progress: true,
        };
        let report = session::run(&cfg)
            .map_err(|e| anyhow::anyhow!("{e} (evidence so far in {})", args.results.display()))?;
        if args.json {
            outln!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            eprintln!(
                "fcauto play: deal {} won; evidence in {}",
                args.deal,
                args.results.display()
            );
        }
        Ok(0)
    }
}
