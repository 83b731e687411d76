// SPDX-License-Identifier: MIT
// XXH3 built for AVX2 (see crit_checksum.cpp). The C headers xxHash uses are included before the
// target switch, so that no inline function of theirs is compiled for AVX2 and picked by the
// linker for the rest of the program; xxHash's own functions are static here (XXH_INLINE_ALL).
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "io/crit/crit_checksum.h"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

#define XXH_INLINE_ALL
#define XXH_VECTOR XXH_AVX2
#include <xxhash.h>

namespace critter::io::detail {

std::uint64_t xxh3_64_avx2(const void* data, std::size_t size) {
  return XXH3_64bits(data, size);
}

void xxh3_update_avx2(void* state, const void* data, std::size_t size) {
  XXH3_64bits_update(static_cast<XXH3_state_t*>(state), data, size);
}

}  // namespace critter::io::detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
