#include "critter/anim/local_to_model_job.h"

#include <string>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace critter::anim {

namespace {

Status job_error(std::string location, std::string message) {
  return fail(
      Error::at(ErrorCode::kUsage, "LocalToModelJob", std::move(location), std::move(message)));
}

// parent · T(t)·R(q)·S(s) without building the local matrix: the rotation columns are scaled and
// pushed through the parent's four columns directly, which saves the general 4x4 product. The
// parent's last row is carried along, so any (even projective) root matrix is handled. With SSE
// each column is one register; the operations and their order are those of the scalar form.
inline void compose(const mat4& parent, const vec3& t, const quat& q, const vec3& s, mat4& out) {
  const float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  const float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  const float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  // Columns of R·S (column vectors), as in glm::mat3_cast.
  const float r00 = (1.0f - 2.0f * (yy + zz)) * s.x;
  const float r01 = (2.0f * (xy + wz)) * s.x;
  const float r02 = (2.0f * (xz - wy)) * s.x;
  const float r10 = (2.0f * (xy - wz)) * s.y;
  const float r11 = (1.0f - 2.0f * (xx + zz)) * s.y;
  const float r12 = (2.0f * (yz + wx)) * s.y;
  const float r20 = (2.0f * (xz + wy)) * s.z;
  const float r21 = (2.0f * (yz - wx)) * s.z;
  const float r22 = (1.0f - 2.0f * (xx + yy)) * s.z;
#if defined(__SSE2__)
  const float* pm = &parent[0][0];
  const __m128 p0 = _mm_loadu_ps(pm), p1 = _mm_loadu_ps(pm + 4);
  const __m128 p2 = _mm_loadu_ps(pm + 8), p3 = _mm_loadu_ps(pm + 12);
  const auto column = [&](float a, float b, float c) {
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(p0, _mm_set1_ps(a)), _mm_mul_ps(p1, _mm_set1_ps(b))),
                      _mm_mul_ps(p2, _mm_set1_ps(c)));
  };
  float* om = &out[0][0];
  _mm_storeu_ps(om, column(r00, r01, r02));
  _mm_storeu_ps(om + 4, column(r10, r11, r12));
  _mm_storeu_ps(om + 8, column(r20, r21, r22));
  _mm_storeu_ps(om + 12, _mm_add_ps(column(t.x, t.y, t.z), p3));
#else
  const vec4 p0 = parent[0], p1 = parent[1], p2 = parent[2], p3 = parent[3];
  out[0] = p0 * r00 + p1 * r01 + p2 * r02;
  out[1] = p0 * r10 + p1 * r11 + p2 * r12;
  out[2] = p0 * r20 + p1 * r21 + p2 * r22;
  out[3] = p0 * t.x + p1 * t.y + p2 * t.z + p3;
#endif
}

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
  if (legacy_rest_translation && rest.size() != n)
    return job_error("rest", "legacy_rest_translation needs a rest pose of " + std::to_string(n) +
                                 " transforms, got " + std::to_string(rest.size()));
  if (!all_finite(root)) return job_error("root", "root matrix is not finite");
  return {};
}

Status LocalToModelJob::run() const {
  if (auto ok = validate(); !ok) return ok;
  const std::size_t n = parents.size();
  const Transform* local = input.data();
  const Transform* rest_pose = legacy_rest_translation ? rest.data() : local;
  mat4* model = output.data();
  for (std::size_t i = 0; i < n; ++i) {
    const int p = parents[i];
    const mat4& parent = p < 0 ? root : model[p];
    compose(parent, rest_pose[i].translation, local[i].rotation, local[i].scale, model[i]);
  }
  return {};
}

}  // namespace critter::anim
