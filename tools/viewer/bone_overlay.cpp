// SPDX-License-Identifier: MIT
#include "bone_overlay.h"

#include <algorithm>
#include <cstddef>

namespace critter::viewer {

std::vector<BoneSegment> bone_segments(const Skeleton& skeleton,
                                       std::span<const mat4> model_transforms) {
  const auto parents = skeleton.parents();
  const std::size_t n = std::min(parents.size(), model_transforms.size());
  std::vector<BoneSegment> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    BoneSegment s;
    s.joint = static_cast<int>(i);
    s.to = vec3(model_transforms[i][3]);
    const int parent = parents[i];
    // Parents come first (parents()[i] < i), so a parent index below n has a transform.
    if (parent >= 0 && static_cast<std::size_t>(parent) < n) {
      s.parent = parent;
      s.from = vec3(model_transforms[static_cast<std::size_t>(parent)][3]);
    } else {
      s.from = s.to;
    }
    out.push_back(s);
  }
  return out;
}

std::optional<vec2> project_to_pixels(const mat4& clip_from_model, vec3 p, vec2 viewport) {
  const vec4 clip = clip_from_model * vec4(p, 1.0f);
  if (!(clip.w > 1e-6f)) return std::nullopt;
  const vec3 ndc = vec3(clip) / clip.w;
  if (ndc.z < -1.0f || ndc.z > 1.0f) return std::nullopt;
  return vec2((ndc.x * 0.5f + 0.5f) * viewport.x, (0.5f - ndc.y * 0.5f) * viewport.y);
}

}  // namespace critter::viewer
