# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Native observation encoder and legal-action mask (see docs/OBSERVATION.md and `layout.py`), and
the compiled step loop of `VectorEnv` (`StepKernel`).

Hot path: one call per decision of every learning environment, so it reads the engine's lists and
tuples with C-level indexing and writes into the caller's buffer without allocating. It reads only the
*observation source* attributes listed in `SOURCE_ATTRIBUTES` — a `Game` has them all, and so must any
other source (the Botzone kit's `BotzoneState`). Of another seat it reads only what that seat shows.
"""

from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE
from cpython.buffer cimport PyBUF_FORMAT, PyBUF_ND, PyBUF_STRIDES, PyBUF_WRITABLE, PyBuffer_Release
from cpython.bytes cimport PyBytes_AS_STRING
from cpython.exc cimport PyErr_Clear
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.number cimport PyNumber_Index
from cpython.object cimport PyObject
from libc.string cimport memcpy, memset

from mahjong_core._bits cimport mc_kth_bit64, mc_lowest_bit64, mc_popcount64

from mahjong_core.errors import IllegalActionError, InvalidArgumentError, InvalidTypeError
from mahjong_core.game.registry import check_ruleset


#: The attributes `encode` reads (docs/OBSERVATION.md, "Sources").
SOURCE_ATTRIBUTES = (
    "ruleset", "hands", "melds", "rivers", "flowers", "won_tiles", "won", "declared", "dealer", "turn",
    "phase", "drawn", "discard", "discarder", "kong_tile", "wall_remaining()",
    # ruleset state (only the ruleset's own is read): Sichuan void, Changbai piao, MCR prevalent_wind
)

# layout constants (kept equal to layout.py; tests/test_env_encode.py checks)
cdef enum:
    HAND = 0
    DRAWN = 4
    SEAT_BASE = 5
    SEAT_PLANES = 10
    UNSEEN = 45
    VISIBLE = 49
    LAST_DISCARD = 53
    KONG_TILE = 54
    SEAT_WIND = 55
    PREVALENT_WIND = 56
    INFO = 57
    WALL = 58
    WALL_END = 59
    RULESET_BASE = 60

# `Game._shown`'s layout (mahjong_core.game.engine.SHOWN_LAYOUT; checked at import below): what
# each seat shows, as counts — the form the encoder reads every source in. C defines (the extern
# block below), so that its C helpers and this code read the one layout.
cdef extern from *:
    """
    #define SHOWN_RIVER 0           /* 34 counts: the seat's river */
    #define SHOWN_CHOW 34           /* 34 counts: its chows holding each kind */
    #define SHOWN_PUNG 68           /* 34 flags: its pungs */
    #define SHOWN_KONG 102          /* 34 flags: its melded and added kongs */
    #define SHOWN_HIDDEN_KONG 136   /* 34 flags: its concealed kongs (shown to their owner only) */
    #define SHOWN_WON 170           /* 34 counts: the tiles it won with */
    #define SHOWN_RIVER_LEN 204     /* the river's length */
    #define SHOWN_LAST 205          /* 3: its last three tiles, river tile i in slot i % 3 */
    #define SHOWN_HIDDEN_KONGS 208  /* the number of its concealed kongs */
    #define SHOWN_STRIDE 212        /* one seat's block */
    #define SHOWN_SIZE (4 * SHOWN_STRIDE)
    """
    enum:
        SHOWN_RIVER
        SHOWN_CHOW
        SHOWN_PUNG
        SHOWN_KONG
        SHOWN_HIDDEN_KONG
        SHOWN_WON
        SHOWN_RIVER_LEN
        SHOWN_LAST
        SHOWN_HIDDEN_KONGS
        SHOWN_STRIDE
        SHOWN_SIZE

cdef enum:
    MAX_RIVER = 136  # a river longer than the tiles of a table is no river

SHOWN_CONSTANTS = {"RIVER": SHOWN_RIVER, "CHOW": SHOWN_CHOW, "PUNG": SHOWN_PUNG, "KONG": SHOWN_KONG,
                   "HIDDEN_KONG": SHOWN_HIDDEN_KONG, "WON": SHOWN_WON, "RIVER_LEN": SHOWN_RIVER_LEN,
                   "LAST": SHOWN_LAST, "HIDDEN_KONGS": SHOWN_HIDDEN_KONGS, "STRIDE": SHOWN_STRIDE}

LAYOUT_CONSTANTS = {"HAND": HAND, "DRAWN": DRAWN, "SEAT_BASE": SEAT_BASE, "SEAT_PLANES": SEAT_PLANES,
                    "UNSEEN": UNSEEN, "VISIBLE": VISIBLE, "LAST_DISCARD": LAST_DISCARD, "KONG_TILE": KONG_TILE,
                    "SEAT_WIND": SEAT_WIND, "PREVALENT_WIND": PREVALENT_WIND, "INFO": INFO, "WALL": WALL,
                    "WALL_END": WALL_END, "RULESET_BASE": RULESET_BASE}

cdef dict _RULESET_CODE = {"sichuan": 0, "changbai": 1, "mcr": 2}
cdef int[3] _N_PLANES
_N_PLANES[0] = RULESET_BASE + 8
_N_PLANES[1] = RULESET_BASE + 1
_N_PLANES[2] = RULESET_BASE + 1
N_PLANES = {"sichuan": _N_PLANES[0], "changbai": _N_PLANES[1], "mcr": _N_PLANES[2]}
# What `_encode_into`'s partial clear relies on: the planes it writes whole (the hand's four, each
# seat's river counts first in its block, unseen and visible) and the ones it clears tile the layout.
_FULL_PLANES_CHECKED = (DRAWN == HAND + 4 and SEAT_BASE == DRAWN + 1 and UNSEEN == SEAT_BASE + 4 * SEAT_PLANES
                        and VISIBLE == UNSEEN + 4 and LAST_DISCARD == VISIBLE + 4)
if not _FULL_PLANES_CHECKED:
    raise ImportError("mahjong_core.env._encode: the plane layout does not match the encoder's clearing")

_np = None


cdef object _numpy():
    global _np
    if _np is None:
        from mahjong_core.env._deps import numpy
        _np = numpy()
    return _np


def _numpy_generator(rng, who, also=""):
    from mahjong_core.env._deps import numpy_generator
    return numpy_generator(rng, who, also)


cdef extern from *:
    """
    #include <structmember.h>  /* PyMemberDef, T_OBJECT_EX (3.11 and later) */

    /* A small int's value read in place (hot path: every river, meld and won tile of every
       observation, and every legal action's uid and code), inlined where Cython's conversion is
       a call. -1 when `o` is not an exact int of one digit (or is negative): the caller then
       takes its slower path. */
    static inline long mc_small_int(PyObject* o) {
        if (!PyLong_CheckExact(o)) return -1;
    #if PY_VERSION_HEX >= 0x030C0000
        if (!_PyLong_IsCompact((PyLongObject*)o)) return -1;
        return (long)_PyLong_CompactValue((PyLongObject*)o);
    #else
        /* one branch, nearly never taken: zero (no digit) and one digit differ only in a mask, as a
           branch on zero mispredicted on every seat's 定缺 suit or 飘 (CPython allocates a digit for
           zero too, so reading it is safe; whatever it holds is masked off) */
        Py_ssize_t size = Py_SIZE(o);
        if ((size_t)size > 1) return -1;
        return (long)(((PyLongObject*)o)->ob_digit[0] & (digit)(-size));
    #endif
    }

    /* The object in the __slots__ member at byte `offset` of `o` (NULL when unset): Action.uid read
       without the descriptor lookup `a.uid` makes (PyMemberDescrObject is CPython's public struct;
       the offset is read from Action's own descriptor at import: `_UID_OFFSET`). */
    static inline PyObject* mc_slot(PyObject* o, Py_ssize_t offset) {
        return *(PyObject**)((char*)o + offset);
    }

    /* A seat's meld planes (five from `sp`, each 34 cells: chows >= 1, chows >= 2, pungs, kongs,
       concealed kongs — the last only for the seat's own, `own`) written whole from its block `b`
       of what it shows (Game._shown's layout, the SHOWN_ defines), and every copy it shows added
       to `visible`. Hot path (four seats an observation): plain C over restrict pointers, so that
       the compiler vectorises it. */
    static inline void mc_seat_shown(unsigned char* restrict sp, const unsigned char* restrict b,
                                     unsigned char* restrict visible, int own) {
        const unsigned char* chow = b + SHOWN_CHOW;
        const unsigned char* pung = b + SHOWN_PUNG;
        const unsigned char* kong = b + SHOWN_KONG;
        const unsigned char* hidden = b + SHOWN_HIDDEN_KONG;
        const unsigned char* won = b + SHOWN_WON;
        for (int t = 0; t < 34; t++) {
            unsigned char p = pung[t] != 0, k = kong[t] != 0;
            sp[t] = chow[t] >= 1;
            sp[34 + t] = chow[t] >= 2;
            sp[68 + t] = p;
            sp[102 + t] = k;
            visible[t] += b[SHOWN_RIVER + t] + chow[t] + 3 * p + 4 * k + won[t];
        }
        if (own) {
            for (int t = 0; t < 34; t++) {
                unsigned char h = hidden[t] != 0;
                sp[136 + t] = h;
                visible[t] += 4 * h;
            }
        } else {
            memset(sp + 136, 0, 34);
        }
    }

    /* plane[t] := counts[t] != 0 (a seat's won tiles, Sichuan) */
    static inline void mc_nonzero_plane(unsigned char* restrict plane, const unsigned char* restrict counts) {
        for (int t = 0; t < 34; t++) plane[t] = counts[t] != 0;
    }

    static Py_ssize_t mc_member_offset(PyObject* descr) {
        if (!Py_IS_TYPE(descr, &PyMemberDescr_Type)) return -1;
        PyMemberDef* m = ((PyMemberDescrObject*)descr)->d_member;
        return m->type == T_OBJECT_EX ? m->offset : -1;
    }
    """
    long mc_small_int(PyObject* o) noexcept
    PyObject* mc_slot(PyObject* o, Py_ssize_t offset) noexcept
    Py_ssize_t mc_member_offset(PyObject* descr) noexcept
    void mc_seat_shown(unsigned char* sp, const unsigned char* b, unsigned char* visible, int own) noexcept
    void mc_nonzero_plane(unsigned char* plane, const unsigned char* counts) noexcept


cdef inline int _tile_of(object o) except? -2:
    """A tile int of the source as a C int, -1 when it is none (the caller raises `_bad_tile`
    for anything outside 0..33)."""
    cdef long v = mc_small_int(<PyObject*>o)
    if v >= 0:
        return <int>v
    return _tile_of_other(o)


cdef inline int _seat_int(object values, Py_ssize_t s) except? -2:
    """`<int>values[s]` for a ruleset's per-seat state (Sichuan's void suits, Changbai's 飘): a
    list's item read in place when it is a one-digit int (hot path: four per observation; the
    generic index and conversion cost ~180 instructions an observation), anything else as Python
    reads it."""
    cdef long v
    if type(values) is list and 0 <= s < PyList_GET_SIZE(values):
        v = mc_small_int(PyList_GET_ITEM(values, s))
        if v >= 0:
            return <int>v
    return <int>values[s]


cdef inline int _listed_tile(list tiles, Py_ssize_t k, Py_ssize_t n, int s, str where) except -1:
    """Tile k of seat s's list `tiles` (of length n: its river or won tiles, named by `where`),
    checked to be 0..33. The item is read in place, borrowed (no reference taken), its small-int
    value inline; anything else takes `_listed_tile_other`."""
    cdef long v = mc_small_int(PyList_GET_ITEM(tiles, k))
    if <unsigned long>v < 34:
        return <int>v
    return _listed_tile_other(tiles, k, n, s, where)


cdef int _listed_tile_other(list tiles, Py_ssize_t k, Py_ssize_t n, int s, str where) except -1:
    """`_listed_tile` for an item that is not a one-digit int: by its index (`_tile_of`), after which
    the list must be as long as before (the index may run any code; the caller reads on to n)."""
    item = tiles[k]
    cdef int t = _tile_of(item)
    if PyList_GET_SIZE(tiles) != n:
        raise InvalidArgumentError(f"encode: seat {s}'s {where} changed while it was read")
    if <unsigned>t >= 34:
        _bad_tile(where, s, item)
    return t


cdef int _tile_of_other(object o) except? -2:
    """`_tile_of` for what is not a one-digit int: any integer (a NumPy one, a bool) by its index;
    anything else, or an integer outside 0..33, is -1."""
    try:
        v = PyNumber_Index(o)
    except TypeError:
        return -1
    return <int>v if 0 <= v < 34 else -1


cdef inline void _count_planes(unsigned char* base, const unsigned char* counts, int levels) noexcept:
    """Planes base, base + 34, ... (`levels` of them, 3 or 4) := counts[t] >= 1, >= 2, ...

    Hot path: every cell is written, without a branch on the count: a count-dependent branch per
    kind mispredicts often enough to cost more than the stores (and the loop vectorises)."""
    cdef int t
    for t in range(34):
        base[t] = counts[t] >= 1
        base[34 + t] = counts[t] >= 2
        base[68 + t] = counts[t] >= 3
    if levels == 4:
        for t in range(34):
            base[102 + t] = counts[t] >= 4


cdef int _check_seat(object seat) except -1:
    """A seat 0..3: a Python int, or any other integer (NumPy's) but a bool."""
    given = seat
    if type(seat) is not int:
        if isinstance(seat, bool) or not hasattr(seat, "__index__"):
            raise InvalidArgumentError(f"seat must be 0..3, got {given!r}")
        seat = PyNumber_Index(seat)
    if not -1 < seat < 4:
        raise InvalidArgumentError(f"seat must be 0..3, got {given!r}")
    return <int>seat


cdef int _ruleset_of(object game) except -1:
    try:
        code = _RULESET_CODE[game.ruleset]
    except (KeyError, AttributeError, TypeError):
        raise InvalidArgumentError(
            f"encode: {type(game).__name__} is not an observation source (a Game or BotzoneState with "
            f"ruleset 'sichuan', 'changbai' or 'mcr')") from None
    return code


def n_planes(ruleset):
    """C, the number of planes of `ruleset`'s observation."""
    return N_PLANES[check_ruleset(ruleset)]


cdef extern from "Python.h":
    # PyObject_GetBuffer as C returns it (-1 with an exception set): Cython's own declaration
    # raises, and `_fits` answers False instead, for its callers to raise their own error
    int _get_buffer "PyObject_GetBuffer"(object obj, Py_buffer* view, int flags)


cdef bint _fits(object out, Py_buffer* b, int rows, int cols, char fmt) noexcept:
    """Acquire `out`'s buffer when it is a writeable C-contiguous array of (rows, cols) items of
    format `fmt` ('B' uint8, 'b' int8; cols < 0: one-dimensional of length rows); False otherwise,
    with nothing acquired and no exception pending (no buffer, a read-only one: the caller says
    what it needs). The raw buffer protocol, not a typed memoryview: that costs ~1 µs per call,
    more than the encoding itself."""
    if _get_buffer(out, b, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_STRIDES) != 0:
        PyErr_Clear()
        return False
    cdef bint ok = b.itemsize == 1 and b.format != NULL and b.format[0] == fmt and b.format[1] == 0
    if ok and cols < 0:
        ok = b.ndim == 1 and (rows < 0 or b.shape[0] == rows) and b.strides[0] == 1
    elif ok:
        ok = b.ndim == 2 and b.shape[0] == rows and b.shape[1] == cols and b.strides[1] == 1 and b.strides[0] == cols
    if not ok:
        PyBuffer_Release(b)
    return ok


def _describe(out):
    shape = getattr(out, "shape", None)
    dtype = getattr(out, "dtype", None)
    return f"{type(out).__name__} {dtype} {shape}" if shape is not None else type(out).__name__


cdef int _encode_checked(object game, object seat, object out) except -1:
    """encode() after its `out is None` case: check seat and buffer, encode (one C call for both
    entry points: encode_into is the environments' hot path)."""
    cdef int s = _check_seat(seat)
    cdef int rs = _ruleset_of(game)
    cdef Py_buffer b
    if not _fits(out, &b, _N_PLANES[rs], 34, b'B'):
        raise InvalidArgumentError(
            f"encode: out must be a writeable C-contiguous uint8 array of shape ({_N_PLANES[rs]}, 34) for "
            f"{game.ruleset}, got {_describe(out)}; allocate it with numpy.zeros((n_planes(ruleset), 34), numpy.uint8)")
    try:
        _encode_into(game, s, rs, <unsigned char*>b.buf)
    finally:
        PyBuffer_Release(&b)
    return 0


def encode(game, seat, out=None):
    """The observation of `seat` as a uint8 array (C, 34), written into `out` when given.

    `game`: a `Game` or any observation source (see SOURCE_ATTRIBUTES). `out`: a writeable
    C-contiguous uint8 array of shape (C, 34) (`n_planes(ruleset)`), overwritten; a new NumPy array
    when None. Raises InvalidArgumentError for a bad seat or buffer (nothing written then).
    """
    if out is None:
        _check_seat(seat)
        out = _numpy().empty((_N_PLANES[_ruleset_of(game)], 34), dtype="uint8")
    _encode_checked(game, seat, out)
    return out


def encode_into(game, seat, out):
    """`encode(game, seat, out)` returning nothing (the environments' call)."""
    _encode_checked(game, seat, out)


cdef object _asked_of(object game, object seat):
    """The actions `seat` must answer in `game` now: its list in the engine's table, or None (not
    asked, or already answered this window). Reading `_pending` builds a turn left unbuilt."""
    return game._pending.get(seat) if seat not in game._answers else None


def observe_into(game, seat, out, mask):
    """`encode_into(game, seat, out)` and the 0/1 mask of the actions `seat` must answer now into the
    int8 vector `mask` (all zero when it has nothing to answer): the environments' one call per
    observation (hot path: one call instead of two, the pending list read here)."""
    cdef int s = _check_seat(seat)
    cdef int rs = _ruleset_of(game)
    cdef Py_buffer b, mb
    if not _fits(out, &b, _N_PLANES[rs], 34, b'B'):
        raise InvalidArgumentError(f"observe_into: out must be a writeable C-contiguous uint8 array of shape "
                                   f"({_N_PLANES[rs]}, 34), got {_describe(out)}")
    try:
        if not _fits(mask, &mb, -1, -1, b'b'):
            raise InvalidArgumentError(f"observe_into: mask must be a writeable contiguous int8 vector, got {_describe(mask)}")
        try:
            _encode_into(game, s, rs, <unsigned char*>b.buf)
            _mask_into(_asked_of(game, seat), game.space.code_of_uid, <signed char*>mb.buf, mb.shape[0])
        finally:
            PyBuffer_Release(&mb)
    finally:
        PyBuffer_Release(&b)


def next_seat(game):
    """`mahjong_core.env.table.next_seat` compiled (hot path of the AEC environment)."""
    return _next_seat(game)


cdef int _shown_of_lists(object rivers, object melds, object won_tiles, unsigned char* shown) except -1:
    """`Game._shown` of any observation source, read off its lists of rivers, melds and won tiles
    (every tile checked to be 0..33: the encoder writes through them)."""
    cdef int s, k, n, t, kind
    cdef unsigned char* b
    cdef list river, ms, lst
    memset(shown, 0, SHOWN_SIZE)
    for s in range(4):
        b = shown + s * SHOWN_STRIDE
        river = <list>rivers[s]
        n = len(river)
        if n > MAX_RIVER:
            raise InvalidArgumentError(f"encode: seat {s}'s river holds {n} tiles, more than a table has")
        b[SHOWN_LAST] = b[SHOWN_LAST + 1] = b[SHOWN_LAST + 2] = 255
        for k in range(n):
            t = _listed_tile(river, k, n, s, "river")
            b[SHOWN_RIVER + t] += 1
            if k >= n - 3:
                b[SHOWN_LAST + k % 3] = t
        b[SHOWN_RIVER_LEN] = n
        ms = <list>melds[s]
        for m in ms:
            kind = _tile_of(m[0])
            t = _tile_of(m[1])
            if <unsigned>t >= (32 if kind == 0 else 34):  # a chow's t + 2 is a tile too
                _bad_tile("meld", s, m[1])
            if kind == 0:      # chow: tiles t, t+1, t+2
                for k in range(3):
                    b[SHOWN_CHOW + t + k] += 1
            elif kind == 1:    # pung
                b[SHOWN_PUNG + t] = 1
            elif kind == 4:    # concealed kong
                b[SHOWN_HIDDEN_KONG + t] = 1
                b[SHOWN_HIDDEN_KONGS] += 1
            else:              # melded or added kong
                b[SHOWN_KONG + t] = 1
        lst = <list>won_tiles[s]
        n = len(lst)
        for k in range(n):
            b[SHOWN_WON + _listed_tile(lst, k, n, s, "won tiles")] += 1
    return 0


cdef int _bad_shown(object game, int seat) except -1:
    """A Game's `_shown` names a tile outside 0..33 (written by something other than the engine)."""
    raise InvalidArgumentError(f"encode: {type(game).__name__}._shown holds no tile as seat {seat}'s last discards "
                               f"(the record of what each seat shows is inconsistent; the engine keeps it)")


cdef int _bad_tile(str where, object seat, object value) except -1:
    """The encoder reads tile indices from its source and writes through them: any outside 0..33
    (a corrupt or hand-made source object) raises instead."""
    raise InvalidArgumentError(f"encode: seat {seat}'s {where} holds {value!r}, not a tile index 0..33 "
                               f"(the observation source is inconsistent)")


from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid

from mahjong_core._engine_capi cimport MC_ENGINE_CAPI_NAME, MC_ENGINE_LENT, mc_engine_capi

from mahjong_core.game.engine import Game as _Game

#: `Game.act`, `Game._answer_seen` and `Game._unbuilt_turn` themselves (the engine's method
#: descriptors): called with the game as their first argument when the game's class does not
#: override `act`, which skips looking the bound method up on the game
cdef object _GAME_ACT = _Game.act
cdef object _GAME_ANSWER_SEEN = _Game._answer_seen
cdef object _GAME_UNBUILT_TURN = _Game._unbuilt_turn

#: The compiled engine's C entries for the last two and for `Game._observation_fields`
#: (mahjong_core/_engine_capi.pxd), NULL where the engine runs from its .py source (no `_capi`
#: module) or the table is not this build's: then the methods are called
cdef const mc_engine_capi* _ENGINE = NULL
if not _Game.__flags__ & (1 << 9):  # (Py_TPFLAGS_HEAPTYPE: a Python class, the uncompiled engine)
    try:
        from mahjong_core.game._capi import ENGINE_CAPI as _capsule
    except ImportError:
        _capsule = None
    if _capsule is not None and PyCapsule_IsValid(_capsule, MC_ENGINE_CAPI_NAME):
        _ENGINE = <const mc_engine_capi*>PyCapsule_GetPointer(_capsule, MC_ENGINE_CAPI_NAME)
        if _ENGINE.size != sizeof(mc_engine_capi) or _ENGINE.lent != MC_ENGINE_LENT:
            _ENGINE = NULL
from mahjong_core.game.engine import SHOWN_LAYOUT as _SHOWN_LAYOUT

if _SHOWN_LAYOUT != SHOWN_CONSTANTS:
    raise ImportError("mahjong_core.env._encode: Game._shown's layout does not match the encoder's")

#: Whether the step kernel and the encoder call the engine through its C entries (for tests)
ENGINE_C_ENTRIES = _ENGINE != NULL


cdef dict _FIELD_READERS = {}
cdef object _last_class = None  # the class of the previous source and its reader (hot path: the
cdef object _last_reader = None  # sources of an environment are all of one class)
cdef object _GAME_FIELDS = _Game._observation_fields
cdef object _FIELDS_IN_C = object()  # the reader of a Game class that keeps `_observation_fields`,
                                     # where the engine's C entry reads them (`_ENGINE`)


cdef object _source_reader(object game):
    """How an observation source's fields are read (looked up once per class): `_FIELDS_IN_C`, its
    class's `_observation_fields`, or False (attribute by attribute)."""
    global _last_class, _last_reader
    cls = type(game)
    if cls is _last_class:
        return _last_reader
    reader = _FIELD_READERS.get(cls)
    if reader is None:
        reader = getattr(cls, "_observation_fields", False)
        if reader is _GAME_FIELDS and _ENGINE != NULL and issubclass(cls, _Game):
            reader = _FIELDS_IN_C
        _FIELD_READERS[cls] = reader
    _last_class, _last_reader = cls, reader
    return reader


cdef tuple _source_fields(object game, object reader):
    """(hands, rivers, melds, won_tiles, won, declared, turn, dealer, phase, drawn, discarder,
    discard, kong_tile, wall_remaining(), the ruleset's state or None) of an observation source. A
    `Game` gives them in one call (`Game._observation_fields`): sixteen attribute reads per
    observation cost the environments more than the encoding. Any other source is read attribute
    by attribute (its ruleset state too: the last value is None)."""
    if reader is not False:
        return reader(game)
    return (game.hands, game.rivers, game.melds, game.won_tiles, game.won, game.declared, game.turn, game.dealer,
            game.phase, game.drawn, game.discarder, game.discard, game.kong_tile, game.wall_remaining(), None)


cdef int _encode_into(object game, int seat, int rs, unsigned char* o) except -1:
    cdef int planes = _N_PLANES[rs]
    cdef int t, k, n, r, s, count, cell
    cdef unsigned char visible[34]  # copies of each kind the seat sees (a consistent source: 0..4)
    cdef unsigned char hand[34]
    cdef const unsigned char* hp
    cdef unsigned char* sp
    cdef const unsigned char* b

    # Only the planes written cell by cell are cleared (the drawn tile's, and from the last discard's
    # on; each seat's in the seat loop): the hand's, unseen and visible planes and a river's count
    # planes are written whole below (`_count_planes`). The observation is 2.3 kB, a third of it
    # count planes; the clear was ~40 % of this function's instructions (callgrind counts `rep
    # stosb` per byte: far less of its time). `_FULL_PLANES_CHECKED` holds the layout to this.
    memset(o + DRAWN * 34, 0, 34)
    memset(o + LAST_DISCARD * 34, 0, (planes - LAST_DISCARD) * 34)
    memset(visible, 0, sizeof(visible))

    # The source's fields: the per-seat lists, the scalars (turn, dealer, phase, drawn, discarder,
    # discard, kong tile, wall remaining) as C ints, the ruleset's own state
    cdef PyObject* borrowed[MC_ENGINE_LENT]
    cdef Py_ssize_t scalars[8]
    # What each seat shows, as counts (`Game._shown`'s layout): a compiled Game's own, read in place
    # (hot path: twelve lists of a game not walked), any other source's read off its lists into
    # `shown` (`_shown_of_lists`, which checks every tile)
    cdef unsigned char shown[SHOWN_SIZE]
    cdef const unsigned char* record
    cdef object shown_of = None
    cdef unsigned char flags[8]  # won[s], declared[s]
    cdef int source_ints[8]
    cdef tuple fields
    cdef list rivers, melds, won_tiles
    cdef object hands_of, won, declared, state
    reader = _source_reader(game)
    if reader is _FIELDS_IN_C:
        # (hot path: the engine's C entry, without `_observation_fields`' tuple and boxed ints; the
        # lists it lends are held here before any Python code runs)
        state = _ENGINE.observation_fields(game, borrowed, scalars)
        hands_of = <object>borrowed[0]
        rivers = <object>borrowed[1]
        melds = <object>borrowed[2]
        won_tiles = <object>borrowed[3]
        won = <object>borrowed[4]
        declared = <object>borrowed[5]
        shown_of = <object>borrowed[6]
        for k in range(8):
            if not -0x80000000 <= scalars[k] <= 0x7FFFFFFF:
                raise OverflowError(f"encode: {scalars[k]} is too large for the observation (value {k} of the source)")
            source_ints[k] = <int>scalars[k]
    else:
        fields = _source_fields(game, reader)
        if len(fields) != 15:
            raise InvalidArgumentError(f"encode: {type(game).__name__}._observation_fields() must give 15 values")
        hands_of = fields[0]
        rivers = fields[1]
        melds = fields[2]
        won_tiles = fields[3]
        won = fields[4]
        declared = fields[5]
        for k in range(8):
            source_ints[k] = fields[6 + k]
        state = fields[14]
    # own concealed tiles
    own = hands_of[seat]
    if type(own) is bytearray and len(own) == 34:
        hp = <const unsigned char*>PyByteArray_AS_STRING(own)
    elif type(own) is bytes and len(own) == 34:
        hp = <const unsigned char*>PyBytes_AS_STRING(own)
    else:
        hp = NULL
    if hp != NULL:
        memcpy(hand, hp, 34)
    else:
        for t in range(34):
            hand[t] = <unsigned char>own[t]
    _count_planes(o + HAND * 34, hand, 4)

    cdef int turn = source_ints[0]
    cdef int dealer = source_ints[1]
    cdef int phase = source_ints[2]
    cdef int drawn = source_ints[3]
    if turn == seat and drawn >= 0:
        if drawn >= 34:
            _bad_tile("drawn tile", turn, drawn)
        o[DRAWN * 34 + drawn] = 1

    if type(won) is not list:  # a Game's are lists (C-level indexing below); any sequence will do
        won = list(won)
    if type(declared) is not list:
        declared = list(declared)
    for s in range(4):  # (read before the record: any Python code their truth runs comes first)
        flags[s] = 1 if (<list>won)[s] else 0
        flags[4 + s] = 1 if (<list>declared)[s] else 0
    if shown_of is not None and type(shown_of) is bytearray and PyByteArray_GET_SIZE(shown_of) == SHOWN_SIZE:
        # read in place, borrowed: no Python code runs until the seat loop below is done with it
        record = <const unsigned char*>PyByteArray_AS_STRING(shown_of)
    else:
        _shown_of_lists(rivers, melds, won_tiles, shown)
        record = shown
    cdef unsigned char* info = o + INFO * 34
    for s in range(4):
        r = (s - seat) & 3
        sp = o + (SEAT_BASE + SEAT_PLANES * r) * 34
        b = record + s * SHOWN_STRIDE
        # the river: its count planes whole, its last tile and last three cell by cell
        memset(sp + 3 * 34, 0, 2 * 34)
        n = b[SHOWN_RIVER_LEN]
        if n:
            for k in range(3 if n >= 3 else n):  # (river tile i lies in slot i % 3)
                t = b[SHOWN_LAST + k]
                if t >= 34:
                    _bad_shown(game, s)
                sp[4 * 34 + t] = 1
            sp[3 * 34 + b[SHOWN_LAST + (n - 1) % 3]] = 1  # the last tile (one of the three just checked)
        _count_planes(sp, b + SHOWN_RIVER, 3)  # planes 0..2: at least 1, 2, 3 copies in this river
        # the melds and won tiles: their planes whole, every shown copy counted as seen (a concealed
        # kong by its owner only; the others see how many it has)
        mc_seat_shown(sp + 5 * 34, b, visible, s == seat)
        info[27 + r] += b[SHOWN_HIDDEN_KONGS]
        if rs == 0:
            mc_nonzero_plane(o + (RULESET_BASE + 4 + r) * 34, b + SHOWN_WON)
        info[19 + r] = flags[s]
        info[23 + r] = flags[4 + s]

    # unseen / visible: byte counts turned into planes by `_count_planes` (its loops vectorise; the
    # four planes of each written from an int per cell did not, and cost ~15 % of an observation)
    cdef unsigned char unseen[34]
    for t in range(34):
        n = 4 - visible[t] - hand[t]
        unseen[t] = <unsigned char>n if n > 0 else 0
    _count_planes(o + VISIBLE * 34, visible, 4)
    _count_planes(o + UNSEEN * 34, unseen, 4)

    cdef int discarder = source_ints[4]
    cdef int discard = source_ints[5]
    if discarder >= 0 and discard >= 0:
        if discard >= 34:
            _bad_tile("discard", discarder, discard)
        o[LAST_DISCARD * 34 + discard] = 1
        info[4 + ((discarder - seat) & 3)] = 1
    if phase == 4:  # ROB
        t = source_ints[6]
        if t >= 34:
            _bad_tile("kong tile", game.kong_seat, t)
        if t >= 0:
            o[KONG_TILE * 34 + t] = 1
    o[SEAT_WIND * 34 + 27 + ((seat - dealer) & 3)] = 1
    info[(dealer - seat) & 3] = 1
    info[8 + ((turn - seat) & 3)] = 1
    if 0 <= phase < 7:
        info[12 + phase] = 1

    cdef int left = source_ints[7]
    if left > 0:  # WALL: cell k set while more than 4k tiles are left; WALL_END: more than k
        memset(o + WALL * 34, 1, min((left + 3) // 4, 34))
        memset(o + WALL_END * 34, 1, min(left, 34))

    cdef object values
    # `state`: the ruleset's own state (Game._observed_state), or None: read it here
    if rs == 0:      # Sichuan: void suits
        values = state if state is not None else game.void
        for s in range(4):
            k = _seat_int(values, s)
            if 0 <= k < 3:
                r = (s - seat) & 3
                memset(o + (RULESET_BASE + r) * 34 + 9 * k, 1, 9)
    elif rs == 1:    # Changbai: 飘
        values = state if state is not None else game.piao
        for s in range(4):
            k = _seat_int(values, s)
            if 0 <= k <= 6:
                o[RULESET_BASE * 34 + 4 * ((s - seat) & 3) + k // 2] = 1
    else:            # MCR: flowers, prevalent wind
        if state is None:
            state = (game.prevalent_wind, game.flowers)
        if type(state) is tuple and len(<tuple>state) == 2:  # (MCRGame's own: read in C)
            wind, flowers = (<tuple>state)[0], (<tuple>state)[1]
        else:
            wind, flowers = state[0], state[1]
        k = <int>wind
        if 0 <= k < 4:
            o[PREVALENT_WIND * 34 + 27 + k] = 1
        lst = flowers if type(flowers) is list else list(flowers)  # (C-level indexing below)
        for s in range(4):
            seat_flowers = lst[s]
            n = len(<list>seat_flowers) if type(seat_flowers) is list else len(seat_flowers)
            if n > 8:
                n = 8
            if n:
                memset(o + RULESET_BASE * 34 + 8 * ((s - seat) & 3), 1, n)
    return 0


def legal_mask(game, seat, out=None):
    """0/1 per action code of the ruleset's ActionSpace (int8, length `game.space.size`: the dtype
    Gymnasium's masked sampling takes) for `seat`, written into `out` when given (a writeable int8
    array of that length). Reads `game.legal_actions(seat)` and `game.space`."""
    cdef int s = _check_seat(seat)
    space = getattr(game, "space", None)
    if space is None:
        raise InvalidTypeError(f"legal_mask takes a Game (or a BotzoneState), got {type(game).__name__}")
    cdef int size = space.size
    cdef Py_buffer b
    if out is None:
        out = _numpy().empty(size, dtype="int8")
    if not _fits(out, &b, size, -1, b'b'):
        raise InvalidArgumentError(
            f"legal_mask: out must be a writeable contiguous int8 array of shape ({size},), got {_describe(out)}")
    try:
        _mask_into(game.legal_actions(s), space.code_of_uid, <signed char*>b.buf, size)
    finally:
        PyBuffer_Release(&b)
    return out


def mask_into(list actions, tuple code_of_uid, out):
    """The 0/1 mask of `actions` into the int8 array `out` (the environments' call)."""
    cdef Py_buffer b
    if not _fits(out, &b, -1, -1, b'b'):
        raise InvalidArgumentError(f"mask_into: out must be a writeable contiguous int8 vector, got {_describe(out)}")
    try:
        _mask_into(actions, code_of_uid, <signed char*>b.buf, b.shape[0])
    finally:
        PyBuffer_Release(&b)


from mahjong_core.game.actions import DISCARD, Action

#: The Action class (a C global: compared by pointer) and the byte offset of its `uid` slot (-1 if
#: it cannot be read in place: then `a.uid` is used)
cdef object _Action = Action
cdef tuple _DISCARD = DISCARD  # DISCARD[t]: the discards, by tile
cdef Py_ssize_t _UID_OFFSET = mc_member_offset(<PyObject*>Action.__dict__["uid"])


cdef inline long _uid_of(object a) except? -2:
    """Action `a`'s uid. Hot path (every legal action of every observation's mask, every sampled
    and every applied action): read from the Action's slot in place, where `a.uid` looks its
    descriptor up in the type's dict first."""
    cdef PyObject* u = NULL
    cdef long uid
    if type(a) is _Action and _UID_OFFSET >= 0:
        u = mc_slot(<PyObject*>a, _UID_OFFSET)
    uid = mc_small_int(u) if u != NULL else -1
    if uid < 0:
        uid = <long>a.uid  # not read in place (a subclass, or an unset slot): the attribute
    return uid


cdef inline int _code_of(object a, tuple code_of_uid) except? -2:
    """The code of Action `a` in the space whose `code_of_uid` is given (-1: not in that space)."""
    cdef long uid = _uid_of(a), code
    if not 0 <= uid < len(code_of_uid):
        return -1
    code = mc_small_int(<PyObject*>code_of_uid[uid])
    return <int>code if code >= 0 else <int>code_of_uid[uid]


cdef int _mask_into(object actions, tuple code_of_uid, signed char* o, int size) except -1:
    """The 0/1 mask of `actions` (a list of Actions; None: none) into `o` (`size` cells)."""
    cdef int code
    memset(o, 0, size)
    if actions is None:
        return 0
    for a in <list>actions:
        code = _code_of(a, code_of_uid)
        if 0 <= code < size:
            o[code] = 1
    return 0


def encode_batch(list games, list seats, unsigned char[:, :, ::1] out, signed char[:, ::1] masks):
    """Row i of `out` / `masks` := the observation / legal mask of `seats[i]` in `games[i]` (one call
    per vector step: the buffers are acquired once, not once per sub-environment). A seat of -1
    leaves zeros (a finished game)."""
    cdef Py_ssize_t i, n = len(games)
    cdef int seat, rs, size
    if out.shape[0] < n or masks.shape[0] < n or len(seats) < n:
        raise InvalidArgumentError("encode_batch: buffers shorter than the list of games")
    size = masks.shape[1]
    for i in range(n):
        game = games[i]
        seat = <int>seats[i]
        if seat < 0:
            memset(&out[i, 0, 0], 0, out.shape[1] * 34)
            memset(&masks[i, 0], 0, size)
            continue
        rs = _ruleset_of(game)
        if out.shape[1] != _N_PLANES[rs] or out.shape[2] != 34:
            raise InvalidArgumentError(f"encode_batch: out must be (N, {_N_PLANES[rs]}, 34)")
        _encode_into(game, seat, rs, &out[i, 0, 0])
        _mask_into(_asked_of(game, seat), game.space.code_of_uid, &masks[i, 0], size)


# -- the vector environment's step loop (next_seat, StepKernel) -------------------------------------------------------------

from cpython.long cimport PyLong_AsLongLongAndOverflow


cdef inline bint _holds(list actions, object a):
    """`a in actions` for Actions, which compare by identity: a pointer scan (hot path: `in` goes
    through the rich compare for every entry it passes; this cut the vector step by ~2.5 %)."""
    cdef Py_ssize_t k
    for k in range(len(actions)):
        if actions[k] is a:
            return True
    return False


cdef inline int _next_seat(object game) except -2:
    """table.next_seat in C: the lowest unanswered pending seat, -1 when nothing is pending; a
    plain turn left unbuilt (`Game._lazy_turn`) is its seat's, and stays unbuilt."""
    asked = game._asked
    if asked is None:
        return <int>game.turn
    return _next_seat_in(asked, game)


cdef inline int _next_seat_in(object table, object game) except -2:
    """`_next_seat(game)` with `game._pending` already read (`table`)."""
    cdef dict pending = <dict>table
    cdef int best = -1, s
    if len(pending) == 1:
        for seat in pending:
            return <int>seat
    answered = game._answers
    for seat in pending:
        s = <int>seat
        if seat not in answered and (best < 0 or s < best):
            best = s
    return best


from cpython.mem cimport PyMem_Free, PyMem_Malloc


# -- what the step kernel and the AEC env's core (_aec.pxi) both do with a question and the ledger ------------------------

cdef int _fill_discard_codes(tuple code_of_uid, int size, int* out) except -1:
    """out[t] := the code of DISCARD[t] in the space of `code_of_uid` (-1: not in its `size` codes),
    for the 34 tiles: how an unbuilt turn's bits become codes."""
    cdef int t, code
    for t in range(34):
        code = _code_of(_DISCARD[t], code_of_uid)
        out[t] = code if 0 <= code < size else -1
    return 0


cdef inline void _mask_of_discards(signed char* mask, int size, unsigned long long bits,
                                   const int* discard_code) noexcept:
    """`mask` (`size` cells) := the 0/1 mask of an unbuilt turn's legal discards (`bits`, bit t:
    DISCARD[t]; `discard_code` from `_fill_discard_codes`)."""
    cdef int t, code
    memset(mask, 0, size)
    while bits:
        t = mc_lowest_bit64(bits)
        bits &= bits - 1
        code = discard_code[t] if t < 34 else -1
        if code >= 0:
            mask[code] = 1


cdef inline Py_ssize_t _pick(double u, Py_ssize_t count) noexcept:
    """floor(u · count): the position of a uniform choice among `count` (> 0) for u uniform in
    [0, 1); a u outside that (or NaN) gives an end, clamped before the cast (casting NaN or a huge
    double to an integer is undefined)."""
    if u >= 1.0:
        return count - 1
    if u > 0.0:
        return min(<Py_ssize_t>(u * count), count - 1)
    return 0


cdef int _code_at(object legal, unsigned long long bits, Py_ssize_t k, const int* discard_code,
                  tuple code_of_uid) except? -2:
    """The code of the k-th legal action (k below their number): of the list `legal`, or, when it is
    None, of an unbuilt turn's discards `bits` in tile order (-1: not in the space)."""
    cdef int t
    if legal is None:
        t = mc_kth_bit64(bits, k)
        return discard_code[t] if t < 34 else -1
    return _code_of((<list>legal)[k], code_of_uid)


cdef int _ledger_deltas(list entries, Py_ssize_t start, Py_ssize_t end, long long* d) except -1:
    """d[0..3] := each seat's ledger change over entries[start:end] (a ledger is append-only: the
    entries past those already paid out are the reward)."""
    cdef Py_ssize_t k
    d[0] = d[1] = d[2] = d[3] = 0
    for k in range(start, end):
        entry = entries[k]
        d[<int>entry.payer] -= <long long>entry.amount
        d[<int>entry.payee] += <long long>entry.amount
    return 0


cdef class StepKernel:
    """The step of `VectorEnv` over its N sub-environments, in C (hot path: one call per vector step,
    N decisions; the Python loop it replaces cost about as much as the engine itself).

    It owns no game state: `games` is the env's list (the same object), the arrays are the env's
    preallocated buffers, and `deal(i)` / `play(i)` are the env's callbacks — a new hand in row i
    (which must update `games[i]`, `seats[i]` and then call `set_paid(i, ...)`), and the opponents'
    answers up to the learner's next decision (None in self-play, where the next decision is simply
    the next seat the engine waits for). What it keeps per row is read off that row's game and
    renewed whenever the row changes (hot path: each saves an attribute lookup per decision): the
    count of ledger entries already paid out and the ledger's entry list (`set_paid`, at every new
    hand; a ledger keeps its list for life), whether the game's class keeps `Game.act`, and the
    question the acting seat answers next — the engine's table and that seat's legal actions in it
    (every observation: nothing changes them until that seat answers), or, in self-play of a
    registered ruleset class (`lazy_class`), a plain turn the engine left unbuilt (`_lazy_turn`),
    kept as its legal discards' bit mask and step id: such a turn is answered, masked and sampled
    from the bits, with no list of actions and no table built (`Game._answer_seen`; anything else
    that reads the game's `_pending` builds the turn then, exactly as the engine would have).
    """

    cdef list games
    cdef long long[::1] seats
    cdef long long[::1] paid
    cdef unsigned char[:, :, ::1] obs
    cdef signed char[:, ::1] masks
    cdef double[::1] rewards
    cdef double[:, ::1] seat_rewards
    cdef unsigned char[::1] terminated
    cdef tuple action_of_code
    cdef tuple code_of_uid
    cdef object space
    cdef object deal
    cdef object play
    cdef object lazy_class
    cdef list chosen
    cdef list legal      # row -> the acting seat's legal actions (the engine's list); None: an unbuilt turn
    cdef list tables     # row -> the engine's question table they came from (its identity names the question)
    cdef list entries    # row -> its game's ledger entries (Ledger._entries, append-only)
    cdef unsigned long long* turn_bits  # row -> an unbuilt turn's legal discards (bit t: DISCARD[t])
    cdef long long* turn_steps          # row -> that turn's step id
    cdef long long* chosen_uid          # row -> the uid of the action being applied
    cdef unsigned char* fast            # row -> its game's class keeps Game.act: `_answer_seen`
    cdef int* code_tile                 # action code -> t when it is DISCARD[t], else -1
    cdef int discard_code[34]           # t -> the code of DISCARD[t] (-1: not in the space)
    cdef int rs, size
    cdef Py_ssize_t n                   # the rows (len(games) at construction: the C arrays' length)
    cdef double scale

    def __cinit__(self, list games, *args, **kwargs):
        cdef Py_ssize_t n = len(games)
        self.n = n
        self.turn_bits = <unsigned long long*>PyMem_Malloc(max(n, 1) * sizeof(unsigned long long))
        self.turn_steps = <long long*>PyMem_Malloc(max(n, 1) * sizeof(long long))
        self.chosen_uid = <long long*>PyMem_Malloc(max(n, 1) * sizeof(long long))
        self.fast = <unsigned char*>PyMem_Malloc(max(n, 1))
        if not (self.turn_bits and self.turn_steps and self.chosen_uid and self.fast):
            raise MemoryError()
        memset(self.fast, 0, max(n, 1))

    def __dealloc__(self):
        PyMem_Free(self.turn_bits)
        PyMem_Free(self.turn_steps)
        PyMem_Free(self.chosen_uid)
        PyMem_Free(self.fast)
        PyMem_Free(self.code_tile)

    def __init__(self, list games, str ruleset, object space, double scale, seats, paid, obs, masks, rewards,
                 seat_rewards, terminated, deal, play, lazy_class=None):
        cdef Py_ssize_t n = len(games)
        cdef int t, code
        self.games = games
        self.rs = _RULESET_CODE[ruleset]
        self.space = space
        self.action_of_code = tuple(space.actions)
        self.code_of_uid = space.code_of_uid
        self.size = space.size
        self.scale = scale
        self.seats = seats
        self.paid = paid
        self.obs = obs
        self.masks = masks
        self.rewards = rewards
        self.seat_rewards = seat_rewards
        self.terminated = terminated
        self.deal = deal
        self.play = play
        self.lazy_class = lazy_class
        self.chosen = [None] * n
        self.legal = [None] * n
        self.tables = [None] * n
        self.entries = [None] * n
        if (self.seats.shape[0] != n or self.paid.shape[0] != n or self.obs.shape[0] != n
                or self.obs.shape[1] != _N_PLANES[self.rs] or self.obs.shape[2] != 34 or self.masks.shape[0] != n
                or self.masks.shape[1] != self.size or self.rewards.shape[0] != n or self.seat_rewards.shape[0] != n
                or self.seat_rewards.shape[1] != 4 or self.terminated.shape[0] != n):
            raise InvalidArgumentError("StepKernel: buffers of the wrong shape")
        # the discards' codes both ways (an unbuilt turn's mask, check and sample work on tiles)
        PyMem_Free(self.code_tile)
        self.code_tile = <int*>PyMem_Malloc(max(self.size, 1) * sizeof(int))
        if not self.code_tile:
            raise MemoryError()
        for code in range(self.size):
            self.code_tile[code] = -1
        _fill_discard_codes(self.code_of_uid, self.size, self.discard_code)
        for t in range(34):
            if self.discard_code[t] >= 0:
                self.code_tile[self.discard_code[t]] = t

    cdef int _observe_row(self, Py_ssize_t i, object game, int seat, object pending=None) except -1:
        """Row i := the observation and mask of `seat` (`pending`: the game's table, when the
        caller has just read it)."""
        if pending is None:
            pending = game._pending
        legal = (<dict>pending)[seat]
        self.legal[i] = legal
        self.tables[i] = pending
        _encode_into(game, seat, self.rs, &self.obs[i, 0, 0])
        _mask_into(legal, self.code_of_uid, &self.masks[i, 0], self.size)
        return 0

    cdef int _observe_turn(self, Py_ssize_t i, object game, int seat, unsigned long long bits,
                           long long step) except -1:
        """Row i := the observation of `seat`, whose plain turn the engine left unbuilt, and its mask
        from the turn's legal discards (`bits`, at step id `step`)."""
        self.legal[i] = None
        self.tables[i] = None
        self.turn_bits[i] = bits
        self.turn_steps[i] = step
        _encode_into(game, seat, self.rs, &self.obs[i, 0, 0])
        _mask_of_discards(&self.masks[i, 0], self.size, bits, self.discard_code)
        return 0

    cdef Py_ssize_t _rows(self) except -1:
        """N, checked against the env's list of games (the per-row arrays are N long)."""
        if len(self.games) != self.n:
            raise InvalidArgumentError(f"StepKernel: the list of games has {len(self.games)} entries, not {self.n}")
        return self.n

    def observe(self):
        """Rows := the observation and mask of `seats[i]` in `games[i]` (after a reset)."""
        cdef Py_ssize_t i
        for i in range(self._rows()):
            self._observe_row(i, self.games[i], <int>self.seats[i])

    def paid_counts(self):
        """Each row's count of ledger entries already paid out (for a copy of the environment)."""
        return [self.paid[i] for i in range(self._rows())]

    def set_paid(self, Py_ssize_t i, long long entries):
        """Sub-env i's ledger entries up to `entries` count as paid out: a new hand, already in
        `games[i]` (its ledger's entry list, its `act`, and whether its plain turns may be left
        unbuilt are read and set here, once per hand)."""
        if not 0 <= i < self._rows():
            raise InvalidArgumentError(f"StepKernel.set_paid: row {i} is not 0..{self.n - 1}")
        game = self.games[i]
        self.paid[i] = entries
        self.entries[i] = game.ledger._entries
        self.fast[i] = type(game).act is _GAME_ACT and isinstance(game, _Game)  # (the C entries cast to Game)
        if self.fast[i] and self.lazy_class is not None and type(game) is self.lazy_class:
            game._lazy_turn = True

    def step(self, list codes):
        """Play `codes[i]` (Python ints) for `seats[i]` in every sub-env: every check first (all or
        nothing: IllegalActionError naming the sub-env), then act, reward, autoreset, observe."""
        cdef Py_ssize_t i, m, n = self._rows()
        cdef int seat, nxt, overflow, s, t
        cdef long long code, r
        cdef unsigned long long bits = 0
        cdef list chosen = self.chosen
        cdef list entries
        cdef long long d[4]
        if len(codes) != n:
            raise IllegalActionError(f"step: give {n} actions (one per sub-env), got {len(codes)}")
        for i in range(n):
            seat = <int>self.seats[i]
            legal = self.legal[i]
            code = PyLong_AsLongLongAndOverflow(codes[i], &overflow)
            a = None
            if overflow == 0 and 0 <= code < self.size:
                a = self.action_of_code[code]
                if legal is None:  # an unbuilt turn: a discard whose bit is set
                    t = self.code_tile[code]
                    if t < 0 or not (self.turn_bits[i] >> t) & 1:
                        a = None
                    self.chosen_uid[i] = t
                elif _holds(<list>legal, a):
                    self.chosen_uid[i] = _uid_of(a)
                else:
                    a = None
            if a is None:
                try:
                    action = self.space.action(codes[i])
                except IllegalActionError as error:  # a code out of range: its message, and the row
                    raise IllegalActionError(f"step: sub-env {i}: {error}") from None
                if legal is None:  # (an unbuilt turn's: the engine's list of them, built for the message)
                    legal = self.games[i]._discard_options(seat)
                raise IllegalActionError(f"step: sub-env {i}: {action!r} is not legal for seat {seat}; legal: {legal}")
            chosen[i] = a
        for i in range(n):
            game = self.games[i]
            seat = <int>self.seats[i]
            r = -1
            if self.fast[i] and _ENGINE != NULL:
                r = _ENGINE.answer_seen(game, seat, chosen[i], self.chosen_uid[i], self.tables[i],
                                        self.turn_steps[i])
            elif self.fast[i]:
                r = _GAME_ANSWER_SEEN(game, seat, chosen[i], self.chosen_uid[i], self.tables[i],
                                      self.turn_steps[i])
            else:
                game.act(seat, chosen[i])
            chosen[i] = None
            pending = None
            if self.play is not None:
                nxt = <int>self.play(i)  # the opponents, up to the learner's next question
                r = -1
                if nxt >= 0 and self.fast[i]:
                    r = _ENGINE.unbuilt_turn(game) if _ENGINE != NULL else _GAME_UNBUILT_TURN(game)
            if r >= 0:  # the next question is a plain turn left unbuilt: seat | discards << 2 | step << 36
                nxt = <int>(r & 3)
                bits = (<unsigned long long>r >> 2) & 0x3FFFFFFFFULL  # (ULL: a C operation, not a Python int's)
            elif self.play is None:
                pending = game._pending
                nxt = _next_seat_in(pending, game)
            # reward: the seats' ledger changes since the last step. The ledger is append-only, so the
            # new entries are the delta (its entry list, kept per row: its __len__ / totals() are Python calls)
            entries = <list>self.entries[i]
            m = len(entries)
            if m == self.paid[i]:
                self.rewards[i] = 0.0
                for s in range(4):
                    self.seat_rewards[i, s] = 0.0
            else:
                _ledger_deltas(entries, self.paid[i], m, d)
                self.paid[i] = m
                for s in range(4):
                    self.seat_rewards[i, s] = <double>d[s] * self.scale
                self.rewards[i] = self.seat_rewards[i, seat]
            if nxt < 0:
                self.terminated[i] = 1
                self.deal(i)
                game = self.games[i]
                nxt = <int>self.seats[i]
                pending = None
                r = -1
            else:
                self.terminated[i] = 0
                self.seats[i] = nxt
            if r >= 0:
                self._observe_turn(i, game, nxt, bits, r >> 36)
            else:
                self._observe_row(i, game, nxt, pending)

    def sample(self, const double[::1] u, long long[::1] out):
        """out[i] := the code of a legal action of `seats[i]` in `games[i]`: the one at position
        floor(u[i] · n) of its n legal actions (u[i] uniform in [0, 1): a uniform choice). The random
        policy without an (N, A) product of random numbers and masks."""
        cdef Py_ssize_t i, k, count, n = self._rows()
        if u.shape[0] != n or out.shape[0] != n:
            raise InvalidArgumentError(f"sample: u and out must have one entry per sub-env ({n})")
        for i in range(n):
            legal = self.legal[i]
            # (an unbuilt turn's actions are its discards in tile order: the set bits of its mask)
            count = len(<list>legal) if legal is not None else mc_popcount64(self.turn_bits[i])
            if count == 0:  # (the engine never asks a seat with nothing to choose; never index past the end)
                raise IllegalActionError(f"sample: sub-env {i}'s seat {self.seats[i]} has no legal action")
            k = _pick(u[i], count)
            out[i] = _code_at(legal, self.turn_bits[i] if legal is None else 0, k, self.discard_code,
                              self.code_of_uid)



include "_aec.pxi"
