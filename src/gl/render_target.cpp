// SPDX-License-Identifier: MIT
#include "critter/gl/render_target.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

namespace critter::gl {

Result<RenderTarget> RenderTarget::create(int width, int height, int samples) {
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  if (width < 1 || height < 1 || width > max_size || height > max_size) {
    return fail(Error::at(ErrorCode::kUsage, "render target", "size",
                          "size " + std::to_string(width) + "x" + std::to_string(height) +
                              " is outside 1.." + std::to_string(max_size)));
  }
  GLint max_samples = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  RenderTarget t;
  t.width_ = width;
  t.height_ = height;
  t.samples_ = std::clamp(samples, 0, static_cast<int>(max_samples));

  glGenRenderbuffers(2, t.colour_);
  glGenRenderbuffers(1, &t.depth_);
  glGenFramebuffers(1, &t.draw_fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, t.draw_fbo_);
  glBindRenderbuffer(GL_RENDERBUFFER, t.colour_[0]);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, t.samples_, GL_RGBA8, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, t.colour_[0]);
  glBindRenderbuffer(GL_RENDERBUFFER, t.depth_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, t.samples_, GL_DEPTH_COMPONENT24, width,
                                   height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, t.depth_);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    return fail(Error::at(ErrorCode::kUnsupported, "render target", "framebuffer",
                          "incomplete RGBA8 + depth24 framebuffer"));
  }
  if (t.samples_ > 0) {
    glGenFramebuffers(1, &t.read_fbo_);
    glBindFramebuffer(GL_FRAMEBUFFER, t.read_fbo_);
    glBindRenderbuffer(GL_RENDERBUFFER, t.colour_[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, t.colour_[1]);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      return fail(Error::at(ErrorCode::kUnsupported, "render target", "framebuffer",
                            "incomplete resolve framebuffer"));
    }
  } else {
    t.read_fbo_ = t.draw_fbo_;
  }
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, t.draw_fbo_);
  return t;
}

RenderTarget::RenderTarget(RenderTarget&& o) noexcept {
  *this = std::move(o);
}

RenderTarget& RenderTarget::operator=(RenderTarget&& o) noexcept {
  if (this != &o) {
    release();
    width_ = std::exchange(o.width_, 0);
    height_ = std::exchange(o.height_, 0);
    samples_ = std::exchange(o.samples_, 0);
    draw_fbo_ = std::exchange(o.draw_fbo_, 0u);
    read_fbo_ = std::exchange(o.read_fbo_, 0u);
    colour_[0] = std::exchange(o.colour_[0], 0u);
    colour_[1] = std::exchange(o.colour_[1], 0u);
    depth_ = std::exchange(o.depth_, 0u);
  }
  return *this;
}

RenderTarget::~RenderTarget() {
  release();
}

void RenderTarget::release() {
  if (draw_fbo_ == 0) return;
  if (read_fbo_ != draw_fbo_) glDeleteFramebuffers(1, &read_fbo_);
  glDeleteFramebuffers(1, &draw_fbo_);
  glDeleteRenderbuffers(2, colour_);
  glDeleteRenderbuffers(1, &depth_);
  draw_fbo_ = read_fbo_ = depth_ = colour_[0] = colour_[1] = 0;
}

void RenderTarget::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, draw_fbo_);
  glViewport(0, 0, width_, height_);
}

Pixels RenderTarget::read_pixels() const {
  if (read_fbo_ != draw_fbo_) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, draw_fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, read_fbo_);
    glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, read_fbo_);
  Pixels p;
  p.width = width_;
  p.height = height_;
  const std::size_t row = static_cast<std::size_t>(width_) * 4;
  std::vector<std::uint8_t> gl_order(row * static_cast<std::size_t>(height_));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, gl_order.data());
  // GL's first row is the bottom one; images start at the top.
  p.rgba.resize(gl_order.size());
  for (int y = 0; y < height_; ++y) {
    std::memcpy(p.rgba.data() + static_cast<std::size_t>(y) * row,
                gl_order.data() + static_cast<std::size_t>(height_ - 1 - y) * row, row);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, draw_fbo_);
  return p;
}

}  // namespace critter::gl
