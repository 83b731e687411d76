// SPDX-License-Identifier: MIT
#include "critter/anim/ik_smooth_damp.h"

#include <gtest/gtest.h>

namespace critter::anim {
namespace {

TEST(SmoothDamp, ApproachesWithoutOvershooting) {
  float x = 0.0f, v = 0.0f;
  float previous = x;
  for (int i = 0; i < 600; ++i) {
    x = smooth_damp(x, 1.0f, v, 0.2f, 1.0f / 60.0f);
    EXPECT_LE(x, 1.0f);
    EXPECT_GE(x, previous);
    previous = x;
  }
  EXPECT_NEAR(x, 1.0f, 1e-4f);
}

TEST(SmoothDamp, FirstStepMovesByTheSpringStep) {
  // ω = 2/T = 10, x = ω·dt = 0.1, e = 1/(1 + 0.1 + 0.0048 + 0.000235); from rest at 0 toward 1:
  // temp = ω·(−1)·dt = −0.1, out = 1 + (−1 − 0.1)·e.
  float v = 0.0f;
  const float e = 1.0f / (1.0f + 0.1f + 0.0048f + 0.000235f);
  EXPECT_NEAR(smooth_damp(0.0f, 1.0f, v, 0.2f, 0.01f), 1.0f - 1.1f * e, 1e-6f);
  EXPECT_NEAR(v, (0.0f + 10.0f * 0.1f) * e, 1e-5f);
}

TEST(SmoothDamp, ZeroStepKeepsTheValue) {
  float v = 3.0f;
  EXPECT_EQ(smooth_damp(0.25f, 1.0f, v, 0.2f, 0.0f), 0.25f);
  vec3 vv(1.0f);
  EXPECT_EQ(smooth_damp(vec3(1, 2, 3), vec3(0.0f), vv, 0.2f, 0.0f), vec3(1, 2, 3));
}

TEST(SmoothDamp, LargeStepStopsAtTheGoal) {
  float v = 50.0f;
  EXPECT_EQ(smooth_damp(0.0f, 1.0f, v, 0.1f, 10.0f), 1.0f);
  EXPECT_EQ(v, 0.0f);
  vec3 vv(0.0f, 0.0f, 40.0f);
  EXPECT_EQ(smooth_damp(vec3(0.0f), vec3(0, 0, 1), vv, 0.1f, 10.0f), vec3(0, 0, 1));
  EXPECT_EQ(vv, vec3(0.0f));
}

TEST(SmoothDamp, VectorMovesAlongTheLineToTheGoal) {
  vec3 x(0.0f), v(0.0f);
  const vec3 goal(3, 4, 0);
  for (int i = 0; i < 10; ++i) {
    x = smooth_damp(x, goal, v, 0.5f, 1.0f / 30.0f);
    EXPECT_NEAR(glm::length(glm::cross(x, goal)), 0.0f, 1e-5f);
  }
  EXPECT_GT(glm::length(x), 0.0f);
  EXPECT_LT(glm::length(x), 5.0f);
}

}  // namespace
}  // namespace critter::anim
