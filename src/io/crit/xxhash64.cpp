// SPDX-License-Identifier: MIT
// XXH64, written from its public specification: four 64-bit lanes over 32-byte stripes, then the
// tail and a final avalanche.
#include <bit>
#include <cstring>

#include "critter/io/crit/crit_file.h"

namespace critter::io {

namespace {

constexpr std::uint64_t kP1 = 0x9E3779B185EBCA87ull;
constexpr std::uint64_t kP2 = 0xC2B2AE3D27D4EB4Full;
constexpr std::uint64_t kP3 = 0x165667B19E3779F9ull;
constexpr std::uint64_t kP4 = 0x85EBCA77C2B2AE63ull;
constexpr std::uint64_t kP5 = 0x27D4EB2F165667C5ull;

std::uint64_t read64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

std::uint32_t read32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

std::uint64_t round(std::uint64_t acc, std::uint64_t input) {
  acc += input * kP2;
  acc = std::rotl(acc, 31);
  return acc * kP1;
}

std::uint64_t merge(std::uint64_t acc, std::uint64_t v) {
  acc ^= round(0, v);
  return acc * kP1 + kP4;
}

}  // namespace

std::uint64_t xxhash64(std::span<const std::uint8_t> bytes, std::uint64_t seed) {
  const std::uint8_t* p = bytes.data();
  const std::uint8_t* end = p + bytes.size();
  std::uint64_t h;
  if (bytes.size() >= 32) {
    std::uint64_t v1 = seed + kP1 + kP2, v2 = seed + kP2, v3 = seed, v4 = seed - kP1;
    const std::uint8_t* limit = end - 32;
    do {
      v1 = round(v1, read64(p));
      v2 = round(v2, read64(p + 8));
      v3 = round(v3, read64(p + 16));
      v4 = round(v4, read64(p + 24));
      p += 32;
    } while (p <= limit);
    h = std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
    h = merge(h, v1);
    h = merge(h, v2);
    h = merge(h, v3);
    h = merge(h, v4);
  } else {
    h = seed + kP5;
  }
  h += bytes.size();
  // Remaining sizes rather than p + n <= end: p and end are null for empty input, and pointer
  // arithmetic on null is undefined.
  for (; end - p >= 8; p += 8) {
    h ^= round(0, read64(p));
    h = std::rotl(h, 27) * kP1 + kP4;
  }
  if (end - p >= 4) {
    h ^= std::uint64_t{read32(p)} * kP1;
    h = std::rotl(h, 23) * kP2 + kP3;
    p += 4;
  }
  for (; end - p > 0; ++p) {
    h ^= std::uint64_t{*p} * kP5;
    h = std::rotl(h, 11) * kP1;
  }
  h ^= h >> 33;
  h *= kP2;
  h ^= h >> 29;
  h *= kP3;
  h ^= h >> 32;
  return h;
}

}  // namespace critter::io
