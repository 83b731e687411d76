// SPDX-License-Identifier: MIT
#include "core/finite_floats.h"

#include <algorithm>
#include <bit>

#include "critter/core/cpu_features.h"

namespace critter {

namespace {
constexpr std::uint32_t kInfinityBits = 0x7f800000u;
std::uint32_t magnitude(float f) {
  return std::bit_cast<std::uint32_t>(f) & 0x7fffffffu;
}

// The largest magnitude bits of v[0, n), with kCopy also copying them to `to`: the widest vector
// path the CPU has, then eight independent scalar lanes (which compilers vectorise where no
// path above ran), then the last few floats.
template <bool kCopy>
std::uint32_t largest_magnitude(const float* v, [[maybe_unused]] float* to, std::size_t n) {
  std::uint32_t most = 0;
  std::size_t i = 0;
#if defined(__x86_64__) && defined(__GNUC__)
  if constexpr (kCopy) {
    if (cpu_has_avx512())
      most = detail::copy_max_magnitude_avx512(v, to, n, i);
    else if (cpu_has_avx2_fma())
      most = detail::copy_max_magnitude_avx2(v, to, n, i);
  } else {
    if (cpu_has_avx512())
      most = detail::max_magnitude_avx512(v, n, i);
    else if (cpu_has_avx2_fma())
      most = detail::max_magnitude_avx2(v, n, i);
  }
#endif
  std::uint32_t lanes[8] = {};
  for (; i + 8 <= n; i += 8) {
    for (std::size_t k = 0; k < 8; ++k) {
      if constexpr (kCopy) to[i + k] = v[i + k];
      lanes[k] = std::max(lanes[k], magnitude(v[i + k]));
    }
  }
  for (const std::uint32_t lane : lanes) most = std::max(most, lane);
  for (; i < n; ++i) {
    if constexpr (kCopy) to[i] = v[i];
    most = std::max(most, magnitude(v[i]));
  }
  return most;
}

}  // namespace

bool all_finite_floats(std::span<const float> values) {
  return largest_magnitude<false>(values.data(), nullptr, values.size()) < kInfinityBits;
}

bool copy_finite_floats(std::span<const float> from, float* to) {
  return largest_magnitude<true>(from.data(), to, from.size()) < kInfinityBits;
}

bool all_finite_float_words(const std::uint16_t* words, std::size_t count) {
  unsigned non_finite = 0;  // branch-free, so that it vectorises
  for (std::size_t i = 0; i < count; ++i)
    non_finite |= (words[2 * i + 1] & 0x7f80u) == 0x7f80u ? 1u : 0u;
  return non_finite == 0;
}

std::size_t first_non_finite(std::span<const float> values) {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (magnitude(values[i]) >= kInfinityBits) return i;
  return values.size();
}

}  // namespace critter
