// SPDX-License-Identifier: MIT
#include "input.h"

#include <gtest/gtest.h>

namespace critter::viewer {
namespace {

// Looking down -Z from 2 m away with a 90 degree fov: 4 m visible at the target.
gl::OrbitCamera at_origin() {
  gl::OrbitCamera c;
  c.fov_y = 90.0f;
  c.distance = 2.0f;
  c.yaw = 0.0f;
  c.pitch = 0.0f;
  return c;
}

TEST(ApplyPointer, LeftDragOrbits) {
  gl::OrbitCamera c = at_origin();
  PointerInput in;
  in.left = true;
  in.drag = vec2(10.0f, 5.0f);
  apply_pointer(c, in, 100.0f);
  EXPECT_NEAR(c.yaw, -5.0f, 1e-5f);
  EXPECT_NEAR(c.pitch, 2.5f, 1e-5f);
  EXPECT_EQ(c.target, vec3(0.0f));
}

TEST(ApplyPointer, RightMiddleAndShiftLeftPan) {
  for (int variant = 0; variant < 3; ++variant) {
    gl::OrbitCamera c = at_origin();
    PointerInput in;
    in.right = variant == 0;
    in.middle = variant == 1;
    in.left = in.shift = variant == 2;
    in.drag = vec2(25.0f, 0.0f);
    apply_pointer(c, in, 100.0f);
    EXPECT_NEAR(c.target.x, -1.0f, 1e-5f) << variant;  // 4 m / 100 px * 25 px
    EXPECT_EQ(c.yaw, 0.0f) << variant;
  }
}

TEST(ApplyPointer, WheelZoomsWithoutButtons) {
  gl::OrbitCamera c = at_origin();
  PointerInput in;
  in.scroll = 2.0f;
  in.drag = vec2(50.0f, 50.0f);  // motion without a button does nothing
  apply_pointer(c, in, 100.0f);
  EXPECT_NEAR(c.distance, 2.0f * 0.81f, 1e-5f);
  EXPECT_EQ(c.yaw, 0.0f);
  EXPECT_EQ(c.target, vec3(0.0f));
}

}  // namespace
}  // namespace critter::viewer
