// SPDX-License-Identifier: MIT
#include "limb_motion.h"

#include <array>
#include <charconv>
#include <cmath>

#include "critter/core/strings.h"

namespace critter::tools {
namespace {

constexpr std::array<std::string_view, 12> kNames = {
    "y",        "speed", "vy",           "accel",       "yaw_rate", "grounded",
    "climbing", "alive", "first_person", "water_level", "in_water", "water"};

enum class Kind { kNumber, kBool, kWater };

Kind kind_of(std::string_view name) {
  if (name == "water") return Kind::kWater;
  if (name == "grounded" || name == "climbing" || name == "in_water" || name == "alive" ||
      name == "first_person") {
    return Kind::kBool;
  }
  return Kind::kNumber;
}

std::string_view takes(Kind kind) {
  switch (kind) {
    case Kind::kNumber:
      return "a finite number";
    case Kind::kBool:
      return "true or false";
    case Kind::kWater:
      return "none, swim, tread, paddle or climb";
  }
  return "";
}

bool known_name(std::string_view name) {
  for (std::string_view n : kNames) {
    if (n == name) return true;
  }
  return false;
}

std::optional<creature::WaterPose> parse_water(std::string_view text) {
  for (int p = 0; p < creature::kWaterPoseCount; ++p) {
    const auto pose = static_cast<creature::WaterPose>(p);
    if (creature::to_string(pose) == text) return pose;
  }
  return std::nullopt;
}

void set_number(LimbMotion& m, std::string_view name, float v) {
  if (name == "y") m.body.y = v;
  if (name == "speed") m.body.speed = v;
  if (name == "vy") m.body.vy = v;
  if (name == "accel") m.body.accel = v;
  if (name == "yaw_rate") m.body.yaw_rate = v;
  if (name == "water_level") m.water_level = v;
}

void set_bool(LimbMotion& m, std::string_view name, bool v) {
  if (name == "grounded") m.body.grounded = v;
  if (name == "climbing") m.climbing = v;
  if (name == "in_water") m.in_water = v;
  if (name == "alive") m.alive = v;
  if (name == "first_person") m.first_person = v;
}

std::vector<std::string> closest(std::string_view name) {
  return closest_names(std::span<const std::string_view>(kNames), name);
}

}  // namespace

std::span<const std::string_view> limb_motion_names() {
  return kNames;
}

Status set_limb_motion(LimbMotion& motion, std::string_view name, std::string_view value,
                       const std::string& path, const std::string& location) {
  const auto usage = [&](std::string message) {
    return fail(Error::at(ErrorCode::kUsage, path, location, std::move(message)));
  };
  if (!known_name(name)) {
    return usage("unknown motion '" + std::string(name) + "'" + did_you_mean(closest(name)) +
                 "; --help lists the motion names");
  }
  const Kind kind = kind_of(name);
  const auto wrong = [&] {
    return usage(std::string(name) + " takes " + std::string(takes(kind)) + ", not '" +
                 std::string(value) + "'");
  };
  switch (kind) {
    case Kind::kNumber: {
      float v = 0.0f;
      const auto r = std::from_chars(value.data(), value.data() + value.size(), v);
      if (r.ec != std::errc() || r.ptr != value.data() + value.size() || !std::isfinite(v)) {
        return wrong();
      }
      set_number(motion, name, v);
      return {};
    }
    case Kind::kBool: {
      if (value == "true" || value == "1") {
        set_bool(motion, name, true);
      } else if (value == "false" || value == "0") {
        set_bool(motion, name, false);
      } else {
        return wrong();
      }
      return {};
    }
    case Kind::kWater: {
      const auto pose = parse_water(value);
      if (!pose) return wrong();
      motion.water = *pose;
      return {};
    }
  }
  return {};
}

Status set_limb_motion(LimbMotion& motion, std::string_view name, const anim::ParameterValue& value,
                       const std::string& path, const std::string& location) {
  const auto invalid = [&](std::string message) {
    return fail(Error::at(ErrorCode::kInvalid, path, location, std::move(message)));
  };
  if (!known_name(name)) {
    return invalid("unknown motion '" + std::string(name) + "'" + did_you_mean(closest(name)) +
                   "; `critter pose --help` lists the motion names");
  }
  const Kind kind = kind_of(name);
  const auto wrong = [&] {
    return invalid(std::string(name) + " takes " + std::string(takes(kind)));
  };
  switch (kind) {
    case Kind::kNumber:
      if (value.type != anim::ParamType::kFloat || !std::isfinite(value.number)) return wrong();
      set_number(motion, name, static_cast<float>(value.number));
      return {};
    case Kind::kBool:
      if (value.type != anim::ParamType::kBool) return wrong();
      set_bool(motion, name, value.number != 0.0);
      return {};
    case Kind::kWater: {
      if (value.type != anim::ParamType::kString) return wrong();
      const auto pose = parse_water(value.text);
      if (!pose) return wrong();
      motion.water = *pose;
      return {};
    }
  }
  return {};
}

Status set_limb_motion(LimbMotion& motion, std::string_view assignment, const std::string& path) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return fail(Error::at(
        ErrorCode::kUsage, path, "--motion",
        "expected NAME=VALUE, e.g. vy=-4 or water=swim, not '" + std::string(assignment) + "'"));
  }
  return set_limb_motion(motion, assignment.substr(0, eq), assignment.substr(eq + 1), path,
                         "--motion");
}

std::string limb_motion_help() {
  return "Body motion of the limb animator (--limbs; --motion NAME=VALUE and a timeline's "
         "\"state\"):\n"
         "  y            number  feet height, nodes (a rise of 0.25..1.2 while grounded steps up)\n"
         "  speed        number  horizontal speed, nodes/s\n"
         "  vy           number  vertical velocity, nodes/s, up positive\n"
         "  accel        number  d(speed)/dt along the facing, nodes/s^2 (lean)\n"
         "  yaw_rate     number  turning rate, degrees/s, positive left (bank)\n"
         "  grounded     bool    standing on something (default true)\n"
         "  climbing     bool    on a ladder or vine\n"
         "  in_water     bool    chest deep in a liquid\n"
         "  alive        bool    (default true)\n"
         "  first_person bool    elbows x0.25, no lean or bank\n"
         "  water_level  number  liquid surface height, model units (stroke events)\n"
         "  water        none|swim|tread|paddle|climb  forces the whole-limb pose\n";
}

Result<std::unique_ptr<LimbSim>> LimbSim::create(const Model& model,
                                                 std::span<const creature::Limb> limbs,
                                                 std::vector<Warning>* warnings) {
  auto animator = creature::LimbAnimator::create(model, limbs, {}, warnings);
  if (!animator) return fail(animator.error());
  auto sim = std::make_unique<LimbSim>();
  sim->animator_ = std::move(*animator);
  return sim;
}

Status LimbSim::step(float dt, std::span<const Transform> local_pose,
                     std::span<mat4> model_transforms, const mat4& root,
                     const mat4& root_correction) {
  creature::LimbAnimator& a = *animator_;
  const creature::BodyMotion& body = motion_.body;
  creature::WaterPoseChoice choice;
  if (motion_.water) {
    choice.pose = *motion_.water;
    choice.speed = choice.pose == creature::WaterPose::kClimb ? body.vy : body.speed;
  } else {
    choice = chooser_.choose({.in_water = motion_.in_water,
                              .alive = motion_.alive,
                              .grounded = body.grounded,
                              .climbing = motion_.climbing,
                              .lying = a.lying(),
                              .limb_speed = body.speed,
                              .vy = body.vy},
                             dt);
  }
  if (auto ok = a.set_motion(body); !ok) return ok;
  a.set_water_pose(choice.pose, choice.speed);
  a.set_first_person(motion_.first_person);
  a.set_in_water(motion_.in_water);
  if (motion_.water_level) {
    const float level = *motion_.water_level;
    a.set_liquid_query([level](const vec3& p) { return p.y < level; });
  } else {
    a.set_liquid_query({});
  }
  creature::LimbStepJob job;
  job.animator = &a;
  job.local_pose = local_pose;
  job.root = root;
  job.root_correction = root_correction;
  job.dt = dt;
  job.output = model_transforms;
  return job.run();
}

}  // namespace critter::tools
