# Mirrors cpp/include/mahjong_core/shanten.h
from libc.stdint cimport uint8_t, uint64_t
from libcpp.vector cimport vector
from libcpp.string cimport string
from ._errors cimport mc_raise_py_error

cdef extern from "mahjong_core/shanten.h" namespace "mahjong_core" nogil:
    const int kNotApplicable
    cdef enum class TileCount "mahjong_core::TileCount":
        Waiting
        Complete
        Either
    cdef struct Effective:
        int shanten
        uint64_t tiles
    cdef struct DiscardOption:
        int tile
        int shanten
        uint64_t effective

    void validate_hand(const uint8_t* counts, int melds, TileCount expect) except +mc_raise_py_error
    void validate_forms(unsigned forms) except +mc_raise_py_error
    bint input_is_valid(const uint8_t* counts, int melds, unsigned forms, TileCount expect, bint possible) noexcept

    int shanten_unchecked(const uint8_t* counts, int melds, unsigned forms) noexcept
    int shanten_limited_unchecked(const uint8_t* counts, int melds, unsigned forms) noexcept
    int shanten(const uint8_t* counts, int melds, unsigned forms) except +mc_raise_py_error
    int shanten_limited(const uint8_t* counts, int melds, unsigned forms) except +mc_raise_py_error
    bint is_winning_unchecked(const uint8_t* counts, int melds, unsigned forms) noexcept
    bint is_winning(const uint8_t* counts, int melds, unsigned forms) except +mc_raise_py_error
    uint64_t waits_unchecked(const uint8_t* counts, int melds, unsigned forms) noexcept
    uint64_t waits(const uint8_t* counts, int melds, unsigned forms) except +mc_raise_py_error
    Effective effective_unchecked(const uint8_t* counts, int melds, unsigned forms, uint64_t drawable) noexcept
    Effective effective(const uint8_t* counts, int melds, unsigned forms, uint64_t drawable) except +mc_raise_py_error
    vector[DiscardOption] discard_options(const uint8_t* counts, int melds, unsigned forms,
                                          const uint8_t* meld_tiles) except +mc_raise_py_error
    uint64_t drawable_mask(const uint8_t* counts, const uint8_t* meld_tiles) noexcept
    cdef struct BestDiscards:
        int shanten
        uint64_t tiles
    BestDiscards best_discards_unchecked(const uint8_t* counts, int melds, unsigned forms) noexcept
    BestDiscards best_discards(const uint8_t* counts, int melds, unsigned forms) except +mc_raise_py_error

    const char* kernel_variant() noexcept
    string kernel_variants() except +mc_raise_py_error
    bint use_kernel_variant(const char* name) noexcept

    int standard_shanten(const uint8_t* counts, int melds) noexcept
    int seven_pairs_shanten(const uint8_t* counts, int melds) noexcept
    int thirteen_orphans_shanten(const uint8_t* counts, int melds) noexcept
    int honors_knitted_shanten(const uint8_t* counts, int melds) noexcept
    int knitted_straight_shanten(const uint8_t* counts, int melds) noexcept
