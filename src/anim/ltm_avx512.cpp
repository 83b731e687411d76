// SPDX-License-Identifier: MIT
// AVX-512 forward pass of LocalToModelJob: one joint's whole 4x4 matrix in one 512-bit register
// (lane 4·column + row). Per joint: the quaternion products of all nine rotation entries on
// sixteen lanes at once, the three weight vectors (each local column's k-th entry repeated
// down its column) by one two-source permute each, and the product as three multiplies and three
// adds with the parent's columns broadcast from memory. No transposes and no per-column scalar
// broadcasts, which is where the four-lane paths spend most of their instructions.
// Every function carries the target attribute and this file includes no library header (see
// ltm_kernels.h). Only called after a run-time check of the CPU (cpu_has_ltm_avx512).
// GCC 12's AVX-512 intrinsics (permutes, broadcasts) start from _mm512_undefined_ps(), which its
// own -Wmaybe-uninitialized then reports at every use; the values are never read.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include "anim/ltm_kernels.h"

// The operations must stay separate multiplies and adds: a fused multiply-add rounds once
// instead of twice, and the results would no longer equal the other paths bit for bit.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

#define CRITTER_LTM_AVX512 __attribute__((target("avx512f")))

namespace critter::anim::detail {

namespace {

// Lanes of a joint's loaded floats: 0-2 translation, 3-6 rotation x y z w, 7-9 scale, 10-15 zero.
constexpr int kX = 3, kY = 4, kZ = 5, kW = 6, kZero = 15;

// parent · c, the parent's columns in q0..q3 repeated on the four lane groups, c's weights in
// w0..w2 (lane 4·j + r holds c[j][k] for wk): column j = (q0·c[j][0] + q1·c[j][1]) + q2·c[j][2],
// plus q3 in column 3 only. The order of the scalar form.
CRITTER_LTM_AVX512 inline __m512 product(__m512 q0, __m512 q1, __m512 q2, __m512 q3, __m512 w0,
                                         __m512 w1, __m512 w2) {
  __m512 acc = _mm512_add_ps(_mm512_mul_ps(q0, w0), _mm512_mul_ps(q1, w1));
  acc = _mm512_add_ps(acc, _mm512_mul_ps(q2, w2));
  return _mm512_mask_add_ps(acc, 0xF000, acc, q3);
}

CRITTER_LTM_AVX512 inline __m512 column4(const float* m) {
  return _mm512_broadcast_f32x4(_mm_loadu_ps(m));
}

}  // namespace

bool cpu_has_ltm_avx512() {
  static const bool has = __builtin_cpu_supports("avx512f");
  return has;
}

CRITTER_LTM_AVX512 void local_to_model_avx512(const std::int16_t* parents, std::size_t n,
                                              const float* local, const float* root,
                                              const float* correction, float* model) {
  // Rotation entry (column c, row r) in lane 4c + r: 2·(u ± v) off the diagonal, 1 − 2·(u + v)
  // on it, as glm::mat3_cast; u and v are products of two quaternion components each.
  const __m512i u_a = _mm512_setr_epi32(kY, kX, kX, kZero, kX, kX, kY, kZero, kX, kY, kX, kZero,
                                        kZero, kZero, kZero, kZero);
  const __m512i u_b = _mm512_setr_epi32(kY, kY, kZ, kZero, kY, kX, kZ, kZero, kZ, kZ, kX, kZero,
                                        kZero, kZero, kZero, kZero);
  const __m512i v_a = _mm512_setr_epi32(kZ, kW, kW, kZero, kW, kZ, kW, kZero, kW, kW, kY, kZero,
                                        kZero, kZero, kZero, kZero);
  const __m512i v_b = _mm512_setr_epi32(kZ, kZ, kY, kZero, kZ, kZ, kX, kZero, kY, kX, kY, kZero,
                                        kZero, kZero, kZero, kZero);
  // Lanes 2 (xz − wy), 4 (xy − wz) and 9 (yz − wx) subtract; lanes 0, 5 and 10 are diagonal.
  constexpr __mmask16 kDifference = 0x0214, kDiagonal = 0x0421;
  // Each column's scale factor (lanes 7-9).
  const __m512i scale =
      _mm512_setr_epi32(7, 7, 7, 7, 8, 8, 8, 8, 9, 9, 9, 9, kZero, kZero, kZero, kZero);
  // Weight vector k: the rotation-scale entry (column j, row k) on lanes 4j..4j+3 for j < 3 and
  // the translation's k-th component (16 + k: the second source) on lanes 12-15.
  const __m512i weight0 = _mm512_setr_epi32(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 16, 16, 16, 16);
  const __m512i weight1 = _mm512_setr_epi32(1, 1, 1, 1, 5, 5, 5, 5, 9, 9, 9, 9, 17, 17, 17, 17);
  const __m512i weight2 = _mm512_setr_epi32(2, 2, 2, 2, 6, 6, 6, 6, 10, 10, 10, 10, 18, 18, 18, 18);
  const __m512 one = _mm512_set1_ps(1.0f);

  // The correction's weights, once: its column j's k-th entry on lanes 4j..4j+3.
  __m512 k0 = one, k1 = one, k2 = one;
  if (correction != nullptr) {
    const __m512 c = _mm512_loadu_ps(correction);
    const __m512i add12 = _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -4, -4, -4, -4);
    k0 = _mm512_permutexvar_ps(_mm512_add_epi32(weight0, add12), c);
    k1 = _mm512_permutexvar_ps(_mm512_add_epi32(weight1, add12), c);
    k2 = _mm512_permutexvar_ps(_mm512_add_epi32(weight2, add12), c);
  }

  for (std::size_t i = 0; i < n; ++i) {
    const __m512 x = _mm512_maskz_loadu_ps(0x03FF, local + i * kLocalFloats);
    const __m512 u = _mm512_mul_ps(_mm512_permutexvar_ps(u_a, x), _mm512_permutexvar_ps(u_b, x));
    const __m512 v = _mm512_mul_ps(_mm512_permutexvar_ps(v_a, x), _mm512_permutexvar_ps(v_b, x));
    __m512 t = _mm512_mask_sub_ps(_mm512_add_ps(u, v), kDifference, u, v);
    t = _mm512_add_ps(t, t);
    t = _mm512_mask_sub_ps(t, kDiagonal, one, t);
    const __m512 rs = _mm512_mul_ps(t, _mm512_permutexvar_ps(scale, x));
    const __m512 w0 = _mm512_permutex2var_ps(rs, weight0, x);
    const __m512 w1 = _mm512_permutex2var_ps(rs, weight1, x);
    const __m512 w2 = _mm512_permutex2var_ps(rs, weight2, x);

    const int p = parents[i];
    const float* pm = p < 0 ? root : model + static_cast<std::size_t>(p) * 16;
    __m512 m = product(column4(pm), column4(pm + 4), column4(pm + 8), column4(pm + 12), w0, w1, w2);
    if (p < 0 && correction != nullptr) {
      m = product(_mm512_shuffle_f32x4(m, m, 0x00), _mm512_shuffle_f32x4(m, m, 0x55),
                  _mm512_shuffle_f32x4(m, m, 0xAA), _mm512_shuffle_f32x4(m, m, 0xFF), k0, k1, k2);
    }
    _mm512_storeu_ps(model + i * 16, m);
  }
}

}  // namespace critter::anim::detail

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#pragma GCC diagnostic pop
#endif
