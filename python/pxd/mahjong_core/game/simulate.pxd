# Cython declarations for simulate.py (an augmenting .pxd, see engine.pxd): compiled, play_hand's
# loop reads the game's pending table and finished flag as Game struct fields.

cimport cython

# Cimported under another name: cimporting `Game` itself would hide the module's Python-level
# `Game` (from `from .engine import Game`), which the annotations and the API reference resolve.
from mahjong_core.game.engine cimport Game as CompiledGame


@cython.locals(g=CompiledGame, pending=dict, answered=dict)
cpdef play_hand(game, bots)
