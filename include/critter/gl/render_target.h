// SPDX-License-Identifier: MIT
// RenderTarget: an offscreen framebuffer (RGBA8 colour + 24-bit depth), optionally multisampled,
// that frames are drawn into and read back from as RGBA8 pixels (capture).
#pragma once

#include <cstdint>
#include <vector>

#include "critter/core/error.h"

namespace critter::gl {

// Pixels read back from a framebuffer: RGBA8, rows top to bottom (image order, not GL's),
// width * height * 4 bytes. Alpha is as drawn (premultiplied colour over the clear colour).
struct Pixels {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;

  const std::uint8_t* at(int x, int y) const {
    return rgba.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                          static_cast<std::size_t>(x)) *
                             4;
  }
};

// Needs a current context; destroy it while the same context is current.
class RenderTarget {
 public:
  // width, height in [1, GL_MAX_RENDERBUFFER_SIZE]; samples 0 (none) or a multisample count
  // (clamped to GL_MAX_SAMPLES). Fails (kUsage) on a bad size, (kUnsupported) when the framebuffer
  // is incomplete.
  static Result<RenderTarget> create(int width, int height, int samples = 0);
  RenderTarget() = default;
  RenderTarget(RenderTarget&& o) noexcept;
  RenderTarget& operator=(RenderTarget&& o) noexcept;
  RenderTarget(const RenderTarget&) = delete;
  RenderTarget& operator=(const RenderTarget&) = delete;
  ~RenderTarget();

  int width() const { return width_; }
  int height() const { return height_; }
  int samples() const { return samples_; }
  // Binds the (multisampled) framebuffer for drawing and sets the viewport to the whole target.
  void bind() const;
  // Resolves multisampling when needed and reads the colour buffer back (glReadPixels).
  Pixels read_pixels() const;

 private:
  void release();
  int width_ = 0;
  int height_ = 0;
  int samples_ = 0;
  unsigned draw_fbo_ = 0;        // the framebuffer drawn into (multisampled when samples_ > 0)
  unsigned read_fbo_ = 0;        // single-sample resolve target; == draw_fbo_ without multisampling
  unsigned colour_[2] = {0, 0};  // renderbuffers: draw colour, resolve colour
  unsigned depth_ = 0;
};

}  // namespace critter::gl
