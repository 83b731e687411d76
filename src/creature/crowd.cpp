// SPDX-License-Identifier: MIT
#include "critter/creature/crowd.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "critter/anim/denormal_scope.h"
#include "critter/core/job_pool.h"

namespace critter::creature {
namespace {

std::unexpected<Error> usage(std::string message) {
  return fail(Error::at(ErrorCode::kUsage, "crowd", "", std::move(message)));
}

}  // namespace

Result<std::unique_ptr<Crowd>> Crowd::create(const Model& model, const CrowdOptions& options) {
  if (options.count == 0) return usage("a crowd needs at least one creature");
  if (!std::isfinite(options.spacing)) return usage("spacing is not finite");
  if (!std::isfinite(options.rate)) return usage("rate is not finite");
  const bool animated = options.clip >= 0 && !model.clips().empty();
  if (animated && static_cast<std::size_t>(options.clip) >= model.clips().size())
    return usage("no clip " + std::to_string(options.clip) + " (the model has " +
                 std::to_string(model.clips().size()) + ")");

  std::unique_ptr<Crowd> crowd(new Crowd());
  crowd->model_ = &model;
  const Aabb& rest = model.bounds();
  float spacing = options.spacing;
  if (spacing <= 0.0f) {
    const vec3 extent = rest.extent();
    spacing = std::max(1.25f * std::max(extent.x, extent.z), 0.1f);
  }
  crowd->spacing_ = spacing;

  const std::uint32_t n = options.count;
  const auto columns = static_cast<std::uint32_t>(std::ceil(std::sqrt(static_cast<double>(n))));
  const std::uint32_t rows = (n + columns - 1) / columns;
  // Centre the grid: cell (c, r) sits at ((c - (columns - 1) / 2) s, 0, (r - (rows - 1) / 2) s).
  const float x0 = -0.5f * static_cast<float>(columns - 1) * spacing;
  const float z0 = -0.5f * static_cast<float>(rows - 1) * spacing;
  crowd->players_.reserve(n);
  crowd->instances_.reserve(n);
  crowd->placements_.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const vec3 at(x0 + static_cast<float>(i % columns) * spacing, 0.0f,
                  z0 + static_cast<float>(i / columns) * spacing);
    crowd->placements_.push_back(glm::translate(mat4(1.0f), at));
    if (!rest.empty()) {
      crowd->bounds_.expand(rest.min + at);
      crowd->bounds_.expand(rest.max + at);
    }
    anim::Player& player = crowd->players_.emplace_back(model);
    crowd->instances_.emplace_back(model);
    if (animated) {
      anim::PlayOptions play;
      play.rate = options.rate;
      if (options.phase_offsets) {
        const double phase = static_cast<double>(i) * 0.6180339887498949;
        play.offset = static_cast<float>(phase - std::floor(phase));
      }
      if (Status s = player.play(options.clip, options.mode, play); !s)
        return std::unexpected(s.error());
    }
  }
  crowd->update(0.0f);
  return crowd;
}

void Crowd::update(float dt, JobPool* pool) {
  update_with(dt, pool, nullptr, nullptr);
}

void Crowd::update_with(float dt, JobPool* pool, AfterPose after_pose, void* context) {
  const auto update_range = [this, dt, after_pose, context](std::size_t begin, std::size_t end) {
    {
      // One mode switch for a chunk's jobs, on whichever thread runs it (not for after_pose).
      const anim::DenormalScope denormals;
      for (std::size_t i = begin; i < end; ++i) {
        anim::Player& player = players_[i];
        player.update(dt);
        // Loops report nothing; a Once clip's completion record is dropped so the list never
        // grows.
        player.clear_records();
        // Sizes match the model by construction and the root is the identity: pose() cannot
        // refuse.
        (void)instances_[i].pose(player.local_pose(), player.weights());
      }
    }
    if (after_pose != nullptr) after_pose(context, begin, end);
  };
  if (pool == nullptr) {
    for (std::size_t b = 0; b < players_.size(); b += kChunk)
      update_range(b, std::min(players_.size(), b + kChunk));
    return;
  }
  pool->parallel_for(players_.size(), kChunk, update_range);
}

}  // namespace critter::creature
