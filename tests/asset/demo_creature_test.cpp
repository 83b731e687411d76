// SPDX-License-Identifier: MIT
#include "critter/asset/demo_creature.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <span>
#include <string>
#include <string_view>

namespace critter {
namespace {

const Model& demo() {
  static const Model model = [] {
    Result<Model> m = build_demo_quadruped();
    if (!m) ADD_FAILURE() << m.error().to_string();
    return m ? std::move(*m) : Model{};
  }();
  return model;
}

const Clip* clip(const Model& m, std::string_view name) {
  const int i = m.find_clip(name);
  return i < 0 ? nullptr : &m.clips()[static_cast<std::size_t>(i)];
}

TEST(DemoCreature, RawModelIsAQuadrupedWithNamedLegs) {
  const RawModel raw = make_demo_quadruped();
  EXPECT_EQ(raw.name, "demo_quadruped");
  EXPECT_EQ(raw.format, "code");
  EXPECT_TRUE(raw.source_path.empty());
  ASSERT_EQ(raw.skeleton.joints.size(), 18u);
  for (std::size_t i = 0; i < raw.skeleton.joints.size(); ++i) {
    EXPECT_EQ(raw.skeleton.joints[i].name, kDemoJointNames[i]);
    EXPECT_LT(raw.skeleton.joints[i].parent, static_cast<int>(i));
  }
  EXPECT_EQ(raw.skeleton.joints[0].parent, -1);
  // leg_back_right_lower (16) hangs from leg_back_right_upper (15), which hangs from body (1).
  EXPECT_EQ(raw.skeleton.joints[16].parent, 15);
  EXPECT_EQ(raw.skeleton.joints[15].parent, 1);
}

TEST(DemoCreature, Builds) {
  Diagnostics diag;
  Result<Model> m = build_demo_quadruped(&diag);
  ASSERT_TRUE(m.has_value()) << m.error().to_string();
  EXPECT_TRUE(diag.empty()) << diag.items()[0].to_string();
  EXPECT_EQ(m->skeleton().joint_count(), 18);
  EXPECT_EQ(m->meshes().size(), 1u);
  EXPECT_EQ(m->skins().size(), 1u);
  ASSERT_EQ(m->materials().size(), 1u);
  EXPECT_EQ(m->materials()[0].name, "fur");
  EXPECT_FLOAT_EQ(m->materials()[0].base_color_factor.x, 0.78f);
}

TEST(DemoCreature, HierarchyByName) {
  const Model& m = demo();
  const Skeleton& s = m.skeleton();
  auto parent_name = [&](std::string_view child) -> std::string {
    const int i = s.find(child);
    if (i < 0) return "<no joint>";
    const int p = s.parents()[static_cast<std::size_t>(i)];
    return p < 0 ? "<root>" : s.names()[static_cast<std::size_t>(p)];
  };
  EXPECT_EQ(parent_name("root"), "<root>");
  EXPECT_EQ(parent_name("body"), "root");
  EXPECT_EQ(parent_name("head"), "neck");
  EXPECT_EQ(parent_name("tail_tip"), "tail_base");
  EXPECT_EQ(parent_name("leg_front_left_upper"), "body");
  EXPECT_EQ(parent_name("leg_front_left_lower"), "leg_front_left_upper");
  EXPECT_EQ(parent_name("leg_back_right_paw"), "leg_back_right_lower");
}

TEST(DemoCreature, RestPosePlacesPawsAboveTheGround) {
  const Model& m = demo();
  const int paw = m.find_bone("leg_front_left_paw");
  ASSERT_GE(paw, 0);
  // Body 0.55 up, hip 0.05 lower, two 0.22 segments: the paw joint is 0.06 above the ground, on
  // the creature's left (+X) front (+Z).
  const vec3 p(m.rest_model_transforms()[static_cast<std::size_t>(paw)][3]);
  EXPECT_NEAR(p.x, 0.12f, 1e-6f);
  EXPECT_NEAR(p.y, 0.06f, 1e-6f);
  EXPECT_NEAR(p.z, 0.25f, 1e-6f);
}

TEST(DemoCreature, BoundsEncloseAllBoxes) {
  const Aabb& b = demo().bounds();
  ASSERT_FALSE(b.empty());
  // Paws reach x = 0.12 + 0.06, the head top is at 0.86, the tail tip at z = -0.7, the snout at
  // z = 0.58, the paw soles at y = 0.
  EXPECT_NEAR(b.min.x, -0.18f, 1e-5f);
  EXPECT_NEAR(b.max.x, 0.18f, 1e-5f);
  EXPECT_NEAR(b.min.y, 0.0f, 1e-5f);
  EXPECT_NEAR(b.max.y, 0.86f, 1e-5f);
  EXPECT_NEAR(b.min.z, -0.70f, 1e-5f);
  EXPECT_NEAR(b.max.z, 0.58f, 1e-5f);
}

TEST(DemoCreature, MeshIsSkinnedWithValidWeights) {
  const Model& m = demo();
  ASSERT_EQ(m.meshes().size(), 1u);
  const Mesh& mesh = m.meshes()[0];
  EXPECT_EQ(mesh.skin, 0);
  ASSERT_EQ(mesh.parts.size(), 1u);
  const MeshPart& part = mesh.parts[0];
  const VertexStreams& s = part.streams;
  // 17 boxes of 6 faces, 4 vertices and 2 triangles per face.
  EXPECT_EQ(s.vertex_count(), 17u * 24u);
  EXPECT_EQ(part.indices.size(), 17u * 36u);
  EXPECT_EQ(part.material, 0);
  EXPECT_EQ(s.normals.size(), s.vertex_count());
  EXPECT_EQ(s.uv0.size(), s.vertex_count());
  ASSERT_EQ(s.joints.size(), s.vertex_count());
  ASSERT_EQ(s.weights.size(), s.vertex_count());
  ASSERT_EQ(m.skins().size(), 1u);
  const std::size_t skin_joints = m.skins()[0].joints.size();
  EXPECT_EQ(skin_joints, 18u);
  int soft = 0;
  for (std::size_t v = 0; v < s.vertex_count(); ++v) {
    const vec4 w = s.weights[v];
    EXPECT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-6f) << "vertex " << v;
    for (int k = 0; k < 4; ++k) {
      EXPECT_GE(w[k], 0.0f);
      if (w[k] > 0.0f) {
        EXPECT_LT(s.joints[v][k], skin_joints) << "vertex " << v;
      }
    }
    if (w.y > 0.0f) ++soft;
    EXPECT_NEAR(glm::length(s.normals[v]), 1.0f, 1e-6f);
  }
  // Two boxes meet at each of the four knees; each has 12 vertices on the knee plane (the 4 of
  // the face lying in it and 2 on each of the 4 side faces).
  EXPECT_EQ(soft, 4 * 2 * 12);
  for (std::uint32_t i : part.indices) EXPECT_LT(i, s.vertex_count());
}

TEST(DemoCreature, InverseBindsUndoTheRestPose) {
  const Model& m = demo();
  ASSERT_EQ(m.skins().size(), 1u);
  const Skin& skin = m.skins()[0];
  ASSERT_EQ(skin.inverse_bind.size(), skin.joints.size());
  for (std::size_t i = 0; i < skin.joints.size(); ++i) {
    const mat4 p =
        m.rest_model_transforms()[static_cast<std::size_t>(skin.joints[i])] * skin.inverse_bind[i];
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) EXPECT_NEAR(p[c][r], c == r ? 1.0f : 0.0f, 1e-6f);
  }
}

TEST(DemoCreature, HasWalkAndIdleClips) {
  const Model& m = demo();
  ASSERT_EQ(m.clips().size(), 2u);
  const Clip* walk = clip(m, "walk");
  const Clip* idle = clip(m, "idle");
  ASSERT_NE(walk, nullptr);
  ASSERT_NE(idle, nullptr);
  EXPECT_FLOAT_EQ(walk->duration(), 1.0f);
  EXPECT_FLOAT_EQ(idle->duration(), 2.0f);
  // Walk: upper + lower rotation per leg, body translation, tail, head.
  EXPECT_EQ(walk->tracks().size(), 4u * 2u + 3u);
  EXPECT_EQ(idle->tracks().size(), 4u);
  for (const Clip* c : {walk, idle})
    for (const Track& t : c->tracks()) EXPECT_EQ(t.interpolation, Interpolation::kLinear);
}

TEST(DemoCreature, ClipsLoopSeamlessly) {
  const Model& m = demo();
  ASSERT_FALSE(m.clips().empty());
  for (const Clip& c : m.clips()) {
    for (const Track& t : c.tracks()) {
      const auto times = c.track_times(t);
      const auto values = c.track_values(t);
      ASSERT_GE(times.size(), 2u);
      EXPECT_EQ(times.front(), 0.0f);
      EXPECT_EQ(times.back(), c.duration());
      const std::size_t n = t.stride();
      for (std::size_t k = 0; k < n; ++k)
        EXPECT_EQ(values[k], values[values.size() - n + k])
            << c.name() << " track of joint " << t.index << " component " << k;
    }
  }
}

const Track* rotation_track(const Model& m, const Clip& c, std::string_view joint) {
  const int j = m.find_bone(joint);
  for (const Track& t : c.tracks())
    if (t.target == TrackTarget::kRotation && t.index == j) return &t;
  return nullptr;
}

// Angle about +X (radians) of a rotation about X stored (x, y, z, w).
float pitch(std::span<const float> q) {
  return 2.0f * std::atan2(q[0], q[3]);
}

TEST(DemoCreature, WalkSwingsLegsInDiagonalPairs) {
  const Model& m = demo();
  const Clip* walk = clip(m, "walk");
  ASSERT_NE(walk, nullptr);
  const Track* fl = rotation_track(m, *walk, "leg_front_left_upper");
  const Track* br = rotation_track(m, *walk, "leg_back_right_upper");
  const Track* fr = rotation_track(m, *walk, "leg_front_right_upper");
  const Track* bl = rotation_track(m, *walk, "leg_back_left_upper");
  ASSERT_TRUE(fl && br && fr && bl);
  ASSERT_EQ(fl->key_count, 9u);
  // Key 2 is a quarter cycle (0.25 s): one diagonal pair is at +25 degrees, the other at -25.
  const float swing = 25.0f * std::numbers::pi_v<float> / 180.0f;
  EXPECT_NEAR(walk->track_times(*fl)[2], 0.25f, 1e-6f);
  EXPECT_NEAR(pitch(walk->track_values(*fl).subspan(8, 4)), swing, 1e-5f);
  EXPECT_NEAR(pitch(walk->track_values(*br).subspan(8, 4)), swing, 1e-5f);
  EXPECT_NEAR(pitch(walk->track_values(*fr).subspan(8, 4)), -swing, 1e-5f);
  EXPECT_NEAR(pitch(walk->track_values(*bl).subspan(8, 4)), -swing, 1e-5f);
}

TEST(DemoCreature, WalkBobsTheBody) {
  const Model& m = demo();
  const Clip* walk = clip(m, "walk");
  ASSERT_NE(walk, nullptr);
  const int body = m.find_bone("body");
  const Track* bob = nullptr;
  for (const Track& t : walk->tracks())
    if (t.target == TrackTarget::kTranslation && t.index == body) bob = &t;
  ASSERT_NE(bob, nullptr);
  const auto v = walk->track_values(*bob);
  // Rest height at the start, 1.5 cm higher a quarter cycle later (two bobs per cycle).
  EXPECT_NEAR(v[1], 0.55f, 1e-6f);
  EXPECT_NEAR(v[2 * 3 + 1], 0.565f, 1e-6f);
  EXPECT_NEAR(v[4 * 3 + 1], 0.55f, 1e-6f);
}

}  // namespace
}  // namespace critter
