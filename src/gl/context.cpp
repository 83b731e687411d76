// SPDX-License-Identifier: MIT
#include "critter/gl/context.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <GLFW/glfw3.h>

#include <string>

namespace critter::gl {
namespace {

Error egl_error(const char* step) {
  char code[16];
  std::snprintf(code, sizeof code, "0x%04X", static_cast<unsigned>(eglGetError()));
  return Error::at(ErrorCode::kUnsupported, "EGL", step,
                   std::string("failed (EGL error ") + code +
                       "); headless rendering needs Mesa's EGL with the surfaceless platform "
                       "(Debian: libegl-mesa0, libgl1-mesa-dri)");
}

// GLFW has one global state: count the windows that use it.
int g_glfw_windows = 0;

}  // namespace

std::string Context::describe_current() {
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return std::string("OpenGL ") + (version ? version : "?") + " (" + (renderer ? renderer : "?") +
         ")";
}

Result<std::unique_ptr<HeadlessContext>> HeadlessContext::create() {
  // The surfaceless platform needs no display server; plain eglGetDisplay would try X11/Wayland.
  const EGLDisplay display =
      eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (display == EGL_NO_DISPLAY) return fail(egl_error("eglGetPlatformDisplayEXT(surfaceless)"));
  EGLint major = 0;
  EGLint minor = 0;
  if (!eglInitialize(display, &major, &minor)) return fail(egl_error("eglInitialize"));
  std::unique_ptr<HeadlessContext> ctx(new HeadlessContext());
  ctx->display_ = display;
  if (!eglBindAPI(EGL_OPENGL_API)) return fail(egl_error("eglBindAPI(EGL_OPENGL_API)"));

  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  // No config at all is fine with EGL_KHR_no_config_context; a config is still preferred.
  if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count == 0) {
    config = EGL_NO_CONFIG_KHR;
  }
  const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                    3,
                                    EGL_CONTEXT_MINOR_VERSION,
                                    3,
                                    EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                    EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                    EGL_NONE};
  const EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  if (context == EGL_NO_CONTEXT) return fail(egl_error("eglCreateContext(OpenGL 3.3 core)"));
  ctx->context_ = context;
  if (Status s = ctx->make_current(); !s) return fail(s.error());
  return ctx;
}

HeadlessContext::~HeadlessContext() {
  if (display_ == nullptr) return;
  auto* display = static_cast<EGLDisplay>(display_);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (context_ != nullptr) eglDestroyContext(display, static_cast<EGLContext>(context_));
  // eglTerminate is left out on purpose: the display is shared by every context of the process.
}

Status HeadlessContext::make_current() {
  auto* display = static_cast<EGLDisplay>(display_);
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, static_cast<EGLContext>(context_))) {
    return fail(egl_error("eglMakeCurrent(surfaceless)"));
  }
  return {};
}

Result<std::unique_ptr<WindowContext>> WindowContext::create(const WindowOptions& options) {
  if (g_glfw_windows == 0 && glfwInit() != GLFW_TRUE) {
    const char* why = nullptr;
    glfwGetError(&why);
    return fail(Error::at(ErrorCode::kUnsupported, "GLFW", "glfwInit",
                          std::string("cannot initialise (") + (why ? why : "no display") +
                              "); use the headless context instead"));
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
  glfwWindowHint(GLFW_SAMPLES, options.samples);
  GLFWwindow* window =
      glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
  if (window == nullptr) {
    const char* why = nullptr;
    glfwGetError(&why);
    if (g_glfw_windows == 0) glfwTerminate();
    return fail(Error::at(ErrorCode::kUnsupported, "GLFW", "glfwCreateWindow",
                          std::string("cannot create an OpenGL 3.3 core window (") +
                              (why ? why : "unknown reason") + ")"));
  }
  ++g_glfw_windows;
  std::unique_ptr<WindowContext> ctx(new WindowContext());
  ctx->window_ = window;
  glfwMakeContextCurrent(window);
  glfwSwapInterval(options.vsync ? 1 : 0);
  return ctx;
}

WindowContext::~WindowContext() {
  if (window_ == nullptr) return;
  glfwDestroyWindow(window_);
  if (--g_glfw_windows == 0) glfwTerminate();
}

Status WindowContext::make_current() {
  glfwMakeContextCurrent(window_);
  return {};
}

int WindowContext::framebuffer_width() const {
  int w = 0;
  int h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return w;
}

int WindowContext::framebuffer_height() const {
  int w = 0;
  int h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return h;
}

void WindowContext::swap_buffers() {
  glfwSwapBuffers(window_);
}

bool WindowContext::should_close() const {
  return glfwWindowShouldClose(window_) == GLFW_TRUE;
}

}  // namespace critter::gl
