// SPDX-License-Identifier: MIT
#include "limb_pose.h"

#include <algorithm>

#include "controller_flags.h"
#include "critter/creature/limbs/split_limbs.h"

namespace critter::cli {

void add_motion_flag(CLI::App* app, LimbFlags& flags) {
  app->add_option("--motion", flags.motion,
                  "With --limbs: the body's motion NAME=VALUE for the limb animator (repeatable; "
                  "see below)");
}

bool LimbPose::has_limbs(const Model& model) {
  return !creature::recover_limbs(model).limbs.empty();
}

Status check_limb_usage(const LimbFlags& flags, const std::string& path) {
  if (!flags.limbs && !flags.motion.empty()) {
    return fail(Error::at(ErrorCode::kUsage, path, "--motion",
                          "--motion sets the body motion of the limb animator; add --limbs"));
  }
  return {};
}

Result<LimbPose> LimbPose::load(std::shared_ptr<const Model> model, int clip,
                                const LimbFlags& flags, const Timeline* timeline,
                                const std::string& path, std::vector<Warning>* warnings) {
  return make(std::move(model), clip, false, flags, timeline, path, warnings);
}

Result<LimbPose> LimbPose::follow(std::shared_ptr<const Model> model, const LimbFlags& flags,
                                  const std::string& path, std::vector<Warning>* warnings) {
  return make(std::move(model), -1, true, flags, nullptr, path, warnings);
}

Result<LimbPose> LimbPose::make(std::shared_ptr<const Model> model, int clip, bool following,
                                const LimbFlags& flags, const Timeline* timeline,
                                const std::string& path, std::vector<Warning>* warnings) {
  LimbPose p;
  p.model_ = std::move(model);
  p.path_ = path;
  p.clip_ = clip;
  p.following_ = following;
  for (const std::string& m : flags.motion) {
    if (Status s = tools::set_limb_motion(p.base_, m, path); !s) return fail(s.error());
  }
  if (timeline) {
    tools::LimbMotion probe = p.base_;
    for (const TimelineKey& key : timeline->keys) {
      if (key.has_params) {
        return fail(Error::at(ErrorCode::kInvalid, timeline->path, key.pointer + "/params",
                              "\"params\" set a --config's parameters; with --limbs a key "
                              "sets the body motion in \"state\""));
      }
      for (const TimelineValue& v : key.state) {
        if (Status s = tools::set_limb_motion(probe, v.name, v.value, timeline->path, v.pointer);
            !s) {
          return fail(s.error());
        }
        p.keys_.push_back(Key{key.t, v.name, v.pointer, v.value});
      }
    }
  }
  creature::FoundLimbs found = creature::recover_limbs(*p.model_);
  if (warnings) warnings->insert(warnings->end(), found.warnings.begin(), found.warnings.end());
  if (found.limbs.empty()) {
    return fail(Error::at(ErrorCode::kUsage, path, "--limbs",
                          "the model has no split limbs (Arm_Right, Arm_Left, Leg_Right, "
                          "Leg_Left hanging as upright boxes) to animate"));
  }
  p.limbs_ = std::move(found.limbs);
  const auto rest = p.model_->skeleton().rest_pose();
  p.rest_.assign(rest.begin(), rest.end());
  p.out_.assign(rest.size(), mat4(1.0f));
  p.player_ = std::make_unique<anim::Player>(*p.model_);
  if (Status s = p.restart(); !s) return fail(s.error());
  return p;
}

Status LimbPose::restart() {
  auto sim = tools::LimbSim::create(*model_, limbs_);
  if (!sim) return fail(sim.error());
  sim_ = std::move(*sim);
  sim_->set_motion(base_);
  next_key_ = 0;
  time_ = 0.0;
  events_.clear();
  if (clip_ >= 0) {
    if (Status s = player_->play(clip_, anim::PlaybackMode::kLoopForward); !s) return s;
  }
  // Frame 0: the pose at time 0, stepped with no time passing (a follower's source does that).
  return following_ ? Status{} : advance_step(0.0);
}

Status LimbPose::step_after(double dt, std::span<const Transform> local_pose,
                            const anim::Instance& placed) {
  if (Status s = sim_->step(static_cast<float>(dt), local_pose, out_, placed.root(),
                            placed.root_correction());
      !s) {
    return s;
  }
  time_ += dt;
  for (const creature::StrokeEvent& e : sim_->animator().take_stroke_events().events()) {
    events_.push_back(e);
  }
  return {};
}

void LimbPose::overlay(anim::Instance& instance) const {
  const auto out = instance.writable_model_transforms();
  std::copy(out_.begin(), out_.end(), out.begin());
}

Status LimbPose::advance_step(double dt) {
  // update(0) samples the clip at the start too, as `pose` without --limbs shows it.
  if (clip_ >= 0) player_->update(static_cast<float>(dt));
  tools::LimbMotion motion = sim_->motion();
  while (next_key_ < keys_.size() && keys_[next_key_].t <= time_ + 1e-9) {
    const Key& k = keys_[next_key_++];
    static_cast<void>(tools::set_limb_motion(motion, k.name, k.value, path_, k.pointer));
  }
  sim_->set_motion(motion);
  if (Status s = sim_->step(static_cast<float>(dt), local_pose(), out_); !s) return s;
  time_ += dt;
  for (const creature::StrokeEvent& e : sim_->animator().take_stroke_events().events()) {
    events_.push_back(e);
  }
  return {};
}

Status LimbPose::advance_to(double t) {
  while (time_ < t - 1e-9) {
    const double dt = std::min(kControllerStep, t - time_);
    if (Status s = advance_step(dt); !s) return s;
  }
  return {};
}

std::span<const Transform> LimbPose::local_pose() const {
  if (clip_ >= 0) return player_->local_pose();
  return rest_;
}

Status LimbPose::place(anim::Instance& instance) const {
  if (clip_ >= 0) {
    if (Status s = instance.pose(player_->local_pose(), player_->weights()); !s) return s;
  } else {
    if (Status s = instance.pose(rest_); !s) return s;
  }
  const auto out = instance.writable_model_transforms();
  std::copy(out_.begin(), out_.end(), out.begin());
  return {};
}

std::vector<creature::StrokeEvent> LimbPose::take_events() {
  std::vector<creature::StrokeEvent> out;
  out.swap(events_);
  return out;
}

}  // namespace critter::cli
