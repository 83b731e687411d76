// SPDX-License-Identifier: MIT
// Internal: the vector paths of building a clip or a compact clip from its arrays (clip.cpp,
// compact_clip.cpp), which every baked clip runs as it loads; the caller picks one at run time
// (cpu_features.h) and does what it leaves with its own code. (The finite-key check is
// core/finite_floats.h.)
#pragma once

#include <cstddef>
#include <cstdint>

namespace critter::detail {

#if defined(__x86_64__) && defined(__GNUC__)
// A LINEAR batch's interleaved keys (Clip::batch_values): for key k < keys, component c <
// components (3 or 4) and lane l < 4, out[(k · components + c) · 4 + l] = lanes[l][k ·
// components + c]. Writes whole groups of four keys and returns how many keys it wrote (keys
// rounded down to a multiple of 4); reads no float past each lane's `keys` keys. Needs
// cpu_has_avx512.
std::uint32_t interleave_keys_avx512(const float* const (&lanes)[4], std::uint32_t keys,
                                     std::uint32_t components, float* out);

// How many k in [1, n) have frames[k] <= frames[k - 1] (unsigned), counted over whole vectors of
// frames; `done` is set to the first k it did not look at, which the caller counts on. Reads
// frames[0, n). The first needs cpu_has_avx512, the second cpu_has_avx2_fma.
std::size_t count_not_increasing_avx512(const std::uint16_t* frames, std::size_t n,
                                        std::size_t& done);
std::size_t count_not_increasing_avx2(const std::uint16_t* frames, std::size_t n,
                                      std::size_t& done);
#endif

}  // namespace critter::detail
