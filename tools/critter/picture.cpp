// SPDX-License-Identifier: MIT
#include "picture.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

#include "critter/core/strings.h"

namespace critter::cli {

Result<Picture> Picture::create(int width, int height) {
  Picture p;
  Result<std::unique_ptr<gl::HeadlessContext>> context = gl::HeadlessContext::create();
  if (!context) return fail(context.error());
  p.context = std::move(*context);
  Result<std::unique_ptr<gl::Renderer>> renderer = gl::Renderer::create();
  if (!renderer) return fail(renderer.error());
  p.renderer = std::move(*renderer);
  Result<gl::RenderTarget> target = gl::RenderTarget::create(width, height, 4);
  if (!target) return fail(target.error());
  p.target = std::move(*target);
  p.target.bind();
  return p;
}

Status Picture::clear(const gl::Camera& camera, const PictureStyle& style, const Aabb& bounds) {
  const vec4 bg = style.background;
  target.bind();
  glClearColor(bg.x * bg.w, bg.y * bg.w, bg.z * bg.w, bg.w);
  glClearDepth(1.0);
  glDepthMask(GL_TRUE);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (style.grid && !bounds.empty()) {
    if (!grid) {
      Result<std::unique_ptr<GroundGrid>> made = GroundGrid::create();
      if (!made) return fail(made.error());
      grid = std::move(*made);
    }
    const vec3 size = bounds.extent();
    const float across = std::max({size.x, size.z, size.y});
    // Darker than a light background, lighter than a dark one; mid grey over a transparent one.
    const float luma = 0.3f * bg.x + 0.59f * bg.y + 0.11f * bg.z;
    vec4 colour(0.35f, 0.35f, 0.35f, 0.7f);
    if (!style.transparent()) {
      colour = luma < 0.45f ? vec4(glm::mix(vec3(bg), vec3(1.0f), 0.35f), 0.8f)
                            : vec4(vec3(bg) * 0.55f, 0.8f);
    }
    grid->draw(camera, bounds.center(), bounds.min.y, 1.5f * across,
               GroundGrid::spacing_for(3.0f * across), colour);
  }
  return {};
}

Status Picture::draw(const gl::Camera& camera, const PictureStyle& style, const Aabb& bounds) {
  if (Status s = clear(camera, style, bounds); !s) return s;
  renderer->prepare(camera);
  renderer->draw(RenderMode::kSolid);
  renderer->draw(RenderMode::kAlphaThreshold);
  renderer->draw_shadows();
  renderer->draw(RenderMode::kTransparentBeforeWater);
  renderer->draw(RenderMode::kTransparentAfterWater);
  return {};
}

io::RgbaImage Picture::capture(bool straight) const {
  gl::Pixels pixels = target.read_pixels();
  io::RgbaImage image;
  image.width = pixels.width;
  image.height = pixels.height;
  image.pixels = std::move(pixels.rgba);
  if (straight) {
    for (std::size_t i = 0; i + 3 < image.pixels.size(); i += 4) {
      const int a = image.pixels[i + 3];
      if (a == 0 || a == 255) continue;
      for (std::size_t k = 0; k < 3; ++k) {
        image.pixels[i + k] =
            static_cast<std::uint8_t>(std::min(255, (image.pixels[i + k] * 255 + a / 2) / a));
      }
    }
  }
  target.bind();
  return image;
}

Result<vec4> parse_background(const std::string& text) {
  struct Named {
    std::string_view name;
    vec4 colour;
  };
  static constexpr std::array<Named, 5> kNames = {{
      {"transparent", vec4(0.0f)},
      {"sky", vec4(0.80f, 0.86f, 0.92f, 1.0f)},
      {"white", vec4(1.0f)},
      {"black", vec4(0.0f, 0.0f, 0.0f, 1.0f)},
      {"grey", vec4(0.5f, 0.5f, 0.5f, 1.0f)},
  }};
  for (const Named& n : kNames) {
    if (iequals(text, n.name)) return n.colour;
  }
  if (text.size() == 7 && text[0] == '#') {
    unsigned value = 0;
    const auto r = std::from_chars(text.data() + 1, text.data() + 7, value, 16);
    if (r.ec == std::errc() && r.ptr == text.data() + 7) {
      return vec4(static_cast<float>((value >> 16) & 255u) / 255.0f,
                  static_cast<float>((value >> 8) & 255u) / 255.0f,
                  static_cast<float>(value & 255u) / 255.0f, 1.0f);
    }
  }
  return fail(
      Error::at(ErrorCode::kUsage, "--background", "",
                "expected transparent, #RRGGBB, white, black, grey or sky, got '" + text + "'"));
}

void place_shadow(gl::RenderInstance& instance, const Aabb& bounds) {
  if (bounds.empty()) return;
  const vec3 size = bounds.extent();
  // The blob fades from 30 % of its radius outward: 1.5 x the footprint's half diagonal shows it
  // around the whole footprint.
  const float radius = std::max(0.75f * std::hypot(size.x, size.z), 0.25f * size.y);
  // The renderer lifts a blob off the ground by min(2 cm, 1 % of its radius) against z-fighting
  // with terrain; a picture has no terrain, so the blob goes down by as much and lies exactly
  // at the feet.
  instance.ground_height = bounds.min.y - std::min(0.02f, 0.01f * radius);
  instance.shadow_radius = radius;
  instance.shadow_fades = false;
}

gl::OrbitCamera frame_to_fill(const Aabb& bounds, float aspect, float yaw, float pitch,
                              bool orthographic, float fill) {
  Aabb box = bounds;
  if (box.empty()) {
    box.expand(vec3(-0.5f));
    box.expand(vec3(0.5f));
  }
  gl::OrbitCamera o = gl::frame_bounds(box, aspect, yaw, pitch, orthographic);
  const float radius = std::max(glm::length(box.extent()) * 0.5f, 1e-4f);
  const float tan_v = std::tan(glm::radians(o.fov_y) * 0.5f);
  const float tan_h = tan_v * aspect;
  std::array<vec3, 8> corners;
  for (int i = 0; i < 8; ++i) {
    corners[static_cast<std::size_t>(i)] =
        vec3((i & 1) ? box.max.x : box.min.x, (i & 2) ? box.max.y : box.min.y,
             (i & 4) ? box.max.z : box.min.z);
  }
  // The view's rotation does not depend on the distance or the target: corners relative to the
  // target in view axes, the eye then `distance` behind along -z. A few rounds of fitting the
  // distance and re-centring the projected box converge (the centring moves the box by little).
  for (int round = 0; round < 4; ++round) {
    gl::OrbitCamera unit = o;
    unit.distance = 1.0f;
    const mat4 view = unit.camera(aspect).view;
    const glm::mat3 axes =
        glm::transpose(glm::mat3(view));  // columns: right, up, back in world space
    float need = 0.0f;
    std::array<vec3, 8> q;
    for (std::size_t i = 0; i < 8; ++i) {
      q[i] = glm::mat3(view) * (corners[i] - o.target);
      if (orthographic) {
        need = std::max({need, std::abs(q[i].y), std::abs(q[i].x) / aspect});
      } else {
        need = std::max({need, q[i].z + std::abs(q[i].x) / (fill * tan_h),
                         q[i].z + std::abs(q[i].y) / (fill * tan_v)});
      }
    }
    if (orthographic) {
      o.ortho_height = 2.0f * need / fill;
    } else {
      o.distance = std::max(need, 1e-3f);
    }
    // The projected box's centre, in view units at the target's depth, moved onto the axis.
    vec2 lo(1e30f), hi(-1e30f);
    for (const vec3& v : q) {
      const float scale = orthographic ? 1.0f : o.distance / (o.distance - v.z);
      const vec2 p = vec2(v.x, v.y) * scale;
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
    const vec2 mid = (lo + hi) * 0.5f;
    o.target += axes[0] * mid.x + axes[1] * mid.y;
  }
  if (orthographic) {
    o.distance = radius * 3.0f;
  }
  o.near_plane = std::max(o.distance - radius * 2.5f, o.distance * 1e-3f);
  o.far_plane = o.distance + radius * 4.0f;
  return o;
}

void pose_at(anim::Player& player, anim::Instance& instance, int clip, float t) {
  if (clip < 0) {
    player.stop();
    player.update(0.0f);
  } else {
    // A fresh hard-cut play advanced by t lands exactly on t (wrapped by the loop).
    (void)player.play(clip, anim::PlaybackMode::kLoopForward);
    player.update(t);
    player.clear_records();
  }
  // The player's pose and weights are sized for the instance's model: pose() cannot refuse.
  (void)instance.pose(player.local_pose(), player.weights());
}

gl::RenderInstance posed_instance(const gl::GpuModel& model, const anim::Instance& instance) {
  gl::RenderInstance r;
  r.model = &model;
  r.model_transforms = instance.model_transforms();
  r.morph_weights = instance.morph_weights();
  return r;
}

Result<std::pair<int, int>> parse_size(const std::string& text) {
  const std::size_t x = text.find_first_of("xX");
  int w = 0;
  int h = 0;
  bool ok = x != std::string::npos;
  if (ok) {
    const auto a = std::from_chars(text.data(), text.data() + x, w);
    const auto b = std::from_chars(text.data() + x + 1, text.data() + text.size(), h);
    ok = a.ec == std::errc() && a.ptr == text.data() + x && b.ec == std::errc() &&
         b.ptr == text.data() + text.size() && w >= 1 && h >= 1 && w <= 4096 && h <= 4096;
  }
  if (!ok) {
    return fail(Error::at(ErrorCode::kUsage, "--size", text,
                          "expected WIDTHxHEIGHT with each in 1..4096, e.g. 320x240"));
  }
  return std::pair{w, h};
}

}  // namespace critter::cli
