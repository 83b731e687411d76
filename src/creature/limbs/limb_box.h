// SPDX-License-Identifier: MIT
// What find_limbs, split_limbs and recover_limbs share: the limb names, rest globals from the
// joints' own locals, and the box of the vertices rigid on a limb.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "critter/asset/model.h"
#include "critter/creature/limbs/limb.h"

namespace critter::creature::detail {

// The limb names in limb order, with their kind and side.
struct LimbName {
  std::string_view name;
  LimbKind kind;
  LimbSide side;
};
inline constexpr std::array<LimbName, 4> kLimbNames{{
    {"Arm_Right", LimbKind::Arm, LimbSide::Right},
    {"Arm_Left", LimbKind::Arm, LimbSide::Left},
    {"Leg_Right", LimbKind::Leg, LimbSide::Right},
    {"Leg_Left", LimbKind::Leg, LimbSide::Left},
}};

// find_limbs' rigid test: first influence weight >= this.
inline constexpr float kFindRigidWeight = 0.999f;

// model_from_joint of every joint in the rest pose, from the skeleton's local rest transforms.
std::vector<mat4> rest_globals(const Skeleton& skeleton);

// The index of the last joint named exactly `name`, or -1.
int last_joint_named(const Skeleton& skeleton, std::string_view name);

// The model's source path, or its name when built in code: the path of its warnings.
std::string model_path(const Model& model);

// A short decimal for messages ("3.15", "-0.5").
std::string number(float v);

// The box, in the frame `frame` (frame * rest model space), of every vertex of every skinned part
// whose first influence is one of `joints` with weight >= kFindRigidWeight. Vertices whose rest
// position is not finite are counted in `non_finite` and left out.
struct RigidBox {
  Aabb box;
  std::size_t vertices = 0;
  std::size_t non_finite = 0;
};
RigidBox rigid_box(const Model& model, std::span<const mat4> globals, const glm::mat3& frame,
                   std::span<const int> joints);

// Sets limb.cut_y, pivot and end (rest model space) from the limb-frame box `box`.
void place_limb(const Aabb& box, const glm::mat3& frame, Limb& limb);

}  // namespace critter::creature::detail
