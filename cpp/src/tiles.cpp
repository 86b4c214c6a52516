#include "mahjong_core/tiles.h"

namespace mahjong_core {

std::string tile_name(int kind) {
  static const char* const kHonorLetters = "ESWNCFP";
  if (kind < 0 || kind >= kKinds) return "?" + std::to_string(kind);
  if (is_honor(kind)) return std::string(1, kHonorLetters[kind - kFirstHonor]);
  return std::string(1, static_cast<char>('1' + rank_of(kind))) + "mps"[suit_of(kind)];
}

}  // namespace mahjong_core
