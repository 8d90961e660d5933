//! Small helpers for the messages every crate of fcauto prints.

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

#[cfg(test)]
mod tests {
    use super::plural;

    #[test]
    fn plural_is_singular_only_for_one() {
        assert_eq!(plural(1, "move"), "1 move");
        assert_eq!(plural(0, "move"), "0 moves");
        assert_eq!(plural(2usize, "single-card move"), "2 single-card moves");
        assert_eq!(plural(-1i64, "time"), "-1 times");
        assert_eq!(plural(7, "card"), "7 cards");
    }
}
