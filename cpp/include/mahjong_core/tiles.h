// Tile kinds, form flags and small tile facts shared by the whole core.
//
// A hand is a 34-entry array of counts in the canonical order:
//   0..8 characters 1m..9m, 9..17 dots 1p..9p, 18..26 bamboo 1s..9s,
//   27..30 winds E S W N, 31..33 dragons C (red 中) F (green 发) P (white 白).
// Exposed melds are never part of the count array; they are passed explicitly.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace mahjong_core {

constexpr int kKinds = 34;
constexpr int kSuitKinds = 9;
constexpr int kHonorKinds = 7;
constexpr int kMaxCopies = 4;
constexpr int kMaxMelds = 4;
constexpr int kFirstHonor = 27;

// Hand forms, combinable as flags (Python's `Forms`).
enum Form : unsigned {
  kStandard = 1u,         // n sets + a pair
  kSevenPairs = 2u,       // seven pairs, a quad counts as two pairs
  kThirteenOrphans = 4u,  // 十三幺
  kHonorsKnitted = 8u,    // 全不靠 / 七星不靠
  kKnittedStraight = 16u, // 组合龙 + a set + a pair
};
constexpr unsigned kAllForms = 31u;
constexpr unsigned kFormsMCR = kAllForms;
constexpr unsigned kFormsSichuan = kStandard | kSevenPairs;
constexpr unsigned kFormsChangbai = kStandard | kSevenPairs | kThirteenOrphans;

inline constexpr int suit_of(int kind) { return kind / 9; }  // 3 = honours
inline constexpr int rank_of(int kind) { return kind % 9; }  // 0-based
inline constexpr bool is_honor(int kind) { return kind >= kFirstHonor; }
inline constexpr bool is_terminal(int kind) {
  return kind < kFirstHonor && (rank_of(kind) == 0 || rank_of(kind) == 8);
}
inline constexpr bool is_terminal_or_honor(int kind) { return is_honor(kind) || is_terminal(kind); }

// The 13 kinds of thirteen orphans.
constexpr std::array<uint8_t, 13> kOrphans = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
constexpr uint64_t kHonorMask = 0x3F8000000ull;  // bits 27..33
constexpr uint64_t kOrphanMask = kHonorMask | (1ull << 0) | (1ull << 8) | (1ull << 9) | (1ull << 17) |
                                 (1ull << 18) | (1ull << 26);
constexpr uint64_t kAllKindsMask = (1ull << kKinds) - 1;

// The six knitted arrangements: suit of the 147 run, of the 258 run, of the 369 run.
constexpr std::array<std::array<uint8_t, 3>, 6> kKnittedSuits = {{
    {0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0},
}};

// Bit mask (over the 34 kinds) of the nine knitted tiles of arrangement `perm`.
constexpr uint64_t knitted_mask(int perm) {
  uint64_t mask = 0;
  for (int run = 0; run < 3; ++run)
    for (int step = 0; step < 3; ++step)
      mask |= 1ull << (kKnittedSuits[perm][run] * 9 + run + 3 * step);
  return mask;
}
constexpr std::array<uint64_t, 6> kKnittedMasks = {knitted_mask(0), knitted_mask(1), knitted_mask(2),
                                                   knitted_mask(3), knitted_mask(4), knitted_mask(5)};

// "1m", "9s", "E", "C" ... (the notation of API.md).
std::string tile_name(int kind);

}  // namespace mahjong_core
