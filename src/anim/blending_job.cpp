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

Status check_layers(std::span<const BlendingLayer> layers, const char* group, std::size_t joints,
                    std::size_t weights) {
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const BlendingLayer& l = layers[i];
    // Built only on failure: validate() runs every frame.
    const auto where = [&](const char* field) {
      return std::string(group) + "/" + std::to_string(i) + "/" + field;
    };
    if (!std::isfinite(l.weight) || l.weight < 0.0f)
      return job_error(where("weight"), "layer weight must be finite and >= 0");
    if (l.pose.size() != joints)
      return job_error(where("pose"), "layer pose has " + std::to_string(l.pose.size()) +
                                          " transforms, rest pose has " + std::to_string(joints));
    if (!l.weights.empty() && l.weights.size() != weights)
      return job_error(where("weights"), "layer has " + std::to_string(l.weights.size()) +
                                             " morph weights, expected 0 or " +
                                             std::to_string(weights));
    if (!l.joint_weights.empty() && l.joint_weights.size() != joints)
      return job_error(where("joint_weights"),
                       "layer mask has " + std::to_string(l.joint_weights.size()) +
                           " entries, expected 0 or " + std::to_string(joints));
  }
  return {};
}

inline float effective_weight(const BlendingLayer& l, std::size_t joint) {
  return l.joint_weights.empty() ? l.weight : l.weight * l.joint_weights[joint];
}

// The rotation `delta` scaled by w about the same axis: slerp(identity, delta, w) on the short
// arc. w in (0, 1] uses the shared slerp; larger weights extrapolate with the exact angle form.
inline quat scale_rotation(quat delta, float w) {
  if (delta.w < 0.0f) delta = -delta;
  if (w == 1.0f) return delta;
  if (w < 1.0f) return detail::slerp_shortest(quat_xyzw(0.0f, 0.0f, 0.0f, 1.0f), delta, w);
  const float half = std::acos(std::min(delta.w, 1.0f));
  const float sin_half = std::sin(half);
  if (sin_half < 1e-7f) return quat_xyzw(0.0f, 0.0f, 0.0f, 1.0f);
  const float k = std::sin(w * half) / sin_half;
  return quat_xyzw(delta.x * k, delta.y * k, delta.z * k, std::cos(w * half));
}

#if defined(__SSE2__)

// The sum of the four lanes of v, in every lane.
inline __m128 sum_lanes(__m128 v) {
  v = _mm_add_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_add_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 3, 2)));
}

// Running weighted sum of transforms for one joint. A Transform is 10 floats (t, r, s); three
// overlapping 4-float windows cover it: floats 0-3 (t and a spare lane), 3-6 (r) and 6-9 (a spare
// lane and s). The spare lanes are summed too and never stored.
struct Accumulator {
  __m128 t = _mm_setzero_ps(), r = _mm_setzero_ps(), s = _mm_setzero_ps();

  // The first contribution: nothing to align with yet.
  void set(const Transform& p, float weight) {
    const float* f = &p.translation.x;
    const __m128 w = _mm_set1_ps(weight);
    t = _mm_mul_ps(_mm_loadu_ps(f), w);
    r = _mm_mul_ps(_mm_loadu_ps(f + 3), w);
    s = _mm_mul_ps(_mm_loadu_ps(f + 6), w);
  }

  void add(const Transform& p, float weight) {
    const float* f = &p.translation.x;
    const __m128 pt = _mm_loadu_ps(f), pr = _mm_loadu_ps(f + 3), ps = _mm_loadu_ps(f + 6);
    const __m128 w = _mm_set1_ps(weight);
    // Align with the running sum so that q and -q (the same orientation) add up instead of
    // cancelling out.
    const __m128 flip = _mm_and_ps(_mm_cmplt_ps(sum_lanes(_mm_mul_ps(r, pr)), _mm_setzero_ps()),
                                   _mm_set1_ps(-0.0f));
    t = _mm_add_ps(t, _mm_mul_ps(pt, w));
    r = _mm_add_ps(r, _mm_mul_ps(pr, _mm_xor_ps(w, flip)));
    s = _mm_add_ps(s, _mm_mul_ps(ps, w));
  }

  // Writes t, s and the normalised rotation (`fallback` when it has zero length).
  void store(const quat& fallback, Transform& o) const {
    const float len2 = _mm_cvtss_f32(sum_lanes(_mm_mul_ps(r, r)));
    __m128 q;
    if (len2 > 1e-24f)
      q = _mm_mul_ps(r, _mm_set1_ps(detail::inv_sqrt(len2)));
    else
      q = _mm_loadu_ps(&fallback.x);
    float* f = &o.translation.x;
    // In this order each store overwrites the spare lane of the one before.
    _mm_storeu_ps(f + 6, s);
    _mm_storeu_ps(f, t);
    _mm_storeu_ps(f + 3, q);
  }
};

#endif

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
  if (!std::isfinite(threshold) || threshold <= 0.0f)
    return job_error("threshold", "threshold must be finite and > 0");
  if (output.size() != rest.size())
    return job_error("output", "output has " + std::to_string(output.size()) +
                                   " transforms, rest pose has " + std::to_string(rest.size()));
  if (output_weights.size() != default_weights.size())
    return job_error("output_weights",
                     "output weights have " + std::to_string(output_weights.size()) +
                         " entries, default weights " + std::to_string(default_weights.size()));
  if (auto ok = check_layers(layers, "layers", rest.size(), default_weights.size()); !ok) return ok;
  return check_layers(additive_layers, "additive_layers", rest.size(), default_weights.size());
}

Status BlendingJob::run() const {
  if (auto ok = validate(); !ok) return ok;

  const std::size_t joints = rest.size();
  // Without masks every joint has the same total weight: normalise the layer weights once and
  // skip the per-joint division.
  bool masked = false;
  float uniform_total = 0.0f;
  for (const BlendingLayer& l : layers) {
    if (!(l.weight > 0.0f)) continue;
    masked |= !l.joint_weights.empty();
    uniform_total += l.weight;
  }
  const float uniform_rest = uniform_total < threshold ? threshold - uniform_total : 0.0f;
  const float uniform_inv = 1.0f / (uniform_total + uniform_rest);

  // The common case (no masks, no additive layers) with SSE: three registers per joint.
  bool blended = false;
#if defined(__SSE2__)
  // The active layers' poses and normalised weights, gathered once.
  constexpr std::size_t kMaxFast = 8;
  const Transform* poses[kMaxFast + 1];
  float weights[kMaxFast + 1];
  std::size_t active = 0;
  for (const BlendingLayer& l : layers) {
    if (!(l.weight > 0.0f)) continue;
    if (active == kMaxFast) {
      active = kMaxFast + 1;
      break;
    }
    poses[active] = l.pose.data();
    weights[active++] = l.weight * uniform_inv;
  }
  if (!masked && additive_layers.empty() && active <= kMaxFast) {
    if (uniform_rest > 0.0f) {
      poses[active] = rest.data();
      weights[active++] = uniform_rest * uniform_inv;
    }
    for (std::size_t j = 0; j < joints; ++j) {
      Accumulator acc;
      acc.set(poses[0][j], weights[0]);
      for (std::size_t i = 1; i < active; ++i) acc.add(poses[i][j], weights[i]);
      acc.store(rest[j].rotation, output[j]);
    }
    blended = true;
  }
#endif
  for (std::size_t j = 0; !blended && j < joints; ++j) {
    vec3 t(0.0f), s(0.0f);
    vec4 q(0.0f);
    const auto accumulate = [&](const Transform& p, float w) {
      t += p.translation * w;
      s += p.scale * w;
      const vec4 r(p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w);
      // Align with the running sum so that q and -q (the same orientation) add up instead of
      // cancelling out.
      q += r * (glm::dot(q, r) < 0.0f ? -w : w);
    };
    if (!masked) {
      for (const BlendingLayer& l : layers)
        if (l.weight > 0.0f) accumulate(l.pose[j], l.weight * uniform_inv);
      if (uniform_rest > 0.0f) accumulate(rest[j], uniform_rest * uniform_inv);
    } else {
      float total = 0.0f;
      for (const BlendingLayer& l : layers) {
        const float w = effective_weight(l, j);
        if (w > 0.0f) {
          accumulate(l.pose[j], w);
          total += w;
        }
      }
      if (total < threshold) {
        accumulate(rest[j], threshold - total);
        total = threshold;
      }
      const float inv = 1.0f / total;
      t *= inv;
      s *= inv;
    }
    Transform& o = output[j];
    o.translation = t;
    o.scale = s;
    quat r = quat_xyzw(q.x, q.y, q.z, q.w);

    for (const BlendingLayer& l : additive_layers) {
      const float w = effective_weight(l, j);
      if (!(w > 0.0f)) continue;
      const Transform& d = l.pose[j];
      o.translation += d.translation * w;
      r = r * scale_rotation(d.rotation, w);
      o.scale *= vec3(1.0f) + (d.scale - vec3(1.0f)) * w;
    }
    o.rotation = detail::normalize_or(r, rest[j].rotation);
  }

  // Morph weights: the same average, by layer weight only (masks do not apply to weights).
  std::fill(output_weights.begin(), output_weights.end(), 0.0f);
  float total = 0.0f;
  const auto add = [&](std::span<const float> values, float w) {
    for (std::size_t i = 0; i < values.size(); ++i) output_weights[i] += w * values[i];
  };
  for (const BlendingLayer& l : layers) {
    if (l.weight > 0.0f && !l.weights.empty()) {
      add(l.weights, l.weight);
      total += l.weight;
    }
  }
  if (total < threshold) {
    add(default_weights, threshold - total);
    total = threshold;
  }
  const float inv = 1.0f / total;
  for (float& w : output_weights) w *= inv;
  for (const BlendingLayer& l : additive_layers)
    if (l.weight > 0.0f && !l.weights.empty()) add(l.weights, l.weight);
  return {};
}

}  // namespace critter::anim
