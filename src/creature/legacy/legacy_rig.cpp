// SPDX-License-Identifier: MIT
#include "critter/creature/legacy/legacy_rig.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "critter/core/error.h"
#include "critter/core/strings.h"
#include "setting_table.h"

namespace critter::creature::legacy {

std::string_view to_string(Kind kind) {
  switch (kind) {
    case Kind::kFourLegged:
      return "four-legged";
    case Kind::kHuman:
      return "human";
    case Kind::kBird:
      return "bird";
    case Kind::kFlightlessBird:
      return "flightless-bird";
    case Kind::kFish:
      return "fish";
  }
  return "four-legged";
}

std::optional<Kind> parse_kind(std::string_view name) {
  std::string n(name);
  std::replace(n.begin(), n.end(), '_', '-');
  for (Kind k :
       {Kind::kFourLegged, Kind::kHuman, Kind::kBird, Kind::kFlightlessBird, Kind::kFish}) {
    if (iequals(n, to_string(k))) return k;
  }
  return std::nullopt;
}

std::string_view to_string(RigEventType type) {
  switch (type) {
    case RigEventType::kFootstep:
      return "footstep";
    case RigEventType::kCanterSound:
      return "canter-sound";
    case RigEventType::kAttackHit:
      return "attack-hit";
    case RigEventType::kRowingSound:
      return "rowing-sound";
  }
  return "footstep";
}

LegacyRig::LegacyRig(Kind kind, std::span<const BoneRole> roles) : kind_(kind), roles_(roles) {
  joints_.fill(-1);
}

int LegacyRig::role_index(std::string_view name) const {
  for (std::size_t r = 0; r < roles_.size(); ++r) {
    if (iequals(roles_[r].name, name)) return static_cast<int>(r);
  }
  return -1;
}

Status LegacyRig::bind(const Skeleton& skeleton, std::span<const BoneAlias> aliases) {
  bound_ = false;
  joints_.fill(-1);
  std::string missing;
  const auto rest = skeleton.rest_pose();
  for (std::size_t r = 0; r < roles_.size(); ++r) {
    const std::string_view role = roles_[r].name;
    std::string tried;
    int j = -1;
    for (const BoneAlias& a : aliases) {
      if (!iequals(a.role, role)) continue;
      tried += "'" + a.bone + "', ";
      j = skeleton.find(a.bone);
      if (j >= 0) break;
    }
    if (j < 0) {
      tried += "'" + std::string(role) + "'";
      j = skeleton.find(role);
    }
    if (j < 0) {
      if (roles_[r].required) {
        if (!missing.empty()) missing += "; ";
        missing += std::string(role) + " (tried " + tried + ")";
      }
      continue;
    }
    joints_[r] = j;
    rest_[r] = rest[static_cast<std::size_t>(j)];
  }
  if (!missing.empty()) {
    joints_.fill(-1);
    return fail(Error::at(ErrorCode::kInvalid, "legacy rig", std::string(to_string(kind_)),
                          "the model lacks the bones the " + std::string(to_string(kind_)) +
                              " rig needs: " + missing));
  }
  bound_ = true;
  return {};
}

Status LegacyRig::set_setting(std::string_view name, float value) {
  if (!std::isfinite(value)) {
    return fail(Error::at(ErrorCode::kUsage, "legacy rig", std::string(name),
                          "the value of setting '" + std::string(name) + "' is not finite"));
  }
  if (access_setting(name, nullptr, &value)) return {};
  std::string_view best;
  std::size_t best_d = ~std::size_t{0};
  for (std::string_view known : setting_names()) {
    const std::size_t d = iedit_distance(name, known);
    if (d < best_d) {
      best_d = d;
      best = known;
    }
  }
  std::string message =
      "the " + std::string(to_string(kind_)) + " rig has no setting '" + std::string(name) + "'";
  if (!best.empty()) message += " (did you mean '" + std::string(best) + "'?)";
  return fail(Error::at(ErrorCode::kUsage, "legacy rig", std::string(name), std::move(message)));
}

std::optional<float> LegacyRig::setting(std::string_view name) const {
  float v = 0.0f;
  // access_setting only reads when `write` is null.
  if (const_cast<LegacyRig*>(this)->access_setting(name, &v, nullptr)) return v;
  return std::nullopt;
}

vec2 LegacyRig::look_angles(const RigInputs& in, float dt, bool fish) {
  if (!in.has_look_at && !(in.head_shake > 0.0f) && !in.look_random) {
    return look_.update(LookOrders::Inputs{.look_angles = in.look_angles}, dt);
  }
  LookOrders::Inputs l;
  l.position = in.position;
  l.rotation = in.rotation();
  l.box_y = in.body_height;
  l.box_z = in.body_depth;
  l.fish = fish;
  l.look_at = in.has_look_at ? &in.look_at : nullptr;
  l.look_random = in.look_random;
  l.head_shake = in.head_shake;
  l.game_time = in.game_time;
  l.entity_hash = in.entity_hash;
  l.look_angles = in.look_angles;
  return look_.update(l, dt);
}

void LegacyRig::step(const RigInputs& inputs, float dt) {
  if (!std::isfinite(dt) || dt < 0.0f) dt = 0.0f;
  // A frame longer than a second is treated as one second: the smoothing saturates at 1/12 s
  // anyway, and phases stay far from float overflow.
  dt = std::min(dt, 1.0f);
  outputs_.events.clear();
  set_mask_ = 0;
  do_step(inputs, dt);
}

void LegacyRig::write_pose(std::span<Transform> pose, std::uint32_t role_mask,
                           std::span<std::uint8_t> touched, bool overrides_only) const {
  for (std::size_t r = 0; r < roles_.size(); ++r) {
    if ((set_mask_ & role_mask & (1u << r)) == 0) continue;
    const int j = joints_[r];
    if (j < 0 || static_cast<std::size_t>(j) >= pose.size()) continue;
    const Transform& m = overrides_[r];
    const Transform& rest = rest_[r];
    Transform out = m;
    if (rule_ == BoneRule::kLegacy && !overrides_only) {
      // T(t_rest)·M·R_rest·S_rest (column order): M acts in the parent frame about the bone's
      // rest position. M's scale is taken as acting on the bone's own axes.
      out.translation = rest.translation + m.translation;
      out.rotation = glm::normalize(m.rotation * rest.rotation);
      out.scale = rest.scale * m.scale;
    }
    pose[static_cast<std::size_t>(j)] = out;
    if (static_cast<std::size_t>(j) < touched.size()) touched[static_cast<std::size_t>(j)] = 1;
  }
}

void LegacyRig::animate(const CreatureState& state, float dt, std::span<Transform> local_pose) {
  step(from_state(state), dt);
  write_pose(local_pose);
}

}  // namespace critter::creature::legacy
