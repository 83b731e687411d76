// SPDX-License-Identifier: MIT
// What `critter render` and `critter demo` share: a headless renderer with an offscreen target,
// posing an instance at a clip time, skinned bounds for framing, and capture to io images.
#pragma once

#include <memory>
#include <string>

#include "../common/posed_bounds.h"
#include "critter/anim/instance.h"
#include "critter/anim/player.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/gl/context.h"
#include "critter/gl/render_target.h"
#include "critter/gl/renderer.h"
#include "critter/io/image/image_writer.h"
#include "ground_grid.h"

namespace critter::cli {

// The share of the limiting image dimension (height or width) a framed model's projected bounds
// fill.
inline constexpr float kPictureFill = 0.8f;

// How a picture looks around the model (--background, --grid).
struct PictureStyle {
  vec4 background{0.80f, 0.86f, 0.92f, 1.0f};  // straight RGBA; alpha 0: transparent
  bool grid = false;                           // lines on the ground plane under the model

  bool transparent() const { return background.w < 1.0f; }
};

// Parses a --background value: "transparent", "#RRGGBB" or one of the names white, black, grey
// and sky (the default). Fails (kUsage) naming the flag.
Result<vec4> parse_background(const std::string& text);

struct Picture {
  std::unique_ptr<gl::HeadlessContext> context;
  std::unique_ptr<gl::Renderer> renderer;
  std::unique_ptr<GroundGrid> grid;  // made by the first draw() with a grid
  gl::RenderTarget target;

  // A headless context, a renderer and a 4x multisampled target of width x height.
  static Result<Picture> create(int width, int height);
  // Binds the target, clears it to the style's background and draws the style's ground grid at
  // the bottom of `bounds` (world space, the posed bounds of what is shown).
  Status clear(const gl::Camera& camera, const PictureStyle& style, const Aabb& bounds);
  // One frame of the instances submitted to `renderer` since its begin_frame(): clears to the
  // style's background with its ground grid (clear()), then the renderer's passes with the blob
  // shadows.
  Status draw(const gl::Camera& camera, const PictureStyle& style, const Aabb& bounds);
  // Resolves and reads the target back. `straight`: colours divided by alpha (the target holds
  // premultiplied colours), as PNG and GIF files store them; an opaque picture is the same
  // either way.
  io::RgbaImage capture(bool straight = false) const;
};

// The blob shadow of a picture's model whose posed bounds (world space) are `bounds`: on the
// ground plane at their lowest point (exactly: below every vertex), sized to their footprint (at
// least a quarter of their height, so a thin creature still stands on one), at full strength at any
// camera distance.
void place_shadow(gl::RenderInstance& instance, const Aabb& bounds);

// An orbit camera at `yaw` and `pitch` (degrees) aimed so that the projection of `bounds`'
// corners is centred and fills `fill` of the limiting image dimension of a viewport of `aspect`
// (perspective: by the distance, orthographic: by the visible height). An empty box frames a
// unit box at the origin.
gl::OrbitCamera frame_to_fill(const Aabb& bounds, float aspect, float yaw, float pitch,
                              bool orthographic, float fill = kPictureFill);

// Plays clip `clip` on `player` LoopForward from its start advanced to clip time `t` (seconds;
// clip -1: the rest pose), then poses `instance` from it.
void pose_at(anim::Player& player, anim::Instance& instance, int clip, float t);

// The instance's matrices and morph weights as the renderer takes them, drawn with `model`
// (world_from_model identity: the instance's root is already applied).
gl::RenderInstance posed_instance(const gl::GpuModel& model, const anim::Instance& instance);

using tools::posed_bounds;

// Parses "WxH" (each 1..4096); fails (kUsage) naming the option.
Result<std::pair<int, int>> parse_size(const std::string& text);

}  // namespace critter::cli
