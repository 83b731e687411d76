// SPDX-License-Identifier: MIT
#include "critter/anim/transform_blend.h"

#include <cmath>
#include <cstddef>
#include <string>

#include "anim/blend_kernels.h"
#include "anim/quat_slerp.h"

namespace critter::anim {

quat slerp_shortest(const quat& a, const quat& b, float f) {
  return detail::slerp_shortest(a, b, f);
}

namespace {

static_assert(sizeof(Transform) == detail::kTransformFloats * sizeof(float));
static_assert(offsetof(Transform, rotation) == detail::kRotationOffset * sizeof(float));
static_assert(offsetof(Transform, scale) == detail::kScaleOffset * sizeof(float));

// The blending job's override of one joint (the same function, so the two agree to the bit).
void blend_into(const Transform& a, const Transform& b, float f,
                const detail::SlerpFactors& factors, Transform& out) {
  detail::blend_joint(&a.translation.x, &b.translation.x, f, factors, &out.translation.x);
}

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

Transform blend_transforms(const Transform& a, const Transform& b, float f) {
  Transform out;
  blend_into(a, b, f, detail::slerp_factors(f), out);
  return out;
}

Status blend_transforms(std::span<const Transform> a, std::span<const Transform> b, float f,
                        std::span<Transform> out) {
  if (auto ok = check_sizes(a.size(), b.size(), out.size(), f); !ok) return ok;
  const detail::SlerpFactors factors = detail::slerp_factors(f);
  for (std::size_t i = 0; i < a.size(); ++i) blend_into(a[i], b[i], f, factors, out[i]);
  return {};
}

Status blend_weights(std::span<const float> a, std::span<const float> b, float f,
                     std::span<float> out) {
  if (auto ok = check_sizes(a.size(), b.size(), out.size(), f); !ok) return ok;
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i] + (b[i] - a[i]) * f;
  return {};
}

}  // namespace critter::anim
