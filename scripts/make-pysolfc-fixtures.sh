#!/usr/bin/env bash
# Make the saved-game fixtures of tests/fixtures/pysolfc/ by playing real PySolFC 3.2 with the
# mouse under Xvfb + openbox (xdotool clicks in point-n-click mode, Standard cardset at scale 1):
#
#   freecell  FreeCell MS deal 617: the 20 first moves of fc-solve's solution, then the
#             losing move 4c (4H to a free cell) at step 21, then 4d and 41; File > Save
#             (Ctrl+S, OK in the Save As dialog) -> saved-617-lost.pso, then Hold and quit
#             (Ctrl+X) -> holdgame-617-lost.dat (+ the options.cfg with game_holded = 8)
#   winnable  FreeCell MS deal 617: the same first 10 moves, then Hold and quit (Ctrl+X) ->
#             holdgame-617-winnable.dat (+ .options.cfg): a held game that can still be won,
#             which CI's GUI end-to-end test resumes and wins (`fcauto play --gui --resume`)
#   klondike  Klondike (game id 2) deal ms617: 5 clicks on the talon, Ctrl+S -> saved-klondike.pso,
#             Ctrl+Q
#
# Then each file is dumped by PySolFC's own loader code (scripts/pysolfc-dump-game.py) to
# <file>.expected.json, the FreeCell history is checked against the moves played and the
# final cascades against the simulated position, and lost-617.json (deal, moves, losing step)
# and the fc-solve checks (lost-617-fcsolve.txt) are written.
#
# Usage: scripts/make-pysolfc-fixtures.sh [freecell|winnable|klondike|all]   (default all)
# Needs: pysolfc (3.2), python3-pysol-cards, xvfb, openbox, xdotool, freecell-solver-bin
# (scripts/setup-deps.sh --gui). Uses throwaway HOMEs: no real profile is read or written.
# MOVE_DELAY (s, default 3) is the pause after each move: PySolFC drops clicks while busy.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/tests/fixtures/pysolfc
moves_py=$root/scripts/pysolfc-fixture-moves.py
dump_py=$root/scripts/pysolfc-dump-game.py
what=${1:-all}
disp=${FIXTURE_DISPLAY:-:79}
delay=${MOVE_DELAY:-3}

# FreeCell deal 617: fc-solve's (default preset) first 20 moves, the losing move, 2 more.
# N:xy = a move of N cards (standard notation writes it xy).
DEAL=617
PREFIX="8a 8b 8c 87 a2 c2 8d 8h 2a 2c 28 21 c3 a3 2c 26 2:72 8a d8 c8"
LOSING=4c
AFTER="4d 41"
LOSING_STEP=21

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
Xvfb "$disp" -screen 0 1024x768x24 -nolisten tcp >/dev/null 2>&1 &
pids+=($!)
export DISPLAY=$disp
sleep 2
openbox >"$work/openbox.log" 2>&1 &
pids+=($!)
sleep 2

# start PySolFC with HOME=$1, main window title "PySol - $2", args $3..; sets $pid, $win
start_pysol() {
  local home=$1 title=$2
  shift 2
  HOME=$home /usr/games/pysolfc "$@" --nosound --noplugins --french-only --no-games-menu \
    >"$home/pysolfc.log" 2>&1 &
  pid=$!
  pids+=("$pid")
  win=
  for _ in $(seq 1 240); do
    win=$(xdotool search --onlyvisible --name "^PySol - $title\$" 2>/dev/null | head -1 || true)
    [ -n "$win" ] && break
    sleep 1
  done
  [ -n "$win" ] || { echo "no PySolFC window" >&2; exit 1; }
  sleep 15 # let the deal finish
}

click() { # game coordinates -> the canvas (+1+33 in the main window, 10 px margin)
  xdotool mousemove --window "$win" $(($1 + 11)) $(($2 + 43)) click 1
  sleep 1
}

# Ctrl+S; the first save opens Tk's Save As dialog with the default name in savegames/: OK.
save_game() {
  local dlg=
  xdotool key --window "$win" ctrl+s
  for _ in $(seq 1 30); do
    dlg=$(xdotool search --onlyvisible --name '^Save As$' 2>/dev/null | head -1 || true)
    [ -n "$dlg" ] && break
    sleep 1
  done
  [ -n "$dlg" ] || { echo "no Save As dialog" >&2; exit 1; }
  sleep 2
  local w h
  eval "$(xdotool getwindowgeometry --shell "$dlg" | grep -E '^(WIDTH|HEIGHT)=')"
  w=$WIDTH h=$HEIGHT
  xdotool mousemove --window "$dlg" $((w - 57)) $((h - 70)) click 1 # the OK button
  for _ in $(seq 1 30); do
    xdotool search --onlyvisible --name '^Save As$' >/dev/null 2>&1 || break
    sleep 1
  done
  sleep 2
}

wait_exit() {
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || return 0; sleep 1; done
  echo "PySolFC did not quit" >&2
  exit 1
}

new_home() {
  local home=$work/$1
  mkdir -p "$home/.pysolfc"
  cp "$out/seed-options.cfg" "$home/.pysolfc/options.cfg"
  echo "$home"
}

make_freecell() {
  local home board moves
  home=$(new_home freecell)
  board=$home/board.txt
  make-microsoft-freecell-board -t "$DEAL" >"$board"
  moves="$PREFIX $LOSING $AFTER"
  # shellcheck disable=SC2086
  python3 "$moves_py" clicks "$board" $moves >"$home/clicks.txt"
  start_pysol "$home" FreeCell --game FreeCell --deal "ms$DEAL"
  while read -r x1 y1 x2 y2; do
    click "$x1" "$y1"
    click "$x2" "$y2"
    sleep "$delay"
  done <"$home/clicks.txt"
  save_game
  xdotool key --window "$win" ctrl+x
  wait_exit
  cp "$home/.pysolfc/savegames/freecell-ms$DEAL.pso" "$out/saved-$DEAL-lost.pso"
  cp "$home/.pysolfc/holdgame.dat" "$out/holdgame-$DEAL-lost.dat"
  cp "$home/.pysolfc/options.cfg" "$out/holdgame-$DEAL-lost.options.cfg"
  for f in "saved-$DEAL-lost.pso" "holdgame-$DEAL-lost.dat"; do
    /usr/bin/python3 "$dump_py" "$out/$f" >"$out/$f.expected.json"
  done
  # the history PySolFC stored is the moves played, its stacks the simulated position
  # shellcheck disable=SC2086
  python3 "$moves_py" verify "$board" "$out" "$DEAL" "$LOSING_STEP" \
    "saved-$DEAL-lost.pso.expected.json" "holdgame-$DEAL-lost.dat.expected.json" -- $moves
  # shellcheck disable=SC2086
  python3 "$moves_py" check "$board" "$LOSING_STEP" $moves >"$out/lost-$DEAL-fcsolve.txt"
  cat "$out/lost-$DEAL-fcsolve.txt"
}

make_winnable() {
  local home board moves
  home=$(new_home winnable)
  board=$home/board.txt
  make-microsoft-freecell-board -t "$DEAL" >"$board"
  moves=$(echo "$PREFIX" | cut -d' ' -f1-10)
  # shellcheck disable=SC2086
  python3 "$moves_py" clicks "$board" $moves >"$home/clicks.txt"
  start_pysol "$home" FreeCell --game FreeCell --deal "ms$DEAL"
  while read -r x1 y1 x2 y2; do
    click "$x1" "$y1"
    click "$x2" "$y2"
    sleep "$delay"
  done <"$home/clicks.txt"
  xdotool key --window "$win" ctrl+x
  wait_exit
  cp "$home/.pysolfc/holdgame.dat" "$out/holdgame-$DEAL-winnable.dat"
  cp "$home/.pysolfc/options.cfg" "$out/holdgame-$DEAL-winnable.options.cfg"
  /usr/bin/python3 "$dump_py" "$out/holdgame-$DEAL-winnable.dat" \
    >"$out/holdgame-$DEAL-winnable.dat.expected.json"
  # shellcheck disable=SC2086
  python3 "$moves_py" verify "$board" "$out" "$DEAL" 0 \
    "holdgame-$DEAL-winnable.dat.expected.json" -- $moves
  python3 "$moves_py" position "$board" $moves >"$out/holdgame-$DEAL-winnable.position.txt"
}

make_klondike() {
  local home
  home=$(new_home klondike)
  start_pysol "$home" Klondike --game Klondike --deal "ms$DEAL"
  for _ in 1 2 3 4 5; do
    click 42 55 # the talon (Layout.klondikeLayout: XM, YM)
    sleep "$delay"
  done
  save_game
  xdotool key --window "$win" ctrl+q
  wait_exit
  cp "$home/.pysolfc/savegames/klondike-ms$DEAL.pso" "$out/saved-klondike.pso"
  /usr/bin/python3 "$dump_py" "$out/saved-klondike.pso" >"$out/saved-klondike.pso.expected.json"
}

case $what in
  freecell) make_freecell ;;
  winnable) make_winnable ;;
  klondike) make_klondike ;;
  all) make_freecell; make_winnable; make_klondike ;;
  *) echo "usage: $0 [freecell|winnable|klondike|all]" >&2; exit 2 ;;
esac
echo "fixtures written to $out"
