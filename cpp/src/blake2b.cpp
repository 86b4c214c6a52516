// BLAKE2b as specified by RFC 7693 (see blake2b.h for what it is used for).
#include "mahjong_core/blake2b.h"

#include <cstring>
#include <string>

#include "mahjong_core/errors.h"

namespace mahjong_core {
namespace {

constexpr std::uint64_t kIV[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

constexpr std::uint8_t kSigma[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

constexpr std::size_t kBlockBytes = 128;

struct State {
  std::uint64_t h[8];
  std::uint64_t t;  // bytes compressed so far (messages here stay far below 2^64 bytes)
};

inline std::uint64_t rotr(std::uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

inline std::uint64_t load64(const std::uint8_t* p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);  // one load: the words are little-endian, as the host's
  return v;
#else
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
#endif
}

// G, the mixing function, on four state words held in locals.
#define MAHJONG_CORE_B2B_G(a, b, c, d, x, y) \
  do {                                      \
    a = a + b + (x);                        \
    d = rotr(d ^ a, 32);                    \
    c = c + d;                              \
    b = rotr(b ^ c, 24);                    \
    a = a + b + (y);                        \
    d = rotr(d ^ a, 16);                    \
    c = c + d;                              \
    b = rotr(b ^ c, 63);                    \
  } while (0)

// One round: the columns, then the diagonals, with the message words of kSigma[r] (a constant
// row, so every m[...] below is a fixed register or stack slot).
#define MAHJONG_CORE_B2B_ROUND(r)                                                      \
  do {                                                                                 \
    MAHJONG_CORE_B2B_G(v0, v4, v8, v12, m[kSigma[r][0]], m[kSigma[r][1]]);              \
    MAHJONG_CORE_B2B_G(v1, v5, v9, v13, m[kSigma[r][2]], m[kSigma[r][3]]);              \
    MAHJONG_CORE_B2B_G(v2, v6, v10, v14, m[kSigma[r][4]], m[kSigma[r][5]]);             \
    MAHJONG_CORE_B2B_G(v3, v7, v11, v15, m[kSigma[r][6]], m[kSigma[r][7]]);             \
    MAHJONG_CORE_B2B_G(v0, v5, v10, v15, m[kSigma[r][8]], m[kSigma[r][9]]);             \
    MAHJONG_CORE_B2B_G(v1, v6, v11, v12, m[kSigma[r][10]], m[kSigma[r][11]]);           \
    MAHJONG_CORE_B2B_G(v2, v7, v8, v13, m[kSigma[r][12]], m[kSigma[r][13]]);            \
    MAHJONG_CORE_B2B_G(v3, v4, v9, v14, m[kSigma[r][14]], m[kSigma[r][15]]);            \
  } while (0)

// F: compresses one 128-byte block (counter already advanced to include it). Hot path (every
// seeded wall: five to six blocks a hand): the twelve rounds are written out on sixteen locals,
// so the state stays in registers and the message schedule is constant — under half the
// instructions of the loop over an array it replaced (RFC 7693's test vectors and hashlib's
// digests check it: cpp/tests, tests/test_wall_shuffle.py).
void compress(State& s, const std::uint8_t* block, bool last) {
  std::uint64_t m[16];
  for (int i = 0; i < 16; ++i) m[i] = load64(block + 8 * i);
  std::uint64_t v0 = s.h[0], v1 = s.h[1], v2 = s.h[2], v3 = s.h[3], v4 = s.h[4], v5 = s.h[5], v6 = s.h[6],
                v7 = s.h[7];
  std::uint64_t v8 = kIV[0], v9 = kIV[1], v10 = kIV[2], v11 = kIV[3], v12 = kIV[4] ^ s.t, v13 = kIV[5],
                v14 = last ? ~kIV[6] : kIV[6], v15 = kIV[7];  // (the counter's high word is zero)
  MAHJONG_CORE_B2B_ROUND(0);
  MAHJONG_CORE_B2B_ROUND(1);
  MAHJONG_CORE_B2B_ROUND(2);
  MAHJONG_CORE_B2B_ROUND(3);
  MAHJONG_CORE_B2B_ROUND(4);
  MAHJONG_CORE_B2B_ROUND(5);
  MAHJONG_CORE_B2B_ROUND(6);
  MAHJONG_CORE_B2B_ROUND(7);
  MAHJONG_CORE_B2B_ROUND(8);
  MAHJONG_CORE_B2B_ROUND(9);
  MAHJONG_CORE_B2B_ROUND(0);  // rounds 10 and 11 reuse the first two rows of kSigma
  MAHJONG_CORE_B2B_ROUND(1);
  s.h[0] ^= v0 ^ v8;
  s.h[1] ^= v1 ^ v9;
  s.h[2] ^= v2 ^ v10;
  s.h[3] ^= v3 ^ v11;
  s.h[4] ^= v4 ^ v12;
  s.h[5] ^= v5 ^ v13;
  s.h[6] ^= v6 ^ v14;
  s.h[7] ^= v7 ^ v15;
}

#undef MAHJONG_CORE_B2B_ROUND
#undef MAHJONG_CORE_B2B_G

void check(std::size_t key_len, std::size_t salt_len, std::size_t person_len, std::size_t digest_size) {
  if (key_len > kBlake2bMaxKey || salt_len > kBlake2bSaltBytes || person_len > kBlake2bSaltBytes ||
      digest_size < 1 || digest_size > kBlake2bMaxDigest) {
    throw InvalidArgument("blake2b: key <= 64 bytes, salt and person <= 16 bytes, digest 1..64 bytes; got key " +
                          std::to_string(key_len) + ", salt " + std::to_string(salt_len) + ", person " +
                          std::to_string(person_len) + ", digest " + std::to_string(digest_size));
  }
}

// The parameter block (fanout 1, depth 1, the key length, the digest size, salt, personalisation).
State init(std::size_t key_len, const std::uint8_t* salt, std::size_t salt_len, const std::uint8_t* person,
           std::size_t person_len, std::size_t digest_size) {
  State s{};
  for (int i = 0; i < 8; ++i) s.h[i] = kIV[i];
  s.h[0] ^= 0x01010000ULL ^ (static_cast<std::uint64_t>(key_len) << 8) ^ digest_size;
  std::uint8_t padded[16] = {0};
  if (salt_len) std::memcpy(padded, salt, salt_len);
  s.h[4] ^= load64(padded);
  s.h[5] ^= load64(padded + 8);
  std::memset(padded, 0, sizeof padded);
  if (person_len) std::memcpy(padded, person, person_len);
  s.h[6] ^= load64(padded);
  s.h[7] ^= load64(padded + 8);
  s.t = 0;
  return s;
}

// Hashes `len` message bytes after the state's blocks so far (the key block, if any): every full
// block but the last, then the last (possibly partial, zero-padded) block as final.
void finish(State& s, const std::uint8_t* msg, std::size_t len, std::size_t digest_size, std::uint8_t* out) {
  while (len > kBlockBytes) {
    s.t += kBlockBytes;
    compress(s, msg, false);
    msg += kBlockBytes;
    len -= kBlockBytes;
  }
  std::uint8_t block[kBlockBytes] = {0};
  if (len) std::memcpy(block, msg, len);
  s.t += len;
  compress(s, block, true);
  for (std::size_t i = 0; i < digest_size; ++i) out[i] = static_cast<std::uint8_t>(s.h[i / 8] >> (8 * (i % 8)));
}

}  // namespace

void blake2b(const std::uint8_t* msg, std::size_t len, const std::uint8_t* key, std::size_t key_len,
             const std::uint8_t* salt, std::size_t salt_len, const std::uint8_t* person, std::size_t person_len,
             std::size_t digest_size, std::uint8_t* out) {
  check(key_len, salt_len, person_len, digest_size);
  State s = init(key_len, salt, salt_len, person, person_len, digest_size);
  if (key_len) {
    std::uint8_t block[kBlockBytes] = {0};
    std::memcpy(block, key, key_len);
    if (len == 0) {  // the key block is the only one
      s.t = kBlockBytes;
      compress(s, block, true);
      for (std::size_t i = 0; i < digest_size; ++i) out[i] = static_cast<std::uint8_t>(s.h[i / 8] >> (8 * (i % 8)));
      return;
    }
    s.t = kBlockBytes;
    compress(s, block, false);
  }
  finish(s, msg, len, digest_size, out);
}

void blake2b_counter_stream(const std::uint8_t* key, std::size_t key_len, const std::uint8_t* salt,
                            std::size_t salt_len, const std::uint8_t* person, std::size_t person_len,
                            std::uint64_t first_block, std::size_t blocks, std::uint8_t* out) {
  check(key_len, salt_len, person_len, kBlake2bMaxDigest);
  if (key_len == 0) throw InvalidArgument("blake2b_counter_stream: the stream is keyed (key of 1..64 bytes)");
  State keyed = init(key_len, salt, salt_len, person, person_len, kBlake2bMaxDigest);
  std::uint8_t block[kBlockBytes] = {0};
  std::memcpy(block, key, key_len);
  keyed.t = kBlockBytes;
  compress(keyed, block, false);
  for (std::size_t b = 0; b < blocks; ++b) {
    std::uint8_t counter[8];
    const std::uint64_t n = first_block + b;
    for (int i = 0; i < 8; ++i) counter[i] = static_cast<std::uint8_t>(n >> (8 * i));
    State s = keyed;
    finish(s, counter, sizeof counter, kBlake2bMaxDigest, out + kBlake2bMaxDigest * b);
  }
}

}  // namespace mahjong_core
