# MCR scoring glue (included at the end of _core.pyx). The public API is mahjong_core.rules.mcr.
#
# Hot path notes: `_mcr_score` reads a Hand's counts straight from its C storage, converts the
# melds to MeldSpecs and calls the C++ scorer once. The fans come back as cached `Fan` objects
# (registered once by rules.mcr), and the chosen decomposition and attribution stay in a small C
# record (`_MCRRaw`) until someone asks for them, so a score costs no Python object it does not need.

cimport cython
cimport mahjong_core._cpp_mcr as cmcr
cimport mahjong_core._cpp_mcr_fans as cfans
from libc.stdint cimport int16_t, uint16_t

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


cdef inline int _mcr_melds(tuple melds, cd.MeldSpec* specs) except -1:
    cdef int n = 0
    for m in melds:
        specs[n].kind = <cd.BlockKind>(<int>(<object>m).kind)
        specs[n].tile = <uint8_t>(<int>(<object>m).tile)
        specs[n].concealed = (<object>m).concealed
        n += 1
    return n


@cython.auto_pickle(False)
cdef class _MCRRaw:
    """The chosen decomposition and the attribution of one score, kept in C until needed."""
    cdef cd.Decomposition d
    cdef int n_uses
    cdef cmcr.FanUse use_list[32]

    def decomposition(self):
        """The chosen reading as a mahjong_core.Decomposition."""
        cdef int i
        d = self.d
        form = FORM_OF_FLAG[d.form]
        arrangement = None if d.knitted < 0 else d.knitted
        if d.form == 2:
            return PyDecomposition(form, pairs=tuple([TILES[d.blocks[i].tile] for i in range(d.n_blocks)]))
        if d.form == 4:
            return PyDecomposition(form, pair=TILES[d.blocks[0].tile])
        if d.form == 8:
            return PyDecomposition(form, arrangement=arrangement)
        sets = tuple([_py_block(d.blocks[i]) for i in range(d.n_blocks - 1)])
        return PyDecomposition(form, sets=sets, pair=TILES[d.blocks[d.n_blocks - 1].tile], arrangement=arrangement)

    def uses(self):
        """One (fan index, parts bit mask) per counted fan instance (花牌 once)."""
        cdef int i
        return tuple([(self.use_list[i].fan, self.use_list[i].parts) for i in range(self.n_uses)])


def _mcr_score(HandCore hand, int win_tile, unsigned flags, int seat_wind, int prevalent_wind, int flowers,
               unsigned options):
    """Score a Hand: None if it does not win, else (total, fans, raw)."""
    cdef cd.MeldSpec specs[4]
    cdef int n = _mcr_melds(hand.melds, specs)
    cdef cmcr.Context ctx
    cdef cmcr.Options opts = _mcr_options(options)
    cdef cmcr.Score s
    cdef _MCRRaw raw
    cdef int f, c
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
    if not cmcr.score(hand.c, specs, n, ctx, opts, &s):
        return None
    cdef list objects = _mcr_fan_objects
    fans = []
    for f in range(cfans.kFanCount):
        c = s.counts[f]
        if c:
            fans.append(objects[f][c])
    raw = _MCRRaw.__new__(_MCRRaw)
    raw.d = s.decomposition
    raw.n_uses = s.n_uses
    for f in range(s.n_uses):
        raw.use_list[f] = s.uses[f]
    return (s.total, tuple(fans), raw)


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
    i = 0
    for m in h.melds:
        out[34 + 3 * i] = <uint8_t>(<int>(<object>m).kind + 1)
        out[35 + 3 * i] = <uint8_t>(<int>(<object>m).tile)
        out[36 + 3 * i] = 1 if (<object>m).concealed else 0
        i += 1
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
