// SPDX-License-Identifier: MIT
// Controller: one creature's animation-controller state (animation-config.md §8-§14, §17-§19)
// over a shared ControllerProgram (controller_program.h): parameter values, one Player per layer,
// layer weight fades, rule de-duplication memory, one instance of every driver the program may
// run, the root-bone correction blend, root motion (translation, scale override, physics flags),
// IK smoothing and the output record list.
//
//   Controller creature(program);
//   creature.parameters().set_float("SpeedXZ", 1.5);
//   creature.update(dt);
//   for (const ControllerRecord& r : creature.records()) host_event(r);
//   creature.clear_records();
//   std::span<const Transform> pose = creature.compute_pose();
//
// After construction update() and compute_pose() do not allocate, as long as the caller clears
// the record list after each update, string parameters used as sources stay within 64 bytes and
// driverArgs set no string parameter longer than its current value's capacity. Runtime warnings
// (runtime_warnings()) allocate only in the update that records a new one.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "critter/anim/blending_job.h"
#include "critter/anim/controller_desc.h"
#include "critter/anim/controller_program.h"
#include "critter/anim/parameters.h"
#include "critter/anim/player.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/core/transform.h"

namespace critter::anim {

// One entry of the controller's output list (§17), in the order things happened.
struct ControllerRecord {
  enum class Kind : std::uint8_t {
    kEvent,      // a clip event was crossed (`count` > 1 for whole cycles of one long update)
    kComplete,   // onComplete trigger action of a non-looping clip that ended naturally
    kInterrupt,  // onInterrupt trigger action of a non-looping clip replaced or deactivated
  };
  Kind kind = Kind::kEvent;
  int layer = -1;
  std::string_view name;  // views into the program: valid while the program lives
  std::string_view data;
  float time = 0.0f;  // the configured event time; 0 for actions
  std::uint64_t count = 1;
};

// Host hooks. Any may be empty.
struct ControllerHooks {
  // Called from inside update() for every clip event (§17) as it joins records(), in order, with
  // the controller's parameters and time() (this update included). It may set parameters: a
  // change counts for the next rule evaluation, and expressions evaluated later in the same
  // update or in compute_pose() see it. The creature module's game rules (Footstep, AttackHit)
  // run here.
  std::function<void(const ControllerRecord& event, ParameterValues& parameters, double time)>
      event;
  // Called at the end of every update() in which root_motion_scale() has a value, with it (§13).
  std::function<void(float scale)> root_scale;
};

class Controller {
 public:
  // Sizes every buffer. Parameters start at the schema's initial values; every layer is empty at
  // weight 0; the root-bone correction starts at the top-level values.
  explicit Controller(std::shared_ptr<const ControllerProgram> program);

  ~Controller();
  Controller(Controller&&) noexcept;
  Controller& operator=(Controller&&) noexcept;
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  const ControllerProgram& program() const;
  ParameterValues& parameters();
  const ParameterValues& parameters() const;
  void set_hooks(ControllerHooks hooks);
  // How the layer stack and the layers' crossfades blend rotations from the next update() and
  // compute_pose() on: kSlerp (the default, animation-config.md §11, playback.md §8); kNlerp,
  // the blend 13-20 % faster and a little off slerp where the blended poses are far apart
  // (RotationBlend says how far); or kLerp, the weighted sum normalised once, faster again where
  // layers stack and further off slerp. Other values are taken as kSlerp.
  void set_rotation_blend(RotationBlend rotations);
  RotationBlend rotation_blend() const;
  // Seconds all update() calls have advanced (negative or non-finite steps count as 0).
  double time() const;

  // One frame (§19): evaluates the state rules when a parameter changed since the last update
  // (then resets triggers), applies changed rules to their layers, re-evaluates speed and `loop`
  // expressions, advances layer weight fades and players (events, completions and interrupts go
  // to records() in order), advances the root-bone correction blend, then root motion. dt in
  // seconds; negative or non-finite counts as 0.
  //
  // A `loop` expression that changes value switches the running play between LoopForward and
  // OnceForward in place (Player::set_mode): no restart, no crossfade, the cursor kept. The
  // switch happens before the layer's player advances, so a play that turned non-looping
  // completes (onComplete, then the fade-out unless preservePose) in the update that reaches its
  // end phase instead of wrapping, and one that turned looping wraps there and never completes.
  // onComplete and onInterrupt follow the value in effect when the play ends, each at most once
  // per play. A play that already completed is not restarted, and a layer fading out keeps its
  // mode.
  void update(float dt);

  // Manual control (§8): plays `clip` of the model on `layer` from code; the layer's rules are
  // skipped until release_manual_control(). A running non-looping rule animation on the layer
  // reports its onInterrupt. An empty layer fades in over options.blend_duration, otherwise the
  // player crossfades. No completion actions; a finished Once play holds its last pose.
  // options.on_done is not used. Fails (kUsage) on a bad layer or a play the Player rejects.
  Status play_animation(int layer, int clip, PlaybackMode mode, PlayOptions options = {});
  // Gives `layer` (-1: every layer) back to its rules: clears their de-duplication memory and
  // forces a rule evaluation in the next update().
  void release_manual_control(int layer = -1);
  bool manual(int layer) const;

  // Blends the active layers (§11) into one local pose, one Transform per joint, valid until the
  // next compute_pose(). Bones no layer sets take the rest pose. Then runs the IK chains and the
  // look-at entries (§18) on the blended pose, smoothing over the dt of the last update().
  //
  // compute_pose() also blends the layers' morph weights (§19: after the layer blend, before IK;
  // DESIGN.md convention 5: weights are tracks like joint channels). The output starts at the
  // model's default weights, as unset bones take the rest pose; then every active clip layer, in
  // index order, with its weight w (a driver layer writes no weights):
  //   Override: for each mesh the layer's clip has a weights track for, out = lerp(out, in,
  //             min(w, 1)), `in` being the layer player's weights. A clip without a weights track
  //             for a mesh leaves that mesh's weights as the layers below made them.
  //   Additive: out += w * (in - default) for every weight; a mesh the clip does not animate sits
  //             at its defaults, so it adds nothing (the identity delta).
  // Crossfades and weight fades follow the same progress as the joints: the layer weight w is the
  // one the bones use, and while the layer's player crossfades with progress f a mesh counts as
  // animated by f (target clip) plus 1 - f (source), so a mesh only one of the two clips animates
  // eases between that clip's weights and what the layers below show; an interrupted crossfade
  // keeps the coverage of the pose it froze. Joint masks (boneMask) do not apply to weights: a
  // mask selects bones, and a masked layer (a face or head layer) is where blink and jaw clips
  // usually play, so it drives its clip's morphs in full.
  std::span<const Transform> compute_pose();
  std::span<const Transform> pose() const;
  // The morph weights of the last compute_pose(), every mesh's flat as morph_layout() lays them
  // out (the model's default weights before the first compute_pose()). Valid until the next
  // compute_pose(); the buffer is sized at construction.
  std::span<const float> morph_weights() const;
  // The weights of mesh `mesh` within morph_weights(); empty for a mesh without morph targets or
  // an index out of range.
  std::span<const float> morph_weights(int mesh) const;
  const MorphLayout& morph_layout() const { return program().morph_layout(); }

  // The output list since the last clear_records().
  std::span<const ControllerRecord> records() const;
  void clear_records();

  // At most this many distinct runtime failures are recorded; then one last warning says so.
  static constexpr std::size_t kMaxRuntimeCases = 256;
  // Runtime warnings (animation-config.md §0.4) since the last clear_runtime_warnings(), oldest
  // first. Nothing fails at run time, but nothing is silent either:
  //   * a rule condition whose evaluation fails counts as false;
  //   * a speed, loop, startPhase, endPhase or blendDuration expression, an IK chain's enabled,
  //     weight, positionWeight or aimWeight, a look-at entry's yaw, pitch or weight, and an
  //     Expression driver channel (through the driver's DriverReporter) that fails take the
  //     field's static value (its default);
  //   * a `[Param]` source whose parameter names no clip of the model leaves the layer as it is
  //     (§9; an empty name is the normal "nothing yet" and is not reported).
  // "Fails" is an evaluation error (type mismatch, bad bitwise operand, text over
  // EvalScratch::kScratchBytes) or a result the field cannot take: a string, a non-finite number
  // for a number field, a string or NaN for a bool field.
  // Each case is recorded once per (field, value) for the life of the Controller: the value is the
  // string or the number the expression gave, the clip name the source read, or for an evaluation
  // error its kind. clear_runtime_warnings() empties the list but keeps that memory, so a case is
  // never reported twice; at most kMaxRuntimeCases are kept.
  //   Warning::path      the file of the field's SourceLocation, else ControllerDesc::source (empty
  //                      for a description built in code).
  //   Warning::location  the site's JSON pointer, else the field's place in the description as a
  //                      pointer with state and layer names, 0-based rule, chain and entry indices:
  //                      /states/<state>/rules/<i>[/rules/<j>...]/condition or .../animation/
  //                      <speed|loop|startPhase|endPhase|blendDuration|source>;
  //                      /ik/chains/<i>/<enabled|weight|positionWeight|aimWeight>;
  //                      /ik/lookAt/<i>/<yaw|pitch|weight>; a driver channel is below its driver's
  //                      properties, /layers/<layer>/driver/properties/boneConfigs/<b>/<channel>
  //                      or .../animation/driverArgs/boneConfigs/<b>/<channel>. A field merged in
  //                      from an alias reports the alias's site (/animations/<alias>/speed).
  //   Warning::message   what went wrong, then what was used, e.g. "evaluates to the string
  //                      'walk', not a number: used the default 1", "fails with a type mismatch:
  //                      the condition counts as false", "evaluates to inf, not a finite number:
  //                      used the default 0.3", "[Clip] names no clip 'Rnu': the layer keeps its
  //                      animation".
  // The list and the memory allocate only when a new case is recorded (no allocation in an
  // update or compute_pose that records nothing new).
  std::span<const Warning> runtime_warnings() const;
  void clear_runtime_warnings();

  // Layer state for hosts and tests.
  float layer_weight(int layer) const;
  // True when the layer contributes to the pose (weight > 0 and a clip or a driver to sample).
  bool layer_active(int layer) const;
  const Player& layer_player(int layer) const;
  // The description of the animation the layer plays (null when none).
  const ControllerAnimationDesc* layer_animation(int layer) const;

  // Effective root-bone correction (§12): rotation and translation (blended on animation
  // changes), and the model scale. The root's model transform is
  // T(entity)·R(entity)·rootLocal·T(translation)·R(rotation), modelScale applied first.
  quat root_bone_rotation() const;
  vec3 root_bone_translation() const;
  float model_scale() const { return program().desc().model_scale; }
  // The two matrices an Instance (or LocalToModelJob) takes to place this pose in the world:
  //   root_matrix(entity) = entity · S(model_scale), put above the skeleton (Instance::set_root);
  //   root_correction()   = T(translation / model_scale) · R(rotation), put after the local of
  //                         every root joint (Instance::set_root_correction).
  // The model scale thus scales the whole model (root translations included) and the correction
  // translation stays in metres: for a root joint with an identity local the root lands at
  // entity · T(translation) · R(rotation) · S(model_scale).
  mat4 root_matrix(const mat4& entity = mat4(1.0f)) const;
  mat4 root_correction() const;
  // Root motion (§13). The "config" is the rootMotion block of the animation the Base layer
  // plays; it is entered when a play of such an animation starts and left when the layer starts
  // another play, fades out, runs a driver or goes under manual control.
  //
  // Translation: the host passes the body's world velocity and rotation before every update();
  // after it, root_motion_velocity() is the velocity the body should take, or nullopt while the
  // Base layer's animation has no active root motion. In the update where a config with
  // clearVelocityOnExit is left, root_motion_velocity() is (0, 0, 0), whatever comes next.
  void set_body(const vec3& velocity, const quat& rotation);
  std::optional<vec3> root_motion_velocity() const;
  // Scale override (RootMotionScale): the uniform scale the host gives the body (its collision
  // box) after this update, eased on entering and leaving an Override config; nullopt when no
  // Override config is in effect and the ease back to 1 ended before this update (the update
  // that ends it still reports 1).
  std::optional<float> root_motion_scale() const;
  // Physics flags (RootMotionPhysics) of the config in effect after this update, with
  // disable_all expanded; all false when none. The host disables those effects while they are
  // set and restores them when they clear.
  const RootMotionPhysics& root_motion_physics() const;

 private:
  std::unique_ptr<detail::ControllerState> state_;
};

}  // namespace critter::anim
