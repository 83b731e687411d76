// SPDX-License-Identifier: MIT
// Internal: the vector paths of building a clip from its arrays (clip.cpp), which every baked
// clip runs as it loads; the caller picks them at run time (cpu_features.h) and does what they
// leave with its own code.
#pragma once

#include <cstddef>
#include <cstdint>

namespace critter::detail {

#if defined(__x86_64__) && defined(__GNUC__)
// The finite-key check: the largest magnitude bits (sign cleared) of v[0, done); sets `done` to
// the floats covered, a multiple of the vector width. A float is finite when its magnitude bits
// are below those of infinity (0x7f800000). AVX-512 needs cpu_has_avx512, AVX2
// cpu_has_avx2_fma.
std::uint32_t max_magnitude_avx512(const float* v, std::size_t n, std::size_t& done);
std::uint32_t max_magnitude_avx2(const float* v, std::size_t n, std::size_t& done);

// A LINEAR batch's interleaved keys (Clip::batch_values): for key k < keys, component c <
// components (3 or 4) and lane l < 4, out[(k · components + c) · 4 + l] = lanes[l][k ·
// components + c]. Writes whole groups of four keys and returns how many keys it wrote (keys
// rounded down to a multiple of 4); reads no float past each lane's `keys` keys. Needs
// cpu_has_avx512.
std::uint32_t interleave_keys_avx512(const float* const (&lanes)[4], std::uint32_t keys,
                                     std::uint32_t components, float* out);
#endif

}  // namespace critter::detail
