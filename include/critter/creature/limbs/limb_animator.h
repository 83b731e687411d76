// SPDX-License-Identifier: MIT
// LimbAnimator: bends the knees and elbows of a split block-limbed character every frame and
// makes its limbs react to how the body moves and swims (creatures.md §12–§20). It runs after
// whatever produced the frame's pose (clip, controller, legacy rig) and never changes that pose:
// it is a PoseModifier, so a CreatureModel runs it after local-to-model.
//
//   auto split = creature::split_limbs(*model);             // at load
//   auto animator = creature::LimbAnimator::create(split->model, split->limbs);
//   creature::LimbAnimator& limbs = **animator;
//   creature_model.add_pose_modifier(std::move(*animator));  // creature_model over split->model
//   // every frame, before creature_model.update(dt, state):
//   limbs.set_motion({.y = feet_y, .speed = 3.0f, .vy = 0.0f, .grounded = true, .known = true});
//   limbs.set_water_pose(choice.pose, choice.speed);         // from a WaterPoseChooser
//   // after it: limbs.limb_frames()[i].bend, limbs.drop(), limbs.take_stroke_events() ...
//
// Construction probes the model's limb signs once (§12): which way each limb joint's local x and
// z turns swing the limb forward and outward, which way the root leans and banks, and the first
// leg's thigh and shin lengths. Each frame (§14): the whole-limb poses and motion turns go on the
// limb joints' locals and lean, bank and drop on the root's; local-to-model; the walk bend is
// measured from the game's own animation (swing and swing rate relative to "Body"); then each
// limb's lower joint is bent about the knee or elbow pivot, its seam joint by half the angle (the
// cut stays on the plane bisecting the two halves, so the seam keeps its rest width), and joints
// below the cut (a wield item) follow the lower half. After construction nothing allocates.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"
#include "critter/core/math.h"
#include "critter/core/transform.h"
#include "critter/creature/limbs/body_motion.h"
#include "critter/creature/limbs/body_reactions.h"
#include "critter/creature/limbs/limb.h"
#include "critter/creature/limbs/limb_angles.h"
#include "critter/creature/limbs/limb_step_job.h"
#include "critter/creature/limbs/stroke_event.h"
#include "critter/creature/pose_modifier.h"

namespace critter::creature {

struct LimbAnimatorOptions {
  // The character's model-space forward (only its horizontal part counts); −Z for Luanti
  // characters as critter imports them. The bend axis is normalize(cross(down, forward)).
  vec3 forward = kDefaultLimbForward;
  // False (the reference behaviour): the seam joint is the lower half's rigid half-turn, so the
  // side faces taper to cos(θ/2) of their width right at the joint. True: the seam joint is also
  // scaled by 1/cos(θ/2) along the bend plane's forward axis (θ clamped to 120°), an exact mitre.
  bool exact_mitre = false;
};

// One limb after a step. Angles in degrees.
struct LimbFrame {
  float bend = 0.0f;  // the knee or elbow bend applied: the eased target plus the motion bend
  // The upper limb's direction relative to the torso ("Body", or the root without one): pitch
  // forward of hanging straight, spread outward; both as measured after the strokes and motion
  // turns.
  float pitch = 0.0f;
  float spread = 0.0f;
  vec3 end{0.0f};  // the limb's far end (hand or foot centre), model space, after every bend
};

class LimbAnimator final : public PoseModifier {
 public:
  // An animator for `model` (a split model: every limb's joint, bone and seam_bone valid joints
  // of it, bone and seam_bone children of the joint). Errors (kUsage, path "LimbAnimator",
  // location "limbs/<i>") for a limb whose joints are out of range. A limb whose joint has a
  // degenerate rest matrix (zero scale) is left out with a warning located at its name; a model
  // with no limb left animates nothing. `model` must outlive the animator.
  static Result<std::unique_ptr<LimbAnimator>> create(const Model& model,
                                                      std::span<const Limb> limbs,
                                                      const LimbAnimatorOptions& options = {},
                                                      std::vector<Warning>* warnings = nullptr);

  // ---- Host inputs, read by the next step.
  // Fails (kUsage, path "BodyMotion", location the field) on a non-finite value; the previous
  // motion stays.
  Status set_motion(const BodyMotion& motion);
  // The whole-limb pose and the speed for its stroke rate (nodes per second; the signed vertical
  // speed for Climb). A non-finite speed counts as 0.
  void set_water_pose(WaterPose pose, float speed);
  // First person: elbows ×0.25 (the held item stays out of view), no lean or bank, the swing of
  // set_first_person_swing, and the head shrunk (see shadow_model_transforms()).
  void set_first_person(bool first_person) { first_person_ = first_person; }
  // First person (§14 step 5): a swing the host adds to one joint's animated rotation (the
  // view-model arm bobbing while mining), Euler degrees about the joint's own local x, then y,
  // then z, relative to the animation rather than absolute. An arm limb on that joint stays nearly
  // straight (5°). Applies only while first person is on. joint -1 clears it; an out-of-range
  // joint or a non-finite angle clears it too.
  void set_first_person_swing(int joint, const vec3& degrees);
  // Marks a joint as driven by a host bone override: a limb on it takes no stroke or motion turn
  // and an arm stays nearly straight (5°). Out-of-range joints are ignored.
  void set_bone_override(int joint, bool overridden);
  // Whether the body is in water (chest deep): stroke events are looked for only then, and
  // leaving the water forgets every hand's and foot's wet state.
  void set_in_water(bool in_water) { in_water_ = in_water; }
  // The host's liquid query: is this model-space point in a liquid? Called once per limb per
  // step while in water; without one no stroke event is made.
  void set_liquid_query(std::function<bool(const vec3&)> query) { liquid_ = std::move(query); }

  // PoseModifier: a LimbStepJob over the frame's local pose, placement and dt, written into
  // `model_transforms` (left unchanged when the frame does not fit this animator's model). It
  // recomputes every joint from the local pose, so it replaces what modifiers added before it
  // wrote: add it first.
  void modify(const PoseModifierFrame& frame, std::span<mat4> model_transforms) override;

  // ---- Outputs of the last step.
  std::span<const Limb> limbs() const { return limbs_; }
  std::span<const LimbFrame> limb_frames() const { return frames_; }
  float drop() const { return reactions_.drop(); }  // model units the root was lowered
  float lean() const { return reactions_.lean(); }  // degrees, positive forward
  float bank() const { return reactions_.bank(); }  // degrees, positive into a left turn
  WaterPose water_pose() const { return pose_; }
  bool lying() const { return lying_; }  // the torso is near horizontal (|up.y| < 0.5)
  // The eased weights of the whole-limb poses, indexed by WaterPose (entry 0 unused).
  std::span<const float, kWaterPoseCount> pose_weights() const { return pose_w_; }
  float stroke_phase() const { return phase_; }  // radians, in [0, 24π)
  const BodyReactions& reactions() const { return reactions_; }
  // The first limb joint found zero-scaled (|det| < 1e-9) in the last step, whose limb was left
  // unbent; -1 when none.
  int degenerate_joint() const { return degenerate_joint_; }
  // Calibration of §12, per limb: +1 or -1.
  int pitch_sign(int limb) const { return state_[static_cast<std::size_t>(limb)].pitch_sign; }
  int spread_sign(int limb) const { return state_[static_cast<std::size_t>(limb)].spread_sign; }

  // The stroke events since the last take (at most StrokeEvents::kCapacity), and clears them.
  StrokeEvents take_stroke_events();

  // §14 step 7: in first person the joint named "Head" and every joint below it are shrunk to 1 %
  // about the head's origin in the output, so a camera inside the head sees none of it. This is
  // the last step's pose before that shrink, one matrix per joint as the output (equal to it when
  // not in first person or without a "Head" joint), for a shadow-only skeleton: the player's
  // shadow keeps its head.
  std::span<const mat4> shadow_model_transforms() const { return shadow_; }
  std::span<const StrokeEvent> pending_stroke_events() const { return events_.events(); }

  const Model& model() const { return *model_; }

 private:
  friend struct LimbStepJob;
  struct LimbState {
    int pitch_sign = 1, spread_sign = 1;
    float out_sign = 1.0f;  // +1 when the limb hangs on the +bend-axis side
    mat4 rest{1.0f}, rest_inverse{1.0f};
    vec3 end_in_joint{0.0f};  // L.end in the joint's rest frame
    float swing = 0.0f, prev_swing = 0.0f, swing_rate = 0.0f;
    bool have_swing = false;
    float eased = 0.0f;
    LimbAngles motion{};
    float stroke_bend = 0.0f;  // this frame's weighted stroke bend (0 without a pose)
    bool carries = false;      // some joint hangs below its cut (lower_limb_)
    int wet = -1;              // -1 unknown, 0 dry, 1 wet
    vec3 last_end{0.0f};
  };

  explicit LimbAnimator(const Model& model) : model_(&model) {}
  void probe();
  void step(std::span<const Transform> local_pose, const mat4& root, const mat4& root_correction,
            float dt);
  void pose_limbs(float dt);
  void measure_limbs(const glm::mat3& root_inverse, float dt);
  void write_bones(const mat4& root_inverse, float dt);
  void shrink_head();
  // The lower joint's bend (seam false) or the seam joint's half-turn for a bend of `degrees`.
  mat4 bend_matrix(std::size_t limb, float degrees, bool seam) const;

  const Model* model_;
  LimbAnimatorOptions options_;
  vec3 forward_{0.0f, 0.0f, -1.0f};
  vec3 axis_{1.0f, 0.0f, 0.0f};
  std::vector<Limb> limbs_;
  std::vector<LimbState> state_;
  std::vector<LimbFrame> frames_;
  std::vector<Transform> locals_;
  std::vector<mat4> globals_;
  std::vector<std::int16_t> lower_limb_;  // per joint: limb whose lower half carries it, or -1
  std::vector<std::uint8_t> overridden_;  // per joint
  std::vector<std::uint8_t> on_head_;     // per joint: the head joint or below it
  std::vector<mat4> shadow_;              // the output before the first-person head shrink
  int head_joint_ = -1;
  int swing_joint_ = -1;  // set_first_person_swing's joint, or -1
  quat swing_{1.0f, 0.0f, 0.0f, 0.0f};
  int root_joint_ = -1;
  int body_joint_ = -1;
  mat4 body_rest_inverse_{1.0f};
  int lean_sign_ = 1, bank_sign_ = 1;
  BodyMotion motion_{};
  WaterPose pose_ = WaterPose::kNone;
  float pose_speed_ = 0.0f;
  std::array<float, kWaterPoseCount> pose_w_{};
  float phase_ = 0.0f;
  BodyReactions reactions_;
  bool first_person_ = false;
  bool in_water_ = false;
  bool lying_ = false;
  int degenerate_joint_ = -1;
  std::function<bool(const vec3&)> liquid_;
  StrokeEvents events_;
};

}  // namespace critter::creature
