// SPDX-License-Identifier: MIT
// LegacyRig: the common face of Survivalcraft's legacy procedural rigs (creatures.md Part A):
// FourLeggedRig, HumanRig, BirdRig, FlightlessBirdRig and FishRig. One object animates one
// creature and keeps its per-creature state (phases, smoothing). The same objects back both doors
// of DESIGN.md: CreatureModel's procedural-rig pose source (animate(), a ProceduralRig) and the
// creature drivers of animation-config.md §14.2 (legacy_drivers.h), which call step() and
// write_pose() on inputs read from parameters.
//
//   auto rig = legacy::make_rig("four-legged", "wolf", model.skeleton());   // legacy_rig_factory.h
//   if (!rig) return rig.error();           // names the missing bones and the aliases tried
//   (*rig)->set_setting("WalkAnimationSpeed", 1.2f);
//   creature.set_procedural_rig(std::move(*rig));
//   ... creature.update(dt, state);  const auto& out = rig_ptr->outputs();
//
// Bones are found by their legacy names (the roles: "Body", "Head", "Leg1", ...), each through an
// alias map (role → the model's bone name) first, then by the role name itself (case-insensitive
// as Skeleton::find). Every pose written follows the bone rule: BoneRule::kLegacy (creatures.md §1,
// the default) composes local = T(t_rest)·M·R_rest·S_rest from the rig's override M (rest
// translation kept, M's own translation added); BoneRule::kReplace writes M as the whole local
// (full replacement, glTF). The rig composes the rule itself, so keeps_rest_translation() is false.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "critter/asset/skeleton.h"
#include "critter/core/error.h"
#include "critter/creature/legacy/common.h"
#include "critter/creature/legacy/procedural_rig.h"
#include "critter/creature/legacy/rig_inputs.h"
#include "critter/creature/legacy/rig_outputs.h"

namespace critter::creature::legacy {

enum class Kind : std::uint8_t { kFourLegged, kHuman, kBird, kFlightlessBird, kFish };

// "four-legged", "human", "bird", "flightless-bird", "fish".
std::string_view to_string(Kind kind);
// The kind a name gives (those of to_string, case-insensitive; '_' reads as '-'), or nullopt.
std::optional<Kind> parse_kind(std::string_view name);

enum class BoneRule : std::uint8_t { kLegacy, kReplace };

// One alias: the rig role (legacy bone name, "Leg1") and the model's bone that plays it.
struct BoneAlias {
  std::string role;
  std::string bone;
};

// A bone a rig drives: its legacy name and whether a model must have it.
struct BoneRole {
  std::string_view name;
  bool required = true;
};

class LegacyRig : public ProceduralRig {
 public:
  static constexpr int kMaxRoles = 8;

  Kind kind() const { return kind_; }
  // The species preset the settings came from ("default" for the database defaults).
  std::string_view species() const { return species_; }
  void set_species_name(std::string_view name) { species_ = name; }
  // The rig's bones, in role order (role index = position here).
  std::span<const BoneRole> roles() const { return roles_; }

  // Finds every role's joint in `skeleton`: through `aliases` (role names case-insensitive) when
  // one names the role, else by the role name. Fails (kInvalid, path "legacy rig", location the
  // kind) naming every missing required bone with the names tried; the rig is then unbound.
  Status bind(const Skeleton& skeleton, std::span<const BoneAlias> aliases = {});
  bool bound() const { return bound_; }
  // The joint of role `role`, -1 when the model lacks an optional one (or unbound).
  int joint(int role) const { return joints_[static_cast<std::size_t>(role)]; }
  int role_index(std::string_view name) const;  // -1 when the rig has no such role

  // Settings by their database names (case-insensitive); bools read value != 0. Fails (kUsage)
  // on an unknown name or a non-finite value, naming the closest known name.
  Status set_setting(std::string_view name, float value);
  std::optional<float> setting(std::string_view name) const;
  virtual std::span<const std::string_view> setting_names() const = 0;

  void set_bone_rule(BoneRule rule) { rule_ = rule; }
  BoneRule bone_rule() const { return rule_; }

  // One frame: advances the state by `dt` seconds (non-finite or negative reads as 0, more than
  // 1 s as 1 s: the smoothing saturates at 1/12 s and phases stay small) from
  // `inputs` and computes the overrides and outputs(). Never allocates.
  void step(const RigInputs& inputs, float dt);
  // Writes the overrides of the last step into `pose` (one Transform per joint of the bound
  // skeleton; joints out of range are skipped): only bones the rig set this frame, composed by the
  // bone rule. `role_mask` (bit i = role i) limits which roles are written; `touched`, when not
  // empty, gets 1 for each joint written. `overrides_only`: write each override M itself (the
  // delta of an Additive layer), ignoring the bone rule. Never allocates.
  void write_pose(std::span<Transform> pose, std::uint32_t role_mask = ~0u,
                  std::span<std::uint8_t> touched = {}, bool overrides_only = false) const;
  const RigOutputs& outputs() const { return outputs_; }

  // ProceduralRig: step(from_state(state), dt) then write_pose(local_pose).
  void animate(const CreatureState& state, float dt, std::span<Transform> local_pose) override;

  // A copy with the same settings, binding and state.
  virtual std::unique_ptr<LegacyRig> clone() const = 0;

 protected:
  LegacyRig(Kind kind, std::span<const BoneRole> roles);
  virtual void do_step(const RigInputs& inputs, float dt) = 0;
  // A rig's named float/bool settings: fills `value` (write: reads it) and returns true when the
  // name is known.
  virtual bool access_setting(std::string_view name, float* read, const float* write) = 0;

  bool has(int role) const { return joints_[static_cast<std::size_t>(role)] >= 0; }
  // The override M of `role` for this frame (entity frame for Body, bone space otherwise).
  // Inline, so that a transform built at the call is stored straight into place: passed to an
  // out-of-line call it went through memory, written in narrow parts and read back in 16-byte
  // loads that the store buffer cannot forward (most of the time of these calls).
  void set(int role, const Transform& m) {
    if (role < 0 || !has(role)) return;
    overrides_[static_cast<std::size_t>(role)] = m;
    set_mask_ |= 1u << role;
  }
  void set_rotation(int role, const quat& r) { set(role, Transform{vec3(0.0f), r, vec3(1.0f)}); }
  // The look angles of this frame from the look orders or the host's angles (§2).
  vec2 look_angles(const RigInputs& in, float dt, bool fish = false);
  void event(RigEventType type) { outputs_.events.push({type, 0.0f}); }

  RigOutputs outputs_;

 private:
  Kind kind_;
  std::span<const BoneRole> roles_;
  std::string species_ = "default";
  BoneRule rule_ = BoneRule::kLegacy;
  bool bound_ = false;
  std::array<int, kMaxRoles> joints_{};
  std::array<Transform, kMaxRoles> rest_{};
  std::array<Transform, kMaxRoles> overrides_{};
  std::uint32_t set_mask_ = 0;
  LookOrders look_;
};

}  // namespace critter::creature::legacy
