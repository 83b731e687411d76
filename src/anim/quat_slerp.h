// SPDX-License-Identifier: MIT
// Shortest-path interpolation of unit quaternions for the samplers: the spherical one of exact
// clips (slerp) and the normalised lerp of compact clips (nlerp; its scalar form is
// critter::nlerp_shortest), each on four lanes and eight lanes at once, equal to the scalar form to
// the last bit. (Blending has its own branch-free slerp in blend_kernel_simd.h.)
#pragma once

#include <cmath>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#elif defined(__SSE2__)
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

// slerp(a, b, f) along the shorter arc, normalised. a and b must be unit quaternions; the error
// bounds below hold for f in [0, 1].
//
// The weights sin((1 − f)·θ)/sin θ and sin(f·θ)/sin θ come from sin_ratios: against the exact
// values the truncation error is below 1.5e-7 with 3 terms for cos θ ≥ 0.95 and below 3e-7 with
// 6 terms for cos θ ≥ 0.7, i.e. at float resolution, with no transcendental call. Consecutive
// keys are nearly always that close. A wider arc (cos θ < 0.7) is taken as the ratios of the
// half angle φ = θ/2, whose cosine sqrt((1 + cos θ)/2) is at least 0.707:
// sin(f·θ)/sin θ = (sin(2f·φ)/sin φ) / (2 cos φ), with the same 6-term series (error below
// 2e-7). No band calls a transcendental function, so slerp_shortest4 computes every band lane
// by lane with the same operations.
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
    const float c = std::sqrt(0.5f + 0.5f * d);
    sin_ratios<6>(f + f, g + g, c - 1.0f, cb, ca);
    const float half_inv = 0.5f / c;
    ca *= half_inv;
    cb *= half_inv;
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

// mask ? yes : no, lane by lane, with SSE2 alone (the baseline every x86-64 CPU runs).
inline __m128 select4(__m128 mask, __m128 yes, __m128 no) {
  return _mm_or_ps(_mm_and_ps(mask, yes), _mm_andnot_ps(mask, no));
}

// Four quaternions, one per lane, components in separate registers.
struct Quat4 {
  __m128 x, y, z, w;
};

// The constants of slerp_shortest4 as four-lane vectors in memory, so that each one is an
// operand read from memory rather than a scalar broadcast at every use.
struct alignas(16) Splat4 {
  float v[4];
};
constexpr Splat4 splat4(float x) {
  return Splat4{{x, x, x, x}};
}
inline constexpr Splat4 kSeriesInv4[7] = {
    splat4(0.0f),         splat4(1.0f / 3.0f),  splat4(1.0f / 10.0f), splat4(1.0f / 21.0f),
    splat4(1.0f / 36.0f), splat4(1.0f / 55.0f), splat4(1.0f / 78.0f)};
inline constexpr Splat4 kSquares4[7] = {splat4(0.0f),  splat4(1.0f),  splat4(4.0f), splat4(9.0f),
                                        splat4(16.0f), splat4(25.0f), splat4(36.0f)};
inline __m128 load4(const Splat4& c) {
  return _mm_load_ps(c.v);
}

// nlerp_shortest (critter/core/math.h) on four lanes, for N independent groups of four: the
// same operations in the same order, so each lane equals the scalar result bit for bit. A lane
// with f == 0 is not given its `a`: the caller selects it.
template <int N>
[[gnu::always_inline]] inline void nlerp_shortest4(const Quat4 (&a)[N], const Quat4 (&b)[N],
                                                   const __m128 (&f)[N], Quat4 (&out)[N]) {
  const __m128 one = _mm_set1_ps(1.0f);
  for (int n = 0; n < N; ++n) {
    const __m128 d = _mm_add_ps(_mm_add_ps(_mm_mul_ps(a[n].x, b[n].x), _mm_mul_ps(a[n].y, b[n].y)),
                                _mm_add_ps(_mm_mul_ps(a[n].z, b[n].z), _mm_mul_ps(a[n].w, b[n].w)));
    const __m128 fb = _mm_xor_ps(f[n], _mm_and_ps(d, _mm_set1_ps(-0.0f)));
    const __m128 fa = _mm_sub_ps(one, f[n]);
    const __m128 x = _mm_add_ps(_mm_mul_ps(a[n].x, fa), _mm_mul_ps(b[n].x, fb));
    const __m128 y = _mm_add_ps(_mm_mul_ps(a[n].y, fa), _mm_mul_ps(b[n].y, fb));
    const __m128 z = _mm_add_ps(_mm_mul_ps(a[n].z, fa), _mm_mul_ps(b[n].z, fb));
    const __m128 w = _mm_add_ps(_mm_mul_ps(a[n].w, fa), _mm_mul_ps(b[n].w, fb));
    const __m128 len2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)),
                                   _mm_add_ps(_mm_mul_ps(z, z), _mm_mul_ps(w, w)));
    const __m128 inv = _mm_div_ps(one, _mm_sqrt_ps(len2));
    out[n] = Quat4{_mm_mul_ps(x, inv), _mm_mul_ps(y, inv), _mm_mul_ps(z, inv), _mm_mul_ps(w, inv)};
  }
}

// slerp_shortest on four lanes at once, for N independent groups of four (their steps
// interleaved, so that the groups' dependency chains overlap): each lane equals the scalar result
// bit for bit, whatever band its arc falls in; a lane with f == 0 returns its `a` unchanged. One
// 6-term series serves all lanes, the narrow lanes having their three highest terms zeroed (which
// leaves the Horner sums at exactly 1 until the 3-term part starts, so a block of narrow lanes
// skips them) and the wide lanes given their half-angle inputs; the square root and the division
// the wide band needs run only when some lane is wide.
template <int N>
[[gnu::always_inline]] inline void slerp_shortest4(const Quat4 (&a)[N], const Quat4 (&b)[N],
                                                   const __m128 (&f)[N], Quat4 (&out)[N]) {
  const __m128 one = _mm_set1_ps(1.0f);
  __m128 sign[N], d[N], g[N], ff[N], xm1[N], beyond3[N], wide[N];
  int beyond3_bits = 0, wide_bits = 0;
  for (int n = 0; n < N; ++n) {
    d[n] = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(a[n].x, b[n].x), _mm_mul_ps(a[n].y, b[n].y)),
                                 _mm_mul_ps(a[n].z, b[n].z)),
                      _mm_mul_ps(a[n].w, b[n].w));
    sign[n] = _mm_and_ps(d[n], _mm_set1_ps(-0.0f));
    d[n] = _mm_xor_ps(d[n], sign[n]);
    g[n] = _mm_sub_ps(one, f[n]);
    ff[n] = f[n];
    xm1[n] = _mm_sub_ps(d[n], one);
    // Lanes below the narrow band, and among them the wide ones; both masks are set for NaN, as
    // the scalar branches send a NaN to the wide band.
    beyond3[n] = _mm_cmpnge_ps(d[n], _mm_set1_ps(0.95f));
    wide[n] = _mm_cmpnge_ps(d[n], _mm_set1_ps(0.7f));
    beyond3_bits |= _mm_movemask_ps(beyond3[n]);
    wide_bits |= _mm_movemask_ps(wide[n]);
  }
  const bool narrow = beyond3_bits == 0;
  const bool any_wide = !narrow && wide_bits != 0;
  __m128 half_inv[N];
  for (int n = 0; n < N; ++n) half_inv[n] = one;
  if (any_wide) {
    for (int n = 0; n < N; ++n) {
      const __m128 c =
          _mm_sqrt_ps(_mm_add_ps(_mm_set1_ps(0.5f), _mm_mul_ps(_mm_set1_ps(0.5f), d[n])));
      xm1[n] = select4(wide[n], _mm_sub_ps(c, one), xm1[n]);
      ff[n] = select4(wide[n], _mm_add_ps(f[n], f[n]), f[n]);
      g[n] = select4(wide[n], _mm_add_ps(g[n], g[n]), g[n]);
      half_inv[n] = select4(wide[n], _mm_div_ps(_mm_set1_ps(0.5f), c), one);
    }
  }
  __m128 f2[N], g2[N], hf[N], hg[N], xm1_high[N];
  for (int n = 0; n < N; ++n) {
    f2[n] = _mm_mul_ps(ff[n], ff[n]);
    g2[n] = _mm_mul_ps(g[n], g[n]);
    hf[n] = hg[n] = one;
    xm1_high[n] = _mm_and_ps(beyond3[n], xm1[n]);
  }
  const auto term = [&](int m, const __m128(&x)[N]) {
    for (int n = 0; n < N; ++n) {
      const __m128 k = _mm_mul_ps(load4(kSeriesInv4[m]), x[n]);
      const __m128 mm = load4(kSquares4[m]);
      hf[n] = _mm_add_ps(one, _mm_mul_ps(_mm_mul_ps(_mm_sub_ps(f2[n], mm), k), hf[n]));
      hg[n] = _mm_add_ps(one, _mm_mul_ps(_mm_mul_ps(_mm_sub_ps(g2[n], mm), k), hg[n]));
    }
  };
  if (!narrow)
    for (int m = 6; m >= 4; --m) term(m, xm1_high);
  for (int m = 3; m >= 1; --m) term(m, xm1);
  for (int n = 0; n < N; ++n) {
    __m128 ca = _mm_mul_ps(g[n], hg[n]);
    __m128 cb = _mm_mul_ps(ff[n], hf[n]);
    if (any_wide) {
      // Multiplying by exactly 1 outside the wide band keeps those lanes equal to the scalar ones.
      ca = _mm_mul_ps(ca, half_inv[n]);
      cb = _mm_mul_ps(cb, half_inv[n]);
    }
    cb = _mm_xor_ps(cb, sign[n]);
    const Quat4& an = a[n];
    const Quat4& bn = b[n];
    const __m128 x = _mm_add_ps(_mm_mul_ps(ca, an.x), _mm_mul_ps(cb, bn.x));
    const __m128 y = _mm_add_ps(_mm_mul_ps(ca, an.y), _mm_mul_ps(cb, bn.y));
    const __m128 z = _mm_add_ps(_mm_mul_ps(ca, an.z), _mm_mul_ps(cb, bn.z));
    const __m128 w = _mm_add_ps(_mm_mul_ps(ca, an.w), _mm_mul_ps(cb, bn.w));
    const __m128 len2 =
        _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z)),
                   _mm_mul_ps(w, w));
    const __m128 inv_len = _mm_sub_ps(_mm_set1_ps(1.5f), _mm_mul_ps(_mm_set1_ps(0.5f), len2));
    out[n] = Quat4{_mm_mul_ps(x, inv_len), _mm_mul_ps(y, inv_len), _mm_mul_ps(z, inv_len),
                   _mm_mul_ps(w, inv_len)};
    const __m128 at_key = _mm_cmpeq_ps(f[n], _mm_setzero_ps());
    out[n] = Quat4{select4(at_key, an.x, out[n].x), select4(at_key, an.y, out[n].y),
                   select4(at_key, an.z, out[n].z), select4(at_key, an.w, out[n].w)};
  }
}

// One group of four lanes.
[[gnu::always_inline]] inline Quat4 slerp_shortest4(const Quat4& a, const Quat4& b, __m128 f) {
  const Quat4 as[1] = {a}, bs[1] = {b};
  const __m128 fs[1] = {f};
  Quat4 out[1];
  slerp_shortest4<1>(as, bs, fs, out);
  return out[0];
}

#endif

#if defined(__x86_64__) && defined(__GNUC__)
#define CRITTER_SLERP8 1

// Eight quaternions, one per lane.
struct Quat8 {
  __m256 x, y, z, w;
};

// slerp_shortest4 on eight lanes (N independent groups of eight, group n with fractions f[n],
// their steps interleaved): the same operations in the same order, so each lane equals the scalar
// result bit for bit, except that the 6-term series always runs (narrow lanes come out the same)
// and a lane with f == 0 is not given its `a`: the caller selects it. For callers compiled for AVX2
// (without fused multiply-add, which would change the rounding).
template <int N>
[[gnu::target("avx2"), gnu::always_inline]] inline void slerp_shortest8(const Quat8 (&a)[N],
                                                                        const Quat8 (&b)[N],
                                                                        const __m256 (&f)[N],
                                                                        Quat8 (&out)[N]) {
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 half = _mm256_set1_ps(0.5f);
  __m256 sign[N], d[N], g[N], ff[N], xm1[N], beyond3[N], wide[N];
  int wide_bits = 0;
  for (int n = 0; n < N; ++n) {
    d[n] = _mm256_add_ps(
        _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a[n].x, b[n].x), _mm256_mul_ps(a[n].y, b[n].y)),
                      _mm256_mul_ps(a[n].z, b[n].z)),
        _mm256_mul_ps(a[n].w, b[n].w));
    sign[n] = _mm256_and_ps(d[n], _mm256_set1_ps(-0.0f));
    d[n] = _mm256_xor_ps(d[n], sign[n]);
    g[n] = _mm256_sub_ps(one, f[n]);
    ff[n] = f[n];
    xm1[n] = _mm256_sub_ps(d[n], one);
    beyond3[n] = _mm256_cmp_ps(d[n], _mm256_set1_ps(0.95f), _CMP_NGE_UQ);
    wide[n] = _mm256_cmp_ps(d[n], _mm256_set1_ps(0.7f), _CMP_NGE_UQ);
    wide_bits |= _mm256_movemask_ps(wide[n]);
  }
  __m256 half_inv[N];
  if (wide_bits != 0) {
    for (int n = 0; n < N; ++n) {
      const __m256 c = _mm256_sqrt_ps(_mm256_add_ps(half, _mm256_mul_ps(half, d[n])));
      xm1[n] = _mm256_blendv_ps(xm1[n], _mm256_sub_ps(c, one), wide[n]);
      ff[n] = _mm256_blendv_ps(f[n], _mm256_add_ps(f[n], f[n]), wide[n]);
      g[n] = _mm256_blendv_ps(g[n], _mm256_add_ps(g[n], g[n]), wide[n]);
      half_inv[n] = _mm256_blendv_ps(one, _mm256_div_ps(half, c), wide[n]);
    }
  }
  __m256 f2[N], g2[N], hf[N], hg[N], xm1_high[N];
  for (int n = 0; n < N; ++n) {
    f2[n] = _mm256_mul_ps(ff[n], ff[n]);
    g2[n] = _mm256_mul_ps(g[n], g[n]);
    hf[n] = hg[n] = one;
    xm1_high[n] = _mm256_and_ps(beyond3[n], xm1[n]);
  }
  for (int m = 6; m >= 1; --m) {
    const __m256 inv = _mm256_broadcast_ss(&kSeriesInv4[m].v[0]);
    const __m256 mm = _mm256_broadcast_ss(&kSquares4[m].v[0]);
    for (int n = 0; n < N; ++n) {
      const __m256 k = _mm256_mul_ps(inv, m > 3 ? xm1_high[n] : xm1[n]);
      hf[n] = _mm256_add_ps(one, _mm256_mul_ps(_mm256_mul_ps(_mm256_sub_ps(f2[n], mm), k), hf[n]));
      hg[n] = _mm256_add_ps(one, _mm256_mul_ps(_mm256_mul_ps(_mm256_sub_ps(g2[n], mm), k), hg[n]));
    }
  }
  for (int n = 0; n < N; ++n) {
    __m256 ca = _mm256_mul_ps(g[n], hg[n]);
    __m256 cb = _mm256_mul_ps(ff[n], hf[n]);
    if (wide_bits != 0) {
      ca = _mm256_mul_ps(ca, half_inv[n]);
      cb = _mm256_mul_ps(cb, half_inv[n]);
    }
    cb = _mm256_xor_ps(cb, sign[n]);
    const __m256 x = _mm256_add_ps(_mm256_mul_ps(ca, a[n].x), _mm256_mul_ps(cb, b[n].x));
    const __m256 y = _mm256_add_ps(_mm256_mul_ps(ca, a[n].y), _mm256_mul_ps(cb, b[n].y));
    const __m256 z = _mm256_add_ps(_mm256_mul_ps(ca, a[n].z), _mm256_mul_ps(cb, b[n].z));
    const __m256 w = _mm256_add_ps(_mm256_mul_ps(ca, a[n].w), _mm256_mul_ps(cb, b[n].w));
    const __m256 len2 = _mm256_add_ps(
        _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x, x), _mm256_mul_ps(y, y)), _mm256_mul_ps(z, z)),
        _mm256_mul_ps(w, w));
    const __m256 inv_len = _mm256_sub_ps(_mm256_set1_ps(1.5f), _mm256_mul_ps(half, len2));
    out[n] = Quat8{_mm256_mul_ps(x, inv_len), _mm256_mul_ps(y, inv_len), _mm256_mul_ps(z, inv_len),
                   _mm256_mul_ps(w, inv_len)};
  }
}

// nlerp_shortest4 on eight lanes (N independent groups of eight): the same operations in the same
// order, each lane the scalar result bit for bit; a lane with f == 0 is not given its `a`. For
// callers compiled for AVX2 without fused multiply-add.
template <int N>
[[gnu::target("avx2"), gnu::always_inline]] inline void nlerp_shortest8(const Quat8 (&a)[N],
                                                                        const Quat8 (&b)[N],
                                                                        const __m256 (&f)[N],
                                                                        Quat8 (&out)[N]) {
  const __m256 one = _mm256_set1_ps(1.0f);
  for (int n = 0; n < N; ++n) {
    const __m256 d =
        _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a[n].x, b[n].x), _mm256_mul_ps(a[n].y, b[n].y)),
                      _mm256_add_ps(_mm256_mul_ps(a[n].z, b[n].z), _mm256_mul_ps(a[n].w, b[n].w)));
    const __m256 fb = _mm256_xor_ps(f[n], _mm256_and_ps(d, _mm256_set1_ps(-0.0f)));
    const __m256 fa = _mm256_sub_ps(one, f[n]);
    const __m256 x = _mm256_add_ps(_mm256_mul_ps(a[n].x, fa), _mm256_mul_ps(b[n].x, fb));
    const __m256 y = _mm256_add_ps(_mm256_mul_ps(a[n].y, fa), _mm256_mul_ps(b[n].y, fb));
    const __m256 z = _mm256_add_ps(_mm256_mul_ps(a[n].z, fa), _mm256_mul_ps(b[n].z, fb));
    const __m256 w = _mm256_add_ps(_mm256_mul_ps(a[n].w, fa), _mm256_mul_ps(b[n].w, fb));
    const __m256 len2 = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x, x), _mm256_mul_ps(y, y)),
                                      _mm256_add_ps(_mm256_mul_ps(z, z), _mm256_mul_ps(w, w)));
    const __m256 inv = _mm256_div_ps(one, _mm256_sqrt_ps(len2));
    out[n] = Quat8{_mm256_mul_ps(x, inv), _mm256_mul_ps(y, inv), _mm256_mul_ps(z, inv),
                   _mm256_mul_ps(w, inv)};
  }
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
