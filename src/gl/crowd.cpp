#include "critter/gl/crowd.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

namespace critter::gl {
namespace {

std::unexpected<Error> usage(std::string message) {
  return fail(Error::at(ErrorCode::kUsage, "crowd", "", std::move(message)));
}

}  // namespace

Result<std::unique_ptr<Crowd>> Crowd::create(const GpuModel& model, const CrowdOptions& options) {
  const Model& m = model.model();
  if (options.count == 0) return usage("a crowd needs at least one creature");
  if (!std::isfinite(options.spacing)) return usage("spacing is not finite");
  if (!std::isfinite(options.rate)) return usage("rate is not finite");
  const bool animated = options.clip >= 0 && !m.clips().empty();
  if (animated && static_cast<std::size_t>(options.clip) >= m.clips().size())
    return usage("no clip " + std::to_string(options.clip) + " (the model has " +
                 std::to_string(m.clips().size()) + ")");

  std::unique_ptr<Crowd> crowd(new Crowd());
  crowd->model_ = &model;
  const Aabb& rest = m.bounds();
  float spacing = options.spacing;
  if (spacing <= 0.0f) {
    const vec3 extent = rest.extent();
    spacing = std::max(1.25f * std::max(extent.x, extent.z), 0.1f);
  }
  crowd->spacing_ = spacing;
  crowd->shadows_ = options.shadows;

  const std::uint32_t n = options.count;
  const auto columns = static_cast<std::uint32_t>(std::ceil(std::sqrt(static_cast<double>(n))));
  const std::uint32_t rows = (n + columns - 1) / columns;
  // Centre the grid: cell (c, r) sits at ((c - (columns - 1) / 2) s, 0, (r - (rows - 1) / 2) s).
  const float x0 = -0.5f * static_cast<float>(columns - 1) * spacing;
  const float z0 = -0.5f * static_cast<float>(rows - 1) * spacing;
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
    anim::Instance& instance = crowd->instances_.emplace_back(m);
    if (animated) {
      anim::PlayOptions play;
      play.rate = options.rate;
      if (options.phase_offsets) {
        const double phase = static_cast<double>(i) * 0.6180339887498949;
        play.offset = static_cast<float>(phase - std::floor(phase));
      }
      if (Status s = instance.player().play(options.clip, options.mode, play); !s)
        return std::unexpected(s.error());
    }
    instance.update(0.0f);
  }
  return crowd;
}

void Crowd::update(float dt) {
  for (anim::Instance& instance : instances_) {
    instance.update(dt);
    // Loops report nothing; a Once clip's completion record is dropped so the list never grows.
    instance.player().clear_records();
  }
}

RenderInstance Crowd::render_instance(std::size_t i) const {
  RenderInstance r = gl::render_instance(*model_, instances_[i]);
  r.world_from_model = placements_[i];
  r.cast_shadow = shadows_;
  return r;
}

Status Crowd::submit(Renderer& renderer) const {
  for (std::size_t i = 0; i < instances_.size(); ++i) {
    if (Status s = renderer.submit(render_instance(i)); !s) return s;
  }
  return {};
}

}  // namespace critter::gl
