// SPDX-License-Identifier: MIT
#include "critter/gl/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace critter::gl {

vec3 OrbitCamera::eye() const {
  const float y = glm::radians(yaw);
  const float p = glm::radians(pitch);
  const vec3 dir(std::sin(y) * std::cos(p), std::sin(p), std::cos(y) * std::cos(p));
  return target + dir * distance;
}

Camera OrbitCamera::camera(float aspect) const {
  Camera c;
  c.position = eye();
  // Straight up or down the usual up vector degenerates; any horizontal one works there.
  vec3 up(0.0f, 1.0f, 0.0f);
  if (std::abs(pitch) > 89.9f)
    up = vec3(-std::sin(glm::radians(yaw)), 0.0f, -std::cos(glm::radians(yaw)));
  c.view = glm::lookAt(c.position, target, up);
  const float n = near_plane > 0.0f ? near_plane : distance / 100.0f;
  const float f = far_plane > 0.0f ? far_plane : distance * 100.0f;
  if (orthographic) {
    const float h = ortho_height * 0.5f;
    const float w = h * aspect;
    c.projection = glm::ortho(-w, w, -h, h, n, f);
  } else {
    c.projection = glm::perspective(glm::radians(fov_y), aspect, n, f);
  }
  return c;
}

OrbitCamera frame_bounds(const Aabb& bounds, float aspect, float yaw, float pitch,
                         bool orthographic, float fov_y, float margin) {
  OrbitCamera o;
  o.yaw = yaw;
  o.pitch = pitch;
  o.fov_y = fov_y;
  o.orthographic = orthographic;
  float radius = 1.0f;
  if (!bounds.empty()) {
    o.target = bounds.center();
    radius = std::max(glm::length(bounds.extent()) * 0.5f, 1e-4f);
  }
  radius *= margin;
  // The sphere fits a cone of half-angle a at distance r / sin(a); use the narrower of the
  // vertical and horizontal half-angles.
  const float half_v = glm::radians(fov_y) * 0.5f;
  const float half_h = std::atan(std::tan(half_v) * aspect);
  const float half = std::min(half_v, half_h);
  o.distance = radius / std::sin(half);
  o.ortho_height = 2.0f * radius * std::max(1.0f, 1.0f / aspect);
  if (orthographic) o.distance = radius * 3.0f;
  o.near_plane = std::max(o.distance - radius * 2.0f, o.distance * 1e-3f);
  o.far_plane = o.distance + radius * 4.0f;
  return o;
}

}  // namespace critter::gl
