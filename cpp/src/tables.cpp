// Generation of the per-suit tables (see tables.h for what they hold and why).
//
// Distances come from one dynamic programme over the ranks of a suit, run along a depth-first walk
// of all count patterns in lexicographic order, so every prefix is processed once and the walk's
// leaf counter is exactly the pattern's index.
//
// DP state after some ranks: a = chows that still need their third tile at the current rank,
// b = chows that need their second tile here and their third at the next rank, k = sets chosen so
// far (pending chows included), q = whether the pair was chosen. At a rank holding h tiles we pick
// p pungs, c new chows and r pairs; the rank then needs t = a + b + 3p + c + 2r tiles and costs
// max(0, t - h) added tiles. The limited variant forbids t > 4.
#include "mahjong_core/tables.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace mahjong_core {
namespace tables {
namespace {

constexpr uint8_t kInf = 0xFF;
constexpr int kStates = 5 * 5 * 5 * 2;
constexpr int kCap = 31;  // distances above this never matter (a hand is at most 14 tiles away)

inline int state_of(int a, int b, int k, int q) { return ((a * 5 + b) * 5 + k) * 2 + q; }

using DpVector = std::array<uint8_t, kStates>;

// One DP move out of a finite state: where it goes, what it has cost so far, how many tiles the
// current rank must then hold.
struct Move {
  uint8_t target;
  uint8_t cost;
  uint8_t needed;
};
constexpr int kMaxMoves = kStates * 32;

// All moves out of the finite states of `in` at one rank (independent of the rank's count, so a
// walk node computes them once for its five children).
int collect_moves(const DpVector& in, bool chows_may_start, bool limited, Move* moves) {
  int n = 0;
  for (int a = 0; a <= 4; ++a)
    for (int b = 0; a + b <= 4; ++b)
      for (int k = a + b; k <= 4; ++k)
        for (int q = 0; q <= 1; ++q) {
          const uint8_t cost = in[state_of(a, b, k, q)];
          if (cost == kInf) continue;
          for (int p = 0; k + p <= 4; ++p) {
            const int max_chows = chows_may_start ? 4 - k - p : 0;
            for (int c = 0; c <= max_chows; ++c)
              for (int r = 0; r + q <= 1; ++r) {
                const int needed = a + b + 3 * p + c + 2 * r;
                if (limited && needed > 4) continue;
                moves[n++] = Move{static_cast<uint8_t>(state_of(b, c, k + p + c, q + r)), cost,
                                  static_cast<uint8_t>(needed)};
              }
          }
        }
  return n;
}

void apply_moves(const Move* moves, int n, int hand_count, DpVector& out) {
  out.fill(kInf);
  for (int i = 0; i < n; ++i) {
    const Move& m = moves[i];
    const int add = m.needed > hand_count ? m.needed - hand_count : 0;
    const int total = std::min(m.cost + add, kCap);
    if (total < out[m.target]) out[m.target] = static_cast<uint8_t>(total);
  }
}

DpVector initial_vector() {
  DpVector v;
  v.fill(kInf);
  v[state_of(0, 0, 0, 0)] = 0;
  return v;
}

DistanceVector final_distances(const DpVector& v) {
  DistanceVector d;
  for (int k = 0; k <= 4; ++k) {
    d.v[k] = std::min<int>(v[state_of(0, 0, k, 0)], kCap);
    d.v[5 + k] = std::min<int>(v[state_of(0, 0, k, 1)], kCap);
  }
  return d;
}

// Depth-first walk over all patterns of `ranks` counts (0..4 each, sum <= max_sum) in
// lexicographic order, writing each pattern's distance vector at its walk position.
struct Walk {
  int ranks;
  bool honors;
  bool limited;
  int max_sum;
  std::vector<DistanceVector>* out;
  std::vector<Move> moves_by_depth;

  void run() {
    moves_by_depth.resize(static_cast<size_t>(ranks) * kMaxMoves);
    visit(0, 0, initial_vector());
  }

  void visit(int depth, int sum, const DpVector& v) {
    if (depth == ranks) {
      out->push_back(final_distances(v));
      return;
    }
    Move* moves = &moves_by_depth[static_cast<size_t>(depth) * kMaxMoves];
    const int n = collect_moves(v, !honors && depth <= 6, limited, moves);
    DpVector next;
    const int max_here = std::min(4, max_sum - sum);
    for (int h = 0; h <= max_here; ++h) {
      apply_moves(moves, n, h, next);
      visit(depth + 1, sum + h, next);
    }
  }
};

[[maybe_unused]] std::vector<DistanceVector> walk_distances(int ranks, bool honors, bool limited, int max_sum) {
  std::vector<DistanceVector> out;
  Walk walk{ranks, honors, limited, max_sum, &out, {}};
  walk.run();
  return out;
}

uint64_t vector_key(const DistanceVector& d) {
  uint64_t key = 0;
  for (int i = 0; i < 10; ++i) key |= static_cast<uint64_t>(d.v[i]) << (6 * i);
  return key;
}

// Numbers distinct vectors in order of first appearance (deterministic).
struct Classifier {
  std::unordered_map<uint64_t, uint8_t> ids;
  std::vector<DistanceVector> vectors;

  uint8_t id_of(const DistanceVector& d) {
    const auto found = ids.find(vector_key(d));
    if (found != ids.end()) return found->second;
    if (vectors.size() > 255) std::abort();  // class ids are bytes; the generator guarantees ~200 at most
    const auto id = static_cast<uint8_t>(vectors.size());
    ids.emplace(vector_key(d), id);
    vectors.push_back(d);
    return id;
  }
};

// Min-plus convolution of two (A, B) vectors: sets add up, at most one side holds the pair.
DistanceVector merge(const DistanceVector& x, const DistanceVector& y) {
  DistanceVector r;
  for (int k = 0; k <= 4; ++k) {
    int no_pair = kCap, pair = kCap;
    for (int i = 0; i <= k; ++i) {
      no_pair = std::min(no_pair, x.v[i] + y.v[k - i]);
      pair = std::min({pair, x.v[i] + y.v[5 + k - i], x.v[5 + i] + y.v[k - i]});
    }
    r.v[k] = static_cast<uint8_t>(std::min(no_pair, kCap));
    r.v[5 + k] = static_cast<uint8_t>(std::min(pair, kCap));
  }
  return r;
}

struct DistanceStorage {
  DistanceTables view;
  std::vector<uint8_t> suit_class, honor_class, pair_merge, state_merge, finish;
  std::vector<DistanceVector> suit_vectors, honor_vectors;
  std::vector<uint16_t> suit_exact, honor_exact;

  std::size_t bytes() const {
    return suit_class.size() + honor_class.size() + pair_merge.size() + state_merge.size() + finish.size() +
           sizeof(DistanceVector) * (suit_vectors.size() + honor_vectors.size()) +
           sizeof(uint16_t) * (suit_exact.size() + honor_exact.size());
  }
};

[[maybe_unused]] void build_distance_tables(const std::vector<DistanceVector>& suit, const std::vector<DistanceVector>& honor,
                           DistanceStorage& out) {
  Classifier suit_classes, honor_classes, states;
  out.suit_class.resize(suit.size());
  for (size_t i = 0; i < suit.size(); ++i) out.suit_class[i] = suit_classes.id_of(suit[i]);
  out.honor_class.resize(honor.size());
  for (size_t i = 0; i < honor.size(); ++i) out.honor_class[i] = honor_classes.id_of(honor[i]);

  const size_t ns = suit_classes.vectors.size(), nh = honor_classes.vectors.size();
  out.pair_merge.resize(ns * ns);
  for (size_t i = 0; i < ns; ++i)
    for (size_t j = 0; j < ns; ++j)
      out.pair_merge[i * ns + j] = states.id_of(merge(suit_classes.vectors[i], suit_classes.vectors[j]));
  // Close the state set under merging one more suit.
  std::vector<uint8_t> state_merge;
  for (size_t st = 0; st < states.vectors.size(); ++st)
    for (size_t j = 0; j < ns; ++j) {
      const DistanceVector merged = merge(states.vectors[st], suit_classes.vectors[j]);
      state_merge.push_back(states.id_of(merged));
    }
  out.state_merge = std::move(state_merge);

  const size_t nst = states.vectors.size();
  out.finish.resize(5 * nst * nh);
  for (int sets = 0; sets <= 4; ++sets)
    for (size_t st = 0; st < nst; ++st)
      for (size_t z = 0; z < nh; ++z) {
        const DistanceVector& c = states.vectors[st];
        const DistanceVector& h = honor_classes.vectors[z];
        int best = kCap;
        for (int i = 0; i <= sets; ++i) best = std::min({best, c.v[i] + h.v[5 + sets - i], c.v[5 + i] + h.v[sets - i]});
        out.finish[(sets * nst + st) * nh + z] = static_cast<uint8_t>(std::min(best, kCap));
      }

  out.suit_vectors = suit_classes.vectors;
  out.honor_vectors = honor_classes.vectors;
  auto exact_bits = [](const DistanceVector& d) {
    uint16_t bits = 0;
    for (int k = 0; k <= 4; ++k) bits |= static_cast<uint16_t>((d.v[k] == 0) << k | (d.v[5 + k] == 0) << (8 + k));
    return bits;
  };
  for (const auto& d : out.suit_vectors) out.suit_exact.push_back(exact_bits(d));
  for (const auto& d : out.honor_vectors) out.honor_exact.push_back(exact_bits(d));
  DistanceTables& v = out.view;
  v.suit_class = out.suit_class.data();
  v.honor_class = out.honor_class.data();
  v.suit_classes = static_cast<int>(ns);
  v.honor_classes = static_cast<int>(nh);
  v.states = static_cast<int>(nst);
  v.pair_merge = out.pair_merge.data();
  v.state_merge = out.state_merge.data();
  v.finish = out.finish.data();
  v.suit_vectors = out.suit_vectors.data();
  v.honor_vectors = out.honor_vectors.data();
  v.suit_exact = out.suit_exact.data();
  v.honor_exact = out.honor_exact.data();
}

[[maybe_unused]] void fill_rank_tables(Tables& t) {
  // patterns[r][m]: number of count vectors of length r, entries 0..4, sum <= m.
  uint32_t patterns[10][kMaxSuitTiles + 1];
  for (int m = 0; m <= kMaxSuitTiles; ++m) patterns[0][m] = 1;
  for (int r = 1; r <= 9; ++r)
    for (int m = 0; m <= kMaxSuitTiles; ++m) {
      uint32_t n = 0;
      for (int c = 0; c <= 4 && c <= m; ++c) n += patterns[r - 1][m - c];
      patterns[r][m] = n;
    }
  // offset(i, s, c): patterns that agree before position i (holding s tiles) and have a smaller
  // count than c at position i — the lexicographic rank is the sum over positions.
  auto offset = [&patterns](int i, int s, int c) {
    uint32_t n = 0;
    for (int v = 0; v < c; ++v)
      if (s + v <= kMaxSuitTiles) n += patterns[8 - i][kMaxSuitTiles - s - v];
    return n;
  };
  for (uint32_t head = 0; head < 3125; ++head) {
    uint32_t rank = 0, sum = 0, rest = head;
    int digits[5];
    for (int i = 4; i >= 0; --i, rest /= 5) digits[i] = static_cast<int>(rest % 5);
    for (int i = 0; i < 5; ++i) {
      rank += offset(i, static_cast<int>(sum), digits[i]);
      sum += static_cast<uint32_t>(digits[i]);
    }
    t.prefix_rank[head] = sum <= kMaxSuitTiles ? (rank << 5) | sum : 0;
  }
  for (int s0 = 0; s0 <= kMaxSuitTiles; ++s0)
    for (uint32_t tail = 0; tail < 625; ++tail) {
      uint32_t rank = 0, rest = tail;
      int sum = s0, digits[4];
      for (int i = 3; i >= 0; --i, rest /= 5) digits[i] = static_cast<int>(rest % 5);
      for (int i = 0; i < 4; ++i) {
        rank += offset(5 + i, sum, digits[i]);
        sum += digits[i];
      }
      t.suffix_rank[s0][tail] = (rank << 5) | static_cast<uint32_t>(std::min(sum, 31));
    }
}

// A pattern of `sum` tiles is exactly k sets iff it is 3k tiles at distance 0 from k sets.
bool exact(const DistanceVector& d, int sum, bool with_pair) {
  if (with_pair) return sum % 3 == 2 && (sum - 2) / 3 <= 4 && d.v[5 + (sum - 2) / 3] == 0;
  return sum % 3 == 0 && sum / 3 <= 4 && d.v[sum / 3] == 0;
}

// Wait entries of every pattern, from the distances of the pattern and of its one-tile extensions.
template <typename IndexFn>
std::vector<uint32_t> wait_entries(const std::vector<DistanceVector>& dist, int kinds, bool honors, int max_sum,
                                   IndexFn index_of) {
  std::vector<uint32_t> waits(dist.size(), 0);
  uint8_t c[9] = {0};
  int sum = 0;
  for (;;) {
    const uint32_t idx = index_of(c);
    uint32_t entry = 0;
    if (exact(dist[idx], sum, false)) entry |= 1u << kCompleteNoPairBit;
    if (exact(dist[idx], sum, true)) entry |= 1u << kCompletePairBit;
    if (sum + 1 <= kMaxSuitTiles) {
      for (int t = 0; t < kinds; ++t) {
        bool no_pair, pair;
        ++c[t];
        if (c[t] == 5) {  // a fifth copy lies outside the table: check directly
          no_pair = splits_exactly(c, kinds, honors, false);
          pair = splits_exactly(c, kinds, honors, true);
        } else {
          const DistanceVector& next = dist[index_of(c)];
          no_pair = exact(next, sum + 1, false);
          pair = exact(next, sum + 1, true);
        }
        --c[t];
        if (no_pair) entry |= 1u << (kWaitNoPairShift + t);
        if (pair) entry |= 1u << (kWaitPairShift + t);
      }
    }
    waits[idx] = entry;
    // Next pattern (odometer, last position fastest).
    int i = kinds - 1;
    for (; i >= 0; --i) {
      if (c[i] < 4 && sum + 1 <= max_sum) {
        ++c[i];
        ++sum;
        break;
      }
      sum -= c[i];
      c[i] = 0;
    }
    if (i < 0) break;
  }
  return waits;
}

#if !defined(MAHJONG_CORE_BAKED_TABLES)
struct MainStorage {
  Tables tables;
  DistanceStorage phantom;
  std::vector<uint32_t> suit_waits, honor_waits;
  double seconds = 0;
};

MainStorage* build_main() {
  const auto start = std::chrono::steady_clock::now();
  auto* s = new MainStorage();
  fill_rank_tables(s->tables);
  const auto suit = walk_distances(9, false, false, kMaxSuitTiles);
  const auto honor = walk_distances(7, true, false, 4 * 7);
  build_distance_tables(suit, honor, s->phantom);
  const Tables& t = s->tables;
  s->suit_waits = wait_entries(suit, 9, false, kMaxSuitTiles, [&t](const uint8_t* c) { return suit_index(t, c); });
  s->honor_waits = wait_entries(honor, 7, true, 4 * 7, [](const uint8_t* c) { return honor_index(c); });
  s->tables.phantom = s->phantom.view;
  s->tables.suit_waits = s->suit_waits.data();
  s->tables.honor_waits = s->honor_waits.data();
  s->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

DistanceStorage* build_limited() {
  auto* s = new DistanceStorage();
  build_distance_tables(walk_distances(9, false, true, kMaxSuitTiles), walk_distances(7, true, true, 4 * 7), *s);
  return s;
}

// Built once and kept for the life of the process; C++11 function statics are thread-safe.
MainStorage& main_storage() {
  static MainStorage* storage = build_main();
  return *storage;
}

std::atomic<DistanceStorage*> limited_ready{nullptr};

DistanceStorage& limited_storage() {
  static DistanceStorage* storage = [] {
    DistanceStorage* s = build_limited();
    limited_ready.store(s);
    return s;
  }();
  return *storage;
}

#endif  // !MAHJONG_CORE_BAKED_TABLES

bool splits_rec(uint8_t* c, int n, bool honors, int pairs_left) {
  int i = 0;
  while (i < n && c[i] == 0) ++i;
  if (i == n) return pairs_left == 0;
  if (c[i] >= 3) {
    c[i] -= 3;
    const bool ok = splits_rec(c, n, honors, pairs_left);
    c[i] += 3;
    if (ok) return true;
  }
  if (pairs_left > 0 && c[i] >= 2) {
    c[i] -= 2;
    const bool ok = splits_rec(c, n, honors, pairs_left - 1);
    c[i] += 2;
    if (ok) return true;
  }
  if (!honors && i + 2 < n && c[i + 1] > 0 && c[i + 2] > 0) {
    --c[i], --c[i + 1], --c[i + 2];
    const bool ok = splits_rec(c, n, honors, pairs_left);
    ++c[i], ++c[i + 1], ++c[i + 2];
    if (ok) return true;
  }
  return false;
}

}  // namespace

bool splits_exactly(const uint8_t* counts, int n, bool honors, bool with_pair) noexcept {
  uint8_t c[64];
  if (n < 0 || n > 64) return false;
  std::copy(counts, counts + n, c);
  return splits_rec(c, n, honors, with_pair ? 1 : 0);
}

DistanceVector pattern_distances(const uint8_t* counts, int n, bool honors, bool limited) noexcept {
  std::vector<Move> moves(kMaxMoves);
  DpVector v = initial_vector(), next;
  for (int i = 0; i < n; ++i) {
    const int m = collect_moves(v, !honors && i <= n - 3, limited, moves.data());
    apply_moves(moves.data(), m, counts[i], next);
    v = next;
  }
  return final_distances(v);
}

namespace {

uint64_t fnv1a(uint64_t h, const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

std::size_t distance_bytes(const DistanceTables& d) {
  const DistanceSizes z = distance_sizes(d);
  return kSuitPatterns + kHonorPatterns + z.pair_merge + z.state_merge + z.finish +
         (sizeof(DistanceVector) + sizeof(uint16_t)) * static_cast<std::size_t>(d.suit_classes + d.honor_classes);
}

}  // namespace

#if !defined(MAHJONG_CORE_BAKED_TABLES)
namespace detail {
std::atomic<const Tables*> built{nullptr};

const Tables& build_once() noexcept {
  const Tables& t = main_storage().tables;
  built.store(&t, std::memory_order_release);
  return t;
}
}  // namespace detail

const DistanceTables& limited() noexcept { return limited_storage().view; }
void ensure_init() noexcept { (void)detail::build_once(); }
double build_seconds() noexcept { return main_storage().seconds; }
#else
double build_seconds() noexcept { return 0.0; }
#endif

uint64_t checksum() noexcept {
  const Tables& t = get();
  const DistanceTables& d = t.phantom;
  const DistanceSizes z = distance_sizes(d);
  uint64_t h = 1469598103934665603ull;
  h = fnv1a(h, d.suit_class, kSuitPatterns);
  h = fnv1a(h, d.honor_class, kHonorPatterns);
  h = fnv1a(h, d.pair_merge, z.pair_merge);
  h = fnv1a(h, d.state_merge, z.state_merge);
  h = fnv1a(h, d.finish, z.finish);
  h = fnv1a(h, t.suit_waits, kSuitPatterns * sizeof(uint32_t));
  h = fnv1a(h, t.honor_waits, kHonorPatterns * sizeof(uint32_t));
  return h;
}

std::size_t memory_bytes() noexcept {
  std::size_t total = sizeof(Tables) + distance_bytes(get().phantom) + sizeof(uint32_t) * (kSuitPatterns + kHonorPatterns);
#if defined(MAHJONG_CORE_BAKED_TABLES)
  total += distance_bytes(kBakedLimited);
#else
  if (const DistanceStorage* l = limited_ready.load()) total += l->bytes();
#endif
  return total;
}

}  // namespace tables
}  // namespace mahjong_core
