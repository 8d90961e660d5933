//! Without the `gui` feature, `fcauto play --gui` explains how to get it (exit 2, as the
//! README says of every part a build leaves out).

use assert_cmd::Command;

#[test]
fn play_gui_without_the_feature_says_how_to_build_it() {
    let o = Command::cargo_bin("fcauto")
        .unwrap()
        .args(["play", "--gui", "--deal", "617"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--features gui") && err.contains("scripts/setup-deps.sh --gui"),
        "{err}"
    );
}
