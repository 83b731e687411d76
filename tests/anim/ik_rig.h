// SPDX-License-Identifier: MIT
// Tiny skeletons for the IK tests, built in code: parents, a local pose and its model matrices.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "critter/anim/local_to_model_job.h"
#include "critter/core/transform.h"
#include "support/math_helpers.h"

namespace critter::anim::test {

using critter::testing::angle_between;
using critter::testing::axis_angle;
using critter::testing::kPi;
using critter::testing::trs;

struct Rig {
  std::vector<std::int16_t> parents;
  std::vector<Transform> locals;
  std::vector<mat4> models;
  mat4 root{1.0f};

  int add(int parent, const Transform& local) {
    parents.push_back(static_cast<std::int16_t>(parent));
    locals.push_back(local);
    models.emplace_back(1.0f);
    return static_cast<int>(parents.size()) - 1;
  }
  // Model matrices of the current locals, written in place (jobs hold spans of `models`).
  void refresh() {
    const auto fresh = computed();
    models.resize(fresh.size());
    std::copy(fresh.begin(), fresh.end(), models.begin());
  }
  std::vector<mat4> computed() const {
    std::vector<mat4> out(parents.size());
    LocalToModelJob job;
    job.parents = parents;
    job.input = locals;
    job.root = root;
    job.output = out;
    EXPECT_TRUE(job.run());
    return out;
  }
  vec3 pos(int j) const { return vec3(models[static_cast<std::size_t>(j)][3]); }
  // Direction of model-space axis `local_axis` of joint j.
  vec3 axis(int j, vec3 local_axis) const {
    return glm::normalize(vec3(models[static_cast<std::size_t>(j)] * vec4(local_axis, 0.0f)));
  }
  // Models equal a fresh local-to-model pass of the locals.
  void expect_consistent(float tol = 1e-5f) const {
    const auto fresh = computed();
    for (std::size_t j = 0; j < fresh.size(); ++j)
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
          EXPECT_NEAR(models[j][c][r], fresh[j][c][r], tol) << "joint " << j;
  }
};

// A body joint (0) at (0, 2, 0) tilted 30° about Z, then a chain of `bones` joints 1..bones, each
// `segment` along its parent's +Y with a slight bend about X, a toe (bones + 1) below the end bone
// and a tail (bones + 2) on the body, outside the chain.
inline Rig chain_rig(int bones, float segment = 1.0f) {
  Rig rig;
  rig.add(-1, trs({0, 2, 0}, axis_angle({0, 0, 1}, kPi / 6)));
  int parent = 0;
  for (int b = 0; b < bones; ++b)
    parent = rig.add(parent, trs({0, b == 0 ? 0.25f : segment, 0}, axis_angle({1, 0, 0}, 0.2f)));
  rig.add(parent, trs({0, 0.3f, 0.1f}));
  rig.add(0, trs({0, -0.5f, 0}, axis_angle({1, 0, 0}, 1.0f), vec3(0.5f)));
  rig.refresh();
  return rig;
}

}  // namespace critter::anim::test
