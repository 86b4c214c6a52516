# Cython declarations for rules/mcr/flow.py (see ../../game/engine.pxd): compiled, MCRGame
# is an extension type too, so the engine calls its hooks as C functions.

cimport cython

from mahjong_core.game.engine cimport Game, _shanten_m, _waits_mask_m, counts_w  # C calls (engine.pxd)


cdef class MCRGame(Game):
    cdef public object _pass_declared
    cdef public object mcr
    cdef public object prevalent_wind
    cdef public object MULTI_WIN  # per game (its rules), shadowing Game's class default
    cdef object __weakref__  # weakly referenceable, as the .py class is

    @cython.locals(dealer=Py_ssize_t, i=Py_ssize_t, t=Py_ssize_t, seat=Py_ssize_t, hand=counts_w, hands=list)
    cpdef _deal(self)
    cpdef _declare_options(self, Py_ssize_t seat)
    cpdef _self_win_ok(self, Py_ssize_t seat, Py_ssize_t tile)
    cpdef _discard_win_ok(self, Py_ssize_t seat, Py_ssize_t tile, robbing)
    cpdef _observed_state(self)
