// SPDX-License-Identifier: MIT
// The checksum of the format: XXH3, 64-bit, seed 0 (xxHash's header, compiled in), with builds of
// it for AVX2 and AVX-512 (crit_checksum_avx2.cpp, crit_checksum_avx512.cpp) chosen at run time:
// hashing is a large part of loading a file, and every vector width gives the same hash.
#include <cstddef>
#include <cstdint>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "critter/core/cpu_features.h"
#include "critter/io/crit/crit_file.h"
#include "io/crit/crit_checksum.h"

namespace critter::io {

namespace detail {

static_assert(sizeof(XXH3_state_t) <= StreamingChecksum::kStateBytes &&
              alignof(XXH3_state_t) <= 64);

int checksum_isa() {
  static const int isa = cpu_has_avx512() ? 2 : cpu_has_avx2_fma() ? 1 : 0;
  return isa;
}

StreamingChecksum::StreamingChecksum() {
  auto* state = reinterpret_cast<XXH3_state_t*>(state_);
  XXH3_INITSTATE(state);
  XXH3_64bits_reset(state);
}

void StreamingChecksum::update(const void* data, std::size_t size) {
  if (size == 0) return;
  switch (checksum_isa()) {
    case 2:
      return xxh3_update_avx512(state_, data, size);
    case 1:
      return xxh3_update_avx2(state_, data, size);
    default:
      XXH3_64bits_update(reinterpret_cast<XXH3_state_t*>(state_), data, size);
  }
}

std::uint64_t StreamingChecksum::digest() const {
  return XXH3_64bits_digest(reinterpret_cast<const XXH3_state_t*>(state_));
}

}  // namespace detail

std::uint64_t crit_checksum(std::span<const std::uint8_t> bytes) {
  switch (detail::checksum_isa()) {
    case 2:
      return detail::xxh3_64_avx512(bytes.data(), bytes.size());
    case 1:
      return detail::xxh3_64_avx2(bytes.data(), bytes.size());
    default:
      return XXH3_64bits(bytes.data(), bytes.size());
  }
}

}  // namespace critter::io
