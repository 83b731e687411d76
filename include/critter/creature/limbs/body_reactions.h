// SPDX-License-Identifier: MIT
// BodyReactions: the body-motion state of the limb animator (creatures.md §18) — the landing
// crouch and the drop that keeps the feet planted under it, the falling flail, the step-up, lean
// and bank. The limb animator owns one; it is public so hosts and tests can run the reactions on
// their own.
//
//   BodyReactions reactions;
//   reactions.set_leg_lengths(3.15f, 3.15f);
//   reactions.update(dt, motion, pose_weight_sum, /*first_person=*/false, stepping_leg);
//   LimbAngles a = reactions.motion_angles(limb_index, /*arm=*/false, /*right=*/true);
#pragma once

#include "critter/creature/limbs/body_motion.h"
#include "critter/creature/limbs/limb_angles.h"

namespace critter::creature {

class BodyReactions {
 public:
  // Thigh (joint to cut) and shin (cut to bottom centre) lengths in model units, >= 0, for the
  // drop (0 and 0 until set: no drop).
  void set_leg_lengths(float upper, float lower);

  // One step of dt seconds (<= 0: no time passes). `motion` must be finite (validate()).
  // `pose_weight_sum` is Σ pose_w of the whole-limb poses (lean and bank stay off from 0.5).
  // `stepping_leg` is the index of the leg with the largest current swing, the one that lifts on
  // a step up (-1 when none). In order: air time and fall peak while airborne; on touching down
  // land = max(land, land_depth(fall peak)) and the flail stops; a step up of 0.25..1.2 nodes
  // while grounded on both steps sets step = 1 on `stepping_leg`; the crouch eases in (τ 0.04 s),
  // land decays (τ 0.18 s), step decays (τ 0.12 s); the flail weight eases (τ 0.25 s) toward
  // falling (¬grounded, vy < −5, air time > 0.2 s); lean and bank ease (τ 0.15 s) toward their
  // targets; drop = leg_shortening of the legs' crouch.
  void update(float dt, const BodyMotion& motion, float pose_weight_sum, bool first_person,
              int stepping_leg);

  // The motion pose of limb `limb` (its index in the animator's limb list): the landing crouch
  // plus the flail while falling plus the step-up of the stepping leg (§18 motionAngles).
  LimbAngles motion_angles(int limb, bool arm, bool right) const;

  float drop() const { return drop_; }         // model units the body is lowered, >= 0
  float lean() const { return lean_; }         // degrees, positive = forward
  float bank() const { return bank_; }         // degrees, positive = into a left turn
  float land() const { return land_; }         // the landing impulse, 0..1, decaying
  float landing() const { return land_amt_; }  // the eased crouch depth, 0..1
  float fall_weight() const { return fall_w_; }
  float step() const { return step_; }
  int step_leg() const { return step_leg_; }
  float air_time() const { return air_time_; }
  float clock() const { return clock_; }  // seconds of update() so far

 private:
  float leg_upper_ = 0.0f, leg_lower_ = 0.0f;
  float air_time_ = 0.0f, fall_peak_ = 0.0f, fall_w_ = 0.0f;
  float land_ = 0.0f, land_amt_ = 0.0f, drop_ = 0.0f;
  float step_ = 0.0f;
  int step_leg_ = -1;
  float prev_y_ = 0.0f;
  bool prev_grounded_ = true, have_y_ = false;
  float lean_ = 0.0f, bank_ = 0.0f;
  float clock_ = 0.0f;
};

}  // namespace critter::creature
