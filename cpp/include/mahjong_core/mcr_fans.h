// The MCR (Chinese Official, 国标) fan table: the one place that lists every fan.
//
// Each row: id (pinyin, as in the golden data's FAN_<ID> names), points, Chinese name, English
// name, and the fans it makes redundant (the rule book's 不计 lists, written out in full: a fan
// that is itself excluded excludes nothing further, e.g. 九莲宝灯 drops 不求人 but keeps 自摸).
// Rows are ordered by points, highest first; exclusions are applied in this order.
//
// Count-type exclusions ("not the 幺九刻 of these pungs") are not in this table: the predicates
// only count 幺九刻 for pungs no wind/dragon fan used, and 九莲宝灯 removes one (see mcr.cpp).
//
// Besides the 81 fans of the rule book (80 patterns + 花牌) the table has two optional ones:
// MINGANGANG (明暗杠, 5, MIL's rules: one melded + one concealed kong; Rules key
// mil_concealed_melded_kong) and TINGPAI (听牌, 1, the declared-ready fan of seed 000's client;
// Rules key declared_ready_fan).
#pragma once

#include <cstdint>

namespace mahjong_core {
namespace mcr {

// clang-format off
#define MAHJONG_CORE_MCR_FANS(X) \
  /* 88 */ \
  X(DASIXI, 88, u8"大四喜", "Big Four Winds", (SANFENGKE, PENGPENGHU, QUANFENGKE, MENFENGKE, YAOJIUKE)) \
  X(DASANYUAN, 88, u8"大三元", "Big Three Dragons", (SHUANGJIANKE, JIANKE)) \
  X(LVYISE, 88, u8"绿一色", "All Green", (HUNYISE)) \
  X(JIULIANBAODENG, 88, u8"九莲宝灯", "Nine Gates", (QINGYISE, MENQIANQING, BUQIUREN, WUZI, QUEYIMEN)) \
  X(SIGANG, 88, u8"四杠", "Four Kongs", \
    (SANGANG, SHUANGMINGGANG, SHUANGANGANG, MINGANGANG, MINGGANG, ANGANG, DANDIAOJIANG, PENGPENGHU)) \
  X(LIANQIDUI, 88, u8"连七对", "Seven Shifted Pairs", \
    (QIDUI, QINGYISE, BUQIUREN, MENQIANQING, DANDIAOJIANG, WUZI, QUEYIMEN)) \
  X(SHISANYAO, 88, u8"十三幺", "Thirteen Orphans", (WUMENQI, BUQIUREN, MENQIANQING, DANDIAOJIANG, HUNYAOJIU)) \
  /* 64 */ \
  X(QINGYAOJIU, 64, u8"清幺九", "All Terminals", \
    (PENGPENGHU, SHUANGTONGKE, YAOJIUKE, WUZI, QUANDAIYAO, HUNYAOJIU)) \
  X(XIAOSIXI, 64, u8"小四喜", "Little Four Winds", (SANFENGKE)) \
  X(XIAOSANYUAN, 64, u8"小三元", "Little Three Dragons", (SHUANGJIANKE, JIANKE)) \
  X(ZIYISE, 64, u8"字一色", "All Honors", (PENGPENGHU, QUANDAIYAO, YAOJIUKE, HUNYAOJIU)) \
  X(SIANKE, 64, u8"四暗刻", "Four Concealed Pungs", (MENQIANQING, BUQIUREN, PENGPENGHU, SANANKE, SHUANGANKE)) \
  X(YISESHUANGLONGHUI, 64, u8"一色双龙会", "Pure Terminal Chows", \
    (PINGHU, QIDUI, QINGYISE, YIBANGAO, LAOSHAOFU, WUZI, QUEYIMEN)) \
  /* 48 */ \
  X(YISESITONGSHUN, 48, u8"一色四同顺", "Quadruple Chow", \
    (YISESANTONGSHUN, YISESANJIEGAO, YIBANGAO, SIGUIYI, QIDUI)) \
  X(YISESIJIEGAO, 48, u8"一色四节高", "Four Pure Shifted Pungs", (YISESANTONGSHUN, YISESANJIEGAO, PENGPENGHU)) \
  /* 32 */ \
  X(YISESIBUGAO, 32, u8"一色四步高", "Four Pure Shifted Chows", (YISESANBUGAO)) \
  X(SANGANG, 32, u8"三杠", "Three Kongs", (SHUANGMINGGANG, SHUANGANGANG, MINGANGANG, MINGGANG, ANGANG)) \
  X(HUNYAOJIU, 32, u8"混幺九", "All Terminals and Honors", (PENGPENGHU, YAOJIUKE, QUANDAIYAO)) \
  /* 24 */ \
  X(QIDUI, 24, u8"七对", "Seven Pairs", (BUQIUREN, MENQIANQING, DANDIAOJIANG)) \
  X(QIXINGBUKAO, 24, u8"七星不靠", "Greater Honors and Knitted Tiles", \
    (WUMENQI, BUQIUREN, MENQIANQING, DANDIAOJIANG, QUANBUKAO)) \
  X(QUANSHUANGKE, 24, u8"全双刻", "All Even Pungs", (PENGPENGHU, DUANYAO, WUZI)) \
  X(QINGYISE, 24, u8"清一色", "Full Flush", (WUZI, QUEYIMEN)) \
  X(YISESANTONGSHUN, 24, u8"一色三同顺", "Pure Triple Chow", (YISESANJIEGAO, YIBANGAO)) \
  X(YISESANJIEGAO, 24, u8"一色三节高", "Pure Shifted Pungs", (YISESANTONGSHUN)) \
  X(QUANDA, 24, u8"全大", "Upper Tiles", (WUZI, DAYUWU)) \
  X(QUANZHONG, 24, u8"全中", "Middle Tiles", (DUANYAO, WUZI)) \
  X(QUANXIAO, 24, u8"全小", "Lower Tiles", (WUZI, XIAOYUWU)) \
  /* 16 */ \
  X(QINGLONG, 16, u8"清龙", "Pure Straight", (LIANLIU, LAOSHAOFU)) \
  X(SANSESHUANGLONGHUI, 16, u8"三色双龙会", "Three-Suited Terminal Chows", (XIXIANGFENG, LAOSHAOFU, WUZI, PINGHU)) \
  X(YISESANBUGAO, 16, u8"一色三步高", "Pure Shifted Chows", ()) \
  X(QUANDAIWU, 16, u8"全带五", "All Fives", (DUANYAO, WUZI)) \
  X(SANTONGKE, 16, u8"三同刻", "Triple Pung", (SHUANGTONGKE)) \
  X(SANANKE, 16, u8"三暗刻", "Three Concealed Pungs", (SHUANGANKE)) \
  /* 12 */ \
  X(QUANBUKAO, 12, u8"全不靠", "Lesser Honors and Knitted Tiles", (WUMENQI, BUQIUREN, MENQIANQING, DANDIAOJIANG)) \
  X(ZUHELONG, 12, u8"组合龙", "Knitted Straight", ()) \
  X(DAYUWU, 12, u8"大于五", "Upper Four", (WUZI)) \
  X(XIAOYUWU, 12, u8"小于五", "Lower Four", (WUZI)) \
  X(SANFENGKE, 12, u8"三风刻", "Big Three Winds", ()) \
  /* 8 */ \
  X(HUALONG, 8, u8"花龙", "Mixed Straight", ()) \
  X(TUIBUDAO, 8, u8"推不倒", "Reversible Tiles", (QUEYIMEN)) \
  X(SANSESANTONGSHUN, 8, u8"三色三同顺", "Mixed Triple Chow", (XIXIANGFENG)) \
  X(SANSESANJIEGAO, 8, u8"三色三节高", "Mixed Shifted Pungs", ()) \
  X(WUFANHU, 8, u8"无番和", "Chicken Hand", ()) \
  X(MIAOSHOUHUICHUN, 8, u8"妙手回春", "Last Tile Draw", (ZIMO)) \
  X(HAIDILAOYUE, 8, u8"海底捞月", "Last Tile Claim", ()) \
  X(GANGSHANGKAIHUA, 8, u8"杠上开花", "Out with Replacement Tile", (ZIMO)) \
  X(QIANGGANGHU, 8, u8"抢杠和", "Robbing the Kong", (HUJUEZHANG)) \
  /* 6 */ \
  X(PENGPENGHU, 6, u8"碰碰和", "All Pungs", ()) \
  X(HUNYISE, 6, u8"混一色", "Half Flush", ()) \
  X(SANSESANBUGAO, 6, u8"三色三步高", "Mixed Shifted Chows", ()) \
  X(WUMENQI, 6, u8"五门齐", "All Types", ()) \
  X(QUANQIUREN, 6, u8"全求人", "Melded Hand", (DANDIAOJIANG)) \
  X(SHUANGANGANG, 6, u8"双暗杠", "Two Concealed Kongs", (ANGANG, SHUANGANKE)) \
  X(SHUANGJIANKE, 6, u8"双箭刻", "Two Dragon Pungs", (JIANKE)) \
  /* 5 (MIL) */ \
  X(MINGANGANG, 5, u8"明暗杠", "Concealed Kong and Melded Kong", (MINGGANG, ANGANG)) \
  /* 4 */ \
  X(QUANDAIYAO, 4, u8"全带幺", "Outside Hand", ()) \
  X(BUQIUREN, 4, u8"不求人", "Fully Concealed Hand", (MENQIANQING, ZIMO)) \
  X(SHUANGMINGGANG, 4, u8"双明杠", "Two Melded Kongs", (MINGGANG)) \
  X(HUJUEZHANG, 4, u8"和绝张", "Last Tile", ()) \
  /* 2 */ \
  X(JIANKE, 2, u8"箭刻", "Dragon Pung", ()) \
  X(QUANFENGKE, 2, u8"圈风刻", "Prevalent Wind", ()) \
  X(MENFENGKE, 2, u8"门风刻", "Seat Wind", ()) \
  X(MENQIANQING, 2, u8"门前清", "Concealed Hand", ()) \
  X(PINGHU, 2, u8"平和", "All Chows", (WUZI)) \
  X(SIGUIYI, 2, u8"四归一", "Tile Hog", ()) \
  X(SHUANGTONGKE, 2, u8"双同刻", "Double Pung", ()) \
  X(SHUANGANKE, 2, u8"双暗刻", "Two Concealed Pungs", ()) \
  X(ANGANG, 2, u8"暗杠", "Concealed Kong", ()) \
  X(DUANYAO, 2, u8"断幺", "All Simples", (WUZI)) \
  /* 1 */ \
  X(YIBANGAO, 1, u8"一般高", "Pure Double Chow", ()) \
  X(XIXIANGFENG, 1, u8"喜相逢", "Mixed Double Chow", ()) \
  X(LIANLIU, 1, u8"连六", "Short Straight", ()) \
  X(LAOSHAOFU, 1, u8"老少副", "Two Terminal Chows", ()) \
  X(YAOJIUKE, 1, u8"幺九刻", "Pung of Terminals or Honors", ()) \
  X(MINGGANG, 1, u8"明杠", "Melded Kong", ()) \
  X(QUEYIMEN, 1, u8"缺一门", "One Voided Suit", ()) \
  X(WUZI, 1, u8"无字", "No Honors", ()) \
  X(BIANZHANG, 1, u8"边张", "Edge Wait", ()) \
  X(KANZHANG, 1, u8"嵌张", "Closed Wait", ()) \
  X(DANDIAOJIANG, 1, u8"单钓将", "Single Wait", ()) \
  X(ZIMO, 1, u8"自摸", "Self-Drawn", ()) \
  X(HUAPAI, 1, u8"花牌", "Flower Tiles", ()) \
  X(TINGPAI, 1, u8"听牌", "Declared Ready", ())
// clang-format on

enum Fan : uint8_t {
#define MAHJONG_CORE_MCR_FAN_ENUM(id, points, zh, en, excludes) id,
  MAHJONG_CORE_MCR_FANS(MAHJONG_CORE_MCR_FAN_ENUM)
#undef MAHJONG_CORE_MCR_FAN_ENUM
      kFanCount
};
static_assert(kFanCount <= 128, "FanSet holds 128 fans");

// A set of fans as a 128-bit mask.
struct FanSet {
  uint64_t lo = 0, hi = 0;

  constexpr bool has(int fan) const { return fan < 64 ? (lo >> fan) & 1 : (hi >> (fan - 64)) & 1; }
  constexpr void add(int fan) {
    if (fan < 64) lo |= 1ull << fan;
    else hi |= 1ull << (fan - 64);
  }
  constexpr void remove(const FanSet& other) {
    lo &= ~other.lo;
    hi &= ~other.hi;
  }
  constexpr bool empty() const { return (lo | hi) == 0; }
  template <typename... Fans>
  static constexpr FanSet of(Fans... fans) {
    FanSet s;
    (s.add(fans), ...);
    return s;
  }
};

struct FanInfo {
  const char* id;       // pinyin id, e.g. "DASIXI"
  int points;           // 88 ... 1
  const char* name_zh;  // UTF-8 (u8 literals are const char[] in C++17; MSVC needs /utf-8 to read them)
  const char* name_en;
  FanSet excludes;
};

// The table itself, expanded from the list above.
#define MAHJONG_CORE_MCR_FAN_ROW(id, points, zh, en, excludes) FanInfo{#id, points, zh, en, FanSet::of excludes},
inline constexpr FanInfo kFanTable[kFanCount] = {MAHJONG_CORE_MCR_FANS(MAHJONG_CORE_MCR_FAN_ROW)};
#undef MAHJONG_CORE_MCR_FAN_ROW

// The table row of `fan` (0 <= fan < kFanCount).
inline const FanInfo& fan_info(int fan) noexcept { return kFanTable[fan]; }
inline int fan_count() noexcept { return kFanCount; }

}  // namespace mcr
}  // namespace mahjong_core
