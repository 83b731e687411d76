// SPDX-License-Identifier: MIT
// Crowd: many creatures of one model on a grid, each with its own Player (a pose source), its
// own anim::Instance (the posed matrices) and a phase offset. Renderers draw it as one instanced
// crowd (rendering.md §11) from placement(i) and instance(i); nothing here knows how.
// Per-instance state only (DESIGN.md): the Model is shared and must outlive the Crowd.
//
//   auto crowd = creature::Crowd::create(model, {.count = 1000, .clip = 0});
//   critter::JobPool pool;  // every hardware thread
//   (*crowd)->update(dt, &pool);
//   for (std::size_t i = 0; i < (*crowd)->size(); ++i)
//     draw((*crowd)->placement(i), (*crowd)->instance(i).model_transforms(),
//          (*crowd)->instance(i).morph_weights());
//
// update(dt, &pool, after_pose) runs per-creature follow-up work (palettes) in the same pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "critter/anim/instance.h"
#include "critter/anim/player.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/core/math.h"

namespace critter {
class JobPool;
}

namespace critter::creature {

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
};

class Crowd {
 public:
  // Builds count creatures over `model` (which must outlive the Crowd), placed row by row on a
  // square grid of ceil(sqrt(count)) columns in the XZ plane, centred on the origin, starts their
  // clip and poses them. Fails (kUsage, path "crowd") on count 0, a clip index outside the model,
  // or a non-finite spacing or rate.
  static Result<std::unique_ptr<Crowd>> create(const Model& model, const CrowdOptions& options);

  std::size_t size() const { return instances_.size(); }
  const Model& model() const { return *model_; }
  // Creature i's pose source (i < size()).
  anim::Player& player(std::size_t i) { return players_[i]; }
  const anim::Player& player(std::size_t i) const { return players_[i]; }
  // Creature i's posed matrices and morph weights as of the last update(), in model space (the
  // instance's root is identity: placement(i) puts it in the world).
  const anim::Instance& instance(std::size_t i) const { return instances_[i]; }
  // world_from_model of creature i (a translation on the grid).
  const mat4& placement(std::size_t i) const { return placements_[i]; }
  float spacing() const { return spacing_; }
  // World-space box around every creature's rest bounds.
  const Aabb& bounds() const { return bounds_; }

  // Advances every creature's player by dt seconds and poses its instance. With a pool, the
  // creatures are spread over its threads (each creature's state is its own; the Model is only
  // read); the result is the same as without. Does not allocate. Each chunk's jobs run inside one
  // anim::DenormalScope (one switch of the floating-point mode per chunk, not per job).
  void update(float dt, JobPool* pool = nullptr);
  // As update(dt, pool), and calls after_pose(begin, end) right after creatures [begin, end) are
  // posed, on the thread that posed them, while their matrices are still in its cache: the place
  // to build their palettes (e.g. gl::Renderer::pack). Ranges are disjoint, cover every creature
  // once and run on the pool's threads at once, so after_pose must be safe to call concurrently
  // on disjoint ranges; it must not throw; it runs outside the chunk's DenormalScope. Allocates
  // nothing itself.
  template <class Fn>
  void update(float dt, JobPool* pool, Fn&& after_pose) {
    using F = std::remove_reference_t<Fn>;
    update_with(
        dt, pool, [](void* f, std::size_t b, std::size_t e) { (*static_cast<F*>(f))(b, e); },
        const_cast<void*>(static_cast<const void*>(&after_pose)));
  }

  // Creatures a pool thread takes at a time: enough work per claim to hide its atomic, few
  // enough that the threads finish together and a chunk's matrices (16 x 4 KiB for 64 joints)
  // are still in cache for after_pose.
  static constexpr std::size_t kChunk = 16;

 private:
  using AfterPose = void (*)(void*, std::size_t, std::size_t);
  void update_with(float dt, JobPool* pool, AfterPose after_pose, void* context);
  Crowd() = default;
  const Model* model_ = nullptr;
  std::vector<anim::Player> players_;
  std::vector<anim::Instance> instances_;
  std::vector<mat4> placements_;
  float spacing_ = 1.0f;
  Aabb bounds_;
};

}  // namespace critter::creature
