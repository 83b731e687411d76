// SPDX-License-Identifier: MIT
#include "cpu_bake.h"

#include <cstddef>
#include <vector>

#include "critter/anim/pose.h"
#include "critter/deform/skin_mesh_part.h"

namespace critter::viewer {

Result<Model> bake_pose(const Model& model, std::span<const mat4> model_transforms,
                        std::span<const float> weights) {
  const anim::MorphLayout layout = anim::MorphLayout::of(model);
  RawModel raw;
  raw.name = model.name();
  raw.format = model.format();
  raw.source_path = model.source_path();
  raw.skeleton.joints.resize(1);
  raw.skeleton.joints[0].name = "baked";
  raw.materials.assign(model.materials().begin(), model.materials().end());
  raw.images.assign(model.images().begin(), model.images().end());

  std::size_t max_joints = 0;
  for (const Skin& skin : model.skins()) max_joints = std::max(max_joints, skin.joints.size());
  std::vector<mat4> palette(max_joints);

  const auto meshes = model.meshes();
  raw.meshes.reserve(meshes.size());
  for (std::size_t m = 0; m < meshes.size(); ++m) {
    const Mesh& src = meshes[m];
    Mesh out;
    out.name = src.name;
    out.source_index = src.source_index;
    std::span<const float> mesh_weights;
    if (!weights.empty() && m < layout.mesh_count() && weights.size() == layout.weight_count())
      mesh_weights = layout.mesh_weights(weights, m);
    for (std::size_t p = 0; p < src.parts.size(); ++p) {
      const MeshPart& part = src.parts[p];
      MeshPart baked;
      baked.indices = part.indices;
      baked.topology = part.topology;
      baked.material = part.material;
      baked.streams.uv0 = part.streams.uv0;
      baked.streams.uv1 = part.streams.uv1;
      baked.streams.colors = part.streams.colors;
      // assign() rather than resize(): GCC 12 reports a false null dereference in the latter.
      baked.streams.positions.assign(part.vertex_count(), vec3(0.0f));
      if (!part.streams.normals.empty())
        baked.streams.normals.assign(part.vertex_count(), vec3(0.0f, 1.0f, 0.0f));
      if (Status s = deform::skin_mesh_part(model, m, p, model_transforms, mesh_weights, palette,
                                            baked.streams.positions, baked.streams.normals);
          !s)
        return std::unexpected(s.error());
      out.parts.push_back(std::move(baked));
    }
    raw.meshes.push_back(std::move(out));
  }
  return build_model(std::move(raw));
}

}  // namespace critter::viewer
