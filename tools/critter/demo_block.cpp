// SPDX-License-Identifier: MIT
#include "demo_block.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/gtc/matrix_transform.hpp>

#include "critter/creature/limbs/split_limbs.h"

namespace critter::cli {
namespace {

constexpr float kStep = 1.0f / 60.0f;
constexpr float kPi = std::numbers::pi_v<float>;
constexpr int kWalkKeys = 21;
constexpr float kWalkFps = 30.0f;

RawJoint joint(const char* name, int parent, vec3 t) {
  RawJoint j;
  j.name = name;
  j.parent = parent;
  j.rest.translation = t;
  return j;
}

void add_box(MeshPart& part, int joint, vec3 lo, vec3 hi) {
  const vec3 c = 0.5f * (lo + hi);
  const vec3 h = 0.5f * (hi - lo);
  // Per face: the outward normal and two in-plane axes with right × up = normal (CCW outside).
  const vec3 faces[6][3] = {
      {{1, 0, 0}, {0, 0, -1}, {0, 1, 0}}, {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
      {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}}, {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
      {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},  {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}}};
  for (const auto& f : faces) {
    const auto base = static_cast<std::uint32_t>(part.streams.positions.size());
    const vec3 centre = c + f[0] * glm::abs(glm::dot(h, f[0]));
    const vec3 r = f[1] * glm::abs(glm::dot(h, f[1]));
    const vec3 u = f[2] * glm::abs(glm::dot(h, f[2]));
    for (const vec3 p : {centre - r + u, centre - r - u, centre + r - u, centre + r + u}) {
      part.streams.positions.push_back(p);
      part.streams.normals.push_back(f[0]);
      part.streams.joints.push_back(glm::u16vec4(static_cast<std::uint16_t>(joint), 0, 0, 0));
      part.streams.weights.push_back(vec4(1, 0, 0, 0));
    }
    for (std::uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) part.indices.push_back(base + i);
  }
}

RawTrack swing(int joint_index, float sign) {
  RawTrack t;
  t.target = TrackTarget::kRotation;
  t.index = joint_index;
  t.components = 4;
  for (int i = 0; i < kWalkKeys; ++i) {
    t.times.push_back(static_cast<float>(i) / kWalkFps);
    const float deg =
        sign * 40.0f *
        std::sin(2.0f * kPi * static_cast<float>(i) / static_cast<float>(kWalkKeys - 1));
    const quat q = glm::angleAxis(glm::radians(deg), vec3(1, 0, 0));
    t.values.insert(t.values.end(), {q.x, q.y, q.z, q.w});
  }
  return t;
}

}  // namespace

RawModel make_block_character() {
  enum : int { kPlayer, kBody, kHead, kArmRight, kArmLeft, kLegRight, kLegLeft };
  RawModel raw;
  raw.name = "block_character";
  raw.format = "code";
  raw.skeleton.joints = {
      joint("Player", -1, {0, 0, 0}),
      joint("Body", kPlayer, {0, 6.3f, 0}),
      joint("Head", kBody, {0, 6.3f, 0}),
      joint("Arm_Right", kBody, {-3.15f, 5.25f, 0}),
      joint("Arm_Left", kBody, {3.15f, 5.25f, 0}),
      joint("Leg_Right", kBody, {-1.05f, 0, 0}),
      joint("Leg_Left", kBody, {1.05f, 0, 0}),
  };
  Skin skin;
  skin.name = "block_skin";
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
  mesh.name = "block_character";
  mesh.skin = 0;
  mesh.parts.resize(3);
  for (int m = 0; m < 3; ++m) mesh.parts[static_cast<std::size_t>(m)].material = m;
  MeshPart& skin_part = mesh.parts[0];
  MeshPart& shirt = mesh.parts[1];
  MeshPart& trousers = mesh.parts[2];
  add_box(skin_part, kHead, {-2.1f, 12.6f, -2.1f}, {2.1f, 16.8f, 2.1f});
  add_box(shirt, kBody, {-2.1f, 6.3f, -1.05f}, {2.1f, 12.6f, 1.05f});
  // Sleeves to the elbow would be nested boxes; plain skin-coloured arms read better at demo size.
  add_box(skin_part, kArmRight, {-4.2f, 6.3f, -1.05f}, {-2.1f, 12.6f, 1.05f});
  add_box(skin_part, kArmLeft, {2.1f, 6.3f, -1.05f}, {4.2f, 12.6f, 1.05f});
  add_box(trousers, kLegRight, {-2.1f, 0, -1.05f}, {0, 6.3f, 1.05f});
  add_box(trousers, kLegLeft, {0, 0, -1.05f}, {2.1f, 6.3f, 1.05f});
  raw.meshes.push_back(std::move(mesh));
  for (const vec4 colour : {vec4(0.87f, 0.68f, 0.52f, 1.0f), vec4(0.2f, 0.62f, 0.3f, 1.0f),
                            vec4(0.16f, 0.22f, 0.5f, 1.0f)}) {
    Material m;
    m.base_color_factor = colour;
    raw.materials.push_back(m);
  }
  RawClip walk;
  walk.name = "walk";
  walk.tracks = {swing(kLegRight, 1.0f), swing(kLegLeft, -1.0f), swing(kArmRight, -1.0f),
                 swing(kArmLeft, 1.0f)};
  raw.clips.push_back(std::move(walk));
  return raw;
}

Result<std::unique_ptr<BlockDemo>> BlockDemo::create(float loop_seconds) {
  Result<Model> built = build_model(make_block_character());
  if (!built) return fail(built.error());
  Result<creature::LimbSplit> split = creature::split_limbs(*built);
  if (!split) return fail(split.error());
  if (split->limbs.size() != 4) {
    return fail(Error::at(ErrorCode::kInvalid, "critter demo", "block character",
                          "the block character's limbs were not found"));
  }
  auto demo = std::make_unique<BlockDemo>();
  demo->loop_ = loop_seconds;
  demo->model_ = std::make_unique<Model>(std::move(split->model));
  demo->limbs_ = std::move(split->limbs);
  demo->player_ = std::make_unique<anim::Player>(*demo->model_);
  const auto rest = demo->model_->skeleton().rest_pose();
  demo->pose_.assign(rest.begin(), rest.end());
  demo->out_.assign(rest.size(), mat4(1.0f));
  if (Status s = demo->restart(); !s) return fail(s.error());
  return demo;
}

Status BlockDemo::restart() {
  auto sim = tools::LimbSim::create(*model_, limbs_);
  if (!sim) return fail(sim.error());
  sim_ = std::move(*sim);
  time_ = 0.0f;
  if (Status s = player_->play(0, anim::PlaybackMode::kLoopForward); !s) return s;
  return {};
}

// The loop in eighths: walk (1.75), jump and land (1.25), climb (1), crawl (1.5), tread (1),
// breaststroke (1.5).
tools::LimbMotion BlockDemo::script(float t, bool& walking, float& height, bool& lying) const {
  const float u = 8.0f * t / loop_;
  tools::LimbMotion m;
  walking = false;
  height = 0.0f;
  lying = false;
  if (u < 1.75f) {
    walking = true;
    m.body.speed = 2.0f;
    return m;
  }
  if (u < 3.0f) {
    // A jump 0.8 s long, landing as from a fall of two nodes (9 n/s) so the crouch shows.
    const float s = (u - 1.75f) * loop_ / 8.0f;
    constexpr float kFlight = 0.8f;
    if (s < kFlight) {
      m.body.grounded = false;
      m.body.vy = 4.0f - 13.0f * s / kFlight;
      height = 4.0f * s * (kFlight - s);
    }
    return m;
  }
  if (u < 4.0f) {
    m.climbing = true;
    m.body.grounded = false;
    m.body.vy = 1.5f;
    m.water = creature::WaterPose::kClimb;
    return m;
  }
  m.in_water = true;
  m.body.grounded = false;
  if (u < 5.5f) {
    m.water = creature::WaterPose::kSwim;
    m.body.speed = 1.5f;
    lying = true;
  } else if (u < 6.5f) {
    m.water = creature::WaterPose::kTread;
  } else {
    m.water = creature::WaterPose::kPaddle;
    m.body.speed = 1.0f;
  }
  return m;
}

Status BlockDemo::advance_to(float t) {
  if (t < time_) {
    if (Status s = restart(); !s) return s;
  }
  bool first = time_ == 0.0f;
  while (first || time_ < t - 1e-6f) {
    const float dt = first ? 0.0f : std::min(kStep, t - time_);
    bool walking = false;
    sim_->set_motion(script(time_, walking, height_, lying_));
    if (walking && dt > 0.0f) player_->update(dt);
    const auto rest = model_->skeleton().rest_pose();
    if (walking) {
      const auto local = player_->local_pose();
      std::copy(local.begin(), local.end(), pose_.begin());
    } else {
      std::copy(rest.begin(), rest.end(), pose_.begin());
    }
    if (Status s = sim_->step(dt, pose_, out_); !s) return s;
    time_ += dt;
    first = false;
  }
  return {};
}

Status BlockDemo::place(anim::Instance& instance) const {
  if (Status s = instance.pose(pose_); !s) return s;
  const auto out = instance.writable_model_transforms();
  std::copy(out_.begin(), out_.end(), out.begin());
  return {};
}

mat4 BlockDemo::placement(const vec3& at, float heading_deg) const {
  mat4 world = glm::translate(mat4(1.0f), at + vec3(0.0f, height_, 0.0f));
  world = glm::rotate(world, glm::radians(heading_deg), vec3(0.0f, 1.0f, 0.0f));
  if (lying_) {
    // The crawl lies face down, the body's middle at the same height.
    world = glm::translate(world, vec3(0.0f, 0.6f, 0.0f));
    world = glm::rotate(world, glm::radians(-90.0f), vec3(1.0f, 0.0f, 0.0f));
    world = glm::translate(world, vec3(0.0f, -0.6f, 0.0f));
  }
  return glm::scale(world, vec3(kScale));
}

BlockReport BlockDemo::watch(int frames) {
  BlockReport r;
  static_cast<void>(restart());
  for (int i = 0; i < frames; ++i) {
    if (!advance_to(loop_ * static_cast<float>(i) / static_cast<float>(frames))) break;
    const creature::LimbAnimator& a = sim_->animator();
    const std::string pose(creature::to_string(a.water_pose()));
    if (std::find(r.poses.begin(), r.poses.end(), pose) == r.poses.end()) r.poses.push_back(pose);
    for (std::size_t l = 0; l < a.limbs().size(); ++l) {
      float& best = a.limbs()[l].kind == creature::LimbKind::Leg ? r.max_knee : r.max_elbow;
      best = std::max(best, a.limb_frames()[l].bend);
    }
    r.max_drop = std::max(r.max_drop, a.drop());
  }
  static_cast<void>(restart());
  return r;
}

}  // namespace critter::cli
