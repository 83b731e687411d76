// SPDX-License-Identifier: MIT
#include "camera_control.h"

#include <gtest/gtest.h>

#include <limits>

namespace critter::viewer {
namespace {

// Looking down -Z from +Z (yaw 0, pitch 0) at `target`, `distance` away, 90 degree fov.
gl::OrbitCamera straight_on(vec3 target, float distance) {
  gl::OrbitCamera c;
  c.target = target;
  c.distance = distance;
  c.yaw = 0.0f;
  c.pitch = 0.0f;
  c.fov_y = 90.0f;
  return c;
}

vec3 ndc(const gl::Camera& cam, vec3 p) {
  const vec4 clip = cam.view_projection() * vec4(p, 1.0f);
  return vec3(clip) / clip.w;
}

TEST(CameraControl, InitialViewFramesTheBoxWithAutomaticPlanes) {
  Aabb box;
  box.expand(vec3(1.0f, 2.0f, 3.0f));
  box.expand(vec3(3.0f, 4.0f, 5.0f));
  const gl::OrbitCamera c = initial_view(box, 1.5f);
  EXPECT_EQ(c.target, vec3(2.0f, 3.0f, 4.0f));
  EXPECT_EQ(c.yaw, 30.0f);
  EXPECT_EQ(c.pitch, 20.0f);
  EXPECT_EQ(c.near_plane, 0.0f);
  EXPECT_EQ(c.far_plane, 0.0f);
  EXPECT_FALSE(c.orthographic);
}

TEST(CameraControl, OrbitWrapsYawAndClampsPitch) {
  gl::OrbitCamera c = straight_on(vec3(0.0f), 1.0f);
  orbit(c, 170.0f, 0.0f);
  orbit(c, 20.0f, 0.0f);
  EXPECT_NEAR(c.yaw, -170.0f, 1e-4f);
  orbit(c, -10.0f, 0.0f);
  EXPECT_NEAR(c.yaw, 180.0f, 1e-4f);
  orbit(c, 0.0f, 120.0f);
  EXPECT_EQ(c.pitch, kMaxPitch);
  orbit(c, 0.0f, -300.0f);
  EXPECT_EQ(c.pitch, -kMaxPitch);
}

TEST(CameraControl, ZoomScalesDistanceAndOrthoHeight) {
  gl::OrbitCamera c = straight_on(vec3(0.0f), 2.0f);
  c.ortho_height = 2.0f;
  zoom(c, 1.0f);
  EXPECT_NEAR(c.distance, 1.8f, 1e-6f);
  EXPECT_NEAR(c.ortho_height, 1.8f, 1e-6f);
  zoom(c, -2.0f);
  EXPECT_NEAR(c.distance, 1.8f / 0.81f, 1e-5f);
  zoom(c, 1e4f);
  EXPECT_EQ(c.distance, kMinDistance);
  zoom(c, std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(c.distance, kMinDistance);
}

TEST(CameraControl, ViewPlaneAxesAtYawZeroAndNinety) {
  gl::OrbitCamera c = straight_on(vec3(0.0f), 2.0f);
  EXPECT_NEAR(glm::length(camera_right(c) - vec3(1, 0, 0)), 0.0f, 1e-6f);
  EXPECT_NEAR(glm::length(camera_up(c) - vec3(0, 1, 0)), 0.0f, 1e-6f);
  c.yaw = 90.0f;  // eye on +X looking toward -X: right is -Z
  EXPECT_NEAR(glm::length(camera_right(c) - vec3(0, 0, -1)), 0.0f, 1e-6f);
}

TEST(CameraControl, PanKeepsTheGrabbedPointUnderTheCursor) {
  // Visible height at the target = 2 * 2 * tan(45 deg) = 4 m over 100 pixels: 0.04 m per pixel.
  gl::OrbitCamera c = straight_on(vec3(0.0f), 2.0f);
  EXPECT_NEAR(visible_height(c), 4.0f, 1e-5f);
  pan(c, vec2(10.0f, 0.0f), 100.0f);
  EXPECT_NEAR(c.target.x, -0.4f, 1e-5f);
  pan(c, vec2(0.0f, 10.0f), 100.0f);
  EXPECT_NEAR(c.target.y, 0.4f, 1e-5f);
  EXPECT_NEAR(c.target.z, 0.0f, 1e-5f);
  pan(c, vec2(5.0f, 5.0f), 0.0f);  // no viewport: ignored
  EXPECT_NEAR(c.target.x, -0.4f, 1e-5f);
}

TEST(CameraControl, SwitchingProjectionKeepsTheSizeAtTheTarget) {
  gl::OrbitCamera c = straight_on(vec3(0.0f), 2.0f);
  // Visible height 4 at the target, aspect 2: the view's corner at the target's depth.
  const vec3 corner(4.0f, 2.0f, 0.0f);
  vec3 n = ndc(c.camera(2.0f), corner);
  EXPECT_NEAR(n.x, 1.0f, 1e-4f);
  EXPECT_NEAR(n.y, 1.0f, 1e-4f);
  set_orthographic(c, true);
  EXPECT_TRUE(c.orthographic);
  EXPECT_NEAR(c.ortho_height, 4.0f, 1e-5f);
  n = ndc(c.camera(2.0f), corner);
  EXPECT_NEAR(n.x, 1.0f, 1e-4f);
  EXPECT_NEAR(n.y, 1.0f, 1e-4f);
  c.ortho_height = 2.0f;  // zoomed in while orthographic
  set_orthographic(c, false);
  EXPECT_NEAR(c.distance, 1.0f, 1e-5f);  // 2 m visible with a 90 degree fov
}

}  // namespace
}  // namespace critter::viewer
