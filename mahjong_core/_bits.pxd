# Bit-mask helpers shared by the compiled modules (C only: nothing here exists at run time). A
# turn's legal discards are a 34-bit mask (`Game._discard_mask`); the engine, the native self-play
# loop and the vector environment's step kernel count and walk its set bits with these (the k-th
# set bit is the k-th discard of the turn's list, in tile order). A hand's 34 counts give the masks
# of the kinds it holds, holds once and holds four times: the rulesets' per-turn tests read those
# instead of a branch per tile (docs/ARCHITECTURE.md, "Fifteenth pass").

cdef extern from *:
    """
    /* A mask's set bits: counted, and the position of the lowest (x != 0). The compiler's builtins
       where it has them (one instruction each on current x86); a plain loop elsewhere. */
    #if defined(__GNUC__) || defined(__clang__)
    #if defined(__POPCNT__)
    static inline int mc_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    #else  /* a baseline x86-64 build (the wheels): the builtin is a libgcc call; this is inline */
    static inline int mc_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    static inline int mc_lowest_bit64(unsigned long long x) { return __builtin_ctzll(x); }
    #else
    static inline int mc_popcount64(unsigned long long x) { int n = 0; while (x) { x &= x - 1; ++n; } return n; }
    static inline int mc_lowest_bit64(unsigned long long x) { int t = 0; while (!(x & 1)) { x >>= 1; ++t; } return t; }
    #endif

    /* The kinds a hand of 34 counts holds (count != 0), holds exactly once, four times, as bit masks. SSE2
       (every x86-64): two 16-byte compares and their sign bits, the last two kinds apart; a plain
       loop elsewhere. Reads c[0..33]. */
    #if defined(__SSE2__)
    #include <emmintrin.h>
    static inline unsigned long long mc_bytes_equal_mask34(const unsigned char* c, unsigned char v) {
        const __m128i lo = _mm_loadu_si128((const __m128i*)c), hi = _mm_loadu_si128((const __m128i*)(c + 16));
        const __m128i want = _mm_set1_epi8((char)v);
        return (unsigned long long)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, want))
               | ((unsigned long long)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, want)) << 16)
               | ((unsigned long long)(c[32] == v) << 32) | ((unsigned long long)(c[33] == v) << 33);
    }
    #else
    static inline unsigned long long mc_bytes_equal_mask34(const unsigned char* c, unsigned char v) {
        unsigned long long m = 0;
        for (int t = 0; t < 34; t++) m |= (unsigned long long)(c[t] == v) << t;
        return m;
    }
    #endif
    static inline unsigned long long mc_held_kinds34(const unsigned char* c) {
        return ~mc_bytes_equal_mask34(c, 0) & 0x3FFFFFFFFULL;
    }
    static inline unsigned long long mc_single_kinds34(const unsigned char* c) {
        return mc_bytes_equal_mask34(c, 1);
    }
    static inline unsigned long long mc_four_kinds34(const unsigned char* c) {
        return mc_bytes_equal_mask34(c, 4);
    }
    """
    int mc_popcount64(unsigned long long x) noexcept nogil
    int mc_lowest_bit64(unsigned long long x) noexcept nogil
    unsigned long long mc_held_kinds34(const unsigned char* c) noexcept nogil
    unsigned long long mc_single_kinds34(const unsigned char* c) noexcept nogil
    unsigned long long mc_four_kinds34(const unsigned char* c) noexcept nogil


cdef inline int mc_kth_bit64(unsigned long long bits, Py_ssize_t k) noexcept nogil:
    """The index of the k-th (0-based) set bit of `bits` (k below its popcount): drop the k lowest,
    take the next."""
    while k > 0:
        bits &= bits - 1
        k -= 1
    return mc_lowest_bit64(bits)
