// Portable bit helpers (GCC/Clang builtins, MSVC intrinsics).
#pragma once

#include <cstdint>
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

// SSE2 is part of every x86-64 target; elsewhere (or with -DMAHJONG_CORE_NO_SIMD, which the tests use
// to check the fallback) the same functions run as plain loops.
#if (defined(__SSE2__) || defined(_M_X64)) && !defined(MAHJONG_CORE_NO_SIMD)
#define MAHJONG_CORE_SSE2 1
#endif

namespace mahjong_core {

// Without a popcnt target flag compilers call a library routine for the builtin; this SWAR form
// inlines to a dozen instructions on every target.
inline int popcount64(uint64_t x) noexcept {
#if defined(__POPCNT__)
  return __builtin_popcountll(x);
#else
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<int>((x * 0x0101010101010101ull) >> 56);
#endif
}

// Index of the lowest set bit; x must be non-zero.
inline int lowest_bit64(uint64_t x) noexcept {
#if defined(_MSC_VER) && !defined(__clang__)
  unsigned long index;
  _BitScanForward64(&index, x);
  return static_cast<int>(index);
#else
  return __builtin_ctzll(x);
#endif
}

}  // namespace mahjong_core
