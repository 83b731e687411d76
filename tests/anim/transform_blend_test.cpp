// SPDX-License-Identifier: MIT
#include "critter/anim/transform_blend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "anim/exact_slerp.h"

namespace critter::anim {
namespace {

constexpr double kPiD = 3.14159265358979323846;

// The double-precision slerp of a and b, each normalised first.
glm::dvec4 reference_slerp(const quat& a, const quat& b, double f) {
  glm::dvec4 qa(a.x, a.y, a.z, a.w), qb(b.x, b.y, b.z, b.w);
  qa /= glm::length(qa);
  qb /= glm::length(qb);
  return test::exact_slerp(qa, qb, f);
}

quat random_unit(std::mt19937& rng) {
  std::normal_distribution<float> n(0.0f, 1.0f);
  glm::vec4 v(n(rng), n(rng), n(rng), n(rng));
  v = glm::normalize(v);
  return quat_xyzw(v.x, v.y, v.z, v.w);
}

TEST(SlerpShortest, MatchesDoublePrecisionSlerpEverywhere) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::normal_distribution<float> small(0.0f, 0.05f);
  double worst = 0.0;
  for (int i = 0; i < 20000; ++i) {
    const quat a = random_unit(rng);
    // Half the pairs are near each other (key-to-key motion), half anywhere.
    quat b = random_unit(rng);
    if (i % 2 == 0) b = glm::normalize(a * quat_xyzw(small(rng), small(rng), small(rng), 1.0f));
    const float f = unit(rng);
    const quat got = slerp_shortest(a, b, f);
    const glm::dvec4 want = reference_slerp(a, b, f);
    worst = std::max({worst, std::abs(got.x - want.x), std::abs(got.y - want.y),
                      std::abs(got.z - want.z), std::abs(got.w - want.w)});
  }
  EXPECT_LT(worst, 1e-6);
}

// Arcs swept through every band of the weight evaluation (narrow, middle, wide, up to a half
// turn of the quaternion sphere, i.e. a full turn of rotation) and onto the opposite hemisphere,
// where the shorter arc is taken through -b.
TEST(SlerpShortest, MatchesDoublePrecisionSlerpInEveryBand) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  double worst = 0.0;
  for (int i = 0; i <= 2000; ++i) {
    const quat a = random_unit(rng);
    // A unit quaternion orthogonal to a: b = cos(φ)·a + sin(φ)·p has cos θ = cos φ exactly.
    quat p = random_unit(rng);
    const float along = a.x * p.x + a.y * p.y + a.z * p.z + a.w * p.w;
    p = glm::normalize(
        quat_xyzw(p.x - along * a.x, p.y - along * a.y, p.z - along * a.z, p.w - along * a.w));
    const float phi = static_cast<float>(kPiD) * static_cast<float>(i) / 2000.0f;
    const float c = std::cos(phi), s = std::sin(phi);
    const quat b = glm::normalize(
        quat_xyzw(c * a.x + s * p.x, c * a.y + s * p.y, c * a.z + s * p.z, c * a.w + s * p.w));
    for (float f : {0.0f, 0.1f, 0.3f, 0.5f, 0.77f, 1.0f, unit(rng)}) {
      const quat got = slerp_shortest(a, b, f);
      const glm::dvec4 want = reference_slerp(a, b, f);
      worst = std::max({worst, std::abs(got.x - want.x), std::abs(got.y - want.y),
                        std::abs(got.z - want.z), std::abs(got.w - want.w)});
      EXPECT_NEAR(got.x * got.x + got.y * got.y + got.z * got.z + got.w * got.w, 1.0f, 1e-6f);
    }
  }
  EXPECT_LT(worst, 1e-6);
}

TEST(SlerpShortest, EndpointsAndOppositeHemisphere) {
  const float h = static_cast<float>(std::sin(kPiD / 8));
  const float c = static_cast<float>(std::cos(kPiD / 8));
  const quat a = quat_xyzw(0, 0, 0, 1);
  // (0, 0, sin 45°, cos 45°) written through the double-angle formulas: 90° about Z.
  const quat b = quat_xyzw(0, 0, 2 * h * c, c * c - h * h);
  const quat mid = slerp_shortest(a, -b, 0.5f);  // 45° about Z: (0, 0, sin 22.5°, cos 22.5°)
  EXPECT_NEAR(mid.z, h, 1e-6f);
  EXPECT_NEAR(mid.w, c, 1e-6f);
  EXPECT_NEAR(slerp_shortest(a, b, 0.0f).w, 1.0f, 1e-7f);
  EXPECT_NEAR(slerp_shortest(a, b, 1.0f).z, b.z, 1e-6f);
  // Identical inputs stay put.
  const quat same = slerp_shortest(b, b, 0.3f);
  EXPECT_NEAR(same.z, b.z, 1e-7f);
  EXPECT_NEAR(same.w, b.w, 1e-7f);
}

TEST(BlendTransforms, LerpsTranslationAndScaleSlerpsRotation) {
  Transform a, b;
  a.translation = vec3(0, 2, 4);
  b.translation = vec3(4, 2, 0);
  a.scale = vec3(1);
  b.scale = vec3(3, 1, 0);
  b.rotation = quat_xyzw(1, 0, 0, 0);  // 180° about X
  const Transform r = blend_transforms(a, b, 0.25f);
  EXPECT_EQ(r.translation, vec3(1, 2, 3));
  EXPECT_EQ(r.scale, vec3(1.5f, 1.0f, 0.75f));
  // 45° about X.
  EXPECT_NEAR(r.rotation.x, std::sin(kPiD / 8), 1e-6);
  EXPECT_NEAR(r.rotation.w, std::cos(kPiD / 8), 1e-6);
}

// The rotation of blend_transforms (the blending job's slerp) against the textbook slerp: every
// arc width from identical to a half turn of the quaternion sphere, both hemispheres, factors
// over [0, 1] with the endpoints.
TEST(BlendTransforms, RotationWithin3e7OfTheExactSlerp) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  double worst = 0.0, worst_length = 0.0;
  for (int i = 0; i <= 20000; ++i) {
    const quat a = random_unit(rng);
    quat p = random_unit(rng);
    const float along = a.x * p.x + a.y * p.y + a.z * p.z + a.w * p.w;
    p = glm::normalize(
        quat_xyzw(p.x - along * a.x, p.y - along * a.y, p.z - along * a.z, p.w - along * a.w));
    const float phi = static_cast<float>(kPiD) * static_cast<float>(i % 2001) / 2000.0f;
    const float c = std::cos(phi), s = std::sin(phi);
    const quat b = glm::normalize(
        quat_xyzw(c * a.x + s * p.x, c * a.y + s * p.y, c * a.z + s * p.z, c * a.w + s * p.w));
    Transform ta, tb;
    ta.rotation = a;
    tb.rotation = b;
    for (const float f : {0.0f, 0.25f, 0.5f, 1.0f, unit(rng), unit(rng)}) {
      const quat got = blend_transforms(ta, tb, f).rotation;
      const glm::dvec4 want = reference_slerp(a, b, f);
      worst = std::max({worst, std::abs(got.x - want.x), std::abs(got.y - want.y),
                        std::abs(got.z - want.z), std::abs(got.w - want.w)});
      const double length2 =
          static_cast<double>(got.x) * got.x + static_cast<double>(got.y) * got.y +
          static_cast<double>(got.z) * got.z + static_cast<double>(got.w) * got.w;
      worst_length = std::max(worst_length, std::abs(std::sqrt(length2) - 1.0));
    }
  }
  EXPECT_LT(worst, 3e-7);
  EXPECT_LT(worst_length, 3e-7);
}

TEST(BlendTransforms, PosesAndWeightsCheckSizes) {
  std::vector<Transform> a(3), b(3), out(3);
  b[1].translation = vec3(2, 0, 0);
  ASSERT_TRUE(blend_transforms(a, b, 0.5f, out));
  EXPECT_EQ(out[1].translation, vec3(1, 0, 0));
  // In place into a.
  ASSERT_TRUE(blend_transforms(a, b, 1.0f, a));
  EXPECT_EQ(a[1].translation, vec3(2, 0, 0));
  std::vector<Transform> short_out(2);
  auto bad = blend_transforms(a, b, 0.5f, short_out);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kUsage);
  EXPECT_FALSE(blend_transforms(a, b, std::nanf(""), out));

  std::vector<float> wa{0, 1}, wb{2, 3}, wo(2);
  ASSERT_TRUE(blend_weights(wa, wb, 0.25f, wo));
  EXPECT_FLOAT_EQ(wo[0], 0.5f);
  EXPECT_FLOAT_EQ(wo[1], 1.5f);
  std::vector<float> wshort(1);
  EXPECT_FALSE(blend_weights(wa, wshort, 0.25f, wo));
}

}  // namespace
}  // namespace critter::anim
