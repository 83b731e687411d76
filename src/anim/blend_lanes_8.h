// SPDX-License-Identifier: MIT
// Eight lanes of AVX2 for the blending kernel (blend_kernel_simd.h), included by each kernel file
// that blends eight joints at a time, after it has set an instruction set with AVX2. The types
// have internal linkage: each file compiles its own copy for its own instruction set.
#pragma once

#include "anim/blend_kernels.h"

namespace critter::anim::detail {
namespace {

// Float 8v + i belongs to joint (8v + i) / 10 and is a scale component where (8v + i) mod 10
// >= 7.
struct Tables8 {
  alignas(32) int joint[10][8];
  alignas(32) int scale[10][8];
};
constexpr Tables8 tables8() {
  Tables8 t{};
  for (int v = 0; v < 10; ++v) {
    for (int i = 0; i < 8; ++i) {
      t.joint[v][i] = (8 * v + i) / 10;
      t.scale[v][i] = (8 * v + i) % 10 >= static_cast<int>(kScaleOffset) ? -1 : 0;
    }
  }
  return t;
}
constexpr Tables8 kTables8 = tables8();

struct V8 {
  using T = __m256;
  using M = __m256;
  static constexpr std::size_t kLanes = 8;

  [[gnu::always_inline]] static T set1(float x) { return _mm256_set1_ps(x); }
  [[gnu::always_inline]] static T add(T a, T b) { return _mm256_add_ps(a, b); }
  [[gnu::always_inline]] static T sub(T a, T b) { return _mm256_sub_ps(a, b); }
  [[gnu::always_inline]] static T mul(T a, T b) { return _mm256_mul_ps(a, b); }
  [[gnu::always_inline]] static T div(T a, T b) { return _mm256_div_ps(a, b); }
  [[gnu::always_inline]] static T sqrt(T a) { return _mm256_sqrt_ps(a); }
  [[gnu::always_inline]] static T min(T a, T b) { return _mm256_min_ps(a, b); }
  [[gnu::always_inline]] static T sign_bits(T a) { return _mm256_and_ps(a, _mm256_set1_ps(-0.0f)); }
  [[gnu::always_inline]] static T xor_(T a, T b) { return _mm256_xor_ps(a, b); }
  [[gnu::always_inline]] static M ge(T a, T b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
  [[gnu::always_inline]] static M gt(T a, T b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
  [[gnu::always_inline]] static T select(M m, T a, T b) { return _mm256_blendv_ps(b, a, m); }
  [[gnu::always_inline]] static M partial(M a, M b) { return _mm256_andnot_ps(b, a); }
  [[gnu::always_inline]] static bool any(M m) { return _mm256_movemask_ps(m) != 0; }

  // Rows k = 0..3 hold the rotations of joints k and k + 4; one transpose within each half
  // turns them into the four components, or back.
  [[gnu::always_inline]] static void transpose(T (&r)[4]) {
    const T t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const T t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    r[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    r[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    r[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    r[3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
  }
  [[gnu::always_inline]] static const float* rotation(const float* p, int joint) {
    return p + static_cast<std::size_t>(joint) * kTransformFloats + kRotationOffset;
  }
  [[gnu::always_inline]] static float* rotation(float* p, int joint) {
    return p + static_cast<std::size_t>(joint) * kTransformFloats + kRotationOffset;
  }

  [[gnu::always_inline]] static T load_aos(const float* p, int v) {
    return _mm256_loadu_ps(p + 8 * v);
  }
  [[gnu::always_inline]] static void store_aos(float* p, int v, T x) {
    _mm256_storeu_ps(p + 8 * v, x);
  }
  [[gnu::always_inline]] static void load_rot(const float* p, T (&r)[4]) {
    for (int k = 0; k < 4; ++k)
      r[k] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(rotation(p, k))),
                                  _mm_loadu_ps(rotation(p, k + 4)), 1);
    transpose(r);
  }
  [[gnu::always_inline]] static void store_rot(float* p, const T (&r)[4]) {
    T q[4] = {r[0], r[1], r[2], r[3]};
    transpose(q);
    for (int k = 0; k < 4; ++k) {
      _mm_storeu_ps(rotation(p, k), _mm256_castps256_ps128(q[k]));
      _mm_storeu_ps(rotation(p, k + 4), _mm256_extractf128_ps(q[k], 1));
    }
  }
  [[gnu::always_inline]] static T lane_mask(const float* m) { return _mm256_loadu_ps(m); }
  [[gnu::always_inline]] static M sampled(const std::uint8_t* s) {
    const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(s));
    return _mm256_castsi256_ps(
        _mm256_cmpgt_epi32(_mm256_cvtepu8_epi32(bytes), _mm256_setzero_si256()));
  }

  [[gnu::always_inline]] static T expand(T w, int v) {
    return _mm256_permutevar8x32_ps(
        w, _mm256_load_si256(reinterpret_cast<const __m256i*>(kTables8.joint[v])));
  }
  [[gnu::always_inline]] static M scale_floats(int v) {
    return _mm256_castsi256_ps(
        _mm256_load_si256(reinterpret_cast<const __m256i*>(kTables8.scale[v])));
  }
};

}  // namespace
}  // namespace critter::anim::detail
