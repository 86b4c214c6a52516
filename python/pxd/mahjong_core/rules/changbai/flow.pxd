# Cython declarations for rules/changbai/flow.py (see ../../game/engine.pxd): compiled, ChangbaiGame
# is an extension type too, so the engine calls its hooks as C functions.

from mahjong_core.game.engine cimport Game, _shanten_m  # C calls (engine.pxd)


cdef class ChangbaiGame(Game):
    cdef public object piao
    cdef public object settlement
    cdef public object FORMS  # per game (its rules), shadowing Game's class default
    cdef public object MULTI_WIN  # per game (its rules), shadowing Game's class default
    cdef object __weakref__  # weakly referenceable, as the .py class is

    cpdef _update_waits(self, Py_ssize_t seat)
    cpdef _declare_options(self, Py_ssize_t seat)
    cpdef _self_win_ok(self, Py_ssize_t seat, Py_ssize_t tile)
    cpdef _discard_win_ok(self, Py_ssize_t seat, Py_ssize_t tile, robbing)
    cpdef _settle_exhausted(self)
