// SPDX-License-Identifier: MIT
#include "critter/deform/morph_job.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace critter::deform {

namespace {

Status usage(std::string message) {
  return fail(Error::at(ErrorCode::kUsage, "MorphJob", {}, std::move(message)));
}

std::string size_rule(const char* name, std::size_t got, std::size_t n, bool may_be_empty) {
  return std::string(name) + " has " + std::to_string(got) + " entries, expected " +
         (may_be_empty ? "0 or " : "") + std::to_string(n);
}

// dst[f] += w * src[f] over `count` vec3s, as flat floats so the compiler vectorises the loop.
void add_scaled(std::span<vec3> dst, const std::vector<vec3>& src, float w) {
  float* d = glm::value_ptr(dst[0]);
  const float* s = glm::value_ptr(src[0]);
  const std::size_t n = dst.size() * 3;
  for (std::size_t f = 0; f < n; ++f) d[f] += w * s[f];
}

vec3 normalized_or_zero(const vec3& v) {
  const float len2 = glm::dot(v, v);
  return len2 > 0.0f ? v * (1.0f / std::sqrt(len2)) : vec3(0.0f);
}

}  // namespace

Status MorphJob::validate() const {
  if (morphs == nullptr) return usage("morphs is null");
  const std::size_t targets = morphs->target_count();
  if (weights.size() != targets) {
    return usage("weights has " + std::to_string(weights.size()) + " entries, expected " +
                 std::to_string(targets) + " (one per target)");
  }
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (!std::isfinite(weights[i])) {
      return usage("weights[" + std::to_string(i) + "] is not finite");
    }
  }
  const std::size_t n = in_positions.size();
  if (out_positions.size() != n)
    return usage(size_rule("out_positions", out_positions.size(), n, false));
  if (!in_normals.empty() && in_normals.size() != n) {
    return usage(size_rule("in_normals", in_normals.size(), n, true));
  }
  if (out_normals.size() != in_normals.size()) {
    return usage(size_rule("out_normals", out_normals.size(), in_normals.size(), false));
  }
  if (!in_tangents.empty() && in_tangents.size() != n) {
    return usage(size_rule("in_tangents", in_tangents.size(), n, true));
  }
  if (out_tangents.size() != in_tangents.size()) {
    return usage(size_rule("out_tangents", out_tangents.size(), in_tangents.size(), false));
  }
  for (std::size_t i = 0; i < targets; ++i) {
    const MorphTarget& t = morphs->targets[i];
    const std::string where = "target " + std::to_string(i) + " ";
    if (!t.positions.empty() && t.positions.size() != n) {
      return usage(size_rule((where + "positions").c_str(), t.positions.size(), n, true));
    }
    if (!t.normals.empty() && t.normals.size() != n) {
      return usage(size_rule((where + "normals").c_str(), t.normals.size(), n, true));
    }
    if (!t.tangents.empty() && t.tangents.size() != n) {
      return usage(size_rule((where + "tangents").c_str(), t.tangents.size(), n, true));
    }
  }
  return {};
}

Status MorphJob::run() const {
  if (auto ok = validate(); !ok) return ok;
  const std::size_t n = in_positions.size();
  if (n == 0) return {};
  const bool normals = !in_normals.empty();
  const bool tangents = !in_tangents.empty();
  // Copy the base first, then accumulate target by target: each pass streams two contiguous
  // arrays, which vectorises, and a zero weight costs nothing.
  if (out_positions.data() != in_positions.data()) {
    std::copy(in_positions.begin(), in_positions.end(), out_positions.begin());
  }
  if (normals && out_normals.data() != in_normals.data()) {
    std::copy(in_normals.begin(), in_normals.end(), out_normals.begin());
  }
  if (tangents && out_tangents.data() != in_tangents.data()) {
    std::copy(in_tangents.begin(), in_tangents.end(), out_tangents.begin());
  }
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const float w = weights[i];
    if (w == 0.0f) continue;
    const MorphTarget& t = morphs->targets[i];
    if (!t.positions.empty()) add_scaled(out_positions, t.positions, w);
    if (normals && !t.normals.empty()) add_scaled(out_normals, t.normals, w);
    if (tangents && !t.tangents.empty()) {
      for (std::size_t v = 0; v < n; ++v) {
        out_tangents[v].x += w * t.tangents[v].x;
        out_tangents[v].y += w * t.tangents[v].y;
        out_tangents[v].z += w * t.tangents[v].z;
      }
    }
  }
  if (normals) {
    for (vec3& v : out_normals) v = normalized_or_zero(v);
  }
  if (tangents) {
    for (vec4& v : out_tangents) v = vec4(normalized_or_zero(vec3(v)), v.w);
  }
  return {};
}

}  // namespace critter::deform
