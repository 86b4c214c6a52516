# cython: language_level=3, embedsignature=True, boundscheck=False, wraparound=False, cdivision=True
# cython: autotestdict=False
# distutils: language = c++
"""Private compiled module: the Cython binding of the C++ core (cpp/).

Public names are re-exported by `mahjong_core`; import from there.

Hot path notes: `shanten`, `is_winning`, `waits` on a `Hand` or on 34 `bytes` never acquire a
buffer (that alone would cost more than the C++ call): a Hand keeps its counts in a C array inside
the object and bytes expose their storage directly. Hands are validated once, at construction, so
calls on a Hand go straight to the unchecked C++ functions.
"""

from libc.stdint cimport int8_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from libcpp.vector cimport vector
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE

from ._errors cimport mc_set_error_types
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.number cimport PyNumber_Index
cimport cython
cimport mahjong_core._cpp_tables as ctables
cimport mahjong_core._cpp_shanten as cs
cimport mahjong_core._cpp_decompose as cd
cimport mahjong_core._cpp_batch as cb
cimport mahjong_core._cpp_shuffle as cshuffle

from .errors import InvalidArgumentError, InvalidHandError, InvalidTypeError
from .tiles import Forms, Tile
from .model import (
    Block as PyBlock,
    BlockKind as PyBlockKind,
    Decomposition as PyDecomposition,
    Meld,
    MeldKind,
)

mc_set_error_types(InvalidHandError, InvalidArgumentError)


cdef extern from "_ndarray.h":
    void mc_plain_class_lookup(object meta)

from . import tiles as _tiles_module
mc_plain_class_lookup(_tiles_module._EnumType)  # Tile.X / Forms.X at plain-class speed (see tiles.py)

cdef tuple TILES = tuple(Tile)
cdef tuple BLOCK_KINDS = tuple(PyBlockKind)
cdef dict FORM_OF_FLAG = {int(f): f for f in (Forms.STANDARD, Forms.SEVEN_PAIRS, Forms.THIRTEEN_ORPHANS,
                                              Forms.HONORS_KNITTED, Forms.KNITTED_STRAIGHT)}
cdef int KINDS = 34

cdef extern from "mahjong_core/bits.h" namespace "mahjong_core" nogil:
    int _lowest_bit "mahjong_core::lowest_bit64"(uint64_t x) noexcept


# ---------------------------------------------------------------------------------------------
# Tables

def ensure_init():
    """Kept for compatibility: the tables are baked into the extension at build time (generated
    by cpp/tools/gen_tables.cpp), so they are ready at import and this does nothing."""
    with nogil:
        ctables.ensure_init()


def table_info():
    """Facts about the lookup tables: checksum, bytes, build seconds (0: baked at build time),
    whether they are baked, class counts."""
    ctables.ensure_init()
    cdef const ctables.Tables* t = &ctables.get()
    return {
        "checksum": ctables.checksum(),
        "baked": ctables.kBaked,
        "bytes": ctables.memory_bytes(),
        "build_seconds": ctables.build_seconds(),
        "suit_classes": t.phantom.suit_classes,
        "honor_classes": t.phantom.honor_classes,
        "states": t.phantom.states,
    }


def cpu_dispatch():
    """Which copy of the hot kernels runs: {"variant": "popcnt" | "baseline", "available": (...)}.
    The POPCNT copy is chosen at load when the CPU has it; MAHJONG_CORE_BASELINE=1 forces the
    portable baseline (see cpp/src/shanten.cpp)."""
    return {"variant": cs.kernel_variant().decode("ascii"),
            "available": tuple(cs.kernel_variants().decode("ascii").split(","))}


def _use_kernels(str name):
    """Switch the kernel copy (tests compare them); InvalidArgumentError when unavailable. Not
    safe while other threads are calling into the core."""
    if not cs.use_kernel_variant(name.encode("ascii")):
        raise InvalidArgumentError(f"kernel variant {name!r} is not available here: {cpu_dispatch()['available']}")


# ---------------------------------------------------------------------------------------------
# Hand storage

cdef inline int meld_size(object meld):
    return 3 if (<object>meld).kind != MeldKind.KONG else 4


#: passed as `counts` by C-level code that fills a HandCore itself (see HandCore.__cinit__)
cdef object _C_LEVEL_BUILD = object()
cdef tuple _KONG_MARKERS = (1, 2, 3, 5, 6, 7)
cdef tuple _CLAIM_MARKERS = (1, 2, 3)
cdef long _MELD_CHOW = MeldKind.CHOW, _MELD_KONG = MeldKind.KONG


cdef object _checked_meld(object m, Py_ssize_t index):
    """`m` as a Meld the binding may trust: `m` itself when it is an exact `Meld` whose fields are
    consistent, else a new `Meld` built (and validated) from its fields.

    A Meld is frozen, but `object.__setattr__`, a subclass or unpickling can still give it any
    field values; the counts it adds are written through its tile index, so every field is checked
    here, never read from `Meld.tiles` (R1)."""
    if not isinstance(m, Meld):
        raise InvalidTypeError(f"melds must be Meld objects, got {type(m).__name__} at melds[{index}]")
    cdef object kind, tile, concealed, claimed
    cdef long k, t
    if type(m) is Meld:
        kind = (<object>m).kind
        tile = (<object>m).tile
        concealed = (<object>m).concealed
        claimed = (<object>m).claimed
        if type(kind) is MeldKind and type(tile) is Tile:
            # Exact members: their values as C integers (IntEnum arithmetic costs Python calls;
            # every Hand an engine builds for a win check passes here, once per meld).
            k = kind
            t = tile
            if 0 <= k <= 2 and 0 <= t < KINDS and (concealed is False or (
                    concealed is True and k == _MELD_KONG and claimed is None)):
                if k == _MELD_CHOW:
                    if t < 27 and t % 9 <= 6 and (claimed is None or claimed in _CLAIM_MARKERS):
                        return m
                elif claimed is None or claimed in (_KONG_MARKERS if k == _MELD_KONG else _CLAIM_MARKERS):
                    return m
    try:
        return Meld((<object>m).kind, (<object>m).tile, (<object>m).concealed is True, (<object>m).claimed)
    except InvalidHandError as exc:
        raise InvalidHandError(f"melds[{index}] is not a valid meld: {exc}") from None
    except Exception as exc:  # a subclass's property may raise anything
        raise InvalidHandError(f"melds[{index}] is not a valid meld ({type(exc).__name__}: {exc})") from None


cdef int _add_meld_tiles(object meld, uint8_t* out) except -1:
    """Add the tiles of a checked meld (`_checked_meld`) to `out`; the index is bounds-checked again."""
    cdef int t = <int>(<object>meld).tile
    cdef int kind = <int>(<object>meld).kind
    if t < 0 or t >= KINDS or (kind == 0 and (t >= 27 or t % 9 > 6)):
        raise InvalidHandError(f"a meld tile index must be 0..33, got {t}")  # unreachable after _checked_meld
    if kind == 0:
        out[t] += 1
        out[t + 1] += 1
        out[t + 2] += 1
    else:
        out[t] += 3 if kind == 1 else 4
    return 0


# The class a hand's `context` must be (`model.MCRContext`, registered by `hand.py` on import: the
# model module imports this one, so it cannot be imported here).
cdef object _CONTEXT_TYPE = None


def _register_context_type(cls):
    global _CONTEXT_TYPE
    _CONTEXT_TYPE = cls


@cython.auto_pickle(False)  # Hand defines __reduce__
cdef class HandCore:
    """C-level storage of a hand (see `mahjong_core.Hand`, which adds the Python API).

    Built and validated entirely in `__cinit__` (R14): a failed construction leaves no object
    behind, `Hand.__new__(Hand)` without counts is refused, and `__init__` cannot run again on a
    built hand, so the C arrays the analysis functions trust are written exactly once."""

    cdef uint8_t c[34]
    cdef uint8_t meld_c[34]
    cdef readonly int n_melds
    cdef readonly int n_tiles
    cdef tuple _melds  # the Meld objects; None until first read for a hand the parser built
    cdef readonly object win_tile
    cdef readonly object context
    cdef bint _initialised
    # The melds as the C++ core takes them, written with `melds` (so the scorers and the
    # decomposer read no Python attribute per meld on their hot path), and their claim markers
    # (-1: None), from which a parsed hand builds its Meld tuple when it is first read.
    cdef cd.MeldSpec specs[4]
    cdef int8_t claims[4]

    @property
    def melds(self):
        return self._meld_objects()

    cdef tuple _meld_objects(self):
        if self._melds is None:
            self._melds = _melds_of_specs(self.specs, self.claims, self.n_melds)
        return self._melds

    def __cinit__(self, counts=None, melds=(), win_tile=None, context=None, *args, **kwargs):
        cdef int i, total = 0
        cdef Py_ssize_t k
        if counts is _C_LEVEL_BUILD:
            # The binding's own constructors (the native notation parser) fill the arrays of an
            # already validated hand themselves; the sentinel is not reachable from Python.
            self._initialised = True
            return
        if counts is None:
            raise InvalidArgumentError(
                "a Hand needs its 34 counts: Hand(counts, melds=(), win_tile=None, context=None), "
                "Hand.from_counts(...) or mahjong_core.parse(text)")
        if isinstance(counts, str):
            raise InvalidTypeError("Hand(counts) takes 34 counts; use mahjong_core.parse() for notation")
        _fill_counts(counts, self.c, "a hand")
        for i in range(KINDS):
            total += self.c[i]
        if type(melds) is not tuple and (isinstance(melds, (str, bytes)) or not hasattr(melds, "__iter__")):
            raise InvalidTypeError(f"melds must be a sequence of Meld objects, got {type(melds).__name__}")
        checked = [_checked_meld(m, k) for k, m in enumerate(melds)]
        memset(self.meld_c, 0, KINDS)
        if len(checked) > 4:
            raise InvalidHandError(f"a hand has at most 4 melds, got {len(checked)}")
        k = 0
        for m in checked:
            _add_meld_tiles(m, self.meld_c)
            self.specs[k].kind = <cd.BlockKind>(<int>(<object>m).kind)
            self.specs[k].tile = <uint8_t>(<int>(<object>m).tile)
            self.specs[k].concealed = (<object>m).concealed
            k += 1
        self._melds = tuple(checked)
        self.n_melds = len(checked)
        for i in range(KINDS):
            if self.c[i] + self.meld_c[i] > 4:
                raise InvalidHandError(
                    f"{self.c[i] + self.meld_c[i]} copies of {TILES[i]} in the hand and its melds (at most 4 of a kind)")
        waiting = 13 - 3 * self.n_melds
        if total != waiting and total != waiting + 1:
            raise InvalidHandError(
                f"hand has {total} concealed tiles; with {self.n_melds} meld(s) it holds {waiting} or {waiting + 1}")
        self.n_tiles = total
        if win_tile is not None:
            if isinstance(win_tile, bool):
                raise InvalidHandError(f"win_tile must be a tile 0..33 (or None), got {win_tile!r}")
            if type(win_tile) is int and 0 <= win_tile < KINDS:
                win_tile = TILES[win_tile]  # what Tile(win_tile) gives, without the enum's call
            elif type(win_tile) is not Tile:
                try:
                    win_tile = Tile(win_tile)
                except (ValueError, TypeError):
                    raise InvalidHandError(f"win_tile must be a tile 0..33 (or None), got {win_tile!r}") from None
            if total != waiting + 1:
                raise InvalidHandError(f"a winning tile needs a complete-size hand of {waiting + 1} concealed tiles")
            if self.c[<int>win_tile] == 0:
                raise InvalidHandError(f"the winning tile {win_tile} is not among the concealed tiles")
        self.win_tile = win_tile
        if context is not None and _CONTEXT_TYPE is not None and not isinstance(context, _CONTEXT_TYPE):
            raise InvalidTypeError(f"context must be an MCRContext (or None), got {type(context).__name__} "
                                   f"{context!r}; for notation's suffix, parse the hand with it: "
                                   f"parse(\"123m...|EE1000\")")
        self.context = context

    def __init__(self, *args, **kwargs):
        # The hand was built by __cinit__; the first __init__ (from the constructor call) only marks
        # that. Any later call would re-enter construction on a live object: refused.
        if self._initialised:
            raise InvalidArgumentError("a Hand is immutable: build a new one (Hand(...), hand.replace(...))")
        self._initialised = True

    # The count tuples are built on first access and kept (the hand never changes).
    cdef tuple _counts, _meld_counts, _all_counts

    @property
    def counts(self):
        """The 34 concealed counts (winning tile included)."""
        if self._counts is None:
            self._counts = tuple([self.c[i] for i in range(KINDS)])
        return self._counts

    @property
    def meld_counts(self):
        """The 34 counts of the tiles in the melds."""
        if self._meld_counts is None:
            self._meld_counts = tuple([self.meld_c[i] for i in range(KINDS)])
        return self._meld_counts

    @property
    def all_counts(self):
        """Counts of the concealed tiles and the melds together."""
        if self._all_counts is None:
            self._all_counts = tuple([self.c[i] + self.meld_c[i] for i in range(KINDS)])
        return self._all_counts

    def counts_bytes(self):
        """The concealed counts as 34 bytes (the fastest input of every analysis function)."""
        return (<char*>self.c)[:KINDS]


# ---------------------------------------------------------------------------------------------
# Input conversion

cdef class _Input:
    """A hand argument resolved to counts + meld information."""
    cdef uint8_t buf[34]
    cdef uint8_t meld_buf[34]
    cdef const uint8_t* c
    cdef const uint8_t* meld_c
    cdef int melds
    cdef bint trusted     # already validated (a Hand)
    cdef object hand      # the Hand when there is one


cdef inline const uint8_t* _byte_storage(object obj, Py_ssize_t* n) noexcept:
    """The storage of a bytes or bytearray (no copy, no buffer acquisition) with its size in `n`, or
    NULL for any other type."""
    if type(obj) is bytes:
        n[0] = PyBytes_GET_SIZE(obj)
        return <const uint8_t*>PyBytes_AS_STRING(obj)
    if type(obj) is bytearray:
        n[0] = PyByteArray_GET_SIZE(obj)
        return <const uint8_t*>PyByteArray_AS_STRING(obj)
    return NULL


# What `_fill_counts` says an argument takes: a hand argument has other forms (parsed or read before)
_COUNTS_ONLY = "34 tile counts (a sequence or bytes)"
_COUNTS_TAKES = {"hand": "a Hand, notation text or 34 tile counts (a sequence or bytes)"}


cdef int _fill_counts(object seq, uint8_t* out, str what) except -1:
    """34 integer counts 0..4 from any sequence (floats are refused, not truncated)."""
    cdef Py_ssize_t n = 0
    cdef long v
    cdef int overflow, i
    cdef const uint8_t* raw = _byte_storage(seq, &n)
    if raw != NULL:
        # Fast path (engines build Hands from count bytes): a byte is an integer already.
        if n != KINDS:
            raise InvalidHandError(f"{what} needs 34 counts (one per tile kind), got {n}")
        for i in range(KINDS):
            if raw[i] > 4:
                raise InvalidHandError(f"{what}: {raw[i]} copies of {TILES[i]} (a count is 0..4)")
            out[i] = raw[i]
        return 0
    if isinstance(seq, str) or isinstance(seq, HandCore):  # (a hand's text was parsed before it came here)
        raise InvalidTypeError(f"{what} is 34 tile counts (a sequence or bytes), got {type(seq).__name__}"
                               + ("; a Hand's counts are hand.counts" if isinstance(seq, HandCore) else ""))
    try:
        n = len(seq)
    except TypeError:
        raise InvalidTypeError(f"{what} must be {_COUNTS_TAKES.get(what, _COUNTS_ONLY)}, got {type(seq).__name__}") from None
    if n != KINDS:
        raise InvalidHandError(f"{what} needs 34 counts (one per tile kind), got {n}")
    for i in range(KINDS):
        try:
            value = seq[i]
        except TypeError:
            raise InvalidTypeError(f"{what} must be {_COUNTS_TAKES.get(what, _COUNTS_ONLY)}, got {type(seq).__name__}") from None
        if value is True or value is False:
            raise InvalidTypeError(f"{what}: a tile count is an integer 0..4; the count of {TILES[i]} is {value!r}")
        try:
            item = PyNumber_Index(value)  # accepts NumPy integers, not 1.9
        except TypeError:
            raise InvalidTypeError(f"{what}: a tile count is an integer 0..4; the count of {TILES[i]} is {value!r}") from None
        v = PyLong_AsLongAndOverflow(item, &overflow)
        if overflow or v < 0 or v > 4:
            raise InvalidHandError(f"{what}: {item} copies of {TILES[i]} (a count is 0..4)")
        out[i] = <uint8_t>v
    return 0


cdef inline int _meld_count(object melds) except -1:
    """An int meld count 0..4 (any int object, no overflow)."""
    cdef int overflow
    cdef long m = PyLong_AsLongAndOverflow(melds, &overflow)
    if overflow or m < 0 or m > 4:
        raise InvalidHandError(f"a hand has 0 to 4 exposed melds, got {melds}")
    return <int>m


cdef inline unsigned _possible_forms(int melds):
    """The forms a hand with this many exposed melds can take."""
    return 31 if melds == 0 else (17 if melds == 1 else 1)


cdef inline int _require_possible(unsigned forms, int melds) except -1:
    if not (forms & _possible_forms(melds)):
        raise InvalidHandError(
            f"none of the requested forms ({Forms(forms)!r}) is possible with {melds} exposed meld(s): seven pairs, "
            f"thirteen orphans and honours-and-knitted need a concealed hand, the knitted straight at most one meld")
    return 0


cdef _Input _resolve(object hand, object melds):
    cdef _Input inp = _Input.__new__(_Input)
    cdef HandCore h
    if isinstance(hand, HandCore):
        h = <HandCore>hand
        inp.c = h.c
        inp.meld_c = h.meld_c
        inp.melds = h.n_melds
        inp.trusted = True
        inp.hand = hand
        _no_melds_with_hand(melds)
        return inp
    if isinstance(hand, str):
        if type(melds) is not int or melds != 0:
            raise InvalidArgumentError(
                f"a notation string carries its own melds (in brackets, e.g. '[123m]456p...'); "
                f"do not pass melds= with it (got melds={melds!r})")
        return _resolve(_parse_notation(hand), 0)
    cdef const uint8_t* raw = _raw_counts(hand)
    if raw != NULL:
        inp.c = raw
        inp.hand = hand  # keeps the storage alive
    else:
        _fill_counts(hand, inp.buf, "hand")
        inp.c = inp.buf
    memset(inp.meld_buf, 0, KINDS)
    inp.meld_c = inp.meld_buf
    if isinstance(melds, int):
        inp.melds = _meld_count(melds)
    elif hasattr(melds, "__index__") and not hasattr(melds, "__iter__"):  # a NumPy integer
        inp.melds = _meld_count(PyNumber_Index(melds))
    else:
        if type(melds) is not tuple and (isinstance(melds, (str, bytes)) or not hasattr(melds, "__iter__")):
            raise InvalidTypeError(f"melds must be an int or Meld objects, got {type(melds).__name__}")
        ms = tuple([_checked_meld(m, k) for k, m in enumerate(melds)])
        inp.melds = _meld_count(len(ms))
        for m in ms:
            _add_meld_tiles(m, inp.meld_buf)
        for i in range(KINDS):
            if inp.c[i] + inp.meld_buf[i] > 4:
                raise InvalidHandError(
                    f"{inp.c[i] + inp.meld_buf[i]} copies of {TILES[i]} in the hand and its melds (at most 4 of a kind)")
    inp.trusted = False
    return inp


cdef inline unsigned _forms(object forms) except? 0:
    cdef int overflow = 0
    cdef long f = -1
    if isinstance(forms, int):
        if not isinstance(forms, bool):  # (True is no combination of forms)
            f = PyLong_AsLongAndOverflow(forms, &overflow)
    elif hasattr(forms, "__index__"):  # a NumPy integer
        f = PyLong_AsLongAndOverflow(PyNumber_Index(forms), &overflow)
    if overflow or f <= 0 or f > 31:
        raise InvalidArgumentError(
            f"forms must be a non-empty combination of Forms flags (1..31, e.g. Forms.MCR), got {forms!r}")
    return <unsigned>f


cdef inline int _check_applicable(int value, unsigned forms, int melds) except -1:
    if value == cs.kNotApplicable:
        raise InvalidHandError(
            f"none of the requested forms ({Forms(forms)!r}) is possible with {melds} exposed meld(s)")
    return 0


# ---------------------------------------------------------------------------------------------
# Single-hand analysis

cdef inline int _no_melds_with_hand(object melds) except -1:
    if type(melds) is not int or melds != 0:
        raise InvalidArgumentError("a Hand carries its own melds; do not pass melds= with it")
    return 0


cdef inline const uint8_t* _raw_counts(object hand) except? NULL:
    """The storage of 34 counts held in bytes or a bytearray (no copy, no buffer acquisition), or
    NULL for any other type."""
    cdef Py_ssize_t n = 0
    cdef const uint8_t* data = _byte_storage(hand, &n)
    if data != NULL and n != KINDS:
        raise InvalidHandError(f"hand {type(hand).__name__} must hold 34 counts, got {n}")
    return data


# The three hot functions below have two fast paths — a Hand (validated at construction, so the
# unchecked C++ function is called) and 34 bytes with an int meld count (validated in C++) — before
# the general conversion of notation strings and sequences.

cdef inline int _check_flag(object value, str name) except -1:
    if value is not True and value is not False:
        raise InvalidTypeError(f"{name} is True or False, got {value!r}")
    return 0


def shanten(hand, forms=Forms.MCR, *, melds=0, exclude_exhausted=False):
    """Shanten number: -1 complete, 0 ready, n = n tiles from ready.

    `hand`: a Hand, notation string, 34 counts (sequence) or 34 bytes; raw counts take their
    exposed melds from `melds` (a count or Meld objects), never from the tile count. The hand holds
    13 - 3*melds or 14 - 3*melds concealed tiles.

    By default a target may use a fifth copy of a kind (a hand whose only wait is a kind it holds
    four of is ready, as in MCR's rule that such a wait still counts); `exclude_exhausted=True`
    forbids that for the concealed tiles (the definition of Riichi tools).
    Raises InvalidHandError for an impossible hand or when no requested form can apply.
    """
    _check_flag(exclude_exhausted, "exclude_exhausted")
    return _shanten_of(hand, _forms(forms), melds, exclude_exhausted)


cdef uint64_t waits_of_counts(const uint8_t* counts, int melds, unsigned forms) noexcept nogil:
    """C entry (see _core.pxd): `cs.waits` without its exception; ~0 when the input is invalid."""
    if not cs.input_is_valid(counts, melds, forms, cs.TileCount.Waiting, True):
        return ~(<uint64_t>0)
    return cs.waits_unchecked(counts, melds, forms)


cdef int shanten_of_counts(const uint8_t* counts, int melds, unsigned forms) noexcept nogil:
    """C entry (see _core.pxd): `cs.shanten` without its exception; SHANTEN_INVALID when invalid."""
    if not cs.input_is_valid(counts, melds, forms, cs.TileCount.Either, False):
        return SHANTEN_INVALID
    cdef int value = cs.shanten_unchecked(counts, melds, forms)
    return SHANTEN_INVALID if value == cs.kNotApplicable else value


cdef uint64_t best_discards_of_counts(const uint8_t* counts, int melds, unsigned forms) noexcept nogil:
    """C entry (see _core.pxd): `cs.best_discards` without its exception, packed as
    (shanten + 1) << 34 | tiles; ~0 when the input is invalid."""
    if not cs.input_is_valid(counts, melds, forms, cs.TileCount.Complete, True):
        return ~(<uint64_t>0)
    cdef cs.BestDiscards b = cs.best_discards_unchecked(counts, melds, forms)
    return ((<uint64_t>(b.shanten + 1)) << 34) | b.tiles


def _shanten_melds(hand, forms, melds):
    """`shanten(hand, forms, melds=melds)` with every argument positional: the engine's and the
    bots' hot call (from compiled code a keyword argument costs a dict per call, more than the rest
    of the call's overhead)."""
    return _shanten_of(hand, _forms(forms), melds, False)


cdef object _shanten_of(object hand, unsigned f, object melds, bint exclude_exhausted):
    cdef HandCore h
    cdef int r
    if isinstance(hand, HandCore):
        _no_melds_with_hand(melds)
        h = <HandCore>hand
        r = cs.shanten_limited_unchecked(h.c, h.n_melds, f) if exclude_exhausted else cs.shanten_unchecked(h.c, h.n_melds, f)
        _check_applicable(r, f, h.n_melds)
        return r
    cdef const uint8_t* raw = _raw_counts(hand) if type(melds) is int else NULL
    if raw != NULL:
        if exclude_exhausted:
            return cs.shanten_limited(raw, _meld_count(melds), f)
        return cs.shanten(raw, _meld_count(melds), f)
    cdef _Input inp = _resolve(hand, melds)
    return cs.shanten_limited(inp.c, inp.melds, f) if exclude_exhausted else cs.shanten(inp.c, inp.melds, f)


def is_winning(hand, forms=Forms.MCR, *, melds=0):
    """True when the hand (14 - 3*melds concealed tiles) is complete in one of `forms`."""
    cdef unsigned f = _forms(forms)
    cdef HandCore h
    if isinstance(hand, HandCore):
        h = <HandCore>hand
        _check_hand_call(h, melds, f, cs.TileCount.Complete)
        return cs.is_winning_unchecked(h.c, h.n_melds, f)
    cdef const uint8_t* raw = _raw_counts(hand) if type(melds) is int else NULL
    if raw != NULL:
        return cs.is_winning(raw, _meld_count(melds), f)
    cdef _Input inp = _resolve(hand, melds)
    return cs.is_winning(inp.c, inp.melds, f)


cdef inline int _check_hand_call(HandCore h, object melds, unsigned forms, cs.TileCount expect) except -1:
    """A Hand passed to a call that needs a given size: no melds= beside it, the size, the forms."""
    _no_melds_with_hand(melds)
    if h.n_tiles != (13 if expect == cs.TileCount.Waiting else 14) - 3 * h.n_melds:
        cs.validate_hand(h.c, h.n_melds, expect)
    _require_possible(forms, h.n_melds)
    return 0


cdef uint64_t _waits_bits(object hand, unsigned f, object melds, bint exclude_exhausted) except? 0xFFFFFFFFFFFFFFFF:
    cdef HandCore h
    cdef _Input inp
    cdef const uint8_t* c
    cdef const uint8_t* meld_c
    cdef uint64_t w
    cdef int i
    if isinstance(hand, HandCore):
        h = <HandCore>hand
        _check_hand_call(h, melds, f, cs.TileCount.Waiting)
        w = cs.waits_unchecked(h.c, h.n_melds, f)
        c, meld_c = h.c, h.meld_c
    elif not exclude_exhausted and type(melds) is int and _raw_counts(hand) != NULL:
        return cs.waits(_raw_counts(hand), _meld_count(melds), f)
    else:
        inp = _resolve(hand, melds)
        w = cs.waits(inp.c, inp.melds, f)
        c, meld_c = inp.c, inp.meld_c
    if exclude_exhausted:
        for i in range(KINDS):
            if c[i] + meld_c[i] >= 4:
                w &= ~((<uint64_t>1) << i)
    return w


def _waits_mask_melds(hand, forms, melds):
    """`waits_mask(hand, forms, melds=melds)` with every argument positional (see `_shanten_melds`)."""
    return _waits_bits(hand, _forms(forms), melds, False)


def waits(hand, forms=Forms.MCR, *, melds=0, exclude_exhausted=False):
    """Tiles that complete a ready hand of 13 - 3*melds concealed tiles (empty if not ready).

    With `exclude_exhausted`, kinds whose four copies are all in the hand and its melds are dropped.
    """
    _check_flag(exclude_exhausted, "exclude_exhausted")
    return _tiles_of(_waits_bits(hand, _forms(forms), melds, exclude_exhausted))


def waits_mask(hand, forms=Forms.MCR, *, melds=0, exclude_exhausted=False):
    """Waits as a 34-bit integer mask (bit i = Tile(i)); the allocation-free form for engines."""
    _check_flag(exclude_exhausted, "exclude_exhausted")
    return _waits_bits(hand, _forms(forms), melds, exclude_exhausted)


def best_discards(hand, forms=Forms.MCR, *, melds=0):
    """For a 14 - 3*melds hand: `(shanten, mask)` — the lowest shanten any discard reaches and the
    kinds whose discard reaches it, as a 34-bit mask (bit i = Tile(i)). The allocation-free form of
    `discard_options` for bots and engines (no effective-tile counting)."""
    cdef unsigned f = _forms(forms)
    cdef HandCore h
    cdef cs.BestDiscards b
    if isinstance(hand, HandCore):
        h = <HandCore>hand
        _check_hand_call(h, melds, f, cs.TileCount.Complete)
        b = cs.best_discards_unchecked(h.c, h.n_melds, f)
    elif type(melds) is int and _raw_counts(hand) != NULL:
        b = cs.best_discards(_raw_counts(hand), _meld_count(melds), f)
    else:
        inp = _resolve(hand, melds)
        b = cs.best_discards(inp.c, inp.melds, f)
    return b.shanten, b.tiles


cdef tuple _tiles_of(uint64_t mask):
    cdef list out = []
    cdef int i
    while mask:
        i = _lowest_bit(mask)
        out.append(TILES[i])
        mask &= mask - 1
    return tuple(out)


cdef extern from "Python.h":
    int PyObject_GenericSetAttr(object obj, object name, object value) except -1

from cpython.object cimport PyObject, PyTypeObject
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF

cdef tuple _NO_ARGS = ()


cdef inline object _object_new(type cls):
    """`object.__new__(cls)` through the type's tp_new slot: a Python-level call of object.__new__
    goes through the generic call machinery (~700 instructions, more than filling the object)."""
    return (<PyTypeObject*>cls).tp_new(cls, <PyObject*>_NO_ARGS, NULL)


cdef inline object _frozen(type cls, dict fields):
    """A frozen model instance with these fields, without its __init__ (which sets
    each field through object.__setattr__, ~1 µs for a DiscardOption). Only for the model classes
    that do not validate (Block, Decomposition). The fields are slots, set here
    through the generic setter, which bypasses the classes' frozen `__setattr__`."""
    obj = _object_new(cls)
    for name, value in fields.items():
        PyObject_GenericSetAttr(obj, name, value)
    return obj


@cython.auto_pickle(False)
@cython.final
@cython.no_gc  # its only object field is the dict it builds of its own tiles and counts: no cycles
cdef class EffectiveTiles:
    """Effective tiles -> unseen copies, in tile order: a read-only mapping (Tile -> int) that
    compares equal to the dict it stands for. It holds a 34-bit mask and 34 counts; the dict is
    only built if `keys()`, `items()`, `values()` or `dict()` ask for it.

    `mask` (bit i = Tile(i)) and `total` (unseen copies of all listed kinds) are the allocation-free
    views for engines and bots."""
    cdef readonly uint64_t mask
    cdef int8_t rem[34]
    cdef dict _dict

    def __len__(self):
        return _popcount(self.mask)

    def __bool__(self):
        return self.mask != 0

    cdef inline int _index(self, object key) except -2:
        """The kind of `key` when it is listed, else -1."""
        cdef int overflow
        cdef long i
        if not isinstance(key, int):
            return -1
        i = PyLong_AsLongAndOverflow(key, &overflow)
        if overflow or i < 0 or i >= KINDS or not (self.mask >> i) & 1:
            return -1
        return <int>i

    def __getitem__(self, key):
        cdef int i = self._index(key)
        if i < 0:
            raise KeyError(key)
        return self.rem[i]

    def __contains__(self, key):
        return self._index(key) >= 0

    def get(self, key, default=None, /):
        cdef int i = self._index(key)
        return default if i < 0 else self.rem[i]

    def __iter__(self):
        return iter(_tiles_of(self.mask))

    def to_dict(self):
        """The plain dict (built once, then shared by keys/items/values; a copy is returned)."""
        return dict(self._as_dict())

    cdef dict _as_dict(self):
        if self._dict is None:
            self._dict = _effective_dict(self.mask, self.rem)
        return self._dict

    def keys(self):
        return self._as_dict().keys()

    def items(self):
        return self._as_dict().items()

    def values(self):
        return self._as_dict().values()

    @property
    def total(self):
        """Unseen copies of all listed kinds."""
        return _unseen_total(self.mask, self.rem)

    def __eq__(self, other):
        cdef EffectiveTiles o
        cdef int i
        cdef uint64_t m
        if isinstance(other, EffectiveTiles):
            o = <EffectiveTiles>other
            if o.mask != self.mask:
                return False
            m = self.mask
            while m:
                i = _lowest_bit(m)
                if o.rem[i] != self.rem[i]:
                    return False
                m &= m - 1
            return True
        if isinstance(other, dict) or isinstance(other, _Mapping):
            return self._as_dict() == other
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # like the dict it stands for

    def __repr__(self):
        return repr(self._as_dict())

    def __reduce__(self):
        return (dict, (self._as_dict(),))


from collections.abc import Mapping as _Mapping
_Mapping.register(EffectiveTiles)


@cython.final
@cython.auto_pickle(False)
cdef class _Unseen:
    """Unseen copies per kind, shared by the options of one `discard_options` call."""
    cdef int8_t rem[34]


@cython.freelist(32)
@cython.final
@cython.no_gc
@cython.auto_pickle(False)
cdef class DiscardOption:
    """A discard of a 14 - 3*melds hand: the shanten after it and the effective tiles then.

    Frozen; `DiscardOption(tile, shanten, effective={})` as the dataclass it replaces, equal to an
    option with the same three fields. `discard_options` builds 13 of these per call, so they are
    a C type whose `effective` mapping (an `EffectiveTiles`) is only created when first read; `total`
    needs no mapping. Not tracked by the cyclic GC (a caller keeping thousands of options alive
    would otherwise pay for collections that traverse them): its fields are a tile, an int and a
    mapping of tiles to counts, which cannot lead back to the option."""
    cdef readonly object tile
    cdef readonly object shanten
    cdef object _effective   # None until built from _mask and _unseen
    cdef uint64_t _mask
    cdef _Unseen _unseen

    __match_args__ = ("tile", "shanten", "effective")

    def __init__(self, tile, shanten, effective=None):
        self.tile = tile
        self.shanten = shanten
        self._effective = {} if effective is None else effective

    @property
    def effective(self):
        """Effective tiles after the discard -> unseen copies (an `EffectiveTiles` mapping)."""
        cdef EffectiveTiles e
        if self._effective is None:
            if self._unseen is None:  # made by DiscardOption.__new__ alone
                self._effective = {}
                return self._effective
            e = EffectiveTiles.__new__(EffectiveTiles)
            e.mask = self._mask
            memcpy(e.rem, self._unseen.rem, KINDS)
            self._effective = e
        return self._effective

    @property
    def total(self):
        """Unseen copies of all effective tiles."""
        if self._effective is None and self._unseen is not None:
            return _unseen_total(self._mask, self._unseen.rem)
        return sum(self.effective.values())

    def __eq__(self, other):
        if type(other) is not DiscardOption:
            return NotImplemented
        o = <DiscardOption>other
        return self.tile == o.tile and self.shanten == o.shanten and self.effective == o.effective

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        # Frozen, so hashable (a set of options, a dict keyed by them): equal options hash alike, the
        # mapping through its items (an EffectiveTiles is a dict's equal and is not hashable itself)
        return hash((self.tile, self.shanten, frozenset(self.effective.items())))

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field {name!r}: DiscardOption is frozen")

    def __delattr__(self, name):
        raise AttributeError(f"cannot delete field {name!r}: DiscardOption is frozen")

    def __repr__(self):
        tiles = "".join(str(t) for t in self.effective)
        return f"DiscardOption({self.tile}: shanten {self.shanten}, {self.total} tiles {tiles})"

    def __reduce__(self):
        return (DiscardOption, (self.tile, self.shanten, dict(self.effective)))


cdef inline DiscardOption _discard_option(int tile, int shanten, uint64_t mask, _Unseen unseen):
    cdef DiscardOption o = DiscardOption.__new__(DiscardOption)
    o.tile = TILES[tile]
    o.shanten = shanten
    o._mask = mask
    o._unseen = unseen
    return o


cdef inline int _popcount(uint64_t m) noexcept:
    cdef int n = 0
    while m:
        m &= m - 1
        n += 1
    return n


cdef inline int _unseen_total(uint64_t m, const int8_t* rem) noexcept:
    cdef int total = 0
    while m:
        total += rem[_lowest_bit(m)]
        m &= m - 1
    return total


cdef inline EffectiveTiles _effective_result(uint64_t mask, const int* rem):
    cdef EffectiveTiles out = EffectiveTiles.__new__(EffectiveTiles)
    cdef int i
    out.mask = mask
    for i in range(KINDS):
        out.rem[i] = <int8_t>rem[i]
    return out


cdef inline int _remaining_of(const uint8_t* c, const uint8_t* meld_c, object visible, int* out) except -1:
    """Unseen copies per kind: 4 - own (concealed + melds) - visible."""
    cdef uint8_t vis[34]
    cdef int i, n
    if visible is None:
        for i in range(KINDS):
            out[i] = 4 - c[i] - meld_c[i]
        return 0
    if type(visible) is bytes and PyBytes_GET_SIZE(visible) == KINDS:
        memcpy(vis, PyBytes_AS_STRING(visible), KINDS)  # a count above 4 fails the check below
    else:
        _fill_counts(visible, vis, "visible")
    for i in range(KINDS):
        n = 4 - c[i] - meld_c[i] - vis[i]
        if n < 0:
            raise InvalidHandError(
                f"the hand, its melds and `visible` hold {4 - n} copies of {TILES[i]} (at most 4)")
        out[i] = n
    return 0


cdef uint8_t _NO_MELD_TILES[34]
memset(_NO_MELD_TILES, 0, 34)


def effective_tiles(hand, forms=Forms.MCR, visible=None, *, melds=0):
    """Tiles that lower the shanten of a 13 - 3*melds hand -> unseen copies of each.

    `visible`: 34 counts already seen elsewhere (discards, others' melds). Kinds the player holds
    all four of are never listed; a listed kind may have 0 unseen copies left. The result is an
    `EffectiveTiles` mapping (Tile -> unseen copies, equal to the dict it stands for; `.mask` and
    `.total` need no dict).
    """
    cdef unsigned f = _forms(forms)
    cdef int rem[34]
    cdef cs.Effective e
    cdef HandCore h
    cdef _Input inp
    cdef const uint8_t* raw
    if isinstance(hand, HandCore):
        # The hot path (bots): a validated Hand needs only its size checked.
        h = <HandCore>hand
        _no_melds_with_hand(melds)
        if h.n_tiles != 13 - 3 * h.n_melds:
            cs.validate_hand(h.c, h.n_melds, cs.TileCount.Waiting)
        _remaining_of(h.c, h.meld_c, visible, rem)
        e = cs.effective_unchecked(h.c, h.n_melds, f, cs.drawable_mask(h.c, h.meld_c))
        _check_applicable(e.shanten, f, h.n_melds)
        return _effective_result(e.tiles, rem)
    raw = _raw_counts(hand) if type(melds) is int else NULL
    if raw != NULL:
        _remaining_of(raw, _NO_MELD_TILES, visible, rem)
        e = cs.effective(raw, _meld_count(melds), f, cs.drawable_mask(raw, NULL))
        return _effective_result(e.tiles, rem)
    inp = _resolve(hand, melds)
    _remaining_of(inp.c, inp.meld_c, visible, rem)
    cdef uint64_t drawable = cs.drawable_mask(inp.c, inp.meld_c)
    if inp.trusted:
        cs.validate_hand(inp.c, inp.melds, cs.TileCount.Waiting)
        e = cs.effective_unchecked(inp.c, inp.melds, f, drawable)
        _check_applicable(e.shanten, f, inp.melds)
    else:
        e = cs.effective(inp.c, inp.melds, f, drawable)
    return _effective_result(e.tiles, rem)


def discard_options(hand, forms=Forms.MCR, visible=None, *, melds=0):
    """Every distinct discard of a 14 - 3*melds hand, best first.

    Each `DiscardOption` has the shanten after the discard and the effective tiles then (an
    `EffectiveTiles` mapping), with unseen copies (the discarded tile counts as seen). Order: lower
    shanten, then more unseen effective tiles, then tile order.
    """
    cdef unsigned f = _forms(forms)
    cdef _Input inp = _resolve(hand, melds)
    cdef int rem[34]
    _remaining_of(inp.c, inp.meld_c, visible, rem)
    cdef vector[cs.DiscardOption] opts = cs.discard_options(inp.c, inp.melds, f, inp.meld_c)
    cdef size_t n = opts.size(), i, j
    cdef long long keys[34]
    cdef long long key
    cdef int total
    # Sort key packed into one integer: shanten, then more unseen tiles, then the tile.
    for i in range(n):
        total = _unseen_total_int(opts[i].effective, rem)
        keys[i] = ((<long long>(opts[i].shanten + 8)) << 24) | ((<long long>(1023 - total)) << 8) | opts[i].tile
    for i in range(1, n):  # insertion sort: at most 14 entries
        key = keys[i]
        j = i
        while j > 0 and keys[j - 1] > key:
            keys[j] = keys[j - 1]
            j -= 1
        keys[j] = key
    cdef _Unseen unseen = _Unseen.__new__(_Unseen)
    for i in range(KINDS):
        unseen.rem[i] = <int8_t>rem[i]
    cdef list out = PyList_New(n)
    cdef int tile
    cdef const cs.DiscardOption* o
    cdef DiscardOption item
    for i in range(n):
        tile = <int>(keys[i] & 0xFF)
        for j in range(n):
            if opts[j].tile == tile:
                o = &opts[j]
                break
        item = _discard_option(tile, o.shanten, o.effective, unseen)
        Py_INCREF(item)
        PyList_SET_ITEM(out, i, item)
    return out


cdef inline int _unseen_total_int(uint64_t m, const int* rem) noexcept:
    cdef int total = 0
    while m:
        total += rem[_lowest_bit(m)]
        m &= m - 1
    return total


cdef dict _effective_dict(uint64_t mask, const int8_t* rem):
    cdef dict out = {}
    cdef int i
    while mask:
        i = _lowest_bit(mask)
        out[TILES[i]] = rem[i]
        mask &= mask - 1
    return out


cdef dict _block_cache = {}


cdef object _py_block(const cd.Block& b):
    """The Block value of a C++ block (frozen, so equal blocks are one shared object)."""
    cdef int key = ((<int>b.kind * 34 + b.tile) * 2 + (1 if b.concealed else 0)) * 8 + b.meld + 1
    obj = _block_cache.get(key)
    if obj is None:
        obj = _frozen(PyBlock, {"kind": BLOCK_KINDS[<int>b.kind], "tile": TILES[b.tile],
                                "concealed": bool(b.concealed), "meld": None if b.meld < 0 else b.meld})
        _block_cache[key] = obj
    return obj


def decompositions(hand, forms=Forms.MCR):
    """Every distinct reading of a complete hand (14 - 3*melds concealed tiles + its melds).

    Returns a tuple of `Decomposition` (empty when the hand is not complete). Raw counts cannot
    carry melds here: pass a Hand (or notation) for hands with melds.
    """
    cdef unsigned f = _forms(forms)
    cdef _Input inp = _resolve(hand, 0)
    cdef const cd.MeldSpec* specs = NULL
    cdef int n = 0
    if inp.trusted:
        specs = (<HandCore>inp.hand).specs
        n = (<HandCore>inp.hand).n_melds
    cdef vector[cd.Decomposition] ds = cd.decompose(inp.c, specs, n, f)
    return tuple([_py_decomposition(d) for d in ds])


cdef object _py_decomposition(const cd.Decomposition& d):
    """The Python `Decomposition` of a C++ one (fields filled directly: see _frozen)."""
    cdef int i
    form = FORM_OF_FLAG[d.form]
    arrangement = None if d.knitted < 0 else d.knitted
    sets, pair, pairs = (), None, ()
    if d.form == 2:  # seven pairs
        pairs = tuple([TILES[d.blocks[i].tile] for i in range(d.n_blocks)])
        arrangement = None
    elif d.form == 4:  # thirteen orphans
        pair = TILES[d.blocks[0].tile]
        arrangement = None
    elif d.form != 8:  # standard, knitted straight (honours and knitted: arrangement only)
        sets = tuple([_py_block(d.blocks[i]) for i in range(d.n_blocks - 1)])
        pair = TILES[d.blocks[d.n_blocks - 1].tile]
    return _frozen(PyDecomposition, {"form": form, "sets": sets, "pair": pair, "pairs": pairs,
                                     "arrangement": arrangement})


# ---------------------------------------------------------------------------------------------
# Batch kernels (wrapped by mahjong_core.batch)

# `melds_rows` is empty when every row has `melds` exposed melds, else one count per row. The
# kernels check every length against N themselves: they are reachable from Python, and a short
# `out` or `melds_rows` would otherwise be written or read past its end.

cdef int _check_batch_lengths(Py_ssize_t n, Py_ssize_t melds_rows, Py_ssize_t out, Py_ssize_t per_row) except -1:
    if melds_rows != 0 and melds_rows != n:
        raise InvalidArgumentError(f"melds_rows must be empty or hold one meld count per row ({n}), got {melds_rows}")
    if out != n * per_row:
        raise InvalidArgumentError(f"out must hold {n * per_row} entries ({n} rows x {per_row}), got {out}")
    return 0


def _batch_shanten(const uint8_t[:, ::1] counts, int melds, const uint8_t[::1] melds_rows, unsigned forms,
                   bint limited, int8_t[::1] out):
    cdef Py_ssize_t n = counts.shape[0]
    _check_batch_lengths(n, melds_rows.shape[0], out.shape[0], 1)
    if n == 0:
        return
    cdef const uint8_t* per_row = &melds_rows[0] if melds_rows.shape[0] else NULL
    with nogil:
        cb.batch_shanten(&counts[0, 0], n, per_row, melds, forms, limited, &out[0])


def _batch_is_winning(const uint8_t[:, ::1] counts, int melds, const uint8_t[::1] melds_rows, unsigned forms,
                      uint8_t[::1] out):
    cdef Py_ssize_t n = counts.shape[0]
    _check_batch_lengths(n, melds_rows.shape[0], out.shape[0], 1)
    if n == 0:
        return
    cdef const uint8_t* per_row = &melds_rows[0] if melds_rows.shape[0] else NULL
    with nogil:
        cb.batch_is_winning(&counts[0, 0], n, per_row, melds, forms, &out[0])


def _batch_waits(const uint8_t[:, ::1] counts, int melds, const uint8_t[::1] melds_rows, unsigned forms,
                 uint8_t[::1] out):
    cdef Py_ssize_t n = counts.shape[0]
    _check_batch_lengths(n, melds_rows.shape[0], out.shape[0], KINDS)
    if n == 0:
        return
    cdef const uint8_t* per_row = &melds_rows[0] if melds_rows.shape[0] else NULL
    with nogil:
        cb.batch_waits(&counts[0, 0], n, per_row, melds, forms, &out[0])


# The fast path of mahjong_core.batch for its common input — a C-contiguous (N, 34) uint8 NumPy
# array, an int meld count or a uint8 array of per-row counts — in one C call: two buffer
# acquisitions and one np.empty instead of typed-memoryview conversions and Python-level checks
# (which cost ~1.5 µs per call, as much as 50 hands). Anything else returns None and takes the
# general path in batch.py, which also words the errors for odd inputs.

cdef object _np_module = None
cdef object _np_ndarray = None
cdef object _np_empty = None
cdef object _np_int8 = None
cdef object _np_bool = None
cdef object _np_uint8 = None

cdef enum:
    _BATCH_SHANTEN = 0
    _BATCH_IS_WINNING = 1
    _BATCH_WAITS = 2

from cpython.ref cimport PyObject

cdef extern from "_ndarray.h":
    ctypedef struct mc_ndarray_head:
        char* data
        int nd
        Py_ssize_t* dimensions
        PyObject* descr
        int flags
    mc_ndarray_head* mc_ndarray(object obj)
    int MC_NPY_C_CONTIGUOUS
    int MC_NPY_ALIGNED


cdef inline mc_ndarray_head* _u8_array(object obj, int nd, Py_ssize_t cols) noexcept:
    """The head of `obj` when it is an aligned C-contiguous uint8 ndarray of `nd` dimensions (the
    second of size `cols`), else NULL. `type(obj) is numpy.ndarray` is checked by the caller."""
    cdef mc_ndarray_head* a = mc_ndarray(obj)
    cdef int need = MC_NPY_C_CONTIGUOUS | MC_NPY_ALIGNED
    if a.descr != <PyObject*>_np_uint8 or a.nd != nd or (a.flags & need) != need:
        return NULL
    if nd == 2 and a.dimensions[1] != cols:
        return NULL
    return a


def _batch_fast(int op, counts, melds, forms, bint limited, np):
    """Run batch operation `op` on a NumPy uint8 (N, 34) array; None when the input needs the
    general path. `np` is mahjong_core.batch's NumPy module (None when absent or not yet loaded)."""
    global _np_module, _np_ndarray, _np_empty, _np_int8, _np_bool, _np_uint8
    if np is not _np_module:
        if np is None or not hasattr(np, "ndarray"):
            return None  # NumPy absent, or not loaded yet (batch.py loads it on the general path)
        _np_ndarray, _np_empty = np.ndarray, np.empty
        _np_int8, _np_bool, _np_uint8 = np.dtype(np.int8), np.dtype(np.bool_), np.dtype(np.uint8)
        _np_module = np
    if type(counts) is not _np_ndarray or not isinstance(forms, int):
        return None
    cdef mc_ndarray_head* rows = _u8_array(counts, 2, KINDS)
    if rows == NULL:
        return None
    cdef unsigned f = _forms(forms)
    cdef int single = 0, overflow = 0
    cdef Py_ssize_t n = rows.dimensions[0]
    cdef const uint8_t* per = NULL
    cdef mc_ndarray_head* m
    if type(melds) is int:
        single = PyLong_AsLongAndOverflow(melds, &overflow)
        if overflow or single < 0 or single > 4:
            return None  # batch.py words the error
    elif type(melds) is _np_ndarray:
        m = _u8_array(melds, 1, 0)
        if m == NULL or m.dimensions[0] != n:
            return None
        per = <const uint8_t*>m.data
    else:
        return None
    if op == _BATCH_WAITS:
        out = _np_empty((n, KINDS), _np_bool)
    else:
        out = _np_empty(n, _np_int8 if op == _BATCH_SHANTEN else _np_bool)
    if n == 0:
        return out
    cdef void* dest = mc_ndarray(out).data
    cdef const uint8_t* src = <const uint8_t*>rows.data
    # `counts` and `melds` stay referenced by this frame, so their data outlives the nogil call.
    if n < 64:  # releasing the GIL costs more than a few hands
        _batch_run(op, src, n, per, single, f, limited, dest)
    else:
        with nogil:
            _batch_run(op, src, n, per, single, f, limited, dest)
    return out


cdef int _batch_run(int op, const uint8_t* rows, Py_ssize_t n, const uint8_t* per_row, int melds, unsigned forms,
                    bint limited, void* out) except -1 nogil:
    if op == _BATCH_SHANTEN:
        cb.batch_shanten(rows, n, per_row, melds, forms, limited, <int8_t*>out)
    elif op == _BATCH_IS_WINNING:
        cb.batch_is_winning(rows, n, per_row, melds, forms, <uint8_t*>out)
    else:
        cb.batch_waits(rows, n, per_row, melds, forms, <uint8_t*>out)
    return 0


# ---------------------------------------------------------------------------------------------
# Wall shuffle (the game engine's; see python/game/wall.py)

def _shuffle_with_words(bytearray tiles not None, bytes words not None):
    """Fisher–Yates over `tiles` in place, one little-endian 16-bit word of `words` per position
    (rejection sampling); the number of words used, or -1 (tiles unchanged) if they ran out."""
    cdef Py_ssize_t n = PyByteArray_GET_SIZE(tiles)
    if n > cshuffle.kMaxShuffleSize:
        raise InvalidArgumentError(f"a shuffled wall holds at most {cshuffle.kMaxShuffleSize} tiles, got {n}")
    return cshuffle.shuffle_with_words(<uint8_t*>PyByteArray_AS_STRING(tiles), <int>n,
                                       <const uint8_t*>PyBytes_AS_STRING(words), PyBytes_GET_SIZE(words) // 2)

def _blake2b(bytes msg not None, bytes key not None, bytes salt not None, bytes person not None, int digest_size):
    """BLAKE2b of `msg` (key <= 64 bytes, salt and person <= 16, zero-padded; digest 1..64 bytes):
    the same bytes as hashlib.blake2b(msg, key=, salt=, person=, digest_size=)."""
    if not 1 <= digest_size <= 64:
        raise InvalidArgumentError(f"a BLAKE2b digest has 1..64 bytes, got {digest_size}")
    out = PyBytes_FromStringAndSize(NULL, digest_size)
    cshuffle.blake2b(<const uint8_t*>PyBytes_AS_STRING(msg), PyBytes_GET_SIZE(msg),
                     <const uint8_t*>PyBytes_AS_STRING(key), PyBytes_GET_SIZE(key),
                     <const uint8_t*>PyBytes_AS_STRING(salt), PyBytes_GET_SIZE(salt),
                     <const uint8_t*>PyBytes_AS_STRING(person), PyBytes_GET_SIZE(person),
                     digest_size, <uint8_t*>PyBytes_AS_STRING(out))
    return out


def _blake2b_stream(bytes key not None, bytes salt not None, bytes person not None, first_block, blocks):
    """The wall generator's blocks first_block .. first_block + blocks - 1 (python/game/wall.py): the
    64-byte BLAKE2b digest of each block number as 8 little-endian bytes, concatenated."""
    if isinstance(first_block, bool) or not isinstance(first_block, int) or not 0 <= first_block < 1 << 64:
        raise InvalidArgumentError(f"first_block must be an integer 0 .. 2**64 - 1, got {first_block!r}")
    if isinstance(blocks, bool) or not isinstance(blocks, int) or not 0 <= blocks <= 1 << 16:
        raise InvalidArgumentError(f"blocks must be an integer 0 .. 65536, got {blocks!r}")
    if first_block + blocks > 1 << 64:
        raise InvalidArgumentError("the block numbers must stay below 2**64")
    cdef size_t n = blocks
    out = PyBytes_FromStringAndSize(NULL, 64 * n)
    cshuffle.blake2b_counter_stream(<const uint8_t*>PyBytes_AS_STRING(key), PyBytes_GET_SIZE(key),
                                    <const uint8_t*>PyBytes_AS_STRING(salt), PyBytes_GET_SIZE(salt),
                                    <const uint8_t*>PyBytes_AS_STRING(person), PyBytes_GET_SIZE(person),
                                    <unsigned long long>first_block, n, <uint8_t*>PyBytes_AS_STRING(out))
    return out


include "_notation.pxi"
include "_mcr.pxi"
