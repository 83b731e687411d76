// SPDX-License-Identifier: MIT
#include "critter/anim/instance.h"

#include <algorithm>
#include <string>

#include "critter/anim/local_to_model_job.h"
#include "critter/anim/pose.h"

namespace critter::anim {

Instance::Instance(const Model& model)
    : model_(&model),
      model_transforms_(static_cast<std::size_t>(model.skeleton().joint_count()), mat4(1.0f)),
      weights_(MorphLayout::of(model).defaults) {
  (void)pose(model.skeleton().rest_pose());
}

Status Instance::pose(std::span<const Transform> local_pose, std::span<const float> morph_weights) {
  if (morph_weights.size() != weights_.size()) {
    return fail(Error::at(ErrorCode::kUsage, "Instance", "morph_weights",
                          std::to_string(morph_weights.size()) +
                              " morph weights for a model with " +
                              std::to_string(weights_.size())));
  }
  if (auto ok = pose(local_pose); !ok) return ok;
  std::copy(morph_weights.begin(), morph_weights.end(), weights_.begin());
  return {};
}

Status Instance::pose(std::span<const Transform> local_pose) {
  LocalToModelJob ltm;
  ltm.skeleton = &model_->skeleton();
  ltm.input = local_pose;
  ltm.root = root_;
  ltm.root_correction = root_correction_;
  ltm.output = model_transforms_;
  // The output is sized from the model at construction; a refused pose leaves the previous
  // matrices in place.
  return ltm.run();
}

mat4 Instance::bone_transform(int bone) const {
  if (bone < 0 || static_cast<std::size_t>(bone) >= model_transforms_.size()) return mat4(1.0f);
  return model_transforms_[static_cast<std::size_t>(bone)];
}

}  // namespace critter::anim
