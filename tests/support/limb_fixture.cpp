// SPDX-License-Identifier: MIT
#include "limb_fixture.h"

#include <cmath>
#include <cstdlib>
#include <utility>

#include <glm/gtc/quaternion.hpp>

namespace critter::testing {

namespace {

constexpr float kSkinW = 64.0f;
constexpr float kSkinH = 32.0f;

struct Face {
  vec3 normal, right, up;
};

// Outward normal, and the right and up directions as seen from outside (right × up = normal),
// so corners taken top-left, bottom-left, bottom-right, top-right run counter-clockwise.
constexpr Face kTop{{0, 1, 0}, {1, 0, 0}, {0, 0, -1}};
constexpr Face kBottom{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}};
constexpr Face kSideNegX{{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}};
constexpr Face kFront{{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}};
constexpr Face kSidePosX{{1, 0, 0}, {0, 0, -1}, {0, 1, 0}};
constexpr Face kBack{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}};

void add_face(MeshPart& part, int joint, vec3 centre, vec3 half, const Face& f, vec4 rect_px) {
  VertexStreams& s = part.streams;
  const auto base = static_cast<std::uint32_t>(s.positions.size());
  const vec3 c = centre + f.normal * glm::abs(glm::dot(half, f.normal));
  const vec3 r = f.right * glm::abs(glm::dot(half, f.right));
  const vec3 u = f.up * glm::abs(glm::dot(half, f.up));
  const vec3 corners[4] = {c - r + u, c - r - u, c + r - u, c + r + u};
  const vec2 uvs[4] = {{rect_px.x, rect_px.y},
                       {rect_px.x, rect_px.w},
                       {rect_px.z, rect_px.w},
                       {rect_px.z, rect_px.y}};
  for (int k = 0; k < 4; ++k) {
    s.positions.push_back(corners[k]);
    s.normals.push_back(f.normal);
    s.uv0.push_back(vec2(uvs[k].x / kSkinW, uvs[k].y / kSkinH));
    s.joints.push_back(glm::u16vec4(static_cast<std::uint16_t>(joint), 0, 0, 0));
    s.weights.push_back(vec4(1, 0, 0, 0));
  }
  for (std::uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) part.indices.push_back(base + i);
}

RawJoint joint(const char* name, int parent, vec3 t) {
  RawJoint j;
  j.name = name;
  j.parent = parent;
  j.rest.translation = t;
  return j;
}

RawTrack swing(int joint_index, float sign) {
  RawTrack t;
  t.target = TrackTarget::kRotation;
  t.index = joint_index;
  t.components = 4;
  for (int i = 0; i < kLimbFixtureWalkKeys; ++i) {
    t.times.push_back(static_cast<float>(i) / kLimbFixtureWalkFps);
    const float deg = sign * kLimbFixtureSwingDeg *
                      std::sin(2.0f * glm::pi<float>() * static_cast<float>(i) /
                               static_cast<float>(kLimbFixtureWalkKeys - 1));
    const quat q = glm::angleAxis(glm::radians(deg), vec3(1, 0, 0));
    t.values.insert(t.values.end(), {q.x, q.y, q.z, q.w});
  }
  return t;
}

}  // namespace

void add_limb_fixture_box(RawModel& raw, int joint, vec3 lo, vec3 hi, vec2 net_px, vec3 size_px) {
  MeshPart& part = raw.meshes.front().parts.front();
  const vec3 centre = 0.5f * (lo + hi);
  const vec3 half = 0.5f * (hi - lo);
  const float u0 = net_px.x, v0 = net_px.y;
  const float w = size_px.x, h = size_px.y, d = size_px.z;
  add_face(part, joint, centre, half, kTop, {u0 + d, v0, u0 + d + w, v0 + d});
  add_face(part, joint, centre, half, kBottom, {u0 + d + w, v0, u0 + d + 2 * w, v0 + d});
  add_face(part, joint, centre, half, kSideNegX, {u0, v0 + d, u0 + d, v0 + d + h});
  add_face(part, joint, centre, half, kFront, {u0 + d, v0 + d, u0 + d + w, v0 + d + h});
  add_face(part, joint, centre, half, kSidePosX, {u0 + d + w, v0 + d, u0 + 2 * d + w, v0 + d + h});
  add_face(part, joint, centre, half, kBack,
           {u0 + 2 * d + w, v0 + d, u0 + 2 * d + 2 * w, v0 + d + h});
}

RawModel limb_fixture_raw() {
  using J = LimbFixtureJoint;
  RawModel raw;
  raw.name = "limb_fixture";
  raw.format = "code";
  raw.skeleton.joints = {
      joint("Player", -1, {0, 0, 0}),
      joint("Body", J::kPlayer, {0, 6.3f, 0}),
      joint("Head", J::kBody, {0, 6.3f, 0}),
      joint("Arm_Left", J::kBody, {3.15f, 5.25f, 0}),
      joint("Arm_Right", J::kBody, {-3.15f, 5.25f, 0}),
      joint("Leg_Right", J::kBody, {-1.05f, 0, 0}),
      joint("Leg_Left", J::kBody, {1.05f, 0, 0}),
      joint("Wield_Item", J::kArmLeft, {0, -5.8f, 0}),
  };

  Skin skin;
  skin.name = "skin";
  std::vector<mat4> globals;
  for (std::size_t j = 0; j < raw.skeleton.joints.size(); ++j) {
    const RawJoint& rj = raw.skeleton.joints[j];
    const mat4 local = rj.rest.to_matrix();
    globals.push_back(rj.parent < 0 ? local : globals[static_cast<std::size_t>(rj.parent)] * local);
    skin.joints.push_back(static_cast<std::int16_t>(j));
    skin.inverse_bind.push_back(glm::inverse(globals.back()));
  }
  raw.skins.push_back(std::move(skin));

  Mesh mesh;
  mesh.name = "character";
  mesh.skin = 0;
  mesh.parts.emplace_back();
  raw.meshes.push_back(std::move(mesh));
  raw.materials.push_back(Material{});
  raw.meshes.front().parts.front().material = 0;

  add_limb_fixture_box(raw, J::kBody, {-2.1f, 6.3f, -1.05f}, {2.1f, 12.6f, 1.05f}, {16, 16},
                       {8, 12, 4});
  add_limb_fixture_box(raw, J::kHead, {-2.1f, 12.6f, -2.1f}, {2.1f, 16.8f, 2.1f}, {0, 0},
                       {8, 8, 8});
  add_limb_fixture_box(raw, J::kArmLeft, {2.1f, 6.3f, -1.05f}, {4.2f, 12.6f, 1.05f}, {40, 16},
                       {4, 12, 4});
  add_limb_fixture_box(raw, J::kArmRight, {-4.2f, 6.3f, -1.05f}, {-2.1f, 12.6f, 1.05f}, {40, 16},
                       {4, 12, 4});
  add_limb_fixture_box(raw, J::kLegRight, {-2.1f, 0, -1.05f}, {0, 6.3f, 1.05f}, {0, 16},
                       {4, 12, 4});
  add_limb_fixture_box(raw, J::kLegLeft, {0, 0, -1.05f}, {2.1f, 6.3f, 1.05f}, {0, 16}, {4, 12, 4});

  RawClip walk;
  walk.name = "walk";
  walk.tracks = {swing(J::kLegRight, 1.0f), swing(J::kLegLeft, -1.0f), swing(J::kArmRight, -1.0f),
                 swing(J::kArmLeft, 1.0f)};
  raw.clips.push_back(std::move(walk));
  return raw;
}

Model limb_fixture() {
  auto model = build_model(limb_fixture_raw());
  if (!model) std::abort();
  return std::move(*model);
}

}  // namespace critter::testing
