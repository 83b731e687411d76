// SPDX-License-Identifier: MIT
// Root-bone correction (animation-config.md §12) and root motion (§13) of one Controller: the
// correction's blend between targets, the body velocity from the Base layer's clip, the physics
// flags and the scale override of the rootMotion config in effect, and the stripping of the
// motion from the Base layer's pose.
#pragma once

#include <cstdint>
#include <span>

#include "critter/anim/controller_program.h"
#include "critter/core/math.h"
#include "critter/core/transform.h"

namespace critter::anim::detail {

struct Layer;

// §12: the effective root-bone rotation and translation, blended from the current value towards
// a new target with smoothstep over the blend duration (<= 0 snaps).
struct RootBoneCorrection {
  void start(const quat& to_rotation, const vec3& to_translation, float duration);
  void advance(float dt);

  quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  vec3 translation{0.0f};
  quat from_rotation{1.0f, 0.0f, 0.0f, 0.0f};
  vec3 from_translation{0.0f};
  quat to_rotation{1.0f, 0.0f, 0.0f, 0.0f};
  vec3 to_translation{0.0f};
  float time = 0.0f;
  float duration = 0.0f;
  bool blending = false;
};

class RootMotion {
 public:
  // After every update, with the Base layer (null: the program has none), the body's velocity and
  // rotation the host passed and the effective root-bone rotation: the velocity, then the
  // config's physics flags and scale ease.
  void update(const ControllerProgram& program, const Layer* base, const vec3& body_velocity,
              const quat& body_rotation, const quat& root_rotation, float dt);
  // Whether §13 pose stripping applies to the Base layer `base`: its config is Blend or Override.
  static bool strips(const ControllerProgram& program, const Layer& base);
  // §13 pose stripping of the Base layer's sampled pose, when strips().
  static void strip(const ControllerProgram& program, const Layer& base, std::span<Transform> pose);

  bool active() const { return active_; }
  const vec3& velocity() const { return velocity_; }
  bool scale_shown() const { return scale_shown_; }
  float scale() const { return scale_; }
  const RootMotionPhysics& physics() const { return physics_; }

 private:
  void translation(const ControllerProgram& program, const Layer* base, const vec3& body_velocity,
                   const quat& body_rotation, const quat& root_rotation, float dt);
  // Entering and leaving rootMotion configs: physics flags, the velocity clear, the scale ease.
  void effects(const ControllerProgram& program, const Layer* base, float dt);

  vec3 velocity_{0.0f};
  bool active_ = false;
  vec3 state_{0.0f};   // SmoothDamp / spring velocity
  float time_ = 0.0f;  // clip time of the previous update
  std::uint32_t play_ = 0;
  bool impulse_done_ = false;
  int effects_animation_ = -1;  // program animation whose rootMotion block is in effect, or -1
  std::uint32_t effects_play_ = 0;
  RootMotionPhysics physics_;
  float scale_ = 1.0f;  // effective root-motion scale of the last update
  float scale_from_ = 1.0f;
  float scale_time_ = 0.0f;
  float scale_duration_ = 0.0f;
  bool scale_easing_ = false;
  bool scale_shown_ = false;
};

}  // namespace critter::anim::detail
