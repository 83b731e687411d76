#include "critter/anim/instance.h"

#include <algorithm>
#include <string>

#include "critter/anim/local_to_model_job.h"

namespace critter::anim {

Instance::Instance(const Model& model) : model_(&model), player_(model) {
  model_transforms_.assign(static_cast<std::size_t>(model.skeleton().joint_count()), mat4(1.0f));
  palette_offset_.push_back(0);
  for (const Skin& skin : model.skins())
    palette_offset_.push_back(palette_offset_.back() + skin.joints.size());
  palettes_.assign(palette_offset_.back(), mat4(1.0f));
  weights_.assign(player_.layout().weight_count(), 0.0f);
  refresh();
}

void Instance::update(float dt) {
  player_.update(dt);
  refresh();
}

void Instance::refresh() {
  (void)refresh(player_.local_pose());
}

Status Instance::refresh(std::span<const Transform> local_pose,
                         std::span<const float> morph_weights) {
  if (morph_weights.size() != weights_.size()) {
    return fail(Error::at(ErrorCode::kUsage, "Instance", "morph_weights",
                          std::to_string(morph_weights.size()) +
                              " morph weights for a model with " +
                              std::to_string(weights_.size())));
  }
  if (auto ok = refresh(local_pose); !ok) return ok;
  std::copy(morph_weights.begin(), morph_weights.end(), weights_.begin());
  external_weights_ = true;
  return {};
}

Status Instance::refresh(std::span<const Transform> local_pose) {
  LocalToModelJob ltm;
  ltm.parents = model_->skeleton().parents();
  ltm.input = local_pose;
  ltm.root = root_;
  ltm.root_correction = root_correction_;
  ltm.legacy_rest_translation = legacy_rest_translation_;
  ltm.rest = model_->skeleton().rest_pose();
  ltm.output = model_transforms_;
  // The output is sized from the model at construction; a pose of the wrong size or a
  // non-finite root matrix leaves the previous matrices in place.
  if (auto ok = ltm.run(); !ok) return ok;
  external_weights_ = false;

  const auto skins = model_->skins();
  for (std::size_t s = 0; s < skins.size(); ++s) {
    const Skin& skin = skins[s];
    mat4* out = palettes_.data() + palette_offset_[s];
    for (std::size_t j = 0; j < skin.joints.size(); ++j)
      out[j] = model_transforms_[static_cast<std::size_t>(skin.joints[j])] * skin.inverse_bind[j];
  }
  return {};
}

std::span<const mat4> Instance::palette(int skin) const {
  if (skin < 0 || static_cast<std::size_t>(skin) + 1 >= palette_offset_.size()) return {};
  const std::size_t begin = palette_offset_[static_cast<std::size_t>(skin)];
  const std::size_t end = palette_offset_[static_cast<std::size_t>(skin) + 1];
  return std::span<const mat4>(palettes_).subspan(begin, end - begin);
}

mat4 Instance::bone_transform(int bone) const {
  if (bone < 0 || static_cast<std::size_t>(bone) >= model_transforms_.size()) return mat4(1.0f);
  return model_transforms_[static_cast<std::size_t>(bone)];
}

}  // namespace critter::anim
