// SPDX-License-Identifier: MIT
// Camera control of the viewer: mouse-style moves on the gl module's OrbitCamera (degrees,
// metres). Orbit turns around the target, zoom scales the distance (or the orthographic height),
// pan slides the target in the view plane, and switching projection keeps the model's apparent
// size at the target. Pure maths, no OpenGL.
#pragma once

#include "critter/core/math.h"
#include "critter/gl/camera.h"

namespace critter::viewer {

// Pitch stays within +-kMaxPitch degrees so the view never flips over the pole.
inline constexpr float kMaxPitch = 89.0f;
inline constexpr float kMinDistance = 1e-3f;
inline constexpr float kMaxDistance = 1e6f;

// The viewer's starting view of `box`: gl::frame_bounds at yaw 30, pitch 20, with clip planes left
// automatic (they then follow the distance when zooming).
gl::OrbitCamera initial_view(const Aabb& box, float aspect);

// Adds to yaw (wrapped to (-180, 180]) and pitch (clamped to [-kMaxPitch, kMaxPitch]), degrees.
void orbit(gl::OrbitCamera& camera, float delta_yaw, float delta_pitch);
// Scales the distance and the orthographic height by 0.9^steps (positive steps zoom in); the
// distance stays within [kMinDistance, kMaxDistance].
void zoom(gl::OrbitCamera& camera, float steps);
// Moves the target so the point under the cursor follows a drag of `pixels` (x right, y down)
// in a viewport `viewport_height` pixels tall.
void pan(gl::OrbitCamera& camera, vec2 pixels, float viewport_height);
// Switches projection; the visible height at the target stays the same.
void set_orthographic(gl::OrbitCamera& camera, bool orthographic);

// Height in metres seen at the target's depth: ortho_height, or 2 d tan(fov/2).
float visible_height(const gl::OrbitCamera& camera);
// Unit vectors of the view plane in world space.
vec3 camera_right(const gl::OrbitCamera& camera);
vec3 camera_up(const gl::OrbitCamera& camera);

}  // namespace critter::viewer
