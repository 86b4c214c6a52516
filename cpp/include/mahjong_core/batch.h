// Batch analysis over N hands stored as consecutive rows of 34 uint8 counts.
//
// Each row is validated (counts 0..4, tile count matching its meld count) and then analysed by the
// same noexcept functions as single calls. A bad row throws InvalidHand whose message starts with
// "row <index>:". `melds` is either one value for every row (`melds_per_row == nullptr`) or one
// byte per row. These functions hold no Python state and are called without the GIL.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mahjong_core {

void batch_shanten(const uint8_t* rows, std::size_t n, const uint8_t* melds_per_row, int melds, unsigned forms,
                   bool limited, int8_t* out);
void batch_is_winning(const uint8_t* rows, std::size_t n, const uint8_t* melds_per_row, int melds, unsigned forms,
                      uint8_t* out);
// out: n x 34 booleans.
void batch_waits(const uint8_t* rows, std::size_t n, const uint8_t* melds_per_row, int melds, unsigned forms,
                 uint8_t* out);

}  // namespace mahjong_core
