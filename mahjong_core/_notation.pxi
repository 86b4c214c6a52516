# The hand notation, compiled (included by _core.pyx). The grammar is defined by the Python
# parser in mahjong_core/notation.py (`_parse_reference`), which also words every error.
#
# Hot path notes: `_parse_notation` scans the string's code points in one pass, accepts exactly
# what the reference accepts and builds the same Hand directly at C level (counts into the
# HandCore arrays, Meld and MCRContext values from caches: they are frozen, so equal values can be
# shared). On anything it would reject — a malformed string, an impossible hand — it does not try
# to explain: it calls the reference, which raises the exact ParseError / InvalidHandError (same
# message, same column). tests/test_notation.py compares the two on generated and mutated input.

from cpython.unicode cimport PyUnicode_GET_LENGTH
from cpython.object cimport PyObject, PyTypeObject
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.ref cimport Py_INCREF

cdef extern from "Python.h":
    int PyUnicode_KIND(object text)
    void* PyUnicode_DATA(object text)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index)

from .model import MCRContext as _PyMCRContext

cdef int _MAX_NOTATION = 256   # notation.MAX_NOTATION_LENGTH (the reference raises beyond it)
cdef object _reference_parse = None
cdef type _HandClass = None
# Caches of the frozen values the parser returns, indexed by small ints (a list slot is read
# without building or hashing a key object): melds by (kind, lowest tile, marker), contexts by
# winds, flags and flower count; contexts with flower letters (rare) in a bounded dict.
cdef list _meld_cache = [None] * (3 * 34 * 16)
cdef list _context_cache = [None] * (9 * 256)
cdef dict _context_letters_cache = {}
cdef tuple _MELD_KINDS = (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG)

# Code point -> tile kind for letters and glyphs (-1: not a tile by itself). Digits and suit
# letters are handled by the scanner.
cdef int _letter_tile(unsigned int ch) noexcept:
    if ch == c'E': return 27
    if ch == c'S': return 28
    if ch == c'W': return 29
    if ch == c'N': return 30
    if ch == c'C': return 31
    if ch == c'F': return 32
    if ch == c'P': return 33
    # U+1F000 block (see tiles._GLYPHS): winds 00-03, dragons red/green/white 04-06, characters
    # 07-0F, bamboo 10-18, dots 19-21.
    if ch < 0x1F000 or ch > 0x1F021:
        return -1
    cdef int g = <int>(ch - 0x1F000)
    if g <= 3: return 27 + g
    if g <= 6: return 31 + (g - 4)
    if g <= 0x0F: return g - 7          # 1m..9m
    if g <= 0x18: return 18 + g - 0x10  # 1s..9s
    return 9 + g - 0x19                 # 1p..9p


cdef inline bint _is_glyph(unsigned int ch) noexcept:
    return 0x1F000 <= ch <= 0x1F021


cdef inline int _suit_base(unsigned int ch) noexcept:
    if ch == c'm': return 0
    if ch == c'p': return 9
    if ch == c's': return 18
    if ch == c'z': return 27
    return -1


cdef struct _Scan:
    int kind
    void* data
    Py_ssize_t n
    Py_ssize_t pos


# Code points are handled as plain unsigned ints (Cython treats Py_UCS4 arithmetic as str).
cdef inline unsigned int _at(_Scan* sc, Py_ssize_t i) noexcept:
    return <unsigned int>PyUnicode_READ(sc.kind, sc.data, i) if i < sc.n else 0


# The ASCII characters of the notation by class, for the scanner of one-byte strings (what
# nearly every notation is): 0 not a tile character, 1..9 a digit (rank + 1), 16..19 a suit
# letter m p s z, 32..38 an honour letter E S W N C F P, 64 a stop (| [), 65 a stop inside a
# meld only (, ]).
cdef uint8_t _ASCII_CLASS[128]


cdef void _fill_ascii_class() noexcept:
    cdef int i
    cdef const char* suits = b"mpsz"
    cdef const char* honours = b"ESWNCFP"
    memset(_ASCII_CLASS, 0, 128)
    for i in range(1, 10):
        _ASCII_CLASS[c'0' + i] = <uint8_t>i
    for i in range(4):
        _ASCII_CLASS[<uint8_t>suits[i]] = <uint8_t>(16 + i)
    for i in range(7):
        _ASCII_CLASS[<uint8_t>honours[i]] = <uint8_t>(32 + i)
    _ASCII_CLASS[c'|'] = _ASCII_CLASS[c'['] = 64
    _ASCII_CLASS[c','] = _ASCII_CLASS[c']'] = 65


_fill_ascii_class()


cdef int _scan_tiles(_Scan* sc, bint in_meld, uint8_t* tiles, int cap) noexcept:
    """Tiles up to a stop character (in a meld: , ] | [; else | [) or the end, in written order,
    into `tiles` (at most `cap`). Returns their number, or -1 when the reference would raise or
    there are more than `cap` (which no valid hand has)."""
    cdef int n = 0, pending = 0, base, i, t, rank
    cdef uint8_t ranks[16]
    cdef unsigned int ch
    cdef const uint8_t* text8
    cdef uint8_t cls
    if sc.kind == 1:
        # One-byte strings (no glyphs): one table lookup per character. Same decisions as the
        # general loop below, in the same order.
        text8 = <const uint8_t*>sc.data
        while sc.pos < sc.n:
            ch = text8[sc.pos]
            cls = _ASCII_CLASS[ch] if ch < 128 else 0
            if cls >= 64:
                if cls == 64 or in_meld:
                    break
                return -1
            if cls == 0:
                return -1
            if cls < 16:
                if pending == 16:
                    return -1
                ranks[pending] = cls - 1
                pending += 1
            elif cls < 32:
                base = (cls - 16) * 9
                if pending == 0 or n + pending > cap:
                    return -1
                for i in range(pending):
                    rank = ranks[i]
                    if base == 27 and rank >= 7:
                        return -1
                    tiles[n] = <uint8_t>(base + rank)
                    n += 1
                pending = 0
            else:
                if pending or n == cap:
                    return -1
                tiles[n] = <uint8_t>(27 + cls - 32)
                n += 1
            sc.pos += 1
        return -1 if pending else n
    while sc.pos < sc.n:
        ch = <unsigned int>PyUnicode_READ(sc.kind, sc.data, sc.pos)
        if ch == c'|' or ch == c'[' or (in_meld and (ch == c',' or ch == c']')):
            break
        if c'1' <= ch <= c'9':
            if pending == 16:
                return -1
            ranks[pending] = <uint8_t>(ch - c'1')
            pending += 1
        elif _suit_base(ch) >= 0:
            base = _suit_base(ch)
            if pending == 0 or n + pending > cap:
                return -1
            for i in range(pending):
                rank = ranks[i]
                if base == 27 and rank >= 7:
                    return -1
                tiles[n] = <uint8_t>(base + rank)
                n += 1
            pending = 0
        else:
            t = _letter_tile(ch)
            if t < 0 or pending or n == cap:
                return -1
            tiles[n] = <uint8_t>t
            n += 1
            if _is_glyph(ch):
                while _at(sc, sc.pos + 1) == 0xFE0E or _at(sc, sc.pos + 1) == 0xFE0F:
                    sc.pos += 1
                if _at(sc, sc.pos + 1) == c' ' and _is_glyph(_at(sc, sc.pos + 2)):
                    sc.pos += 1  # a space between two glyph tiles separates them
        sc.pos += 1
    return -1 if pending else n


cdef object _meld_value(int kind, int low, int marker):
    """The Meld for (kind, lowest tile, claim marker or -1); equal melds are one shared object."""
    cdef int key = (kind * 34 + low) * 16 + marker + 1
    m = _meld_cache[key]
    if m is None:
        m = Meld(_MELD_KINDS[kind], TILES[low], kind == 2 and marker < 0, None if marker < 0 else marker)
        _meld_cache[key] = m
    return m


cdef int _scan_meld(_Scan* sc, uint8_t* meld_c, int* kind_out, int* low_out, int* marker_out) noexcept:
    """One "[...]" meld at sc.pos; 0, or -1 when the reference would raise."""
    cdef uint8_t t[4]
    cdef int n, i, low, marker = -1, kind, suit
    cdef unsigned int ch
    sc.pos += 1  # '['
    n = _scan_tiles(sc, True, t, 4)
    if n < 3:
        return -1
    ch = _at(sc, sc.pos)
    if ch == c',':
        ch = _at(sc, sc.pos + 1)
        if not (c'0' <= ch <= c'9'):
            return -1
        marker = <int>(ch - c'0')
        sc.pos += 2
        ch = _at(sc, sc.pos)
    if ch != c']' or sc.pos >= sc.n:
        return -1
    sc.pos += 1
    suit = t[0] // 9 if t[0] < 27 else 3
    low = t[0]
    for i in range(1, n):
        if (t[i] // 9 if t[i] < 27 else 3) != suit:
            return -1
        if t[i] < low:
            low = t[i]
    if t[1] == t[0] and t[2] == t[0] and (n == 3 or t[3] == t[0]):
        kind = 2 if n == 4 else 1
    elif n == 3 and suit < 3 and t[0] + t[1] + t[2] == 3 * low + 3 and t[0] != t[1] and t[1] != t[2] and t[0] != t[2]:
        kind = 0  # three distinct tiles of one suit summing to low + (low+1) + (low+2): a run
    else:
        return -1
    if marker >= 0:
        if kind == 2:
            if marker == 0 or marker == 4 or marker > 7:
                return -1
        elif marker == 0 or marker > 3:
            return -1
    for i in range(n):
        meld_c[t[i]] += 1
    kind_out[0], low_out[0], marker_out[0] = kind, low, marker
    return 0


cdef struct _TextContext:
    # What a natively parsed notation says besides its Hand, as the MCR scorer takes it (so
    # `mcr.score(text)` reads no attribute of the MCRContext it also builds).
    bint native            # set by _parse_text when it parsed the text itself (else untouched)
    unsigned flags         # 1 self-drawn, 2 last copy, 4 wall last, 8 kong (see _mcr.pxi)
    int seat_wind
    int prevalent_wind
    int flowers


cdef inline int _wind_index(unsigned int ch) noexcept:
    if ch == c'E': return 0
    if ch == c'S': return 1
    if ch == c'W': return 2
    if ch == c'N': return 3
    return -1


cdef object _scan_context(_Scan* sc, _TextContext* out):
    """The "|PS####[|F]" suffix at sc.pos to the end, as a (shared) MCRContext; None when the
    reference would raise. The fields are read first and the cache is keyed by them (an int), so
    a hit costs no slice of the text."""
    cdef Py_ssize_t start = sc.pos, i, j
    cdef unsigned int ch
    cdef int flowers = 0, seen = 0, bit, prevalent, seat, letters = 0
    cdef unsigned flags = 0
    cdef bint digits = True
    if sc.n - start < 7:
        return None
    prevalent = _wind_index(_at(sc, start + 1))
    seat = _wind_index(_at(sc, start + 2))
    if prevalent < 0 or seat < 0:
        return None
    for i in range(4):
        ch = _at(sc, start + 3 + i)
        if ch == c'1':
            flags |= 1u << i
        elif ch != c'0':
            return None
    i = start + 7
    if i < sc.n:
        if _at(sc, i) != c'|':
            return None
        i += 1
        if i < sc.n:
            for j in range(i, sc.n):
                ch = _at(sc, j)
                if not (c'0' <= ch <= c'9'):
                    digits = False
                    break
                flowers = flowers * 10 + <int>(ch - c'0')
                if flowers > 8:
                    return None
            if not digits:
                flowers = 0
                for j in range(i, sc.n):
                    ch = _at(sc, j)
                    if not (c'a' <= ch <= c'h'):
                        return None
                    bit = 1 << <int>(ch - c'a')
                    if seen & bit:
                        return None
                    seen |= bit
                    flowers += 1
                letters = 1
    if out is not NULL:
        out.flags = flags
        out.seat_wind = seat
        out.prevalent_wind = prevalent
        out.flowers = flowers
    # One key per distinct MCRContext value: winds and flags (8 bits), then the flower count
    # (digits: 0..8) or the letters' bit set (1..255).
    cdef int key = (prevalent * 4 + seat) * 16 + <int>flags
    if letters:
        key |= seen << 8
        ctx = _context_letters_cache.get(key)
    else:
        key |= flowers << 8
        ctx = _context_cache[key]
    if ctx is not None:
        return ctx
    ctx = _PyMCRContext(
        prevalent_wind=prevalent,
        seat_wind=seat,
        self_drawn=(flags & 1) != 0,
        last_copy=(flags & 2) != 0,
        wall_last=(flags & 4) != 0,
        kong=(flags & 8) != 0,
        flowers=flowers,
        flower_tiles=tuple([j for j in range(8) if seen >> j & 1]) if letters else None,
    )
    if letters:
        if len(_context_letters_cache) >= 4096:
            _context_letters_cache.clear()
        _context_letters_cache[key] = ctx
    else:
        _context_cache[key] = ctx
    return ctx


cdef object _parse_fallback(object text):
    global _reference_parse
    if _reference_parse is None:
        from .notation import _parse_reference
        _reference_parse = _parse_reference
    return _reference_parse(text)


def _parse_notation(text):
    """Parse the notation into a `Hand` (see mahjong_core.notation for the format).

    Raises ParseError (naming the column) for malformed text, InvalidHandError for a well-formed
    but impossible hand, TypeError for a non-string."""
    return _parse_text(text, NULL)


cdef tuple _C_LEVEL_ARGS = (_C_LEVEL_BUILD,)


cdef object _parse_text(object text, _TextContext* out):
    """`_parse_notation`; when it parses the text itself it also fills `out` (if given) and sets
    `out.native`. Falling back to the reference leaves `out` untouched."""
    global _HandClass
    if type(text) is not str:
        return _parse_fallback(text)
    cdef _Scan sc
    sc.n = PyUnicode_GET_LENGTH(text)
    if sc.n == 0 or sc.n > _MAX_NOTATION:
        return _parse_fallback(text)
    sc.kind = PyUnicode_KIND(text)
    sc.data = PyUnicode_DATA(text)
    sc.pos = 0
    cdef uint8_t meld_c[34]
    cdef uint8_t tiles[15]
    cdef uint8_t counts[34]
    cdef int kinds[5]
    cdef int lows[5]
    cdef int markers[5]
    cdef int n_melds = 0, n, i, waiting
    cdef _TextContext tc
    memset(meld_c, 0, 34)
    # (Surrounding whitespace is the reference's job: a tile or '[' starts every hand it accepts
    # without trimming, and a tile or a context character ends it.)
    while _at(&sc, sc.pos) == c'[':
        if n_melds == 4 or _scan_meld(&sc, meld_c, &kinds[n_melds], &lows[n_melds], &markers[n_melds]) < 0:
            return _parse_fallback(text)
        n_melds += 1
    n = _scan_tiles(&sc, False, tiles, 15)
    if n <= 0 or _at(&sc, sc.pos) == c'[':
        return _parse_fallback(text)
    context = None
    tc.flags = 0
    tc.seat_wind = tc.prevalent_wind = tc.flowers = 0
    if sc.pos < sc.n:  # '|'
        context = _scan_context(&sc, &tc)
        if context is None:
            return _parse_fallback(text)
    waiting = 13 - 3 * n_melds
    if n != waiting and n != waiting + 1:
        return _parse_fallback(text)
    memset(counts, 0, 34)
    for i in range(n):
        counts[tiles[i]] += 1
    cdef int over = 0
    for i in range(34):  # (a literal bound and no early exit: the compiler vectorises it)
        over |= counts[i] + meld_c[i] > 4
    if over:
        return _parse_fallback(text)
    if _HandClass is None:
        from .hand import Hand
        _HandClass = Hand
    # tp_new directly (not `HandCore.__new__(...)`, a Python-level method call on this path):
    # _HandClass is Hand, which subclasses HandCore and inherits its tp_new.
    cdef HandCore h = <HandCore>(<PyTypeObject*>_HandClass).tp_new(_HandClass, <PyObject*>_C_LEVEL_ARGS, NULL)
    memcpy(h.c, counts, 34)  # filled here, validated above
    memcpy(h.meld_c, meld_c, 34)
    h.n_melds = n_melds
    h.n_tiles = n
    for i in range(n_melds):
        h.specs[i].kind = <cd.BlockKind>kinds[i]
        h.specs[i].tile = <uint8_t>lows[i]
        h.specs[i].concealed = kinds[i] == 2 and markers[i] < 0
        h.claims[i] = <int8_t>markers[i]
    h._melds = None if n_melds else ()  # the Meld tuple is built when first read (a score never does)
    h.win_tile = TILES[tiles[n - 1]] if n == waiting + 1 else None
    h.context = context
    if out is not NULL:
        out[0] = tc
        out.native = True
    return h


cdef tuple _melds_of_specs(const cd.MeldSpec* specs, const int8_t* claims, int n):
    """The Meld objects of `n` melds (shared values from the cache)."""
    if n == 0:
        return ()
    cdef tuple t = PyTuple_New(n)
    cdef int i
    for i in range(n):
        m = _meld_value(<int>specs[i].kind, specs[i].tile, claims[i])
        Py_INCREF(m)
        PyTuple_SET_ITEM(t, i, m)
    return t


# ---------------------------------------------------------------------------------------------
# Formatting

cdef const char* _SUIT_CHARS = b"mps"
cdef const char* _HONOUR_CHARS = b"ESWNCFP"
cdef const char* _WIND_CHARS = b"ESWN"


cdef inline int _put_tile_digits(char* buf, int n, int tile, int copies) noexcept:
    """`copies` of a tile without its suit letter (honours: their letter)."""
    cdef int i
    for i in range(copies):
        buf[n] = _HONOUR_CHARS[tile - 27] if tile >= 27 else <char>(49 + tile % 9)
        n += 1
    return n


cdef int _put_counts(char* buf, int n, const uint8_t* c) noexcept:
    """Canonical text of 34 counts: digit runs per suit, then honour letters."""
    cdef int suit, r, start
    for suit in range(3):
        start = n
        for r in range(9):
            n = _put_tile_digits(buf, n, 9 * suit + r, c[9 * suit + r])
        if n > start:
            buf[n] = _SUIT_CHARS[suit]
            n += 1
    for r in range(7):
        n = _put_tile_digits(buf, n, 27 + r, c[27 + r])
    return n


cdef int _put_context(char* buf, int n, object ctx) except -1:
    """The |PS####|F suffix (as MCRContext.__str__ writes it)."""
    cdef int i, flowers
    buf[n] = b"|"
    buf[n + 1] = _WIND_CHARS[<int>ctx.prevalent_wind]
    buf[n + 2] = _WIND_CHARS[<int>ctx.seat_wind]
    buf[n + 3] = b"1" if ctx.self_drawn else b"0"
    buf[n + 4] = b"1" if ctx.last_copy else b"0"
    buf[n + 5] = b"1" if ctx.wall_last else b"0"
    buf[n + 6] = b"1" if ctx.kong else b"0"
    n += 7
    tiles = ctx.flower_tiles
    if tiles is not None:
        buf[n] = b"|"
        n += 1
        for i in tiles:
            buf[n] = <char>(97 + i)  # 'a' + i
            n += 1
    else:
        flowers = ctx.flowers
        if flowers:
            buf[n] = b"|"
            buf[n + 1] = <char>(48 + flowers)
            n += 2
    return n


def _format_hand(hand):
    """Canonical notation of a Hand: melds, sorted concealed tiles, the winning tile last, the
    context (see mahjong_core.notation.format_hand); written into one C buffer."""
    cdef HandCore h = <HandCore?>hand
    cdef uint8_t c[34]
    cdef char buf[160]  # 4 melds of <= 9, 14 tiles + 4 suit letters + 2, a context of <= 16
    cdef int n = 0, w, kind, tile, size, i
    memcpy(c, h.c, KINDS)
    for m in h._meld_objects():
        kind = <int>(<object>m).kind
        tile = <int>(<object>m).tile
        buf[n] = b"["
        n += 1
        if kind == 0:
            for i in range(3):
                n = _put_tile_digits(buf, n, tile + i, 1)
        else:
            n = _put_tile_digits(buf, n, tile, 4 if kind == 2 else 3)
        if tile < 27:
            buf[n] = _SUIT_CHARS[tile // 9]
            n += 1
        claimed = (<object>m).claimed
        if claimed is not None:
            buf[n] = b","
            buf[n + 1] = <char>(48 + <int>claimed)
            n += 2
        buf[n] = b"]"
        n += 1
    win = h.win_tile
    if win is not None:
        w = <int>win
        c[w] -= 1
    n = _put_counts(buf, n, c)
    if win is not None:
        n = _put_tile_digits(buf, n, w, 1)
        if w < 27:
            buf[n] = _SUIT_CHARS[w // 9]
            n += 1
    if h.context is not None:
        n = _put_context(buf, n, h.context)
    return buf[:n].decode("ascii")
