// SPDX-License-Identifier: MIT
#include "critter/asset/synthetic_character.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace critter {

namespace {

struct Builder {
  RawSkeleton skeleton;

  int add(int parent, vec3 offset) {
    RawJoint j;
    j.name = "joint" + std::to_string(skeleton.joints.size());
    j.parent = parent;
    j.rest.translation = offset;
    skeleton.joints.push_back(j);
    return static_cast<int>(skeleton.joints.size()) - 1;
  }
};

RawClip make_clip(const RawSkeleton& skeleton, const char* name, float seconds, float frequency) {
  RawClip raw;
  raw.name = name;
  const int keys = static_cast<int>(std::lround(seconds * 30.0f)) + 1;
  for (std::size_t j = 0; j < skeleton.joints.size(); ++j) {
    const float phase = 0.37f * static_cast<float>(j);
    RawTrack t, r, s;
    t.target = TrackTarget::kTranslation;
    r.target = TrackTarget::kRotation;
    s.target = TrackTarget::kScale;
    r.components = 4;
    t.index = r.index = s.index = static_cast<std::int32_t>(j);
    const vec3 base = skeleton.joints[j].rest.translation;
    const vec3 axis = glm::normalize(vec3(std::sin(phase), 1.0f, std::cos(phase)));
    for (int k = 0; k < keys; ++k) {
      const float time = static_cast<float>(k) / 30.0f;
      const float a = 6.2831853f * frequency * time + phase;
      t.times.push_back(time);
      r.times.push_back(time);
      s.times.push_back(time);
      t.values.insert(t.values.end(), {base.x + 0.01f * std::sin(a), base.y, base.z});
      const float half = 0.4f * std::sin(a) * 0.5f;
      r.values.insert(r.values.end(), {axis.x * std::sin(half), axis.y * std::sin(half),
                                       axis.z * std::sin(half), std::cos(half)});
      s.values.insert(s.values.end(), {1.0f, 1.0f + 0.02f * std::cos(a), 1.0f});
    }
    raw.tracks.push_back(std::move(t));
    raw.tracks.push_back(std::move(r));
    raw.tracks.push_back(std::move(s));
  }
  return raw;
}

}  // namespace

RawModel make_synthetic_character() {
  Builder b;
  const int root = b.add(-1, vec3(0.0f));
  const int pelvis = b.add(root, vec3(0, 1.0f, 0));
  int spine = pelvis;
  for (int i = 0; i < 3; ++i) spine = b.add(spine, vec3(0, 0.15f, 0));
  const int neck = b.add(spine, vec3(0, 0.2f, 0));
  const int head = b.add(neck, vec3(0, 0.1f, 0));
  b.add(head, vec3(0, -0.05f, 0.08f));
  for (float side : {-1.0f, 1.0f}) b.add(head, vec3(side * 0.03f, 0.08f, 0.09f));
  for (float side : {-1.0f, 1.0f}) {
    const int clavicle = b.add(spine, vec3(side * 0.05f, 0.15f, 0));
    const int upper = b.add(clavicle, vec3(side * 0.15f, 0, 0));
    const int fore = b.add(upper, vec3(side * 0.28f, 0, 0));
    const int hand = b.add(fore, vec3(side * 0.25f, 0, 0));
    for (int f = 0; f < 5; ++f) {
      int bone = b.add(hand, vec3(side * 0.08f, 0, 0.02f * static_cast<float>(f - 2)));
      for (int k = 0; k < 2; ++k) bone = b.add(bone, vec3(side * 0.03f, 0, 0));
    }
  }
  for (float side : {-1.0f, 1.0f}) {
    const int thigh = b.add(pelvis, vec3(side * 0.1f, -0.05f, 0));
    const int calf = b.add(thigh, vec3(0, -0.45f, 0));
    const int foot = b.add(calf, vec3(0, -0.42f, 0));
    b.add(foot, vec3(0, -0.05f, 0.12f));
  }
  int tail = pelvis;
  for (int i = 0; i < 11; ++i) tail = b.add(tail, vec3(0, 0, -0.08f));

  RawModel model;
  model.name = "synthetic67";
  model.format = "code";
  model.skeleton = b.skeleton;
  const std::size_t n = model.skeleton.joints.size();

  // Rest model positions (rest rotations are identity, so offsets add up).
  std::vector<vec3> at(n);
  for (std::size_t j = 0; j < n; ++j) {
    const RawJoint& joint = model.skeleton.joints[j];
    at[j] = joint.rest.translation +
            (joint.parent < 0 ? vec3(0.0f) : at[static_cast<std::size_t>(joint.parent)]);
  }
  Mesh mesh;
  mesh.name = "body";
  mesh.skin = 0;
  MeshPart part;
  part.material = 0;
  const vec3 corner[8] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                          {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
  // Six faces as corner quads, counter-clockwise seen from outside, with their normals.
  const int faces[6][4] = {{1, 2, 6, 5}, {0, 4, 7, 3}, {3, 7, 6, 2},
                           {0, 1, 5, 4}, {4, 5, 6, 7}, {0, 3, 2, 1}};
  const vec3 normals[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (std::size_t j = 0; j < n; ++j) {
    for (int f = 0; f < 6; ++f) {
      const auto base = static_cast<std::uint32_t>(part.streams.positions.size());
      for (int c = 0; c < 4; ++c) {
        part.streams.positions.push_back(at[j] + corner[faces[f][c]] * 0.02f);
        part.streams.normals.push_back(normals[f]);
        part.streams.uv0.push_back(vec2(c == 1 || c == 2 ? 1.0f : 0.0f, c >= 2 ? 1.0f : 0.0f));
        part.streams.joints.push_back(glm::u16vec4(static_cast<std::uint16_t>(j), 0, 0, 0));
        part.streams.weights.push_back(vec4(1.0f, 0.0f, 0.0f, 0.0f));
      }
      for (std::uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) part.indices.push_back(base + i);
    }
  }
  mesh.parts.push_back(std::move(part));
  model.meshes.push_back(std::move(mesh));

  Skin skin;
  skin.name = "body";
  for (std::size_t j = 0; j < n; ++j) {
    skin.joints.push_back(static_cast<std::int16_t>(j));
    mat4 inverse_bind(1.0f);
    inverse_bind[3] = vec4(-at[j], 1.0f);
    skin.inverse_bind.push_back(inverse_bind);
  }
  model.skins.push_back(std::move(skin));
  Material material;
  material.name = "skin";
  model.materials.push_back(material);
  model.clips.push_back(make_clip(model.skeleton, "walk", 2.0f, 0.5f));
  model.clips.push_back(make_clip(model.skeleton, "run", 3.0f, 1.0f / 3.0f));
  return model;
}

}  // namespace critter
