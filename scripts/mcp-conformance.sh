#!/usr/bin/env bash
# The official MCP conformance suite (npm `@modelcontextprotocol/conformance`, on node 22 from
# the npm package `node@22`) against `fcauto mcp --http` on a free loopback port: the
# `server-stateless` scenario (MCP 2026-07-28). Passes when every check passes or is skipped,
# except those the suite itself reports as "Not testable" (they need diagnostic tools such as
# `test_missing_capability` that a real server does not list).
#
#   scripts/mcp-conformance.sh [path/to/fcauto]      # default target/release/fcauto
#
# The suite is installed once into $FCAUTO_MCP_CONFORMANCE_DIR (default
# ~/.cache/fcauto/mcp-conformance); its results go to that directory's out/.
set -euo pipefail
# -h, --help: print the comment above and do nothing else (the script installs and builds).
case "${1:-}" in -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."

fcauto=${1:-target/release/fcauto}
dir=${FCAUTO_MCP_CONFORMANCE_DIR:-$HOME/.cache/fcauto/mcp-conformance}
suite_version=0.2.0-alpha.12
command -v npm >/dev/null || { echo "mcp-conformance: npm not found (Debian: apt-get install npm)" >&2; exit 1; }
mkdir -p "$dir"
if [[ ! -x "$dir/node_modules/.bin/conformance" || ! -x "$dir/node_modules/.bin/node" ]]; then
  [[ -f "$dir/package.json" ]] || echo '{"private": true}' >"$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --silent node@22 "@modelcontextprotocol/conformance@$suite_version")
fi
node="$dir/node_modules/.bin/node"

log=$(mktemp)
"$fcauto" mcp --http 127.0.0.1:0 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$log"' EXIT
url=""
for _ in $(seq 50); do
  url=$(grep -o 'http://[^ ]*/mcp' "$log" || true)
  [[ -n $url ]] && break
  sleep 0.1
done
[[ -n $url ]] || { echo "mcp-conformance: fcauto mcp --http did not start: $(cat "$log")" >&2; exit 1; }

rm -rf "$dir/out"
PATH="$dir/node_modules/.bin:$PATH" "$node" "$dir/node_modules/.bin/conformance" server \
  --url "$url" --scenario server-stateless -o "$dir/out" >"$dir/run.txt" 2>&1 || true
checks=$(ls "$dir"/out/*/checks.json 2>/dev/null | head -1)
[[ -n $checks ]] || { echo "mcp-conformance: the suite wrote no results:" >&2; tail -20 "$dir/run.txt" >&2; exit 1; }
python3 - "$checks" <<'EOF'
import json, sys
from collections import Counter
checks = json.load(open(sys.argv[1]))
count = Counter(c["status"] for c in checks)
untestable = [c for c in checks if c["status"] == "FAILURE" and "Not testable" in (c.get("errorMessage") or "")]
failed = [c for c in checks if c["status"] == "FAILURE" and c not in untestable]
for c in failed:
    print(f"FAIL {c['id']}: {c.get('errorMessage')}")
print(f"mcp-conformance server-stateless: {count['SUCCESS']} succeeded, {count['SKIPPED']} skipped, "
      f"{len(untestable)} not testable (the suite's diagnostic tools), {len(failed)} failed")
print(f"{count['SUCCESS']} passed, {len(failed)} failed, {count['SKIPPED'] + len(untestable)} skipped")
sys.exit(1 if failed else 0)
EOF
