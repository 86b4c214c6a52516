# Cython declarations for bots.py (an augmenting .pxd): GreedyBot's decisions are C functions on C
# integers and a hand's 34 counts as a byte buffer, and its core calls (shanten, waits, best
# discards) are C calls into the core. The native self-play loop (_selfplay.pyx) cimports
# `_greedy_discard`. Every function here is also plain Python in a pure-Python build.

cimport cython

from mahjong_core._core cimport best_discards_of_counts, shanten_of_counts, waits_of_counts
from mahjong_core.game.engine cimport _best_discards_m, _shanten_m, _waits_mask_m

ctypedef unsigned long long mask_t  # a set of tile kinds: bit t for tile t (34 bits)
ctypedef unsigned char* counts_w  # 34 counts, read and written in place (every index a tile 0..33)

cdef bint _COMPILED
cdef mask_t _ALL_KINDS, _C_INVALID
cdef mask_t _GROUP_MASKS[4]
cdef mask_t _DE_BRUIJN, _U64
cdef unsigned char _DE_BRUIJN_INDEX[64]
cdef int _SHANTEN_INVALID

@cython.locals(counts=bytearray, c=counts_w, t=int)
cdef bytearray _counts_arg(hand)
@cython.locals(c=counts_w, bits=mask_t)
cdef int _check_discards(bytearray counts, discards) except -1

@cython.locals(value=int)
cdef int _shanten_of(counts_w h, unsigned forms, int melds) except? -100
@cython.locals(waits=mask_t)
cdef mask_t _waits_of(counts_w h, unsigned forms, int melds) except? 0xFFFFFFFFFFFFFFFF
@cython.locals(packed=mask_t)
cdef mask_t _best_discards_of(counts_w h, unsigned forms, int melds) except? 0xFFFFFFFFFFFFFFFF

@cython.locals(t=int)
cdef int _lowest(mask_t bits) noexcept
@cython.locals(group=mask_t, bits=mask_t)
cdef int _first_by_preference(mask_t mask) except -1
@cython.locals(r=int, n=int, k=int)
cdef bint _isolated(counts_w h, int t) noexcept
@cython.locals(waits=mask_t, value=int)
cdef int _unseen_winning(counts_w h, unsigned forms, int melds) except -1
@cython.locals(packed=mask_t, target=int, legal=mask_t, one=mask_t, bits=mask_t, group=mask_t, t=int, after=int,
               best=int, best_value=int, value=int)
cdef (int, int) _discard_search(counts_w h, mask_t discards, int melds, unsigned forms) except *
@cython.locals(was=int, same=bint, tile=int, target=int)
cdef int _greedy_discard(bot, game, seat, mask_t discards, counts_w h, int melds, unsigned forms,
                         int drawn) except? -2

@cython.locals(suit=Py_ssize_t, n=Py_ssize_t, t=Py_ssize_t, key=Py_ssize_t, best_key=Py_ssize_t)
cdef object _greedy_void(actions, counts_w h)
cdef int _take(counts_w h, Py_ssize_t t, int n) except -1
@cython.locals(best_shanten=int, after=int, low=Py_ssize_t, t=Py_ssize_t)
cdef object _greedy_claim(actions, Py_ssize_t tile, counts_w h, int melds, unsigned forms)
