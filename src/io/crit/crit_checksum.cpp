// SPDX-License-Identifier: MIT
// The checksum of the format: XXH3, 64-bit, seed 0 (xxHash's header, compiled in), with an AVX2
// build of it (crit_checksum_avx2.cpp) chosen at run time where the CPU has AVX2: hashing is a
// large part of loading a file, and the vector widths give the same hash.
#include <cstddef>
#include <cstdint>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "critter/io/crit/crit_file.h"
#include "io/crit/crit_checksum_avx2.h"

namespace critter::io {

std::uint64_t crit_checksum(std::span<const std::uint8_t> bytes) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return detail::xxh3_64_avx2(bytes.data(), bytes.size());
  return XXH3_64bits(bytes.data(), bytes.size());
}

}  // namespace critter::io
