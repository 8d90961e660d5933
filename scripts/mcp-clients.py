#!/usr/bin/env python3
"""Play deal 617 to a win through `fcauto mcp` with the official MCP Python SDK (PyPI `mcp`
2.x) as the client: in each revision of MCP it speaks (2025-11-25's handshake, `mode="legacy"`;
2026-07-28, stateless, by the `server/discover` probe of `mode="auto"` and pinned), over stdio
and over Streamable HTTP (`fcauto mcp --http 127.0.0.1:0`).

    scripts/mcp-clients.py target/release/fcauto

Each run: the revision the client connected in, the tools with their titles and
annotations, `new_game`, `hint`, `solve`, then `apply_move` for each move of the solution
until the game is won, and `analyze_game` of the game played. Prints one line a run and `N passed, N failed`; exits 1 when a run
failed, 3 when the `mcp` package is missing (scripts/setup-deps.sh installs it).
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import traceback

try:
    from mcp import Client, StdioServerParameters
except ImportError:
    print("mcp-clients: the Python package `mcp` (>= 2) is missing: scripts/setup-deps.sh installs it", file=sys.stderr)
    sys.exit(3)

TOOLS = {"new_game", "legal_moves", "apply_move", "hint", "solve", "verify", "analyze_game", "render_game"}
PURE = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
# mode -> the protocol version the connection must end up in.
MODES = {"legacy": "2025-11-25", "auto": "2026-07-28", "2026-07-28": "2026-07-28"}


def structured(result, tool: str) -> dict:
    if result.is_error:
        raise AssertionError(f"{tool} failed: {result.content}")
    return result.structured_content


async def play(server, mode: str) -> str:
    """One game of deal 617 through the tools; a one-line summary."""
    async with Client(server, mode=mode) as c:
        want = MODES[mode]
        assert c.protocol_version == want, f"connected in {c.protocol_version}, not {want}"
        tools = (await c.list_tools()).tools
        assert {t.name for t in tools} == TOOLS, [t.name for t in tools]
        for t in tools:
            assert t.title, f"{t.name} has no title"
            got = t.annotations.model_dump(by_alias=True, exclude_none=True) if t.annotations else {}
            assert {k: got.get(k) for k in PURE} == PURE, f"{t.name}: {got}"
            assert '"format"' not in str(t.input_schema).replace("'", '"'), f"{t.name}: {t.input_schema}"
        start = structured(await c.call_tool("new_game", {"deal": 617}), "new_game")
        position = start["position"]
        assert start["won"] is False
        hint = structured(await c.call_tool("hint", {"position": position}), "hint")
        solved = structured(await c.call_tool("solve", {"position": position}), "solve")
        assert solved["verdict"] == "solved", solved
        moves = solved["standard"].split()
        assert hint["next"] == moves[0], (hint, moves[0])
        won = False
        for i, mv in enumerate(moves):
            out = structured(await c.call_tool("apply_move", {"position": position, "move": mv}), "apply_move")
            assert out["legal"], f"move {i + 1} {mv}: {out}"
            position, won = out["position"], out["won"]
        assert won, f"not won after {len(moves)} moves: {position}"
        review = structured(
            await c.call_tool("analyze_game", {"position": start["position"], "moves": solved["standard"]}),
            "analyze_game",
        )
        assert review["lost_at"] is None and review["final"]["won"], review
        return f"{c.protocol_version}: deal 617 won in {len(moves)} moves"


def start_http(fcauto: str) -> tuple[subprocess.Popen, str]:
    """`fcauto mcp --http` on a free loopback port, and its endpoint's URL."""
    proc = subprocess.Popen([fcauto, "mcp", "--http", "127.0.0.1:0"], stderr=subprocess.PIPE, text=True)
    for line in proc.stderr:
        m = re.search(r"(http://\S+/mcp)", line)
        if m:
            return proc, m.group(1)
    raise RuntimeError(f"fcauto mcp --http did not say where it listens (exit {proc.wait()})")


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    fcauto = sys.argv[1]
    passed = failed = 0
    proc, url = start_http(fcauto)
    try:
        transports = [("stdio", StdioServerParameters(command=fcauto, args=["mcp"])), ("http", url)]
        for name, server in transports:
            for mode in MODES:
                try:
                    summary = asyncio.run(play(server, mode))
                    print(f"ok   {name:5} mode={mode:10} {summary}")
                    passed += 1
                except Exception:
                    print(f"FAIL {name:5} mode={mode:10}\n{traceback.format_exc()}")
                    failed += 1
    finally:
        proc.terminate()
        proc.wait()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
