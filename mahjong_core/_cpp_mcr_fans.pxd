# Mirrors cpp/include/mahjong_core/mcr_fans.h
from libc.stdint cimport uint64_t

cdef extern from "mahjong_core/mcr_fans.h" namespace "mahjong_core::mcr" nogil:
    const int kFanCount
    cdef cppclass FanSet:
        uint64_t lo
        uint64_t hi
        bint has(int fan)
    cdef struct FanInfo:
        const char* id
        int points
        const char* name_zh
        const char* name_en
        FanSet excludes

    const FanInfo& fan_info(int fan) noexcept
    int fan_count() noexcept
