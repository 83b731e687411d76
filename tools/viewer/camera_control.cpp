// SPDX-License-Identifier: MIT
#include "camera_control.h"

#include <algorithm>
#include <cmath>

namespace critter::viewer {

gl::OrbitCamera initial_view(const Aabb& box, float aspect) {
  gl::OrbitCamera c = gl::frame_bounds(box, aspect > 0.0f ? aspect : 1.0f, 30.0f, 20.0f);
  // Automatic planes (distance / 100, distance * 100) keep working after zooming; frame_bounds
  // fixes them for its own distance.
  c.near_plane = 0.0f;
  c.far_plane = 0.0f;
  return c;
}

void orbit(gl::OrbitCamera& camera, float delta_yaw, float delta_pitch) {
  float yaw = std::remainder(camera.yaw + delta_yaw, 360.0f);
  if (yaw <= -180.0f) yaw += 360.0f;
  camera.yaw = yaw;
  camera.pitch = std::clamp(camera.pitch + delta_pitch, -kMaxPitch, kMaxPitch);
}

void zoom(gl::OrbitCamera& camera, float steps) {
  if (!std::isfinite(steps)) return;
  const float f = std::pow(0.9f, steps);
  camera.distance = std::clamp(camera.distance * f, kMinDistance, kMaxDistance);
  camera.ortho_height = std::max(camera.ortho_height * f, 1e-6f);
}

float visible_height(const gl::OrbitCamera& camera) {
  if (camera.orthographic) return camera.ortho_height;
  return 2.0f * camera.distance * std::tan(glm::radians(camera.fov_y) * 0.5f);
}

vec3 camera_right(const gl::OrbitCamera& camera) {
  const float y = glm::radians(camera.yaw);
  return vec3(std::cos(y), 0.0f, -std::sin(y));
}

vec3 camera_up(const gl::OrbitCamera& camera) {
  const vec3 back = glm::normalize(camera.eye() - camera.target);
  return glm::cross(back, camera_right(camera));
}

void pan(gl::OrbitCamera& camera, vec2 pixels, float viewport_height) {
  if (!(viewport_height > 0.0f)) return;
  // One pixel covers visible_height / viewport_height metres at the target's depth in either
  // projection; moving the target against the drag keeps the grabbed point under the cursor.
  const float metres_per_pixel = visible_height(camera) / viewport_height;
  camera.target +=
      (-pixels.x * camera_right(camera) + pixels.y * camera_up(camera)) * metres_per_pixel;
}

void set_orthographic(gl::OrbitCamera& camera, bool orthographic) {
  if (orthographic == camera.orthographic) return;
  if (orthographic) {
    camera.ortho_height = visible_height(camera);
  } else {
    const float half = std::tan(glm::radians(camera.fov_y) * 0.5f);
    if (half > 0.0f)
      camera.distance = std::clamp(camera.ortho_height / (2.0f * half), kMinDistance, kMaxDistance);
  }
  camera.orthographic = orthographic;
}

}  // namespace critter::viewer
