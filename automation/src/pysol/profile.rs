//! PySolFC profile folders, and a separate profile for automated play.
//!
//! PySolFC 3.x keeps its files in `$HOME/.pysolfc` (`mfxutil.getprefdir`), older releases
//! (2.x) in `$HOME/.PySolFC`. The user's own folders are never written: automated play gets
//! its own throwaway HOME (`<base>/home`) whose `.pysolfc/options.cfg` carries
//! [`options::REPLAY_SETTINGS`]; start PySolFC with `HOME=<that home>`.

use std::path::{Path, PathBuf};

use super::options::{self, OptionsError, OptionsFile};

/// Profile folder names under HOME, newest PySolFC first.
pub const PROFILE_DIR_NAMES: [&str; 2] = [".pysolfc", ".PySolFC"];

/// `$HOME`, if set and non-empty.
pub fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// The profile folder under `home` (`.pysolfc`, then `.PySolFC`): the first that holds a
/// `statistics.dat`, else the first that exists.
pub fn find_profile_dir(home: &Path) -> Option<PathBuf> {
    let dirs: Vec<PathBuf> = PROFILE_DIR_NAMES
        .iter()
        .map(|n| home.join(n))
        .filter(|p| p.is_dir())
        .collect();
    dirs.iter()
        .find(|p| p.join("statistics.dat").is_file())
        .or(dirs.first())
        .cloned()
}

/// Errors creating an automated-play profile; one line each.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// A file operation failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The target is (inside) a real user's PySolFC profile.
    #[error("{0}: refusing to write inside a user's PySolFC profile")]
    UserProfile(PathBuf),
    /// The seed options.cfg could not be read (its reason in the message, not a source: a
    /// chain printed whole would say it twice).
    #[error("seed options: {0}")]
    Seed(OptionsError),
    /// The player name is empty, too long (PySolFC cuts at 30) or has a line break.
    #[error("invalid player name {0:?} (1 to 30 characters, no line breaks)")]
    Player(String),
}

impl From<OptionsError> for ProfileError {
    fn from(e: OptionsError) -> ProfileError {
        ProfileError::Seed(e)
    }
}

/// The user's own PySolFC profile (or HOME) that an automation profile under `base`
/// (canonical) would write into, if any, for the user whose HOME is `user_home`: `base`
/// inside `<user_home>/.pysolfc` or `.PySolFC`, `home` (`<base>/home`) being `user_home`
/// itself (`--profile /x` with `HOME=/x/home` would write the user's options.cfg), or `dir` (`<home>/.pysolfc`) leading
/// into a user's profile through a link.
fn users_profile_at(
    user_home: Option<&Path>,
    base: &Path,
    home: &Path,
    dir: &Path,
) -> Option<PathBuf> {
    let user_home = user_home?;
    let same = |a: &Path, b: &Path| matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y);
    if same(home, user_home) {
        return Some(home.to_path_buf());
    }
    PROFILE_DIR_NAMES.iter().find_map(|n| {
        let user = user_home.join(n).canonicalize().ok()?;
        let inside = |p: &Path| p.canonicalize().is_ok_and(|p| p.starts_with(&user));
        (inside(base) || inside(dir)).then_some(user)
    })
}

/// A separate PySolFC profile for automated play (a throwaway HOME).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutomationProfile {
    /// The HOME to start PySolFC with.
    pub home: PathBuf,
    /// `<home>/.pysolfc`.
    pub dir: PathBuf,
    /// The player name written as `[general] player` (the statistics key).
    pub player: String,
}

impl AutomationProfile {
    /// Create (or refresh) the profile under `base` (`<base>/home/.pysolfc`), writing
    /// options.cfg with [`options::REPLAY_SETTINGS`] and `player`. `seed`, if given, is an
    /// options.cfg (e.g. the user's) to start from; it is only read. An existing
    /// options.cfg in the automation profile is first copied to `options.cfg.bak`.
    /// Refuses a `base` inside `$HOME/.pysolfc` or `$HOME/.PySolFC`.
    pub fn create(
        base: &Path,
        player: &str,
        seed: Option<&Path>,
    ) -> Result<AutomationProfile, ProfileError> {
        if player.is_empty() || player.chars().count() > 30 || player.contains(['\n', '\r']) {
            return Err(ProfileError::Player(player.to_string()));
        }
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| ProfileError::Io { path, source }
        };
        std::fs::create_dir_all(base).map_err(io(base))?;
        let base = base.canonicalize().map_err(io(base))?;
        let home = base.join("home");
        let dir = home.join(".pysolfc");
        if let Some(user) = users_profile_at(home_dir().as_deref(), &base, &home, &dir) {
            return Err(ProfileError::UserProfile(user));
        }
        std::fs::create_dir_all(&dir).map_err(io(&dir))?;
        let mut opts = match seed {
            Some(s) => OptionsFile::load(s)?,
            None => OptionsFile::parse("# -*- coding: utf-8 -*-\n[general]\n")?,
        };
        for &(sec, key, value) in options::REPLAY_SETTINGS {
            opts.set(sec, key, value);
        }
        opts.set("general", "player", player);
        let profile = AutomationProfile {
            home,
            dir,
            player: player.to_string(),
        };
        let target = profile.options_path();
        if target.exists() {
            let bak = profile.dir.join("options.cfg.bak");
            std::fs::copy(&target, &bak).map_err(io(&bak))?;
        }
        let tmp = profile.dir.join("options.cfg.tmp");
        std::fs::write(&tmp, opts.to_text()).map_err(io(&tmp))?;
        std::fs::rename(&tmp, &target).map_err(io(&target))?;
        Ok(profile)
    }

    /// `<dir>/options.cfg`.
    pub fn options_path(&self) -> PathBuf {
        self.dir.join("options.cfg")
    }

    /// `<dir>/statistics.dat` (exists only after PySolFC quit cleanly once).
    pub fn statistics_path(&self) -> PathBuf {
        self.dir.join("statistics.dat")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("fcauto-profile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn writes_replay_options_and_backs_up() {
        let base = tmp("create");
        let p = AutomationProfile::create(&base, "robot", None).unwrap();
        let o = OptionsFile::load(&p.options_path()).unwrap();
        assert!(o.replay_problems().is_empty(), "{:?}", o.replay_problems());
        assert_eq!(o.get("general", "player").as_deref(), Some("robot"));
        assert!(!p.dir.join("options.cfg.bak").exists());
        AutomationProfile::create(&base, "robot2", None).unwrap();
        let bak = OptionsFile::load(&p.dir.join("options.cfg.bak")).unwrap();
        assert_eq!(bak.get("general", "player").as_deref(), Some("robot"));
        std::fs::remove_dir_all(&base).unwrap();
    }

    /// A profile under `base` that would be the user's own is refused: `base` inside the
    /// user's profile, `base/home` the user's HOME, `base/home/.pysolfc` a link
    /// to the user's profile; a folder of its own is not.
    #[test]
    fn never_the_users_own_profile() {
        let root = tmp("users");
        let user_home = root.join("x/home");
        let user = user_home.join(".pysolfc");
        std::fs::create_dir_all(&user).unwrap();
        let at = |base: &Path| {
            let base = base.canonicalize().unwrap();
            let home = base.join("home");
            let dir = home.join(".pysolfc");
            users_profile_at(Some(&user_home), &base, &home, &dir)
        };
        assert!(at(&root.join("x")).is_some(), "base/home is HOME");
        assert!(at(&user).is_some(), "base is the profile");
        let linked = root.join("linked");
        std::fs::create_dir_all(linked.join("home")).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&user, linked.join("home/.pysolfc")).unwrap();
            assert!(at(&linked).is_some(), "a link to the profile");
        }
        let own = root.join("own");
        std::fs::create_dir_all(&own).unwrap();
        assert_eq!(at(&own), None);
        assert_eq!(users_profile_at(None, &own, &own, &own), None);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn rejects_bad_player_names() {
        let base = tmp("player");
        assert!(matches!(
            AutomationProfile::create(&base, "", None),
            Err(ProfileError::Player(_))
        ));
        assert!(AutomationProfile::create(&base, "a\nb", None).is_err());
        let _ = std::fs::remove_dir_all(&base);
    }
}
