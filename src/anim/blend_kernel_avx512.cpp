// SPDX-License-Identifier: MIT
// The blending kernel on sixteen lanes with AVX-512 (blend_kernel_simd.h): sixteen joints per
// block, the 160 floats of their transforms in ten vectors, the rotations of joints k, k + 4,
// k + 8 and k + 12 in the four quarters of one register before a transpose within the quarters.
// Everything here is compiled for
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

struct V16 {
  using T = __m512;
  using M = __mmask16;
  static constexpr std::size_t kLanes = 16;

  [[gnu::always_inline]] static T set1(float x) { return _mm512_set1_ps(x); }
  [[gnu::always_inline]] static T add(T a, T b) { return _mm512_add_ps(a, b); }
  [[gnu::always_inline]] static T sub(T a, T b) { return _mm512_sub_ps(a, b); }
  [[gnu::always_inline]] static T mul(T a, T b) { return _mm512_mul_ps(a, b); }
  [[gnu::always_inline]] static T div(T a, T b) { return _mm512_div_ps(a, b); }
  [[gnu::always_inline]] static T sqrt(T a) { return _mm512_sqrt_ps(a); }
  [[gnu::always_inline]] static T min(T a, T b) { return _mm512_min_ps(a, b); }
  [[gnu::always_inline]] static T sign_bits(T a) {
    return _mm512_castsi512_ps(
        _mm512_and_si512(_mm512_castps_si512(a), _mm512_set1_epi32(static_cast<int>(0x80000000u))));
  }
  [[gnu::always_inline]] static T xor_(T a, T b) {
    return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)));
  }
  [[gnu::always_inline]] static M ge(T a, T b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
  [[gnu::always_inline]] static M gt(T a, T b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
  [[gnu::always_inline]] static T select(M m, T a, T b) { return _mm512_mask_blend_ps(m, b, a); }
  [[gnu::always_inline]] static M partial(M a, M b) { return static_cast<M>(a & ~b); }
  [[gnu::always_inline]] static bool any(M m) { return m != 0; }

  // Rows k = 0..3 hold the rotations of joints k, k + 4, k + 8 and k + 12; one transpose within
  // each quarter turns them into the four components, or back.
  [[gnu::always_inline]] static void transpose(T (&r)[4]) {
    const T t0 = _mm512_unpacklo_ps(r[0], r[1]), t1 = _mm512_unpackhi_ps(r[0], r[1]);
    const T t2 = _mm512_unpacklo_ps(r[2], r[3]), t3 = _mm512_unpackhi_ps(r[2], r[3]);
    r[0] = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    r[1] = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    r[2] = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    r[3] = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
  }
  [[gnu::always_inline]] static const float* rotation(const float* p, int joint) {
    return p + static_cast<std::size_t>(joint) * kTransformFloats + kRotationOffset;
  }

  [[gnu::always_inline]] static T load_aos(const float* p, int v) {
    return _mm512_loadu_ps(p + 16 * v);
  }
  [[gnu::always_inline]] static void store_aos(float* p, int v, T x) {
    _mm512_storeu_ps(p + 16 * v, x);
  }
  // Each row from four broadcasts of 16 bytes, the last three under a mask: loads alone, no
  // shuffle. With `joints` below 16 (more than 8), a lane past the last joint repeats the last
  // joint's rotation (a unit quaternion; store_rot with the same count never stores it); the
  // default 16 folds away.
  [[gnu::always_inline]] static void load_rot(const float* p, T (&r)[4], int joints = 16) {
    const auto at = [&](int joint) { return rotation(p, joint < joints ? joint : joints - 1); };
    for (int k = 0; k < 4; ++k) {
      T row = _mm512_broadcast_f32x4(_mm_loadu_ps(at(k)));
      row = _mm512_mask_broadcast_f32x4(row, 0x00F0, _mm_loadu_ps(at(k + 4)));
      row = _mm512_mask_broadcast_f32x4(row, 0x0F00, _mm_loadu_ps(at(k + 8)));
      r[k] = _mm512_mask_broadcast_f32x4(row, 0xF000, _mm_loadu_ps(at(k + 12)));
    }
    transpose(r);
  }
  // The rotations of the first `joints` joints (more than 8).
  [[gnu::always_inline]] static void store_rot(float* p, const T (&r)[4], int joints = 16) {
    T q[4] = {r[0], r[1], r[2], r[3]};
    transpose(q);
    for (int k = 0; k < 4; ++k) {
      float* o = p + static_cast<std::size_t>(k) * kTransformFloats + kRotationOffset;
      _mm_storeu_ps(o, _mm512_castps512_ps128(q[k]));
      _mm_storeu_ps(o + 4 * kTransformFloats, _mm512_extractf32x4_ps(q[k], 1));
      if (k + 8 < joints) _mm_storeu_ps(o + 8 * kTransformFloats, _mm512_extractf32x4_ps(q[k], 2));
      if (k + 12 < joints)
        _mm_storeu_ps(o + 12 * kTransformFloats, _mm512_extractf32x4_ps(q[k], 3));
    }
  }
  [[gnu::always_inline]] static T lane_mask(const float* m) { return _mm512_loadu_ps(m); }
  [[gnu::always_inline]] static M sampled(const std::uint8_t* s) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    return _mm_test_epi8_mask(bytes, bytes);
  }
  [[gnu::always_inline]] static T expand(T w, int v) {
    return _mm512_permutexvar_ps(_mm512_load_si512(kTables.joint[v]), w);
  }
  [[gnu::always_inline]] static M scale_floats(int v) { return kTables.scale[v]; }
};

}  // namespace

}  // namespace critter::anim::detail

#define CRITTER_BLEND_VECTOR_REGISTERS 32
#include "anim/blend_kernel_simd.h"
#include "anim/blend_lanes_4.h"
#include "anim/blend_lanes_8.h"

namespace critter::anim::detail {

// The eight- and four-lane kernels compiled here again with AVX-512: 32 vector registers, so
// that the dependency chains need no spills.
void blend_joints_avx512(const KernelArgs& args, std::size_t first, std::size_t last) {
  blend_simd::blend_joints<V16>(args, first, last);
}

void blend_joints_avx512_8(const KernelArgs& args, std::size_t first, std::size_t last) {
  blend_simd::blend_joints<V8>(args, first, last);
}

void blend_joints_avx512_4(const KernelArgs& args, std::size_t first, std::size_t last) {
  blend_simd::blend_joints<V4>(args, first, last);
}

void crossfade_joints_avx512_short(const KernelArgs& args, std::size_t n) {
  const KernelLayer& l = args.layers[0];
  const int joints = static_cast<int>(n);
  V16::T qa[1][4], qb[1][4], r[1][4];
  V16::load_rot(args.start, qa[0], joints);
  V16::load_rot(l.pose, qb[0], joints);
  // Translations and scales: crossfade_aos() on the floats of the n joints, under masks.
  const V16::T w = V16::set1(l.weight);
  const std::size_t floats = n * kTransformFloats;
  for (std::size_t first = 0; first < floats; first += 16) {
    const std::size_t left = floats - first;
    const auto m = static_cast<__mmask16>(left >= 16 ? 0xFFFFu : (1u << left) - 1u);
    const V16::T a = _mm512_maskz_loadu_ps(m, args.start + first);
    const V16::T x = _mm512_maskz_loadu_ps(m, l.pose + first);
    _mm512_mask_storeu_ps(args.out + first, m, blend_simd::lerp_vec<V16>(a, x, w));
  }
  if (args.rotations == KernelRotations::kSlerp) {
    blend_simd::slerp<V16, 1>(qa, qb, blend_simd::UniformFactors<V16>{&l.factors}, r);
  } else {
    const V16::T f[1] = {w};
    blend_simd::nlerp<V16, 1>(qa, qb, f, r);
  }
  V16::store_rot(args.out, r[0], joints);
}

// Structure-of-arrays poses: a component of a whole 16-joint block is one register.
void blend_soa_avx512(const KernelArgs& args, std::size_t first, std::size_t last) {
  blend_simd::blend_soa<V16>(args, first, last);
}

void crossfade_soa_avx512(const KernelArgs& args, std::size_t first, std::size_t last) {
  blend_simd::crossfade_soa<V16>(args, first, last);
}

}  // namespace critter::anim::detail

#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#pragma GCC pop_options
#pragma GCC diagnostic pop
#endif

#endif
