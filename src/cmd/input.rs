//! The command line's input and output checks: paths (`-` for standard input or output),
//! files read with a size cap, deal files, a deal number or a board file loaded into a
//! start (the board text read by [`fcauto_engine::input`]), output paths and folders that
//! may be written, and the value parsers of options that name them.

use anyhow::{Context, Result};
use fcauto_deals::ms_deal;
use fcauto_deals::text::opening_not_text;
pub use fcauto_deals::text::{looks_like_pickle, text_of};
use fcauto_engine::input::DealFile;
use std::io::Read;
use std::path::{Path, PathBuf};

/// True for the path `-`, which stands for standard input (an input) or standard output (an
/// output).
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How messages name an input or output: `<what> from standard input` for `-`, else
/// `<what> <path>`.
pub fn name(path: &Path, what: &str) -> String {
    if is_stdio(path) {
        format!("{what} from standard input")
    } else {
        format!("{what} {}", path.display())
    }
}

/// A game's start as a file or an option gives it: the MS deal number when known, and the
/// position.
pub use fcauto_engine::input::Start;

/// Read at most `max` bytes of `path` (`-`: standard input) as UTF-8 text: more than `max`
/// bytes (`/dev/zero`, a wrong file) is refused without reading it all. `what` names the
/// input in errors (`board file`, `solution`); `hint` says what size to expect.
pub fn read_text_capped(path: &Path, what: &str, max: usize, hint: &str) -> Result<String> {
    let not_text = |why| anyhow::anyhow!("{}: not UTF-8 text ({why})", name(path, what));
    let bytes = read_up_to(path, what, max)?;
    if bytes.len() > max {
        // A large file that is no text at all (a picture, a pickle) is named by its kind.
        if let Some(why) = opening_not_text(&bytes) {
            return Err(not_text(why));
        }
        return Err(too_large(path, what, max, hint));
    }
    text_of(bytes).map_err(not_text)
}

/// Read at most `max` bytes of `path` (`-`: standard input), as [`read_text_capped`] does,
/// for inputs that may be binary (a PySolFC saved game).
pub fn read_bytes_capped(path: &Path, what: &str, max: usize, hint: &str) -> Result<Vec<u8>> {
    let bytes = read_up_to(path, what, max)?;
    if bytes.len() > max {
        return Err(too_large(path, what, max, hint));
    }
    Ok(bytes)
}

/// The "too large" error of [`read_bytes_capped`] and [`read_text_capped`].
fn too_large(path: &Path, what: &str, max: usize, hint: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "{}: too large (over {} KiB; {hint})",
        name(path, what),
        max / 1024
    )
}

/// At most `max + 1` bytes of `path` (`-`: standard input): one more than `max` tells that
/// there were more.
fn read_up_to(path: &Path, what: &str, max: usize) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let read = if is_stdio(path) {
        stdin_up_to(max + 1).map(|b| bytes = b)
    } else if is_stream(path) {
        stream_up_to(path, max + 1).map(|b| bytes = b)
    } else {
        std::fs::File::open(path)
            .and_then(|f| f.take(max as u64 + 1).read_to_end(&mut bytes))
            .map(drop)
    };
    read.with_context(|| format!("cannot read {}", name(path, what)))?;
    Ok(bytes)
}

/// Standard input as read so far, and whether it has ended.
static STDIN: std::sync::Mutex<(Vec<u8>, bool)> = std::sync::Mutex::new((Vec::new(), false));

/// At most `limit` bytes of standard input. Standard input is read once: every reader of
/// `-` in a run gets the same bytes, so that a command may read a board for the game it
/// names and then read it as that game (read further only when a later reader takes more).
fn stdin_up_to(limit: usize) -> std::io::Result<Vec<u8>> {
    let mut read = STDIN.lock().unwrap_or_else(|e| e.into_inner());
    let (bytes, ended) = &mut *read;
    if !*ended {
        *ended = read_further(&mut std::io::stdin().lock(), bytes, limit)?;
    }
    Ok(bytes[..bytes.len().min(limit)].to_vec())
}

/// Read from `reader` onto the kept `bytes` until they hold `limit` (nothing when they do);
/// true when the reader ended first.
fn read_further(
    reader: &mut impl Read,
    bytes: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<bool> {
    let Some(want) = limit.checked_sub(bytes.len()).filter(|&w| w > 0) else {
        return Ok(false);
    };
    let n = reader.take(want as u64).read_to_end(bytes)?;
    Ok(n < want)
}

/// True for a path that can be read only once: a pipe or FIFO (`/dev/stdin`, the shell's
/// `<(...)`, `mkfifo`), a character device. Regular files and folders are not.
fn is_stream(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Streams ([`is_stream`]) as read so far, by path, each with its open handle until it
/// ends.
type Streams = Vec<(PathBuf, Option<std::fs::File>, Vec<u8>)>;
static STREAMS: std::sync::Mutex<Streams> = std::sync::Mutex::new(Vec::new());

/// At most `limit` bytes of the stream at `path`, read once as standard input is
/// ([`stdin_up_to`]): every reader of the path in a run gets the same bytes, so that a
/// command may read a board file for the game it names and then read it as that game (a
/// second open would find a pipe drained, or wait on a FIFO for a writer that is gone).
fn stream_up_to(path: &Path, limit: usize) -> std::io::Result<Vec<u8>> {
    let mut streams = STREAMS.lock().unwrap_or_else(|e| e.into_inner());
    let i = match streams.iter().position(|(p, _, _)| p == path) {
        Some(i) => i,
        None => {
            let file = std::fs::File::open(path)?;
            streams.push((path.to_path_buf(), Some(file), Vec::new()));
            streams.len() - 1
        }
    };
    let (_, file, bytes) = &mut streams[i];
    if let Some(f) = file.as_mut() {
        if read_further(f, bytes, limit)? {
            *file = None;
        }
    }
    Ok(bytes[..bytes.len().min(limit)].to_vec())
}

/// Load the initial board from a deal number (already checked by clap's parser,
/// [`fcauto_deals::parse_deal_number`]) or a board file, read as
/// [`fcauto_engine::input::board_start`] says (Freecell Solver's format, a one-line position
/// string, `deal --format json`'s output, a solution that names its start). Returns the deal
/// number too when there is one.
pub fn load_board(deal: Option<u64>, board: Option<&Path>) -> Result<Start> {
    match (deal, board) {
        (Some(n), None) => Ok((Some(n), ms_deal(n)?)),
        (None, Some(path)) => {
            let text = read_board_text(path)?;
            fcauto_engine::input::board_start(&text, &name(path, "board file"))
        }
        (Some(_), Some(_)) => anyhow::bail!("give either a deal number or --board FILE, not both"),
        (None, None) => anyhow::bail!("give a deal number or --board FILE"),
    }
}

/// Largest `--board` file read, bytes: a board is a few hundred bytes, but a solution that
/// names its start (fc-solve's `-p -t -sam` output, about 150 KiB for a long solution) is
/// read for it too; the board parser refuses board text over
/// [`fcauto_deals::board::MAX_BOARD_TEXT`] itself.
pub const MAX_BOARD_FILE: usize = 16 << 20;

/// The text of a board file (`-`: standard input), read no further than one byte past
/// [`MAX_BOARD_FILE`] (so `/dev/zero` or a huge file is refused, not read into memory).
/// Errors: unreadable, too large, or not UTF-8.
pub fn read_board_text(path: &Path) -> Result<String> {
    read_text_capped(
        path,
        "board file",
        MAX_BOARD_FILE,
        "a board is a few hundred bytes, a solution naming its start a few hundred kilobytes",
    )
}

/// The output format of a command with `--format` and `-o FILE`: the one given; else the one
/// `FILE`'s extension names (by `by_extension`, lower case: `x.png` is PNG); else `default`.
/// A format given that differs from the one the name says is written as given, with a note
/// naming both (`-o board.svg --format png`). A name whose extension is a format this command
/// does not write (`deal -o a.html`) gets the default, with a note saying so. A hidden name
/// (`.png`) counts as its extension.
pub fn output_format<F: Copy + PartialEq + clap::ValueEnum>(
    given: Option<F>,
    output: Option<&Path>,
    by_extension: fn(&str) -> Option<F>,
    default: F,
) -> F {
    let path = output.filter(|p| !is_stdio(p));
    let extension = path.and_then(extension_of);
    let named = extension.as_deref().and_then(by_extension);
    let word = |f: F| {
        f.to_possible_value()
            .map_or(String::new(), |v| v.get_name().to_string())
    };
    if let (None, None, Some(e), Some(p)) = (given, named, extension.as_deref(), path) {
        if FORMAT_EXTENSIONS.contains(&e) {
            crate::note!(
                "fcauto: note: writing {} into {}: this command writes no {e} (--format names \
                 those it writes)",
                word(default),
                p.display()
            );
        }
    }
    if let (Some(g), Some(n), Some(p)) = (given, named, path) {
        if g != n {
            crate::note!(
                "fcauto: note: writing {} into {}, whose name says {} (as --format asks)",
                word(g),
                p.display(),
                word(n)
            );
        }
    }
    given.or(named).unwrap_or(default)
}

/// Extensions that name a file format a user may expect `-o` to write: those some fcauto
/// command writes, and common picture and document formats none writes (`x.jpg` would
/// otherwise get text without a word).
const FORMAT_EXTENSIONS: [&str; 25] = [
    "json", "svg", "png", "html", "htm", "fcs", "txt", "board", "jpg", "jpeg", "gif", "webp",
    "bmp", "tif", "tiff", "pdf", "eps", "ps", "svgz", "avif", "heic", "ico", "xml", "gz", "zip",
];

/// The extension of `path`'s file name, lower case, trailing dots left out; a hidden name
/// with no other dot (`.png`) counts as its extension.
fn extension_of(path: &Path) -> Option<String> {
    // Trailing dots are no part of it (`x.png.` is named as a PNG).
    let name = path.file_name()?.to_string_lossy();
    let name = Path::new(name.trim_end_matches('.'));
    let e = match name.extension() {
        Some(e) => e.to_string_lossy(),
        None => name.to_str()?.strip_prefix('.')?.into(),
    };
    Some(e.to_ascii_lowercase())
}

/// Write `bytes` to `path` by a temporary file in its folder renamed over it: a link of that
/// name is replaced, never written through, and no reader sees a half-written file.
///
/// # Errors
/// The temporary file cannot be made or written, or the rename fails (the path named).
pub fn write_replacing(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let write = || -> std::io::Result<()> {
        // Made as any new file is (0o666 less the umask), not a temporary file's 0o600.
        let mut tmp = tempfile::Builder::new()
            .prefix(".fcauto-write-")
            .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
            .tempfile_in(dir)?;
        tmp.write_all(bytes)?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    };
    write().with_context(|| format!("cannot write {}", path.display()))
}

/// Fail early (before any long work) when `path`'s folder does not exist or is a file, or
/// `path` cannot be written (`-`, standard output, is always fine).
pub fn check_output_path(path: &Path) -> Result<()> {
    if is_stdio(path) {
        return Ok(());
    }
    check_parent(path)?;
    // `newdir/` names a folder even when none exists: writing it would fail only after the
    // work.
    // (So does `newdir/.` or `newdir/..`: refused before the work, not after it.)
    let text = path.as_os_str().to_string_lossy();
    let names_folder =
        text.ends_with(std::path::MAIN_SEPARATOR) || text.ends_with("/.") || text.ends_with("/..");
    anyhow::ensure!(
        !path.is_dir(),
        "cannot write {}: it is a folder (give a file name)",
        path.display()
    );
    if names_folder {
        // `file/` with `file` a file names no folder either.
        let bare = Path::new(text.trim_end_matches(['/', '.']));
        match std::fs::metadata(bare) {
            Ok(m) if !m.is_dir() => anyhow::bail!(
                "cannot write {}: {} is a file, and a name ending in / names a folder \
                 (give the file name without the /)",
                path.display(),
                bare.display()
            ),
            _ => anyhow::bail!(
                "cannot write {}: a name ending in / names a folder (give a file name)",
                path.display()
            ),
        }
    }
    probe_writable(path)
}

/// An output file `path` (of option `option`) may be written: it does not exist, or is no
/// regular file (a device, a FIFO: written into), or is standard output (`-`), or
/// `ours(path)` says it is a file of the kind this option writes that fcauto wrote (so a
/// later run replaces its own), or `force` (`--force`). Never lost: a file of yours.
///
/// # Errors
/// An existing file of another kind, named with what it is not (`kind`) and what to do.
pub fn check_replace(
    path: &Path,
    force: bool,
    ours: impl Fn(&Path) -> bool,
    kind: &str,
    option: &str,
) -> Result<()> {
    // Through a link: the file it leads to (a link leading nowhere counts as a file).
    let exists = std::fs::symlink_metadata(path).is_ok_and(|m| !m.file_type().is_dir())
        && std::fs::metadata(path).map_or(true, |m| m.is_file());
    if force || is_stdio(path) || !exists || ours(path) {
        return Ok(());
    }
    if std::fs::metadata(path).is_err() {
        anyhow::bail!(
            "{} is a symbolic link to a file that does not exist (writing would make that \
             file): give another {option} name, or add --force to write it",
            path.display()
        );
    }
    anyhow::bail!(
        "{} exists and is not {kind}: give another {option} name, or add --force to replace it",
        path.display()
    )
}

/// Fail now when `path` cannot be written (a read-only file or folder, `/proc/x`): an
/// existing file is opened to append (nothing changes); for a new one, a file of a name no
/// one else uses is made in its folder and removed ([`probe_folder`]). Nothing is ever made at
/// `path` itself: a
/// file made and removed there could be taken by another program (or a second fcauto, as two
/// `batch run`s on one new database are) in between, and be lost.
/// Devices and FIFOs are left to the writing (opening a FIFO waits for its reader).
fn probe_writable(path: &Path) -> Result<()> {
    let cannot = || format!("cannot write {}", path.display());
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => {
            std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .with_context(cannot)?;
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            probe_folder_of(path).map_err(|e| {
                anyhow::anyhow!(
                    "cannot write {}: its folder takes no new file ({e})",
                    path.display()
                )
            })?;
        }
        Err(e) => return Err(e).with_context(cannot),
    }
    Ok(())
}

/// Whether a file can be made in the folder of `path` (its parent, `.` for a bare name), by
/// [`probe_folder`]; `path` itself is not touched.
///
/// # Errors
/// The OS error of making that file (a read-only folder, `/proc`, a missing folder).
pub fn probe_folder_of(path: &Path) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    probe_folder(dir)
}

/// Whether a file can be made in the folder `dir`: one of a name no one else uses
/// (`.fcauto-probe-PID-N`) is made there and removed.
///
/// # Errors
/// The OS error of making it, which names no path (the caller names the user's).
pub fn probe_folder(dir: &Path) -> std::io::Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let probe = dir.join(format!(".fcauto-probe-{}-{n}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Fail early (before any long work) when the output folder `dir` cannot be made or written
/// into: it is a file, it or the folder it goes in takes no new file (read-only, `/proc`),
/// or the folder it goes in does not exist (`dir` itself may be new:
/// [`create_output_folder`] makes it, but not its parents, as a file output's folder must
/// exist too).
pub fn check_output_folder(dir: &Path) -> Result<()> {
    let cannot = |e: std::io::Error| {
        anyhow::anyhow!(
            "cannot write into {}: it takes no new file ({e})",
            dir.display()
        )
    };
    if dir.is_dir() {
        return probe_folder(dir).map_err(cannot);
    }
    anyhow::ensure!(
        !dir.exists(),
        "cannot write into {}: it is a file, not a folder",
        dir.display()
    );
    check_parent(dir)?;
    // The folder it will be made in must take it.
    probe_folder_of(dir).map_err(|e| {
        anyhow::anyhow!(
            "cannot make the folder {}: the folder it goes in takes no new file ({e})",
            dir.display()
        )
    })
}

/// Make the output folder `dir` if it is not there (its parent must be: see
/// [`check_output_folder`]).
pub fn create_output_folder(dir: &Path) -> Result<()> {
    match std::fs::create_dir(dir) {
        Err(e) if !(e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir()) => {
            Err(e).with_context(|| format!("cannot create the folder {}", dir.display()))
        }
        _ => Ok(()),
    }
}

/// The folder `path` goes in must exist: else the error names the missing folder, or the
/// file where a folder should be.
fn check_parent(path: &Path) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !dir.is_dir() {
        // The nearest part of the folder's path that exists: a file there is the problem.
        match dir.ancestors().find(|a| a.exists()) {
            Some(a) if !a.as_os_str().is_empty() && !a.is_dir() => anyhow::bail!(
                "cannot write {}: {} is a file, not a folder",
                path.display(),
                a.display()
            ),
            _ => anyhow::bail!(
                "cannot write {}: folder {} does not exist",
                path.display(),
                dir.display()
            ),
        }
    }
    Ok(())
}

/// Refuse to write the output over the input file (the same file by any path: symbolic or
/// hard link, as the `same-file` crate compares device and inode): the user's board would be
/// lost. `what` names the input and what is done with it (`board file being solved`, `game
/// file being analysed`). An output that does not exist yet is never the input.
pub fn check_not_input(output: &Path, input: &Path, what: &str) -> Result<()> {
    if is_stdio(output) || is_stdio(input) {
        return Ok(());
    }
    let same = same_file::is_same_file(output, input).unwrap_or(false);
    anyhow::ensure!(
        !same,
        "cannot write {}: it is the {what} (choose another output path)",
        output.display()
    );
    Ok(())
}

/// True when paths `a` and `b` name the same place, whether or not it exists yet: each
/// resolved through the file system as far as it exists (links followed, `..` and `.`
/// taken out), the rest compared as written; or, where both exist, one file or folder by
/// device and inode. Standard streams (`-`) are never one place.
pub fn same_place(a: &Path, b: &Path) -> bool {
    if is_stdio(a) || is_stdio(b) {
        return false;
    }
    // Device and inode for places that exist (a bind mount reaches one folder by two paths).
    resolved(a) == resolved(b) || same_file::is_same_file(a, b).unwrap_or(false)
}

/// `p` with its longest existing ancestor canonicalized, the rest appended as written.
fn resolved(p: &Path) -> PathBuf {
    let p = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(p)
    };
    let mut tail = Vec::new();
    let mut head = p.as_path();
    loop {
        if let Ok(c) = std::fs::canonicalize(head) {
            return tail
                .iter()
                .rev()
                .fold(c, |acc: PathBuf, part| acc.join(part));
        }
        match (head.parent(), head.file_name()) {
            (Some(parent), Some(name)) => {
                tail.push(name.to_os_string());
                head = parent;
            }
            _ => return p,
        }
    }
}

/// `--max-states N`: a whole number of positions, at least 1 (a search stores its start).
///
/// # Errors
/// Not a number, or 0.
pub fn parse_max_states(s: &str) -> std::result::Result<usize, String> {
    match whole_number(s, "number of positions", 1)? {
        0 => Err("0 positions: a search stores at least its start (give 1 or more)".into()),
        n => Ok(n),
    }
}

/// A whole number for an option whose values are `what` (`"move number"`) and start at
/// `least` (a smaller one is left to the caller to name): clap's own message for these
/// ("invalid digit found in string") does not say what to give.
///
/// # Errors
/// Not a whole number (a negative included), or too large to hold.
pub fn whole_number(s: &str, what: &str, least: usize) -> std::result::Result<usize, String> {
    use std::num::IntErrorKind;
    s.trim().parse::<usize>().map_err(|e| match e.kind() {
        IntErrorKind::PosOverflow => {
            format!("`{s}` is too large for a {what} (at most {})", usize::MAX)
        }
        _ => format!("`{s}` is not a {what} (a whole number, {least} or more)"),
    })
}

/// `solve --step K`: a move number, 0 (the start) or more.
///
/// # Errors
/// As [`whole_number`].
pub fn parse_step(s: &str) -> std::result::Result<usize, String> {
    whole_number(s, "move number", 0)
}

/// An output folder option (`analyze --pictures`/`--report`, `batch report --plot`): clap's
/// value parser, so `-` is a usage error (exit 2) instead of a folder named `-`: a folder of
/// files cannot go to standard output.
///
/// # Errors
/// `-`, or an empty name.
pub fn parse_output_folder(s: &str) -> std::result::Result<std::path::PathBuf, String> {
    if s.is_empty() {
        return Err("an empty name is no folder: give a folder name".into());
    }
    if is_stdio(Path::new(s)) {
        return Err(
            "this writes a folder of files, which cannot go to standard output: give a folder name, not `-`"
                .into(),
        );
    }
    Ok(s.into())
}

/// A batch database path (`batch run --db`, `batch merge`'s files, `batch report`'s): clap's
/// value parser, so `-` is a usage error (exit 2) instead of a database file named `-`:
/// SQLite needs a file, not standard input or output.
///
/// # Errors
/// `-`, or an empty name.
#[cfg_attr(not(feature = "batch"), allow(dead_code))]
pub fn parse_database_path(s: &str) -> std::result::Result<std::path::PathBuf, String> {
    if s.is_empty() {
        return Err("an empty name is no file: give a file name".into());
    }
    if is_stdio(Path::new(s)) {
        return Err(
            "a database is a file, not standard input or output: give a file name, not `-`".into(),
        );
    }
    Ok(s.into())
}

/// The first `n` bytes (at most) of the file `path` as text (invalid UTF-8 replaced), to
/// tell a file's kind by how it opens; empty when it cannot be read.
pub fn file_opening(path: &Path, n: usize) -> String {
    use std::io::Read;
    let mut head = Vec::with_capacity(n);
    let _ = std::fs::File::open(path).and_then(|f| f.take(n as u64).read_to_end(&mut head));
    String::from_utf8_lossy(&head).into_owned()
}

/// Read a deal file (`-`: standard input), at most 64 KiB; see
/// [`fcauto_engine::input::parse_deal_file`] for what it may hold. Errors name the file and,
/// for its content, the line.
pub fn read_deal_file(path: &Path) -> Result<DealFile> {
    use fcauto_engine::input::parse_deal_file;
    let text = read_text_capped(
        path,
        "deal file",
        64 * 1024,
        "a deal file is one line, MS_DEAL_NUMBER=<deal number>",
    )?;
    parse_deal_file(&text).map_err(|e| anyhow::anyhow!("{}: {e}", name(path, "deal file")))
}

/// Each of `names` in `dir` is absent, or a file `ours` recognises as one fcauto wrote that
/// is none of `inputs`: so that writing them there replaces no file of the user's. For the
/// files a command writes under fixed names into a folder it is given (`analyze`'s
/// pictures, `batch report --plot`'s charts).
///
/// # Errors
/// The first that is not, named, with what to do.
pub fn check_replaceable(
    dir: &Path,
    names: impl IntoIterator<Item = String>,
    inputs: &[&Path],
    ours: impl Fn(&Path) -> bool,
) -> Result<()> {
    let inputs: Vec<PathBuf> = inputs
        .iter()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect();
    for name in names {
        let path = dir.join(&name);
        if !path.exists() {
            continue;
        }
        let is_input = std::fs::canonicalize(&path).is_ok_and(|p| inputs.contains(&p));
        // Not through a link: writing would replace the file it points to.
        let link = path
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink());
        anyhow::ensure!(
            !is_input && !link && path.is_file() && ours(&path),
            "cannot write into {}: it holds {name}, which {}",
            dir.display(),
            if is_input {
                "is an input; give another folder"
            } else if link {
                "is a link (the file it points to would be replaced); give another folder"
            } else if path.is_dir() {
                "is a folder; give another folder"
            } else {
                "fcauto did not draw (it would be replaced); give another folder, or remove it if \
                 an fcauto from before 2026-12-02 drew it (those carry no mark of fcauto's)"
            }
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Probing a new output path never makes a file there, even for an instant: another
    /// program opening the path meanwhile (a second `batch run` on one new database) would get
    /// a file that is then removed under it. Before, the probe made and removed it.
    #[test]
    fn probing_a_new_path_never_makes_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.sqlite");
        let stop = std::sync::atomic::AtomicBool::new(false);
        let seen = std::thread::scope(|s| {
            let watcher = s.spawn(|| {
                let mut seen = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    seen += usize::from(path.symlink_metadata().is_ok());
                }
                seen
            });
            for _ in 0..5000 {
                probe_writable(&path).unwrap();
            }
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            watcher.join().unwrap()
        });
        assert_eq!(seen, 0, "the probe made {} for a while", path.display());
        assert!(!path.exists());
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "a probe file was left"
        );
        // A folder that cannot be written is still named before the work.
        let err = probe_writable(Path::new("/proc/fcauto-probe")).unwrap_err();
        assert!(
            format!("{err:#}").contains("cannot write /proc/fcauto-probe"),
            "{err:#}"
        );
    }
}
