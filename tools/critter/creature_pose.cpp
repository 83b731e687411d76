// SPDX-License-Identifier: MIT
#include "creature_pose.h"

#include <algorithm>
#include <optional>
#include <ostream>
#include <utility>

#include "controller_flags.h"
#include "describe.h"

namespace critter::cli {
namespace {

// A timeline value as a state value of `field`'s type; nullopt when its JSON shape is another.
std::optional<tools::StateValue> state_value(const anim::ParameterValue& v,
                                             const tools::StateField& field) {
  tools::StateValue out;
  out.type = field.type();
  const bool fits = (out.type == tools::StateType::kNumber && v.type == anim::ParamType::kFloat) ||
                    (out.type == tools::StateType::kBool && v.type == anim::ParamType::kBool) ||
                    (out.type == tools::StateType::kVec2 && v.type == anim::ParamType::kVec2) ||
                    (out.type == tools::StateType::kVec3 && v.type == anim::ParamType::kVec3) ||
                    (out.type == tools::StateType::kEnum && v.type == anim::ParamType::kString);
  if (!fits) return std::nullopt;
  out.number = v.number;
  out.boolean = v.number != 0.0;
  out.vec = v.vec;
  out.text = v.text;
  return out;
}

}  // namespace

Result<std::vector<tools::CreatureStateTrack::Key>> CreaturePose::state_keys(
    const Timeline* timeline) {
  std::vector<tools::CreatureStateTrack::Key> keys;
  if (!timeline) return keys;
  for (const TimelineKey& key : timeline->keys) {
    if (key.has_params) {
      return fail(Error::at(ErrorCode::kInvalid, timeline->path, key.pointer + "/params",
                            "\"params\" sets the parameters of --config; a --creature timeline "
                            "sets \"state\""));
    }
    CreatureStateArgs args;
    for (const TimelineValue& v : key.state) {
      const tools::StateField* field = tools::find_state_field(v.name);
      if (!field) {
        return fail(Error::at(ErrorCode::kInvalid, timeline->path, v.pointer,
                              "unknown state '" + v.name + "'" +
                                  tools::did_you_mean(tools::closest_state_names(v.name)) +
                                  "; critter pose --help lists the state names"));
      }
      const std::optional<tools::StateValue> value = state_value(v.value, *field);
      if (!value || !tools::store_state_value(args, *field, *value)) {
        return fail(
            Error::at(ErrorCode::kInvalid, timeline->path, v.pointer,
                      std::string(field->name) + " takes " + tools::state_value_text(*field)));
      }
    }
    keys.emplace_back(key.t, std::move(args));
  }
  return keys;
}

Result<CreaturePose> CreaturePose::load(const CreatureSpec& spec,
                                        std::shared_ptr<const Model> model, const std::string& path,
                                        const Timeline* timeline) {
  Result<std::vector<tools::CreatureStateTrack::Key>> keys = state_keys(timeline);
  if (!keys) return fail(std::move(keys.error()));
  return load(spec, std::move(model), path, std::move(*keys));
}

Result<CreaturePose> CreaturePose::load(const CreatureSpec& spec,
                                        std::shared_ptr<const Model> model, const std::string& path,
                                        std::vector<tools::CreatureStateTrack::Key> keys) {
  CreaturePose pose;
  pose.model_ = std::move(model);
  pose.path_ = path;
  pose.spec_ = spec;
  pose.track_ = tools::CreatureStateTrack(spec.state, std::move(keys));
  if (Status s = pose.restart(); !s) return fail(std::move(s.error()));
  return pose;
}

Status CreaturePose::restart() {
  Result<std::unique_ptr<CreatureSim>> sim = make_creature_sim(*model_, path_, spec_);
  if (!sim) return fail(std::move(sim.error()));
  sim_ = std::move(*sim);
  const std::span<const Transform> rest = model_->skeleton().rest_pose();
  pose_.assign(rest.begin(), rest.end());
  track_.restart();
  time_ = 0.0;
  return {};
}

void CreaturePose::advance_to(double t) {
  const std::span<const Transform> rest = model_->skeleton().rest_pose();
  while (time_ < t) {
    // As ControllerPose: the last step is shorter off the 60 Hz grid, a rounding sliver dropped.
    const double dt = std::min(kControllerStep, t - time_);
    if (dt < 1e-7) break;
    sim_->set_state(track_.at(time_));
    std::copy(rest.begin(), rest.end(), pose_.begin());
    sim_->step(static_cast<float>(dt), pose_);
    time_ += dt;
  }
}

Status CreaturePose::place(anim::Instance& instance) const {
  instance.set_root(sim_->root_matrix());
  return instance.pose(pose_);
}

void print_creature_events(std::span<const CreatureEvent> events, std::ostream& err) {
  for (const CreatureEvent& e : events) {
    err << "event at " << format_number(static_cast<float>(e.t)) << " s: " << e.name << "\n";
  }
}

}  // namespace critter::cli
