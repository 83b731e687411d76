// SPDX-License-Identifier: MIT
#include "support/hostile_drive.h"

#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <span>

#include "critter/anim/controller.h"

namespace critter::test_support {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

bool finite(const mat4& m) {
  for (int col = 0; col < 4; ++col)
    for (int row = 0; row < 4; ++row)
      if (!std::isfinite(m[col][row])) return false;
  return true;
}

}  // namespace

anim::ParameterValue hostile_parameter_value(std::mt19937& rng) {
  static const double kNumbers[] = {0.0,   1.0,  -1.0, 0.5,   3.5,   1e30, -1e30,
                                    1e300, kNaN, kInf, -kInf, 1e-40, 2.0,  10.0};
  const auto number = [&] {
    return kNumbers[std::uniform_int_distribution<std::size_t>(0, std::size(kNumbers) - 1)(rng)];
  };
  static const char* const kStrings[] = {"",
                                         "Idle",
                                         "Walk",
                                         "Jump",
                                         "jump",
                                         "walk",
                                         "Nope",
                                         "[Gait]",
                                         "animation://Idle",
                                         "driver:Death"};
  switch (std::uniform_int_distribution<int>(0, 8)(rng)) {
    case 0:
      return anim::ParameterValue::of_float(number());
    case 1: {
      // The extremes themselves half the time: a uniform draw almost never meets them.
      constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
      constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
      if (rng() & 1u) return anim::ParameterValue::of_int((rng() & 1u) ? kMin : kMax);
      return anim::ParameterValue::of_int(
          std::uniform_int_distribution<std::int64_t>(kMin, kMax)(rng));
    }
    case 2:
      return anim::ParameterValue::of_int(std::uniform_int_distribution<int>(-3, 5)(rng));
    case 3:
      return anim::ParameterValue::of_bool(rng() & 1u);
    case 4:
      if ((rng() & 7u) == 0) return anim::ParameterValue::of_string(std::string(300, 'W'));
      return anim::ParameterValue::of_string(
          kStrings[std::uniform_int_distribution<std::size_t>(0, std::size(kStrings) - 1)(rng)]);
    case 5:
      return anim::ParameterValue::of_vec2(
          vec2(static_cast<float>(number()), static_cast<float>(number())));
    case 6:
      return anim::ParameterValue::of_vec3(vec3(static_cast<float>(number()),
                                                static_cast<float>(number()),
                                                static_cast<float>(number())));
    case 7:
      return anim::ParameterValue::of_trigger(rng() & 1u);
    default:
      return anim::ParameterValue::unset();
  }
}

float hostile_dt(std::mt19937& rng) {
  static const float kDts[] = {0.0f,  1.0f / 60.0f, 1.0f / 30.0f, 0.25f, 1e30f,
                               -1.0f, kNaN,         kInf,         -kInf, 1e-30f,
                               5.0f,  1.0f / 60.0f, 1.0f / 60.0f};
  return kDts[std::uniform_int_distribution<std::size_t>(0, std::size(kDts) - 1)(rng)];
}

std::string drive_hostile_frames(const std::shared_ptr<const anim::ControllerProgram>& program,
                                 std::mt19937& rng) {
  anim::Controller c(program);
  const anim::ParameterSchema& schema = program->schema();
  const auto joints = static_cast<std::size_t>(program->model().skeleton().joint_count());
  for (int frame = 0; frame < 60; ++frame) {
    const std::string at = "frame " + std::to_string(frame) + ": ";
    const int sets = std::uniform_int_distribution<int>(0, 4)(rng);
    for (int s = 0; s < sets && schema.size() > 0; ++s) {
      const auto index = static_cast<anim::ParamIndex>(
          std::uniform_int_distribution<std::size_t>(0, schema.size() - 1)(rng));
      const anim::ParameterValue v = hostile_parameter_value(rng);
      if (rng() & 1u) {
        c.parameters().set(index, v);
      } else {
        c.parameters().set(schema.name(index), v);
      }
      if ((rng() & 15u) == 0) c.parameters().fire_trigger(index);
    }
    // The host's body: finite (a host's own NaN is not the config's doing), sometimes large.
    const float vx = std::uniform_real_distribution<float>(-20.0f, 20.0f)(rng);
    c.set_body(vec3(vx, (rng() & 7u) == 0 ? 1e6f : 0.0f, 0.0f),
               quat_xyzw(0.0f, std::sin(vx), 0.0f, std::cos(vx)));
    c.update(hostile_dt(rng));
    const std::span<const Transform> pose = c.compute_pose();
    if (pose.size() != joints)
      return at + "pose of " + std::to_string(pose.size()) + " transforms for " +
             std::to_string(joints) + " joints";
    for (std::size_t j = 0; j < pose.size(); ++j) {
      if (!all_finite(pose[j].translation) || !all_finite(pose[j].rotation) ||
          !all_finite(pose[j].scale))
        return at + "joint " + std::to_string(j) + ": pose not finite";
    }
    for (float w : c.morph_weights())
      if (!std::isfinite(w)) return at + "morph weight not finite";
    if (!finite(c.root_matrix())) return at + "root matrix not finite";
    if (!finite(c.root_correction())) return at + "root correction not finite";
    const std::optional<vec3> velocity = c.root_motion_velocity();
    if (velocity && !all_finite(*velocity)) return at + "root-motion velocity not finite";
    const std::optional<float> scale = c.root_motion_scale();
    if (scale && !std::isfinite(*scale)) return at + "root-motion scale not finite";
    if (c.records().size() > 4096u)
      return at + std::to_string(c.records().size()) + " records, more than 4096";
    c.clear_records();
    if (c.runtime_warnings().size() > anim::Controller::kMaxRuntimeCases + 1)
      return at + std::to_string(c.runtime_warnings().size()) + " runtime warnings, more than " +
             std::to_string(anim::Controller::kMaxRuntimeCases + 1);
    for (const Warning& w : c.runtime_warnings()) {
      if (w.location.empty() || w.message.empty())
        return at + "runtime warning without a location or message: " + w.to_string();
    }
  }
  return {};
}

}  // namespace critter::test_support
