// SPDX-License-Identifier: MIT
#include "critter/deform/palette_job.h"

#include <string>

namespace critter::deform {

namespace {

constexpr std::size_t kMaxPaletteJoints = 65536;

Status usage(std::string message) {
  return fail(Error::at(ErrorCode::kUsage, "PaletteJob", {}, std::move(message)));
}

}  // namespace

Status PaletteJob::validate() const {
  if (joints.size() > kMaxPaletteJoints) {
    return usage("joints has " + std::to_string(joints.size()) +
                 " entries, more than the 65536 a 16-bit joint index can address");
  }
  if (!inverse_binds.empty() && inverse_binds.size() != joints.size()) {
    return usage("inverse_binds has " + std::to_string(inverse_binds.size()) +
                 " entries, expected 0 or " + std::to_string(joints.size()) + " (one per joint)");
  }
  if (palette.size() < joints.size()) {
    return usage("palette has " + std::to_string(palette.size()) + " entries, expected at least " +
                 std::to_string(joints.size()));
  }
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const int j = joints[i];
    if (j < 0 || static_cast<std::size_t>(j) >= model_transforms.size()) {
      return usage("joints[" + std::to_string(i) + "] = " + std::to_string(j) +
                   " is outside the skeleton's " + std::to_string(model_transforms.size()) +
                   " model transforms");
    }
  }
  return {};
}

Status PaletteJob::run() const {
  if (auto ok = validate(); !ok) return ok;
  const std::size_t n = joints.size();
  for (std::size_t i = 0; i < n; ++i) {
    const mat4& model = model_transforms[static_cast<std::size_t>(joints[i])];
    palette[i] = inverse_binds.empty() ? model : model * inverse_binds[i];
  }
  // The root is applied in a second pass so the common no-root case costs one product per joint.
  if (root != nullptr) {
    const mat4 r = *root;
    for (std::size_t i = 0; i < n; ++i) palette[i] = r * palette[i];
  }
  return {};
}

}  // namespace critter::deform
