//! Text in and out: [`plural`] for the messages every crate of fcauto prints, and
//! [`text_of`] for the text files every command reads (boards, solutions, options.cfg): their
//! UTF-8 text, or what they are instead, in words a user can act on (UTF-16, a PySolFC
//! pickle, a picture, a PDF, ... or the line and column of the first bad byte).

/// A count and a noun, the noun with an `s` unless the count is 1: `1 move`, `0 moves`,
/// `2 moves`. `n` is anything displayable (an integer, usually); only the text "1" counts
/// as one.
pub fn plural(n: impl std::fmt::Display, noun: &str) -> String {
    let n = n.to_string();
    if n == "1" {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Longest quoted input (between backticks) an error message sends back, in characters.
pub const ECHO_MAX: usize = 60;

/// `message` safe to print on a terminal: every control character but the line end and
/// the tab written as its escape (`\u{1b}`), so that an input quoted in an error (a
/// damaged file's bytes, a line of a move list) cannot move the cursor, recolour or
/// overwrite what the terminal shows.
pub fn printable(message: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !message.contains(bad) {
        return std::borrow::Cow::Borrowed(message);
    }
    let mut out = String::with_capacity(message.len() + 16);
    for c in message.chars() {
        match bad(c) {
            true => out.extend(c.escape_default()),
            false => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `message` with every quoted input (between backticks) longer than [`ECHO_MAX`] characters
/// cut to its opening and its size (`` `xxxx…` (200000 bytes) ``), every other word as long
/// too (`deal number 9999…` (5000 bytes)), and the whole cut at 4 KiB:
/// an error never sends a client's huge input back (a 200 KB `mode` is quoted as its
/// opening and its size). Used by `serve`'s and `mcp`'s error answers, and by messages that
/// quote a damaged file's values (`batch`).
pub fn short_echoes(message: &str) -> String {
    let parts: Vec<&str> = message.split('`').collect();
    let last = parts.len() - 1;
    let mut out = String::with_capacity(message.len().min(4096));
    for (i, part) in parts.iter().enumerate() {
        if i % 2 == 0 {
            out.push_str(&short_words(part));
            continue;
        }
        let closed = i < last;
        out.push('`');
        if part.chars().count() > ECHO_MAX {
            out.extend(part.chars().take(ECHO_MAX - 20));
            out.push('…');
            if closed {
                out.push('`');
            }
            out.push_str(&format!(" ({} bytes)", part.len()));
        } else {
            out.push_str(part);
            if closed {
                out.push('`');
            }
        }
    }
    if out.len() <= 4096 {
        return out;
    }
    let mut end = 4096;
    while !out.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &out[..end])
}

/// `text` (outside backticks) with every word longer than [`ECHO_MAX`] characters cut to
/// its opening and its size: serde's `deal number 999…`, `invalid type: string "…"` (a
/// deal number of 4 KiB of digits, say). A word in double quotes keeps its closing quote,
/// so that it still reads as one.
fn short_words(text: &str) -> String {
    text.split(' ')
        .map(|word| {
            if word.chars().count() <= ECHO_MAX {
                return word.to_string();
            }
            let head: String = word.chars().take(ECHO_MAX - 20).collect();
            let quoted = word.len() >= 2 && word.starts_with('"') && word.ends_with('"');
            let (close, size) = match (word.starts_with('"'), quoted) {
                (true, true) => ("\"", word.len() - 2),
                (true, false) => ("\"", word.len()),
                _ => ("", word.len()),
            };
            format!("{head}…{close} ({size} bytes)")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the opening of `bytes` (their first 4 KiB) is instead of text, if it is not UTF-8
/// text ([`where_not_utf8`]); None when it is (a character cut at its end does not count).
pub fn opening_not_text(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(4096)];
    if let Some(at) = head.iter().position(|&b| b == 0) {
        return Some(where_not_utf8(bytes, at));
    }
    match std::str::from_utf8(head) {
        Err(e) if e.error_len().is_some() => Some(where_not_utf8(bytes, e.valid_up_to())),
        _ => None,
    }
}

/// `bytes` as text, or what they are instead ([`where_not_utf8`]): bytes that are not UTF-8,
/// or hold a NUL byte (which UTF-8 allows, but no text file has: UTF-16 of ASCII without a
/// byte-order mark is valid UTF-8 with a NUL beside every character).
pub fn text_of(bytes: Vec<u8>) -> std::result::Result<String, String> {
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(where_not_utf8(&bytes, at));
    }
    String::from_utf8(bytes).map_err(|e| where_not_utf8(e.as_bytes(), e.utf8_error().valid_up_to()))
}

/// `text` with each line end that is a lone `\r` (old Mac OS text) made `\n`, so that line
/// readers (`str::lines` reads `\n` and `\r\n`) see its lines. Text without one is returned
/// as it is.
pub fn unify_line_ends(text: String) -> String {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\r' if chars.peek() != Some(&'\n') => out.push('\n'),
            _ => out.push(ch),
        }
    }
    out
}

/// `text` with each tab replaced by the spaces up to the next tab stop (every 8 columns, as
/// a terminal shows it), for the text inputs whose words may be separated by tabs (a board,
/// a solution, fc-solve's output pasted through an editor): fc-solve's `Move a card ...`
/// lines and its fixed-width `Freecells:` line then read as they show (a tab in them
/// would hide the move lines). Text without a tab is returned as it is.
pub fn expand_tabs(text: String) -> String {
    if !text.contains('\t') {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 64);
    let mut col = 0;
    for ch in text.chars() {
        match ch {
            '\t' => {
                let n = 8 - col % 8;
                out.extend(std::iter::repeat_n(' ', n));
                col += n;
            }
            '\n' | '\r' => {
                out.push(ch);
                col = 0;
            }
            _ => {
                out.push(ch);
                col += 1;
            }
        }
    }
    out
}

/// Where the first byte that is not UTF-8 lies in `bytes`: its line and column (1-based,
/// columns in characters) and its value; or, when the whole file is of another kind, that
/// kind: text in UTF-32 or UTF-16 (a byte-order mark, or NUL bytes beside nearly every
/// character of its opening), which editors on Windows write; a Python pickle (PySolFC's
/// saved and held games and its statistics, which `analyze` and `stats` read); a file of a
/// kind known by its first bytes ([`MAGIC`]: a PNG, a PDF, a ZIP, ...); a binary file (a NUL
/// byte in its opening); or text in Latin-1 or Windows-1252 (an accented letter's byte
/// between ASCII). Each with what to do, where there is something.
pub fn where_not_utf8(bytes: &[u8], at: usize) -> String {
    if looks_like_utf32(bytes) {
        return "it looks like UTF-32; save it as UTF-8".into();
    }
    if looks_like_utf16(bytes) {
        return "it looks like UTF-16; save it as UTF-8".into();
    }
    if looks_like_pickle(bytes) {
        return "it is a Python pickle, as PySolFC's files are: read a saved or held game with \
                `fcauto analyze FILE`, a statistics.dat with `fcauto stats FILE`"
            .into();
    }
    if let Some((_, kind)) = MAGIC.iter().find(|(m, _)| bytes.starts_with(m)) {
        return format!("it is {kind}, not text");
    }
    let before = String::from_utf8_lossy(&bytes[..at]);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let place = format!("byte 0x{:02X} at line {line}, column {column}", bytes[at]);
    if bytes.iter().take(512).any(|&b| b == 0) {
        return format!("it looks like a binary file: {place}");
    }
    // A letter of Latin-1 (0xC0..=0xFE but the two signs; 0xFF is rare) alone between ASCII bytes is no
    // UTF-8 sequence: the usual mark of Latin-1 or Windows-1252 text.
    let ascii = |i: usize| bytes.get(i).is_none_or(u8::is_ascii);
    let alone = ascii(at + 1) && (at == 0 || ascii(at - 1));
    let letter = matches!(bytes[at], 0xC0..=0xFE) && !matches!(bytes[at], 0xD7 | 0xF7);
    if letter && alone {
        return format!("it looks like Latin-1 or Windows-1252 text: {place}; save it as UTF-8");
    }
    // Windows-1252's own signs (0x80..=0x9F, but the five it leaves out): curly quotes,
    // dashes, the euro sign, ... which Windows editors write.
    let sign =
        matches!(bytes[at], 0x80..=0x9F) && !matches!(bytes[at], 0x81 | 0x8D | 0x8F | 0x90 | 0x9D);
    if sign && alone {
        return format!(
            "it looks like Windows-1252 text (a curly quote, dash or euro sign): {place}; save \
             it as UTF-8"
        );
    }
    format!("{place}; save it as UTF-8")
}

/// Kinds of file known by their first bytes, named as messages say them.
pub const MAGIC: [(&[u8], &str); 12] = [
    (b"\x89PNG\r\n", "a PNG picture"),
    (b"\xFF\xD8\xFF", "a JPEG picture"),
    (b"GIF8", "a GIF picture"),
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive (or an office document)"),
    (b"\x1F\x8B", "a gzip-compressed file"),
    (b"\xFD7zXZ\x00", "an xz-compressed file"),
    (b"BZh", "a bzip2-compressed file"),
    (b"\x28\xB5\x2F\xFD", "a zstd-compressed file"),
    (b"7z\xBC\xAF\x27\x1C", "a 7-Zip archive"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"\x7FELF", "a program (ELF)"),
];

/// True when `bytes` open as UTF-32 text: a byte-order mark, or (of their first 16 groups of
/// four, at least 2) nearly all an ASCII character beside three NUL bytes, on the same side.
fn looks_like_utf32(bytes: &[u8]) -> bool {
    if bytes.starts_with(&[0xFF, 0xFE, 0, 0]) || bytes.starts_with(&[0, 0, 0xFE, 0xFF]) {
        return true;
    }
    let quads: Vec<&[u8]> = bytes.chunks_exact(4).take(16).collect();
    let text = |b: u8| b.is_ascii_graphic() || b.is_ascii_whitespace();
    let little = quads
        .iter()
        .filter(|q| q[1..] == [0, 0, 0] && text(q[0]))
        .count();
    let big = quads
        .iter()
        .filter(|q| q[..3] == [0, 0, 0] && text(q[3]))
        .count();
    quads.len() >= 2 && little.max(big) * 8 >= quads.len() * 7
}

/// True when `bytes` open as UTF-16 text: a byte-order mark, or (of their first 32 byte
/// pairs, at least 4) nearly all pairs an ASCII character beside a NUL byte, on the same side.
fn looks_like_utf16(bytes: &[u8]) -> bool {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return true;
    }
    let pairs: Vec<&[u8]> = bytes.chunks_exact(2).take(32).collect();
    let text = |b: u8| b.is_ascii_graphic() || b.is_ascii_whitespace();
    let little = pairs.iter().filter(|p| p[1] == 0 && text(p[0])).count();
    let big = pairs.iter().filter(|p| p[0] == 0 && text(p[1])).count();
    pairs.len() >= 4 && little.max(big) * 8 >= pairs.len() * 7
}

/// A pickle as PySolFC writes a game: protocol 2 and later start with the PROTO opcode
/// (0x80); Python 2's protocols 0 and 1 start with the package name string, `PySolFC`, as
/// the first of the file's pickles.
pub fn looks_like_pickle(bytes: &[u8]) -> bool {
    const NAME: &[u8] = b"PySolFC";
    bytes.first() == Some(&0x80)
        || (matches!(bytes.first(), Some(b'S' | b'V' | b'U' | b'X' | b'T'))
            && bytes.len() > NAME.len()
            && bytes[..bytes.len().min(16)]
                .windows(NAME.len())
                .any(|w| w == NAME))
}

#[cfg(test)]
mod tests {

    /// Control characters are escaped, the line end and the tab kept, other text unchanged.
    #[test]
    fn printable_escapes_control_characters() {
        assert_eq!(
            printable("class \u{1b}[31mRED\r\u{8}x"),
            "class \\u{1b}[31mRED\\r\\u{8}x"
        );
        assert_eq!(printable("a\tb\nc é"), "a\tb\nc é");
        assert!(matches!(printable("plain"), std::borrow::Cow::Borrowed(_)));
    }

    /// Tabs become spaces to the next stop of 8 columns, counted from each line's start.
    #[test]
    fn tabs_expand_to_stops_of_eight() {
        assert_eq!(expand_tabs("38\t3a".into()), "38      3a");
        assert_eq!(
            expand_tabs("\tQH\t2S\nMove\ta".into()),
            "        QH      2S\nMove    a"
        );
        assert_eq!(expand_tabs("abcdefgh\tx".into()), "abcdefgh        x");
        assert_eq!(expand_tabs("no tab".into()), "no tab");
    }

    use super::*;

    /// A file that is not UTF-8 text is named by its kind when it has one, else by its
    /// first bad byte.
    #[test]
    fn text_that_is_not_utf8_is_named_by_its_kind() {
        let utf16: Vec<u8> = "3a 38\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert!(where_not_utf8(&utf16, 1).contains("UTF-16"));
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend([0u8, 0, 2, 0xd0, 0, 0, 1, 0x90, 8, 6, 0, 0, 0]);
        let said = where_not_utf8(&png, 0);
        assert!(said.contains("PNG") && !said.contains("UTF-16"), "{said}");
        let said = where_not_utf8(b"\x80\x02}q\x00(X\x07\x00\x00\x00PySolFC", 0);
        assert!(
            said.contains("pickle") && said.contains("fcauto analyze"),
            "{said}"
        );
        let said = where_not_utf8(b"\x1f\x8b\x08\x00\x00\x00\x00\x00", 0);
        assert_eq!(said, "it is a gzip-compressed file, not text");
        let said = where_not_utf8(b"\x00\x01\x02\x03", 0);
        assert!(said.contains("binary") && said.contains("0x00"), "{said}");
        // UTF-32 (formerly: called UTF-16), with and without its byte-order mark.
        let utf32: Vec<u8> = "3a 38\n"
            .chars()
            .flat_map(|c| (c as u32).to_le_bytes())
            .collect();
        assert!(where_not_utf8(&utf32, 1).contains("UTF-32"));
        let bom: Vec<u8> = "\u{feff}3a"
            .chars()
            .flat_map(|c| (c as u32).to_be_bytes())
            .collect();
        assert!(where_not_utf8(&bom, 0).contains("UTF-32"));
        // A PDF (formerly: "save it as UTF-8"), Latin-1 text.
        let said = where_not_utf8(b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n", 10);
        assert_eq!(said, "it is a PDF document, not text");
        let latin1 = b"[general]\nplayer = Ren\xE9\n";
        let said = text_of(latin1.to_vec()).unwrap_err();
        assert_eq!(
            said,
            "it looks like Latin-1 or Windows-1252 text: byte 0xE9 at line 2, column 13; \
             save it as UTF-8"
        );
        // Windows-1252's own signs (formerly: named as a bare byte): a curly quote.
        let said = text_of(b"[general]\nplayer = \x93Ren\x94\n".to_vec()).unwrap_err();
        assert_eq!(
            said,
            "it looks like Windows-1252 text (a curly quote, dash or euro sign): byte 0x93 at \
             line 2, column 10; save it as UTF-8"
        );
        // Such bytes side by side are no sign of it (each of its signs is one byte).
        assert!(!where_not_utf8(b"ab\x93\x94", 2).contains("1252"));
        assert_eq!(
            where_not_utf8(b"3a\n4\xffb", 4),
            "byte 0xFF at line 2, column 2; save it as UTF-8"
        );
    }

    #[test]
    fn pickles_are_told_from_text() {
        assert!(looks_like_pickle(b"\x80\x05\x95\x10\x00"));
        assert!(looks_like_pickle(b"S'PySolFC'\np0\n."));
        assert!(looks_like_pickle(b"U\x07PySolFCq\x00."));
        assert!(!looks_like_pickle(b"3a 38 a3\n"));
        assert!(!looks_like_pickle(b"Sorry"));
        assert!(!looks_like_pickle(b""));
    }

    #[test]
    fn plural_is_singular_only_for_one() {
        assert_eq!(plural(1, "move"), "1 move");
        assert_eq!(plural(0, "move"), "0 moves");
        assert_eq!(plural(2usize, "single-card move"), "2 single-card moves");
        assert_eq!(plural(-1i64, "time"), "-1 times");
        assert_eq!(plural(7, "card"), "7 cards");
    }

    #[test]
    fn lone_carriage_returns_become_line_feeds() {
        assert_eq!(unify_line_ends("a\rb\r\nc\r".into()), "a\nb\r\nc\n");
        assert_eq!(unify_line_ends("a\r\rb".into()).lines().count(), 3);
        assert_eq!(unify_line_ends("a\r\nb\n".into()), "a\r\nb\n");
    }

    /// A quoted input is cut once, to its opening and its whole size, and the message goes
    /// on after it; a long word in double quotes is sized without its quotes.
    #[test]
    fn a_long_quoted_input_is_cut_once_and_the_message_kept() {
        for n in [61usize, 100, 5000] {
            let g = "g".repeat(n);
            let m = format!("unknown game `{g}`: fcauto plays freecell, bakers_game (a name)");
            let short = short_echoes(&m);
            let want = format!("({n} bytes): fcauto plays freecell, bakers_game (a name)");
            assert!(short.ends_with(&want), "{short}");
            assert_eq!(short.matches('…').count(), 1, "{short}");
        }
        let m = format!(
            "Method not found: \"{}\" (this server ...)",
            "x".repeat(200)
        );
        assert!(
            short_echoes(&m).contains("…\" (200 bytes) (this server"),
            "{}",
            short_echoes(&m)
        );
    }
}
