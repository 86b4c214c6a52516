#include "mahjong_core/shuffle.h"

#include <string>
#include <vector>

#include "mahjong_core/errors.h"

namespace mahjong_core {

int shuffle_with_words(std::uint8_t* tiles, int n, const std::uint8_t* word_bytes, std::size_t n_words) {
  if (n < 0 || n > kMaxShuffleSize) {
    throw InvalidArgument("a shuffled wall holds 0.." + std::to_string(kMaxShuffleSize) + " tiles, got " +
                          std::to_string(n));
  }
  std::vector<std::uint8_t> out(tiles, tiles + n);  // tiles stay unchanged if the words run out
  std::size_t k = 0;
  for (int i = n - 1; i > 0; --i) {
    const unsigned range = static_cast<unsigned>(i) + 1;
    const unsigned limit = 65536u - 65536u % range;
    unsigned w;
    do {
      if (k >= n_words) return -1;
      w = static_cast<unsigned>(word_bytes[2 * k]) | static_cast<unsigned>(word_bytes[2 * k + 1]) << 8;
      ++k;
    } while (w >= limit);
    const unsigned j = w % range;
    const std::uint8_t t = out[i];
    out[i] = out[j];
    out[j] = t;
  }
  for (int i = 0; i < n; ++i) tiles[i] = out[i];
  return static_cast<int>(k);
}

}  // namespace mahjong_core
