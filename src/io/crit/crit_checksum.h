// SPDX-License-Identifier: MIT
// Internal: the .crit checksum (XXH3, 64-bit, seed 0) fed in pieces, so that a reader can hash
// each part of a file just before it copies it, while the bytes are in cache; and the builds of
// XXH3 for AVX2 and AVX-512 it picks from at run time (only call those on a CPU that has them).
#pragma once

#include <cstddef>
#include <cstdint>

namespace critter::io::detail {

class StreamingChecksum {
 public:
  StreamingChecksum();
  // Adds `size` bytes; the digest equals crit_checksum() of everything added, in order.
  void update(const void* data, std::size_t size);
  std::uint64_t digest() const;

  // xxHash's state (XXH3_state_t), checked against this size where it is used.
  static constexpr std::size_t kStateBytes = 640;

 private:
  alignas(64) unsigned char state_[kStateBytes];
};

// The instruction set the checksum uses on this CPU: 0 SSE2, 1 AVX2, 2 AVX-512.
int checksum_isa();

std::uint64_t xxh3_64_avx2(const void* data, std::size_t size);
void xxh3_update_avx2(void* state, const void* data, std::size_t size);
std::uint64_t xxh3_64_avx512(const void* data, std::size_t size);
void xxh3_update_avx512(void* state, const void* data, std::size_t size);

}  // namespace critter::io::detail
