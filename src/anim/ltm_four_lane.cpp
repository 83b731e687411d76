// SPDX-License-Identifier: MIT
// The four-lane (SSE2) forward pass of LocalToModelJob: quaternion to matrix four joints at a
// time, then each joint times its parent with the parent's columns in registers.
#include "anim/ltm_kernels.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#include "anim/ltm_rotation_scale.h"
#include "critter/core/transform.h"

namespace critter::anim::detail {

namespace {

// parent · T(t)·R(q)·S(s) without building the local matrix: the rotation columns are scaled and
// pushed through the parent's four columns directly, which saves the general 4x4 product. The
// parent's last row is carried along, so any (even projective) root matrix is handled.
// Columns in registers, replaced by the result; the operations and their order are those of the
// scalar form, so every path gives the same bits.
[[gnu::always_inline]] inline __m128 column(__m128 c0, __m128 c1, __m128 c2, float a, float b,
                                            float c) {
  return _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, _mm_set1_ps(a)), _mm_mul_ps(c1, _mm_set1_ps(b))),
                    _mm_mul_ps(c2, _mm_set1_ps(c)));
}

[[gnu::always_inline]] inline void compose(__m128& c0, __m128& c1, __m128& c2, __m128& c3,
                                           const vec3& t, const quat& q, const vec3& s) {
  const RotationScale m(q.x, q.y, q.z, q.w, s.x, s.y, s.z);
  const __m128 o0 = column(c0, c1, c2, m.r00, m.r01, m.r02);
  const __m128 o1 = column(c0, c1, c2, m.r10, m.r11, m.r12);
  const __m128 o2 = column(c0, c1, c2, m.r20, m.r21, m.r22);
  c3 = _mm_add_ps(column(c0, c1, c2, t.x, t.y, t.z), c3);
  c0 = o0;
  c1 = o1;
  c2 = o2;
}

// c · m for an affine m (last row 0 0 0 1): a stored local matrix, or the root-bone correction
// after a root joint. The products and their order are compose()'s.
[[gnu::always_inline]] inline void multiply_affine(__m128& c0, __m128& c1, __m128& c2, __m128& c3,
                                                   const float* m) {
  const __m128 o0 = column(c0, c1, c2, m[0], m[1], m[2]);
  const __m128 o1 = column(c0, c1, c2, m[4], m[5], m[6]);
  const __m128 o2 = column(c0, c1, c2, m[8], m[9], m[10]);
  c3 = _mm_add_ps(column(c0, c1, c2, m[12], m[13], m[14]), c3);
  c0 = o0;
  c1 = o1;
  c2 = o2;
}

// Local matrices T·R·S of the four joints local[0..3], quaternion to matrix on four lanes at
// once, stored as the four columns of model[0..3] (the last row 0 0 0 1). Each lane does the
// operations of RotationScale in the same order, so the entries equal the scalar ones.
[[gnu::always_inline]] inline void local_matrices4(const Transform* local, mat4* model) {
  // Rows (tx ty tz qx), (qx qy qz qw) and (qw sx sy sz) of each joint, transposed to one
  // register per component; every load stays inside its joint's ten floats.
  __m128 t0 = _mm_loadu_ps(&local[0].translation.x), t1 = _mm_loadu_ps(&local[1].translation.x);
  __m128 t2 = _mm_loadu_ps(&local[2].translation.x), t3 = _mm_loadu_ps(&local[3].translation.x);
  __m128 q0 = _mm_loadu_ps(&local[0].rotation.x), q1 = _mm_loadu_ps(&local[1].rotation.x);
  __m128 q2 = _mm_loadu_ps(&local[2].rotation.x), q3 = _mm_loadu_ps(&local[3].rotation.x);
  __m128 s0 = _mm_loadu_ps(&local[0].rotation.w), s1 = _mm_loadu_ps(&local[1].rotation.w);
  __m128 s2 = _mm_loadu_ps(&local[2].rotation.w), s3 = _mm_loadu_ps(&local[3].rotation.w);
  _MM_TRANSPOSE4_PS(t0, t1, t2, t3);  // tx ty tz (qx)
  _MM_TRANSPOSE4_PS(q0, q1, q2, q3);  // qx qy qz qw
  _MM_TRANSPOSE4_PS(s0, s1, s2, s3);  // (qw) sx sy sz
  const __m128 one = _mm_set1_ps(1.0f), two = _mm_set1_ps(2.0f);
  const __m128 xx = _mm_mul_ps(q0, q0), yy = _mm_mul_ps(q1, q1), zz = _mm_mul_ps(q2, q2);
  const __m128 xy = _mm_mul_ps(q0, q1), xz = _mm_mul_ps(q0, q2), yz = _mm_mul_ps(q1, q2);
  const __m128 wx = _mm_mul_ps(q3, q0), wy = _mm_mul_ps(q3, q1), wz = _mm_mul_ps(q3, q2);
  const auto diag = [&](__m128 a, __m128 b, __m128 sc) {
    return _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(a, b))), sc);
  };
  const auto sum = [&](__m128 a, __m128 b, __m128 sc) {
    return _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(a, b)), sc);
  };
  const auto diff = [&](__m128 a, __m128 b, __m128 sc) {
    return _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(a, b)), sc);
  };
  __m128 r00 = diag(yy, zz, s1), r01 = sum(xy, wz, s1), r02 = diff(xz, wy, s1);
  __m128 r10 = diff(xy, wz, s2), r11 = diag(xx, zz, s2), r12 = sum(yz, wx, s2);
  __m128 r20 = sum(xz, wy, s3), r21 = diff(yz, wx, s3), r22 = diag(xx, yy, s3);
  __m128 zero0 = _mm_setzero_ps(), zero1 = zero0, zero2 = zero0, ones = one;
  _MM_TRANSPOSE4_PS(r00, r01, r02, zero0);
  _MM_TRANSPOSE4_PS(r10, r11, r12, zero1);
  _MM_TRANSPOSE4_PS(r20, r21, r22, zero2);
  _MM_TRANSPOSE4_PS(t0, t1, t2, ones);
  const __m128 columns[4][4] = {
      {r00, r10, r20, t0}, {r01, r11, r21, t1}, {r02, r12, r22, t2}, {zero0, zero1, zero2, ones}};
  for (int k = 0; k < 4; ++k) {
    float* om = &model[k][0][0];
    for (int c = 0; c < 4; ++c) _mm_storeu_ps(om + 4 * c, columns[k][c]);
  }
}

// The forward pass, four joints at a time: their local matrices first (local_matrices4, written
// where their model matrices go), then each joint in order times its parent. Most joints follow
// their parent (chains: spine, limbs, fingers, tails), so the previous joint's columns stay in
// registers instead of taking a store-to-load round trip, the longest part of the per-joint
// dependency chain. The last n % 4 joints convert their quaternions one at a time.
[[gnu::always_inline]] inline void forward_pass(const std::int16_t* parents, std::size_t first,
                                                std::size_t n, const Transform* local,
                                                const float* root, const float* correction,
                                                mat4* model) {
  __m128 c0 = _mm_loadu_ps(root), c1 = _mm_loadu_ps(root + 4);
  __m128 c2 = _mm_loadu_ps(root + 8), c3 = _mm_loadu_ps(root + 12);
  // Joints [first, n), local[k] the joint first + k.
  const std::size_t blocked = first + (n - first) / 4 * 4;
  for (std::size_t i = first; i < n; ++i) {
    if ((i - first) % 4 == 0 && i < blocked) local_matrices4(local + (i - first), model + i);
    const int p = parents[i];
    if (p != static_cast<int>(i) - 1 || p < 0 || i == first) {
      const float* pm = p < 0 ? root : &model[p][0][0];
      c0 = _mm_loadu_ps(pm);
      c1 = _mm_loadu_ps(pm + 4);
      c2 = _mm_loadu_ps(pm + 8);
      c3 = _mm_loadu_ps(pm + 12);
    }
    float* om = &model[i][0][0];
    if (i < blocked) {
      multiply_affine(c0, c1, c2, c3, om);
    } else {
      const Transform& x = local[i - first];
      compose(c0, c1, c2, c3, x.translation, x.rotation, x.scale);
    }
    if (p < 0 && correction != nullptr) multiply_affine(c0, c1, c2, c3, correction);
    _mm_storeu_ps(om, c0);
    _mm_storeu_ps(om + 4, c1);
    _mm_storeu_ps(om + 8, c2);
    _mm_storeu_ps(om + 12, c3);
  }
}

}  // namespace

void local_to_model_sse2(const std::int16_t* parents, std::size_t first, std::size_t last,
                         const float* local, const float* root, const float* correction,
                         float* model) {
  forward_pass(parents, first, last, reinterpret_cast<const Transform*>(local), root, correction,
               reinterpret_cast<mat4*>(model));
}

}  // namespace critter::anim::detail

#endif
