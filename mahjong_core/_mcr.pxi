# MCR scoring glue (included at the end of _core.pyx). The public API is mahjong_core.rules.mcr.
#
# Hot path notes: `_mcr_score` reads a Hand's counts straight from its C storage (a Hand is
# validated when built, so only the context is checked), converts the melds to MeldSpecs and calls
# the C++ scorer once. The fans come back as cached `Fan` objects (registered once by rules.mcr);
# the result object is a cdef class (`_MCRScoreBase`, subclassed by rules.mcr.MCRScore) filled at C
# level, and the chosen decomposition and the attribution are only built when asked for, so a
# score costs no Python object it does not return.

cimport cython
cimport mahjong_core._cpp_mcr as cmcr
cimport mahjong_core._cpp_mcr_fans as cfans
from libc.stdint cimport int16_t, uint16_t
from cpython.type cimport PyType_IsSubtype

cdef tuple _EMPTY_ARGS = ()

# Option bits (rules.mcr builds them from a Rules once per Rules).
_MCR_OPT_MIL = 1
_MCR_OPT_KNITTED_WAIT = 2
_MCR_OPT_PHANTOM_WAITS = 4
_MCR_OPT_STRICT_CONTEXT = 8
_MCR_OPT_FLOWERS = 16
_MCR_OPT_DECLARED_READY_FAN = 32
# Context flag bits.
_MCR_SELF_DRAWN = 1
_MCR_LAST_COPY = 2
_MCR_WALL_LAST = 4
_MCR_KONG = 8
_MCR_DECLARED_READY = 16
# Attribution part bits (besides the block indices 0..6).
_MCR_PART_KNITTED = cmcr.kPartKnitted
_MCR_PART_WHOLE_HAND = cmcr.kPartWholeHand
_MCR_PART_WIN_TILE = cmcr.kPartWinTile
_MCR_PART_FLOWERS = cmcr.kPartFlowers
_MCR_RECORD_BYTES = cmcr.kRecordBytes

cdef list _mcr_fan_objects = None  # [fan][count] -> the Fan value object


def _mcr_fan_table():
    """The C++ fan table (mcr_fans.h): tuple of (id, points, name_zh, name_en, excluded ids)."""
    cdef int f, g
    cdef int n = cfans.fan_count()
    ids = [cfans.fan_info(f).id.decode("ascii") for f in range(n)]
    rows = []
    for f in range(n):
        info = &cfans.fan_info(f)
        excluded = tuple([ids[g] for g in range(n) if info.excludes.has(g)])
        rows.append((ids[f], info.points, info.name_zh.decode("utf-8"), info.name_en.decode("utf-8"), excluded))
    return tuple(rows)


def _mcr_register_fans(objects):
    """Give the glue the Fan objects to return: objects[fan][count] (count 1..8)."""
    global _mcr_fan_objects
    _mcr_fan_objects = [list(row) for row in objects]


cdef inline cmcr.Options _mcr_options(unsigned bits):
    cdef cmcr.Options o
    o.mil_concealed_melded_kong = (bits & 1) != 0
    o.knitted_straight_wait_counts = (bits & 2) != 0
    o.phantom_waits_count = (bits & 4) != 0
    o.strict_context = (bits & 8) != 0
    o.flowers = (bits & 16) != 0
    o.declared_ready_fan = (bits & 32) != 0
    return o


@cython.auto_pickle(False)
cdef class _MCRScoreBase:
    """C-level storage of one MCR score; mahjong_core.rules.mcr.MCRScore adds the Python API.

    The attributes are read-only. The chosen decomposition stays a C struct until
    `decomposition` is first read; the attribution is computed on request (`_attribution_data`)
    by scoring the hand again with attribution on, so a plain score builds no object it does not
    return.
    """
    cdef readonly int total
    cdef readonly tuple fans
    cdef readonly object hand
    cdef readonly object win_tile
    cdef readonly bint self_drawn
    cdef readonly object rules
    cdef cd.Decomposition _d
    cdef object _decomposition
    cdef tuple _uses
    cdef int _flags, _seat_wind, _prevalent_wind, _flowers
    cdef unsigned _options

    @property
    def decomposition(self):
        """The reading that scored `total` (a mahjong_core.Decomposition)."""
        if self._decomposition is None:
            self._decomposition = _py_decomposition(self._d)
        return self._decomposition

    @property
    def _attribution_data(self):
        """One (fan index, parts bit mask) per counted fan instance (花牌 once), in table order."""
        cdef cmcr.Score s
        cdef int i
        if self._uses is None:
            _mcr_call(<HandCore>self.hand, self.win_tile, self._flags, self._seat_wind, self._prevalent_wind,
                      self._flowers, self._options, True, &s)
            self._uses = tuple([(s.uses[i].fan, s.uses[i].parts) for i in range(s.n_uses)])
        return self._uses

    @property
    def _context(self):
        """(flags, seat wind, prevalent wind, flowers) as given to the scorer."""
        return (self._flags, self._seat_wind, self._prevalent_wind, self._flowers)


cdef bint _mcr_call(HandCore hand, int win_tile, unsigned flags, int seat_wind, int prevalent_wind, int flowers,
                    unsigned options, bint attribute, cmcr.Score* out) except -1:
    """Validate the arguments and run the C++ scorer; returns whether the hand wins."""
    cdef cmcr.Context ctx
    cdef cmcr.Options opts = _mcr_options(options)
    if win_tile < 0 or win_tile > 33:
        raise InvalidHandError(f"winning tile index {win_tile} is not 0..33")
    if seat_wind < 0 or seat_wind > 3 or prevalent_wind < 0 or prevalent_wind > 3:
        raise InvalidHandError(f"winds are 0..3 (East South West North), got seat {seat_wind}, prevalent {prevalent_wind}")
    if flowers < 0 or flowers > 8:
        raise InvalidHandError(f"flowers must be 0..8, got {flowers}")
    ctx.win_tile = <uint8_t>win_tile
    ctx.self_drawn = (flags & 1) != 0
    ctx.last_copy = (flags & 2) != 0
    ctx.wall_last = (flags & 4) != 0
    ctx.kong = (flags & 8) != 0
    ctx.declared_ready = (flags & 16) != 0
    ctx.seat_wind = <uint8_t>seat_wind
    ctx.prevalent_wind = <uint8_t>prevalent_wind
    ctx.flowers = <uint8_t>flowers
    # A Hand was validated when it was built: only the winning tile and the context are checked.
    return cmcr.score_valid_hand(hand.c, hand.specs, hand.n_melds, ctx, opts, out, attribute)


def _mcr_score(type cls, HandCore hand, object win_tile, unsigned flags, int seat_wind, int prevalent_wind,
               int flowers, object rules, unsigned options):
    """Score a Hand into a new `cls` (a subclass of _MCRScoreBase); None if it does not win."""
    return _mcr_score_hand(cls, hand, win_tile, flags, seat_wind, prevalent_wind, flowers, rules, options)


def _mcr_score_text(type cls, text, object rules, unsigned options):
    """`mcr.score(text, rules=...)` with no other argument: the notation is parsed natively and its
    `|PS####|F` context comes back from the parser as C ints, so the common text input pays no
    Python-level argument handling nor attribute reads (it is what the comparisons with
    PyMahjongGB measure). Returns NotImplemented when the text has no winning tile; the caller
    words that error."""
    return _mcr_score_text_c(cls, text, rules, options)


cdef object _mcr_score_text_c(type cls, object text, object rules, unsigned options):
    cdef _TextContext tc
    tc.native = False
    cdef HandCore hand = <HandCore>_parse_text(text, &tc)
    win = hand.win_tile
    if win is None:
        return NotImplemented
    if not tc.native:  # the reference parsed it (an unusual spelling): read its context object
        tc.flags = 0
        tc.seat_wind = tc.prevalent_wind = tc.flowers = 0
        ctx = hand.context
        if ctx is not None:  # made by the parser just now, so already validated (winds 0..3, flowers 0..8)
            if ctx.self_drawn:
                tc.flags |= _MCR_SELF_DRAWN
            if ctx.last_copy:
                tc.flags |= _MCR_LAST_COPY
            if ctx.wall_last:
                tc.flags |= _MCR_WALL_LAST
            if ctx.kong:
                tc.flags |= _MCR_KONG
            tc.seat_wind, tc.prevalent_wind, tc.flowers = ctx.seat_wind, ctx.prevalent_wind, ctx.flowers
    return _mcr_score_hand(cls, hand, win, tc.flags, tc.seat_wind, tc.prevalent_wind, tc.flowers, rules, options)


# `mcr.score` itself (see rules.mcr.scoring.score, which documents it and whose metadata it takes).
# Its argument handling is compiled because a Python function's keyword-only defaults cost a dict
# lookup each per call (12 here: ~1,300 instructions, a sixth of a melded text score). The common
# call, notation text with at most `rules=`, is scored here; every other call goes to the Python
# definition (`_mcr_general`, all arguments positional), which holds every conversion.
cdef object _mcr_general = None
cdef type _mcr_score_cls = None
cdef type _mcr_rules_cls = None
cdef object _mcr_default_rules = None
cdef object _mcr_last_rules = None   # the Rules whose option bits _mcr_last_options holds
cdef unsigned _mcr_last_options = 0


def _mcr_bind_score(general, type score_cls, type rules_cls, default_rules):
    """Give `_mcr_score_entry` (the compiled `mcr.score`) the general path, the score class, the Rules class and the default
    rules (rules.mcr.scoring does, once)."""
    global _mcr_general, _mcr_score_cls, _mcr_rules_cls, _mcr_default_rules, _mcr_last_rules
    if not issubclass(score_cls, _MCRScoreBase):
        raise TypeError(f"{score_cls.__name__} is not a subclass of _MCRScoreBase")
    _mcr_general, _mcr_score_cls, _mcr_rules_cls = general, score_cls, rules_cls
    _mcr_default_rules, _mcr_last_rules = default_rules, None


def score(hand, *, win_tile=None, self_drawn=False, last_copy=False, wall_last=False, kong=False,
                     seat_wind=0, prevalent_wind=0, flowers=0, rules=None, declared_ready=False, melds=None):
    global _mcr_last_rules, _mcr_last_options
    if _mcr_general is None:
        raise RuntimeError("mahjong_core.rules.mcr.scoring binds the MCR scorer when it is imported")
    # The shortcut takes exactly the defaults: a falsy non-default (seat_wind=[], flowers=None,
    # self_drawn=0) goes to the general path, which checks it
    if type(hand) is str and melds is None and win_tile is None and self_drawn is False \
            and last_copy is False and wall_last is False and kong is False and declared_ready is False \
            and type(seat_wind) is int and seat_wind == 0 and type(prevalent_wind) is int and prevalent_wind == 0 \
            and type(flowers) is int and flowers == 0:
        r = _mcr_default_rules if rules is None else rules
        if type(r) is _mcr_rules_cls:  # (a preset name is resolved by the general path)
            if r is not _mcr_last_rules:  # Rules are frozen: their option bits never change
                _mcr_last_options = r._options
                _mcr_last_rules = r
            scored = _mcr_score_text_c(_mcr_score_cls, hand, r, _mcr_last_options)
            if scored is not NotImplemented:
                return scored
    return _mcr_general(hand, win_tile, self_drawn, last_copy, wall_last, kong, seat_wind, prevalent_wind,
                        flowers, rules, declared_ready, melds)


# Named `score` above so that argument errors read "score() got an unexpected keyword argument";
# kept under a private name only (this module's public names are those of _core.pyi).
_mcr_score_entry = score
del score


cdef object _mcr_score_hand(type cls, HandCore hand, object win_tile, unsigned flags, int seat_wind,
                            int prevalent_wind, int flowers, object rules, unsigned options):
    cdef cmcr.Score s
    cdef int f, half, n = 0, k = 0
    cdef uint64_t bits
    if not PyType_IsSubtype(cls, _MCRScoreBase):
        raise TypeError(f"{cls.__name__} is not a subclass of _MCRScoreBase")
    if not _mcr_call(hand, win_tile, flags, seat_wind, prevalent_wind, flowers, options, False, &s):
        return None
    cdef list objects = _mcr_fan_objects
    for half in range(2):
        bits = s.present.hi if half else s.present.lo
        while bits:
            n += 1
            bits &= bits - 1
    cdef tuple fans = PyTuple_New(n)
    for half in range(2):
        bits = s.present.hi if half else s.present.lo
        while bits:
            f = _lowest_bit(bits) + 64 * half
            bits &= bits - 1
            fan = (<list>objects[f])[s.counts[f]]
            Py_INCREF(fan)
            PyTuple_SET_ITEM(fans, k, fan)
            k += 1
    # tp_new directly: `_MCRScoreBase.__new__(cls)` is a Python-level method call (checked above).
    cdef _MCRScoreBase out = <_MCRScoreBase>(<PyTypeObject*>cls).tp_new(cls, <PyObject*>_EMPTY_ARGS, NULL)
    out.total = s.total
    out.fans = fans
    out.hand = hand
    out.win_tile = win_tile
    out.self_drawn = (flags & 1) != 0
    out.rules = rules
    out._d = s.decomposition
    out._flags = flags
    out._seat_wind = seat_wind
    out._prevalent_wind = prevalent_wind
    out._flowers = flowers
    out._options = options
    return out


def _mcr_encode(hand, int win_tile, unsigned flags, int seat_wind, int prevalent_wind, int flowers,
                uint8_t[::1] out):
    """Write one Hand as a batch record (cmcr.kRecordBytes bytes) into `out`."""
    cdef HandCore h = <HandCore?>hand
    cdef int i
    if out.shape[0] != cmcr.kRecordBytes:
        raise ValueError(f"a record has {cmcr.kRecordBytes} bytes")
    for i in range(cmcr.kRecordBytes):
        out[i] = 0
    for i in range(34):
        out[i] = h.c[i]
    for i in range(h.n_melds):
        out[34 + 3 * i] = <uint8_t>(<int>h.specs[i].kind + 1)
        out[35 + 3 * i] = h.specs[i].tile
        out[36 + 3 * i] = 1 if h.specs[i].concealed else 0
    out[46] = <uint8_t>win_tile
    out[47] = <uint8_t>flags
    out[48] = <uint8_t>seat_wind
    out[49] = <uint8_t>prevalent_wind
    out[50] = <uint8_t>flowers


def _mcr_score_batch(const uint8_t[:, ::1] records, unsigned options, int16_t[::1] totals, fan_counts):
    """Score N records (see mcr.h); fan_counts is None or a (N, kFanCount) uint8 buffer."""
    cdef Py_ssize_t n = records.shape[0]
    cdef cmcr.Options opts = _mcr_options(options)
    cdef uint8_t[:, ::1] counts_view
    cdef uint8_t* counts_ptr = NULL
    if records.shape[1] != cmcr.kRecordBytes:
        raise ValueError(f"records must have shape (N, {cmcr.kRecordBytes})")
    if totals.shape[0] != n:
        raise ValueError("totals must have one entry per record")
    if fan_counts is not None:
        counts_view = fan_counts
        if counts_view.shape[0] != n or counts_view.shape[1] != cfans.kFanCount:
            raise ValueError(f"fan_counts must have shape (N, {cfans.kFanCount})")
        if n:
            counts_ptr = &counts_view[0, 0]
    if n == 0:
        return
    with nogil:
        cmcr.score_batch(&records[0, 0], n, opts, &totals[0], counts_ptr)
