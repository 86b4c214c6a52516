// The wall shuffle of the game engine: Fisher–Yates driven by a given stream of 16-bit words.
//
// The words come from the engine's counter-based generator (python/game/wall.py documents it; the
// bytes are produced there with the platform's BLAKE2b). This is the arithmetic half, done natively
// because it runs once per simulated hand: for i = n-1 .. 1, take the next word w, skip it while
// w >= 65536 - 65536 % (i + 1) (so every j is exactly equally likely), then swap tiles[i] with
// tiles[w % (i + 1)].
#pragma once

#include <cstddef>
#include <cstdint>

namespace mahjong_core {

// The largest wall the shuffle takes (the rejection bound needs ranges well below 65536).
constexpr int kMaxShuffleSize = 4096;

// Shuffles tiles[0..n) in place using the little-endian 16-bit words in word_bytes[0 .. 2*n_words).
// Returns the number of words consumed, or -1 when the words ran out first — then tiles are left
// unchanged and the caller retries with a longer stream (the same prefix gives the same result).
// Throws InvalidArgument for n outside 0..kMaxShuffleSize.
int shuffle_with_words(std::uint8_t* tiles, int n, const std::uint8_t* word_bytes, std::size_t n_words);

}  // namespace mahjong_core
