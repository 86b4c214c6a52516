# Mirrors cpp/include/mahjong_core/shuffle.h
from libc.stdint cimport uint8_t
from ._errors cimport mc_raise_py_error

cdef extern from "mahjong_core/shuffle.h" namespace "mahjong_core" nogil:
    int kMaxShuffleSize
    int shuffle_with_words(uint8_t* tiles, int n, const uint8_t* word_bytes, size_t n_words) except +mc_raise_py_error

# Mirrors cpp/include/mahjong_core/blake2b.h (the wall's generator)
cdef extern from "mahjong_core/blake2b.h" namespace "mahjong_core" nogil:
    void blake2b(const uint8_t* msg, size_t len, const uint8_t* key, size_t key_len, const uint8_t* salt,
                 size_t salt_len, const uint8_t* person, size_t person_len, size_t digest_size,
                 uint8_t* out) except +mc_raise_py_error
    void blake2b_counter_stream(const uint8_t* key, size_t key_len, const uint8_t* salt, size_t salt_len,
                                const uint8_t* person, size_t person_len, unsigned long long first_block,
                                size_t blocks, uint8_t* out) except +mc_raise_py_error
