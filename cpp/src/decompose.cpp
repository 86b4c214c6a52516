#include "mahjong_core/decompose.h"

#include <cstring>
#include <string>

#include "mahjong_core/bits.h"
#include "mahjong_core/errors.h"
#include "mahjong_core/shanten.h"

namespace mahjong_core {
namespace {

// Options for the block that covers the lowest remaining tile, in canonical order. Blocks that
// start at the same tile are generated in non-decreasing option order, so each multiset of blocks
// is produced exactly once.
enum Option { kPung = 0, kPair = 1, kChow = 2 };

struct Search {
  uint8_t c[kKinds];
  Decomposition current;
  std::vector<Decomposition>* out;
  bool pair_used = false;

  void push(BlockKind kind, int tile) {
    current.blocks[current.n_blocks++] = Block{kind, static_cast<uint8_t>(tile), true, -1};
  }

  void run(int from, int last_tile, int last_option) {
    int i = from;
    while (i < kKinds && c[i] == 0) ++i;
    if (i == kKinds) {
      if (pair_used) emit();
      return;
    }
    const int first = (i == last_tile) ? last_option : 0;
    if (first <= kPung && c[i] >= 3) {
      c[i] -= 3;
      push(BlockKind::Pung, i);
      run(i, i, kPung);
      --current.n_blocks;
      c[i] += 3;
    }
    if (first <= kPair && !pair_used && c[i] >= 2) {
      c[i] -= 2;
      pair_used = true;
      push(BlockKind::Pair, i);
      run(i, i, kPair);
      --current.n_blocks;
      pair_used = false;
      c[i] += 2;
    }
    if (!is_honor(i) && rank_of(i) <= 6 && c[i + 1] && c[i + 2]) {
      --c[i], --c[i + 1], --c[i + 2];
      push(BlockKind::Chow, i);
      run(i, i, kChow);
      --current.n_blocks;
      ++c[i], ++c[i + 1], ++c[i + 2];
    }
  }

  // Store with the pair moved behind the sets.
  void emit() {
    Decomposition d = current;
    int write = 0;
    Block pair{};
    for (int r = 0; r < d.n_blocks; ++r) {
      if (d.blocks[r].kind == BlockKind::Pair && d.blocks[r].meld < 0) pair = d.blocks[r];
      else d.blocks[write++] = d.blocks[r];
    }
    d.blocks[write] = pair;
    out->push_back(d);
  }
};

}  // namespace

void decompose_standard(const uint8_t* counts, const Block* prefix, int n_prefix, unsigned form, int knitted,
                        std::vector<Decomposition>& out) {
  Search s;
  std::memcpy(s.c, counts, kKinds);
  s.out = &out;
  s.current.form = form;
  s.current.knitted = static_cast<int8_t>(knitted);
  for (int i = 0; i < n_prefix; ++i) s.current.blocks[s.current.n_blocks++] = prefix[i];
  s.run(0, -1, 0);
}

void validate_melds(const uint8_t* concealed, const MeldSpec* melds, int n_melds) {
  if (n_melds < 0 || n_melds > kMaxMelds)
    throw InvalidHand("a hand has 0 to 4 exposed melds, got " + std::to_string(n_melds));
  // Messages are only formatted when a meld is wrong (this runs on every scoring call).
  auto where = [](int i) { return "meld " + std::to_string(i + 1); };
  uint8_t total[kKinds];
  std::memcpy(total, concealed, kKinds);
  for (int i = 0; i < n_melds; ++i) {
    const MeldSpec& m = melds[i];
    if (m.tile >= kKinds) throw InvalidHand(where(i) + ": tile index " + std::to_string(m.tile) + " is not 0..33");
    switch (m.kind) {
      case BlockKind::Chow:
        if (is_honor(m.tile)) throw InvalidHand(where(i) + ": a chow cannot be made of honours");
        if (rank_of(m.tile) > 6)
          throw InvalidHand(where(i) + ": a chow starting at " + tile_name(m.tile) + " would run across suits");
        if (m.concealed) throw InvalidHand(where(i) + ": only a kong can be a concealed meld");
        for (int k = 0; k < 3; ++k) ++total[m.tile + k];
        break;
      case BlockKind::Pung:
        if (m.concealed) throw InvalidHand(where(i) + ": only a kong can be a concealed meld");
        total[m.tile] += 3;
        break;
      case BlockKind::Kong:
        total[m.tile] += 4;
        break;
      default:
        throw InvalidHand(where(i) + ": a meld is a chow, a pung or a kong");
    }
  }
  for (int i = 0; i < kKinds; ++i)
    if (total[i] > kMaxCopies)
      throw InvalidHand(std::to_string(total[i]) + " copies of " + tile_name(i) +
                        " in the hand and its melds (at most 4 of a kind)");
}

void decompose_into(const uint8_t* c, const MeldSpec* melds, int n_melds, unsigned forms,
                    std::vector<Decomposition>& out) noexcept {
  out.clear();
  Block prefix[kMaxMelds];
  for (int i = 0; i < n_melds; ++i) {
    const MeldSpec& m = melds[i];
    prefix[i] = Block{m.kind, m.tile, m.kind == BlockKind::Kong && m.concealed, static_cast<int8_t>(i)};
  }
  if (forms & kStandard) decompose_standard(c, prefix, n_melds, kStandard, -1, out);
  if (n_melds == 0 && (forms & (kSevenPairs | kThirteenOrphans | kHonorsKnitted))) {
    bool pairs = true, distinct = true;
    uint64_t kinds = 0;
    for (int t = 0; t < kKinds; ++t) {
      pairs = pairs && c[t] % 2 == 0;
      distinct = distinct && c[t] <= 1;
      if (c[t]) kinds |= 1ull << t;
    }
    if ((forms & kSevenPairs) && pairs) {  // 14 tiles, all counts even: a quad is two pairs
      Decomposition d;
      d.form = kSevenPairs;
      for (int t = 0; t < kKinds; ++t)
        for (int p = 0; p < c[t] / 2; ++p) d.blocks[d.n_blocks++] = Block{BlockKind::Pair, static_cast<uint8_t>(t), true, -1};
      out.push_back(d);
    }
    if ((forms & kThirteenOrphans) && kinds == kOrphanMask) {  // 14 tiles on the 13 orphan kinds
      Decomposition d;
      d.form = kThirteenOrphans;
      for (uint8_t t : kOrphans)
        if (c[t] == 2) d.blocks[d.n_blocks++] = Block{BlockKind::Pair, t, true, -1};
      out.push_back(d);
    }
    if ((forms & kHonorsKnitted) && distinct)  // 14 distinct tiles: honours and one arrangement
      for (int perm = 0; perm < 6; ++perm)
        if (!(kinds & ~kHonorMask & ~kKnittedMasks[perm])) {
          Decomposition d;
          d.form = kHonorsKnitted;
          d.knitted = static_cast<int8_t>(perm);
          out.push_back(d);
        }
  }
  if ((forms & kKnittedStraight) && n_melds <= 1)
    for (int perm = 0; perm < 6; ++perm) {
      uint8_t rest[kKinds];
      std::memcpy(rest, c, kKinds);
      bool complete = true;
      for (uint64_t m = kKnittedMasks[perm]; m && complete; m &= m - 1) {
        const int t = lowest_bit64(m);
        if (!rest[t]) complete = false;
        else --rest[t];
      }
      if (complete) decompose_standard(rest, prefix, n_melds, kKnittedStraight, perm, out);
    }
}

std::vector<Decomposition> decompose(const uint8_t* concealed, const MeldSpec* melds, int n_melds, unsigned forms) {
  validate_forms(forms);
  validate_hand(concealed, n_melds, TileCount::Complete);
  validate_melds(concealed, melds, n_melds);
  require_possible_forms(forms, n_melds);
  std::vector<Decomposition> out;
  decompose_into(concealed, melds, n_melds, forms, out);
  return out;
}

}  // namespace mahjong_core
