// SPDX-License-Identifier: MIT
// find_limbs (creatures.md §10) on the limb fixture, on turned characters, and on models whose
// limbs are missing, lying, upside down, not rigid or zero-scaled: no limb, a warning saying why,
// never a crash or a NaN.
#include "critter/creature/limbs/find_limbs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <glm/gtc/quaternion.hpp>

#include "critter/core/strings.h"
#include "critter/creature/limbs/split_limbs.h"
#include "support/limb_fixture.h"
#include "support/test_models.h"

namespace {

using critter::Model;
using critter::RawModel;
using critter::vec3;
using critter::creature::find_limbs;
using critter::creature::FoundLimbs;
using critter::creature::Limb;
using critter::creature::LimbOptions;
using critter::creature::split_limbs;
using J = critter::testing::LimbFixtureJoint;

Model build(RawModel raw) {
  auto model = critter::build_model(std::move(raw));
  EXPECT_TRUE(model) << model.error().to_string();
  return std::move(*model);
}

// Every warning on its own line.
std::string text(const FoundLimbs& found) {
  std::string out;
  for (const auto& w : found.warnings) out += w.to_string() + "\n";
  return out;
}

bool finite(const Limb& l) {
  return std::isfinite(l.cut_y) && std::isfinite(l.pivot.x) && std::isfinite(l.pivot.y) &&
         std::isfinite(l.pivot.z) && std::isfinite(l.end.x) && std::isfinite(l.end.y) &&
         std::isfinite(l.end.z);
}

// The fixture with the boxes of joint `joint` (24 vertices each, in the order added) moved by
// `f` in model space.
template <class F>
RawModel fixture_with_box_moved(int joint, F f) {
  RawModel raw = critter::testing::limb_fixture_raw();
  auto& s = raw.meshes[0].parts[0].streams;
  for (std::size_t v = 0; v < s.positions.size(); ++v)
    if (s.joints[v].x == joint) s.positions[v] = f(s.positions[v]);
  return raw;
}

TEST(FindLimbs, FixtureInLimbOrder) {
  const FoundLimbs found = find_limbs(critter::testing::limb_fixture());
  EXPECT_EQ(text(found), "");
  ASSERT_EQ(found.limbs.size(), 4u);
  const char* names[] = {"Arm_Right", "Arm_Left", "Leg_Right", "Leg_Left"};
  const int joints[] = {J::kArmRight, J::kArmLeft, J::kLegRight, J::kLegLeft};
  for (std::size_t i = 0; i < 4; ++i) {
    const Limb& l = found.limbs[i];
    EXPECT_EQ(l.name, names[i]);
    EXPECT_EQ(l.joint, joints[i]);
    EXPECT_EQ(l.bone, -1);
    EXPECT_EQ(l.seam_bone, -1);
    EXPECT_EQ(critter::creature::to_string(l.kind), i < 2 ? "arm" : "leg");
    EXPECT_EQ(critter::creature::to_string(l.side), i % 2 == 0 ? "right" : "left");
  }
  const Limb& arm = found.limbs[0];
  EXPECT_NEAR(arm.pivot.x, -3.15f, 1e-4f);
  EXPECT_NEAR(arm.pivot.y, 9.45f, 1e-4f);
  EXPECT_NEAR(arm.pivot.z, 0.0f, 1e-4f);
  EXPECT_NEAR(arm.end.x, -3.15f, 1e-4f);
  EXPECT_NEAR(arm.end.y, 6.3f, 1e-4f);
  EXPECT_NEAR(arm.end.z, 0.0f, 1e-4f);
}

TEST(FindLimbs, BendAxisAndFrameFollowForward) {
  EXPECT_NEAR(glm::distance(critter::creature::limb_bend_axis({0, 0, -1}), vec3(1, 0, 0)), 0,
              1e-6f);
  EXPECT_NEAR(glm::distance(critter::creature::limb_bend_axis({0, 0, 1}), vec3(-1, 0, 0)), 0,
              1e-6f);
  const glm::mat3 f = critter::creature::limb_frame({1, 0, 0});
  EXPECT_NEAR(glm::distance(f * vec3(1, 0, 0), vec3(0, 0, -1)), 0, 1e-6f);
  EXPECT_NEAR(glm::distance(f * vec3(0, 1, 0), vec3(0, 1, 0)), 0, 1e-6f);
  EXPECT_NEAR(glm::determinant(f), 1.0f, 1e-6f);
  vec3 h;
  EXPECT_TRUE(critter::creature::horizontal_forward({3, 5, 4}, h));
  EXPECT_NEAR(glm::distance(h, vec3(0.6f, 0, 0.8f)), 0, 1e-6f);
  EXPECT_FALSE(critter::creature::horizontal_forward({0, 1, 0}, h));
  EXPECT_FALSE(critter::creature::horizontal_forward({NAN, 0, 1}, h));
  EXPECT_EQ(h, critter::creature::kDefaultLimbForward);
}

TEST(FindLimbs, TurnedCharacterWithItsForward) {
  // The fixture turned 90° about +Y (facing -X, not -Z): with its forward, the same limbs, cuts
  // and (turned) pivots.
  const glm::quat turn = glm::angleAxis(glm::radians(90.0f), vec3(0, 1, 0));
  RawModel raw = critter::testing::limb_fixture_raw();
  raw.skeleton.joints[J::kPlayer].rest.rotation = turn;
  std::vector<critter::mat4> globals;
  for (const auto& j : raw.skeleton.joints) {
    const critter::mat4 local = j.rest.to_matrix();
    globals.push_back(j.parent < 0 ? local : globals[static_cast<std::size_t>(j.parent)] * local);
  }
  for (std::size_t j = 0; j < globals.size(); ++j)
    raw.skins[0].inverse_bind[j] = glm::inverse(globals[j]);
  auto& s = raw.meshes[0].parts[0].streams;
  for (std::size_t v = 0; v < s.positions.size(); ++v) {
    s.positions[v] = turn * s.positions[v];
    s.normals[v] = turn * s.normals[v];
  }
  const Model model = build(std::move(raw));
  const vec3 forward = turn * vec3(0, 0, -1);
  const FoundLimbs found = find_limbs(model, LimbOptions{forward});
  EXPECT_EQ(text(found), "");
  ASSERT_EQ(found.limbs.size(), 4u);
  const FoundLimbs straight = find_limbs(critter::testing::limb_fixture());
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(found.limbs[i].cut_y, straight.limbs[i].cut_y, 1e-4f);
    EXPECT_NEAR(glm::distance(found.limbs[i].pivot, turn * straight.limbs[i].pivot), 0, 1e-4f);
    EXPECT_NEAR(glm::distance(found.limbs[i].end, turn * straight.limbs[i].end), 0, 1e-4f);
  }
  auto split = split_limbs(model, LimbOptions{forward});
  ASSERT_TRUE(split);
  EXPECT_EQ(split->limbs.size(), 4u);
  EXPECT_EQ(split->model.skeleton().joint_count(), model.skeleton().joint_count() + 8);
}

TEST(FindLimbs, VerticalForwardFallsBackWithAWarning) {
  const FoundLimbs found =
      find_limbs(critter::testing::limb_fixture(), LimbOptions{vec3(0, -1, 0)});
  EXPECT_EQ(found.limbs.size(), 4u);
  EXPECT_EQ(text(found),
            "limb_fixture: warning: limb forward (0, -1, 0) has no horizontal direction; using "
            "-Z\n");
}

TEST(FindLimbs, NoLimbNamesLeavesTheModelAsItIs) {
  RawModel raw;
  raw.name = "rig";
  raw.skeleton.joints = critter::testing::two_joint_rig();
  const Model model = build(std::move(raw));
  const FoundLimbs found = find_limbs(model);
  EXPECT_TRUE(found.limbs.empty());
  EXPECT_EQ(text(found),
            "rig: warning: no joint named 'Arm_Right', 'Arm_Left', 'Leg_Right', 'Leg_Left': the "
            "model has no block limbs to split\n");
  auto split = split_limbs(model);
  ASSERT_TRUE(split);
  EXPECT_TRUE(split->limbs.empty());
  EXPECT_EQ(split->model.skeleton().joint_count(), 2);
  EXPECT_EQ(split->warnings.size(), 1u);
}

TEST(FindLimbs, MissingNamesAreReportedTogether) {
  RawModel raw = critter::testing::limb_fixture_raw();
  raw.skeleton.joints[J::kArmLeft].name = "Arm_L";
  raw.skeleton.joints[J::kLegLeft].name = "Leg_L";
  const FoundLimbs found = find_limbs(build(std::move(raw)));
  ASSERT_EQ(found.limbs.size(), 2u);
  EXPECT_EQ(found.limbs[0].name, "Arm_Right");
  EXPECT_EQ(found.limbs[1].name, "Leg_Right");
  EXPECT_EQ(text(found),
            "limb_fixture: warning: no joint named 'Arm_Left', 'Leg_Left': those limbs are not "
            "split\n");
}

TEST(FindLimbs, LyingLimbIsNotUpright) {
  // The right leg's box laid flat: 6.3 deep, 2.1 tall.
  const FoundLimbs found = find_limbs(build(fixture_with_box_moved(J::kLegRight, [](vec3 p) {
    return vec3(p.x, 4.2f + (p.z + 1.05f), -1.05f - p.y + 6.3f - 3.15f);
  })));
  EXPECT_EQ(found.limbs.size(), 3u);
  EXPECT_EQ(text(found),
            "limb_fixture:joint 'Leg_Right': warning: not an upright limb: height 2.1 < 1.5 x "
            "max(width 2.1, depth 6.3); this limb is not split\n");
}

TEST(FindLimbs, LimbStandingOnItsJointDoesNotHang) {
  // The left leg's box moved up to y 6.3..12.6: its joint (y 6.3) is at the bottom.
  const FoundLimbs found = find_limbs(
      build(fixture_with_box_moved(J::kLegLeft, [](vec3 p) { return p + vec3(0, 6.3f, 0); })));
  EXPECT_EQ(found.limbs.size(), 3u);
  EXPECT_EQ(text(found),
            "limb_fixture:joint 'Leg_Left': warning: the limb does not hang from its joint: the "
            "joint (y 6.3) is nearer the bottom (y 6.3) than the top (y 12.6); this limb is not "
            "split\n");
}

TEST(FindLimbs, LimbWithoutRigidVertices) {
  // Every vertex of the right arm shared half and half with the body.
  RawModel raw = critter::testing::limb_fixture_raw();
  auto& s = raw.meshes[0].parts[0].streams;
  for (std::size_t v = 0; v < s.positions.size(); ++v)
    if (s.joints[v].x == J::kArmRight) {
      s.joints[v].y = J::kBody;
      s.weights[v] = critter::vec4(0.5f, 0.5f, 0, 0);
    }
  const Model model = build(std::move(raw));
  const FoundLimbs found = find_limbs(model);
  EXPECT_EQ(found.limbs.size(), 3u);
  EXPECT_EQ(text(found),
            "limb_fixture:joint 'Arm_Right': warning: no vertex is bound rigidly (weight >= "
            "0.999) to the joint; this limb is not split\n");
  auto split = split_limbs(model);
  ASSERT_TRUE(split);
  EXPECT_EQ(split->limbs.size(), 3u);
  EXPECT_EQ(split->model.skeleton().joint_count(), model.skeleton().joint_count() + 6);
}

TEST(FindLimbs, ZeroScaledBoneGivesNoLimbAndNoNaN) {
  RawModel raw = critter::testing::limb_fixture_raw();
  raw.skeleton.joints[J::kLegRight].rest.scale = vec3(0.0f);
  const Model model = build(std::move(raw));
  const FoundLimbs found = find_limbs(model);
  EXPECT_EQ(found.limbs.size(), 3u);
  for (const Limb& l : found.limbs) EXPECT_TRUE(finite(l)) << l.name;
  EXPECT_EQ(text(found),
            "limb_fixture:joint 'Leg_Right': warning: the limb's vertices have no height (a "
            "zero-scaled or flat limb); this limb is not split\n");
  auto split = split_limbs(model);
  ASSERT_TRUE(split);
  EXPECT_EQ(split->limbs.size(), 3u);
  for (const auto& p : split->model.meshes()[0].parts[0].streams.positions)
    ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
}

TEST(FindLimbs, ModelWithoutMeshes) {
  RawModel raw = critter::testing::limb_fixture_raw();
  raw.meshes.clear();
  raw.skins.clear();
  const Model model = build(std::move(raw));
  const FoundLimbs found = find_limbs(model);
  EXPECT_TRUE(found.limbs.empty());
  EXPECT_EQ(found.warnings.size(), 4u);
  auto split = split_limbs(model);
  ASSERT_TRUE(split);
  EXPECT_TRUE(split->limbs.empty());
  EXPECT_EQ(split->model.skeleton().joint_count(), model.skeleton().joint_count());
  EXPECT_EQ(split->model.clips().size(), 1u);
}

TEST(FindLimbs, LastJointOfANameWins) {
  RawModel raw = critter::testing::limb_fixture_raw();
  critter::RawJoint extra;
  extra.name = "Leg_Right";
  extra.parent = J::kPlayer;
  raw.skeleton.joints.push_back(extra);
  const FoundLimbs found = find_limbs(build(std::move(raw)));
  // The later "Leg_Right" has no vertex: that limb is skipped rather than the first one used.
  EXPECT_EQ(found.limbs.size(), 3u);
  EXPECT_NE(text(found).find("joint 'Leg_Right': warning: no vertex"), std::string::npos)
      << text(found);
}

}  // namespace
