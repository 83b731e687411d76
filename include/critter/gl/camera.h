// SPDX-License-Identifier: MIT
// Cameras: view and projection matrices (column vectors, right-handed, +Y up, OpenGL clip space)
// and an orbit camera with automatic framing of a box.
#pragma once

#include "critter/core/math.h"

namespace critter::gl {

// What the renderer needs from a camera for one frame.
struct Camera {
  mat4 view{1.0f};           // view_from_world
  mat4 projection{1.0f};     // clip_from_view (OpenGL conventions: depth -1..1)
  vec3 position{0.0f};       // world-space eye position (distance sorting, fog, shadow fade)
  bool under_water = false;  // rendering.md §2: picks the transparent pass of faded instances

  mat4 view_projection() const { return projection * view; }
};

// A camera orbiting `target`. yaw 0 puts the eye on the +Z side looking toward -Z (a creature
// facing +Z shows its front); positive yaw turns the eye counter-clockwise seen from above
// (toward +X). pitch > 0 looks down from above. Angles in degrees, distances in metres.
struct OrbitCamera {
  vec3 target{0.0f};
  float yaw = 0.0f;
  float pitch = 15.0f;
  float distance = 3.0f;  // > 0
  float fov_y = 40.0f;    // vertical field of view, degrees in (0, 180), perspective only
  bool orthographic = false;
  float ortho_height = 2.0f;  // visible height in metres, orthographic only
  // Clip planes; <= 0 picks them from the distance (distance / 100 and distance * 100).
  float near_plane = 0.0f;
  float far_plane = 0.0f;

  // Eye position in world space.
  vec3 eye() const;
  // The camera for a viewport of width / height = aspect (> 0).
  Camera camera(float aspect) const;
};

// An orbit camera with the given angles that frames `bounds` (world space) in a viewport of
// `aspect`: target = box centre, distance (or ortho_height) such that the box's bounding sphere
// times `margin` fits both the vertical and the horizontal field of view. An empty box frames a
// unit sphere at the origin.
OrbitCamera frame_bounds(const Aabb& bounds, float aspect, float yaw, float pitch,
                         bool orthographic = false, float fov_y = 40.0f, float margin = 1.05f);

}  // namespace critter::gl
