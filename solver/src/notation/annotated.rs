//! Annotated move lists: standard notation with the marks an annotated game carries
//! (`fcauto analyze --report`'s `game.txt`, or a numbered list `1. 38 2. 3a`): `#` and
//! `{...}` comments, move numbers, `?`/`!` marks, and a `# start:` line naming the start
//! position (or a position string opening the list). The command line's `verify` and `analyze`, and the service's `verify` (API and
//! MCP), read move lists through [`strip_annotations`].

use fcauto_deals::Board;

/// A move list with what an annotated game (`fcauto analyze --report`'s `game.txt`) adds
/// taken out: [`strip_annotations`].
pub struct Annotated {
    /// The text, line for line (so errors name the right line), without `#` comments,
    /// `{...}` comments, move numbers (`12.`) and marks (`?`, `??`, `!`).
    pub moves: String,
    /// The start from a `# start: POSITION` line, with the deal of a `# deal N,` line (which
    /// must be that position's deal), or else the deal a `# deal N,` line names, dealt.
    pub start: Option<(Option<u64>, Board)>,
    /// What makes the text unreadable, with its line: a `# start:` line that is not a
    /// position, a `{` comment never closed, move numbers out of count.
    pub problem: Option<String>,
}

/// Take an annotated game's marks out of `text` (a plain move list passes unchanged),
/// line for line so that later errors name the right line: a `{` comment runs to its `}`,
/// over line ends too, and a `#` inside it is part of it; outside one, `#` starts a comment
/// to the end of the line; move numbers (`12.`, `12. 38`, `12.38`) and `?`/`!` marks go.
/// A `# start: POSITION` line (a position string, [`fcauto_deals::position`]), or a position
/// string before the first move, gives the start, with the deal of a `# deal N,` line, which
/// must be that position's; without one, a `# deal N,` line gives the deal's start.
/// Never fails: what makes the text unreadable is in [`Annotated::problem`] (a `# start:`
/// that is not a position, two different starts, a `# deal N,` that is not the `# start:`, a
/// `{` never closed, a `}` closing none, move numbers that do not count 1, 2, 3, … with one
/// move each).
pub fn strip_annotations(text: &str) -> Annotated {
    let mut moves = String::with_capacity(text.len());
    let (mut position, mut deal, mut problem) = (None, None, None);
    // A `# start:` line was seen, a position or not.
    let mut start_line = false;
    // The line where the `{` comment we are in opened.
    let mut open_since: Option<usize> = None;
    let mut numbers = Numbering::default();
    let mut line_no = 0;
    // A move was read on an earlier line.
    let mut moved = false;
    for (n, line) in text.lines().enumerate() {
        line_no = n + 1;
        let (code, comment) = split_comments(line, n + 1, &mut open_since, &mut problem);
        // A position string opening the list is its start, as on a `# start:` line (not a
        // move to refuse).
        let (bare, code) = bare_position(&code);
        let given = match bare {
            Some(_) if moved => {
                let why = format!(
                    "line {}: a position string after moves: the start goes before the first \
                     move (or on a `# start:` line)",
                    n + 1
                );
                problem.get_or_insert(why);
                None
            }
            Some(p) => Some(p),
            None => comment.strip_prefix("start:").map(str::trim),
        };
        if let Some(p) = given {
            start_line = true;
            read_start(p, bare.is_some(), n + 1, &mut position, &mut problem);
        }
        if let Some(n) = comment
            .strip_prefix("deal ")
            .and_then(|r| r.split(',').next())
            .and_then(|n| n.trim().parse::<u64>().ok())
        {
            deal = Some((n, line_no));
        }
        // fc-solve's own lines (`... checked is 2624.`) carry no move numbers.
        let counted =
            (!super::standard::is_fc_solve_line(line.trim_start())).then_some(&mut numbers);
        let stripped = strip_line(code, line_no, counted);
        moved |= !stripped.trim().is_empty();
        moves.push_str(&stripped);
        moves.push('\n');
    }
    // A comment left open swallows the moves after it: named before the gap it leaves in
    // the move numbers.
    if let Some(line) = open_since {
        problem.get_or_insert(format!(
            "line {line}: a `{{` comment is not closed (a comment runs from `{{` to `}}`)"
        ));
    }
    if let Some(why) = numbers.end(line_no) {
        problem.get_or_insert(why);
    }
    // A `# deal N,` line names the start when no `# start:` line does, and must agree with
    // one that does (`# deal 617,` alone names deal 617's start; a `# deal 618,` over deal
    // 617's position is a problem).
    let dealt = deal.and_then(|(n, at)| Some((n, at, fcauto_deals::ms_deal(n).ok()?)));
    let start = named_start(position, dealt, start_line, &mut problem);
    Annotated {
        moves,
        start,
        problem,
    }
}

/// `line` (number `n`) split into its code, with `{...}` comments blanked (a comment may
/// open on an earlier line: `open_since`, the line where the one we are in opened), and the
/// text of its `#` comment. A `}` that closes none is a problem.
fn split_comments<'l>(
    line: &'l str,
    n: usize,
    open_since: &mut Option<usize>,
    problem: &mut Option<String>,
) -> (String, &'l str) {
    let mut code = String::with_capacity(line.len());
    for (i, ch) in line.char_indices() {
        match (*open_since, ch) {
            (Some(_), '}') => {
                *open_since = None;
                code.push(' ');
            }
            (Some(_), _) => {}
            (None, '{') => *open_since = Some(n),
            (None, '}') => {
                let why =
                    format!("line {n}: a `}}` that closes no `{{` comment (comments do not nest)");
                problem.get_or_insert(why);
                code.push(' ');
            }
            (None, '#') => return (code, line[i + 1..].trim()),
            (None, _) => code.push(ch),
        }
    }
    (code, "")
}

/// A start given on line `n` (`p`: a position string opening the list when `bare`, else a
/// `# start:` line's), kept in `position` with its line; a second start of another
/// position, or one that is not a position, is a problem.
fn read_start(
    p: &str,
    bare: bool,
    n: usize,
    position: &mut Option<(Board, usize)>,
    problem: &mut Option<String>,
) {
    match fcauto_deals::position::parse(p) {
        // Two starts that differ: which one the moves are from cannot be told.
        Ok(b) => match position {
            Some((first, at)) if *first != b => {
                let why = format!(
                    "line {n}: a second start with another position (the first is on line \
                     {at}): give one start"
                );
                problem.get_or_insert(why);
            }
            Some(_) => {}
            None => *position = Some((b, n)),
        },
        Err(e) => {
            // A deal where a position belongs gets what to write instead (`# start: deal
            // 999…` is told where a deal goes, not only a position's fields).
            let what = if bare {
                "position string"
            } else {
                "`# start:`"
            };
            let deal = p.strip_prefix("deal").unwrap_or(p).trim_start();
            let hint = if !deal.is_empty() && deal.bytes().all(|b| b.is_ascii_digit()) {
                " (`# start:` takes a position string; a deal is named by `# deal N,` or the \
                 command's own deal option)"
            } else {
                ""
            };
            let why = format!("line {n}: its {what} is not a position: {e}{hint}");
            problem.get_or_insert(why);
        }
    }
}

/// The start the list names: its `# start:` position (with the deal of a `# deal N,`
/// line, `dealt`, when that deal is the position; another is a problem), else the deal's
/// when no `# start:` line was seen (`start_line`).
fn named_start(
    position: Option<(Board, usize)>,
    dealt: Option<(u64, usize, Board)>,
    start_line: bool,
    problem: &mut Option<String>,
) -> Option<(Option<u64>, Board)> {
    match (position, dealt) {
        (Some((b, at)), Some((n, deal_at, d))) if d != b => {
            problem.get_or_insert(format!(
                "line {deal_at}: `# deal {n},` names another start than the `# start:` position \
                 on line {at}: give one start"
            ));
            Some((None, b))
        }
        (Some((b, _)), dealt) => Some((dealt.map(|(n, ..)| n), b)),
        (None, Some((n, _, d))) if !start_line => Some((Some(n), d)),
        (None, _) => None,
    }
}

/// A position string opening `code` (a line without its comments), as its three fields
/// (`<cascades> <freecells> <foundations>`, the first holding a `/`, which no move has), and
/// the rest of the line; or `None` and the whole line.
fn bare_position(code: &str) -> (Option<&str>, &str) {
    let t = code.trim_start();
    if !t.split_whitespace().next().is_some_and(|w| w.contains('/')) {
        return (None, code);
    }
    // The end of the third field (or of the line, when it has fewer).
    let mut end = t.len();
    let mut fields = 0;
    let mut in_word = false;
    for (i, ch) in t.char_indices() {
        if ch.is_whitespace() {
            if in_word {
                fields += 1;
                if fields == 3 {
                    end = i;
                    break;
                }
            }
            in_word = false;
        } else {
            in_word = true;
        }
    }
    (Some(t[..end].trim()), &t[end..])
}

/// One line's moves (its comments already taken out): move numbers (`12.`, `12. 38` or
/// `12.38`) and `?`/`!` marks dropped, the numbers and moves counted by `numbers` (if given)
/// with the line's number.
fn strip_line(code: &str, line: usize, mut numbers: Option<&mut Numbering>) -> String {
    let mut out = Vec::new();
    for t in code.split_whitespace() {
        let t = t.trim_end_matches(['?', '!']);
        let t = match t.split_once('.') {
            Some((n, m)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                if let Some(numbers) = numbers.as_deref_mut() {
                    numbers.number(n, line);
                }
                m
            }
            _ => t,
        };
        if !t.is_empty() {
            if let Some(numbers) = numbers.as_deref_mut() {
                numbers.a_move(t, line);
            }
            out.push(t);
        }
    }
    out.join(" ")
}

/// The move numbers of a numbered list, checked as they come: a list with numbers counts
/// 1, 2, 3, … with one move each, so that a line lost, repeated or moved (a game.txt edited
/// by hand, `sed 27d`) is named rather than another game read.
#[derive(Default)]
struct Numbering {
    /// The last number and the moves after it so far.
    last: Option<(u64, usize)>,
    /// A move with no number before the first number: its token and line.
    unnumbered: Option<(String, usize)>,
    /// The first fault found.
    problem: Option<String>,
}

impl Numbering {
    /// Number `digits` on line `line`.
    fn number(&mut self, digits: &str, line: usize) {
        let n = digits.parse::<u64>().unwrap_or(u64::MAX);
        let why = match (self.last, &self.unnumbered) {
            (None, Some((t, at))) => Some(format!(
                "line {at}: `{t}` has no move number, but later moves have one (a numbered \
                 list numbers every move)"
            )),
            (None, None) if n != 1 => Some(format!(
                "line {line}: the first move is numbered {digits} (a numbered list starts at 1: \
                 moves before it are missing)"
            )),
            (Some((prev, count)), _) if count != 1 => Some(Self::count_problem(prev, count, line)),
            (Some((prev, _)), _) if prev.checked_add(1) != Some(n) => Some(format!(
                "line {line}: move {digits} follows move {prev} (a numbered list counts 1, 2, \
                 3, …: a move is missing, repeated or out of order)"
            )),
            _ => None,
        };
        if let Some(why) = why {
            self.problem.get_or_insert(why);
        }
        self.last = Some((n, 0));
    }

    /// A move `token` on line `line`.
    fn a_move(&mut self, token: &str, line: usize) {
        match &mut self.last {
            Some((_, count)) => *count += 1,
            None => {
                self.unnumbered.get_or_insert((token.to_string(), line));
            }
        }
    }

    /// The fault at the end of the list (the last number with no move, or several), if
    /// none was found before; `lines` is the list's last line.
    fn end(mut self, lines: usize) -> Option<String> {
        if let Some((prev, count)) = self.last.filter(|&(_, count)| count != 1) {
            self.problem
                .get_or_insert(Self::count_problem(prev, count, lines));
        }
        self.problem
    }

    /// Number `prev` followed by `count` moves (not one), seen by line `line`.
    fn count_problem(prev: u64, count: usize, line: usize) -> String {
        if count == 0 {
            format!("line {line}: move {prev} has no move after its number")
        } else {
            format!(
                "line {line}: move {prev} is followed by {count} moves (a numbered list gives \
                 every move its own number)"
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_are_stripped_and_moves_kept() {
        let a = strip_annotations("1. 5b?? {lost; 4b keeps it winnable}\n2.4a 3. 46! {a} 4. 1h?\n");
        assert_eq!(a.moves, "5b\n4a 46 1h\n");
        assert!(a.problem.is_none());
        let a = strip_annotations("5b 4a! {a}\n46 1h?\n");
        assert_eq!(a.moves, "5b 4a\n46 1h\n");
        assert!(a.problem.is_none(), "a list without numbers");
        assert_eq!(
            strip_line("38v4 a3", 1, Some(&mut Numbering::default())),
            "38v4 a3"
        );
        let a = strip_annotations("# deal 617, x\n# start: nonsense\n1. 4a\n");
        assert_eq!(a.moves, "\n\n4a\n");
        assert!(a.start.is_none(), "a start that does not parse is no start");
        assert!(!a.problem.as_deref().unwrap_or("").contains("`# deal N,`"));
        // `# deal N,` alone names the deal's start; one that is not the `# start:` position
        // is a problem.
        let a = strip_annotations("# deal 617, by hand\n8a\n");
        assert_eq!(
            a.start,
            Some((Some(617), fcauto_deals::ms_deal(617).unwrap()))
        );
        assert!(a.problem.is_none());
        let p617 = fcauto_deals::position::write(&fcauto_deals::ms_deal(617).unwrap());
        let a = strip_annotations(&format!("# deal 617,\n# start: {p617}\n8a\n"));
        assert_eq!(a.start.map(|s| s.0), Some(Some(617)));
        let a = strip_annotations(&format!("# deal 618,\n# start: {p617}\n8a\n"));
        let problem = a.problem.unwrap_or_default();
        assert!(
            problem.starts_with("line 1: `# deal 618,` names another start")
                && problem.contains("line 2"),
            "{problem}"
        );
        // A deal where the position belongs is told where a deal goes.
        for start in ["deal 617", "617", "deal 999999999999999999999999"] {
            let a = strip_annotations(&format!("# start: {start}\n4a\n"));
            let problem = a.problem.unwrap_or_default();
            assert!(
                problem.starts_with("line 1: its `# start:` is not a position")
                    && problem.contains("a deal is named by `# deal N,`"),
                "{start}: {problem}"
            );
        }
    }

    /// A `}` outside a comment (a nested comment's end) is named with its line.
    #[test]
    fn a_brace_that_closes_nothing_is_named() {
        let a = strip_annotations("4a {a {nested} comment}\n46\n");
        let problem = a.problem.expect("refused");
        assert!(
            problem.starts_with("line 1:") && problem.contains("nest"),
            "{problem}"
        );
        assert!(strip_annotations("4a {one}\n{two\nlines} 46\n")
            .problem
            .is_none());
    }

    /// Two `# start:` lines with different positions are refused, naming both lines; the
    /// same start twice is read as one.
    /// A position string opening the list is its start, on a line of its own or before the
    /// moves on its line (not read as a move); after a move, or unreadable, it is named.
    #[test]
    fn a_position_string_opening_the_list_is_its_start() {
        let b617 = fcauto_deals::ms_deal(617).unwrap();
        let p617 = fcauto_deals::position::write(&b617);
        for text in [
            format!("{p617}\n8a 8b\n"),
            format!("  {p617} 8a 8b\n"),
            format!("# deal 617,\n{p617}\n1. 8a 2. 8b\n"),
        ] {
            let a = strip_annotations(&text);
            assert!(a.problem.is_none(), "{text}: {:?}", a.problem);
            assert_eq!(a.start.as_ref().map(|s| &s.1), Some(&b617), "{text}");
            assert_eq!(
                a.moves.split_whitespace().collect::<Vec<_>>(),
                ["8a", "8b"],
                "{text}"
            );
        }
        let a = strip_annotations(&format!("8a\n{p617}\n"));
        let why = a.problem.unwrap();
        assert!(
            why.contains("line 2: a position string after moves"),
            "{why}"
        );
        let a = strip_annotations("JDKD/2S ---- 0000\n8a\n");
        let why = a.problem.unwrap();
        assert!(
            why.contains("line 1: its position string is not a position"),
            "{why}"
        );
        // Two starts that differ are refused whichever way each is given.
        let p1 = fcauto_deals::position::write(&fcauto_deals::ms_deal(1).unwrap());
        let a = strip_annotations(&format!("# start: {p1}\n{p617}\n8a\n"));
        assert!(a
            .problem
            .unwrap()
            .contains("line 2: a second start with another position"));
    }

    #[test]
    fn two_different_starts_are_refused() {
        let start = |n: u64| {
            let b = fcauto_deals::ms_deal(n).unwrap();
            format!("# start: {}\n", fcauto_deals::position::write(&b))
        };
        let text = format!("{}4a\n{}", start(617), start(1));
        let a = strip_annotations(&text);
        let problem = a.problem.expect("refused");
        assert!(
            problem.contains("line 3") && problem.contains("line 1"),
            "{problem}"
        );
        let a = strip_annotations(&format!("{}{}4a\n", start(617), start(617)));
        assert!(a.problem.is_none() && a.start.is_some());
    }

    /// A numbered list counts 1, 2, 3, … with one move per number: a move lost, repeated or
    /// moved, a list starting later, a number with two moves or none, and moves without
    /// numbers before numbered ones are named with their line (a game.txt with line 27
    /// deleted is not analysed as another game).
    #[test]
    fn move_numbers_are_counted() {
        let game = "# deal 617, x\n1. 8a\n2. 8b\n3. 8c\n4. 4d\n";
        assert!(strip_annotations(game).problem.is_none());
        // fc-solve's lines count no numbers.
        let fcs = "-=-=-=-=-=-=-=-=-=-=-=-\n\nMove: 8a\nThis game is solveable.\nTotal number of states checked is 2624.\n";
        assert!(strip_annotations(fcs).problem.is_none());
        for (text, want) in [
            ("1. 8a\n2. 8b\n4. 4d\n", "line 3: move 4 follows move 2"),
            (
                "1. 8a {unclosed\n2. 8b\n3. 4d\n",
                "line 1: a `{` comment is not closed",
            ),
            ("1. 8a\n2. 8b\n2. 8b\n", "line 3: move 2 follows move 2"),
            ("1. 8a\n3. 8c\n2. 8b\n", "line 2: move 3 follows move 1"),
            ("2. 8b\n3. 8c\n", "line 1: the first move is numbered 2"),
            ("1. 8a 8b\n2. 8c\n", "line 2: move 1 is followed by 2 moves"),
            ("1. 8a\n2.\n3. 8c\n", "line 3: move 2 has no move"),
            ("1. 8a\n2. 8b\n3.\n", "line 3: move 3 has no move"),
            ("8a\n2. 8b\n", "line 1: `8a` has no move number"),
        ] {
            let problem = strip_annotations(text).problem.unwrap_or_default();
            assert!(problem.starts_with(want), "{text:?}: {problem}");
        }
    }
}
