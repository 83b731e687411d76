// SPDX-License-Identifier: MIT
// Deforms one mesh part of a Model for one pose: morph (mesh space), then skin with the mesh's
// skin, or place rigidly by the mesh's bone when it has no skin. The entry point for code that
// needs deformed geometry on the CPU (OBJ/glTF baking, the renderer's reference path).
#pragma once

#include <cstddef>
#include <span>

#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/deform/skinning_job.h"

namespace critter::deform {

// Output vertices are in model space: skinned parts through palette = model_from_joint *
// inverse_bind (the mesh's bone is ignored, as glTF says), rigid parts by model_transforms[bone]
// (identity when bone is -1). Normals and tangents follow SkinningJob's rules.
struct SkinMeshPartJob {
  const Model* model = nullptr;  // not owned; read during run() only
  std::size_t mesh = 0;          // index into model->meshes()
  std::size_t part = 0;          // index into that mesh's parts
  // model_from_joint of every skeleton joint (skeleton().joint_count() entries), e.g. from
  // local-to-model of a Pose, or Model::rest_model_transforms() for the rest pose.
  std::span<const mat4> model_transforms;
  // The mesh's morph weights (morph_target_count() entries), or empty for its default weights.
  std::span<const float> morph_weights;
  // Caller scratch for the skinning palette: at least the skin's joint count when the mesh is
  // skinned; unused (may be empty) otherwise.
  std::span<mat4> palette;
  // Outputs, one per vertex of the part. Normals and tangents are optional (empty to skip); when
  // given, the part must have that stream.
  std::span<vec3> out_positions;
  std::span<vec3> out_normals;
  std::span<vec4> out_tangents;
  SkinningPath path = SkinningPath::kAuto;
  NormalTransform normal_transform = NormalTransform::kInverseTranspose;

  // Names the first broken rule: missing model, mesh/part index, model transform count, weight
  // count, palette scratch size, output sizes, a skinned part without joint or weight streams.
  Status validate() const;
  // Validates, then deforms. Allocates nothing: all memory is the caller's.
  Status run() const;
};

// Convenience wrapper around SkinMeshPartJob.
Status skin_mesh_part(const Model& model, std::size_t mesh, std::size_t part,
                      std::span<const mat4> model_transforms, std::span<const float> morph_weights,
                      std::span<mat4> palette, std::span<vec3> out_positions,
                      std::span<vec3> out_normals = {}, std::span<vec4> out_tangents = {},
                      NormalTransform normal_transform = NormalTransform::kInverseTranspose);

}  // namespace critter::deform
