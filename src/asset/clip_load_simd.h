// SPDX-License-Identifier: MIT
// Internal: the vector path of building a clip from its arrays (clip.cpp), which every baked
// clip runs as it loads; the caller picks it at run time (cpu_features.h) and does what it
// leaves with its own code. (The finite-key check is core/finite_floats.h.)
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
#endif

}  // namespace critter::detail
