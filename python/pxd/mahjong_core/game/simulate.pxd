# Cython declarations for simulate.py (an augmenting .pxd, see engine.pxd): compiled, play_hand's
# loop reads the game's pending table and finished flag as Game struct fields.

cimport cython

from mahjong_core.game.engine cimport Game


@cython.locals(g=Game, pending=dict, answered=dict)
cpdef play_hand(game, bots)
