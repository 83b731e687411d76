// SPDX-License-Identifier: MIT
// CreatureSim: one simulated legacy creature (creatures.md Part A) as `critter pose --creature`,
// `critter render --creature` and `critter-viewer --creature` drive it: state in, one local pose
// per step out, and a report of what the rig shows. make_creature_sim() builds one from a model and
// a CreatureSpec.
//
//   Result<std::unique_ptr<CreatureSim>> sim = make_creature_sim(model, spec);
//   std::vector<Transform> pose(rest.begin(), rest.end());
//   (*sim)->set_state(with_creature_defaults(spec.state));
//   (*sim)->step(1.0f / 60.0f, pose);  // pose: the creature's locals after 1/60 s
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "creature_spec.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/core/transform.h"

namespace critter::tools {

// A moment the rig reports: a footstep, an attack hit.
struct CreatureEvent {
  double t = 0.0;    // simulated seconds since the sim was made, at the end of the step
  std::string name;  // "Footstep", "AttackHit", ... (the event names of animation-config.md §17)
};

// What the rig shows after the last step.
struct CreatureFrameInfo {
  CreatureKind kind = CreatureKind::kFourLegged;
  // The movement the rig shows: four-legged "walk", "trot" or "canter" (creatures.md §3); the
  // other rigs name theirs the same way (e.g. "fly", "swim"). Lowercase.
  std::string gait;
  float phase = 0.0f;        // the movement phase φ, cycles
  float bob = 0.0f;          // the body's vertical bob, metres (after smoothing)
  float death_phase = 0.0f;  // 0 (alive) .. 1 (the death animation finished)
  // Every event since the sim was made, in the order they happened.
  std::vector<CreatureEvent> events;
};

class CreatureSim {
 public:
  virtual ~CreatureSim() = default;

  // The state the next steps use, as given (the caller applies with_creature_defaults()
  // first). A member left unset keeps the rig's default. Called before every step; the same
  // state may come again, and an order (head_shake, attack, ...) that stays set stays held.
  virtual void set_state(const CreatureStateArgs& state) = 0;

  // Advances the simulation by `dt` seconds (finite, > 0) and writes the resulting local pose:
  // `locals` has one Transform per joint of the model's skeleton and arrives holding the rest
  // pose; the sim overwrites the bones its rig animates, with the pose in its final form (the
  // legacy rest-translation rule of creatures.md §1 already applied when the rig keeps rest
  // translations). Never writes a non-finite value.
  virtual void step(float dt, std::span<Transform> locals) = 0;

  // What the rig shows after the last step (before the first: the rig's start), its `events`
  // left empty: a caller that steps for long reads the events through events() without copying.
  virtual CreatureFrameInfo motion() const = 0;
  // Every event since the sim was made, in the order they happened.
  virtual std::span<const CreatureEvent> events() const = 0;
  // motion() with events() copied into it.
  CreatureFrameInfo info() const {
    CreatureFrameInfo out = motion();
    const std::span<const CreatureEvent> all = events();
    out.events.assign(all.begin(), all.end());
    return out;
  }

  // The instance's placement above the model root after the last step: the entity transform the
  // rig poses the Body against (creatures.md §2), e.g. R_Y(yaw). Identity by default.
  virtual mat4 root_matrix() const { return mat4(1.0f); }
};

// What a tool's simulation assumes when the state or the parameters do not say, shared by
// `--creature` (CreatureSim) and `--config` (the controller's built-in parameters):
// the walking speed W, m/s (walk below 0.5·W, trot above it for species that trot, canter above
// 0.7·W: creatures.md's four-legged gaits)...
inline constexpr float kDefaultWalkSpeed = 4.0f;
// ...and the body's bounding-box size (x width, y height, z depth, metres): the model's rest
// bounds, each extent finite and >= 0 (0 for an empty or broken box).
vec3 default_body_size(const Model& model);

// A simulation of `spec.kind` on `model` (which must outlive the result) at time 0, with
// spec.species' preset and spec.rig_params applied in order. Errors (path: the model as
// reported by the caller's messages, e.g. the file): an unknown species or rig setting (kUsage
// at "--species" / "--rig-param", suggesting the closest names); a rig-setting value of the wrong
// type (kUsage at "--rig-param"); a model without the bones the rig needs (kInvalid, naming the
// missing bones and the aliases tried); a build without the rigs (kUnsupported at "--creature").
Result<std::unique_ptr<CreatureSim>> make_creature_sim(const Model& model, const std::string& path,
                                                       const CreatureSpec& spec);

}  // namespace critter::tools
