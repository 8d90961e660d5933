//! PySolFC's process and its dedicated profile (HOME with `.pysolfc/options.cfg`).
//!
//! The profile and options.cfg are written with `crate::pysol` (profile, options); the
//! start-up flags come from PySolFC 3.2.0 `pysollib/main.py` and `pysollib/init.py`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::pysol::options::OptionsFile;
use crate::pysol::profile::AutomationProfile;

use super::display::{exited, register};
use super::screen::{find_windows, WinInfo};
use super::GuiError;

/// PySolFC's launcher (override with `FCAUTO_PYSOLFC`, e.g. to test a missing install).
pub const DEFAULT_PYSOLFC: &str = "/usr/games/pysolfc";
/// The Standard cardset directory (71×96 GIFs) our options select.
pub const CARDSET_DIR: &str = "/usr/share/games/pysolfc/cardset-standard";
/// Main window title for FreeCell (`Game.create`: `TITLE + " - " + name`).
pub const MAIN_TITLE: &str = "PySol - FreeCell";

/// The main window's title for the game PySolFC titles `pysol_name` (`PySol - Baker's Game`).
pub fn main_title(pysol_name: &str) -> String {
    format!("PySol - {pysol_name}")
}

/// PySolFC's command line for FreeCell's Microsoft deal `deal`: `--game FreeCell --deal msN`.
pub fn freecell_args(deal: u64) -> Vec<String> {
    vec![
        "--game".into(),
        "FreeCell".into(),
        "--deal".into(),
        game_number(deal),
    ]
}

/// PySolFC's command line for the game PySolFC titles `pysol_name`, number `number` as
/// PySolFC writes it (`ms617`, `40000`): `--game NAME --deal NUMBER`. (Not `--gameid`:
/// `App.mainproc` in `pysollib/app.py` takes `--deal` with `--game` only, and starts a
/// random number of a game given by id.)
pub fn game_args(pysol_name: &str, number: &str) -> Vec<String> {
    vec![
        "--game".into(),
        pysol_name.into(),
        "--deal".into(),
        number.to_string(),
    ]
}
/// Player name written to options.cfg (the key of statistics.dat's `games_stats`).
pub const PLAYER: &str = "fcauto";

/// `[general]` keys set on top of `REPLAY_SETTINGS`: a filled foundation would otherwise be
/// drawn shaded (`shade_filled_stacks`, default True; `Stack.updateText`/`shade_item` in
/// `pysollib/stack.py`), which breaks matching the King against the cardset image.
pub const EXTRA_SETTINGS: [(&str, &str); 4] = [
    ("shade_filled_stacks", "False"),
    ("highlight_not_matching", "False"),
    ("dragcursor", "False"),
    ("demo_logo", "False"),
];

/// Create (or refresh) the dedicated profile under `base` (`<base>/home/.pysolfc`) with the
/// stats engineer's [`AutomationProfile::create`] (their `REPLAY_SETTINGS`: Standard cardset at
/// scale 1, no animations/splash/auto-drop, ...), then set `[general] mouse_type` (`drag-n-drop`
/// or `point-n-click`) through their [`OptionsFile`]. Never touches the user's own profile.
pub fn prepare_profile(base: &Path, mouse_type: &str) -> Result<AutomationProfile, GuiError> {
    let profile = AutomationProfile::create(base, PLAYER, None)
        .map_err(|e| GuiError::Launch(format!("profile: {e}")))?;
    let path = profile.options_path();
    let mut opts =
        OptionsFile::load(&path).map_err(|e| GuiError::Launch(format!("options: {e}")))?;
    opts.set("general", "mouse_type", mouse_type);
    for (key, value) in EXTRA_SETTINGS {
        opts.set("general", key, value);
    }
    fs::write(&path, opts.to_text())
        .map_err(|e| GuiError::Launch(format!("write {}: {e}", path.display())))?;
    Ok(profile)
}

/// A started (or attached) PySolFC.
#[derive(Debug, Clone)]
pub struct Pysol {
    /// Process id (the registered child when fcauto started it).
    pub pid: u32,
    /// Whether fcauto started the process (and so may kill it on error).
    pub owned: bool,
}

/// The launcher path, from `FCAUTO_PYSOLFC` or [`DEFAULT_PYSOLFC`].
pub fn pysolfc_path() -> PathBuf {
    std::env::var_os("FCAUTO_PYSOLFC")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_PYSOLFC))
}

/// PySolFC's game number for MS deal `deal`: `ms617`. PySolFC deals `msN` with the MS
/// generator for every N; a plain number of 32000 or more would select its Mersenne Twister
/// deal instead (`construct_random` in `pysollib/pysolrandom.py`).
pub fn game_number(deal: u64) -> String {
    format!("ms{deal}")
}

/// The MS deal a PySolFC FreeCell game number stands for: `msN` is MS deal N, a plain
/// number is one only below 32000 (above, PySolFC deals with its Mersenne Twister).
/// `None` for anything else.
pub fn ms_deal_of_game_number(text: &str) -> Option<u64> {
    let t = text.trim();
    let plain = !t.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("ms"));
    fcauto_deals::parse_deal_number(t)
        .ok()
        .filter(|&n| !plain || n < 32000)
}

/// Start `pysolfc` with `game`'s arguments ([`freecell_args`]: `--game FreeCell --deal msN`,
/// or [`game_args`]) with `HOME=home`, its output going to `log`; with `game` `None`,
/// `pysolfc` without a game, to resume the profile's held game (`game_holded` in its
/// options.cfg, which PySolFC prefers to any `--game`).
/// Errors: the launcher missing (names the setup script) or failing to start.
pub fn start(home: &Path, game: Option<Vec<String>>, log: &Path) -> Result<Pysol, GuiError> {
    let exe = pysolfc_path();
    if !exe.exists() {
        return Err(GuiError::Launch(format!(
            "PySolFC not found at {} (install it with scripts/setup-deps.sh --gui)",
            exe.display()
        )));
    }
    let out = fs::File::create(log)
        .map_err(|e| GuiError::Launch(format!("create {}: {e}", log.display())))?;
    let err = out
        .try_clone()
        .map_err(|e| GuiError::Launch(e.to_string()))?;
    let game = game.unwrap_or_default();
    let child = Command::new(&exe)
        .args(game)
        .args([
            "--nosound",
            "--noplugins",
            "--french-only",
            "--no-games-menu",
        ])
        .env("HOME", home)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .map_err(|e| {
            GuiError::Launch(format!(
                "cannot start {}: {e} (see scripts/setup-deps.sh --gui)",
                exe.display()
            ))
        })?;
    Ok(Pysol {
        pid: register("PySolFC", child),
        owned: true,
    })
}

/// Wait up to `timeout` for a visible main window titled `title` ([`MAIN_TITLE`] for
/// FreeCell) of `pysol` (any PySolFC window when `pysol` is `None`, i.e. `--attach`).
/// Errors: timeout, or the process exiting.
pub fn wait_window(
    pysol: Option<&Pysol>,
    title: &str,
    timeout: Duration,
) -> Result<WinInfo, GuiError> {
    let t0 = Instant::now();
    loop {
        let wins = find_windows(title)?;
        let hit = wins.into_iter().find(|w| {
            pysol
                .map(|p| !p.owned || w.pid == 0 || w.pid == p.pid)
                .unwrap_or(true)
        });
        if let Some(w) = hit {
            return Ok(w);
        }
        if let Some(p) = pysol.filter(|p| p.owned) {
            if let Some(code) = exited(p.pid) {
                return Err(GuiError::Launch(format!("PySolFC exited with status {code} before its window appeared (see pysolfc.log)")));
            }
        }
        if t0.elapsed() > timeout {
            return Err(GuiError::Launch(format!(
                "no visible window \"{title}\" after {} s",
                timeout.as_secs()
            )));
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// CPU time (user + system, in clock ticks) used so far by process `pid`, from
/// `/proc/PID/stat` fields 14 and 15; `None` if the process is gone.
pub fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
}

/// Environment variable `key` of process `pid` (from `/proc/PID/environ`).
pub fn proc_env(pid: u32, key: &str) -> Option<String> {
    let env = fs::read(format!("/proc/{pid}/environ")).ok()?;
    let prefix = format!("{key}=");
    env.split(|&b| b == 0).find_map(|kv| {
        kv.strip_prefix(prefix.as_bytes())
            .map(|v| String::from_utf8_lossy(v).into_owned())
    })
}

/// A running PySolFC process on `display` (its command line names `pysolfc` and its `DISPLAY`
/// is `display`), for `--attach` when the window carries no `_NET_WM_PID`.
pub fn find_pysolfc_on(display: &str) -> Option<u32> {
    let mut pids: Vec<u32> = fs::read_dir("/proc")
        .ok()?
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    pids.sort_unstable();
    pids.into_iter().find(|&pid| {
        let cmd = fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        cmd.split(|&b| b == 0)
            .any(|a| a.ends_with(b"/pysolfc") || a == b"pysolfc")
            && proc_env(pid, "DISPLAY").as_deref() == Some(display)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_numbers_name_ms_deals() {
        assert_eq!(game_number(617), "ms617");
        assert_eq!(game_number(3_000_000_000), "ms3000000000");
        assert_eq!(ms_deal_of_game_number("ms617"), Some(617));
        assert_eq!(ms_deal_of_game_number("ms123456"), Some(123456));
        assert_eq!(ms_deal_of_game_number("617"), Some(617));
        // a plain number of 32000 or more is PySolFC's Mersenne Twister deal, not an MS deal
        assert_eq!(ms_deal_of_game_number("123456"), None);
        assert_eq!(ms_deal_of_game_number("Custom"), None);
        assert_eq!(ms_deal_of_game_number("ms0"), None);
    }
}
