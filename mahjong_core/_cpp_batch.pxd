# Mirrors cpp/include/mahjong_core/batch.h
from libc.stdint cimport uint8_t, int8_t
from libcpp cimport bool as cbool
from ._errors cimport mc_raise_py_error

cdef extern from "mahjong_core/batch.h" namespace "mahjong_core" nogil:
    void batch_shanten(const uint8_t* rows, size_t n, const uint8_t* melds_per_row, int melds, unsigned forms,
                       cbool limited, int8_t* out) except +mc_raise_py_error
    void batch_is_winning(const uint8_t* rows, size_t n, const uint8_t* melds_per_row, int melds, unsigned forms,
                          uint8_t* out) except +mc_raise_py_error
    void batch_waits(const uint8_t* rows, size_t n, const uint8_t* melds_per_row, int melds, unsigned forms,
                     uint8_t* out) except +mc_raise_py_error
