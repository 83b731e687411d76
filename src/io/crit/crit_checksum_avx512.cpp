// SPDX-License-Identifier: MIT
// XXH3 built for AVX-512 (see crit_checksum.cpp). The C headers xxHash uses are included before the
// target switch, so that no inline function of theirs is compiled for AVX-512 and picked by the
// linker for the rest of the program; xxHash's own functions are static here (XXH_INLINE_ALL).
// GCC 12 warns about its own AVX-512 intrinsics inlined into xxHash (an undefined-vector idiom
// they use on purpose), so that warning is off in this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "io/crit/crit_checksum.h"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f")
#endif

#define XXH_INLINE_ALL
#define XXH_VECTOR XXH_AVX512
#include <xxhash.h>

namespace critter::io::detail {

std::uint64_t xxh3_64_avx512(const void* data, std::size_t size) {
  return XXH3_64bits(data, size);
}

void xxh3_update_avx512(void* state, const void* data, std::size_t size) {
  XXH3_64bits_update(static_cast<XXH3_state_t*>(state), data, size);
}

}  // namespace critter::io::detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
