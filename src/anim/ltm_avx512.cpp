// SPDX-License-Identifier: MIT
// AVX-512 forward pass of LocalToModelJob: one joint's whole 4x4 matrix in one 512-bit register
// (lane 4·column + row). Per joint: the quaternion products of all nine rotation entries on
// sixteen lanes at once, the weight vectors (each local column's k-th entry repeated down its
// column) by one in-lane permute each, and the product with the parent as three multiplies and
// three adds, the parent's columns broadcast from memory (or from registers when the parent is
// the previous joint). The joint's floats are read with 128-bit broadcasts, so every permute
// stays inside a 128-bit lane; there are no transposes and no per-entry scalar broadcasts,
// which is where the four-lane paths spend most of their instructions. Two fused multiply-adds
// whose products are exact (by ±1 and ±2) stand in for four adds and subtracts.
// Every function carries the target attribute and this file includes no library header (see
// ltm_kernels.h). Only called after a run-time check of the CPU (local_to_model_path_available).
// GCC 12's AVX-512 intrinsics (permutes, broadcasts) start from _mm512_undefined_ps(), which its
// own -Wmaybe-uninitialized then reports at every use; the values are never read.
#include "anim/ltm_kernels.h"

#if defined(__x86_64__) && defined(__GNUC__)
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

// The operations must stay separate multiplies and adds: a fused multiply-add rounds once
// instead of twice, and the results would no longer equal the other paths bit for bit.
#if defined(__clang__)
#pragma clang fp contract(off)
#else
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

#define CRITTER_LTM_AVX512 __attribute__((target("avx512f,fma")))

namespace critter::anim::detail {

namespace {

// In-lane positions of a quaternion's components in a register that repeats (x y z w).
constexpr int kX = 0, kY = 1, kZ = 2, kW = 3;

// Columns 0-2 of parent · c, the parent's columns in q0..q2 repeated on the four lane groups, c's
// weights in w0..w2 (lane 4·j + r holds c[j][k] for wk): column j = (q0·c[j][0] + q1·c[j][1]) +
// q2·c[j][2], the order of the scalar form. Column 3 still lacks the parent's column 3.
CRITTER_LTM_AVX512 inline __m512 rotate(__m512 q0, __m512 q1, __m512 q2, __m512 w0, __m512 w1,
                                        __m512 w2) {
  const __m512 acc = _mm512_add_ps(_mm512_mul_ps(q0, w0), _mm512_mul_ps(q1, w1));
  return _mm512_add_ps(acc, _mm512_mul_ps(q2, w2));
}

// rotate()'s result with the parent's column 3 (q3) added to column 3.
CRITTER_LTM_AVX512 inline __m512 translate(__m512 rotated, __m512 q3) {
  return _mm512_mask_add_ps(rotated, 0xF000, rotated, q3);
}

// Column k of m on all four lane groups.
template <int k>
CRITTER_LTM_AVX512 inline __m512 spread(__m512 m) {
  return _mm512_shuffle_f32x4(m, m, k * 0x55);
}

CRITTER_LTM_AVX512 inline __m512 column4(const float* m) {
  return _mm512_broadcast_f32x4(_mm_loadu_ps(m));
}

// What carries from one joint to the next: the previous joint's model matrix and its columns
// 0-2 as rotate() left them, and the root correction's weights.
struct Pass {
  const std::int16_t* parents;
  const float* root;
  const float* correction;
  float* model;
  __m512 k0, k1, k2;
  __m512 last, last_rotated;
};

// model[i] from the weights of joint i's local matrix (w0..w2: entry (column j, row k) repeated
// over column j's lanes, column 3 the translation). The parent's columns come spread over the
// lane groups: a joint that follows its parent (a chain: spine, limbs, fingers, tails) takes them
// from the registers (when `chained`, the parent done in this call) instead of the memory just
// written, which would put a store-to-load round trip on the dependency chain; columns 0-2 come
// from before the translation add, one add earlier.
CRITTER_LTM_AVX512 inline void place(Pass& pass, std::size_t i, bool chained, __m512 w0, __m512 w1,
                                     __m512 w2) {
  const int p = pass.parents[i];
  __m512 q0, q1, q2, q3;
  if (p == static_cast<int>(i) - 1 && p >= 0 && chained) {
    q0 = spread<0>(pass.last_rotated);
    q1 = spread<1>(pass.last_rotated);
    q2 = spread<2>(pass.last_rotated);
    q3 = spread<3>(pass.last);
  } else {
    const float* pm = p < 0 ? pass.root : pass.model + static_cast<std::size_t>(p) * 16;
    q0 = column4(pm);
    q1 = column4(pm + 4);
    q2 = column4(pm + 8);
    q3 = column4(pm + 12);
  }
  __m512 rotated = rotate(q0, q1, q2, w0, w1, w2);
  __m512 m = translate(rotated, q3);
  if (p < 0 && pass.correction != nullptr) {
    rotated = rotate(spread<0>(m), spread<1>(m), spread<2>(m), pass.k0, pass.k1, pass.k2);
    m = translate(rotated, spread<3>(m));
  }
  _mm512_storeu_ps(pass.model + i * 16, m);
  pass.last_rotated = rotated;
  pass.last = m;
}

CRITTER_LTM_AVX512 inline Pass start_pass(const std::int16_t* parents, const float* root,
                                          const float* correction, float* model) {
  const __m512 one = _mm512_set1_ps(1.0f);
  Pass pass{parents, root, correction, model, one, one, one, one, one};
  // The correction's weights, once.
  if (correction != nullptr) {
    const __m512 c = _mm512_loadu_ps(correction);
    pass.k0 = _mm512_permute_ps(c, 0x00);
    pass.k1 = _mm512_permute_ps(c, 0x55);
    pass.k2 = _mm512_permute_ps(c, 0xAA);
  }
  return pass;
}

}  // namespace

CRITTER_LTM_AVX512 void local_to_model_avx512(const std::int16_t* parents, std::size_t first,
                                              std::size_t last_joint, const float* local,
                                              const float* root, const float* correction,
                                              float* model) {
  // Rotation entry (column c, row r) in lane 4c + r: 2·(u ± v) off the diagonal, 1 − 2·(u + v)
  // on it, as glm::mat3_cast; u and v are products of two quaternion components each, picked
  // inside each 128-bit lane from (x y z w) repeated. Lanes 12-15 (column 3) are unused here.
  const __m512i u_a =
      _mm512_setr_epi32(kY, kX, kX, kX, kX, kX, kY, kX, kX, kY, kX, kX, kX, kX, kX, kX);
  const __m512i u_b =
      _mm512_setr_epi32(kY, kY, kZ, kX, kY, kX, kZ, kX, kZ, kZ, kX, kX, kX, kX, kX, kX);
  const __m512i v_a =
      _mm512_setr_epi32(kZ, kW, kW, kX, kW, kZ, kW, kX, kW, kW, kY, kX, kX, kX, kX, kX);
  const __m512i v_b =
      _mm512_setr_epi32(kZ, kZ, kY, kX, kZ, kZ, kX, kX, kY, kX, kY, kX, kX, kX, kX, kX);
  // u ± v as one fused multiply-add, u + (±1)·v: the product by ±1 is exact, so the single
  // rounding gives u + v or u − v to the bit. Lanes 2 (xz − wy), 4 (xy − wz) and 9 (yz − wx)
  // subtract.
  const __m512 sign = _mm512_setr_ps(1, 1, -1, 1, -1, 1, 1, 1, 1, -1, 1, 1, 1, 1, 1, 1);
  // Then 2·t off the diagonal and 1 − 2·t on it (lanes 0, 5 and 10) as (±2)·t + (1 or −0),
  // again exact but for the one rounding of the scalar form; −0 leaves every 2·t as it is, the
  // sign of a zero included.
  const __m512 twice = _mm512_setr_ps(-2, 2, 2, 2, 2, -2, 2, 2, 2, 2, -2, 2, 2, 2, 2, 2);
  const __m512 offset = _mm512_setr_ps(1, -0.0f, -0.0f, -0.0f, -0.0f, 1, -0.0f, -0.0f, -0.0f, -0.0f,
                                       1, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f);
  // Each column's scale factor, from (w sx sy sz) repeated.
  const __m512i scale = _mm512_setr_epi32(1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 0, 0, 0, 0);
  Pass pass = start_pass(parents, root, correction, model);
  for (std::size_t i = first; i < last_joint; ++i) {
    // Translation, rotation and (w, scale) of the joint, each repeated on the four lane groups;
    // every load stays inside the joint's ten floats.
    const float* tr = local + (i - first) * kLocalFloats;
    const __m512 t4 = column4(tr), q4 = column4(tr + 3), s4 = column4(tr + 6);
    const __m512 u = _mm512_mul_ps(_mm512_permutevar_ps(q4, u_a), _mm512_permutevar_ps(q4, u_b));
    const __m512 v = _mm512_mul_ps(_mm512_permutevar_ps(q4, v_a), _mm512_permutevar_ps(q4, v_b));
    const __m512 r = _mm512_fmadd_ps(twice, _mm512_fmadd_ps(sign, v, u), offset);
    // The local matrix T·R·S, column j in lanes 4j..4j+3 (row 3 is never read).
    const __m512 local_matrix = _mm512_mask_mul_ps(t4, 0x0FFF, r, _mm512_permutevar_ps(s4, scale));
    // Weights: entry (column j, row k) of the local matrix repeated over column j's lanes.
    const __m512 w0 = _mm512_permute_ps(local_matrix, 0x00);
    const __m512 w1 = _mm512_permute_ps(local_matrix, 0x55);
    const __m512 w2 = _mm512_permute_ps(local_matrix, 0xAA);
    place(pass, i, i > first, w0, w1, w2);
  }
}

// Structure-of-arrays input: per block of sixteen joints, the nine rotation-scale entries of
// their local matrices on sixteen lanes at once (the operations of the per-joint form above on
// each lane: the same products, the same fused multiply-adds, the same bits), the translation
// rows beside them; then, per weight k, the four entries (column j, row k) of each joint
// transposed into four consecutive floats of a register, which one permute spreads over the
// column lanes for place().
CRITTER_LTM_AVX512 void local_to_model_avx512_soa(const std::int16_t* parents, std::size_t n,
                                                  const float* soa, const float* root,
                                                  const float* correction, float* model) {
  constexpr std::size_t kLanes = 16;
  // Group g's four floats spread over the four column lane groups.
  const __m512i spread_group[4] = {
      _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3),
      _mm512_setr_epi32(4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7),
      _mm512_setr_epi32(8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 10, 11, 11, 11, 11),
      _mm512_setr_epi32(12, 12, 12, 12, 13, 13, 13, 13, 14, 14, 14, 14, 15, 15, 15, 15)};
  Pass pass = start_pass(parents, root, correction, model);
  for (std::size_t first = 0; first < n; first += kLanes) {
    const float* block = soa + first * 10;
    __m512 q[4], s[3], e[4][3];
    for (int c = 0; c < 4; ++c) q[c] = _mm512_load_ps(block + (3 + c) * kLanes);
    for (int c = 0; c < 3; ++c) s[c] = _mm512_load_ps(block + (7 + c) * kLanes);
    for (int c = 0; c < 3; ++c) {
      for (int r = 0; r < 3; ++r) {
        const RotationEntry& x = kRotationEntries[c][r];
        const __m512 u = _mm512_mul_ps(q[x.ua], q[x.ub]);
        const __m512 v = _mm512_mul_ps(q[x.va], q[x.vb]);
        const __m512 t =
            _mm512_fmadd_ps(_mm512_set1_ps(x.twice), _mm512_fmadd_ps(_mm512_set1_ps(x.sign), v, u),
                            _mm512_set1_ps(x.offset));
        e[c][r] = _mm512_mul_ps(t, s[c]);
      }
    }
    for (int r = 0; r < 3; ++r) e[3][r] = _mm512_load_ps(block + r * kLanes);
    // Per weight k: four vectors, weights[k][m] holding in its 128-bit group g the entries
    // (0..3, k) of joint 4g + m. They stay in registers, each joint's taken out by one
    // permute; stored to a stack buffer and read back a joint at a time, a 67-joint pass took
    // about 9 % longer.
    __m512 weights[3][4];
    for (int k = 0; k < 3; ++k) {
      const __m512 t0 = _mm512_unpacklo_ps(e[0][k], e[1][k]),
                   t1 = _mm512_unpackhi_ps(e[0][k], e[1][k]);
      const __m512 t2 = _mm512_unpacklo_ps(e[2][k], e[3][k]),
                   t3 = _mm512_unpackhi_ps(e[2][k], e[3][k]);
      weights[k][0] = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
      weights[k][1] = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
      weights[k][2] = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
      weights[k][3] = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    }
    const std::size_t count = n - first < kLanes ? n - first : kLanes;
    for (std::size_t g = 0; g < 4; ++g) {
      for (std::size_t m = 0; m < 4; ++m) {
        const std::size_t l = 4 * g + m;
        if (l >= count) break;
        place(pass, first + l, first + l > 0, _mm512_permutexvar_ps(spread_group[g], weights[0][m]),
              _mm512_permutexvar_ps(spread_group[g], weights[1][m]),
              _mm512_permutexvar_ps(spread_group[g], weights[2][m]));
      }
    }
  }
}

}  // namespace critter::anim::detail

#if !defined(__clang__)
#pragma GCC pop_options
#pragma GCC diagnostic pop
#endif
#endif
