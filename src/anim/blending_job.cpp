#include "critter/anim/blending_job.h"

#include <algorithm>
#include <cmath>
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

// One override layer on every joint: out[j] = in[j] where w = weight · mask[j] >= 1 (mask may be
// null), the blend from below[j] towards in[j] where 0 < w < 1, below[j] elsewhere. `below` is
// the output so far: `out` itself or a pose not yet copied into it. With SSE, blocks of four
// joints that all blend partially take the four-lane slerp, which equals the scalar one bit for
// bit.
void override_joints(std::span<Transform> out, std::span<const Transform> below,
                     std::span<const Transform> in, float weight, const float* mask) {
  std::size_t j = 0;
#if defined(__SSE2__)
  for (; j + 4 <= out.size(); j += 4) {
    alignas(16) float w[4];
    bool partial = true;
    for (std::size_t k = 0; k < 4; ++k) {
      w[k] = mask != nullptr ? weight * mask[j + k] : weight;
      partial = partial && w[k] > 0.0f && w[k] < 1.0f;
    }
    if (partial) {
      // Transform is translation (3), rotation (4), scale (3): rotations load as one vector each.
      detail::Quat4 a{_mm_loadu_ps(&below[j].rotation.x), _mm_loadu_ps(&below[j + 1].rotation.x),
                      _mm_loadu_ps(&below[j + 2].rotation.x),
                      _mm_loadu_ps(&below[j + 3].rotation.x)};
      detail::Quat4 b{_mm_loadu_ps(&in[j].rotation.x), _mm_loadu_ps(&in[j + 1].rotation.x),
                      _mm_loadu_ps(&in[j + 2].rotation.x), _mm_loadu_ps(&in[j + 3].rotation.x)};
      _MM_TRANSPOSE4_PS(a.x, a.y, a.z, a.w);
      _MM_TRANSPOSE4_PS(b.x, b.y, b.z, b.w);
      detail::Quat4 r;
      if (detail::slerp_shortest4(a, b, _mm_load_ps(w), r)) {
        _MM_TRANSPOSE4_PS(r.x, r.y, r.z, r.w);
        const __m128 lanes[4] = {r.x, r.y, r.z, r.w};
        for (std::size_t k = 0; k < 4; ++k) {
          // Floats 0-3 (translation and a spare lane) and 6-9 (a spare lane and scale) lerp as
          // two vectors; storing them before the rotation overwrites the spare lanes.
          float* o = &out[j + k].translation.x;
          const float* lo = &below[j + k].translation.x;
          const float* i = &in[j + k].translation.x;
          const __m128 wk = _mm_set1_ps(w[k]);
          const __m128 bt = _mm_loadu_ps(lo), bs = _mm_loadu_ps(lo + 6);
          const __m128 t = _mm_add_ps(bt, _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(i), bt), wk));
          const __m128 sc = _mm_add_ps(bs, _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(i + 6), bs), wk));
          _mm_storeu_ps(o + 6, sc);
          _mm_storeu_ps(o, t);
          _mm_storeu_ps(o + 3, lanes[k]);
        }
        continue;
      }
    }
    for (std::size_t k = 0; k < 4; ++k) {
      if (w[k] >= 1.0f) {
        out[j + k] = in[j + k];
      } else if (w[k] > 0.0f) {
        out[j + k] = blend_override(below[j + k], in[j + k], w[k]);
      } else {
        out[j + k] = below[j + k];
      }
    }
  }
#endif
  for (; j < out.size(); ++j) {
    const float w = mask != nullptr ? weight * mask[j] : weight;
    if (w >= 1.0f) {
      out[j] = in[j];
    } else if (w > 0.0f) {
      out[j] = blend_override(below[j], in[j], w);
    } else {
      out[j] = below[j];
    }
  }
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
