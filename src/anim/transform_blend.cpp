// SPDX-License-Identifier: MIT
#include "critter/anim/transform_blend.h"

#include <cmath>
#include <string>

#include "anim/quat_slerp.h"

namespace critter::anim {

quat slerp_shortest(const quat& a, const quat& b, float f) {
  return detail::slerp_shortest(a, b, f);
}

Transform blend_transforms(const Transform& a, const Transform& b, float f) {
  Transform out;
  out.translation = a.translation + (b.translation - a.translation) * f;
  out.rotation = detail::slerp_shortest(a.rotation, b.rotation, f);
  out.scale = a.scale + (b.scale - a.scale) * f;
  return out;
}

namespace {

Status check_sizes(std::size_t a, std::size_t b, std::size_t out, float f) {
  if (!std::isfinite(f))
    return fail(
        Error::at(ErrorCode::kUsage, "blend_transforms", "f", "blend factor is not finite"));
  if (b != a || out != a)
    return fail(Error::at(ErrorCode::kUsage, "blend_transforms", "sizes",
                          "inputs have " + std::to_string(a) + " and " + std::to_string(b) +
                              " entries, output " + std::to_string(out) + "; all must match"));
  return {};
}

}  // namespace

Status blend_transforms(std::span<const Transform> a, std::span<const Transform> b, float f,
                        std::span<Transform> out) {
  if (auto ok = check_sizes(a.size(), b.size(), out.size(), f); !ok) return ok;
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = blend_transforms(a[i], b[i], f);
  return {};
}

Status blend_weights(std::span<const float> a, std::span<const float> b, float f,
                     std::span<float> out) {
  if (auto ok = check_sizes(a.size(), b.size(), out.size(), f); !ok) return ok;
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i] + (b[i] - a[i]) * f;
  return {};
}

}  // namespace critter::anim
