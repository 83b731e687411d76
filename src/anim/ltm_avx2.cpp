// SPDX-License-Identifier: MIT
// AVX2 forward pass of LocalToModelJob: the AVX-512 pass's algorithm (ltm_avx512.cpp) on 256-bit
// registers, one joint's 4x4 matrix in two of them (columns 0-1 and columns 2-3, column in each
// 128-bit lane). Per joint: the quaternion products of the rotation entries, the weight vectors
// by in-lane permutes, and the product with the parent as multiplies and adds with the parent's
// columns broadcast from memory (or from registers when the parent is the previous joint); no
// transposes and no per-entry scalar broadcasts. Structure-of-arrays input has its own pass
// (local_to_model_avx2_soa): the entries of eight joints at a time, then the same product. Every
// entry comes out of the scalar form's operations in its order; the two fused multiply-adds
// multiply by ±1 and ±2, exactly.
// Every function carries the target attribute and this file includes no library header (see
// ltm_kernels.h). Only called after a run-time check of the CPU (local_to_model_path_available).
#include "anim/ltm_kernels.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

// Separate multiplies and adds everywhere else (see ltm_avx512.cpp).
#if defined(__clang__)
#pragma clang fp contract(off)
#else
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

#define CRITTER_LTM_AVX2 __attribute__((target("avx2,fma")))

namespace critter::anim::detail {

namespace {

constexpr int kX = 0, kY = 1, kZ = 2, kW = 3;

// The rotation-scale entries of two columns of a joint, one column per 128-bit lane (lane
// 4·(column − first) + row), from (x y z w) and (w sx sy sz) repeated: as in ltm_avx512.cpp,
// 2·(u ± v) off the diagonal and 1 − 2·(u + v) on it, times the column's scale.
struct Columns {
  __m256i u_a, u_b, v_a, v_b, scale;
  __m256 sign, twice, offset;
};

CRITTER_LTM_AVX2 inline __m256 rotation_scale(const Columns& c, __m256 q2, __m256 s2) {
  const __m256 u = _mm256_mul_ps(_mm256_permutevar_ps(q2, c.u_a), _mm256_permutevar_ps(q2, c.u_b));
  const __m256 v = _mm256_mul_ps(_mm256_permutevar_ps(q2, c.v_a), _mm256_permutevar_ps(q2, c.v_b));
  const __m256 r = _mm256_fmadd_ps(c.twice, _mm256_fmadd_ps(c.sign, v, u), c.offset);
  return _mm256_mul_ps(r, _mm256_permutevar_ps(s2, c.scale));
}

// (q0·w0 + q1·w1) + q2·w2: two columns of the product, before the parent's column 3 is added.
CRITTER_LTM_AVX2 inline __m256 rotate(__m256 q0, __m256 q1, __m256 q2, __m256 w0, __m256 w1,
                                      __m256 w2) {
  const __m256 acc = _mm256_add_ps(_mm256_mul_ps(q0, w0), _mm256_mul_ps(q1, w1));
  return _mm256_add_ps(acc, _mm256_mul_ps(q2, w2));
}

template <int k>
CRITTER_LTM_AVX2 inline __m256 weight(__m256 m) {
  return _mm256_permute_ps(m, k * 0x55);
}

// The low (k = 0) or high (k = 1) 128-bit lane of m in both lanes.
template <int k>
CRITTER_LTM_AVX2 inline __m256 spread(__m256 m) {
  return _mm256_permute2f128_ps(m, m, k * 0x11);
}

// Four floats at m (any alignment) in both 128-bit lanes.
CRITTER_LTM_AVX2 inline __m256 column2(const float* m) {
  const __m128 column = _mm_loadu_ps(m);
  return _mm256_set_m128(column, column);
}

// What carries from one joint to the next: the previous joint's columns 0-1, its column 2 before
// the translation add (the add only touches column 3) and its columns 2-3, and the root
// correction's weights.
struct Pass {
  const std::int16_t* parents;
  const float* root;
  bool corrected;
  float* model;
  __m256 ka0, ka1, ka2, kb0, kb1, kb2;
  __m256 last_a, last_b_rotated, last_b;
};

CRITTER_LTM_AVX2 inline Pass start_pass(const std::int16_t* parents, const float* root,
                                        const float* correction, float* model) {
  const __m256 one = _mm256_set1_ps(1.0f);
  Pass pass{parents, root, correction != nullptr, model, one, one, one, one, one, one, one,
            one,     one};
  // The correction's weights, once.
  if (correction != nullptr) {
    const __m256 ca = _mm256_loadu_ps(correction), cb = _mm256_loadu_ps(correction + 8);
    pass.ka0 = weight<0>(ca);
    pass.ka1 = weight<1>(ca);
    pass.ka2 = weight<2>(ca);
    pass.kb0 = weight<0>(cb);
    pass.kb1 = weight<1>(cb);
    pass.kb2 = weight<2>(cb);
  }
  return pass;
}

// model[i] from the weights of joint i's local matrix: wa_k holds entry (column 0, row k) in the
// low 128-bit lane and (column 1, row k) in the high one, wb_k column 2's and the translation's
// (row k). A joint that follows its parent, done in this call (`chained`), takes the parent's
// columns from the registers instead of the memory just written.
CRITTER_LTM_AVX2 inline void place(Pass& pass, std::size_t i, bool chained, __m256 wa0, __m256 wa1,
                                   __m256 wa2, __m256 wb0, __m256 wb1, __m256 wb2) {
  const int p = pass.parents[i];
  __m256 q0, q1, q2, q3;
  if (p == static_cast<int>(i) - 1 && p >= 0 && chained) {
    q0 = spread<0>(pass.last_a);
    q1 = spread<1>(pass.last_a);
    q2 = spread<0>(pass.last_b_rotated);
    q3 = spread<1>(pass.last_b);
  } else {
    const float* pm = p < 0 ? pass.root : pass.model + static_cast<std::size_t>(p) * 16;
    q0 = column2(pm);
    q1 = column2(pm + 4);
    q2 = column2(pm + 8);
    q3 = column2(pm + 12);
  }
  __m256 a = rotate(q0, q1, q2, wa0, wa1, wa2);
  __m256 b_rotated = rotate(q0, q1, q2, wb0, wb1, wb2);
  __m256 b = _mm256_blend_ps(b_rotated, _mm256_add_ps(b_rotated, q3), 0xF0);
  if (p < 0 && pass.corrected) {
    const __m256 c0 = spread<0>(a), c1 = spread<1>(a), c2 = spread<0>(b), c3 = spread<1>(b);
    a = rotate(c0, c1, c2, pass.ka0, pass.ka1, pass.ka2);
    b_rotated = rotate(c0, c1, c2, pass.kb0, pass.kb1, pass.kb2);
    b = _mm256_blend_ps(b_rotated, _mm256_add_ps(b_rotated, c3), 0xF0);
  }
  _mm256_storeu_ps(pass.model + i * 16, a);
  _mm256_storeu_ps(pass.model + i * 16 + 8, b);
  pass.last_a = a;
  pass.last_b_rotated = b_rotated;
  pass.last_b = b;
}

// place() for joint i from its entries (column 0..3, row k) repeated in both 128-bit lanes of yk:
// lanes 0-3 take float 0 and lanes 4-7 float 1 for the weights of columns 0-1, floats 2 and 3
// for column 2 and the translation. In-lane permutes: the cross-lane vpermps takes about 7 cycles
// on a Zen 3 core, and a pass picking the weights with it took a fifth to a quarter longer there.
CRITTER_LTM_AVX2 inline void place_entries(Pass& pass, std::size_t i, __m256 y0, __m256 y1,
                                           __m256 y2) {
  const __m256i pick_a = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
  const __m256i pick_b = _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3);
  place(pass, i, i > 0, _mm256_permutevar_ps(y0, pick_a), _mm256_permutevar_ps(y1, pick_a),
        _mm256_permutevar_ps(y2, pick_a), _mm256_permutevar_ps(y0, pick_b),
        _mm256_permutevar_ps(y1, pick_b), _mm256_permutevar_ps(y2, pick_b));
}

}  // namespace

CRITTER_LTM_AVX2 void local_to_model_avx2(const std::int16_t* parents, std::size_t first_joint,
                                          std::size_t last, const float* local, const float* root,
                                          const float* correction, float* model) {
  // Columns 0-1 (lanes 0-7) and column 2 (lanes 8-11; lanes 12-15 unused, the translation goes
  // there) of ltm_avx512.cpp's tables.
  const Columns first{_mm256_setr_epi32(kY, kX, kX, kX, kX, kX, kY, kX),
                      _mm256_setr_epi32(kY, kY, kZ, kX, kY, kX, kZ, kX),
                      _mm256_setr_epi32(kZ, kW, kW, kX, kW, kZ, kW, kX),
                      _mm256_setr_epi32(kZ, kZ, kY, kX, kZ, kZ, kX, kX),
                      _mm256_setr_epi32(1, 1, 1, 1, 2, 2, 2, 2),
                      _mm256_setr_ps(1, 1, -1, 1, -1, 1, 1, 1),
                      _mm256_setr_ps(-2, 2, 2, 2, 2, -2, 2, 2),
                      _mm256_setr_ps(1, -0.0f, -0.0f, -0.0f, -0.0f, 1, -0.0f, -0.0f)};
  const Columns second{_mm256_setr_epi32(kX, kY, kX, kX, kX, kX, kX, kX),
                       _mm256_setr_epi32(kZ, kZ, kX, kX, kX, kX, kX, kX),
                       _mm256_setr_epi32(kW, kW, kY, kX, kX, kX, kX, kX),
                       _mm256_setr_epi32(kY, kX, kY, kX, kX, kX, kX, kX),
                       _mm256_setr_epi32(3, 3, 3, 3, 0, 0, 0, 0),
                       _mm256_setr_ps(1, -1, 1, 1, 1, 1, 1, 1),
                       _mm256_setr_ps(2, 2, -2, 2, 2, 2, 2, 2),
                       _mm256_setr_ps(-0.0f, -0.0f, 1, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f)};
  Pass pass = start_pass(parents, root, correction, model);
  for (std::size_t i = first_joint; i < last; ++i) {
    const float* tr = local + (i - first_joint) * kLocalFloats;
    const __m256 q2 = column2(tr + 3), s2 = column2(tr + 6);
    const __m256 local_a = rotation_scale(first, q2, s2);
    // Column 2 in the low lane, the translation in the high one.
    const __m256 local_b = _mm256_blend_ps(rotation_scale(second, q2, s2), column2(tr), 0xF0);
    place(pass, i, i > first_joint, weight<0>(local_a), weight<1>(local_a), weight<2>(local_a),
          weight<0>(local_b), weight<1>(local_b), weight<2>(local_b));
  }
}

CRITTER_LTM_AVX2 void local_to_model_avx2_soa(const std::int16_t* parents, std::size_t n,
                                              const float* soa, const float* root,
                                              const float* correction, float* model) {
  // Half a sixteen-lane block at a time: the rotation-scale entries of eight joints by
  // kRotationEntries (ltm_avx512.cpp's structure-of-arrays pass on half the lanes), transposed to
  // each joint's weights, then place() as for Transform input. Before this pass, structure-of-
  // arrays input was turned into Transforms first; on a Zen 3 core this pass takes about a third
  // less time (67 joints in cache), and loads rows the blend or sampler has just stored whole
  // instead of reading across the transposes' stores.
  constexpr std::size_t kBlockLanes = 16, kLanes = 8;
  Pass pass = start_pass(parents, root, correction, model);
  for (std::size_t first = 0; first < n; first += kLanes) {
    // The half's rows start 0 or 8 floats into each row of its block.
    const float* rows = soa + (first / kBlockLanes) * kBlockLanes * 10 + first % kBlockLanes;
    __m256 q[4], s[3], e[4][3];
    for (int c = 0; c < 4; ++c) q[c] = _mm256_load_ps(rows + (3 + c) * kBlockLanes);
    for (int c = 0; c < 3; ++c) s[c] = _mm256_load_ps(rows + (7 + c) * kBlockLanes);
    for (int c = 0; c < 3; ++c) {
      for (int r = 0; r < 3; ++r) {
        const RotationEntry& x = kRotationEntries[c][r];
        const __m256 u = _mm256_mul_ps(q[x.ua], q[x.ub]);
        const __m256 v = _mm256_mul_ps(q[x.va], q[x.vb]);
        const __m256 t =
            _mm256_fmadd_ps(_mm256_set1_ps(x.twice), _mm256_fmadd_ps(_mm256_set1_ps(x.sign), v, u),
                            _mm256_set1_ps(x.offset));
        e[c][r] = _mm256_mul_ps(t, s[c]);
      }
    }
    for (int r = 0; r < 3; ++r) e[3][r] = _mm256_load_ps(rows + r * kBlockLanes);
    // Per weight k: weights[k][m] holds in its 128-bit lane g the entries (column 0..3, row k)
    // of joint first + 4g + m.
    __m256 weights[3][4];
    for (int k = 0; k < 3; ++k) {
      const __m256 t0 = _mm256_unpacklo_ps(e[0][k], e[1][k]),
                   t1 = _mm256_unpackhi_ps(e[0][k], e[1][k]);
      const __m256 t2 = _mm256_unpacklo_ps(e[2][k], e[3][k]),
                   t3 = _mm256_unpackhi_ps(e[2][k], e[3][k]);
      weights[k][0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
      weights[k][1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
      weights[k][2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
      weights[k][3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    }
    const std::size_t count = n - first < kLanes ? n - first : kLanes;
    for (std::size_t m = 0; m < 4 && m < count; ++m)
      place_entries(pass, first + m, spread<0>(weights[0][m]), spread<0>(weights[1][m]),
                    spread<0>(weights[2][m]));
    for (std::size_t m = 0; m + 4 < count; ++m)
      place_entries(pass, first + m + 4, spread<1>(weights[0][m]), spread<1>(weights[1][m]),
                    spread<1>(weights[2][m]));
  }
}

}  // namespace critter::anim::detail

#if !defined(__clang__)
#pragma GCC pop_options
#endif
#endif
