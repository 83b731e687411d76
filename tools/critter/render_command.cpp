// SPDX-License-Identifier: MIT
// `critter render FILE [--anim NAME] [--time T | --frames N --fps F] [--size WxH]
//  [--camera yaw,pitch,distance] [--ortho] [--turntable] [--sheet N] [--crowd N]
//  [--config C.json [--param NAME=VALUE ...]] [--creature KIND [--state NAME=VALUE ...]]
//  [--timeline FILE.json] -o out.png|out.gif`:
// pictures of a model through the OpenGL renderer on a headless (EGL surfaceless) context. With
// --config the pose comes from the config's controller simulated to each frame's time, with
// --creature from a legacy creature rig simulated the same way.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command.h"
#include "controller_flags.h"
#include "creature_flags.h"
#include "creature_pose.h"
#include "critter/core/strings.h"
#include "critter/io/image/image_decoder.h"
#include "critter/io/load.h"
#include "crowd_render.h"
#include "label_font.h"
#include "limb_pose.h"
#include "limbs_arg.h"
#include "opened_pose.h"
#include "picture.h"

namespace critter::cli {
namespace {

struct RenderOptions {
  std::string file;
  std::string output;
  std::string anim;
  std::optional<float> time;
  std::optional<int> frames;
  float fps = 15.0f;
  std::string size = "320x240";
  std::string camera;
  bool ortho = false;
  bool turntable = false;
  int sheet = 0;
  LoadFlags load;
  std::vector<std::string> textures;
  int crowd = 0;
  ControllerFlags controller;
  CreatureFlags creature;
  LimbFlags limbs;
  std::string timeline;
  std::string background = "sky";
  bool grid = false;
};

constexpr int kMaxFrames = 1000;
// Length of a --config GIF without --frames, seconds: two 1 s walk cycles, a settle included.
constexpr float kControllerGifSeconds = 2.0f;

Error usage(std::string location, std::string message) {
  return Error::at(ErrorCode::kUsage, "critter render", std::move(location), std::move(message));
}

struct CameraSpec {
  float yaw = 30.0f;
  float pitch = 20.0f;
  float distance = 0.0f;  // 0: automatic
};

Result<CameraSpec> parse_camera(const std::string& text) {
  CameraSpec c;
  if (text.empty()) return c;
  float v[3] = {c.yaw, c.pitch, 0.0f};
  std::size_t start = 0;
  int n = 0;
  bool ok = true;
  while (ok && n < 3 && start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const auto r = std::from_chars(text.data() + start, text.data() + comma, v[n]);
    ok = r.ec == std::errc() && r.ptr == text.data() + comma && std::isfinite(v[n]);
    ++n;
    start = comma + 1;
  }
  if (!ok || n < 2 || start <= text.size() || v[2] < 0.0f) {
    return fail(usage("--camera",
                      "expected yaw,pitch[,distance] in degrees and metres, e.g. "
                      "30,20 or 30,20,4 (distance > 0)"));
  }
  c.yaw = v[0];
  c.pitch = std::clamp(v[1], -89.0f, 89.0f);
  c.distance = v[2];
  return c;
}

int run_render(const RenderOptions& o, std::ostream& out, std::ostream& err) {
  const bool gif = iends_with(o.output, ".gif");
  if (!gif && !iends_with(o.output, ".png")) {
    return report(usage("-o", "the output must end in .png or .gif: '" + o.output + "'"), err);
  }
  if (o.sheet > 0 && gif) return report(usage("--sheet", "a contact sheet is a .png"), err);
  if (o.time && (o.frames || o.sheet > 0)) {
    return report(usage("--time", "--time picks one frame; it cannot go with --frames or --sheet"),
                  err);
  }
  if (o.frames && !gif) {
    return report(usage("--frames", "--frames makes an animated .gif; use --sheet for a .png"),
                  err);
  }
  if (!(o.fps > 0.0f && o.fps <= 100.0f)) return report(usage("--fps", "must be in (0, 100]"), err);
  if (o.frames && !(*o.frames >= 1 && *o.frames <= kMaxFrames)) {
    return report(usage("--frames", "must be in 1.." + std::to_string(kMaxFrames)), err);
  }
  if (o.time && !(std::isfinite(*o.time) && *o.time >= 0.0f)) {
    return report(usage("--time", "time must be a finite number >= 0"), err);
  }
  const PoseSources sources{.config = !o.controller.config.empty(),
                            .params = !o.controller.params.empty(),
                            .anim = !o.anim.empty(),
                            .timeline = !o.timeline.empty(),
                            .limbs = o.limbs.limbs};
  if (Status s = check_creature_usage(o.creature, sources, "critter render"); !s)
    return report(s.error(), err);
  if (Status s = check_limb_usage(o.limbs, "critter render"); !s) return report(s.error(), err);
  const bool creature = !o.creature.creature.empty();
  std::optional<CreatureSpec> spec;
  if (creature) {
    Result<CreatureSpec> parsed = parse_creature_flags(o.creature, "critter render");
    if (!parsed) return report(parsed.error(), err);
    spec = std::move(*parsed);
  }
  const bool controlled = !o.controller.config.empty() || creature;
  if (controlled) {
    if (!o.anim.empty()) {
      return report(usage("--anim",
                          "--anim plays one clip; with --config the controller's rules pick the "
                          "animations"),
                    err);
    }
    if (o.crowd > 0) {
      return report(usage("--crowd", creature ? "a crowd cannot take --creature"
                                              : "a crowd cannot take --config"),
                    err);
    }
    if (o.sheet > 0) {
      return report(usage("--sheet",
                          "a contact sheet spreads one clip; with --config use --time for a "
                          "PNG or --frames for a GIF"),
                    err);
    }
    if (o.time && !(std::isfinite(*o.time) && *o.time >= 0.0f && *o.time <= kMaxControllerTime)) {
      return report(
          usage("--time", "with --config a time must be in [0, " +
                              std::to_string(static_cast<int>(kMaxControllerTime)) + "] seconds"),
          err);
    }
  } else if (!o.controller.params.empty()) {
    return report(usage("--param", "--param sets a parameter of --config"), err);
  }
  if (o.controller.config.empty() && !o.controller.rotation_blend.empty())
    return report(
        usage("--rotation-blend", "--rotation-blend sets how the controller of --config blends"),
        err);
  Result<std::pair<int, int>> size = parse_size(o.size);
  if (!size) return report(size.error(), err);
  Result<CameraSpec> cam = parse_camera(o.camera);
  if (!cam) return report(cam.error(), err);
  PictureStyle style;
  style.grid = o.grid;
  Result<vec4> background = parse_background(o.background);
  if (!background) return report(background.error(), err);
  style.background = *background;

  std::optional<Timeline> timeline;
  if (!o.timeline.empty()) {
    Result<Timeline> t = Timeline::load(o.timeline);
    if (!t) return report(t.error(), err);
    timeline = std::move(*t);
  }

  Result<io::LoadOptions> load_options = load_options_from(o.load);
  if (!load_options) return report(load_options.error(), err);
  Result<std::vector<io::TextureOverride>> textures = texture_overrides_from(o.textures);
  if (!textures) return report(textures.error(), err);
  Diagnostics diag;
  Diagnostics limb_diag;
  Result<Model> loaded =
      tools::with_limbs(with_textures(load_model(o.file, *load_options, &diag), *textures),
                        o.limbs.limbs, &limb_diag);
  if (!loaded) return report(loaded.error(), err);
  for (const Warning& w : limb_diag.items()) err << w.to_string() << "\n";
  const auto model = std::make_shared<const Model>(std::move(*loaded));
  Result<OpenedPose> opened =
      open_pose(pose_request(o, spec, *load_options, timeline), model, &diag);
  if (!opened) return report(opened.error(), err);
  if (opened->controller) print_warnings(diag.items(), err);
  std::optional<ControllerPose>& controller = opened->controller;
  std::optional<CreaturePose>& simulated = opened->simulated;
  std::optional<LimbPose>& limbs = opened->limbs;
  const int clip = opened->clip;
  const float duration =
      clip >= 0 ? model->clips()[static_cast<std::size_t>(clip)].duration() : 0.0f;

  if (o.crowd > 0) {
    if (o.sheet > 0) {
      return report(usage("--crowd", "a crowd picture is a .png frame or a .gif, not a sheet"),
                    err);
    }
    CrowdRender request;
    request.model = &*model;
    request.clip = clip;
    request.count = o.crowd;
    request.width = size->first;
    request.height = size->second;
    request.output = o.output;
    request.style = style;
    if (gif) {
      request.gif_frames = o.frames.value_or(
          duration > 0.0f
              ? std::clamp(static_cast<int>(std::lround(duration * o.fps)), 1, kMaxFrames)
              : 1);
      request.fps = o.fps;
    }
    return render_crowd(request, out, err);
  }

  // Frame times (seconds) and, for turntables, one camera yaw per frame.
  std::vector<float> times;
  if (o.sheet > 0) {
    for (int i = 0; i < o.sheet; ++i) {
      times.push_back(duration * static_cast<float>(i) / static_cast<float>(o.sheet));
    }
  } else if (gif) {
    int n = o.frames.value_or(0);
    if (n <= 0) {
      const float length = controlled ? kControllerGifSeconds : duration;
      n = length > 0.0f ? static_cast<int>(std::lround(length * o.fps)) : 1;
      if (o.turntable) n = std::max(n, static_cast<int>(std::lround(4.0f * o.fps)));
    }
    n = std::clamp(n, 1, kMaxFrames);
    for (int i = 0; i < n; ++i) times.push_back(static_cast<float>(i) / o.fps);
  } else {
    times.push_back(o.time.value_or(controlled ? kDefaultSettleTime : 0.0f));
  }
  if (o.sheet > kMaxFrames) return report(usage("--sheet", "at most 1000 frames"), err);

  Result<Picture> picture = Picture::create(size->first, size->second);
  if (!picture) return report(picture.error(), err);
  Diagnostics gpu_diag;
  const Model& shown = controller ? controller->model() : *model;
  Result<std::unique_ptr<gl::GpuModel>> gpu =
      picture->renderer->upload(shown, io::decode_image, &gpu_diag);
  if (!gpu) return report(gpu.error(), err);
  print_warnings(gpu_diag.items(), err);

  // One camera distance for every frame: frame the union of the posed bounds. A controller is
  // simulated twice from the start (framing pass, then drawing pass); it is deterministic.
  anim::Player player(shown);
  anim::Instance instance(shown);
  auto pose_frame = [&](std::size_t i) -> Status {
    if (follows(*opened)) {
      if (i == 0) {
        if (Status s = restart_followed(*opened, instance); !s) return s;
      }
      return advance_followed(*opened, times[i], instance);
    }
    if (limbs) {
      if (i == 0) {
        if (Status s = limbs->restart(); !s) return s;
      }
      if (Status s = limbs->advance_to(times[i]); !s) return s;
      return limbs->place(instance);
    }
    if (simulated) {
      if (i == 0) {
        if (Status s = simulated->restart(); !s) return s;
      }
      simulated->advance_to(times[i]);
      return simulated->place(instance);
    }
    if (!controller) {
      pose_at(player, instance, clip, times[i]);
      return {};
    }
    if (i == 0) controller->restart();
    controller->advance_to(times[i]);
    return controller->place(instance);
  };
  Aabb bounds;
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (Status s = pose_frame(i); !s) return report(s.error(), err);
    bounds.expand(posed_bounds(instance));
  }
  const float aspect = static_cast<float>(size->first) / static_cast<float>(size->second);

  // The camera of each frame. A turntable keeps one distance (the largest any of its angles
  // needs) and aims at the box's centre, so the model turns in place without zooming.
  auto camera_at = [&](float yaw) {
    gl::OrbitCamera orbit = frame_to_fill(bounds, aspect, yaw, cam->pitch, o.ortho);
    if (cam->distance > 0.0f) {
      orbit.ortho_height *= cam->distance / orbit.distance;
      orbit.distance = cam->distance;
      orbit.near_plane = 0.0f;
      orbit.far_plane = 0.0f;
    }
    return orbit;
  };
  std::vector<gl::OrbitCamera> cameras;
  for (std::size_t i = 0; i < times.size(); ++i) {
    float yaw = cam->yaw;
    if (o.turntable) yaw += 360.0f * static_cast<float>(i) / static_cast<float>(times.size());
    cameras.push_back(camera_at(yaw));
  }
  if (o.turntable) {
    gl::OrbitCamera widest = cameras[0];
    for (const gl::OrbitCamera& c : cameras) {
      widest.distance = std::max(widest.distance, c.distance);
      widest.ortho_height = std::max(widest.ortho_height, c.ortho_height);
      widest.far_plane = std::max(widest.far_plane, c.far_plane);
    }
    for (gl::OrbitCamera& c : cameras) {
      c.target = bounds.empty() ? vec3(0.0f) : bounds.center();
      c.distance = widest.distance;
      c.ortho_height = widest.ortho_height;
      c.far_plane = widest.far_plane;
    }
  }

  std::vector<io::RgbaImage> frames;
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (Status s = pose_frame(i); !s) return report(s.error(), err);
    gl::Renderer& r = *picture->renderer;
    r.begin_frame();
    gl::RenderInstance ri = posed_instance(**gpu, instance);
    ri.bounds = bounds;
    place_shadow(ri, bounds);
    // A GIF pixel is opaque or clear: a see-through blob would become a black disc.
    if (gif && style.transparent()) ri.cast_shadow = false;
    if (Status s = r.submit(ri); !s) return report(s.error(), err);
    if (Status s = picture->draw(cameras[i].camera(aspect), style, bounds); !s)
      return report(s.error(), err);
    frames.push_back(picture->capture(style.transparent()));
  }

  if (Status folder = create_output_folder(o.output); !folder) return report(folder.error(), err);
  Status written;
  int out_w = size->first;
  int out_h = size->second;
  if (o.sheet > 0) {
    const int cols = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(o.sheet))));
    const int rows = (o.sheet + cols - 1) / cols;
    io::RgbaImage sheet;
    sheet.width = out_w = cols * size->first;
    sheet.height = out_h = rows * size->second;
    // Unused cells show the background; each used cell its time in its bottom-left corner.
    const vec4 bg = style.background;
    const std::uint8_t fill[4] = {static_cast<std::uint8_t>(std::lround(bg.x * 255.0f)),
                                  static_cast<std::uint8_t>(std::lround(bg.y * 255.0f)),
                                  static_cast<std::uint8_t>(std::lround(bg.z * 255.0f)),
                                  static_cast<std::uint8_t>(std::lround(bg.w * 255.0f))};
    sheet.pixels.resize(sheet.byte_count());
    for (std::size_t p = 0; p < sheet.pixels.size(); p += 4) std::copy_n(fill, 4, &sheet.pixels[p]);
    const float luma = 0.3f * bg.x + 0.59f * bg.y + 0.11f * bg.z;
    const unsigned char ink[4] = {
        static_cast<unsigned char>(bg.w > 0.0f && luma < 0.45f ? 235 : 40),
        static_cast<unsigned char>(bg.w > 0.0f && luma < 0.45f ? 235 : 40),
        static_cast<unsigned char>(bg.w > 0.0f && luma < 0.45f ? 235 : 40), 255};
    const int scale = size->second >= 200 ? 2 : 1;
    const std::size_t row_bytes = static_cast<std::size_t>(size->first) * 4;
    for (std::size_t i = 0; i < frames.size(); ++i) {
      const int cx = static_cast<int>(i) % cols;
      const int cy = static_cast<int>(i) / cols;
      for (int y = 0; y < size->second; ++y) {
        const std::size_t dst = (static_cast<std::size_t>(cy * size->second + y) *
                                     static_cast<std::size_t>(sheet.width) +
                                 static_cast<std::size_t>(cx * size->first)) *
                                4;
        std::copy_n(frames[i].pixels.data() + static_cast<std::size_t>(y) * row_bytes, row_bytes,
                    sheet.pixels.data() + dst);
      }
      char label[32];
      std::snprintf(label, sizeof label, "%.2f s", static_cast<double>(times[i]));
      const int margin = 2 * scale + 1;
      draw_label(sheet, cx * size->first + margin,
                 (cy + 1) * size->second - margin - label_height(scale), label, scale, ink);
    }
    written = io::write_png(o.output, sheet);
  } else if (gif) {
    io::GifOptions gif_options;
    gif_options.frame_delay = 1.0f / o.fps;
    gif_options.transparent = style.transparent();
    written = io::write_gif(o.output, frames, gif_options);
  } else {
    written = io::write_png(o.output, frames[0]);
  }
  if (!written) return report(written.error(), err);
  if (controller) {
    print_fired(controller->fired(), err);
    print_warnings(controller->runtime_warnings(), err);
  }
  if (simulated) {
    print_creature_events(simulated->info().events, err);
  }
  out << "wrote " << o.output << " (" << out_w << "x" << out_h << ", " << frames.size()
      << (frames.size() == 1 ? " frame" : " frames") << ")\n";
  return kExitOk;
}

}  // namespace

Command add_render_command(CLI::App& root) {
  auto o = std::make_shared<RenderOptions>();
  CLI::App* app = root.add_subcommand(
      "render", "Render a model to a PNG (one frame or a contact sheet) or an animated GIF");
  app->add_option("file", o->file, "Model file (glTF, GLB, Collada, B3D, OBJ, .model, ...)")
      ->required();
  app->add_option("-o,--output", o->output, "Output image: .png or .gif")->required();
  app->add_option("--anim", o->anim, "Clip name or index (default: the first clip)");
  app->add_option("--time", o->time,
                  "Clip time in seconds of a single PNG frame (default 0; with --config the "
                  "simulated time, default 1)");
  app->add_option("--frames", o->frames, "GIF frames (default: the clip's length at --fps)");
  app->add_option("--fps", o->fps, "GIF frames per second (default 15)");
  app->add_option("--size", o->size, "Image (or sheet cell) size WxH (default 320x240)");
  app->add_option("--camera", o->camera,
                  "Orbit camera yaw,pitch[,distance] in degrees and metres (default 30,20, "
                  "distance framed automatically)");
  app->add_flag("--ortho", o->ortho, "Orthographic projection");
  app->add_flag("--turntable", o->turntable, "Turn the camera once around the model over the GIF");
  app->add_option("--sheet", o->sheet, "Contact sheet of N frames spread over the clip (PNG)")
      ->check(CLI::Range(1, 1000));
  app->add_option("--crowd", o->crowd,
                  "Draw N creatures of the model on a grid as one instanced crowd; prints draw "
                  "calls and frame time")
      ->check(CLI::Range(1, 1000000));
  app->add_option("--background", o->background,
                  "Background: transparent (PNG alpha, GIF transparent colour), #RRGGBB, white, "
                  "black, grey or sky (default)");
  app->add_flag("--grid", o->grid, "Draw a grid on the ground plane under the model");
  add_load_flags(app, o->load);
  add_limbs_flag(app, o->limbs.limbs);
  add_texture_flag(app, o->textures);
  add_controller_flags(app, o->controller);
  add_creature_flags(app, o->creature);
  add_motion_flag(app, o->limbs);
  add_timeline_flag(app, o->timeline);
  app->footer(creature_state_help() + "\n" + legacy_driver_param_help() + "\n" + timeline_help() +
              "\n" + tools::limb_motion_help());
  return Command{app,
                 [o](std::ostream& out, std::ostream& err) { return run_render(*o, out, err); }};
}

}  // namespace critter::cli
