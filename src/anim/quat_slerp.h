// Shortest-path spherical interpolation of unit quaternions, shared by the sampling, blending and
// transform-blend code so that all three agree to the last bit.
#pragma once

#include <cmath>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include "critter/core/math.h"

namespace critter::anim::detail {

// sin(f·θ)/sin(θ) and sin(g·θ)/sin(θ) for cos θ = 1 + xm1, from the power series in (cos θ − 1)
// whose terms obey u_0 = f, u_m = u_{m−1}·(f² − m²)/(m·(2m + 1)), summed in Horner form with N
// terms. Both ratios are evaluated together so that their dependency chains overlap.
template <int N>
inline void sin_ratios(float f, float g, float xm1, float& rf, float& rg) {
  constexpr float kInv[7] = {0.0f,         1.0f / 3.0f,  1.0f / 10.0f, 1.0f / 21.0f,
                             1.0f / 36.0f, 1.0f / 55.0f, 1.0f / 78.0f};
  const float f2 = f * f, g2 = g * g;
  float hf = 1.0f, hg = 1.0f;
  for (int m = N; m >= 1; --m) {
    const float k = kInv[m] * xm1;
    const float mm = static_cast<float>(m * m);
    hf = 1.0f + (f2 - mm) * k * hf;
    hg = 1.0f + (g2 - mm) * k * hg;
  }
  rf = f * hf;
  rg = g * hg;
}

// slerp(a, b, f) along the shorter arc, normalised. a and b must be unit quaternions.
//
// The weights sin((1 − f)·θ)/sin θ and sin(f·θ)/sin θ come from sin_ratios: against the exact
// values the truncation error is below 1.5e-7 with 3 terms for cos θ ≥ 0.95 and below 3e-7 with
// 6 terms for cos θ ≥ 0.7, i.e. at float resolution, with no transcendental call. Consecutive
// keys are nearly always that close; wider arcs take acos and sin.
inline quat slerp_shortest(const quat& a, const quat& b, float f) {
  float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  const float sign = d < 0.0f ? -1.0f : 1.0f;
  d *= sign;
  const float g = 1.0f - f;
  float ca, cb;
  if (d >= 0.95f) {
    sin_ratios<3>(f, g, d - 1.0f, cb, ca);
  } else if (d >= 0.7f) {
    sin_ratios<6>(f, g, d - 1.0f, cb, ca);
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
  // The slerp of unit quaternions is unit up to rounding and the series error (|len² − 1| below
  // 1e-5), so one Newton step for 1/sqrt(len²) from 1 normalises to within float precision
  // ((3/8)(len² − 1)² < 1e-10) without a square root or a division.
  const float len2 = x * x + y * y + z * z + w * w;
  const float inv_len = 1.5f - 0.5f * len2;
  return quat_xyzw(x * inv_len, y * inv_len, z * inv_len, w * inv_len);
}

// 1/sqrt(x) for x > 0 to about 2e-7 relative: the hardware estimate refined by one Newton step,
// which costs a fraction of the latency of sqrt followed by a division. Scalar fallback without
// SSE.
inline float inv_sqrt(float x) {
#if defined(__SSE__)
  const float y = _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(x)));
  return y * (1.5f - 0.5f * x * y * y);
#else
  return 1.0f / std::sqrt(x);
#endif
}

// Normalises q; returns `fallback` when q has (nearly) zero length.
inline quat normalize_or(const quat& q, const quat& fallback) {
  const float len2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  if (!(len2 > 1e-24f)) return fallback;
  const float inv_len = inv_sqrt(len2);
  return quat_xyzw(q.x * inv_len, q.y * inv_len, q.z * inv_len, q.w * inv_len);
}

}  // namespace critter::anim::detail
