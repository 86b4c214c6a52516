# Cython declarations for rules/sichuan/flow.py (see ../../game/engine.pxd): compiled, SichuanGame
# is an extension type too, so the engine calls its hooks as C functions.

cimport cython

from mahjong_core.game.engine cimport Game, _held_kinds, _waits_mask_m, counts_t  # C calls (engine.pxd)


cpdef _score_of(hand, context, void_suit, rules)
# (a C function: the engine passes its own 34-byte hand buffers, read in place)
@cython.locals(c=counts_t, held=Py_ssize_t, k=Py_ssize_t, t=Py_ssize_t)
cdef Py_ssize_t _suits_held(counts) except -1


cdef class SichuanGame(Game):
    cdef public object void
    cdef public object settlement
    cdef public object wall_report
    cdef public object left

    @cython.locals(v=Py_ssize_t, mask="unsigned long long", suit="unsigned long long")
    cpdef _update_waits(self, Py_ssize_t seat)
    @cython.locals(v=Py_ssize_t, held="unsigned long long", mask="unsigned long long", suit="unsigned long long")
    cpdef unsigned long long _discard_mask(self, Py_ssize_t seat) except? 0xFFFFFFFFFFFFFFFF
    cpdef _can_claim_tile(self, Py_ssize_t seat, Py_ssize_t tile)
    cpdef _discard_win_ok(self, Py_ssize_t seat, Py_ssize_t tile, robbing)
    cpdef _settle_exhausted(self)
    cpdef _observed_state(self)
    @cython.locals(t=Py_ssize_t, bits=Py_ssize_t, v=Py_ssize_t,
                   n_melds=Py_ssize_t, written="unsigned char*", one="unsigned long long", kongs="unsigned long long",
                   mask="unsigned long long", std="unsigned long long", outside=bint)
    cpdef _wall_end_checks(self, list in_hand)
