// Shortest-path spherical interpolation of unit quaternions, shared by the sampling, blending and
// transform-blend code so that all three agree to the last bit.
#pragma once

#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__SSE__)
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

#if defined(__SSE2__)

// Four quaternions, one per lane, components in separate registers.
struct Quat4 {
  __m128 x, y, z, w;
};

// slerp_shortest on four lanes at once, with the same operations in the same order, so each lane
// equals the scalar result bit for bit; a lane with f == 0 returns its `a` unchanged, as the
// samplers need at keys. Only the narrow-arc series is vectorised: when some lane's |cos θ| is
// below 0.95 (or not a number) nothing is written and false is returned; the caller then takes
// the scalar function per lane.
[[gnu::always_inline]] inline bool slerp_shortest4(const Quat4& a, const Quat4& b, __m128 f,
                                                   Quat4& out) {
  const __m128 sign_mask = _mm_set1_ps(-0.0f);
  __m128 d = _mm_add_ps(
      _mm_add_ps(_mm_add_ps(_mm_mul_ps(a.x, b.x), _mm_mul_ps(a.y, b.y)), _mm_mul_ps(a.z, b.z)),
      _mm_mul_ps(a.w, b.w));
  const __m128 sign = _mm_and_ps(d, sign_mask);
  d = _mm_xor_ps(d, sign);
  if (_mm_movemask_ps(_mm_cmpnge_ps(d, _mm_set1_ps(0.95f))) != 0) return false;
  const __m128 one = _mm_set1_ps(1.0f);
  const __m128 g = _mm_sub_ps(one, f);
  const __m128 xm1 = _mm_sub_ps(d, one);
  const __m128 f2 = _mm_mul_ps(f, f), g2 = _mm_mul_ps(g, g);
  __m128 hf = one, hg = one;
  constexpr float kInv[4] = {0.0f, 1.0f / 3.0f, 1.0f / 10.0f, 1.0f / 21.0f};
  for (int m = 3; m >= 1; --m) {
    const __m128 k = _mm_mul_ps(_mm_set1_ps(kInv[m]), xm1);
    const __m128 mm = _mm_set1_ps(static_cast<float>(m * m));
    hf = _mm_add_ps(one, _mm_mul_ps(_mm_mul_ps(_mm_sub_ps(f2, mm), k), hf));
    hg = _mm_add_ps(one, _mm_mul_ps(_mm_mul_ps(_mm_sub_ps(g2, mm), k), hg));
  }
  const __m128 ca = _mm_mul_ps(g, hg);
  const __m128 cb = _mm_xor_ps(_mm_mul_ps(f, hf), sign);
  const __m128 x = _mm_add_ps(_mm_mul_ps(ca, a.x), _mm_mul_ps(cb, b.x));
  const __m128 y = _mm_add_ps(_mm_mul_ps(ca, a.y), _mm_mul_ps(cb, b.y));
  const __m128 z = _mm_add_ps(_mm_mul_ps(ca, a.z), _mm_mul_ps(cb, b.z));
  const __m128 w = _mm_add_ps(_mm_mul_ps(ca, a.w), _mm_mul_ps(cb, b.w));
  const __m128 len2 =
      _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z)),
                 _mm_mul_ps(w, w));
  const __m128 inv_len = _mm_sub_ps(_mm_set1_ps(1.5f), _mm_mul_ps(_mm_set1_ps(0.5f), len2));
  const __m128 at_key = _mm_cmpeq_ps(f, _mm_setzero_ps());
  const auto pick = [&](__m128 key, __m128 mid) {
    return _mm_or_ps(_mm_and_ps(at_key, key), _mm_andnot_ps(at_key, _mm_mul_ps(mid, inv_len)));
  };
  out.x = pick(a.x, x);
  out.y = pick(a.y, y);
  out.z = pick(a.z, z);
  out.w = pick(a.w, w);
  return true;
}

#endif

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
