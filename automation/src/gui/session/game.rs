//! Stage 3, launch: the PySolFC profile (a dedicated one, or the attached PySolFC's), its
//! files copied into the bundle, the statistics before the run, and PySolFC started (or
//! attached to) with its main window found: the [`Game`] the later stages act on.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::{PlayConfig, STATS_TOOL};
use crate::gui::display::kill_registered;
use crate::gui::evidence::{Bundle, ProfileCopies};
use crate::gui::launch::{self, prepare_profile, Pysol, CARDSET_DIR, PLAYER};
use crate::gui::layout::Layout;
use crate::gui::mouse::Input;
use crate::gui::ocr::Ocr;
use crate::gui::recognize::CardImages;
use crate::gui::replay::Table;
use crate::gui::resume::{self, Held};
use crate::gui::screen::WinInfo;
use crate::gui::verify::{read_stats, StatsSnapshot};
use crate::gui::GuiError;
use crate::pysol::options::OptionsFile;

pub(super) struct Guard(pub(super) Option<u32>);
impl Drop for Guard {
    /// Kill PySolFC if the run ends before it quit cleanly.
    fn drop(&mut self) {
        if let Some(pid) = self.0.take() {
            kill_registered(pid);
        }
    }
}

/// The PySolFC profile a run reads and proves with.
pub(super) struct Profile {
    /// Its statistics.dat (may not exist yet).
    pub(super) stats: PathBuf,
    /// Its options.cfg.
    pub(super) options: PathBuf,
    /// The player whose statistics count.
    pub(super) player: String,
    /// The temporary profile folder, deleted when the run ends (`None` with `--profile`).
    pub(super) _tmp: Option<tempfile::TempDir>,
}

/// [`launch`]'s output: PySolFC running (or attached), its profile, and the table to act on.
pub(super) struct Game {
    /// The process.
    pub(super) pysol: Pysol,
    /// Kills PySolFC if the run ends before it quit cleanly.
    pub(super) guard: Guard,
    /// The profile.
    pub(super) profile: Profile,
    /// FreeCell's statistics before the run.
    pub(super) before: StatsSnapshot,
    /// The profile files copied to pysol_before/.
    pub(super) copies_before: ProfileCopies,
    /// The main window.
    pub(super) win: WinInfo,
    /// Screen and mouse on the main window.
    pub(super) table: Table,
    /// The OCR engine.
    pub(super) ocr: Ocr,
    /// When PySolFC was started.
    pub(super) t_launch: Instant,
}

/// Stage 3, launch: the profile (a dedicated one, or the attached PySolFC's), its files
/// copied to pysol_before/, the statistics before, then PySolFC started with `msN` (or, with
/// `held`, on that held game, installed in the profile first) and its window found.
pub(super) fn launch(
    cfg: &PlayConfig,
    ev: &mut Bundle,
    display: &str,
    held: Option<&Held>,
) -> Result<Game, GuiError> {
    let (pysol, profile, home) = open_profile(cfg, display)?;
    if let Some(held) = held {
        let dir = profile
            .options
            .parent()
            .unwrap_or(std::path::Path::new("."));
        resume::install(dir, held)?;
    }
    let copies_before = copy_profile(ev, "pysol_before", &profile.stats, &profile.options)?;
    let before = read_stats(&profile.stats, &profile.player, cfg.game.pysol_id)?;
    ev.channel(0, "statistics", STATS_TOOL);
    if let Some(name) = &copies_before.statistics {
        ev.evidence(0, "statistics", STATS_TOOL, name);
    }
    let t_launch = Instant::now();
    let pysol = match home {
        Some(home) => {
            let args = if cfg.is_family() {
                launch::game_args(cfg.game.pysol_name, &cfg.game_number())
            } else {
                let shown = std::env::var("FCAUTO_TEST_PYSOL_DEAL")
                    .ok()
                    .and_then(|d| fcauto_deals::parse_deal_number(&d).ok())
                    .unwrap_or(cfg.deal);
                launch::freecell_args(shown)
            };
            launch::start(
                &home,
                held.is_none().then_some(args),
                &ev.path("pysolfc.log"),
            )?
        }
        None => pysol,
    };
    let guard = Guard(pysol.owned.then_some(pysol.pid));
    let title = launch::main_title(cfg.game.pysol_name);
    let win = launch::wait_window(Some(&pysol), &title, Duration::from_secs(120)).map_err(|e| {
        match held {
            // PySolFC opens whatever game is held: another game has another window title
            Some(h) => GuiError::Launch(format!(
                "{e}; PySolFC resumes the game options.cfg names as held: is the held game ({}) {}?",
                h.origin, cfg.game.pysol_name
            )),
            None => e,
        }
    })?;
    let cardset = std::path::Path::new(CARDSET_DIR);
    let table = Table {
        client: win.client,
        layout: Layout::from_cardset(cardset)
            .map_err(|e| GuiError::Recognize(e.to_string()))?
            .for_game(cfg.game),
        images: CardImages::load(cardset)?,
        input: Input::new()?,
        pid: if pysol.pid != 0 { pysol.pid } else { win.pid },
        mode: cfg.mode,
        move_timeout: Duration::from_secs(60),
    };
    Ok(Game {
        pysol,
        guard,
        profile,
        before,
        copies_before,
        win,
        table,
        ocr: Ocr::new()?,
        t_launch,
    })
}

/// The profile to play in: with `--attach` the running PySolFC's own (found by its HOME),
/// else a dedicated one (`--profile DIR` or a temporary folder) whose HOME is returned for
/// starting PySolFC.
fn open_profile(
    cfg: &PlayConfig,
    display: &str,
) -> Result<(Pysol, Profile, Option<PathBuf>), GuiError> {
    if cfg.attach {
        let title = launch::main_title(cfg.game.pysol_name);
        let w = launch::wait_window(None, &title, Duration::from_secs(5))?;
        let pid = if w.pid != 0 {
            w.pid
        } else {
            launch::find_pysolfc_on(display).unwrap_or(0)
        };
        let home = launch::proc_env(pid, "HOME")
            .map(PathBuf::from)
            .ok_or_else(|| {
                GuiError::Launch("cannot find the attached PySolFC's process and HOME".into())
            })?;
        let dir = home.join(".pysolfc");
        let options = dir.join("options.cfg");
        let player = OptionsFile::load(&options)
            .ok()
            .and_then(|o| o.get("general", "player"))
            .unwrap_or_else(|| PLAYER.to_string());
        let profile = Profile {
            stats: dir.join("statistics.dat"),
            options,
            player,
            _tmp: None,
        };
        return Ok((Pysol { pid, owned: false }, profile, None));
    }
    let (base, tmp) = match &cfg.profile {
        Some(p) => (p.clone(), None),
        None => {
            let t =
                tempfile::tempdir().map_err(|e| GuiError::Launch(format!("temp profile: {e}")))?;
            crate::gui::display::remove_on_interrupt(t.path());
            (t.path().to_path_buf(), Some(t))
        }
    };
    let p = prepare_profile(&base, cfg.mode.option_value())?;
    let profile = Profile {
        stats: p.statistics_path(),
        options: p.options_path(),
        player: PLAYER.to_string(),
        _tmp: tmp,
    };
    let pysol = Pysol {
        pid: 0,
        owned: true,
    };
    Ok((pysol, profile, Some(base.join("home"))))
}

/// Copy statistics.dat and options.cfg into `<results>/<sub>/` (they live in a profile that
/// may be deleted when the run ends), so `fcauto stats --diff pysol_before pysol_after`
/// re-checks the proof later.
pub(super) fn copy_profile(
    ev: &Bundle,
    sub: &str,
    stats: &std::path::Path,
    options: &std::path::Path,
) -> Result<ProfileCopies, GuiError> {
    Ok(ProfileCopies {
        statistics: ev.copy_in(sub, stats)?,
        options: ev.copy_in(sub, options)?,
    })
}
