//! Freecell Solver (Debian's `freecell-solver-bin`) run as a child process: `fc-solve` on one
//! board ([`run`], [`run_ok`]), its range solver `freecell-solver-range-parallel-solve` over
//! a range of Microsoft deals ([`run_range_with`]), whether they are installed
//! ([`check_installed_in`]) and the names of its presets ([`preset_names`]).
//!
//! The one place fcauto starts fc-solve: `solve --cross-check` (standard FreeCell, and the
//! family's games with [`game_flags`] on their board text, [`run_text_ok`]), `bench
//! --vs-fc-solve` and the GUI replay's reference solution all come here, each with its own
//! flags. Every run has
//! `FREECELL_SOLVER_QUIET=1` (fc-solve's hint about that variable stays out of the output)
//! and no standard input.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};

use fcauto_deals::{Board, Game, Rules};

/// fc-solve's complete scan over atomic moves (`--method soft-dfs -to 01ABCDE`), with `-sel`
/// so that an exhausted scan ("I could not solve this game.") is told from a hit iteration
/// cap ("Iterations count exceeded."): without `-sel`, fc-solve 5.0 prints the first for both.
pub const ATOMIC_SCAN: [&str; 5] = ["--method", "soft-dfs", "-to", "01ABCDE", "-sel"];

/// The flags that make fc-solve play `game` under `rules`: `-g NAME` (the game's Freecell
/// Solver name; a PySolFC variant such as `freecell_2_freecells` is its base game) and
/// `--freecells-num N`. Every game of [`fcauto_deals::GAMES`] is one of fc-solve's `-g`
/// games, and `--freecells-num` takes 0 to 8: fc-solve plays each rule set fcauto plays.
pub fn game_flags(game: &Game, rules: &Rules) -> Vec<String> {
    let base = match game.name.split_once("_freecells") {
        Some((head, _)) => head.rsplit_once('_').map_or(head, |(name, _)| name),
        None => game.name,
    };
    vec![
        "-g".into(),
        base.into(),
        "--freecells-num".into(),
        rules.freecells.to_string(),
    ]
}

/// The range solver's program name.
pub const RANGE_SOLVER: &str = "freecell-solver-range-parallel-solve";

/// The one-board solver's program name.
pub const FC_SOLVE: &str = "fc-solve";

/// Which fc-solve programs to start: the ones on `PATH` (Debian's `freecell-solver-bin`,
/// the default) or the ones in a folder (such as the native build that
/// `scripts/build-fc-solve.sh` installs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Programs {
    dir: Option<PathBuf>,
}

impl Programs {
    /// The programs on `PATH`.
    pub fn on_path() -> Self {
        Self::default()
    }

    /// The programs in folder `dir`.
    pub fn in_dir(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: Some(dir.into()),
        }
    }

    /// The folder, or `None` for `PATH`.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// How to start program `name`: its path in the folder, or the bare name for `PATH`.
    pub fn program(&self, name: &str) -> PathBuf {
        match &self.dir {
            Some(d) => d.join(name),
            None => PathBuf::from(name),
        }
    }

    /// Where program `name` is: its path in the folder, or where `PATH` finds it (`None`
    /// when it does not).
    pub fn locate(&self, name: &str) -> Option<PathBuf> {
        match &self.dir {
            Some(d) => {
                let p = d.join(name);
                is_executable(&p).then_some(p)
            }
            None => Command::new("sh")
                .arg("-c")
                .arg(format!("command -v {name}"))
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim())),
        }
    }
}

/// The variable naming the folder of a native fc-solve build (see [`native_build`]).
pub const NATIVE_DIR_VAR: &str = "FCAUTO_FC_SOLVE_DIR";

/// The native fc-solve build to use when none is asked for: the folder
/// `$FCAUTO_FC_SOLVE_DIR` when set (not checked here: a folder without the programs is
/// reported by [`check_installed_in`]), else `fc-solve-native/bin` in the cargo target dir
/// this program was built in (`<folder of the running binary>/../fc-solve-native/bin`,
/// where `scripts/build-fc-solve.sh` installs it) when it holds both programs; `None` for
/// the programs on `PATH`.
pub fn native_build() -> Option<Programs> {
    if let Some(dir) = std::env::var_os(NATIVE_DIR_VAR).filter(|d| !d.is_empty()) {
        return Some(Programs::in_dir(dir));
    }
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?.parent()?.join("fc-solve-native").join("bin");
    let programs = Programs::in_dir(dir);
    check_installed_in(&programs, false)
        .is_ok()
        .then_some(programs)
}

/// Whether `p` is a file with an execute bit.
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Why fc-solve could not be run or read. The words are those of `solve --cross-check` and
/// `bench --vs-fc-solve`; other callers (the GUI) word the variants their own way.
#[derive(Debug, thiserror::Error)]
pub enum FcSolveError {
    /// The temporary file for the board could not be written.
    #[error("cannot write the board for fc-solve")]
    BoardFile(#[source] std::io::Error),
    /// `fc-solve` could not be started (not installed, most often).
    #[error(
        "cannot run fc-solve ({0}): install Debian's freecell-solver-bin (scripts/setup-deps.sh)"
    )]
    NotRun(std::io::Error),
    /// Waiting for `fc-solve` or reading its output failed.
    #[error(transparent)]
    Wait(std::io::Error),
    /// `fc-solve` exited with a failure: its status and standard error.
    #[error("fc-solve failed ({status}): {stderr}")]
    Failed {
        /// Its exit status.
        status: ExitStatus,
        /// Its standard error, trimmed.
        stderr: String,
    },
    /// A program is not on `PATH` ([`check_installed_in`]).
    #[error("{0} not found: install Debian's freecell-solver-bin (scripts/setup-deps.sh)")]
    NotFound(String),
    /// A program is not in the folder given ([`check_installed_in`]).
    #[error(
        "{program} not found in {dir}: give the folder holding fc-solve and \
         freecell-solver-range-parallel-solve (scripts/build-fc-solve.sh installs them in \
         <cargo target dir>/fc-solve-native/bin)"
    )]
    NotInDir {
        /// The program's name.
        program: String,
        /// The folder.
        dir: PathBuf,
    },
    /// The range solver could not be started or waited for.
    #[error("running freecell-solver-range-parallel-solve")]
    RangeRun(#[source] std::io::Error),
    /// The range solver's output could not be read.
    #[error("reading freecell-solver-range-parallel-solve")]
    RangeRead(#[source] std::io::Error),
    /// The range solver exited with a failure: its standard error, trimmed.
    #[error("freecell-solver-range-parallel-solve failed: {0}")]
    RangeFailed(String),
}

/// What one `fc-solve` run printed, and how it ended.
#[derive(Debug)]
pub struct FcSolveOutput {
    /// Its exit status.
    pub status: ExitStatus,
    /// Its standard output (lossy UTF-8).
    pub stdout: String,
    /// Its standard error (lossy UTF-8).
    pub stderr: String,
}

/// Run `fc-solve FLAGS FILE` on `board`, its state text in a temporary file (not down a
/// pipe: an fc-solve that exits without reading, say a version that refuses a flag, would
/// end the writer with SIGPIPE and no message). Whatever its exit status, its output.
///
/// # Errors
/// [`FcSolveError::BoardFile`], [`FcSolveError::NotRun`] (names the setup script),
/// [`FcSolveError::Wait`].
pub fn run(board: &Board, flags: &[&str]) -> Result<FcSolveOutput, FcSolveError> {
    run_with(&Programs::on_path(), board, flags)
}

/// [`run`] with the `fc-solve` of `programs`.
///
/// # Errors
/// Those of [`run`].
pub fn run_with(
    programs: &Programs,
    board: &Board,
    flags: &[&str],
) -> Result<FcSolveOutput, FcSolveError> {
    run_text_with(programs, &board.fcs_input_text(), flags)
}

/// [`run_with`] on a board given as its text (a family game's `Layout::board_text`, with
/// up to 10 cascades and a `Freecells:` line).
///
/// # Errors
/// Those of [`run`].
pub fn run_text_with(
    programs: &Programs,
    text: &str,
    flags: &[&str],
) -> Result<FcSolveOutput, FcSolveError> {
    run_text_prepared(programs, text, flags, |_, _| {})
}

/// [`run_text_with`], with `prepare` applied to the command and the board file's path before
/// it starts (the GUI replay ties fc-solve's life to its own, and has its signal handler
/// remove the file).
///
/// # Errors
/// Those of [`run`].
pub(crate) fn run_text_prepared(
    programs: &Programs,
    text: &str,
    flags: &[&str],
    prepare: impl FnOnce(&mut Command, &Path),
) -> Result<FcSolveOutput, FcSolveError> {
    // The board goes in a file, not down a pipe: an fc-solve that exits at once, without
    // reading it, would close the pipe under our write, and SIGPIPE end fcauto silently.
    let write = || -> std::io::Result<tempfile::NamedTempFile> {
        let mut f = tempfile::Builder::new()
            .prefix("fcauto-board-")
            .tempfile()?;
        f.write_all(text.as_bytes())?;
        f.flush()?;
        Ok(f)
    };
    let input = write().map_err(FcSolveError::BoardFile)?;
    let mut command = Command::new(programs.program(FC_SOLVE));
    command
        .args(flags)
        .arg(input.path())
        .env("FREECELL_SOLVER_QUIET", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    prepare(&mut command, input.path());
    let child = command.spawn().map_err(FcSolveError::NotRun)?;
    let out = child.wait_with_output().map_err(FcSolveError::Wait)?;
    Ok(FcSolveOutput {
        status: out.status,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}

/// [`run`], and its standard output when it exits with success.
///
/// # Errors
/// Those of [`run`], and [`FcSolveError::Failed`] for a failure exit.
pub fn run_ok(board: &Board, flags: &[&str]) -> Result<String, FcSolveError> {
    run_ok_with(&Programs::on_path(), board, flags)
}

/// [`run_ok`] on a board given as its text ([`run_text_with`]), with the `fc-solve` on
/// `PATH`.
///
/// # Errors
/// Those of [`run_ok`].
pub fn run_text_ok(text: &str, flags: &[&str]) -> Result<String, FcSolveError> {
    let out = run_text_with(&Programs::on_path(), text, flags)?;
    if !out.status.success() {
        return Err(FcSolveError::Failed {
            status: out.status,
            stderr: out.stderr.trim().to_string(),
        });
    }
    Ok(out.stdout)
}

/// [`run_ok`] with the `fc-solve` of `programs`.
///
/// # Errors
/// Those of [`run_ok`].
pub fn run_ok_with(
    programs: &Programs,
    board: &Board,
    flags: &[&str],
) -> Result<String, FcSolveError> {
    let out = run_with(programs, board, flags)?;
    if !out.status.success() {
        return Err(FcSolveError::Failed {
            status: out.status,
            stderr: out.stderr.trim().to_string(),
        });
    }
    Ok(out.stdout)
}

/// Run the range solver of `programs` over deals `a..=b` with preset `preset`, printing a
/// progress line after every board (step 1: with a larger step, the boards after its last
/// multiple are left out of the last `total_num_iters=`), and hand each line of its standard
/// output to `line` as it comes.
///
/// # Errors
/// [`FcSolveError::RangeRun`], [`FcSolveError::RangeRead`], and [`FcSolveError::RangeFailed`] with its
/// standard error for a failure exit.
pub fn run_range_with(
    programs: &Programs,
    a: u64,
    b: u64,
    preset: &str,
    mut line: impl FnMut(&str),
) -> Result<(), FcSolveError> {
    let mut child = Command::new(programs.program(RANGE_SOLVER))
        .args([
            a.to_string(),
            b.to_string(),
            "1".into(),
            "-l".into(),
            preset.into(),
        ])
        .env("FREECELL_SOLVER_QUIET", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(FcSolveError::RangeRun)?;
    let mut stderr = child.stderr.take().expect("piped");
    let errors = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let stdout = BufReader::new(child.stdout.take().expect("piped"));
    for l in stdout.lines() {
        line(&l.map_err(FcSolveError::RangeRead)?);
    }
    let status = child.wait().map_err(FcSolveError::RangeRun)?;
    let errors = errors.join().unwrap_or_default();
    if !status.success() {
        return Err(FcSolveError::RangeFailed(errors.trim().to_string()));
    }
    Ok(())
}

/// Check that the range solver and, unless `range_only`, `fc-solve` of `programs` are there:
/// on `PATH`, or executable files in its folder.
///
/// # Errors
/// [`FcSolveError::NotFound`] (on `PATH`) or [`FcSolveError::NotInDir`] naming the first
/// one missing.
pub fn check_installed_in(programs: &Programs, range_only: bool) -> Result<(), FcSolveError> {
    let names: &[&str] = if range_only {
        &[RANGE_SOLVER]
    } else {
        &[FC_SOLVE, RANGE_SOLVER]
    };
    for &name in names {
        if programs.locate(name).is_none() {
            return Err(match programs.dir() {
                Some(dir) => FcSolveError::NotInDir {
                    program: name.to_string(),
                    dir: dir.to_path_buf(),
                },
                None => FcSolveError::NotFound(name.to_string()),
            });
        }
    }
    Ok(())
}

/// Where fc-solve reads its presets' names: `$FREECELL_SOLVER_PRESETRC`, else the
/// `presetrc` of a Debian or a source install.
const PRESETRC: [&str; 2] = [
    "/usr/share/freecell-solver/presetrc",
    "/usr/local/share/freecell-solver/presetrc",
];

/// The preset names (`name=` lines) of fc-solve's `presetrc`, or `None` when no such file
/// can be read (fc-solve then judges a name itself).
pub fn preset_names() -> Option<Vec<String>> {
    let env = std::env::var_os("FREECELL_SOLVER_PRESETRC").map(PathBuf::from);
    let text = env
        .into_iter()
        .chain(PRESETRC.iter().map(PathBuf::from))
        .find_map(|p| std::fs::read_to_string(p).ok())?;
    let names: Vec<String> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("name="))
        .map(|n| n.trim().to_string())
        .collect();
    (!names.is_empty()).then_some(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_fc_solve_flags() {
        let flags = |name: &str, cells: Option<u8>| {
            let g = Game::find(name).unwrap();
            game_flags(g, &cells.map_or(g.rules, |n| g.rules.with_freecells(n))).join(" ")
        };
        assert_eq!(
            flags("seahaven_towers", None),
            "-g seahaven_towers --freecells-num 4"
        );
        assert_eq!(flags("eight_off", None), "-g eight_off --freecells-num 8");
        assert_eq!(
            flags("freecell_2_freecells", None),
            "-g freecell --freecells-num 2"
        );
        assert_eq!(
            flags("freecell_0_freecells", None),
            "-g freecell --freecells-num 0"
        );
        assert_eq!(
            flags("bakers_game", Some(3)),
            "-g bakers_game --freecells-num 3"
        );
        for g in fcauto_deals::GAMES {
            assert!(
                !game_flags(g, &g.rules)[1].contains("_freecells"),
                "{}",
                g.name
            );
        }
    }
}
