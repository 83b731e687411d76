// SPDX-License-Identifier: MIT
// Renderer: draws creature instances with OpenGL following rendering.md — per-mode queues
// (Solid, AlphaThreshold, TransparentBeforeWater, TransparentAfterWater) with the spec's pass
// states, one instanced draw per (model, mesh part) in the opaque passes, back-to-front instances
// in the transparent ones, joint palettes in an RGBA32F texture or buffer texture (3 texels per
// joint, no joint cap; PaletteUpload), morph targets from 2D-array textures, vertex lighting (§7),
// blob shadows (§8).
//
// Per frame: begin_frame(); submit() each instance (or all at once); prepare(camera); then
// draw(mode) for the modes in order, interleaving host passes (water) as needed — or render_frame()
// for all of it. Needs a current OpenGL 3.3 core context for its whole life; not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "critter/asset/material.h"
#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/gl/camera.h"
#include "critter/gl/gpu_model.h"

namespace critter {
class JobPool;
}

namespace critter::gl {

// One creature to draw this frame. Spans are read during submit() only (copied there).
struct RenderInstance {
  const GpuModel* model = nullptr;  // required; must outlive the frame
  mat4 world_from_model{1.0f};
  // model_from_joint of every skeleton joint (e.g. anim::Instance::model_transforms()); empty:
  // the rest pose. The renderer builds each skin's palette from them (deform::PaletteJob).
  std::span<const mat4> model_transforms;
  // Morph weights of every mesh, flat as MorphLayout lays them out (e.g.
  // anim::Instance::morph_weights());
  // empty: the model's default weights.
  std::span<const float> morph_weights;
  vec4 tint{1.0f};         // RGBA multiplier of the diffuse colour (injury: toward (1, .5, .5))
  float light = 1.0f;      // world light level, scales ambient and both lights (§7)
  float opacity = 1.0f;    // 0..1; below 1 the instance is drawn in a transparent pass (§2)
  float immersion = 0.0f;  // >= 1: fully under water (§2)
  // Model-space box used for culling, distance sorting and the shadow size; empty: the model's
  // rest bounds. Pass per-frame skinned bounds when the animation leaves the rest box.
  Aabb bounds;
  bool cast_shadow = true;
  float shadow_alpha = 1.0f;           // multiplies the blob's base alpha 0.5
  std::optional<float> ground_height;  // world y of the shadow; default: the instance's y
  // Blob radius in world metres; default §8's 1.125 x the bounds' world width. Pictures pass one
  // from the posed footprint, so a model of any size and orientation gets a fitting shadow.
  std::optional<float> shadow_radius;
  // false: the blob keeps its full alpha at any camera distance (§8's fade with distance suits a
  // game camera, not a picture framed around a model of any size).
  bool shadow_fades = true;
};

// rendering.md §2: the pass of an instance whose material pass is `material_mode`.
// opacity < 1: TransparentAfterWater when (immersion >= 1) == camera_under_water, else
// TransparentBeforeWater; opacity >= 1: material_mode.
RenderMode choose_render_mode(float opacity, float immersion, bool camera_under_water,
                              RenderMode material_mode);

// §8: blob shadow alpha for a camera at `distance` metres: 0.5 * shadow_alpha *
// saturate(4 * (1 - distance / 32)); 0 beyond 32 m.
float shadow_blob_alpha(float distance, float shadow_alpha = 1.0f);

struct LightingSettings {
  // World-space directions toward the lights, used as given (not normalised), and the ambient
  // level: Survivalcraft's constants, so an upward normal at light 1 shades to exactly 1.0.
  vec3 direction1{0.12f, 0.25f, 0.34f};
  vec3 direction2{-0.12f, 0.25f, -0.34f};
  float ambient = 0.5f;
  // Optional linear distance fog (off by default).
  bool fog = false;
  float fog_start = 10.0f;
  float fog_end = 100.0f;
  vec3 fog_colour{0.7f, 0.8f, 0.9f};
};

// How joint palettes reach the GPU (rendering.md §9). Every path holds the same texels in the
// same layout (3 RGBA32F texels per joint) and draws the same pixels.
enum class PaletteUpload : std::uint8_t {
  // The fastest the context offers: kPersistentBuffer, else kBufferTexture, else kTexture.
  kAuto,
  // An RGBA32F 2D texture filled from CPU staging with glTexSubImage2D (the reference path; any
  // OpenGL 3.3 context).
  kTexture,
  // A buffer texture (samplerBuffer) filled from CPU staging with glBufferData (OpenGL 3.1+, when
  // GL_MAX_TEXTURE_BUFFER_SIZE holds at least as many texels as the 2D texture).
  kBufferTexture,
  // A buffer texture over persistently mapped buffers (OpenGL 4.4 or GL_ARB_buffer_storage, with
  // the texel limit above): submit() writes the palettes straight into GPU-visible memory, so
  // prepare() copies nothing. Three buffers take turns, guarded by fences, so a frame never
  // writes into memory an earlier frame's draws may still read.
  kPersistentBuffer,
};

struct RendererOptions {
  // Convert the lit linear colour to sRGB before writing (textures are decoded as sRGB either
  // way). Off: the framebuffer receives linear values (tests with exact expected colours).
  bool srgb_output = true;
  // Drop instances whose bounding sphere lies outside the view frustum in prepare().
  bool frustum_cull = true;
  // Optional visibility range (metres; <= 0: none), with dy scaled by range_y_multiplier (§3).
  float visibility_range = 0.0f;
  float range_y_multiplier = 1.0f;
  // Palette path, chosen at create(): a path the context lacks makes create() fail
  // (kUnsupported); kAuto never does.
  PaletteUpload palette_upload = PaletteUpload::kAuto;
};

// Counters of the last prepare() and the draws since then.
struct FrameStats {
  std::uint32_t submitted = 0;
  std::uint32_t visible = 0;     // after culling
  std::uint32_t draw_calls = 0;  // glDraw* calls since prepare() (shadows included)
  std::uint32_t palette_joints = 0;
};

class Renderer {
 public:
  // Checks the current context (OpenGL >= 3.3: fails with kUnsupported below) and compiles the
  // base shaders. Shader variants are compiled on first use.
  static Result<std::unique_ptr<Renderer>> create(const RendererOptions& options = {});
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // GpuModel::create, for convenience.
  Result<std::unique_ptr<GpuModel>> upload(const Model& model, const ImageDecoder& decode_image,
                                           Diagnostics* diag = nullptr) const;

  LightingSettings& lighting() { return lighting_; }
  RendererOptions& options() { return options_; }

  // Forgets last frame's instances. On the persistent palette path it also hands the last
  // prepared frame's palette buffer to the GPU and takes the next one, first waiting (on its
  // fence) until the draws of three frames ago that read it are done: at once, unless the GPU is
  // that far behind.
  void begin_frame();
  // Queues an instance for this frame and packs its palette and morph weights. Ignored (returns
  // kUsage) when model is null or a span has the wrong size.
  Status submit(const RenderInstance& instance);
  // submit() of every instance in order, stopping at the first refusal (the instances before it
  // stay queued). With a pool, the palettes are packed on its threads; the packed data is the
  // same. Does not allocate once this frame's staging memory has grown to size.
  Status submit(std::span<const RenderInstance> instances, JobPool* pool = nullptr);

  // submit() in two halves, so palettes can be packed while the matrices they read are still in
  // cache (e.g. right after each creature is animated, on the same thread):
  //   renderer.begin_frame();
  //   const std::size_t first = renderer.queued();
  //   renderer.queue(list);  // checks and reserves, cheap; spans are read later
  //   crowd.update(dt, &pool, [&](std::size_t b, std::size_t e) {
  //     renderer.pack(first + b, first + e);
  //   });
  //   renderer.prepare(camera);
  // queue() takes instances in order and stops at the first refusal, like submit(); the
  // instances' model_transforms spans must stay valid until pack() has read them.
  Status queue(std::span<const RenderInstance> instances);
  // Instances queued this frame (the index the next queued instance gets).
  std::size_t queued() const;
  // Packs the palettes of queued instances [begin, end) from their model_transforms as they are
  // now; indices from queued() on are ignored (so a crowd's loop may pack past a queue() that
  // stopped early). Safe to call from several threads at once on disjoint ranges (it reads
  // shared data and writes only those instances' rows); every queued instance must be packed
  // once before prepare(). Never allocates.
  void pack(std::size_t begin, std::size_t end);

  // Culls, picks each instance's pass, sorts the queues (opaque: by model and part; transparent:
  // back to front by instance centre), and uploads palettes, weights and per-instance data.
  void prepare(const Camera& camera);
  // Draws one mode's queue with its pass state (rendering.md §1) into the bound framebuffer.
  // Rigid parts first, then skinned parts (§2).
  void draw(RenderMode mode);
  // Blob shadows of the prepared instances (§8): depth test on, depth write off, blending on.
  void draw_shadows();
  // Clears colour (premultiplied `clear_colour`) and depth, prepare(camera), then Solid,
  // AlphaThreshold, shadows, TransparentBeforeWater, TransparentAfterWater.
  void render_frame(const Camera& camera, const vec4& clear_colour = vec4(0.0f));

  const FrameStats& stats() const { return stats_; }
  // Largest joint palette the texture holds (per frame, all instances together).
  std::uint32_t max_palette_joints() const;
  // The palette path in use (never kAuto).
  PaletteUpload palette_upload() const;

 private:
  struct Impl;
  // Checks one instance, queues it and reserves its palette rows and morph weights.
  Status queue_one(const RenderInstance& instance);
  // prepare()'s palette upload on the path in use.
  void upload_palettes();
  explicit Renderer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  RendererOptions options_;
  LightingSettings lighting_;
  FrameStats stats_;
};

}  // namespace critter::gl
