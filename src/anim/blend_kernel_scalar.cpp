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

// Coefficients of the sine-ratio polynomial for t (2f or 2(1 − f)).
void ratio_coefficients(float t, float* c) {
  const float t2 = t * t;
  float p = t;
  c[0] = p;
  for (int m = 1; m <= kSlerpTerms; ++m) {
    p = p * ((t2 - kSlerpSquares[m]) * kSlerpInv[m]);
    c[m] = p;
  }
}

float ratio(const float* c, float x, float x2) {
  return (c[0] + c[1] * x) + x2 * ((c[2] + c[3] * x) + x2 * (c[4] + c[5] * x));
}

// nlerp(1, in, f) before its normalisation (KernelRotations::kNlerp and kLerp).
void nlerp_from_identity(const float* in, float f, float* q) {
  const bool flip = std::signbit(in[3]);
  for (int k = 0; k < 3; ++k) q[k] = (flip ? -in[k] : in[k]) * f;
  q[3] = 1.0f + ((flip ? -in[3] : in[3]) - 1.0f) * f;
}

// An additive layer at weight w > 0 on one joint (§11, quirk 16): the rotation delta on the
// local side, normalised (the identity where the product has no length); the delta rotation by
// slerp (factors) or, with `nlerp`, by nlerp_from_identity.
void add_joint(float* t, const float* in, float w, const SlerpFactors& factors, bool nlerp) {
  float q[4];
  if (nlerp) {
    nlerp_from_identity(in + kRotationOffset, std::min(w, 1.0f), q);
  } else {
    slerp_blend(kIdentity, in + kRotationOffset, factors, q);
  }
  const float* p = t + kRotationOffset;
  const float product[4] = {(p[3] * q[0] + p[0] * q[3]) + (p[1] * q[2] - p[2] * q[1]),
                            (p[3] * q[1] + p[1] * q[3]) + (p[2] * q[0] - p[0] * q[2]),
                            (p[3] * q[2] + p[2] * q[3]) + (p[0] * q[1] - p[1] * q[0]),
                            (p[3] * q[3] - p[0] * q[0]) - (p[1] * q[1] + p[2] * q[2])};
  normalize_rotation(product, t + kRotationOffset);
  for (std::size_t c = 0; c < 3; ++c) t[c] = t[c] + w * in[c];
  for (std::size_t c = kScaleOffset; c < kScaleOffset + 3; ++c)
    t[c] = t[c] * (1.0f + (in[c] - 1.0f) * w);
}

}  // namespace

SlerpFactors slerp_factors(float f) {
  SlerpFactors s;
  const float g = 1.0f - f;
  ratio_coefficients(f + f, s.cf);
  ratio_coefficients(g + g, s.cg);
  return s;
}

void slerp_blend(const float* a, const float* b, const SlerpFactors& factors, float* out) {
  const float d = (a[0] * b[0] + a[1] * b[1]) + (a[2] * b[2] + a[3] * b[3]);
  const float u = std::fabs(d);
  const float u2 = u * u, u4 = u2 * u2;
  const float* h = kHalfCosH;
  const float* k = kHalfInvK;
  const float hu =
      ((h[0] + h[1] * u) + u2 * (h[2] + h[3] * u)) + u4 * ((h[4] + h[5] * u) + u2 * h[6]);
  const float half_inv = ((k[0] + k[1] * u) + u2 * (k[2] + k[3] * u)) + u4 * k[4];
  const float x = (u - 1.0f) * hu;
  const float x2 = x * x;
  const float ca = ratio(factors.cg, x, x2) * half_inv;
  float cb = ratio(factors.cf, x, x2) * half_inv;
  if (std::signbit(d)) cb = -cb;
  const float qx = ca * a[0] + cb * b[0];
  const float qy = ca * a[1] + cb * b[1];
  const float qz = ca * a[2] + cb * b[2];
  const float qw = ca * a[3] + cb * b[3];
  // The slerp of unit quaternions is unit up to rounding and the series error, so one Newton
  // step for 1/sqrt(len²) from 1 normalises to within float precision.
  const float len2 = (qx * qx + qy * qy) + (qz * qz + qw * qw);
  const float inv_len = 1.5f - 0.5f * len2;
  out[0] = qx * inv_len;
  out[1] = qy * inv_len;
  out[2] = qz * inv_len;
  out[3] = qw * inv_len;
}

void lerp_rotation(const float* a, const float* b, float f, float* out) {
  const float d = (a[0] * b[0] + a[1] * b[1]) + (a[2] * b[2] + a[3] * b[3]);
  const float fs = std::signbit(d) ? -f : f;
  const float g = 1.0f - f;
  for (int k = 0; k < 4; ++k) out[k] = a[k] * g + b[k] * fs;
}

void normalize_rotation(const float* q, float* out) {
  const float len2 = (q[0] * q[0] + q[1] * q[1]) + (q[2] * q[2] + q[3] * q[3]);
  if (len2 > 0.0f) {
    const float inv = 1.0f / std::sqrt(len2);
    for (int k = 0; k < 4; ++k) out[k] = q[k] * inv;
  } else {
    std::memcpy(out, kIdentity, sizeof(kIdentity));
  }
}

void nlerp_blend(const float* a, const float* b, float f, float* out) {
  float q[4];
  lerp_rotation(a, b, f, q);
  normalize_rotation(q, out);
}

void blend_joint(const float* a, const float* b, float f, const SlerpFactors& factors, float* out) {
  float r[4];
  slerp_blend(a + kRotationOffset, b + kRotationOffset, factors, r);
  for (std::size_t c = 0; c < 3; ++c) out[c] = a[c] + (b[c] - a[c]) * f;
  for (std::size_t c = kScaleOffset; c < kScaleOffset + 3; ++c) out[c] = a[c] + (b[c] - a[c]) * f;
  std::memcpy(out + kRotationOffset, r, sizeof(r));
}

void blend_joints_scalar(const KernelArgs& args, std::size_t first, std::size_t last) {
  for (std::size_t j = first; j < last; ++j) {
    float t[kTransformFloats];
    std::memcpy(t, args.start + j * kTransformFloats, sizeof(t));
    const bool nlerp = args.rotations != KernelRotations::kSlerp;
    // KernelRotations::kLerp: the rotation was lerped since it was last whole or normalised.
    bool pending = false;
    for (std::size_t i = 0; i < args.layer_count; ++i) {
      const KernelLayer& l = args.layers[i];
      if (l.sampled != nullptr && l.sampled[j] == 0) continue;
      const float w = l.mask != nullptr ? l.weight * l.mask[j] : l.weight;
      const float* in = l.pose + j * kTransformFloats;
      if (l.additive) {
        if (w > 0.0f) {
          add_joint(t, in, w, l.uniform || nlerp ? l.factors : slerp_factors(std::min(w, 1.0f)),
                    nlerp);
          pending = false;
        }
      } else if (w >= 1.0f) {
        std::memcpy(t, in, sizeof(t));
        pending = false;
      } else if (w > 0.0f && nlerp) {
        float r[4];
        if (args.rotations == KernelRotations::kLerp) {
          lerp_rotation(t + kRotationOffset, in + kRotationOffset, w, r);
          pending = true;
        } else {
          nlerp_blend(t + kRotationOffset, in + kRotationOffset, w, r);
        }
        for (std::size_t c = 0; c < 3; ++c) t[c] = t[c] + (in[c] - t[c]) * w;
        for (std::size_t c = kScaleOffset; c < kScaleOffset + 3; ++c)
          t[c] = t[c] + (in[c] - t[c]) * w;
        std::memcpy(t + kRotationOffset, r, sizeof(r));
      } else if (w > 0.0f) {
        blend_joint(t, in, w, l.uniform ? l.factors : slerp_factors(w), t);
      }
    }
    if (pending) normalize_rotation(t + kRotationOffset, t + kRotationOffset);
    std::memcpy(args.out + j * kTransformFloats, t, sizeof(t));
  }
}

void blend_soa_scalar(const KernelArgs& args, std::size_t joints) {
  float start[kSoaBlockFloats], out[kSoaBlockFloats];
  float in[kKernelLayers][kSoaBlockFloats];
  KernelLayer layers[kKernelLayers];
  const auto gather = [](const float* block, std::size_t n, float* aos) {
    for (std::size_t lane = 0; lane < n; ++lane)
      for (std::size_t c = 0; c < kTransformFloats; ++c)
        aos[lane * kTransformFloats + c] = block[c * kSoaLanes + lane];
  };
  for (std::size_t b = 0; b * kSoaLanes < joints; ++b) {
    const std::size_t first = b * kSoaLanes;
    const std::size_t n = std::min(kSoaLanes, joints - first);
    const float* start_block = args.start + b * kSoaBlockFloats;
    float* out_block = args.out + b * kSoaBlockFloats;
    gather(start_block, n, start);
    for (std::size_t i = 0; i < args.layer_count; ++i) {
      layers[i] = args.layers[i];
      gather(args.layers[i].pose + b * kSoaBlockFloats, n, in[i]);
      layers[i].pose = in[i];
      if (layers[i].mask != nullptr) layers[i].mask += first;
      if (layers[i].sampled != nullptr) layers[i].sampled += first;
    }
    KernelArgs block;
    block.start = start;
    block.layers = layers;
    block.layer_count = args.layer_count;
    block.out = out;
    block.rotations = args.rotations;
    blend_joints_scalar(block, 0, n);
    for (std::size_t c = 0; c < kTransformFloats; ++c) {
      for (std::size_t lane = 0; lane < n; ++lane)
        out_block[c * kSoaLanes + lane] = out[lane * kTransformFloats + c];
      for (std::size_t lane = n; lane < kSoaLanes; ++lane)
        out_block[c * kSoaLanes + lane] = start_block[c * kSoaLanes + lane];
    }
  }
}

}  // namespace critter::anim::detail
