// SPDX-License-Identifier: MIT
// Four lanes of SSE2 for the blending kernel (blend_kernel_simd.h), included by each kernel file
// that blends four joints at a time, after it has set its instruction set. The type has internal
// linkage: each file compiles its own copy for its own instruction set.
#pragma once

#include "anim/blend_kernels.h"

namespace critter::anim::detail {
namespace {

struct V4 {
  using T = __m128;
  using M = __m128;
  static constexpr std::size_t kLanes = 4;

  [[gnu::always_inline]] static T set1(float x) { return _mm_set1_ps(x); }
  [[gnu::always_inline]] static T add(T a, T b) { return _mm_add_ps(a, b); }
  [[gnu::always_inline]] static T sub(T a, T b) { return _mm_sub_ps(a, b); }
  [[gnu::always_inline]] static T mul(T a, T b) { return _mm_mul_ps(a, b); }
  [[gnu::always_inline]] static T div(T a, T b) { return _mm_div_ps(a, b); }
  [[gnu::always_inline]] static T sqrt(T a) { return _mm_sqrt_ps(a); }
  [[gnu::always_inline]] static T min(T a, T b) { return _mm_min_ps(a, b); }
  [[gnu::always_inline]] static T sign_bits(T a) { return _mm_and_ps(a, _mm_set1_ps(-0.0f)); }
  [[gnu::always_inline]] static T xor_(T a, T b) { return _mm_xor_ps(a, b); }
  [[gnu::always_inline]] static M ge(T a, T b) { return _mm_cmpge_ps(a, b); }
  [[gnu::always_inline]] static M gt(T a, T b) { return _mm_cmpgt_ps(a, b); }
  [[gnu::always_inline]] static T select(M m, T a, T b) {
#if defined(__SSE4_1__)
    return _mm_blendv_ps(b, a, m);
#else
    return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b));
#endif
  }
  [[gnu::always_inline]] static M partial(M a, M b) {
    return _mm_andnot_ps(b, a);
  }
  [[gnu::always_inline]] static bool any(M m) {
    return _mm_movemask_ps(m) != 0;
  }

  [[gnu::always_inline]] static T load_aos(const float* p, int v) {
    return _mm_loadu_ps(p + 4 * v);
  }
  [[gnu::always_inline]] static void store_aos(float* p, int v, T x) {
    _mm_storeu_ps(p + 4 * v, x);
  }
  [[gnu::always_inline]] static void load_rot(const float* p, T (&r)[4]) {
    for (int k = 0; k < 4; ++k)
      r[k] = _mm_loadu_ps(p + static_cast<std::size_t>(k) * kTransformFloats + kRotationOffset);
    _MM_TRANSPOSE4_PS(r[0], r[1], r[2], r[3]);
  }
  [[gnu::always_inline]] static void store_rot(float* p, const T (&r)[4]) {
    T q[4] = {r[0], r[1], r[2], r[3]};
    _MM_TRANSPOSE4_PS(q[0], q[1], q[2], q[3]);
    for (int k = 0; k < 4; ++k)
      _mm_storeu_ps(p + static_cast<std::size_t>(k) * kTransformFloats + kRotationOffset, q[k]);
  }
  [[gnu::always_inline]] static T lane_mask(const float* m) {
    return _mm_loadu_ps(m);
  }
  [[gnu::always_inline]] static M sampled(const std::uint8_t* s) {
    int bits;
    __builtin_memcpy(&bits, s, sizeof(bits));
    const __m128i zero = _mm_setzero_si128();
    const __m128i x = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(bits), zero), zero);
    return _mm_castsi128_ps(_mm_cmpgt_epi32(x, zero));
  }
  // Floats 4v .. 4v + 3 belong to joints (4v + i) / 10.
  [[gnu::always_inline]] static T expand(T w, int v) {
    switch (v) {
      case 0:
      case 1:
        return _mm_shuffle_ps(w, w, _MM_SHUFFLE(0, 0, 0, 0));
      case 2:
        return _mm_shuffle_ps(w, w, _MM_SHUFFLE(1, 1, 0, 0));
      case 3:
      case 4:
        return _mm_shuffle_ps(w, w, _MM_SHUFFLE(1, 1, 1, 1));
      case 5:
      case 6:
        return _mm_shuffle_ps(w, w, _MM_SHUFFLE(2, 2, 2, 2));
      case 7:
        return _mm_shuffle_ps(w, w, _MM_SHUFFLE(3, 3, 2, 2));
      default:
        return _mm_shuffle_ps(w, w, _MM_SHUFFLE(3, 3, 3, 3));
    }
  }
  // Float 4v + i is a scale component where (4v + i) mod 10 >= 7.
  struct ScaleTable {
    alignas(16) int bits[10][4];
  };
  static constexpr ScaleTable scale_table() {
    ScaleTable t{};
    for (int v = 0; v < 10; ++v)
      for (int i = 0; i < 4; ++i)
        t.bits[v][i] = (4 * v + i) % 10 >= static_cast<int>(kScaleOffset) ? -1 : 0;
    return t;
  }
  [[gnu::always_inline]] static M scale_floats(int v) {
    static constexpr ScaleTable kTable = scale_table();
    return _mm_castsi128_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(kTable.bits[v])));
  }
};

}  // namespace
}  // namespace critter::anim::detail
