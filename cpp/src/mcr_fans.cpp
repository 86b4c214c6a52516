#include "mahjong_core/mcr_fans.h"

namespace mahjong_core {
namespace mcr {
namespace {

// u8 literals are const char[] in C++17 and char8_t[] in C++20; the table stores plain UTF-8 bytes.
template <typename Char>
constexpr const char* utf8(const Char* text) {
  return reinterpret_cast<const char*>(text);
}

#define MAHJONG_CORE_MCR_FAN_ROW(id, points, zh, en, excludes) \
  FanInfo{#id, points, utf8(zh), en, FanSet::of excludes},
const FanInfo kTable[kFanCount] = {MAHJONG_CORE_MCR_FANS(MAHJONG_CORE_MCR_FAN_ROW)};
#undef MAHJONG_CORE_MCR_FAN_ROW

}  // namespace

const FanInfo& fan_info(int fan) noexcept { return kTable[fan]; }

}  // namespace mcr
}  // namespace mahjong_core
