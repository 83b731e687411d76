// SPDX-License-Identifier: MIT
// The vector paths of clip_load_simd.h. Each function carries its own target attribute and this
// file includes no library header but its own, so no inline function compiled for those
// instruction sets reaches the rest of the program. GCC 12's AVX-512 intrinsics start from
// _mm512_undefined_epi32(), which its own -Wuninitialized then reports at every use; the value is
// never read.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "asset/clip_load_simd.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

namespace critter::detail {

// Four keys a step. Four components: the four lanes' 16 floats (four keys) are transposed inside
// each 128-bit quarter (a quarter then holds one component of the four lanes for one key), then
// the quarters are transposed (a register then holds one key). Three components: the 12 floats of
// four keys per lane are read with a mask (nothing past the lane's last key) and every output
// float picked by two-register permutes, lanes 0-1 from one and 2-3 from the other.
__attribute__((target("avx512f"))) std::uint32_t interleave_keys_avx512(
    const float* const (&lanes)[4], std::uint32_t keys, std::uint32_t components, float* out) {
  const std::uint32_t whole = keys / 4 * 4;
  if (components == 4) {
    for (std::uint32_t k = 0; k < whole; k += 4, out += 64) {
      const std::size_t at = std::size_t{k} * 4;
      const __m512 r0 = _mm512_loadu_ps(lanes[0] + at), r1 = _mm512_loadu_ps(lanes[1] + at);
      const __m512 r2 = _mm512_loadu_ps(lanes[2] + at), r3 = _mm512_loadu_ps(lanes[3] + at);
      const __m512 t0 = _mm512_unpacklo_ps(r0, r1), t1 = _mm512_unpackhi_ps(r0, r1);
      const __m512 t2 = _mm512_unpacklo_ps(r2, r3), t3 = _mm512_unpackhi_ps(r2, r3);
      const __m512 u0 = _mm512_shuffle_ps(t0, t2, 0x44), u1 = _mm512_shuffle_ps(t0, t2, 0xEE);
      const __m512 u2 = _mm512_shuffle_ps(t1, t3, 0x44), u3 = _mm512_shuffle_ps(t1, t3, 0xEE);
      const __m512 v0 = _mm512_shuffle_f32x4(u0, u1, 0x44), v1 = _mm512_shuffle_f32x4(u0, u1, 0xEE);
      const __m512 v2 = _mm512_shuffle_f32x4(u2, u3, 0x44), v3 = _mm512_shuffle_f32x4(u2, u3, 0xEE);
      _mm512_storeu_ps(out, _mm512_shuffle_f32x4(v0, v2, 0x88));
      _mm512_storeu_ps(out + 16, _mm512_shuffle_f32x4(v0, v2, 0xDD));
      _mm512_storeu_ps(out + 32, _mm512_shuffle_f32x4(v1, v3, 0x88));
      _mm512_storeu_ps(out + 48, _mm512_shuffle_f32x4(v1, v3, 0xDD));
    }
    return whole;
  }
  // Output float e of register m is lane l = e % 4's float j = 4m + e / 4: index j of the first
  // or (bit 4) the second source, the odd lanes from the second.
  __m512i index[3];
  for (int m = 0; m < 3; ++m) {
    alignas(64) std::int32_t idx[16];
    for (int e = 0; e < 16; ++e) idx[e] = 4 * m + e / 4 + 16 * (e % 2);
    index[m] = _mm512_load_si512(idx);
  }
  constexpr __mmask16 kTwelve = 0x0FFF;
  constexpr __mmask16 kUpperLanes = 0xCCCC;  // lanes 2 and 3 of every key's component
  for (std::uint32_t k = 0; k < whole; k += 4, out += 48) {
    const std::size_t at = std::size_t{k} * 3;
    const __m512 r0 = _mm512_maskz_loadu_ps(kTwelve, lanes[0] + at);
    const __m512 r1 = _mm512_maskz_loadu_ps(kTwelve, lanes[1] + at);
    const __m512 r2 = _mm512_maskz_loadu_ps(kTwelve, lanes[2] + at);
    const __m512 r3 = _mm512_maskz_loadu_ps(kTwelve, lanes[3] + at);
    for (int m = 0; m < 3; ++m) {
      const __m512 low = _mm512_permutex2var_ps(r0, index[m], r1);
      const __m512 high = _mm512_permutex2var_ps(r2, index[m], r3);
      _mm512_storeu_ps(out + 16 * m, _mm512_mask_blend_ps(kUpperLanes, low, high));
    }
  }
  return whole;
}

// 32 frames a step: each frame against the one before it (an unaligned load one frame back),
// the mask of those not above it counted.
__attribute__((target("avx512f,avx512bw"))) std::size_t count_not_increasing_avx512(
    const std::uint16_t* frames, std::size_t n, std::size_t& done) {
  std::size_t count = 0, k = 1;
  for (; k + 32 <= n; k += 32) {
    const __m512i cur = _mm512_loadu_si512(frames + k);
    const __m512i prev = _mm512_loadu_si512(frames + k - 1);
    count += static_cast<std::size_t>(__builtin_popcount(_mm512_cmple_epu16_mask(cur, prev)));
  }
  done = k;
  return count;
}

// 16 frames a step: a <= b as min(a, b) == a; each equal lane adds -1 to a 16-bit counter
// (emptied into the total every 4096 steps, before it can wrap).
__attribute__((target("avx2"))) std::size_t count_not_increasing_avx2(const std::uint16_t* frames,
                                                                      std::size_t n,
                                                                      std::size_t& done) {
  std::size_t count = 0, k = 1;
  while (k + 16 <= n) {
    __m256i lanes = _mm256_setzero_si256();
    for (std::size_t step = 0; step < 4096 && k + 16 <= n; ++step, k += 16) {
      const __m256i cur = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(frames + k));
      const __m256i prev = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(frames + k - 1));
      lanes = _mm256_add_epi16(lanes, _mm256_cmpeq_epi16(_mm256_min_epu16(cur, prev), cur));
    }
    // Each lane holds minus its count (at most 4096): negate and add the 16 lanes.
    const __m256i counts = _mm256_sub_epi16(_mm256_setzero_si256(), lanes);
    const __m256i pairs = _mm256_madd_epi16(counts, _mm256_set1_epi16(1));
    alignas(32) std::int32_t sums[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(sums), pairs);
    for (const std::int32_t s : sums) count += static_cast<std::size_t>(s);
  }
  done = k;
  return count;
}

}  // namespace critter::detail

#endif
