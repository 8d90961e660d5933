#!/usr/bin/python3
"""Dump a PySolFC saved game (File > Save, *.pso) or held game (holdgame.dat) as JSON,
read by PySolFC's own code: its unpickler (`pysollib.game._alt_unpickler`, so every class is
PySolFC's own) and the pickle sequence and checks of `Game._undumpGame`
(pysollib/game/__init__.py, PySolFC 3.2), without starting the Tk application.

Usage: pysolfc-dump-game.py FILE [> FILE.expected.json]

Needs the Debian packages pysolfc and python3-pysol-cards (run with the system python3,
/usr/bin/python3, which has pysol_cards). Used to write the `*.expected.json` files of
tests/fixtures/pysolfc/ that fcauto's pickle decoder is tested against.

The JSON: package, version, version_tuple, bookmark, game_version, game_id, game_name,
seed (the integer pickled and PySolFC's string of it, e.g. "ms617"), random_state, stacks
(each: id, name where known, cards bottom to top with PySolFC's card id, face_up and the
card as rank+suit, e.g. "TD"), talon_round, finished, saveinfo, gsaveinfo, moves (index,
state, history: one entry per player move, each a list of atomic moves with their class
name and fields, e.g. AMoveMove ncards/from_stack_id/to_stack_id; `current`), snapshots,
gstats, stats, and for FreeCell `freecell_moves`: each history entry's AMoveMove in
standard notation (cascades 1-8, free cells a-d, h = foundation).
"""
import json
import sys

PYSOL_DIR = "/usr/share/games/pysolfc"
sys.path.insert(0, PYSOL_DIR)

from pysol_cards.random import random__int2str  # noqa: E402
from pysollib.game import (  # noqa: E402
    GameGlobalSaveInfo,
    GameGlobalStatsStruct,
    GameMoves,
    GameSaveInfo,
    GameStatsStruct,
    _alt_unpickler,
    _Game_LOAD_CLASSES,
)
from pysollib.mfxutil import Struct  # noqa: E402
from pysollib.settings import PACKAGE  # noqa: E402

RANKS = "A23456789TJQK"
SUITS = "CSHD"  # PySolFC's suit order 0..3 (Game.createCards)
FREECELL_ID = 8


def card_name(card_id):
    """A French 52-card deck's card id (suit-major C, S, H, D; ranks A..K)."""
    return RANKS[card_id % 13] + SUITS[(card_id // 13) % 4]


def freecell_stack_names():
    """FreeCell.createGame's stack order: talon, foundations (C S H D), rows, reserves."""
    return (["talon"] + [f"foundation {s}" for s in SUITS] +
            [f"cascade {i}" for i in range(1, 9)] +
            [f"freecell {c}" for c in "abcd"])


def freecell_loc(stack_id):
    """Standard notation of a FreeCell stack id."""
    if 1 <= stack_id <= 4:
        return "h"
    if 5 <= stack_id <= 12:
        return str(stack_id - 4)
    if 13 <= stack_id <= 16:
        return "abcd"[stack_id - 13]
    raise ValueError(f"stack id {stack_id} is not a FreeCell play stack")


def plain(obj):
    """Any unpickled value as JSON: objects as their class name plus their fields."""
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, (list, tuple)):
        return [plain(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): plain(v) for k, v in obj.items()}
    if isinstance(obj, bytes):
        return obj.hex()
    if hasattr(obj, "__dict__"):
        d = {"class": type(obj).__name__}
        d.update({k: plain(v) for k, v in vars(obj).items()})
        return d
    return repr(obj)


class Invalid(Exception):
    pass


def undump(f):
    """Game._undumpGame's sequence of pickles and checks, the Game object left out."""
    p = _alt_unpickler(f)

    def pload(t=None):
        obj = p.load()
        if isinstance(t, type) and not isinstance(obj, t):
            if not (t in _Game_LOAD_CLASSES and isinstance(obj, Struct)):
                raise Invalid(f"expected {t.__name__}, found {type(obj).__name__}")
        return obj

    def validate(ok, what):
        if not ok:
            raise Invalid(what)

    out = {}
    out["package"] = pload(str)
    validate(out["package"] == PACKAGE, f"package {out['package']!r} is not {PACKAGE!r}")
    out["version"] = pload(str)
    version_tuple = pload(tuple)
    validate(version_tuple >= (1, 0), f"version {version_tuple}")
    p.set_version(version_tuple)
    out["version_tuple"] = list(version_tuple)
    bookmark = pload(int)
    validate(0 <= bookmark <= 2, f"bookmark {bookmark}")
    out["bookmark"] = bookmark
    out["game_version"] = pload(int)
    game_id = pload(int)
    validate(game_id > 0, f"game id {game_id}")
    out["game_id"] = game_id
    seed = pload(int)
    # the pickled integer as a decimal string (it can exceed 64 bits: ms deals are offset)
    out["seed"] = {"pickled": str(seed), "string": random__int2str(seed)}
    out["random_state"] = plain(pload())
    nstacks = pload(int)
    validate(nstacks >= 1, f"{nstacks} stacks")
    names = freecell_stack_names() if game_id == FREECELL_ID else []
    stacks, ncards = [], 0
    for i in range(nstacks):
        n = pload(int)
        validate(0 <= n <= 1024, f"stack {i}: {n} cards")
        cards = []
        for _ in range(n):
            cid = pload(int)
            face_up = pload(int)
            cards.append({"id": cid, "face_up": face_up, "card": card_name(cid)})
        stacks.append({"id": i, "name": names[i] if i < len(names) else None, "cards": cards})
        ncards += n
    out["stacks"] = stacks
    out["ncards"] = ncards
    out["talon_round"] = plain(pload())
    out["finished"] = plain(pload())
    if 0 <= bookmark <= 1:
        out["saveinfo"] = plain(pload(GameSaveInfo))
        out["gsaveinfo"] = plain(pload(GameGlobalSaveInfo))
    moves = pload(GameMoves)
    out["moves"] = plain(moves)
    out["snapshots"] = plain(pload(list))
    if 0 <= bookmark <= 1:
        out["gstats"] = plain(pload(GameGlobalStatsStruct))
        out["stats"] = plain(pload(GameStatsStruct))
    # FreeCell has no _loadGameHook data
    eof = pload(str)
    validate(eof == "EOF", f"end marker {eof!r} is not 'EOF'")
    trailing = f.read()
    out["trailing_bytes"] = len(trailing)
    if game_id == FREECELL_ID:
        std = []
        for entry in moves.history[:moves.index]:
            for am in entry:
                if type(am).__name__ == "AMoveMove":
                    a, b = freecell_loc(am.from_stack_id), freecell_loc(am.to_stack_id)
                    std.append({"move": a + b, "ncards": am.ncards})
        out["freecell_moves"] = std
    return out


def game_name(game_id):
    """The game's name from PySolFC's registry (None if it cannot be loaded headless)."""
    try:
        from pysollib.gamedb import GAME_DB
        import pysollib.games  # noqa: F401  (registers FreeCell, Klondike, ...)
        gi = GAME_DB.get(game_id)
        return gi.name if gi else None
    except Exception:
        return None


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: pysolfc-dump-game.py FILE")
    with open(sys.argv[1], "rb") as f:
        try:
            out = undump(f)
        except Invalid as e:
            sys.exit(f"{sys.argv[1]}: invalid PySolFC saved game: {e}")
    out["game_name"] = game_name(out["game_id"])
    print(json.dumps(out, indent=1, sort_keys=False))


if __name__ == "__main__":
    main()
