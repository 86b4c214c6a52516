// Hand analysis on top of the per-suit tables. Everything here except the validating wrappers at
// the bottom is the hot path: no allocation, no exceptions, small fixed loops.
#include "mahjong_core/shanten.h"

#include <algorithm>
#include <cstring>
#include <string>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

#include "mahjong_core/bits.h"
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

// Which kinds a hand holds at least one, two, four copies of, as bit masks over the 34 kinds.
// Seven pairs, thirteen orphans and both knitted forms are popcounts over these masks: no loops
// and no branches per kind.
struct KindMasks {
  uint64_t ge1, ge2, ge4;
};

inline KindMasks kind_masks(const uint8_t* c) noexcept {
#if defined(__SSE2__) || defined(_M_X64)
  // Two 16-byte compares cover kinds 0..31; the last two kinds are done by hand.
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c + 16));
  const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi8(1), three = _mm_set1_epi8(3);
  auto mask_of = [](__m128i a, __m128i b) {
    return static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(a)) |
                                 (static_cast<uint32_t>(_mm_movemask_epi8(b)) << 16));
  };
  const uint64_t zero_mask = mask_of(_mm_cmpeq_epi8(lo, zero), _mm_cmpeq_epi8(hi, zero));
  KindMasks m;
  m.ge1 = (~zero_mask & 0xFFFFFFFFull) | (uint64_t{c[32] >= 1} << 32) | (uint64_t{c[33] >= 1} << 33);
  m.ge2 = mask_of(_mm_cmpgt_epi8(lo, one), _mm_cmpgt_epi8(hi, one)) | (uint64_t{c[32] >= 2} << 32) |
          (uint64_t{c[33] >= 2} << 33);
  m.ge4 = mask_of(_mm_cmpgt_epi8(lo, three), _mm_cmpgt_epi8(hi, three)) | (uint64_t{c[32] >= 4} << 32) |
          (uint64_t{c[33] >= 4} << 33);
  return m;
#else
  KindMasks m{0, 0, 0};
  for (int i = 0; i < kKinds; ++i) {
    m.ge1 |= uint64_t{c[i] >= 1} << i;
    m.ge2 |= uint64_t{c[i] >= 2} << i;
    m.ge4 |= uint64_t{c[i] >= 4} << i;
  }
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
inline int seven_pairs_from(const KindMasks& m) noexcept { return 6 - popcount(m.ge2) - popcount(m.ge4); }
inline int thirteen_orphans_from(const KindMasks& m) noexcept {
  return 13 - popcount(m.ge1 & kOrphanMask) - ((m.ge2 & kOrphanMask) != 0);
}
inline int honors_knitted_from(const KindMasks& m, const KnittedCounts& k) noexcept {
  const int honors = popcount(m.ge1 & kHonorMask);
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
    remove_kinds(c, m.ge1 & kKnittedMasks[perm], rest);
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
  return melds ? kNotApplicable : seven_pairs_from(kind_masks(c));
}

int thirteen_orphans_shanten(const uint8_t* c, int melds) noexcept {
  return melds ? kNotApplicable : thirteen_orphans_from(kind_masks(c));
}

int honors_knitted_shanten(const uint8_t* c, int melds) noexcept {
  if (melds) return kNotApplicable;
  const KindMasks m = kind_masks(c);
  return honors_knitted_from(m, knitted_counts(m.ge1));
}

int knitted_straight_shanten(const uint8_t* c, int melds) noexcept {
  const KindMasks m = kind_masks(c);
  return knitted_straight_bounded(c, melds, m, knitted_counts(m.ge1), kNotApplicable);
}

namespace {

template <bool Limited>
int shanten_forms(const uint8_t* counts, int melds, unsigned forms) noexcept {
  int best = kNotApplicable;
  if (forms & kStandard)
    best = Limited ? standard_shanten_limited(counts, melds) : standard_shanten(counts, melds);
  if (!(forms & ~kStandard) || melds > 1) return best;
  const KindMasks m = kind_masks(counts);
  if (melds == 0) {
    if (forms & kSevenPairs) best = std::min(best, seven_pairs_from(m));
    if (forms & kThirteenOrphans) best = std::min(best, thirteen_orphans_from(m));
  }
  if (forms & (kHonorsKnitted | kKnittedStraight)) {
    const KnittedCounts k = knitted_counts(m.ge1);
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
  if ((forms & kStandard) && standard_distance<false>(c, 4 - melds) == 0) return true;
  if (!(forms & ~kStandard) || melds > 1) return false;
  const KindMasks m = kind_masks(c);
  if (melds == 0) {
    // 14 tiles with no odd count: seven pairs (a quad is two pairs).
    if ((forms & kSevenPairs) && seven_pairs_from(m) == -1) return true;
    if ((forms & kThirteenOrphans) && thirteen_orphans_from(m) == -1) return true;
    if ((forms & kHonorsKnitted) && honors_knitted_from(m, knitted_counts(m.ge1)) == -1) return true;
  }
  return (forms & kKnittedStraight) && knitted_straight_complete(c, melds, m.ge1);
}

uint64_t waits_unchecked(const uint8_t* c, int melds, unsigned forms) noexcept {
  uint64_t out = 0;
  if (forms & kStandard) out |= entries_waits(load_waits(c));
  if (!(forms & ~kStandard) || melds > 1) return out;
  const KindMasks m = kind_masks(c);
  if (melds == 0) {
    // Ready for seven pairs: six pairs and one odd kind, which is the wait.
    if ((forms & kSevenPairs) && seven_pairs_from(m) == 0)
      for (int i = 0; i < kKinds; ++i) out |= uint64_t{c[i] & 1u} << i;
    if ((forms & kThirteenOrphans) && thirteen_orphans_from(m) == 0)
      out |= (m.ge2 & kOrphanMask) ? (kOrphanMask & ~m.ge1) : kOrphanMask;
    if ((forms & kHonorsKnitted) && honors_knitted_from(m, knitted_counts(m.ge1)) == 0) {
      for (int perm = 0; perm < 6; ++perm) {
        const uint64_t allowed = kKnittedMasks[perm] | kHonorMask;
        if (popcount(m.ge1 & allowed) == 13) out |= allowed & ~m.ge1;
      }
    }
  }
  if (forms & kKnittedStraight) out |= knitted_straight_waits(c, melds, m.ge1);
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

Effective effective_unchecked(const uint8_t* c, int melds, unsigned forms, uint64_t drawable) noexcept {
  const int base = shanten_unchecked(c, melds, forms);
  uint8_t h[kKinds];
  std::memcpy(h, c, kKinds);
  uint64_t out = 0;
  for (uint64_t m = drawable; m; m &= m - 1) {
    const int t = lowest_bit(m);
    ++h[t];
    if (shanten_unchecked(h, melds, forms) < base) out |= 1ull << t;
    --h[t];
  }
  return Effective{base, out};
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
  int total = 0;
  for (int i = 0; i < kKinds; ++i) {
    if (counts[i] > kMaxCopies)
      throw InvalidHand(std::to_string(counts[i]) + " copies of " + tile_name(i) + " (at most 4 of a kind)");
    total += counts[i];
  }
  const int waiting = 13 - 3 * melds, complete = 14 - 3 * melds;
  const std::string melds_text = "with " + std::to_string(melds) + (melds == 1 ? " meld" : " melds");
  switch (expect) {
    case TileCount::Waiting:
      if (total != waiting)
        throw InvalidHand("hand has " + std::to_string(total) + " concealed tiles; " + melds_text +
                          " a waiting hand holds " + std::to_string(waiting));
      break;
    case TileCount::Complete:
      if (total != complete)
        throw InvalidHand("hand has " + std::to_string(total) + " concealed tiles; " + melds_text +
                          " a complete hand holds " + std::to_string(complete));
      break;
    case TileCount::Either:
      if (total != waiting && total != complete)
        throw InvalidHand("hand has " + std::to_string(total) + " concealed tiles; " + melds_text + " it holds " +
                          std::to_string(waiting) + " or " + std::to_string(complete));
      break;
  }
}

namespace {
void require_applicable(int value, unsigned forms, int melds) {
  if (value == kNotApplicable)
    throw InvalidHand("none of the requested forms (flags " + std::to_string(forms) + ") is possible with " +
                      std::to_string(melds) + " exposed melds");
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
  return is_winning_unchecked(counts, melds, forms);
}

uint64_t waits(const uint8_t* counts, int melds, unsigned forms) {
  validate_forms(forms);
  validate_hand(counts, melds, TileCount::Waiting);
  return waits_unchecked(counts, melds, forms);
}

Effective effective(const uint8_t* counts, int melds, unsigned forms, uint64_t drawable) {
  validate_forms(forms);
  validate_hand(counts, melds, TileCount::Waiting);
  const Effective e = effective_unchecked(counts, melds, forms, drawable);
  require_applicable(e.shanten, forms, melds);
  return e;
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
