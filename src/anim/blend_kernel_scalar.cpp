// SPDX-License-Identifier: MIT
// The reference kernel: one joint at a time, with the operations the SIMD kernels run on each
// lane in the same order, so that every path gives the same bits.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "anim/blend_kernels.h"

// A multiply and an add fused into one instruction round once instead of twice.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace critter::anim::detail {

namespace {

constexpr float kIdentity[4] = {0.0f, 0.0f, 0.0f, 1.0f};

// An additive layer at weight w > 0 on one joint (§11, quirk 16): the rotation delta on the
// local side, normalised (the identity where the product has no length).
void add_joint(float* t, const float* in, float w, const SlerpFactors& factors) {
  float q[4];
  slerp_blend(kIdentity, in + kRotationOffset, factors, q);
  const float* p = t + kRotationOffset;
  const float x = ((p[3] * q[0] + p[0] * q[3]) + p[1] * q[2]) - p[2] * q[1];
  const float y = ((p[3] * q[1] + p[1] * q[3]) + p[2] * q[0]) - p[0] * q[2];
  const float z = ((p[3] * q[2] + p[2] * q[3]) + p[0] * q[1]) - p[1] * q[0];
  const float r = ((p[3] * q[3] - p[0] * q[0]) - p[1] * q[1]) - p[2] * q[2];
  const float len2 = ((x * x + y * y) + z * z) + r * r;
  float* o = t + kRotationOffset;
  if (len2 > 0.0f) {
    const float inv = 1.0f / std::sqrt(len2);
    o[0] = x * inv;
    o[1] = y * inv;
    o[2] = z * inv;
    o[3] = r * inv;
  } else {
    std::memcpy(o, kIdentity, sizeof(kIdentity));
  }
  for (std::size_t c = 0; c < 3; ++c) t[c] = t[c] + w * in[c];
  for (std::size_t c = kScaleOffset; c < kScaleOffset + 3; ++c)
    t[c] = t[c] * (1.0f + (in[c] - 1.0f) * w);
}

}  // namespace

SlerpFactors slerp_factors(float f) {
  SlerpFactors s;
  const float g = 1.0f - f;
  s.ff = f + f;
  s.gg = g + g;
  const float f2 = s.ff * s.ff, g2 = s.gg * s.gg;
  for (int m = 1; m <= kSlerpTerms; ++m) {
    s.af[m] = (f2 - kSlerpSquares[m]) * kSlerpInv[m];
    s.ag[m] = (g2 - kSlerpSquares[m]) * kSlerpInv[m];
  }
  return s;
}

void slerp_blend(const float* a, const float* b, const SlerpFactors& factors, float* out) {
  float d = ((a[0] * b[0] + a[1] * b[1]) + a[2] * b[2]) + a[3] * b[3];
  const bool negative = std::signbit(d);
  d = std::fabs(d);
  const float c = std::sqrt(0.5f + 0.5f * d);
  const float xm1 = c - 1.0f;
  const float half_inv = 0.5f / c;
  float hf = 1.0f, hg = 1.0f;
  for (int m = kSlerpTerms; m >= 1; --m) {
    hf = 1.0f + (factors.af[m] * xm1) * hf;
    hg = 1.0f + (factors.ag[m] * xm1) * hg;
  }
  const float ca = (factors.gg * hg) * half_inv;
  float cb = (factors.ff * hf) * half_inv;
  if (negative) cb = -cb;
  const float x = ca * a[0] + cb * b[0];
  const float y = ca * a[1] + cb * b[1];
  const float z = ca * a[2] + cb * b[2];
  const float w = ca * a[3] + cb * b[3];
  // The slerp of unit quaternions is unit up to rounding and the series error, so one Newton
  // step for 1/sqrt(len²) from 1 normalises to within float precision.
  const float len2 = ((x * x + y * y) + z * z) + w * w;
  const float inv_len = 1.5f - 0.5f * len2;
  out[0] = x * inv_len;
  out[1] = y * inv_len;
  out[2] = z * inv_len;
  out[3] = w * inv_len;
}

void blend_joint(const float* a, const float* b, float f, const SlerpFactors& factors, float* out) {
  float r[4];
  slerp_blend(a + kRotationOffset, b + kRotationOffset, factors, r);
  for (std::size_t c = 0; c < 3; ++c) out[c] = a[c] + (b[c] - a[c]) * f;
  for (std::size_t c = kScaleOffset; c < kScaleOffset + 3; ++c)
    out[c] = a[c] + (b[c] - a[c]) * f;
  std::memcpy(out + kRotationOffset, r, sizeof(r));
}

void blend_joints_scalar(const KernelArgs& args, std::size_t first, std::size_t last) {
  for (std::size_t j = first; j < last; ++j) {
    float t[kTransformFloats];
    std::memcpy(t, args.start + j * kTransformFloats, sizeof(t));
    for (std::size_t i = 0; i < args.layer_count; ++i) {
      const KernelLayer& l = args.layers[i];
      if (l.sampled != nullptr && l.sampled[j] == 0) continue;
      const float w = l.mask != nullptr ? l.weight * l.mask[j] : l.weight;
      const float* in = l.pose + j * kTransformFloats;
      if (l.additive) {
        if (w > 0.0f) add_joint(t, in, w, l.uniform ? l.factors : slerp_factors(std::min(w, 1.0f)));
      } else if (w >= 1.0f) {
        std::memcpy(t, in, sizeof(t));
      } else if (w > 0.0f) {
        blend_joint(t, in, w, l.uniform ? l.factors : slerp_factors(w), t);
      }
    }
    std::memcpy(args.out + j * kTransformFloats, t, sizeof(t));
  }
}

}  // namespace critter::anim::detail
