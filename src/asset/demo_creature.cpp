// SPDX-License-Identifier: MIT
#include "critter/asset/demo_creature.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numbers>
#include <string>
#include <string_view>
#include <vector>

namespace critter {
namespace {

constexpr int kJointCount = static_cast<int>(std::size(kDemoJointNames));

int joint(std::string_view name) {
  for (int i = 0; i < kJointCount; ++i) {
    if (name == kDemoJointNames[i]) return i;
  }
  return -1;
}

// Joint influences of one vertex, as stored in the part's joints/weights streams.
struct Influence {
  glm::u16vec4 joints{0};
  vec4 weights{0.0f};
};

Influence rigid(int j) {
  return {glm::u16vec4(static_cast<std::uint16_t>(j), 0, 0, 0), vec4(1.0f, 0.0f, 0.0f, 0.0f)};
}

Influence half(int a, int b) {
  return {glm::u16vec4(static_cast<std::uint16_t>(a), static_cast<std::uint16_t>(b), 0, 0),
          vec4(0.5f, 0.5f, 0.0f, 0.0f)};
}

// Appends an axis-aligned box with flat-shaded faces (4 vertices per face so each face keeps its
// own normal and full 0..1 UV square). `weigh` picks the influences of each corner.
void add_box(MeshPart& part, vec3 lo, vec3 hi, const std::function<Influence(vec3)>& weigh) {
  const vec3 c = (lo + hi) * 0.5f;
  const vec3 h = (hi - lo) * 0.5f;
  struct Face {
    vec3 n, u, v;  // u x v == n, so corners listed -u-v, +u-v, +u+v, -u+v wind counter-clockwise
  };
  const vec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
  const std::array<Face, 6> faces = {
      Face{x, y, z}, Face{-x, z, y}, Face{y, z, x}, Face{-y, x, z}, Face{z, x, y}, Face{-z, y, x},
  };
  const std::array<vec2, 4> corners = {vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, 1)};
  VertexStreams& s = part.streams;
  for (const Face& f : faces) {
    const auto base = static_cast<std::uint32_t>(s.positions.size());
    for (const vec2& k : corners) {
      const vec3 p = c + (f.n + f.u * k.x + f.v * k.y) * h;
      const Influence w = weigh(p);
      s.positions.push_back(p);
      s.normals.push_back(f.n);
      s.uv0.push_back((k + 1.0f) * 0.5f);
      s.joints.push_back(w.joints);
      s.weights.push_back(w.weights);
    }
    for (std::uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) part.indices.push_back(base + i);
  }
}

// Legs: which side (+X is the creature's left) and which end (+Z is the front).
struct Leg {
  const char* prefix;
  float x, z;
};
constexpr std::array<Leg, 4> kLegs = {
    Leg{"leg_front_left", 0.12f, 0.25f},
    Leg{"leg_front_right", -0.12f, 0.25f},
    Leg{"leg_back_left", 0.12f, -0.25f},
    Leg{"leg_back_right", -0.12f, -0.25f},
};
constexpr float kBodyHeight = 0.55f;
constexpr float kSegment = 0.22f;  // upper and lower leg length

std::string leg_joint(const Leg& leg, const char* part) {
  return std::string(leg.prefix) + "_" + part;
}

RawSkeleton make_skeleton() {
  RawSkeleton s;
  auto add = [&](const std::string& name, std::string_view parent, vec3 t) {
    RawJoint j;
    j.name = name;
    j.parent = parent.empty() ? -1 : joint(parent);
    j.rest.translation = t;
    s.joints.push_back(j);
  };
  add("root", "", vec3(0.0f));
  add("body", "root", vec3(0.0f, kBodyHeight, 0.0f));
  add("neck", "body", vec3(0.0f, 0.08f, 0.3f));
  add("head", "neck", vec3(0.0f, 0.12f, 0.08f));
  add("tail_base", "body", vec3(0.0f, 0.05f, -0.35f));
  add("tail_tip", "tail_base", vec3(0.0f, 0.0f, -0.18f));
  for (const Leg& leg : kLegs) {
    // Hip/shoulder 5 cm under the body joint; each segment hangs straight down.
    add(leg_joint(leg, "upper"), "body", vec3(leg.x, -0.05f, leg.z));
    add(leg_joint(leg, "lower"), leg_joint(leg, "upper"), vec3(0.0f, -kSegment, 0.0f));
    add(leg_joint(leg, "paw"), leg_joint(leg, "lower"), vec3(0.0f, -kSegment, 0.0f));
  }
  return s;
}

// Rest model transform of every raw joint (parents come first in make_skeleton).
std::vector<mat4> rest_model(const RawSkeleton& s) {
  std::vector<mat4> out(s.joints.size());
  for (std::size_t i = 0; i < s.joints.size(); ++i) {
    const mat4 local = s.joints[i].rest.to_matrix();
    const int p = s.joints[i].parent;
    out[i] = p < 0 ? local : out[static_cast<std::size_t>(p)] * local;
  }
  return out;
}

MeshPart make_body_part() {
  MeshPart part;
  auto to = [](const char* name) {
    const int j = joint(name);
    return [j](vec3) { return rigid(j); };
  };
  add_box(part, vec3(-0.16f, 0.45f, -0.36f), vec3(0.16f, 0.68f, 0.34f), to("body"));
  add_box(part, vec3(-0.06f, 0.60f, 0.26f), vec3(0.06f, 0.76f, 0.38f), to("neck"));
  add_box(part, vec3(-0.10f, 0.70f, 0.32f), vec3(0.10f, 0.86f, 0.58f), to("head"));
  add_box(part, vec3(-0.03f, 0.57f, -0.53f), vec3(0.03f, 0.63f, -0.34f), to("tail_base"));
  add_box(part, vec3(-0.03f, 0.57f, -0.70f), vec3(0.03f, 0.63f, -0.53f), to("tail_tip"));
  const float hip = kBodyHeight - 0.05f;
  const float knee = hip - kSegment;
  const float ankle = knee - kSegment;
  for (const Leg& leg : kLegs) {
    const int upper = joint(leg_joint(leg, "upper"));
    const int lower = joint(leg_joint(leg, "lower"));
    const int paw = joint(leg_joint(leg, "paw"));
    // The knee vertices of both boxes share the two joints so the joint bends without a gap.
    auto soft_knee = [=](int own) {
      return [=](vec3 p) { return std::abs(p.y - knee) < 1e-4f ? half(upper, lower) : rigid(own); };
    };
    add_box(part, vec3(leg.x - 0.05f, knee, leg.z - 0.05f),
            vec3(leg.x + 0.05f, hip + 0.02f, leg.z + 0.05f), soft_knee(upper));
    add_box(part, vec3(leg.x - 0.04f, ankle, leg.z - 0.04f),
            vec3(leg.x + 0.04f, knee, leg.z + 0.04f), soft_knee(lower));
    add_box(part, vec3(leg.x - 0.06f, 0.0f, leg.z - 0.05f),
            vec3(leg.x + 0.06f, ankle, leg.z + 0.08f), [=](vec3) { return rigid(paw); });
  }
  part.material = 0;
  return part;
}

// A looping LINEAR track sampled from a periodic function: key i of kKeys + 1 sits at
// i / kKeys of the period and takes the value at phase (i mod kKeys), so the last key repeats the
// first exactly and the clip loops without a seam.
constexpr int kKeys = 8;

RawTrack periodic(TrackTarget target, const char* joint_name, float period,
                  const std::function<std::vector<float>(float)>& value_at_phase) {
  RawTrack t;
  t.target = target;
  t.index = joint(joint_name);
  t.interpolation = Interpolation::kLinear;
  t.components = target == TrackTarget::kRotation ? 4u : 3u;
  for (int i = 0; i <= kKeys; ++i) {
    t.times.push_back(period * static_cast<float>(i) / kKeys);
    const float phase = 2.0f * std::numbers::pi_v<float> * static_cast<float>(i % kKeys) / kKeys;
    const std::vector<float> v = value_at_phase(phase);
    t.values.insert(t.values.end(), v.begin(), v.end());
  }
  return t;
}

std::vector<float> about(vec3 axis, float radians) {
  const quat q = glm::angleAxis(radians, axis);
  return {q.x, q.y, q.z, q.w};
}

float deg(float d) {
  return d * std::numbers::pi_v<float> / 180.0f;
}

RawClip make_walk() {
  RawClip c;
  c.name = "walk";
  constexpr float kPeriod = 1.0f;
  const vec3 x(1, 0, 0), y(0, 1, 0);
  for (const Leg& leg : kLegs) {
    // Diagonal pairs move together: front left with back right, front right with back left.
    const bool pair_a = (leg.x > 0.0f) == (leg.z > 0.0f);
    const float sign = pair_a ? 1.0f : -1.0f;
    // A positive angle about +X swings the paw backwards; the leg moves forwards while its angle
    // falls (sign * cos(phase) < 0), and then the knee lifts the paw.
    c.tracks.push_back(
        periodic(TrackTarget::kRotation, leg_joint(leg, "upper").c_str(), kPeriod,
                 [=](float ph) { return about(x, sign * deg(25.0f) * std::sin(ph)); }));
    c.tracks.push_back(
        periodic(TrackTarget::kRotation, leg_joint(leg, "lower").c_str(), kPeriod, [=](float ph) {
          const float lift = std::max(0.0f, -sign * std::cos(ph));
          return about(x, deg(35.0f) * lift);
        }));
  }
  c.tracks.push_back(periodic(TrackTarget::kTranslation, "body", kPeriod, [](float ph) {
    const float bob = 0.015f * 0.5f * (1.0f - std::cos(2.0f * ph));
    return std::vector<float>{0.0f, kBodyHeight + bob, 0.0f};
  }));
  c.tracks.push_back(periodic(TrackTarget::kRotation, "tail_base", kPeriod,
                              [=](float ph) { return about(y, deg(20.0f) * std::sin(ph)); }));
  c.tracks.push_back(periodic(TrackTarget::kRotation, "head", kPeriod,
                              [=](float ph) { return about(x, deg(4.0f) * std::sin(2.0f * ph)); }));
  return c;
}

RawClip make_idle() {
  RawClip c;
  c.name = "idle";
  constexpr float kPeriod = 2.0f;
  const vec3 y(0, 1, 0);
  c.tracks.push_back(periodic(TrackTarget::kScale, "body", kPeriod, [](float ph) {
    const float breath = 1.0f + 0.03f * 0.5f * (1.0f - std::cos(ph));
    return std::vector<float>{breath, breath, 1.0f};
  }));
  c.tracks.push_back(periodic(TrackTarget::kTranslation, "body", kPeriod, [](float ph) {
    const float bob = 0.008f * 0.5f * (1.0f - std::cos(ph));
    return std::vector<float>{0.0f, kBodyHeight - bob, 0.0f};
  }));
  c.tracks.push_back(periodic(TrackTarget::kRotation, "tail_base", kPeriod,
                              [=](float ph) { return about(y, deg(8.0f) * std::sin(ph)); }));
  c.tracks.push_back(periodic(TrackTarget::kRotation, "head", kPeriod,
                              [=](float ph) { return about(y, deg(6.0f) * std::sin(ph)); }));
  return c;
}

}  // namespace

RawModel make_demo_quadruped() {
  RawModel m;
  m.name = "demo_quadruped";
  m.format = "code";
  m.skeleton = make_skeleton();

  Material fur;
  fur.name = "fur";
  fur.base_color_factor = vec4(0.78f, 0.52f, 0.30f, 1.0f);
  fur.metallic_factor = 0.0f;
  fur.roughness_factor = 0.8f;
  m.materials.push_back(fur);

  Skin skin;
  skin.name = "demo_skin";
  skin.skeleton_root = 0;
  const std::vector<mat4> rest = rest_model(m.skeleton);
  for (int j = 0; j < kJointCount; ++j) {
    skin.joints.push_back(static_cast<std::int16_t>(j));
    skin.inverse_bind.push_back(glm::inverse(rest[static_cast<std::size_t>(j)]));
  }
  m.skins.push_back(std::move(skin));

  Mesh mesh;
  mesh.name = "demo_quadruped";
  mesh.skin = 0;
  mesh.parts.push_back(make_body_part());
  m.meshes.push_back(std::move(mesh));

  m.clips.push_back(make_walk());
  m.clips.push_back(make_idle());
  return m;
}

Result<Model> build_demo_quadruped(Diagnostics* diag) {
  return build_model(make_demo_quadruped(), diag);
}

}  // namespace critter
