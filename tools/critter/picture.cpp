// SPDX-License-Identifier: MIT
#include "picture.h"

#include <charconv>
#include <vector>

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

io::RgbaImage Picture::capture() const {
  gl::Pixels pixels = target.read_pixels();
  io::RgbaImage image;
  image.width = pixels.width;
  image.height = pixels.height;
  image.pixels = std::move(pixels.rgba);
  target.bind();
  return image;
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
