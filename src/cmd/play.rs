//! `fcauto play --gui`: replay our solution of a Microsoft deal (or with `--game G`, of
//! PySolFC's game G of the FreeCell family, number N) in the real PySolFC window with the
//! mouse, and prove the win (screenshots, OCR, statistics.dat for that game's id). Needs a build with
//! `--features gui` and the packages from `scripts/setup-deps.sh --gui`.
//!
//! Output: the evidence bundle in `--results` (see `fcauto_automation::gui::session`), a
//! progress line per move on stderr, and with `--json` the final report on stdout.
//! Exit codes: 0 won and proven, 1 any failure (one-line message).

use std::path::PathBuf;

use crate::game::GameArgs;
use fcauto_deals::PysolNumber;

/// Arguments of `fcauto play`.
#[derive(clap::Args)]
pub struct Args {
    /// Play in the real PySolFC window (the only mode).
    #[arg(long)]
    pub gui: bool,
    /// Microsoft deal number, 1..=8589934591 (or `msN`, as PySolFC writes it); with --game,
    /// PySolFC's game number (the Microsoft shuffle below 32000 and for `msN`, the Mersenne
    /// Twister from 32000 on) [default: 617]
    #[arg(long, value_parser = crate::game::parse_game_number)]
    pub deal: Option<PysolNumber>,
    #[command(flatten)]
    pub game: GameArgs,
    /// A deal file holding `MS_DEAL_NUMBER=N` (the workflow's deal_seed.txt) instead of
    /// --deal; recorded as `source` in deal_seed.json.
    #[arg(long, value_name = "FILE", conflicts_with = "deal")]
    pub deal_file: Option<PathBuf>,
    /// Directory for the evidence bundle.
    #[arg(long, default_value = "results")]
    pub results: PathBuf,
    /// X display to use, e.g. `:95` (a server is started there if none runs) [default: $DISPLAY, else a new Xvfb]
    #[arg(long, value_parser = display_name)]
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
    /// Finish the held game (PySolFC's Hold and quit, Ctrl+X) instead of dealing: FreeCell
    /// or another game of its family, the game read from the file (with --game, it must be
    /// that game); the held game of ~/.pysolfc (or of the --profile) is resumed in a private
    /// copy of the profile, confirmed on screen, solved from there, replayed and proven won.
    #[arg(long, conflicts_with_all = ["deal", "deal_file", "attach"])]
    pub resume: bool,
    /// With --resume: the held game to finish (a holdgame.dat), instead of the profile's.
    #[arg(long, value_name = "FILE", requires = "resume")]
    pub held: Option<PathBuf>,
    /// Print the final report as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// An X display name, `[HOST]:N[.S]`, checked up front (otherwise `foo` would wait 20 s for
/// an Xvfb `:foo` to start).
fn display_name(s: &str) -> Result<String, String> {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let ok = s
        .rsplit_once(':')
        .is_some_and(|(_, n)| match n.split_once('.') {
            Some((d, screen)) => digits(d) && digits(screen),
            None => digits(n),
        });
    if ok {
        Ok(s.to_string())
    } else {
        Err(format!(
            "`{s}` is not an X display name: expected `:N` (e.g. `:95`), or `HOST:N.S`"
        ))
    }
}

/// The deal played when neither --deal nor --deal-file is given.
pub const DEFAULT_DEAL: u64 = 617;

/// Run `fcauto play`; returns the exit code. A bad deal file fails (exit 1) before anything
/// starts; no --gui is a usage error (exit 2).
pub fn run(args: Args) -> anyhow::Result<i32> {
    // A deal number out of range is refused first, as clap refuses it for the other commands.
    if let Some(msg) = deal_too_large(&args) {
        return Ok(crate::cmd::usage_exit(&msg));
    }
    if !args.gui {
        // A usage error, like clap's (exit 2).
        return Ok(crate::cmd::usage_exit(
            "`fcauto play` needs --gui (replay in the real PySolFC window)",
        ));
    }
    let deal = match &args.deal_file {
        Some(path) => {
            let file = crate::cmd::input::read_deal_file(path)?;
            // the absolute path, so the bundle names the file wherever it is read from
            let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
            Deal {
                number: file.deal,
                file: Some((path, file.line)),
            }
        }
        None => {
            let given = args
                .deal
                .unwrap_or(PysolNumber::ms(DEFAULT_DEAL).expect("in range"));
            let number = u64::try_from(given.value())
                .ok()
                .filter(|&n| n <= fcauto_deals::MAX_DEAL);
            match number {
                Some(number) => Deal { number, file: None },
                // only --game plays PySolFC's larger numbers (its Mersenne Twister deals)
                None if args.game.game.is_some() => Deal {
                    number: 0,
                    file: None,
                },
                None => return Ok(crate::cmd::usage_exit(&too_large(given))),
            }
        }
    };
    if args.game.freecells.is_some() {
        return Ok(crate::cmd::usage_exit(
            "`fcauto play --gui` plays PySolFC's games as PySolFC deals them: --freecells is not taken (FreeCell with 2 free cells is `--game 1900`)",
        ));
    }
    imp::run(args, deal)
}

/// --deal's number when it is above the Microsoft deals' 2^33-1 without --game (only --game
/// plays PySolFC's larger numbers, its Mersenne Twister deals): the message saying so.
fn deal_too_large(args: &Args) -> Option<String> {
    let given = args.deal.filter(|_| args.game.game.is_none())?;
    let fits = u64::try_from(given.value()).is_ok_and(|n| n <= fcauto_deals::MAX_DEAL);
    (!fits).then(|| too_large(given))
}

/// The usage error of a --deal number too large for a Microsoft deal.
fn too_large(given: PysolNumber) -> String {
    let e = fcauto_deals::DealError::TooLarge(given.to_string());
    format!("invalid value '{given}' for '--deal <DEAL>': {e}; PySolFC's larger game numbers need --game")
}

/// The deal to play and, when it came from --deal-file, the file and its line.
#[cfg_attr(not(feature = "gui"), allow(dead_code))]
pub struct Deal {
    /// MS deal number.
    pub number: u64,
    /// The deal file and its `MS_DEAL_NUMBER=...` line.
    pub file: Option<(PathBuf, String)>,
}

#[cfg(not(feature = "gui"))]
mod imp {
    /// Say how to get `play --gui`; exit 2, as every other part a build left out.
    pub fn run(_args: super::Args, _deal: super::Deal) -> anyhow::Result<i32> {
        crate::note!(
            "fcauto: error: this fcauto was built without GUI support; rebuild with `cargo build --release --features gui` \
             after installing the GUI packages with scripts/setup-deps.sh --gui"
        );
        Ok(2)
    }
}

#[cfg(feature = "gui")]
mod imp {
    use fcauto_automation::gui::replay::MouseMode;
    use fcauto_automation::gui::resume::{self, Held};
    use fcauto_automation::gui::session::{self, DealSource, PlayConfig};
    use fcauto_automation::pysol::profile::home_dir;

    /// The held game `--resume` finishes: `--held FILE`, else the `--profile`'s own held game,
    /// else the user's (`$HOME/.pysolfc`, only read: it is copied to the run's profile).
    fn held_game(args: &super::Args) -> anyhow::Result<Held> {
        if let Some(file) = &args.held {
            return Ok(resume::held_file(file)?);
        }
        if let Some(dir) = &args.profile {
            let own = dir.join("home").join(".pysolfc");
            if own.join(resume::HOLDGAME).is_file() {
                return Ok(resume::held_in_dir(&own)?);
            }
        }
        let home = home_dir().ok_or_else(|| {
            anyhow::anyhow!("HOME is not set: name the held game with --held FILE")
        })?;
        Ok(resume::held_in_home(&home)?)
    }

    /// With `--resume --game G`: the held game must be G (its id read from the file).
    fn same_game(args: &super::Args, held: &Held) -> anyhow::Result<()> {
        let Some(want) = args.game.game else {
            return Ok(());
        };
        let read = resume::read_held(&held.file)?;
        anyhow::ensure!(
            read.game.pysol_id == want.pysol_id,
            "--game {} (PySolFC id {}), but the held game ({}) is {} (PySolFC id {}): leave out --game to resume it",
            want.name,
            want.pysol_id,
            held.origin,
            read.game.name,
            read.game.pysol_id
        );
        Ok(())
    }

    /// The run's result: report.json on stdout with `--json`, else one line naming what was
    /// won (a deal, a game of the family, a held game) and where the evidence is.
    fn print_result(
        args: &super::Args,
        cfg: &PlayConfig,
        report: &serde_json::Value,
    ) -> anyhow::Result<()> {
        if args.json {
            outln!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            let what = if cfg.resume.is_some() {
                "held game"
            } else if cfg.is_family() {
                "game"
            } else {
                "deal"
            };
            let family = report["game"]["pysol_id"]
                .as_u64()
                .is_some_and(|id| id != 8);
            let name = if cfg.is_family() {
                cfg.title()
            } else if family {
                // a resumed game of the family: its game and number come from the held file
                format!(
                    "{} #{} (game id {})",
                    report["game"]["pysol_name"].as_str().unwrap_or("?"),
                    report["pysolfc_game_number"].as_str().unwrap_or("?"),
                    report["game"]["pysol_id"]
                )
            } else {
                report["ms_deal_number"].to_string()
            };
            // With --keep-open PySolFC has not written statistics.dat: the win is seen on the
            // screen, not proved.
            let proof = match args.keep_open {
                true => " on the screen (not proved: --keep-open leaves PySolFC running, and its statistics.dat unwritten)",
                false => "",
            };
            crate::note!(
                "fcauto play: {what} {name} won{proof}; evidence in {}",
                args.results.display()
            );
        }
        Ok(())
    }

    pub fn run(args: super::Args, deal: super::Deal) -> anyhow::Result<i32> {
        if args.results.as_os_str() == "-" {
            return Ok(crate::cmd::usage_exit(
                "--results needs a folder (the evidence is many files), not `-`",
            ));
        }
        // Before anything starts: a folder that cannot take the bundle (a file, or files of
        // yours under a bundle's names, which would be replaced), a profile that is a file
        // (otherwise refused as "File exists" only once Xvfb had started).
        fcauto_automation::gui::evidence::survey(&args.results)?;
        if let Some(p) = args.profile.as_ref().filter(|p| p.exists() && !p.is_dir()) {
            anyhow::bail!(
                "--profile {} is a file, not a folder: give a folder (PySolFC's HOME becomes FOLDER/home)",
                p.display()
            );
        }
        if let Some(game) = args.game.game {
            if let Err(why) = fcauto_automation::gui::layout::check_table_read(game) {
                return Ok(crate::cmd::usage_exit(&why));
            }
        }
        let resume = if args.resume {
            let held = held_game(&args)?;
            same_game(&args, &held)?;
            Some(held)
        } else {
            None
        };
        let number = match (args.game.game, args.deal) {
            // a held game's number is read from its file
            _ if args.resume => None,
            (Some(_), Some(n)) => Some(n),
            (Some(_), None) => {
                Some(fcauto_deals::PysolNumber::ms(deal.number).expect("a deal file's number"))
            }
            (None, _) => None,
        };
        let cfg = PlayConfig {
            // a resumed game's deal is read from the window (0 = not known yet)
            deal: if resume.is_some() { 0 } else { deal.number },
            game: args.game.game(),
            number,
            deal_source: match deal.file {
                Some((path, line)) => DealSource::File { path, line },
                None => DealSource::CommandLine,
            },
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
            resume,
        };
        let report = session::run(&cfg)
            .map_err(|e| anyhow::anyhow!("{e} (evidence so far in {})", args.results.display()))?;
        print_result(&args, &cfg, &report)?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--display` takes X's display names and refuses others up front (`foo` would wait
    /// 20 s for an Xvfb `:foo`, an empty name would reach X's parser).
    #[test]
    fn display_names_are_checked() {
        for ok in [":95", ":0.0", "localhost:10.0", "host:3"] {
            assert_eq!(display_name(ok).as_deref(), Ok(ok));
        }
        for bad in ["foo", "", ":", ":x", "95", ":1.", ":1.a"] {
            let e = display_name(bad).unwrap_err();
            assert!(e.contains("is not an X display name"), "{bad}: {e}");
        }
    }
}
