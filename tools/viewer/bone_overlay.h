// SPDX-License-Identifier: MIT
// Bone overlay: the skeleton drawn over the model as screen-space lines and labels. Pure maths
// (model-space bone segments and their projection to pixels); the window draws the result with
// ImGui's background draw list, so the overlay needs no shader of its own.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "critter/asset/skeleton.h"
#include "critter/core/math.h"

namespace critter::viewer {

// One bone as a line from its parent joint's origin to its own origin, in model space. A root
// joint has parent -1 and from == to.
struct BoneSegment {
  int joint = -1;
  int parent = -1;
  vec3 from{0.0f};
  vec3 to{0.0f};
};

// One segment per joint of `skeleton`, in joint order. `model_transforms` holds model_from_joint
// for every joint (fewer entries: only those joints are returned).
std::vector<BoneSegment> bone_segments(const Skeleton& skeleton,
                                       std::span<const mat4> model_transforms);

// Pixel position (origin top-left, y down) of `p` under `clip_from_model` in a viewport of
// `viewport` pixels; nullopt when the point is behind the eye or outside the depth range.
std::optional<vec2> project_to_pixels(const mat4& clip_from_model, vec3 p, vec2 viewport);

}  // namespace critter::viewer
