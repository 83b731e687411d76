// SPDX-License-Identifier: MIT
// `critter demo [-o demo.gif] [--size WxH] [--frames N] [--info] [--json]`: builds the built-in
// creatures in code and renders them headless into an animated GIF: the keyframed quadruped
// walking around a morphing blob in the middle of a checkered ground, and around them the zoo of
// legacy creatures (demo_zoo.h) driven by their rigs. --info / --json describe the demo quadruped
// like `critter info` and list the zoo with what each creature showed over the loop.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <numbers>
#include <optional>

#include "command.h"
#include "creature_pose.h"
#include "critter/asset/demo_creature.h"
#include "critter/core/strings.h"
#include "critter/creature/legacy/builtin_creatures.h"
#include "critter/io/image/image_decoder.h"
#include "demo_block.h"
#include "demo_scene.h"
#include "demo_zoo.h"
#include "describe.h"
#include "picture.h"

#include <glm/gtc/matrix_transform.hpp>

namespace critter::cli {
namespace {

struct DemoOptions {
  std::string output = "demo.gif";
  std::string size = "400x300";
  int frames = 96;
  bool info = false;
  bool json = false;
};

// The loop: 8 s, so the 1 s walk, the 2 s pulse, the lap and the camera orbit all close.
constexpr float kLoopSeconds = 8.0f;
constexpr float kLapRadius = 1.0f;
constexpr float kGroundRadius = 3.6f;
// The zoo's blob shadows, lighter than the middle's: many creatures stand close together.
constexpr float kZooShadowAlpha = 0.6f;
constexpr vec4 kSky{0.74f, 0.84f, 0.93f, 1.0f};
// The block character stands at the stage's right, turned toward the camera from a side view.
constexpr vec3 kBlockPosition{2.5f, 0.0f, 0.3f};
constexpr float kBlockHeading = -60.0f;
constexpr const char* kBlockShows =
    "walks with bending knees, jumps and lands in a crouch, climbs, swims the crawl, treads "
    "water and does the breaststroke";

// One zoo member ready to simulate: its built-in creature in its colour and its CreaturePose.
struct ZooCreature {
  const ZooMember* member = nullptr;
  std::shared_ptr<const Model> model;
  std::optional<CreaturePose> pose;
};

Result<ZooCreature> make_zoo_creature(const ZooMember& m) {
  const std::optional<creature::legacy::Kind> kind =
      creature::legacy::parse_kind(tools::to_string(m.kind));
  if (!kind) {
    return fail(Error::at(ErrorCode::kInvalid, "critter demo", m.name, "no built-in creature"));
  }
  RawModel raw = creature::legacy::make_builtin_creature_raw(*kind);
  for (Material& material : raw.materials) material.base_color_factor = m.colour;
  Result<Model> model = build_model(std::move(raw));
  if (!model) return fail(std::move(model.error()));
  ZooCreature c;
  c.member = &m;
  c.model = std::make_shared<const Model>(std::move(*model));
  Result<CreaturePose> pose = CreaturePose::load(zoo_spec(m), c.model, "demo " + m.name, m.keys);
  if (!pose) return fail(std::move(pose.error()));
  c.pose.emplace(std::move(*pose));
  return c;
}

// What a zoo creature showed over the loop, sampled at the frame times: the gaits in the order
// they first came (creatures.md's gait names, "dead" once dying), the names of its events
// (footsteps, attack hits) in the order they first came, and the death phase at the end.
struct ZooReport {
  std::vector<std::string> gaits;
  std::vector<std::string> events;
  float death_phase = 0.0f;
};

ZooReport watch(CreaturePose& pose, int frames) {
  ZooReport r;
  for (int i = 0; i < frames; ++i) {
    pose.advance_to(kLoopSeconds * static_cast<double>(i) / static_cast<double>(frames));
    const CreatureFrameInfo info = pose.info();
    if (std::find(r.gaits.begin(), r.gaits.end(), info.gait) == r.gaits.end()) {
      r.gaits.push_back(info.gait);
    }
    r.death_phase = info.death_phase;
  }
  for (const CreatureEvent& e : pose.info().events) {
    if (std::find(r.events.begin(), r.events.end(), e.name) == r.events.end()) {
      r.events.push_back(e.name);
    }
  }
  return r;
}

int describe(const DemoOptions& o, std::ostream& out, std::ostream& err) {
  Diagnostics diag;
  Result<Model> model = build_demo_quadruped(&diag);
  if (!model) return report(model.error(), err);
  const std::vector<ZooMember> zoo = make_zoo(kLoopSeconds);
  std::vector<ZooReport> reports;
  for (const ZooMember& m : zoo) {
    Result<ZooCreature> c = make_zoo_creature(m);
    if (!c) return report(c.error(), err);
    reports.push_back(watch(*c->pose, std::clamp(o.frames, 1, 1000)));
  }
  Result<std::unique_ptr<BlockDemo>> block = BlockDemo::create(kLoopSeconds);
  if (!block) return report(block.error(), err);
  const BlockReport shown = (*block)->watch(std::clamp(o.frames, 1, 1000));
  if (o.json) {
    nlohmann::ordered_json j = describe_json(*model, {}, diag.items());
    nlohmann::ordered_json members = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < zoo.size(); ++i) {
      nlohmann::ordered_json e;
      e["name"] = zoo[i].name;
      e["kind"] = tools::to_string(zoo[i].kind);
      e["species"] = zoo[i].species;
      e["shows"] = zoo[i].shows;
      e["gaits"] = reports[i].gaits;
      e["events"] = reports[i].events;
      e["death_phase"] = json_number(reports[i].death_phase);
      members.push_back(std::move(e));
    }
    j["zoo"] = std::move(members);
    nlohmann::ordered_json b;
    b["name"] = "block character";
    b["shows"] = kBlockShows;
    b["poses"] = shown.poses;
    b["max_knee"] = json_number(shown.max_knee);
    b["max_elbow"] = json_number(shown.max_elbow);
    b["max_drop"] = json_number(shown.max_drop);
    j["block_character"] = std::move(b);
    out << j.dump(2) << "\n";
  } else {
    out << "critter demo: the built-in quadruped (a skinned box creature with walk and idle "
           "clips)\n\n";
    describe_text(*model, {}, diag.items(), out);
    out << "\nthe zoo (built-in legacy creatures driven by their rigs over the " << kLoopSeconds
        << " s loop):\n";
    for (std::size_t i = 0; i < zoo.size(); ++i) {
      out << "  " << zoo[i].name << " (" << tools::to_string(zoo[i].kind) << ", " << zoo[i].species
          << "): " << zoo[i].shows << "; gaits:";
      for (const std::string& g : reports[i].gaits) out << " " << g;
      out << "\n";
    }
    out << "\nthe block character (limb animator, creatures.md): " << kBlockShows << "; poses:";
    for (const std::string& p : shown.poses) out << " " << p;
    out << "; knees up to " << format_number(shown.max_knee) << " deg, elbows up to "
        << format_number(shown.max_elbow) << " deg\n";
  }
  return kExitOk;
}

int run_demo(const DemoOptions& o, std::ostream& out, std::ostream& err) {
  if (o.info || o.json) return describe(o, out, err);
  const auto start = std::chrono::steady_clock::now();
  Result<std::pair<int, int>> size = parse_size(o.size);
  if (!size) return report(size.error(), err);
  if (o.frames < 1 || o.frames > 1000) {
    return report(Error::at(ErrorCode::kUsage, "critter demo", "--frames", "must be in 1..1000"),
                  err);
  }
  Result<Model> quadruped = build_demo_quadruped();
  if (!quadruped) return report(quadruped.error(), err);
  Result<Model> blob = build_model(make_morph_blob());
  if (!blob) return report(blob.error(), err);
  Result<Model> ground = build_model(make_ground(kGroundRadius));
  if (!ground) return report(ground.error(), err);
  const std::vector<ZooMember> zoo = make_zoo(kLoopSeconds);
  std::vector<ZooCreature> creatures;
  for (const ZooMember& m : zoo) {
    Result<ZooCreature> c = make_zoo_creature(m);
    if (!c) return report(c.error(), err);
    creatures.push_back(std::move(*c));
  }

  Result<std::unique_ptr<BlockDemo>> block = BlockDemo::create(kLoopSeconds);
  if (!block) return report(block.error(), err);

  Result<Picture> picture = Picture::create(size->first, size->second);
  if (!picture) return report(picture.error(), err);
  gl::Renderer& r = *picture->renderer;
  Result<std::unique_ptr<gl::GpuModel>> gpu_block = r.upload((*block)->model(), io::decode_image);
  if (!gpu_block) return report(gpu_block.error(), err);
  anim::Instance block_instance((*block)->model());
  Result<std::unique_ptr<gl::GpuModel>> gpu_quadruped = r.upload(*quadruped, io::decode_image);
  Result<std::unique_ptr<gl::GpuModel>> gpu_blob = r.upload(*blob, io::decode_image);
  Result<std::unique_ptr<gl::GpuModel>> gpu_ground = r.upload(*ground, io::decode_image);
  if (!gpu_quadruped) return report(gpu_quadruped.error(), err);
  if (!gpu_blob) return report(gpu_blob.error(), err);
  if (!gpu_ground) return report(gpu_ground.error(), err);
  std::vector<std::unique_ptr<gl::GpuModel>> gpu_zoo;
  std::vector<anim::Instance> zoo_instances;
  zoo_instances.reserve(creatures.size());
  for (const ZooCreature& c : creatures) {
    Result<std::unique_ptr<gl::GpuModel>> gpu = r.upload(*c.model, io::decode_image);
    if (!gpu) return report(gpu.error(), err);
    gpu_zoo.push_back(std::move(*gpu));
    zoo_instances.emplace_back(*c.model);
  }

  anim::Player walk_player(*quadruped);
  anim::Player pulse_player(*blob);
  anim::Instance walker(*quadruped);
  anim::Instance pulser(*blob);
  const int walk = quadruped->find_clip("walk");
  const float aspect = static_cast<float>(size->first) / static_cast<float>(size->second);
  std::vector<io::RgbaImage> frames;
  for (int i = 0; i < o.frames; ++i) {
    const float t = kLoopSeconds * static_cast<float>(i) / static_cast<float>(o.frames);
    pose_at(walk_player, walker, walk, t);
    pose_at(pulse_player, pulser, 0, t);
    // One lap per loop, counter-clockwise seen from above, facing along the path (the creature
    // faces +Z; yaw theta + 90 degrees turns +Z onto the tangent).
    const float theta = 2.0f * std::numbers::pi_v<float> * t / kLoopSeconds;
    mat4 walker_world = glm::translate(
        mat4(1.0f), vec3(kLapRadius * std::sin(theta), 0.0f, kLapRadius * std::cos(theta)));
    walker_world =
        glm::rotate(walker_world, theta + std::numbers::pi_v<float> * 0.5f, vec3(0.0f, 1.0f, 0.0f));

    r.begin_frame();
    gl::RenderInstance g;
    g.model = gpu_ground->get();
    g.cast_shadow = false;
    (void)r.submit(g);
    gl::RenderInstance b = posed_instance(**gpu_blob, pulser);
    b.bounds = posed_bounds(pulser);
    b.ground_height = 0.0f;
    (void)r.submit(b);
    gl::RenderInstance q = posed_instance(**gpu_quadruped, walker);
    q.world_from_model = walker_world;
    q.ground_height = 0.0f;
    (void)r.submit(q);
    for (std::size_t k = 0; k < creatures.size(); ++k) {
      CreaturePose& pose = *creatures[k].pose;
      pose.advance_to(t);
      if (Status s = pose.place(zoo_instances[k]); !s) return report(s.error(), err);
      gl::RenderInstance c = posed_instance(*gpu_zoo[k], zoo_instances[k]);
      c.world_from_model = zoo_placement(*creatures[k].member, kLoopSeconds, t);
      c.bounds = posed_bounds(zoo_instances[k]);
      c.ground_height = 0.0f;
      // A flier's blob shadow would spread under the whole stage from its height.
      c.cast_shadow = creatures[k].member->circle_radius <= 0.0f;
      c.shadow_alpha = kZooShadowAlpha;
      (void)r.submit(c);
    }

    if (Status s = (*block)->advance_to(t); !s) return report(s.error(), err);
    if (Status s = (*block)->place(block_instance); !s) return report(s.error(), err);
    gl::RenderInstance bc = posed_instance(**gpu_block, block_instance);
    bc.world_from_model = (*block)->placement(kBlockPosition, kBlockHeading);
    bc.bounds = posed_bounds(block_instance);
    bc.ground_height = 0.0f;
    bc.shadow_alpha = kZooShadowAlpha;
    (void)r.submit(bc);

    // The camera sways a little to either side of the stage's front and back.
    gl::OrbitCamera orbit;
    orbit.target = vec3(0.0f, 0.5f, 0.0f);
    orbit.yaw = -10.0f * std::sin(2.0f * std::numbers::pi_v<float> * t / kLoopSeconds);
    orbit.pitch = 26.0f;
    orbit.distance = 8.0f;
    orbit.fov_y = 38.0f;
    r.render_frame(orbit.camera(aspect), kSky);
    frames.push_back(picture->capture());
  }
  io::GifOptions gif;
  gif.frame_delay = kLoopSeconds / static_cast<float>(o.frames);
  if (Status s = create_output_folder(o.output); !s) return report(s.error(), err);
  if (Status s = io::write_gif(o.output, frames, gif); !s) return report(s.error(), err);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char took[32];
  std::snprintf(took, sizeof took, "%.2f", seconds);
  out << "critter demo: wrote " << o.output << " (" << size->first << "x" << size->second << ", "
      << o.frames << " frames, " << kLoopSeconds << " s loop) in " << took << " s\n";
  return kExitOk;
}

}  // namespace

Command add_demo_command(CLI::App& root) {
  auto options = std::make_shared<DemoOptions>();
  CLI::App* app = root.add_subcommand(
      "demo",
      "Render the built-in creatures (a walking quadruped, a morphing blob and the zoo of legacy "
      "creatures) into an animated GIF");
  app->add_option("-o,--output", options->output, "Output GIF (default demo.gif)");
  app->add_option("--size", options->size, "Image size WxH (default 400x300)");
  app->add_option("--frames", options->frames, "Frames over the 8 s loop (default 96)");
  app->add_flag(
      "--info", options->info,
      "Describe the built-in quadruped like `info` and list the zoo instead of rendering");
  app->add_flag("--json", options->json, "With --info: print the description as JSON");
  return Command{app, [options](std::ostream& out, std::ostream& err) {
                   return run_demo(*options, out, err);
                 }};
}

}  // namespace critter::cli
