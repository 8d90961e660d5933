//! Shared input handling: a deal number or a board file, read into a checked [`Board`].

use anyhow::{Context, Result};
use fcauto_deals::{ms_deal, Board};
use std::path::Path;

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
                "board file {}: this is JSON; --board reads Freecell Solver's board text (as `fcauto deal N --format fcs` prints it)",
                path.display()
            );
            let b =
                Board::parse(&text).with_context(|| format!("board file {}", path.display()))?;
            Ok((None, b))
        }
        (Some(_), Some(_)) => anyhow::bail!("give either a deal number or --board FILE, not both"),
        (None, None) => anyhow::bail!("give a deal number or --board FILE"),
    }
}

/// The text of a board file, read no further than one byte past
/// [`fcauto_deals::board::MAX_BOARD_TEXT`] (so `/dev/zero` or a huge file is refused, not
/// read into memory). Errors: unreadable, too large, or not UTF-8.
fn read_board_text(path: &Path) -> Result<String> {
    use std::io::Read;
    let max = fcauto_deals::board::MAX_BOARD_TEXT;
    let cannot = || format!("cannot read board file {}", path.display());
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(max as u64 + 1).read_to_end(&mut bytes))
        .with_context(cannot)?;
    anyhow::ensure!(
        bytes.len() <= max,
        "board file {}: too large (over {} KiB; a board is a few hundred bytes)",
        path.display(),
        max / 1024
    );
    String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("board file {}: not UTF-8 text", path.display()))
}

/// Fail early (before any long work) when `path`'s folder does not exist.
pub fn check_output_path(path: &Path) -> Result<()> {
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
