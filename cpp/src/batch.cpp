#include "mahjong_core/batch.h"

#include <string>

#include "mahjong_core/errors.h"
#include "mahjong_core/shanten.h"
#include "mahjong_core/tables.h"

namespace mahjong_core {
namespace {

// Cheap per-row check (vectorisable: a max and a sum over 34 bytes); the slow path re-runs the
// full validation only to build the error message.
inline bool row_ok(const uint8_t* c, int melds, TileCount expect) noexcept {
  unsigned total = 0, worst = 0;
  for (int i = 0; i < kKinds; ++i) {
    total += c[i];
    worst = c[i] > worst ? c[i] : worst;
  }
  if (worst > kMaxCopies || melds < 0 || melds > kMaxMelds) return false;
  const unsigned waiting = 13 - 3 * melds;
  switch (expect) {
    case TileCount::Waiting: return total == waiting;
    case TileCount::Complete: return total == waiting + 1;
    default: return total == waiting || total == waiting + 1;
  }
}

[[noreturn]] void raise_row(std::size_t row, const uint8_t* c, int melds, TileCount expect, const char* extra) {
  try {
    validate_hand(c, melds, expect);
  } catch (const InvalidHand& e) {
    throw InvalidHand("row " + std::to_string(row) + ": " + e.what());
  }
  throw InvalidHand("row " + std::to_string(row) + ": " + extra);
}

template <typename Fn>
void for_rows(const uint8_t* rows, std::size_t n, const uint8_t* melds_per_row, int melds, unsigned forms,
              TileCount expect, Fn fn) {
  validate_forms(forms);
  tables::ensure_init();
  for (std::size_t r = 0; r < n; ++r) {
    const uint8_t* c = rows + r * kKinds;
    const int m = melds_per_row ? melds_per_row[r] : melds;
    if (!row_ok(c, m, expect)) raise_row(r, c, m, expect, "invalid hand");
    if (!(forms & possible_forms(m)))
      raise_row(r, c, m, expect, "none of the requested forms is possible with this many melds");
    fn(r, c, m);
  }
}

}  // namespace

void batch_shanten(const uint8_t* rows, std::size_t n, const uint8_t* melds_per_row, int melds, unsigned forms,
                   bool limited, int8_t* out) {
  for_rows(rows, n, melds_per_row, melds, forms, TileCount::Either, [&](std::size_t r, const uint8_t* c, int m) {
    out[r] = static_cast<int8_t>(limited ? shanten_limited_unchecked(c, m, forms) : shanten_unchecked(c, m, forms));
  });
}

void batch_is_winning(const uint8_t* rows, std::size_t n, const uint8_t* melds_per_row, int melds, unsigned forms,
                      uint8_t* out) {
  for_rows(rows, n, melds_per_row, melds, forms, TileCount::Complete,
           [&](std::size_t r, const uint8_t* c, int m) { out[r] = is_winning_unchecked(c, m, forms); });
}

void batch_waits(const uint8_t* rows, std::size_t n, const uint8_t* melds_per_row, int melds, unsigned forms,
                 uint8_t* out) {
  for_rows(rows, n, melds_per_row, melds, forms, TileCount::Waiting, [&](std::size_t r, const uint8_t* c, int m) {
    const uint64_t w = waits_unchecked(c, m, forms);
    uint8_t* row = out + r * kKinds;
    for (int i = 0; i < kKinds; ++i) row[i] = (w >> i) & 1;
  });
}

}  // namespace mahjong_core
