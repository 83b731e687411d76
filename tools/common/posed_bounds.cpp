// SPDX-License-Identifier: MIT
#include "posed_bounds.h"

#include <vector>

#include "critter/anim/pose.h"
#include "critter/deform/skin_mesh_part.h"

namespace critter::tools {

Aabb posed_bounds(const anim::Instance& instance) {
  const Model& model = instance.model();
  Aabb box;
  std::vector<mat4> palette;
  std::vector<vec3> positions;
  const auto layout = anim::MorphLayout::of(model);
  for (std::size_t m = 0; m < model.meshes().size(); ++m) {
    const Mesh& mesh = model.meshes()[m];
    std::size_t joints = 0;
    if (mesh.skin >= 0) joints = model.skins()[static_cast<std::size_t>(mesh.skin)].joints.size();
    palette.resize(joints);
    const std::span<const float> weights = layout.mesh_weights(instance.morph_weights(), m);
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      positions.resize(mesh.parts[p].vertex_count());
      if (deform::skin_mesh_part(model, m, p, instance.model_transforms(), weights, palette,
                                 positions)) {
        for (const vec3& v : positions) box.expand(v);
      }
    }
  }
  return box.empty() ? model.bounds() : box;
}

}  // namespace critter::tools
