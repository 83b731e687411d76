// SPDX-License-Identifier: MIT
// The body motion that `--motion NAME=VALUE` and a timeline's "state" keys give the limb animator
// (`--limbs`), and LimbSim, which turns it into one animator step per frame: the host side of
// creatures.md §19–§20 for tools that have no game (the water pose picked by choose_water_pose
// unless forced, the liquid query answered by a flat water surface).
//
//   tools::LimbMotion motion;
//   if (auto ok = tools::set_limb_motion(motion, "vy", "-4", "--motion"); !ok) ...
//   auto sim = tools::LimbSim::create(split_model, limbs);
//   sim->set_motion(motion);
//   sim->step(dt, local_pose, model_transforms);
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "critter/anim/parameters.h"
#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/creature/limbs/body_motion.h"
#include "critter/creature/limbs/limb.h"
#include "critter/creature/limbs/limb_animator.h"
#include "critter/creature/limbs/water_pose_chooser.h"

namespace critter::tools {

struct LimbMotion {
  // y, speed, vy, accel, yaw_rate, grounded (known is always true from the tools).
  creature::BodyMotion body{.known = true};
  bool climbing = false;
  bool in_water = false;
  bool alive = true;
  bool first_person = false;
  // The liquid surface's height in model units: a hand or foot below it is in liquid. Unset: no
  // liquid, so no stroke events.
  std::optional<float> water_level;
  // Forces the whole-limb pose; unset: choose_water_pose picks it.
  std::optional<creature::WaterPose> water;
};

// The names set_limb_motion() takes, in help order.
std::span<const std::string_view> limb_motion_names();

// Sets `name` from text: numbers for y, speed, vy, accel, yaw_rate, water_level (finite);
// true/false (or 1/0) for grounded, climbing, in_water, alive, first_person; none, swim, tread,
// paddle or climb for water. Errors (kUsage at `path`, location `location`): an unknown name
// (suggesting the closest), a value of the wrong kind ("vy takes a finite number, not 'nan'").
Status set_limb_motion(LimbMotion& motion, std::string_view name, std::string_view value,
                       const std::string& path, const std::string& location);
// The same from a timeline value (a number, true/false, or a string for water); errors are
// kInvalid at `path` and the value's JSON pointer `location`.
Status set_limb_motion(LimbMotion& motion, std::string_view name, const anim::ParameterValue& value,
                       const std::string& path, const std::string& location);
// Parses "NAME=VALUE" (--motion); errors as above at location "--motion".
Status set_limb_motion(LimbMotion& motion, std::string_view assignment, const std::string& path);

// The --motion names and what they take, for --help (lines ending in a newline).
std::string limb_motion_help();

// One limb animator driven by a LimbMotion.
class LimbSim {
 public:
  // An animator over `model` (a split model) and its `limbs`; its warnings go to `warnings`.
  static Result<std::unique_ptr<LimbSim>> create(const Model& model,
                                                 std::span<const creature::Limb> limbs,
                                                 std::vector<Warning>* warnings = nullptr);

  void set_motion(const LimbMotion& motion) { motion_ = motion; }
  const LimbMotion& motion() const { return motion_; }

  // One step of dt seconds over this frame's local pose (one per joint of the model): the water
  // pose (forced or chosen), the animator's inputs, then a LimbStepJob into `model_transforms`
  // (model space) with the placement `root` and `root_correction` (LimbStepJob's).
  Status step(float dt, std::span<const Transform> local_pose, std::span<mat4> model_transforms,
              const mat4& root = mat4(1.0f), const mat4& root_correction = mat4(1.0f));

  creature::LimbAnimator& animator() { return *animator_; }
  const creature::LimbAnimator& animator() const { return *animator_; }

 private:
  std::unique_ptr<creature::LimbAnimator> animator_;
  creature::WaterPoseChooser chooser_;
  LimbMotion motion_;
};

}  // namespace critter::tools
