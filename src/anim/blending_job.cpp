// SPDX-License-Identifier: MIT
#include "critter/anim/blending_job.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "anim/quat_slerp.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace critter::anim {

namespace {

Status job_error(std::string location, std::string message) {
  return fail(Error::at(ErrorCode::kUsage, "BlendingJob", std::move(location), std::move(message)));
}

// Built only on failure: validate() runs every frame.
std::string count_text(std::size_t got, const char* what, std::size_t want) {
  return "has " + std::to_string(got) + " " + what + ", expected 0 or " + std::to_string(want);
}

// TRS-blend from `a` (f = 0) towards `b` (f = 1), as blend_transforms() does.
inline Transform blend_override(const Transform& a, const Transform& b, float f) {
  Transform out;
  out.translation = a.translation + (b.translation - a.translation) * f;
  out.rotation = detail::slerp_shortest(a.rotation, b.rotation, f);
  out.scale = a.scale + (b.scale - a.scale) * f;
  return out;
}

// One joint of an override layer with effective weight w (§11).
inline void override_joint(Transform& out, const Transform& below, const Transform& in, float w) {
  if (w >= 1.0f) {
    out = in;
  } else if (w > 0.0f) {
    out = blend_override(below, in, w);
  } else {
    out = below;
  }
}

#if defined(__SSE2__)

// Transform is translation (3), rotation (4), scale (3) floats with no padding: four joints are
// ten vectors of four floats.
static_assert(sizeof(Transform) == 10 * sizeof(float));
static_assert(offsetof(Transform, rotation) == 3 * sizeof(float));
static_assert(offsetof(Transform, scale) == 7 * sizeof(float));

// blend_override on 4·N consecutive joints with weights w (group n, lane k: joint 4n + k), every
// one in (0, 1), bit for bit. The forty floats of four joints lerp as ten vectors, each lane with
// its joint's weight (rotations too, overwritten afterwards by the four-lane slerp, whose N groups
// run interleaved). `out` may be `below`: every vector is loaded before its place is stored.
template <int N>
[[gnu::always_inline]] inline void blend_block(Transform* out, const Transform* below,
                                               const Transform* in, const __m128 (&w)[N]) {
  detail::Quat4 a[N], b[N], r[N];
  for (int n = 0; n < N; ++n) {
    const Transform* lo = below + 4 * n;
    const Transform* hi = in + 4 * n;
    a[n] = {_mm_loadu_ps(&lo[0].rotation.x), _mm_loadu_ps(&lo[1].rotation.x),
            _mm_loadu_ps(&lo[2].rotation.x), _mm_loadu_ps(&lo[3].rotation.x)};
    b[n] = {_mm_loadu_ps(&hi[0].rotation.x), _mm_loadu_ps(&hi[1].rotation.x),
            _mm_loadu_ps(&hi[2].rotation.x), _mm_loadu_ps(&hi[3].rotation.x)};
    _MM_TRANSPOSE4_PS(a[n].x, a[n].y, a[n].z, a[n].w);
    _MM_TRANSPOSE4_PS(b[n].x, b[n].y, b[n].z, b[n].w);
  }
  detail::slerp_shortest4<detail::Slerp4Use::kBlending, N>(a, b, w, r);
  for (int n = 0; n < N; ++n) {
    const __m128 wn = w[n];
    const __m128 w0 = _mm_shuffle_ps(wn, wn, _MM_SHUFFLE(0, 0, 0, 0));
    const __m128 w1 = _mm_shuffle_ps(wn, wn, _MM_SHUFFLE(1, 1, 1, 1));
    const __m128 w2 = _mm_shuffle_ps(wn, wn, _MM_SHUFFLE(2, 2, 2, 2));
    const __m128 w3 = _mm_shuffle_ps(wn, wn, _MM_SHUFFLE(3, 3, 3, 3));
    // Floats 8-9 belong to joint 0, 10-11 to joint 1; floats 28-29 to joint 2, 30-31 to joint 3.
    const __m128 w01 = _mm_shuffle_ps(wn, wn, _MM_SHUFFLE(1, 1, 0, 0));
    const __m128 w23 = _mm_shuffle_ps(wn, wn, _MM_SHUFFLE(3, 3, 2, 2));
    const __m128 weights[10] = {w0, w0, w01, w1, w1, w2, w2, w23, w3, w3};
    const float* lo = &below[4 * n].translation.x;
    const float* hi = &in[4 * n].translation.x;
    float* o = &out[4 * n].translation.x;
    for (int v = 0; v < 10; ++v) {
      const __m128 x = _mm_loadu_ps(lo + 4 * v);
      _mm_storeu_ps(o + 4 * v,
                    _mm_add_ps(x, _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(hi + 4 * v), x), weights[v])));
    }
    _MM_TRANSPOSE4_PS(r[n].x, r[n].y, r[n].z, r[n].w);
    _mm_storeu_ps(&out[4 * n].rotation.x, r[n].x);
    _mm_storeu_ps(&out[4 * n + 1].rotation.x, r[n].y);
    _mm_storeu_ps(&out[4 * n + 2].rotation.x, r[n].z);
    _mm_storeu_ps(&out[4 * n + 3].rotation.x, r[n].w);
  }
}

// Four consecutive joints with weights w: blend_block when every weight is partial, else joint by
// joint.
[[gnu::always_inline]] inline void override_block(Transform* out, const Transform* below,
                                                  const Transform* in, __m128 w) {
  const __m128 partial =
      _mm_and_ps(_mm_cmpgt_ps(w, _mm_setzero_ps()), _mm_cmplt_ps(w, _mm_set1_ps(1.0f)));
  if (_mm_movemask_ps(partial) == 0xF) {
    const __m128 ws[1] = {w};
    blend_block<1>(out, below, in, ws);
    return;
  }
  alignas(16) float wk[4];
  _mm_store_ps(wk, w);
  for (int k = 0; k < 4; ++k) override_joint(out[k], below[k], in[k], wk[k]);
}

#endif

// One override layer on every joint: out[j] = in[j] where w = weight · mask[j] >= 1 (mask may be
// null), the blend from below[j] towards in[j] where 0 < w < 1, below[j] elsewhere. `below` is
// the output so far: `out` itself or a pose not yet copied into it. With SSE, four joints at a
// time in vertical form (blend_block), equal to the scalar path bit for bit; a last partial block
// is the last four joints again, or when `below` is `out` (in place, where joints must not blend
// twice) copies padded by repeating the last joint.
// Joints before `first` are left as they are.
[[gnu::always_inline]] inline void override_joints_with(std::span<Transform> out,
                                                        std::span<const Transform> below,
                                                        std::span<const Transform> in, float weight,
                                                        const float* mask, std::size_t first) {
  const std::size_t n = out.size();
  std::size_t j = first;
#if defined(__SSE2__)
  const bool uniform = mask == nullptr;
  if (uniform && !(weight > 0.0f && weight < 1.0f)) {
    // Every joint takes the same branch; the scalar loop below is a plain copy of one side.
  } else {
    const __m128 lw = _mm_set1_ps(weight);
    if (uniform) {
      // Four groups of four at a time: their slerps' long dependency chains overlap.
      const __m128 lw4[4] = {lw, lw, lw, lw};
      for (; j + 16 <= n; j += 16) blend_block<4>(&out[j], &below[j], &in[j], lw4);
    } else {
      // Masked: the same where all sixteen joints blend partially, group by group elsewhere.
      for (; j + 16 <= n; j += 16) {
        __m128 w[4], partial = _mm_castsi128_ps(_mm_set1_epi32(-1));
        for (std::size_t g = 0; g < 4; ++g) {
          w[g] = _mm_mul_ps(lw, _mm_loadu_ps(mask + j + 4 * g));
          partial = _mm_and_ps(partial, _mm_and_ps(_mm_cmpgt_ps(w[g], _mm_setzero_ps()),
                                                   _mm_cmplt_ps(w[g], _mm_set1_ps(1.0f))));
        }
        if (_mm_movemask_ps(partial) == 0xF) {
          blend_block<4>(&out[j], &below[j], &in[j], w);
        } else {
          for (std::size_t g = 0; g < 4; ++g)
            override_block(&out[j + 4 * g], &below[j + 4 * g], &in[j + 4 * g], w[g]);
        }
      }
    }
    for (; j + 4 <= n; j += 4) {
      if (uniform) {
        const __m128 lw1[1] = {lw};
        blend_block<1>(&out[j], &below[j], &in[j], lw1);
      } else {
        override_block(&out[j], &below[j], &in[j], _mm_mul_ps(lw, _mm_loadu_ps(mask + j)));
      }
    }
    if (j < n && n >= 4 && out.data() != below.data()) {
      // Recomputing the last four joints writes the same values again over those already done.
      const std::size_t last = n - 4;
      override_block(&out[last], &below[last], &in[last],
                     uniform ? lw : _mm_mul_ps(lw, _mm_loadu_ps(mask + last)));
      j = n;
    } else if (j < n) {
      Transform lo[4], hi[4], o[4];
      alignas(16) float m[4];
      for (std::size_t k = 0; k < 4; ++k) {
        const std::size_t src = std::min(j + k, n - 1);
        lo[k] = below[src];
        hi[k] = in[src];
        m[k] = uniform ? 1.0f : mask[src];
      }
      const __m128 w = uniform ? lw : _mm_mul_ps(lw, _mm_load_ps(m));
      override_block(o, lo, hi, w);
      std::copy(o, o + (n - j), &out[j]);
      j = n;
    }
  }
#endif
  for (; j < n; ++j)
    override_joint(out[j], below[j], in[j], mask != nullptr ? weight * mask[j] : weight);
}

#if defined(CRITTER_SLERP8)
// blend_block on 8·N consecutive joints with one weight w in (0, 1), eight lanes at a time: the
// eighty floats of eight joints lerp as ten 8-float vectors, the rotations take slerp_shortest8.
template <int N>
[[gnu::target("avx2"), gnu::always_inline]] inline void blend_block8(Transform* out,
                                                                     const Transform* below,
                                                                     const Transform* in, float w) {
  const auto load = [](const Transform* t) {
    __m128 x = _mm_loadu_ps(&t[0].rotation.x), y = _mm_loadu_ps(&t[1].rotation.x);
    __m128 z = _mm_loadu_ps(&t[2].rotation.x), v = _mm_loadu_ps(&t[3].rotation.x);
    _MM_TRANSPOSE4_PS(x, y, z, v);
    return detail::Quat4{x, y, z, v};
  };
  detail::Quat8 a[N], b[N], r[N];
  for (int n = 0; n < N; ++n) {
    const detail::Quat4 a0 = load(below + 8 * n), a1 = load(below + 8 * n + 4);
    const detail::Quat4 b0 = load(in + 8 * n), b1 = load(in + 8 * n + 4);
    a[n] = {_mm256_set_m128(a1.x, a0.x), _mm256_set_m128(a1.y, a0.y), _mm256_set_m128(a1.z, a0.z),
            _mm256_set_m128(a1.w, a0.w)};
    b[n] = {_mm256_set_m128(b1.x, b0.x), _mm256_set_m128(b1.y, b0.y), _mm256_set_m128(b1.z, b0.z),
            _mm256_set_m128(b1.w, b0.w)};
  }
  const __m256 wv = _mm256_set1_ps(w);
  detail::slerp_shortest8<N>(a, b, wv, r);
  for (int n = 0; n < N; ++n) {
    const float* lo = &below[8 * n].translation.x;
    const float* hi = &in[8 * n].translation.x;
    float* o = &out[8 * n].translation.x;
    for (int v = 0; v < 10; ++v) {
      const __m256 x = _mm256_loadu_ps(lo + 8 * v);
      _mm256_storeu_ps(
          o + 8 * v,
          _mm256_add_ps(x, _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(hi + 8 * v), x), wv)));
    }
    for (int half = 0; half < 2; ++half) {
      __m128 x = half == 0 ? _mm256_castps256_ps128(r[n].x) : _mm256_extractf128_ps(r[n].x, 1);
      __m128 y = half == 0 ? _mm256_castps256_ps128(r[n].y) : _mm256_extractf128_ps(r[n].y, 1);
      __m128 z = half == 0 ? _mm256_castps256_ps128(r[n].z) : _mm256_extractf128_ps(r[n].z, 1);
      __m128 v = half == 0 ? _mm256_castps256_ps128(r[n].w) : _mm256_extractf128_ps(r[n].w, 1);
      _MM_TRANSPOSE4_PS(x, y, z, v);
      Transform* t = out + 8 * n + 4 * half;
      _mm_storeu_ps(&t[0].rotation.x, x);
      _mm_storeu_ps(&t[1].rotation.x, y);
      _mm_storeu_ps(&t[2].rotation.x, z);
      _mm_storeu_ps(&t[3].rotation.x, v);
    }
  }
}

// override_joints for CPUs with AVX2: a layer without a mask blends sixteen joints at a time on
// eight lanes; the rest is the four-lane loop compiled with three-operand instructions. No fused
// multiply-add, so the results equal the scalar path.
[[gnu::target("avx2")]] void override_joints_avx2(std::span<Transform> out,
                                                  std::span<const Transform> below,
                                                  std::span<const Transform> in, float weight,
                                                  const float* mask) {
  std::size_t j = 0;
  if (mask == nullptr && weight > 0.0f && weight < 1.0f)
    for (; j + 16 <= out.size(); j += 16) blend_block8<2>(&out[j], &below[j], &in[j], weight);
  override_joints_with(out, below, in, weight, mask, j);
}
#endif

void override_joints(std::span<Transform> out, std::span<const Transform> below,
                     std::span<const Transform> in, float weight, const float* mask) {
#if defined(CRITTER_SLERP8)
  static const bool has_avx2 = __builtin_cpu_supports("avx2");
  if (has_avx2) {
    override_joints_avx2(out, below, in, weight, mask);
    return;
  }
#endif
  override_joints_with(out, below, in, weight, mask, 0);
}

}  // namespace

Status make_additive_delta(std::span<const Transform> pose, std::span<const Transform> reference,
                           std::span<Transform> out) {
  if (reference.size() != pose.size() || out.size() != pose.size())
    return fail(Error::at(ErrorCode::kUsage, "make_additive_delta", "sizes",
                          "pose has " + std::to_string(pose.size()) + " transforms, reference " +
                              std::to_string(reference.size()) + ", output " +
                              std::to_string(out.size()) + "; all must match"));
  for (std::size_t j = 0; j < pose.size(); ++j) {
    const Transform p = pose[j];
    const Transform& r = reference[j];
    Transform d;
    d.translation = p.translation - r.translation;
    d.rotation = detail::normalize_or(glm::conjugate(r.rotation) * p.rotation,
                                      quat_xyzw(0.0f, 0.0f, 0.0f, 1.0f));
    for (int c = 0; c < 3; ++c) d.scale[c] = r.scale[c] == 0.0f ? 1.0f : p.scale[c] / r.scale[c];
    out[j] = d;
  }
  return {};
}

Status BlendingJob::validate() const {
  const std::size_t joints = rest.size();
  if (output.size() != joints)
    return job_error("output", "output has " + std::to_string(output.size()) +
                                   " transforms, rest pose has " + std::to_string(joints));
  if (output_weights.size() != default_weights.size())
    return job_error("output_weights",
                     "output weights have " + std::to_string(output_weights.size()) +
                         " entries, default weights " + std::to_string(default_weights.size()));
  std::size_t meshes = 1;
  if (!mesh_offsets.empty()) {
    meshes = mesh_offsets.size() - 1;
    bool ok = mesh_offsets.front() == 0 && mesh_offsets.back() == default_weights.size();
    for (std::size_t m = 1; ok && m < mesh_offsets.size(); ++m)
      ok = mesh_offsets[m - 1] <= mesh_offsets[m];
    if (!ok)
      return job_error("mesh_offsets",
                       "mesh offsets must ascend from 0 to the default weight count");
  }
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const BlendingLayer& l = layers[i];
    const auto where = [&](const char* field) {
      return "layers/" + std::to_string(i) + "/" + field;
    };
    if (!std::isfinite(l.weight) || l.weight < 0.0f)
      return job_error(where("weight"), "layer weight must be finite and >= 0");
    if (l.pose.size() != joints)
      return job_error(where("pose"), "layer pose has " + std::to_string(l.pose.size()) +
                                          " transforms, rest pose has " + std::to_string(joints));
    if (!l.joint_weights.empty() && l.joint_weights.size() != joints)
      return job_error(where("joint_weights"),
                       "layer mask " + count_text(l.joint_weights.size(), "entries", joints));
    if (!l.sampled.empty() && l.sampled.size() != joints)
      return job_error(where("sampled"),
                       "layer sampled set " + count_text(l.sampled.size(), "entries", joints));
    if (!l.weights.empty() && l.weights.size() != default_weights.size())
      return job_error(where("weights"), "layer " + count_text(l.weights.size(), "morph weights",
                                                               default_weights.size()));
    if (!l.morph_coverage.empty() && l.morph_coverage.size() != meshes)
      return job_error(where("morph_coverage"),
                       "layer coverage " + count_text(l.morph_coverage.size(), "meshes", meshes));
  }
  return {};
}

Status BlendingJob::run() const {
  if (auto ok = validate(); !ok) return ok;

  const quat identity = quat_xyzw(0.0f, 0.0f, 0.0f, 1.0f);
  // A full-weight override of every joint replaces everything below it: the pose starts at the
  // last such layer (or at rest) and the layers under it are skipped.
  std::size_t bottom = 0;
  std::span<const Transform> start = rest;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const BlendingLayer& l = layers[i];
    if (l.mode == LayerBlendMode::kOverride && l.weight >= 1.0f && l.joint_weights.empty() &&
        l.sampled.empty()) {
      bottom = i + 1;
      start = l.pose;
    }
  }
  // The first override over every joint reads `start` where it is instead of a copy of it.
  bool copied = false;
  for (const BlendingLayer& l : layers.subspan(bottom)) {
    if (!(l.weight > 0.0f)) continue;
    const bool additive = l.mode == LayerBlendMode::kAdditive;
    const float* mask = l.joint_weights.empty() ? nullptr : l.joint_weights.data();
    const std::uint8_t* sampled = l.sampled.empty() ? nullptr : l.sampled.data();
    if (!additive && sampled == nullptr) {
      override_joints(output, copied ? output : start, l.pose, l.weight, mask);
      copied = true;
      continue;
    }
    if (!copied) {
      std::copy(start.begin(), start.end(), output.begin());
      copied = true;
    }
    for (std::size_t j = 0; j < output.size(); ++j) {
      if (sampled != nullptr && !sampled[j]) continue;
      const float w = mask != nullptr ? l.weight * mask[j] : l.weight;
      if (!(w > 0.0f)) continue;
      const Transform& in = l.pose[j];
      Transform& out = output[j];
      if (additive) {
        // §11 (quirk 16): the delta acts on the local side of the output so far.
        out.rotation = glm::normalize(
            out.rotation * detail::slerp_shortest(identity, in.rotation, std::min(w, 1.0f)));
        out.translation = out.translation + w * in.translation;
        out.scale = out.scale * (vec3(1.0f) + (in.scale - vec3(1.0f)) * w);
      } else if (w >= 1.0f) {
        out = in;
      } else {
        out = blend_override(out, in, w);
      }
    }
  }
  if (!copied) std::copy(start.begin(), start.end(), output.begin());

  std::copy(default_weights.begin(), default_weights.end(), output_weights.begin());
  if (output_weights.empty()) return {};
  const std::size_t meshes = mesh_offsets.empty() ? 1 : mesh_offsets.size() - 1;
  for (const BlendingLayer& l : layers) {
    if (!(l.weight > 0.0f) || l.weights.empty()) continue;
    const float* in = l.weights.data();
    const float* def = default_weights.data();
    float* out = output_weights.data();
    if (l.mode == LayerBlendMode::kAdditive) {
      for (std::size_t k = 0; k < output_weights.size(); ++k) out[k] += l.weight * (in[k] - def[k]);
      continue;
    }
    const float wo = std::min(l.weight, 1.0f);
    for (std::size_t m = 0; m < meshes; ++m) {
      const float c = l.morph_coverage.empty() ? 1.0f : l.morph_coverage[m];
      if (c <= 0.0f) continue;
      const std::size_t first = mesh_offsets.empty() ? 0 : mesh_offsets[m];
      const std::size_t last = mesh_offsets.empty() ? output_weights.size() : mesh_offsets[m + 1];
      // A side of a crossfade that does not animate the mesh reads as what the layers below
      // show: the layer's value is in + (1 - c)(out - default), and lerp(out, that, wo) is the
      // update below.
      for (std::size_t k = first; k < last; ++k)
        out[k] += wo * ((in[k] - def[k]) - c * (out[k] - def[k]));
    }
  }
  return {};
}

}  // namespace critter::anim
