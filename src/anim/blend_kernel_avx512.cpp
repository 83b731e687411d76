// SPDX-License-Identifier: MIT
// The blending kernel on sixteen lanes with AVX-512 (blend_kernel_simd.h): sixteen joints per
// block, the 160 floats of their transforms in ten vectors, the rotations of joints k, k + 4,
// k + 8 and k + 12 in the four quarters of one register before a transpose within the quarters.
// A last block of fewer joints loads and stores under masks. Everything here is compiled for
// AVX-512 without fused multiply-add and includes no library header (blend_kernels.h); it runs
// only after a run-time check of the CPU (blending_path_available).
#include "anim/blend_kernels.h"

#if defined(CRITTER_BLEND_X86)

// GCC 12's AVX-512 intrinsics (casts, inserts, extracts) start from _mm512_undefined_ps(), which
// its own -Wuninitialized and -Wmaybe-uninitialized then report at every use; the values are
// never read.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <immintrin.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2"))), \
                             apply_to = function)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx512f,avx512vl,avx512bw,avx512dq,avx2")
#pragma GCC optimize("fp-contract=off")
#endif

namespace critter::anim::detail {

namespace {

constexpr float kIdentityRotation[4] = {0.0f, 0.0f, 0.0f, 1.0f};

// Float 16v + i belongs to joint (16v + i) / 10 and is a scale component where (16v + i) mod 10
// >= 7.
struct Tables {
  alignas(64) int joint[10][16];
  __mmask16 scale[10];
};
constexpr Tables tables() {
  Tables t{};
  for (int v = 0; v < 10; ++v) {
    int bits = 0;
    for (int i = 0; i < 16; ++i) {
      t.joint[v][i] = (16 * v + i) / 10;
      if ((16 * v + i) % 10 >= static_cast<int>(kScaleOffset)) bits |= 1 << i;
    }
    t.scale[v] = static_cast<__mmask16>(bits);
  }
  return t;
}
constexpr Tables kTables = tables();

// The first n of 16 lanes, n <= 16.
__mmask16 first_lanes(unsigned n) {
  return static_cast<__mmask16>(n >= 16 ? 0xFFFFu : (1u << n) - 1u);
}

struct V16 {
  using T = __m512;
  using M = __mmask16;
  static constexpr std::size_t kLanes = 16;

  static T set1(float x) { return _mm512_set1_ps(x); }
  static T add(T a, T b) { return _mm512_add_ps(a, b); }
  static T sub(T a, T b) { return _mm512_sub_ps(a, b); }
  static T mul(T a, T b) { return _mm512_mul_ps(a, b); }
  static T div(T a, T b) { return _mm512_div_ps(a, b); }
  static T sqrt(T a) { return _mm512_sqrt_ps(a); }
  static T min(T a, T b) { return _mm512_min_ps(a, b); }
  static T sign_bits(T a) {
    return _mm512_castsi512_ps(
        _mm512_and_si512(_mm512_castps_si512(a), _mm512_set1_epi32(static_cast<int>(0x80000000u))));
  }
  static T xor_(T a, T b) {
    return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)));
  }
  static M ge(T a, T b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
  static M gt(T a, T b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
  static T select(M m, T a, T b) { return _mm512_mask_blend_ps(m, b, a); }
  static M partial(M a, M b) { return static_cast<M>(a & ~b); }
  static bool any(M m) { return m != 0; }

  // Rows k = 0..3 hold the rotations of joints k, k + 4, k + 8 and k + 12; one transpose within
  // each quarter turns them into the four components, or back.
  static void transpose(T (&r)[4]) {
    const T t0 = _mm512_unpacklo_ps(r[0], r[1]), t1 = _mm512_unpackhi_ps(r[0], r[1]);
    const T t2 = _mm512_unpacklo_ps(r[2], r[3]), t3 = _mm512_unpackhi_ps(r[2], r[3]);
    r[0] = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    r[1] = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    r[2] = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    r[3] = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
  }
  // Where joint `joint` of the block keeps its rotation; in a last block of `count` joints the
  // joints beyond read the identity.
  template <bool kTail>
  static const float* rotation(const float* p, unsigned joint, unsigned count) {
    if (kTail && joint >= count) return kIdentityRotation;
    return p + static_cast<std::size_t>(joint) * kTransformFloats + kRotationOffset;
  }

  // In a last block, vector v holds the floats 16v .. 16v + 15 of the block that exist.
  static __mmask16 aos_lanes(int v, unsigned count) {
    const unsigned floats = count * static_cast<unsigned>(kTransformFloats);
    const unsigned from = 16u * static_cast<unsigned>(v);
    return first_lanes(floats > from ? floats - from : 0u);
  }
  template <bool kTail>
  static T load_aos(const float* p, int v, unsigned count) {
    if constexpr (kTail) {
      const __mmask16 m = aos_lanes(v, count);
      return _mm512_maskz_loadu_ps(m, m != 0 ? p + 16 * v : p);
    } else {
      return _mm512_loadu_ps(p + 16 * v);
    }
  }
  template <bool kTail>
  static void store_aos(float* p, int v, T x, unsigned count) {
    if constexpr (kTail) {
      const __mmask16 m = aos_lanes(v, count);
      _mm512_mask_storeu_ps(m != 0 ? p + 16 * v : p, m, x);
    } else {
      _mm512_storeu_ps(p + 16 * v, x);
    }
  }
  template <bool kTail>
  static void load_rot(const float* p, unsigned count, T (&r)[4]) {
    for (unsigned k = 0; k < 4; ++k) {
      T row = _mm512_castps128_ps512(_mm_loadu_ps(rotation<kTail>(p, k, count)));
      row = _mm512_insertf32x4(row, _mm_loadu_ps(rotation<kTail>(p, k + 4, count)), 1);
      row = _mm512_insertf32x4(row, _mm_loadu_ps(rotation<kTail>(p, k + 8, count)), 2);
      r[k] = _mm512_insertf32x4(row, _mm_loadu_ps(rotation<kTail>(p, k + 12, count)), 3);
    }
    transpose(r);
  }
  template <bool kTail>
  static void store_rot(float* p, unsigned count, const T (&r)[4]) {
    T q[4] = {r[0], r[1], r[2], r[3]};
    transpose(q);
    for (unsigned k = 0; k < 4; ++k) {
      const __m128 quarter[4] = {_mm512_castps512_ps128(q[k]), _mm512_extractf32x4_ps(q[k], 1),
                                 _mm512_extractf32x4_ps(q[k], 2), _mm512_extractf32x4_ps(q[k], 3)};
      for (unsigned b = 0; b < 4; ++b) {
        const unsigned joint = k + 4 * b;
        if (kTail && joint >= count) continue;
        _mm_storeu_ps(p + static_cast<std::size_t>(joint) * kTransformFloats + kRotationOffset,
                      quarter[b]);
      }
    }
  }
  template <bool kTail>
  static T lane_mask(const float* m, unsigned count) {
    if constexpr (kTail) return _mm512_maskz_loadu_ps(first_lanes(count), m);
    return _mm512_loadu_ps(m);
  }
  template <bool kTail>
  static M sampled(const std::uint8_t* s, unsigned count) {
    const __m128i bytes = kTail ? _mm_maskz_loadu_epi8(first_lanes(count), s)
                                : _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    return _mm_test_epi8_mask(bytes, bytes);
  }
  static T expand(T w, int v) {
    return _mm512_permutexvar_ps(_mm512_load_si512(kTables.joint[v]), w);
  }
  static M scale_floats(int v) { return kTables.scale[v]; }
};

}  // namespace

}  // namespace critter::anim::detail

#include "anim/blend_kernel_simd.h"

namespace critter::anim::detail {

void blend_joints_avx512(const KernelArgs& args, std::size_t first, std::size_t last) {
  blend_simd::blend_joints<V16, true>(args, first, last);
}

}  // namespace critter::anim::detail

#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#pragma GCC pop_options
#pragma GCC diagnostic pop
#endif

#endif
