//! Shared input handling: a deal number or a board file, read into a checked [`Board`].

use anyhow::{Context, Result};
use fcauto_deals::{ms_deal, Board};
use std::io::Read;
use std::path::Path;

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

/// Read at most `max` bytes of `path` (`-`: standard input) as UTF-8 text: more than `max`
/// bytes (`/dev/zero`, a wrong file) is refused without reading it all. `what` names the
/// input in errors (`board file`, `solution`); `hint` says what size to expect.
pub fn read_text_capped(path: &Path, what: &str, max: usize, hint: &str) -> Result<String> {
    let mut bytes = Vec::new();
    let read = if is_stdio(path) {
        std::io::stdin()
            .lock()
            .take(max as u64 + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(max as u64 + 1).read_to_end(&mut bytes))
    };
    read.with_context(|| format!("cannot read {}", name(path, what)))?;
    anyhow::ensure!(
        bytes.len() <= max,
        "{}: too large (over {} KiB; {hint})",
        name(path, what),
        max / 1024
    );
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{}: not UTF-8 text", name(path, what)))
}

/// Load the initial board from a deal number (already checked by clap's parser,
/// [`fcauto_deals::parse_deal_number`]) or a board file in Freecell Solver's format. Returns
/// the deal number too when there is one.
pub fn load_board(deal: Option<u64>, board: Option<&Path>) -> Result<(Option<u64>, Board)> {
    match (deal, board) {
        (Some(n), None) => Ok((Some(n), ms_deal(n)?)),
        (None, Some(path)) => {
            let text = read_board_text(path)?;
            anyhow::ensure!(
                !text.trim_start_matches('\u{feff}').trim_start().starts_with('{'),
                "{}: this is JSON; --board reads Freecell Solver's board text (as `fcauto deal N --format fcs` prints it)",
                name(path, "board file")
            );
            let b = Board::parse(&text).with_context(|| name(path, "board file"))?;
            Ok((None, b))
        }
        (Some(_), Some(_)) => anyhow::bail!("give either a deal number or --board FILE, not both"),
        (None, None) => anyhow::bail!("give a deal number or --board FILE"),
    }
}

/// The text of a board file (`-`: standard input), read no further than one byte past
/// [`fcauto_deals::board::MAX_BOARD_TEXT`] (so `/dev/zero` or a huge file is refused, not
/// read into memory). Errors: unreadable, too large, or not UTF-8.
fn read_board_text(path: &Path) -> Result<String> {
    read_text_capped(
        path,
        "board file",
        fcauto_deals::board::MAX_BOARD_TEXT,
        "a board is a few hundred bytes",
    )
}

/// Fail early (before any long work) when `path`'s folder does not exist (`-`, standard
/// output, is always fine).
pub fn check_output_path(path: &Path) -> Result<()> {
    if is_stdio(path) {
        return Ok(());
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    anyhow::ensure!(
        dir.is_dir(),
        "cannot write {}: folder {} does not exist",
        path.display(),
        dir.display()
    );
    anyhow::ensure!(
        !path.is_dir(),
        "cannot write {}: it is a folder",
        path.display()
    );
    Ok(())
}

/// Refuse to write the output over the input file (the same file by any path): the user's
/// board would be lost.
pub fn check_not_input(output: &Path, input: &Path) -> Result<()> {
    if is_stdio(output) || is_stdio(input) {
        return Ok(());
    }
    let same = match (std::fs::canonicalize(output), std::fs::canonicalize(input)) {
        (Ok(o), Ok(i)) => o == i,
        _ => false,
    };
    anyhow::ensure!(
        !same,
        "cannot write {}: it is the board file being solved (choose another --output)",
        output.display()
    );
    Ok(())
}
