// SPDX-License-Identifier: MIT
#include "controller_flags.h"

#include "creature_sim.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <utility>

#include "command.h"
#include "critter/io/controller_loader.h"
#include "describe.h"

namespace critter::cli {
namespace {

const char* kind_name(anim::ControllerRecord::Kind kind) {
  switch (kind) {
    case anim::ControllerRecord::Kind::kEvent:
      return "event";
    case anim::ControllerRecord::Kind::kComplete:
      return "complete";
    case anim::ControllerRecord::Kind::kInterrupt:
      return "interrupt";
  }
  return "event";
}

}  // namespace

void add_controller_flags(CLI::App* app, ControllerFlags& flags) {
  app->add_option("--config", flags.config,
                  "Animation config (.json): the pose comes from its controller, simulated from 0 "
                  "to --time at 60 steps per second with the --param values set before every step "
                  "(instead of --anim)");
  app->add_option("--asset-root", flags.asset_roots,
                  "Folder searched for the config's extends, template and file: paths "
                  "(repeatable)");
  app->add_option("--param", flags.params,
                  "Controller parameter NAME=VALUE (repeatable): true/false is a bool, a number a "
                  "float, [x,y] or [x,y,z] a vector, 'text' or any other word a string. A name the "
                  "config neither declares, builds in nor reads is an error that suggests the "
                  "closest names (host names such as Gait count when an expression reads them)");
  app->add_option(
         "--rotation-blend", flags.rotation_blend,
         "How the controller blends rotations (its layer stack and crossfades): slerp (default, "
         "exact) or "
         "nlerp (normalised lerp, the blend 13-20% faster, up to 1 degree off slerp between "
         "poses 90 degrees apart) or lerp (the layers' weighted sum normalised once, as "
         "ozz-animation blends: faster again on stacked layers, further off slerp)")
      ->check(CLI::IsMember({"slerp", "nlerp", "lerp"}));
}

std::string legacy_driver_param_help() {
  return "Legacy creature drivers in a --config (FourLeggedWalk, BirdFly, FishSwim, ...;\n"
         "docs/creatures.md) read these parameters (--param NAME=VALUE):\n"
         "  Speed (m/s forward), IsOnGround (legs move only on the ground or in water),\n"
         "  ImmersionFactor, IsFlying, LookAngleX/LookAngleY (radians), IsAttacking, IsFeeding,\n"
         "  DeathCauseOffset=[x,y,z]; unless given, Health is 1 (IsDead=true makes it 0),\n"
         "  WalkSpeed 4, BodyHeight and BodyDepth the model's size, GameTime and DeltaTime the\n"
         "  simulation's clock. The orders HasFlyOrder + FlyOrder=[x,y,z], HasSwimOrder +\n"
         "  SwimOrder=[x,y,z], HasLookAtOrder + LookAtOrder=[x,y,z], LookRandomOrder, HeadShake,\n"
         "  HasDigOrder + DigOrder, LastTurnOrderX/Y, WalkOrder=[x,y]; the human's IsCrouching,\n"
         "  RowLeft, RowRight, IsRiding, IsBoat, IsMining, IsAiming, IsSleeping, IsOnLadder.\n";
}

Result<ControllerPose> ControllerPose::load(const ControllerFlags& flags,
                                            std::shared_ptr<const Model> model, Diagnostics* diag) {
  // Every --param is checked for syntax before the config is read: a usage error comes first.
  std::vector<ParamArg> args;
  for (const std::string& text : flags.params) {
    Result<ParamArg> arg = parse_param_arg(text, flags.config);
    if (!arg) return fail(std::move(arg.error()));
    args.push_back(std::move(*arg));
  }
  io::ControllerLoadOptions options;
  options.asset_roots = flags.asset_roots;
  options.allow_outside = flags.allow_outside;
  options.model_options = flags.model_options;
  Result<io::LoadedController> loaded = io::load_controller(flags.config, model, options, diag);
  if (!loaded) return fail(std::move(loaded.error()));

  ControllerPose pose;
  // With `file:` sources the program drives a copy of the model with those clips appended.
  pose.model_ = std::move(loaded->model);
  pose.program_ = std::move(loaded->program);
  const anim::ParameterSchema& schema = pose.program_->schema();
  pose.game_time_ = schema.find("GameTime");
  pose.delta_time_ = schema.find("DeltaTime");
  pose.health_ = schema.find("Health");
  pose.is_dead_ = schema.find("IsDead");
  pose.walk_speed_ = schema.find("WalkSpeed");
  pose.body_height_ = schema.find("BodyHeight");
  pose.body_depth_ = schema.find("BodyDepth");
  pose.body_size_ = tools::default_body_size(*pose.model_);
  pose.rotations_ = flags.rotation_blend == "nlerp"  ? anim::RotationBlend::kNlerp
                    : flags.rotation_blend == "lerp" ? anim::RotationBlend::kLerp
                                                     : anim::RotationBlend::kSlerp;
  for (ParamArg& arg : args) {
    Result<Setting> s =
        pose.resolve(arg.name, std::move(arg.value), flags.config, "--param", ErrorCode::kUsage);
    if (!s) return fail(std::move(s.error()));
    pose.param_settings_.push_back(std::move(*s));
  }
  pose.restart();
  return pose;
}

Result<ControllerPose::Setting> ControllerPose::resolve(const std::string& name,
                                                        anim::ParameterValue value,
                                                        const std::string& path,
                                                        const std::string& location,
                                                        ErrorCode code) const {
  const anim::ParameterSchema& schema = program_->schema();
  const anim::ParamIndex index = schema.find(name);
  if (index == anim::kNoParam) {
    // Nothing reads such a name, so setting it could not change the pose: almost always a typo.
    return fail(Error::at(
        code, path, location,
        "unknown parameter '" + name +
            "': the config does not declare it, it is not built in and no expression reads it" +
            tools::did_you_mean(closest_parameter_names(schema, name))));
  }
  Setting s;
  s.index = index;
  s.trigger = schema.initial(index).type == anim::ParamType::kTrigger;
  s.value = std::move(value);
  return s;
}

Status ControllerPose::set_timeline(const Timeline& timeline) {
  std::vector<TimedSettings> keys;
  for (const TimelineKey& key : timeline.keys) {
    if (key.has_state) {
      return fail(Error::at(ErrorCode::kInvalid, timeline.path, key.pointer + "/state",
                            "\"state\" sets the state of --creature; a --config timeline sets "
                            "\"params\""));
    }
    TimedSettings timed;
    timed.t = key.t;
    for (const TimelineValue& v : key.params) {
      Result<Setting> s = resolve(v.name, v.value, timeline.path, v.pointer, ErrorCode::kInvalid);
      if (!s) return fail(std::move(s.error()));
      timed.settings.push_back(std::move(*s));
    }
    keys.push_back(std::move(timed));
  }
  keys_ = std::move(keys);
  return {};
}

void ControllerPose::restart() {
  controller_ = std::make_unique<anim::Controller>(program_);
  controller_->set_rotation_blend(rotations_);
  fired_.clear();
  time_ = 0.0;
  settings_ = param_settings_;
  for (Setting& s : settings_) s.fire_pending = s.trigger;
  next_key_ = 0;
}

bool ControllerPose::given(anim::ParamIndex index) const {
  return std::any_of(settings_.begin(), settings_.end(),
                     [&](const Setting& s) { return s.index == index; });
}

void ControllerPose::set_parameters(double dt) {
  anim::ParameterValues& values = controller_->parameters();
  for (Setting& s : settings_) {
    if (s.trigger) {
      // A host fires a trigger once; firing it every frame would restart what it starts.
      if (s.fire_pending && s.value.type == anim::ParamType::kBool && s.value.number != 0.0) {
        values.fire_trigger(s.index);
      }
      s.fire_pending = false;
      continue;
    }
    values.set(s.index, s.value);
  }
  // After the given values, so that the life pair follows them. The table's zeros would show the
  // legacy drivers (which read Health and GameTime as a game writes them) a dead creature frozen
  // at time 0; creature_sim's defaults are the same.
  if (!given(game_time_)) values.set_float(game_time_, time_);
  if (!given(delta_time_)) values.set_float(delta_time_, dt);
  if (!given(health_)) {
    const bool dead = given(is_dead_) && values.boolean(is_dead_);
    values.set_float(health_, dead ? 0.0 : 1.0);
  }
  if (!given(is_dead_)) values.set_bool(is_dead_, !(values.number(health_) > 0.0));
  if (!given(walk_speed_)) values.set_float(walk_speed_, tools::kDefaultWalkSpeed);
  if (!given(body_height_)) values.set_float(body_height_, body_size_.y);
  if (!given(body_depth_)) values.set_float(body_depth_, body_size_.z);
}

void ControllerPose::advance_to(double t) {
  const anim::ControllerProgram& program = *program_;
  while (time_ < t) {
    // The last step is shorter when t is off the 60 Hz grid; a sliver left by rounding is dropped.
    const double dt = std::min(kControllerStep, t - time_);
    if (dt < 1e-7) break;
    // A key on the grid takes effect at its step even when summed steps fall just short of it.
    while (next_key_ < keys_.size() && keys_[next_key_].t <= time_ + 1e-7) {
      for (const Setting& k : keys_[next_key_].settings) {
        const auto same = std::find_if(settings_.begin(), settings_.end(),
                                       [&](const Setting& s) { return s.index == k.index; });
        Setting& s = same != settings_.end() ? *same : settings_.emplace_back();
        s = k;
        s.fire_pending = s.trigger;
      }
      ++next_key_;
    }
    set_parameters(dt);
    controller_->update(static_cast<float>(dt));
    time_ += dt;
    for (const anim::ControllerRecord& r : controller_->records()) {
      FiredRecord f;
      f.time = time_;
      if (r.layer >= 0 && r.layer < program.layer_count()) {
        f.layer = program.desc().layers[static_cast<std::size_t>(r.layer)].name;
      }
      f.kind = kind_name(r.kind);
      f.name = std::string(r.name);
      f.data = std::string(r.data);
      f.count = r.count;
      fired_.push_back(std::move(f));
    }
    controller_->clear_records();
  }
  collect_warnings();
}

void ControllerPose::collect_warnings() {
  for (const Warning& w : controller_->runtime_warnings()) {
    // A restart makes a new Controller, which reports its cases afresh.
    const bool known =
        std::any_of(runtime_warnings_.begin(), runtime_warnings_.end(), [&](const Warning& k) {
          return k.path == w.path && k.location == w.location && k.message == w.message;
        });
    if (!known) runtime_warnings_.push_back(w);
  }
  controller_->clear_runtime_warnings();
}

Status ControllerPose::place(anim::Instance& instance) {
  const std::span<const Transform> pose = controller_->compute_pose();
  instance.set_root(controller_->root_matrix());
  instance.set_root_correction(controller_->root_correction());
  return instance.pose(pose, controller_->morph_weights());
}

std::vector<LayerSummary> ControllerPose::layers() const {
  std::vector<LayerSummary> out;
  for (int l = 0; l < program_->layer_count(); ++l) {
    LayerSummary s;
    s.name = program_->desc().layers[static_cast<std::size_t>(l)].name;
    s.active = controller_->layer_active(l);
    s.weight = controller_->layer_weight(l);
    const anim::Player& player = controller_->layer_player(l);
    if (const Clip* clip = player.clip()) {
      s.clip = clip->name();
      s.clip_time = player.clip_time();
    }
    if (s.active && s.clip.empty()) {
      // A layer that shows something without a clip runs a driver: the rule's, else the preset.
      const anim::ControllerAnimationDesc* animation = controller_->layer_animation(l);
      s.driver = animation && animation->source == anim::ControllerAnimationDesc::Source::kDriver
                     ? animation->driver.type
                     : program_->desc().layers[static_cast<std::size_t>(l)].driver.type;
    }
    out.push_back(std::move(s));
  }
  return out;
}

void print_warnings(std::span<const Warning> warnings, std::ostream& err) {
  for (const Warning& w : warnings) err << format_warning(w) << "\n";
}

void print_fired(std::span<const FiredRecord> fired, std::ostream& err) {
  for (const FiredRecord& f : fired) {
    err << f.kind << " at " << format_number(static_cast<float>(f.time)) << " s: " << f.layer << " "
        << f.name;
    if (!f.data.empty()) err << " '" << f.data << "'";
    if (f.count > 1) err << " x" << f.count;
    err << "\n";
  }
}

}  // namespace critter::cli
