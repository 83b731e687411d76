// SPDX-License-Identifier: MIT
#include "limb_box.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace critter::creature::detail {

std::vector<mat4> rest_globals(const Skeleton& skeleton) {
  const auto parents = skeleton.parents();
  const auto rest = skeleton.rest_pose();
  std::vector<mat4> out(rest.size());
  for (std::size_t j = 0; j < rest.size(); ++j) {
    const mat4 local = rest[j].to_matrix();
    const int p = parents[j];
    out[j] = p < 0 ? local : out[static_cast<std::size_t>(p)] * local;
  }
  return out;
}

int last_joint_named(const Skeleton& skeleton, std::string_view name) {
  const auto names = skeleton.names();
  for (std::size_t j = names.size(); j-- > 0;)
    if (names[j] == name) return static_cast<int>(j);
  return -1;
}

std::string model_path(const Model& model) {
  return model.source_path().empty() ? model.name() : model.source_path();
}

std::string number(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", static_cast<double>(v));
  return buf;
}

RigidBox rigid_box(const Model& model, std::span<const mat4> globals, const glm::mat3& frame,
                   std::span<const int> joints) {
  RigidBox out;
  const auto skins = model.skins();
  for (const Mesh& mesh : model.meshes()) {
    if (mesh.skin < 0 || static_cast<std::size_t>(mesh.skin) >= skins.size()) continue;
    const Skin& skin = skins[static_cast<std::size_t>(mesh.skin)];
    for (const MeshPart& part : mesh.parts) {
      const VertexStreams& s = part.streams;
      if (s.joints.size() != s.positions.size() || s.weights.size() != s.positions.size()) continue;
      for (std::size_t v = 0; v < s.positions.size(); ++v) {
        if (!(s.weights[v].x >= kFindRigidWeight)) continue;
        const std::size_t slot = s.joints[v].x;
        if (slot >= skin.joints.size()) continue;
        const int joint = skin.joints[slot];
        if (std::find(joints.begin(), joints.end(), joint) == joints.end()) continue;
        const vec4 rest = globals[static_cast<std::size_t>(joint)] * skin.inverse_bind[slot] *
                          vec4(s.positions[v], 1.0f);
        const vec3 p = frame * vec3(rest);
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
          ++out.non_finite;
          continue;
        }
        out.box.expand(p);
        ++out.vertices;
      }
    }
  }
  return out;
}

void place_limb(const Aabb& box, const glm::mat3& frame, Limb& limb) {
  const vec3 mid = 0.5f * (box.min + box.max);
  limb.cut_y = mid.y;
  // The frame only turns about +Y, so heights carry over unchanged.
  const glm::mat3 to_model = glm::transpose(frame);
  limb.pivot = to_model * vec3(mid.x, mid.y, mid.z);
  limb.end = to_model * vec3(mid.x, box.min.y, mid.z);
}

}  // namespace critter::creature::detail
