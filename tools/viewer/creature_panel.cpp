// SPDX-License-Identifier: MIT
#include "creature_panel.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>
#include <variant>

#include <utility>
#include "../common/posed_bounds.h"

namespace critter::viewer {

SliderRange slider_range(const tools::StateField& field) {
  SliderRange r{-10.0f, 10.0f};
  if (field.name == "speed" || field.name == "walk_speed") r = {0.0f, 10.0f};
  if (field.name == "health" || field.name == "immersion") r = {0.0f, 1.0f};
  if (field.name == "yaw") r = {-180.0f, 180.0f};
  if (field.name == "head_shake") r = {0.0f, 5.0f};
  if (field.name == "dig_order") r = {0.0f, 2.0f};
  r.min = std::clamp(r.min, field.min, field.max);
  r.max = std::clamp(r.max, field.min, field.max);
  return r;
}

tools::StateValue shown_value(const tools::CreatureStateArgs& state,
                              const tools::StateField& field) {
  const tools::CreatureStateArgs shown = tools::with_creature_defaults(state);
  tools::StateValue v;
  v.type = field.type();
  std::visit(
      [&](auto member) {
        using T = typename std::remove_reference_t<decltype(shown.*member)>::value_type;
        const std::optional<T>& value = shown.*member;
        if constexpr (std::is_same_v<T, float>) {
          const float fallback = field.name == "health"       ? 1.0f
                                 : field.name == "walk_speed" ? 4.0f
                                                              : 0.0f;
          v.number = value.value_or(fallback);
        } else if constexpr (std::is_same_v<T, bool>) {
          const bool fallback = field.name == "on_ground" && !shown.flying.value_or(false) &&
                                shown.immersion.value_or(0.0f) < 0.5f;
          v.boolean = value.value_or(fallback);
        } else if constexpr (std::is_same_v<T, vec2>) {
          v.vec = vec3(value.value_or(vec2(0.0f)), 0.0f);
        } else if constexpr (std::is_same_v<T, vec3>) {
          v.vec = value.value_or(vec3(0.0f));
        } else {
          v.text = std::string(field.choices()[value ? static_cast<std::size_t>(*value) : 0]);
        }
      },
      field.member);
  return v;
}

Result<std::unique_ptr<CreaturePanel>> CreaturePanel::load(const tools::CreatureFlags& flags,
                                                           std::shared_ptr<const Model> model,
                                                           const std::string& path) {
  Result<tools::CreatureSpec> spec = tools::parse_creature_flags(flags, path);
  if (!spec) return fail(std::move(spec.error()));
  std::unique_ptr<CreaturePanel> panel(new CreaturePanel());
  panel->model_ = std::move(model);
  panel->path_ = path;
  panel->spec_ = std::move(*spec);
  panel->state_ = panel->spec_.state;
  panel->instance_ = std::make_unique<anim::Instance>(*panel->model_);
  if (Status s = panel->restart(); !s) return fail(std::move(s.error()));
  return panel;
}

Aabb CreaturePanel::placed_bounds() const {
  return tools::posed_bounds(*instance_);
}

Status CreaturePanel::set_value(const tools::StateField& field, const tools::StateValue& value) {
  if (!tools::store_state_value(state_, field, value)) {
    return fail(Error::at(ErrorCode::kUsage, path_, std::string(field.name),
                          std::string(field.name) + " takes " + tools::state_value_text(field)));
  }
  return {};
}

void CreaturePanel::unset(const tools::StateField& field) {
  std::visit([&](auto member) { (state_.*member).reset(); }, field.member);
}

void CreaturePanel::kill() {
  state_.health = 0.0f;
}

Status CreaturePanel::revive() {
  state_.health = 1.0f;
  return restart();
}

Status CreaturePanel::restart() {
  Result<std::unique_ptr<tools::CreatureSim>> sim = tools::make_creature_sim(*model_, path_, spec_);
  if (!sim) return fail(std::move(sim.error()));
  sim_ = std::move(*sim);
  const std::span<const Transform> rest = model_->skeleton().rest_pose();
  pose_.assign(rest.begin(), rest.end());
  events_.clear();
  events_seen_ = 0;
  time_ = 0.0;
  sim_->set_state(tools::with_creature_defaults(state_));
  info_ = sim_->motion();
  place();
  return {};
}

void CreaturePanel::update(float dt) {
  if (!std::isfinite(dt) || dt <= 0.0f) return;
  const std::span<const Transform> rest = model_->skeleton().rest_pose();
  const double end = time_ + dt;
  bool stepped = false;
  while (time_ < end) {
    // As the command line: 60 Hz steps, the last one shorter, a rounding sliver dropped.
    const double step = std::min(kStep, end - time_);
    if (step < 1e-7) break;
    sim_->set_state(tools::with_creature_defaults(state_));
    std::copy(rest.begin(), rest.end(), pose_.begin());
    sim_->step(static_cast<float>(step), pose_);
    time_ += step;
    stepped = true;
  }
  if (!stepped) return;
  info_ = sim_->motion();
  // The sim keeps every event since it was made; take the new ones.
  const std::span<const tools::CreatureEvent> all = sim_->events();
  for (std::size_t i = events_seen_; i < all.size(); ++i) {
    events_.push_back(all[i]);
    if (events_.size() > kEventCount) events_.pop_front();
  }
  events_seen_ = all.size();
  place();
}

void CreaturePanel::place() {
  instance_->set_root(sim_->root_matrix());
  // The sim writes one finite transform per joint, so posing cannot fail.
  (void)instance_->pose(pose_);
}

}  // namespace critter::viewer
