// Hand analysis on top of the per-suit tables. Everything here except the validating wrappers at
// the bottom is the hot path: no allocation, no exceptions, small fixed loops.
#include "mahjong_core/shanten.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "mahjong_core/bits.h"
#if defined(MAHJONG_CORE_SSE2)
#include <emmintrin.h>
#endif

#include "mahjong_core/errors.h"
#include "mahjong_core/tables.h"

namespace mahjong_core {
namespace {

using tables::Tables;

inline int popcount(uint64_t x) { return popcount64(x); }
inline int lowest_bit(uint64_t x) { return lowest_bit64(x); }

// Standard-form distance (tiles to add for `sets` sets and a pair), via the class tables.
template <bool Limited>
inline unsigned standard_distance(const uint8_t* c, int sets) noexcept {
  const Tables& t = tables::get();
  const tables::DistanceTables& d = Limited ? tables::limited() : t.phantom;
  return d.distance(d.suit_class[tables::suit_index(t, c)], d.suit_class[tables::suit_index(t, c + 9)],
                    d.suit_class[tables::suit_index(t, c + 18)], d.honor_class[tables::honor_index(c + 27)], sets);
}

// The four wait entries (m, p, s, honours) of a hand.
struct WaitEntries {
  uint32_t w[4];
};

inline WaitEntries load_waits(const uint8_t* c) noexcept {
  const Tables& t = tables::get();
  return WaitEntries{{t.suit_waits[tables::suit_index(t, c)], t.suit_waits[tables::suit_index(t, c + 9)],
                      t.suit_waits[tables::suit_index(t, c + 18)], t.honor_waits[tables::honor_index(c + 27)]}};
}

// Exactly sets and one pair in the standard form (the set count follows from the tile count).
// Most hands fail on tile counts alone — every suit must hold 3k or 3k + 2 tiles and exactly one
// 3k + 2 — so the suit sums come first and the table loads happen only for the survivors.
#if defined(MAHJONG_CORE_SSE2)
// Sum of the 16 bytes of a vector.
inline int byte_sum(__m128i v) noexcept {
  const __m128i s = _mm_sad_epu8(v, _mm_setzero_si128());
  return _mm_cvtsi128_si32(s) + _mm_extract_epi16(s, 4);
}
#endif

// Tiles held in each suit (m, p, s, honours).
inline void suit_sums(const uint8_t* c, uint32_t* sums) noexcept {
#if defined(MAHJONG_CORE_SSE2)
  // Two loads and four masked byte sums (psadbw) instead of 34 loads.
  static constexpr uint8_t kM[16] = {255, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0};
  static constexpr uint8_t kPLo[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255};
  static constexpr uint8_t kPHi[16] = {255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  static constexpr uint8_t kS[16] = {0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0, 0};
  static constexpr uint8_t kZ[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255};
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c + 16));
  auto masked = [](__m128i v, const uint8_t* mask) {
    return _mm_and_si128(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(mask)));
  };
  sums[0] = static_cast<uint32_t>(byte_sum(masked(lo, kM)));
  sums[1] = static_cast<uint32_t>(byte_sum(_mm_or_si128(masked(lo, kPLo), masked(hi, kPHi))));
  sums[2] = static_cast<uint32_t>(byte_sum(masked(hi, kS)));
  sums[3] = static_cast<uint32_t>(byte_sum(masked(hi, kZ))) + c[32] + c[33];
#else
  for (int s = 0; s < 3; ++s) {
    uint32_t n = 0;
    for (int i = 0; i < 9; ++i) n += c[9 * s + i];
    sums[s] = n;
  }
  sums[3] = uint32_t{c[27]} + c[28] + c[29] + c[30] + c[31] + c[32] + c[33];
#endif
}

inline bool standard_complete(const uint8_t* c) noexcept {
  uint32_t sums[4];
  suit_sums(c, sums);
  // One bit per suit and residue (bit 3s + n % 3), combined without branches: random hands make
  // a per-suit branch unpredictable, and this test rejects most of them.
  static constexpr uint8_t kResidueBit[15] = {1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 2, 4};
  const unsigned residues = kResidueBit[sums[0]] | kResidueBit[sums[1]] << 3 | kResidueBit[sums[2]] << 6 |
                            kResidueBit[sums[3]] << 9;
  const unsigned pair_suits = residues & 04444u;  // suits holding 3k + 2 tiles
  if ((residues & 02222u) || !pair_suits || (pair_suits & (pair_suits - 1))) return false;
  const Tables& t = tables::get();
  const tables::DistanceTables& d = t.phantom;
  auto exact = [](uint16_t bits, uint32_t tiles) {
    return tiles % 3 == 2 ? (bits >> (8 + (tiles - 2) / 3)) & 1 : (bits >> (tiles / 3)) & 1;
  };
  return exact(d.suit_exact[d.suit_class[tables::suit_index(t, c)]], sums[0]) &&
         exact(d.suit_exact[d.suit_class[tables::suit_index(t, c + 9)]], sums[1]) &&
         exact(d.suit_exact[d.suit_class[tables::suit_index(t, c + 18)]], sums[2]) &&
         exact(d.honor_exact[d.honor_class[tables::honor_index(c + 27)]], sums[3]);
}

// Kinds whose addition lowers the standard-form distance below `distance` (one suit's class
// changes per candidate; the other three are reused).
uint64_t standard_effective(const uint8_t* c, int sets, unsigned distance) noexcept {
  const Tables& t = tables::get();
  const tables::DistanceTables& d = t.phantom;
  uint8_t h[kKinds];
  std::memcpy(h, c, kKinds);
  unsigned cls[4] = {d.suit_class[tables::suit_index(t, h)], d.suit_class[tables::suit_index(t, h + 9)],
                     d.suit_class[tables::suit_index(t, h + 18)], d.honor_class[tables::honor_index(h + 27)]};
  uint64_t out = 0;
  for (int suit = 0; suit < 4; ++suit) {
    const int first = suit * 9, kinds = suit < 3 ? 9 : 7;
    const unsigned saved = cls[suit];
    for (int r = 0; r < kinds; ++r) {
      const int k = first + r;
      if (h[k] >= kMaxCopies) continue;
      ++h[k];
      cls[suit] = suit < 3 ? d.suit_class[tables::suit_index(t, h + first)] : d.honor_class[tables::honor_index(h + 27)];
      if (d.distance(cls[0], cls[1], cls[2], cls[3], sets) < distance) out |= 1ull << k;
      --h[k];
    }
    cls[suit] = saved;
  }
  return out;
}

// Which kinds a hand holds at least one / at least four copies of, as bit masks over the 34 kinds
// (the knitted forms are popcounts over `held`).
struct KindMasks {
  uint64_t held, quads;
};

// Pairs (a quad counts two), distinct orphan kinds held, and whether an orphan is doubled: all that
// seven pairs and thirteen orphans need. Straight-line SIMD sums over the 34 counts — no loop and no
// branch per kind, because these two forms are evaluated on every shanten call.
struct PairsAndOrphans {
  int pairs, orphans, orphan_pair;
};

#if defined(MAHJONG_CORE_SSE2)
// Byte masks selecting the orphan kinds among kinds 0..15 and 16..31 (kinds 32, 33 are honours).
alignas(16) constexpr uint8_t kOrphanBytesLo[16] = {0xFF, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0};
alignas(16) constexpr uint8_t kOrphanBytesHi[16] = {0, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

inline PairsAndOrphans pairs_and_orphans(const uint8_t* c) noexcept {
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c + 16));
  const __m128i one = _mm_set1_epi8(1), seven_bits = _mm_set1_epi8(0x7F);
  const __m128i olo = _mm_load_si128(reinterpret_cast<const __m128i*>(kOrphanBytesLo));
  const __m128i ohi = _mm_load_si128(reinterpret_cast<const __m128i*>(kOrphanBytesHi));
  PairsAndOrphans r;
  // counts >> 1 per byte (a 16-bit shift, then drop the bit that crossed bytes).
  r.pairs = byte_sum(_mm_and_si128(_mm_srli_epi16(lo, 1), seven_bits)) +
            byte_sum(_mm_and_si128(_mm_srli_epi16(hi, 1), seven_bits)) + (c[32] >> 1) + (c[33] >> 1);
  r.orphans = byte_sum(_mm_and_si128(_mm_min_epu8(lo, one), olo)) + byte_sum(_mm_and_si128(_mm_min_epu8(hi, one), ohi)) +
              (c[32] != 0) + (c[33] != 0);
  const int doubled = _mm_movemask_epi8(_mm_or_si128(_mm_and_si128(_mm_cmpgt_epi8(lo, one), olo),
                                                     _mm_and_si128(_mm_cmpgt_epi8(hi, one), ohi)));
  r.orphan_pair = (doubled != 0) | (c[32] >= 2) | (c[33] >= 2);
  return r;
}

inline KindMasks kind_masks(const uint8_t* c) noexcept {
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c + 16));
  const __m128i zero = _mm_setzero_si128(), three = _mm_set1_epi8(3);
  auto mask_of = [](__m128i a, __m128i b) {
    return static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(a)) |
                                 (static_cast<uint32_t>(_mm_movemask_epi8(b)) << 16));
  };
  KindMasks m;
  m.held = (~mask_of(_mm_cmpeq_epi8(lo, zero), _mm_cmpeq_epi8(hi, zero)) & 0xFFFFFFFFull) |
           (uint64_t{c[32] != 0} << 32) | (uint64_t{c[33] != 0} << 33);
  m.quads = mask_of(_mm_cmpgt_epi8(lo, three), _mm_cmpgt_epi8(hi, three)) | (uint64_t{c[32] >= 4} << 32) |
            (uint64_t{c[33] >= 4} << 33);
  return m;
}
#else
inline PairsAndOrphans pairs_and_orphans(const uint8_t* c) noexcept {
  PairsAndOrphans r{0, 0, 0};
  for (int i = 0; i < kKinds; ++i) r.pairs += c[i] >> 1;
  for (uint8_t i : kOrphans) {
    r.orphans += c[i] != 0;
    r.orphan_pair |= c[i] >= 2;
  }
  return r;
}

inline KindMasks kind_masks(const uint8_t* c) noexcept {
  KindMasks m{0, 0};
  for (int i = 0; i < kKinds; ++i) {
    m.held |= uint64_t{c[i] != 0} << i;
    m.quads |= uint64_t{c[i] >= 4} << i;
  }
  return m;
}
#endif

// Kinds held an odd number of times, as a bit mask.
inline uint64_t odd_kinds(const uint8_t* c) noexcept {
#if defined(MAHJONG_CORE_SSE2)
  // Shifting each 16-bit lane left by 7 moves every byte's lowest bit to its sign bit.
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c + 16));
  return static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(_mm_slli_epi16(lo, 7))) |
                               (static_cast<uint32_t>(_mm_movemask_epi8(_mm_slli_epi16(hi, 7))) << 16)) |
         (uint64_t{c[32] & 1u} << 32) | (uint64_t{c[33] & 1u} << 33);
#else
  uint64_t m = 0;
  for (int i = 0; i < kKinds; ++i) m |= uint64_t{c[i] & 1u} << i;
  return m;
#endif
}

// Held kinds of each knitted arrangement (0..9 each).
struct KnittedCounts {
  int have[6];
};

inline KnittedCounts knitted_counts(uint64_t present) noexcept {
  KnittedCounts k;
  for (int perm = 0; perm < 6; ++perm) k.have[perm] = popcount(present & kKnittedMasks[perm]);
  return k;
}

// Exactly sets + one pair over the four suits (any number of sets).
inline bool entries_complete(const WaitEntries& en) noexcept {
  int pair_suits = 0;
  for (int s = 0; s < 4; ++s) {
    if (!(tables::complete_no_pair(en.w[s]) | tables::complete_pair(en.w[s]))) return false;
    pair_suits += tables::complete_pair(en.w[s]);
  }
  return pair_suits == 1;
}

// Kinds that turn the counts (3n + 1 tiles) into exactly n sets + a pair.
inline uint64_t entries_waits(const WaitEntries& en) noexcept {
  bool no_pair[4], pair[4];
  int bad = 0, pairs = 0;
  for (int s = 0; s < 4; ++s) {
    no_pair[s] = tables::complete_no_pair(en.w[s]);
    pair[s] = tables::complete_pair(en.w[s]);
    bad += !(no_pair[s] | pair[s]);
    pairs += pair[s];
  }
  uint64_t out = 0;
  for (int s = 0; s < 4; ++s) {
    // The other three suits must all be exact; the pair lies either in this suit or in one other.
    const int other_bad = bad - !(no_pair[s] | pair[s]);
    if (other_bad) continue;
    const int other_pairs = pairs - pair[s];
    uint64_t mask = 0;
    if (other_pairs == 0) mask = tables::wait_pair(en.w[s]);
    else if (other_pairs == 1) mask = tables::wait_no_pair(en.w[s]);
    out |= mask << (9 * s);
  }
  return out & kAllKindsMask;
}

// The counts with one copy of every kind in `mask` removed.
inline void remove_kinds(const uint8_t* c, uint64_t mask, uint8_t* out) noexcept {
  std::memcpy(out, c, kKinds);
  for (uint64_t m = mask; m; m &= m - 1) --out[lowest_bit(m)];
}

// Per-form shanten from the masks (melds == 0 for the first three).
inline int seven_pairs_from(const PairsAndOrphans& p) noexcept { return 6 - p.pairs; }
inline int thirteen_orphans_from(const PairsAndOrphans& p) noexcept { return 13 - p.orphans - p.orphan_pair; }
inline int honors_knitted_from(const KindMasks& m, const KnittedCounts& k) noexcept {
  const int honors = popcount(m.held & kHonorMask);
  int best = 0;
  for (int perm = 0; perm < 6; ++perm) best = std::max(best, k.have[perm]);
  return 13 - honors - best;
}

// Knitted-straight shanten, or `bound` if that is not larger (lets callers prune).
int knitted_straight_bounded(const uint8_t* c, int melds, const KindMasks& m, const KnittedCounts& k,
                             int bound) noexcept {
  if (melds > 1) return bound;
  int best = bound;
  for (int perm = 0; perm < 6; ++perm) {
    const int have = k.have[perm];
    // Using a held knitted tile in the straight is never worse than keeping it for the rest, so
    // the straight takes one copy of each; the rest needs 1 - melds sets and a pair.
    if (9 - have - 1 >= best) continue;  // even a finished rest could not beat `best`
    uint8_t rest[kKinds];
    remove_kinds(c, m.held & kKnittedMasks[perm], rest);
    const int d = (9 - have) + static_cast<int>(standard_distance<false>(rest, 1 - melds));
    best = std::min(best, d - 1);
  }
  return best;
}

}  // namespace

int standard_shanten(const uint8_t* counts, int melds) noexcept {
  return static_cast<int>(standard_distance<false>(counts, 4 - melds)) - 1;
}

int standard_shanten_limited(const uint8_t* counts, int melds) noexcept {
  return static_cast<int>(standard_distance<true>(counts, 4 - melds)) - 1;
}

int seven_pairs_shanten(const uint8_t* c, int melds) noexcept {
  return melds ? kNotApplicable : seven_pairs_from(pairs_and_orphans(c));
}

int thirteen_orphans_shanten(const uint8_t* c, int melds) noexcept {
  return melds ? kNotApplicable : thirteen_orphans_from(pairs_and_orphans(c));
}

int honors_knitted_shanten(const uint8_t* c, int melds) noexcept {
  if (melds) return kNotApplicable;
  const KindMasks m = kind_masks(c);
  return honors_knitted_from(m, knitted_counts(m.held));
}

int knitted_straight_shanten(const uint8_t* c, int melds) noexcept {
  const KindMasks m = kind_masks(c);
  return knitted_straight_bounded(c, melds, m, knitted_counts(m.held), kNotApplicable);
}

namespace {

template <bool Limited>
int shanten_forms(const uint8_t* counts, int melds, unsigned forms) noexcept {
  int best = kNotApplicable;
  if (forms & kStandard)
    best = Limited ? standard_shanten_limited(counts, melds) : standard_shanten(counts, melds);
  if (!(forms & ~kStandard) || melds > 1) return best;
  if (melds == 0 && (forms & (kSevenPairs | kThirteenOrphans))) {
    const PairsAndOrphans p = pairs_and_orphans(counts);
    if (forms & kSevenPairs) best = std::min(best, seven_pairs_from(p));
    if (forms & kThirteenOrphans) best = std::min(best, thirteen_orphans_from(p));
  }
  if (forms & (kHonorsKnitted | kKnittedStraight)) {
    const KindMasks m = kind_masks(counts);
    const KnittedCounts k = knitted_counts(m.held);
    if (melds == 0 && (forms & kHonorsKnitted)) best = std::min(best, honors_knitted_from(m, k));
    // The knitted straight is the costly form: it only looks at arrangements that could beat `best`.
    if (forms & kKnittedStraight) best = knitted_straight_bounded(counts, melds, m, k, best);
  }
  return best;
}

bool knitted_straight_complete(const uint8_t* c, int melds, uint64_t present) noexcept {
  if (melds > 1) return false;
  for (int perm = 0; perm < 6; ++perm) {
    if ((present & kKnittedMasks[perm]) != kKnittedMasks[perm]) continue;
    uint8_t rest[kKinds];
    remove_kinds(c, kKnittedMasks[perm], rest);
    if (standard_distance<false>(rest, 1 - melds) == 0) return true;
  }
  return false;
}

uint64_t knitted_straight_waits(const uint8_t* c, int melds, uint64_t present) noexcept {
  if (melds > 1) return 0;
  uint64_t out = 0;
  for (int perm = 0; perm < 6; ++perm) {
    const uint64_t mask = kKnittedMasks[perm];
    const int have = popcount(present & mask);
    if (have < 8) continue;
    uint8_t rest[kKinds];
    remove_kinds(c, present & mask, rest);
    const WaitEntries en = load_waits(rest);
    if (have == 9) out |= entries_waits(en);                // the rest waits for its pair or set
    else if (entries_complete(en)) out |= mask & ~present;  // the straight waits for its ninth tile
  }
  return out;
}

}  // namespace

int shanten_unchecked(const uint8_t* counts, int melds, unsigned forms) noexcept {
  return shanten_forms<false>(counts, melds, forms);
}

int shanten_limited_unchecked(const uint8_t* counts, int melds, unsigned forms) noexcept {
  return shanten_forms<true>(counts, melds, forms);
}

bool is_winning_unchecked(const uint8_t* c, int melds, unsigned forms) noexcept {
  if ((forms & kStandard) && standard_complete(c)) return true;
  if (!(forms & ~kStandard) || melds > 1) return false;
  if (melds == 0) {
    // 14 tiles with no odd count are seven pairs (a quad counts two).
    if ((forms & kSevenPairs) && odd_kinds(c) == 0) return true;
    if ((forms & kThirteenOrphans) && (kind_masks(c).held & ~kOrphanMask) == 0 &&
        thirteen_orphans_from(pairs_and_orphans(c)) == -1)
      return true;
  }
  const KindMasks m = kind_masks(c);
  // Honours-and-knitted holds 14 distinct kinds; check that before counting per arrangement.
  if (melds == 0 && (forms & kHonorsKnitted) && popcount(m.held) == 14 &&
      honors_knitted_from(m, knitted_counts(m.held)) == -1)
    return true;
  return (forms & kKnittedStraight) && knitted_straight_complete(c, melds, m.held);
}

uint64_t waits_unchecked(const uint8_t* c, int melds, unsigned forms) noexcept {
  uint64_t out = 0;
  if (forms & kStandard) out |= entries_waits(load_waits(c));
  if (!(forms & ~kStandard) || melds > 1) return out;
  const KindMasks m = kind_masks(c);
  if (melds == 0) {
    const PairsAndOrphans p = pairs_and_orphans(c);
    // Ready for seven pairs: six pairs and one odd kind, which is the wait.
    if ((forms & kSevenPairs) && seven_pairs_from(p) == 0) out |= odd_kinds(c);
    if ((forms & kThirteenOrphans) && thirteen_orphans_from(p) == 0)
      out |= p.orphan_pair ? (kOrphanMask & ~m.held) : kOrphanMask;
    if ((forms & kHonorsKnitted) && honors_knitted_from(m, knitted_counts(m.held)) == 0) {
      for (int perm = 0; perm < 6; ++perm) {
        const uint64_t allowed = kKnittedMasks[perm] | kHonorMask;
        if (popcount(m.held & allowed) == 13) out |= allowed & ~m.held;
      }
    }
  }
  if (forms & kKnittedStraight) out |= knitted_straight_waits(c, melds, m.held);
  return out;
}

uint64_t drawable_mask(const uint8_t* counts, const uint8_t* meld_tiles) noexcept {
  uint64_t m = 0;
  for (int i = 0; i < kKinds; ++i) {
    const int held = counts[i] + (meld_tiles ? meld_tiles[i] : 0);
    if (held < kMaxCopies) m |= 1ull << i;
  }
  return m;
}

// A kind is effective when some form that attains the hand's shanten gets one step closer with it;
// each form's effective kinds are computed directly (the standard form by reusing three suits'
// classes per candidate), only the knitted straight falls back to re-evaluating the hand per kind.
Effective effective_unchecked(const uint8_t* c, int melds, unsigned forms, uint64_t drawable) noexcept {
  const int base = shanten_unchecked(c, melds, forms);
  uint64_t out = 0;
  if ((forms & kStandard) && standard_shanten(c, melds) == base) out |= standard_effective(c, 4 - melds, base + 1);
  const KindMasks m = kind_masks(c);
  if (melds == 0 && (forms & (kSevenPairs | kThirteenOrphans))) {
    const PairsAndOrphans p = pairs_and_orphans(c);
    if ((forms & kSevenPairs) && seven_pairs_from(p) == base) out |= odd_kinds(c);  // a single or triple pairs up
    if ((forms & kThirteenOrphans) && thirteen_orphans_from(p) == base)
      out |= p.orphan_pair ? (kOrphanMask & ~m.held) : kOrphanMask;
  }
  if (forms & (kHonorsKnitted | kKnittedStraight)) {
    const KnittedCounts k = knitted_counts(m.held);
    if (melds == 0 && (forms & kHonorsKnitted) && honors_knitted_from(m, k) == base) {
      int best = 0;
      for (int perm = 0; perm < 6; ++perm) best = std::max(best, k.have[perm]);
      for (int perm = 0; perm < 6; ++perm)
        if (k.have[perm] == best) out |= (kKnittedMasks[perm] | kHonorMask) & ~m.held;
    }
    if ((forms & kKnittedStraight) && melds <= 1) {
      // Per arrangement at the hand's shanten: a missing knitted tile completes more of the
      // straight; any other tile can only help the rest (1 - melds sets and a pair).
      for (int perm = 0; perm < 6; ++perm) {
        const int have = k.have[perm];
        if (9 - have - 1 > base) continue;
        uint8_t rest[kKinds];
        remove_kinds(c, m.held & kKnittedMasks[perm], rest);
        const unsigned rest_distance = standard_distance<false>(rest, 1 - melds);
        if ((9 - have) + static_cast<int>(rest_distance) - 1 != base) continue;
        out |= (kKnittedMasks[perm] & ~m.held) | standard_effective(rest, 1 - melds, rest_distance);
      }
    }
  }
  // A kind already held four times can never be drawn.
  return Effective{base, out & drawable & ~m.quads};
}

BestDiscards best_discards_unchecked(const uint8_t* c, int melds, unsigned forms) noexcept {
  uint8_t h[kKinds];
  std::memcpy(h, c, kKinds);
  BestDiscards out{kNotApplicable, 0};
  for (int t = 0; t < kKinds; ++t) {
    if (!h[t]) continue;
    --h[t];
    const int s = shanten_unchecked(h, melds, forms);
    ++h[t];
    if (s < out.shanten) out = BestDiscards{s, 0};
    if (s == out.shanten) out.tiles |= 1ull << t;
  }
  return out;
}

// ---- validating entry points ----

void validate_forms(unsigned forms) {
  if (forms == 0 || (forms & ~kAllForms))
    throw InvalidArgument("forms must be a non-empty combination of Forms flags (1..31), got " +
                          std::to_string(forms));
}

void validate_hand(const uint8_t* counts, int melds, TileCount expect) {
  if (melds < 0 || melds > kMaxMelds)
    throw InvalidHand("a hand has 0 to 4 exposed melds, got " + std::to_string(melds));
  // The checks run on every validated call, so nothing is formatted unless something is wrong.
  unsigned total = 0, worst = 0;
  for (int i = 0; i < kKinds; ++i) {
    total += counts[i];
    worst = counts[i] > worst ? counts[i] : worst;
  }
  if (worst > kMaxCopies) {
    for (int i = 0; i < kKinds; ++i)
      if (counts[i] > kMaxCopies)
        throw InvalidHand(std::to_string(counts[i]) + " copies of " + tile_name(i) + " (at most 4 of a kind)");
  }
  const unsigned waiting = 13 - 3 * melds, complete = waiting + 1;
  const bool ok = expect == TileCount::Waiting    ? total == waiting
                  : expect == TileCount::Complete ? total == complete
                                                  : (total == waiting || total == complete);
  if (ok) return;
  const std::string held = "hand has " + std::to_string(total) + " concealed tiles; with " + std::to_string(melds) +
                           (melds == 1 ? " meld " : " melds ");
  switch (expect) {
    case TileCount::Waiting:
      throw InvalidHand(held + "a waiting hand holds " + std::to_string(waiting));
    case TileCount::Complete:
      throw InvalidHand(held + "a complete hand holds " + std::to_string(complete));
    default:
      throw InvalidHand(held + "it holds " + std::to_string(waiting) + " or " + std::to_string(complete));
  }
}

void require_possible_forms(unsigned forms, int melds) {
  if (!(forms & possible_forms(melds)))
    throw InvalidHand("none of the requested forms (flags " + std::to_string(forms) + ") is possible with " +
                      std::to_string(melds) +
                      " exposed melds: seven pairs, thirteen orphans and honours-and-knitted need a concealed "
                      "hand, the knitted straight at most one meld");
}

namespace {
void require_applicable(int value, unsigned forms, int melds) {
  if (value == kNotApplicable) require_possible_forms(forms, melds);
}
}  // namespace

int shanten(const uint8_t* counts, int melds, unsigned forms) {
  validate_forms(forms);
  validate_hand(counts, melds, TileCount::Either);
  const int value = shanten_unchecked(counts, melds, forms);
  require_applicable(value, forms, melds);
  return value;
}

int shanten_limited(const uint8_t* counts, int melds, unsigned forms) {
  validate_forms(forms);
  validate_hand(counts, melds, TileCount::Either);
  const int value = shanten_limited_unchecked(counts, melds, forms);
  require_applicable(value, forms, melds);
  return value;
}

bool is_winning(const uint8_t* counts, int melds, unsigned forms) {
  validate_forms(forms);
  validate_hand(counts, melds, TileCount::Complete);
  require_possible_forms(forms, melds);
  return is_winning_unchecked(counts, melds, forms);
}

uint64_t waits(const uint8_t* counts, int melds, unsigned forms) {
  validate_forms(forms);
  validate_hand(counts, melds, TileCount::Waiting);
  require_possible_forms(forms, melds);
  return waits_unchecked(counts, melds, forms);
}

Effective effective(const uint8_t* counts, int melds, unsigned forms, uint64_t drawable) {
  validate_forms(forms);
  validate_hand(counts, melds, TileCount::Waiting);
  const Effective e = effective_unchecked(counts, melds, forms, drawable);
  require_applicable(e.shanten, forms, melds);
  return e;
}

BestDiscards best_discards(const uint8_t* counts, int melds, unsigned forms) {
  validate_forms(forms);
  validate_hand(counts, melds, TileCount::Complete);
  require_possible_forms(forms, melds);
  return best_discards_unchecked(counts, melds, forms);
}

std::vector<DiscardOption> discard_options(const uint8_t* counts, int melds, unsigned forms,
                                           const uint8_t* meld_tiles) {
  validate_forms(forms);
  validate_hand(counts, melds, TileCount::Complete);
  require_applicable(shanten_unchecked(counts, melds, forms), forms, melds);
  std::vector<DiscardOption> out;
  uint8_t h[kKinds];
  std::memcpy(h, counts, kKinds);
  for (int t = 0; t < kKinds; ++t) {
    if (!counts[t]) continue;
    --h[t];
    const Effective e = effective_unchecked(h, melds, forms, drawable_mask(h, meld_tiles));
    out.push_back(DiscardOption{t, e.shanten, e.tiles});
    ++h[t];
  }
  return out;
}

}  // namespace mahjong_core
