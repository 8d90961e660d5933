#!/usr/bin/env bash
# End-to-end check of `fcauto play --gui`, as CI runs it:
#   1. installs the GUI packages (scripts/setup-deps.sh --gui; skip with FCAUTO_SKIP_SETUP=1),
#   2. builds fcauto in release with --features gui (or $FCAUTO_FEATURES, gui added),
#   3. runs the GUI modules' unit tests, the recognition/OCR tests on committed screenshots,
#      the solution.json identity test (play writes the bytes `fcauto solve --format json`
#      prints), and the end-to-end tests: deal 617 (from a deal file) then 1941 won in real
#      PySolFC on a private Xvfb + openbox (DISPLAY is unset, so fcauto starts and stops its
#      own display), then 3000000000 (above 2^31) and 123456 (above 32000, with a move that did not take),
#      every artifact, the evidence contract and the statistics.dat delta (re-checked with
#      `fcauto stats --diff` on the copies) checked; PySolFC missing, wrong deal shown, bad
#      deal files, a SIGTERM (Xvfb, openbox and PySolFC stopped, exit 143); then `play --gui --resume` wins a held game (tests/cli/gui_resume.rs: the
#      fixture holdgame-617-winnable.dat, deal 617 held with Ctrl+X after 10 moves, in a
#      stand-in user profile left unchanged) and refuses what it cannot resume; then
#      `play --gui --game G` wins one deal of each family game PySolFC draws its own way
#      (tests/cli/gui_family.rs: Baker's Game #ms617, FreeCell with 2 free cells #40000 (a
#      Mersenne Twister deal), Seahaven Towers #ms1, Eight Off #ms1), with the statistics
#      delta of each game's id, and `play --gui --resume` wins held games of Baker's Game
#      #ms617 and Seahaven Towers #40000 (tests/cli/gui_resume_family.rs; its Eight Off and
#      FreeCell with 2 reserves resumes are skipped here to keep CI short: run them with
#      `cargo test --release --features gui --test cli -- --ignored gui_resume_family::`),
#   4. copies the evidence bundles to results/gui-e2e/ and prints the timings.
set -euo pipefail
# -h, --help: print the comment above and do nothing else (the script installs and builds).
case "${1:-}" in -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."

if [[ "${FCAUTO_SKIP_SETUP:-0}" != 1 ]]; then
  scripts/setup-deps.sh --gui
fi
unset DISPLAY
# The features to build with: gui, plus any others (scripts/test.sh passes the set its own
# test build used, so nothing is compiled twice).
FEATURES="${FCAUTO_FEATURES:-gui}"
[[ ",$FEATURES," == *,gui,* ]] || FEATURES="$FEATURES,gui"
t0=$(date +%s)
cargo build --release --locked --features "$FEATURES"
t1=$(date +%s)
# the GUI modules' own unit tests (launch, resume, ...), then the integration tests, with the
# games that the plain `cargo test` skips (#[ignore]d: they start PySolFC)
cargo test --release --locked --workspace --features "$FEATURES" --lib gui::
cargo test --release --locked --features "$FEATURES" --test cli -- --include-ignored --test-threads=1 \
  gui_recognize:: gui_ocr:: gui_solution:: gui_e2e:: gui_resume:: gui_family:: gui_resume_family:: \
  --skip gui_resume_family::resumes_a_held_eight_off --skip gui_resume_family::resumes_a_held_freecell_with_2
t2=$(date +%s)

target="${CARGO_TARGET_DIR:-target}"
mkdir -p results/gui-e2e
cp -r "$target/tmp/gui-e2e/." results/gui-e2e/
for run in 617 1941 3000000000 misdrag-123456 resume-617; do
  python3 - "results/gui-e2e/$run/results/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
held = f" (held game resumed after {len(r['resumed']['moves_before_resume'])} moves)" if r.get("resumed") else ""
print(f"gui-e2e: deal {r['ms_deal_number']}{held}: {r['moves_executed']}/{r['moves_total']} moves, "
      f"cards matched {r['ocr_match_ratio']:.0%}, launch->board {r['launch_to_board_s']} s, "
      f"launch->win {r['launch_to_win_s']} s, per move {r['per_move_mean_s']} s (max {r['per_move_max_s']} s), "
      f"recoveries {r['recoveries']}, FreeCell wins +{r['delta_won_after_run']}")
PY
done
for run in bakers-ms617 freecell2-40000 seahaven-ms1 eightoff-ms1 resume-bakers-ms617 resume-seahaven-40000; do
  python3 - "results/gui-e2e/$run/results/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
g = r["game"]
print(f"gui-e2e: {g['pysol_name']} (id {g['pysol_id']}) #{r['pysolfc_game_number']}: "
      f"{r['moves_executed']}/{r['moves_total']} moves, cards matched {r['ocr_match_ratio']:.0%}, "
      f"launch->win {r['launch_to_win_s']} s, per move {r['per_move_mean_s']} s (max {r['per_move_max_s']} s), "
      f"recoveries {r['recoveries']}, wins of game id {g['pysol_id']} +{r['delta_won_after_run']}")
PY
done
echo "gui-e2e: build $((t1 - t0)) s, tests $((t2 - t1)) s; evidence in results/gui-e2e/"
