#!/usr/bin/env python3
"""Helpers for scripts/make-pysolfc-fixtures.sh: a small FreeCell board simulator (standard
notation), PySolFC 3.2 click points for point-n-click play, and the fc-solve checks of a
losing move.

  pysolfc-fixture-moves.py clicks BOARD MOVE...      one line per move: "x1 y1 x2 y2"
                                                     (game coordinates, Standard cardset)
  pysolfc-fixture-moves.py position BOARD MOVE...    fc-solve board text after the moves
  pysolfc-fixture-moves.py check BOARD K MOVE...     fc-solve before move K (1-based) and the
                                                     exhaustive atomic scan after it
  pysolfc-fixture-moves.py verify BOARD DIR DEAL K JSON... -- MOVE...
                                                     check each dumped game (DIR/JSON) against
                                                     the moves and their simulated position;
                                                     write DIR/lost-DEAL.json (if K > 0)
  pysolfc-fixture-moves.py find BOARD SOLUTION       losing single moves off fc-solve's
                                                     solution (screening, capped scans)

Moves are standard notation: cascades 1-8, free cells a-d, h = foundation; a move of N > 1
cards is written "N:xy" here (e.g. 2:72), since the notation itself leaves the count out.
Layout: PySolFC 3.2 Layout.freeCellLayout, Standard cardset (71x96) at scale 1: rows at
x = 46 + 78*i, y = 115; free cells x = 7 + 78*j; foundations x = 397 + 78*f in the order
clubs, spades, hearts, diamonds; y = 7; 18 px per covered card.
Only for making test fixtures.
"""
import re
import subprocess
import sys

SUITS = "CSHD"  # PySolFC foundation order, left to right
RANKS = "A23456789TJQK"


def rank(c):
    return RANKS.index(c[0]) + 1


def red(c):
    return c[1] in "HD"


def parse_move(mv):
    m = re.fullmatch(r"(?:(\d+):)?([1-8a-d])([1-8a-dh])", mv)
    if not m:
        sys.exit(f"bad move {mv!r}")
    return int(m.group(1) or 1), m.group(2), m.group(3)


class Board:
    def __init__(self, text):
        self.cols = [line.split() for line in text.splitlines() if line.strip()]
        assert len(self.cols) == 8, "8 cascade lines expected"
        self.cells = [None] * 4
        self.found = {s: 0 for s in SUITS}

    def copy(self):
        b = Board.__new__(Board)
        b.cols = [list(c) for c in self.cols]
        b.cells = list(self.cells)
        b.found = dict(self.found)
        return b

    def fcs_text(self):
        f = "Foundations: " + " ".join(
            f"{s}-{RANKS[self.found[s] - 1] if self.found[s] else 0}" for s in "HCDS")
        c = "Freecells: " + " ".join(x or "-" for x in self.cells)
        return "\n".join([f, c] + [": " + " ".join(col) for col in self.cols]) + "\n"

    def can_stack(self, card, onto):
        return rank(onto) == rank(card) + 1 and red(onto) != red(card)

    def max_move(self, to_empty):
        fc = self.cells.count(None)
        ec = sum(1 for c in self.cols if not c) - (1 if to_empty else 0)
        return (fc + 1) << max(ec, 0)

    def apply(self, mv):
        n, src, dst = parse_move(mv)
        if src.isdigit():
            col = self.cols[int(src) - 1]
            assert len(col) >= n, mv
            cards = col[-n:]
            for a, b in zip(cards, cards[1:]):
                assert self.can_stack(b, a), mv
        else:
            c = self.cells["abcd".index(src)]
            assert n == 1 and c, mv
            cards = [c]
        if dst == "h":
            assert n == 1 and self.found[cards[0][1]] == rank(cards[0]) - 1, mv
            self.found[cards[0][1]] += 1
        elif dst in "abcd":
            assert n == 1 and self.cells["abcd".index(dst)] is None, mv
            self.cells["abcd".index(dst)] = cards[0]
        else:
            d = self.cols[int(dst) - 1]
            assert not d or self.can_stack(cards[0], d[-1]), mv
            assert n <= self.max_move(not d), mv
            d.extend(cards)
        if src.isdigit():
            del self.cols[int(src) - 1][-n:]
        else:
            self.cells["abcd".index(src)] = None
        return cards[0]

    def won(self):
        return all(v == 13 for v in self.found.values())

    # click points, game coordinates
    def card_point(self, i, k):
        top = k == len(self.cols[i]) - 1
        return 46 + 78 * i + 35, 115 + 18 * k + (48 if top else 9)

    def dest_point(self, dst, card):
        if dst == "h":
            return 397 + 78 * SUITS.index(card[1]) + 35, 7 + 48
        if dst in "abcd":
            return 7 + 78 * "abcd".index(dst) + 35, 7 + 48
        i = int(dst) - 1
        if self.cols[i]:
            return self.card_point(i, len(self.cols[i]) - 1)
        return 46 + 78 * i + 35, 115 + 48

    def clicks(self, mv):
        n, src, dst = parse_move(mv)
        if src.isdigit():
            i = int(src) - 1
            a = self.card_point(i, len(self.cols[i]) - n)
            card = self.cols[i][-n]
        else:
            a = (7 + 78 * "abcd".index(src) + 35, 7 + 48)
            card = self.cells["abcd".index(src)]
        b = self.dest_point(dst, card)
        self.apply(mv)
        return a + b


def fcs_moves(text):
    """fc-solve -m output as moves here (N:xy for N > 1 cards)."""
    out = []
    for line in text.splitlines():
        m = re.match(r"Move (\d+) cards from stack (\d) to stack (\d)", line)
        if m:
            n, a, b = map(int, m.groups())
            out.append((f"{n}:" if n > 1 else "") + f"{a + 1}{b + 1}")
            continue
        m = re.match(r"Move a card from stack (\d) to freecell (\d)", line)
        if m:
            out.append(f"{int(m[1]) + 1}{'abcd'[int(m[2])]}")
            continue
        m = re.match(r"Move a card from freecell (\d) to stack (\d)", line)
        if m:
            out.append(f"{'abcd'[int(m[1])]}{int(m[2]) + 1}")
            continue
        m = re.match(r"Move a card from stack (\d) to the foundations", line)
        if m:
            out.append(f"{int(m[1]) + 1}h")
            continue
        m = re.match(r"Move a card from freecell (\d) to the foundations", line)
        if m:
            out.append(f"{'abcd'[int(m[1])]}h")
            continue
        assert not line.startswith("Move"), line
    return out


# fc-solve's default preset finds solutions; the exhaustive check is soft-DFS over fc-solve's
# atomic moves only (0 1: to the foundations, A-E: single cards between cascades and free
# cells), which reach every position FreeCell's moves reach, with no iteration limit.
SOLVE = ["fc-solve"]
EXHAUSTIVE = ["fc-solve", "--method", "soft-dfs", "-to", "01ABCDE"]


def fc_solve(board, args, max_iters=None):
    cmd = list(args) + (["-mi", str(max_iters)] if max_iters else []) + ["-m", "-"]
    p = subprocess.run(cmd, input=board.fcs_text(), capture_output=True, text=True,
                       env={"FREECELL_SOLVER_QUIET": "1", "PATH": "/usr/bin:/bin"})
    out = p.stdout
    if "This game is solveable." in out:
        v = "solved"
    elif "I could not solve this game." in out:
        v = "unsolvable"
    elif "Iterations count exceeded" in out:
        v = "limit"
    else:
        v = "?"
    return v, out, cmd


def candidates(p):
    out = []
    for i, col in enumerate(p.cols):
        if not col:
            continue
        if None in p.cells:
            out.append(f"{i + 1}{'abcd'[p.cells.index(None)]}")
        for j, d in enumerate(p.cols):
            if j != i and ((d and p.can_stack(col[-1], d[-1])) or (not d and len(col) > 1)):
                out.append(f"{i + 1}{j + 1}")
    for c, x in enumerate(p.cells):
        if x:
            for j, d in enumerate(p.cols):
                if not d or p.can_stack(x, d[-1]):
                    out.append(f"{'abcd'[c]}{j + 1}")
    return out


def verify(board, args):
    import json
    import os
    sep = args.index("--")
    out, deal, k, files, moves = args[0], int(args[1]), int(args[2]), args[3:sep], args[sep + 1:]
    start = board.copy()
    for mv in moves:
        board.apply(mv)
    want_moves = [{"move": parse_move(m)[1] + parse_move(m)[2], "ncards": parse_move(m)[0]}
                  for m in moves]
    for name in files:
        d = json.load(open(os.path.join(out, name)))
        assert d["game_id"] == 8 and d["seed"]["string"] == f"ms{deal}", name
        got = d["freecell_moves"]
        if got != want_moves:
            sys.exit(f"{name}: PySolFC's history {got} is not the moves played {want_moves}")
        st = {s["name"]: [c["card"] for c in s["cards"]] for s in d["stacks"]}
        cols = [st[f"cascade {i}"] for i in range(1, 9)]
        cells = [(st[f"freecell {c}"] or [None])[0] for c in "abcd"]
        found = {s: len(st[f"foundation {s}"]) for s in SUITS}
        if (cols, cells, found) != (board.cols, board.cells, board.found):
            sys.exit(f"{name}: PySolFC's stacks are not the simulated position")
        print(f"{name}: {len(got)} moves and the final position as played")
    if k <= 0:  # no losing step: nothing more to write
        return
    lost = {
        "deal": deal,
        "board": [" ".join(c) for c in start.cols],
        "moves": [parse_move(m)[1] + parse_move(m)[2] for m in moves],
        "cards_moved": [parse_move(m)[0] for m in moves],
        "losing_step": k,
        "losing_move": parse_move(moves[k - 1])[1] + parse_move(moves[k - 1])[2],
        "final_position": board.fcs_text().splitlines(),
        "files": files,
    }
    with open(os.path.join(out, f"lost-{deal}.json"), "w") as f:
        json.dump(lost, f, indent=1)
        f.write("\n")


def main():
    cmd, board = sys.argv[1], Board(open(sys.argv[2]).read())
    if cmd == "clicks":
        for mv in sys.argv[3:]:
            print(*board.clicks(mv))
    elif cmd == "position":
        for mv in sys.argv[3:]:
            board.apply(mv)
        sys.stdout.write(board.fcs_text())
    elif cmd == "check":
        k, moves = int(sys.argv[3]), sys.argv[4:]
        for mv in moves[:k - 1]:
            board.apply(mv)
        before = board.copy()
        board.apply(moves[k - 1])
        for name, pos, args in (("before", before, SOLVE), ("after", board, EXHAUSTIVE)):
            v, out, c = fc_solve(pos, args)
            tail = [line for line in out.splitlines() if line.startswith(("This game", "I could",
                                                                        "Total number"))]
            print(f"## position {name} move {k} ({moves[k - 1]})\n{pos.fcs_text()}"
                  f"$ {' '.join(c)} < position\n" + "\n".join(tail) + f"\n=> {v}\n")
    elif cmd == "verify":
        verify(board, sys.argv[3:])
    elif cmd == "find":
        sol = fcs_moves(open(sys.argv[3]).read())
        pos = [board.copy()]
        for mv in sol:
            board.apply(mv)
            pos.append(board.copy())
        for k in range(len(sol) - 1, 0, -1):
            for mv in candidates(pos[k]):
                q = pos[k].copy()
                q.apply(mv)
                v = fc_solve(q, EXHAUSTIVE, 300000)[0]
                if v != "solved":
                    print(k, mv, v, flush=True)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
