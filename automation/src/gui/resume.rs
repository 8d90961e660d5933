//! `fcauto play --gui --resume`: finishing a held game of FreeCell or of another game of its
//! family fcauto plays (PySolFC's *Hold and quit*, Ctrl+X, writes `holdgame.dat` and sets
//! `[general] game_holded` to the game's id in options.cfg; the next start resumes that game
//! and ignores `--game`/`--deal`, `Application._load_held_or_saved_game` in `pysollib/app.py`).
//!
//! The held game is read first ([`read_held`]: the game from the file's id, deal, moves,
//! position; a damaged file or a game fcauto does not play is refused before anything
//! starts), copied into the run's private profile (the user's own files are only read) whose
//! options say `game_holded = ID`, and the session's stages confirm on screen that PySolFC
//! shows that position card for card, solve from it, replay and prove the win as `play`
//! does.

use std::path::{Path, PathBuf};

use fcauto_deals::{Board, Game, Layout, PysolNumber};
use serde::Serialize;

use super::recognize::{card_of, SeenBoard};
use super::GuiError;
use crate::pysol::options::OptionsFile;
use crate::pysol::profile::find_profile_dir;
use crate::pysol::savedgame::{self, GameHistory, SavedGameError};

/// PySolFC's held-game file name in its profile folder (`app.fn.holdgame`).
pub const HOLDGAME: &str = "holdgame.dat";

/// The held game a run resumes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Held {
    /// The holdgame.dat to resume.
    pub file: PathBuf,
    /// Where it was found, for the evidence (`--held FILE`, or the profile it sits in).
    pub origin: String,
}

/// The held game of the PySolFC profile under `home` (`.pysolfc`, or PySolFC 2's
/// `.PySolFC`): its holdgame.dat, when options.cfg says a game is held and that game is
/// one fcauto plays (FreeCell or another game of its family). Errors name what is missing
/// or which game is held instead.
pub fn held_in_home(home: &Path) -> Result<Held, GuiError> {
    let dir = find_profile_dir(home).ok_or_else(|| {
        GuiError::Launch(format!(
            "no PySolFC profile under {} (~/.pysolfc); name a held game with --held FILE",
            home.display()
        ))
    })?;
    held_in_dir(&dir)
}

/// The held game of the profile folder `dir` (see [`held_in_home`]).
pub fn held_in_dir(dir: &Path) -> Result<Held, GuiError> {
    let file = dir.join(HOLDGAME);
    let options = dir.join("options.cfg");
    let held_id = OptionsFile::load(&options)
        .ok()
        .and_then(|o| o.get_i64("general", "game_holded"))
        .unwrap_or(0);
    if !file.is_file() || held_id <= 0 {
        return Err(GuiError::Launch(format!(
            "no held game in {} ({}; hold one in PySolFC with Ctrl+X, or name a file with --held FILE)",
            dir.display(),
            if file.is_file() {
                "options.cfg has game_holded = 0, so PySolFC would not resume it".to_string()
            } else {
                format!("no {HOLDGAME}")
            }
        )));
    }
    if u32::try_from(held_id)
        .ok()
        .and_then(Game::by_pysol_id)
        .is_none()
    {
        return Err(GuiError::Launch(format!(
            "the game held in {} is PySolFC game id {held_id}, not FreeCell (8) or another game of its family that fcauto plays ({})",
            dir.display(),
            savedgame::known_games()
        )));
    }
    Ok(Held {
        origin: format!("held game of the PySolFC profile {}", dir.display()),
        file,
    })
}

/// A held game named on the command line (`--held FILE`): it must be a readable file.
pub fn held_file(path: &Path) -> Result<Held, GuiError> {
    let meta = std::fs::metadata(path)
        .map_err(|e| GuiError::Launch(format!("held game {}: {e}", path.display())))?;
    if !meta.is_file() {
        return Err(GuiError::Launch(format!(
            "held game {}: not a file",
            path.display()
        )));
    }
    let file = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    Ok(Held {
        origin: format!("--held {}", file.display()),
        file,
    })
}

/// Refuse to put `file` in the profile `dir` when the profile holds a held game of its own
/// (`game_holded` set in its options.cfg, `target` its holdgame.dat, with other bytes):
/// copying would lose it.
fn refuse_replacing_a_held_game(dir: &Path, target: &Path, file: &Path) -> Result<(), GuiError> {
    let Ok(theirs) = std::fs::read(target) else {
        return Ok(());
    };
    let held_there = OptionsFile::load(&dir.join("options.cfg"))
        .ok()
        .and_then(|o| o.get_i64("general", "game_holded"))
        .is_some_and(|id| id != 0);
    if !held_there || std::fs::read(file).is_ok_and(|ours| ours == theirs) {
        return Ok(());
    }
    Err(GuiError::Launch(format!(
        "the profile {} holds a held game of its own ({}): --held {} would replace it; resume \
         that one (--resume without --held), or give another --profile",
        dir.display(),
        target.display(),
        file.display()
    )))
}

/// Put `held` into the PySolFC profile folder `dir` (a copy, unless it already is that
/// folder's holdgame.dat) and set `[general] game_holded` and `last_gameid` to its game's id
/// (read from the file; FreeCell's when it cannot be read), so the next start resumes it.
/// The source file is only read.
pub fn install(dir: &Path, held: &Held) -> Result<(), GuiError> {
    let game_id = savedgame::read_any(&held.file)
        .map(|s| s.game_id)
        .unwrap_or(savedgame::FREECELL_ID);
    let target = dir.join(HOLDGAME);
    let same = match (
        std::fs::canonicalize(&target),
        std::fs::canonicalize(&held.file),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !same {
        refuse_replacing_a_held_game(dir, &target, &held.file)?;
        std::fs::copy(&held.file, &target).map_err(|e| {
            GuiError::Launch(format!(
                "copy {} to {}: {e}",
                held.file.display(),
                target.display()
            ))
        })?;
    }
    let path = dir.join("options.cfg");
    let mut opts =
        OptionsFile::load(&path).map_err(|e| GuiError::Launch(format!("options: {e}")))?;
    let id = game_id.to_string();
    opts.set("general", "game_holded", &id);
    opts.set("general", "last_gameid", &id);
    std::fs::write(&path, opts.to_text())
        .map_err(|e| GuiError::Launch(format!("write {}: {e}", path.display())))
}

/// What the held game's file says, read with fcauto's saved-game reader
/// ([`savedgame::read_any`] and [`savedgame::SavedGame::game_history`]: the guarded pickle
/// decoder, no PySolFC code runs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldRead {
    /// The game (from the file's id).
    pub game: &'static Game,
    /// FreeCell's Microsoft deal (`None` for PySolFC's own random deals and other games).
    pub deal: Option<u64>,
    /// Another game's number as PySolFC numbers it (`msN` or a plain number).
    pub number: Option<PysolNumber>,
    /// The moves played before it was held, in standard notation (`None` for a FreeCell deal
    /// without a Microsoft number, whose start is not checked).
    pub moves: Option<Vec<String>>,
    /// The held position (FreeCell's with its four freecells).
    pub position: Layout,
    /// Bytes after the file's pickle, ignored as PySolFC ignores them
    /// ([`savedgame::SavedGame::trailing_bytes`]); the run says so.
    pub trailing_bytes: usize,
}

impl HeldRead {
    /// The held position as FreeCell's board (standard FreeCell only).
    pub fn board(&self) -> Option<Board> {
        self.game
            .rules
            .is_standard()
            .then(|| self.position.to_board())
            .flatten()
    }

    /// True for a game other than standard FreeCell (played with the family's table,
    /// solver and rules).
    pub fn is_family(&self) -> bool {
        !self.game.rules.is_standard()
    }
}

/// Read the held game `file`: a game of the FreeCell family held with Ctrl+X (PySolFC
/// resumes only those), its game, deal, moves and position. Errors (one line, naming the
/// file): unreadable, damaged, another PySolFC version, a game fcauto does not play, a saved
/// game rather than a held one, a history that does not lead to the stored position, a
/// game of the family with PySolFC's `Custom` deal, or a game already won.
pub fn read_held(file: &Path) -> Result<HeldRead, GuiError> {
    let err = |e: SavedGameError| GuiError::Launch(format!("held game {e}"));
    let saved = savedgame::read_any(file).map_err(err)?;
    if saved.game().is_none() {
        return Err(err(SavedGameError::UnknownGame {
            path: file.to_path_buf(),
            game_id: saved.game_id,
            known: savedgame::known_games(),
        }));
    }
    if saved.held == Some(false) {
        return Err(GuiError::Launch(format!(
            "held game {}: a saved game (File > Save), not a held one: PySolFC resumes only games held with Ctrl+X (Hold and quit)",
            file.display()
        )));
    }
    let trailing_bytes = saved.trailing_bytes;
    let read = if saved.game_id == savedgame::FREECELL_ID {
        let position = |h: Option<Board>| -> Result<Layout, GuiError> {
            let b = match h {
                Some(b) => b,
                None => saved.board(file).map_err(err)?,
            };
            Ok(Layout::from_board(&b, 4))
        };
        match saved.freecell_moves_of(file) {
            Ok(h) => HeldRead {
                game: Game::freecell(),
                deal: h.deal,
                number: None,
                moves: Some(h.moves),
                position: position(Some(h.position))?,
                trailing_bytes,
            },
            // A FreeCell deal without a Microsoft number: its position alone.
            Err(SavedGameError::NotMsDeal { .. }) => HeldRead {
                game: Game::freecell(),
                deal: None,
                number: None,
                moves: None,
                position: position(None)?,
                trailing_bytes,
            },
            Err(e) => return Err(err(e)),
        }
    } else {
        let GameHistory::Family(h) = saved.game_history(file).map_err(err)? else {
            unreachable!("game id 8 is read above");
        };
        let number = h.number.ok_or_else(|| {
            GuiError::Launch(format!(
                "held game {}: {} of PySolFC's Custom deal has no game number to start it with",
                file.display(),
                h.game.pysol_name
            ))
        })?;
        HeldRead {
            game: h.game,
            deal: None,
            number: Some(number),
            moves: Some(h.moves),
            position: h.position,
            trailing_bytes,
        }
    };
    if read.position.is_won() {
        return Err(GuiError::Launch(format!(
            "held game {}: already won",
            file.display()
        )));
    }
    Ok(read)
}

/// One place where the held position and the screen disagree.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PlaceMismatch {
    /// `cascade 3 card 5`, `freecell b`, `foundation H`.
    pub place: String,
    /// The held game's card there (`-` = none).
    pub held: String,
    /// The card read from the screen (`-` = none).
    pub seen: String,
}

/// `board_match.json` of a resumed game: the whole position (cascades, free cells and
/// foundations), 52 cards.
#[derive(Clone, Debug, Serialize)]
pub struct PositionMatch {
    /// Cards compared (52).
    pub total: usize,
    /// Cards in the same place on screen and in the held game.
    pub matched: usize,
    /// Places that differ.
    pub mismatched: Vec<PlaceMismatch>,
}

/// Compare FreeCell's held board with the screen ([`layout_position_match`]).
pub fn position_match(held: &Board, seen: &SeenBoard) -> PositionMatch {
    layout_position_match(&Layout::from_board(held, 4), seen)
}

/// Compare the held position of any game with the screen, card by card: cascades position
/// by position (up to 10), the free cells slot by slot (up to 8), the foundations by their
/// top card (a foundation of rank r counts r cards).
pub fn layout_position_match(held: &Layout, seen: &SeenBoard) -> PositionMatch {
    let show = |c: Option<String>| c.unwrap_or_else(|| "-".into());
    let mut matched = 0;
    let mut mismatched = Vec::new();
    let mut check = |place: String, want: Option<String>, have: Option<String>, n: usize| {
        if want == have {
            // an empty place that is empty on screen too holds no card to count
            matched += if want.is_some() { n } else { 0 };
        } else {
            mismatched.push(PlaceMismatch {
                place,
                held: show(want),
                seen: show(have),
            });
        }
    };
    for (r, col) in held.cascades.iter().enumerate() {
        let got = seen.cascades.get(r).map(Vec::as_slice).unwrap_or(&[]);
        for k in 0..col.len().max(got.len()) {
            check(
                format!("cascade {} card {}", r + 1, k + 1),
                col.get(k).map(ToString::to_string),
                got.get(k).map(|p| p.0.to_string()),
                1,
            );
        }
    }
    for (j, cell) in held.freecells.iter().enumerate() {
        check(
            // `h` is the foundation: the eighth freecell is `i`.
            format!("freecell {}", b"abcdefgi"[j.min(7)] as char),
            cell.map(|c| c.to_string()),
            seen.freecells
                .get(j)
                .copied()
                .flatten()
                .map(|p| p.0.to_string()),
            1,
        );
    }
    for s in 0..4 {
        let (want, have) = (held.foundations[s], seen.foundations[s]);
        check(
            format!("foundation {}", ["C", "D", "H", "S"][s]),
            card_of(s, want).map(|c| c.to_string()),
            card_of(s, have).map(|c| c.to_string()),
            want as usize,
        );
    }
    PositionMatch {
        total: 52,
        matched,
        mismatched,
    }
}

/// The MS deal number in a status-bar reading (`#ms617`), if any.
pub fn deal_in_status(text: &str) -> Option<u64> {
    text.split_whitespace()
        .filter_map(|w| w.trim_start_matches('#').strip_prefix("ms"))
        .find_map(|n| super::launch::ms_deal_of_game_number(&format!("ms{n}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fcauto_deals::ms_deal;

    fn seen_of(b: &Board) -> SeenBoard {
        SeenBoard {
            cascades: b
                .cascades
                .iter()
                .map(|c| c.iter().map(|&x| (x, 1.0)).collect())
                .collect(),
            freecells: b.freecells.iter().map(|f| f.map(|x| (x, 1.0))).collect(),
            foundations: b.foundations,
            unreadable: Vec::new(),
        }
    }

    #[test]
    fn a_position_matches_itself_and_names_what_differs() {
        let mut b = ms_deal(617).unwrap();
        // deal 617: JH on cascade 7, QH on cascade 8 (tops)
        let qh = b.cascades[7].pop().unwrap();
        b.freecells[1] = Some(qh);
        let m = position_match(&b, &seen_of(&b));
        assert_eq!((m.total, m.matched), (52, 52));
        // with cards home: a foundation counts its cards
        let mut home = b.clone();
        let ah = home.cascades[7].remove(0);
        assert_eq!(ah.to_string(), "AH");
        home.foundations[2] = 1;
        let m = position_match(&home, &seen_of(&home));
        assert_eq!((m.total, m.matched), (52, 52));
        assert!(m.mismatched.is_empty());
        let mut other = b.clone();
        other.freecells[1] = None;
        other.freecells[2] = Some(qh);
        let m = position_match(&b, &seen_of(&other));
        assert_eq!(m.matched, 51);
        assert_eq!(
            m.mismatched,
            [
                PlaceMismatch {
                    place: "freecell b".into(),
                    held: "QH".into(),
                    seen: "-".into()
                },
                PlaceMismatch {
                    place: "freecell c".into(),
                    held: "-".into(),
                    seen: "QH".into()
                }
            ]
        );
    }

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/pysolfc")
            .join(name)
    }

    #[test]
    fn held_games_are_read_and_other_files_refused() {
        let r = read_held(&fixture("holdgame-617-winnable.dat")).unwrap();
        assert_eq!(r.deal, Some(617));
        assert_eq!(r.moves.as_ref().map(Vec::len), Some(10));
        let want = std::fs::read_to_string(fixture("holdgame-617-winnable.position.txt")).unwrap();
        assert_eq!(r.board(), Some(Board::parse(&want).unwrap()));
        assert_eq!(r.game.pysol_id, 8);
        assert_eq!(r.trailing_bytes, 0);
        // Bytes after the pickle are counted (the run warns of them), the game read alike.
        let t = tempfile::tempdir().unwrap();
        let longer = t.path().join("holdgame.dat");
        let mut bytes = std::fs::read(fixture("holdgame-617-winnable.dat")).unwrap();
        bytes.extend_from_slice(b"junk");
        std::fs::write(&longer, bytes).unwrap();
        let l = read_held(&longer).unwrap();
        assert_eq!(
            (l.trailing_bytes, &l.position, &l.moves),
            (4, &r.position, &r.moves)
        );
        let e = read_held(&fixture("saved-617-lost.pso"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a held one"), "{e}");
        let e = read_held(&fixture("saved-klondike.pso"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not FreeCell"), "{e}");
        let e = read_held(&fixture("seed-options.cfg"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("seed-options.cfg"), "{e}");
    }

    #[test]
    fn a_profiles_own_held_game_is_not_replaced() {
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/savedgame-family/holdgame-bakers-617-20.dat");
        let held = held_file(&file).unwrap();
        let t = tempfile::tempdir().unwrap();
        let options = "[general]\ngame_holded = 8\n";
        std::fs::write(t.path().join("options.cfg"), options).unwrap();
        std::fs::write(t.path().join(HOLDGAME), b"the user's held game").unwrap();
        let e = install(t.path(), &held).unwrap_err().to_string();
        assert!(e.contains("holds a held game of its own"), "{e}");
        assert_eq!(
            std::fs::read(t.path().join(HOLDGAME)).unwrap(),
            b"the user's held game"
        );
        let after = std::fs::read_to_string(t.path().join("options.cfg")).unwrap();
        assert_eq!(after, options);
        // No game held there: the file is only a leftover, and the held game goes in.
        std::fs::write(t.path().join("options.cfg"), "[general]\ngame_holded = 0\n").unwrap();
        install(t.path(), &held).unwrap();
        assert_eq!(
            std::fs::read(t.path().join(HOLDGAME)).unwrap(),
            std::fs::read(&file).unwrap()
        );
        // The same game held there again: nothing is lost.
        install(t.path(), &held).unwrap();
    }

    #[test]
    fn held_games_of_the_family_are_read_with_their_game() {
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/savedgame-family/holdgame-bakers-617-20.dat");
        let r = read_held(&file).unwrap();
        assert_eq!((r.game.pysol_id, r.is_family()), (45, true));
        assert_eq!(r.number.map(|n| n.to_string()), Some("ms617".into()));
        assert_eq!(r.moves.as_ref().map(Vec::len), Some(20));
        assert!(r.board().is_none());
        // installing it sets the options to Baker's Game's id
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("options.cfg"), "[general]\ngame_holded = 0\n").unwrap();
        install(t.path(), &held_file(&file).unwrap()).unwrap();
        let o = OptionsFile::load(&t.path().join("options.cfg")).unwrap();
        assert_eq!(o.get_i64("general", "game_holded"), Some(45));
        assert_eq!(o.get_i64("general", "last_gameid"), Some(45));
        let e = read_held(&file.with_file_name("saved-seahaven-40000-15.pso"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a held one"), "{e}");
    }

    #[test]
    fn status_bar_readings_give_the_deal() {
        assert_eq!(deal_in_status("0:07 10/10 #ms617 0: 0/0"), Some(617));
        assert_eq!(deal_in_status("#ms3000000000"), Some(3_000_000_000));
        assert_eq!(deal_in_status("#00000000000000123456"), None);
        assert_eq!(deal_in_status(""), None);
    }

    #[test]
    fn held_games_are_found_only_when_pysolfc_would_resume_them() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join(".pysolfc");
        std::fs::create_dir_all(&dir).unwrap();
        let e = held_in_home(t.path()).unwrap_err().to_string();
        assert!(
            e.contains("no held game") && e.contains("no holdgame.dat"),
            "{e}"
        );
        std::fs::write(dir.join(HOLDGAME), b"x").unwrap();
        std::fs::write(dir.join("options.cfg"), "[general]\ngame_holded = 0\n").unwrap();
        let e = held_in_home(t.path()).unwrap_err().to_string();
        assert!(e.contains("game_holded = 0"), "{e}");
        std::fs::write(dir.join("options.cfg"), "[general]\ngame_holded = 2\n").unwrap();
        let e = held_in_home(t.path()).unwrap_err().to_string();
        assert!(e.contains("game id 2, not FreeCell"), "{e}");
        std::fs::write(dir.join("options.cfg"), "[general]\ngame_holded = 8\n").unwrap();
        let h = held_in_home(t.path()).unwrap();
        assert_eq!(h.file, dir.join(HOLDGAME));
        // installing into another profile copies the file and sets the options; the source
        // is left as it was
        let priv_dir = t.path().join("private");
        std::fs::create_dir_all(&priv_dir).unwrap();
        std::fs::write(priv_dir.join("options.cfg"), "[general]\ngame_holded = 0\n").unwrap();
        install(&priv_dir, &h).unwrap();
        assert_eq!(std::fs::read(priv_dir.join(HOLDGAME)).unwrap(), b"x");
        let o = OptionsFile::load(&priv_dir.join("options.cfg")).unwrap();
        assert_eq!(o.get_i64("general", "game_holded"), Some(8));
        assert_eq!(o.get_i64("general", "last_gameid"), Some(8));
        assert_eq!(std::fs::read(dir.join(HOLDGAME)).unwrap(), b"x");
        assert!(held_file(&t.path().join("missing.dat")).is_err());
    }
}
