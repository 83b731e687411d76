// SPDX-License-Identifier: MIT
#include "critter/anim/local_to_model_job.h"

#include <string>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace critter::anim {

namespace {

Status job_error(std::string location, std::string message) {
  return fail(
      Error::at(ErrorCode::kUsage, "LocalToModelJob", std::move(location), std::move(message)));
}

// The columns of R(q)·S(s) (column vectors), as in glm::mat3_cast.
struct RotationScale {
  float r00, r01, r02, r10, r11, r12, r20, r21, r22;
  RotationScale(const quat& q, const vec3& s) {
    const float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    const float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    const float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    r00 = (1.0f - 2.0f * (yy + zz)) * s.x;
    r01 = (2.0f * (xy + wz)) * s.x;
    r02 = (2.0f * (xz - wy)) * s.x;
    r10 = (2.0f * (xy - wz)) * s.y;
    r11 = (1.0f - 2.0f * (xx + zz)) * s.y;
    r12 = (2.0f * (yz + wx)) * s.y;
    r20 = (2.0f * (xz + wy)) * s.z;
    r21 = (2.0f * (yz - wx)) * s.z;
    r22 = (1.0f - 2.0f * (xx + yy)) * s.z;
  }
};

// parent · T(t)·R(q)·S(s) without building the local matrix: the rotation columns are scaled and
// pushed through the parent's four columns directly, which saves the general 4x4 product. The
// parent's last row is carried along, so any (even projective) root matrix is handled.
#if defined(__SSE2__)
// Columns in registers, replaced by the result; the operations and their order are those of the
// scalar form, so every path gives the same bits.
[[gnu::always_inline]] inline __m128 column(__m128 c0, __m128 c1, __m128 c2, float a, float b,
                                            float c) {
  return _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, _mm_set1_ps(a)), _mm_mul_ps(c1, _mm_set1_ps(b))),
                    _mm_mul_ps(c2, _mm_set1_ps(c)));
}

[[gnu::always_inline]] inline void compose(__m128& c0, __m128& c1, __m128& c2, __m128& c3,
                                           const vec3& t, const quat& q, const vec3& s) {
  const RotationScale m(q, s);
  const __m128 o0 = column(c0, c1, c2, m.r00, m.r01, m.r02);
  const __m128 o1 = column(c0, c1, c2, m.r10, m.r11, m.r12);
  const __m128 o2 = column(c0, c1, c2, m.r20, m.r21, m.r22);
  c3 = _mm_add_ps(column(c0, c1, c2, t.x, t.y, t.z), c3);
  c0 = o0;
  c1 = o1;
  c2 = o2;
}

// c · m for an affine m (last row 0 0 0 1): the root-bone correction after a root joint.
[[gnu::always_inline]] inline void correct(__m128& c0, __m128& c1, __m128& c2, __m128& c3,
                                           const float* m) {
  const __m128 o0 = column(c0, c1, c2, m[0], m[1], m[2]);
  const __m128 o1 = column(c0, c1, c2, m[4], m[5], m[6]);
  const __m128 o2 = column(c0, c1, c2, m[8], m[9], m[10]);
  c3 = _mm_add_ps(column(c0, c1, c2, m[12], m[13], m[14]), c3);
  c0 = o0;
  c1 = o1;
  c2 = o2;
}

// The forward pass. Most joints follow their parent (chains: spine, limbs, fingers, tails), so
// the previous joint's columns stay in registers instead of taking a store-to-load round trip,
// the longest part of the per-joint dependency chain.
[[gnu::always_inline]] inline void forward_pass(const std::int16_t* parents, std::size_t n,
                                                const Transform* local, const float* root,
                                                const float* correction, mat4* model) {
  __m128 c0 = _mm_loadu_ps(root), c1 = _mm_loadu_ps(root + 4);
  __m128 c2 = _mm_loadu_ps(root + 8), c3 = _mm_loadu_ps(root + 12);
  for (std::size_t i = 0; i < n; ++i) {
    const int p = parents[i];
    if (p != static_cast<int>(i) - 1 || p < 0) {
      const float* pm = p < 0 ? root : &model[p][0][0];
      c0 = _mm_loadu_ps(pm);
      c1 = _mm_loadu_ps(pm + 4);
      c2 = _mm_loadu_ps(pm + 8);
      c3 = _mm_loadu_ps(pm + 12);
    }
    compose(c0, c1, c2, c3, local[i].translation, local[i].rotation, local[i].scale);
    if (p < 0 && correction != nullptr) correct(c0, c1, c2, c3, correction);
    float* om = &model[i][0][0];
    _mm_storeu_ps(om, c0);
    _mm_storeu_ps(om + 4, c1);
    _mm_storeu_ps(om + 8, c2);
    _mm_storeu_ps(om + 12, c3);
  }
}

void forward_pass_sse2(const std::int16_t* parents, std::size_t n, const Transform* local,
                       const float* root, const float* correction, mat4* model) {
  forward_pass(parents, n, local, root, correction, model);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define CRITTER_LTM_AVX2 1
// The same pass compiled for AVX2 (three-operand instructions, register broadcasts: fewer
// instructions for the same operations); run only where the CPU has it.
[[gnu::target("avx2")]] void forward_pass_avx2(const std::int16_t* parents, std::size_t n,
                                               const Transform* local, const float* root,
                                               const float* correction, mat4* model) {
  forward_pass(parents, n, local, root, correction, model);
}

bool has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
#endif
#else
inline void compose(const mat4& parent, const vec3& t, const quat& q, const vec3& s, mat4& out) {
  const RotationScale m(q, s);
  const vec4 p0 = parent[0], p1 = parent[1], p2 = parent[2], p3 = parent[3];
  out[0] = p0 * m.r00 + p1 * m.r01 + p2 * m.r02;
  out[1] = p0 * m.r10 + p1 * m.r11 + p2 * m.r12;
  out[2] = p0 * m.r20 + p1 * m.r21 + p2 * m.r22;
  out[3] = p0 * t.x + p1 * t.y + p2 * t.z + p3;
}
#endif

}  // namespace

Status LocalToModelJob::validate() const {
  const std::size_t n = parents.size();
  if (input.size() != n)
    return job_error("input", "input has " + std::to_string(input.size()) + " transforms, " +
                                  std::to_string(n) + " parents given");
  if (output.size() != n)
    return job_error("output", "output has " + std::to_string(output.size()) + " matrices, " +
                                   std::to_string(n) + " parents given");
  for (std::size_t i = 0; i < n; ++i) {
    const int p = parents[i];
    if (p < -1 || p >= static_cast<int>(i))
      return job_error("parents/" + std::to_string(i),
                       "parent " + std::to_string(p) + " is not -1 and not below joint " +
                           std::to_string(i) + " (parents-first order)");
  }
  if (!all_finite(root)) return job_error("root", "root matrix is not finite");
  if (!all_finite(root_correction))
    return job_error("root_correction", "root correction matrix is not finite");
  if (root_correction[0][3] != 0.0f || root_correction[1][3] != 0.0f ||
      root_correction[2][3] != 0.0f || root_correction[3][3] != 1.0f)
    return job_error("root_correction", "root correction matrix is not affine");
  return {};
}

Status LocalToModelJob::run() const {
  if (auto ok = validate(); !ok) return ok;
  const std::size_t n = parents.size();
  const Transform* local = input.data();
  mat4* model = output.data();
  const bool corrected = root_correction != mat4(1.0f);
#if defined(__SSE2__)
  const float* correction = corrected ? &root_correction[0][0] : nullptr;
#if defined(CRITTER_LTM_AVX2)
  if (has_avx2()) {
    forward_pass_avx2(parents.data(), n, local, &root[0][0], correction, model);
    return {};
  }
#endif
  forward_pass_sse2(parents.data(), n, local, &root[0][0], correction, model);
#else
  for (std::size_t i = 0; i < n; ++i) {
    const int p = parents[i];
    const mat4& parent = p < 0 ? root : model[p];
    compose(parent, local[i].translation, local[i].rotation, local[i].scale, model[i]);
    if (p < 0 && corrected) model[i] = model[i] * root_correction;
  }
#endif
  return {};
}

}  // namespace critter::anim
