// `critter demo [-o demo.gif] [--size WxH] [--frames N] [--info] [--json]`: builds the built-in
// creatures in code (the quadruped walking around a morphing blob on a checkered ground), animates
// and renders them headless into an animated GIF. --info / --json describe the demo quadruped
// like `critter info` instead.
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <numbers>

#include "command.h"
#include "critter/asset/demo_creature.h"
#include "critter/io/image/image_decoder.h"
#include "demo_scene.h"
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
constexpr vec4 kSky{0.74f, 0.84f, 0.93f, 1.0f};

int describe(const DemoOptions& o, std::ostream& out, std::ostream& err) {
  Diagnostics diag;
  Result<Model> model = build_demo_quadruped(&diag);
  if (!model) return report(model.error(), err);
  if (o.json) {
    out << describe_json(*model, {}, diag.items()).dump(2) << "\n";
  } else {
    out << "critter demo: the built-in quadruped (a skinned box creature with walk and idle "
           "clips)\n\n";
    describe_text(*model, {}, diag.items(), out);
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
  Result<Model> ground = build_model(make_ground(2.6f));
  if (!ground) return report(ground.error(), err);

  Result<Picture> picture = Picture::create(size->first, size->second);
  if (!picture) return report(picture.error(), err);
  gl::Renderer& r = *picture->renderer;
  Result<std::unique_ptr<gl::GpuModel>> gpu_quadruped = r.upload(*quadruped, io::decode_image);
  Result<std::unique_ptr<gl::GpuModel>> gpu_blob = r.upload(*blob, io::decode_image);
  Result<std::unique_ptr<gl::GpuModel>> gpu_ground = r.upload(*ground, io::decode_image);
  if (!gpu_quadruped) return report(gpu_quadruped.error(), err);
  if (!gpu_blob) return report(gpu_blob.error(), err);
  if (!gpu_ground) return report(gpu_ground.error(), err);

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

    // The camera turns a quarter of the way round, against the walker, and back.
    gl::OrbitCamera orbit;
    orbit.target = vec3(0.0f, 0.3f, 0.0f);
    orbit.yaw = 20.0f - 45.0f * std::sin(2.0f * std::numbers::pi_v<float> * t / kLoopSeconds);
    orbit.pitch = 24.0f;
    orbit.distance = 4.2f;
    orbit.fov_y = 38.0f;
    r.render_frame(orbit.camera(aspect), kSky);
    frames.push_back(picture->capture());
  }
  io::GifOptions gif;
  gif.frame_delay = kLoopSeconds / static_cast<float>(o.frames);
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
      "Render the built-in creatures (a walking quadruped, a morphing blob) into an animated GIF");
  app->add_option("-o,--output", options->output, "Output GIF (default demo.gif)");
  app->add_option("--size", options->size, "Image size WxH (default 400x300)");
  app->add_option("--frames", options->frames, "Frames over the 8 s loop (default 96)");
  app->add_flag("--info", options->info,
                "Describe the built-in quadruped like `info` instead of rendering");
  app->add_flag("--json", options->json, "With --info: print the description as JSON");
  return Command{app, [options](std::ostream& out, std::ostream& err) {
                   return run_demo(*options, out, err);
                 }};
}

}  // namespace critter::cli
