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
