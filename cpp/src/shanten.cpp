// Hand analysis on top of the per-suit tables: the CPU dispatch of the hot kernels
// (shanten_kernels.inc) and the validating wrappers.
//
// CPU dispatch. The kernels are compiled twice on x86 with GCC/Clang: a baseline copy (the portable
// build flags, SWAR popcount) and a copy for CPUs with POPCNT (every x86-64 CPU since ~2008; the
// knitted forms and the waits count bits). The public functions call through one table of function
// pointers chosen once when the library loads: the POPCNT copy when the CPU has it, unless
// MAHJONG_CORE_BASELINE is set (to anything but "" or "0"). Wider SIMD (AVX2) was not worth a third
// copy: the kernels are table lookups, not data-parallel loops. Elsewhere (MSVC, ARM, or a build
// with -mpopcnt already) there is one copy.
#include "mahjong_core/shanten.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "mahjong_core/bits.h"
#if defined(MAHJONG_CORE_SSE2)
#include <emmintrin.h>
#endif

#include "mahjong_core/errors.h"
#include "mahjong_core/tables.h"


#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(__POPCNT__) && !defined(MAHJONG_CORE_NO_DISPATCH)
#define MAHJONG_CORE_DISPATCH_POPCNT 1
#endif

#define MAHJONG_CORE_KERNEL_NS baseline
#define MAHJONG_CORE_KERNEL_POPCOUNT(x) popcount64(x)
#include "shanten_kernels.inc"
#undef MAHJONG_CORE_KERNEL_NS
#undef MAHJONG_CORE_KERNEL_POPCOUNT

#if defined(MAHJONG_CORE_DISPATCH_POPCNT)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("popcnt")
#endif
#define MAHJONG_CORE_KERNEL_NS popcnt
#define MAHJONG_CORE_KERNEL_POPCOUNT(x) __builtin_popcountll(x)
#include "shanten_kernels.inc"
#undef MAHJONG_CORE_KERNEL_NS
#undef MAHJONG_CORE_KERNEL_POPCOUNT
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif

namespace mahjong_core {
namespace {

struct Kernels {
  const char* name;
  int (*standard_shanten)(const uint8_t*, int) noexcept;
  int (*standard_shanten_limited)(const uint8_t*, int) noexcept;
  int (*seven_pairs_shanten)(const uint8_t*, int) noexcept;
  int (*thirteen_orphans_shanten)(const uint8_t*, int) noexcept;
  int (*honors_knitted_shanten)(const uint8_t*, int) noexcept;
  int (*knitted_straight_shanten)(const uint8_t*, int) noexcept;
  int (*shanten)(const uint8_t*, int, unsigned) noexcept;
  int (*shanten_limited)(const uint8_t*, int, unsigned) noexcept;
  bool (*is_winning)(const uint8_t*, int, unsigned) noexcept;
  uint64_t (*waits)(const uint8_t*, int, unsigned) noexcept;
  Effective (*effective)(const uint8_t*, int, unsigned, uint64_t) noexcept;
  BestDiscards (*best_discards)(const uint8_t*, int, unsigned) noexcept;
  int (*discard_effects)(const uint8_t*, int, unsigned, const uint8_t*, DiscardOption*) noexcept;
};

#define MAHJONG_CORE_KERNELS(ns)                                                                              \
  Kernels {                                                                                                   \
    #ns, &ns::standard_shanten, &ns::standard_shanten_limited, &ns::seven_pairs_shanten,                      \
        &ns::thirteen_orphans_shanten, &ns::honors_knitted_shanten, &ns::knitted_straight_shanten,             \
        &ns::shanten_unchecked, &ns::shanten_limited_unchecked, &ns::is_winning_unchecked, &ns::waits_unchecked, \
        &ns::effective_unchecked, &ns::best_discards_unchecked, &ns::discard_effects                            \
  }

const Kernels kBaseline = MAHJONG_CORE_KERNELS(baseline);
#if defined(MAHJONG_CORE_DISPATCH_POPCNT)
const Kernels kPopcnt = MAHJONG_CORE_KERNELS(popcnt);
#endif

bool popcnt_supported() noexcept {
#if defined(MAHJONG_CORE_DISPATCH_POPCNT)
  __builtin_cpu_init();
  return __builtin_cpu_supports("popcnt");
#else
  return false;
#endif
}

const Kernels* choose_kernels() noexcept {
  const char* env = std::getenv("MAHJONG_CORE_BASELINE");
  if (env && *env && std::strcmp(env, "0") != 0) return &kBaseline;
#if defined(MAHJONG_CORE_DISPATCH_POPCNT)
  if (popcnt_supported()) return &kPopcnt;
#endif
  return &kBaseline;
}

// Chosen during static initialisation (the library's load), before any call can happen.
const Kernels* active = choose_kernels();

}  // namespace

const char* kernel_variant() noexcept { return active->name; }

bool use_kernel_variant(const char* name) noexcept {
  if (std::strcmp(name, "baseline") == 0) {
    active = &kBaseline;
    return true;
  }
#if defined(MAHJONG_CORE_DISPATCH_POPCNT)
  if (std::strcmp(name, "popcnt") == 0 && popcnt_supported()) {
    active = &kPopcnt;
    return true;
  }
#endif
  return false;
}

std::string kernel_variants() {
  std::string out = "baseline";
#if defined(MAHJONG_CORE_DISPATCH_POPCNT)
  if (popcnt_supported()) out += ",popcnt";
#endif
  return out;
}

int standard_shanten(const uint8_t* c, int melds) noexcept { return active->standard_shanten(c, melds); }
int standard_shanten_limited(const uint8_t* c, int melds) noexcept { return active->standard_shanten_limited(c, melds); }
int seven_pairs_shanten(const uint8_t* c, int melds) noexcept { return active->seven_pairs_shanten(c, melds); }
int thirteen_orphans_shanten(const uint8_t* c, int melds) noexcept { return active->thirteen_orphans_shanten(c, melds); }
int honors_knitted_shanten(const uint8_t* c, int melds) noexcept { return active->honors_knitted_shanten(c, melds); }
int knitted_straight_shanten(const uint8_t* c, int melds) noexcept { return active->knitted_straight_shanten(c, melds); }
int shanten_unchecked(const uint8_t* c, int melds, unsigned forms) noexcept { return active->shanten(c, melds, forms); }
int shanten_limited_unchecked(const uint8_t* c, int melds, unsigned forms) noexcept {
  return active->shanten_limited(c, melds, forms);
}
bool is_winning_unchecked(const uint8_t* c, int melds, unsigned forms) noexcept { return active->is_winning(c, melds, forms); }
uint64_t waits_unchecked(const uint8_t* c, int melds, unsigned forms) noexcept { return active->waits(c, melds, forms); }
Effective effective_unchecked(const uint8_t* c, int melds, unsigned forms, uint64_t drawable) noexcept {
  return active->effective(c, melds, forms, drawable);
}
BestDiscards best_discards_unchecked(const uint8_t* c, int melds, unsigned forms) noexcept {
  return active->best_discards(c, melds, forms);
}
uint64_t drawable_mask(const uint8_t* counts, const uint8_t* meld_tiles) noexcept {
  return baseline::drawable_mask(counts, meld_tiles);
}
HeldKinds held_kinds(const uint8_t* counts) noexcept {
  const auto m = baseline::kind_masks(counts);
  return {m.held, m.quads};
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

bool input_is_valid(const uint8_t* counts, int melds, unsigned forms, TileCount expect, bool possible) noexcept {
  if (forms == 0 || (forms & ~kAllForms) || melds < 0 || melds > kMaxMelds) return false;
  if (possible && !(forms & possible_forms(melds))) return false;
  // Hot path: every checked entry point (a bot's shanten, waits and best-discards calls) starts
  // here, so the 34 counts are summed and bounded with two vector loads (psadbw for the sum, a
  // saturating subtract for "any count above 4") instead of a 34-step loop.
  unsigned total = 0;
  bool too_many = false;
#if defined(MAHJONG_CORE_SSE2)
  static_assert(kKinds == 34 && kMaxCopies == 4, "the vector check reads 32 + 2 counts, each at most 4");
  const __m128i zero = _mm_setzero_si128();
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(counts));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(counts + 16));
  const __m128i sums = _mm_add_epi64(_mm_sad_epu8(lo, zero), _mm_sad_epu8(hi, zero));  // two lanes < 8,160
  total = static_cast<unsigned>(_mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4)) + counts[32] + counts[33];
  const __m128i above = _mm_subs_epu8(_mm_max_epu8(lo, hi), _mm_set1_epi8(static_cast<char>(kMaxCopies)));
  too_many = _mm_movemask_epi8(_mm_cmpeq_epi8(above, zero)) != 0xFFFF || counts[32] > kMaxCopies ||
             counts[33] > kMaxCopies;
#else
  for (int i = 0; i < kKinds; ++i) {
    total += counts[i];
    too_many |= counts[i] > kMaxCopies;
  }
#endif
  const unsigned waiting = 13 - 3 * melds;
  if (too_many) return false;
  return expect == TileCount::Waiting    ? total == waiting
         : expect == TileCount::Complete ? total == waiting + 1
                                         : (total == waiting || total == waiting + 1);
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
  require_possible_forms(forms, melds);  // what a kNotApplicable shanten would mean, without the call
  DiscardOption options[kKinds];
  const int n = active->discard_effects(counts, melds, forms, meld_tiles, options);
  return std::vector<DiscardOption>(options, options + n);
}

}  // namespace mahjong_core
