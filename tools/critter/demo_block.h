// SPDX-License-Identifier: MIT
// The block character of `critter demo`: a Luanti player's shape built in code (head, body, two
// arms and two legs as boxes, in Luanti units: 1 node = 10 units, facing -Z) with a walk clip,
// split at knees and elbows and driven by the limb animator (creatures.md Part B) through a
// scripted loop: it walks with bending knees, jumps and lands in a crouch, climbs, then swims the
// crawl, treads water and does the breaststroke.
//
//   auto block = BlockDemo::create(8.0f);
//   block->advance_to(t);
//   block->place(instance);  // then draw at block->placement(t)
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "../common/limb_motion.h"
#include "critter/anim/instance.h"
#include "critter/anim/player.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"

namespace critter::cli {

// The character, unsplit: joints Player, Body, Head, Arm_Right, Arm_Left, Leg_Right, Leg_Left;
// materials skin, shirt, trousers; a "walk" clip (0.67 s loop, limbs swinging ±40°).
RawModel make_block_character();

// What the character showed over the loop, for `demo --info`.
struct BlockReport {
  std::vector<std::string> poses;  // the whole-limb poses in the order they came ("none" first)
  float max_knee = 0.0f;           // degrees
  float max_elbow = 0.0f;          // degrees
  float max_drop = 0.0f;           // model units the landing lowered the body
};

class BlockDemo {
 public:
  static Result<std::unique_ptr<BlockDemo>> create(float loop_seconds);

  const Model& model() const { return *model_; }
  // Steps the script and the animator at 60 Hz from the last time to `t` (a smaller t restarts).
  Status advance_to(float t);
  // This frame's bent matrices on `instance` (made from model()).
  Status place(anim::Instance& instance) const;
  // Where the character stands at loop time t (metres, Luanti units scaled down, the jump's
  // height and the swimmer lying face down included).
  mat4 placement(const vec3& at, float heading_deg) const;
  // Runs the whole loop once (from a restart) at `frames` samples and says what it showed.
  BlockReport watch(int frames);
  const tools::LimbSim& sim() const { return *sim_; }

  static constexpr float kScale = 0.065f;  // metres per Luanti unit in the demo (1.1 m tall)

 private:
  tools::LimbMotion script(float t, bool& walking, float& height, bool& lying) const;
  Status restart();

  float loop_ = 8.0f;
  std::unique_ptr<Model> model_;
  std::vector<creature::Limb> limbs_;
  std::unique_ptr<tools::LimbSim> sim_;
  std::unique_ptr<anim::Player> player_;
  std::vector<Transform> pose_;
  std::vector<mat4> out_;
  float time_ = 0.0f;
  float height_ = 0.0f;
  bool lying_ = false;
};

}  // namespace critter::cli
