// Hand analysis: shanten, win detection, waits, effective tiles, discard options.
//
// A hand is `counts` (34 concealed counts) plus `melds`, the number of exposed melds (concealed kongs
// included). The concealed part holds 13 - 3*melds tiles (a waiting hand) or 14 - 3*melds (a complete
// or discarding hand). `forms` is a mask of `Form` flags; seven pairs, thirteen orphans and
// honours-and-knitted need melds == 0, the knitted straight needs melds <= 1.
//
// Definitions:
//   * shanten: -1 complete, 0 ready, n = n tiles away from ready. The default ("phantom waits
//     count") lets a target use any number of copies of a kind, so a hand whose only wait is a
//     fifth copy is ready; `limited` versions forbid a fifth copy among the concealed tiles
//     (the definition of Riichi tools such as the `mahjong` package).
//   * seven pairs: a quad counts as two pairs (MCR, Sichuan, Changbai).
//   * waits: kinds whose addition completes the hand (phantom fifth copies included; callers mask
//     them out with `exclude`).
//
// Functions named *_unchecked are the hot path: they assume a valid hand and never throw. The
// others validate first and throw InvalidHand / InvalidArgument with a message.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mahjong_core/tiles.h"

namespace mahjong_core {

enum class TileCount { Waiting, Complete, Either };

// Throws InvalidHand unless melds is 0..4, every count is 0..4 and the tile count fits `expect`.
void validate_hand(const uint8_t* counts, int melds, TileCount expect);
// Throws InvalidArgument unless `forms` is a non-empty subset of kAllForms.
void validate_forms(unsigned forms);
// The forms a hand with `melds` exposed melds can take (seven pairs, thirteen orphans and
// honours-and-knitted need a concealed hand; the knitted straight at most one meld).
constexpr unsigned possible_forms(int melds) {
  return melds == 0 ? kAllForms : melds == 1 ? (kStandard | kKnittedStraight) : kStandard;
}
// Throws InvalidHand when none of `forms` is possible with `melds` melds.
void require_possible_forms(unsigned forms, int melds);
// True when validate_forms and validate_hand would pass (and, with `possible`, require_possible_forms):
// the non-throwing check of the C entry points compiled callers use (an invalid input then takes the
// throwing path, which says what is wrong).
bool input_is_valid(const uint8_t* counts, int melds, unsigned forms, TileCount expect, bool possible) noexcept;

// Per-form shanten (unchecked). A form that cannot apply (e.g. seven pairs with melds) returns
// kNotApplicable.
constexpr int kNotApplicable = 99;
int standard_shanten(const uint8_t* counts, int melds) noexcept;
int standard_shanten_limited(const uint8_t* counts, int melds) noexcept;
int seven_pairs_shanten(const uint8_t* counts, int melds) noexcept;
int thirteen_orphans_shanten(const uint8_t* counts, int melds) noexcept;
int honors_knitted_shanten(const uint8_t* counts, int melds) noexcept;
int knitted_straight_shanten(const uint8_t* counts, int melds) noexcept;

int shanten_unchecked(const uint8_t* counts, int melds, unsigned forms) noexcept;
int shanten_limited_unchecked(const uint8_t* counts, int melds, unsigned forms) noexcept;
int shanten(const uint8_t* counts, int melds, unsigned forms);
int shanten_limited(const uint8_t* counts, int melds, unsigned forms);

// Complete hand (14 - 3*melds concealed tiles).
bool is_winning_unchecked(const uint8_t* counts, int melds, unsigned forms) noexcept;
bool is_winning(const uint8_t* counts, int melds, unsigned forms);

// Waits of a 13 - 3*melds hand as a bit mask over the 34 kinds.
uint64_t waits_unchecked(const uint8_t* counts, int melds, unsigned forms) noexcept;
uint64_t waits(const uint8_t* counts, int melds, unsigned forms);

// Kinds that lower the shanten of a 13 - 3*melds hand, restricted to `drawable` (kinds of which
// the player does not already hold all four copies). Also returns the hand's shanten.
struct Effective {
  int shanten;
  uint64_t tiles;
};
Effective effective_unchecked(const uint8_t* counts, int melds, unsigned forms, uint64_t drawable) noexcept;
Effective effective(const uint8_t* counts, int melds, unsigned forms, uint64_t drawable);

// For a 14 - 3*melds hand: every distinct discard, the resulting shanten and effective tiles.
// `meld_tiles` (34 counts of the tiles in the exposed melds, or null) decides which kinds can still
// be drawn after each discard.
struct DiscardOption {
  int tile;
  int shanten;
  uint64_t effective;
};
std::vector<DiscardOption> discard_options(const uint8_t* counts, int melds, unsigned forms,
                                           const uint8_t* meld_tiles);

// For a 14 - 3*melds hand: the lowest shanten any discard reaches and the kinds whose discard
// reaches it (a bot's whole discard search in one call).
struct BestDiscards {
  int shanten;
  uint64_t tiles;
};
BestDiscards best_discards_unchecked(const uint8_t* counts, int melds, unsigned forms) noexcept;
BestDiscards best_discards(const uint8_t* counts, int melds, unsigned forms);

// CPU dispatch (see shanten.cpp): the kernel copy in use ("baseline" or "popcnt"), the copies this
// CPU can run ("baseline,popcnt"), and a switch for tests (false when `name` is unavailable; not
// thread-safe against concurrent calls). MAHJONG_CORE_BASELINE=1 forces "baseline" at load.
const char* kernel_variant() noexcept;
std::string kernel_variants();
bool use_kernel_variant(const char* name) noexcept;

// Kinds of which the player holds fewer than four copies (concealed + `meld_tiles`, may be null).
uint64_t drawable_mask(const uint8_t* counts, const uint8_t* meld_tiles) noexcept;
// The kinds held (count > 0) and held four times or more, as 34-bit masks; reads the 34 counts and
// nothing else (the kernels' own vector compare, exposed for C++ callers and its test; the Python
// engine asks mahjong_core/_bits.pxd's inline compares of the same bytes instead).
struct HeldKinds {
  uint64_t held, quads;
};
HeldKinds held_kinds(const uint8_t* counts) noexcept;

}  // namespace mahjong_core
