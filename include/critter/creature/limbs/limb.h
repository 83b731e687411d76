// SPDX-License-Identifier: MIT
// Limb: one block limb (an arm or a leg) of a Luanti-shaped character, as find_limbs() finds it
// and split_limbs() cuts it at the knee or elbow (creatures.md §9–§11). Every user of the limb
// system (the split, the animator, tools) shares this description.
//
//   auto split = creature::split_limbs(model);            // at load
//   for (const creature::Limb& limb : split->limbs)
//     std::printf("%s bends about %g\n", limb.name.c_str(), limb.cut_y);
//
// Geometry (pivot, end, cut_y) is in the model space of the rest pose: the space of
// Model::rest_model_transforms(), +Y up. For the default forward (−Z, where critter's B3D import
// puts Luanti characters) this is exactly the limb space of creatures.md §8. For another forward,
// find_limbs() measures the limb box in a frame turned about +Y so that forward is −Z
// (limb_frame()) and turns pivot and end back into model space; heights are the same in both
// frames.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "critter/core/math.h"

namespace critter::creature {

enum class LimbKind : std::uint8_t { Arm, Leg };
enum class LimbSide : std::uint8_t { Right, Left };

struct Limb {
  std::string name;  // the source joint's name: "Arm_Right", "Arm_Left", "Leg_Right", "Leg_Left"
  LimbKind kind = LimbKind::Arm;
  LimbSide side = LimbSide::Right;
  int joint = -1;      // the source joint (skeleton index); keeps the half above the cut
  int bone = -1;       // the added joint for the half below the cut; -1 until split
  int seam_bone = -1;  // the added joint for the vertices on the cut; -1 until split
  vec3 pivot{0.0f};    // middle of the limb at the cut (rest model space, units)
  vec3 end{0.0f};      // (pivot.x, bottom y, pivot.z) in limb space: centre of the far end
  float cut_y = 0.0f;  // height of the cut (rest model space y, units)
};

// "arm" / "leg" and "right" / "left", as the CLI and JSON output spell them.
std::string_view to_string(LimbKind kind);
std::string_view to_string(LimbSide side);

// The default model-space forward of a character: −Z.
inline constexpr vec3 kDefaultLimbForward{0.0f, 0.0f, -1.0f};

// The horizontal unit forward used for `forward`: its XZ part normalised. Returns false (and
// leaves `out` at kDefaultLimbForward) when `forward` is not finite or has no horizontal part.
bool horizontal_forward(const vec3& forward, vec3& out);

// Rotation about +Y that maps the horizontal forward `forward` (see horizontal_forward) to −Z:
// limb-frame = limb_frame(forward) * model. Identity for −Z.
glm::mat3 limb_frame(const vec3& forward);

// The limb bend axis x̂ = normalize(cross(down, forward)) in model space (creatures.md §8); +X for
// forward −Z. `forward` must be horizontal and of unit length (horizontal_forward's output).
vec3 limb_bend_axis(const vec3& forward);

}  // namespace critter::creature
