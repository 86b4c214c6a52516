// Every distinct way a complete hand splits into sets and a pair, plus the special forms.
//
// The input is the concealed tiles (14 - 3*melds of them, win tile included) and the exposed melds.
// Two decompositions are distinct when their multisets of blocks (or their form/arrangement) differ.
// The output is the input of all three rulesets' scorers.
#pragma once

#include <cstdint>
#include <vector>

#include "mahjong_core/tiles.h"

namespace mahjong_core {

enum class BlockKind : uint8_t { Chow = 0, Pung = 1, Kong = 2, Pair = 3 };

// An exposed meld as the core needs it (the claim source is a ruleset matter and stays in Python).
struct MeldSpec {
  BlockKind kind;  // Chow, Pung or Kong
  uint8_t tile;    // lowest tile of the meld
  bool concealed;  // a concealed kong
};

struct Block {
  BlockKind kind;
  uint8_t tile;    // lowest tile (chows) or the tile (pungs, kongs, pairs)
  bool concealed;  // made of concealed tiles (hand sets, pairs, concealed kongs)
  int8_t meld;     // index of the exposed meld this block is, or -1
};

struct Decomposition {
  unsigned form = 0;      // exactly one Form flag
  uint8_t n_blocks = 0;   // standard: melds, hand sets, then the pair last;
  Block blocks[7] = {};   // seven pairs: 7 pairs; thirteen orphans: its pair; knitted straight: melds,
                          // the set (if not a meld), the pair; honours-and-knitted: none
  int8_t knitted = -1;    // arrangement 0..5 of kKnittedSuits (knitted straight, honours-and-knitted)
};

// Throws InvalidHand for an impossible input; returns an empty vector for a hand that is not complete.
std::vector<Decomposition> decompose(const uint8_t* concealed, const MeldSpec* melds, int n_melds,
                                     unsigned forms = kAllForms);

// The same for a hand already validated, written into a reused vector (cleared first): the
// scorers' hot path, where validation and allocation would cost more than the search.
void decompose_into(const uint8_t* concealed, const MeldSpec* melds, int n_melds, unsigned forms,
                    std::vector<Decomposition>& out) noexcept;

// Throws InvalidHand unless every meld is well formed and no kind exceeds four copies overall.
void validate_melds(const uint8_t* concealed, const MeldSpec* melds, int n_melds);

// Append the standard decompositions of `counts` (3n + 2 tiles) into n sets and a pair to `out`,
// each prefixed with `prefix` blocks (unchecked; used by the scorers' fast paths too).
void decompose_standard(const uint8_t* counts, const Block* prefix, int n_prefix, unsigned form, int knitted,
                        std::vector<Decomposition>& out);

}  // namespace mahjong_core
