//! `fcauto bench` end to end: its summary lines and its JSON.

mod common;
use common::fcauto;

#[test]
fn one_deal_on_one_thread_is_singular() {
    let out = fcauto()
        .args(["bench", "--range", "5..5", "--threads", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(
        text.starts_with("fcauto bench, deals 5..5 (1 deal), mode fast, 1 thread\n"),
        "{text}"
    );
}

#[test]
fn a_bad_range_is_a_usage_error() {
    for (range, needle) in [
        ("5..x", "deal number `x` is not a whole number"),
        ("5-9", "range `5-9` is not A..B"),
        ("9..5", "range `9..5` is empty"),
        ("0..5", "out of range"),
    ] {
        let out = fcauto().args(["bench", "--range", range]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{range}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.starts_with(&format!(
                "error: invalid value '{range}' for '--range <RANGE>': "
            )),
            "{range}: {err}"
        );
        assert!(err.contains(needle), "{range}: {err}");
    }
}
