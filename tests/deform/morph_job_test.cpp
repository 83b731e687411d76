// SPDX-License-Identifier: MIT
#include "critter/deform/morph_job.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>
#include "support/math_helpers.h"

namespace critter::deform {
namespace {

using critter::testing::expect_vec_near;

struct Fixture {
  MorphSet set;
  std::vector<vec3> positions = {vec3(0, 0, 0), vec3(1, 0, 0), vec3(0, 1, 0)};
  std::vector<vec3> normals = {vec3(0, 0, 1), vec3(0, 0, 1), vec3(0, 0, 1)};
  std::vector<vec4> tangents = {vec4(1, 0, 0, 1), vec4(1, 0, 0, -1), vec4(1, 0, 0, 1)};
  std::vector<float> weights = {0.5f, 0.0f, 2.0f};
  std::vector<vec3> out_p = std::vector<vec3>(3), out_n = std::vector<vec3>(3);
  std::vector<vec4> out_t = std::vector<vec4>(3);

  Fixture() {
    set.targets.resize(3);
    // Target 0: moves every vertex up by 2 in z and bends normals towards +x.
    set.targets[0].positions = {vec3(0, 0, 2), vec3(0, 0, 2), vec3(0, 0, 2)};
    set.targets[0].normals = {vec3(2, 0, 0), vec3(2, 0, 0), vec3(0, 0, 0)};
    // Target 1: weight 0, so even its NaN deltas must never be read into the result.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    set.targets[1].positions = {vec3(nan), vec3(nan), vec3(nan)};
    // Target 2: positions only on vertex 2, tangents on every vertex.
    set.targets[2].positions = {vec3(0), vec3(0), vec3(1, 0, 0)};
    set.targets[2].tangents = {vec3(0, 0.5f, 0), vec3(-0.5f, 0, 0), vec3(0)};
  }

  MorphJob job() {
    MorphJob j;
    j.morphs = &set;
    j.weights = weights;
    j.in_positions = positions;
    j.in_normals = normals;
    j.in_tangents = tangents;
    j.out_positions = out_p;
    j.out_normals = out_n;
    j.out_tangents = out_t;
    return j;
  }
};

TEST(MorphJob, AppliesWeightedDeltasAndRenormalises) {
  Fixture f;
  ASSERT_TRUE(f.job().run());
  // p = base + 0.5 * (0,0,2) + 2 * target 2.
  expect_vec_near(f.out_p[0], vec3(0, 0, 1), 1e-6f);
  expect_vec_near(f.out_p[1], vec3(1, 0, 1), 1e-6f);
  expect_vec_near(f.out_p[2], vec3(2, 1, 1), 1e-6f);
  // n = normalize((0,0,1) + 0.5 * (2,0,0)) = (1,0,1)/sqrt 2; vertex 2 has no normal delta.
  const float h = std::sqrt(0.5f);
  expect_vec_near(f.out_n[0], vec3(h, 0, h), 1e-6f);
  expect_vec_near(f.out_n[1], vec3(h, 0, h), 1e-6f);
  expect_vec_near(f.out_n[2], vec3(0, 0, 1), 1e-6f);
  // t = normalize((1,0,0) + 2 * (0,0.5,0)) = (1,1,0)/sqrt 2; (1,0,0) + 2 * (-0.5,0,0) = 0 -> 0.
  expect_vec_near(vec3(f.out_t[0]), vec3(h, h, 0), 1e-6f);
  expect_vec_near(vec3(f.out_t[1]), vec3(0, 0, 0), 1e-6f);
  expect_vec_near(vec3(f.out_t[2]), vec3(1, 0, 0), 1e-6f);
  EXPECT_EQ(f.out_t[0].w, 1.0f);
  EXPECT_EQ(f.out_t[1].w, -1.0f);
}

TEST(MorphJob, MorphsInPlaceAndWithoutOptionalStreams) {
  Fixture f;
  MorphJob j = f.job();
  j.in_normals = {};
  j.out_normals = {};
  j.in_tangents = {};
  j.out_tangents = {};
  j.out_positions = f.positions;
  ASSERT_TRUE(j.run());
  expect_vec_near(f.positions[2], vec3(2, 1, 1), 1e-6f);
}

TEST(MorphJob, ZeroWeightsReturnTheBase) {
  Fixture f;
  f.weights = {0, 0, 0};
  ASSERT_TRUE(f.job().run());
  for (std::size_t v = 0; v < 3; ++v) {
    EXPECT_EQ(f.out_p[v], f.positions[v]);
    EXPECT_EQ(f.out_n[v], f.normals[v]);
    EXPECT_EQ(f.out_t[v], f.tangents[v]);
  }
}

TEST(MorphJob, ValidatesEachRule) {
  Fixture f;
  ASSERT_TRUE(f.job().validate());
  auto broken = [&](auto&& edit, const char* needle) {
    MorphJob j = f.job();
    edit(j);
    const Status s = j.run();
    ASSERT_FALSE(s) << needle;
    EXPECT_EQ(s.error().code, ErrorCode::kUsage);
    EXPECT_NE(s.error().message.find(needle), std::string::npos) << s.error().message;
  };
  broken([](MorphJob& j) { j.morphs = nullptr; }, "morphs is null");
  broken([](MorphJob& j) { j.weights = j.weights.first(2); }, "weights has 2 entries, expected 3");
  const std::vector<float> inf = {0, std::numeric_limits<float>::infinity(), 0};
  broken([&](MorphJob& j) { j.weights = inf; }, "weights[1] is not finite");
  broken([](MorphJob& j) { j.out_positions = j.out_positions.first(2); }, "out_positions has 2");
  broken([](MorphJob& j) { j.in_normals = j.in_normals.first(1); }, "in_normals has 1");
  broken([](MorphJob& j) { j.out_normals = {}; }, "out_normals has 0");
  broken([](MorphJob& j) { j.in_tangents = j.in_tangents.first(2); }, "in_tangents has 2");
  broken([](MorphJob& j) { j.out_tangents = {}; }, "out_tangents has 0");
  f.set.targets[2].normals = {vec3(0)};
  broken([](MorphJob&) {}, "target 2 normals has 1 entries");
}

}  // namespace
}  // namespace critter::deform
