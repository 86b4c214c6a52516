# Cython declarations for rules/changbai/flow.py (see ../../game/engine.pxd): compiled, ChangbaiGame
# is an extension type too, so the engine calls its hooks as C functions.

cimport cython

from mahjong_core._bits cimport mc_held_kinds34, mc_single_kinds34
from mahjong_core.game.engine cimport (Game, _best_discards_m, _shanten_m, _waits_mask_m, counts_t,  # C calls
                                     mc_34_counts)


# C constants
cdef Py_ssize_t _SEVEN_PAIRS, _THIRTEEN_ORPHANS
cdef unsigned long long _ORPHAN_KINDS, _HAS_BELOW_1, _HAS_BELOW_2, _HAS_ABOVE_1, _HAS_ABOVE_2
cdef bint _COMPILED

# 报听's hot path (every turn of every seat): bit masks of the hand's bytearray buffer, in C.
@cython.locals(c=counts_t, t=Py_ssize_t, one="unsigned long long", held="unsigned long long", single="unsigned long long",
               missing="unsigned long long", near="unsigned long long", isolated="unsigned long long")
cpdef bint _may_be_ready(counts, Py_ssize_t n_melds, Py_ssize_t forms) except -1

@cython.locals(n=Py_ssize_t, kind=Py_ssize_t, low=Py_ssize_t)
cpdef Py_ssize_t _meld_copies(list melds, Py_ssize_t t) except -1
@cython.locals(c=counts_t, mask="unsigned long long", t=Py_ssize_t, single=Py_ssize_t, exclude_phantoms=bint)
cpdef Py_ssize_t _ready_wait(counts, Py_ssize_t n_melds, list melds, Py_ssize_t forms, rules) except -2


cdef class ChangbaiGame(Game):
    cdef public object piao
    cdef public object settlement
    cdef public object FORMS  # per game (its rules), shadowing Game's class default
    cdef public object MULTI_WIN  # per game (its rules), shadowing Game's class default
    cdef object __weakref__  # weakly referenceable, as the .py class is

    cpdef _update_waits(self, Py_ssize_t seat)
    @cython.locals(t=Py_ssize_t, melds=Py_ssize_t, forms=Py_ssize_t, mask="unsigned long long")
    cpdef _declare_options(self, Py_ssize_t seat)
    cpdef _self_win_ok(self, Py_ssize_t seat, Py_ssize_t tile)
    cpdef _discard_win_ok(self, Py_ssize_t seat, Py_ssize_t tile, robbing)
    cpdef _settle_exhausted(self)
    cpdef _observed_state(self)
