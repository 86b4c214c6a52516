# Cython declarations for rules/mcr/flow.py (see ../../game/engine.pxd): compiled, MCRGame
# is an extension type too, so the engine calls its hooks as C functions.

from mahjong_core.game.engine cimport Game


cdef class MCRGame(Game):
    cdef dict __dict__  # the ruleset's own state, as the .py class keeps it
    cdef object __weakref__  # weakly referenceable, as the .py class is

    cpdef _declare_options(self, seat)
    cpdef _self_win_ok(self, seat, tile)
    cpdef _discard_win_ok(self, seat, tile, robbing)
