// Native benchmark of the core: ns per hand for each operation on seeded corpora.
//   make -C cpp bench
// Corpora: random 13-tile hands (dealt from a shuffled 136-tile wall), and 14-tile hands of which
// 10% are complete (random sets + pair). Each figure is the best of several repetitions.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "mahjong_core/batch.h"
#include "mahjong_core/decompose.h"
#include "mahjong_core/shanten.h"
#include "mahjong_core/tables.h"

using namespace mahjong_core;
using Clock = std::chrono::steady_clock;

namespace {

std::vector<uint8_t> random_hands(size_t n, int tiles, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> out(n * kKinds, 0);
  std::vector<uint8_t> wall(136);
  for (size_t h = 0; h < n; ++h) {
    for (int i = 0; i < 136; ++i) wall[i] = static_cast<uint8_t>(i / 4);
    // Partial Fisher-Yates: only the first `tiles` positions are needed.
    for (int i = 0; i < tiles; ++i) {
      std::uniform_int_distribution<int> pick(i, 135);
      std::swap(wall[i], wall[pick(rng)]);
      ++out[h * kKinds + wall[i]];
    }
  }
  return out;
}

// A complete 14-tile hand: four random sets and a pair, retried until no kind exceeds four.
void complete_hand(std::mt19937_64& rng, uint8_t* c) {
  for (;;) {
    std::fill(c, c + kKinds, 0);
    for (int s = 0; s < 4; ++s) {
      if (rng() % 2) {
        const int suit = rng() % 3, start = rng() % 7;
        for (int k = 0; k < 3; ++k) ++c[suit * 9 + start + k];
      } else {
        c[rng() % kKinds] += 3;
      }
    }
    c[rng() % kKinds] += 2;
    if (*std::max_element(c, c + kKinds) <= 4) return;
  }
}

std::vector<uint8_t> winning_mix(size_t n, uint64_t seed) {
  std::vector<uint8_t> out = random_hands(n, 14, seed);
  std::mt19937_64 rng(seed + 1);
  for (size_t h = 0; h < n; h += 10) complete_hand(rng, &out[h * kKinds]);
  return out;
}

template <typename Fn>
double best_ns(const std::vector<uint8_t>& hands, int reps, Fn fn) {
  const size_t n = hands.size() / kKinds;
  double best = 1e30;
  long sink = 0;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    for (size_t h = 0; h < n; ++h) sink += fn(&hands[h * kKinds]);
    const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / n;
    best = std::min(best, ns);
  }
  if (sink == 42) std::puts("");  // keep the results alive
  return best;
}

}  // namespace

int main() {
  const auto t0 = Clock::now();
  tables::ensure_init();
  const double build = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf("tables: built in %.3f s, %.2f MB\n", build, tables::memory_bytes() / 1e6);

  const size_t n = 200000;
  const auto h13 = random_hands(n, 13, 1);
  const auto h14 = winning_mix(n, 2);
  const int reps = 7;
  const uint64_t all = (1ull << kKinds) - 1;

  std::printf("%-44s %8s\n", "operation (random 13-tile hands)", "ns/hand");
  std::printf("%-44s %8.1f\n", "shanten standard", best_ns(h13, reps, [](const uint8_t* c) {
                return standard_shanten(c, 0); }));
  std::printf("%-44s %8.1f\n", "shanten standard+7pairs+13orphans", best_ns(h13, reps, [](const uint8_t* c) {
                return shanten_unchecked(c, 0, kFormsChangbai); }));
  std::printf("%-44s %8.1f\n", "shanten all five MCR forms", best_ns(h13, reps, [](const uint8_t* c) {
                return shanten_unchecked(c, 0, kFormsMCR); }));
  std::printf("%-44s %8.1f\n", "shanten standard, limited (no 5th copy)", best_ns(h13, reps, [](const uint8_t* c) {
                return shanten_limited_unchecked(c, 0, kStandard); }));
  std::printf("%-44s %8.1f\n", "waits, all five MCR forms", best_ns(h13, reps, [](const uint8_t* c) {
                return static_cast<long>(waits_unchecked(c, 0, kFormsMCR) & 1); }));
  std::printf("%-44s %8.1f\n", "effective tiles, standard+7p+13o", best_ns(h13, 3, [all](const uint8_t* c) {
                return static_cast<long>(effective_unchecked(c, 0, kFormsChangbai, all).tiles & 1); }));
  std::printf("%-44s %8.1f\n", "effective tiles, all five MCR forms", best_ns(h13, 3, [all](const uint8_t* c) {
                return static_cast<long>(effective_unchecked(c, 0, kFormsMCR, all).tiles & 1); }));
  // The batch entry point validates every row; its cost per hand next to the unchecked loop above.
  auto batch_ns = [&h13, n](unsigned forms) {
    std::vector<int8_t> out(n);
    double best = 1e30;
    for (int r = 0; r < 7; ++r) {
      const auto t0 = Clock::now();
      batch_shanten(h13.data(), n, nullptr, 0, forms, false, out.data());
      best = std::min(best, std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / n);
    }
    return best;
  };
  std::printf("%-44s %8.1f\n", "batch_shanten standard+7p+13o (validating)", batch_ns(kFormsChangbai));
  std::printf("%-44s %8.1f\n", "batch_shanten all five MCR forms", batch_ns(kFormsMCR));
  std::printf("%-44s %8s\n", "operation (14-tile hands, 10% complete)", "ns/hand");
  std::printf("%-44s %8.1f\n", "is_winning standard+7p+13o", best_ns(h14, reps, [](const uint8_t* c) {
                return static_cast<long>(is_winning_unchecked(c, 0, kFormsChangbai)); }));
  std::printf("%-44s %8.1f\n", "is_winning all five MCR forms", best_ns(h14, reps, [](const uint8_t* c) {
                return static_cast<long>(is_winning_unchecked(c, 0, kFormsMCR)); }));
  std::printf("%-44s %8.1f\n", "decompose (all forms, vector result)", best_ns(h14, 3, [](const uint8_t* c) {
                return static_cast<long>(decompose(c, nullptr, 0, kFormsMCR).size()); }));
  return 0;
}
