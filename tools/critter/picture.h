// What `critter render` and `critter demo` share: a headless renderer with an offscreen target,
// posing an instance at a clip time, skinned bounds for framing, and capture to io images.
#pragma once

#include <memory>
#include <string>

#include "critter/anim/instance.h"
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

// Poses `instance` at clip time `t` (seconds) of clip `clip` played LoopForward (clip -1: rest).
void pose_at(anim::Instance& instance, int clip, float t);

// Model-space bounds of every mesh vertex in the instance's current pose (CPU skinning).
Aabb posed_bounds(const anim::Instance& instance);

// Parses "WxH" (each 1..4096); fails (kUsage) naming the option.
Result<std::pair<int, int>> parse_size(const std::string& text);

}  // namespace critter::cli
