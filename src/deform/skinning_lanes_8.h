// SPDX-License-Identifier: MIT
// What the AVX2 and AVX-512 skinning kernels share (skinning_avx2.cpp, skinning_avx512.cpp): the
// transpose of eight vertices' blended matrices into one register per matrix element. Each
// including file defines CRITTER_SKIN_TARGET (its target attribute) first. Everything here has
// internal linkage, so each file compiles its own copy for its own instruction set; like the kernel
// files, this header includes no library header (see skinning_kernels.h).
#pragma once

#include <immintrin.h>

#ifndef CRITTER_SKIN_TARGET
#error "define CRITTER_SKIN_TARGET (the including kernel's target attribute) first"
#endif

namespace critter::deform::detail {
namespace {

// lo[k] and hi[k]: columns 0-1 and 2-3 of vertex k's blended column-major 4x4 matrix. On return
// m[0..2] are rows 0-2 of column 0 (a), m[3..5] of column 1 (b), m[6..8] of column 2 (c) and
// m[9..11] of the translation (t), lane k for vertex k.
CRITTER_SKIN_TARGET inline void transpose_blended(const __m256 (&lo)[8], const __m256 (&hi)[8],
                                                  __m256 (&m)[12]) {
  for (int half = 0; half < 2; ++half) {
    const __m256* r = half == 0 ? lo : hi;
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]);
    const __m256 t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]);
    const __m256 t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]);
    const __m256 t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]);
    const __m256 t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44);
    const __m256 s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44);
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44);
    const __m256 s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44);
    // Lanes 0-3 come from vertices 0-3 (the low halves), 4-7 from vertices 4-7.
    m[6 * half + 0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    m[6 * half + 1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    m[6 * half + 2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    m[6 * half + 3] = _mm256_permute2f128_ps(s0, s4, 0x31);
    m[6 * half + 4] = _mm256_permute2f128_ps(s1, s5, 0x31);
    m[6 * half + 5] = _mm256_permute2f128_ps(s2, s6, 0x31);
  }
}

}  // namespace
}  // namespace critter::deform::detail
