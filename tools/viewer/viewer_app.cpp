// SPDX-License-Identifier: MIT
#include "viewer_app.h"

// epoxy first: it must define the GL prototypes before GLFW would pull in the system's.
#include <epoxy/gl.h>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "../common/anim_args.h"
#include "../common/builtin_models.h"
#include "../common/limbs_arg.h"
#include "bone_overlay.h"
#include "camera_control.h"
#include "controller_panel.h"
#include "controller_panel_ui.h"
#include "cpu_bake.h"
#include "creature_panel.h"
#include "creature_panel_ui.h"
#include "critter/core/strings.h"
#include "critter/gl/context.h"
#include "critter/gl/gpu_model.h"
#include "critter/gl/render_target.h"
#include "critter/gl/renderer.h"
#include "critter/io/clip_ranges.h"
#include "critter/io/image/image_decoder.h"
#include "critter/io/image/image_writer.h"
#include "critter/io/texture_override.h"
#include "frame_stats.h"
#include "input.h"
#include "session.h"

namespace critter::viewer {
namespace {

constexpr RenderMode kModes[] = {RenderMode::kSolid, RenderMode::kAlphaThreshold,
                                 RenderMode::kTransparentBeforeWater,
                                 RenderMode::kTransparentAfterWater};
constexpr const char* kModeNames[] = {"Solid", "Alpha threshold", "Transparent before water",
                                      "Transparent after water"};
const vec4 kBackground(0.18f, 0.2f, 0.24f, 1.0f);

// Display toggles of the UI.
struct Display {
  bool ui = true;
  bool wireframe = false;
  bool bones = false;
  bool bone_names = false;
  bool shadows = true;
  bool cpu_skinning = false;
  bool modes[4] = {true, true, true, true};
  bool auto_rotate = false;
  float auto_rotate_speed = 30.0f;  // degrees per second
};

class App {
 public:
  explicit App(const ViewerOptions& options) : options_(options) {}
  ~App();
  int run();

 private:
  // Opens a model: with the current config (config_path_) when there is one, else for the
  // Player. `strict`: a --param that fails fails the open (start-up); otherwise it is reported.
  bool open(const std::string& path, bool strict = false);
  bool open_with_config(const std::string& model_path, const std::string& config_path, bool strict);
  // Opens a model for the --creature rig (options_.creature).
  bool open_with_creature(const std::string& model_path);
  void reload_config();
  bool has_model() const { return session_ || controller_ || creature_; }
  // The model shown and its posed instance: the controller's when a config drives it, the
  // creature panel's when a rig does.
  const Model& shown_model() const {
    return controller_ ? controller_->model() : creature_ ? creature_->model() : session_->model();
  }
  const anim::Instance& shown_instance() const {
    return controller_ ? controller_->instance()
           : creature_ ? creature_->instance()
                       : session_->instance();
  }
  Aabb shown_bounds() const {
    return controller_ ? controller_->placed_bounds()
           : creature_ ? creature_->placed_bounds()
                       : session_->model().bounds();
  }
  bool fail_open(const std::string& message);
  // The plain path's model (--limbs applied, its warnings on stderr) in a new Session.
  Result<std::unique_ptr<Session>> open_session(const std::string& path, Diagnostics* diag);
  void start_clip(const std::string& which);
  void frame(float dt);
  void draw_scene(int width, int height);
  void draw_overlay(int width, int height);
  void draw_ui();
  void ui_animation();
  void ui_morphs();
  void ui_controller_morphs();
  void ui_display();
  void ui_controller();
  void ui_creature();
  bool write_screenshot(int width, int height) const;
  static void on_drop(GLFWwindow* window, int count, const char** paths);

  ViewerOptions options_;
  io::LoadOptions load_options_;               // every model opened is loaded with these (--clips)
  std::vector<io::TextureOverride> textures_;  // and gets these skins (--texture)
  std::unique_ptr<gl::WindowContext> window_;
  // --headless: an EGL context and an offscreen target in place of the window.
  std::unique_ptr<gl::HeadlessContext> headless_;
  gl::RenderTarget target_;
  int framebuffer_width() const { return window_ ? window_->framebuffer_width() : options_.width; }
  int framebuffer_height() const {
    return window_ ? window_->framebuffer_height() : options_.height;
  }
  std::unique_ptr<gl::Renderer> renderer_;
  std::unique_ptr<Session> session_;
  // With a config: the creature it drives and the Controller window over it.
  std::unique_ptr<ControllerPanel> controller_;
  ControllerPanelUi controller_ui_;
  bool controller_paused_ = false;
  // With --creature: the rig's simulation and the Creature window over it.
  std::unique_ptr<CreaturePanel> creature_;
  CreaturePanelUi creature_ui_;
  bool creature_paused_ = false;
  // World y of the creature's shadow: the lowest point of its pose when it was opened (a fish or
  // a bird is simulated in place, so its shadow falls below it, not through it).
  float creature_ground_ = 0.0f;
  int open_exit_ = 1;        // run()'s exit code when the start-up model fails to open
  std::string model_path_;   // the model shown
  std::string config_path_;  // the config applied to every model opened; empty: none
  // The model gpu_ was uploaded from when a controller owns it (it must outlive gpu_, also
  // across a reload that gives the controller a new model).
  std::shared_ptr<const Model> gpu_source_;
  std::unique_ptr<gl::GpuModel> gpu_;
  // CPU reference mode: the pose baked on the CPU and uploaded each frame (the baked model must
  // outlive its GpuModel).
  std::unique_ptr<Model> baked_;
  std::unique_ptr<gl::GpuModel> baked_gpu_;
  gl::OrbitCamera camera_;
  Display display_;
  FrameStats stats_;
  gl::FrameStats render_stats_;
  std::string status_;
  std::string pending_drop_;
  char path_field_[1024] = {};
  char config_field_[1024] = {};
  bool imgui_ready_ = false;
};

App::~App() {
  // GPU objects go while the window's context is still current.
  baked_gpu_.reset();
  gpu_.reset();
  renderer_.reset();
  if (imgui_ready_) {
    ImGui_ImplOpenGL3_Shutdown();
    if (window_) ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
}

void App::on_drop(GLFWwindow* window, int count, const char** paths) {
  auto* app = static_cast<App*>(glfwGetWindowUserPointer(window));
  if (app && count > 0) app->pending_drop_ = paths[0];
}

bool App::fail_open(const std::string& message) {
  status_ = message;
  std::fprintf(stderr, "critter-viewer: %s\n", status_.c_str());
  return false;
}

Result<std::unique_ptr<Session>> App::open_session(const std::string& path, Diagnostics* diag) {
  if (!options_.limbs) return Session::open(path, diag, load_options_, textures_);
  // Only the split's warnings are printed here: the plain path shows none of the loader's.
  Diagnostics limb_diag;
  Result<Model> model =
      tools::with_limbs(tools::load_model(path, load_options_, diag), true, &limb_diag);
  for (const Warning& w : limb_diag.items())
    std::fprintf(stderr, "critter-viewer: %s\n", w.to_string().c_str());
  if (model && !textures_.empty()) model = io::apply_texture_overrides(*model, textures_);
  if (!model) return std::unexpected(std::move(model.error()));
  return std::make_unique<Session>(std::move(*model));
}

bool App::open(const std::string& path, bool strict) {
  if (!config_path_.empty()) return open_with_config(path, config_path_, strict);
  if (!options_.creature.creature.empty()) return open_with_creature(path);
  Diagnostics diag;
  Result<std::unique_ptr<Session>> session = open_session(path, &diag);
  if (!session) {
    status_ = session.error().to_string();
    std::fprintf(stderr, "critter-viewer: %s\n", status_.c_str());
    return false;
  }
  if (options_.limbs) {
    tools::LimbMotion motion;
    for (const std::string& m : options_.motion) {
      if (Status s = tools::set_limb_motion(motion, m, path); !s) {
        return fail_open(s.error().to_string());
      }
    }
    if (Status s = (*session)->enable_limbs(motion, &diag); !s) {
      return fail_open(path + ": " + s.error().to_string());
    }
  }
  auto gpu = renderer_->upload((*session)->model(), io::decode_image, &diag);
  if (!gpu) {
    status_ = gpu.error().to_string();
    std::fprintf(stderr, "critter-viewer: %s\n", status_.c_str());
    return false;
  }
  baked_gpu_.reset();
  baked_.reset();
  gpu_ = std::move(*gpu);
  gpu_source_.reset();
  controller_.reset();
  creature_.reset();
  session_ = std::move(*session);
  model_path_ = path;
  const float aspect = static_cast<float>(std::max(1, framebuffer_width())) /
                       static_cast<float>(std::max(1, framebuffer_height()));
  const bool ortho = camera_.orthographic;
  camera_ = initial_view(session_->model().bounds(), aspect);
  set_orthographic(camera_, ortho);
  status_ = "opened " + path;
  std::snprintf(path_field_, sizeof path_field_, "%s", path.c_str());
  return true;
}

bool App::open_with_config(const std::string& model_path, const std::string& config_path,
                           bool strict) {
  Diagnostics diag;
  Result<Model> model =
      tools::with_limbs(tools::load_model(model_path, load_options_, &diag), options_.limbs, &diag);
  if (model && !textures_.empty()) model = io::apply_texture_overrides(*model, textures_);
  if (!model) return fail_open(model.error().to_string());
  io::ControllerLoadOptions load_options;
  load_options.asset_roots = options_.asset_roots;
  load_options.allow_outside = options_.allow_outside_uris;
  load_options.model_options.allow_outside_uris = options_.allow_outside_uris;
  load_options.model_options.assimp_isolation = load_options_.assimp_isolation;
  auto panel = ControllerPanel::load(config_path, std::make_shared<const Model>(std::move(*model)),
                                     load_options, &diag);
  if (!panel) return fail_open(panel.error().to_string());
  std::string param_error;
  for (const std::string& param : options_.params) {
    if (Status s = (*panel)->apply_arg(param); !s) {
      if (strict) return fail_open(s.error().to_string());
      param_error = s.error().to_string();
    }
  }
  auto gpu = renderer_->upload((*panel)->model(), io::decode_image, &diag);
  if (!gpu) return fail_open(gpu.error().to_string());
  for (const Warning& w : diag.items())
    std::fprintf(stderr, "critter-viewer: %s\n", w.to_string().c_str());

  baked_gpu_.reset();
  baked_.reset();
  gpu_ = std::move(*gpu);
  gpu_source_ = (*panel)->shared_model();
  session_.reset();
  creature_.reset();
  controller_ = std::move(*panel);
  model_path_ = model_path;
  config_path_ = config_path;
  // Pose once so the camera frames the creature as placed (model scale, root-bone correction).
  if (Status s = controller_->update(0.0f); !s) param_error = s.error().to_string();
  const float aspect = static_cast<float>(std::max(1, framebuffer_width())) /
                       static_cast<float>(std::max(1, framebuffer_height()));
  const bool ortho = camera_.orthographic;
  camera_ = initial_view(shown_bounds(), aspect);
  set_orthographic(camera_, ortho);
  status_ = "opened " + model_path + " with " + config_path;
  if (!diag.empty()) status_ += " (" + std::to_string(diag.size()) + " warnings on stderr)";
  if (!param_error.empty()) status_ += "\n" + param_error;
  std::snprintf(path_field_, sizeof path_field_, "%s", model_path.c_str());
  std::snprintf(config_field_, sizeof config_field_, "%s", config_path.c_str());
  return true;
}

bool App::open_with_creature(const std::string& model_path) {
  Diagnostics diag;
  Result<Model> model =
      tools::with_limbs(tools::load_model(model_path, load_options_, &diag), options_.limbs, &diag);
  if (model && !textures_.empty()) model = io::apply_texture_overrides(*model, textures_);
  if (!model) return fail_open(model.error().to_string());
  auto panel = CreaturePanel::load(options_.creature,
                                   std::make_shared<const Model>(std::move(*model)), model_path);
  if (!panel) {
    open_exit_ = panel.error().code == ErrorCode::kUsage ? 2 : 1;
    return fail_open(panel.error().to_string());
  }
  auto gpu = renderer_->upload((*panel)->model(), io::decode_image, &diag);
  if (!gpu) return fail_open(gpu.error().to_string());
  for (const Warning& w : diag.items())
    std::fprintf(stderr, "critter-viewer: %s\n", w.to_string().c_str());

  baked_gpu_.reset();
  baked_.reset();
  gpu_ = std::move(*gpu);
  gpu_source_ = (*panel)->shared_model();
  session_.reset();
  controller_.reset();
  creature_ = std::move(*panel);
  model_path_ = model_path;
  const float aspect = static_cast<float>(std::max(1, framebuffer_width())) /
                       static_cast<float>(std::max(1, framebuffer_height()));
  const bool ortho = camera_.orthographic;
  const Aabb bounds = shown_bounds();
  creature_ground_ = bounds.empty() ? 0.0f : bounds.min.y;
  camera_ = initial_view(bounds, aspect);
  set_orthographic(camera_, ortho);
  status_ = "opened " + model_path + " as " + std::string(tools::to_string(creature_->spec().kind));
  if (!diag.empty()) status_ += " (" + std::to_string(diag.size()) + " warnings on stderr)";
  std::snprintf(path_field_, sizeof path_field_, "%s", model_path.c_str());
  return true;
}

void App::reload_config() {
  if (!controller_) return;
  Diagnostics diag;
  if (Status s = controller_->reload(&diag); !s) {
    fail_open(s.error().to_string());
    return;
  }
  for (const Warning& w : diag.items())
    std::fprintf(stderr, "critter-viewer: %s\n", w.to_string().c_str());
  status_ = "reloaded " + controller_->config_path();
  if (controller_->shared_model() == gpu_source_) return;
  // The config's file: clips changed: the controller drives a new copy of the model.
  auto gpu = renderer_->upload(controller_->model(), io::decode_image, &diag);
  if (!gpu) {
    fail_open(gpu.error().to_string());
    controller_.reset();
    gpu_.reset();
    gpu_source_.reset();
    return;
  }
  baked_gpu_.reset();
  baked_.reset();
  gpu_ = std::move(*gpu);
  gpu_source_ = controller_->shared_model();
}

void App::start_clip(const std::string& which) {
  if (!session_ || session_->model().clips().empty()) return;
  int clip = 0;
  if (!which.empty()) {
    clip = session_->model().find_clip(which);
    if (clip < 0) {
      char* end = nullptr;
      const long index = std::strtol(which.c_str(), &end, 10);
      if (end && *end == '\0') clip = static_cast<int>(index);
    }
  }
  if (Status s = session_->play(clip); !s) status_ = s.error().to_string();
}

int App::run() {
  // GLFW's own message for a missing display names X11 internals; say what to do instead.
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if (!options_.headless && (x11 == nullptr || *x11 == '\0') &&
      (wayland == nullptr || *wayland == '\0')) {
    std::fprintf(stderr,
                 "critter-viewer: no display: DISPLAY and WAYLAND_DISPLAY are unset; run it in a "
                 "desktop session or under xvfb-run, draw offscreen with --headless --frames N, or "
                 "draw pictures with critter render\n");
    return 1;
  }
  load_options_.allow_outside_uris = options_.allow_outside_uris;
  load_options_.assimp_isolation = io::AssimpIsolation::kChildProcess;
  if (!options_.clips.empty()) {
    auto ranges = io::parse_clip_ranges(options_.clips, "--clips");
    if (!ranges) {
      std::fprintf(stderr, "critter-viewer: %s\n", ranges.error().to_string().c_str());
      return 2;
    }
    load_options_.clips = std::move(*ranges);
  }
  for (const std::string& text : options_.textures) {
    auto texture = io::parse_texture_override(text, "--texture");
    if (!texture) {
      std::fprintf(stderr, "critter-viewer: %s\n", texture.error().to_string().c_str());
      return 2;
    }
    textures_.push_back(std::move(*texture));
  }
  if (options_.headless) {
    auto context = gl::HeadlessContext::create();
    if (!context) {
      std::fprintf(stderr, "critter-viewer: %s\n", context.error().to_string().c_str());
      return 1;
    }
    headless_ = std::move(*context);
    auto target = gl::RenderTarget::create(options_.width, options_.height, 4);
    if (!target) {
      std::fprintf(stderr, "critter-viewer: %s\n", target.error().to_string().c_str());
      return 1;
    }
    target_ = std::move(*target);
    target_.bind();
  } else {
    gl::WindowOptions wo;
    wo.width = options_.width;
    wo.height = options_.height;
    wo.title = "critter-viewer";
    wo.vsync = options_.frames == 0;
    auto window = gl::WindowContext::create(wo);
    if (!window) {
      std::fprintf(stderr, "critter-viewer: %s\n", window.error().to_string().c_str());
      return 1;
    }
    window_ = std::move(*window);
  }
  auto renderer = gl::Renderer::create();
  if (!renderer) {
    std::fprintf(stderr, "critter-viewer: %s\n", renderer.error().to_string().c_str());
    return 1;
  }
  renderer_ = std::move(*renderer);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini beside the working directory
  ImGui::StyleColorsDark();
  if (window_) {
    GLFWwindow* w = window_->window();
    glfwSetWindowUserPointer(w, this);
    glfwSetDropCallback(w, &App::on_drop);
    ImGui_ImplGlfw_InitForOpenGL(w, true);
  }
  ImGui_ImplOpenGL3_Init("#version 330 core");
  imgui_ready_ = true;

  display_.ui = !options_.hide_ui;
  display_.wireframe = options_.wireframe;
  display_.bones = options_.bones;
  display_.cpu_skinning = options_.cpu_skinning;
  display_.auto_rotate = options_.auto_rotate != 0.0f;
  if (display_.auto_rotate) display_.auto_rotate_speed = options_.auto_rotate;
  camera_.orthographic = options_.orthographic;

  config_path_ = options_.config;
  std::snprintf(config_field_, sizeof config_field_, "%s", config_path_.c_str());
  if (!options_.model.empty()) {
    if (!open(options_.model, true)) return open_exit_;
    if (session_) {
      if (Status s = session_->set_mode(static_cast<anim::PlaybackMode>(options_.mode)); !s)
        status_ = s.error().to_string();
      session_->set_rate(options_.rate);
      const Result<int> clip = tools::clip_from_arg(session_->model(), options_.anim, model_path_);
      if (!clip) {
        std::fprintf(stderr, "critter-viewer: %s\n", clip.error().to_string().c_str());
        return 1;
      }
      if (*clip >= 0) {
        if (Status s = session_->play(*clip); !s) status_ = s.error().to_string();
      }
    }
  }

  using Clock = std::chrono::steady_clock;
  auto last = Clock::now();
  for (int n = 0; !window_ || !window_->should_close(); ++n) {
    if (window_) glfwPollEvents();
    if (!pending_drop_.empty()) {
      const std::string path = std::move(pending_drop_);
      pending_drop_.clear();
      const bool config =
          path.size() > 5 && iequals(std::string_view(path).substr(path.size() - 5), ".json");
      if (!config) {
        if (open(path) && session_) start_clip({});
      } else if (model_path_.empty()) {
        status_ = "open a model before its config " + path;
      } else {
        (void)open_with_config(model_path_, path, false);
      }
    }
    const auto now = Clock::now();
    const float real_dt = std::chrono::duration<float>(now - last).count();
    last = now;
    stats_.add(real_dt);
    float dt = options_.fixed_dt > 0.0f ? options_.fixed_dt : real_dt;
    if (options_.frames > 0 && options_.fixed_dt <= 0.0f) dt = 1.0f / 60.0f;
    frame(dt);
    const bool last_frame = options_.frames > 0 && n + 1 >= options_.frames;
    if (last_frame) {
      if (!options_.screenshot.empty() &&
          !write_screenshot(framebuffer_width(), framebuffer_height()))
        return 1;
      return 0;
    }
    if (window_) window_->swap_buffers();
  }
  return 0;
}

void App::frame(float dt) {
  const int width = framebuffer_width();
  const int height = framebuffer_height();
  ImGui_ImplOpenGL3_NewFrame();
  if (window_) {
    ImGui_ImplGlfw_NewFrame();
  } else {
    // Offscreen: no platform back-end; the target's size and the frame's step stand in.
    ImGuiIO& offscreen = ImGui::GetIO();
    offscreen.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    offscreen.DeltaTime = dt > 0.0f ? dt : 1.0f / 60.0f;
  }
  ImGui::NewFrame();

  const ImGuiIO& io = ImGui::GetIO();
  if (!io.WantCaptureMouse) {
    PointerInput in;
    in.drag = vec2(io.MouseDelta.x, io.MouseDelta.y) * io.DisplayFramebufferScale.x;
    in.scroll = io.MouseWheel;
    in.left = io.MouseDown[0];
    in.right = io.MouseDown[1];
    in.middle = io.MouseDown[2];
    in.shift = io.KeyShift;
    apply_pointer(camera_, in, static_cast<float>(height));
  }
  // Dear ImGui 1.86 indexes keys by the back-end's own codes (GLFW's).
  if (!io.WantCaptureKeyboard) {
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) {
      if (session_) session_->set_paused(!session_->paused());
      if (controller_) controller_paused_ = !controller_paused_;
      if (creature_) creature_paused_ = !creature_paused_;
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_F, false) && has_model())
      camera_ = initial_view(shown_bounds(),
                             static_cast<float>(width) / static_cast<float>(std::max(1, height)));
    if (ImGui::IsKeyPressed(GLFW_KEY_O, false)) set_orthographic(camera_, !camera_.orthographic);
    if (ImGui::IsKeyPressed(GLFW_KEY_W, false)) display_.wireframe = !display_.wireframe;
    if (ImGui::IsKeyPressed(GLFW_KEY_B, false)) display_.bones = !display_.bones;
    if (ImGui::IsKeyPressed(GLFW_KEY_TAB, false)) display_.ui = !display_.ui;
  }
  if (display_.auto_rotate) orbit(camera_, display_.auto_rotate_speed * dt, 0.0f);
  if (session_) session_->update(dt);
  if (controller_) {
    if (Status s = controller_->update(controller_paused_ ? 0.0f : dt); !s)
      status_ = s.error().to_string();
  }
  if (creature_ && !creature_paused_) creature_->update(dt);

  draw_scene(width, height);
  if (display_.bones && has_model()) draw_overlay(width, height);
  if (display_.ui) {
    draw_ui();
    if (controller_) ui_controller();
    if (creature_) ui_creature();
  }
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void App::draw_scene(int width, int height) {
  if (headless_) {
    target_.bind();
  } else {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
  }
  glViewport(0, 0, width, height);
  glClearColor(kBackground.x, kBackground.y, kBackground.z, kBackground.w);
  glClearDepth(1.0);
  glDepthMask(GL_TRUE);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (!has_model() || width <= 0 || height <= 0) return;

  renderer_->begin_frame();
  const anim::Instance& instance = shown_instance();
  if (display_.cpu_skinning) {
    auto baked = bake_pose(shown_model(), instance.model_transforms(), instance.morph_weights());
    if (baked) {
      baked_gpu_.reset();
      baked_ = std::make_unique<Model>(std::move(*baked));
      auto gpu = renderer_->upload(*baked_, io::decode_image);
      if (gpu) baked_gpu_ = std::move(*gpu);
    }
    if (!baked || !baked_gpu_) {
      status_ = "CPU skinning failed; back to GPU skinning";
      display_.cpu_skinning = false;
    }
  }
  if (display_.cpu_skinning && baked_gpu_) {
    gl::RenderInstance ri;
    ri.model = baked_gpu_.get();
    ri.bounds = shown_bounds();
    if (creature_) ri.ground_height = creature_ground_;
    (void)renderer_->submit(ri);
  } else {
    gl::RenderInstance ri;
    ri.model = gpu_.get();
    ri.model_transforms = instance.model_transforms();
    ri.morph_weights = instance.morph_weights();
    if (creature_) ri.ground_height = creature_ground_;
    (void)renderer_->submit(ri);
  }
  const gl::Camera camera = camera_.camera(static_cast<float>(width) / static_cast<float>(height));
  renderer_->prepare(camera);
  if (display_.wireframe) glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
  for (int m = 0; m < 2; ++m)
    if (display_.modes[m]) renderer_->draw(kModes[m]);
  if (display_.shadows && !display_.wireframe) renderer_->draw_shadows();
  for (int m = 2; m < 4; ++m)
    if (display_.modes[m]) renderer_->draw(kModes[m]);
  if (display_.wireframe) glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  render_stats_ = renderer_->stats();
}

void App::draw_overlay(int width, int height) {
  const anim::Instance& instance = shown_instance();
  const float aspect = static_cast<float>(width) / static_cast<float>(std::max(1, height));
  const mat4 clip_from_model = camera_.camera(aspect).view_projection();
  // ImGui draws in window coordinates; the framebuffer may be scaled (high-DPI screens).
  const ImGuiIO& io = ImGui::GetIO();
  const vec2 viewport(io.DisplaySize.x, io.DisplaySize.y);
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const auto names = shown_model().skeleton().names();
  for (const BoneSegment& s :
       bone_segments(shown_model().skeleton(), instance.model_transforms())) {
    const auto to = project_to_pixels(clip_from_model, s.to, viewport);
    if (!to) continue;
    if (s.parent >= 0) {
      if (const auto from = project_to_pixels(clip_from_model, s.from, viewport))
        draw->AddLine(ImVec2(from->x, from->y), ImVec2(to->x, to->y), IM_COL32(255, 220, 40, 255),
                      2.0f);
    }
    draw->AddCircleFilled(ImVec2(to->x, to->y), 3.0f, IM_COL32(255, 90, 40, 255));
    if (display_.bone_names && static_cast<std::size_t>(s.joint) < names.size())
      draw->AddText(ImVec2(to->x + 4.0f, to->y - 6.0f), IM_COL32(255, 255, 255, 230),
                    names[static_cast<std::size_t>(s.joint)].c_str());
  }
}

void App::draw_ui() {
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(340, 0), ImGuiCond_FirstUseEver);
  ImGui::Begin("critter");
  ImGui::Text("%.1f FPS  %.2f ms  %u draw calls", stats_.fps(), stats_.frame_ms(),
              render_stats_.draw_calls);
  ImGui::InputText("##path", path_field_, sizeof path_field_);
  ImGui::SameLine();
  if (ImGui::Button("Open") && open(path_field_) && session_) start_clip({});
  ImGui::InputText("##config", config_field_, sizeof config_field_);
  ImGui::SameLine();
  if (ImGui::Button("Config") && !model_path_.empty()) {
    if (config_field_[0] == '\0') {
      config_path_.clear();
      if (open(model_path_)) start_clip({});
    } else {
      (void)open_with_config(model_path_, config_field_, false);
    }
  }
  if (!status_.empty()) ImGui::TextWrapped("%s", status_.c_str());
  if (!has_model()) {
    ImGui::TextUnformatted("Drop a model file on the window.");
    ImGui::End();
    return;
  }
  const Model& model = shown_model();
  ImGui::Text("%s: %d joints, %zu meshes, %zu clips", model.name().c_str(),
              model.skeleton().joint_count(), model.meshes().size(), model.clips().size());
  if (ImGui::CollapsingHeader("Camera", ImGuiTreeNodeFlags_DefaultOpen)) {
    bool ortho = camera_.orthographic;
    if (ImGui::RadioButton("Perspective", !ortho)) set_orthographic(camera_, false);
    ImGui::SameLine();
    if (ImGui::RadioButton("Orthographic", ortho)) set_orthographic(camera_, true);
    ImGui::Checkbox("Auto-rotate", &display_.auto_rotate);
    ImGui::SameLine();
    ImGui::SliderFloat("deg/s", &display_.auto_rotate_speed, -180.0f, 180.0f, "%.0f");
    if (ImGui::Button("Frame model (F)")) {
      const ImGuiIO& io = ImGui::GetIO();
      camera_ = initial_view(shown_bounds(), io.DisplaySize.x / std::max(1.0f, io.DisplaySize.y));
    }
  }
  if (session_) {
    if (ImGui::CollapsingHeader("Animation", ImGuiTreeNodeFlags_DefaultOpen)) ui_animation();
    if (ImGui::CollapsingHeader("Morph targets")) ui_morphs();
  } else if (controller_ && ImGui::CollapsingHeader("Morph targets")) {
    ui_controller_morphs();
  }
  if (ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen)) ui_display();
  if (session_ && ImGui::CollapsingHeader("Events")) {
    for (auto it = session_->log().rbegin(); it != session_->log().rend(); ++it)
      ImGui::TextUnformatted(it->c_str());
  }
  ImGui::End();
}

void App::ui_controller() {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(std::max(10.0f, io.DisplaySize.x - 430.0f), 10.0f),
                          ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(420.0f, std::max(200.0f, io.DisplaySize.y - 20.0f)),
                           ImGuiCond_FirstUseEver);
  ImGui::Begin("Controller");
  const ControllerPanelUi::Action action =
      controller_ui_.draw(*controller_, controller_paused_, status_);
  ImGui::End();
  if (action == ControllerPanelUi::Action::kReload) reload_config();
}

void App::ui_creature() {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(std::max(10.0f, io.DisplaySize.x - 430.0f), 10.0f),
                          ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(420.0f, std::max(200.0f, io.DisplaySize.y - 20.0f)),
                           ImGuiCond_FirstUseEver);
  ImGui::Begin("Creature");
  creature_ui_.draw(*creature_, creature_paused_, status_);
  ImGui::End();
}

void App::ui_animation() {
  const Model& model = session_->model();
  if (model.clips().empty()) {
    ImGui::TextUnformatted("No clips.");
    return;
  }
  int mode = static_cast<int>(session_->mode());
  if (ImGui::Combo("Mode", &mode, kModeLabels, 7)) {
    if (Status s = session_->set_mode(static_cast<anim::PlaybackMode>(mode)); !s)
      status_ = s.error().to_string();
  }
  float rate = session_->rate();
  if (ImGui::SliderFloat("Rate", &rate, 0.0f, 4.0f, "%.2f")) session_->set_rate(rate);
  float fade = session_->crossfade_seconds();
  if (ImGui::SliderFloat("Crossfade s", &fade, 0.0f, 2.0f, "%.2f"))
    session_->set_crossfade_seconds(fade);
  bool paused = session_->paused();
  if (ImGui::Checkbox("Pause (space)", &paused)) session_->set_paused(paused);
  const anim::Player& player = session_->player();
  float cursor = player.cursor();
  if (ImGui::SliderFloat("Cursor", &cursor, 0.0f, 1.0f, "%.3f")) session_->scrub(cursor);
  ImGui::Text("t = %.3f s%s", player.clip_time(), player.crossfading() ? "  (crossfading)" : "");
  ImGui::TextUnformatted("Click: play; right click: crossfade to.");
  if (ImGui::BeginListBox("##clips", ImVec2(-1.0f, 140.0f))) {
    for (int c = 0; c < static_cast<int>(model.clips().size()); ++c) {
      const std::string label =
          session_->clip_label(c) + "  (" +
          std::to_string(model.clips()[static_cast<std::size_t>(c)].duration()).substr(0, 5) +
          " s)";
      ImGui::PushID(c);
      if (ImGui::Selectable(label.c_str(), c == session_->clip())) {
        if (Status s = session_->play(c); !s) status_ = s.error().to_string();
      }
      if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) {
        if (Status s = session_->crossfade_to(c); !s) status_ = s.error().to_string();
      }
      ImGui::PopID();
    }
    ImGui::EndListBox();
  }
}

void App::ui_morphs() {
  const Model& model = session_->model();
  bool any = false;
  for (int m = 0; m < static_cast<int>(model.meshes().size()); ++m) {
    const Mesh& mesh = model.meshes()[static_cast<std::size_t>(m)];
    if (mesh.morph_target_count() == 0) continue;
    any = true;
    ImGui::PushID(m);
    ImGui::Text("%s%s",
                mesh.name.empty() ? ("mesh " + std::to_string(m)).c_str() : mesh.name.c_str(),
                session_->morph_pinned(m) ? " (pinned)" : "");
    const auto shown = session_->player().morph_weights(m);
    for (std::size_t t = 0; t < mesh.morph_target_count() && t < shown.size(); ++t) {
      float w = shown[t];
      const std::string label = t < mesh.morph_names.size() && !mesh.morph_names[t].empty()
                                    ? mesh.morph_names[t]
                                    : "target " + std::to_string(t);
      if (ImGui::SliderFloat(label.c_str(), &w, 0.0f, 1.0f, "%.2f")) {
        if (Status s = session_->set_morph_weight(m, static_cast<int>(t), w); !s)
          status_ = s.error().to_string();
      }
    }
    ImGui::PopID();
  }
  if (!any) ImGui::TextUnformatted("No morph targets.");
  if (any && ImGui::Button("Back to animation")) session_->clear_morph_weights();
}

// The weights the controller blended this frame (read only: the config's clips drive them).
void App::ui_controller_morphs() {
  const creature::CreatureModel& creature = controller_->creature();
  const anim::MorphLayout& layout = creature.morph_layout();
  const Model& model = controller_->model();
  bool any = false;
  for (std::size_t m = 0; m < model.meshes().size() && m < layout.mesh_count(); ++m) {
    const Mesh& mesh = model.meshes()[m];
    const auto shown = layout.mesh_weights(creature.morph_weights(), m);
    if (shown.empty()) continue;
    any = true;
    ImGui::Text("%s",
                mesh.name.empty() ? ("mesh " + std::to_string(m)).c_str() : mesh.name.c_str());
    for (std::size_t t = 0; t < shown.size(); ++t) {
      const std::string label = t < mesh.morph_names.size() && !mesh.morph_names[t].empty()
                                    ? mesh.morph_names[t]
                                    : "target " + std::to_string(t);
      ImGui::ProgressBar(shown[t], ImVec2(-1.0f, 0.0f), label.c_str());
    }
  }
  if (!any) ImGui::TextUnformatted("No morph targets.");
}

void App::ui_display() {
  ImGui::Checkbox("Bones (B)", &display_.bones);
  ImGui::SameLine();
  ImGui::Checkbox("Names", &display_.bone_names);
  ImGui::Checkbox("Wireframe (W)", &display_.wireframe);
  ImGui::SameLine();
  ImGui::Checkbox("Shadow", &display_.shadows);
  int skinning = display_.cpu_skinning ? 1 : 0;
  ImGui::TextUnformatted("Skinning:");
  ImGui::SameLine();
  if (ImGui::RadioButton("GPU", skinning == 0)) display_.cpu_skinning = false;
  ImGui::SameLine();
  if (ImGui::RadioButton("CPU (reference)", skinning == 1)) display_.cpu_skinning = true;
  for (int m = 0; m < 4; ++m) ImGui::Checkbox(kModeNames[m], &display_.modes[m]);
}

bool App::write_screenshot(int width, int height) const {
  if (width <= 0 || height <= 0) return false;
  if (headless_) {
    gl::Pixels pixels = target_.read_pixels();
    RgbaImage image;
    image.width = pixels.width;
    image.height = pixels.height;
    image.pixels = std::move(pixels.rgba);
    for (std::size_t i = 3; i < image.pixels.size(); i += 4) image.pixels[i] = 255;
    if (!io::write_png(options_.screenshot, image)) {
      std::fprintf(stderr, "critter-viewer: cannot write %s\n", options_.screenshot.c_str());
      return false;
    }
    return true;
  }
  std::vector<unsigned char> rgba(static_cast<std::size_t>(width) * height * 4);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  // OpenGL rows run bottom to top; PNG rows top to bottom. The window is opaque.
  RgbaImage flipped;
  flipped.width = width;
  flipped.height = height;
  flipped.pixels.resize(rgba.size());
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  for (int y = 0; y < height; ++y)
    std::copy_n(rgba.data() + static_cast<std::size_t>(height - 1 - y) * row, row,
                flipped.pixels.data() + static_cast<std::size_t>(y) * row);
  for (std::size_t i = 3; i < flipped.pixels.size(); i += 4) flipped.pixels[i] = 255;
  if (!io::write_png(options_.screenshot, flipped)) {
    std::fprintf(stderr, "critter-viewer: cannot write %s\n", options_.screenshot.c_str());
    return false;
  }
  return true;
}

}  // namespace

int run_viewer(const ViewerOptions& options) {
  App app(options);
  return app.run();
}

}  // namespace critter::viewer
