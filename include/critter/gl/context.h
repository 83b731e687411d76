// SPDX-License-Identifier: MIT
// OpenGL contexts the renderer draws with: a headless EGL context (surfaceless platform, no
// display, no GPU needed: Mesa's llvmpipe renders real frames) and a GLFW window for the viewer.
// Both give a current desktop OpenGL 3.3 core context; the Renderer does not care which.
#pragma once

#include <memory>
#include <string>

#include "critter/core/error.h"

struct GLFWwindow;

namespace critter::gl {

// A current-able OpenGL context. Not thread-safe: make it current on one thread at a time.
class Context {
 public:
  virtual ~Context() = default;
  // Makes the context current on the calling thread. Fails (kUnsupported) when the driver refuses.
  virtual Status make_current() = 0;
  // Size of the default framebuffer in pixels; 0 x 0 for headless contexts (draw into a
  // RenderTarget there).
  virtual int framebuffer_width() const = 0;
  virtual int framebuffer_height() const = 0;
  // Presents the default framebuffer (windows); nothing for headless contexts.
  virtual void swap_buffers() {}
  // "OpenGL <version> (<renderer>)" of the current context, for logs and `critter render -v`.
  static std::string describe_current();
};

// EGL on the surfaceless platform (EGL_MESA_platform_surfaceless), desktop OpenGL 3.3 core. The
// context has no default framebuffer: render into a RenderTarget (render_target.h).
class HeadlessContext final : public Context {
 public:
  // Creates the context and makes it current. Fails (kUnsupported) with the EGL step and error
  // code when EGL, the surfaceless platform or an OpenGL 3.3 core context is unavailable.
  static Result<std::unique_ptr<HeadlessContext>> create();
  ~HeadlessContext() override;
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

  Status make_current() override;
  int framebuffer_width() const override { return 0; }
  int framebuffer_height() const override { return 0; }

 private:
  HeadlessContext() = default;
  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
};

struct WindowOptions {
  int width = 1280;
  int height = 720;
  std::string title = "critter";
  bool visible = true;
  bool vsync = true;
  int samples = 4;  // multisample anti-aliasing of the default framebuffer; 0 for none
};

// A GLFW window with an OpenGL 3.3 core context, current after creation. GLFW is initialised by
// the first window and terminated with the last one. Create and use it on the main thread.
class WindowContext final : public Context {
 public:
  // Fails (kUnsupported) when GLFW cannot initialise (no display) or the window cannot be made.
  static Result<std::unique_ptr<WindowContext>> create(const WindowOptions& options = {});
  ~WindowContext() override;
  WindowContext(const WindowContext&) = delete;
  WindowContext& operator=(const WindowContext&) = delete;

  Status make_current() override;
  int framebuffer_width() const override;
  int framebuffer_height() const override;
  void swap_buffers() override;
  // The GLFW window (input callbacks, should-close, ImGui back-end). Owned by this context.
  GLFWwindow* window() const { return window_; }
  bool should_close() const;

 private:
  WindowContext() = default;
  GLFWwindow* window_ = nullptr;
};

}  // namespace critter::gl
