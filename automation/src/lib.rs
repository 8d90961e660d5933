/// PySolFC GUI replay (screen, OCR, mouse): `fcauto play --gui`.
#[cfg(feature = "gui")]
pub mod gui;

/// PySolFC's statistics.dat / options.cfg decoding and automated-play profiles.
pub mod pysol;

/// A count and a noun, the noun with an `s` unless the count is 1: `1 move`, `0 moves`,
/// `2 moves`.
pub(crate) fn plural(n: impl std::fmt::Display, noun: &str) -> String {
    let n = n.to_string();
    if n == "1" {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn plural_is_singular_only_for_one() {
        assert_eq!(super::plural(1, "byte"), "1 byte");
        assert_eq!(super::plural(0usize, "byte"), "0 bytes");
        assert_eq!(super::plural(7, "card"), "7 cards");
    }
}
