// SPDX-License-Identifier: MIT
#include "critter/deform/palette_job.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

namespace critter::deform {
namespace {

mat4 translate(float x, float y, float z) {
  return glm::translate(mat4(1.0f), vec3(x, y, z));
}

TEST(PaletteJob, MultipliesModelTransformsByInverseBinds) {
  const std::vector<mat4> model = {translate(1, 0, 0), translate(0, 2, 0), translate(0, 0, 3)};
  const std::vector<std::int16_t> joints = {2, 0};
  const std::vector<mat4> inverse_binds = {translate(0, 0, -1), glm::scale(mat4(1.0f), vec3(2))};
  std::vector<mat4> palette(3, mat4(7.0f));
  PaletteJob job{model, joints, inverse_binds, nullptr, palette, {}};
  ASSERT_TRUE(job.run());
  // palette[0] = T(0,0,3) * T(0,0,-1) = T(0,0,2); palette[1] = T(1,0,0) * S(2).
  EXPECT_EQ(palette[0], translate(0, 0, 2));
  mat4 want1(2.0f);
  want1[3] = vec4(1, 0, 0, 1);
  EXPECT_EQ(palette[1], want1);
  EXPECT_EQ(palette[2], mat4(7.0f)) << "entries past the skin are untouched";
}

TEST(PaletteJob, EmptyInverseBindsAreIdentitiesAndRootAppliesOnTheLeft) {
  const std::vector<mat4> model = {glm::scale(mat4(1.0f), vec3(3)), translate(0, 1, 0)};
  const std::vector<std::int16_t> joints = {0, 1};
  std::vector<mat4> palette(2);
  const mat4 root = translate(10, 0, 0);
  PaletteJob job{model, joints, {}, &root, palette, {}};
  ASSERT_TRUE(job.run());
  // root * S(3): the origin lands at (10, 0, 0) and (1, 0, 0) at (13, 0, 0).
  EXPECT_EQ(palette[0] * vec4(1, 0, 0, 1), vec4(13, 0, 0, 1));
  EXPECT_EQ(palette[1] * vec4(0, 0, 0, 1), vec4(10, 1, 0, 1));
}

TEST(PaletteJob, PackedTexelsHoldThePaletteBits) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  const auto random_matrix = [&] {
    mat4 m;
    for (int c = 0; c < 4; ++c) m[c] = vec4(u(rng), u(rng), u(rng), c == 3 ? 1.0f : 0.0f);
    return m;
  };
  std::vector<mat4> model(5), ibm(4);
  for (mat4& m : model) m = random_matrix();
  for (mat4& m : ibm) m = random_matrix();
  const std::vector<std::int16_t> joints = {4, 0, 2, 2};
  const mat4 root = random_matrix();
  for (const mat4* r : {static_cast<const mat4*>(nullptr), &root}) {
    for (const bool with_ibm : {true, false}) {
      std::vector<mat4> palette(4);
      std::vector<vec4> packed(12);
      PaletteJob job{
          model, joints,  with_ibm ? std::span<const mat4>(ibm) : std::span<const mat4>(),
          r,     palette, {}};
      ASSERT_TRUE(job.run());
      job.packed = packed;
      ASSERT_TRUE(job.run());
      for (std::size_t i = 0; i < joints.size(); ++i)
        for (int k = 0; k < 3; ++k)
          EXPECT_EQ(packed[3 * i + static_cast<std::size_t>(k)],
                    vec4(vec3(palette[i][k]), palette[i][3][k]))
              << "joint " << i << " texel " << k << (r ? " with root" : "")
              << (with_ibm ? "" : " without inverse binds");
    }
  }
}

TEST(PaletteJob, ValidatesEachRule) {
  const std::vector<mat4> model(3);
  const std::vector<std::int16_t> joints = {0, 2};
  const std::vector<mat4> ibm(2);
  std::vector<mat4> palette(2);
  const PaletteJob good{model, joints, ibm, nullptr, palette, {}};
  ASSERT_TRUE(good.validate());

  auto broken = [&](PaletteJob job, const char* needle) {
    const Status s = job.run();
    ASSERT_FALSE(s) << needle;
    EXPECT_NE(s.error().message.find(needle), std::string::npos) << s.error().message;
  };
  PaletteJob j = good;
  j.inverse_binds = std::span<const mat4>(ibm).first(1);
  broken(j, "inverse_binds has 1 entries");
  j = good;
  j.palette = std::span<mat4>(palette).first(1);
  broken(j, "palette has 1 entries");
  std::vector<vec4> packed(5);
  j = good;
  j.packed = packed;
  broken(j, "packed has 5 texels");
  const std::vector<std::int16_t> bad = {0, 3};
  j = good;
  j.joints = bad;
  broken(j, "joints[1] = 3 is outside");
  const std::vector<std::int16_t> negative = {-1, 0};
  j = good;
  j.joints = negative;
  broken(j, "joints[0] = -1 is outside");
  const std::vector<std::int16_t> many(65537, 0);
  j = good;
  j.joints = many;
  broken(j, "65536");
}

}  // namespace
}  // namespace critter::deform
