// SPDX-License-Identifier: MIT
#include "critter/deform/palette_job.h"

#include <string>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace critter::deform {

namespace {

constexpr std::size_t kMaxPaletteJoints = 65536;

// Texel k = (column k's x, y, z, translation component k).
void put_packed(const mat4& m, vec4* texels) {
  for (int k = 0; k < 3; ++k) texels[k] = vec4(vec3(m[k]), m[3][k]);
}

// put_packed(a * b) without the product's last row, column by column with the operations of
// glm's mat4 product in its order, so the texels are the same bits.
void put_packed_product(const mat4& a, const mat4& b, vec4* texels) {
#if defined(__SSE2__)
  const __m128 a0 = _mm_loadu_ps(&a[0][0]), a1 = _mm_loadu_ps(&a[1][0]);
  const __m128 a2 = _mm_loadu_ps(&a[2][0]), a3 = _mm_loadu_ps(&a[3][0]);
  __m128 c[4];
  for (int j = 0; j < 4; ++j) {
    const float* bj = &b[j][0];
    c[j] = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(a0, _mm_set1_ps(bj[0])),
                                            _mm_mul_ps(a1, _mm_set1_ps(bj[1]))),
                                 _mm_mul_ps(a2, _mm_set1_ps(bj[2]))),
                      _mm_mul_ps(a3, _mm_set1_ps(bj[3])));
  }
  alignas(16) float t[4];
  _mm_store_ps(t, c[3]);
  for (int k = 0; k < 3; ++k) {
    _mm_storeu_ps(&texels[k].x, c[k]);
    texels[k].w = t[k];
  }
#else
  put_packed(a * b, texels);
#endif
}

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
  if (!packed.empty()) {
    if (packed.size() / 3 < joints.size()) {
      return usage("packed has " + std::to_string(packed.size()) + " texels, expected at least " +
                   std::to_string(3 * joints.size()));
    }
  } else if (palette.size() < joints.size()) {
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
  if (!packed.empty()) {
    vec4* out = packed.data();
    for (std::size_t i = 0; i < n; ++i, out += 3) {
      const mat4& model = model_transforms[static_cast<std::size_t>(joints[i])];
      if (root != nullptr) {
        put_packed(*root * (inverse_binds.empty() ? model : model * inverse_binds[i]), out);
      } else if (inverse_binds.empty()) {
        put_packed(model, out);
      } else {
        put_packed_product(model, inverse_binds[i], out);
      }
    }
    return {};
  }
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
