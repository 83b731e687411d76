// SPDX-License-Identifier: MIT
#include "critter/core/soa_transform.h"

#include <cstddef>
#include <string>

namespace critter {

namespace {

// A Transform is ten floats in the order of the rows (translation, rotation x y z w, scale).
static_assert(sizeof(Transform) == 10 * sizeof(float));
static_assert(offsetof(SoaTransform, rotation) == 3 * SoaTransform::kLanes * sizeof(float));
static_assert(offsetof(SoaTransform, scale) == 7 * SoaTransform::kLanes * sizeof(float));

float (&rows(SoaTransform& b))[10][SoaTransform::kLanes] {
  return *reinterpret_cast<float(*)[10][SoaTransform::kLanes]>(&b.translation[0][0]);
}
const float (&rows(const SoaTransform& b))[10][SoaTransform::kLanes] {
  return *reinterpret_cast<const float(*)[10][SoaTransform::kLanes]>(&b.translation[0][0]);
}

Status block_count_error(const char* path, std::size_t blocks, std::size_t joints) {
  return fail(Error::at(ErrorCode::kUsage, path, "soa",
                        "structure-of-arrays pose has " + std::to_string(blocks) + " blocks, " +
                            std::to_string(joints) + " joints need " +
                            std::to_string(soa_blocks(joints))));
}

}  // namespace

Transform SoaTransform::get(std::size_t lane) const {
  Transform t;
  float* f = &t.translation.x;
  const auto& r = rows(*this);
  for (int c = 0; c < 10; ++c) f[c] = r[c][lane];
  return t;
}

void SoaTransform::set(std::size_t lane, const Transform& t) {
  const float* f = &t.translation.x;
  auto& r = rows(*this);
  for (int c = 0; c < 10; ++c) r[c][lane] = f[c];
}

Status to_soa(std::span<const Transform> aos, std::span<SoaTransform> soa) {
  if (soa.size() != soa_blocks(aos.size()))
    return block_count_error("to_soa", soa.size(), aos.size());
  const Transform identity;
  for (std::size_t b = 0; b < soa.size(); ++b)
    for (std::size_t lane = 0; lane < SoaTransform::kLanes; ++lane) {
      const std::size_t j = b * SoaTransform::kLanes + lane;
      soa[b].set(lane, j < aos.size() ? aos[j] : identity);
    }
  return {};
}

Status from_soa(std::span<const SoaTransform> soa, std::span<Transform> aos) {
  if (soa.size() != soa_blocks(aos.size()))
    return block_count_error("from_soa", soa.size(), aos.size());
  for (std::size_t j = 0; j < aos.size(); ++j) aos[j] = soa_get(soa, j);
  return {};
}

}  // namespace critter
