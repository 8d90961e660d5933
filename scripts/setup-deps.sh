#!/usr/bin/env bash
# Idempotent installer for what fcauto's tests and GUI replay need on Debian 12 (bookworm).
#
#   scripts/setup-deps.sh            # reference solver freecell-solver-bin, and the DejaVu
#                                    #   font PNG pictures are drawn with (fonts-dejavu-core)
#   scripts/setup-deps.sh --gui      # + Xvfb, openbox, tesseract, xdotool, -dev libs, PySolFC
#   scripts/setup-deps.sh --slurm    # + a real single-node Slurm (slurm-wlm, munge) for
#                                    #   scripts/slurm/selftest.sh, and sqlite3 to look into results
#   scripts/setup-deps.sh --browser  # + chromium, for the replay page's headless browser test
#   scripts/setup-deps.sh --mcp      # + the official MCP Python SDK (PyPI `mcp` 2.x) in a venv
#                                    #   ($FCAUTO_MCP_VENV, default ~/.cache/fcauto/mcp-venv), the
#                                    #   client of scripts/mcp-clients.py (tests/cli/mcp_clients.rs)
#   (flags combine: --gui --slurm --browser --mcp)
#
# PySolFC is not in bookworm: the trixie suite is added by copying this machine's own
# Debian apt source entry with the suite renamed, pinned at priority 100 so nothing else
# is upgraded from it, and only pysolfc + python3-pysol-cards are taken from it.
set -euo pipefail

want_gui=0
want_slurm=0
want_browser=0
want_mcp=0
for arg in "$@"; do
  case "$arg" in
    --gui) want_gui=1 ;;
    --slurm) want_slurm=1 ;;
    --browser) want_browser=1 ;;
    --mcp) want_mcp=1 ;;
    -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) echo "setup-deps: unknown option '$arg' (expected --gui, --slurm, --browser and/or --mcp)" >&2; exit 2 ;;
  esac
done

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi

missing=()
need() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed" || missing+=("$1"); }

need freecell-solver-bin
need fonts-dejavu-core
if (( want_browser )); then
  need chromium
fi
if (( want_gui )); then
  for p in xvfb openbox xdotool tesseract-ocr tesseract-ocr-eng libtesseract-dev libleptonica-dev \
           libclang-dev pkg-config libwayland-dev libpipewire-0.3-dev libdbus-1-dev \
           libxcb-randr0-dev libxcb-shm0-dev libegl-dev libgbm-dev libxdo-dev libxkbcommon-dev \
           x11-utils imagemagick fonts-dejavu-core; do
    need "$p"
  done
fi
if (( want_slurm )); then
  for p in slurm-wlm munge sqlite3 fonts-dejavu-core; do
    need "$p"
  done
fi

updated=0
apt_update() { (( updated )) || { $SUDO apt-get update -qq; updated=1; }; }

if (( ${#missing[@]} )); then
  apt_update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if (( want_gui )) && [[ ! -x /usr/games/pysolfc ]]; then
  src=/etc/apt/sources.list.d/debian.sources
  trixie=/etc/apt/sources.list.d/fcauto-trixie.sources
  if [[ ! -f "$trixie" ]]; then
    if [[ -f "$src" ]]; then
      # First stanza of the machine's own Debian entry, suites renamed to trixie.
      awk 'BEGIN{RS="";ORS="\n\n"} NR==1' "$src" \
        | sed -E 's/^Suites:.*/Suites: trixie/' | grep -v '^#' | $SUDO tee "$trixie" >/dev/null
    elif [[ -f /etc/apt/sources.list ]]; then
      grep -E '^deb .* bookworm( |$)' /etc/apt/sources.list | head -n1 \
        | sed -E 's/ bookworm( |$)/ trixie\1/' | $SUDO tee /etc/apt/sources.list.d/fcauto-trixie.list >/dev/null
    else
      echo "setup-deps: no Debian apt source entry found to copy for trixie" >&2; exit 1
    fi
    printf 'Package: *\nPin: release n=trixie\nPin-Priority: 100\n' \
      | $SUDO tee /etc/apt/preferences.d/fcauto-trixie-pin >/dev/null
    updated=0
  fi
  apt_update
  # `pkg/trixie` takes just these two (architecture-independent) packages from trixie and
  # their dependencies from bookworm. (`-t trixie` would raise all of trixie to priority 990
  # for this install and pull in trixie's libc6 and python3: seen here, avoided.)
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    pysolfc/trixie python3-pysol-cards/trixie
fi
if (( want_mcp )); then
  # The MCP Python SDK in a venv of its own (PyPI packages never go into the system's
  # Python). A venv whose `mcp` imports is kept.
  venv=${FCAUTO_MCP_VENV:-$HOME/.cache/fcauto/mcp-venv}
  if ! "$venv/bin/python" -c 'import mcp' 2>/dev/null; then
    if ! python3 -m venv "$venv" 2>/dev/null; then
      apt_update
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-venv
      python3 -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install -q 'mcp>=2,<3'
  fi
  # The MCP Inspector's CLI on node 22 (npm's `node@22`; Debian's node is 20), for the
  # `--app-info` check of the board view (tests/cli/mcp_app.rs). An install that runs is kept.
  inspector=${FCAUTO_MCP_INSPECTOR:-$HOME/.cache/fcauto/mcp-node}
  if [[ ! -x "$inspector/node_modules/.bin/mcp-inspector" || ! -x "$inspector/node_modules/.bin/node" ]]; then
    command -v npm >/dev/null || { apt_update; DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm; }
    mkdir -p "$inspector"
    [[ -f "$inspector/package.json" ]] || echo '{"private": true}' >"$inspector/package.json"
    (cd "$inspector" && npm install --no-audit --no-fund --silent node@22 '@modelcontextprotocol/inspector@2')
  fi
fi
echo "setup-deps: ok"
