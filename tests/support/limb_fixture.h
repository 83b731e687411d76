// SPDX-License-Identifier: MIT
// The limb fixture of creatures.md §22: a Luanti-shaped block character built in code, in limb
// space (forward −Z, +Y up, units of 1/10 node), for the limb split and the limb animator.
//
//   critter::Model model = critter::testing::limb_fixture();
//   auto split = critter::creature::split_limbs(model);
//
// Joints (parents first; translations relative to the parent):
//   0 "Player"     root at the origin
//   1 "Body"       (0, 6.3, 0) under Player
//   2 "Head"       (0, 6.3, 0) under Body          (model y 12.6)
//   3 "Arm_Left"   (3.15, 5.25, 0) under Body      (shoulder at model y 11.55)
//   4 "Arm_Right"  (-3.15, 5.25, 0) under Body
//   5 "Leg_Right"  (-1.05, 0, 0) under Body        (hip at model y 6.3)
//   6 "Leg_Left"   (1.05, 0, 0) under Body
//   7 "Wield_Item" (0, -5.8, 0) under Arm_Left     (model y 5.75, below the elbow cut)
// Boxes, each rigidly bound to its joint: body x ±2.1, y 6.3–12.6, z ±1.05; head 4.2³ above it;
// arms 2.1 × 6.3 × 2.1 at y 6.3–12.6 centred on x ±3.15; legs 2.1 × 6.3 × 2.1 at y 0–6.3 centred
// on x ±1.05. Every face is its own quad (4 vertices, 2 triangles, counter-clockwise from
// outside) with UVs into a 64×32 skin laid out as Minetest's (v = pixel row / 32; side faces
// span their net's rows top to bottom down the limb). One mesh, one part, one skin over all
// joints (inverse binds = inverse rest globals, so mesh space is model space).
// Clip "walk": 21 keys at 30 fps (0 to 2/3 s), legs and arms swinging ±40° about their local x
// as 40°·sin(2π·i/20): Leg_Right and Arm_Left with +, Leg_Left and Arm_Right with −.
#pragma once

#include "critter/asset/model.h"
#include "critter/core/math.h"

namespace critter::testing {

// Joint indices of the fixture (see above).
struct LimbFixtureJoint {
  static constexpr int kPlayer = 0;
  static constexpr int kBody = 1;
  static constexpr int kHead = 2;
  static constexpr int kArmLeft = 3;
  static constexpr int kArmRight = 4;
  static constexpr int kLegRight = 5;
  static constexpr int kLegLeft = 6;
  static constexpr int kWieldItem = 7;
};

// Walk clip: key count, frame rate and swing amplitude (degrees).
inline constexpr int kLimbFixtureWalkKeys = 21;
inline constexpr float kLimbFixtureWalkFps = 30.0f;
inline constexpr float kLimbFixtureSwingDeg = 40.0f;

// Appends a box from `lo` to `hi` (model space) to the fixture's single part, rigidly bound to
// skin joint `joint` (the fixture's skin lists every joint in skeleton order), with six faces of
// their own and UVs from Minetest's skin net whose top-left pixel is `net_px` for a box of
// `size_px` = (width, height, depth) pixels on a 64×32 skin.
void add_limb_fixture_box(RawModel& raw, int joint, vec3 lo, vec3 hi, vec2 net_px, vec3 size_px);

// The fixture as a RawModel, to add boxes (sleeves, armour, boots) before building.
RawModel limb_fixture_raw();

// The fixture, built. Never fails.
Model limb_fixture();

}  // namespace critter::testing
