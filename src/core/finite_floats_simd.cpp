// SPDX-License-Identifier: MIT
// The vector paths of finite_floats.h. Each function carries its own target attribute and this
// file includes no library header but its own, so no inline function compiled for those
// instruction sets reaches the rest of the program.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "core/finite_floats.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

namespace critter::detail {

namespace {

template <std::size_t N>
std::uint32_t largest(const std::uint32_t (&lanes)[N]) {
  std::uint32_t most = lanes[0];
  for (const std::uint32_t lane : lanes) most = lane > most ? lane : most;
  return most;
}

}  // namespace

// The largest magnitude bits of v[0, done), two independent maxima per step reduced at the end;
// with kCopy each vector is also stored to `out` as it is read (the loader's one pass).
template <bool kCopy>
__attribute__((target("avx512f"))) std::uint32_t magnitudes_avx512(const float* v, float* out,
                                                                   std::size_t n,
                                                                   std::size_t& done) {
  const __m512i magnitude = _mm512_set1_epi32(0x7fffffff);
  __m512i m0 = _mm512_setzero_si512(), m1 = _mm512_setzero_si512();
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m512i a = _mm512_loadu_si512(v + i), b = _mm512_loadu_si512(v + i + 16);
    if constexpr (kCopy) {
      _mm512_storeu_si512(out + i, a);
      _mm512_storeu_si512(out + i + 16, b);
    }
    m0 = _mm512_max_epu32(m0, _mm512_and_si512(a, magnitude));
    m1 = _mm512_max_epu32(m1, _mm512_and_si512(b, magnitude));
  }
  done = i;
  return _mm512_reduce_max_epu32(_mm512_max_epu32(m0, m1));
}

template <bool kCopy>
__attribute__((target("avx2"))) std::uint32_t magnitudes_avx2(const float* v, float* out,
                                                              std::size_t n, std::size_t& done) {
  const __m256i magnitude = _mm256_set1_epi32(0x7fffffff);
  __m256i m0 = _mm256_setzero_si256(), m1 = _mm256_setzero_si256();
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const auto* p = reinterpret_cast<const __m256i*>(v + i);
    const __m256i a = _mm256_loadu_si256(p), b = _mm256_loadu_si256(p + 1);
    if constexpr (kCopy) {
      auto* o = reinterpret_cast<__m256i*>(out + i);
      _mm256_storeu_si256(o, a);
      _mm256_storeu_si256(o + 1, b);
    }
    m0 = _mm256_max_epu32(m0, _mm256_and_si256(a, magnitude));
    m1 = _mm256_max_epu32(m1, _mm256_and_si256(b, magnitude));
  }
  done = i;
  alignas(32) std::uint32_t lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), _mm256_max_epu32(m0, m1));
  return largest(lanes);
}

__attribute__((target("avx512f"))) std::uint32_t max_magnitude_avx512(const float* v, std::size_t n,
                                                                      std::size_t& done) {
  return magnitudes_avx512<false>(v, nullptr, n, done);
}
__attribute__((target("avx2"))) std::uint32_t max_magnitude_avx2(const float* v, std::size_t n,
                                                                 std::size_t& done) {
  return magnitudes_avx2<false>(v, nullptr, n, done);
}
__attribute__((target("avx512f"))) std::uint32_t copy_max_magnitude_avx512(const float* v,
                                                                           float* out,
                                                                           std::size_t n,
                                                                           std::size_t& done) {
  return magnitudes_avx512<true>(v, out, n, done);
}
__attribute__((target("avx2"))) std::uint32_t copy_max_magnitude_avx2(const float* v, float* out,
                                                                      std::size_t n,
                                                                      std::size_t& done) {
  return magnitudes_avx2<true>(v, out, n, done);
}

}  // namespace critter::detail

#endif
