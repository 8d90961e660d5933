//! The one reader of a family game's move texts, shared by `verify`, `analyze`, the API and
//! MCP: standard notation as fcauto writes it (`0` the tenth cascade, `i` the eighth
//! freecell), as Freecell Solver writes it (`-m -sn`, `-m -snx`, `-sam -sn`: `10` the tenth
//! cascade, its `-=-=-` header, `====` separators, printed positions and verdict lines),
//! and annotated games (`analyze --report`'s `game.txt`: `#` and `{...}` comments, move
//! numbers, `?`/`!` marks, a `# start:` line naming the start). Counts left out are found by
//! [`resolve_family_counts`], as the standard reader finds them: every legal count tried,
//! the longest first, backtracking when a choice makes a later move illegal.

use super::notation::{FamilyMove, FamilyReadError, Place};
use super::validator::play_checked;
use crate::standard::is_fc_solve_line;
use fcauto_deals::{Game, Layout, Rules};
use std::collections::HashSet;

/// A move as a text writes it: its places, and its count when written (`38v3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    /// Where the cards come from.
    pub from: Place,
    /// Where they go.
    pub to: Place,
    /// The count written after `v` (hexadecimal), if any.
    pub count: Option<u8>,
}

impl WrittenMove {
    /// The move as written (`38`, `38v3`), in fcauto's notation.
    pub fn notation(&self) -> String {
        let mut s = format!("{}{}", self.from, self.to);
        if let Some(n) = self.count {
            s.push_str(&format!("v{n:x}"));
        }
        s
    }
}

/// A family move text as read: its moves and the start a `# start:` line names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyText {
    /// The moves, counts as written.
    pub moves: Vec<WrittenMove>,
    /// The start a `# start:` line names: the game its position string names (`None` when
    /// it names none: a position of FreeCell's shape) and the position.
    pub start: Option<(Option<&'static Game>, Layout)>,
}

/// A family move text that cannot be read: a token that is no move, or an annotated game's
/// problem (a `# start:` that is no position, a `{` never closed, move numbers out of
/// count).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FamilyTextError {
    /// A token that is no move.
    #[error(transparent)]
    Token(#[from] FamilyReadError),
    /// The annotated game's problem, with its line.
    #[error("{0}")]
    Annotation(String),
}

/// Read a family move text (see the module docs): the moves, counts left open where not
/// written, and the start a `# start:` line names. In fc-solve's `-sam -sn` output only the
/// `Move:` lines are read (its positions' columns hold card tokens that read like moves).
///
/// # Errors
/// [`FamilyTextError`]: the first token that is no move, or what makes an annotated game
/// unreadable.
pub fn read_family_text(text: &str) -> Result<FamilyText, FamilyTextError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (text, start) = take_start_lines(text)?;
    let sam = is_sam_output(&text);
    let a = crate::annotated::strip_annotations(&text);
    if let Some(problem) = a.problem {
        return Err(FamilyTextError::Annotation(problem));
    }
    let mut moves = Vec::new();
    for (raw, code) in text.lines().zip(a.moves.lines()) {
        let raw = raw.trim();
        if is_fc_solve_line(raw) || (sam && !raw.starts_with("Move:")) {
            continue;
        }
        let code = code.trim();
        let code = code.strip_prefix("Move:").unwrap_or(code);
        for t in code.split_whitespace() {
            let m = read_written(t).map_err(|reason| FamilyReadError {
                step: moves.len() + 1,
                token: t.chars().take(20).collect(),
                reason,
            })?;
            moves.push(m);
        }
    }
    Ok(FamilyText { moves, start })
}

/// The text with its `# start:` lines blanked (line numbers kept), and the start they name:
/// a position string, of any game of the family (the standard reader takes FreeCell's
/// only). Two different starts, or one that is no position, are an annotation problem.
fn take_start_lines(text: &str) -> Result<(String, NamedStart), FamilyTextError> {
    let mut out = String::with_capacity(text.len());
    let mut start: Option<(&'static Game, Layout, usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        let p = line
            .trim()
            .strip_prefix('#')
            .and_then(|c| c.trim().strip_prefix("start:"))
            .map(str::trim);
        let Some(p) = p else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        out.push('\n');
        let (game, layout) = fcauto_deals::position::parse_layout(p).map_err(|e| {
            FamilyTextError::Annotation(format!(
                "line {}: its `# start:` is not a position: {e}",
                n + 1
            ))
        })?;
        match &start {
            Some((g, l, at, _)) if g.name != game.name || *l != layout => {
                return Err(FamilyTextError::Annotation(format!(
                    "line {}: a second start with another position (the first is on line \
                     {at}): give one start",
                    n + 1
                )))
            }
            Some(_) => {}
            None => start = Some((game, layout, n + 1, p.to_string())),
        }
    }
    let named = |p: &str| {
        p.split_whitespace()
            .next()
            .is_some_and(|w| w.ends_with(':'))
    };
    Ok((out, start.map(|(g, l, _, p)| (named(&p).then_some(g), l))))
}

/// The start a `# start:` line names: the game it names, if any, and the position.
type NamedStart = Option<(Option<&'static Game>, Layout)>;

/// True for fc-solve's `-sam -sn` output: `Move:` lines between `====` separators.
fn is_sam_output(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim);
    lines.clone().any(|l| l.starts_with("Move:")) && lines.any(|l| l.starts_with("===="))
}

/// One move token: fcauto's (`38`, `0h`, `ia`, `38v3`), or fc-solve's, which writes the
/// tenth cascade `10` (`10h`, `a10`, `110`, `101`).
pub fn read_written(t: &str) -> Result<WrittenMove, String> {
    let (places, count) = match t.split_once(['v', 'V']) {
        Some((p, c)) => {
            let n = u8::from_str_radix(c, 16)
                .ok()
                .filter(|n| (1..=13).contains(n))
                .ok_or_else(|| format!("`v{c}` is no count of cards (hexadecimal, 1 to d)"))?;
            (p, Some(n))
        }
        None => (t, None),
    };
    let place = |c: char| Place::from_char(c).ok_or_else(|| format!("`{c}` names no place"));
    let cs: Vec<char> = places.chars().collect();
    let (from, to) = match cs[..] {
        [a, b] => (place(a)?, place(b)?),
        // fc-solve's tenth cascade, `10`, on either side.
        ['1', '0', b] => (Place::Cascade(9), place(b)?),
        [a, '1', '0'] => (place(a)?, Place::Cascade(9)),
        _ => {
            return Err(
                "a move is two places (`38`, `3a`, `a3`, `3h`; the tenth cascade `0`, or `10` \
                 as fc-solve writes it)"
                    .into(),
            )
        }
    };
    Ok(WrittenMove { from, to, count })
}

/// Most rule checks [`resolve_family_counts`] makes for moves without a count before it
/// keeps the reading that went furthest, as the standard reader's budget
/// ([`crate::standard::RESOLVE_BUDGET`]).
pub const FAMILY_RESOLVE_BUDGET: usize = crate::standard::RESOLVE_BUDGET;

/// The moves with their counts found, and whether every one is legal from the start under
/// the rules (and, when asked, the game ends won).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The moves: each count as written, else as found. When no reading succeeds, the
    /// reading that went furthest, then (from its first illegal move on) one card each
    /// where nothing could be played: the validator then names the move that fails.
    pub moves: Vec<FamilyMove>,
    /// Every move read legally (and the game won, when `want_win`).
    pub ok: bool,
    /// Steps (1-based) whose count was not written and had more than one legal count.
    pub open: Vec<usize>,
}

/// Give every move written without a count a count, as the standard reader does
/// ([`crate::resolve_counts`]): a move between cascades tries every legal count, the longest
/// first, and the search backtracks when that choice makes a later move illegal (or, with
/// `want_win`, leaves the game not won); a position that failed once from a step is not
/// searched again; at most [`FAMILY_RESOLVE_BUDGET`] rule checks. Any other move carries one
/// card.
pub fn resolve_family_counts(
    start: &Layout,
    rules: &Rules,
    moves: &[WrittenMove],
    want_win: bool,
) -> Resolved {
    let mut r = Search {
        moves,
        rules,
        branches: Vec::new(),
        dead: HashSet::new(),
        out: Vec::with_capacity(moves.len()),
        pos: start.clone(),
        checks: 0,
        best: (Vec::new(), start.clone()),
        open: Vec::new(),
    };
    let mut i = 0;
    loop {
        let ok = if i == moves.len() {
            if !want_win || r.pos.is_won() {
                return Resolved {
                    moves: r.out,
                    ok: true,
                    open: r.open,
                };
            }
            false
        } else {
            r.play(i)
        };
        if r.out.len() > r.best.0.len() {
            r.best = (r.out.clone(), r.pos.clone());
        }
        i = match (ok, r.checks < FAMILY_RESOLVE_BUDGET) {
            (true, _) => i + 1,
            (false, true) => match r.backtrack() {
                Some(i) => i,
                None => return r.furthest(),
            },
            (false, false) => return r.furthest(),
        };
    }
}

/// A choice point: the position before move `step` and the counts left to try.
struct Branch {
    step: usize,
    pos: Layout,
    counts: Vec<u8>,
}

/// [`resolve_family_counts`]'s search.
struct Search<'a> {
    moves: &'a [WrittenMove],
    rules: &'a Rules,
    branches: Vec<Branch>,
    dead: HashSet<(usize, Layout)>,
    out: Vec<FamilyMove>,
    pos: Layout,
    checks: usize,
    /// The longest prefix read legally so far, and the position after it.
    best: (Vec<FamilyMove>, Layout),
    open: Vec<usize>,
}

impl Search<'_> {
    /// Play move `i`: its count as written, else its longest legal count (the others kept
    /// as a choice point). False when it cannot be played.
    fn play(&mut self, i: usize) -> bool {
        let w = self.moves[i];
        let mut legal = self.legal_counts(&w);
        if legal.is_empty() {
            return false;
        }
        if legal.len() > 1 {
            if !self.open.contains(&(i + 1)) {
                self.open.push(i + 1);
            }
            if self.dead.contains(&(i, self.pos.clone())) {
                return false;
            }
        }
        let n = legal.pop().expect("not empty");
        if !legal.is_empty() {
            self.branches.push(Branch {
                step: i,
                pos: self.pos.clone(),
                counts: legal,
            });
        }
        let m = FamilyMove {
            from: w.from,
            to: w.to,
            count: n,
        };
        play_checked(&mut self.pos, self.rules, &m).expect("checked legal");
        self.out.push(m);
        true
    }

    /// The counts `w` may have here, shortest first: its own when written (if legal); between
    /// cascades every legal one; otherwise one card (if legal).
    fn legal_counts(&mut self, w: &WrittenMove) -> Vec<u8> {
        let counts: Vec<u8> = match (w.count, w.from, w.to) {
            (Some(n), ..) => vec![n],
            (None, Place::Cascade(i), Place::Cascade(_)) => {
                let h = self.pos.cascades.get(i as usize).map_or(0, Vec::len);
                (1..=h.clamp(1, 13) as u8).collect()
            }
            _ => vec![1],
        };
        counts
            .into_iter()
            .filter(|&count| {
                self.checks += 1;
                let m = FamilyMove {
                    from: w.from,
                    to: w.to,
                    count,
                };
                play_checked(&mut self.pos.clone(), self.rules, &m).is_ok()
            })
            .collect()
    }

    /// Back to the latest choice with a count left, that count played: the step to go on
    /// from; `None` when no choice is left.
    fn backtrack(&mut self) -> Option<usize> {
        loop {
            let br = self.branches.last_mut()?;
            let Some(n) = br.counts.pop() else {
                let br = self.branches.pop()?;
                self.dead.insert((br.step, br.pos));
                continue;
            };
            let i = br.step;
            self.pos = br.pos.clone();
            self.out.truncate(i);
            let w = self.moves[i];
            let m = FamilyMove {
                from: w.from,
                to: w.to,
                count: n,
            };
            self.checks += 1;
            play_checked(&mut self.pos, self.rules, &m).expect("checked legal before");
            self.out.push(m);
            return Some(i + 1);
        }
    }

    /// No reading succeeded: the one that went furthest; the move after it with its written
    /// count, or the one whose run lands on the destination's top card (so that the
    /// validator names the rule that run breaks), the rest with their written count or one
    /// card.
    fn furthest(self) -> Resolved {
        let (mut moves, pos) = self.best;
        let first = moves.len();
        for (k, w) in self.moves.iter().enumerate().skip(moves.len()) {
            let mut m = FamilyMove {
                from: w.from,
                to: w.to,
                count: w.count.unwrap_or(1),
            };
            if k == first && w.count.is_none() {
                m.count = fitting_count(&pos, self.rules, &m);
            }
            moves.push(m);
        }
        Resolved {
            moves,
            ok: false,
            open: self.open,
        }
    }
}

/// The moves of a family solution in standard notation, read by
/// [`read_family_text`] (fcauto's and fc-solve's notation, annotated games)
/// and played from `start` under `rules` to find the counts left out
/// ([`resolve_family_counts`]: the counts with which every move is legal and
/// the game ends won, the longest run first, backtracking). When no reading wins, the one
/// that went furthest: [`super::validate_family`] then names the first illegal move. A
/// `# start:` line is not checked here: [`read_family_text`] gives it.
///
/// # Errors
/// [`FamilyTextError`] for a token that names no move or an annotated game
/// that does not read.
pub fn read_standard(
    text: &str,
    start: &Layout,
    rules: &Rules,
) -> Result<Vec<FamilyMove>, FamilyTextError> {
    let read = read_family_text(text)?;
    Ok(resolve_family_counts(start, rules, &read.moves, true).moves)
}

/// The count of a move between cascades written without one whose run fits `pos`: onto a
/// card, the run whose head builds on it; onto an empty cascade, the longest run the
/// sequence limit lets move (one card for any other move).
fn fitting_count(pos: &Layout, rules: &Rules, m: &FamilyMove) -> u8 {
    let (Place::Cascade(i), Place::Cascade(j)) = (m.from, m.to) else {
        return 1;
    };
    let (Some(col), Some(dest)) = (pos.cascades.get(i as usize), pos.cascades.get(j as usize))
    else {
        return 1;
    };
    // The run on top of the source, longest first.
    let mut run = usize::from(!col.is_empty());
    while run < col.len() && rules.builds_on(col[col.len() - run - 1], col[col.len() - run]) {
        run += 1;
    }
    match dest.last() {
        Some(&top) => (1..=run)
            .find(|&k| rules.builds_on(top, col[col.len() - k]))
            .unwrap_or(1) as u8,
        None => {
            let free = pos.freecells.iter().filter(|c| c.is_none()).count();
            let empty = pos.cascades.iter().filter(|c| c.is_empty()).count();
            let most = rules.sequence_limit(free, empty, true).unwrap_or(run);
            let mut k = run.min(most).max(1);
            while k > 1 && !rules.fills_empty(col[col.len() - k]) {
                k -= 1;
            }
            k.min(u8::MAX as usize) as u8
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::{solve_family, FamilyMode, FamilyOutcome};
    use fcauto_deals::{deal_game, PysolNumber};

    fn places(text: &str) -> Vec<String> {
        read_family_text(text)
            .unwrap()
            .moves
            .iter()
            .map(WrittenMove::notation)
            .collect()
    }

    /// fc-solve's `-m -sn` (header, verdict and trailer lines, `10` the tenth cascade) and
    /// `-sam -sn` (only `Move:` lines; the columns' `10H` is a card), annotated games (move
    /// numbers, `{...}` and `#` comments, marks) all read as the same moves.
    #[test]
    fn every_layout_of_the_notation_reads() {
        let sn = "-=-=-=-=-=-=-=-=-=-=-=-\n\n10h 10h c8 a10 \n110 101\n\nThis game is solveable.\nTotal number of states checked is 1076.\nThis scan generated 1100 states.\n";
        assert_eq!(places(sn), ["0h", "0h", "c8", "a0", "10", "01"]);
        let sam = "-=-=-=-=-=-\n\n     7C 10S     H-0 C-0 D-0 S-0\n--- --- --- --- \n\n AH  8S\n 2H 10C\n\n====================\n\nMove: 10h \n\n AH 10H\n\n====================\n\nMove: c8\n";
        assert_eq!(places(sam), ["0h", "c8"]);
        assert_eq!(
            places("1. 2h? {x} 2. 2a!! # 3a\n3. 38v3\n"),
            ["2h", "2a", "38v3"]
        );
        assert_eq!(places("2h {x} 2a\n"), ["2h", "2a"]);
        let e = read_family_text("1. 2h 2a\n").unwrap_err();
        assert!(matches!(e, FamilyTextError::Annotation(_)), "{e}");
        let e = read_family_text("2h 2x\n").unwrap_err().to_string();
        assert!(e.contains("move 2 `2x`"), "{e}");
    }

    /// A `# start:` names its game (or none, FreeCell's shape); two different starts or one
    /// that is no position are refused.
    #[test]
    fn a_start_line_names_its_game() {
        let g = Game::find("seahaven_towers").unwrap();
        let layout = deal_game(g, PysolNumber::plain(5).unwrap());
        let pos = fcauto_deals::position::write_layout(g, &layout);
        let read = read_family_text(&format!("# start: {pos}\n1. 0h\n")).unwrap();
        assert_eq!(read.start, Some((Some(g), layout)));
        let plain = fcauto_deals::position::write(&fcauto_deals::ms_deal(5).unwrap());
        let read = read_family_text(&format!("# start: {plain}\n38\n")).unwrap();
        assert!(matches!(read.start, Some((None, _))));
        assert!(read_family_text("# start: 4\n38\n").is_err());
        let other =
            fcauto_deals::position::write_layout(g, &deal_game(g, PysolNumber::plain(6).unwrap()));
        assert!(read_family_text(&format!("# start: {pos}\n# start: {other}\n")).is_err());
    }

    /// Counts taken out of fast solutions are found again (backtracking where the longest
    /// run fails later); a reading that cannot win keeps the one that went furthest.
    #[test]
    fn counts_left_out_are_found_again() {
        for (name, n) in [
            ("bakers_game", 8),
            ("seahaven_towers", 5),
            ("eight_off", 617),
        ] {
            let g = Game::find(name).unwrap();
            let start = deal_game(g, PysolNumber::plain(n).unwrap());
            let (out, _) = solve_family(&start, &g.rules, FamilyMode::Fast, None).unwrap();
            let FamilyOutcome::Solved(s) = out else {
                panic!("{name} {n}")
            };
            let bare: Vec<WrittenMove> = s
                .moves
                .iter()
                .map(|m| WrittenMove {
                    from: m.from,
                    to: m.to,
                    count: None,
                })
                .collect();
            let r = resolve_family_counts(&start, &g.rules, &bare, true);
            assert!(r.ok, "{name} {n}");
            crate::family::validate_family(&start, &g.rules, &r.moves).unwrap();
            // One move fewer cannot win: the furthest reading is kept, every move in it.
            let r = resolve_family_counts(&start, &g.rules, &bare[..bare.len() - 1], true);
            assert!(!r.ok && r.moves.len() == bare.len() - 1, "{name} {n}");
            assert!(resolve_family_counts(&start, &g.rules, &bare[..10], false).ok);
        }
    }

    #[test]
    fn tokens_read_with_and_without_counts() {
        let m = read_written("09vA").unwrap();
        assert_eq!(
            (m.from, m.to, m.count),
            (Place::Cascade(9), Place::Cascade(8), Some(10))
        );
        let m = read_written("ia").unwrap();
        assert_eq!(
            (m.from, m.to, m.count),
            (Place::Freecell(7), Place::Freecell(0), None)
        );
        // fc-solve writes the tenth cascade `10`.
        for (t, from, to) in [
            ("10h", Place::Cascade(9), Place::Foundation),
            ("a10", Place::Freecell(0), Place::Cascade(9)),
            ("110", Place::Cascade(0), Place::Cascade(9)),
            ("101", Place::Cascade(9), Place::Cascade(0)),
            ("10", Place::Cascade(0), Place::Cascade(9)),
            // and the eighth freecell `k` (Eight Off).
            ("k8", Place::Freecell(7), Place::Cascade(7)),
            ("5k", Place::Cascade(4), Place::Freecell(7)),
            ("kh", Place::Freecell(7), Place::Foundation),
        ] {
            let m = read_written(t).unwrap();
            assert_eq!((m.from, m.to), (from, to), "{t}");
        }
        for bad in ["3", "38v0", "3x", "38vz", "385", "38ve"] {
            assert!(read_written(bad).is_err(), "{bad}");
        }
    }
}
