# Cython declarations for engine.py (an augmenting .pxd): compiled, Game is an extension type
# whose state lives in C struct fields, so the engine's own reads and writes of it skip the
# attribute lookup a slot costs (the hot path: every draw, discard and answer). Pure-Python builds
# ignore this file and use Game.__slots__, which lists the same names.

cimport cython

from mahjong_core._bits cimport mc_four_kinds34, mc_held_kinds34
from mahjong_core._core cimport best_discards_of_counts, shanten_of_counts, waits_of_counts

ctypedef const unsigned char* counts_t  # a hand's bytearray buffer, read in place
ctypedef unsigned char* counts_w  # a hand's bytearray buffer, written in place (indices checked first)

# The scalar state (wall positions, phase, seats, tiles, step, flags) is C integers and C booleans:
# the engine's arithmetic and comparisons on it are C operations, and Python code still reads and
# writes it as int / bool through the generated properties (assigning a non-integer raises TypeError).


cdef class Game:
    cdef public object options
    cdef public object rules
    cdef public object space
    cdef public object seed
    cdef public object hand_no
    cdef public object dealer
    cdef public object shuffled
    cdef public object wall
    cdef public Py_ssize_t head
    cdef public Py_ssize_t tail
    cdef public list hands
    cdef public list melds
    cdef public list n_melds
    cdef public list pungs
    cdef public list rivers
    cdef public bytearray _shown  # what each seat shows, as counts (engine.py SHOWN_LAYOUT; the encoder reads it)
    cdef public object flowers
    cdef public object won_tiles
    cdef public list waits
    cdef public list declared
    cdef public list won
    cdef public object winners
    cdef public Py_ssize_t phase
    cdef public Py_ssize_t turn
    cdef public Py_ssize_t drawn
    cdef public bint replacement
    cdef public bint after_kong
    cdef public bint last_four
    cdef public object kept
    cdef public Py_ssize_t discard
    cdef public Py_ssize_t discarder
    cdef public Py_ssize_t kong_seat
    cdef public Py_ssize_t kong_tile
    cdef public Py_ssize_t kongs
    cdef public bint interrupted
    cdef public Py_ssize_t reserve
    cdef public Py_ssize_t forced_last
    cdef public object lock
    cdef public bint declares
    cdef public bint track_waits
    cdef public Py_ssize_t last_draws
    cdef public bint finished
    cdef public bint exhausted
    cdef public object ledger
    cdef public dict _asked  # the question table; None: a plain turn left unbuilt (`_pending` builds it)
    cdef public dict _answers
    cdef public dict _offers
    cdef public Py_ssize_t _next_draw
    cdef public list _actions
    cdef public list _events
    cdef public Py_ssize_t step
    cdef public bint _lazy_turn
    cdef public Py_ssize_t _forms
    cdef public bint _has_chow
    cdef public bint _ask_every_discard

    # The engine's internal steps and the ruleset hooks they call: C calls between compiled methods
    # (a ruleset subclass still overrides a hook with a plain def; cpdef dispatches to it).
    @cython.locals(k=Py_ssize_t, s=Py_ssize_t)
    cpdef _next_seat(self, Py_ssize_t seat)
    cpdef _receive(self, Py_ssize_t seat, tile, event, replacement)
    @cython.locals(w="long long", can_win=bint)
    cpdef _open_turn(self, Py_ssize_t seat, Py_ssize_t tile, replacement)
    cpdef _turn_options(self, Py_ssize_t seat)
    @cython.locals(counts=counts_t, quads="unsigned long long", t=Py_ssize_t)
    cpdef _kong_options(self, Py_ssize_t seat)
    cpdef _after_claim_turn(self, Py_ssize_t seat)
    cpdef _turn_action(self, seat, action)
    # (cdef: C calls only, from `act` and the native loop; no Python-level override to look for)
    @cython.locals(phase=Py_ssize_t)
    cdef int _answer_only(self, Py_ssize_t seat, action, Py_ssize_t uid, pending) except -1
    @cython.locals(seat=Py_ssize_t)
    cdef dict _asked_table(self)
    @cython.locals(asked=dict)
    cpdef long long _answer_seen(self, Py_ssize_t seat, action, Py_ssize_t uid, seen, long long step) except? -2
    @cython.locals(turn=Py_ssize_t)
    cpdef long long _unbuilt_turn(self) except? -2
    cdef bint _answer_one_of(self, seat, action, Py_ssize_t uid, dict pending) except -1
    # The windows' tables are dicts (typed: `.get` and `in` are C dict calls, not method calls).
    cpdef _resolve_window(self, dict pending, dict answers)
    # C integers for the seats and tiles of the two hottest steps: their indexing of the per-seat
    # lists and the hand's bytearray skips converting a Python int at every subscript.
    @cython.locals(o1=Py_ssize_t, o2=Py_ssize_t, o3=Py_ssize_t, nxt=Py_ssize_t, head=Py_ssize_t,
                   drawn=Py_ssize_t, w1="long long", w2="long long", w3="long long", wn="long long",
                   h1=counts_t, h2=counts_t, h3=counts_t, hs=counts_w, hn=counts_w, b=Py_ssize_t, n=Py_ssize_t,
                   shown=bytearray, record=counts_w)
    cpdef _discard_tile(self, Py_ssize_t seat, Py_ssize_t tile, declare)
    @cython.locals(o1=Py_ssize_t, s=Py_ssize_t, count=Py_ssize_t, w="long long", h=counts_t, chows=int, k=int)
    cpdef _open_claims(self, Py_ssize_t discarder, Py_ssize_t tile)
    @cython.locals(winners=list, claimer=Py_ssize_t, chower=Py_ssize_t, discarder=Py_ssize_t, tile=Py_ssize_t)
    cpdef _resolve_claims(self, dict pending, dict answers)
    @cython.locals(order=tuple, winners=list)
    cpdef _resolve_rob(self, dict pending, dict answers)
    @cython.locals(seat=Py_ssize_t, head=Py_ssize_t, left=Py_ssize_t)
    cpdef _run(self)
    # (cpdef: a C call from _observation_fields; the Botzone game's Python override still wins)
    cpdef wall_remaining(self)
    cpdef _observed_state(self)
    cpdef _update_waits(self, Py_ssize_t seat)
    cpdef unsigned long long _discard_mask(self, Py_ssize_t seat) except? 0xFFFFFFFFFFFFFFFF
    @cython.locals(t=Py_ssize_t, k=Py_ssize_t, mask="unsigned long long", out=list)
    cpdef _discard_options(self, Py_ssize_t seat)
    @cython.locals(counts=counts_t, t=Py_ssize_t)
    cpdef bint _may_kong(self, Py_ssize_t seat) except -1
    cpdef _can_claim_tile(self, Py_ssize_t seat, Py_ssize_t tile)
    cpdef _discard_win_ok(self, Py_ssize_t seat, Py_ssize_t tile, robbing)
    cpdef _take_discard(self, Py_ssize_t discarder)
    @cython.locals(river=list, tile=Py_ssize_t, before=Py_ssize_t, b=Py_ssize_t, n=Py_ssize_t, shown=bytearray,
                   record=counts_w)
    cpdef Py_ssize_t _pop_river(self, Py_ssize_t seat) except -1
    cpdef bytearray _shown_record(self)
    cpdef bytearray _reshow(self)
    # (C integers: a claim's arithmetic and the hand's updates without boxing each value)
    cpdef _pung(self, Py_ssize_t seat, Py_ssize_t discarder, Py_ssize_t tile)
    @cython.locals(low=Py_ssize_t, t=Py_ssize_t, b=Py_ssize_t, shown=bytearray)
    cpdef _chow(self, Py_ssize_t seat, Py_ssize_t discarder, Py_ssize_t tile, Py_ssize_t position)
    cpdef _self_win_ok(self, Py_ssize_t seat, Py_ssize_t tile)
    cpdef _declare_options(self, Py_ssize_t seat)
    cpdef _declared_turn(self, seat, tile, can_win)
    cpdef _end(self)
    cpdef _end_exhausted(self)
    cpdef _settle_exhausted(self)
    cpdef _last_draw_action(self, seat, action)
    cpdef _set_aside_flowers(self, seat, tile)
    cpdef _replacement_draw(self, seat)
    cpdef _melded_kong(self, seat, discarder, tile)
    cpdef _concealed_kong(self, seat, tile)
    cpdef _added_kong(self, seat, tile)
    cpdef _complete_added_kong(self, seat, tile)
    cpdef core_melds(self, seat)
    @cython.locals(n=Py_ssize_t, s=Py_ssize_t, kind=Py_ssize_t, t=Py_ssize_t)
    cpdef Py_ssize_t _visible_count(self, Py_ssize_t seat, Py_ssize_t tile) except -1
    @cython.locals(dealer=Py_ssize_t, i=Py_ssize_t, t=Py_ssize_t, hand=counts_w, hands=list)
    cpdef _deal(self)


cpdef _core_meld(meld)

# A mask's set bits, counted and found (the native loop and `_discard_options`): mahjong_core/_bits.pxd
from mahjong_core._bits cimport mc_four_kinds34, mc_lowest_bit64, mc_popcount64

# The core's hot calls as C calls (engine.py, `_waits_mask_m`): `_COMPILED` is set from
# `cython.compiled`, so the pure-Python source takes the Python call.
cdef bint _COMPILED
cdef unsigned long long _C_INVALID  # the C entries' "invalid input": a C compare, no boxing
cdef Py_ssize_t _TURN, _AFTER_CLAIM, _LAST_DRAW  # the hot steps' phases (engine.py)
cdef tuple _DISCARDS  # actions.DISCARD, indexed in C
# `Game._shown`'s layout (engine.py): C integers in the offsets the hot steps compute
cdef Py_ssize_t _SHOWN_RIVER, _SHOWN_CHOW, _SHOWN_PUNG, _SHOWN_KONG, _SHOWN_HIDDEN_KONG, _SHOWN_WON
cdef Py_ssize_t _SHOWN_RIVER_LEN, _SHOWN_LAST, _SHOWN_HIDDEN_KONGS, _SHOWN_STRIDE, _SHOWN_SIZE
cdef tuple _TILE_INTS  # the tiles' Python ints, indexed in C
# The pre-built records of the hot path (engine.py): C-level globals, indexed without a dict lookup.
cdef tuple _DISCARD_EVENTS, _DRAW_EVENTS  # (_ANSWER_IDS stays a module attribute: _selfplay imports it)
cdef extern from *:
    """
    /* `hand` is 34 counts in an exact bytearray or bytes object (engine.py, `_c_input`). */
    static inline int mc_34_counts(PyObject* hand) {
        return (PyByteArray_CheckExact(hand) && PyByteArray_GET_SIZE(hand) == 34)
            || (PyBytes_CheckExact(hand) && PyBytes_GET_SIZE(hand) == 34);
    }
    """
    bint mc_34_counts(object hand) noexcept
cdef inline bint _c_input(hand, int melds)
# The kinds a hand holds (every turn; the rulesets' discard masks too): an engine hand by a vector compare.
@cython.locals(counts=counts_t, held="unsigned long long", one="unsigned long long", t=Py_ssize_t)
cpdef unsigned long long _held_kinds(hand) except? 0xFFFFFFFFFFFFFFFF
@cython.locals(h=counts_t, r=Py_ssize_t, chows=int)
cdef inline int _chows_of(counts_t hand, Py_ssize_t tile) noexcept
@cython.locals(counts=counts_t, w="unsigned long long")
cpdef _waits_mask_m(hand, unsigned forms, int melds)
@cython.locals(counts=counts_t, value=int)
cpdef _shanten_m(hand, unsigned forms, int melds)
@cython.locals(counts=counts_t, packed="unsigned long long")
cpdef tuple _best_discards_m(hand, unsigned forms, int melds)
