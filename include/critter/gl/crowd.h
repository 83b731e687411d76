// Crowd: many creatures of one model on a grid, each with its own anim::Instance (player, pose,
// palette) and a phase offset, all drawn through one Renderer so a whole crowd costs one instanced
// draw per mesh part (rendering.md §11: instances share the GpuModel's buffers, each has its own
// palette in the renderer's palette texture). Per-instance state only (DESIGN.md): the Model and
// the GpuModel are shared and must outlive the Crowd.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "critter/anim/instance.h"
#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/gl/gpu_model.h"
#include "critter/gl/renderer.h"

namespace critter::gl {

struct CrowdOptions {
  std::uint32_t count = 100;  // creatures, >= 1
  // Metres between neighbouring grid cells; <= 0 picks 1.25 x the larger horizontal extent of
  // the model's rest bounds (at least 0.1 m).
  float spacing = 0.0f;
  int clip = 0;  // clip each creature plays; -1 (or a model without clips): rest pose
  anim::PlaybackMode mode = anim::PlaybackMode::kLoopForward;
  float rate = 1.0f;
  // Creature i starts at normalised cursor fract(i * 0.618034) (golden-ratio steps, so
  // neighbours differ); false: every creature starts at cursor 0.
  bool phase_offsets = true;
  // Blob shadows (rendering.md §8). The renderer draws one call per shadow, so they are off by
  // default: a crowd then costs one draw per mesh part and pass.
  bool shadows = false;
};

class Crowd {
 public:
  // Builds count instances over `model` (its Model must outlive the Crowd), placed row by row on a
  // square grid of ceil(sqrt(count)) columns in the XZ plane, centred on the origin, and starts
  // their clip. Fails (kUsage) on count 0, a clip index outside the model, or a non-finite
  // spacing or rate.
  static Result<std::unique_ptr<Crowd>> create(const GpuModel& model, const CrowdOptions& options);

  std::size_t size() const { return instances_.size(); }
  const GpuModel& model() const { return *model_; }
  anim::Instance& instance(std::size_t i) { return instances_[i]; }
  const anim::Instance& instance(std::size_t i) const { return instances_[i]; }
  // world_from_model of creature i (a translation on the grid).
  const mat4& placement(std::size_t i) const { return placements_[i]; }
  float spacing() const { return spacing_; }
  // World-space box around every creature's rest bounds.
  const Aabb& bounds() const { return bounds_; }

  // Advances every creature by dt seconds (pose, model-space matrices, palettes).
  void update(float dt);
  // The RenderInstance of creature i as of its last update, placed on the grid.
  RenderInstance render_instance(std::size_t i) const;
  // Submits every creature to `renderer` for the current frame (after begin_frame()). Stops at
  // the first refusal (e.g. the frame's palettes exceed the palette texture) and returns it.
  Status submit(Renderer& renderer) const;

 private:
  Crowd() = default;
  const GpuModel* model_ = nullptr;
  std::vector<anim::Instance> instances_;
  std::vector<mat4> placements_;
  float spacing_ = 1.0f;
  bool shadows_ = false;
  Aabb bounds_;
};

}  // namespace critter::gl
