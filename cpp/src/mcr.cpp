// MCR scoring (see mcr.h). This is the hot path of rules.mcr.score: per hand it computes the facts
// that do not depend on the reading once (tile kinds, tile hogs, concealment, the win context),
// enumerates the readings into a reused per-thread buffer, evaluates each with small integer
// predicates into a fan tally, applies the exclusion table with 128-bit masks and keeps the best
// tally. Every pattern present is raised (四杠 and 三杠, 连七对 and 七对 ...) and the exclusion table
// keeps the biggest, except the combinations of sets, where 套算一次 decides which sets combine.
// Attribution (which blocks made each fan) is only recorded when asked for.
#include "mahjong_core/mcr.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "mahjong_core/bits.h"
#include "mahjong_core/errors.h"
#include "mahjong_core/shanten.h"

namespace mahjong_core {
namespace mcr {
namespace {

// ---------------------------------------------------------------------------------------------
// Tile facts

inline int suit_of_kind(int t) noexcept { return t / 9; }  // 3 = honours
inline int rank1(int t) noexcept { return t % 9 + 1; }     // 1..9 for suited tiles
inline bool honor(int t) noexcept { return t >= kFirstHonor; }
inline bool terminal(int t) noexcept { return t < kFirstHonor && (t % 9 == 0 || t % 9 == 8); }
inline bool wind(int t) noexcept { return t >= 27 && t <= 30; }
inline bool dragon(int t) noexcept { return t >= 31; }

constexpr uint64_t bit(int t) { return 1ull << t; }
constexpr uint64_t kGreenMask = bit(19) | bit(20) | bit(21) | bit(23) | bit(25) | bit(32);  // 23468s 发
constexpr uint64_t kReversibleMask = bit(9) | bit(10) | bit(11) | bit(12) | bit(13) | bit(16) | bit(17) |
                                     bit(19) | bit(21) | bit(22) | bit(23) | bit(25) | bit(26) | bit(33);
constexpr uint64_t kTerminalMask = bit(0) | bit(8) | bit(9) | bit(17) | bit(18) | bit(26);
constexpr uint64_t kSuitMask[3] = {0x1FFull, 0x1FFull << 9, 0x1FFull << 18};
constexpr uint64_t kWindMask = bit(27) | bit(28) | bit(29) | bit(30);
constexpr uint64_t kDragonMask = bit(31) | bit(32) | bit(33);

// Ranks (1..9) present, as a 9-bit mask, over all suits.
inline unsigned rank_mask(uint64_t kinds) noexcept {
  unsigned r = 0;
  for (int s = 0; s < 3; ++s) r |= static_cast<unsigned>((kinds >> (9 * s)) & 0x1FF);
  return r;
}
constexpr unsigned ranks(std::initializer_list<int> rs) noexcept {
  unsigned m = 0;
  for (int r : rs) m |= 1u << (r - 1);
  return m;
}

// ---------------------------------------------------------------------------------------------
// The tally of one reading: fan counts, the set of fans present, and (for the final reading only)
// which parts made each counted fan.

template <bool kAttribute>
struct Tally {
  uint8_t counts[kFanCount];
  FanSet present;
  int n_uses = 0;
  FanUse uses[kMaxUses];

  Tally() noexcept { std::memset(counts, 0, sizeof counts); }

  void add(int fan, uint16_t parts = 0) noexcept {
    ++counts[fan];
    present.add(fan);
    if (kAttribute && n_uses < kMaxUses) uses[n_uses++] = FanUse{static_cast<uint8_t>(fan), parts};
  }

  void drop_one(int fan) noexcept {  // 九莲宝灯 takes back one 幺九刻
    if (!counts[fan]) return;
    if (--counts[fan] == 0) present.remove(FanSet::of(fan));
    if (kAttribute)
      for (int i = 0; i < n_uses; ++i)
        if (uses[i].fan == fan) {
          std::memmove(uses + i, uses + i + 1, sizeof(FanUse) * (n_uses - i - 1));
          --n_uses;
          break;
        }
  }

  // 不重复: walk the fans present from the most valuable; each one still present removes the
  // fans it makes redundant.
  void apply_exclusions() noexcept {
    for (int half = 0; half < 2; ++half) {
      uint64_t pending = half ? present.hi : present.lo;
      while (pending) {
        const int fan = lowest_bit64(pending) + 64 * half;
        pending &= pending - 1;
        if (!present.has(fan)) continue;
        present.remove(fan_info(fan).excludes);
        pending &= half ? present.hi : present.lo;
      }
    }
  }

  int total() const noexcept {
    int sum = 0;
    for (int half = 0; half < 2; ++half)
      for (uint64_t m = half ? present.hi : present.lo; m; m &= m - 1) {
        const int fan = lowest_bit64(m) + 64 * half;
        sum += fan_info(fan).points * counts[fan];
      }
    return sum;
  }

  void export_to(Score* out) const noexcept {
    std::memset(out->counts, 0, sizeof out->counts);
    out->present = present;
    for (int half = 0; half < 2; ++half)
      for (uint64_t m = half ? present.hi : present.lo; m; m &= m - 1) {
        const int fan = lowest_bit64(m) + 64 * half;
        out->counts[fan] = counts[fan];
      }
    out->n_uses = 0;
    if (kAttribute) {
      for (int i = 0; i < n_uses; ++i)
        if (present.has(uses[i].fan)) out->uses[out->n_uses++] = uses[i];
      for (int i = 1; i < out->n_uses; ++i)  // stable insertion sort into table order
        for (int j = i; j > 0 && out->uses[j].fan < out->uses[j - 1].fan; --j) std::swap(out->uses[j], out->uses[j - 1]);
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Facts of the hand that do not depend on the reading.

struct HandFacts {
  const uint8_t* concealed;
  const MeldSpec* melds;
  int n_melds;
  const Options* options;
  int win;
  bool self_drawn, last_copy, wall_last, kong, declared_ready;
  int seat_wind, prevalent_wind, flowers;
  uint8_t all[kKinds];  // concealed + melds
  uint64_t kinds;       // kinds present
  bool concealed_hand;  // no claimed meld (concealed kongs allowed)
  int exposed_melds;
  uint64_t kong_kinds;
  uint64_t hogs;         // kinds of which the hand holds all four copies, not as a kong (四归一)
  int unique_wait = -1;  // computed on first use

  bool has_unique_wait() noexcept {
    if (unique_wait < 0) {
      uint8_t before[kKinds];
      std::memcpy(before, concealed, kKinds);
      --before[win];
      uint64_t w = waits_unchecked(before, n_melds, kAllForms);
      if (!options->phantom_waits_count)
        for (int t = 0; t < kKinds; ++t)
          if (before[t] + all[t] - concealed[t] >= 4) w &= ~bit(t);
      unique_wait = popcount64(w) == 1;
    }
    return unique_wait == 1;
  }
};

void init_facts(HandFacts& h, const uint8_t* concealed, const MeldSpec* melds, int n_melds, const Context& ctx,
                const Options& options) noexcept {
  h.concealed = concealed;
  h.melds = melds;
  h.n_melds = n_melds;
  h.options = &options;
  h.win = ctx.win_tile;
  h.seat_wind = ctx.seat_wind;
  h.prevalent_wind = ctx.prevalent_wind;
  h.flowers = ctx.flowers;
  h.self_drawn = ctx.self_drawn;
  h.wall_last = ctx.wall_last;
  h.declared_ready = ctx.declared_ready && options.declared_ready_fan;
  std::memcpy(h.all, concealed, kKinds);
  h.concealed_hand = true;
  h.exposed_melds = 0;
  h.kong_kinds = 0;
  bool has_kong = false;
  for (int i = 0; i < n_melds; ++i) {
    const MeldSpec& m = melds[i];
    if (m.kind == BlockKind::Chow) {
      for (int k = 0; k < 3; ++k) ++h.all[m.tile + k];
    } else {
      h.all[m.tile] += m.kind == BlockKind::Kong ? 4 : 3;
    }
    if (m.kind == BlockKind::Kong) {
      has_kong = true;
      h.kong_kinds |= bit(m.tile);
    }
    if (!(m.kind == BlockKind::Kong && m.concealed)) {
      h.concealed_hand = false;
      ++h.exposed_melds;
    }
  }
  h.kinds = 0;
  h.hogs = 0;
  for (int t = 0; t < kKinds; ++t) {
    if (h.all[t]) h.kinds |= bit(t);
    if (h.all[t] == 4) h.hogs |= bit(t);
  }
  h.hogs &= ~h.kong_kinds;
  // Flags the hand contradicts are dropped here (score() rejects them first under strict_context);
  // 和绝张 also holds without the flag when the other three copies are in the winner's own melds.
  const int others_concealed = concealed[h.win] - 1;
  const int in_melds = h.all[h.win] - concealed[h.win];
  h.last_copy = (ctx.last_copy && others_concealed == 0) || in_melds == 3;
  h.kong = ctx.kong && (ctx.self_drawn ? has_kong : others_concealed + in_melds == 0);
}

// Fans of the whole tile set: suits, ranks, tile traits. Identical for every reading.
template <bool A>
void add_tile_fans(const HandFacts& h, Tally<A>& t) noexcept {
  const uint64_t k = h.kinds;
  const bool honors = k & (kWindMask | kDragonMask);
  const int suits = ((k & kSuitMask[0]) != 0) + ((k & kSuitMask[1]) != 0) + ((k & kSuitMask[2]) != 0);
  const uint16_t whole = kPartWholeHand;
  if (!honors) t.add(WUZI, whole);
  if (suits == 2) t.add(QUEYIMEN, whole);
  if (suits == 1 && honors) t.add(HUNYISE, whole);
  if (suits == 1 && !honors) t.add(QINGYISE, whole);
  if (suits == 0) t.add(ZIYISE, whole);
  if (suits == 3 && (k & kWindMask) && (k & kDragonMask)) t.add(WUMENQI, whole);
  if (!honors) {
    const unsigned r = rank_mask(k);
    if (!(r & ~ranks({7, 8, 9}))) t.add(QUANDA, whole);
    else if (!(r & ~ranks({4, 5, 6}))) t.add(QUANZHONG, whole);
    else if (!(r & ~ranks({1, 2, 3}))) t.add(QUANXIAO, whole);
    if (!(r & ~ranks({6, 7, 8, 9}))) t.add(DAYUWU, whole);
    if (!(r & ~ranks({1, 2, 3, 4}))) t.add(XIAOYUWU, whole);
  }
  if (!(k & (kTerminalMask | kWindMask | kDragonMask))) t.add(DUANYAO, whole);
  if (!(k & ~kReversibleMask)) t.add(TUIBUDAO, whole);
  if (!(k & ~kGreenMask)) t.add(LVYISE, whole);
  if (!(k & ~kTerminalMask)) t.add(QINGYAOJIU, whole);
  if (!(k & ~(kTerminalMask | kWindMask | kDragonMask))) t.add(HUNYAOJIU, whole);
}

template <bool A>
void add_situational(const HandFacts& h, Tally<A>& t) noexcept {
  const uint16_t win = kPartWinTile;
  if (h.self_drawn) t.add(ZIMO, win);
  if (h.last_copy) t.add(HUJUEZHANG, win);
  if (h.wall_last) t.add(h.self_drawn ? MIAOSHOUHUICHUN : HAIDILAOYUE, win);
  if (h.kong) t.add(h.self_drawn ? GANGSHANGKAIHUA : QIANGGANGHU, win);
}

template <bool A>
void add_concealment(const HandFacts& h, Tally<A>& t) noexcept {
  if (!h.concealed_hand) return;
  t.add(MENQIANQING, kPartWholeHand);
  if (h.self_drawn) t.add(BUQIUREN, kPartWholeHand | kPartWinTile);
}

// ---------------------------------------------------------------------------------------------
// Combination fans (套算一次): among the chows (or the suited pungs) of a reading, a four-set fan
// stands alone; else the best three-set fan plus at most one pairwise fan of the fourth set with
// one of the three; else pairwise fans grown as a forest (each new fan must bring in a set not
// combined before, so n sets give at most n - 1), 一般高 before 喜相逢 before 连六 before 老少副.

constexpr int kNoFan = -1;

int chow_pair(int a, int b) noexcept {  // a <= b
  if (suit_of_kind(a) == suit_of_kind(b)) {
    switch (b - a) {
      case 0: return YIBANGAO;
      case 3: return LIANLIU;
      case 6: return LAOSHAOFU;
      default: return kNoFan;
    }
  }
  return rank1(a) == rank1(b) ? XIXIANGFENG : kNoFan;
}

// Sorted ranks and suit count of three tiles.
struct Three {
  int r0, r1, r2, suits;
};
inline Three three(int a, int b, int c) noexcept {
  int r[3] = {rank1(a), rank1(b), rank1(c)};
  if (r[0] > r[1]) std::swap(r[0], r[1]);
  if (r[1] > r[2]) std::swap(r[1], r[2]);
  if (r[0] > r[1]) std::swap(r[0], r[1]);
  const int sa = suit_of_kind(a), sb = suit_of_kind(b), sc = suit_of_kind(c);
  const int suits = (sa == sb && sb == sc) ? 1 : (sa != sb && sb != sc && sa != sc) ? 3 : 2;
  return Three{r[0], r[1], r[2], suits};
}

int chow_triple(int a, int b, int c) noexcept {
  const Three t = three(a, b, c);
  const bool same = t.r0 == t.r2;
  const bool straight = t.r0 == 1 && t.r1 == 4 && t.r2 == 7;
  if (t.suits == 1) {
    if (same) return YISESANTONGSHUN;
    if (straight) return QINGLONG;
    const int d1 = t.r1 - t.r0, d2 = t.r2 - t.r1;
    if (d1 == d2 && (d1 == 1 || d1 == 2)) return YISESANBUGAO;
    return kNoFan;
  }
  if (t.suits == 3) {
    if (same) return SANSESANTONGSHUN;
    if (straight) return HUALONG;
    if (t.r1 - t.r0 == 1 && t.r2 - t.r1 == 1) return SANSESANBUGAO;
  }
  return kNoFan;
}

int chow_quad(const int* ts) noexcept {  // sorted
  if (suit_of_kind(ts[0]) != suit_of_kind(ts[3])) return kNoFan;
  if (ts[0] == ts[3]) return YISESITONGSHUN;
  const int d = ts[1] - ts[0];
  if ((d == 1 || d == 2) && ts[2] - ts[1] == d && ts[3] - ts[2] == d) return YISESIBUGAO;
  return kNoFan;
}

int pung_pair(int a, int b) noexcept {
  return suit_of_kind(a) != suit_of_kind(b) && rank1(a) == rank1(b) ? SHUANGTONGKE : kNoFan;
}

int pung_triple(int a, int b, int c) noexcept {
  const Three t = three(a, b, c);
  const bool steps = t.r1 - t.r0 == 1 && t.r2 - t.r1 == 1;
  if (t.suits == 1 && steps) return YISESANJIEGAO;
  if (t.suits == 3) {
    if (t.r0 == t.r2) return SANTONGKE;
    if (steps) return SANSESANJIEGAO;
  }
  return kNoFan;
}

int pung_quad(const int* ts) noexcept {
  if (suit_of_kind(ts[0]) != suit_of_kind(ts[3])) return kNoFan;
  return ts[1] - ts[0] == 1 && ts[2] - ts[1] == 1 && ts[3] - ts[2] == 1 ? YISESIJIEGAO : kNoFan;
}

int pair_priority(int fan) noexcept {
  switch (fan) {
    case YIBANGAO: return 0;
    case XIXIANGFENG: return 1;
    case LIANLIU: return 2;
    case LAOSHAOFU: return 3;
    default: return 4;  // 双同刻
  }
}

struct ChowFans {
  static int quad(const int* ts) noexcept { return chow_quad(ts); }
  static int triple(int a, int b, int c) noexcept { return chow_triple(a, b, c); }
  static int pair(int a, int b) noexcept { return chow_pair(a, b); }
};
struct PungFans {
  static int quad(const int* ts) noexcept { return pung_quad(ts); }
  static int triple(int a, int b, int c) noexcept { return pung_triple(a, b, c); }
  static int pair(int a, int b) noexcept { return pung_pair(a, b); }
};

// `tiles` and `blocks` (the block index of each set) are sorted together by tile.
template <typename Fans, bool A>
void add_combinations(const int* tiles, const int* blocks, int n, Tally<A>& t) noexcept {
  const auto quad = Fans::quad;
  const auto triple = Fans::triple;
  const auto pair = Fans::pair;
  if (n < 2) return;
  if (n == 4) {
    const int f = quad(tiles);
    if (f != kNoFan) {
      t.add(f, static_cast<uint16_t>((1u << blocks[0]) | (1u << blocks[1]) | (1u << blocks[2]) | (1u << blocks[3])));
      return;
    }
  }
  if (n >= 3) {
    static constexpr int kTriples[4][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
    const int n_triples = n == 4 ? 4 : 1;
    int best_value = -1, best_fan = kNoFan, best_extra = kNoFan;
    uint16_t best_parts = 0, best_extra_parts = 0;
    for (int k = 0; k < n_triples; ++k) {
      const int* idx = kTriples[k];
      const int f = triple(tiles[idx[0]], tiles[idx[1]], tiles[idx[2]]);
      if (f == kNoFan) continue;
      int extra = kNoFan;
      uint16_t extra_parts = 0;
      if (n == 4) {
        const int rest = 6 - idx[0] - idx[1] - idx[2];
        for (int i = 0; i < 3; ++i) {
          const int a = std::min(idx[i], rest), b = std::max(idx[i], rest);
          const int g = pair(tiles[a], tiles[b]);
          if (g != kNoFan && (extra == kNoFan || pair_priority(g) < pair_priority(extra))) {
            extra = g;
            extra_parts = static_cast<uint16_t>((1u << blocks[a]) | (1u << blocks[b]));
          }
        }
      }
      const int value = fan_info(f).points + (extra == kNoFan ? 0 : fan_info(extra).points);
      if (value > best_value) {
        best_value = value;
        best_fan = f;
        best_extra = extra;
        best_parts = static_cast<uint16_t>((1u << blocks[idx[0]]) | (1u << blocks[idx[1]]) | (1u << blocks[idx[2]]));
        best_extra_parts = extra_parts;
      }
    }
    if (best_fan != kNoFan) {
      t.add(best_fan, best_parts);
      if (best_extra != kNoFan) t.add(best_extra, best_extra_parts);
      return;
    }
  }
  // Pairwise fans as a forest, by priority then pair order.
  struct Edge {
    int fan, a, b;
  };
  Edge edges[6];
  int n_edges = 0;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      const int f = pair(tiles[a], tiles[b]);
      if (f != kNoFan) edges[n_edges++] = Edge{f, a, b};
    }
  for (int i = 1; i < n_edges; ++i)  // stable insertion sort by priority (at most six edges)
    for (int j = i; j > 0 && pair_priority(edges[j].fan) < pair_priority(edges[j - 1].fan); --j)
      std::swap(edges[j], edges[j - 1]);
  int component[4] = {0, 1, 2, 3};
  for (int e = 0; e < n_edges; ++e) {
    const int ca = component[edges[e].a], cb = component[edges[e].b];
    if (ca == cb) continue;
    for (int i = 0; i < n; ++i)
      if (component[i] == cb) component[i] = ca;
    t.add(edges[e].fan, static_cast<uint16_t>((1u << blocks[edges[e].a]) | (1u << blocks[edges[e].b])));
  }
}

void sort_sets(int* tiles, int* blocks, int n) noexcept {
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && tiles[j] < tiles[j - 1]; --j) {
      std::swap(tiles[j], tiles[j - 1]);
      std::swap(blocks[j], blocks[j - 1]);
    }
}

// ---------------------------------------------------------------------------------------------
// Evaluation of one reading

inline bool in_chow(int chow_low, int tile) noexcept { return tile >= chow_low && tile <= chow_low + 2; }

inline uint16_t block_bit(int i) noexcept { return static_cast<uint16_t>(1u << i); }

// Blocks (of a standard or knitted-straight reading) that hold `tile`.
uint16_t blocks_holding(const Decomposition& d, int tile) noexcept {
  uint16_t m = 0;
  for (int i = 0; i < d.n_blocks; ++i) {
    const Block& b = d.blocks[i];
    if (b.kind == BlockKind::Chow ? in_chow(b.tile, tile) : b.tile == tile) m |= block_bit(i);
  }
  return m;
}

template <bool A>
void add_tile_hogs(const HandFacts& h, const Decomposition& d, Tally<A>& t) noexcept {
  for (uint64_t m = h.hogs; m; m &= m - 1) t.add(SIGUIYI, A ? blocks_holding(d, lowest_bit64(m)) : 0);
}

// Standard and knitted-straight readings: sets (melds first), then the pair.
template <bool A>
void evaluate_sets(HandFacts& h, const Decomposition& d, Tally<A>& t) noexcept {
  const int n_sets = d.n_blocks - 1;
  const int pair_block = n_sets;
  const int pair = d.blocks[pair_block].tile;
  const bool knitted = d.knitted >= 0;
  const uint64_t knitted_mask = knitted ? kKnittedMasks[d.knitted] : 0;
  const int win = h.win;
  uint16_t all_blocks = static_cast<uint16_t>((1u << d.n_blocks) - 1);
  if (knitted) all_blocks |= kPartKnitted;

  int chow_tiles[4], chow_blocks[4], n_chows = 0;
  int pung_blocks[4], n_pungs = 0;
  bool win_elsewhere = pair == win || (knitted_mask & bit(win));
  for (int i = 0; i < n_sets; ++i) {
    const Block& b = d.blocks[i];
    if (b.kind == BlockKind::Chow) {
      chow_tiles[n_chows] = b.tile;
      chow_blocks[n_chows++] = i;
      if (b.meld < 0 && in_chow(b.tile, win)) win_elsewhere = true;
    } else {
      pung_blocks[n_pungs++] = i;
    }
  }

  // Concealed pungs: a pung the discarded winning tile completed counts as melded, unless that
  // tile can be read in one of the hand's chows, the pair or the knitted straight instead.
  uint16_t concealed_pungs = 0;
  for (int k = 0; k < n_pungs; ++k)
    if (d.blocks[pung_blocks[k]].concealed) concealed_pungs |= block_bit(pung_blocks[k]);
  if (!h.self_drawn && !win_elsewhere)
    for (int k = 0; k < n_pungs; ++k) {
      const Block& b = d.blocks[pung_blocks[k]];
      if (b.meld < 0 && b.tile == win) {
        concealed_pungs &= static_cast<uint16_t>(~block_bit(pung_blocks[k]));
        break;
      }
    }

  // Kongs
  uint16_t melded_kongs = 0, concealed_kongs = 0;
  for (int k = 0; k < n_pungs; ++k) {
    const Block& b = d.blocks[pung_blocks[k]];
    if (b.kind != BlockKind::Kong) continue;
    (b.concealed ? concealed_kongs : melded_kongs) |= block_bit(pung_blocks[k]);
  }
  const int n_melded_kongs = popcount64(melded_kongs), n_concealed_kongs = popcount64(concealed_kongs);
  const uint16_t kongs = melded_kongs | concealed_kongs;
  // Every kong and concealed-pung pattern present is raised; the exclusion table keeps the biggest.
  if (n_melded_kongs + n_concealed_kongs == 4) t.add(SIGANG, kongs);
  if (n_melded_kongs + n_concealed_kongs >= 3) t.add(SANGANG, kongs);
  if (n_melded_kongs >= 2) t.add(SHUANGMINGGANG, melded_kongs);
  if (n_concealed_kongs >= 2) t.add(SHUANGANGANG, concealed_kongs);
  if (n_melded_kongs && n_concealed_kongs && h.options->mil_concealed_melded_kong) t.add(MINGANGANG, kongs);
  if (n_melded_kongs) t.add(MINGGANG, melded_kongs);
  if (n_concealed_kongs) t.add(ANGANG, concealed_kongs);
  const int n_concealed_pungs = popcount64(concealed_pungs);
  if (n_concealed_pungs == 4) t.add(SIANKE, concealed_pungs);
  if (n_concealed_pungs >= 3) t.add(SANANKE, concealed_pungs);
  if (n_concealed_pungs >= 2) t.add(SHUANGANKE, concealed_pungs);

  // Honour pungs and 幺九刻
  uint16_t winds = 0, dragons = 0;
  int n_winds = 0, n_dragons = 0;
  for (int k = 0; k < n_pungs; ++k) {
    const int tile = d.blocks[pung_blocks[k]].tile;
    if (wind(tile)) winds |= block_bit(pung_blocks[k]), ++n_winds;
    if (dragon(tile)) dragons |= block_bit(pung_blocks[k]), ++n_dragons;
  }
  if (n_winds == 4) t.add(DASIXI, winds);
  if (n_winds == 3 && wind(pair)) t.add(XIAOSIXI, winds | block_bit(pair_block));
  if (n_winds >= 3) t.add(SANFENGKE, winds);
  if (n_dragons == 3) t.add(DASANYUAN, dragons);
  if (n_dragons == 2 && dragon(pair)) t.add(XIAOSANYUAN, dragons | block_bit(pair_block));
  if (n_dragons >= 2) t.add(SHUANGJIANKE, dragons);
  const int prevalent = 27 + h.prevalent_wind, seat = 27 + h.seat_wind;
  for (int k = 0; k < n_pungs; ++k) {
    const int i = pung_blocks[k];
    const int tile = d.blocks[i].tile;
    if (dragon(tile)) t.add(JIANKE, block_bit(i));
    if (tile == prevalent) t.add(QUANFENGKE, block_bit(i));
    if (tile == seat) t.add(MENFENGKE, block_bit(i));
  }
  // 幺九刻 counts pungs of terminals, and of winds no 风刻 or 三风刻 already counted.
  for (int k = 0; k < n_pungs; ++k) {
    const int i = pung_blocks[k];
    const int tile = d.blocks[i].tile;
    if (terminal(tile) || (wind(tile) && n_winds < 3 && tile != prevalent && tile != seat))
      t.add(YAOJIUKE, block_bit(i));
  }

  // Combinations of chows and of suited pungs
  {
    int tiles[4], blocks[4];
    for (int k = 0; k < n_chows; ++k) tiles[k] = chow_tiles[k], blocks[k] = chow_blocks[k];
    sort_sets(tiles, blocks, n_chows);
    add_combinations<ChowFans>(tiles, blocks, n_chows, t);
    int n_suited = 0;
    for (int k = 0; k < n_pungs; ++k) {
      const int tile = d.blocks[pung_blocks[k]].tile;
      if (!honor(tile)) tiles[n_suited] = tile, blocks[n_suited++] = pung_blocks[k];
    }
    sort_sets(tiles, blocks, n_suited);
    add_combinations<PungFans>(tiles, blocks, n_suited, t);
  }
  // 一色双龙会 / 三色双龙会: two 老少副 and a pair of fives.
  if (n_chows == 4 && !honor(pair) && rank1(pair) == 5) {
    int low = 0, high = 0, suits_low[2] = {-1, -1}, suits_high[2] = {-1, -1};
    for (int k = 0; k < 4; ++k) {
      const int r = rank1(chow_tiles[k]), s = suit_of_kind(chow_tiles[k]);
      if (r == 1 && low < 2) suits_low[low++] = s;
      else if (r == 7 && high < 2) suits_high[high++] = s;
    }
    if (low == 2 && high == 2) {
      std::sort(suits_low, suits_low + 2);
      std::sort(suits_high, suits_high + 2);
      const int ps = suit_of_kind(pair);
      if (suits_low[0] == suits_low[1] && suits_high[0] == suits_low[0] && suits_high[1] == suits_low[0] &&
          ps == suits_low[0])
        t.add(YISESHUANGLONGHUI, all_blocks);
      if (suits_low[0] != suits_low[1] && suits_low[0] == suits_high[0] && suits_low[1] == suits_high[1] &&
          ps != suits_low[0] && ps != suits_low[1])
        t.add(SANSESHUANGLONGHUI, all_blocks);
    }
  }

  // Shape of the whole hand
  if (n_pungs == 4) t.add(PENGPENGHU, all_blocks);
  if (n_chows + (knitted ? 3 : 0) == 4 && !honor(pair)) t.add(PINGHU, all_blocks);
  if (!knitted) {
    bool outside = terminal(pair) || honor(pair), fives = !honor(pair) && rank1(pair) == 5;
    bool even = n_pungs == 4 && !honor(pair) && rank1(pair) % 2 == 0;
    for (int i = 0; i < n_sets; ++i) {
      const Block& b = d.blocks[i];
      if (b.kind == BlockKind::Chow) {
        outside = outside && (rank1(b.tile) == 1 || rank1(b.tile) == 7);
        fives = fives && rank1(b.tile) >= 3 && rank1(b.tile) <= 5;
      } else {
        outside = outside && (terminal(b.tile) || honor(b.tile));
        fives = fives && !honor(b.tile) && rank1(b.tile) == 5;
        even = even && !honor(b.tile) && rank1(b.tile) % 2 == 0;
      }
    }
    if (outside) t.add(QUANDAIYAO, all_blocks);
    if (fives) t.add(QUANDAIWU, all_blocks);
    if (even) t.add(QUANSHUANGKE, all_blocks);
  }
  add_tile_fans(h, t);
  add_tile_hogs(h, d, t);

  // Concealment and the wait
  add_concealment(h, t);
  if (h.exposed_melds == 4 && !h.self_drawn) t.add(QUANQIUREN, all_blocks | kPartWinTile);
  const bool wait_blocked = knitted && (knitted_mask & bit(win)) && !h.options->knitted_straight_wait_counts;
  if (!wait_blocked) {
    uint16_t edge = 0, closed = 0, single = 0;
    for (int k = 0; k < n_chows; ++k) {
      const Block& b = d.blocks[chow_blocks[k]];
      if (b.meld >= 0 || !in_chow(b.tile, win)) continue;
      const int pos = win - b.tile;
      if (pos == 1) closed |= block_bit(chow_blocks[k]);
      else if ((pos == 2 && rank1(b.tile) == 1) || (pos == 0 && rank1(b.tile) == 7)) edge |= block_bit(chow_blocks[k]);
    }
    if (pair == win) single = block_bit(pair_block);
    if ((edge | closed | single) && h.has_unique_wait()) {
      if (edge) t.add(BIANZHANG, edge | kPartWinTile);
      else if (closed) t.add(KANZHANG, closed | kPartWinTile);
      else t.add(DANDIAOJIANG, single | kPartWinTile);
    }
  }
  if (knitted) t.add(ZUHELONG, kPartKnitted);
}

bool is_nine_gates(const HandFacts& h) noexcept {
  if (h.n_melds || honor(h.win)) return false;
  const int base = suit_of_kind(h.win) * 9;
  static constexpr uint8_t kGates[9] = {3, 1, 1, 1, 1, 1, 1, 1, 3};
  for (int r = 0; r < 9; ++r)
    if (h.concealed[base + r] - (base + r == h.win) != kGates[r]) return false;
  return true;
}

template <bool A>
void evaluate(HandFacts& h, const Decomposition& d, Tally<A>& t) noexcept {
  const uint16_t whole = kPartWholeHand;
  switch (d.form) {
    case kStandard:
      evaluate_sets(h, d, t);
      if (is_nine_gates(h)) {
        t.add(JIULIANBAODENG, whole);
        t.drop_one(YAOJIUKE);
      }
      break;
    case kKnittedStraight:
      evaluate_sets(h, d, t);
      break;
    case kSevenPairs: {
      bool shifted = true;
      for (int i = 1; i < 7; ++i) shifted = shifted && d.blocks[i].tile == d.blocks[0].tile + i;
      shifted = shifted && !honor(d.blocks[0].tile) && suit_of_kind(d.blocks[0].tile) == suit_of_kind(d.blocks[6].tile);
      t.add(QIDUI, whole);
      if (shifted) t.add(LIANQIDUI, whole);
      add_tile_fans(h, t);
      add_tile_hogs(h, d, t);
      add_concealment(h, t);
      if (h.has_unique_wait()) t.add(DANDIAOJIANG, blocks_holding(d, h.win) | kPartWinTile);
      break;
    }
    case kThirteenOrphans:
    case kHonorsKnitted: {
      if (d.form == kThirteenOrphans) {
        t.add(SHISANYAO, whole);
      } else {
        t.add(QUANBUKAO, whole);
        if ((h.kinds & (kWindMask | kDragonMask)) == (kWindMask | kDragonMask)) t.add(QIXINGBUKAO, whole);
        if ((h.kinds & kKnittedMasks[d.knitted]) == kKnittedMasks[d.knitted]) t.add(ZUHELONG, kPartKnitted);
      }
      add_tile_fans(h, t);  // 五门齐, 混幺九: excluded by these forms, raised for the record
      add_concealment(h, t);
      if (h.has_unique_wait()) t.add(DANDIAOJIANG, kPartWinTile);
      break;
    }
    default:
      break;
  }
  add_situational(h, t);
  t.apply_exclusions();
  if (t.present.empty()) t.add(WUFANHU, whole);
}

// ---------------------------------------------------------------------------------------------
// Choosing among equal totals: the reading PyMahjongGB reports (see tests/mcr_reference.py,
// tie_key): special forms, then the knitted straight, then standard readings; among standard
// readings the concealed sets ranked by (suit m s p z, rank, pung above chow), sorted from the
// highest, the lexicographically smallest list wins.

struct TieKey {
  int form_rank;
  int n;
  int sets[4];
};

TieKey tie_key(const Decomposition& d) noexcept {
  static constexpr int kSuitRank[4] = {0, 2, 1, 3};  // m, p, s, z -> m < s < p < z
  TieKey k{};
  k.form_rank = d.form == kStandard ? 2 : d.form == kKnittedStraight ? 1 : 0;
  if (d.form == kStandard || d.form == kKnittedStraight)
    for (int i = 0; i + 1 < d.n_blocks; ++i) {
      const Block& b = d.blocks[i];
      if (b.meld >= 0) continue;
      k.sets[k.n++] = (kSuitRank[suit_of_kind(b.tile)] * 9 + b.tile % 9) * 2 + (b.kind == BlockKind::Chow ? 0 : 1);
    }
  for (int i = 1; i < k.n; ++i)  // at most four: insertion sort, highest first
    for (int j = i; j > 0 && k.sets[j] > k.sets[j - 1]; --j) std::swap(k.sets[j], k.sets[j - 1]);
  return k;
}

// True when a reading with key `a` is preferred to one with key `b` at equal totals.
bool preferred(const TieKey& a, const TieKey& b) noexcept {
  if (a.form_rank != b.form_rank) return a.form_rank > b.form_rank;
  return std::lexicographical_compare(a.sets, a.sets + a.n, b.sets, b.sets + b.n);
}

// Evaluates every reading once, keeping the tally of the best one (with attribution when A).
template <bool A>
bool choose(const std::vector<Decomposition>& readings, HandFacts& h, Score* out) noexcept {
  int best = -1, best_total = -1;
  TieKey best_key{};
  Tally<A> best_tally;
  for (int i = 0; i < static_cast<int>(readings.size()); ++i) {
    Tally<A> t;
    evaluate(h, readings[i], t);
    const int total = t.total();
    bool take = total > best_total;
    if (!take && total == best_total) {
      const TieKey key = tie_key(readings[i]);
      if (preferred(key, best_key)) take = true, best_key = key;
    } else if (take && readings.size() > 1) {
      best_key = tie_key(readings[i]);
    }
    if (take) best = i, best_total = total, best_tally = t;
  }
  if (h.flowers) {
    best_tally.counts[HUAPAI] = static_cast<uint8_t>(h.flowers);
    best_tally.present.add(HUAPAI);
    if (A && best_tally.n_uses < kMaxUses) best_tally.uses[best_tally.n_uses++] = FanUse{HUAPAI, kPartFlowers};
  }
  if (h.declared_ready) best_tally.add(TINGPAI, kPartWinTile);
  best_tally.export_to(out);
  out->decomposition = readings[best];
  out->flowers = h.flowers;
  out->total = best_total + h.flowers + (h.declared_ready ? fan_info(TINGPAI).points : 0);
  return true;
}

bool score_impl(const uint8_t* concealed, const MeldSpec* melds, int n_melds, const Context& ctx,
                const Options& options, bool attribute, Score* out) {
  thread_local std::vector<Decomposition> readings;  // reused: no allocation per hand
  decompose_into(concealed, melds, n_melds, kAllForms, readings);
  if (readings.empty()) return false;
  HandFacts h;
  init_facts(h, concealed, melds, n_melds, ctx, options);
  return attribute ? choose<true>(readings, h, out) : choose<false>(readings, h, out);
}

// The context checks of score(): everything but the hand's own validity.
void validate_context(const uint8_t* concealed, const MeldSpec* melds, int n_melds, const Context& ctx,
                      const Options& options) {
  if (ctx.win_tile >= kKinds)
    throw InvalidHand("winning tile index " + std::to_string(ctx.win_tile) + " is not 0..33");
  if (!concealed[ctx.win_tile])
    throw InvalidHand("the winning tile " + tile_name(ctx.win_tile) + " is not among the concealed tiles");
  if (ctx.seat_wind > 3 || ctx.prevalent_wind > 3)
    throw InvalidHand("winds are 0..3 (East South West North), got seat " + std::to_string(ctx.seat_wind) +
                      ", prevalent " + std::to_string(ctx.prevalent_wind));
  if (ctx.flowers > 8) throw InvalidHand("at most 8 flowers, got " + std::to_string(ctx.flowers));
  if (ctx.flowers && !options.flowers)
    throw InvalidHand(std::to_string(ctx.flowers) +
                      " flower(s) given but these rules play 136 tiles without flowers (Rules(flowers=True), "
                      "or --set flowers=true on the command line, counts 花牌)");
  if (ctx.declared_ready && !options.declared_ready_fan)
    throw InvalidHand("declared_ready needs Rules(declared_ready_fan=True) (the classic preset; "
                      "--rules classic on the command line)");
  if (!options.strict_context) return;
  int in_melds = 0, kongs = 0;
  for (int i = 0; i < n_melds; ++i) {
    const MeldSpec& m = melds[i];
    if (m.kind == BlockKind::Kong) ++kongs;
    if (m.kind == BlockKind::Chow) in_melds += m.tile <= ctx.win_tile && ctx.win_tile <= m.tile + 2;
    else if (m.tile == ctx.win_tile) in_melds += m.kind == BlockKind::Kong ? 4 : 3;
  }
  const int others = concealed[ctx.win_tile] - 1;
  const auto tile = [&] { return tile_name(ctx.win_tile); };
  if (ctx.last_copy && others)
    throw InvalidHand("和绝张 (last copy) contradicts the hand: it holds another " + tile() +
                      " among its concealed tiles, so the winning " + tile() + " cannot be the last unseen copy");
  if (ctx.kong && ctx.self_drawn && !kongs)
    throw InvalidHand("杠上开花 (win on a kong replacement tile) needs a kong among the melds");
  if (ctx.kong && !ctx.self_drawn && others + in_melds)
    throw InvalidHand("抢杠和 (robbing a kong of " + tile() + ") contradicts the hand: it holds another " + tile() +
                      ", but the robbed kong had the other three copies");
  if (ctx.kong && !ctx.self_drawn && ctx.wall_last)
    throw InvalidHand("抢杠和 (robbing a kong) contradicts 海底捞月 (winning on the last discard): a robbed kong tile "
                      "is no discard, and no kong is made once the wall is empty; pass one of the two flags");
}

void validate(const uint8_t* concealed, const MeldSpec* melds, int n_melds, const Context& ctx,
              const Options& options) {
  validate_hand(concealed, n_melds, TileCount::Complete);
  validate_melds(concealed, melds, n_melds);
  validate_context(concealed, melds, n_melds, ctx, options);
}

}  // namespace

bool score(const uint8_t* concealed, const MeldSpec* melds, int n_melds, const Context& context,
           const Options& options, Score* out, bool attribute) {
  validate(concealed, melds, n_melds, context, options);
  return score_impl(concealed, melds, n_melds, context, options, attribute, out);
}

bool score_valid_hand(const uint8_t* concealed, const MeldSpec* melds, int n_melds, const Context& context,
                      const Options& options, Score* out, bool attribute) {
  validate_context(concealed, melds, n_melds, context, options);
  return score_impl(concealed, melds, n_melds, context, options, attribute, out);
}

bool score_unchecked(const uint8_t* concealed, const MeldSpec* melds, int n_melds, const Context& context,
                     const Options& options, Score* out) noexcept {
  try {
    return score_impl(concealed, melds, n_melds, context, options, false, out);
  } catch (...) {  // decompose() only throws for input score() would have rejected
    return false;
  }
}

void score_batch(const uint8_t* records, std::size_t n, const Options& options, int16_t* totals,
                 uint8_t* fan_counts) {
  for (std::size_t row = 0; row < n; ++row) {
    const uint8_t* r = records + row * kRecordBytes;
    MeldSpec melds[kMaxMelds];
    int n_melds = 0;
    for (int i = 0; i < kMaxMelds; ++i) {
      const uint8_t* m = r + 34 + 3 * i;
      if (!m[0]) continue;
      if (m[0] > 3) throw InvalidHand("row " + std::to_string(row) + ": meld kind byte must be 0..3");
      melds[n_melds++] = MeldSpec{static_cast<BlockKind>(m[0] - 1), m[1], m[2] != 0};
    }
    Context ctx;
    ctx.win_tile = r[46];
    ctx.self_drawn = r[47] & 1;
    ctx.last_copy = r[47] & 2;
    ctx.wall_last = r[47] & 4;
    ctx.kong = r[47] & 8;
    ctx.declared_ready = r[47] & 16;
    ctx.seat_wind = r[48];
    ctx.prevalent_wind = r[49];
    ctx.flowers = r[50];
    try {
      validate(r, melds, n_melds, ctx, options);
    } catch (const InvalidHand& e) {
      throw InvalidHand("row " + std::to_string(row) + ": " + e.what());
    }
    Score s;
    const bool won = score_impl(r, melds, n_melds, ctx, options, false, &s);
    totals[row] = static_cast<int16_t>(won ? s.total : -1);
    if (fan_counts) {
      uint8_t* dst = fan_counts + row * kFanCount;
      if (won) std::memcpy(dst, s.counts, kFanCount);
      else std::memset(dst, 0, kFanCount);
    }
  }
}

}  // namespace mcr
}  // namespace mahjong_core
