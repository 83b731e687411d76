// SPDX-License-Identifier: MIT
// Helpers of the legacy-rig tests: a bound rig on a built-in creature and a simulated time series.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string_view>
#include <vector>

#include "critter/asset/model.h"
#include "critter/creature/legacy/builtin_creatures.h"
#include "critter/creature/legacy/rig_factory.h"
#include "support/math_helpers.h"

namespace critter::creature::legacy::test {

using critter::testing::angle_between;

inline constexpr float kDt = 1.0f / 60.0f;

struct Bench {
  Model model;
  std::unique_ptr<LegacyRig> rig;
  std::vector<Transform> pose;

  Bench(Kind kind, std::string_view species = {}) {
    auto built = make_builtin_creature(kind);
    EXPECT_TRUE(built) << built.error().to_string();
    model = std::move(*built);
    auto made = make_rig(to_string(kind), species, model.skeleton());
    EXPECT_TRUE(made) << made.error().to_string();
    rig = std::move(*made);
    const auto rest = model.skeleton().rest_pose();
    pose.assign(rest.begin(), rest.end());
  }
  // One frame from the rest pose.
  void frame(const CreatureState& s, float dt = kDt) {
    const auto rest = model.skeleton().rest_pose();
    pose.assign(rest.begin(), rest.end());
    rig->animate(s, dt, pose);
  }
  const Transform& bone(std::string_view name) const {
    return pose[static_cast<std::size_t>(model.find_bone(name))];
  }
  const Transform& rest(std::string_view name) const {
    return model.skeleton().rest_pose()[static_cast<std::size_t>(model.find_bone(name))];
  }
  // The override rotation M of a bone with the legacy rule (pose = M·rest rotation).
  quat turn(std::string_view name) const {
    return glm::normalize(bone(name).rotation * glm::inverse(rest(name).rotation));
  }
};

inline CreatureState walking(float speed, float walk_speed = 4.0f) {
  CreatureState s;
  s.velocity = vec3(0.0f, 0.0f, -speed);
  s.walk_speed = walk_speed;
  s.is_on_ground = true;
  s.body_height = 0.85f;
  s.body_depth = 0.9f;
  return s;
}

}  // namespace critter::creature::legacy::test
