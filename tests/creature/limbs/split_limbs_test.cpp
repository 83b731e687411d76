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
#include "support/files.h"
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

// The distinct heights (rounded to 1e-3) of a limb's seam vertices.
std::set<int> seam_heights(const Model& model, const Limb& limb) {
  std::set<int> out;
  for (std::size_t m = 0; m < model.meshes().size(); ++m)
    for (std::size_t p = 0; p < model.meshes()[m].parts.size(); ++p) {
      const auto pos = rest_positions(model, m, p);
      for (std::size_t v = 0; v < pos.size(); ++v)
        if (half_of(model, model.meshes()[m], model.meshes()[m].parts[p], v, limb) == 0)
          out.insert(static_cast<int>(std::lround(pos[v].y * 1000.0f)));
    }
  return out;
}

// The half of each vertex in [first, first + count) of the fixture's part.
std::set<int> halves(const Model& model, const Limb& limb, std::size_t first, std::size_t count) {
  std::set<int> out;
  const auto& part = model.meshes()[0].parts[0];
  for (std::size_t v = first; v < first + count; ++v)
    out.insert(half_of(model, model.meshes()[0], part, v, limb));
  return out;
}

// add_limb_fixture_box writes the top and bottom caps (4 vertices each), then the 4 sides.
constexpr std::size_t kBoxVertices = 24;
constexpr std::size_t kCapVertices = 8;
constexpr std::size_t kSideVertices = 16;

TEST(SplitLimbs, NestedBoxesEachCutAtTheirOwnMiddle) {
  critter::RawModel raw = critter::testing::limb_fixture_raw();
  const std::size_t fixture_vertices = raw.meshes[0].parts[0].streams.positions.size();
  // Left arm: a sleeve 0.1 larger on every side (same middle) and armour from 6.0 to 12.6 (its
  // middle 9.3, within 0.3 of the union's 9.35).
  critter::testing::add_limb_fixture_box(raw, J::kArmLeft, {2.0f, 6.2f, -1.15f},
                                         {4.3f, 12.7f, 1.15f}, {40, 16}, {4, 12, 4});
  critter::testing::add_limb_fixture_box(raw, J::kArmLeft, {1.9f, 6.0f, -1.25f},
                                         {4.4f, 12.6f, 1.25f}, {40, 16}, {4, 12, 4});
  // Right leg: a boot from -0.1 to 3.6, ending 0.5 above the knee: cut at the knee, not at its
  // own middle (1.75).
  critter::testing::add_limb_fixture_box(raw, J::kLegRight, {-2.2f, -0.1f, -1.15f},
                                         {0.1f, 3.6f, 1.15f}, {0, 16}, {4, 7, 4});
  // Left leg: a knee pad reaching 0.15 above the knee (goes whole to the lower half) and a thigh
  // pad reaching 0.15 below it (stays whole in the upper half).
  const std::size_t pads = fixture_vertices + 3 * kBoxVertices;
  critter::testing::add_limb_fixture_box(raw, J::kLegLeft, {-0.1f, 0.5f, -1.2f}, {2.2f, 3.3f, 1.2f},
                                         {0, 16}, {4, 5, 4});
  critter::testing::add_limb_fixture_box(raw, J::kLegLeft, {-0.1f, 3.0f, -1.2f}, {2.2f, 6.0f, 1.2f},
                                         {0, 16}, {4, 6, 4});
  auto model = critter::build_model(std::move(raw));
  ASSERT_TRUE(model) << model.error().to_string();
  auto split = split_limbs(*model);
  ASSERT_TRUE(split) << split.error().to_string();
  ASSERT_EQ(split->limbs.size(), 4u);

  const Limb& arm = *find(split->limbs, "Arm_Left");
  EXPECT_NEAR(arm.cut_y, 9.35f, 1e-3f);
  EXPECT_EQ(seam_heights(split->model, arm), (std::set<int>{9300, 9450}));

  const Limb& boot_leg = *find(split->limbs, "Leg_Right");
  EXPECT_NEAR(boot_leg.cut_y, 3.1f, 1e-3f);
  EXPECT_EQ(seam_heights(split->model, boot_leg), (std::set<int>{3100, 3150}));

  const Limb& pad_leg = *find(split->limbs, "Leg_Left");
  EXPECT_NEAR(pad_leg.cut_y, 3.15f, 1e-3f);
  EXPECT_EQ(seam_heights(split->model, pad_leg), (std::set<int>{3150}));
  // The pads' side faces (the box's vertices after its top and bottom caps) stay whole. The caps
  // are faces of their own that do not straddle the cut, so they keep the limb's cut (§11 step 2)
  // and take the half their height puts them in.
  EXPECT_EQ(halves(split->model, pad_leg, pads + kCapVertices, kSideVertices), (std::set<int>{-1}));
  EXPECT_EQ(halves(split->model, pad_leg, pads + kBoxVertices + kCapVertices, kSideVertices),
            (std::set<int>{1}));

  // Every box's cut lands on a skin pixel row except the boot's, which is cut at the knee.
  expect_split_checks(split->model, {*find(split->limbs, "Arm_Right"), arm, pad_leg}, true);
  expect_split_checks(split->model, {boot_leg}, false);
}

TEST(SplitLimbs, ClippedTrianglesKeepTheirWinding) {
  const Model model = critter::testing::limb_fixture();
  auto split = split_limbs(model);
  ASSERT_TRUE(split);
  const auto& part = split->model.meshes()[0].parts[0];
  const auto pos = rest_positions(split->model, 0, 0);
  std::size_t checked = 0;
  for (std::size_t t = 0; t + 2 < part.indices.size(); t += 3) {
    const std::uint32_t a = part.indices[t], b = part.indices[t + 1], c = part.indices[t + 2];
    const vec3 n = glm::cross(pos[b] - pos[a], pos[c] - pos[a]);
    ASSERT_GT(glm::length(n), 1e-6f) << "degenerate triangle " << t / 3;
    // Every face of the fixture is flat with its vertex normal pointing out.
    EXPECT_GT(glm::dot(glm::normalize(n), part.streams.normals[a]), 0.999f) << t / 3;
    ++checked;
  }
  // 6 boxes × 6 faces × 2 triangles; each of the 4 × 4 cut side faces turns its 2 triangles
  // into 6 (each triangle into a quad on one side and a triangle on the other).
  EXPECT_EQ(checked, 6u * 12u + 16u * 4u);
}

TEST(SplitLimbs, RecoverLimbsAfterWritingGlb) {
  const Model model = critter::testing::limb_fixture();
  auto split = split_limbs(model);
  ASSERT_TRUE(split);
  const critter::testing::ScratchDir dir("recover_limbs");
  auto written = critter::io::write_gltf(split->model, dir.file("fixture.glb"));
  ASSERT_TRUE(written) << written.error().to_string();
  auto reloaded = critter::io::load(dir.file("fixture.glb"));
  ASSERT_TRUE(reloaded) << reloaded.error().to_string();
  const auto found = critter::creature::recover_limbs(*reloaded);
  EXPECT_TRUE(found.warnings.empty());
  ASSERT_EQ(found.limbs.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    const Limb& a = split->limbs[i];
    const Limb& b = found.limbs[i];
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(reloaded->skeleton().names()[b.joint], a.name);
    EXPECT_EQ(reloaded->skeleton().names()[b.bone], a.name + ".lower");
    EXPECT_EQ(reloaded->skeleton().names()[b.seam_bone], a.name + ".seam");
    EXPECT_NEAR(b.cut_y, a.cut_y, 1e-4f);
    EXPECT_NEAR(glm::distance(b.pivot, a.pivot), 0.0f, 1e-4f);
    EXPECT_NEAR(glm::distance(b.end, a.end), 0.0f, 1e-4f);
  }
  // An unsplit model has nothing to recover, and says why.
  const auto none = critter::creature::recover_limbs(model);
  EXPECT_TRUE(none.limbs.empty());
  EXPECT_EQ(none.warnings.size(), 4u);
}

TEST(SplitLimbs, MinetestCharacter) {
  auto model = critter::io::load(kCharacterB3d);
  ASSERT_TRUE(model) << model.error().to_string();
  auto split = split_limbs(*model);
  ASSERT_TRUE(split) << split.error().to_string();
  for (const auto& w : split->warnings) ADD_FAILURE() << w.to_string();
  ASSERT_EQ(split->limbs.size(), 4u);
  EXPECT_EQ(split->model.skeleton().joint_count(), model->skeleton().joint_count() + 8);
  for (const critter::Skin& skin : split->model.skins())
    EXPECT_EQ(skin.joints.size(), model->skins()[0].joints.size() + 8);
  expect_split_checks(split->model, split->limbs, true);
  // Knees below elbows; legs and arms 6.3 units long, as the spec's test character.
  for (const Limb& limb : split->limbs) {
    SCOPED_TRACE(limb.name);
    EXPECT_NEAR(limb.cut_y - limb.end.y, 3.15f, 0.05f);
    EXPECT_LT(limb.cut_y, limb.kind == LimbKind::Leg ? 4.0f : 10.0f);
  }

  const critter::testing::ScratchDir dir("split_character");
  const std::string out = (dir.path() / "split.glb").string();
  auto written = critter::io::write_gltf(split->model, out);
  ASSERT_TRUE(written) << written.error().to_string();
  const auto v = critter::testing::validate_gltf(out);
  EXPECT_EQ(v.errors, 0) << v.summary();
  auto reloaded = critter::io::load(out);
  ASSERT_TRUE(reloaded) << reloaded.error().to_string();
  const auto found = critter::creature::recover_limbs(*reloaded);
  ASSERT_EQ(found.limbs.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_NEAR(found.limbs[i].cut_y, split->limbs[i].cut_y, 1e-3f);
}

TEST(SplitLimbs, CutVerticesInterpolateMorphDeltas) {
  critter::RawModel raw = critter::testing::limb_fixture_raw();
  critter::MeshPart& part = raw.meshes[0].parts[0];
  critter::MorphTarget target;
  for (const vec3& p : part.streams.positions) target.positions.push_back(vec3(0, 0, p.y));
  part.morphs.targets.push_back(target);
  raw.meshes[0].default_weights = {0.0f};
  auto model = critter::build_model(std::move(raw));
  ASSERT_TRUE(model) << model.error().to_string();
  auto split = split_limbs(*model);
  ASSERT_TRUE(split) << split.error().to_string();
  const critter::MeshPart& out = split->model.meshes()[0].parts[0];
  const std::size_t before = model->meshes()[0].parts[0].vertex_count();
  ASSERT_GT(out.vertex_count(), before);
  ASSERT_EQ(out.morphs.targets[0].positions.size(), out.vertex_count());
  for (std::size_t v = before; v < out.vertex_count(); ++v)
    EXPECT_NEAR(out.morphs.targets[0].positions[v].z, out.streams.positions[v].y, 1e-5f) << v;
}

TEST(SplitLimbs, MinetestCharacterFacesMinusZ) {
  // The limb rig's default forward: the face of Minetest's skin (texels 8..16 of the head's net)
  // is drawn on triangles facing -Z after critter's B3D import.
  auto model = critter::io::load(kCharacterB3d);
  ASSERT_TRUE(model) << model.error().to_string();
  const std::vector<vec3> pos = rest_positions(*model, 0, 0);
  const critter::MeshPart& part = model->meshes()[0].parts[0];
  int facing = 0;
  for (std::size_t t = 0; t + 2 < part.indices.size(); t += 3) {
    bool face = true;
    for (int k = 0; k < 3; ++k) {
      const vec2 uv = part.streams.uv0[part.indices[t + k]];
      face = face && uv.x * 64 >= 8 && uv.x * 64 <= 16 && uv.y * 32 >= 8 && uv.y * 32 <= 16;
    }
    if (!face) continue;
    const vec3 a = pos[part.indices[t]], b = pos[part.indices[t + 1]], c = pos[part.indices[t + 2]];
    const vec3 n = glm::normalize(glm::cross(b - a, c - a));
    EXPECT_NEAR(glm::distance(n, critter::creature::kDefaultLimbForward), 0.0f, 1e-4f) << t / 3;
    ++facing;
  }
  EXPECT_EQ(facing, 2);
}

}  // namespace
