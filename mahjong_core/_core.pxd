# C entry points of the core for the compiled game modules (python/game/engine.py's `_waits_of` and
# `_shanten_of`): cimported, they are C calls through a pointer the module loads at import, instead
# of a Python call (argument parsing, boxing) per draw and discard. Plain C types only: the game
# modules are C, the core C++.
#
# Both validate like their Python counterparts and never throw: on input the Python function would
# reject they return their INVALID value, and the caller then makes the Python call, which raises
# the error that says what is wrong.

from libc.stdint cimport uint8_t, uint64_t

cdef enum:
    SHANTEN_INVALID = -100

# `waits_mask(counts, forms, melds=melds)` for 34 counts; ~0 (all 64 bits) when invalid.
cdef uint64_t waits_of_counts(const uint8_t* counts, int melds, unsigned forms) noexcept nogil
# `shanten(counts, forms, melds=melds)` for 34 counts; SHANTEN_INVALID when invalid.
cdef int shanten_of_counts(const uint8_t* counts, int melds, unsigned forms) noexcept nogil
# `best_discards(counts, forms, melds=melds)` for 34 counts, packed in one integer (no pointer
# argument: the caller is a .py file): (shanten + 1) << 34 | the mask of the discards reaching it;
# ~0 when invalid.
cdef uint64_t best_discards_of_counts(const uint8_t* counts, int melds, unsigned forms) noexcept nogil
