# Mirrors cpp/include/mahjong_core/tables.h
from libc.stdint cimport uint8_t, uint64_t

cdef extern from "mahjong_core/tables.h" namespace "mahjong_core::tables" nogil:
    cdef cppclass DistanceTables:
        int suit_classes
        int honor_classes
        int states
    cdef cppclass Tables:
        DistanceTables phantom
    const Tables& get() noexcept
    const DistanceTables& limited() noexcept
    void ensure_init() noexcept
    const bint kBaked
    uint64_t checksum() noexcept
    size_t memory_bytes() noexcept
    double build_seconds() noexcept
