#!/usr/bin/env bash
# Run fcauto's whole test suite on a fresh Debian 12 machine with Rust installed:
# installs the reference tools the tests compare against (fc-solve, PySolFC's deal module),
# runs every cargo test in release mode, then a small release-mode `fcauto bench` that
# fails on any invalid solution or false verdict.
set -euo pipefail
# -h, --help: print the comment above and do nothing else (the script installs and builds).
case "${1:-}" in -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."

command -v cargo >/dev/null || { echo "test.sh: cargo not found: install Rust (rustup) first" >&2; exit 1; }
# Each step's wall time is printed when it ends (`step NAME COMMAND...`), so that a slow CI
# run says where its minutes went.
started=$SECONDS
step() {
  local name=$1 t0=$SECONDS
  shift
  "$@"
  echo "test.sh: $name: $((SECONDS - t0)) s (total $((SECONDS - started)) s)"
}

step setup scripts/setup-deps.sh --gui --slurm --browser --mcp

# The default build (what `cargo run --release -- solve 617` builds), and what it says to
# `play --gui` without the GUI feature (tests/cli/gui_nofeature.rs, checked here on the built
# binary: a test build of the default features would take minutes); then every test with all
# the optional parts built in, the GUI included, in one build that scripts/gui-e2e.sh below
# reuses (its games are #[ignore]d here).
step "default build" cargo build --release --locked
rc=0; said=$(./target/release/fcauto play --gui --deal 617 2>&1) || rc=$?
if [[ $rc != 2 || $said != *"--features gui"* || $said != *"scripts/setup-deps.sh --gui"* ]]; then
  echo "test.sh: play --gui without the gui feature: exit $rc, said: $said" >&2
  exit 1
fi
FEATURES="batch,serve,png,mcp,gui"
# From here on, release builds without link-time optimisation: each of the 8 test binaries
# (and the binary the steps below run) would otherwise be optimised across all its crates at
# link time, most of the build's time with the GUI's crates in. Every step below uses the
# same setting, so the build is made once. (The shipped build above keeps it.)
export CARGO_PROFILE_RELEASE_LTO=off
step "tests" cargo test --release --locked --workspace --features "$FEATURES"
# The official MCP conformance suite's stateless scenario against `fcauto mcp --http` (the
# featured binary the tests just built).
step "mcp conformance" scripts/mcp-conformance.sh target/release/fcauto
# fcauto batch on a real single-node Slurm: 1..20000 as 8 shards, one cancelled mid-run and
# resumed, merged, compared deal by deal with a single-process run. It spends most of its time
# waiting on the scheduler, so it runs beside the docs and bench steps (on the binary the tests
# built) and is waited for before the GUI's.
FCAUTO_SKIP_SETUP=1 FCAUTO_SKIP_BUILD=1 FCAUTO_FEATURES="$FEATURES" step "slurm" scripts/slurm/selftest.sh &
slurm=$!
# The API docs build without a broken link (with and without the optional modules).
RUSTDOCFLAGS="-D warnings" step "docs" cargo doc --locked --no-deps --workspace --quiet
RUSTDOCFLAGS="-D warnings" step "docs (features)" cargo doc --locked --no-deps --workspace --features "$FEATURES" --quiet
# Small range of the bench in release mode: exits non-zero on an invalid solution or unknown
# verdict; 11982 is not in this range, so any "unsolvable" here would be false.
step "bench fast" ./target/release/fcauto bench --range 1..300 --mode fast
step "bench short" ./target/release/fcauto bench --range 1..300 --mode short
wait "$slurm" || { echo "test.sh: the Slurm self-test failed" >&2; exit 1; }
# The GUI replay end to end: wins deals 617, 1941, 3000000000 and 123456 (with a misdrag
# recovered) and the held 617 resumed, in real PySolFC under a private Xvfb; checks every
# evidence file and the statistics.dat delta (setup already done above).
FCAUTO_SKIP_SETUP=1 FCAUTO_FEATURES="$FEATURES" step "gui e2e" scripts/gui-e2e.sh
