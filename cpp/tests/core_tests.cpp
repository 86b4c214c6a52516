// The core's own tests (no Python):  make -C cpp test
//
// The table checks are independent of the generator: distances are recomputed by brute force over
// every target "k sets (+ a pair)" of a suit, and exactness by direct recursive splitting.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mahjong_core/decompose.h"
#include "mahjong_core/errors.h"
#include "mahjong_core/shanten.h"
#include "mahjong_core/tables.h"

using namespace mahjong_core;

namespace {

int failures = 0;
int checks = 0;

#define CHECK(cond)                                                          \
  do {                                                                       \
    ++checks;                                                                \
    if (!(cond)) {                                                           \
      ++failures;                                                            \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);           \
    }                                                                        \
  } while (0)

std::vector<uint8_t> counts_of(const std::string& text) {
  // Minimal notation: digit runs with m/p/s, honours ESWNCFP.
  std::vector<uint8_t> c(kKinds, 0);
  std::string digits;
  for (char ch : text) {
    if (ch >= '1' && ch <= '9') {
      digits += ch;
    } else if (ch == 'm' || ch == 'p' || ch == 's') {
      const int suit = ch == 'm' ? 0 : ch == 'p' ? 1 : 2;
      for (char d : digits) ++c[suit * 9 + (d - '1')];
      digits.clear();
    } else {
      const char* honours = "ESWNCFP";
      ++c[27 + (std::strchr(honours, ch) - honours)];
    }
  }
  return c;
}

// ---- brute-force suit distances ----

struct Target {
  uint8_t c[9];
  int sets;
  bool pair;
};

std::vector<Target> all_targets(int kinds, bool honors) {
  std::vector<Target> out;
  std::vector<std::array<int, 2>> sets;  // (type 0 pung / 1 chow, start)
  for (int i = 0; i < kinds; ++i) sets.push_back({0, i});
  if (!honors)
    for (int i = 0; i + 2 < kinds; ++i) sets.push_back({1, i});
  std::function<void(int, int, Target&)> rec = [&](int from, int left, Target& t) {
    // Record with and without each pair.
    Target base = t;
    out.push_back(base);
    for (int p = 0; p < kinds; ++p) {
      Target with = base;
      with.c[p] += 2;
      with.pair = true;
      out.push_back(with);
    }
    if (left == 0) return;
    for (size_t s = from; s < sets.size(); ++s) {
      Target next = t;
      if (sets[s][0] == 0) next.c[sets[s][1]] += 3;
      else for (int k = 0; k < 3; ++k) ++next.c[sets[s][1] + k];
      ++next.sets;
      rec(static_cast<int>(s), left - 1, next);
    }
  };
  Target empty{};
  rec(0, 4, empty);
  return out;
}

tables::DistanceVector brute_distances(const uint8_t* h, int kinds, const std::vector<Target>& targets, bool limited) {
  tables::DistanceVector d;
  std::fill(d.v, d.v + 10, 99);
  for (const Target& t : targets) {
    int need = 0;
    bool over = false;
    for (int i = 0; i < kinds; ++i) {
      if (t.c[i] > 4) over = true;
      need += std::max(0, t.c[i] - h[i]);
    }
    if (limited && over) continue;
    uint8_t& slot = d.v[(t.pair ? 5 : 0) + t.sets];
    slot = static_cast<uint8_t>(std::min<int>(slot, need));
  }
  return d;
}

void test_tables() {
  const tables::Tables& t = tables::get();
  const tables::DistanceTables& lim = tables::limited();
  const auto suit_targets = all_targets(9, false), honor_targets = all_targets(7, true);
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 1500; ++trial) {
    uint8_t h[9] = {0};
    const int tiles = static_cast<int>(rng() % 15);
    for (int n = 0; n < tiles;) {
      const int k = static_cast<int>(rng() % 9);
      if (h[k] < 4) ++h[k], ++n;
    }
    const auto want = brute_distances(h, 9, suit_targets, false);
    const auto want_limited = brute_distances(h, 9, suit_targets, true);
    const uint32_t idx = tables::suit_index(t, h);
    const auto& got = t.phantom.suit_vectors[t.phantom.suit_class[idx]];
    const auto& got_limited = lim.suit_vectors[lim.suit_class[idx]];
    for (int k = 0; k < 10; ++k) {
      CHECK(got.v[k] == want.v[k]);
      CHECK(got_limited.v[k] == want_limited.v[k]);
    }
    // Wait bits against direct splitting.
    const uint32_t w = t.suit_waits[idx];
    CHECK(tables::complete_no_pair(w) == tables::splits_exactly(h, 9, false, false));
    CHECK(tables::complete_pair(w) == tables::splits_exactly(h, 9, false, true));
    if (tiles < 14)
      for (int k = 0; k < 9; ++k) {
        uint8_t g[9];
        std::memcpy(g, h, 9);
        ++g[k];
        CHECK(((tables::wait_no_pair(w) >> k) & 1) == tables::splits_exactly(g, 9, false, false));
        CHECK(((tables::wait_pair(w) >> k) & 1) == tables::splits_exactly(g, 9, false, true));
      }
  }
  for (int trial = 0; trial < 500; ++trial) {
    uint8_t h[7] = {0};
    const int tiles = static_cast<int>(rng() % 15);
    for (int n = 0; n < tiles;) {
      const int k = static_cast<int>(rng() % 7);
      if (h[k] < 4) ++h[k], ++n;
    }
    const auto want = brute_distances(h, 7, honor_targets, false);
    const auto& got = t.phantom.honor_vectors[t.phantom.honor_class[tables::honor_index(h)]];
    for (int k = 0; k < 10; ++k) CHECK(got.v[k] == want.v[k]);
  }
  // Deterministic generation: the recorded checksum (also asserted by the Python tests).
  std::printf("table checksum %llu, %zu bytes\n", static_cast<unsigned long long>(tables::checksum()),
              tables::memory_bytes());
  CHECK(tables::memory_bytes() <= 8u * 1024 * 1024);
}

// The vectorised helpers (sums, masks, seven pairs, thirteen orphans, win detection) against plain
// loops on random hands; the suite is built both with SIMD and with -DMAHJONG_CORE_NO_SIMD.
void test_simd_paths_against_loops() {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 100000; ++trial) {
    uint8_t c[kKinds] = {0};
    const int tiles = 13 + static_cast<int>(rng() % 2);
    // Bias towards orphans and pairs so the special forms are reached.
    for (int n = 0; n < tiles;) {
      const int k = (rng() % 3 == 0) ? kOrphans[rng() % 13] : static_cast<int>(rng() % kKinds);
      if (c[k] < 4) ++c[k], ++n;
    }
    int pairs = 0, orphan_kinds = 0, orphan_pair = 0, odd = 0;
    for (int i = 0; i < kKinds; ++i) {
      pairs += c[i] / 2;
      odd += c[i] % 2;
    }
    for (uint8_t i : kOrphans) {
      orphan_kinds += c[i] > 0;
      orphan_pair |= c[i] > 1;
    }
    CHECK(seven_pairs_shanten(c, 0) == 6 - pairs);
    CHECK(thirteen_orphans_shanten(c, 0) == 13 - orphan_kinds - orphan_pair);
    if (tiles == 14) {
      CHECK(is_winning_unchecked(c, 0, kSevenPairs) == (odd == 0));
      CHECK(is_winning_unchecked(c, 0, kAllForms) == (shanten_unchecked(c, 0, kAllForms) == -1));
      CHECK(is_winning_unchecked(c, 0, kStandard) == (standard_shanten(c, 0) == -1));
    }
  }
}

template <typename Fn>
bool throws_invalid(Fn fn) {
  try {
    fn();
  } catch (const InvalidHand&) {
    return true;
  } catch (...) {
    return false;
  }
  return false;
}

void test_known_hands() {
  auto sh = [](const char* text, unsigned forms, int melds = 0) {
    return shanten(counts_of(text).data(), melds, forms);
  };
  CHECK(sh("123m456p789s1122s", kStandard) == 0);  // ready on 1s or 2s
  CHECK(sh("123m456p789sEESS", kStandard) == 0);
  CHECK(sh("123m456p789sEESSS", kStandard) == -1);
  CHECK(sh("1122334455667m", kSevenPairs) == 0);
  CHECK(sh("11223344556677m", kSevenPairs) == -1);
  CHECK(sh("11112233445566m", kSevenPairs) == -1);  // a quad counts as two pairs
  CHECK(sh("19m19p19sESWNCFP", kThirteenOrphans) == 0);
  CHECK(sh("19m19p19sESWNCFPP", kThirteenOrphans) == -1);
  CHECK(sh("147m258p369sESWNC", kHonorsKnitted) == -1);
  CHECK(sh("147m258p369s123mEE", kKnittedStraight) == -1);
  CHECK(sh("1111m234p567p789p", kStandard) == 0);     // phantom wait on a fifth 1m
  CHECK(shanten_limited(counts_of("1111m234p567p789p").data(), 0, kStandard) == 1);

  auto waits_of = [](const char* text, unsigned forms) { return waits(counts_of(text).data(), 0, forms); };
  CHECK(waits_of("1112345678999m", kStandard) == 0x1FFull);  // nine gates: every character
  CHECK(waits_of("19m19p19sESWNCFP", kThirteenOrphans) == kOrphanMask);
  CHECK(waits_of("1122334455667m", kSevenPairs) == (1ull << 6));

  CHECK(is_winning(counts_of("11223344556677m").data(), 0, kSevenPairs));
  CHECK(!is_winning(counts_of("11223344556677m").data(), 0, kThirteenOrphans));
  CHECK(throws_invalid([] { is_winning(counts_of("EEE").data(), 4, kStandard); }));  // 2 tiles expected
  CHECK(is_winning(counts_of("EE").data(), 4, kStandard));

  // 11223344556677m: three standard readings and seven pairs.
  const auto ds = decompose(counts_of("11223344556677m").data(), nullptr, 0, kAllForms);
  int standard = 0, pairs = 0;
  for (const auto& d : ds) (d.form == kStandard ? standard : pairs) += 1;
  CHECK(standard == 3 && pairs == 1);
  // 111222333m + 789p + 55s: pungs or chows.
  CHECK(decompose(counts_of("111222333m789p55s").data(), nullptr, 0, kStandard).size() == 2);
  const MeldSpec kong{BlockKind::Kong, 27, true};
  const auto with_meld = decompose(counts_of("123m456p789s55s").data(), &kong, 1, kAllForms);
  CHECK(with_meld.size() == 1 && with_meld[0].blocks[0].meld == 0 && with_meld[0].blocks[0].concealed);
}

void test_errors() {
  auto c = counts_of("123m456p789sEESS");
  CHECK(throws_invalid([&] { shanten(c.data(), 1, kStandard); }));  // 13 tiles with a meld
  c[0] = 5;
  CHECK(throws_invalid([&] { shanten(c.data(), 0, kStandard); }));
  auto ok = counts_of("123m456p789sEESS");
  CHECK(throws_invalid([&] { shanten(ok.data(), 5, kStandard); }));
  bool bad_forms = false;
  try {
    shanten(ok.data(), 0, 64);
  } catch (const InvalidArgument&) {
    bad_forms = true;
  }
  CHECK(bad_forms);
  const auto ten = counts_of("123m456p789sE");
  CHECK(throws_invalid([&] { shanten(ten.data(), 1, kSevenPairs); }));  // seven pairs cannot have melds
  const MeldSpec chow{BlockKind::Chow, 7, false};                       // 8m9m1p
  const auto eleven = counts_of("123m456p789sEE");
  CHECK(throws_invalid([&] { decompose(eleven.data(), &chow, 1, kAllForms); }));
  try {
    c[0] = 5;
    shanten(c.data(), 0, kStandard);
  } catch (const InvalidHand& e) {
    CHECK(std::string(e.what()).find("1m") != std::string::npos);
  }
}
// discard_options (one kernel call sharing the per-suit work) against its definition, one discard
// at a time: the shanten after the discard, and the drawable kinds that lower it. Hands lean
// towards knitted shapes (most of one arrangement, honours) so the knitted forms attain the
// shanten; melds 0..2 and random form subsets.
void test_discard_options_against_single_discards() {
  std::mt19937_64 rng(14);
  int knitted_best = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const int melds = static_cast<int>(rng() % 5 == 0 ? 1 + rng() % 2 : 0);
    const int tiles = 14 - 3 * melds;
    uint8_t c[kKinds] = {0}, meld_tiles[kKinds] = {0};
    for (int i = 0; i < 3 * melds; ++i) ++meld_tiles[27 + i % 7];  // pungs of honours, tile counts only
    auto add = [&](int k) {
      if (c[k] + meld_tiles[k] < 4) ++c[k];
    };
    int n = 0;
    auto total = [&] {
      int s = 0;
      for (int i = 0; i < kKinds; ++i) s += c[i];
      return s;
    };
    const int style = static_cast<int>(rng() % 4);  // 0 random, 1 knitted straight, 2 honours-and-knitted, 3 orphans
    if (style == 1 || style == 2) {
      const uint64_t mask = kKnittedMasks[rng() % 6];
      for (int k = 0; k < 27; ++k)
        if ((mask >> k & 1) && rng() % 10 < 8 && total() < tiles) add(k);
    }
    while ((n = total()) < tiles) {
      const int k = style == 2 && rng() % 2   ? 27 + static_cast<int>(rng() % 7)
                    : style == 3 && rng() % 2 ? kOrphans[rng() % 13]
                                              : static_cast<int>(rng() % kKinds);
      add(k);
    }
    const unsigned forms = rng() % 3 ? kAllForms : 1u + static_cast<unsigned>(rng() % kAllForms);
    if (!(forms & possible_forms(melds))) continue;
    const std::vector<DiscardOption> got = discard_options(c, melds, forms, meld_tiles);
    size_t i = 0;
    for (int x = 0; x < kKinds; ++x) {
      if (!c[x]) continue;
      CHECK(i < got.size() && got[i].tile == x);
      if (i >= got.size()) break;
      uint8_t h[kKinds];
      std::memcpy(h, c, kKinds);
      --h[x];
      const int base = shanten_unchecked(h, melds, forms);
      CHECK(got[i].shanten == base);
      uint64_t want = 0;
      for (int t = 0; t < kKinds; ++t) {
        if (h[t] + meld_tiles[t] >= 4) continue;  // all four copies held: never drawn
        ++h[t];
        if (shanten_unchecked(h, melds, forms) < base) want |= 1ull << t;
        --h[t];
      }
      CHECK(got[i].effective == want);
      CHECK(got[i].effective == effective_unchecked(h, melds, forms, drawable_mask(h, meld_tiles)).tiles);
      if ((forms & kKnittedStraight) && knitted_straight_shanten(h, melds) == base && standard_shanten(h, melds) > base)
        ++knitted_best;
      ++i;
    }
    CHECK(i == got.size());
  }
  CHECK(knitted_best > 1000);  // the knitted straight really decided many of the options above
}

// input_is_valid (the non-throwing check of the C entry points) against the throwing validators, on
// random counts near the valid sizes, every meld count -1..5, every forms value 0..32.
void test_input_is_valid_against_validators() {
  std::mt19937 rng(24);
  const TileCount expects[] = {TileCount::Waiting, TileCount::Complete, TileCount::Either};
  for (int round = 0; round < 20000; ++round) {
    std::vector<uint8_t> c(kKinds, 0);
    const int melds = static_cast<int>(rng() % 7) - 1;
    const int tiles = std::max(0, 13 - 3 * std::max(melds, 0)) + static_cast<int>(rng() % 3);
    for (int k = 0; k < tiles; ++k) c[rng() % kKinds] += (rng() % 50 == 0) ? 2 : 1;
    const unsigned forms = rng() % 33;
    const TileCount expect = expects[rng() % 3];
    const bool possible = rng() % 2;
    bool valid = true;
    try {
      validate_forms(forms);
      validate_hand(c.data(), melds, expect);
      if (possible) require_possible_forms(forms, melds);
    } catch (const std::invalid_argument&) {  // InvalidHand and InvalidArgument
      valid = false;
    }
    CHECK(input_is_valid(c.data(), melds, forms, expect, possible) == valid);
  }
  // Every position over the limit (the vector check reads 32 counts as two blocks, the last two
  // apart), with the rest of the hand exactly the right size.
  for (int at = 0; at < kKinds; ++at) {
    for (const int over : {5, 6, 255}) {
      std::vector<uint8_t> c(kKinds, 0);
      c[at] = static_cast<uint8_t>(over);
      CHECK(!input_is_valid(c.data(), 0, kStandard, TileCount::Either, false));
      c[at] = 4;
      for (int t = 0, left = 9; left > 0; ++t)
        if (t != at) left -= (c[t] = static_cast<uint8_t>(std::min(left, 4)));
      CHECK(input_is_valid(c.data(), 0, kStandard, TileCount::Waiting, true));
      c[at] = static_cast<uint8_t>(over);
      CHECK(!input_is_valid(c.data(), 0, kStandard, TileCount::Either, false));
    }
  }
}

// held_kinds (the kernels' vector compare of 32 + 2 counts) against the obvious loop, every value
// 0..255 at every position, and on random counts.
void test_held_kinds_against_loop() {
  auto check_against_loop = [](const std::vector<uint8_t>& c) {
    uint64_t held = 0, quads = 0;
    for (int t = 0; t < kKinds; ++t) {
      if (c[t]) held |= uint64_t{1} << t;
      if (c[t] >= 4) quads |= uint64_t{1} << t;
    }
    const HeldKinds got = held_kinds(c.data());
    CHECK(got.held == held);
    CHECK(got.quads == quads);
  };
  for (int at = 0; at < kKinds; ++at) {
    for (int value = 0; value < 256; ++value) {
      for (const int rest : {0, 1, 4}) {
        std::vector<uint8_t> c(kKinds, static_cast<uint8_t>(rest));
        c[at] = static_cast<uint8_t>(value);
        check_against_loop(c);
      }
    }
  }
  std::mt19937 rng(34);
  for (int round = 0; round < 5000; ++round) {
    std::vector<uint8_t> c(kKinds);
    for (auto& x : c) x = static_cast<uint8_t>(rng() % 6);
    check_against_loop(c);
  }
}

}  // namespace

int main() {
  test_tables();
  test_known_hands();
  test_simd_paths_against_loops();
  test_errors();
  test_discard_options_against_single_discards();
  test_input_is_valid_against_validators();
  test_held_kinds_against_loop();
  std::printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
