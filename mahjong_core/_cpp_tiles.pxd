# Mirrors cpp/include/mahjong_core/tiles.h
from libc.stdint cimport uint8_t, uint64_t

cdef extern from "mahjong_core/tiles.h" namespace "mahjong_core" nogil:
    const int kKinds
    const unsigned kAllForms
