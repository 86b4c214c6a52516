# Mirrors cpp/include/mahjong_core/shuffle.h
from libc.stdint cimport uint8_t
from ._errors cimport mc_raise_py_error

cdef extern from "mahjong_core/shuffle.h" namespace "mahjong_core" nogil:
    int kMaxShuffleSize
    int shuffle_with_words(uint8_t* tiles, int n, const uint8_t* word_bytes, size_t n_words) except +mc_raise_py_error
