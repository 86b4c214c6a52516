# Mirrors cpp/include/mahjong_core/mcr.h
from libc.stdint cimport uint8_t, uint16_t, int16_t
from libcpp cimport bool as cbool
from ._errors cimport mc_raise_py_error
from ._cpp_decompose cimport MeldSpec, Decomposition
from ._cpp_mcr_fans cimport kFanCount, FanSet

cdef extern from "mahjong_core/mcr.h" namespace "mahjong_core::mcr" nogil:
    cdef struct Options:
        cbool mil_concealed_melded_kong
        cbool knitted_straight_wait_counts
        cbool phantom_waits_count
        cbool strict_context
        cbool flowers
        cbool declared_ready_fan
    cdef struct Context:
        uint8_t win_tile
        cbool self_drawn
        cbool last_copy
        cbool wall_last
        cbool kong
        cbool declared_ready
        uint8_t seat_wind
        uint8_t prevalent_wind
        uint8_t flowers
    const uint16_t kPartBlocks
    const uint16_t kPartKnitted
    const uint16_t kPartWholeHand
    const uint16_t kPartWinTile
    const uint16_t kPartFlowers
    cdef struct FanUse:
        uint8_t fan
        uint16_t parts
    const int kMaxUses
    cdef cppclass Score:
        int total
        int flowers
        uint8_t counts[]
        FanSet present
        Decomposition decomposition
        int n_uses
        FanUse uses[]
    const int kRecordBytes

    cbool score(const uint8_t* concealed, const MeldSpec* melds, int n_melds, const Context& context,
                const Options& options, Score* out, cbool attribute) except +mc_raise_py_error
    cbool score_valid_hand(const uint8_t* concealed, const MeldSpec* melds, int n_melds, const Context& context,
                           const Options& options, Score* out, cbool attribute) except +mc_raise_py_error
    cbool score_unchecked(const uint8_t* concealed, const MeldSpec* melds, int n_melds, const Context& context,
                          const Options& options, Score* out) noexcept
    void score_batch(const uint8_t* records, size_t n, const Options& options, int16_t* totals,
                     uint8_t* fan_counts) except +mc_raise_py_error
