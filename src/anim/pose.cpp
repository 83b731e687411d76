// SPDX-License-Identifier: MIT
#include "critter/anim/pose.h"

namespace critter::anim {

MorphLayout MorphLayout::of(const Model& model) {
  MorphLayout layout;
  layout.offsets.assign(1, 0);
  for (const Mesh& mesh : model.meshes()) {
    layout.defaults.insert(layout.defaults.end(), mesh.default_weights.begin(),
                           mesh.default_weights.end());
    layout.offsets.push_back(static_cast<std::uint32_t>(layout.defaults.size()));
  }
  return layout;
}

Pose Pose::rest(const Model& model, const MorphLayout& layout) {
  Pose pose;
  const auto rest = model.skeleton().rest_pose();
  pose.locals.assign(rest.begin(), rest.end());
  pose.weights = layout.defaults;
  return pose;
}

}  // namespace critter::anim
