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

namespace critter::cli {

struct Picture {
  std::unique_ptr<gl::HeadlessContext> context;
  std::unique_ptr<gl::Renderer> renderer;
  gl::RenderTarget target;

  // A headless context, a renderer and a 4x multisampled target of width x height.
  static Result<Picture> create(int width, int height);
  // Resolves and reads the target back.
  io::RgbaImage capture() const;
};

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
