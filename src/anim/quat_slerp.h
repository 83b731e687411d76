// Shortest-path spherical interpolation of unit quaternions, shared by the sampling, blending and
// transform-blend code so that all three agree to the last bit.
#pragma once

#include <cmath>

#include "critter/core/math.h"

namespace critter::anim::detail {

// slerp(a, b, f) along the shorter arc, normalised. a and b must be unit quaternions.
//
// sin(f·θ)/sin(θ) is evaluated with the power series in (cos θ − 1) whose terms obey
// u_0 = f, u_i = u_{i−1}·(f² − i²)/(i·(2i + 1)). For cos θ ≥ 0.7 six terms stay within 4e-7 of
// the exact value, which is below float resolution after normalisation, and cost no
// transcendental call. Consecutive keys are nearly always that close; wider arcs take acos/sin.
inline quat slerp_shortest(const quat& a, const quat& b, float f) {
  float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  const float sign = d < 0.0f ? -1.0f : 1.0f;
  d *= sign;
  const float g = 1.0f - f;
  float ca, cb;
  if (d >= 0.7f) {
    const float xm1 = d - 1.0f;
    const float f2 = f * f, g2 = g * g;
    float uf = f, ug = g, sf = f, sg = g, p = 1.0f;
    constexpr float kInv[7] = {0.0f,         1.0f / 3.0f,  1.0f / 10.0f, 1.0f / 21.0f,
                               1.0f / 36.0f, 1.0f / 55.0f, 1.0f / 78.0f};
    for (int i = 1; i <= 6; ++i) {
      const float ii = static_cast<float>(i * i);
      p *= xm1;
      uf *= (f2 - ii) * kInv[i];
      ug *= (g2 - ii) * kInv[i];
      sf += uf * p;
      sg += ug * p;
    }
    ca = sg;
    cb = sf;
  } else {
    const float theta = std::acos(d);
    const float inv_sin = 1.0f / std::sin(theta);
    ca = std::sin(g * theta) * inv_sin;
    cb = std::sin(f * theta) * inv_sin;
  }
  cb *= sign;
  const float x = ca * a.x + cb * b.x;
  const float y = ca * a.y + cb * b.y;
  const float z = ca * a.z + cb * b.z;
  const float w = ca * a.w + cb * b.w;
  const float inv_len = 1.0f / std::sqrt(x * x + y * y + z * z + w * w);
  return quat_xyzw(x * inv_len, y * inv_len, z * inv_len, w * inv_len);
}

// Normalises q; returns `fallback` when q has (nearly) zero length.
inline quat normalize_or(const quat& q, const quat& fallback) {
  const float len2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  if (!(len2 > 1e-24f)) return fallback;
  const float inv_len = 1.0f / std::sqrt(len2);
  return quat_xyzw(q.x * inv_len, q.y * inv_len, q.z * inv_len, q.w * inv_len);
}

}  // namespace critter::anim::detail
