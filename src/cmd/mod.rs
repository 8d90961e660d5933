//! One module per subcommand: each has a clap `Args` and `run(Args) -> anyhow::Result<i32>`
//! returning the process exit code.

pub mod bench;
pub mod crosscheck;
pub mod deal;
pub mod fcsolve_bench;
pub mod input;
pub mod play;
pub mod rusage;
pub mod solve;
pub mod stats;
pub mod verify;

/// A count and a noun, the noun with an `s` unless the count is 1: `1 move`, `0 moves`,
/// `2 moves`.
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
    }
}
