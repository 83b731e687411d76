// SPDX-License-Identifier: MIT
// Internal: the vector paths of a clip's finite-key check (clip.cpp), chosen at run time. Each
// returns the largest magnitude bits (sign cleared) of v[0, done) and sets `done` to the floats
// it covered, a multiple of its vector width; the caller checks the rest. A float is finite when
// its magnitude bits are below those of infinity (0x7f800000).
#pragma once

#include <cstddef>
#include <cstdint>

namespace critter::detail {

#if defined(__x86_64__) && defined(__GNUC__)
// Requires a CPU with AVX-512 F (cpu_has_avx512).
std::uint32_t max_magnitude_avx512(const float* v, std::size_t n, std::size_t& done);
// Requires a CPU with AVX2 (cpu_has_avx2_fma).
std::uint32_t max_magnitude_avx2(const float* v, std::size_t n, std::size_t& done);
#endif

}  // namespace critter::detail
