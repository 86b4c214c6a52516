// BLAKE2b (RFC 7693) with a key, a salt and a personalisation: the game engine's wall generator.
//
// python/game/wall.py defines the generator: block i of the wall's random bytes is BLAKE2b-512 of i
// (8 little-endian bytes) keyed by the seed, salted by the hand number, personalised "mjc-wall-v1".
// It used the platform's hashlib for that; computing it here gives the same bytes (the tests compare
// with hashlib) without a hash object and three method calls per block, once per simulated hand.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mahjong_core {

constexpr std::size_t kBlake2bMaxKey = 64;     // key bytes
constexpr std::size_t kBlake2bSaltBytes = 16;  // salt and personalisation: shorter ones are zero-padded
constexpr std::size_t kBlake2bMaxDigest = 64;

// BLAKE2b of msg[0..len) into out[0..digest_size). key_len <= 64, salt_len and person_len <= 16,
// 1 <= digest_size <= 64; throws InvalidArgument otherwise.
void blake2b(const std::uint8_t* msg, std::size_t len, const std::uint8_t* key, std::size_t key_len,
             const std::uint8_t* salt, std::size_t salt_len, const std::uint8_t* person, std::size_t person_len,
             std::size_t digest_size, std::uint8_t* out);

// The 64-byte digests of the block numbers first_block .. first_block + blocks - 1 (each as 8
// little-endian bytes) under one key, salt and personalisation, one after another into
// out[0 .. 64 * blocks). The key block is compressed once and its state reused for every digest.
// key_len must be 1..64 (the stream is keyed); the other limits as for blake2b.
void blake2b_counter_stream(const std::uint8_t* key, std::size_t key_len, const std::uint8_t* salt,
                            std::size_t salt_len, const std::uint8_t* person, std::size_t person_len,
                            std::uint64_t first_block, std::size_t blocks, std::uint8_t* out);

}  // namespace mahjong_core
