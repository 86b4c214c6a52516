# Mirrors cpp/include/mahjong_core/decompose.h
from libc.stdint cimport uint8_t, int8_t
from libcpp.vector cimport vector
from libcpp cimport bool as cbool
from ._errors cimport mc_raise_py_error

cdef extern from "mahjong_core/decompose.h" namespace "mahjong_core" nogil:
    cdef enum class BlockKind "mahjong_core::BlockKind"(uint8_t):
        Chow
        Pung
        Kong
        Pair
    cdef struct MeldSpec:
        BlockKind kind
        uint8_t tile
        cbool concealed
    cdef struct Block:
        BlockKind kind
        uint8_t tile
        cbool concealed
        int8_t meld
    cdef struct Decomposition:
        unsigned form
        uint8_t n_blocks
        Block blocks[7]
        int8_t knitted

    vector[Decomposition] decompose(const uint8_t* concealed, const MeldSpec* melds, int n_melds,
                                    unsigned forms) except +mc_raise_py_error
    void validate_melds(const uint8_t* concealed, const MeldSpec* melds, int n_melds) except +mc_raise_py_error
