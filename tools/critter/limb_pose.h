// SPDX-License-Identifier: MIT
// LimbPose: a split block-limbed character as `critter pose --limbs` and `critter render --limbs`
// show it. The game's clip (--anim, looping) and the limb animator are stepped together at 60 Hz
// from time 0; before every step the body motion is the --motion values with every timeline key
// whose time has come merged over them.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "../common/limb_motion.h"
#include "critter/anim/instance.h"
#include "critter/anim/player.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/creature/limbs/limb.h"
#include "critter/creature/limbs/stroke_event.h"
#include "timeline.h"

namespace critter::cli {

// --limbs and --motion, as pose and render take them.
struct LimbFlags {
  bool limbs = false;               // --limbs
  std::vector<std::string> motion;  // --motion NAME=VALUE (repeatable)
};

// Registers --motion on `app`, writing into `flags.motion` (--limbs itself is add_limbs_flag's).
void add_motion_flag(CLI::App* app, LimbFlags& flags);

// The usage rule of --motion (kUsage at `path`): --motion without --limbs.
Status check_limb_usage(const LimbFlags& flags, const std::string& path);

class LimbPose {
 public:
  // Whether `model` has split limbs (recover_limbs() finds some): --limbs animates only those.
  static bool has_limbs(const Model& model);

  // The limbs of `model` (already split, recover_limbs()), the --motion values and the timeline's
  // "state" keys checked, and the clip `clip` (-1: none, the rest pose) looping. Errors: a model
  // without limbs (kUsage at "--limbs"), a bad --motion (kUsage at "--motion"), a timeline key
  // with "params" or a bad motion name or value (kInvalid at its JSON pointer).
  static Result<LimbPose> load(std::shared_ptr<const Model> model, int clip, const LimbFlags& flags,
                               const Timeline* timeline, const std::string& path,
                               std::vector<Warning>* warnings);

  // The limbs of `model` following another pose source (--config or --creature): no clip, no
  // timeline (its keys belong to that source); the body motion is the --motion values. The
  // caller steps it with step_after() after each step of the source. Errors as load()'s.
  static Result<LimbPose> follow(std::shared_ptr<const Model> model, const LimbFlags& flags,
                                 const std::string& path, std::vector<Warning>* warnings);

  const Model& model() const { return *model_; }
  // Whether follow() made it.
  bool following() const { return following_; }
  double time() const { return time_; }
  // A fresh simulation at time 0.
  Status restart();
  // Steps from time() to `t` (kControllerStep steps, the last one shorter when t is off the
  // grid). Stroke events found on the way are kept for events().
  Status advance_to(double t);
  // The local pose (the clip's, never changed) and the bent model-space matrices on `instance`
  // (made from model()).
  Status place(anim::Instance& instance) const;
  std::span<const Transform> local_pose() const;
  // follow() only: one step of dt seconds after the source's step whose pose `placed` holds
  // (its root() and root_correction()) and whose local pose is `local_pose`.
  Status step_after(double dt, std::span<const Transform> local_pose, const anim::Instance& placed);
  // follow() only: the bent model-space matrices of the last step written over `instance`'s
  // (which the source placed).
  void overlay(anim::Instance& instance) const;
  // The clip's time (0 without a clip).
  float clip_time() const { return clip_ >= 0 ? player_->clip_time() : 0.0f; }
  const creature::LimbAnimator& animator() const { return sim_->animator(); }
  // The stroke events since the previous call.
  std::vector<creature::StrokeEvent> take_events();

 private:
  // load() and follow(): the clip's own simulation, or (following) one stepped by its caller.
  static Result<LimbPose> make(std::shared_ptr<const Model> model, int clip, bool following,
                               const LimbFlags& flags, const Timeline* timeline,
                               const std::string& path, std::vector<Warning>* warnings);
  Status advance_step(double dt);
  struct Key {
    double t = 0.0;
    std::string name, pointer;
    anim::ParameterValue value;
  };
  std::shared_ptr<const Model> model_;
  std::vector<creature::Limb> limbs_;
  std::string path_;
  int clip_ = -1;
  bool following_ = false;
  tools::LimbMotion base_;
  std::vector<Key> keys_;
  std::size_t next_key_ = 0;
  std::unique_ptr<tools::LimbSim> sim_;
  std::unique_ptr<anim::Player> player_;
  std::vector<Transform> rest_;
  std::vector<mat4> out_;
  std::vector<creature::StrokeEvent> events_;
  double time_ = 0.0;
};

}  // namespace critter::cli
