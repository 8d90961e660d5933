//! The `console` examples of the user guide (`docs/*.md`) run as tests, so that they cannot
//! drift from what `fcauto` prints: each `$ fcauto ...` line is run and its output (stdout
//! and stderr, in that order) and exit code compared with the block. Blocks that cannot run
//! here (the GUI, long benchmarks, servers) are written as `text` or `sh` and skipped.
//! `tests/docs_examples/` holds the cases that are not in a page.

#[test]
fn docs_examples() {
    trycmd::TestCases::new()
        .register_bin("fcauto", trycmd::cargo::cargo_bin("fcauto"))
        .case("docs/*.md")
        .case("tests/docs_examples/*.toml")
        .case("tests/docs_examples/*.md");
}
