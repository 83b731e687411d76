// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/builtin_creatures.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "critter/creature/legacy/common.h"

namespace critter::creature::legacy {
namespace {

// One joint of a built-in creature and its box, both in the Z-up bone space of its parent (the
// box in its own bone space).
struct Bone {
  std::string_view name;
  std::string_view parent;  // empty: the root
  vec3 at;                  // rest translation in the parent's bone space
  vec3 lo, hi;              // the box, in this bone's space
};

struct Layout {
  std::vector<Bone> bones;
  vec4 colour;
  float scale = 1.0f;  // the Body's rest scale
  vec3 size;
};

Layout layout(Kind kind) {
  switch (kind) {
    case Kind::kFourLegged:
      return {{{"Body", "", vec3(0), vec3(-0.15f, -0.4f, 0.35f), vec3(0.15f, 0.4f, 0.65f)},
               {"Neck", "Body", vec3(0, 0.38f, 0.58f), vec3(-0.07f, -0.02f, -0.05f),
                vec3(0.07f, 0.2f, 0.15f)},
               {"Head", "Neck", vec3(0, 0.18f, 0.1f), vec3(-0.1f, -0.05f, -0.08f),
                vec3(0.1f, 0.25f, 0.12f)},
               {"Leg1", "Body", vec3(-0.1f, 0.3f, 0.4f), vec3(-0.05f, -0.05f, -0.4f),
                vec3(0.05f, 0.05f, 0.0f)},
               {"Leg2", "Body", vec3(0.1f, 0.3f, 0.4f), vec3(-0.05f, -0.05f, -0.4f),
                vec3(0.05f, 0.05f, 0.0f)},
               {"Leg3", "Body", vec3(-0.1f, -0.3f, 0.4f), vec3(-0.05f, -0.05f, -0.4f),
                vec3(0.05f, 0.05f, 0.0f)},
               {"Leg4", "Body", vec3(0.1f, -0.3f, 0.4f), vec3(-0.05f, -0.05f, -0.4f),
                vec3(0.05f, 0.05f, 0.0f)}},
              vec4(0.55f, 0.5f, 0.45f, 1.0f),
              1.0f,
              vec3(0.3f, 0.85f, 0.9f)};
    case Kind::kHuman:
      // Units of 1/40 m (Body scale 0.025): 72 units = 1.8 m.
      return {{{"Body", "", vec3(0), vec3(-8, -4, 28), vec3(8, 4, 52)},
               {"Head", "Body", vec3(0, 0, 52), vec3(-6, -6, 0), vec3(6, 6, 12)},
               {"Hand1", "Body", vec3(-11, 0, 50), vec3(-3, -3, -24), vec3(3, 3, 2)},
               {"Hand2", "Body", vec3(11, 0, 50), vec3(-3, -3, -24), vec3(3, 3, 2)},
               {"Leg1", "Body", vec3(-4, 0, 28), vec3(-3.5f, -3.5f, -28), vec3(3.5f, 3.5f, 0)},
               {"Leg2", "Body", vec3(4, 0, 28), vec3(-3.5f, -3.5f, -28), vec3(3.5f, 3.5f, 0)}},
              vec4(0.35f, 0.45f, 0.7f, 1.0f),
              0.025f,
              vec3(0.6f, 1.6f, 0.3f)};
    case Kind::kBird:
      return {{{"Body", "", vec3(0), vec3(-0.08f, -0.12f, 0.12f), vec3(0.08f, 0.12f, 0.26f)},
               {"Neck", "Body", vec3(0, 0.1f, 0.22f), vec3(-0.03f, -0.03f, 0.0f),
                vec3(0.03f, 0.03f, 0.08f)},
               {"Head", "Neck", vec3(0, 0.01f, 0.08f), vec3(-0.04f, -0.03f, -0.02f),
                vec3(0.04f, 0.08f, 0.05f)},
               {"Leg1", "Body", vec3(-0.04f, 0, 0.13f), vec3(-0.015f, -0.015f, -0.13f),
                vec3(0.015f, 0.015f, 0.0f)},
               {"Leg2", "Body", vec3(0.04f, 0, 0.13f), vec3(-0.015f, -0.015f, -0.13f),
                vec3(0.015f, 0.015f, 0.0f)},
               {"Wing1", "Body", vec3(-0.08f, 0, 0.22f), vec3(-0.25f, -0.08f, -0.01f),
                vec3(0.0f, 0.06f, 0.01f)},
               {"Wing2", "Body", vec3(0.08f, 0, 0.22f), vec3(0.0f, -0.08f, -0.01f),
                vec3(0.25f, 0.06f, 0.01f)}},
              vec4(0.6f, 0.6f, 0.65f, 1.0f),
              1.0f,
              vec3(0.16f, 0.34f, 0.3f)};
    case Kind::kFlightlessBird:
      return {{{"Body", "", vec3(0), vec3(-0.15f, -0.25f, 0.5f), vec3(0.15f, 0.2f, 0.8f)},
               {"Neck", "Body", vec3(0, 0.18f, 0.7f), vec3(-0.04f, -0.04f, 0.0f),
                vec3(0.04f, 0.04f, 0.35f)},
               {"Head", "Neck", vec3(0, 0, 0.35f), vec3(-0.05f, -0.04f, -0.03f),
                vec3(0.05f, 0.12f, 0.06f)},
               {"Leg1", "Body", vec3(-0.08f, 0, 0.55f), vec3(-0.03f, -0.03f, -0.55f),
                vec3(0.03f, 0.03f, 0.0f)},
               {"Leg2", "Body", vec3(0.08f, 0, 0.55f), vec3(-0.03f, -0.03f, -0.55f),
                vec3(0.03f, 0.03f, 0.0f)}},
              vec4(0.4f, 0.3f, 0.25f, 1.0f),
              1.0f,
              vec3(0.3f, 1.1f, 0.5f)};
    case Kind::kFish:
      return {{{"Body", "", vec3(0), vec3(-0.05f, -0.1f, -0.08f), vec3(0.05f, 0.25f, 0.08f)},
               {"Tail1", "Body", vec3(0, -0.1f, 0), vec3(-0.03f, -0.15f, -0.06f),
                vec3(0.03f, 0.0f, 0.06f)},
               {"Tail2", "Tail1", vec3(0, -0.15f, 0), vec3(-0.01f, -0.12f, -0.1f),
                vec3(0.01f, 0.0f, 0.1f)},
               {"Jaw", "Body", vec3(0, 0.2f, -0.02f), vec3(-0.04f, 0.0f, -0.03f),
                vec3(0.04f, 0.08f, 0.0f)}},
              vec4(0.3f, 0.55f, 0.6f, 1.0f),
              1.0f,
              vec3(0.1f, 0.16f, 0.62f)};
  }
  return layout(Kind::kFourLegged);
}

// Appends a box given in bone space, transformed by the bone's rest model matrix, rigid to
// `joint`; four vertices per face so each face keeps its normal.
void add_box(MeshPart& part, const mat4& bone, vec3 lo, vec3 hi, int joint) {
  const vec3 c = (lo + hi) * 0.5f;
  const vec3 h = (hi - lo) * 0.5f;
  struct Face {
    vec3 n, u, v;
  };
  const vec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
  const std::array<Face, 6> faces = {
      Face{x, y, z}, Face{-x, z, y}, Face{y, z, x}, Face{-y, x, z}, Face{z, x, y}, Face{-z, y, x},
  };
  const std::array<vec2, 4> corners = {vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, 1)};
  const glm::mat3 normal_matrix = glm::transpose(glm::inverse(glm::mat3(bone)));
  VertexStreams& s = part.streams;
  for (const Face& f : faces) {
    const auto base = static_cast<std::uint32_t>(s.positions.size());
    for (const vec2& k : corners) {
      const vec3 p = c + (f.n + f.u * k.x + f.v * k.y) * h;
      s.positions.push_back(vec3(bone * vec4(p, 1.0f)));
      s.normals.push_back(glm::normalize(normal_matrix * f.n));
      s.uv0.push_back((k + 1.0f) * 0.5f);
      s.joints.push_back(glm::u16vec4(static_cast<std::uint16_t>(joint), 0, 0, 0));
      s.weights.push_back(vec4(1.0f, 0.0f, 0.0f, 0.0f));
    }
    for (std::uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) part.indices.push_back(base + i);
  }
}

}  // namespace

vec3 builtin_creature_size(Kind kind) {
  return layout(kind).size;
}

RawModel make_builtin_creature_raw(Kind kind) {
  const Layout l = layout(kind);
  RawModel m;
  std::string name(to_string(kind));
  for (char& ch : name) {
    if (ch == '-') ch = '_';
  }
  m.name = "legacy_" + name;
  m.format = "code";
  std::vector<mat4> model_of;
  auto index_of = [&](std::string_view n) {
    for (std::size_t i = 0; i < l.bones.size(); ++i) {
      if (l.bones[i].name == n) return static_cast<int>(i);
    }
    return -1;
  };
  for (const Bone& b : l.bones) {
    RawJoint j;
    j.name = std::string(b.name);
    j.parent = b.parent.empty() ? -1 : index_of(b.parent);
    j.rest.translation = b.at;
    if (j.parent < 0) {
      j.rest.rotation = rot_x(-0.5f * kPi);
      j.rest.scale = vec3(l.scale);
    }
    const mat4 local = j.rest.to_matrix();
    model_of.push_back(j.parent < 0 ? local : model_of[static_cast<std::size_t>(j.parent)] * local);
    m.skeleton.joints.push_back(std::move(j));
  }

  Material mat;
  mat.name = m.name;
  mat.base_color_factor = l.colour;
  mat.metallic_factor = 0.0f;
  mat.roughness_factor = 0.8f;
  m.materials.push_back(mat);

  Skin skin;
  skin.name = m.name + "_skin";
  skin.skeleton_root = 0;
  MeshPart part;
  for (std::size_t i = 0; i < l.bones.size(); ++i) {
    skin.joints.push_back(static_cast<std::int16_t>(i));
    skin.inverse_bind.push_back(glm::inverse(model_of[i]));
    add_box(part, model_of[i], l.bones[i].lo, l.bones[i].hi, static_cast<int>(i));
  }
  part.material = 0;
  m.skins.push_back(std::move(skin));
  Mesh mesh;
  mesh.name = m.name;
  mesh.skin = 0;
  mesh.parts.push_back(std::move(part));
  m.meshes.push_back(std::move(mesh));
  return m;
}

Result<Model> make_builtin_creature(Kind kind, Diagnostics* diag) {
  return build_model(make_builtin_creature_raw(kind), diag);
}

}  // namespace critter::creature::legacy
