// SPDX-License-Identifier: MIT
// CPU skinning for the viewer's reference mode: a model's pose baked into a static copy of the
// model (morphed and skinned on the CPU by deform, the reference the GPU path is tested against).
// The copy keeps the materials and images and one root joint; it has no skins, morphs or clips,
// so the renderer draws it as plain rigid geometry.
#pragma once

#include <span>

#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/core/math.h"

namespace critter::viewer {

// `model_transforms`: model_from_joint per skeleton joint (Instance::model_transforms()).
// `weights`: every mesh's morph weights laid out by anim::MorphLayout (Instance::morph_weights()),
// or empty for the default weights. Vertices of the result are in model space.
Result<Model> bake_pose(const Model& model, std::span<const mat4> model_transforms,
                        std::span<const float> weights);

}  // namespace critter::viewer
