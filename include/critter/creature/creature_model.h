// SPDX-License-Identifier: MIT
// CreatureModel: one creature's animation driver over a shared Model, with Survivalcraft's
// priority chain (creatures.md §1). Every update(dt, state) the first source that animates the
// creature produces its local pose:
//   1. the host hook (a mod taking over the frame) when it returns true;
//   2. the Controller, when the creature has a ControllerProgram (animation-config.md): the §16
//      built-ins and the legacy rig parameters are written from the state, set_body(velocity,
//      rotation) feeds root motion, then update() and compute_pose() (§19);
//   3. the simple player: without a controller, a Player that loops the model's first clip;
//   4. the procedural rig: without a controller and without clips; none set: the rest pose.
// The pose and its morph weights are then placed and posed into an anim::Instance (model-space
// matrices and the weights renderers read), and the pose modifiers added with
// add_pose_modifier() change those matrices in order. Palettes are built from model_transforms()
// by whoever needs them (deform::PaletteJob), after update().
//
// Per-instance state (DESIGN.md): the Model and the program are shared and must outlive the
// CreatureModel. After construction update() does not allocate (the hook, the rig and the host's
// event hooks aside), under the Controller's rule for string source parameters.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/anim/instance.h"
#include "critter/anim/player.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/core/transform.h"
#include "critter/creature/builtin_parameters.h"
#include "critter/creature/creature_state.h"
#include "critter/creature/game_rules.h"
#include "critter/creature/legacy/procedural_rig.h"
#include "critter/creature/legacy/rig_inputs.h"
#include "critter/creature/pose_modifier.h"

namespace critter::creature {

// The source that produced the pose of the last update().
enum class PoseSource : std::uint8_t {
  kRest,        // nothing animated the creature (also before the first update)
  kHook,        // the host hook returned true
  kController,  // the animation controller
  kPlayer,      // the simple player looping the model's first clip
  kProcedural,  // the procedural rig
};

std::string_view to_string(PoseSource source);

struct CreatureModelOptions {
  // False: the instance is placed at the state's entity transform T(position)·R(rotation).
  // True: at the origin (identity entity), for hosts that place the model themselves.
  bool model_space = false;
  // Movement phase cycles per metre of forward speed when CreatureModel integrates it, used
  // when the controller has no WalkAnimationSpeed above 0 (Survivalcraft's database default 1).
  float walk_animation_speed = 1.0f;
  // DeathPhase per second while dead when there is no controller (with one, its DeathSpeed
  // parameter is read back every frame: default 3, quirk 13).
  float death_speed = 3.0f;
};

class CreatureModel {
 public:
  // Returns true when it animated the creature this frame (the rest of the chain is skipped),
  // false to fall through. It may write writable_pose(), use controller(), read state().
  using Hook = std::function<bool(CreatureModel& model, float dt)>;

  // A creature without a controller: plays the model's first clip looping (playback from
  // cursor 0) when the model has clips; otherwise uses the procedural rig once one is set.
  // `model` must outlive the CreatureModel.
  explicit CreatureModel(const Model& model, CreatureModelOptions options = {});

  // A creature driven by `program` (null: as the constructor above). Fails (kUsage) when the
  // program was compiled for another Model object than `model`. `model` must outlive the result.
  static Result<CreatureModel> create(const Model& model,
                                      std::shared_ptr<const anim::ControllerProgram> program,
                                      CreatureModelOptions options = {});

  CreatureModel(CreatureModel&&) = default;
  CreatureModel& operator=(CreatureModel&&) = default;
  CreatureModel(const CreatureModel&) = delete;
  CreatureModel& operator=(const CreatureModel&) = delete;

  // One frame (dt in seconds; negative or non-finite counts as 0):
  //  - the death phase: while state.health <= 0 it rises by DeathSpeed·dt up to 1; alive it is 0;
  //  - the movement phase: state.movement_phase when set; otherwise, with v =
  //    forward_speed(state), φ += v·WAS·dt while |v| > 0.2 and φ = 0 otherwise (creatures.md §3),
  //    WAS being the controller's WalkAnimationSpeed when above 0, else
  //    options.walk_animation_speed. The integrated phase is kept in [0, 1) (whole cycles
  //    dropped), which periodic uses such as sin(2π·φ) do not see;
  //  - with a controller, the §16 built-ins and the rig parameters the legacy creature drivers
  //    read (legacy/rig_inputs.h write_rig_parameters: orders, IsCrouching, ...; those the
  //    program's schema holds) are written into its parameters (before the hook, so a hook that
  //    drives the controller itself finds them set) and its records of the previous update are
  //    cleared;
  //  - the chain above. A hook frame does not advance the controller or the player;
  //  - the instance is posed: root = entity (or identity in model space), through the
  //    controller's root_matrix(entity) and root_correction() when there is a controller (§12:
  //    model scale and root-bone correction, whatever the source of the frame). A procedural
  //    frame whose rig keeps rest translations has the rule folded into its local pose first
  //    (apply_legacy_rest_translation, so local_pose() shows the rest translations);
  //  - the pose modifiers run, in the order they were added, on the instance's model-space
  //    matrices.
  // Fails (kUsage) when the state's placement is not finite; the matrices of the previous frame
  // stay then (the pose and phases are updated).
  Status update(float dt, const CreatureState& state);

  // Which source produced the last pose.
  PoseSource source() const { return source_; }

  // Priority-chain inputs. The hook and the rig apply from the next update().
  void set_hook(Hook hook) { hook_ = std::move(hook); }
  void set_procedural_rig(std::unique_ptr<ProceduralRig> rig) { rig_ = std::move(rig); }
  ProceduralRig* procedural_rig() const { return rig_.get(); }
  // Appends a pose modifier (not null), run after the pose modifiers added before it, from the
  // next update() on. Adding allocates; update() does not.
  void add_pose_modifier(std::unique_ptr<PoseModifier> modifier);
  std::size_t pose_modifier_count() const { return modifiers_.size(); }

  // Built-in event hooks (§17), called from inside update() by the game rules (game_rules.h) as
  // the controller's events happen: Footstep (with the event's data; at most one per 0.2 s and
  // only while IsOnGround or ImmersionFactor > 0.5), AttackHit, AttackStart, AttackEnd. Without a
  // controller they are kept and never called.
  void set_footstep_hook(std::function<void(std::string_view data)> hook);
  void set_attack_hit_hook(std::function<void()> hook);
  void set_attack_start_hook(std::function<void()> hook);
  void set_attack_end_hook(std::function<void()> hook);

  // The controller (null without a program). Hosts set their own parameters through it before
  // update() and read root-motion scale and physics flags after it.
  anim::Controller* controller() { return controller_ ? &*controller_ : nullptr; }
  const anim::Controller* controller() const { return controller_ ? &*controller_ : nullptr; }
  // The controller's records (events, completions, interrupts) of the last update; empty
  // without a controller or after a hook frame.
  std::span<const anim::ControllerRecord> records() const;
  // The controller's root-motion velocity of the last update (§13); nullopt without one.
  std::optional<vec3> root_motion_velocity() const;
  // True from an AttackHit event until an AttackEnd event; false without a controller.
  bool attack_hit_moment() const;

  // Phases of the last update.
  float death_phase() const { return phases_.death; }
  float movement_phase() const { return phases_.movement; }
  // The state passed to the last update() (a default state before the first).
  const CreatureState& state() const { return state_; }

  // The local pose of the last update, one Transform per joint (the rest pose before the first).
  std::span<const Transform> local_pose() const { return pose_; }
  // The same buffer, for a hook: it holds the previous frame's pose when the hook is called and
  // is what the instance is posed from when the hook returns true.
  std::span<Transform> writable_pose() { return pose_; }
  // The morph weights of the last update, every mesh's flat as morph_layout() lays them out (the
  // instance's morph_weights() too): the controller's (Controller::morph_weights(), §19), the
  // simple player's, or the model's default weights for a procedural or rest frame and before the
  // first update. A hook frame keeps the previous frame's weights unless the hook writes
  // writable_morph_weights(), which, like writable_pose(), the instance is posed from.
  std::span<const float> morph_weights() const { return weights_; }
  std::span<float> writable_morph_weights() { return weights_; }
  const anim::MorphLayout& morph_layout() const { return player_.layout(); }

  const Model& model() const { return instance_.model(); }
  // The posed instance: model_from_joint matrices (placement included, pose modifiers applied)
  // and morph weights of the last update().
  const anim::Instance& instance() const { return instance_; }
  std::span<const mat4> model_transforms() const { return instance_.model_transforms(); }
  mat4 bone_transform(int bone) const { return instance_.bone_transform(bone); }
  int find_bone(std::string_view name) const { return instance_.find_bone(name); }
  // The simple player (it plays only when there is no controller).
  const anim::Player& player() const { return player_; }

 private:
  CreatureModel(const Model& model, std::shared_ptr<const anim::ControllerProgram> program,
                CreatureModelOptions options);
  void advance_phases(float dt);
  void animate(float dt);
  void rest_pose();

  CreatureModelOptions options_;
  anim::Instance instance_;
  anim::Player player_;
  std::optional<anim::Controller> controller_;
  BuiltinParameterIndices indices_;
  legacy::RigParameterIndices rig_indices_{};
  anim::ParamIndex death_speed_ = anim::kNoParam;
  anim::ParamIndex walk_animation_speed_ = anim::kNoParam;
  std::unique_ptr<GameRules> rules_;  // on the heap: the controller's event hook points at it
  Hook hook_;
  std::unique_ptr<ProceduralRig> rig_;
  std::vector<std::unique_ptr<PoseModifier>> modifiers_;
  std::vector<Transform> pose_;
  std::vector<float> weights_;  // laid out by morph_layout()
  CreatureState state_;
  CreaturePhases phases_;
  PoseSource source_ = PoseSource::kRest;
  bool has_clip_ = false;
};

}  // namespace critter::creature
