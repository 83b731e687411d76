// SPDX-License-Identifier: MIT
// split_limbs and recover_limbs (creatures.md §11, §22 items 1 and 6): the fixture's limbs cut at
// the knee and elbow, nested boxes each cut at their own middle, no crack, the rest pose
// unchanged, Minetest's character.b3d split and written as glTF, and broken input.
#include "critter/creature/limbs/split_limbs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "critter/deform/skin_mesh_part.h"
#include "critter/io/gltf/gltf_writer.h"
#include "critter/io/load.h"
#include "support/gltf_validation.h"
#include "support/limb_fixture.h"

namespace {

using critter::Model;
using critter::vec2;
using critter::vec3;
using critter::creature::Limb;
using critter::creature::LimbKind;
using critter::creature::LimbSide;
using critter::creature::LimbSplit;
using critter::creature::split_limbs;
using J = critter::testing::LimbFixtureJoint;

const char* const kCharacterB3d =
    "/usr/share/games/minetest/games/minetest_game/mods/player_api/models/character.b3d";

// Rest model-space positions of one part, through the CPU skinning path.
std::vector<vec3> rest_positions(const Model& model, std::size_t mesh, std::size_t part) {
  const auto& p = model.meshes()[mesh].parts[part];
  std::vector<vec3> out(p.vertex_count());
  std::vector<critter::mat4> palette(
      model.meshes()[mesh].skin >= 0 ? model.skins()[model.meshes()[mesh].skin].joints.size() : 0);
  const auto st = critter::deform::skin_mesh_part(model, mesh, part, model.rest_model_transforms(),
                                                  {}, palette, out);
  EXPECT_TRUE(st.has_value());
  return out;
}

// Which half of `limb` a vertex belongs to: +1 the joint (upper), -1 the lower bone, 0 the seam
// bone, 2 none of them.
int half_of(const Model& model, const critter::Mesh& mesh, const critter::MeshPart& part,
            std::size_t v, const Limb& limb) {
  if (mesh.skin < 0 || part.streams.joints.empty()) return 2;
  const int joint = model.skins()[mesh.skin].joints[part.streams.joints[v].x];
  if (part.streams.weights[v].x < 0.999f) return 2;
  if (joint == limb.joint) return 1;
  if (joint == limb.bone) return -1;
  if (joint == limb.seam_bone) return 0;
  return 2;
}

// §22 item 1's checks on every limb of a split model, plus no crack: every seam vertex is used
// by a triangle of the upper half and by one of the lower half (the halves share it).
void expect_split_checks(const Model& model, const std::vector<Limb>& limbs, bool pixel_uvs) {
  for (const Limb& limb : limbs) {
    SCOPED_TRACE(limb.name);
    std::size_t seam = 0, lower = 0, upper = 0, cross = 0, unshared = 0;
    for (std::size_t m = 0; m < model.meshes().size(); ++m) {
      const critter::Mesh& mesh = model.meshes()[m];
      for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
        const critter::MeshPart& part = mesh.parts[p];
        if (part.streams.joints.empty()) continue;
        const std::vector<vec3> pos = rest_positions(model, m, p);
        std::vector<int> half(part.vertex_count());
        for (std::size_t v = 0; v < half.size(); ++v) {
          half[v] = half_of(model, mesh, part, v, limb);
          const float y = pos[v].y;
          if (half[v] == 0) {
            ++seam;
            EXPECT_NEAR(y, limb.cut_y, 0.3f) << "seam vertex " << v;
            if (pixel_uvs) {
              const float px = part.streams.uv0[v].y * 64.0f;
              EXPECT_NEAR(px, std::round(px), 0.01f) << "seam vertex " << v;
            }
          } else if (half[v] == -1) {
            ++lower;
            EXPECT_LE(y, limb.cut_y + 0.3f) << "lower vertex " << v;
          } else if (half[v] == 1) {
            ++upper;
            EXPECT_GE(y, limb.cut_y - 0.3f) << "upper vertex " << v;
          }
        }
        std::vector<int> used_above(half.size(), 0), used_below(half.size(), 0);
        const auto& idx = part.indices;
        for (std::size_t t = 0; t + 2 < idx.size(); t += 3) {
          bool has_upper = false, has_lower = false;
          for (int k = 0; k < 3; ++k) {
            has_upper = has_upper || half[idx[t + k]] == 1;
            has_lower = has_lower || half[idx[t + k]] == -1;
          }
          cross += has_upper && has_lower;
          for (int k = 0; k < 3; ++k) {
            used_above[idx[t + k]] += has_upper;
            used_below[idx[t + k]] += has_lower;
          }
        }
        for (std::size_t v = 0; v < half.size(); ++v)
          if (half[v] == 0 && (used_above[v] == 0 || used_below[v] == 0)) ++unshared;
      }
    }
    EXPECT_EQ(cross, 0u) << "triangles joining the upper half to the lower half";
    EXPECT_GT(seam, 0u);
    EXPECT_GT(lower, 0u);
    EXPECT_GT(upper, 0u);
    EXPECT_EQ(unshared, 0u) << "seam vertices used by one half only";
  }
}

const Limb* find(const std::vector<Limb>& limbs, const std::string& name) {
  for (const Limb& l : limbs)
    if (l.name == name) return &l;
  return nullptr;
}

TEST(SplitLimbs, FixtureFoundAndCut) {
  const Model model = critter::testing::limb_fixture();
  auto split = split_limbs(model);
  ASSERT_TRUE(split) << split.error().to_string();
  EXPECT_TRUE(split->warnings.empty());
  ASSERT_EQ(split->limbs.size(), 4u);
  const Limb* knee = find(split->limbs, "Leg_Right");
  const Limb* elbow = find(split->limbs, "Arm_Left");
  ASSERT_TRUE(knee && elbow);
  EXPECT_EQ(knee->kind, LimbKind::Leg);
  EXPECT_EQ(knee->side, LimbSide::Right);
  EXPECT_EQ(elbow->kind, LimbKind::Arm);
  EXPECT_EQ(elbow->side, LimbSide::Left);
  EXPECT_NEAR(knee->cut_y, 3.15f, 1e-3f);
  EXPECT_NEAR(elbow->cut_y, 9.45f, 1e-3f);
  EXPECT_NEAR(knee->pivot.x, -1.05f, 1e-3f);
  EXPECT_NEAR(knee->pivot.z, 0.0f, 1e-3f);
  EXPECT_NEAR(knee->end.y, 0.0f, 1e-3f);
  const int joints = model.skeleton().joint_count();
  EXPECT_EQ(split->model.skeleton().joint_count(), joints + 8);
  EXPECT_EQ(split->model.skins()[0].joints.size(), static_cast<std::size_t>(joints + 8));
  expect_split_checks(split->model, split->limbs, true);
}

TEST(SplitLimbs, AddedJointsFollowSection9Numbering) {
  const Model model = critter::testing::limb_fixture();
  auto split = split_limbs(model);
  ASSERT_TRUE(split);
  const auto names = split->model.skeleton().names();
  const auto parents = split->model.skeleton().parents();
  int next = model.skeleton().joint_count();
  const char* order[] = {"Arm_Right", "Arm_Left", "Leg_Right", "Leg_Left"};
  for (std::size_t i = 0; i < 4; ++i) {
    const Limb& limb = split->limbs[i];
    EXPECT_EQ(limb.name, order[i]);
    EXPECT_EQ(limb.bone, next++);
    EXPECT_EQ(limb.seam_bone, next++);
    EXPECT_EQ(names[limb.bone], limb.name + ".lower");
    EXPECT_EQ(names[limb.seam_bone], limb.name + ".seam");
    EXPECT_EQ(parents[limb.bone], limb.joint);
    EXPECT_EQ(parents[limb.seam_bone], limb.joint);
    EXPECT_EQ(split->model.skeleton().rest_pose()[limb.bone], critter::Transform{});
  }
  // Clips are kept, with their tracks on the source joints.
  ASSERT_EQ(split->model.clips().size(), 1u);
  EXPECT_EQ(split->model.clips()[0].name(), "walk");
}

TEST(SplitLimbs, RestPoseSkinsAsBefore) {
  const Model model = critter::testing::limb_fixture();
  auto split = split_limbs(model);
  ASSERT_TRUE(split);
  const std::vector<vec3> before = rest_positions(model, 0, 0);
  const std::vector<vec3> after = rest_positions(split->model, 0, 0);
  ASSERT_GT(after.size(), before.size());
  for (std::size_t v = 0; v < before.size(); ++v) {
    EXPECT_NEAR(after[v].x, before[v].x, 1e-5f) << v;
    EXPECT_NEAR(after[v].y, before[v].y, 1e-5f) << v;
    EXPECT_NEAR(after[v].z, before[v].z, 1e-5f) << v;
  }
  // The cut vertices lie on the limb boxes' side faces at the cut height.
  for (std::size_t v = before.size(); v < after.size(); ++v) {
    const float y = after[v].y;
    EXPECT_TRUE(std::abs(y - 3.15f) < 1e-4f || std::abs(y - 9.45f) < 1e-4f) << v << " y " << y;
  }
  EXPECT_NEAR(split->model.bounds().min.y, model.bounds().min.y, 1e-5f);
  EXPECT_NEAR(split->model.bounds().max.y, model.bounds().max.y, 1e-5f);
}

}  // namespace
