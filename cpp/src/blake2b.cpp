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
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

inline void mix(std::uint64_t* v, int a, int b, int c, int d, std::uint64_t x, std::uint64_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = rotr(v[d] ^ v[a], 32);
  v[c] = v[c] + v[d];
  v[b] = rotr(v[b] ^ v[c], 24);
  v[a] = v[a] + v[b] + y;
  v[d] = rotr(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = rotr(v[b] ^ v[c], 63);
}

// F: compresses one 128-byte block (counter already advanced to include it).
void compress(State& s, const std::uint8_t* block, bool last) {
  std::uint64_t m[16], v[16];
  for (int i = 0; i < 16; ++i) m[i] = load64(block + 8 * i);
  for (int i = 0; i < 8; ++i) {
    v[i] = s.h[i];
    v[i + 8] = kIV[i];
  }
  v[12] ^= s.t;  // (the counter's high word is zero)
  if (last) v[14] = ~v[14];
  for (int r = 0; r < 12; ++r) {
    const std::uint8_t* z = kSigma[r % 10];
    mix(v, 0, 4, 8, 12, m[z[0]], m[z[1]]);
    mix(v, 1, 5, 9, 13, m[z[2]], m[z[3]]);
    mix(v, 2, 6, 10, 14, m[z[4]], m[z[5]]);
    mix(v, 3, 7, 11, 15, m[z[6]], m[z[7]]);
    mix(v, 0, 5, 10, 15, m[z[8]], m[z[9]]);
    mix(v, 1, 6, 11, 12, m[z[10]], m[z[11]]);
    mix(v, 2, 7, 8, 13, m[z[12]], m[z[13]]);
    mix(v, 3, 4, 9, 14, m[z[14]], m[z[15]]);
  }
  for (int i = 0; i < 8; ++i) s.h[i] ^= v[i] ^ v[i + 8];
}

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
