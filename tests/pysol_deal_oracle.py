#!/usr/bin/python3
"""Print the layout PySolFC deals for (game id, game number), from PySolFC's own code.

Usage: pysol_deal_oracle.py ID:NUMBER ...    (e.g. 9:32000 258:617 8:ms40000)

For each pair, one JSON line: {"pysol_id", "deal", "random", "cascades", "freecells"}, the
cascades each deepest card first, the freecells one entry per reserve (null when empty).

What runs is PySolFC's: the game class from its game database, the class's own createGame
(which makes the game's cascades and reserves), pysolrandom.construct_random (which picks
the Microsoft shuffle or the Mersenne Twister from the number), Game.shuffle (with
ms_rearrange and the game's _shuffleHook), and the class's startGame with the talon's real
dealRow. Only what draws on the screen is replaced: a stack keeps its cards and no canvas
items, cards have no pictures, and a move between stacks moves the card and draws nothing.

PySolFC's package path is $PYSOLFC_DIR, else /usr/share/games/pysolfc (Debian's pysolfc).
"""

import json
import os
import sys

sys.path.insert(0, os.environ.get("PYSOLFC_DIR", "/usr/share/games/pysolfc"))

import pysollib.stack as stack  # noqa: E402
from pysollib.layout import Layout  # noqa: E402
from pysollib.mfxutil import Struct  # noqa: E402


def bare_stack_init(self, x, y, game, cap={}):
    """Stack.__init__ without the canvas: the model half of it."""
    self.id = len(game.allstacks)
    game.allstacks.append(self)
    self.game, self.cards, self.x, self.y = game, [], int(x), int(y)
    self.cap = Struct(suit=-1, color=-1, rank=-1, base_suit=-1, base_color=-1,
                      base_rank=-1, dir=0, mod=8192, max_move=0, max_accept=0,
                      max_cards=999999, min_move=1, min_accept=1, min_cards=0)
    self.cap.update(cap)
    self.INIT_CARD_YOFFSET = self.CARD_YOFFSET = self.CARD_XOFFSET = 0
    self.items = Struct(shade_item=None, bottom=None)
    self.images = Struct(shade_img=None, bottom=None)


stack.Stack.__init__ = bare_stack_init
Layout.defaultAll = lambda self: None
Layout.defaultStackGroups = lambda self: None

from pysollib.gamedb import GAME_DB  # noqa: E402
import pysollib.games  # noqa: E402,F401  (registers the games)
from pysollib.pysolrandom import construct_random  # noqa: E402


class Images:
    CARDW, CARDH, CARD_XOFFSET, CARD_YOFFSET = 71, 96, 0, 25


class App:
    images = Images()

    def getFont(self, name):
        return ("helvetica", 12)


class Canvas:
    xmargin = ymargin = 0


class Card:
    def __init__(self, id, suit, rank):
        self.id, self.suit, self.rank, self.deck = id, suit, rank, 0
        self.face_up = False

    def showBack(self, unhide=1):
        self.face_up = False

    def showFace(self, unhide=1):
        self.face_up = True


def bare_game(gi):
    """An instance of the game's own class with its stacks made by its createGame."""
    class Bare(gi.gameclass):
        def __init__(self):
            self.app, self.canvas, self.preview = App(), Canvas(), 0
            self.allstacks, self.stackmap, self.gameinfo = [], {}, gi
            self.s = Struct(talon=None, waste=None, foundations=[], rows=[],
                            reserves=[], braid=None, internals=[])
            self.sg = Struct(openstacks=[], talonstacks=[], dropstacks=[],
                             reservestacks=[], hp_stacks=[])
            self.moves = Struct(state=0)

        def setSize(self, w, h):
            self.width, self.height = w, h

        def setRegion(self, *a, **k):
            pass

        def startDealSample(self, *a, **k):
            pass

        def stopSamples(self, *a, **k):
            pass

        def flipMove(self, st):
            st.cards[-1].showFace()

        def moveMove(self, n, from_stack, to_stack, frames=-1, shadow=-1):
            moved = from_stack.cards[-n:]
            del from_stack.cards[-n:]
            to_stack.cards.extend(moved)

    game = Bare()
    game.createGame()
    talon = game.s.talon
    talon.addCard = lambda card, update=1: talon.cards.append(card)
    # Game.createCards' order: per deck, per suit, the ranks.
    game.cards = [Card(i, s, r) for i, (s, r) in enumerate(
        (s, r) for s in gi.suits for r in gi.ranks)]
    return game


def deal(game_id, number):
    gi = GAME_DB.get(game_id)
    if gi is None:
        raise SystemExit("PySolFC has no game id %d" % game_id)
    game = bare_game(gi)
    game.random = construct_random(number)
    game.shuffle()
    game.startGame()
    name = lambda c: "A23456789TJQK"[c.rank] + "CSHD"[c.suit]  # noqa: E731
    return {
        "pysol_id": game_id,
        "deal": number,
        "random": type(game.random).__name__,
        "cascades": [[name(c) for c in r.cards] for r in game.s.rows],
        "freecells": [name(r.cards[-1]) if r.cards else None
                      for r in game.s.reserves],
        "foundations": [len(f.cards) for f in game.s.foundations],
    }


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        gid, number = arg.split(":", 1)
        print(json.dumps(deal(int(gid), number)))
